/*
 * Opening files by name, as QEMU's qemu_open(): a name "/dev/fdset/N"
 * is not opened but dup'ed from fd set N (monitor/fds.c), from the first
 * fd of the set whose access mode (O_RDONLY, O_WRONLY, O_RDWR) is the one
 * asked for.  Every fd returned is close-on-exec.
 */
#ifndef QEMU_OSDEP_H
#define QEMU_OSDEP_H

#include <stdbool.h>
#include <sys/types.h>

#include "qapi/error.h"

/*
 * -1 with errno on failure; for an fd set: EINVAL (not a number), ENOENT
 * (no such set), EACCES (no fd with that access mode).
 */
int qemu_open_raw(const char *path, int flags, mode_t mode);
/* "Could not open 'PATH': ..." ("Could not create" with O_CREAT), or for
 * an fd set "Could not dup FD for PATH flags HEX: ..." ("Could not parse
 * fdset PATH" if N is not a number) */
int qemu_open(const char *path, int flags, Error **errp);
int qemu_create(const char *path, int flags, mode_t mode, Error **errp);
/* Closes an fd; one dup'ed from an fd set is also forgotten by the set */
int qemu_close(int fd);

#endif
