/*
 * The cases of QEMU's own x86 CPUID compat qtest, as tables: level /
 * xlevel / xlevel2 of CPU models and their automatic raise by features,
 * old machine types that must not raise them, +feature/-feature parsing
 * with its warnings, and feature bits in feature-words/filtered-features.
 * Every instance runs under -accel qtest (nothing filtered).
 */
#include <string.h>

#include "libqtest.h"

/* -machine MACHINE -cpu MODEL[,FEATURES]: PROPERTY == VALUE */
typedef struct LevelCase {
    const char *name;
    const char *model;
    const char *features;
    const char *machine;
    const char *property;
    int64_t value;
} LevelCase;

static const LevelCase level_cases[] = {
    /* What the models define */
    { "phenom/level", "phenom", NULL, NULL, "level", 5 },
    { "Conroe/level", "Conroe", NULL, NULL, "level", 10 },
    { "SandyBridge/level", "SandyBridge", NULL, NULL, "level", 0xd },
    { "486/xlevel", "486", NULL, NULL, "xlevel", 0 },
    { "core2duo/xlevel", "core2duo", NULL, NULL, "xlevel", 0x80000008 },
    { "phenom/xlevel", "phenom", NULL, NULL, "xlevel", 0x8000001A },
    { "athlon/xlevel", "athlon", NULL, NULL, "xlevel", 0x80000008 },

    /* Raised to the leaf a feature lives in */
    { "auto-level/486/arat", "486", "arat=on", NULL, "level", 6 },
    { "auto-level/phenom/fsgsbase", "phenom", "fsgsbase=on", NULL,
      "level", 7 },
    { "auto-level/phenom/avx512vbmi", "phenom", "avx512vbmi=on", NULL,
      "level", 7 },
    { "auto-level/phenom/xsaveopt", "phenom", "xsaveopt=on", NULL,
      "level", 0xd },
    { "auto-xlevel/486/3dnow", "486", "3dnow=on", NULL,
      "xlevel", 0x80000001 },
    { "auto-xlevel/486/sse4a", "486", "sse4a=on", NULL,
      "xlevel", 0x80000001 },
    { "auto-xlevel/486/invtsc", "486", "invtsc=on", NULL,
      "xlevel", 0x80000007 },
    { "auto-xlevel/486/npt", "486", "svm=on,npt=on", NULL,
      "xlevel", 0x8000000A },
    { "auto-xlevel2/phenom/xstore", "phenom", "xstore=on", NULL,
      "xlevel2", 0xC0000001 },
    { "auto-xlevel/athlon/svm", "athlon", "svm=on", NULL,
      "xlevel", 0x8000000A },

    /* Never lowered */
    { "auto-level/SandyBridge/multiple", "SandyBridge",
      "arat=on,fsgsbase=on,avx512vbmi=on", NULL, "level", 0xd },
    { "auto-xlevel/phenom/3dnow", "phenom",
      "3dnow=on,sse4a=on,invtsc=on,npt=on,svm=on", NULL,
      "xlevel", 0x8000001A },

    /* An explicit value always wins */
    { "auto-level/486/fixed/0xF", "486",
      "level=0xF,arat=on,fsgsbase=on,avx512vbmi=on,xsaveopt=on", NULL,
      "level", 0xF },
    { "auto-level/486/fixed/2", "486",
      "level=2,arat=on,fsgsbase=on,avx512vbmi=on,xsaveopt=on", NULL,
      "level", 2 },
    { "auto-level/486/fixed/0", "486",
      "level=0,arat=on,fsgsbase=on,avx512vbmi=on,xsaveopt=on", NULL,
      "level", 0 },
    { "auto-xlevel/486/fixed/80000002", "486",
      "xlevel=0x80000002,3dnow=on,sse4a=on,invtsc=on,npt=on,svm=on", NULL,
      "xlevel", 0x80000002 },
    { "auto-xlevel/486/fixed/8000001A", "486",
      "xlevel=0x8000001A,3dnow=on,sse4a=on,invtsc=on,npt=on,svm=on", NULL,
      "xlevel", 0x8000001A },
    { "auto-xlevel/phenom/fixed/0", "486",
      "xlevel=0,3dnow=on,sse4a=on,invtsc=on,npt=on,svm=on", NULL,
      "xlevel", 0 },
    { "auto-xlevel2/486/fixed", "486", "xlevel2=0xC0000002,xstore=on", NULL,
      "xlevel2", 0xC0000002 },

    /* Machine types from before the auto-raise keep the model's values */
    { "auto-level/pc-2.7", "486", "arat=on,avx512vbmi=on,xsaveopt=on",
      "pc-i440fx-2.7", "level", 1 },
    { "auto-xlevel/pc-2.7", "486",
      "3dnow=on,sse4a=on,invtsc=on,npt=on,svm=on", "pc-i440fx-2.7",
      "xlevel", 0 },
    { "auto-xlevel2/pc-2.7", "486", "xstore=on", "pc-i440fx-2.7",
      "xlevel2", 0 },
    /* 2.9 and older do not raise level to 7 for leaf 7 features */
    { "auto-level7/pc-i440fx-2.9/off", "Conroe", NULL, "pc-i440fx-2.9",
      "level", 10 },
    { "auto-level7/pc-i440fx-2.9/on", "Conroe", "erms=on", "pc-i440fx-2.9",
      "level", 10 },
    /* The 2.4 compat xlevel of SandyBridge, with or without SVM/NPT */
    { "xlevel-compat/pc-i440fx-2.4/npt-off", "SandyBridge", NULL,
      "pc-i440fx-2.4", "xlevel", 0x80000008 },
    { "xlevel-compat/pc-i440fx-2.4/npt-on", "SandyBridge", "svm=on,npt=on",
      "pc-i440fx-2.4", "xlevel", 0x80000008 },
};

/* -cpu MODEL,FEATURES: bit BIT of (EAX=in_eax, ECX=in_ecx).REG */
typedef struct FeatureCase {
    const char *name;
    const char *model;
    const char *features;
    uint32_t in_eax, in_ecx;
    const char *reg;
    int bit;
    bool expected;
} FeatureCase;

static const FeatureCase feature_cases[] = {
    { "plus", "486", "+arat", 6, 0, "EAX", 2, true },
    { "minus", "pentium", "-mmx", 1, 0, "EDX", 23, false },
    { "on", "486", "arat=on", 6, 0, "EAX", 2, true },
    { "off", "pentium", "mmx=off", 1, 0, "EDX", 23, false },
    { "max-plus-invtsc", "max", "+invtsc", 0x80000007, 0, "EDX", 8, true },
    { "max-invtsc-on", "max", "invtsc=on", 0x80000007, 0, "EDX", 8, true },
    { "max-minus-mmx", "max", "-mmx", 1, 0, "EDX", 23, false },
    { "max-invtsc-on,mmx=off", "max", "mmx=off", 1, 0, "EDX", 23, false },
};

static char *cpu_args(const char *machine, const char *model,
                      const char *features)
{
    return g_strdup_printf("%s%s -cpu %s%s%s", machine ? "-machine " : "",
                           machine ? machine : "", model,
                           features ? "," : "", features ? features : "");
}

static void test_level(const void *opaque)
{
    const LevelCase *c = opaque;
    char *args = cpu_args(c->machine, c->model, c->features);
    QTestState *s = qtest_init(args);
    char *path = qtest_cpu_path(s);

    g_assert_cmphex(qtest_qom_get_int(s, path, c->property), ==, c->value);
    qtest_quit(s);
    qtest_state_free(s);
    g_free(path);
    g_free(args);
}

/* features of the (eax, ecx, reg) word in a feature-words style list */
static uint32_t feature_word(JsonNode *list, uint32_t eax, uint32_t ecx,
                             const char *reg)
{
    JsonArray *arr = json_node_get_array(list);
    guint i;

    for (i = 0; i < json_array_get_length(arr); i++) {
        JsonObject *w = json_array_get_object_element(arr, i);
        bool has_ecx = json_object_has_member(w, "cpuid-input-ecx");

        if (json_object_get_int_member(w, "cpuid-input-eax") == eax &&
            (!has_ecx ||
             json_object_get_int_member(w, "cpuid-input-ecx") == ecx) &&
            !strcmp(json_object_get_string_member(w, "cpuid-register"),
                    reg)) {
            return json_object_get_int_member(w, "features");
        }
    }
    return 0;
}

static void test_feature(const void *opaque)
{
    const FeatureCase *c = opaque;
    char *args = cpu_args(NULL, c->model, c->features);
    QTestState *s = qtest_init(args);
    char *path = qtest_cpu_path(s);
    JsonNode *present = qtest_qom_get(s, path, "feature-words");
    JsonNode *filtered = qtest_qom_get(s, path, "filtered-features");
    uint32_t value;

    value = feature_word(present, c->in_eax, c->in_ecx, c->reg) |
            feature_word(filtered, c->in_eax, c->in_ecx, c->reg);
    g_assert_cmpint(!!(value & (1u << c->bit)), ==, c->expected);
    /* Under qtest nothing is filtered */
    g_assert_cmpuint(feature_word(filtered, c->in_eax, c->in_ecx, c->reg),
                     ==, 0);
    json_node_unref(present);
    json_node_unref(filtered);
    qtest_quit(s);
    qtest_state_free(s);
    g_free(path);
    g_free(args);
}

/*
 * "-foo" beats "+foo", "[+-]foo" beats "foo=...", and the old names with
 * underscores still work; mixing the two styles warns.
 */
static void test_plus_minus(void)
{
    QTestState *s = qtest_init_capture_stderr(
        "-cpu pentium,-fpu,+fpu,-mce,mce=on,+cx8,cx8=off,+sse4_1,sse4_2=on");
    char *path = qtest_cpu_path(s);
    const char *err;

    g_assert_false(qtest_qom_get_bool(s, path, "fpu"));
    g_assert_false(qtest_qom_get_bool(s, path, "mce"));
    g_assert_true(qtest_qom_get_bool(s, path, "cx8"));
    g_assert_true(qtest_qom_get_bool(s, path, "sse4-1"));
    g_assert_true(qtest_qom_get_bool(s, path, "sse4.1"));
    g_assert_true(qtest_qom_get_bool(s, path, "sse4-2"));
    g_assert_true(qtest_qom_get_bool(s, path, "sse4.2"));
    qtest_quit(s);
    err = qtest_get_stderr(s);
    g_assert_nonnull(strstr(err, "Ambiguous CPU model string. "
                            "Don't mix both \"-mce\" and \"mce=on\""));
    g_assert_nonnull(strstr(err, "Ambiguous CPU model string. "
                            "Don't mix both \"+cx8\" and \"cx8=off\""));
    g_assert_nonnull(strstr(err, "Compatibility of ambiguous CPU model "
                            "strings won't be kept on future QEMU versions"));
    qtest_state_free(s);
    g_free(path);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    if (qtest_has_cpu_model("pentium")) {
        g_test_add_func("/x86/cpuid/parsing-plus-minus", test_plus_minus);
    }
    for (i = 0; i < G_N_ELEMENTS(level_cases); i++) {
        const LevelCase *c = &level_cases[i];
        char *name;

        if (!qtest_has_cpu_model(c->model) ||
            (c->machine && !qtest_has_machine(c->machine))) {
            continue;
        }
        name = g_strdup_printf("/x86/cpuid/%s", c->name);
        g_test_add_data_func(name, c, test_level);
        g_free(name);
    }
    for (i = 0; i < G_N_ELEMENTS(feature_cases); i++) {
        const FeatureCase *c = &feature_cases[i];
        char *name;

        if (!qtest_has_cpu_model(c->model)) {
            continue;
        }
        name = g_strdup_printf("/x86/cpuid/features/%s", c->name);
        g_test_add_data_func(name, c, test_feature);
        g_free(name);
    }
    return g_test_run();
}
