/*
 * The command line: QEMU's option table, and what each option does at
 * parse time (see system/vl.h for what is kept for later).
 *
 * QEMU 7.2 reads the command line twice.  The first pass only looks for
 * unknown options and missing arguments, so those errors win over
 * everything else.  The second pass handles the options in order: parse
 * errors name the option ("-m x: ..."), and a few help requests (-machine,
 * -accel, -smp, -boot) are answered there and then.  -cpu help and -device
 * help come later (system/vl.c), after the -d and -D checks.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "chardev/char.h"
#include "hw/boards.h"
#include "hw/char/serial.h"
#include "monitor/fds.h"
#include "monitor/hmp.h"
#include "monitor/qmp.h"
#include "net/net.h"
#include "qemu/datadir.h"
#include "qemu/option.h"
#include "sysemu/blockdev.h"
#include "sysemu/cli-compat.h"
#include "sysemu/device.h"
#include "sysemu/os-posix.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"
#include "sysemu/user-objects.h"
#include "vl.h"

char *qemu_name;
bool qemu_debug_threads;
char *qemu_uuid;
StartupConfig config;

typedef enum OptKind { OPT_FLAG, OPT_ARG } OptKind;

typedef struct StartupOption {
    const char *name;
    OptKind kind;
    void (*handler)(const char *opt, const char *arg);
} StartupOption;

/* An option acted on after the help checks */
typedef struct DeferredOption {
    DeferredPhase phase;
    bool (*create)(const char *arg, Error **errp);
    char *loc;                  /* "-chardev ...": errors name it (NULL:
                                 * from -readconfig, nothing) */
    char *arg;
} DeferredOption;

/* While -readconfig hands a group to its option: "FILE:LINE" */
static const char *readconfig_loc;
/* The option arguments -readconfig made (handlers keep pointers) */
static GPtrArray *readconfig_args;

/* Start-up only: the location is the option being handled */
static void G_GNUC_NORETURN fail(Error *err)
{
    error_report_err(err);
    exit(1);
}

static bool is_help_option(const char *arg)
{
    return !strcmp(arg, "help") || !strcmp(arg, "?");
}

static void version(void)
{
    printf("QEMU emulator version " QEMU_VERSION " (qemu-kvm-pv)\n"
           "Copyright (c) the qemu-kvm-pv developers\n");
}

static void help(void)
{
    version();
    printf("usage: qemu-system-x86_64 [options]\n\n"
           "Standard options:\n"
           "-h or -help     display this help and exit\n"
           "-version        display version information and exit\n"
           "-machine [type=]name[,prop[=value][,...]]\n"
           "                selects emulated machine ('-machine help' for list)\n"
           "                kernel-irqchip=on|off|split controls the irqchip\n"
           "-M              same as -machine\n"
           "-enable-kvm     same as -machine accel=kvm\n"
           "-accel [accel=]accelerator[,prop[=value][,...]]\n"
           "                select accelerator (kvm or qtest; '-accel help')\n"
           "-cpu cpu        select CPU ('-cpu help' for list)\n"
           "-smp [[cpus=]n][,maxcpus=maxcpus][,sockets=sockets][,dies=dies]\n"
           "               [,cores=cores][,threads=threads]\n"
           "-m [size=]megs[,slots=n,maxmem=size]\n"
           "                configure guest RAM size (suffixes k, M, G, T)\n"
           "-global driver.property=value\n"
           "                set a default value of a driver's property\n"
           "-name string1[,debug-threads=on|off]\n"
           "-uuid %%08x-%%04x-%%04x-%%04x-%%012x\n"
           "-S              freeze CPU at startup (use 'c' to start execution)\n"
           "--preconfig     pause before the machine is built (QMP\n"
           "                set-numa-node, then x-exit-preconfig)\n"
           "-numa node[,mem=size|memdev=id][,cpus=firstcpu[-lastcpu]]"
           "[,nodeid=node]\n"
           "-numa dist,src=source,dst=destination,val=distance\n"
           "-numa cpu,node-id=node[,socket-id=x][,core-id=y][,thread-id=z]\n"
           "-readconfig <file>\n"
           "                read config file\n"
           "-kernel bzImage use 'bzImage' as kernel image\n"
           "-append cmdline use 'cmdline' as kernel command line\n"
           "-initrd file    use 'file' as initial ram disk\n"
           "-chardev socket,id=id,path=path[,server=on|off][,wait=on|off]\n"
           "-chardev socket,id=id,host=host,port=port[,server=on|off]"
           "[,wait=on|off]\n"
           "                [,nodelay=on|off]\n"
           "-chardev stdio|null|file,id=id[,path=path]\n"
           "-mon [chardev=]name[,mode=readline|control]\n"
           "-qmp dev        like -mon but opens in 'control' mode\n"
           "-display none   no display\n"
           "-nographic      disable graphical output\n"
           "-serial dev     COM1 (then COM2...) to a character device: stdio,\n"
           "                mon:stdio, null, file:path, unix:path[,server=on],\n"
           "                tcp:[host]:port[,server=on], chardev:id or none\n"
           "-device driver[,prop=value][,...]\n"
           "                add a device ('-device help' for the list)\n"
           "-nodefaults     don't create default devices\n"
           "-no-user-config do not load default user-provided config files\n"
           "-no-hpet, -usb  same as -machine hpet=off, usb=on\n"
           "-monitor dev    the human monitor (a subset: 'help') on dev\n"
           "-vga, -parallel, -net, -nic, -gdb none\n"
           "                accepted: this build has none of these devices\n"
           "-object type,id=id,...  secret, memory-backend-ram, iothread,\n"
           "                rng-builtin, rng-random\n"
           "-d item1,...    QEMU's log items ('-d help'); -D logfile\n"
           "\nDuring emulation, QMP controls the machine.\n");
}

/* The keys of a keyval option, listed as QEMU lists them for "help" */
typedef struct OptHelp {
    const char *name;
    const char *type;
} OptHelp;

static void G_GNUC_NORETURN list_options(const char *title,
                                         const OptHelp *keys)
{
    printf("%s options:\n", title);
    for (; keys->name; keys++) {
        printf("  %s=<%s>\n", keys->name, keys->type);
    }
    exit(0);
}

/* Parses a QemuOpts option, warns for short boolean forms, checks desc */
static QemuOpts *parse_checked(const char *arg, const char *implied,
                               const QemuOptDesc *desc)
{
    QemuOpts *opts = qemu_opts_parse(arg, implied, &error_fatal);
    Error *err = NULL;

    if (!qemu_opts_validate(opts, desc, true, &err)) {
        fail(err);
    }
    return opts;
}

static void defer(DeferredPhase phase, const char *opt, const char *arg,
                  bool (*create)(const char *, Error **))
{
    DeferredOption *d = g_new0(DeferredOption, 1);

    d->phase = phase;
    d->create = create;
    /* QEMU names no place for what a config file's groups do later */
    d->loc = readconfig_loc ? NULL : g_strdup_printf("%s %s", opt, arg);
    d->arg = g_strdup(arg);
    g_ptr_array_add(config.deferred, d);
}

void vl_run_deferred(DeferredPhase phase)
{
    guint i;

    for (i = 0; i < config.deferred->len; i++) {
        DeferredOption *d = g_ptr_array_index(config.deferred, i);
        Error *err = NULL;

        if (d->phase != phase) {
            continue;
        }
        error_set_location(d->loc);
        if (!d->create(d->arg, &err)) {
            fail(err);
        }
        error_set_location(NULL);
    }
}

/* Handlers ---------------------------------------------------------------- */

static void opt_machine(const char *opt, const char *arg)
{
    const char *type;
    MachineClass *mc;
    Error *err = NULL;
    bool help = false;

    if (!keyval_parse_into(config.machine, arg, "type", &help, &err)) {
        fail(err);
    }
    if (!help) {
        return;
    }
    /* The type given so far, by this or an earlier -machine, if any */
    type = qemu_opt_get(config.machine, "type");
    mc = type ? machine_find_class(type) : NULL;
    if (mc) {
        machine_class_help(mc);
    } else {
        machine_help();
    }
    exit(0);
}

static void opt_accel(const char *opt, const char *arg)
{
    QemuOpts *opts = parse_checked(arg, "accel", NULL);
    const char *name = qemu_opt_get(opts, "accel");
    AccelOption *a;

    /* Without an accelerator name, QEMU lists them */
    if (!name || is_help_option(name)) {
        printf("Accelerators supported in QEMU binary:\nkvm\nqtest\n");
        exit(0);
    }
    a = g_new0(AccelOption, 1);
    a->opts = opts;
    a->loc = g_strdup_printf("%s %s", opt, arg);
    g_ptr_array_add(config.accels, a);
}

static void opt_cpu(const char *opt, const char *arg)
{
    config.cpu_option = arg;
}

static void opt_smp(const char *opt, const char *arg)
{
    static const OptHelp keys[] = {
        { "clusters", "num" }, { "cores", "num" }, { "cpus", "num" },
        { "dies", "num" }, { "maxcpus", "num" }, { "sockets", "num" },
        { "threads", "num" }, { NULL },
    };
    Error *err = NULL;
    bool help = false;

    if (!keyval_parse_into(config.smp, arg, "cpus", &help, &err)) {
        fail(err);
    }
    if (help) {
        list_options("smp-opts", keys);
    }
}

static void opt_m(const char *opt, const char *arg)
{
    QemuOpts *opts = parse_checked(arg, "size", machine_memory_opts);

    qemu_opts_merge(config.mem, opts);
    qemu_opts_free(opts);
}

static void opt_global(const char *opt, const char *arg)
{
    Error *err = NULL;
    GlobalProperty *g = global_property_parse(arg, &err);

    if (!g) {
        fail(err);
    }
    g_ptr_array_add(config.globals, g);
}

static void opt_S(const char *opt, const char *arg)
{
    config.start_paused = true;
}

static void opt_numa(const char *opt, const char *arg)
{
    g_ptr_array_add(config.numa, (gpointer)arg);
}

static void opt_preconfig(const char *opt, const char *arg)
{
    config.preconfig = true;
}

static void opt_chardev(const char *opt, const char *arg)
{
    qemu_opts_free(parse_checked(arg, "backend", qemu_chardev_opts));
    defer(DEFER_BACKEND, opt, arg, qemu_chardev_add);
}

static void opt_mon(const char *opt, const char *arg)
{
    qemu_opts_free(parse_checked(arg, "chardev", NULL));
    defer(DEFER_FRONTEND, opt, arg, qemu_mon_add);
}

/* -qmp and -monitor take a legacy chardev string: its syntax is checked now */
static void check_legacy_chardev(const char *arg, const char *what)
{
    char *opts;

    if (!strcmp(arg, "none")) {
        return;
    }
    opts = qemu_chr_legacy_to_opts(arg);
    if (!opts) {
        error_report(what, arg);
        exit(1);
    }
    g_free(opts);
}

static void opt_monitor(const char *opt, const char *arg)
{
    check_legacy_chardev(arg, "'%s' is not a valid char driver");
    defer(DEFER_FRONTEND, opt, arg, qemu_monitor_add);
}

static void opt_qmp(const char *opt, const char *arg)
{
    check_legacy_chardev(arg, "parse error: %s");
    defer(DEFER_FRONTEND, opt, arg, qemu_qmp_add);
}

static void opt_qmp_pretty(const char *opt, const char *arg)
{
    check_legacy_chardev(arg, "parse error: %s");
    defer(DEFER_FRONTEND, opt, arg, qemu_qmp_pretty_add);
}

/*
 * -display TYPE[,gl=...]: QEMU's display types; this build has "none",
 * and OpenGL nowhere (checked with the machine, as QEMU does)
 */
static void opt_display(const char *opt, const char *arg)
{
    static const char *const types[] = {
        "default", "none", "gtk", "sdl", "egl-headless", "curses", "cocoa",
        "spice-app", "dbus", NULL,
    };
    static const char *const gl[] = {
        "off", "on", "core", "es", NULL,
    };
    Error *err = NULL;
    bool help = false;
    QemuOpts *opts = keyval_parse(arg, "type", &help, &err);
    const char *type, *v;
    const QemuOpt *unused;

    if (!opts) {
        fail(err);
    }
    if (help) {
        if (opts->opts->len) {
            error_report("Help is not available for this option");
            exit(1);
        }
        printf("Available display backend types:\nnone\n");
        exit(0);
    }
    type = qemu_opt_get(opts, "type");
    if (!type) {
        error_report("Parameter 'type' is missing");
        exit(1);
    }
    if (!g_strv_contains(types, type)) {
        error_report("Parameter 'type' does not accept value '%s'", type);
        exit(1);
    }
    v = qemu_opt_get(opts, "gl");
    if (v && !g_strv_contains(gl, v)) {
        error_report("Parameter 'gl' does not accept value '%s'", v);
        exit(1);
    }
    unused = qemu_opts_first_unused(opts);
    if (unused) {
        error_report("Parameter '%s' is unexpected", unused->name);
        exit(1);
    }
    qemu_opts_free(config.display);
    config.display = opts;
}

static void opt_name(const char *opt, const char *arg)
{
    static const QemuOptDesc desc[] = {
        { "guest", QEMU_OPT_STRING },
        { "process", QEMU_OPT_STRING },
        { "debug-threads", QEMU_OPT_BOOL },
        { NULL },
    };
    QemuOpts *opts = parse_checked(arg, "guest", desc);
    const char *guest = qemu_opt_get(opts, "guest");
    const char *process = qemu_opt_get(opts, "process");

    if (guest) {
        g_free(qemu_name);
        qemu_name = g_strdup(guest);
    }
    /* Threads started later inherit the name, as in QEMU */
    if (process) {
        prctl(PR_SET_NAME, process);
    }
    qemu_debug_threads = qemu_opt_get_bool(opts, "debug-threads", false,
                                           NULL);
    qemu_opts_free(opts);
}

static void opt_uuid(const char *opt, const char *arg)
{
    if (!g_uuid_string_is_valid(arg)) {
        error_report("failed to parse UUID string: wrong format");
        exit(1);
    }
    g_free(qemu_uuid);
    /* QEMU keeps the 16 bytes and prints them in lower case */
    qemu_uuid = g_ascii_strdown(arg, -1);
}

void qemu_uuid_get_bytes(uint8_t uuid[16])
{
    unsigned i;

    memset(uuid, 0, 16);
    /* "01234567-89ab-..." in text order: checked when parsed */
    for (i = 0; qemu_uuid && i < 16; i++) {
        const char *p = qemu_uuid + 2 * i + (i >= 4) + (i >= 6) + (i >= 8) +
                        (i >= 10);

        uuid[i] = g_ascii_xdigit_value(p[0]) << 4 | g_ascii_xdigit_value(p[1]);
    }
}

/* -bios FILE: found on the -L path (qemu/datadir.h) when the board maps it */
static void opt_bios(const char *opt, const char *arg)
{
    g_free(qemu_bios_name);
    qemu_bios_name = g_strdup(arg);
}

static void opt_data_dir(const char *opt, const char *arg)
{
    if (!strcmp(arg, "help")) {
        qemu_list_data_dirs();
        exit(0);
    }
    qemu_add_data_dir(arg);
}

/* -kernel, -initrd and -append are the machine's properties of that name */
static void opt_kernel(const char *opt, const char *arg)
{
    qemu_opts_set(config.machine, "kernel", arg);
}

static void opt_initrd(const char *opt, const char *arg)
{
    qemu_opts_set(config.machine, "initrd", arg);
}

static void opt_append(const char *opt, const char *arg)
{
    qemu_opts_set(config.machine, "append", arg);
}

static void opt_msg(const char *opt, const char *arg)
{
    static const QemuOptDesc desc[] = {
        { "timestamp", QEMU_OPT_BOOL },
        { "guest-name", QEMU_OPT_BOOL },
        { NULL },
    };
    QemuOpts *opts = parse_checked(arg, NULL, desc);

    error_set_timestamps(qemu_opt_get_bool(opts, "timestamp", false, NULL));
    qemu_opts_free(opts);
}

static void opt_version(const char *opt, const char *arg)
{
    version();
    exit(0);
}

static void opt_help(const char *opt, const char *arg)
{
    help();
    exit(0);
}

static void opt_qtest(const char *opt, const char *arg)
{
    config.qtest_chrdev = arg;
}

static void opt_qtest_log(const char *opt, const char *arg)
{
    config.qtest_log = arg;
}

/* -run-with exit-with-parent=on (upstream's libqtest 10.x passes it) */
static void opt_run_with(const char *opt, const char *arg)
{
    static const QemuOptDesc desc[] = {
        { "exit-with-parent", QEMU_OPT_BOOL },
        { NULL },
    };
    QemuOpts *opts = parse_checked(arg, NULL, desc);

    if (qemu_opt_get_bool(opts, "exit-with-parent", false, NULL)) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
    }
    qemu_opts_free(opts);
}

/* Shorthands QEMU 7.2 turns into -machine keys, merged in order with them */
static void opt_enable_kvm(const char *opt, const char *arg)
{
    qemu_opts_set(config.machine, "accel", "kvm");
}

static void opt_no_hpet(const char *opt, const char *arg)
{
    qemu_opts_set(config.machine, "hpet", "off");
}

static void opt_usb(const char *opt, const char *arg)
{
    qemu_opts_set(config.machine, "usb", "on");
}

static void opt_no_acpi(const char *opt, const char *arg)
{
    qemu_opts_set(config.machine, "acpi", "off");
}

static void opt_none_only(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!cli_none_only(opt, arg, &err)) {
        fail(err);
    }
}

/* -s is -gdb tcp::1234 */
static void opt_gdb_default(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!cli_none_only("-gdb", "tcp::1234", &err)) {
        fail(err);
    }
}

static void opt_no_shutdown(const char *opt, const char *arg)
{
    runstate_set_shutdown_action(SHUTDOWN_ACTION_PAUSE);
}

static void opt_no_reboot(const char *opt, const char *arg)
{
    runstate_set_reboot_action(REBOOT_ACTION_SHUTDOWN);
}

/* An enum value by name, or QEMU's refusal naming the parameter */
static int action_value(QemuOpts *opts, const char *key,
                        const char *const *names, int count)
{
    const char *v = qemu_opt_get(opts, key);
    int i;

    if (!v) {
        return -1;
    }
    for (i = 0; i < count; i++) {
        if (!strcmp(v, names[i])) {
            return i;
        }
    }
    error_report("Parameter '%s' does not accept value '%s'", key, v);
    exit(1);
}

/*
 * -action reboot=,shutdown=,panic=,watchdog= (QEMU 7.2's RunStateAction);
 * applied in command-line order with -no-reboot and -no-shutdown
 */
static void opt_action(const char *opt, const char *arg)
{
    static const QemuOptDesc desc[] = {
        { "reboot", QEMU_OPT_STRING },
        { "shutdown", QEMU_OPT_STRING },
        { "panic", QEMU_OPT_STRING },
        { "watchdog", QEMU_OPT_STRING },
        { NULL },
    };
    QemuOpts *opts = qemu_opts_parse(arg, NULL, &error_fatal);
    Error *err = NULL;
    int v;

    if (qemu_opts_has_help(opts)) {
        /* QEMU lists the keys, by name, and exits with status 1 */
        printf("action options:\n  panic=<str>\n  reboot=<str>\n"
               "  shutdown=<str>\n  watchdog=<str>\n");
        exit(1);
    }
    if (!qemu_opts_validate(opts, desc, true, &err)) {
        fail(err);
    }
    v = action_value(opts, "reboot", RebootAction_str, REBOOT_ACTION__MAX);
    if (v >= 0) {
        runstate_set_reboot_action(v);
    }
    v = action_value(opts, "shutdown", ShutdownAction_str,
                     SHUTDOWN_ACTION__MAX);
    if (v >= 0) {
        runstate_set_shutdown_action(v);
    }
    v = action_value(opts, "panic", PanicAction_str, PANIC_ACTION__MAX);
    if (v >= 0) {
        runstate_set_panic_action(v);
    }
    v = action_value(opts, "watchdog", WatchdogAction_str,
                     WATCHDOG_ACTION__MAX);
    if (v >= 0) {
        runstate_set_watchdog_action(v);
    }
    qemu_opts_free(opts);
}

static void opt_serial(const char *opt, const char *arg)
{
    defer(DEFER_FRONTEND, opt, arg, serial_hds_add);
}

static void opt_device(const char *opt, const char *arg)
{
    if (arg[0] != '{') {
        qemu_opts_free(parse_checked(arg, "driver", NULL));
    }
    if (qemu_device_is_help(arg)) {
        /* Answered after the -d and -D checks; the first one counts */
        config.device_help = config.device_help ? config.device_help : arg;
        return;
    }
    defer(DEFER_DEVICE, opt, arg, qemu_device_add);
}

/* -nographic: the default serial port goes to stdio, Ctrl-A x quits */
static void opt_nographic(const char *opt, const char *arg)
{
    config.nographic = true;
    qemu_devices_set_nographic(true);
}

static void opt_nodefaults(const char *opt, const char *arg)
{
    config.nodefaults = true;
    qemu_devices_set_nodefaults(true);
}

/* -add-fd: the syntax now, the fd once the command line is read */
static void opt_add_fd(const char *opt, const char *arg)
{
    static const QemuOptDesc desc[] = {
        { "fd", QEMU_OPT_NUMBER },
        { "set", QEMU_OPT_NUMBER },
        { "opaque", QEMU_OPT_STRING },
        { NULL },
    };

    if (is_help_option(arg)) {
        exit(1);    /* QEMU 7.2 has no help to give here, and says nothing */
    }
    qemu_opts_free(parse_checked(arg, NULL, desc));
    defer(DEFER_FDSET, opt, arg, fdset_cli_add);
}

static void opt_pidfile(const char *opt, const char *arg)
{
    config.pidfile = arg;
}

/*
 * Each -sandbox is checked now and applied at start-up, in order: as in
 * QEMU 7.2, every one that is on installs its filter (filters add up)
 */
static void opt_sandbox(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!sandbox_check(arg, &err)) {
        fail(err);
    }
    g_ptr_array_add(config.sandboxes, (char *)arg);
}

/* Options whose parser reports through Error (system/cli-compat.c etc.) */
static void opt_checked(bool (*parse)(const char *, Error **),
                        const char *arg)
{
    Error *err = NULL;

    if (!parse(arg, &err)) {
        fail(err);
    }
}

/*
 * -object: the syntax now, the object once the command line is read, as
 * QEMU creates its early backends (-name debug-threads= then names an
 * iothread's thread, as in QEMU)
 */
static void opt_object(const char *opt, const char *arg)
{
    if (arg[0] != '{') {
        QemuOpts *opts = parse_checked(arg, "qom-type", NULL);
        const char *type = qemu_opt_get(opts, "qom-type");
        Error *err = NULL;

        /* The type is checked as the option is read, as QEMU does */
        if (type && !user_object_check_type(type, &err)) {
            fail(err);
        }
        qemu_opts_free(opts);
    }
    defer(DEFER_BACKEND, opt, arg, user_object_add);
}

static void opt_overcommit(const char *opt, const char *arg)
{
    opt_checked(os_overcommit_parse, arg);
}

static void opt_rtc(const char *opt, const char *arg)
{
    static const QemuOptDesc desc[] = {
        { "base", QEMU_OPT_STRING },
        { "clock", QEMU_OPT_STRING },
        { "driftfix", QEMU_OPT_STRING },
        { NULL },
    };
    QemuOpts *opts = parse_checked(arg, NULL, desc);

    qemu_opts_merge(config.rtc, opts);
    qemu_opts_free(opts);
}

static void opt_boot(const char *opt, const char *arg)
{
    static const OptHelp keys[] = {
        { "menu", "bool (on/off)" }, { "once", "str" }, { "order", "str" },
        { "reboot-timeout", "num" }, { "splash-time", "num" },
        { "splash", "str" }, { "strict", "bool (on/off)" }, { NULL },
    };
    Error *err = NULL;
    bool help = false;

    if (!keyval_parse_into(config.boot, arg, "order", &help, &err)) {
        fail(err);
    }
    if (help) {
        list_options("boot-opts", keys);
    }
}

static void opt_audiodev(const char *opt, const char *arg)
{
    opt_checked(cli_audiodev_parse, arg);
}

static void opt_audio(const char *opt, const char *arg)
{
    opt_checked(cli_audio_parse, arg);
}

static void opt_log_items(const char *opt, const char *arg)
{
    config.log_items = arg;
}

static void opt_log_file(const char *opt, const char *arg)
{
    config.log_file = arg;
}

/* Accepted for compatibility; nothing in this tree depends on them yet */
static void opt_ignore(const char *opt, const char *arg)
{
}

static void opt_readconfig(const char *opt, const char *arg)
{
    vl_readconfig(arg);
}

static const StartupOption startup_options[] = {
    { "machine", OPT_ARG, opt_machine },
    { "M", OPT_ARG, opt_machine },
    { "accel", OPT_ARG, opt_accel },
    { "cpu", OPT_ARG, opt_cpu },
    { "smp", OPT_ARG, opt_smp },
    { "m", OPT_ARG, opt_m },
    { "global", OPT_ARG, opt_global },
    { "S", OPT_FLAG, opt_S },
    { "preconfig", OPT_FLAG, opt_preconfig },
    { "numa", OPT_ARG, opt_numa },
    { "readconfig", OPT_ARG, opt_readconfig },
    { "chardev", OPT_ARG, opt_chardev },
    { "mon", OPT_ARG, opt_mon },
    { "qmp", OPT_ARG, opt_qmp },
    { "qmp-pretty", OPT_ARG, opt_qmp_pretty },
    { "display", OPT_ARG, opt_display },
    { "nographic", OPT_FLAG, opt_nographic },
    { "nodefaults", OPT_FLAG, opt_nodefaults },
    { "serial", OPT_ARG, opt_serial },
    { "device", OPT_ARG, opt_device },
    { "drive", OPT_ARG, blockdev_drive_option },
    { "blockdev", OPT_ARG, blockdev_blockdev_option },
    { "no-user-config", OPT_FLAG, opt_ignore },
    { "no-shutdown", OPT_FLAG, opt_no_shutdown },
    { "no-acpi", OPT_FLAG, opt_no_acpi },
    { "no-hpet", OPT_FLAG, opt_no_hpet },
    { "enable-kvm", OPT_FLAG, opt_enable_kvm },
    { "usb", OPT_FLAG, opt_usb },
    { "vga", OPT_ARG, opt_none_only },
    { "monitor", OPT_ARG, opt_monitor },
    { "parallel", OPT_ARG, opt_none_only },
    { "netdev", OPT_ARG, net_netdev_cli },
    { "net", OPT_ARG, net_net_cli },
    { "nic", OPT_ARG, net_nic_cli },
    { "gdb", OPT_ARG, opt_none_only },
    { "s", OPT_FLAG, opt_gdb_default },
    { "d", OPT_ARG, opt_log_items },
    { "D", OPT_ARG, opt_log_file },
    { "no-reboot", OPT_FLAG, opt_no_reboot },
    { "action", OPT_ARG, opt_action },
    { "audio", OPT_ARG, opt_audio },
    { "audiodev", OPT_ARG, opt_audiodev },
    { "object", OPT_ARG, opt_object },
    { "overcommit", OPT_ARG, opt_overcommit },
    { "rtc", OPT_ARG, opt_rtc },
    { "boot", OPT_ARG, opt_boot },
    { "sandbox", OPT_ARG, opt_sandbox },
    { "pidfile", OPT_ARG, opt_pidfile },
    { "add-fd", OPT_ARG, opt_add_fd },
    { "daemonize", OPT_FLAG, opt_ignore }, /* see qemu_init() */
    { "name", OPT_ARG, opt_name },
    { "uuid", OPT_ARG, opt_uuid },
    { "kernel", OPT_ARG, opt_kernel },
    { "bios", OPT_ARG, opt_bios },
    { "L", OPT_ARG, opt_data_dir },
    { "initrd", OPT_ARG, opt_initrd },
    { "append", OPT_ARG, opt_append },
    { "msg", OPT_ARG, opt_msg },
    { "qtest", OPT_ARG, opt_qtest },
    { "qtest-log", OPT_ARG, opt_qtest_log },
    { "run-with", OPT_ARG, opt_run_with },
    { "version", OPT_FLAG, opt_version },
    { "help", OPT_FLAG, opt_help },
    { "h", OPT_FLAG, opt_help },
    { NULL },
};

static const StartupOption *find_option(const char *arg);

/*
 * An option given by -readconfig (system/readconfig.c): its handler runs
 * with "FILE:LINE" as the location, which deferred work keeps too
 */
void vl_run_option_at(const char *opt, const char *arg, const char *file_loc)
{
    const StartupOption *o = find_option(opt);
    char *a = g_strdup(arg);

    if (!readconfig_args) {
        readconfig_args = g_ptr_array_new_with_free_func(g_free);
    }
    g_ptr_array_add(readconfig_args, a);
    readconfig_loc = file_loc;
    error_set_file_location(file_loc);
    /* QEMU reports a config file's errors without their hints */
    error_set_hints(false);
    o->handler(opt, a);
    error_set_hints(true);
    error_set_location(NULL);
    readconfig_loc = NULL;
}

/* The option an argument names ("-m" and "--m" alike), or NULL */
static const StartupOption *find_option(const char *arg)
{
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    const StartupOption *o;

    for (o = startup_options; o->name; o++) {
        if (!strcmp(o->name, name)) {
            return o;
        }
    }
    return NULL;
}

void vl_parse_command_line(int argc, char **argv)
{
    int i;

    config.machine = qemu_opts_new();
    config.accels = g_ptr_array_new();
    config.smp = qemu_opts_new();
    config.mem = qemu_opts_new();
    config.boot = qemu_opts_new();
    config.rtc = qemu_opts_new();
    config.globals = g_ptr_array_new();
    config.deferred = g_ptr_array_new();
    config.sandboxes = g_ptr_array_new();
    config.numa = g_ptr_array_new();

    /* First pass: an unknown option or a missing argument, anywhere */
    for (i = 1; i < argc; i++) {
        const StartupOption *o;

        if (argv[i][0] != '-') {
            continue;
        }
        o = find_option(argv[i]);
        if (!o) {
            error_report("%s: invalid option", argv[i]);
            exit(1);
        }
        if (o->kind == OPT_ARG && ++i >= argc) {
            error_report("%s: requires an argument", argv[i - 1]);
            exit(1);
        }
    }
    for (i = 1; i < argc; i++) {
        const StartupOption *o;
        char *loc;

        /* QEMU takes a bare word as a disk image; there are no disks */
        if (argv[i][0] != '-') {
            error_report("%s: invalid option", argv[i]);
            exit(1);
        }
        o = find_option(argv[i]);
        loc = o->kind == OPT_FLAG ? g_strdup(argv[i])
                                  : g_strdup_printf("%s %s", argv[i],
                                                    argv[i + 1]);
        error_set_location(loc);
        g_free(loc);
        o->handler(argv[i], o->kind == OPT_FLAG ? NULL : argv[i + 1]);
        error_set_location(NULL);
        i += o->kind == OPT_ARG;
    }
}

void vl_config_free(void)
{
    guint i;

    for (i = 0; i < config.deferred->len; i++) {
        DeferredOption *d = g_ptr_array_index(config.deferred, i);

        g_free(d->loc);
        g_free(d->arg);
        g_free(d);
    }
    g_ptr_array_free(config.deferred, TRUE);
    g_ptr_array_free(config.sandboxes, TRUE);
    g_ptr_array_free(config.numa, TRUE);
    if (readconfig_args) {
        g_ptr_array_free(readconfig_args, TRUE);
        readconfig_args = NULL;
    }
    qemu_opts_free(config.smp);
    qemu_opts_free(config.mem);
    qemu_opts_free(config.boot);
    qemu_opts_free(config.rtc);
}
