/*
 * Process set-up: -daemonize, -pidfile and -overcommit.
 *
 * -daemonize forks before anything else happens, so that no thread, KVM
 * fd or timer has to survive a fork.  The parent only waits: it exits 0
 * when the daemon reports that start-up is complete, which is after the
 * monitors listen and the pidfile exists (libvirt connects as soon as the
 * parent is gone), or with the daemon's status if it dies first.  Until
 * then the daemon's errors reach the caller's stderr; afterwards stdin,
 * stdout and stderr are /dev/null, so nobody reading them waits for EOF.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qemu/option.h"
#include "qemu/osdep.h"
#include "sysemu/os-posix.h"

static bool daemonized;
static int daemon_ready_fd = -1;

bool os_is_daemonized(void)
{
    return daemonized;
}

void os_daemonize_start(void)
{
    int fds[2];
    pid_t pid;
    char c;
    ssize_t n;
    int status;

    if (pipe2(fds, O_CLOEXEC) < 0) {
        perror("qemu-system-x86_64: pipe");
        exit(1);
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        perror("qemu-system-x86_64: fork");
        exit(1);
    }
    if (pid > 0) {
        /* Parent: no atexit handlers, they belong to the daemon */
        close(fds[1]);
        do {
            n = read(fds[0], &c, 1);
        } while (n < 0 && errno == EINTR);
        if (n == 1) {
            _exit(0);
        }
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        _exit(WIFEXITED(status) && WEXITSTATUS(status) ? WEXITSTATUS(status)
                                                       : 1);
    }
    close(fds[0]);
    daemon_ready_fd = fds[1];
    daemonized = true;
    setsid();
}

void os_daemonize_ready(void)
{
    int fd;
    char c = 0;

    if (daemon_ready_fd < 0) {
        return;
    }
    fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
        fflush(stdout);
        fflush(stderr);
        dup2(fd, STDIN_FILENO);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        if (fd > STDERR_FILENO) {
            close(fd);
        }
    }
    while (write(daemon_ready_fd, &c, 1) < 0 && errno == EINTR) {
    }
    close(daemon_ready_fd);
    daemon_ready_fd = -1;
}

/* -pidfile -------------------------------------------------------------- */

static char *pidfile_path;
static dev_t pidfile_dev;
static ino_t pidfile_ino;

static void pidfile_remove(void)
{
    struct stat st;

    /* Only if the file is still ours (nobody replaced it meanwhile) */
    if (pidfile_path && !stat(pidfile_path, &st) && st.st_dev == pidfile_dev &&
        st.st_ino == pidfile_ino) {
        unlink(pidfile_path);
    }
}

bool os_pidfile_create(const char *path, Error **errp)
{
    /*
     * An fd set (/dev/fdset/N) has no path to check again; QEMU 7.2 then
     * loops for ever, dup'ing, and never starts
     */
    bool fdset = g_str_has_prefix(path, "/dev/fdset/");
    struct stat a, b;
    char buf[32];
    int fd, len;

    for (;;) {
        fd = qemu_create(path, O_WRONLY, 0600, errp);
        if (fd < 0) {
            error_prepend(errp, "cannot create PID file: ");
            return false;
        }
        if (lockf(fd, F_TLOCK, 0) < 0) {
            error_setg(errp, "cannot create PID file: Cannot lock pid file: "
                       "%s", strerror(errno));
            qemu_close(fd);
            return false;
        }
        /* The holder of an older lock may have removed the file */
        if (fstat(fd, &a) == 0 &&
            (fdset || (stat(path, &b) == 0 && a.st_dev == b.st_dev &&
                       a.st_ino == b.st_ino))) {
            break;
        }
        qemu_close(fd);
    }
    len = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
    if (ftruncate(fd, 0) < 0 || write(fd, buf, len) != len) {
        error_setg(errp, "cannot create PID file: Failed to write pid file");
        qemu_close(fd);
        return false;
    }
    /* The fd stays open: the lock lasts as long as the process */
    if (fdset) {
        return true;    /* nothing to remove at exit */
    }
    pidfile_path = g_strdup(path);
    pidfile_dev = a.st_dev;
    pidfile_ino = a.st_ino;
    atexit(pidfile_remove);
    return true;
}

/* -overcommit ------------------------------------------------------------ */

static bool mem_lock, cpu_pm;

bool os_overcommit_cpu_pm(void)
{
    return cpu_pm;
}

bool os_overcommit_parse(const char *optarg, Error **errp)
{
    static const QemuOptDesc desc[] = {
        { "mem-lock", QEMU_OPT_BOOL },
        { "cpu-pm", QEMU_OPT_BOOL },
        { NULL },
    };
    QemuOpts *opts = qemu_opts_parse(optarg, NULL, errp);
    const QemuOpt *unused;
    Error *err = NULL;
    bool ok = false;

    if (!opts) {
        return false;
    }
    if (!qemu_opts_validate(opts, desc, true, errp)) {
        qemu_opts_free(opts);
        return false;
    }
    /* Each -overcommit sets both, as in QEMU 7.2: the last one counts */
    mem_lock = qemu_opt_get_bool(opts, "mem-lock", false, &err);
    if (!err) {
        /* cpu-pm=on lets a guest idle in its vCPU (accel/kvm) */
        cpu_pm = qemu_opt_get_bool(opts, "cpu-pm", false, &err);
    }
    unused = qemu_opts_first_unused(opts);
    if (err) {
        error_propagate(errp, err);
    } else if (unused) {
        error_setg(errp, "Invalid parameter '%s'", unused->name);
    } else {
        ok = true;
    }
    qemu_opts_free(opts);
    return ok;
}

bool os_overcommit_apply(Error **errp)
{
    if (mem_lock && mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
        error_setg(errp, "locking memory failed: %s", strerror(errno));
        return false;
    }
    return true;
}
