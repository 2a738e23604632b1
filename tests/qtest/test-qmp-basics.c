/*
 * QMP basics through libqtest (the foundation's QMP-level checks, under
 * -accel qtest): machine types and CPU models as a -machine none probe
 * sees them, CPU paths and properties, what the qtest accelerator does to
 * CPU features (no KVM word, nothing filtered), the auto-enable knobs of
 * design §2, and the STOP/RESUME events.
 */
#include <string.h>

#include "libqtest.h"

#define CPU0 "/machine/unattached/device[0]"

static const char *const i440fx_versions[] = {
    "1.4", "1.5", "1.6", "1.7", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5",
    "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12", "3.0", "3.1", "4.0",
    "4.1", "4.2", "5.0", "5.1", "5.2", "6.0", "6.1", "6.2", "7.0", "7.1",
    "7.2", "8.0", "8.1",
};

static const char *const q35_versions[] = {
    "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12", "3.0",
    "3.1", "4.0", "4.0.1", "4.1", "4.2", "5.0", "5.1", "5.2", "6.0", "6.1",
    "6.2", "7.0", "7.1", "7.2", "8.0", "8.1",
};

static const char *const models[] = {
    "qemu64", "qemu32", "kvm64", "kvm32", "Haswell", "Haswell-noTSX",
    "Skylake-Client", "Skylake-Server", "Cascadelake-Server",
    "Icelake-Server", "EPYC", "EPYC-Rome", "host", "max", "base",
};

/* The element of a QMP list whose "name" is name, or NULL */
static JsonObject *find_named(JsonNode *list, const char *name)
{
    JsonArray *arr = json_node_get_array(list);
    guint i;

    for (i = 0; i < json_array_get_length(arr); i++) {
        JsonObject *o = json_array_get_object_element(arr, i);

        if (!strcmp(json_object_get_string_member(o, "name"), name)) {
            return o;
        }
    }
    return NULL;
}

static bool member_true(JsonObject *o, const char *name)
{
    return json_object_has_member(o, name) &&
           json_object_get_boolean_member(o, name);
}

static void test_query_machines(void)
{
    QTestState *s = qtest_init("-machine none");
    JsonNode *list = qtest_qmp_return(s, "{\"execute\": \"query-machines\"}");
    JsonObject *m;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(i440fx_versions); i++) {
        char *name = g_strdup_printf("pc-i440fx-%s", i440fx_versions[i]);
        g_assert_nonnull(find_named(list, name));
        g_free(name);
    }
    for (i = 0; i < G_N_ELEMENTS(q35_versions); i++) {
        char *name = g_strdup_printf("pc-q35-%s", q35_versions[i]);
        g_assert_nonnull(find_named(list, name));
        g_free(name);
    }
    g_assert_nonnull(find_named(list, "none"));
    m = find_named(list, "pc-i440fx-8.1");
    g_assert_true(member_true(m, "is-default"));
    g_assert_cmpstr(json_object_get_string_member(m, "alias"), ==, "pc");
    m = find_named(list, "pc-q35-8.1");
    g_assert_cmpstr(json_object_get_string_member(m, "alias"), ==, "q35");
    /* The previous newest lost its alias, as in QEMU */
    m = find_named(list, "pc-i440fx-8.0");
    g_assert_false(json_object_has_member(m, "alias"));
    g_assert_false(member_true(m, "is-default"));
    g_assert_false(json_object_has_member(find_named(list, "pc-q35-8.0"),
                                          "alias"));
    g_assert_true(member_true(find_named(list, "pc-i440fx-1.4"),
                              "deprecated"));
    g_assert_false(member_true(find_named(list, "pc-i440fx-2.0"),
                               "deprecated"));
    json_node_unref(list);
    /* The probes libqtest offers agree */
    g_assert_true(qtest_has_machine("pc"));
    g_assert_true(qtest_has_machine("pc-q35-4.0.1"));
    g_assert_false(qtest_has_machine("pc-i440fx-1.3"));
    qtest_quit(s);
    qtest_state_free(s);
}

static void test_query_cpu_definitions(void)
{
    QTestState *s = qtest_init("-machine none");
    JsonNode *list = qtest_qmp_return(s, "{\"execute\": "
                                      "\"query-cpu-definitions\"}");
    JsonObject *d;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(models); i++) {
        g_assert_nonnull(find_named(list, models[i]));
        g_assert_true(qtest_has_cpu_model(models[i]));
    }
    d = find_named(list, "Haswell-noTSX");
    g_assert_cmpstr(json_object_get_string_member(d, "alias-of"), ==,
                    "Haswell-v2");
    d = find_named(list, "Haswell");
    g_assert_cmpstr(json_object_get_string_member(d, "typename"), ==,
                    "Haswell-x86_64-cpu");
    g_assert_false(qtest_has_cpu_model("NoSuchModel"));
    json_node_unref(list);
    qtest_quit(s);
    qtest_state_free(s);
}

static void test_none_machine(void)
{
    QTestState *s = qtest_init("-machine none");
    JsonNode *n;
    JsonObject *o, *ver;

    n = qtest_qmp_return(s, "{\"execute\": \"query-cpus-fast\"}");
    g_assert_cmpuint(json_array_get_length(json_node_get_array(n)), ==, 0);
    json_node_unref(n);
    /* No vCPU: x-query-cpuid has no table, and CPU 0 does not exist */
    n = qtest_qmp_return(s, "{\"execute\": \"x-query-cpuid\"}");
    g_assert_cmpuint(json_array_get_length(json_node_get_array(n)), ==, 0);
    json_node_unref(n);
    o = qtest_qmp(s, "{\"execute\": \"x-query-cpuid\", "
                  "\"arguments\": {\"cpu-index\": 0}}");
    g_assert_cmpstr(json_object_get_string_member(
        json_object_get_object_member(o, "error"), "desc"), ==,
        "CPU 0 does not exist");
    json_object_unref(o);
    n = qtest_qmp_return(s, "{\"execute\": \"query-kvm\"}");
    g_assert_false(json_object_get_boolean_member(json_node_get_object(n),
                                                  "enabled"));
    json_node_unref(n);
    n = qtest_qmp_return(s, "{\"execute\": \"query-status\"}");
    g_assert_cmpstr(json_object_get_string_member(json_node_get_object(n),
                                                  "status"), ==, "running");
    json_node_unref(n);
    n = qtest_qmp_return(s, "{\"execute\": \"query-version\"}");
    o = json_object_get_object_member(json_node_get_object(n), "qemu");
    g_assert_cmpint(json_object_get_int_member(o, "major"), ==, 8);
    g_assert_cmpint(json_object_get_int_member(o, "minor"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(o, "micro"), ==, 0);
    g_assert_true(json_object_has_member(json_node_get_object(n), "package"));
    ver = json_object_get_object_member(qtest_qmp_greeting(s), "version");
    g_assert_true(json_object_equal(ver, json_node_get_object(n)));
    json_node_unref(n);
    /* A command error keeps the id and QEMU's class */
    o = qtest_qmp(s, "{\"execute\": \"no-such-command\", \"id\": 7}");
    g_assert_cmpstr(json_object_get_string_member(
        json_object_get_object_member(o, "error"), "class"), ==,
        "CommandNotFound");
    g_assert_cmpint(json_object_get_int_member(o, "id"), ==, 7);
    json_object_unref(o);
    qtest_quit(s);
    qtest_state_free(s);
}

static void test_cpus(void)
{
    QTestState *s = qtest_init("-machine q35 -S -name guest=demo -smp 2");
    JsonNode *n = qtest_qmp_return(s, "{\"execute\": \"query-cpus-fast\"}");
    JsonArray *cpus = json_node_get_array(n);
    char *path = qtest_cpu_path(s), *type;
    static const char *const props[] = {
        "kvm-pv-unhalt", "feature-words", "filtered-features",
        "x-kvm-auto-enable-pv-unhalt", "x-kvm-auto-enable-pv-eoi",
        "x-hv-auto-enable-ipi", "x-kvm-auto-enable-pv-tlb-flush",
        "x-kvm-auto-enable-pv-ipi", "x-kvm-auto-enable-pv-sched-yield",
        "x-hv-auto-enable-tlbflush", "level", "xlevel", "xlevel2",
    };
    size_t i;

    g_assert_cmpuint(json_array_get_length(cpus), ==, 2);
    g_assert_cmpstr(json_object_get_string_member(
        json_array_get_object_element(cpus, 0), "qom-path"), ==, CPU0);
    /* QEMU 7.2's: the first vCPU's APIC made the kvmvapic, device[1] */
    g_assert_cmpstr(json_object_get_string_member(
        json_array_get_object_element(cpus, 1), "qom-path"), ==,
        "/machine/unattached/device[2]");
    g_assert_cmpstr(path, ==, CPU0);
    json_node_unref(n);

    n = qtest_qmp_return(s, "{\"execute\": \"query-name\"}");
    g_assert_cmpstr(json_object_get_string_member(json_node_get_object(n),
                                                  "name"), ==, "demo");
    json_node_unref(n);
    n = qtest_qmp_return(s, "{\"execute\": \"query-status\"}");
    g_assert_cmpstr(json_object_get_string_member(json_node_get_object(n),
                                                  "status"), ==, "prelaunch");
    json_node_unref(n);

    n = qtest_qom_get(s, path, "type");
    type = g_strdup(json_node_get_string(n));
    g_assert_cmpstr(type, ==, "qemu64-x86_64-cpu");
    json_node_unref(n);
    n = qtest_qmp_return(s, "{\"execute\": \"qom-list\", \"arguments\": "
                         "{\"path\": \"%s\"}}", path);
    for (i = 0; i < G_N_ELEMENTS(props); i++) {
        g_assert_nonnull(find_named(n, props[i]));
    }
    json_node_unref(n);
    g_free(type);
    g_free(path);
    qtest_quit(s);
    qtest_state_free(s);
}

/* The word of (eax, reg) in a feature-words list, 0 if absent */
static int64_t word_of(JsonNode *list, int64_t eax, const char *reg)
{
    JsonArray *arr = json_node_get_array(list);
    guint i;

    for (i = 0; i < json_array_get_length(arr); i++) {
        JsonObject *w = json_array_get_object_element(arr, i);

        if (json_object_get_int_member(w, "cpuid-input-eax") == eax &&
            !strcmp(json_object_get_string_member(w, "cpuid-register"),
                    reg)) {
            return json_object_get_int_member(w, "features");
        }
    }
    return 0;
}

/* Under qtest: no KVM feature word, nothing filtered, no auto-enable */
static void test_qtest_accel_features(void)
{
    QTestState *s = qtest_init("-machine q35 -cpu Haswell,kvm-pv-eoi=on");
    JsonNode *words = qtest_qom_get(s, CPU0, "feature-words");
    JsonNode *filtered = qtest_qom_get(s, CPU0, "filtered-features");
    JsonArray *arr = json_node_get_array(filtered);
    JsonNode *exp;
    JsonObject *props;
    guint i;

    g_assert_cmpint(word_of(words, 0x40000001, "EAX"), ==, 0);
    g_assert_cmpint(word_of(words, 1, "ECX") & (1 << 12), !=, 0); /* fma */
    for (i = 0; i < json_array_get_length(arr); i++) {
        g_assert_cmpint(json_object_get_int_member(
            json_array_get_object_element(arr, i), "features"), ==, 0);
    }
    g_assert_false(qtest_qom_get_bool(s, CPU0, "kvm-pv-unhalt"));
    g_assert_true(qtest_qom_get_bool(s, CPU0, "avx2"));
    json_node_unref(words);
    json_node_unref(filtered);

    exp = qtest_qmp_return(s, "{\"execute\": \"query-cpu-model-expansion\", "
                           "\"arguments\": {\"type\": \"static\", "
                           "\"model\": {\"name\": \"Haswell\"}}}");
    props = json_object_get_object_member(
        json_object_get_object_member(json_node_get_object(exp), "model"),
        "props");
    g_assert_cmpstr(json_object_get_string_member(
        json_object_get_object_member(json_node_get_object(exp), "model"),
        "name"), ==, "base");
    g_assert_true(json_object_get_boolean_member(props, "avx2"));
    json_node_unref(exp);
    exp = qtest_qmp_return(s, "{\"execute\": \"query-cpu-model-expansion\", "
                           "\"arguments\": {\"type\": \"full\", "
                           "\"model\": {\"name\": \"Haswell\"}}}");
    props = json_object_get_object_member(
        json_object_get_object_member(json_node_get_object(exp), "model"),
        "props");
    g_assert_false(json_object_get_boolean_member(props, "kvm-pv-unhalt"));
    g_assert_true(json_object_get_boolean_member(
        props, "x-kvm-auto-enable-pv-unhalt"));
    json_node_unref(exp);
    qtest_quit(s);
    qtest_state_free(s);
}

/*
 * The auto-enable knobs: all on for 8.1; pc_compat_8_0 turns 8.1's four
 * off, pc_compat_7_2 also 8.0's two
 */
static const char *const auto_enable_knobs[] = {
    "x-kvm-auto-enable-pv-eoi",
    "x-kvm-auto-enable-pv-unhalt",
    "x-hv-auto-enable-ipi",
    "x-kvm-auto-enable-pv-tlb-flush",
    "x-kvm-auto-enable-pv-ipi",
    "x-kvm-auto-enable-pv-sched-yield",
    "x-hv-auto-enable-tlbflush",
};

typedef struct AutoEnableCase {
    const char *args;
    const char *knobs;  /* one char per auto_enable_knobs[]: 1 on, 0 off */
} AutoEnableCase;

static const AutoEnableCase auto_enable_cases[] = {
    { "-machine pc-q35-8.1", "1111111" },
    { "-machine pc-i440fx-8.1 -cpu Haswell", "1111111" },
    { "-machine q35", "1111111" },
    { "-machine pc -cpu EPYC", "1111111" },
    { "-machine pc-q35-8.0", "1110000" },
    { "-machine pc-i440fx-8.0 -cpu Haswell", "1110000" },
    { "-machine pc-q35-7.2", "1000000" },
    { "-machine pc-i440fx-2.0 -cpu Haswell", "1000000" },
    { "-machine q35 -global x86_64-cpu.x-kvm-auto-enable-pv-unhalt=off",
      "1011111" },
    { "-machine pc-q35-8.1 -global x86_64-cpu.x-kvm-auto-enable-pv-ipi=off",
      "1111011" },
    { "-machine pc-q35-7.2 -cpu Haswell,x-kvm-auto-enable-pv-unhalt=on,"
      "x-hv-auto-enable-ipi=on,x-kvm-auto-enable-pv-eoi=off",
      "0110000" },
    { "-machine pc-q35-8.0 -cpu qemu64,x-kvm-auto-enable-pv-tlb-flush=on,"
      "x-hv-auto-enable-tlbflush=on", "1111001" },
};

static void test_auto_enable_props(const void *opaque)
{
    const AutoEnableCase *c = opaque;
    QTestState *s = qtest_init(c->args);
    size_t i;

    g_assert_cmpuint(strlen(c->knobs), ==, G_N_ELEMENTS(auto_enable_knobs));
    for (i = 0; i < G_N_ELEMENTS(auto_enable_knobs); i++) {
        g_test_message("%s", auto_enable_knobs[i]);
        g_assert_cmpint(qtest_qom_get_bool(s, CPU0, auto_enable_knobs[i]),
                        ==, c->knobs[i] == '1');
    }
    /* Under qtest nothing is auto-enabled */
    g_assert_false(qtest_qom_get_bool(s, CPU0, "kvm-pv-unhalt"));
    g_assert_false(qtest_qom_get_bool(s, CPU0, "kvm-pv-tlb-flush"));
    g_assert_false(qtest_qom_get_bool(s, CPU0, "kvm-pv-ipi"));
    g_assert_false(qtest_qom_get_bool(s, CPU0, "kvm-pv-sched-yield"));
    g_assert_false(qtest_qom_get_bool(s, CPU0, "hv-tlbflush"));
    qtest_quit(s);
    qtest_state_free(s);
}

static void test_events(void)
{
    QTestState *s = qtest_init("-S");
    JsonObject *ev;
    JsonNode *n;

    n = qtest_qmp_return(s, "{\"execute\": \"cont\"}");
    json_node_unref(n);
    ev = qtest_qmp_eventwait(s, "RESUME");
    g_assert_true(json_object_has_member(ev, "timestamp"));
    json_object_unref(ev);
    n = qtest_qmp_return(s, "{\"execute\": \"query-status\"}");
    g_assert_cmpstr(json_object_get_string_member(json_node_get_object(n),
                                                  "status"), ==, "running");
    json_node_unref(n);
    n = qtest_qmp_return(s, "{\"execute\": \"stop\"}");
    json_node_unref(n);
    ev = qtest_qmp_eventwait(s, "STOP");
    json_object_unref(ev);
    n = qtest_qmp_return(s, "{\"execute\": \"query-status\"}");
    g_assert_cmpstr(json_object_get_string_member(json_node_get_object(n),
                                                  "status"), ==, "paused");
    json_node_unref(n);
    qtest_quit(s);
    qtest_state_free(s);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/qmp/none/query-machines", test_query_machines);
    g_test_add_func("/qmp/none/query-cpu-definitions",
                    test_query_cpu_definitions);
    g_test_add_func("/qmp/none/basics", test_none_machine);
    g_test_add_func("/qmp/q35/cpus", test_cpus);
    g_test_add_func("/qmp/q35/qtest-accel-features",
                    test_qtest_accel_features);
    for (i = 0; i < G_N_ELEMENTS(auto_enable_cases); i++) {
        char *name = g_strdup_printf("/qmp/auto-enable-props/%zu", i);
        g_test_add_data_func(name, &auto_enable_cases[i],
                             test_auto_enable_props);
        g_free(name);
    }
    g_test_add_func("/qmp/events/stop-resume", test_events);
    return g_test_run();
}
