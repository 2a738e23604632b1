/*
 * Process set-up around the emulator (system/os-posix.c, system/sandbox.c):
 * -daemonize, -pidfile, -overcommit, -sandbox.
 */
#ifndef SYSEMU_OS_POSIX_H
#define SYSEMU_OS_POSIX_H

#include <stdbool.h>

#include "qapi/error.h"

/*
 * -daemonize: forks at once.  The parent waits until the child calls
 * os_daemonize_ready() (then exits 0) or dies (then exits with the
 * child's status, 1 if it was killed).  The child starts a new session.
 */
void os_daemonize_start(void);
bool os_is_daemonized(void);
/*
 * In the daemon, once start-up is complete (monitors listen, pidfile
 * written): tells the parent, then points stdin/stdout/stderr at
 * /dev/null and leaves the working directory.  No-op otherwise.
 */
void os_daemonize_ready(void);

/* -pidfile PATH: written and locked now, removed at exit. */
bool os_pidfile_create(const char *path, Error **errp);

/* -overcommit mem-lock=on|off,cpu-pm=on|off */
bool os_overcommit_parse(const char *optarg, Error **errp);
/*
 * cpu-pm=on: HLT, MWAIT, PAUSE and C-states stay in the guest
 * (KVM_CAP_X86_DISABLE_EXITS), and host/max CPUs show MONITOR/MWAIT
 */
bool os_overcommit_cpu_pm(void);
/* Applies mem-lock=on (mlockall) after the guest RAM exists. */
bool os_overcommit_apply(Error **errp);

/*
 * -sandbox on|off[,obsolete=allow|deny][,elevateprivileges=allow|deny|
 * children][,spawn=allow|deny][,resourcecontrol=allow|deny]: a seccomp
 * filter, installed at once for every thread of the process.  Without
 * libseccomp at build time only "off" is accepted.
 */
bool sandbox_parse_and_apply(const char *optarg, Error **errp);
/* The same checks, without installing anything (each -sandbox given) */
bool sandbox_check(const char *optarg, Error **errp);
/* Whether this build has -sandbox (query-command-line-options). */
bool sandbox_available(void);

#endif
