/*
 * Feature expansion against fake hosts (no /dev/kvm needed): the
 * auto-enable policy of design §2, its precedence and its compat entries.
 *
 * Each case is one table row named like x86/cpuid/auto-enable/<case>.
 */
#include <string.h>

#include "hw/i386/pc.h"
#include "target/i386/cpu.h"

/* A host whose KVM offers everything the cases need */
static const char full_host[] =
    "name full\n"
    "host-vendor GenuineIntel\n"
    "host-fms 6 143 8\n"
    "host-model-id Test CPU\n"
    "cpuid 0x0 0x0 0x0 0x1f 0x756e6547 0x6c65746e 0x49656e69\n"
    "cpuid 0x1 0x0 0x0 0x806f8 0x0 0xf6fa3203 0x178bfbff\n"
    "cpuid 0x7 0x0 0x1 0x1 0x0 0x0 0x0\n"
    "cpuid 0x80000000 0x0 0x0 0x80000008 0x0 0x0 0x0\n"
    "cpuid 0x80000001 0x0 0x0 0x0 0x0 0x121 0x2c100800\n"
    "cpuid 0x40000000 0x0 0x0 0x40000001 0x4b4d564b 0x564b4d56 0x4d\n"
    "cpuid 0x40000001 0x0 0x0 0x01007efb 0x0 0x0 0x0\n";

/* The same host without KVM_FEATURE_PV_UNHALT (bit 7) */
static const char no_unhalt_host[] =
    "name no-unhalt\n"
    "host-vendor GenuineIntel\n"
    "host-fms 6 143 8\n"
    "host-model-id Test CPU\n"
    "cpuid 0x0 0x0 0x0 0x1f 0x756e6547 0x6c65746e 0x49656e69\n"
    "cpuid 0x1 0x0 0x0 0x806f8 0x0 0xf6fa3203 0x178bfbff\n"
    "cpuid 0x80000000 0x0 0x0 0x80000008 0x0 0x0 0x0\n"
    "cpuid 0x80000001 0x0 0x0 0x0 0x0 0x121 0x2c100800\n"
    "cpuid 0x40000001 0x0 0x0 0x01007e7b 0x0 0x0 0x0\n";

#define PV_EOI (1ULL << KVM_FEATURE_PV_EOI)
#define PV_UNHALT (1ULL << KVM_FEATURE_PV_UNHALT)

typedef struct ExpandCase {
    const char *name;
    const char *host;        /* NULL: -accel qtest */
    bool kernel_irqchip;
    const char *machine;     /* compat entries of this machine type */
    const char *cpu;         /* -cpu option */
    const char *global;      /* one -global D.P=V, or NULL */
    bool enforce_fails;
    uint64_t kvm_on;         /* bits of 0x40000001.EAX that must be on */
    uint64_t kvm_off;        /* ... and off */
    uint64_t filtered;       /* bits of the KVM word filtered */
} ExpandCase;

static const ExpandCase cases[] = {
    /* New machine types: PV unhalt and PV EOI on for named models */
    { "8.0/qemu64", full_host, true, "pc-q35-8.0", "qemu64", NULL, false,
      PV_EOI | PV_UNHALT, 0, 0 },
    { "8.0/Haswell", full_host, true, "pc-i440fx-8.0", "Haswell", NULL, false,
      PV_EOI | PV_UNHALT, 0, 0 },
    { "8.0/max", full_host, true, "pc-q35-8.0", "max", NULL, false,
      PV_EOI | PV_UNHALT, 0, 0 },
    /* 7.2 and older keep QEMU 7.2's ABI: no PV unhalt for named models */
    { "7.2/qemu64", full_host, true, "pc-q35-7.2", "qemu64", NULL, false,
      PV_EOI, PV_UNHALT, 0 },
    { "2.4/kvm64", full_host, true, "pc-q35-2.4", "kvm64", NULL, false,
      PV_EOI, PV_UNHALT, 0 },
    { "1.4/qemu64", full_host, true, "pc-i440fx-1.4", "qemu64", NULL, false,
      PV_EOI, PV_UNHALT, 0 },
    /* ... but host and max fill from the host, as in QEMU 7.2 */
    { "7.2/host", full_host, true, "pc-q35-7.2", "host", NULL, false,
      PV_EOI | PV_UNHALT, 0, 0 },
    { "7.2/max", full_host, true, "pc-q35-7.2", "max", NULL, false,
      PV_EOI | PV_UNHALT, 0, 0 },
    /* The user wins both ways */
    { "8.0/unhalt=off", full_host, true, "pc-q35-8.0",
      "qemu64,kvm-pv-unhalt=off", NULL, false, PV_EOI, PV_UNHALT, 0 },
    { "8.0/-unhalt", full_host, true, "pc-q35-8.0", "qemu64,-kvm-pv-unhalt",
      NULL, false, PV_EOI, PV_UNHALT, 0 },
    { "7.2/unhalt=on", full_host, true, "pc-q35-7.2", "qemu64,kvm-pv-unhalt=on",
      NULL, false, PV_EOI | PV_UNHALT, 0, 0 },
    { "7.2/+unhalt", full_host, true, "pc-q35-7.2", "qemu64,+kvm_pv_unhalt",
      NULL, false, PV_EOI | PV_UNHALT, 0, 0 },
    { "7.2/global-auto-on", full_host, true, "pc-q35-7.2", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-unhalt=on", false,
      PV_EOI | PV_UNHALT, 0, 0 },
    { "8.0/global-auto-off", full_host, true, "pc-q35-8.0", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-unhalt=off", false, PV_EOI, PV_UNHALT,
      0 },
    { "8.0/eoi=off", full_host, true, "pc-q35-8.0", "qemu64,kvm-pv-eoi=off",
      NULL, false, PV_UNHALT, PV_EOI, 0 },
    { "8.0/global-eoi-auto-off", full_host, true, "pc-q35-8.0", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-eoi=off", false, PV_UNHALT, PV_EOI, 0 },
    { "8.0/max,-unhalt", full_host, true, "pc-q35-8.0", "max,-kvm-pv-unhalt",
      NULL, false, PV_EOI, PV_UNHALT, 0 },
    /* A host without PV_UNHALT: auto-enable stays off silently... */
    { "8.0/host-lacks-unhalt", no_unhalt_host, true, "pc-q35-8.0", "qemu64",
      NULL, false, PV_EOI, PV_UNHALT, 0 },
    /* ... an explicit request is filtered, and fails under enforce */
    { "8.0/host-lacks-unhalt/explicit", no_unhalt_host, true, "pc-q35-8.0",
      "qemu64,kvm-pv-unhalt=on", NULL, false, PV_EOI, PV_UNHALT, PV_UNHALT },
    { "8.0/host-lacks-unhalt/enforce", no_unhalt_host, true, "pc-q35-8.0",
      "qemu64,kvm-pv-unhalt=on,enforce", NULL, true, 0, 0, PV_UNHALT },
    /* Without the in-kernel irqchip KVM can't do PV unhalt */
    { "8.0/irqchip-off", full_host, false, "pc-q35-8.0", "qemu64", NULL,
      false, PV_EOI, PV_UNHALT, 0 },
    { "8.0/irqchip-off/explicit", full_host, false, "pc-q35-8.0",
      "qemu64,kvm-pv-unhalt=on", NULL, false, PV_EOI, PV_UNHALT, PV_UNHALT },
    /* kvm=off: no KVM word at all */
    { "8.0/kvm=off", full_host, true, "pc-q35-8.0", "qemu64,kvm=off", NULL,
      false, 0, ~0ULL, 0 },
    /* qtest: the KVM word is zero and nothing is filtered */
    { "8.0/qtest", NULL, false, "pc-q35-8.0", "qemu64,kvm-pv-unhalt=on", NULL,
      false, 0, ~0ULL, 0 },
};

static X86HostCaps *fake_host(const char *text)
{
    Error *err = NULL;
    X86HostCaps *caps = host_caps_parse(text, "fake", &err);

    g_assert_null(err);
    return caps;
}

/* Compat array of a machine type, built the way machine classes do */
static GPtrArray *machine_compat(const char *name)
{
    MachineClass *mc = machine_find_class(name);

    g_assert_nonnull(mc);
    return mc->compat_props;
}

static void test_expand_case(gconstpointer data)
{
    const ExpandCase *c = data;
    X86HostCaps *host = c->host ? fake_host(c->host) : NULL;
    X86CPUEnv env = {
        .accel = host ? X86_ACCEL_KVM : X86_ACCEL_QTEST,
        .host = host,
        .kernel_irqchip = c->kernel_irqchip,
    };
    MachineClass *mc = machine_find_class(c->machine);
    GPtrArray *globals = g_ptr_array_new();
    GlobalProperty g = { 0 };
    X86CPUOptions *opts;
    X86CPU *cpu;
    Error *err = NULL;
    char **kv = NULL;
    bool ok;

    g_assert_nonnull(mc);
    x86_cpu_set_default_version(mc->default_cpu_version);
    if (c->global) {
        kv = g_strsplit_set(c->global, ".=", 3);
        g.driver = kv[0];
        g.property = kv[1];
        g.value = kv[2];
        g_ptr_array_add(globals, &g);
    }
    opts = x86_cpu_parse_option(c->cpu, &err);
    g_assert_null(err);
    cpu = x86_cpu_new(object_class_by_name(opts->typename), &env,
                      machine_compat(c->machine), globals, opts, &err);
    g_assert_null(err);
    g_assert_nonnull(cpu);
    ok = x86_cpu_realize(cpu, &env, &err);
    if (c->enforce_fails) {
        g_assert_false(ok);
        g_assert_cmpstr(error_get_pretty(err), ==,
                        "Host doesn't support requested features");
        error_free(err);
    } else {
        g_assert_true(ok);
        g_assert_cmphex(cpu->features[FEAT_KVM] & c->kvm_on, ==, c->kvm_on);
        g_assert_cmphex(cpu->features[FEAT_KVM] & c->kvm_off, ==, 0);
    }
    g_assert_cmphex(cpu->filtered_features[FEAT_KVM], ==, c->filtered);
    if (!host) {
        FeatureWord w;
        for (w = 0; w < FEATURE_WORDS; w++) {
            g_assert_cmphex(cpu->filtered_features[w], ==, 0);
        }
    }
    object_unref(OBJECT(cpu));
    x86_cpu_options_free(opts);
    g_ptr_array_free(globals, TRUE);
    g_strfreev(kv);     /* g's strings and the array that held them */
    if (host) {
        host_caps_free(host);
    }
}

/* The warning text of an explicitly requested feature the host lacks */
static void test_unhalt_warning_text(void)
{
    if (g_test_subprocess()) {
        X86HostCaps *host = fake_host(no_unhalt_host);
        X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                          .kernel_irqchip = true };
        X86CPUOptions *opts =
            x86_cpu_parse_option("qemu64,kvm-pv-unhalt=on", &error_fatal);
        X86CPU *cpu = x86_cpu_new(object_class_by_name(opts->typename), &env,
                                  machine_compat("pc-q35-8.0"), NULL, opts,
                                  &error_fatal);
        x86_cpu_realize(cpu, &env, &error_fatal);
        object_unref(OBJECT(cpu));
        x86_cpu_options_free(opts);
        host_caps_free(host);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr(
        "*warning: host doesn't support requested feature: "
        "CPUID.40000001H:EAX.kvm-pv-unhalt [bit 7]*");
}

/* The auto-enabled bit itself never warns */
static void test_auto_enable_is_silent(void)
{
    if (g_test_subprocess()) {
        X86HostCaps *host = fake_host(no_unhalt_host);
        X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                          .kernel_irqchip = true };
        X86CPUOptions *opts = x86_cpu_parse_option("qemu64", &error_fatal);
        X86CPU *cpu = x86_cpu_new(object_class_by_name(opts->typename), &env,
                                  machine_compat("pc-q35-8.0"), NULL, opts,
                                  &error_fatal);
        x86_cpu_realize(cpu, &env, &error_fatal);
        object_unref(OBJECT(cpu));
        x86_cpu_options_free(opts);
        host_caps_free(host);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr_unmatched("*kvm-pv-unhalt*");
}

/* pc_compat_7_2 holds exactly this tree's two entries */
static void test_compat_7_2_entries(void)
{
    const PCCompat *c = pc_compat_find("7.2");
    bool unhalt = false, ipi = false;
    size_t i;

    g_assert_nonnull(c);
    for (i = 0; i < c->len; i++) {
        g_assert_cmpstr(c->props[i].driver, ==, "x86_64-cpu");
        g_assert_cmpstr(c->props[i].value, ==, "off");
        unhalt |= !strcmp(c->props[i].property, "x-kvm-auto-enable-pv-unhalt");
        ipi |= !strcmp(c->props[i].property, "x-hv-auto-enable-ipi");
    }
    g_assert_true(unhalt && ipi);
    g_assert_cmpuint(c->len, ==, 2);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *path = g_strdup_printf("/x86/cpuid/auto-enable/%s", cases[i].name);
        g_test_add_data_func(path, &cases[i], test_expand_case);
        g_free(path);
    }
    g_test_add_func("/x86/cpuid/auto-enable/warning-text",
                    test_unhalt_warning_text);
    g_test_add_func("/x86/cpuid/auto-enable/silent", test_auto_enable_is_silent);
    g_test_add_func("/x86/compat/pc_compat_7_2", test_compat_7_2_entries);
    return g_test_run();
}
