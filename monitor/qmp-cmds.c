/*
 * The QMP command table and the target-independent commands.
 *
 * Commands (sorted; handlers elsewhere are in monitor/qmp-commands.h):
 *   cont, device-list-properties, migrate-set-capabilities,
 *   qmp_capabilities, qom-get, qom-list, qom-list-properties,
 *   qom-list-types, query-block, query-chardev, query-command-line-options,
 *   query-commands, query-cpu-definitions, query-cpu-model-expansion,
 *   query-cpus-fast, query-kvm, query-machines, query-migrate-capabilities,
 *   query-name, query-named-block-nodes, query-qmp-schema, query-status,
 *   query-target, query-version, quit, stop, system_powerdown, system_reset,
 *   x-query-cpuid
 */
#include <stdio.h>
#include <string.h>

#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "qom/object.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"

/* Wraps a new object/array in a node, handing over our reference */
static JsonNode *take_object(JsonObject *o)
{
    JsonNode *n = json_node_init(json_node_alloc(), JSON_NODE_OBJECT);

    json_node_take_object(n, o);
    return n;
}

static JsonNode *take_array(JsonArray *a)
{
    JsonNode *n = json_node_init(json_node_alloc(), JSON_NODE_ARRAY);

    json_node_take_array(n, a);
    return n;
}

/* The monitor enters command mode when this succeeds (monitor/qmp.c) */
static JsonNode *qmp_qmp_capabilities(JsonObject *args, Error **errp)
{
    JsonNode *enable = json_object_get_member(args, "enable");
    JsonArray *arr;
    guint i;

    if (!enable) {
        return qmp_empty_return();
    }
    if (!JSON_NODE_HOLDS_ARRAY(enable)) {
        error_setg(errp, "Invalid parameter type for 'enable', expected: "
                   "array");
        return NULL;
    }
    arr = json_node_get_array(enable);
    for (i = 0; i < json_array_get_length(arr); i++) {
        JsonNode *cap = json_array_get_element(arr, i);

        if (!JSON_NODE_HOLDS_VALUE(cap) ||
            json_node_get_value_type(cap) != G_TYPE_STRING) {
            error_setg(errp, "Invalid parameter type for 'enable[%u]', "
                       "expected: string", i);
            return NULL;
        }
        /* "oob" is advertised; no command of ours runs out of band */
        if (strcmp(json_node_get_string(cap), "oob")) {
            error_setg(errp, "Parameter 'enable' does not accept value '%s'",
                       json_node_get_string(cap));
            return NULL;
        }
    }
    return qmp_empty_return();
}

static JsonNode *qmp_query_version(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new(), *q = json_object_new();
    int major = 0, minor = 0, micro = 0;

    sscanf(QEMU_VERSION, "%d.%d.%d", &major, &minor, &micro);
    /* QEMU's member order */
    json_object_set_int_member(q, "micro", micro);
    json_object_set_int_member(q, "minor", minor);
    json_object_set_int_member(q, "major", major);
    json_object_set_object_member(o, "qemu", q);
    json_object_set_string_member(o, "package", "qemu-kvm-pv");
    return take_object(o);
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
    return take_array(arr);
}

static JsonNode *qmp_query_status(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "status", runstate_name(runstate_get()));
    json_object_set_boolean_member(o, "singlestep", false);
    json_object_set_boolean_member(o, "running", runstate_is_running());
    return take_object(o);
}

static JsonNode *qmp_query_name(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new();

    if (qemu_name) {
        json_object_set_string_member(o, "name", qemu_name);
    }
    return take_object(o);
}

static JsonNode *qmp_query_target(JsonObject *args, Error **errp)
{
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "arch", "x86_64");
    return take_object(o);
}

/* Collects every object below obj whose path ends in "/" + suffix. */
static void qom_find_partial(Object *obj, const char *suffix, Object **found,
                             int *count)
{
    guint i;

    for (i = 0; i < obj->children->len && *count < 2; i++) {
        Object *c = g_ptr_array_index(obj->children, i);
        char *path = object_get_canonical_path(c);
        size_t plen = strlen(path), slen = strlen(suffix);

        if (plen > slen && path[plen - slen - 1] == '/' &&
            !strcmp(path + plen - slen, suffix)) {
            *found = c;
            (*count)++;
        }
        g_free(path);
        qom_find_partial(c, suffix, found, count);
    }
}

/*
 * QOM paths as QEMU resolves them: absolute ("/machine/unattached"), or
 * partial ("unattached"), which must match exactly one object's path tail.
 */
static Object *qmp_resolve(JsonObject *args, Error **errp)
{
    const char *path = qmp_arg_str(args, "path", true, errp);
    Object *obj = NULL;
    int count = 0;

    if (!path) {
        return NULL;
    }
    if (path[0] == '/') {
        obj = object_resolve_path(path);
    } else if (!path[0]) {
        count = 2;
    } else {
        qom_find_partial(object_get_root(), path, &obj, &count);
    }
    if (count > 1) {
        error_setg(errp, "Path '%s' is ambiguous", path);
        return NULL;
    }
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
    return take_array(arr);
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
        return take_array(json_array_new());
    }
    arr = json_array_new();
    list = object_class_get_list_sorted(implements, abstract);
    for (l = list; l; l = l->next) {
        ObjectClass *oc = l->data;
        ObjectClass *parent = object_class_get_parent(oc);
        JsonObject *o = json_object_new();

        /* QEMU's member order */
        if (object_class_is_abstract(oc)) {
            json_object_set_boolean_member(o, "abstract", true);
        }
        json_object_set_string_member(o, "name", object_class_get_name(oc));
        if (parent) {
            json_object_set_string_member(o, "parent",
                                          object_class_get_name(parent));
        }
        json_array_add_object_element(arr, o);
    }
    g_slist_free(list);
    return take_array(arr);
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
    qemu_system_reset_request(SHUTDOWN_CAUSE_HOST_QMP_SYSTEM_RESET);
    return qmp_empty_return();
}

static JsonNode *qmp_system_powerdown(JsonObject *args, Error **errp)
{
    qemu_system_powerdown_request();
    return qmp_empty_return();
}

const QmpCommand qmp_commands[] = {
    { "cont", qmp_cont, "" },
    { "device-list-properties", qmp_device_list_properties, "typename" },
    { "human-monitor-command", qmp_human_monitor_command,
      "command-line cpu-index" },
    { "migrate-set-capabilities", qmp_migrate_set_capabilities,
      "capabilities" },
    { "qmp_capabilities", qmp_qmp_capabilities, "enable" },
    { "qom-get", qmp_qom_get, "path property" },
    { "qom-list", qmp_qom_list, "path" },
    { "qom-list-properties", qmp_qom_list_properties, "typename" },
    { "qom-list-types", qmp_qom_list_types, "implements abstract" },
    { "query-block", qmp_query_block, "" },
    { "query-chardev", qmp_query_chardev, "" },
    { "query-command-line-options", qmp_query_command_line_options,
      "option" },
    { "query-commands", qmp_query_commands, "" },
    { "query-cpu-definitions", qmp_query_cpu_definitions, "" },
    { "query-cpu-model-expansion", qmp_query_cpu_model_expansion, "type model" },
    { "query-cpus-fast", qmp_query_cpus_fast, "" },
    { "query-iothreads", qmp_query_iothreads, "" },
    { "query-kvm", qmp_query_kvm, "" },
    { "query-machines", qmp_query_machines, "" },
    { "query-migrate-capabilities", qmp_query_migrate_capabilities, "" },
    { "query-name", qmp_query_name, "" },
    { "query-named-block-nodes", qmp_query_named_block_nodes, "flat" },
    { "query-qmp-schema", qmp_query_qmp_schema, "" },
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
