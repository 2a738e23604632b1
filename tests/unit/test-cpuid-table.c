/*
 * The CPUID table a vCPU gets (target/i386/cpuid.c), for CPUs expanded
 * against a fake KVM host.  Expected values are what QEMU 7.2 gives the
 * same CPU (legacy cache leaves, version encoding, hypervisor leaves).
 */
#include <glib.h>
#include <string.h>

#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"
#include "target/i386/host-caps.h"

/*
 * A plain Intel host: enough of KVM_GET_SUPPORTED_CPUID for qemu64 and
 * the KVM paravirt features QEMU 7.2 measured on such hosts (0x01007efb
 * minus what the test needs).
 */
static const char fake_host[] =
    "name fake intel host\n"
    "host-vendor GenuineIntel\n"
    "host-fms 6 85 7\n"
    "host-model-id Intel(R) Xeon(R) Fake CPU\n"
    "tsc-deadline on\n"
    "hyperv 1\n"
    "hyperv-cpuid on\n"
    "hyperv-send-ipi on\n"
    "cpuid 0x0 0x0 0x0 0x00000016 0x756e6547 0x6c65746e 0x49656e69\n"
    "cpuid 0x1 0x0 0x0 0x00050657 0x00000800 0xf7fa3223 0x178bfbff\n"
    "cpuid 0x6 0x0 0x0 0x00000004 0x00000000 0x00000000 0x00000000\n"
    "cpuid 0x7 0x0 0x1 0x00000000 0xd19f4fbb 0x0000000c 0xbc000400\n"
    "cpuid 0xd 0x0 0x1 0x000002e7 0x00000a88 0x00000a88 0x00000000\n"
    "cpuid 0xd 0x1 0x1 0x0000000f 0x00000000 0x00000000 0x00000000\n"
    "cpuid 0xd 0x2 0x1 0x00000100 0x00000240 0x00000000 0x00000000\n"
    "cpuid 0x40000000 0x0 0x0 0x40000001 0x4b4d564b 0x564b4d56 0x0000004d\n"
    "cpuid 0x40000001 0x0 0x0 0x01007efb 0x00000000 0x00000000 0x00000000\n"
    "cpuid 0x80000000 0x0 0x0 0x80000008 0x00000000 0x00000000 0x00000000\n"
    "cpuid 0x80000001 0x0 0x0 0x00000000 0x00000000 0x00000121 0x2c100800\n"
    "cpuid 0x80000008 0x0 0x0 0x0000302e 0x00000000 0x00000000 0x00000000\n"
    "hv-cpuid 0x40000003 0x0 0x00007fff 0x0 0x0 0x000bfffe\n"
    "hv-cpuid 0x40000004 0x0 0x00000e2c 0x0 0x0 0x0\n";

typedef struct Fixture {
    X86HostCaps *host;
    X86CPUEnv env;
    X86CPU *cpu;
    GArray *table;
} Fixture;

static X86CPU *cpu_new(const char *model, const X86CPUEnv *env,
                       const char *prop, const char *value)
{
    char *typename = x86_cpu_type_name(model);
    Error *err = NULL;
    X86CPU *cpu = x86_cpu_new(object_class_by_name(typename), env, NULL,
                              NULL, NULL, &err);

    g_assert_null(err);
    g_assert_nonnull(cpu);
    if (prop) {
        g_assert_true(object_property_parse(OBJECT(cpu), prop, value, &err));
    }
    g_assert_true(x86_cpu_realize(cpu, env, &err));
    g_assert_null(err);
    g_free(typename);
    return cpu;
}

static void fixture_setup_accel(Fixture *f, X86Accel accel, const char *prop,
                                const char *value)
{
    Error *err = NULL;

    f->host = host_caps_parse(fake_host, "fake.host", &err);
    g_assert_null(err);
    f->env = (X86CPUEnv){
        .accel = accel, .host = f->host, .kernel_irqchip = true,
    };
    f->cpu = cpu_new("qemu64", &f->env, prop, value);
    f->table = x86_cpu_build_cpuid_table(f->cpu, &f->env);
}

static void fixture_setup(Fixture *f, gconstpointer data)
{
    fixture_setup_accel(f, X86_ACCEL_KVM, NULL, NULL);
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
    g_array_free(f->table, TRUE);
    object_unref(OBJECT(f->cpu));
    host_caps_free(f->host);
}

static const X86CPUIDEntry *find(GArray *t, uint32_t fn, uint32_t idx)
{
    guint i;

    for (i = 0; i < t->len; i++) {
        const X86CPUIDEntry *e = &g_array_index(t, X86CPUIDEntry, i);
        if (e->function == fn && e->index == idx) {
            return e;
        }
    }
    return NULL;
}

static void regs_to_string(char *out, uint32_t a, uint32_t b, uint32_t c)
{
    memcpy(out, &a, 4);
    memcpy(out + 4, &b, 4);
    memcpy(out + 8, &c, 4);
    out[12] = 0;
}

static void test_leaf0(Fixture *f, gconstpointer data)
{
    const X86CPUIDEntry *e = find(f->table, 0, 0);
    char vendor[13];

    g_assert_nonnull(e);
    g_assert_cmphex(e->eax, ==, 0xd);
    g_assert_cmpuint(e->eax, ==, f->cpu->level);
    /* Named models take the host's vendor under KVM; EBX, EDX, ECX */
    regs_to_string(vendor, e->ebx, e->edx, e->ecx);
    g_assert_cmpstr(vendor, ==, "GenuineIntel");
    e = find(f->table, 0x80000000, 0);
    g_assert_nonnull(e);
    g_assert_cmphex(e->eax, ==, f->cpu->xlevel);
    regs_to_string(vendor, e->ebx, e->edx, e->ecx);
    g_assert_cmpstr(vendor, ==, "GenuineIntel");
}

static void test_leaf1(Fixture *f, gconstpointer data)
{
    const X86CPUIDEntry *e = find(f->table, 1, 0);

    g_assert_nonnull(e);
    /* family 15 model 107 stepping 1: extended model 6, model 0xb */
    g_assert_cmpuint(f->cpu->family, ==, 15);
    g_assert_cmpuint(f->cpu->model, ==, 107);
    g_assert_cmpuint(f->cpu->stepping, ==, 1);
    g_assert_cmphex(e->eax, ==, 0x00060fb1);
    /* CLFLUSH 8 quadwords, one logical CPU, APIC id 0 */
    g_assert_cmphex(e->ebx, ==, 0x00000800);
    g_assert_cmphex(e->ecx, ==, (uint32_t)f->cpu->features[FEAT_1_ECX]);
    g_assert_cmphex(e->edx, ==, (uint32_t)f->cpu->features[FEAT_1_EDX]);
    g_assert_false(e->significant_index);
    /* Same version in 0x80000001 */
    g_assert_cmphex(find(f->table, 0x80000001, 0)->eax, ==, 0x00060fb1);
}

static void test_version_encoding(void)
{
    static const struct {
        uint32_t family, model, stepping, eax;
    } cases[] = {
        { 6, 85, 7, 0x00050657 },    /* Skylake-Server class */
        { 15, 6, 1, 0x00000f61 },    /* Opteron_G1 */
        { 23, 49, 0, 0x00830f10 },   /* EPYC-Rome: extended family 8 */
        { 4, 8, 0, 0x00000480 },     /* 486 */
    };
    X86CPUEnv env = { .accel = X86_ACCEL_QTEST };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        X86CPU *cpu = cpu_new("qemu64", &env, NULL, NULL);
        uint32_t eax, ebx, ecx, edx;

        cpu->family = cases[i].family;
        cpu->model = cases[i].model;
        cpu->stepping = cases[i].stepping;
        x86_cpu_cpuid(cpu, &env, 1, 0, &eax, &ebx, &ecx, &edx);
        g_assert_cmphex(eax, ==, cases[i].eax);
        object_unref(OBJECT(cpu));
    }
}

static void test_kvm_leaves(Fixture *f, gconstpointer data)
{
    const X86CPUIDEntry *e = find(f->table, 0x40000000, 0);
    char sig[13];

    g_assert_nonnull(e);
    g_assert_cmphex(e->eax, ==, 0x40000001);
    regs_to_string(sig, e->ebx, e->ecx, e->edx);
    g_assert_cmpmem(sig, 12, "KVMKVMKVM\0\0\0", 12);
    e = find(f->table, 0x40000001, 0);
    g_assert_nonnull(e);
    g_assert_cmphex(e->eax, ==, (uint32_t)f->cpu->features[FEAT_KVM]);
    g_assert_cmphex(e->edx, ==, (uint32_t)f->cpu->features[FEAT_KVM_HINTS]);
    /* kvm-pv-eoi is on for named models (bit 6) */
    g_assert_true(e->eax & (1u << KVM_FEATURE_PV_EOI));
}

static void test_model_id(Fixture *f, gconstpointer data)
{
    uint32_t words[12];
    char id[49] = { 0 };
    uint32_t fn;

    /*
     * Read through x86_cpu_cpuid: an all-zero 0x80000004 (short model id)
     * is left out of the table, as QEMU does, and reads as zeros.
     */
    g_assert_nonnull(find(f->table, 0x80000002, 0));
    for (fn = 0x80000002; fn <= 0x80000004; fn++) {
        uint32_t *w = &words[(fn - 0x80000002) * 4];

        x86_cpu_cpuid(f->cpu, &f->env, fn, 0, &w[0], &w[1], &w[2], &w[3]);
    }
    memcpy(id, words, 48);
    g_assert_cmpstr(id, ==, "QEMU Virtual CPU version 2.5+");
    g_assert_cmpstr(id, ==, f->cpu->model_id);
}

/* QEMU 7.2's legacy cache leaves, as its guests read them */
static void test_legacy_caches(Fixture *f, gconstpointer data)
{
    static const X86CPUIDEntry expected[] = {
        { 2, 0, false, 0x00000001, 0x00000000, 0x0000004d, 0x002c307d },
        { 4, 0, true, 0x00000121, 0x01c0003f, 0x0000003f, 0x00000001 },
        { 4, 1, true, 0x00000122, 0x01c0003f, 0x0000003f, 0x00000001 },
        { 4, 2, true, 0x00000143, 0x03c0003f, 0x00000fff, 0x00000001 },
        { 4, 3, true, 0x00000163, 0x03c0003f, 0x00003fff, 0x00000006 },
        { 4, 4, true, 0, 0, 0, 0 }, /* QEMU passes the terminator on */
        { 0x80000005, 0, false, 0x01ff01ff, 0x01ff01ff, 0x40020140,
          0x40020140 },
        { 0x80000006, 0, false, 0x00000000, 0x42004200, 0x02008140,
          0x00808140 },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(expected); i++) {
        const X86CPUIDEntry *e =
            find(f->table, expected[i].function, expected[i].index);

        g_assert_nonnull(e);
        g_assert_cmpint(e->significant_index, ==,
                        expected[i].significant_index);
        g_assert_cmphex(e->eax, ==, expected[i].eax);
        g_assert_cmphex(e->ebx, ==, expected[i].ebx);
        g_assert_cmphex(e->ecx, ==, expected[i].ecx);
        g_assert_cmphex(e->edx, ==, expected[i].edx);
    }
}

static void test_phys_bits(Fixture *f, gconstpointer data)
{
    const X86CPUIDEntry *e = find(f->table, 0x80000008, 0);

    g_assert_nonnull(e);
    /* 40 physical bits for named models, 48 virtual */
    g_assert_cmphex(e->eax, ==, 0x00003028);
}

static void test_sorted_unique(Fixture *f, gconstpointer data)
{
    guint i;

    g_assert_cmpuint(f->table->len, >, 10);
    for (i = 1; i < f->table->len; i++) {
        const X86CPUIDEntry *a = &g_array_index(f->table, X86CPUIDEntry, i - 1);
        const X86CPUIDEntry *b = &g_array_index(f->table, X86CPUIDEntry, i);

        g_assert_true(a->function < b->function ||
                      (a->function == b->function && a->index < b->index));
    }
}

static void test_out_of_range(Fixture *f, gconstpointer data)
{
    uint32_t r[4], top[4];

    /* Intel vendor: past the last leaf reads as the highest basic leaf */
    x86_cpu_cpuid(f->cpu, &f->env, 0xd, 0, &top[0], &top[1], &top[2],
                  &top[3]);
    x86_cpu_cpuid(f->cpu, &f->env, 0x20, 0, &r[0], &r[1], &r[2], &r[3]);
    g_assert_cmpmem(r, sizeof(r), top, sizeof(top));
    x86_cpu_cpuid(f->cpu, &f->env, 0x8000ffff, 0, &r[0], &r[1], &r[2],
                  &r[3]);
    g_assert_cmpmem(r, sizeof(r), top, sizeof(top));
    /* In range but absent: zeros */
    x86_cpu_cpuid(f->cpu, &f->env, 9, 0, &r[0], &r[1], &r[2], &r[3]);
    g_assert_cmphex(r[0] | r[1] | r[2] | r[3], ==, 0);
}

static void test_hyperv(void)
{
    Fixture f;
    const X86CPUIDEntry *e;

    fixture_setup_accel(&f, X86_ACCEL_KVM, "hv-relaxed", "on");
    /* Hyper-V takes 0x40000000; KVM moves up by 0x100 */
    e = find(f.table, 0x40000000, 0);
    g_assert_nonnull(e);
    g_assert_cmphex(e->eax, ==, 0x40000005);
    g_assert_cmphex(e->ebx, ==, 0x7263694d); /* "Micr" */
    g_assert_cmphex(find(f.table, 0x40000001, 0)->eax, ==, 0x31237648);
    g_assert_cmphex(find(f.table, 0x40000002, 0)->eax, ==, 0x3839);
    g_assert_cmphex(find(f.table, 0x40000002, 0)->ebx, ==, 0x000a0000);
    /* hypercall page always; dynamic partitioning always */
    g_assert_cmphex(find(f.table, 0x40000003, 0)->eax, ==, 1u << 5);
    g_assert_cmphex(find(f.table, 0x40000003, 0)->edx, ==, 1u << 3);
    /* relaxed timing; spinlocks never notify */
    g_assert_cmphex(find(f.table, 0x40000004, 0)->eax, ==, 1u << 5);
    g_assert_cmphex(find(f.table, 0x40000004, 0)->ebx, ==, 0xffffffff);
    g_assert_nonnull(find(f.table, 0x40000005, 0));
    g_assert_null(find(f.table, 0x4000000a, 0));
    e = find(f.table, 0x40000100, 0);
    g_assert_nonnull(e);
    g_assert_cmphex(e->eax, ==, 0x40000101);
    e = find(f.table, 0x40000101, 0);
    g_assert_nonnull(e);
    g_assert_cmphex(e->eax, ==, (uint32_t)f.cpu->features[FEAT_KVM]);
    fixture_teardown(&f, NULL);
}

static void test_no_kvm_leaves(void)
{
    Fixture f;
    guint i;

    /* No KVM leaves without KVM, nor with kvm=off */
    fixture_setup_accel(&f, X86_ACCEL_QTEST, NULL, NULL);
    for (i = 0; i < f.table->len; i++) {
        uint32_t fn = g_array_index(f.table, X86CPUIDEntry, i).function;
        g_assert_false(fn >= 0x40000000 && fn < 0x50000000);
    }
    fixture_teardown(&f, NULL);

    fixture_setup_accel(&f, X86_ACCEL_KVM, "kvm", "off");
    g_assert_null(find(f.table, 0x40000000, 0));
    g_assert_null(find(f.table, 0x40000001, 0));
    fixture_teardown(&f, NULL);
}

static void test_topology(void)
{
    X86CPUEnv env = { .accel = X86_ACCEL_QTEST };
    X86CPU *cpu = cpu_new("qemu64", &env, NULL, NULL);
    uint32_t a, b, c, d;

    /* 2 cores x 2 threads; the fourth CPU */
    cpu->nr_cores = 2;
    cpu->nr_threads = 2;
    cpu->apic_id = 3;
    x86_cpu_cpuid(cpu, &env, 1, 0, &a, &b, &c, &d);
    g_assert_cmphex(b, ==, 0x03040800);
    g_assert_true(d & (1u << 28)); /* HT */
    x86_cpu_cpuid(cpu, &env, 0xb, 1, &a, &b, &c, &d);
    g_assert_cmphex(a, ==, 2);
    g_assert_cmphex(b, ==, 4);
    g_assert_cmphex(c, ==, 0x201);
    g_assert_cmphex(d, ==, 3);
    /* qemu64 is AMD under qtest: CmpLegacy is set */
    x86_cpu_cpuid(cpu, &env, 0x80000001, 0, &a, &b, &c, &d);
    g_assert_true(c & (1u << 1));
    /* Leaf 4 is Intel's: x-vendor-cpuid-only hides it from AMD guests */
    x86_cpu_cpuid(cpu, &env, 4, 2, &a, &b, &c, &d);
    g_assert_cmphex(a | b | c | d, ==, 0);
    cpu->vendor_cpuid_only = false;
    x86_cpu_cpuid(cpu, &env, 4, 2, &a, &b, &c, &d);
    g_assert_cmphex(a >> 14, ==, (1u << 12) | 1); /* 2 cores, 2 threads */
    object_unref(OBJECT(cpu));
}

#define ADD(path, fn)                                                       \
    g_test_add("/x86/cpuid/table/" path, Fixture, NULL, fixture_setup, fn,  \
               fixture_teardown)

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    ADD("leaf0", test_leaf0);
    ADD("leaf1", test_leaf1);
    ADD("kvm-leaves", test_kvm_leaves);
    ADD("model-id", test_model_id);
    ADD("legacy-caches", test_legacy_caches);
    ADD("phys-bits", test_phys_bits);
    ADD("sorted-unique", test_sorted_unique);
    ADD("out-of-range", test_out_of_range);
    g_test_add_func("/x86/cpuid/table/version-encoding",
                    test_version_encoding);
    g_test_add_func("/x86/cpuid/table/hyperv", test_hyperv);
    g_test_add_func("/x86/cpuid/table/no-kvm-leaves", test_no_kvm_leaves);
    g_test_add_func("/x86/cpuid/table/topology", test_topology);
    return g_test_run();
}
