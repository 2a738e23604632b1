/*
 * Hyper-V expansion against the recorded fake hosts (tests/data/hosts/
 * hyperv-{full,none,no-send-ipi}.host): hv-ipi's auto-enable matrix, QEMU
 * 7.2's error texts, the compat entries' effect on the leaves and
 * hv-passthrough.  No /dev/kvm needed.
 */
#include <string.h>

#include "hw/boards.h"
#include "target/i386/cpu.h"
#include "target/i386/hyperv.h"

#define IPI_BITS ((1u << 10) | (1u << 11)) /* 0x40000004.EAX */

#define E_IPI_UNSUPPORTED \
    "Hyper-V paravirtualized IPI (hv-ipi) is not supported by kernel"
#define E_IPI_REQUIRES \
    "Hyper-V paravirtualized IPI (hv-ipi) requires Hyper-V VP_INDEX MSR " \
    "(hv-vpindex)"
#define E_VPINDEX_UNSUPPORTED \
    "Hyper-V VP_INDEX MSR (hv-vpindex) is not supported by kernel"

typedef enum { IPI_OFF, IPI_ON, IPI_ERROR } IpiResult;

typedef struct MatrixCase {
    const char *host;      /* tests/data/hosts/<host>.host */
    const char *machine;
    const char *vpindex;   /* "on" / "off" */
    const char *ipi;       /* NULL (unset), "on", "off" */
    IpiResult result;
    const char *error;     /* IPI_ERROR: the exact text */
} MatrixCase;

#define FULL "hyperv-full"
#define NONE "hyperv-none"
#define NOIPI "hyperv-no-send-ipi"
#define M80 "pc-q35-8.0"
#define M72 "pc-q35-7.2"

static const MatrixCase matrix[] = {
    /* Full support: 8.0 auto-enables hv-ipi with hv-vpindex, 7.2 doesn't */
    { FULL, M80, "on", NULL, IPI_ON },
    { FULL, M80, "on", "on", IPI_ON },
    { FULL, M80, "on", "off", IPI_OFF },
    { FULL, M80, "off", NULL, IPI_OFF },
    { FULL, M80, "off", "on", IPI_ERROR, E_IPI_REQUIRES },
    { FULL, M80, "off", "off", IPI_OFF },
    { FULL, M72, "on", NULL, IPI_OFF },
    { FULL, M72, "on", "on", IPI_ON },
    { FULL, M72, "on", "off", IPI_OFF },
    { FULL, M72, "off", NULL, IPI_OFF },
    { FULL, M72, "off", "on", IPI_ERROR, E_IPI_REQUIRES },
    { FULL, M72, "off", "off", IPI_OFF },
    /* No SEND_IPI: auto-enable stays off silently, explicit fails */
    { NOIPI, M80, "on", NULL, IPI_OFF },
    { NOIPI, M80, "on", "on", IPI_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M80, "on", "off", IPI_OFF },
    { NOIPI, M80, "off", NULL, IPI_OFF },
    /* QEMU checks host support before dependencies */
    { NOIPI, M80, "off", "on", IPI_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M80, "off", "off", IPI_OFF },
    { NOIPI, M72, "on", NULL, IPI_OFF },
    { NOIPI, M72, "on", "on", IPI_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M72, "on", "off", IPI_OFF },
    { NOIPI, M72, "off", NULL, IPI_OFF },
    { NOIPI, M72, "off", "on", IPI_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M72, "off", "off", IPI_OFF },
    /* No Hyper-V in KVM (this project's machine): any hv-* bit fails */
    { NONE, M80, "on", NULL, IPI_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M80, "on", "on", IPI_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M80, "on", "off", IPI_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M80, "off", NULL, IPI_OFF },
    { NONE, M80, "off", "on", IPI_ERROR, E_IPI_UNSUPPORTED },
    { NONE, M80, "off", "off", IPI_OFF },
    { NONE, M72, "on", NULL, IPI_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M72, "on", "on", IPI_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M72, "on", "off", IPI_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M72, "off", NULL, IPI_OFF },
    { NONE, M72, "off", "on", IPI_ERROR, E_IPI_UNSUPPORTED },
    { NONE, M72, "off", "off", IPI_OFF },
};

static X86HostCaps *load_host(const char *name)
{
    char *file = g_strdup_printf("%s.host", name);
    char *path = g_test_build_filename(G_TEST_DIST, "..", "data", "hosts",
                                       file, NULL);
    Error *err = NULL;
    X86HostCaps *caps = host_caps_load(path, &err);

    g_assert_null(err);
    g_free(path);
    g_free(file);
    return caps;
}

/* -cpu OPTION on MACHINE under KVM on HOST; NULL and *errp on failure */
static X86CPU *make_cpu(const char *machine, const char *option,
                        X86CPUEnv *env, Error **errp)
{
    MachineClass *mc = machine_find_class(machine);
    X86CPUOptions *opts;
    X86CPU *cpu;

    g_assert_nonnull(mc);
    x86_cpu_set_default_version(mc->default_cpu_version);
    opts = x86_cpu_parse_option(option, &error_fatal);
    cpu = x86_cpu_new(object_class_by_name(opts->typename), env,
                      mc->compat_props, NULL, opts, &error_fatal);
    x86_cpu_options_free(opts);
    if (!x86_cpu_realize(cpu, env, errp)) {
        object_unref(OBJECT(cpu));
        return NULL;
    }
    return cpu;
}

static uint32_t leaf(X86CPU *cpu, X86CPUEnv *env, uint32_t fn, int reg)
{
    uint32_t r[4];

    x86_cpu_cpuid(cpu, env, fn, 0, &r[R_EAX], &r[R_EBX], &r[R_ECX],
                  &r[R_EDX]);
    return r[reg];
}

static void test_matrix(gconstpointer data)
{
    const MatrixCase *c = data;
    X86HostCaps *host = load_host(c->host);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                      .kernel_irqchip = true };
    GString *opt = g_string_new("host");
    Error *err = NULL;
    X86CPU *cpu;

    g_string_append_printf(opt, ",hv-vpindex=%s", c->vpindex);
    if (c->ipi) {
        g_string_append_printf(opt, ",hv-ipi=%s", c->ipi);
    }
    cpu = make_cpu(c->machine, opt->str, &env, &err);
    if (c->result == IPI_ERROR) {
        g_assert_null(cpu);
        g_assert_nonnull(err);
        g_assert_cmpstr(error_get_pretty(err), ==, c->error);
        error_free(err);
    } else {
        bool on = c->result == IPI_ON;

        g_assert_null(err);
        g_assert_nonnull(cpu);
        g_assert_cmpint(!!(cpu->hyperv_features & (1ULL << HYPERV_FEAT_IPI)),
                        ==, on);
        if (x86_cpu_hyperv_leaves_on(cpu, &env)) {
            g_assert_cmphex(leaf(cpu, &env, 0x40000004, R_EAX) & IPI_BITS, ==,
                            on ? IPI_BITS : 0);
        } else {
            /* No Hyper-V leaves: KVM's stay at 0x40000000 */
            g_assert_false(on);
            g_assert_cmphex(leaf(cpu, &env, 0x40000000, R_EBX), ==,
                            0x4b4d564b);
        }
        object_unref(OBJECT(cpu));
    }
    g_string_free(opt, TRUE);
    host_caps_free(host);
}

/* The desc of every feature is QEMU 7.2's (strings of its binary) */
static void test_descs(void)
{
    static const char *const qemu72[HYPERV_FEAT__MAX] = {
        "relaxed timing (hv-relaxed)",
        "virtual APIC (hv-vapic)",
        "clocksources (hv-time)",
        "crash MSRs (hv-crash)",
        "reset MSR (hv-reset)",
        "VP_INDEX MSR (hv-vpindex)",
        "VP_RUNTIME MSR (hv-runtime)",
        "synthetic interrupt controller (hv-synic)",
        "synthetic timers (hv-stimer)",
        "frequency MSRs (hv-frequencies)",
        "reenlightenment MSRs (hv-reenlightenment)",
        "paravirtualized TLB flush (hv-tlbflush)",
        "enlightened VMCS (hv-evmcs)",
        "paravirtualized IPI (hv-ipi)",
        "direct mode synthetic timers (hv-stimer-direct)",
        "AVIC/APICv support (hv-avic/hv-apicv)",
        "enlightened MSR-Bitmap (hv-emsr-bitmap)",
        "XMM fast hypercall input (hv-xmm-input)",
        "Extended gva ranges for TLB flush hypercalls (hv-tlbflush-ext)",
        "direct TLB flush (hv-tlbflush-direct)",
        "Enable synthetic kernel debugger channel (hv-syndbg)",
    };
    int i;

    for (i = 0; i < HYPERV_FEAT__MAX; i++) {
        g_assert_cmpstr(hyperv_features[i].desc, ==, qemu72[i]);
    }
}

typedef struct ErrorCase {
    const char *name, *host, *cpu, *error;
} ErrorCase;

static const ErrorCase errors[] = {
    { "stimer-needs-time", FULL, "host,hv-synic=on,hv-vpindex=on,hv-stimer=on",
      "Hyper-V synthetic timers (hv-stimer) requires Hyper-V clocksources "
      "(hv-time)" },
    { "synic-needs-vpindex", FULL, "host,hv-synic=on",
      "Hyper-V synthetic interrupt controller (hv-synic) requires Hyper-V "
      "VP_INDEX MSR (hv-vpindex)" },
    { "evmcs-needs-vapic", FULL, "host,hv-evmcs=on",
      "Hyper-V enlightened VMCS (hv-evmcs) requires Hyper-V virtual APIC "
      "(hv-vapic)" },
    { "none-relaxed", NONE, "host,hv-relaxed=on",
      "Hyper-V relaxed timing (hv-relaxed) is not supported by kernel" },
    { "none-apicv-alias", NONE, "host,hv-apicv=on",
      "Hyper-V AVIC/APICv support (hv-avic/hv-apicv) is not supported by "
      "kernel" },
    { "noipi-evmcs", NOIPI, "host,hv-vapic=on,hv-evmcs=on",
      "Hyper-V enlightened VMCS (hv-evmcs) is not supported by kernel" },
};

static void test_error(gconstpointer data)
{
    const ErrorCase *c = data;
    X86HostCaps *host = load_host(c->host);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host };
    Error *err = NULL;

    g_assert_null(make_cpu(M80, c->cpu, &env, &err));
    g_assert_nonnull(err);
    g_assert_cmpstr(error_get_pretty(err), ==, c->error);
    error_free(err);
    host_caps_free(host);
}

/*
 * pc_compat entries (values checked against QEMU 7.2's qom-get): 6.1's
 * version id, 3.0's KVM-only SynIC, 2.10's max VPs
 */
static void test_compat_leaves(void)
{
    static const struct {
        const char *machine;
        uint32_t build, major_minor, post_msgs, max_vps;
    } rows[] = {
        { "pc-q35-8.0", 0x3839, 0x000a0000, 0x30, 0xffffffff },
        { "pc-q35-7.2", 0x3839, 0x000a0000, 0x30, 0xffffffff },
        { "pc-q35-6.2", 0x3839, 0x000a0000, 0x30, 0xffffffff },
        { "pc-q35-6.1", 0x1bbc, 0x00060001, 0x30, 0xffffffff },
        { "pc-q35-3.1", 0x1bbc, 0x00060001, 0x30, 0xffffffff },
        { "pc-q35-3.0", 0x1bbc, 0x00060001, 0, 0xffffffff },
        { "pc-q35-2.11", 0x1bbc, 0x00060001, 0, 0xffffffff },
        { "pc-q35-2.10", 0x1bbc, 0x00060001, 0, 0x40 },
        { "pc-i440fx-2.10", 0x1bbc, 0x00060001, 0, 0x40 },
    };
    X86HostCaps *host = load_host(FULL);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(rows); i++) {
        X86CPU *cpu = make_cpu(rows[i].machine,
                               "host,hv-synic=on,hv-vpindex=on", &env,
                               &error_fatal);

        g_test_message("%s", rows[i].machine);
        g_assert_cmphex(leaf(cpu, &env, 0x40000002, R_EAX), ==,
                        rows[i].build);
        g_assert_cmphex(leaf(cpu, &env, 0x40000002, R_EBX), ==,
                        rows[i].major_minor);
        g_assert_cmphex(leaf(cpu, &env, 0x40000003, R_EBX), ==,
                        rows[i].post_msgs);
        g_assert_cmphex(leaf(cpu, &env, 0x40000005, R_EAX), ==,
                        rows[i].max_vps);
        object_unref(OBJECT(cpu));
    }
    host_caps_free(host);
}

/* The KVM-only SynIC of <= 3.0 does not need VP_INDEX */
static void test_synic_kvm_only(void)
{
    X86HostCaps *host = load_host(FULL);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host };
    X86CPU *cpu = make_cpu("pc-q35-3.0", "host,hv-synic=on", &env,
                           &error_fatal);

    g_assert_true(cpu->hyperv_synic_kvm_only);
    object_unref(OBJECT(cpu));
    host_caps_free(host);
}

/* hv-passthrough: host ids, limits, spinlocks; the user's off wins */
static void test_passthrough(void)
{
    X86HostCaps *host = load_host(FULL);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host };
    X86CPU *cpu = make_cpu(M80, "host,hv-passthrough=on,hv-ipi=off", &env,
                           &error_fatal);

    g_assert_cmpstr(cpu->hyperv_vendor, ==, "Linux KVM Hv");
    g_assert_cmphex(leaf(cpu, &env, 0x40000000, R_EAX), ==, 0x4000000a);
    g_assert_cmphex(leaf(cpu, &env, 0x40000004, R_EBX), ==, 0xfff);
    g_assert_cmphex(leaf(cpu, &env, 0x40000005, R_EAX), ==, 0x400);
    g_assert_cmphex(leaf(cpu, &env, 0x40000005, R_EBX), ==, 0x40);
    g_assert_false(cpu->hyperv_features & (1ULL << HYPERV_FEAT_IPI));
    g_assert_false(cpu->hyperv_features & (1ULL << HYPERV_FEAT_SYNDBG));
    g_assert_true(cpu->hyperv_features & (1ULL << HYPERV_FEAT_EVMCS));
    g_assert_cmphex(leaf(cpu, &env, 0x40000004, R_EAX) & IPI_BITS, ==,
                    1u << 11); /* EX_PROCESSOR_MASKS stays: hv-tlbflush */
    object_unref(OBJECT(cpu));

    /* Without Hyper-V in KVM there is nothing to pass through: no leaves */
    host_caps_free(host);
    host = load_host(NONE);
    env.host = host;
    cpu = make_cpu(M80, "host,hv-passthrough=on", &env, &error_fatal);
    g_assert_cmphex(cpu->hyperv_features, ==, 0);
    g_assert_false(x86_cpu_hyperv_leaves_on(cpu, &env));
    object_unref(OBJECT(cpu));
    host_caps_free(host);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(matrix); i++) {
        const MatrixCase *c = &matrix[i];
        char *path = g_strdup_printf("/hyperv/ipi/%s/%s/vpindex=%s/ipi=%s",
                                     c->host, c->machine, c->vpindex,
                                     c->ipi ? c->ipi : "unset");
        g_test_add_data_func(path, c, test_matrix);
        g_free(path);
    }
    for (i = 0; i < G_N_ELEMENTS(errors); i++) {
        char *path = g_strdup_printf("/hyperv/error/%s", errors[i].name);
        g_test_add_data_func(path, &errors[i], test_error);
        g_free(path);
    }
    g_test_add_func("/hyperv/descs", test_descs);
    g_test_add_func("/hyperv/compat-leaves", test_compat_leaves);
    g_test_add_func("/hyperv/synic-kvm-only", test_synic_kvm_only);
    g_test_add_func("/hyperv/passthrough", test_passthrough);
    return g_test_run();
}
