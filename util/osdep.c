/*
 * qemu_open() and friends: file names that may name an fd set
 * (include/qemu/osdep.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "monitor/fds.h"
#include "qemu/osdep.h"

#define FDSET_PREFIX "/dev/fdset/"

/* The set a "/dev/fdset/N" name refers to; -1 with EINVAL if malformed */
static int64_t fdset_id_of(const char *path)
{
    const char *s = path + strlen(FDSET_PREFIX);
    char *end;
    long long v;

    errno = 0;
    v = strtoll(s, &end, 10);
    if (!*s || *end || errno || v < 0) {
        errno = EINVAL;
        return -1;
    }
    return v;
}

static bool is_fdset_path(const char *path)
{
    return g_str_has_prefix(path, FDSET_PREFIX);
}

int qemu_open_raw(const char *path, int flags, mode_t mode)
{
    int64_t id;

    if (!is_fdset_path(path)) {
        return open(path, flags | O_CLOEXEC, mode);
    }
    id = fdset_id_of(path);
    return id < 0 ? -1 : fdset_dup_fd(id, flags);
}

static int open_checked(const char *path, int flags, mode_t mode,
                        Error **errp)
{
    int fd = qemu_open_raw(path, flags, mode);
    int err = errno;

    if (fd >= 0) {
        return fd;
    }
    if (is_fdset_path(path) && fdset_id_of(path) < 0) {
        error_setg(errp, "Could not parse fdset %s", path);
    } else if (is_fdset_path(path)) {
        error_setg_errno(errp, err, "Could not dup FD for %s flags %x",
                         path, flags);
    } else {
        error_setg_errno(errp, err, "Could not %s '%s'",
                         flags & O_CREAT ? "create" : "open", path);
    }
    return -1;
}

int qemu_open(const char *path, int flags, Error **errp)
{
    return open_checked(path, flags, 0, errp);
}

int qemu_create(const char *path, int flags, mode_t mode, Error **errp)
{
    return open_checked(path, flags | O_CREAT, mode, errp);
}

int qemu_close(int fd)
{
    /* Forgotten first: once closed, the number may be reused at once */
    fdset_dup_closed(fd);
    return close(fd);
}
