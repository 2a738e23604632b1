/*
 * The target-independent QMP commands: negotiation, version and status,
 * QOM, run state.  Every command is declared in qapi/schema.json, which
 * also generates the dispatch table; its arguments arrive checked.
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

/*
 * The monitor enters command mode when this succeeds (monitor/qmp.c).
 * "oob" is the one capability; the visitor has checked the values.
 */
JsonNode *qmp_qmp_capabilities(const QmpArgsQmpCapabilities *args,
                               Error **errp)
{
    return qmp_empty_return();
}

JsonNode *qmp_query_version(Error **errp)
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

JsonNode *qmp_query_commands(Error **errp)
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

JsonNode *qmp_query_status(Error **errp)
{
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "status", runstate_name(runstate_get()));
    json_object_set_boolean_member(o, "singlestep", false);
    json_object_set_boolean_member(o, "running", runstate_is_running());
    return take_object(o);
}

JsonNode *qmp_query_name(Error **errp)
{
    JsonObject *o = json_object_new();

    if (qemu_name) {
        json_object_set_string_member(o, "name", qemu_name);
    }
    return take_object(o);
}

/* -uuid, or QEMU's all-zero default */
JsonNode *qmp_query_uuid(Error **errp)
{
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "UUID", qemu_uuid ? qemu_uuid :
                                  "00000000-0000-0000-0000-000000000000");
    return take_object(o);
}

JsonNode *qmp_query_target(Error **errp)
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
static Object *qmp_resolve(const char *path, Error **errp)
{
    Object *obj = NULL;
    int count = 0;

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

Object *qom_resolve_path(const char *path)
{
    Object *obj = NULL;
    int count = 0;

    if (path[0] == '/') {
        return object_resolve_path(path);
    }
    if (path[0]) {
        qom_find_partial(object_get_root(), path, &obj, &count);
    }
    return count == 1 ? obj : NULL;
}

JsonNode *qmp_qom_list(const QmpArgsQomList *args, Error **errp)
{
    Object *obj = qmp_resolve(args->path, errp);
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

JsonNode *qmp_qom_get(const QmpArgsQomGet *args, Error **errp)
{
    Object *obj = qmp_resolve(args->path, errp);
    const char *prop = args->property;

    if (!obj) {
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

/* Writes a property as its type's setter takes JSON (QEMU's qom-set) */
JsonNode *qmp_qom_set(const QmpArgsQomSet *args, Error **errp)
{
    Object *obj = qmp_resolve(args->path, errp);

    if (!obj || !object_property_set(obj, args->property, args->value, errp)) {
        return NULL;
    }
    return qmp_empty_return();
}

JsonNode *qmp_qom_list_types(const QmpArgsQomListTypes *args, Error **errp)
{
    const char *implements = args->has_implements ? args->implements : NULL;
    bool abstract = args->has_abstract && args->abstract;
    GSList *list, *l;
    JsonArray *arr;

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

JsonNode *qmp_stop(Error **errp)
{
    vm_stop(RUN_STATE_PAUSED);
    return qmp_empty_return();
}

JsonNode *qmp_cont(Error **errp)
{
    if (runstate_needs_reset()) {
        error_setg(errp, "Resetting the Virtual Machine is required");
        return NULL;
    }
    vm_start();
    return qmp_empty_return();
}

/* As QEMU: the SHUTDOWN event goes out before quit's reply */
JsonNode *qmp_quit(Error **errp)
{
    qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_QMP_QUIT);
    return qmp_empty_return();
}

JsonNode *qmp_set_action(const QmpArgsSetAction *args, Error **errp)
{
    if (args->has_reboot) {
        runstate_set_reboot_action(args->reboot);
    }
    if (args->has_shutdown) {
        runstate_set_shutdown_action(args->shutdown);
    }
    if (args->has_panic) {
        runstate_set_panic_action(args->panic);
    }
    if (args->has_watchdog) {
        runstate_set_watchdog_action(args->watchdog);
    }
    return qmp_empty_return();
}

JsonNode *qmp_system_reset(Error **errp)
{
    qemu_system_reset_request(SHUTDOWN_CAUSE_HOST_QMP_SYSTEM_RESET);
    return qmp_empty_return();
}

JsonNode *qmp_system_wakeup(Error **errp)
{
    return qemu_system_wakeup_request(errp) ? qmp_empty_return() : NULL;
}

JsonNode *qmp_system_powerdown(Error **errp)
{
    qemu_system_powerdown_request();
    return qmp_empty_return();
}
