/*
 * What realize does by vendor: AMD's 0x80000001.EDX repeats 18 bits of
 * leaf 1's EDX, and QEMU 7.2 copies them at realize whenever the vCPU's
 * vendor is AuthenticAMD (not HygonGenuine), after filtering.  Under KVM a
 * named model takes the host's vendor, so on an AMD host every model gets
 * them.  The hosts are the synthetic generous.host (Intel) and
 * generous-amd.host, so both vendors' paths run on any machine.
 *
 * Expected words are QEMU 7.2's: measured on an EPYC host (issue 10) and,
 * with vendor= forcing AMD, on an Intel host.
 */
#include <glib.h>
#include <string.h>

#include "hw/boards.h"
#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"
#include "target/i386/host-caps.h"

typedef struct VendorCase {
    const char *name;
    const char *host;          /* tests/data/hosts/<host>.host; NULL: qtest */
    const char *cpu;           /* -cpu option */
    uint32_t ext_edx;          /* 0x80000001.EDX after realize */
} VendorCase;

static const VendorCase cases[] = {
    /* QEMU 7.2 on an EPYC host: named models take the host's vendor */
    { "amd-host/qemu64", "generous-amd", "qemu64", 0x2193fbfd },
    { "amd-host/qemu64,vendor=GenuineIntel", "generous-amd",
      "qemu64,vendor=GenuineIntel", 0x20100800 },
    /* QEMU 7.2 on an Intel host */
    { "intel-host/qemu64", "generous", "qemu64", 0x20100800 },
    { "intel-host/qemu64,vendor=AuthenticAMD", "generous",
      "qemu64,vendor=AuthenticAMD", 0x2193fbfd },
    { "intel-host/qemu64,vendor=HygonGenuine", "generous",
      "qemu64,vendor=HygonGenuine", 0x20100800 },
    /* The copy follows leaf 1 as realized, user changes included */
    { "intel-host/qemu64,vendor=AuthenticAMD,-fpu,-mmx", "generous",
      "qemu64,vendor=AuthenticAMD,-fpu,-mmx", 0x2113fbfc },
    /* Under qtest a model keeps its own vendor: qemu64's is AMD */
    { "qtest/qemu64", NULL, "qemu64", 0x2193fbfd },
    { "qtest/Haswell", NULL, "Haswell", 0x28100800 },
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

static X86CPU *cpu_new(const VendorCase *c, X86CPUEnv *env,
                       X86CPUOptions **opts)
{
    MachineClass *mc = machine_find_class("pc-q35-7.2");
    Error *err = NULL;
    X86CPU *cpu;

    x86_cpu_set_default_version(mc->default_cpu_version);
    *opts = x86_cpu_parse_option(c->cpu, &err);
    g_assert_null(err);
    cpu = x86_cpu_new(object_class_by_name((*opts)->typename), env,
                      mc->compat_props, NULL, *opts, &err);
    g_assert_null(err);
    return cpu;
}

static void test_vendor_case(gconstpointer data)
{
    const VendorCase *c = data;
    X86HostCaps *host = c->host ? load_host(c->host) : NULL;
    X86CPUEnv env = {
        .accel = host ? X86_ACCEL_KVM : X86_ACCEL_QTEST,
        .host = host,
        .kernel_irqchip = true,
    };
    X86CPUOptions *opts;
    X86CPU *cpu = cpu_new(c, &env, &opts);
    Error *err = NULL;
    uint64_t before;

    g_assert_true(x86_cpu_expand_features(cpu, &env, &err));
    /* Expansion alone (query-cpu-model-expansion) has no copies yet */
    before = cpu->features[FEAT_8000_0001_EDX];
    g_assert_cmphex(before & cpu->features[FEAT_1_EDX] &
                    CPUID_EXT2_AMD_ALIASES, ==, 0);
    g_assert_true(x86_cpu_realize(cpu, &env, &err));
    g_assert_null(err);
    g_assert_cmphex(cpu->features[FEAT_8000_0001_EDX], ==, c->ext_edx);
    /* The copies are not features the host was asked for */
    g_assert_cmphex(cpu->filtered_features[FEAT_8000_0001_EDX] &
                    CPUID_EXT2_AMD_ALIASES, ==, 0);
    object_unref(OBJECT(cpu));
    x86_cpu_options_free(opts);
    if (host) {
        host_caps_free(host);
    }
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *path = g_strdup_printf("/x86/cpuid/amd-aliases/%s",
                                     cases[i].name);
        g_test_add_data_func(path, &cases[i], test_vendor_case);
        g_free(path);
    }
    return g_test_run();
}
