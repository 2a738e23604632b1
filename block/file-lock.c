/*
 * Image locking, QEMU 7.2's protocol (include/block/file-lock.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "block/block.h"
#include "block/file-lock.h"

#define LOCK_BITS (2 * BLK_PERM_COUNT)

static int lock_byte_of(int bit)
{
    return bit < BLK_PERM_COUNT ? FILE_LOCK_PERM_BASE + bit
                                : FILE_LOCK_SHARED_BASE + bit - BLK_PERM_COUNT;
}

static unsigned wanted_bits(unsigned perm, unsigned shared)
{
    return (perm & BLK_PERM_ALL) |
           ((~shared & BLK_PERM_ALL) << BLK_PERM_COUNT);
}

static int ofd_lock(int fd, int byte, short type)
{
    struct flock fl = {
        .l_whence = SEEK_SET, .l_start = byte, .l_len = 1, .l_type = type,
    };

    return fcntl(fd, F_OFD_SETLK, &fl) < 0 ? -errno : 0;
}

/* Whether another open file holds a lock on byte */
static int ofd_locked_elsewhere(int fd, int byte)
{
    struct flock fl = {
        .l_whence = SEEK_SET, .l_start = byte, .l_len = 1, .l_type = F_WRLCK,
    };

    if (fcntl(fd, F_OFD_GETLK, &fl) < 0) {
        return -errno;
    }
    return fl.l_type != F_UNLCK;
}

/* Takes the bits of want not in *held, then drops those of *held not in
 * keep; *held follows what actually happened */
static bool set_bits(int fd, unsigned *held, unsigned want, unsigned keep,
                     Error **errp)
{
    int bit, ret;

    for (bit = 0; bit < LOCK_BITS; bit++) {
        if ((want & (1u << bit)) && !(*held & (1u << bit))) {
            ret = ofd_lock(fd, lock_byte_of(bit), F_RDLCK);
            if (ret < 0) {
                error_setg_errno(errp, -ret, "Failed to lock byte %d",
                                        lock_byte_of(bit));
                return false;
            }
            *held |= 1u << bit;
        }
    }
    for (bit = 0; bit < LOCK_BITS; bit++) {
        if ((*held & (1u << bit)) && !(keep & (1u << bit))) {
            ret = ofd_lock(fd, lock_byte_of(bit), F_UNLCK);
            if (ret < 0) {
                error_setg_errno(errp, -ret, "Failed to unlock byte %d",
                                        lock_byte_of(bit));
                return false;
            }
            *held &= ~(1u << bit);
        }
    }
    return true;
}

/* QEMU's order: every permission taken, then every one not shared */
static bool check_conflicts(int fd, unsigned perm, unsigned shared,
                            const char *filename, Error **errp)
{
    int i, r;

    for (i = 0; i < BLK_PERM_COUNT; i++) {
        if (perm & (1u << i)) {
            r = ofd_locked_elsewhere(fd, FILE_LOCK_SHARED_BASE + i);
            if (r) {
                error_setg(errp, "Failed to get \"%s\" lock",
                           bdrv_perm_names[i]);
                error_append_hint(errp, "Is another process using the image "
                                  "[%s]?\n", filename);
                return false;
            }
        }
    }
    for (i = 0; i < BLK_PERM_COUNT; i++) {
        if (!(shared & (1u << i))) {
            r = ofd_locked_elsewhere(fd, FILE_LOCK_PERM_BASE + i);
            if (r) {
                error_setg(errp, "Failed to get shared \"%s\" lock",
                           bdrv_perm_names[i]);
                error_append_hint(errp, "Is another process using the image "
                                  "[%s]?\n", filename);
                return false;
            }
        }
    }
    return true;
}

bool file_lock_apply(int fd, unsigned *held, unsigned perm, unsigned shared,
                     bool check, const char *filename, Error **errp)
{
    unsigned old = *held, want = wanted_bits(perm, shared);

    /* Take the new bytes first, so that two openers racing see each other */
    if (!set_bits(fd, held, want | old, want | old, errp)) {
        set_bits(fd, held, old, old, NULL);
        return false;
    }
    if (check && !check_conflicts(fd, perm, shared, filename, errp)) {
        set_bits(fd, held, old, old, NULL);
        return false;
    }
    return set_bits(fd, held, want, want, errp);
}

bool file_lock_supported(int fd)
{
    return ofd_locked_elsewhere(fd, 0) >= 0;
}
