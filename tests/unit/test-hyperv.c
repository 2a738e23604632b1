/*
 * Hyper-V expansion against the recorded fake hosts (tests/data/hosts/
 * hyperv-{full,none,no-send-ipi,no-tlbflush}.host): the auto-enable
 * matrices of hv-ipi (8.0) and hv-tlbflush (8.1), QEMU 7.2's error texts,
 * the compat entries' effect on the leaves and hv-passthrough.  No
 * /dev/kvm needed.
 */
#include <string.h>

#include "hw/boards.h"
#include "target/i386/cpu.h"
#include "target/i386/hyperv.h"

/* 0x40000004.EAX; bit 11 (ExProcessorMasks) belongs to both */
#define IPI_BITS ((1u << 10) | (1u << 11))
#define TLBFLUSH_BITS ((1u << 2) | (1u << 11))

#define E_IPI_UNSUPPORTED \
    "Hyper-V paravirtualized IPI (hv-ipi) is not supported by kernel"
#define E_VPINDEX_7_2 "kernel doesn't allow setting HyperV VP_INDEX"
#define E_IPI_REQUIRES \
    "Hyper-V paravirtualized IPI (hv-ipi) requires Hyper-V VP_INDEX MSR " \
    "(hv-vpindex)"
#define E_VPINDEX_UNSUPPORTED \
    "Hyper-V VP_INDEX MSR (hv-vpindex) is not supported by kernel"
#define E_TLB_UNSUPPORTED \
    "Hyper-V paravirtualized TLB flush (hv-tlbflush) is not supported by " \
    "kernel"
#define E_TLB_REQUIRES \
    "Hyper-V paravirtualized TLB flush (hv-tlbflush) requires Hyper-V " \
    "VP_INDEX MSR (hv-vpindex)"

/* FEAT_DROPPED: the property reads on, the vCPU has no Hyper-V leaves */
typedef enum { FEAT_OFF, FEAT_ON, FEAT_DROPPED, FEAT_ERROR } FeatResult;

/* One row of an auto-enable matrix; the feature is the matrix's */
typedef struct MatrixCase {
    const char *host;      /* tests/data/hosts/<host>.host */
    const char *machine;
    const char *vpindex;   /* "on" / "off" */
    const char *setting;   /* the feature: NULL (unset), "on", "off" */
    FeatResult result;
    const char *error;     /* FEAT_ERROR: the exact text */
} MatrixCase;

typedef struct Matrix {
    const char *name;      /* test path component */
    HypervFeat feat;
    uint32_t bits;         /* its 0x40000004.EAX bits */
    const MatrixCase *rows;
    size_t len;
} Matrix;

typedef struct MatrixTest {
    const Matrix *matrix;
    const MatrixCase *row;
} MatrixTest;

#define FULL "hyperv-full"
#define NONE "hyperv-none"
#define NOIPI "hyperv-no-send-ipi"
#define NOTLB "hyperv-no-tlbflush"
#define M81 "pc-q35-8.1"
#define M80 "pc-q35-8.0"
#define M72 "pc-q35-7.2"

static const MatrixCase ipi_matrix[] = {
    /* 8.1 keeps 8.0's hv-ipi auto-enable */
    { FULL, M81, "on", NULL, FEAT_ON },
    { FULL, M81, "on", "off", FEAT_OFF },
    { FULL, M81, "off", NULL, FEAT_OFF },
    { NOIPI, M81, "on", NULL, FEAT_OFF },
    { NOTLB, M81, "on", NULL, FEAT_OFF },
    /* Full support: 8.0 auto-enables hv-ipi with hv-vpindex, 7.2 doesn't */
    { FULL, M80, "on", NULL, FEAT_ON },
    { FULL, M80, "on", "on", FEAT_ON },
    { FULL, M80, "on", "off", FEAT_OFF },
    { FULL, M80, "off", NULL, FEAT_OFF },
    { FULL, M80, "off", "on", FEAT_ERROR, E_IPI_REQUIRES },
    { FULL, M80, "off", "off", FEAT_OFF },
    { FULL, M72, "on", NULL, FEAT_OFF },
    { FULL, M72, "on", "on", FEAT_ON },
    { FULL, M72, "on", "off", FEAT_OFF },
    { FULL, M72, "off", NULL, FEAT_OFF },
    { FULL, M72, "off", "on", FEAT_ERROR, E_IPI_REQUIRES },
    { FULL, M72, "off", "off", FEAT_OFF },
    /* No SEND_IPI: auto-enable stays off silently, explicit fails */
    { NOIPI, M80, "on", NULL, FEAT_OFF },
    { NOIPI, M80, "on", "on", FEAT_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M80, "on", "off", FEAT_OFF },
    { NOIPI, M80, "off", NULL, FEAT_OFF },
    /* QEMU checks host support before dependencies */
    { NOIPI, M80, "off", "on", FEAT_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M80, "off", "off", FEAT_OFF },
    { NOIPI, M72, "on", NULL, FEAT_OFF },
    { NOIPI, M72, "on", "on", FEAT_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M72, "on", "off", FEAT_OFF },
    { NOIPI, M72, "off", NULL, FEAT_OFF },
    { NOIPI, M72, "off", "on", FEAT_ERROR, E_IPI_UNSUPPORTED },
    { NOIPI, M72, "off", "off", FEAT_OFF },
    /* No Hyper-V in KVM (this project's machine): from 8.0 on, any hv-*
     * bit fails ... */
    { NONE, M80, "on", NULL, FEAT_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M80, "on", "on", FEAT_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M80, "on", "off", FEAT_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M80, "off", NULL, FEAT_OFF },
    { NONE, M80, "off", "on", FEAT_ERROR, E_IPI_UNSUPPORTED },
    { NONE, M80, "off", "off", FEAT_OFF },
    /* ... up to 7.2 as QEMU 7.2: only hv-vpindex fails, the rest drops */
    { NONE, M72, "on", NULL, FEAT_ERROR, E_VPINDEX_7_2 },
    { NONE, M72, "on", "on", FEAT_ERROR, E_VPINDEX_7_2 },
    { NONE, M72, "on", "off", FEAT_ERROR, E_VPINDEX_7_2 },
    { NONE, M72, "off", NULL, FEAT_OFF },
    { NONE, M72, "off", "on", FEAT_DROPPED },
    { NONE, M72, "off", "off", FEAT_OFF },
};

static const MatrixCase tlbflush_matrix[] = {
    /* Full support: 8.1 auto-enables hv-tlbflush with hv-vpindex */
    { FULL, M81, "on", NULL, FEAT_ON },
    { FULL, M81, "on", "on", FEAT_ON },
    { FULL, M81, "on", "off", FEAT_OFF },
    { FULL, M81, "off", NULL, FEAT_OFF },
    { FULL, M81, "off", "on", FEAT_ERROR, E_TLB_REQUIRES },
    { FULL, M81, "off", "off", FEAT_OFF },
    /* ... 8.0 and 7.2 don't */
    { FULL, M80, "on", NULL, FEAT_OFF },
    { FULL, M80, "on", "on", FEAT_ON },
    { FULL, M80, "on", "off", FEAT_OFF },
    { FULL, M80, "off", NULL, FEAT_OFF },
    { FULL, M80, "off", "on", FEAT_ERROR, E_TLB_REQUIRES },
    { FULL, M72, "on", NULL, FEAT_OFF },
    { FULL, M72, "on", "on", FEAT_ON },
    { FULL, M72, "off", NULL, FEAT_OFF },
    /* TLB flush without SEND_IPI: hv-tlbflush on, hv-ipi stays off */
    { NOIPI, M81, "on", NULL, FEAT_ON },
    { NOIPI, M81, "on", "off", FEAT_OFF },
    { NOIPI, M81, "off", NULL, FEAT_OFF },
    { NOIPI, M80, "on", NULL, FEAT_OFF },
    { NOIPI, M72, "on", NULL, FEAT_OFF },
    /* No TLB flush in KVM: auto-enable stays off silently, explicit fails */
    { NOTLB, M81, "on", NULL, FEAT_OFF },
    { NOTLB, M81, "on", "on", FEAT_ERROR, E_TLB_UNSUPPORTED },
    { NOTLB, M81, "on", "off", FEAT_OFF },
    { NOTLB, M81, "off", NULL, FEAT_OFF },
    /* QEMU checks host support before dependencies */
    { NOTLB, M81, "off", "on", FEAT_ERROR, E_TLB_UNSUPPORTED },
    { NOTLB, M80, "on", NULL, FEAT_OFF },
    { NOTLB, M80, "on", "on", FEAT_ERROR, E_TLB_UNSUPPORTED },
    /* No Hyper-V in KVM (this project's machine): nothing silently */
    { NONE, M81, "on", NULL, FEAT_ERROR, E_VPINDEX_UNSUPPORTED },
    { NONE, M81, "off", NULL, FEAT_OFF },
    { NONE, M81, "off", "on", FEAT_ERROR, E_TLB_UNSUPPORTED },
    { NONE, M81, "off", "off", FEAT_OFF },
    { NONE, M80, "off", NULL, FEAT_OFF },
    { NONE, M80, "off", "on", FEAT_ERROR, E_TLB_UNSUPPORTED },
};

static const Matrix matrices[] = {
    { "ipi", HYPERV_FEAT_IPI, IPI_BITS, ipi_matrix,
      G_N_ELEMENTS(ipi_matrix) },
    { "tlbflush", HYPERV_FEAT_TLBFLUSH, TLBFLUSH_BITS, tlbflush_matrix,
      G_N_ELEMENTS(tlbflush_matrix) },
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
    const MatrixTest *t = data;
    const MatrixCase *c = t->row;
    const HypervFeatureDef *def = &hyperv_features[t->matrix->feat];
    X86HostCaps *host = load_host(c->host);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                      .kernel_irqchip = true };
    GString *opt = g_string_new("host");
    Error *err = NULL;
    X86CPU *cpu;

    g_string_append_printf(opt, ",hv-vpindex=%s", c->vpindex);
    if (c->setting) {
        g_string_append_printf(opt, ",%s=%s", def->name, c->setting);
    }
    cpu = make_cpu(c->machine, opt->str, &env, &err);
    if (c->result == FEAT_ERROR) {
        g_assert_null(cpu);
        g_assert_nonnull(err);
        g_assert_cmpstr(error_get_pretty(err), ==, c->error);
        error_free(err);
    } else {
        bool on = c->result == FEAT_ON || c->result == FEAT_DROPPED;
        uint32_t bits = t->matrix->bits;
        /* The shared bit 11 may stay on for the other feature */
        uint32_t own = bits & ~(IPI_BITS & TLBFLUSH_BITS);

        g_assert_null(err);
        g_assert_nonnull(cpu);
        g_assert_cmpint(!!(cpu->hyperv_features & (1ULL << t->matrix->feat)),
                        ==, on);
        g_assert_cmpint(x86_cpu_hyperv_leaves_on(cpu, &env) &&
                        c->result == FEAT_DROPPED, ==, false);
        if (x86_cpu_hyperv_leaves_on(cpu, &env)) {
            uint32_t eax = leaf(cpu, &env, 0x40000004, R_EAX);

            g_assert_cmphex(eax & (on ? bits : own), ==, on ? bits : 0);
        } else {
            /* No Hyper-V leaves: KVM's stay at 0x40000000 */
            g_assert_true(c->result != FEAT_ON);
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
        { "pc-q35-8.1", 0x3839, 0x000a0000, 0x30, 0xffffffff },
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

/*
 * The auto-enables never make a command line fail: whatever starts on
 * pc-q35-8.0 starts on pc-q35-8.1, on every recorded Hyper-V host
 */
static void test_auto_enable_never_fails(void)
{
    static const char *const hosts[] = { FULL, NOIPI, NOTLB, NONE };
    static const char *const options[] = {
        "host",
        "host,hv-vpindex=on",
        "host,hv-relaxed=on,hv-vapic=on,hv-spinlocks=0x1fff",
        "host,hv-vpindex=on,hv-synic=on,hv-time=on,hv-stimer=on",
        "host,hv-vpindex=on,hv-ipi=off,hv-tlbflush=off",
        "host,hv-vpindex=on,hv-tlbflush=on",
        "host,hv-vpindex=on,hv-ipi=on",
        "host,hv-relaxed=on,hv-vapic=on,hv-vpindex=on,hv-evmcs=on",
        "host,hv-vpindex=on,hv-tlbflush-direct=on,hv-vapic=on",
        "host,hv-passthrough=on",
        "host,hv-passthrough=on,hv-tlbflush=off",
        "qemu64,hv-vpindex=on,hv-relaxed=on",
        "Haswell,hv-vpindex=on,hv-runtime=on,hv-reset=on",
    };
    size_t h, o;

    for (h = 0; h < G_N_ELEMENTS(hosts); h++) {
        X86HostCaps *host = load_host(hosts[h]);
        X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                          .kernel_irqchip = true };

        for (o = 0; o < G_N_ELEMENTS(options); o++) {
            Error *err80 = NULL, *err81 = NULL;
            X86CPU *c80 = make_cpu(M80, options[o], &env, &err80);
            X86CPU *c81 = make_cpu(M81, options[o], &env, &err81);

            g_test_message("%s: %s: 8.0 %s, 8.1 %s", hosts[h], options[o],
                           err80 ? error_get_pretty(err80) : "starts",
                           err81 ? error_get_pretty(err81) : "starts");
            g_assert_true(!c80 || c81);
            if (c80) {
                object_unref(OBJECT(c80));
            } else {
                error_free(err80);
            }
            if (c81) {
                object_unref(OBJECT(c81));
            } else {
                error_free(err81);
            }
        }
        host_caps_free(host);
    }
}

/*
 * hv-tlbflush-ext needs hv-tlbflush: on 8.1 the auto-enable satisfies it
 * (hv-vpindex on), on 8.0 the line fails as it does in QEMU 7.2
 */
static void test_tlbflush_ext(void)
{
    X86HostCaps *host = load_host(FULL);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                      .kernel_irqchip = true };
    const char *opt = "host,hv-vpindex=on,hv-tlbflush-ext=on";
    Error *err = NULL;
    X86CPU *cpu = make_cpu(M81, opt, &env, &error_fatal);

    g_assert_true(cpu->hyperv_features & (1ULL << HYPERV_FEAT_TLBFLUSH));
    g_assert_cmphex(leaf(cpu, &env, 0x40000003, R_EDX) & (1u << 14), ==,
                    1u << 14);
    object_unref(OBJECT(cpu));
    g_assert_null(make_cpu(M80, opt, &env, &err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "Hyper-V Extended gva ranges for TLB flush hypercalls "
                    "(hv-tlbflush-ext) requires Hyper-V paravirtualized TLB "
                    "flush (hv-tlbflush)");
    error_free(err);
    host_caps_free(host);
}

/* 8.1's auto-enable without Hyper-V enlightenments: no leaves at all */
static void test_tlbflush_needs_hyperv_on(void)
{
    X86HostCaps *host = load_host(FULL);
    X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                      .kernel_irqchip = true };
    X86CPU *cpu = make_cpu(M81, "host", &env, &error_fatal);

    g_assert_cmphex(cpu->hyperv_features, ==, 0);
    g_assert_false(x86_cpu_hyperv_leaves_on(cpu, &env));
    object_unref(OBJECT(cpu));
    host_caps_free(host);
}

/*
 * Up to 7.2 on a host without Hyper-V (QEMU 7.2's behaviour, measured on
 * this project's PVM hosts): requests start without leaves, with no
 * dependency check; hv-vpindex fails with 7.2's text; the four features
 * whose MSRs make 7.2 abort are refused.  A host with Hyper-V keeps every
 * check, and 8.0 refuses.
 */
static void test_like_7_2_without_hyperv(void)
{
    static const struct {
        const char *machine, *host, *cpu, *error;
    } rows[] = {
        { M72, NONE, "host,hv-relaxed=on,hv-ipi=on,hv-stimer=on", NULL },
        { "pc-i440fx-4.2", NONE, "qemu64,hv-evmcs=on,hv-crash=on", NULL },
        { M72, NONE, "host,hv-passthrough=on", NULL },
        { M72, NONE, "host,hv-relaxed=on,hv-vpindex=on",
          "kernel doesn't allow setting HyperV VP_INDEX" },
        { M72, NONE, "host,hv-vapic=on,hv-vpindex=on",
          "kernel doesn't allow setting HyperV VP_INDEX" },
        { M72, NONE, "host,hv-time=on",
          "Hyper-V clocksources (hv-time) is not supported by kernel" },
        { M72, NONE, "host,hv-reenlightenment=on,hv-relaxed=on",
          "Hyper-V reenlightenment MSRs (hv-reenlightenment) is not "
          "supported by kernel" },
        { M72, FULL, "host,hv-synic=on",
          "Hyper-V synthetic interrupt controller (hv-synic) requires "
          "Hyper-V VP_INDEX MSR (hv-vpindex)" },
        { M72, NOIPI, "host,hv-vpindex=on,hv-ipi=on",
          E_IPI_UNSUPPORTED },
        { M80, NONE, "host,hv-relaxed=on",
          "Hyper-V relaxed timing (hv-relaxed) is not supported by kernel" },
        { M72, NONE, "host,hv-relaxed=on,x-hv-refuse-unsupported=on",
          "Hyper-V relaxed timing (hv-relaxed) is not supported by kernel" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(rows); i++) {
        X86HostCaps *host = load_host(rows[i].host);
        X86CPUEnv env = { .accel = X86_ACCEL_KVM, .host = host,
                          .kernel_irqchip = true };
        Error *err = NULL;
        X86CPU *cpu = make_cpu(rows[i].machine, rows[i].cpu, &env, &err);

        if (rows[i].error) {
            g_assert_null(cpu);
            g_assert_cmpstr(error_get_pretty(err), ==, rows[i].error);
            error_free(err);
        } else {
            g_assert_null(err);
            g_assert_nonnull(cpu);
            /* the properties read as set (hv-passthrough has none here) */
            g_assert_true(cpu->hyperv_features != 0 ||
                          cpu->hyperv_passthrough);
            g_assert_false(x86_cpu_hyperv_leaves_on(cpu, &env));
            g_assert_cmphex(leaf(cpu, &env, 0x40000000, R_EBX), ==,
                            0x4b4d564b);
            object_unref(OBJECT(cpu));
        }
        host_caps_free(host);
    }
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(matrices); i++) {
        const Matrix *m = &matrices[i];
        size_t j;

        for (j = 0; j < m->len; j++) {
            const MatrixCase *c = &m->rows[j];
            MatrixTest *t = g_new(MatrixTest, 1);
            char *path = g_strdup_printf(
                "/hyperv/%s/%s/%s/vpindex=%s/%s=%s", m->name, c->host,
                c->machine, c->vpindex, m->name,
                c->setting ? c->setting : "unset");

            t->matrix = m;
            t->row = c;
            g_test_add_data_func_full(path, t, test_matrix, g_free);
            g_free(path);
        }
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
    g_test_add_func("/hyperv/auto-enable-never-fails",
                    test_auto_enable_never_fails);
    g_test_add_func("/hyperv/tlbflush/ext-dependency", test_tlbflush_ext);
    g_test_add_func("/hyperv/tlbflush/needs-hyperv-on",
                    test_tlbflush_needs_hyperv_on);
    g_test_add_func("/hyperv/like-7.2-without-hyperv",
                    test_like_7_2_without_hyperv);
    return g_test_run();
}
