/*
 * Fuzz target: the command-line option parsers.
 *
 * The first byte of an input picks a parser (a digit its number, so that
 * seeds are text, any other byte its value, modulo the table's size); the
 * rest, up to the first NUL, is the option string:
 *
 *   0 QemuOpts   (-accel, -m, -name...): parsed with and without an
 *                implied key, validated against a table of every type
 *   1 keyval     (-machine, -smp, -boot): parsed, merged into itself
 *   2 -cpu       model,+feat,-feat,key=value, then applied to a vCPU of
 *                that model and realized (qtest: no host needed)
 *   3 -smp       keyval, then the topology of a q35 machine
 *   4 -m         QemuOpts checked as -m is, then the RAM size of a q35
 *   5 -machine   keyval, then set as properties of a fresh q35 machine
 *   6 -global    DRIVER.PROP=VALUE or its QemuOpts form
 *   7 -boot      keyval, then QEMU 7.2's checks; -rtc and -d as well
 *   8 sizes      qemu_strtosz with each default unit, and metric
 *
 * Every parser must return (no exit(), no abort()), report an error with
 * a message exactly when it fails, and free what it made.  What parses
 * must survive a round trip: written back as key=value with ",," for a
 * comma, it parses to the same keys and values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/boards.h"
#include "qemu/log.h"
#include "qemu/option.h"
#include "qom/object.h"
#include "sysemu/cli-compat.h"
#include "target/i386/cpu.h"

static MachineClass *q35;

/* A failure has a message; a success none */
static void check_result(bool ok, Error *err)
{
    if (ok != !err || (err && !*error_get_pretty(err))) {
        abort();
    }
    error_free(err);
}

/* "key=value,..." with ",," for commas: what parses back to opts */
static char *opts_to_string(const QemuOpts *opts)
{
    GString *s = g_string_new(NULL);
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);
        const char *c;

        g_string_append_printf(s, "%s%s=", i ? "," : "", o->name);
        for (c = o->value; *c; c++) {
            g_string_append(s, *c == ',' ? ",," : (char[]){ *c, 0 });
        }
    }
    return g_string_free(s, FALSE);
}

static bool opts_equal(const QemuOpts *a, const QemuOpts *b)
{
    guint i;

    if (a->opts->len != b->opts->len) {
        return false;
    }
    for (i = 0; i < a->opts->len; i++) {
        QemuOpt *x = g_ptr_array_index(a->opts, i);
        QemuOpt *y = g_ptr_array_index(b->opts, i);

        if (strcmp(x->name, y->name) || strcmp(x->value, y->value)) {
            return false;
        }
    }
    return true;
}

static void fuzz_qemu_opts(const char *str)
{
    static const QemuOptDesc desc[] = {
        { "size", QEMU_OPT_SIZE },
        { "n", QEMU_OPT_NUMBER },
        { "b", QEMU_OPT_BOOL },
        { "s", QEMU_OPT_STRING },
        { NULL },
    };
    QemuOpts *opts = qemu_opts_parse(str, NULL, NULL);
    QemuOpts *again, *implied;
    Error *err = NULL;
    uint64_t n;
    char *text;
    bool ok;

    ok = qemu_opts_validate(opts, desc, false, &err);
    check_result(ok, err);
    err = NULL;
    ok = qemu_opt_get_number(opts, "n", 0, &n, &err);
    check_result(ok, err);
    err = NULL;
    ok = qemu_opt_get_size(opts, "size", 0, &n, &err);
    check_result(ok, err);
    err = NULL;
    qemu_opt_get_bool(opts, "b", false, &err);
    error_free(err);
    qemu_opts_has_help(opts);
    qemu_opt_get_first(opts, "id");
    qemu_opts_first_unused(opts);
    text = opts_to_string(opts);
    again = qemu_opts_parse(text, NULL, NULL);
    if (!opts_equal(opts, again)) {
        abort();
    }
    implied = qemu_opts_parse(str, "type", NULL);
    qemu_opts_merge(again, implied);
    g_free(text);
    qemu_opts_free(implied);
    qemu_opts_free(again);
    qemu_opts_free(opts);
}

static void fuzz_keyval(const char *str)
{
    Error *err = NULL;
    bool help = false;
    QemuOpts *opts = keyval_parse(str, "type", &help, &err);
    QemuOpts *again;
    char *text;
    bool ok;

    check_result(opts != NULL, err);
    if (!opts) {
        return;
    }
    text = opts_to_string(opts);
    again = keyval_parse(text, NULL, NULL, NULL);
    if (!opts_equal(opts, again)) {
        abort();
    }
    /* A repeated -machine: the same keys again change nothing */
    err = NULL;
    ok = keyval_parse_into(again, str, "type", NULL, &err);
    check_result(ok, err);
    g_free(text);
    qemu_opts_free(again);
    qemu_opts_free(opts);
}

static void fuzz_cpu(const char *str)
{
    X86CPUEnv env = { .accel = X86_ACCEL_QTEST };
    Error *err = NULL;
    X86CPUOptions *opts = x86_cpu_parse_option(str, &err);
    X86CPU *cpu;
    bool ok;

    check_result(opts != NULL, err);
    if (!opts) {
        return;
    }
    err = NULL;
    cpu = x86_cpu_new(x86_cpu_class_by_name(opts->model), &env, NULL, NULL,
                      opts, &err);
    check_result(cpu != NULL, err);
    if (cpu) {
        err = NULL;
        ok = x86_cpu_realize(cpu, &env, &err);
        check_result(ok, err);
        object_unref(OBJECT(cpu));
    }
    x86_cpu_options_free(opts);
}

static MachineState *new_machine(void)
{
    return MACHINE(object_new_with_class(OBJECT_CLASS_CAST(q35)));
}

static void fuzz_smp(const char *str)
{
    Error *err = NULL;
    QemuOpts *opts = keyval_parse(str, "cpus", NULL, &err);
    MachineState *ms;
    bool ok;

    check_result(opts != NULL, err);
    if (!opts) {
        return;
    }
    ms = new_machine();
    err = NULL;
    ok = machine_parse_smp(ms, q35, opts, &err);
    check_result(ok, err);
    object_unref(OBJECT(ms));
    qemu_opts_free(opts);
}

static void fuzz_memory(const char *str)
{
    QemuOpts *opts = qemu_opts_parse(str, "size", NULL);
    Error *err = NULL;
    MachineState *ms;
    bool ok;

    if (qemu_opts_validate(opts, machine_memory_opts, false, &err)) {
        ms = new_machine();
        ok = machine_parse_memory(ms, opts, &err);
        check_result(ok, err);
        object_unref(OBJECT(ms));
    } else {
        check_result(false, err);
    }
    qemu_opts_free(opts);
}

static void fuzz_machine(const char *str)
{
    Error *err = NULL;
    QemuOpts *opts = keyval_parse(str, "type", NULL, &err);
    MachineState *ms;
    bool ok;

    check_result(opts != NULL, err);
    if (!opts) {
        return;
    }
    ms = new_machine();
    err = NULL;
    ok = machine_apply_options(ms, opts, &err);
    check_result(ok, err);
    object_unref(OBJECT(ms));
    qemu_opts_free(opts);
}

static void fuzz_global(const char *str)
{
    Error *err = NULL;
    GlobalProperty *g = global_property_parse(str, &err);

    check_result(g != NULL, err);
    if (g) {
        global_property_free(g);
    }
}

static void fuzz_boot_rtc_log(const char *str)
{
    Error *err = NULL;
    QemuOpts *opts = keyval_parse(str, "order", NULL, &err);
    uint64_t mask;
    bool trace_help;
    bool ok;

    check_result(opts != NULL, err);
    if (opts) {
        err = NULL;
        ok = cli_boot_check(opts, &err);
        check_result(ok, err);
        qemu_opts_free(opts);
    }
    opts = qemu_opts_parse(str, NULL, NULL);
    err = NULL;
    ok = cli_rtc_check(opts, &err);
    check_result(ok, err);
    qemu_opts_free(opts);
    qemu_log_parse_items(str, &mask, &trace_help);
}

static void fuzz_sizes(const char *str)
{
    static const uint64_t units[] = { 1, 1024, 1024 * 1024 };
    uint64_t v;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(units); i++) {
        qemu_strtosz(str, units[i], &v, NULL);
    }
    qemu_strtosz_metric(str, &v);
    qemu_strtou64(str, &v);
    qemu_strtoi64(str, (int64_t *)&v);
}

static void (*const parsers[])(const char *) = {
    fuzz_qemu_opts, fuzz_keyval, fuzz_cpu, fuzz_smp, fuzz_memory,
    fuzz_machine, fuzz_global, fuzz_boot_rtc_log, fuzz_sizes,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    q35 = machine_find_class("q35");
    x86_cpu_set_default_version(q35->default_cpu_version);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned pick;
    char *str;

    if (!size) {
        return 0;
    }
    pick = data[0] >= '0' && data[0] <= '9' ? data[0] - '0' : data[0];
    str = g_strndup((const char *)data + 1, size - 1);
    parsers[pick % G_N_ELEMENTS(parsers)](str);
    g_free(str);
    return 0;
}
