/*
 * QMP commands a management layer (libvirt) needs to probe this emulator
 * and start guests on it:
 *   query-qmp-schema, qom-list-properties, query-command-line-options,
 *   query-migrate-capabilities, migrate-set-capabilities
 * (device-list-properties is in system/qdev-monitor.c, query-chardev in
 * chardev/char.c, query-block and query-named-block-nodes in
 * block/qapi.c).
 *
 * query-qmp-schema describes every command, event and type of
 * qapi/schema.json (generated), including device_add's json-cli-hotplug
 * feature and object-add's qom-type values, from which libvirt learns
 * that -device and -object take JSON.
 */
#include <string.h>

#include "monitor/json-parser.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "qom/object.h"
#include "sysemu/os-posix.h"

/* Generated from qapi/schema.json with the dispatch table */
JsonNode *qmp_query_qmp_schema(Error **errp)
{
    Error *err = NULL;
    JsonNode *n = qmp_json_parse(qmp_schema_json, &err);

    /* The generator wrote it: a parse error is a build bug */
    g_assert(n && !err);
    return n;
}

/*
 * QEMU's DeviceNotFound for an unknown type, except [] for
 * memory-backend-file: libvirt 9.0 asks about it unconditionally and
 * crashes on an error (QEMU always has it; this build does not).
 */
JsonNode *qmp_qom_list_properties(const QmpArgsQomListProperties *args,
                                  Error **errp)
{
    const char *name = args->typename;
    JsonArray *arr;
    ObjectClass *oc;
    GPtrArray *props;
    guint i;

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

JsonNode *qmp_query_command_line_options(
    const QmpArgsQueryCommandLineOptions *args, Error **errp)
{
    const char *want = args->has_option ? args->option : NULL;
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

static bool migrate_cap_state[MIGRATION_CAPABILITY__MAX];

JsonNode *qmp_query_migrate_capabilities(Error **errp)
{
    JsonArray *arr = json_array_new();
    int i;

    for (i = 0; i < MIGRATION_CAPABILITY__MAX; i++) {
        JsonObject *o = json_object_new();

        json_object_set_string_member(o, "capability",
                                      MigrationCapability_str[i]);
        json_object_set_boolean_member(o, "state", migrate_cap_state[i]);
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

JsonNode *qmp_migrate_set_capabilities(
    const QmpArgsMigrateSetCapabilities *args, Error **errp)
{
    unsigned i;

    for (i = 0; i < args->capabilities.len; i++) {
        const MigrationCapabilityStatus *c = &args->capabilities.items[i];

        migrate_cap_state[c->capability] = c->state;
    }
    return qmp_empty_return();
}

/*
 * Postcopy recovery, QEMU 7.2's out-of-band commands.  They run in the
 * monitor's I/O thread (monitor/qmp.c) and must touch nothing the main
 * thread owns.  No migration runs here, so never in the postcopy states
 * they act in: 7.2's refusals for every other state.
 */
JsonNode *qmp_migrate_pause(Error **errp)
{
    error_setg(errp, "migrate-pause is currently only supported during "
               "postcopy-active state");
    return NULL;
}

JsonNode *qmp_migrate_recover(const QmpArgsMigrateRecover *args,
                              Error **errp)
{
    error_setg(errp, "Migrate recover can only be run when postcopy is "
               "paused.");
    return NULL;
}
