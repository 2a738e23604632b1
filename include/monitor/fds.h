/*
 * File descriptors a management tool passes in, as QEMU 7.2 takes them.
 *
 * Fd sets: -add-fd fd=N,set=M[,opaque=S] at start-up, QMP add-fd (the fd
 * comes with the command, SCM_RIGHTS) at run time.  A file name
 * "/dev/fdset/M" then stands for the set: qemu_open() dups a member of
 * it (include/qemu/osdep.h).  query-fdsets lists the sets (newest id
 * first) and their fds in the order they came; the dups are not listed.
 * remove-fd marks fds removed.  As in QEMU 7.2, fds are closed only while
 * the VM runs: a removed fd then, and every fd of a set with no dup in use
 * once no QMP client is connected; a set with neither fds nor dups goes.
 *
 * Named fds: getfd NAME keeps the fd that came with it under NAME for the
 * monitor it came on (a later getfd of the name replaces it), closefd
 * closes it, and an option that takes an fd (netdev tap fd=) takes a
 * name when it does not start with a digit and comes over QMP.
 */
#ifndef MONITOR_FDS_H
#define MONITOR_FDS_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

/* -add-fd (the syntax was checked when the option was read) */
bool fdset_cli_add(const char *optarg, Error **errp);
/* After every -add-fd: closes the fds as passed (the sets hold dups) */
void fdset_cli_done(void);
/* A dup of the first fd of set id with flags' access mode; -1 + errno */
int fdset_dup_fd(int64_t id, int flags);
/* fd, if a dup from a set, is being closed */
void fdset_dup_closed(int fd);
/* QMP clients come and go (the close rule above) */
void fdset_monitor_opened(void);
void fdset_monitor_closed(void);
/*
 * An fd option's value: a number, or over QMP a getfd name (the fd is
 * then the caller's); -1 with "Invalid file descriptor number '...'" or
 * "File descriptor named '...' has not been found".
 */
int monitor_fd_param(const char *name, Error **errp);

#endif
