/*
 * Protocol drivers on a POSIX file descriptor: "file" (a regular file)
 * and "host_device" (a block or character device).
 *
 * Requests are positional system calls (preadv/pwritev), safe to issue
 * from several threads at once.  cache.direct=on opens with O_DIRECT; a
 * request that is not aligned to the device's logical block size then
 * goes through an aligned bounce buffer, and an unaligned write becomes a
 * read-modify-write of the blocks around it, serialised by rmw_lock so
 * that two such writes into one block cannot undo each other.
 *
 * Flush: everything written went to the host kernel by the time a write
 * completes; flush_to_disk is fdatasync(), skipped by the generic layer
 * when cache.no-flush=on (cache=unsafe).
 *
 * aio=threads and aio=native run the same way here: the thread pool of
 * the BlockBackend (block/block-backend.c) issues the system calls;
 * native is accepted, with QEMU's requirement of cache.direct=on, so
 * that command lines written for QEMU work.  io_uring is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "block/block_int.h"
#include "block/file-lock.h"
#include "qemu/osdep.h"

typedef struct BDRVRawState {
    int fd;
    bool is_device;
    bool use_lock;
    unsigned locks_held;        /* file_lock_apply's bits */
    GMutex rmw_lock;
    /* query-blockstats' driver-specific counters (atomic) */
    gint64 discard_nb_ok, discard_nb_failed, discard_bytes_ok;
} BDRVRawState;

static bool file_open_common(BlockDriverState *bs, const BlockdevOptions *opts,
                             bool device, Error **errp)
{
    BDRVRawState *s = bs->opaque;
    const BlockdevOptionsFile *o = device ? &opts->u.host_device
                                          : &opts->u.file;
    int flags = O_CLOEXEC | (bs->cache_direct ? O_DIRECT : 0);
    struct stat st;

    s->fd = -1;
    g_mutex_init(&s->rmw_lock);
    if (o->has_aio && o->aio == BLOCKDEV_AIO_OPTIONS_IO_URING) {
        error_setg(errp, "aio=io_uring was specified, but is not supported "
                   "in this build.");
        return false;
    }
    if (o->has_aio && o->aio == BLOCKDEV_AIO_OPTIONS_NATIVE &&
        !bs->cache_direct) {
        error_setg(errp, "aio=native was specified, but it requires "
                   "cache.direct=on, which was not specified.");
        return false;
    }
    if (o->has_pr_manager) {
        error_setg(errp, "pr-manager is not supported by this build");
        return false;
    }
    if (o->has_aio_max_batch && o->aio_max_batch < 0) {
        error_setg(errp, "aio-max-batch must be a positive number");
        return false;
    }
    bs->filename = g_strdup(o->filename);
    /* the name may be an fd set's, /dev/fdset/N (include/qemu/osdep.h) */
    flags &= ~O_CLOEXEC;
    flags |= bs->read_only ? O_RDONLY : O_RDWR;
    s->fd = qemu_open_raw(o->filename, flags, 0);
    if (s->fd < 0 && !bs->read_only && bs->auto_read_only &&
        (errno == EACCES || errno == EPERM || errno == EROFS)) {
        /* auto-read-only: read-only when the file cannot be written */
        flags = (flags & ~O_ACCMODE) | O_RDONLY;
        s->fd = qemu_open_raw(o->filename, flags, 0);
        bs->read_only = true;
    }
    if (s->fd < 0 && g_str_has_prefix(o->filename, "/dev/fdset/")) {
        error_setg_errno(errp, errno, "Could not dup FD for %s flags %x",
                         o->filename, flags);
        return false;
    }
    if (s->fd < 0) {
        error_setg_errno(errp, errno, "Could not open '%s'", o->filename);
        return false;
    }
    if (fstat(s->fd, &st) < 0) {
        error_setg_errno(errp, errno, "Could not stat '%s'", o->filename);
        return false;
    }
    s->is_device = S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode);
    if (!device && !S_ISREG(st.st_mode)) {
        error_setg(errp, "'file' driver requires '%s' to be a regular file",
                   o->filename);
        return false;
    }
    if (device && !s->is_device) {
        error_setg(errp, "'host_device' driver requires '%s' to be either "
                   "a character or block device", o->filename);
        return false;
    }
    if (bs->cache_direct) {
        int sector = 0;

        /* The logical block size of the device; 4 KiB covers files */
        if (!(S_ISBLK(st.st_mode) && ioctl(s->fd, BLKSSZGET, &sector) == 0 &&
              sector > 0)) {
            sector = 4096;
        }
        bs->request_alignment = sector;
    }
    s->use_lock = !o->has_locking ||
                  o->locking != BLOCKDEV_ON_OFF_AUTO_OFF;
    if (s->use_lock && !file_lock_supported(s->fd)) {
        if (o->has_locking && o->locking == BLOCKDEV_ON_OFF_AUTO_ON) {
            warn_report("File lock requested but OFD locking syscall is "
                        "unavailable, falling back to POSIX file locks");
        }
        s->use_lock = false;
    }
    return true;
}

static bool file_open(BlockDriverState *bs, const BlockdevOptions *opts,
                      Error **errp)
{
    return file_open_common(bs, opts, false, errp);
}

static bool host_device_open(BlockDriverState *bs, const BlockdevOptions *opts,
                             Error **errp)
{
    return file_open_common(bs, opts, true, errp);
}

static void file_close(BlockDriverState *bs)
{
    BDRVRawState *s = bs->opaque;

    if (s->fd >= 0) {
        qemu_close(s->fd);  /* drops the image locks with it */
        s->fd = -1;
    }
    g_mutex_clear(&s->rmw_lock);
}

static bool file_set_perm(BlockDriverState *bs, unsigned perm,
                          unsigned shared, Error **errp)
{
    BDRVRawState *s = bs->opaque;
    Error *local = NULL;
    bool ok;

    if (!s->use_lock || s->fd < 0) {
        return true;
    }
    ok = file_lock_apply(s->fd, &s->locks_held, perm, shared, errp != NULL,
                         bs->filename, errp ? errp : &local);
    error_free(local);
    return ok;
}

/* Whole-range positional I/O; reads past the end of file give zeroes */
static int do_rw(BlockDriverState *bs, bool write, int64_t offset,
                 QEMUIOVector *qiov, size_t bytes)
{
    BDRVRawState *s = bs->opaque;
    QEMUIOVector part;
    size_t done = 0;
    ssize_t n;

    qemu_iovec_init(&part, qiov->niov);
    while (done < bytes) {
        qemu_iovec_reset(&part);
        qemu_iovec_concat(&part, qiov, done, bytes - done);
        n = write ? pwritev(s->fd, part.iov, part.niov, offset + done)
                  : preadv(s->fd, part.iov, part.niov, offset + done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int err = -errno;

            qemu_iovec_destroy(&part);
            return err;
        }
        if (n == 0) {
            if (write) {
                qemu_iovec_destroy(&part);
                return -EIO;
            }
            qemu_iovec_memset(qiov, done, 0, bytes - done);
            break;
        }
        done += n;
    }
    qemu_iovec_destroy(&part);
    return 0;
}

/* O_DIRECT with an unaligned request: an aligned bounce buffer */
static int bounce_rw(BlockDriverState *bs, bool write, int64_t offset,
                     int64_t bytes, QEMUIOVector *qiov)
{
    BDRVRawState *s = bs->opaque;
    uint32_t align = bs->request_alignment;
    int64_t start = offset / align * align;
    int64_t end = (offset + bytes + align - 1) / align * align;
    QEMUIOVector bq;
    void *buf;
    int ret;

    if (posix_memalign(&buf, MAX(align, 4096), end - start)) {
        return -ENOMEM;
    }
    qemu_iovec_init_buf(&bq, buf, end - start);
    if (write) {
        g_mutex_lock(&s->rmw_lock);
    }
    ret = do_rw(bs, false, start, &bq, end - start);
    if (!ret && write) {
        qemu_iovec_to_buf(qiov, 0, (char *)buf + (offset - start), bytes);
        ret = do_rw(bs, true, start, &bq, end - start);
    } else if (!ret) {
        qemu_iovec_from_buf(qiov, 0, (char *)buf + (offset - start), bytes);
    }
    if (write) {
        g_mutex_unlock(&s->rmw_lock);
    }
    free(buf);
    return ret;
}

static bool request_aligned(BlockDriverState *bs, int64_t offset,
                            int64_t bytes, QEMUIOVector *qiov)
{
    uint32_t a = bs->request_alignment;

    return a <= 1 || (offset % a == 0 && bytes % a == 0 &&
                      (size_t)bytes == qiov->size &&
                      qemu_iovec_is_aligned(qiov, a));
}

static int file_preadv(BlockDriverState *bs, int64_t offset, int64_t bytes,
                       QEMUIOVector *qiov, int flags)
{
    if (!request_aligned(bs, offset, bytes, qiov)) {
        return bounce_rw(bs, false, offset, bytes, qiov);
    }
    return do_rw(bs, false, offset, qiov, bytes);
}

static int file_pwritev(BlockDriverState *bs, int64_t offset, int64_t bytes,
                        QEMUIOVector *qiov, int flags)
{
    BDRVRawState *s = bs->opaque;
    int ret;

    if (!request_aligned(bs, offset, bytes, qiov)) {
        ret = bounce_rw(bs, true, offset, bytes, qiov);
    } else {
        ret = do_rw(bs, true, offset, qiov, bytes);
    }
    if (!ret && (flags & BDRV_REQ_FUA) && !bs->cache_no_flush &&
        fdatasync(s->fd) < 0) {
        ret = -errno;
    }
    return ret;
}

static int file_pwrite_zeroes(BlockDriverState *bs, int64_t offset,
                              int64_t bytes, int flags)
{
    BDRVRawState *s = bs->opaque;
    int mode;

    if (s->is_device) {
        uint64_t range[2] = { offset, bytes };

        if (offset % 512 || bytes % 512) {
            return -ENOTSUP;
        }
        return ioctl(s->fd, BLKZEROOUT, range) < 0 ? -ENOTSUP : 0;
    }
    /* A hole reads as zeroes; beyond the end, the file must grow */
    mode = (flags & BDRV_REQ_MAY_UNMAP) &&
                   offset + bytes <= bdrv_getlength(bs)
               ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
               : FALLOC_FL_ZERO_RANGE;
    if (fallocate(s->fd, mode, offset, bytes) == 0) {
        return 0;
    }
    return errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL
               ? -ENOTSUP : -errno;
}

static int file_pdiscard(BlockDriverState *bs, int64_t offset, int64_t bytes)
{
    BDRVRawState *s = bs->opaque;
    int ret;

    if (s->is_device) {
        uint64_t range[2] = { offset, bytes };

        ret = ioctl(s->fd, BLKDISCARD, range) < 0 ? -errno : 0;
    } else {
        ret = fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                        offset, bytes) < 0 ? -errno : 0;
    }
    if (!ret) {
        __atomic_add_fetch(&s->discard_nb_ok, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&s->discard_bytes_ok, bytes, __ATOMIC_RELAXED);
    } else {
        __atomic_add_fetch(&s->discard_nb_failed, 1, __ATOMIC_RELAXED);
    }
    /* A discard the host cannot do is not an error of the guest's */
    return ret == -EOPNOTSUPP || ret == -ENOTTY ? 0 : ret;
}

static int file_flush_to_disk(BlockDriverState *bs)
{
    BDRVRawState *s = bs->opaque;

    return fdatasync(s->fd) < 0 ? -errno : 0;
}

static int64_t file_getlength(BlockDriverState *bs)
{
    BDRVRawState *s = bs->opaque;
    struct stat st;
    off_t end;

    if (s->is_device) {
        end = lseek(s->fd, 0, SEEK_END);
        return end < 0 ? -errno : end;
    }
    if (fstat(s->fd, &st) < 0) {
        return -errno;
    }
    return st.st_size;
}

static int64_t file_get_allocated_file_size(BlockDriverState *bs)
{
    BDRVRawState *s = bs->opaque;
    struct stat st;

    if (fstat(s->fd, &st) < 0) {
        return -errno;
    }
    return (int64_t)st.st_blocks * 512;
}

static bool file_truncate(BlockDriverState *bs, int64_t size, Error **errp)
{
    BDRVRawState *s = bs->opaque;
    int64_t len;

    if (s->is_device) {
        len = file_getlength(bs);
        if (size > len) {
            error_setg(errp, "Cannot grow device files");
            return false;
        }
        return true;
    }
    if (ftruncate(s->fd, size) < 0) {
        error_setg_errno(errp, errno, "Failed to resize file");
        return false;
    }
    return true;
}

static JsonObject *file_stats_specific(BlockDriverState *bs)
{
    BDRVRawState *s = bs->opaque;
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "driver", bs->drv->format_name);
    json_object_set_int_member(o, "discard-nb-ok",
                               __atomic_load_n(&s->discard_nb_ok,
                                               __ATOMIC_RELAXED));
    json_object_set_int_member(o, "discard-nb-failed",
                               __atomic_load_n(&s->discard_nb_failed,
                                               __ATOMIC_RELAXED));
    json_object_set_int_member(o, "discard-bytes-ok",
                               __atomic_load_n(&s->discard_bytes_ok,
                                               __ATOMIC_RELAXED));
    return o;
}

const BlockDriver bdrv_file = {
    .format_name = "file",
    .driver = BLOCKDEV_DRIVER_FILE,
    .instance_size = sizeof(BDRVRawState),
    .is_protocol = true,
    .open = file_open,
    .close = file_close,
    .preadv = file_preadv,
    .pwritev = file_pwritev,
    .pwrite_zeroes = file_pwrite_zeroes,
    .pdiscard = file_pdiscard,
    .flush_to_disk = file_flush_to_disk,
    .getlength = file_getlength,
    .get_allocated_file_size = file_get_allocated_file_size,
    .truncate = file_truncate,
    .set_perm = file_set_perm,
    .stats_specific = file_stats_specific,
};

const BlockDriver bdrv_host_device = {
    .format_name = "host_device",
    .driver = BLOCKDEV_DRIVER_HOST_DEVICE,
    .instance_size = sizeof(BDRVRawState),
    .is_protocol = true,
    .has_variable_length = true,
    .open = host_device_open,
    .close = file_close,
    .preadv = file_preadv,
    .pwritev = file_pwritev,
    .pwrite_zeroes = file_pwrite_zeroes,
    .pdiscard = file_pdiscard,
    .flush_to_disk = file_flush_to_disk,
    .getlength = file_getlength,
    .get_allocated_file_size = file_get_allocated_file_size,
    .truncate = file_truncate,
    .set_perm = file_set_perm,
    .stats_specific = file_stats_specific,
};
