/*
 * The QMP command table and the target-independent commands.
 *
 * Commands (sorted; handlers elsewhere are in monitor/qmp-commands.h):
 *   cont, qmp_capabilities, qom-get, qom-list, qom-list-types, query-commands,
 *   query-cpu-definitions, query-cpu-model-expansion, query-cpus-fast,
 *   query-kvm, query-machines, query-name, query-status, query-target,
 *   query-version, quit, stop, system_powerdown, system_reset, x-query-cpuid
 */
#include <stdio.h>
#include <string.h>

#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "qom/object.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"

static JsonNode *qmp_qmp_capabilities(JsonObject *args, Error **errp)
{
    return qmp_empty_return();
}

static JsonNode *qmp_query_version(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new(), *q = json_object_new();
    int major = 0, minor = 0, micro = 0;

    sscanf(QEMU_VERSION, "%d.%d.%d", &major, &minor, &micro);
    json_object_set_int_member(q, "major", major);
    json_object_set_int_member(q, "minor", minor);
    json_object_set_int_member(q, "micro", micro);
    json_object_set_object_member(o, "qemu", q);
    json_object_set_string_member(o, "package", "qemu-kvm-pv");
    return json_node_init_object(json_node_alloc(), o);
}

static JsonNode *qmp_query_commands(JsonObject *args, Error **errp)
{
    JsonArray *arr = json_array_new();
    const QmpCommand *c;

    for (c = qmp_commands; c->name; c++) {
        JsonObject *o = json_object_new();
        json_object_set_string_member(o, "name", c->name);
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

static JsonNode *qmp_query_status(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "status", runstate_name(runstate_get()));
    json_object_set_boolean_member(o, "singlestep", false);
    json_object_set_boolean_member(o, "running", runstate_is_running());
    return json_node_init_object(json_node_alloc(), o);
}

static JsonNode *qmp_query_name(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new();

    if (qemu_name) {
        json_object_set_string_member(o, "name", qemu_name);
    }
    return json_node_init_object(json_node_alloc(), o);
}

static JsonNode *qmp_query_target(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "arch", "x86_64");
    return json_node_init_object(json_node_alloc(), o);
}

static Object *qmp_resolve(JsonObject *args, Error **errp)
{
    const char *path = qmp_arg_str(args, "path", true, errp);
    Object *obj;

    if (!path) {
        return NULL;
    }
    obj = object_resolve_path(path);
    if (!obj) {
        error_set(errp, ERROR_CLASS_DEVICE_NOT_FOUND,
                  "Device '%s' not found", path);
    }
    return obj;
}

static JsonNode *qmp_qom_list(JsonObject *args, Error **errp)
{
    Object *obj = qmp_resolve(args, errp);
    JsonArray *arr;
    GPtrArray *props;
    guint i;

    if (!obj) {
        return NULL;
    }
    arr = json_array_new();
    props = object_property_list(obj);
    for (i = 0; i < props->len; i++) {
        ObjectProperty *p = g_ptr_array_index(props, i);
        JsonObject *o = json_object_new();
        json_object_set_string_member(o, "name", p->name);
        json_object_set_string_member(o, "type", p->type);
        json_array_add_object_element(arr, o);
    }
    g_ptr_array_free(props, TRUE);
    for (i = 0; i < obj->children->len; i++) {
        Object *c = g_ptr_array_index(obj->children, i);
        JsonObject *o = json_object_new();
        char *type = g_strdup_printf("child<%s>", object_get_typename(c));
        json_object_set_string_member(o, "name", c->name);
        json_object_set_string_member(o, "type", type);
        json_array_add_object_element(arr, o);
        g_free(type);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

static JsonNode *qmp_qom_get(JsonObject *args, Error **errp)
{
    Object *obj = qmp_resolve(args, errp);
    const char *prop;

    if (!obj) {
        return NULL;
    }
    prop = qmp_arg_str(args, "property", true, errp);
    if (!prop) {
        return NULL;
    }
    if (object_resolve_path_component(obj, prop)) {
        char *path = object_get_canonical_path(
            object_resolve_path_component(obj, prop));
        JsonNode *n = json_node_init_string(json_node_alloc(), path);
        g_free(path);
        return n;
    }
    return object_property_get(obj, prop, errp);
}

static JsonNode *qmp_qom_list_types(JsonObject *args, Error **errp)
{
    const char *implements = qmp_arg_str(args, "implements", false, errp);
    bool abstract;
    GSList *list, *l;
    JsonArray *arr;

    if (!qmp_arg_bool(args, "abstract", false, &abstract, errp)) {
        return NULL;
    }
    if (implements && !object_class_by_name(implements)) {
        return json_node_init_array(json_node_alloc(), json_array_new());
    }
    arr = json_array_new();
    list = object_class_get_list_sorted(implements, abstract);
    for (l = list; l; l = l->next) {
        ObjectClass *oc = l->data;
        ObjectClass *parent = object_class_get_parent(oc);
        JsonObject *o = json_object_new();

        json_object_set_string_member(o, "name", object_class_get_name(oc));
        if (object_class_is_abstract(oc)) {
            json_object_set_boolean_member(o, "abstract", true);
        }
        if (parent) {
            json_object_set_string_member(o, "parent",
                                          object_class_get_name(parent));
        }
        json_array_add_object_element(arr, o);
    }
    g_slist_free(list);
    return json_node_init_array(json_node_alloc(), arr);
}

static JsonNode *qmp_stop(JsonObject *args, Error **errp)
{
    vm_stop(RUN_STATE_PAUSED);
    return qmp_empty_return();
}

static JsonNode *qmp_cont(JsonObject *args, Error **errp)
{
    if (runstate_get() == RUN_STATE_INTERNAL_ERROR ||
        runstate_get() == RUN_STATE_SHUTDOWN) {
        error_setg(errp, "Resetting the Virtual Machine is required");
        return NULL;
    }
    vm_start();
    return qmp_empty_return();
}

/* As QEMU: the SHUTDOWN event goes out before quit's reply */
static JsonNode *qmp_quit(JsonObject *args, Error **errp)
{
    qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_QMP_QUIT);
    return qmp_empty_return();
}

static JsonNode *qmp_system_reset(JsonObject *args, Error **errp)
{
    JsonObject *d = json_object_new();

    json_object_set_boolean_member(d, "guest", false);
    json_object_set_string_member(d, "reason", "host-qmp-system-reset");
    qmp_event_send("RESET", json_node_init_object(json_node_alloc(), d));
    return qmp_empty_return();
}

static JsonNode *qmp_system_powerdown(JsonObject *args, Error **errp)
{
    qmp_event_send("POWERDOWN", NULL);
    return qmp_empty_return();
}

const QmpCommand qmp_commands[] = {
    { "cont", qmp_cont, "" },
    { "qmp_capabilities", qmp_qmp_capabilities, "enable" },
    { "qom-get", qmp_qom_get, "path property" },
    { "qom-list", qmp_qom_list, "path" },
    { "qom-list-types", qmp_qom_list_types, "implements abstract" },
    { "query-commands", qmp_query_commands, "" },
    { "query-cpu-definitions", qmp_query_cpu_definitions, "" },
    { "query-cpu-model-expansion", qmp_query_cpu_model_expansion, "type model" },
    { "query-cpus-fast", qmp_query_cpus_fast, "" },
    { "query-kvm", qmp_query_kvm, "" },
    { "query-machines", qmp_query_machines, "" },
    { "query-name", qmp_query_name, "" },
    { "query-status", qmp_query_status, "" },
    { "query-target", qmp_query_target, "" },
    { "query-version", qmp_query_version, "" },
    { "quit", qmp_quit, "" },
    { "stop", qmp_stop, "" },
    { "system_powerdown", qmp_system_powerdown, "" },
    { "system_reset", qmp_system_reset, "" },
    { "x-query-cpuid", qmp_x_query_cpuid, "cpu-index" },
    { NULL },
};
