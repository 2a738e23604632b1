/*
 * Start-up: the command line (QEMU's syntax, design §3) and the explicit
 * phases that build a machine from it:
 *   parse -> help/version -> chardevs and monitors -> machine object ->
 *   accelerator -> CPU options -> board init (vCPUs) -> run state -> loop.
 * Errors are one QEMU-style line and exit status 1; exit() happens only
 * here, on the start-up path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "chardev/char.h"
#include "exec/memory.h"
#include "hw/boards.h"
#include "hw/char/serial.h"
#include "hw/i386/x86-boot.h"
#include "monitor/qmp.h"
#include "qemu/option.h"
#include "monitor/hmp.h"
#include "sysemu/blockdev.h"
#include "sysemu/cli-compat.h"
#include "sysemu/device.h"
#include "sysemu/kvm.h"
#include "sysemu/os-posix.h"
#include "sysemu/qtest.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"
#include "sysemu/user-objects.h"
#include "target/i386/cpu.h"

char *qemu_name;
char *qemu_uuid;

typedef struct StartupConfig {
    const char *machine_opts;
    GPtrArray *accels;          /* char*: "kvm", "qtest", "tcg" in order */
    char *accel_irqchip;        /* -accel kvm,kernel-irqchip=... */
    bool accel_option;          /* -accel given */
    bool machine_accel;         /* -machine accel= or -enable-kvm given */
    const char *cpu_option;
    const char *smp_option;
    const char *mem_option;
    GPtrArray *globals;         /* GlobalProperty* */
    bool start_paused;
    const char *kernel, *initrd, *append;
    const char *pidfile, *sandbox;
    bool nographic, nodefaults;
} StartupConfig;

static StartupConfig config;
static const char *qtest_chrdev, *qtest_log;

/* An option that exits after printing, like "-machine help" */
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
           "-object type,id=id,...  secret, memory-backend-ram, iothread\n"
           "\nDuring emulation, QMP controls the machine.\n");
}

static void accel_help(void)
{
    printf("Accelerators supported in QEMU binary:\nkvm\nqtest\n");
}

/* Options ----------------------------------------------------------------- */

typedef enum OptKind { OPT_FLAG, OPT_ARG } OptKind;

typedef struct StartupOption {
    const char *name;
    OptKind kind;
    void (*handler)(const char *opt, const char *arg);
} StartupOption;

static void G_GNUC_NORETURN fatal(const char *opt, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

/* "-global foo": the option being handled, for QEMU's error location */
static char *current_location;

static void fatal(const char *opt, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (opt && current_location) {
        error_report("%s: %s", current_location, msg);
    } else if (opt) {
        error_report("%s: %s", opt, msg);
    } else {
        error_report("%s", msg);
    }
    g_free(msg);
    exit(1);
}

static void opt_machine(const char *opt, const char *arg)
{
    config.machine_opts = arg;
}

static void opt_accel(const char *opt, const char *arg)
{
    QemuOpts *opts;
    const char *name;
    Error *err = NULL;
    guint i;

    if (is_help_option(arg)) {
        accel_help();
        exit(0);
    }
    opts = qemu_opts_parse(arg, "accel", &err);
    if (!opts) {
        fatal(opt, "%s", error_get_pretty(err));
    }
    name = qemu_opt_get(opts, "accel");
    if (!name) {
        fatal(opt, "Parameter 'accel' is missing");
    }
    for (i = 0; !strcmp(name, "kvm") || !strcmp(name, "qtest") ?
                i < opts->opts->len : 0; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);

        if (!strcmp(o->name, "accel")) {
            continue;
        }
        if (strcmp(name, "kvm")) {
            fatal(opt, "Property '%s-accel.%s' not found", name, o->name);
        }
        if (!kvm_accel_check_option(o->name, o->value, &err)) {
            fatal(opt, "%s", error_get_pretty(err));
        }
        if (!strcmp(o->name, "kernel-irqchip")) {
            g_free(config.accel_irqchip);
            config.accel_irqchip = g_strdup(o->value);
        }
    }
    g_ptr_array_add(config.accels, g_strdup(name));
    config.accel_option = true;
    qemu_opts_free(opts);
}

static void opt_cpu(const char *opt, const char *arg)
{
    config.cpu_option = arg;
}

static void opt_smp(const char *opt, const char *arg)
{
    config.smp_option = arg;
}

static void opt_m(const char *opt, const char *arg)
{
    config.mem_option = arg;
}

static void opt_global(const char *opt, const char *arg)
{
    GlobalProperty *g = g_new0(GlobalProperty, 1);
    const char *eq = strchr(arg, '=');
    const char *dot;

    /* "driver.property=value" */
    if (!eq) {
        fatal(opt, "Invalid parameter '%s'", arg);
    }
    dot = memchr(arg, '.', eq - arg);
    if (!dot || dot == arg || dot + 1 == eq) {
        fatal(opt, "Invalid parameter '%.*s'", (int)(eq - arg), arg);
    }
    g->driver = g_strndup(arg, dot - arg);
    g->property = g_strndup(dot + 1, eq - dot - 1);
    g->value = g_strdup(eq + 1);
    g_ptr_array_add(config.globals, g);
}

static void opt_S(const char *opt, const char *arg)
{
    config.start_paused = true;
}

static void opt_chardev(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!qemu_chardev_add(arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

static void opt_mon(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!qemu_mon_add(arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

static void opt_monitor(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!qemu_monitor_add(arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

static void opt_qmp(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!qemu_qmp_add(arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

static void opt_display(const char *opt, const char *arg)
{
    if (strcmp(arg, "none") && !g_str_has_prefix(arg, "none,")) {
        fatal(NULL, "Display '%s' is not available in this build", arg);
    }
    if (g_str_has_prefix(arg, "none,")) {
        /* none takes no options but QEMU's common gl= (off only here) */
        const char *o = arg + 5;
        size_t n = strcspn(o, "=,");

        if (strcmp(o, "gl=off")) {
            fatal(opt, "Parameter '%.*s' is unexpected", (int)n, o);
        }
    }
}

static void opt_name(const char *opt, const char *arg)
{
    Error *err = NULL;
    QemuOpts *opts = qemu_opts_parse(arg, "guest", &err);

    if (!opts) {
        fatal(opt, "%s", error_get_pretty(err));
    }
    g_free(qemu_name);
    qemu_name = g_strdup(qemu_opt_get(opts, "guest"));
    qemu_opt_get(opts, "process");
    qemu_opt_get_bool(opts, "debug-threads", false, &err);
    if (err) {
        fatal(opt, "%s", error_get_pretty(err));
    }
    if (qemu_opts_first_unused(opts)) {
        fatal(opt, "Invalid parameter '%s'", qemu_opts_first_unused(opts)->name);
    }
    qemu_opts_free(opts);
}

static void opt_uuid(const char *opt, const char *arg)
{
    if (!g_uuid_string_is_valid(arg)) {
        fatal(opt, "failed to parse UUID string: wrong format");
    }
    g_free(qemu_uuid);
    qemu_uuid = g_strdup(arg);
}

static void opt_kernel(const char *opt, const char *arg)
{
    config.kernel = arg;
}

static void opt_initrd(const char *opt, const char *arg)
{
    config.initrd = arg;
}

static void opt_append(const char *opt, const char *arg)
{
    config.append = arg;
}

static void opt_msg(const char *opt, const char *arg)
{
    bool timestamps;
    Error *err = NULL;
    QemuOpts *opts = qemu_opts_parse(arg, NULL, &err);

    if (!opts) {
        fatal(opt, "%s", error_get_pretty(err));
    }
    timestamps = qemu_opt_get_bool(opts, "timestamp", false, &err);
    qemu_opt_get(opts, "guest-name");
    if (err) {
        fatal(opt, "%s", error_get_pretty(err));
    }
    if (qemu_opts_first_unused(opts)) {
        fatal(opt, "Invalid parameter '%s'", qemu_opts_first_unused(opts)->name);
    }
    error_set_timestamps(timestamps);
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
    qtest_chrdev = arg;
}

static void opt_qtest_log(const char *opt, const char *arg)
{
    qtest_log = arg;
}

/* -run-with exit-with-parent=on (upstream's libqtest 10.x passes it) */
static void opt_run_with(const char *opt, const char *arg)
{
    Error *err = NULL;
    QemuOpts *opts = qemu_opts_parse(arg, NULL, &err);
    const QemuOpt *unused;

    if (!opts) {
        fatal(opt, "%s", error_get_pretty(err));
    }
    if (qemu_opt_get_bool(opts, "exit-with-parent", false, &err)) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
    }
    if (err) {
        fatal(opt, "%s", error_get_pretty(err));
    }
    unused = qemu_opts_first_unused(opts);
    if (unused) {
        fatal(opt, "Invalid parameter '%s'", unused->name);
    }
    qemu_opts_free(opts);
}

/* -no-acpi is -machine acpi=off, applied with the machine's options */
static bool no_acpi, no_hpet, usb_on;

static void opt_enable_kvm(const char *opt, const char *arg)
{
    /* QEMU: the same as -machine accel=kvm */
    g_ptr_array_add(config.accels, g_strdup("kvm"));
    config.machine_accel = true;
}

static void opt_no_hpet(const char *opt, const char *arg)
{
    no_hpet = true;
}

static void opt_usb(const char *opt, const char *arg)
{
    usb_on = true;
}

static void opt_none_only(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!cli_none_only(opt, arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

/* -s is -gdb tcp::1234 */
static void opt_gdb_default(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!cli_none_only("-gdb", "tcp::1234", &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

static void opt_no_acpi(const char *opt, const char *arg)
{
    no_acpi = true;
}

static void opt_no_shutdown(const char *opt, const char *arg)
{
    runstate_set_no_shutdown(true);
}

static void opt_no_reboot(const char *opt, const char *arg)
{
    runstate_set_no_reboot(true);
}

static void opt_serial(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (!serial_hds_add(arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

static void opt_device(const char *opt, const char *arg)
{
    Error *err = NULL;

    if (qemu_device_help(arg)) {
        exit(0);
    }
    if (!qemu_device_add(arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
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

static void opt_pidfile(const char *opt, const char *arg)
{
    config.pidfile = arg;
}

static void opt_sandbox(const char *opt, const char *arg)
{
    config.sandbox = arg;
}

/* Options whose parser reports through Error (system/cli-compat.c etc.) */
static void opt_checked(const char *opt, const char *arg,
                        bool (*parse)(const char *, Error **))
{
    Error *err = NULL;

    if (!parse(arg, &err)) {
        fatal(opt, "%s", error_get_pretty(err));
    }
}

static void opt_object(const char *opt, const char *arg)
{
    opt_checked(opt, arg, user_object_add);
}

static void opt_overcommit(const char *opt, const char *arg)
{
    opt_checked(opt, arg, os_overcommit_parse);
}

static void opt_rtc(const char *opt, const char *arg)
{
    opt_checked(opt, arg, cli_rtc_parse);
}

static void opt_boot(const char *opt, const char *arg)
{
    opt_checked(opt, arg, cli_boot_parse);
}

static void opt_audiodev(const char *opt, const char *arg)
{
    opt_checked(opt, arg, cli_audiodev_parse);
}

/* Accepted for compatibility; nothing in this tree depends on them yet */
static void opt_ignore(const char *opt, const char *arg)
{
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
    { "chardev", OPT_ARG, opt_chardev },
    { "mon", OPT_ARG, opt_mon },
    { "qmp", OPT_ARG, opt_qmp },
    { "display", OPT_ARG, opt_display },
    { "nographic", OPT_FLAG, opt_nographic },
    { "nodefaults", OPT_FLAG, opt_nodefaults },
    { "serial", OPT_ARG, opt_serial },
    { "device", OPT_ARG, opt_device },
    { "no-user-config", OPT_FLAG, opt_ignore },
    { "no-shutdown", OPT_FLAG, opt_no_shutdown },
    { "no-acpi", OPT_FLAG, opt_no_acpi },
    { "no-hpet", OPT_FLAG, opt_no_hpet },
    { "enable-kvm", OPT_FLAG, opt_enable_kvm },
    { "usb", OPT_FLAG, opt_usb },
    { "vga", OPT_ARG, opt_none_only },
    { "monitor", OPT_ARG, opt_monitor },
    { "parallel", OPT_ARG, opt_none_only },
    { "net", OPT_ARG, opt_none_only },
    { "nic", OPT_ARG, opt_none_only },
    { "gdb", OPT_ARG, opt_none_only },
    { "s", OPT_FLAG, opt_gdb_default },
    /* Logging: KVM guests give QEMU's TCG log items nothing to log */
    { "d", OPT_ARG, opt_ignore },
    { "D", OPT_ARG, opt_ignore },
    { "no-reboot", OPT_FLAG, opt_no_reboot },
    { "audio", OPT_ARG, opt_ignore },
    { "audiodev", OPT_ARG, opt_audiodev },
    { "object", OPT_ARG, opt_object },
    { "drive", OPT_ARG, blockdev_drive_option },
    { "blockdev", OPT_ARG, blockdev_blockdev_option },
    { "overcommit", OPT_ARG, opt_overcommit },
    { "rtc", OPT_ARG, opt_rtc },
    { "boot", OPT_ARG, opt_boot },
    { "sandbox", OPT_ARG, opt_sandbox },
    { "pidfile", OPT_ARG, opt_pidfile },
    { "daemonize", OPT_FLAG, opt_ignore }, /* see qemu_init() */
    { "name", OPT_ARG, opt_name },
    { "uuid", OPT_ARG, opt_uuid },
    { "kernel", OPT_ARG, opt_kernel },
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

static void parse_command_line(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const StartupOption *o;
        const char *name;

        if (arg[0] != '-') {
            fatal(NULL, "%s: invalid option", arg);
        }
        /* QEMU accepts --opt as well as -opt */
        name = arg + (arg[1] == '-' ? 2 : 1);
        for (o = startup_options; o->name; o++) {
            if (!strcmp(o->name, name)) {
                break;
            }
        }
        if (!o->name) {
            fatal(NULL, "%s: invalid option", arg);
        }
        if (o->kind == OPT_ARG) {
            if (i + 1 >= argc) {
                fatal(NULL, "%s: requires an argument", arg);
            }
            current_location = g_strdup_printf("%s %s", arg, argv[i + 1]);
            o->handler(arg, argv[++i]);
            g_free(current_location);
            current_location = NULL;
        } else {
            o->handler(arg, NULL);
        }
    }
}

/* Machine construction ---------------------------------------------------- */

static MachineClass *select_machine(QemuOpts **out_opts)
{
    const char *type = NULL;
    QemuOpts *opts = NULL;
    MachineClass *mc;
    Error *err = NULL;

    if (config.machine_opts) {
        opts = qemu_opts_parse(config.machine_opts, "type", &err);
        if (!opts) {
            fatal("-machine", "%s", error_get_pretty(err));
        }
        type = qemu_opt_get(opts, "type");
    }
    if (type && is_help_option(type)) {
        machine_help();
        exit(0);
    }
    mc = type ? machine_find_class(type) : machine_get_default_class();
    if (!mc) {
        error_report("unsupported machine type");
        fprintf(stderr, "Use -machine help to list supported machines\n");
        exit(1);
    }
    *out_opts = opts;
    return mc;
}

static void machine_set_options(MachineState *ms, QemuOpts *opts)
{
    guint i;

    for (i = 0; opts && i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);

        if (is_help_option(opt->name)) {
            machine_class_help(MACHINE_GET_CLASS(ms));
            exit(0);
        }
    }
    for (i = 0; opts && i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);
        Error *err = NULL;

        if (!strcmp(opt->name, "type")) {
            continue;
        }
        if (!strcmp(opt->name, "accel")) {
            char **list = g_strsplit(opt->value, ":", -1);
            int j;
            for (j = 0; list[j]; j++) {
                g_ptr_array_add(config.accels, g_strdup(list[j]));
            }
            config.machine_accel = true;
            g_strfreev(list);
            continue;
        }
        if (!object_property_parse(OBJECT(ms), opt->name, opt->value, &err)) {
            error_report_err(err);
            exit(1);
        }
    }
}

static void G_GNUC_NORETURN bad_size(const char *key)
{
    error_report("-m %s: Parameter '%s' expects a non-negative number "
                 "below 2^64", config.mem_option, key);
    fprintf(stderr, "Optional suffix k, M, G, T, P or E means kilo-, "
                    "mega-, giga-, tera-, peta-\n"
                    "and exabytes, respectively.\n");
    exit(1);
}

/*
 * -m [size=]N[,slots=N,maxmem=N]: slots and maxmem (memory hotplug) are
 * checked as QEMU does and otherwise not used
 */
static void parse_memory(MachineState *ms)
{
    QemuOpts *opts;
    Error *err = NULL;
    const char *s, *v;
    uint64_t size, maxmem = 0, slots = 0;
    char *loc;

    ms->ram_size = 128 * 1024 * 1024;
    if (!config.mem_option) {
        return;
    }
    loc = g_strdup_printf("-m %s", config.mem_option);
    opts = qemu_opts_parse(config.mem_option, "size", &err);
    if (!opts) {
        fatal(loc, "%s", error_get_pretty(err));
    }
    s = qemu_opt_get(opts, "size");
    if (s && !qemu_strtosz(s, 1024 * 1024, &size)) {
        bad_size("size");
    }
    if (!qemu_opt_get_number(opts, "slots", 0, &slots, &err)) {
        fatal(loc, "%s", error_get_pretty(err));
    }
    v = qemu_opt_get(opts, "maxmem");
    if (v && !qemu_strtosz(v, 1024 * 1024, &maxmem)) {
        bad_size("maxmem");
    }
    if (qemu_opts_first_unused(opts)) {
        fatal(loc, "Invalid parameter '%s'",
              qemu_opts_first_unused(opts)->name);
    }
    if (s && size) {
        ms->ram_size = size;
    }
    if (slots && !v) {
        fatal(NULL, "slots specified but no max-size");
    }
    if (v && maxmem < ms->ram_size) {
        fatal(NULL, "invalid value of maxmem: maximum memory size (0x%"
              PRIx64 ") must be at least the initial memory size (0x%"
              PRIx64 ")", maxmem, ms->ram_size);
    }
    if (slots > 256) {
        fatal(NULL, "unsupported amount of memory slots: %" PRIu64, slots);
    }
    qemu_opts_free(opts);
    g_free(loc);
}

static void configure_kernel_irqchip(MachineState *ms, MachineClass *mc)
{
    const char *s = config.accel_irqchip ? config.accel_irqchip
                                         : ms->kernel_irqchip_str;

    if (!s) {
        ms->kernel_irqchip = machine_class_default_irqchip(mc);
    } else if (!strcmp(s, "on") || !strcmp(s, "true")) {
        ms->kernel_irqchip = KERNEL_IRQCHIP_ON;
    } else if (!strcmp(s, "off") || !strcmp(s, "false")) {
        ms->kernel_irqchip = KERNEL_IRQCHIP_OFF;
    } else if (!strcmp(s, "split")) {
        ms->kernel_irqchip = KERNEL_IRQCHIP_SPLIT;
    } else {
        fatal(NULL, "Parameter 'kernel-irqchip' does not accept value '%s'", s);
    }
}

/* Tries the accelerators in order; the first that initialises wins. */
static void configure_accelerator(MachineState *ms, MachineClass *mc)
{
    guint i;

    if (config.accel_option && config.machine_accel) {
        fatal(NULL, "The -accel and \"-machine accel=\" options are "
              "incompatible");
    }
    if (!config.accels->len) {
        /* As QEMU: -qtest without an accelerator means -accel qtest */
        g_ptr_array_add(config.accels,
                        g_strdup(qtest_chrdev ? "qtest" : "kvm"));
    }
    for (i = 0; i < config.accels->len; i++) {
        const char *name = g_ptr_array_index(config.accels, i);
        Error *err = NULL;

        if (!strcmp(name, "kvm")) {
            if (!kvm_init(ms, &err)) {
                error_report("failed to initialize kvm: %s",
                             error_get_pretty(err));
                error_free(err);
                continue;
            }
            machine_class_init_cpu_env(mc, &ms->cpu_env, X86_ACCEL_KVM,
                                       ms->host, ms->kernel_irqchip);
            return;
        }
        if (!strcmp(name, "qtest")) {
            machine_class_init_cpu_env(mc, &ms->cpu_env, X86_ACCEL_QTEST,
                                       NULL, ms->kernel_irqchip);
            return;
        }
        if (!strcmp(name, "tcg")) {
            error_report("TCG is not supported by this build: "
                         "this emulator runs guests with KVM only");
            continue;
        }
        error_report("invalid accelerator %s", name);
    }
    fatal(NULL, "no accelerator found");
}

/*
 * -kernel, -initrd and -append are the machine's kernel, initrd and append
 * properties; the options win over -machine kernel=...  An empty value
 * means none.
 */
static void machine_set_boot_files(MachineState *ms)
{
    struct {
        const char *opt;
        char **field;
    } f[] = {
        { config.kernel, &ms->kernel_filename },
        { config.initrd, &ms->initrd_filename },
        { config.append, &ms->kernel_cmdline },
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS(f); i++) {
        if (f[i].opt) {
            g_free(*f[i].field);
            *f[i].field = g_strdup(f[i].opt);
        }
        if (*f[i].field && !**f[i].field) {
            g_free(*f[i].field);
            *f[i].field = NULL;
        }
    }
}

/*
 * Start-up, up to the main loop (system/main.c's, or a fuzz target's own)
 */
void qemu_init(int argc, char **argv)
{
    MachineState *ms;
    MachineClass *mc;
    QemuOpts *machine_opts = NULL;
    Object *mobj;
    Error *err = NULL;
    guint i;

    config.accels = g_ptr_array_new_with_free_func(g_free);
    config.globals = g_ptr_array_new();

    /* Help for -cpu is answered without building a machine */
    for (i = 1; i + 1 < (guint)argc; i++) {
        if (!strcmp(argv[i], "-cpu") && is_help_option(argv[i + 1])) {
            x86_cpu_list();
            exit(0);
        }
    }
    /* -daemonize forks before anything else exists (system/os-posix.c) */
    for (i = 1; i < (guint)argc; i++) {
        if (!strcmp(argv[i], "-daemonize") || !strcmp(argv[i], "--daemonize")) {
            os_daemonize_start();
            break;
        }
    }
    parse_command_line(argc, argv);
    if (os_is_daemonized() && config.nographic && !config.nodefaults) {
        fatal(NULL, "-nographic cannot be used with -daemonize");
    }
    if (config.pidfile && !os_pidfile_create(config.pidfile, &err)) {
        error_report_err(err);
        exit(1);
    }
    if (config.sandbox && !sandbox_parse_and_apply(config.sandbox, &err)) {
        error_prepend(&err, "-sandbox %s: ", config.sandbox);
        error_report_err(err);
        exit(1);
    }

    mc = select_machine(&machine_opts);
    mobj = object_new_with_class(OBJECT_CLASS_CAST(mc));
    ms = MACHINE(mobj);
    object_property_add_child(object_get_root(), "machine", mobj);
    object_unref(mobj);
    for (i = 0; i < 3; i++) {
        static const char *const containers[] = {
            "unattached", "peripheral", "peripheral-anon",
        };
        Object *c = object_new(TYPE_CONTAINER);
        object_property_add_child(mobj, containers[i], c);
        object_unref(c);
    }
    machine_set_options(ms, machine_opts);
    if ((no_hpet && object_property_find(mobj, "hpet") &&
         !object_property_parse(mobj, "hpet", "off", &err)) ||
        (usb_on && !object_property_parse(mobj, "usb", "on", &err))) {
        error_report_err(err);
        exit(1);
    }
    if (no_acpi && !object_property_parse(mobj, "acpi", "off", &err)) {
        error_report_err(err);
        exit(1);
    }
    qemu_opts_free(machine_opts);
    blockdev_create_all(mc->name, &error_fatal);
    ms->global_props = config.globals;
    machine_set_boot_files(ms);
    parse_memory(ms);
    if (!user_objects_machine_ram(ms, config.mem_option != NULL, &err)) {
        error_report_err(err);
        exit(1);
    }
    if (!machine_parse_smp(ms, mc, config.smp_option, &err)) {
        error_report_err(err);
        exit(1);
    }
    configure_kernel_irqchip(ms, mc);
    if (mc->ram_below_4g) {
        memory_set_below_4g_limit(mc->ram_below_4g(ms));
    }
    if (!memory_machine_init(ms->ram_size, &err)) {
        error_report_err(err);
        exit(1);
    }
    if (!os_overcommit_apply(&err)) {
        error_report_err(err);
        exit(1);
    }
    configure_accelerator(ms, mc);
    current_machine = ms;
    if (qtest_chrdev && !qtest_server_init(qtest_chrdev, qtest_log, &err)) {
        error_report_err(err);
        exit(1);
    }

    x86_cpu_set_default_version(mc->default_cpu_version);
    if (config.cpu_option) {
        ms->cpu_opts = x86_cpu_parse_option(config.cpu_option, &err);
        if (!ms->cpu_opts) {
            error_report_err(err);
            exit(1);
        }
    }
    if (mc->init && !mc->init(ms, &err)) {
        error_report_err(err);
        exit(1);
    }
    if (!mc->init && ms->cpu_opts && !machine_create_cpus(ms, &err)) {
        error_report_err(err);
        exit(1);
    }
    if (ms->cpu_env.accel == X86_ACCEL_KVM && !kvm_init_vcpus(ms, &err)) {
        error_report_err(err);
        exit(1);
    }
    if (mc->init && !x86_boot_machine(ms, ms->acpi_rsdp, &err)) {
        error_report_err(err);
        exit(1);
    }

    if (config.start_paused) {
        runstate_set(RUN_STATE_PRELAUNCH);
    } else {
        vm_start();
    }
    os_daemonize_ready();
}
