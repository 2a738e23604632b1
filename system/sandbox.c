/*
 * -sandbox: a seccomp filter over the whole process, built with libseccomp.
 *
 * Everything is allowed except what the options deny:
 *   on                      syscalls an emulator never needs (reboot,
 *                           mount, kexec, swap, module loading, ...): the
 *                           process is killed
 *   obsolete=deny           obsolete syscalls (uselib, sysfs, ustat, ...)
 *   elevateprivileges=deny  set*uid/set*gid/setgroups and friends: killed;
 *                    =children  the same for the children only (NNP)
 *   spawn=deny              fork, vfork, execve, execveat and clone without
 *                           CLONE_THREAD: killed; clone3 fails with ENOSYS
 *                           so that the C library creates threads with clone
 *   resourcecontrol=deny    setpriority, sched_set*: EPERM
 * The filter is synchronised to every thread that exists already, and
 * inherited by those created later (vCPUs).
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "qemu/option.h"
#include "sysemu/os-posix.h"

#ifdef CONFIG_SECCOMP
#include <seccomp.h>

static const char *const deny_always[] = {
    "reboot", "swapon", "swapoff", "syslog", "mount", "umount", "umount2",
    "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "create_module", "afs_syscall", "break", "ftime",
    "getpmsg", "gtty", "lock", "mpx", "prof", "profil", "putpmsg",
    "security", "stty", "tuxcall", "ulimit", "vserver", "acct", "pivot_root",
    "quotactl", NULL,
};
static const char *const deny_obsolete[] = {
    "readdir", "_sysctl", "bdflush", "get_kernel_syms", "query_module",
    "uselib", "sysfs", "ustat", "vm86", "vm86old", "nfsservctl", NULL,
};
static const char *const deny_privileges[] = {
    "setuid", "setgid", "setpgid", "setsid", "setreuid", "setregid",
    "setresuid", "setresgid", "setfsuid", "setfsgid", "setgroups", NULL,
};
static const char *const deny_spawn[] = {
    "fork", "vfork", "execve", "execveat", NULL,
};
static const char *const deny_resources[] = {
    "setpriority", "sched_setparam", "sched_setscheduler",
    "sched_setattr", "sched_setaffinity", NULL,
};

/* Names this architecture lacks are skipped */
static bool add_rules(scmp_filter_ctx ctx, const char *const *names,
                      uint32_t action, Error **errp)
{
    int i;

    for (i = 0; names[i]; i++) {
        int nr = seccomp_syscall_resolve_name(names[i]);

        if (nr == __NR_SCMP_ERROR) {
            continue;
        }
        if (seccomp_rule_add(ctx, action, nr, 0) < 0) {
            error_setg(errp, "failed to add seccomp rule for %s", names[i]);
            return false;
        }
    }
    return true;
}

/*
 * In an AddressSanitizer build, LeakSanitizer checks for leaks at exit
 * from a task it clones with CLONE_VM and without CLONE_THREAD; such a
 * task shares the emulator's memory and runs no program, so those builds
 * let it through (CI's ASan pass runs libvirt's sandboxed command lines).
 * Release builds kill every clone without CLONE_THREAD.
 */
#if defined(__SANITIZE_ADDRESS__)
#define SPAWN_CLONE_MASK (CLONE_THREAD | CLONE_VM)
#else
#define SPAWN_CLONE_MASK CLONE_THREAD
#endif

static bool add_spawn_rules(scmp_filter_ctx ctx, uint32_t kill, Error **errp)
{
    int nr_clone3 = seccomp_syscall_resolve_name("clone3");

    if (!add_rules(ctx, deny_spawn, kill, errp)) {
        return false;
    }
    /* clone(flags) with CLONE_THREAD clear makes a process */
    if (seccomp_rule_add(ctx, kill, SCMP_SYS(clone), 1,
                         SCMP_A0(SCMP_CMP_MASKED_EQ, SPAWN_CLONE_MASK, 0)) < 0 ||
        (nr_clone3 != __NR_SCMP_ERROR &&
         seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr_clone3, 0) < 0)) {
        error_setg(errp, "failed to add seccomp rules for spawn=deny");
        return false;
    }
    return true;
}

/* allow|deny (and elevateprivileges's "children") */
static bool parse_policy(QemuOpts *opts, const char *name, bool children_ok,
                         int *out, Error **errp)
{
    const char *v = qemu_opt_get(opts, name);

    *out = 0;
    if (!v || !strcmp(v, "allow")) {
        return true;
    }
    if (!strcmp(v, "deny")) {
        *out = 1;
        return true;
    }
    if (children_ok && !strcmp(v, "children")) {
        *out = 2;
        return true;
    }
    error_setg(errp, "invalid argument for %s", name);
    return false;
}

bool sandbox_available(void)
{
    return true;
}

static bool sandbox_install(int obsolete, int privs, int spawn,
                            int resources, Error **errp)
{
    uint32_t kill = seccomp_api_get() >= 3 ? SCMP_ACT_KILL_PROCESS
                                           : SCMP_ACT_TRAP;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    bool ok = false;

    if (!ctx) {
        error_setg(errp, "failed to initialize seccomp context");
        return false;
    }
    if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) < 0) {
        error_setg(errp, "failed to synchronise seccomp over threads");
        goto out;
    }
    if (!add_rules(ctx, deny_always, kill, errp) ||
        (obsolete && !add_rules(ctx, deny_obsolete, kill, errp)) ||
        (privs == 1 && !add_rules(ctx, deny_privileges, kill, errp)) ||
        (spawn && !add_spawn_rules(ctx, kill, errp)) ||
        (resources && !add_rules(ctx, deny_resources,
                                 SCMP_ACT_ERRNO(EPERM), errp))) {
        goto out;
    }
    if (seccomp_load(ctx) < 0) {
        error_setg(errp, "failed to install seccomp syscall filter in the "
                   "kernel");
        goto out;
    }
    ok = true;
out:
    seccomp_release(ctx);
    return ok;
}

static const QemuOptDesc sandbox_desc[] = {
    { "enable", QEMU_OPT_BOOL },
    { "obsolete", QEMU_OPT_STRING },
    { "elevateprivileges", QEMU_OPT_STRING },
    { "spawn", QEMU_OPT_STRING },
    { "resourcecontrol", QEMU_OPT_STRING },
    { NULL },
};

/*
 * Parses (every value checked, short forms warned about as each -sandbox
 * is read) and, with apply, installs the filter
 */
static bool sandbox_parse(const char *optarg, bool apply, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "enable", errp);
    const QemuOpt *unused;
    int obsolete, privs, spawn, resources;
    bool enable, ok = false;
    Error *err = NULL;

    if (!opts) {
        return false;
    }
    if (!qemu_opts_validate(opts, sandbox_desc, !apply, errp)) {
        goto out;
    }
    enable = qemu_opt_get_bool(opts, "enable", false, &err);
    if (err) {
        error_propagate(errp, err);
        goto out;
    }
    if (!parse_policy(opts, "obsolete", false, &obsolete, errp) ||
        !parse_policy(opts, "elevateprivileges", true, &privs, errp) ||
        !parse_policy(opts, "spawn", false, &spawn, errp) ||
        !parse_policy(opts, "resourcecontrol", false, &resources, errp)) {
        goto out;
    }
    unused = qemu_opts_first_unused(opts);
    if (unused) {
        error_setg(errp, "Invalid parameter '%s'", unused->name);
        goto out;
    }
    ok = !apply || !enable ||
         sandbox_install(obsolete, privs, spawn, resources, errp);
out:
    qemu_opts_free(opts);
    return ok;
}

bool sandbox_check(const char *optarg, Error **errp)
{
    return sandbox_parse(optarg, false, errp);
}

bool sandbox_parse_and_apply(const char *optarg, Error **errp)
{
    return sandbox_parse(optarg, true, errp);
}

#else /* !CONFIG_SECCOMP */

bool sandbox_available(void)
{
    return false;
}

static bool sandbox_enabled(const char *optarg, bool *enable, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "enable", errp);
    Error *err = NULL;

    if (!opts) {
        return false;
    }
    *enable = qemu_opt_get_bool(opts, "enable", false, &err);
    qemu_opts_free(opts);
    if (err) {
        error_propagate(errp, err);
        return false;
    }
    return true;
}

bool sandbox_check(const char *optarg, Error **errp)
{
    bool enable;

    return sandbox_enabled(optarg, &enable, errp);
}

bool sandbox_parse_and_apply(const char *optarg, Error **errp)
{
    bool enable;

    if (!sandbox_enabled(optarg, &enable, errp)) {
        return false;
    }
    if (enable) {
        error_setg(errp, "seccomp support is disabled");
        return false;
    }
    return true;
}

#endif
