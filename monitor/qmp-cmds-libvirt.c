/*
 * QMP commands a management layer (libvirt) needs to probe this emulator
 * and start guests on it:
 *   query-qmp-schema, qom-list-properties, query-command-line-options,
 *   query-migrate-capabilities, migrate-set-capabilities,
 *   query-named-block-nodes, query-block
 * (device-list-properties is in system/device.c, query-chardev in
 * chardev/char.c).
 *
 * query-qmp-schema is minimal but valid: every command of the table, with
 * real argument types only where a client looks deeper:
 *   device_add   feature json-cli-hotplug   (-device takes JSON)
 *   object-add   qom-type enum values       (-object takes JSON)
 *   query-named-block-nodes  argument "flat"
 * Type names are numbers, as QEMU's are.
 */
#include <string.h>

#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "qom/object.h"
#include "sysemu/os-posix.h"

static const char schema_types[] =
    "["
    "{\"name\": \"0\", \"meta-type\": \"object\", \"members\": []},"
    "{\"name\": \"1\", \"meta-type\": \"object\", \"members\": ["
    "  {\"name\": \"qom-type\", \"type\": \"2\"},"
    "  {\"name\": \"id\", \"type\": \"str\"}], \"tag\": \"qom-type\","
    "  \"variants\": []},"
    "{\"name\": \"2\", \"meta-type\": \"enum\","
    "  \"values\": [\"memory-backend-ram\", \"secret\"],"
    "  \"members\": [{\"name\": \"memory-backend-ram\"},"
    "               {\"name\": \"secret\"}]},"
    "{\"name\": \"3\", \"meta-type\": \"object\", \"members\": ["
    "  {\"name\": \"driver\", \"type\": \"str\"},"
    "  {\"name\": \"bus\", \"default\": null, \"type\": \"str\"},"
    "  {\"name\": \"id\", \"default\": null, \"type\": \"str\"}]},"
    "{\"name\": \"4\", \"meta-type\": \"object\", \"members\": ["
    "  {\"name\": \"flat\", \"default\": null, \"type\": \"bool\"}]},"
    "{\"name\": \"5\", \"meta-type\": \"array\", \"element-type\": \"0\"},"
    "{\"name\": \"any\", \"meta-type\": \"builtin\", \"json-type\": \"value\"},"
    "{\"name\": \"str\", \"meta-type\": \"builtin\", \"json-type\": \"string\"},"
    "{\"name\": \"bool\", \"meta-type\": \"builtin\","
    "  \"json-type\": \"boolean\"}"
    "]";

JsonNode *qmp_query_qmp_schema(JsonObject *args, Error **errp)
{
    JsonParser *parser = json_parser_new();
    JsonArray *arr = json_array_new(), *types;
    const QmpCommand *c;
    guint i;

    for (c = qmp_commands; c->name; c++) {
        JsonObject *o = json_object_new();
        const char *arg = "0", *ret = "0";

        if (!strcmp(c->name, "query-named-block-nodes")) {
            arg = "4";
            ret = "5";
        }
        json_object_set_string_member(o, "name", c->name);
        json_object_set_string_member(o, "meta-type", "command");
        json_object_set_string_member(o, "arg-type", arg);
        json_object_set_string_member(o, "ret-type", ret);
        json_object_set_boolean_member(o, "allow-oob", false);
        json_array_add_object_element(arr, o);
    }
    /* device_add and object-add exist only as types of the command line */
    {
        JsonObject *o = json_object_new();
        JsonArray *features = json_array_new();

        json_array_add_string_element(features, "json-cli-hotplug");
        json_object_set_string_member(o, "name", "device_add");
        json_object_set_string_member(o, "meta-type", "command");
        json_object_set_string_member(o, "arg-type", "3");
        json_object_set_string_member(o, "ret-type", "0");
        json_object_set_array_member(o, "features", features);
        json_array_add_object_element(arr, o);
        o = json_object_new();
        json_object_set_string_member(o, "name", "object-add");
        json_object_set_string_member(o, "meta-type", "command");
        json_object_set_string_member(o, "arg-type", "1");
        json_object_set_string_member(o, "ret-type", "0");
        json_array_add_object_element(arr, o);
    }
    json_parser_load_from_data(parser, schema_types, -1, NULL);
    types = json_node_get_array(json_parser_get_root(parser));
    for (i = 0; i < json_array_get_length(types); i++) {
        json_array_add_element(arr,
                               json_node_copy(json_array_get_element(types,
                                                                     i)));
    }
    g_object_unref(parser);
    return json_node_init_array(json_node_alloc(), arr);
}

/*
 * QEMU's DeviceNotFound for an unknown type, except [] for
 * memory-backend-file: libvirt 9.0 asks about it unconditionally and
 * crashes on an error (QEMU always has it; this build does not).
 */
JsonNode *qmp_qom_list_properties(JsonObject *args, Error **errp)
{
    const char *name = qmp_arg_str(args, "typename", true, errp);
    JsonArray *arr;
    ObjectClass *oc;
    GPtrArray *props;
    guint i;

    if (!name) {
        return NULL;
    }
    oc = object_class_by_name(name);
    if (!oc && strcmp(name, "memory-backend-file")) {
        error_set(errp, ERROR_CLASS_DEVICE_NOT_FOUND, "Class '%s' not found",
                  name);
        return NULL;
    }
    arr = json_array_new();
    if (oc) {
        props = object_class_property_list(oc);
        for (i = 0; i < props->len; i++) {
            ObjectProperty *p = g_ptr_array_index(props, i);
            JsonObject *o = json_object_new();

            json_object_set_string_member(o, "name", p->name);
            json_object_set_string_member(o, "type", p->type);
            if (p->description) {
                json_object_set_string_member(o, "description",
                                              p->description);
            }
            json_array_add_object_element(arr, o);
        }
        g_ptr_array_free(props, TRUE);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

/* query-command-line-options ------------------------------------------------ */

typedef struct CliOption {
    const char *option;
    const char *params; /* "name:type ..." */
    bool (*available)(void);
} CliOption;

static const CliOption cli_options[] = {
    { "machine", "type:string accel:string kernel-irqchip:string "
                 "usb:boolean dump-guest-core:boolean mem-merge:boolean "
                 "memory-backend:string acpi:string", NULL },
    { "overcommit", "mem-lock:boolean cpu-pm:boolean", NULL },
    { "rtc", "base:string clock:string driftfix:string", NULL },
    { "boot-opts", "order:string once:string menu:boolean splash:string "
                   "splash-time:number reboot-timeout:number "
                   "strict:boolean", NULL },
    { "name", "guest:string process:string debug-threads:boolean", NULL },
    { "msg", "timestamp:boolean", NULL },
    { "sandbox", "enable:boolean obsolete:string elevateprivileges:string "
                 "spawn:string resourcecontrol:string", sandbox_available },
    { NULL },
};

JsonNode *qmp_query_command_line_options(JsonObject *args, Error **errp)
{
    const char *want = qmp_arg_str(args, "option", false, errp);
    JsonArray *arr = json_array_new();
    const CliOption *c;
    bool found = false;

    for (c = cli_options; c->option; c++) {
        JsonObject *o;
        JsonArray *params;
        char **list;
        int i;

        if ((want && strcmp(want, c->option)) ||
            (c->available && !c->available())) {
            continue;
        }
        found = true;
        params = json_array_new();
        list = g_strsplit(c->params, " ", -1);
        for (i = 0; list[i]; i++) {
            JsonObject *p = json_object_new();
            char *colon = strchr(list[i], ':');

            *colon = 0;
            json_object_set_string_member(p, "name", list[i]);
            json_object_set_string_member(p, "type", colon + 1);
            json_array_add_object_element(params, p);
        }
        g_strfreev(list);
        o = json_object_new();
        json_object_set_array_member(o, "parameters", params);
        json_object_set_string_member(o, "option", c->option);
        json_array_add_object_element(arr, o);
    }
    if (want && !found) {
        json_array_unref(arr);
        error_setg(errp, "invalid option name: %s", want);
        return NULL;
    }
    return json_node_init_array(json_node_alloc(), arr);
}

/* Migration capabilities: kept, no migration happens ------------------------ */

static const char *const migrate_caps[] = {
    "xbzrle", "rdma-pin-all", "auto-converge", "zero-blocks", "compress",
    "events", "postcopy-ram", "x-colo", "release-ram", "return-path",
    "pause-before-switchover", "multifd", "dirty-bitmaps",
    "postcopy-blocktime", "late-block-activate", "x-ignore-shared",
    "validate-uuid", "background-snapshot", "zero-copy-send",
    "postcopy-preempt", NULL,
};
static bool migrate_cap_state[G_N_ELEMENTS(migrate_caps)];

JsonNode *qmp_query_migrate_capabilities(JsonObject *args, Error **errp)
{
    JsonArray *arr = json_array_new();
    int i;

    for (i = 0; migrate_caps[i]; i++) {
        JsonObject *o = json_object_new();

        json_object_set_string_member(o, "capability", migrate_caps[i]);
        json_object_set_boolean_member(o, "state", migrate_cap_state[i]);
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

JsonNode *qmp_migrate_set_capabilities(JsonObject *args, Error **errp)
{
    JsonNode *n = json_object_get_member(args, "capabilities");
    bool state[G_N_ELEMENTS(migrate_caps)];
    JsonArray *list;
    guint i;
    int j;

    if (!n) {
        error_setg(errp, "Parameter 'capabilities' is missing");
        return NULL;
    }
    if (!JSON_NODE_HOLDS_ARRAY(n)) {
        error_setg(errp, "Invalid parameter type for 'capabilities', "
                   "expected: array");
        return NULL;
    }
    /* All or nothing */
    memcpy(state, migrate_cap_state, sizeof(state));
    list = json_node_get_array(n);
    for (i = 0; i < json_array_get_length(list); i++) {
        JsonNode *e = json_array_get_element(list, i);
        const char *cap;
        bool on;

        if (!JSON_NODE_HOLDS_OBJECT(e)) {
            error_setg(errp, "Invalid parameter type for 'capabilities[%u]', "
                       "expected: object", i);
            return NULL;
        }
        cap = qmp_arg_str(json_node_get_object(e), "capability", true, errp);
        if (!cap || !qmp_arg_bool(json_node_get_object(e), "state", false,
                                  &on, errp)) {
            return NULL;
        }
        for (j = 0; migrate_caps[j] && strcmp(migrate_caps[j], cap); j++) {
        }
        if (!migrate_caps[j]) {
            error_setg(errp, "Parameter 'capability' does not accept value "
                       "'%s'", cap);
            return NULL;
        }
        state[j] = on;
    }
    memcpy(migrate_cap_state, state, sizeof(state));
    return qmp_empty_return();
}

/* Block layer: this build has no block devices ------------------------------ */

JsonNode *qmp_query_named_block_nodes(JsonObject *args, Error **errp)
{
    bool flat;

    if (!qmp_arg_bool(args, "flat", false, &flat, errp)) {
        return NULL;
    }
    return json_node_init_array(json_node_alloc(), json_array_new());
}

JsonNode *qmp_query_block(JsonObject *args, Error **errp)
{
    return json_node_init_array(json_node_alloc(), json_array_new());
}
