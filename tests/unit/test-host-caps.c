/*
 * Recorded-host text format (target/i386/host-caps.c): round trip, errors
 * with their line numbers, lookups.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "target/i386/cpu.h"
#include "target/i386/host-caps.h"

static const char sample_host[] =
    "# a small Intel host\n"
    "name sample host (unit test)\n"
    "host-vendor GenuineIntel\n"
    "host-fms 6 85 7\n"
    "host-model-id   Intel(R) Xeon(R) CPU @ 2.00GHz\n"
    "tsc-deadline on\n"
    "hyperv 1\n"
    "hyperv-cpuid on\n"
    "hyperv-send-ipi off\n"
    "\n"
    "cpuid 0x0 0x0 0x0 0x0000000d 0x756e6547 0x6c65746e 0x49656e69\n"
    "cpuid 0x7 0x0 0x1 0x00000000 0x009c4fbb 0x00000004 0xac000400\n"
    "cpuid 0x7 0x1 0x1 0x00000000 0x00000000 0x00000000 0x00000000\n"
    "cpuid 0x40000001 0x0 0x0 0x01007efb 0x00000000 0x00000000 0x00000000\n"
    "   # indented comment\n"
    "hv-cpuid 0x40000004 0x0 0x00000e2c 0xffffffff 0x0 0x0\n"
    "msr 0x10a 0xe000000000000\n"
    "msr 0x345 0x4c5\n";

static X86HostCaps *parse_ok(const char *text)
{
    Error *err = NULL;
    X86HostCaps *caps = host_caps_parse(text, "test.host", &err);

    g_assert_null(err);
    g_assert_nonnull(caps);
    return caps;
}

static void test_parse_fields(void)
{
    X86HostCaps *caps = parse_ok(sample_host);
    const X86HostCPUIDEntry *e;
    uint64_t v;

    g_assert_cmpstr(caps->name, ==, "sample host (unit test)");
    g_assert_cmpstr(caps->host_vendor, ==, "GenuineIntel");
    g_assert_cmpuint(caps->host_family, ==, 6);
    g_assert_cmpuint(caps->host_model, ==, 85);
    g_assert_cmpuint(caps->host_stepping, ==, 7);
    /* Leading blanks of a brand string are part of it */
    g_assert_cmpstr(caps->host_model_id, ==,
                    "  Intel(R) Xeon(R) CPU @ 2.00GHz");
    g_assert_true(caps->tsc_deadline);
    g_assert_cmpint(caps->hyperv, ==, 1);
    g_assert_true(caps->hyperv_cpuid);
    g_assert_false(caps->hyperv_send_ipi);
    g_assert_cmpuint(caps->cpuid->len, ==, 4);
    g_assert_cmpuint(caps->hv_cpuid->len, ==, 1);
    g_assert_cmpuint(caps->msrs->len, ==, 2);

    e = host_caps_find(caps, 7, 0);
    g_assert_nonnull(e);
    g_assert_cmphex(e->ebx, ==, 0x009c4fbb);
    g_assert_cmphex(host_caps_cpuid_reg(caps, 7, 0, R_EDX), ==, 0xac000400);
    g_assert_cmphex(host_caps_cpuid_reg(caps, 0x40000001, 0, R_EAX), ==,
                    0x01007efb);
    /* A leaf without significant index answers any subleaf */
    g_assert_cmphex(host_caps_cpuid_reg(caps, 0x40000001, 5, R_EAX), ==,
                    0x01007efb);
    /* Indexed leaves don't */
    g_assert_null(host_caps_find(caps, 7, 2));
    g_assert_cmphex(host_caps_cpuid_reg(caps, 7, 2, R_EBX), ==, 0);
    g_assert_cmphex(host_caps_cpuid_reg(caps, 0x80000001, 0, R_ECX), ==, 0);

    g_assert_true(host_caps_get_msr(caps, 0x10a, &v));
    g_assert_cmphex(v, ==, 0xe000000000000ULL);
    g_assert_false(host_caps_get_msr(caps, 0x48d, &v));
    host_caps_free(caps);
}

static void test_setters(void)
{
    X86HostCaps *caps = host_caps_new();
    X86HostCPUIDEntry e = { .function = 1, .eax = 0x806f8, .ecx = 1 };
    uint64_t v;

    host_caps_add_cpuid(caps, &e);
    e.ecx = 2;
    /* Same (function, index): replaced, not appended */
    host_caps_add_cpuid(caps, &e);
    g_assert_cmpuint(caps->cpuid->len, ==, 1);
    g_assert_cmphex(host_caps_cpuid_reg(caps, 1, 0, R_ECX), ==, 2);

    host_caps_set_msr(caps, 0x10a, 1);
    host_caps_set_msr(caps, 0x10a, 2);
    g_assert_cmpuint(caps->msrs->len, ==, 1);
    g_assert_true(host_caps_get_msr(caps, 0x10a, &v));
    g_assert_cmphex(v, ==, 2);
    host_caps_free(caps);
}

static void test_round_trip(void)
{
    X86HostCaps *caps = parse_ok(sample_host), *again;
    char *text = host_caps_to_string(caps), *text2;
    char *dir = g_dir_make_tmp("test-host-caps-XXXXXX", NULL);
    char *path = g_build_filename(dir, "sample.host", NULL);
    Error *err = NULL;
    guint i;

    g_assert_true(host_caps_save(caps, path, &err));
    g_assert_null(err);
    again = host_caps_load(path, &err);
    g_assert_null(err);
    g_assert_nonnull(again);

    /* Same text, same tables, field by field */
    text2 = host_caps_to_string(again);
    g_assert_cmpstr(text, ==, text2);
    g_assert_cmpstr(again->name, ==, caps->name);
    g_assert_cmpstr(again->host_model_id, ==, caps->host_model_id);
    g_assert_cmpstr(again->host_vendor, ==, caps->host_vendor);
    g_assert_cmpint(again->hyperv, ==, caps->hyperv);
    g_assert_cmpuint(again->cpuid->len, ==, caps->cpuid->len);
    for (i = 0; i < caps->cpuid->len; i++) {
        g_assert_cmpmem(&g_array_index(again->cpuid, X86HostCPUIDEntry, i),
                        sizeof(X86HostCPUIDEntry),
                        &g_array_index(caps->cpuid, X86HostCPUIDEntry, i),
                        sizeof(X86HostCPUIDEntry));
    }
    g_assert_cmpuint(again->hv_cpuid->len, ==, caps->hv_cpuid->len);
    g_assert_cmpmem(again->hv_cpuid->data,
                    again->hv_cpuid->len * sizeof(X86HostCPUIDEntry),
                    caps->hv_cpuid->data,
                    caps->hv_cpuid->len * sizeof(X86HostCPUIDEntry));
    g_assert_cmpmem(again->msrs->data, again->msrs->len * sizeof(X86HostMSR),
                    caps->msrs->data, caps->msrs->len * sizeof(X86HostMSR));

    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
    g_free(text);
    g_free(text2);
    host_caps_free(caps);
    host_caps_free(again);
}

static void test_empty_round_trip(void)
{
    X86HostCaps *caps = host_caps_new();
    char *text = host_caps_to_string(caps);
    X86HostCaps *again = parse_ok(text);
    char *text2 = host_caps_to_string(again);

    const char *body = strchr(text, '\n') + 1;
    char *expected = g_strdup_printf("%.*sname test.host\n%s",
                                     (int)(body - text), text, body);

    /* A nameless description takes the name it was parsed under */
    g_assert_cmpstr(again->name, ==, "test.host");
    g_assert_cmpstr(text2, ==, expected);
    g_free(expected);
    g_free(text);
    g_free(text2);
    host_caps_free(caps);
    host_caps_free(again);
}

/* Each bad input and the error it gives, line number included */
static const struct {
    const char *text;
    const char *error;
} bad_inputs[] = {
    { "# ok\nfrobnicate 1\n", "bad.host:2: unknown keyword 'frobnicate'" },
    { "hyperv 1\n\n\nhyperv 2\n", "bad.host:4: 'hyperv' given twice" },
    { "tsc-deadline yes\n",
      "bad.host:1: expected 'on' or 'off', got 'yes'" },
    { "host-fms 6 85\n", "bad.host:1: 'host-fms' takes 3 arguments, got 2" },
    { "host-vendor Intel\n", "bad.host:1: host-vendor must be 12 characters" },
    { "cpuid 0x1 0x0 0x0 0x0 0x0 0x0 0xzz\n",
      "bad.host:1: invalid number '0xzz'" },
    { "cpuid 0x1 0x0 0x0 0x0 0x0 0x0 0x100000000\n",
      "bad.host:1: number '0x100000000' out of range" },
    { "cpuid 0x1 0 0 1 2 3 4\ncpuid 0x1 0 0 1 2 3 4\n",
      "bad.host:2: duplicate cpuid entry 0x1 index 0x0" },
    { "hv-cpuid 0x40000003 0 1 2 3\n",
      "bad.host:1: 'hv-cpuid' takes 6 arguments, got 5" },
    { "msr 0x10a -1\n", "bad.host:1: invalid number '-1'" },
    { "msr 0x10a 1\nmsr 0x10a 2\n", "bad.host:2: duplicate msr 0x10a" },
    { "host-model-id 0123456789012345678901234567890123456789012345678\n",
      "bad.host:1: host-model-id longer than 48 bytes" },
};

static void test_errors(void)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(bad_inputs); i++) {
        Error *err = NULL;
        X86HostCaps *caps =
            host_caps_parse(bad_inputs[i].text, "bad.host", &err);

        g_assert_null(caps);
        g_assert_nonnull(err);
        g_assert_cmpstr(error_get_pretty(err), ==, bad_inputs[i].error);
        error_free(err);
    }
}

static void test_load_missing(void)
{
    Error *err = NULL;

    g_assert_null(host_caps_load("/nonexistent/dir/x.host", &err));
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(error_get_pretty(err), "/nonexistent/dir/x.host"));
    error_free(err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/host-caps/parse", test_parse_fields);
    g_test_add_func("/host-caps/setters", test_setters);
    g_test_add_func("/host-caps/round-trip", test_round_trip);
    g_test_add_func("/host-caps/round-trip-empty", test_empty_round_trip);
    g_test_add_func("/host-caps/errors", test_errors);
    g_test_add_func("/host-caps/load-missing", test_load_missing);
    return g_test_run();
}
