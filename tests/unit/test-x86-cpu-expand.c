/*
 * Feature expansion against fake hosts (no /dev/kvm needed): the
 * auto-enable policy of design §2, its precedence and its compat entries
 * (pc_compat_7_2 for 8.0's new defaults, pc_compat_8_0 for 8.1's).
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

/*
 * The same host without 8.1's three (bits 9, 11, 13), as a kernel before
 * 4.16 (PV TLB flush), 4.19 (PV send-IPI) and 5.2 (PV sched-yield) would
 * offer it (tests/data/hosts/no-pv-tlb-ipi-yield.host is this-pvm likewise)
 */
static const char no_81_host[] =
    "name no-8.1\n"
    "host-vendor GenuineIntel\n"
    "host-fms 6 143 8\n"
    "host-model-id Test CPU\n"
    "cpuid 0x0 0x0 0x0 0x1f 0x756e6547 0x6c65746e 0x49656e69\n"
    "cpuid 0x1 0x0 0x0 0x806f8 0x0 0xf6fa3203 0x178bfbff\n"
    "cpuid 0x80000000 0x0 0x0 0x80000008 0x0 0x0 0x0\n"
    "cpuid 0x80000001 0x0 0x0 0x0 0x0 0x121 0x2c100800\n"
    "cpuid 0x40000001 0x0 0x0 0x010054fb 0x0 0x0 0x0\n";

#define PV_EOI (1ULL << KVM_FEATURE_PV_EOI)
#define PV_UNHALT (1ULL << KVM_FEATURE_PV_UNHALT)
#define PV_TLB (1ULL << KVM_FEATURE_PV_TLB_FLUSH)
#define PV_IPI (1ULL << KVM_FEATURE_PV_SEND_IPI)
#define PV_YIELD (1ULL << KVM_FEATURE_PV_SCHED_YIELD)
#define PV_81 (PV_TLB | PV_IPI | PV_YIELD)  /* 8.1's new defaults */

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
    /* 8.1: PV TLB flush, send-IPI and sched-yield join for named models */
    { "8.1/qemu64", full_host, true, "pc-q35-8.1", "qemu64", NULL, false,
      PV_EOI | PV_UNHALT | PV_81, 0, 0 },
    { "8.1/Haswell", full_host, true, "pc-i440fx-8.1", "Haswell", NULL, false,
      PV_EOI | PV_UNHALT | PV_81, 0, 0 },
    { "8.1/EPYC", full_host, true, "pc-q35-8.1", "EPYC", NULL, false,
      PV_EOI | PV_UNHALT | PV_81, 0, 0 },
    { "8.1/max", full_host, true, "pc-q35-8.1", "max", NULL, false,
      PV_EOI | PV_UNHALT | PV_81, 0, 0 },
    /* 8.0 keeps its ABI: PV unhalt and PV EOI, not 8.1's three */
    { "8.0/qemu64", full_host, true, "pc-q35-8.0", "qemu64", NULL, false,
      PV_EOI | PV_UNHALT, PV_81, 0 },
    { "8.0/Haswell", full_host, true, "pc-i440fx-8.0", "Haswell", NULL, false,
      PV_EOI | PV_UNHALT, PV_81, 0 },
    { "8.0/max", full_host, true, "pc-q35-8.0", "max", NULL, false,
      PV_EOI | PV_UNHALT | PV_81, 0, 0 },
    /* 7.2 and older keep QEMU 7.2's ABI: no PV unhalt for named models */
    { "7.2/qemu64", full_host, true, "pc-q35-7.2", "qemu64", NULL, false,
      PV_EOI, PV_UNHALT | PV_81, 0 },
    { "7.2/i440fx/qemu64", full_host, true, "pc-i440fx-7.2", "qemu64", NULL,
      false, PV_EOI, PV_UNHALT | PV_81, 0 },
    { "2.4/kvm64", full_host, true, "pc-q35-2.4", "kvm64", NULL, false,
      PV_EOI, PV_UNHALT | PV_81, 0 },
    { "1.4/qemu64", full_host, true, "pc-i440fx-1.4", "qemu64", NULL, false,
      PV_EOI, PV_UNHALT | PV_81, 0 },
    /* ... but host and max fill from the host, as in QEMU 7.2 */
    { "7.2/host", full_host, true, "pc-q35-7.2", "host", NULL, false,
      PV_EOI | PV_UNHALT | PV_81, 0, 0 },
    { "7.2/max", full_host, true, "pc-q35-7.2", "max", NULL, false,
      PV_EOI | PV_UNHALT | PV_81, 0, 0 },
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
    /* 8.1's three: the user wins both ways, feature by feature */
    { "8.1/tlb-flush=off", full_host, true, "pc-q35-8.1",
      "qemu64,kvm-pv-tlb-flush=off", NULL, false,
      PV_EOI | PV_UNHALT | PV_IPI | PV_YIELD, PV_TLB, 0 },
    { "8.1/-ipi", full_host, true, "pc-q35-8.1", "qemu64,-kvm-pv-ipi", NULL,
      false, PV_EOI | PV_UNHALT | PV_TLB | PV_YIELD, PV_IPI, 0 },
    { "8.1/sched-yield=off", full_host, true, "pc-i440fx-8.1",
      "qemu64,kvm-pv-sched-yield=off", NULL, false,
      PV_EOI | PV_UNHALT | PV_TLB | PV_IPI, PV_YIELD, 0 },
    { "8.1/all-three-off", full_host, true, "pc-q35-8.1",
      "qemu64,-kvm-pv-tlb-flush,kvm-pv-ipi=off,-kvm-pv-sched-yield", NULL,
      false, PV_EOI | PV_UNHALT, PV_81, 0 },
    { "8.0/tlb-flush=on", full_host, true, "pc-q35-8.0",
      "qemu64,kvm-pv-tlb-flush=on", NULL, false,
      PV_EOI | PV_UNHALT | PV_TLB, PV_IPI | PV_YIELD, 0 },
    { "8.0/+ipi", full_host, true, "pc-i440fx-8.0", "qemu64,+kvm-pv-ipi", NULL,
      false, PV_EOI | PV_UNHALT | PV_IPI, PV_TLB | PV_YIELD, 0 },
    { "8.0/sched-yield=on", full_host, true, "pc-q35-8.0",
      "qemu64,kvm-pv-sched-yield=on", NULL, false,
      PV_EOI | PV_UNHALT | PV_YIELD, PV_TLB | PV_IPI, 0 },
    { "7.2/all-three-on", full_host, true, "pc-q35-7.2",
      "qemu64,kvm-pv-tlb-flush=on,+kvm-pv-ipi,kvm-pv-sched-yield=on", NULL,
      false, PV_EOI | PV_81, PV_UNHALT, 0 },
    { "8.1/max,-ipi", full_host, true, "pc-q35-8.1", "max,-kvm-pv-ipi", NULL,
      false, PV_EOI | PV_UNHALT | PV_TLB | PV_YIELD, PV_IPI, 0 },
    /* ... and the switches work through -global, both ways */
    { "8.1/global-tlb-auto-off", full_host, true, "pc-q35-8.1", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-tlb-flush=off", false,
      PV_EOI | PV_UNHALT | PV_IPI | PV_YIELD, PV_TLB, 0 },
    { "8.1/global-ipi-auto-off", full_host, true, "pc-q35-8.1", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-ipi=off", false,
      PV_EOI | PV_UNHALT | PV_TLB | PV_YIELD, PV_IPI, 0 },
    { "8.1/global-yield-auto-off", full_host, true, "pc-q35-8.1", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-sched-yield=off", false,
      PV_EOI | PV_UNHALT | PV_TLB | PV_IPI, PV_YIELD, 0 },
    { "8.0/global-tlb-auto-on", full_host, true, "pc-q35-8.0", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-tlb-flush=on", false,
      PV_EOI | PV_UNHALT | PV_TLB, PV_IPI | PV_YIELD, 0 },
    { "7.2/global-ipi-auto-on", full_host, true, "pc-q35-7.2", "qemu64",
      "x86_64-cpu.x-kvm-auto-enable-pv-ipi=on", false, PV_EOI | PV_IPI,
      PV_UNHALT | PV_TLB | PV_YIELD, 0 },
    /* A host without them: silently off; explicit is filtered or fails */
    { "8.1/host-lacks-8.1", no_81_host, true, "pc-q35-8.1", "qemu64", NULL,
      false, PV_EOI | PV_UNHALT, PV_81, 0 },
    { "8.1/host-lacks-8.1/Haswell", no_81_host, true, "pc-i440fx-8.1",
      "Haswell", NULL, false, PV_EOI | PV_UNHALT, PV_81, 0 },
    { "8.1/host-lacks-8.1/explicit", no_81_host, true, "pc-q35-8.1",
      "qemu64,kvm-pv-tlb-flush=on,kvm-pv-ipi=on,kvm-pv-sched-yield=on", NULL,
      false, PV_EOI | PV_UNHALT, PV_81, PV_81 },
    { "8.1/host-lacks-8.1/enforce", no_81_host, true, "pc-q35-8.1",
      "qemu64,kvm-pv-ipi=on,enforce", NULL, true, 0, 0, PV_IPI },
    { "8.1/host-lacks-8.1/enforce-auto", no_81_host, true, "pc-q35-8.1",
      "qemu64,enforce", NULL, false, PV_EOI | PV_UNHALT, PV_81, 0 },
    { "8.1/host-lacks-unhalt", no_unhalt_host, true, "pc-q35-8.1", "qemu64",
      NULL, false, PV_EOI | PV_81, PV_UNHALT, 0 },
    /*
     * Without the in-kernel LAPIC: PV send-IPI and sched-yield have no
     * target map in KVM, so they are not auto-enabled (QEMU filters
     * neither, so an explicit request stands); PV TLB flush needs none
     */
    { "8.1/irqchip-off", full_host, false, "pc-q35-8.1", "qemu64", NULL,
      false, PV_EOI | PV_TLB, PV_UNHALT | PV_IPI | PV_YIELD, 0 },
    { "8.1/irqchip-off/explicit", full_host, false, "pc-q35-8.1",
      "qemu64,kvm-pv-ipi=on,kvm-pv-sched-yield=on", NULL, false,
      PV_EOI | PV_TLB | PV_IPI | PV_YIELD, PV_UNHALT, 0 },
    { "8.1/kvm=off", full_host, true, "pc-q35-8.1", "qemu64,kvm=off", NULL,
      false, 0, ~0ULL, 0 },
    { "8.1/qtest", NULL, false, "pc-q35-8.1", "qemu64,kvm-pv-ipi=on", NULL,
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

/* Realizes -cpu OPTION on MACHINE against HOST (text), in this process */
static void realize_quietly(const char *host_text, const char *machine,
                            const char *option)
{
    X86HostCaps *host = fake_host(host_text);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                      .kernel_irqchip = true };
    X86CPUOptions *opts = x86_cpu_parse_option(option, &error_fatal);
    X86CPU *cpu = x86_cpu_new(object_class_by_name(opts->typename), &env,
                              machine_compat(machine), NULL, opts,
                              &error_fatal);

    x86_cpu_realize(cpu, &env, &error_fatal);
    object_unref(OBJECT(cpu));
    x86_cpu_options_free(opts);
    host_caps_free(host);
}

/* QEMU's warning for an explicitly requested feature the host lacks */
typedef struct WarningCase {
    const char *host;
    const char *machine;
    const char *cpu;
    const char *warning;    /* stderr pattern */
} WarningCase;

#define HOST_LACKS "*warning: host doesn't support requested feature: "

static const WarningCase warning_cases[] = {
    { no_unhalt_host, "pc-q35-8.0", "qemu64,kvm-pv-unhalt=on",
      HOST_LACKS "CPUID.40000001H:EAX.kvm-pv-unhalt [bit 7]*" },
    { no_81_host, "pc-q35-8.1", "qemu64,kvm-pv-tlb-flush=on",
      HOST_LACKS "CPUID.40000001H:EAX.kvm-pv-tlb-flush [bit 9]*" },
    { no_81_host, "pc-q35-8.1", "qemu64,kvm-pv-ipi=on",
      HOST_LACKS "CPUID.40000001H:EAX.kvm-pv-ipi [bit 11]*" },
    { no_81_host, "pc-q35-8.0", "qemu64,+kvm-pv-sched-yield",
      HOST_LACKS "CPUID.40000001H:EAX.kvm-pv-sched-yield [bit 13]*" },
};

static void test_warning_text(gconstpointer data)
{
    const WarningCase *c = data;

    if (g_test_subprocess()) {
        realize_quietly(c->host, c->machine, c->cpu);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr(c->warning);
}

/* The auto-enabled bits themselves never warn */
static void test_auto_enable_is_silent(void)
{
    if (g_test_subprocess()) {
        realize_quietly(no_unhalt_host, "pc-q35-8.0", "qemu64");
        realize_quietly(no_81_host, "pc-q35-8.1", "qemu64");
        realize_quietly(no_81_host, "pc-i440fx-8.1", "Haswell");
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr_unmatched("*kvm-pv-*");
}

/*
 * pc_compat_7_2 holds exactly this tree's three entries: 8.0's two new
 * defaults and the Hyper-V refusal switch (docs/hyperv.md)
 */
static void test_compat_7_2_entries(void)
{
    const PCCompat *c = pc_compat_find("7.2");
    bool unhalt = false, ipi = false, refuse = false;
    size_t i;

    g_assert_nonnull(c);
    for (i = 0; i < c->len; i++) {
        g_assert_cmpstr(c->props[i].driver, ==, "x86_64-cpu");
        g_assert_cmpstr(c->props[i].value, ==, "off");
        unhalt |= !strcmp(c->props[i].property, "x-kvm-auto-enable-pv-unhalt");
        ipi |= !strcmp(c->props[i].property, "x-hv-auto-enable-ipi");
        refuse |= !strcmp(c->props[i].property, "x-hv-refuse-unsupported");
    }
    g_assert_true(unhalt && ipi && refuse);
    g_assert_cmpuint(c->len, ==, 3);
}

/* pc_compat_8_0 holds exactly 8.1's four switches, off */
static void test_compat_8_0_entries(void)
{
    static const char *const want[] = {
        "x-kvm-auto-enable-pv-tlb-flush",
        "x-kvm-auto-enable-pv-ipi",
        "x-kvm-auto-enable-pv-sched-yield",
        "x-hv-auto-enable-tlbflush",
    };
    const PCCompat *c = pc_compat_find("8.0");
    size_t i, j;

    g_assert_nonnull(c);
    g_assert_cmpuint(c->len, ==, G_N_ELEMENTS(want));
    for (i = 0; i < G_N_ELEMENTS(want); i++) {
        for (j = 0; j < c->len; j++) {
            if (!strcmp(c->props[j].property, want[i])) {
                break;
            }
        }
        g_assert_cmpuint(j, <, c->len);
        g_assert_cmpstr(c->props[j].driver, ==, "x86_64-cpu");
        g_assert_cmpstr(c->props[j].value, ==, "off");
    }
}

/*
 * Which machine types carry which switches off: 8.1 none, 8.0 its four,
 * 7.2 and older all six (every array of a newer version applies)
 */
static void test_switches_per_machine(void)
{
    static const char *const switches[] = {
        "x-kvm-auto-enable-pv-unhalt", "x-hv-auto-enable-ipi",
        "x-kvm-auto-enable-pv-tlb-flush", "x-kvm-auto-enable-pv-ipi",
        "x-kvm-auto-enable-pv-sched-yield", "x-hv-auto-enable-tlbflush",
    };
    static const struct {
        const char *machine;
        size_t first_off;   /* switches[first_off..] are off */
    } rows[] = {
        { "pc-q35-8.1", 6 }, { "pc-i440fx-8.1", 6 },
        { "pc-q35-8.0", 2 }, { "pc-i440fx-8.0", 2 },
        { "pc-q35-7.2", 0 }, { "pc-i440fx-7.2", 0 },
        { "pc-q35-2.4", 0 }, { "pc-i440fx-1.4", 0 },
    };
    size_t i, j;

    for (i = 0; i < G_N_ELEMENTS(rows); i++) {
        X86CPUEnv env = { .accel = X86_ACCEL_QTEST };
        X86CPUOptions *opts = x86_cpu_parse_option("qemu64", &error_fatal);
        X86CPU *cpu = x86_cpu_new(object_class_by_name(opts->typename), &env,
                                  machine_compat(rows[i].machine), NULL, opts,
                                  &error_fatal);

        g_test_message("%s", rows[i].machine);
        for (j = 0; j < G_N_ELEMENTS(switches); j++) {
            bool on = object_property_get_bool(OBJECT(cpu), switches[j],
                                               &error_fatal);

            g_assert_cmpint(on, ==, j < rows[i].first_off);
        }
        /* PV EOI's switch stays on everywhere */
        g_assert_true(object_property_get_bool(
            OBJECT(cpu), "x-kvm-auto-enable-pv-eoi", &error_fatal));
        object_unref(OBJECT(cpu));
        x86_cpu_options_free(opts);
    }
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
    for (i = 0; i < G_N_ELEMENTS(warning_cases); i++) {
        const char *feat = strchr(warning_cases[i].cpu, ',') + 1;
        char *path = g_strdup_printf("/x86/cpuid/auto-enable/warning-text/%s",
                                     feat);
        g_test_add_data_func(path, &warning_cases[i], test_warning_text);
        g_free(path);
    }
    g_test_add_func("/x86/cpuid/auto-enable/silent", test_auto_enable_is_silent);
    g_test_add_func("/x86/compat/pc_compat_7_2", test_compat_7_2_entries);
    g_test_add_func("/x86/compat/pc_compat_8_0", test_compat_8_0_entries);
    g_test_add_func("/x86/compat/switches-per-machine",
                    test_switches_per_machine);
    return g_test_run();
}
