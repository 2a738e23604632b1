/*
 * Start-up: the explicit phases that build a machine from the command line
 * (QEMU's syntax, design §3; parsed by system/vl-options.c), in QEMU 7.2's
 * order, so that the same error wins when a command line has several:
 *   parse (parse-time help) -> -d, -D, -cpu help, -device help -> -rtc ->
 *   pidfile, sandbox -> machine type -> chardevs -> -boot -> -smp, -m,
 *   machine properties -> accelerator -> monitors, -serial -> -cpu model
 *   -> -device -> board init (vCPUs) -> run state -> main loop.
 * Errors are one QEMU-style line and exit status 1; exit() happens only
 * here, on the start-up path.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/memory.h"
#include "hw/boards.h"
#include "hw/i386/x86-boot.h"
#include "hw/sysbus.h"
#include "monitor/fds.h"
#include "net/net.h"
#include "sysemu/blockdev.h"
#include "qemu/log.h"
#include "qemu/option.h"
#include "sysemu/cli-compat.h"
#include "sysemu/device.h"
#include "sysemu/kvm.h"
#include "sysemu/numa.h"
#include "sysemu/os-posix.h"
#include "sysemu/qtest.h"
#include "sysemu/reset.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"
#include "sysemu/user-objects.h"
#include "target/i386/cpu.h"
#include "vl.h"

/* Post-parse checks ------------------------------------------------------ */

/*
 * What QEMU 7.2 checks once the whole command line is read, before it
 * picks the machine: kernel options, -d and -D, then -cpu help and -device
 * help.  An error in any option parsed before wins over a help answer.
 */
static void check_parsed_options(void)
{
    const char *kernel = qemu_opt_get(config.machine, "kernel");
    uint64_t log_mask = 0;
    bool trace_help = false;
    Error *err = NULL;

    if (!kernel && qemu_opt_get(config.machine, "append")) {
        error_report("-append only allowed with -kernel option");
        exit(1);
    }
    if (!kernel && qemu_opt_get(config.machine, "initrd")) {
        error_report("-initrd only allowed with -kernel option");
        exit(1);
    }
    if (config.log_items) {
        if (!qemu_log_parse_items(config.log_items, &log_mask, &trace_help)) {
            qemu_log_help();
            exit(1);
        }
        if (trace_help) {
            qemu_log_trace_help();
            exit(0);
        }
    }
    if ((config.log_file || log_mask) &&
        !qemu_log_open(config.log_file, log_mask, &err)) {
        error_report_err(err);
        exit(1);
    }
    if (config.cpu_option && (!strcmp(config.cpu_option, "help") ||
                              !strcmp(config.cpu_option, "?"))) {
        x86_cpu_list();
        exit(0);
    }
    if (config.device_help) {
        char *loc = g_strdup_printf("-device %s", config.device_help);

        error_set_location(loc);
        g_free(loc);
        qemu_device_help(config.device_help);
        exit(0);
    }
}

/* Machine construction ---------------------------------------------------- */

static MachineClass *select_machine(void)
{
    const char *type = qemu_opt_get(config.machine, "type");
    MachineClass *mc;

    mc = type ? machine_find_class(type) : machine_get_default_class();
    if (!mc) {
        error_report("unsupported machine type");
        fprintf(stderr, "Use -machine help to list supported machines\n");
        exit(1);
    }
    return mc;
}

/* -display: "none" is this build's only display, and it has no OpenGL */
static void check_display(void)
{
    const char *type, *gl;

    if (!config.display) {
        return;
    }
    type = qemu_opt_get(config.display, "type");
    gl = qemu_opt_get(config.display, "gl");
    if (strcmp(type, "none")) {
        error_report("Display '%s' is not available in this build", type);
        exit(1);
    }
    if (gl && strcmp(gl, "off")) {
        error_report("OpenGL is not supported by the display");
        exit(1);
    }
}

/*
 * The machine's kernel-irqchip is a default for the KVM accelerator's
 * property (a "global" in QEMU's terms), which -accel kvm,kernel-irqchip=
 * overrides; only the accelerator checks it.
 */
static bool kvm_accel_set_irqchip(MachineState *ms, const char *value,
                                  bool global, Error **errp)
{
    static const char *const names[] = { "on", "off", "split" };
    static const KernelIrqchip values[] = {
        KERNEL_IRQCHIP_ON, KERNEL_IRQCHIP_OFF, KERNEL_IRQCHIP_SPLIT,
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!strcmp(value, names[i])) {
            ms->kernel_irqchip = values[i];
            return true;
        }
    }
    error_setg(errp, "Parameter 'kernel-irqchip' does not accept value '%s'",
               value);
    if (global) {
        error_prepend(errp, "can't apply global kvm-accel.kernel-irqchip=%s: ",
                      value);
    }
    return false;
}

/* An accelerator's properties: the machine's default, then the option's */
static void accel_set_props(MachineState *ms, const char *name,
                            QemuOpts *opts)
{
    guint i;
    Error *err = NULL;

    if (!strcmp(name, "kvm") && ms->kernel_irqchip_str &&
        !kvm_accel_set_irqchip(ms, ms->kernel_irqchip_str, true, &err)) {
        error_report_err(err);
        exit(1);
    }
    for (i = 0; opts && i < opts->opts->len; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);

        if (!strcmp(o->name, "accel")) {
            continue;
        }
        if (strcmp(name, "kvm")) {
            error_report("Property '%s-accel.%s' not found", name, o->name);
            exit(1);
        }
        if (!kvm_accel_check_option(o->name, o->value, &err) ||
            (!strcmp(o->name, "kernel-irqchip") &&
             !kvm_accel_set_irqchip(ms, o->value, false, &err))) {
            error_report_err(err);
            exit(1);
        }
    }
}

/* Tries one accelerator; false (reported) if it is not available */
static bool accel_try(MachineState *ms, MachineClass *mc, const char *name,
                      QemuOpts *opts)
{
    Error *err = NULL;

    if (!strcmp(name, "tcg")) {
        error_report("TCG is not supported by this build: "
                     "this emulator runs guests with KVM only");
        return false;
    }
    ms->kernel_irqchip = machine_class_default_irqchip(mc);
    if (!strcmp(name, "qtest")) {
        /* qtest has no irqchip property: a valid machine value still says
         * what the CPUs would see */
        if (ms->kernel_irqchip_str) {
            kvm_accel_set_irqchip(ms, ms->kernel_irqchip_str, true, NULL);
        }
        accel_set_props(ms, name, opts);
        machine_class_init_cpu_env(mc, &ms->cpu_env, X86_ACCEL_QTEST, NULL,
                                   ms->kernel_irqchip);
        return true;
    }
    accel_set_props(ms, name, opts);
    if (!kvm_init(ms, &err)) {
        error_report("failed to initialize kvm: %s", error_get_pretty(err));
        error_free(err);
        return false;
    }
    machine_class_init_cpu_env(mc, &ms->cpu_env, X86_ACCEL_KVM, ms->host,
                               ms->kernel_irqchip);
    ms->cpu_env.cpu_pm = os_overcommit_cpu_pm();
    return true;
}

static bool accel_known(const char *name)
{
    return !strcmp(name, "kvm") || !strcmp(name, "qtest") ||
           !strcmp(name, "tcg");
}

/*
 * Tries the accelerators in order; the first that initialises wins.  As in
 * QEMU 7.2, "-machine accel=" names are all checked first; an -accel option
 * is checked when its turn comes, its errors naming it.
 */
static void configure_accelerator(MachineState *ms, MachineClass *mc)
{
    const char *list = qemu_opt_get(config.machine, "accel");
    bool init_failed = false, ok = false;
    guint i;

    if (config.accels->len && list) {
        error_report("The -accel and \"-machine accel=\" options are "
                     "incompatible");
        exit(1);
    }
    for (i = 0; i < config.accels->len && !ok; i++) {
        AccelOption *a = g_ptr_array_index(config.accels, i);
        const char *name = qemu_opt_get(a->opts, "accel");

        error_set_location(a->loc);
        if (!accel_known(name)) {
            error_report("invalid accelerator %s", name);
        } else {
            ok = accel_try(ms, mc, name, a->opts);
        }
        init_failed |= !ok;
        error_set_location(NULL);
    }
    if (!config.accels->len) {
        /* As QEMU: -qtest without an accelerator means -accel qtest */
        char **names = g_strsplit(list ? list
                                       : config.qtest_chrdev ? "qtest" : "kvm",
                                  ":", -1);

        for (i = 0; names[i]; i++) {
            if (!accel_known(names[i])) {
                error_report("invalid accelerator %s", names[i]);
                init_failed = true;
            }
        }
        for (i = 0; names[i] && !ok; i++) {
            if (accel_known(names[i])) {
                ok = accel_try(ms, mc, names[i], NULL);
                init_failed |= !ok;
            }
        }
        g_strfreev(names);
    }
    if (!ok) {
        if (!init_failed) {
            error_report("no accelerator found");
        }
        exit(1);
    }
    if (init_failed && !config.qtest_chrdev) {
        error_report("falling back to %s",
                     ms->cpu_env.accel == X86_ACCEL_KVM ? "KVM" : "qtest");
    }
}

/* -kernel, -initrd and -append (machine properties): an empty one is none */
static void machine_set_boot_files(MachineState *ms)
{
    char **fields[] = {
        &ms->kernel_filename, &ms->initrd_filename, &ms->kernel_cmdline,
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS(fields); i++) {
        if (*fields[i] && !**fields[i]) {
            g_free(*fields[i]);
            *fields[i] = NULL;
        }
    }
}

static void G_GNUC_NORETURN exit_with(Error *err)
{
    error_report_err(err);
    exit(1);
}

static void qemu_build_machine(void);

/*
 * Start-up, up to the main loop (system/main.c's, or a fuzz target's own)
 */
void qemu_init(int argc, char **argv)
{
    MachineState *ms;
    MachineClass *mc;
    Object *mobj;
    Error *err = NULL;
    guint i;

    /* -daemonize forks before anything else exists (system/os-posix.c) */
    for (i = 1; i < (guint)argc; i++) {
        if (!strcmp(argv[i], "-daemonize") || !strcmp(argv[i], "--daemonize")) {
            os_daemonize_start();
            break;
        }
    }
    vl_parse_command_line(argc, argv);
    check_parsed_options();
    if (!cli_rtc_check(config.rtc, &err)) {
        exit_with(err);
    }
    if (os_is_daemonized() && config.nographic && !config.nodefaults) {
        error_report("-nographic cannot be used with -daemonize");
        exit(1);
    }
    vl_run_deferred(DEFER_FDSET);
    fdset_cli_done();
    if (config.pidfile && !os_pidfile_create(config.pidfile, &err)) {
        exit_with(err);
    }
    for (i = 0; i < config.sandboxes->len; i++) {
        const char *arg = g_ptr_array_index(config.sandboxes, i);

        if (!sandbox_parse_and_apply(arg, &err)) {
            error_prepend(&err, "-sandbox %s: ", arg);
            exit_with(err);
        }
    }

    if (!net_init_clients(&err)) {
        exit_with(err);
    }
    mc = select_machine();
    check_display();
    vl_run_deferred(DEFER_BACKEND);
    if (!cli_boot_check(config.boot, &err)) {
        exit_with(err);
    }
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
    /* The device tree: reset first on every machine reset, as in QEMU */
    sysbus_get_default();
    qemu_register_reset(qemu_devices_reset_handler, NULL);
    machine_take_smp_keys(config.machine, config.smp);
    if (!machine_parse_smp(ms, mc, config.smp, &err) ||
        !machine_parse_memory(ms, config.mem, &err) ||
        !machine_apply_options(ms, config.machine, &err) ||
        !blockdev_create_all(mc->name, &err)) {
        exit_with(err);
    }
    ms->global_props = config.globals;
    /* Devices take compat entries and -global as they are created */
    qdev_set_compat_props(mc->compat_props);
    qdev_set_global_props(config.globals);
    ms->boot_order = g_strdup(qemu_opt_get(config.boot, "order"));
    ms->boot_once = g_strdup(qemu_opt_get(config.boot, "once"));
    cli_boot_apply(ms, config.boot);
    machine_set_boot_files(ms);
    if (!user_objects_machine_ram(ms,
                                  qemu_opt_get(config.mem, "size") != NULL,
                                  &err)) {
        exit_with(err);
    }
    /* The address spaces exist before the accelerator listens to them */
    get_system_memory();
    get_system_io();
    configure_accelerator(ms, mc);
    current_machine = ms;
    vl_run_deferred(DEFER_FRONTEND);
    if (config.qtest_chrdev &&
        !qtest_server_init(config.qtest_chrdev, config.qtest_log, &err)) {
        exit_with(err);
    }

    x86_cpu_set_default_version(mc->default_cpu_version);
    if (config.cpu_option) {
        ms->cpu_opts = x86_cpu_parse_option(config.cpu_option, &err);
        if (!ms->cpu_opts) {
            exit_with(err);
        }
    }
    vl_run_deferred(DEFER_DEVICE);
    for (i = 0; i < config.numa->len; i++) {
        char *loc = g_strdup_printf("-numa %s",
                                    (char *)g_ptr_array_index(config.numa, i));
        bool ok;

        /* Its warnings (mem= is deprecated) name it too */
        error_set_location(loc);
        ok = numa_parse_cli(ms, loc + strlen("-numa "), &err);
        error_set_location(NULL);
        if (!ok) {
            error_prepend(&err, "%s: ", loc);
            exit_with(err);
        }
        g_free(loc);
    }
    if (config.preconfig) {
        /*
         * --preconfig: the monitors answer (the commands allowed before
         * the board) until x-exit-preconfig builds it
         */
        runstate_set(RUN_STATE_PRELAUNCH);
        os_daemonize_ready();
        return;
    }
    qemu_build_machine();
}

/*
 * The rest of start-up: the board, -device, the vCPUs, then the VM runs
 * (or waits, -S).  Run by qemu_init(), or by x-exit-preconfig.
 */
static void qemu_build_machine(void)
{
    MachineState *ms = current_machine;
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    Error *err = NULL;

    /* NUMA's memory backends make up the RAM (set-numa-node is over) */
    if (!numa_complete_configuration(ms, &err)) {
        exit_with(err);
    }
    if (mc->ram_below_4g) {
        memory_set_below_4g_limit(mc->ram_below_4g(ms));
    }
    if (!machine_init_ram(ms, &err) || !os_overcommit_apply(&err)) {
        exit_with(err);
    }
    if (!numa_finish_cpu_init(ms, &err)) {
        exit_with(err);
    }
    /*
     * Build phases: board, then -device in command-line order, as QEMU.
     * The board in one memory transaction: the address spaces (and KVM's
     * memory slots) are rendered once for it, not at every region; what
     * comes after reads guest memory (the ACPI tables)
     */
    memory_region_transaction_begin();
    if ((mc->init && !mc->init(ms, &err)) ||
        (!mc->init && ms->cpu_opts && !machine_create_cpus(ms, &err))) {
        exit_with(err);
    }
    memory_region_transaction_commit();
    if (!qemu_create_cli_devices(&err) || (mc->done && !mc->done(ms, &err))) {
        exit_with(err);
    }
    qemu_devices_reset();
    qdev_machine_creation_done();
    if (ms->cpu_env.accel == X86_ACCEL_KVM && !kvm_init_vcpus(ms, &err)) {
        exit_with(err);
    }
    if (mc->init && !x86_boot_machine(ms, ms->acpi_rsdp, &err)) {
        exit_with(err);
    }
    if (ms->cpu_env.accel == X86_ACCEL_KVM && !kvm_memory_release(&err)) {
        exit_with(err);
    }
    machine_check_globals(ms);
    vl_config_free();
    malloc_trim(0);

    if (config.start_paused) {
        runstate_set(RUN_STATE_PRELAUNCH);
    } else {
        vm_start();
    }
    if (!config.preconfig) {
        os_daemonize_ready();
    }
}

JsonNode *qmp_x_exit_preconfig(Error **errp)
{
    if (qdev_machine_ready()) {
        error_setg(errp, "The command is permitted only before machine "
                   "initialization");
        return NULL;
    }
    qemu_build_machine();
    return json_node_init_object(json_node_alloc(), json_object_new());
}
