/*
 * X86CPU types: the abstract x86_64-cpu, one type per CPU model version and
 * alias, base/max/host; the properties every X86CPU has; loading a model;
 * the -cpu option; CPU creation in the order of design §1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "exec/memory.h"
#include "hw/boards.h"
#include "qemu/option.h"
#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"

#define TYPE_CPU "cpu"

static int default_cpu_version = CPU_VERSION_LATEST;

void x86_cpu_set_default_version(int version)
{
    default_cpu_version = version;
}

int x86_cpu_get_default_version(void)
{
    return default_cpu_version;
}

char *x86_cpu_type_name(const char *model_name)
{
    return g_strdup_printf("%s" X86_CPU_TYPE_SUFFIX, model_name);
}

char *x86_cpu_class_get_model_name(X86CPUClass *cc)
{
    const char *name = object_class_get_name(OBJECT_CLASS_CAST(cc));

    g_assert(g_str_has_suffix(name, X86_CPU_TYPE_SUFFIX));
    return g_strndup(name, strlen(name) - strlen(X86_CPU_TYPE_SUFFIX));
}

ObjectClass *x86_cpu_class_by_name(const char *model_name)
{
    char *typename = x86_cpu_type_name(model_name);
    ObjectClass *oc = object_class_by_name(typename);

    g_free(typename);
    if (oc && (object_class_is_abstract(oc) ||
               !object_class_dynamic_cast(oc, TYPE_X86_CPU))) {
        return NULL;
    }
    return oc;
}

static int x86_cpu_model_last_version(const X86CPUModel *model)
{
    const X86CPUVersionDefinition *v = model->cpudef->versions;
    int last = 1;

    for (; v && v->version; v++) {
        last = v->version;
    }
    return last;
}

static int x86_cpu_model_resolve_version(const X86CPUModel *model)
{
    int v = model->version;

    if (v == CPU_VERSION_AUTO) {
        v = default_cpu_version;
    }
    if (v == CPU_VERSION_LATEST) {
        return x86_cpu_model_last_version(model);
    }
    return v;
}

char *x86_cpu_class_get_alias_of(X86CPUClass *cc)
{
    const X86CPUModel *model = cc->model;
    int v;

    /* Machines with legacy CPU versions report no aliases at all */
    if (!model || !model->is_alias ||
        default_cpu_version == CPU_VERSION_LEGACY) {
        return NULL;
    }
    if (model->version == CPU_VERSION_AUTO) {
        v = x86_cpu_model_resolve_version(model);
    } else {
        v = model->version;
    }
    return g_strdup_printf("%s-v%d", model->cpudef->name, v);
}

/* Model loading ----------------------------------------------------------- */

static bool x86_cpu_parse_feature_list(const char *list, FeatureWordArray out,
                                       Error **errp)
{
    char **names = g_strsplit_set(list ? list : "", " \t\n", -1);
    bool ok = true;
    int i;

    for (i = 0; names[i]; i++) {
        FeatureWord w;
        uint64_t mask;

        if (!names[i][0]) {
            continue;
        }
        if (!x86_feature_lookup(names[i], &w, &mask)) {
            error_setg(errp, "CPU model data names unknown feature '%s'",
                       names[i]);
            ok = false;
            break;
        }
        out[w] |= mask;
    }
    g_strfreev(names);
    return ok;
}

bool x86_cpu_load_model(X86CPU *cpu, const X86CPUModel *model,
                        const X86CPUEnv *env, Error **errp)
{
    const X86CPUDefinition *def = model->cpudef;
    Object *obj = OBJECT(cpu);
    int version = x86_cpu_model_resolve_version(model);
    const X86CPUVersionDefinition *vdef;
    const char *vendor = def->vendor;
    char host_vendor[13];
    FeatureWord w;

    cpu->min_level = def->level;
    cpu->min_xlevel = def->xlevel;
    cpu->min_xlevel2 = def->xlevel2;
    if (!object_property_set_int(obj, "family", def->family, errp) ||
        !object_property_set_int(obj, "model", def->model, errp) ||
        !object_property_set_int(obj, "stepping", def->stepping, errp) ||
        !object_property_set_str(obj, "model-id", def->model_id, errp)) {
        return false;
    }
    for (w = 0; w < FEATURE_WORDS; w++) {
        cpu->features[w] = 0;
    }
    if (!x86_cpu_parse_feature_list(def->features, cpu->features, errp)) {
        return false;
    }
    /* Models with their own cache description don't use the legacy leaves */
    cpu->legacy_cache = def->cache_info == NULL;
    /* Every model announces a hypervisor */
    cpu->features[FEAT_1_ECX] |= 1ULL << 31;

    /*
     * Under KVM a named model reports the host's vendor: sysenter and
     * syscall behave as the real CPU's in compatibility mode.
     */
    if (env->accel == X86_ACCEL_KVM && env->host &&
        env->host->host_vendor[0]) {
        g_strlcpy(host_vendor, env->host->host_vendor, sizeof(host_vendor));
        vendor = host_vendor;
    }
    if (!object_property_set_str(obj, "vendor", vendor, errp)) {
        return false;
    }

    if (version != CPU_VERSION_LEGACY) {
        for (vdef = def->versions; vdef && vdef->version; vdef++) {
            const PropValue *p;

            if (vdef->version > version) {
                break;
            }
            for (p = vdef->props; p && p->prop; p++) {
                if (!object_property_parse(obj, p->prop, p->value, errp)) {
                    return false;
                }
            }
        }
    }
    return true;
}

/* Properties -------------------------------------------------------------- */

static JsonNode *x86_cpu_feature_words_to_json(const uint64_t *words)
{
    JsonArray *arr = json_array_new();
    FeatureWord w;

    for (w = 0; w < FEATURE_WORDS; w++) {
        const FeatureWordInfo *wi = &feature_word_info[w];
        JsonObject *o;

        /* MSR words are not CPUID registers: QEMU leaves them out */
        if (wi->type != CPUID_FEATURE_WORD) {
            continue;
        }
        o = json_object_new();
        json_object_set_int_member(o, "cpuid-input-eax", wi->cpuid.eax);
        if (wi->cpuid.needs_ecx) {
            json_object_set_int_member(o, "cpuid-input-ecx", wi->cpuid.ecx);
        }
        json_object_set_string_member(o, "cpuid-register",
                                      x86_cpuid_reg_name(wi->cpuid.reg));
        json_object_set_int_member(o, "features", (gint64)words[w]);
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

static JsonNode *x86_cpu_get_feature_words(Object *obj, ObjectProperty *prop,
                                           Error **errp)
{
    return x86_cpu_feature_words_to_json(X86_CPU(obj)->features);
}

static JsonNode *x86_cpu_get_filtered_features(Object *obj,
                                               ObjectProperty *prop,
                                               Error **errp)
{
    return x86_cpu_feature_words_to_json(X86_CPU(obj)->filtered_features);
}

static JsonNode *x86_cpu_get_unavailable_features_prop(Object *obj,
                                                       ObjectProperty *prop,
                                                       Error **errp)
{
    GPtrArray *names = x86_cpu_get_unavailable_features(X86_CPU(obj));
    JsonArray *arr = json_array_new();
    guint i;

    for (i = 0; i < names->len; i++) {
        json_array_add_string_element(arr, g_ptr_array_index(names, i));
    }
    g_ptr_array_free(names, TRUE);
    return json_node_init_array(json_node_alloc(), arr);
}

/*
 * family / model / stepping / tsc-frequency: an integer in 0..max, with
 * QEMU's error text
 */
static bool x86_cpu_ranged_value(ObjectProperty *prop, JsonNode *value,
                                 int64_t max, int64_t *v, Error **errp)
{
    if (!JSON_NODE_HOLDS_VALUE(value) ||
        json_node_get_value_type(value) != G_TYPE_INT64) {
        error_setg(errp, "Invalid parameter type for '%s', expected: integer",
                   prop->name);
        return false;
    }
    *v = json_node_get_int(value);
    if (*v < 0 || *v > max) {
        error_setg(errp,
                   "Property .%s doesn't take value %" PRId64
                   " (minimum: 0, maximum: %" PRId64 ")",
                   prop->name, *v, max);
        return false;
    }
    return true;
}

static bool x86_cpu_set_ranged(Object *obj, ObjectProperty *prop,
                               JsonNode *value, Error **errp)
{
    uint32_t *field = (uint32_t *)((char *)obj + prop->offset);
    int64_t v;

    if (!x86_cpu_ranged_value(prop, value, (int64_t)prop->opaque, &v,
                              errp)) {
        return false;
    }
    *field = v;
    return true;
}

static bool x86_cpu_set_tsc_frequency(Object *obj, ObjectProperty *prop,
                                      JsonNode *value, Error **errp)
{
    int64_t v;

    if (!x86_cpu_ranged_value(prop, value, INT64_MAX, &v, errp)) {
        return false;
    }
    X86_CPU(obj)->tsc_frequency = v;
    return true;
}

static JsonNode *x86_cpu_get_tsc_frequency(Object *obj, ObjectProperty *prop,
                                           Error **errp)
{
    return json_node_init_int(json_node_alloc(), X86_CPU(obj)->tsc_frequency);
}

static JsonNode *x86_cpu_get_u32(Object *obj, ObjectProperty *prop,
                                 Error **errp)
{
    return json_node_init_int(json_node_alloc(),
                              *(uint32_t *)((char *)obj + prop->offset));
}

static bool x86_cpu_set_vendor(Object *obj, ObjectProperty *prop,
                               JsonNode *value, Error **errp)
{
    X86CPU *cpu = X86_CPU(obj);
    const char *s = object_prop_value_str(prop, value, errp);

    if (!s) {
        return false;
    }
    if (strlen(s) != 12) {
        error_setg(errp, "Property '.vendor' doesn't take value '%s'", s);
        return false;
    }
    g_free(cpu->vendor);
    cpu->vendor = g_strdup(s);
    return true;
}

static bool x86_cpu_set_model_id(Object *obj, ObjectProperty *prop,
                                 JsonNode *value, Error **errp)
{
    X86CPU *cpu = X86_CPU(obj);
    const char *s = object_prop_value_str(prop, value, errp);

    if (!s) {
        return false;
    }
    g_free(cpu->model_id);
    /* CPUID 0x80000002..4 hold 48 bytes */
    cpu->model_id = g_strndup(s, 48);
    return true;
}

/* -device, device_add ------------------------------------------------------ */

static const X86CPUEnv x86_cpu_qtest_env = { .accel = X86_ACCEL_QTEST };

/*
 * A vCPU as the machine's -smp vCPUs are made: the model, compat entries,
 * -global, and the -cpu options when it is -cpu's type (QEMU 7.2 makes
 * them globals of that type)
 */
static DeviceState *x86_cpu_create(ObjectClass *oc, Error **errp)
{
    MachineState *ms = current_machine;
    const X86CPUOptions *opts = NULL;
    X86CPU *cpu;

    if (ms && ms->cpu_opts &&
        !strcmp(ms->cpu_opts->typename, object_class_get_name(oc))) {
        opts = ms->cpu_opts;
    }
    cpu = x86_cpu_new(oc, ms ? &ms->cpu_env : &x86_cpu_qtest_env,
                      ms ? MACHINE_GET_CLASS(ms)->compat_props : NULL,
                      ms ? ms->global_props : NULL, opts, errp);
    if (!cpu) {
        return NULL;
    }
    if (ms) {
        cpu->nr_dies = ms->smp.dies;
        cpu->nr_cores = ms->smp.cores;
        cpu->nr_threads = ms->smp.threads;
    }
    return DEVICE(cpu);
}

/* After the machine's pre-plug gave it its APIC ID and cpu-index */
static bool x86_cpu_device_realize(DeviceState *dev, Error **errp)
{
    MachineState *ms = current_machine;
    X86CPU *cpu = X86_CPU(dev);
    char *name;

    if (!x86_cpu_realize(cpu, ms ? &ms->cpu_env : &x86_cpu_qtest_env,
                         errp)) {
        return false;
    }
    /* QEMU's per-vCPU address space, in info mtree */
    name = g_strdup_printf("cpu-memory-%d", cpu->cpu_index);
    address_space_init(&cpu->as, get_system_memory(), name);
    g_free(name);
    return true;
}

#define FIELD(name, kind, field, def)                                        \
    object_class_property_add_field(oc, name, kind, offsetof(X86CPU, field), \
                                    def, NULL)

static void x86_cpu_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ObjectProperty *p;

    /*
     * x86_cpu_new() loads the model, then applies compat entries and
     * -global in design §1's order; -device and device_add go through it
     * too (x86_cpu_create) and into a free slot of -smp maxcpus (the
     * machine's hotplug handler, hw/i386/pc-cpu-plug.c)
     */
    dc->globals_applied_by_type = true;
    dc->user_creatable = true;
    dc->hotpluggable = true;
    dc->create = x86_cpu_create;
    dc->realize = x86_cpu_device_realize;
    dc->categories = 1u << DEVICE_CATEGORY_CPU;

    x86_cpu_register_feature_props(oc);

    p = object_class_property_add(oc, "family", "int", x86_cpu_get_u32,
                                  x86_cpu_set_ranged, NULL);
    p->offset = offsetof(X86CPU, family);
    p->opaque = 0xff + 0xf;
    p = object_class_property_add(oc, "model", "int", x86_cpu_get_u32,
                                  x86_cpu_set_ranged, NULL);
    p->offset = offsetof(X86CPU, model);
    p->opaque = 0xff;
    p = object_class_property_add(oc, "stepping", "int", x86_cpu_get_u32,
                                  x86_cpu_set_ranged, NULL);
    p->offset = offsetof(X86CPU, stepping);
    p->opaque = 0xf;
    object_class_property_add(oc, "tsc-frequency", "int",
                              x86_cpu_get_tsc_frequency,
                              x86_cpu_set_tsc_frequency, NULL);
    p = object_class_property_add(oc, "vendor", "string",
                                  object_prop_get_str_at_offset,
                                  x86_cpu_set_vendor,
                                  NULL);
    p->offset = offsetof(X86CPU, vendor);
    p = object_class_property_add(oc, "model-id", "string",
                                  object_prop_get_str_at_offset,
                                  x86_cpu_set_model_id,
                                  NULL);
    p->offset = offsetof(X86CPU, model_id);

    object_class_property_add(oc, "feature-words", "X86CPUFeatureWordInfo",
                              x86_cpu_get_feature_words, NULL, NULL);
    object_class_property_add(oc, "filtered-features", "X86CPUFeatureWordInfo",
                              x86_cpu_get_filtered_features, NULL, NULL);
    object_class_property_add(oc, "unavailable-features", "strList",
                              x86_cpu_get_unavailable_features_prop, NULL,
                              NULL);

    FIELD("level", PROP_KIND_UINT32, level, "4294967295");
    FIELD("xlevel", PROP_KIND_UINT32, xlevel, "4294967295");
    FIELD("xlevel2", PROP_KIND_UINT32, xlevel2, "4294967295");
    FIELD("min-level", PROP_KIND_UINT32, min_level, "0");
    FIELD("min-xlevel", PROP_KIND_UINT32, min_xlevel, "0");
    FIELD("min-xlevel2", PROP_KIND_UINT32, min_xlevel2, "0");
    FIELD("check", PROP_KIND_BOOL, check_cpuid, "on");
    FIELD("enforce", PROP_KIND_BOOL, enforce_cpuid, "off");
    FIELD("kvm", PROP_KIND_BOOL, expose_kvm, "on");
    FIELD("full-cpuid-auto-level", PROP_KIND_BOOL, full_cpuid_auto_level, "on");
    FIELD("x-intel-pt-auto-level", PROP_KIND_BOOL, intel_pt_auto_level, "on");
    FIELD("l3-cache", PROP_KIND_BOOL, l3_cache, "on");
    FIELD("legacy-cache", PROP_KIND_BOOL, legacy_cache, "on");
    FIELD("cpuid-0xb", PROP_KIND_BOOL, enable_cpuid_0xb, "on");
    FIELD("vmware-cpuid-freq", PROP_KIND_BOOL, vmware_cpuid_freq, "on");
    FIELD("tcg-cpuid", PROP_KIND_BOOL, expose_tcg, "on");
    FIELD("x-migrate-smi-count", PROP_KIND_BOOL, migrate_smi_count, "on");
    FIELD("x-vendor-cpuid-only", PROP_KIND_BOOL, vendor_cpuid_only, "on");
    FIELD("fill-mtrr-mask", PROP_KIND_BOOL, fill_mtrr_mask, "on");
    FIELD("kvm-no-smi-migration", PROP_KIND_BOOL, kvm_no_smi_migration, "off");
    FIELD("kvm-pv-enforce-cpuid", PROP_KIND_BOOL, kvm_pv_enforce_cpuid, "off");
    FIELD("pmu", PROP_KIND_BOOL, pmu, "off");
    FIELD("lmce", PROP_KIND_BOOL, lmce, "off");
    FIELD("host-phys-bits", PROP_KIND_BOOL, host_phys_bits, "off");
    FIELD("phys-bits", PROP_KIND_UINT32, phys_bits, "0");
    FIELD("host-phys-bits-limit", PROP_KIND_UINT8, host_phys_bits_limit, "0");
    FIELD("x-force-features", PROP_KIND_BOOL, force_features, "off");
    FIELD("apic-id", PROP_KIND_UINT32, apic_id, "4294967295");
    FIELD("level-func7", PROP_KIND_UINT32, level_func7, "4294967295");
    FIELD("start-powered-off", PROP_KIND_BOOL, start_powered_off, "off");
    FIELD("ucode-rev", PROP_KIND_UINT64, ucode_rev, "0");
    FIELD("socket-id", PROP_KIND_INT32, socket_id, "-1");
    FIELD("die-id", PROP_KIND_INT32, die_id, "-1");
    FIELD("core-id", PROP_KIND_INT32, core_id, "-1");
    FIELD("thread-id", PROP_KIND_INT32, thread_id, "-1");
    FIELD("node-id", PROP_KIND_INT32, node_id, "-1");

    /*
     * This tree's auto-enable switches: pc_compat_7_2 turns off 8.0's two
     * new defaults, pc_compat_8_0 8.1's four (docs/machine-types.md)
     */
    FIELD("x-kvm-auto-enable-pv-eoi", PROP_KIND_BOOL, kvm_auto_enable_pv_eoi,
          "on");
    FIELD("x-kvm-auto-enable-pv-unhalt", PROP_KIND_BOOL,
          kvm_auto_enable_pv_unhalt, "on");
    FIELD("x-kvm-auto-enable-pv-tlb-flush", PROP_KIND_BOOL,
          kvm_auto_enable_pv_tlb_flush, "on");
    FIELD("x-kvm-auto-enable-pv-ipi", PROP_KIND_BOOL, kvm_auto_enable_pv_ipi,
          "on");
    FIELD("x-kvm-auto-enable-pv-sched-yield", PROP_KIND_BOOL,
          kvm_auto_enable_pv_sched_yield, "on");
    FIELD("x-hv-auto-enable-ipi", PROP_KIND_BOOL, hv_auto_enable_ipi, "on");
    FIELD("x-hv-auto-enable-tlbflush", PROP_KIND_BOOL, hv_auto_enable_tlbflush,
          "on");
    FIELD("x-hv-refuse-unsupported", PROP_KIND_BOOL, hv_refuse_unsupported,
          "on");

    x86_cpu_hyperv_register_props(oc);
}


static void x86_cpu_initfn(Object *obj)
{
    X86CPU *cpu = X86_CPU(obj);

    cpu->nr_dies = 1;
    cpu->nr_cores = 1;
    cpu->nr_threads = 1;
}

/* Types ------------------------------------------------------------------- */

static void max_x86_cpu_initfn(Object *obj)
{
    X86CPU *cpu = X86_CPU(obj);

    cpu->max_features = true;
    cpu->pmu = true;
    /* Identity for accelerators without a host CPU (qtest); KVM overrides */
    g_free(cpu->vendor);
    cpu->vendor = g_strdup("AuthenticAMD");
    cpu->family = 15;
    cpu->model = 107;
    cpu->stepping = 1;
    g_free(cpu->model_id);
    cpu->model_id = g_strdup("QEMU TCG CPU version 2.5+");
}

static void max_x86_cpu_class_init(ObjectClass *oc, void *data)
{
    X86CPUClass *xcc = X86_CPU_CLASS(oc);

    /* Only max and host have these (named models are always migratable) */
    FIELD("migratable", PROP_KIND_BOOL, migratable, "on");
    FIELD("host-cache-info", PROP_KIND_BOOL, cache_info_passthrough, "off");

    xcc->ordering = 9;
    xcc->max_features = true;
    xcc->model_description =
        "Enables all features supported by the accelerator in the current host";
}

static void host_x86_cpu_class_init(ObjectClass *oc, void *data)
{
    X86CPUClass *xcc = X86_CPU_CLASS(oc);

    xcc->host_cpuid_required = true;
    xcc->ordering = 8;
    xcc->model_description =
        "KVM processor with all supported host features ";
}

static void base_x86_cpu_class_init(ObjectClass *oc, void *data)
{
    X86CPUClass *xcc = X86_CPU_CLASS(oc);

    xcc->static_model = true;
    xcc->migration_safe = true;
    xcc->ordering = 8;
    xcc->model_description = "base CPU model type with no features enabled";
}

static void x86_cpu_model_class_init(ObjectClass *oc, void *data)
{
    X86CPUClass *xcc = X86_CPU_CLASS(oc);

    xcc->model = data;
    xcc->migration_safe = true;
}

static void x86_register_model_type(const char *name, X86CPUModel *model)
{
    TypeInfo *ti = g_new0(TypeInfo, 1);

    ti->name = x86_cpu_type_name(name);
    ti->parent = TYPE_X86_CPU;
    ti->class_init = x86_cpu_model_class_init;
    ti->class_data = model;
    type_register_static(ti);
}

static void x86_register_cpudef_types(const X86CPUDefinition *def)
{
    const X86CPUVersionDefinition *vdef;
    X86CPUModel *m;

    m = g_new0(X86CPUModel, 1);
    m->cpudef = def;
    m->version = CPU_VERSION_AUTO;
    m->is_alias = true;
    x86_register_model_type(def->name, m);

    for (vdef = def->versions; vdef && vdef->version; vdef++) {
        char *name = g_strdup_printf("%s-v%d", def->name, vdef->version);

        m = g_new0(X86CPUModel, 1);
        m->cpudef = def;
        m->version = vdef->version;
        x86_register_model_type(name, m);
        g_free(name);
        if (vdef->alias) {
            m = g_new0(X86CPUModel, 1);
            m->cpudef = def;
            m->version = vdef->version;
            m->is_alias = true;
            x86_register_model_type(vdef->alias, m);
        }
    }
}

static void x86_cpu_finalize(Object *obj)
{
    X86CPU *cpu = X86_CPU(obj);

    if (cpu->as.initialized) {
        address_space_destroy(&cpu->as);
    }
}

static void x86_cpu_register_types(void)
{
    static const TypeInfo cpu_info = {
        .name = TYPE_CPU,
        .parent = TYPE_DEVICE,
        .abstract = true,
    };
    static const TypeInfo x86_cpu_info = {
        .name = TYPE_X86_CPU,
        .parent = TYPE_CPU,
        .abstract = true,
        .instance_size = sizeof(X86CPU),
        .class_size = sizeof(X86CPUClass),
        .class_init = x86_cpu_class_init,
        .instance_init = x86_cpu_initfn,
        .instance_finalize = x86_cpu_finalize,
    };
    static const TypeInfo max_info = {
        .name = X86_CPU_TYPE_NAME("max"),
        .parent = TYPE_X86_CPU,
        .instance_init = max_x86_cpu_initfn,
        .class_init = max_x86_cpu_class_init,
    };
    static const TypeInfo host_info = {
        .name = X86_CPU_TYPE_NAME("host"),
        .parent = X86_CPU_TYPE_NAME("max"),
        .class_init = host_x86_cpu_class_init,
    };
    static const TypeInfo base_info = {
        .name = X86_CPU_TYPE_NAME("base"),
        .parent = TYPE_X86_CPU,
        .class_init = base_x86_cpu_class_init,
    };
    size_t i;

    type_register_static(&cpu_info);
    type_register_static(&x86_cpu_info);
    type_register_static(&max_info);
    type_register_static(&host_info);
    type_register_static(&base_info);
    for (i = 0; i < builtin_x86_defs_count; i++) {
        x86_register_cpudef_types(&builtin_x86_defs[i]);
    }
}
type_init(x86_cpu_register_types)

/* The -cpu option --------------------------------------------------------- */

static bool str_list_contains(GPtrArray *list, const char *s)
{
    guint i;

    for (i = 0; i < list->len; i++) {
        if (!strcmp(g_ptr_array_index(list, i), s)) {
            return true;
        }
    }
    return false;
}

void x86_cpu_options_free(X86CPUOptions *opts)
{
    guint i;

    if (!opts) {
        return;
    }
    for (i = 0; i < opts->props->len; i++) {
        GlobalProperty *p = g_ptr_array_index(opts->props, i);
        g_free((char *)p->property);
        g_free((char *)p->value);
        g_free(p);
    }
    g_ptr_array_free(opts->props, TRUE);
    g_ptr_array_free(opts->plus, TRUE);
    g_ptr_array_free(opts->minus, TRUE);
    g_free(opts->model);
    g_free(opts->typename);
    g_free(opts);
}

X86CPUOptions *x86_cpu_parse_option(const char *cpu_option, Error **errp)
{
    X86CPUOptions *opts = g_new0(X86CPUOptions, 1);
    char **parts = g_strsplit(cpu_option, ",", -1);
    bool ambiguous = false;
    int i;

    opts->model = g_strdup(parts[0]);
    opts->typename = x86_cpu_type_name(parts[0]);
    opts->props = g_ptr_array_new();
    opts->plus = g_ptr_array_new_with_free_func(g_free);
    opts->minus = g_ptr_array_new_with_free_func(g_free);

    if (!x86_cpu_class_by_name(parts[0])) {
        error_setg(errp, "unable to find CPU model '%s'", parts[0]);
        goto fail;
    }

    for (i = 1; parts[i]; i++) {
        char *tok = parts[i], *eq, *name;
        const char *val;
        GlobalProperty *prop;

        if (!tok[0]) {
            continue;
        }
        if (tok[0] == '+' || tok[0] == '-') {
            g_ptr_array_add(tok[0] == '+' ? opts->plus : opts->minus,
                            g_strdup(tok + 1));
            continue;
        }
        eq = strchr(tok, '=');
        if (eq) {
            *eq = 0;
            val = eq + 1;
        } else {
            val = "on";
        }
        /* Property names use '-', the -cpu syntax also accepts '_' */
        name = g_strdelimit(g_strdup(tok), "_", '-');
        if (str_list_contains(opts->plus, name)) {
            warn_report("Ambiguous CPU model string. Don't mix both \"+%s\" "
                        "and \"%s=%s\"", name, name, val);
            ambiguous = true;
        }
        if (str_list_contains(opts->minus, name)) {
            warn_report("Ambiguous CPU model string. Don't mix both \"-%s\" "
                        "and \"%s=%s\"", name, name, val);
            ambiguous = true;
        }
        prop = g_new0(GlobalProperty, 1);
        if (!strcmp(name, "tsc-freq")) {
            /* The legacy name takes a metric size ("2.5G") */
            uint64_t hz;

            g_free(name);
            if (qemu_strtosz_metric(val, &hz) || hz > INT64_MAX) {
                error_setg(errp, "bad numerical value %s", val);
                g_free(prop);
                goto fail;
            }
            name = g_strdup("tsc-frequency");
            prop->value = g_strdup_printf("%" PRIu64, hz);
        } else {
            prop->value = g_strdup(val);
        }
        prop->driver = opts->typename;
        prop->property = name;
        g_ptr_array_add(opts->props, prop);
    }
    if (ambiguous) {
        warn_report("Compatibility of ambiguous CPU model strings won't be "
                    "kept on future QEMU versions");
    }
    g_strfreev(parts);
    return opts;

fail:
    g_strfreev(parts);
    x86_cpu_options_free(opts);
    return NULL;
}

static bool x86_cpu_resolve_plus_minus(X86CPU *cpu, GPtrArray *names,
                                       uint64_t *words, Error **errp)
{
    guint i;

    for (i = 0; names && i < names->len; i++) {
        const char *name = g_ptr_array_index(names, i);
        FeatureWord w;
        uint64_t mask;

        if (!x86_feature_lookup(name, &w, &mask)) {
            error_setg(errp, "Property '%s.%s' not found",
                       object_get_typename(OBJECT(cpu)), name);
            return false;
        }
        words[w] |= mask;
    }
    return true;
}

X86CPU *x86_cpu_new(ObjectClass *oc, const X86CPUEnv *env,
                    const GPtrArray *compat_props,
                    const GPtrArray *global_props, const X86CPUOptions *opts,
                    Error **errp)
{
    X86CPUClass *xcc = X86_CPU_CLASS(oc);
    X86CPU *cpu = X86_CPU(object_new_with_class(oc));
    Object *obj = OBJECT(cpu);
    FeatureWord w;

    if (xcc->model && !x86_cpu_load_model(cpu, xcc->model, env, errp)) {
        goto fail;
    }
    /* What the model says is not "set by the user" */
    for (w = 0; w < FEATURE_WORDS; w++) {
        cpu->user_features[w] = 0;
    }
    object_forget_user_set(obj);

    if (env->accel == X86_ACCEL_KVM) {
        if (xcc->model) {
            kvm_cpu_apply_default_props(cpu, env);
        }
        if (cpu->max_features) {
            kvm_cpu_max_instance_init(cpu, env);
        }
    }
    if (!object_apply_global_props(obj, compat_props, errp) ||
        !object_apply_global_props_used(obj, global_props, errp)) {
        goto fail;
    }
    if (opts) {
        if (!object_apply_global_props(obj, opts->props, errp) ||
            !x86_cpu_resolve_plus_minus(cpu, opts->plus, cpu->plus_features,
                                        errp) ||
            !x86_cpu_resolve_plus_minus(cpu, opts->minus, cpu->minus_features,
                                        errp)) {
            goto fail;
        }
    }
    return cpu;

fail:
    object_unref(obj);
    return NULL;
}

/* -cpu help --------------------------------------------------------------- */

static gint x86_cpu_list_compare(gconstpointer a, gconstpointer b)
{
    X86CPUClass *ca = X86_CPU_CLASS((ObjectClass *)a);
    X86CPUClass *cb = X86_CPU_CLASS((ObjectClass *)b);
    char *na, *nb;
    gint r;

    if (ca->ordering != cb->ordering) {
        return ca->ordering - cb->ordering;
    }
    na = x86_cpu_class_get_model_name(ca);
    nb = x86_cpu_class_get_model_name(cb);
    r = strcmp(na, nb);
    g_free(na);
    g_free(nb);
    return r;
}

void x86_cpu_list(void)
{
    GSList *list = g_slist_sort(object_class_get_list(TYPE_X86_CPU, false),
                                x86_cpu_list_compare);
    GSList *l;
    FeatureWord w;
    GPtrArray *names;
    guint i, col;

    printf("Available CPUs:\n");
    for (l = list; l; l = l->next) {
        X86CPUClass *xcc = X86_CPU_CLASS((ObjectClass *)l->data);
        char *name = x86_cpu_class_get_model_name(xcc);
        char *alias_of = x86_cpu_class_get_alias_of(xcc);
        char *desc;

        if (xcc->model && xcc->model->is_alias && alias_of) {
            desc = g_strdup_printf("(alias of %s)", alias_of);
        } else if (xcc->model) {
            const X86CPUDefinition *def = xcc->model->cpudef;
            desc = g_strdup(def->model_id);
        } else {
            desc = g_strdup(xcc->model_description);
        }
        printf("x86 %-20s  %s\n", name, desc);
        g_free(desc);
        g_free(alias_of);
        g_free(name);
    }
    g_slist_free(list);

    printf("\nRecognized CPUID flags:\n");
    names = g_ptr_array_new();
    for (w = 0; w < FEATURE_WORDS; w++) {
        int bit;
        for (bit = 0; bit < 64; bit++) {
            const char *n = feature_word_info[w].feat_names[bit];
            if (n) {
                g_ptr_array_add(names, (gpointer)n);
            }
        }
    }
    g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
    col = 0;
    for (i = 0; i < names->len; i++) {
        const char *n = *(const char **)&g_ptr_array_index(names, i);
        if (i > 0 && !strcmp(n, g_ptr_array_index(names, i - 1))) {
            continue;
        }
        if (col + strlen(n) + 1 > 78 && col) {
            printf("\n");
            col = 0;
        }
        printf("%s%s", col ? " " : "  ", n);
        col += strlen(n) + (col ? 1 : 2);
    }
    printf("\n");
    g_ptr_array_free(names, TRUE);
}
