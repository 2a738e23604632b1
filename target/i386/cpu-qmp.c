/*
 * QMP commands about x86 CPUs: query-kvm, query-cpu-definitions,
 * query-cpu-model-expansion, query-cpus-fast and this tree's x-query-cpuid.
 */
#include <string.h>

#include "hw/boards.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "sysemu/kvm.h"
#include "sysemu/numa.h"
#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"

static const X86CPUEnv *current_env(void)
{
    static const X86CPUEnv qtest_env = { .accel = X86_ACCEL_QTEST };

    return current_machine ? &current_machine->cpu_env : &qtest_env;
}

static const GPtrArray *current_compat(void)
{
    return current_machine ? MACHINE_GET_CLASS(current_machine)->compat_props
                           : NULL;
}

static const GPtrArray *current_globals(void)
{
    return current_machine ? current_machine->global_props : NULL;
}

JsonNode *qmp_query_kvm(Error **errp)
{
    JsonObject *o = json_object_new();

    json_object_set_boolean_member(o, "enabled", kvm_enabled());
    json_object_set_boolean_member(o, "present", kvm_available());
    return json_node_init_object(json_node_alloc(), o);
}

/* query-cpu-definitions ----------------------------------------------------- */

static JsonArray *x86_cpu_class_unavailable_features(ObjectClass *oc)
{
    X86CPUClass *xcc = X86_CPU_CLASS(oc);
    const X86CPUEnv *env = current_env();
    JsonArray *arr = json_array_new();
    Error *err = NULL;
    X86CPU *cpu;
    GPtrArray *names;
    guint i;

    if (xcc->host_cpuid_required && env->accel != X86_ACCEL_KVM) {
        json_array_add_string_element(arr, "kvm");
        return arr;
    }
    cpu = x86_cpu_new(oc, env, current_compat(), current_globals(), NULL, &err);
    if (!cpu || !x86_cpu_expand_features(cpu, env, &err)) {
        /* QEMU reports an expansion error as the pseudo-feature "type" */
        error_free(err);
        json_array_add_string_element(arr, "type");
        if (cpu) {
            object_unref(OBJECT(cpu));
        }
        return arr;
    }
    x86_cpu_filter_features(cpu, env, false);
    names = x86_cpu_get_unavailable_features(cpu);
    for (i = 0; i < names->len; i++) {
        json_array_add_string_element(arr, g_ptr_array_index(names, i));
    }
    g_ptr_array_free(names, TRUE);
    object_unref(OBJECT(cpu));
    return arr;
}

JsonNode *qmp_query_cpu_definitions(Error **errp)
{
    GSList *list = object_class_get_list_sorted(TYPE_X86_CPU, false), *l;
    JsonArray *arr = json_array_new();

    for (l = list; l; l = l->next) {
        ObjectClass *oc = l->data;
        X86CPUClass *xcc = X86_CPU_CLASS(oc);
        JsonObject *o = json_object_new();
        char *name = x86_cpu_class_get_model_name(xcc);
        char *alias_of = x86_cpu_class_get_alias_of(xcc);

        json_object_set_string_member(o, "name", name);
        json_object_set_string_member(o, "typename", object_class_get_name(oc));
        json_object_set_boolean_member(o, "migration-safe",
                                       xcc->migration_safe);
        json_object_set_boolean_member(o, "static", xcc->static_model);
        json_object_set_array_member(o, "unavailable-features",
                                     x86_cpu_class_unavailable_features(oc));
        if (alias_of) {
            json_object_set_string_member(o, "alias-of", alias_of);
        }
        json_object_set_boolean_member(
            o, "deprecated",
            xcc->model && xcc->model->cpudef->deprecation_note != NULL);
        json_array_add_object_element(arr, o);
        g_free(name);
        g_free(alias_of);
    }
    g_slist_free(list);
    return json_node_init_array(json_node_alloc(), arr);
}

/* query-cpu-model-expansion -------------------------------------------------- */

/* Properties of the static expansion besides every named feature */
static const char *const x86_cpu_static_props[] = {
    "family", "model", "stepping", "model-id", "vendor", "lmce", NULL,
};

static void x86_cpu_expansion_add_prop(X86CPU *cpu, JsonObject *props,
                                       const char *name)
{
    JsonNode *v = object_property_get(OBJECT(cpu), name, NULL);

    if (v) {
        json_object_set_member(props, name, v);
    }
}

static void x86_cpu_to_static_dict(X86CPU *cpu, JsonObject *props)
{
    FeatureWord w;
    int i;

    json_object_set_int_member(props, "min-level", cpu->min_level);
    json_object_set_int_member(props, "min-xlevel", cpu->min_xlevel);
    for (i = 0; x86_cpu_static_props[i]; i++) {
        x86_cpu_expansion_add_prop(cpu, props, x86_cpu_static_props[i]);
    }
    for (w = 0; w < FEATURE_WORDS; w++) {
        for (i = 0; i < 64; i++) {
            const char *name = feature_word_info[w].feat_names[i];
            if (name && !json_object_has_member(props, name)) {
                x86_cpu_expansion_add_prop(cpu, props, name);
            }
        }
    }
}

static void x86_cpu_to_full_dict(X86CPU *cpu, JsonObject *props)
{
    GPtrArray *list = object_property_list(OBJECT(cpu));
    guint i;

    for (i = 0; i < list->len; i++) {
        ObjectProperty *prop = g_ptr_array_index(list, i);

        if (!prop->get || !prop->set || !strcmp(prop->name, "hotplugged") ||
            json_object_has_member(props, prop->name)) {
            continue;
        }
        x86_cpu_expansion_add_prop(cpu, props, prop->name);
    }
    g_ptr_array_free(list, TRUE);
    x86_cpu_to_static_dict(cpu, props);
}

JsonNode *qmp_query_cpu_model_expansion(
    const QmpArgsQueryCpuModelExpansion *args, Error **errp)
{
    const char *name = args->model.name;
    JsonObject *in_props = NULL, *out, *ret_model, *props;
    bool is_static = args->type == CPU_MODEL_EXPANSION_TYPE_STATIC;
    ObjectClass *oc;
    X86CPU *cpu;
    GList *members, *l;

    /* As QEMU 7.2: props that are not an object are ignored */
    if (args->model.has_props && JSON_NODE_HOLDS_OBJECT(args->model.props)) {
        in_props = json_node_get_object(args->model.props);
    }
    oc = x86_cpu_class_by_name(name);
    if (!oc) {
        error_setg(errp, "CPU model '%s' not found", name);
        return NULL;
    }
    cpu = x86_cpu_new(oc, current_env(), current_compat(), current_globals(),
                      NULL, errp);
    if (!cpu) {
        return NULL;
    }
    members = in_props ? json_object_get_members(in_props) : NULL;
    for (l = members; l; l = l->next) {
        if (!object_property_set(OBJECT(cpu), l->data,
                                 json_object_get_member(in_props, l->data),
                                 errp)) {
            g_list_free(members);
            object_unref(OBJECT(cpu));
            return NULL;
        }
    }
    g_list_free(members);
    if (!x86_cpu_expand_features(cpu, current_env(), errp)) {
        object_unref(OBJECT(cpu));
        return NULL;
    }

    props = json_object_new();
    if (is_static) {
        x86_cpu_to_static_dict(cpu, props);
    } else {
        x86_cpu_to_full_dict(cpu, props);
    }
    ret_model = json_object_new();
    json_object_set_string_member(ret_model, "name", is_static ? "base" : name);
    json_object_set_object_member(ret_model, "props", props);
    out = json_object_new();
    json_object_set_object_member(out, "model", ret_model);
    object_unref(OBJECT(cpu));
    return json_node_init_object(json_node_alloc(), out);
}

/* query-cpus-fast, x-query-cpuid --------------------------------------------- */

/*
 * The topology ids of possible CPU index (QEMU 7.2's member order); die-id
 * only with more than one die per socket, as 7.2 reports it
 */
static JsonObject *cpu_instance_props(MachineState *ms, unsigned index)
{
    JsonObject *p = json_object_new();
    CPUSlot *slot;

    machine_init_possible_cpus(ms);
    slot = &ms->possible_cpus[index];
    json_object_set_int_member(p, "core-id", slot->core);
    json_object_set_int_member(p, "thread-id", slot->thread);
    if (numa_cpu_node(ms, index) >= 0) {
        json_object_set_int_member(p, "node-id", slot->node_id);
    }
    if (ms->smp.dies > 1) {
        json_object_set_int_member(p, "die-id", slot->die);
    }
    json_object_set_int_member(p, "socket-id", slot->socket);
    return p;
}

JsonNode *qmp_query_cpus_fast(Error **errp)
{
    JsonArray *arr = json_array_new();
    MachineState *ms = current_machine;
    guint i;

    for (i = 0; ms && ms->cpus && i < ms->cpus->len; i++) {
        X86CPU *cpu = g_ptr_array_index(ms->cpus, i);
        JsonObject *o = json_object_new();
        char *path = object_get_canonical_path(OBJECT(cpu));

        /* QEMU 7.2's member order */
        json_object_set_int_member(o, "thread-id", kvm_vcpu_thread_id(cpu));
        json_object_set_object_member(o, "props",
                                      cpu_instance_props(ms, cpu->cpu_index));
        json_object_set_string_member(o, "qom-path", path);
        json_object_set_int_member(o, "cpu-index", cpu->cpu_index);
        json_object_set_string_member(o, "target", "x86_64");
        json_array_add_object_element(arr, o);
        g_free(path);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

/*
 * Every possible CPU (maxcpus), the last first as QEMU 7.2 lists them;
 * the plugged ones with their qom-path
 */
JsonNode *qmp_query_hotpluggable_cpus(Error **errp)
{
    MachineState *ms = current_machine;
    JsonArray *arr;
    const char *type;
    int i;

    /* Also before the board exists (--preconfig): the slots are -smp's */
    if (!ms || !MACHINE_GET_CLASS(ms)->hotpluggable_cpus) {
        error_setg(errp, "The feature 'query-hotpluggable-cpus' is not "
                   "enabled");
        return NULL;
    }
    type = machine_cpu_type(ms);
    machine_init_possible_cpus(ms);
    arr = json_array_new();
    for (i = (int)MAX(ms->smp.max_cpus, 1) - 1; i >= 0; i--) {
        X86CPU *cpu = ms->possible_cpus[i].cpu;
        JsonObject *o = json_object_new();

        json_object_set_object_member(o, "props", cpu_instance_props(ms, i));
        json_object_set_int_member(o, "vcpus-count", 1);
        if (cpu) {
            char *path = object_get_canonical_path(OBJECT(cpu));

            json_object_set_string_member(o, "qom-path", path);
            g_free(path);
        }
        json_object_set_string_member(o, "type",
                                      cpu ? object_get_typename(OBJECT(cpu))
                                          : type);
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

JsonNode *qmp_x_query_cpuid(const QmpArgsXQueryCpuid *args, Error **errp)
{
    MachineState *ms = current_machine;
    int64_t index = args->has_cpu_index ? args->cpu_index : 0;
    X86CPU *cpu = NULL;
    JsonArray *arr;
    GArray *table;
    guint i;

    /*
     * Without cpu-index it is the first vCPU's table, and a machine without
     * vCPUs (-machine none) has none: an empty list, as query-cpus-fast
     * answers there.  (QEMU 7.2 has no such command; upstream's
     * qmp-cmd-test wants every argument-less query to return.)
     */
    if (!args->has_cpu_index && (!ms || !ms->cpus || !ms->cpus->len)) {
        return json_node_init_array(json_node_alloc(), json_array_new());
    }
    /* By cpu-index, as QEMU finds it (a plugged vCPU's is its slot) */
    for (i = 0; ms && ms->cpus && i < ms->cpus->len; i++) {
        cpu = g_ptr_array_index(ms->cpus, i);
        if (cpu->cpu_index == index) {
            break;
        }
    }
    if (!ms || !ms->cpus || i == ms->cpus->len) {
        error_setg(errp, "CPU %" G_GINT64_FORMAT " does not exist", index);
        return NULL;
    }
    table = x86_cpu_build_cpuid_table(cpu, &ms->cpu_env);
    arr = json_array_new();
    for (i = 0; i < table->len; i++) {
        X86CPUIDEntry *e = &g_array_index(table, X86CPUIDEntry, i);
        JsonObject *o = json_object_new();

        json_object_set_int_member(o, "leaf", e->function);
        json_object_set_int_member(o, "subleaf", e->index);
        json_object_set_int_member(o, "eax", e->eax);
        json_object_set_int_member(o, "ebx", e->ebx);
        json_object_set_int_member(o, "ecx", e->ecx);
        json_object_set_int_member(o, "edx", e->edx);
        json_array_add_object_element(arr, o);
    }
    g_array_unref(table);
    return json_node_init_array(json_node_alloc(), arr);
}
