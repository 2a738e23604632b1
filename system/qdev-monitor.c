/*
 * Devices from the command line and the monitor, all through qdev:
 * -device (key=value and JSON), device_add, device_del, -device help,
 * -device DRIVER,help, device-list-properties.
 *
 * -device is checked as far as QEMU checks it when the option is parsed
 * (the key=value syntax, a well-formed and unique id), and the devices
 * are created in command-line order after the board, with "-device ARG: "
 * before any error.  The path from there is device_add's, in QEMU 7.2's
 * order: the driver (a device type users may create; after start-up one
 * that may be hot-plugged), the bus (bus= or the first of the device's
 * bus type with room), whether that bus takes hot-plugged devices, the
 * id, the properties (typed values from JSON, strings parsed per type
 * from key=value), realize.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "monitor/qmp-commands.h"
#include "qemu/option.h"
#include "sysemu/device.h"

/* QEMU 7.2's short names of device types (qdev_alias_table there) */
static const struct {
    const char *typename, *alias;
} qdev_alias_table[] = {
    { "ich9-ahci", "ahci" },
};

static const char *qdev_class_get_alias(ObjectClass *oc)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(qdev_alias_table); i++) {
        if (!strcmp(object_class_get_name(oc), qdev_alias_table[i].typename)) {
            return qdev_alias_table[i].alias;
        }
    }
    return NULL;
}

/* The driver's class, with QEMU 7.2's refusals */
static DeviceClass *qdev_get_device_class(const char *driver, Error **errp)
{
    ObjectClass *oc = object_class_by_name(driver);
    DeviceClass *dc;
    size_t i;

    for (i = 0; !oc && i < G_N_ELEMENTS(qdev_alias_table); i++) {
        if (!strcmp(driver, qdev_alias_table[i].alias)) {
            oc = object_class_by_name(qdev_alias_table[i].typename);
        }
    }

    if (!oc || !object_class_dynamic_cast(oc, TYPE_DEVICE)) {
        error_setg(errp, "'%s' is not a valid device model name", driver);
        return NULL;
    }
    if (object_class_is_abstract(oc)) {
        error_setg(errp, "Parameter 'driver' expects a non-abstract device "
                   "type");
        return NULL;
    }
    dc = DEVICE_CLASS(oc);
    if (!dc->user_creatable ||
        (qdev_machine_ready() && !dc->hotpluggable)) {
        error_setg(errp, "Parameter 'driver' expects a pluggable device type");
        return NULL;
    }
    return dc;
}

/*
 * key=value as QEMU's keyval visitor reads a number: what is no number at
 * all "expects integer" (the -global/qom string parser says "uint64")
 */
static bool keyval_number_ok(DeviceState *dev, const char *name,
                             const char *value, Error **errp)
{
    ObjectProperty *prop = object_property_resolve_alias(
        object_property_find(OBJECT(dev), name), NULL);
    char *end;

    if (!prop || prop->kind < PROP_KIND_UINT8 ||
        prop->kind > PROP_KIND_INT64) {
        return true;
    }
    errno = 0;
    if (prop->kind >= PROP_KIND_INT32) {
        (void)strtoll(value, &end, 0);
    } else {
        (void)strtoull(value, &end, 0);
    }
    if (!*value || *end || errno) {
        error_setg(errp, "Parameter '%s' expects integer", name);
        return false;
    }
    return true;
}

static bool qdev_set_properties(DeviceState *dev, JsonObject *opts,
                                bool from_json, Error **errp)
{
    GList *members = json_object_get_members(opts), *l;
    bool ok = true;

    for (l = members; l && ok; l = l->next) {
        const char *name = l->data;
        JsonNode *n = json_object_get_member(opts, name);

        if (!strcmp(name, "driver") || !strcmp(name, "bus") ||
            !strcmp(name, "id")) {
            continue;
        }
        if (from_json) {
            ok = object_property_set(OBJECT(dev), name, n, errp);
        } else {
            ok = keyval_number_ok(dev, name, json_node_get_string(n), errp) &&
                 object_property_parse(OBJECT(dev), name,
                                       json_node_get_string(n), errp);
        }
    }
    g_list_free(members);
    return ok;
}

/*
 * Creates and realizes a device from its options (driver, bus, id and
 * properties).  from_json: values are typed (JSON, QMP); otherwise they
 * are strings from key=value.  Returns the device (the composition tree
 * holds it) or NULL.
 */
static DeviceState *qdev_device_add_from_dict(JsonObject *opts,
                                              bool from_json, Error **errp)
{
    const char *driver, *path, *id;
    const HotplugHandlerOps *ops;
    DeviceClass *dc;
    DeviceState *dev;
    BusState *bus = NULL;

    if (!qemu_json_opt_get_str(opts, "driver", &driver, errp)) {
        return NULL;
    }
    if (!driver) {
        error_setg(errp, "Parameter 'driver' is missing");
        return NULL;
    }
    dc = qdev_get_device_class(driver, errp);
    if (!dc || !qemu_json_opt_get_str(opts, "bus", &path, errp) ||
        !qemu_json_opt_get_str(opts, "id", &id, errp)) {
        return NULL;
    }
    if (path) {
        bus = qbus_find(path, errp);
        if (!bus) {
            return NULL;
        }
        if (!dc->bus_type || !object_dynamic_cast(OBJECT(bus), dc->bus_type)) {
            error_setg(errp, "Device '%s' can't go on %s bus", driver,
                       object_get_typename(OBJECT(bus)));
            return NULL;
        }
    } else if (dc->bus_type) {
        bus = qbus_find_recursive(sysbus_get_default(), NULL, dc->bus_type);
        if (!bus || qbus_is_full(bus)) {
            error_setg(errp, "No '%s' bus found for device '%s'",
                       dc->bus_type, driver);
            return NULL;
        }
    }
    if (qdev_machine_ready() && bus && !qbus_is_hotpluggable(bus)) {
        error_setg(errp, "Bus '%s' does not support hotplugging", bus->name);
        return NULL;
    }
    dev = qdev_new_for_user((ObjectClass *)dc, errp);
    if (!dev) {
        return NULL;
    }
    if (dev->post_init_error) {
        /* A -global for it failed: QEMU stops there */
        error_propagate(errp, dev->post_init_error);
        dev->post_init_error = NULL;
        object_unref(OBJECT(dev));
        return NULL;
    }
    if (qdev_machine_ready() && !bus && !qdev_get_hotplug_handler(dev, &ops)) {
        error_setg(errp, "Device '%s' can not be hotplugged on this machine",
                   driver);
        object_unref(OBJECT(dev));
        return NULL;
    }
    if (!qdev_set_id(dev, id, errp)) {
        object_unref(OBJECT(dev));
        return NULL;
    }
    if (!qdev_set_properties(dev, opts, from_json, errp) ||
        !qdev_realize(dev, bus, errp)) {
        qdev_unparent(dev);
        object_unref(OBJECT(dev));
        return NULL;
    }
    object_unref(OBJECT(dev));
    return dev;
}

/* -device ------------------------------------------------------------------ */

typedef struct DeviceConfig {
    char *optarg;
    JsonObject *opts;       /* key=value: string members */
    bool from_json;
    char *id;               /* key=value's id, for duplicates */
} DeviceConfig;

static GPtrArray *device_configs;

/* key=value as a JSON object of strings ("driver" implied first) */
static JsonObject *device_opts_to_json(QemuOpts *qopts)
{
    JsonObject *o = json_object_new();
    guint i;

    for (i = 0; i < qopts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(qopts->opts, i);

        json_object_set_string_member(o, opt->name, opt->value);
    }
    return o;
}

static bool device_id_in_use(const char *id)
{
    guint i;

    for (i = 0; device_configs && i < device_configs->len; i++) {
        DeviceConfig *dc = g_ptr_array_index(device_configs, i);

        if (dc->id && !strcmp(dc->id, id)) {
            return true;
        }
    }
    return false;
}

bool qemu_device_add(const char *optarg, Error **errp)
{
    DeviceConfig *dc = g_new0(DeviceConfig, 1);
    const char *id;

    if (optarg[0] == '{') {
        dc->opts = qemu_opts_parse_json(optarg, errp);
        dc->from_json = true;
        if (!dc->opts) {
            g_free(dc);
            return false;
        }
    } else {
        QemuOpts *qopts = qemu_opts_parse(optarg, "driver", errp);

        if (!qopts) {
            g_free(dc);
            return false;
        }
        dc->opts = device_opts_to_json(qopts);
        /* QEMU takes the first id of a key=value option */
        id = qemu_opt_get_first(qopts, "id");
        if (id) {
            json_object_set_string_member(dc->opts, "id", id);
        }
        id = qemu_json_opt_get(dc->opts, "id");
        qemu_opts_free(qopts);
        if (id && !id_wellformed(id)) {
            error_setg(errp, "Parameter 'id' expects an identifier");
            error_append_hint(errp, "Identifiers consist of letters, "
                              "digits, '-', '.', '_', starting with a "
                              "letter.\n");
            goto fail;
        }
        if (id && device_id_in_use(id)) {
            error_setg(errp, "Duplicate ID '%s' for device", id);
            goto fail;
        }
        dc->id = g_strdup(id);
    }
    dc->optarg = g_strdup(optarg);
    if (!device_configs) {
        device_configs = g_ptr_array_new();
    }
    g_ptr_array_add(device_configs, dc);
    return true;

fail:
    json_object_unref(dc->opts);
    g_free(dc);
    return false;
}

bool qemu_device_given(const char *driver)
{
    guint i;

    for (i = 0; device_configs && i < device_configs->len; i++) {
        DeviceConfig *dc = g_ptr_array_index(device_configs, i);
        const char *d = qemu_json_opt_get(dc->opts, "driver");

        if (d && !strcmp(d, driver)) {
            return true;
        }
    }
    return false;
}

bool qemu_create_cli_devices(Error **errp)
{
    guint i;

    for (i = 0; device_configs && i < device_configs->len; i++) {
        DeviceConfig *dc = g_ptr_array_index(device_configs, i);

        if (!qdev_device_add_from_dict(dc->opts, dc->from_json, errp)) {
            error_prepend(errp, "-device %s: ", dc->optarg);
            return false;
        }
    }
    return true;
}

/* device_add, device_del ------------------------------------------------------ */

/*
 * QEMU 7.2 takes device_add's arguments through its option parser:
 * numbers and booleans become strings ("on"/"off"), other values are
 * dropped, a string id must be an identifier; then it is -device's
 * key=value path
 */
static JsonObject *device_add_args_to_opts(JsonObject *args, Error **errp)
{
    JsonObject *opts = json_object_new();
    GList *members = json_object_get_members(args), *l;
    const char *id = NULL;

    for (l = members; l; l = l->next) {
        JsonNode *n = json_object_get_member(args, l->data);
        char *v = NULL;

        if (!JSON_NODE_HOLDS_VALUE(n)) {
            continue;
        }
        switch (json_node_get_value_type(n)) {
        case G_TYPE_STRING:
            v = g_strdup(json_node_get_string(n));
            if (!strcmp(l->data, "id")) {
                id = json_node_get_string(n);
            }
            break;
        case G_TYPE_INT64:
            v = g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(n));
            break;
        case G_TYPE_DOUBLE:
            v = g_strdup_printf("%.17g", json_node_get_double(n));
            break;
        case G_TYPE_BOOLEAN:
            v = g_strdup(json_node_get_boolean(n) ? "on" : "off");
            break;
        default:
            break;
        }
        if (v && (strcmp(l->data, "id") || id)) {
            json_object_set_string_member(opts, l->data, v);
        }
        g_free(v);
    }
    g_list_free(members);
    if (id && !id_wellformed(id)) {
        error_setg(errp, "Parameter 'id' expects an identifier");
        json_object_unref(opts);
        return NULL;
    }
    return opts;
}

JsonNode *qmp_device_add(JsonObject *args, Error **errp)
{
    JsonObject *opts = device_add_args_to_opts(args, errp);
    bool ok = opts && qdev_device_add_from_dict(opts, false, errp);

    if (opts) {
        json_object_unref(opts);
    }
    if (!ok) {
        return NULL;
    }
    return json_node_init_object(json_node_alloc(), json_object_new());
}

/* An id under /machine/peripheral, or a QOM path, as QEMU resolves it */
static DeviceState *find_device_state(const char *id, Error **errp)
{
    Object *obj;

    if (id[0] == '/') {
        obj = object_resolve_path(id);
    } else {
        Object *periph = object_resolve_path("/machine/peripheral");

        obj = periph ? object_resolve_path_component(periph, id) : NULL;
    }
    if (!obj) {
        error_set(errp, ERROR_CLASS_DEVICE_NOT_FOUND, "Device '%s' not found",
                  id);
        return NULL;
    }
    if (!object_dynamic_cast(obj, TYPE_DEVICE)) {
        error_setg(errp, "%s is not a hotpluggable device", id);
        return NULL;
    }
    return DEVICE(obj);
}

JsonNode *qmp_device_del(const QmpArgsDeviceDel *args, Error **errp)
{
    DeviceState *dev = find_device_state(args->id, errp);
    const HotplugHandlerOps *ops;
    Object *handler;
    BusState *bus;

    if (!dev) {
        return NULL;
    }
    bus = dev->parent_bus;
    if (bus && !qbus_is_hotpluggable(bus)) {
        error_setg(errp, "Bus '%s' does not support hotplugging", bus->name);
        return NULL;
    }
    handler = qdev_get_hotplug_handler(dev, &ops);
    if (!DEVICE_GET_CLASS(dev)->hotpluggable || !handler ||
        !ops->unplug_request) {
        error_setg(errp, "Device '%s' does not support hotplugging",
                   object_get_typename(OBJECT(dev)));
        return NULL;
    }
    if (dev->pending_deletion_event) {
        error_setg(errp, "Device %s is already in the process of unplug",
                   args->id);
        return NULL;
    }
    if (!ops->unplug_request(handler, dev, errp)) {
        return NULL;
    }
    return json_node_init_object(json_node_alloc(), json_object_new());
}

/* device-list-properties, -device help ----------------------------------------- */

static bool skip_device_property(const char *name)
{
    static const char *const skip[] = {
        "type", "realized", "hotpluggable", "hotplugged", "parent_bus",
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(skip); i++) {
        if (!strcmp(name, skip[i])) {
            return true;
        }
    }
    return g_str_has_prefix(name, "legacy-");
}

/*
 * What device-list-properties answers: an instance's properties (its
 * children too, as QEMU counts them), without those every device has
 */
static JsonArray *device_property_list(const char *typename, Error **errp)
{
    ObjectClass *oc = object_class_by_name(typename);
    JsonArray *arr;
    GPtrArray *props;
    Object *obj;
    guint i;

    if (!oc) {
        error_set(errp, ERROR_CLASS_DEVICE_NOT_FOUND, "Device '%s' not found",
                  typename);
        return NULL;
    }
    if (!object_class_dynamic_cast(oc, TYPE_DEVICE) ||
        object_class_is_abstract(oc)) {
        error_setg(errp, "Parameter 'typename' expects a non-abstract device "
                   "type");
        return NULL;
    }
    obj = object_new(typename);
    arr = json_array_new();
    props = object_property_list(obj);
    for (i = 0; i < props->len; i++) {
        ObjectProperty *p = g_ptr_array_index(props, i);
        JsonObject *o;
        JsonNode *def;

        if (skip_device_property(p->name)) {
            continue;
        }
        o = json_object_new();
        json_object_set_string_member(o, "name", p->name);
        json_object_set_string_member(o, "type", p->type);
        if (p->description) {
            json_object_set_string_member(o, "description", p->description);
        }
        def = qdev_property_default(p);
        if (def) {
            json_object_set_member(o, "default-value", def);
        }
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
    object_unref(obj);
    return arr;
}

JsonNode *qmp_device_list_properties(
    const QmpArgsDeviceListProperties *args, Error **errp)
{
    JsonArray *arr = device_property_list(args->typename, errp);

    return arr ? json_node_init_array(json_node_alloc(), arr) : NULL;
}

static gint class_casecmp(gconstpointer a, gconstpointer b)
{
    return g_ascii_strcasecmp(object_class_get_name((ObjectClass *)a),
                              object_class_get_name((ObjectClass *)b));
}

/* -device help: QEMU 7.2's groups and lines */
static void device_help_all(GString *out)
{
    static const char *const names[] = {
        [DEVICE_CATEGORY_BRIDGE] = "Controller/Bridge/Hub",
        [DEVICE_CATEGORY_USB] = "USB",
        [DEVICE_CATEGORY_STORAGE] = "Storage",
        [DEVICE_CATEGORY_NETWORK] = "Network",
        [DEVICE_CATEGORY_INPUT] = "Input",
        [DEVICE_CATEGORY_DISPLAY] = "Display",
        [DEVICE_CATEGORY_SOUND] = "Sound",
        [DEVICE_CATEGORY_MISC] = "Misc",
        [DEVICE_CATEGORY_CPU] = "CPU",
        [DEVICE_CATEGORY_WATCHDOG] = "Watchdog",
        [DEVICE_CATEGORY_MAX] = "Uncategorized",
    };
    GSList *list = g_slist_sort(object_class_get_list(TYPE_DEVICE, false),
                                class_casecmp), *l;
    int cat;

    for (cat = 0; cat <= DEVICE_CATEGORY_MAX; cat++) {
        bool printed = false;

        for (l = list; l; l = l->next) {
            DeviceClass *dc = DEVICE_CLASS(l->data);
            bool in = cat < DEVICE_CATEGORY_MAX
                          ? (dc->categories >> cat) & 1
                          : !dc->categories;

            if (!in || !dc->user_creatable) {
                continue;
            }
            if (!printed) {
                g_string_append_printf(out, "%s%s devices:\n",
                                       cat ? "\n" : "", names[cat]);
                printed = true;
            }
            g_string_append_printf(out, "name \"%s\"",
                                   object_class_get_name(l->data));
            if (dc->bus_type) {
                g_string_append_printf(out, ", bus %s", dc->bus_type);
            }
            if (qdev_class_get_alias(l->data)) {
                g_string_append_printf(out, ", alias \"%s\"",
                                       qdev_class_get_alias(l->data));
            }
            if (dc->desc) {
                g_string_append_printf(out, ", desc \"%s\"", dc->desc);
            }
            g_string_append(out, "\n");
        }
    }
    g_slist_free(list);
}

static gint help_line_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* -device DRIVER,help: device-list-properties, as QEMU prints it */
static bool device_help_props(GString *out, const char *driver,
                              Error **errp)
{
    JsonArray *arr = device_property_list(driver, errp);
    GPtrArray *lines;
    guint i;

    if (!arr) {
        return false;
    }
    if (!json_array_get_length(arr)) {
        g_string_append_printf(out, "There are no options for %s.\n",
                               driver);
        json_array_unref(arr);
        return true;
    }
    lines = g_ptr_array_new_with_free_func(g_free);
    for (i = 0; i < json_array_get_length(arr); i++) {
        JsonObject *o = json_array_get_object_element(arr, i);
        const char *desc = json_object_has_member(o, "description")
                               ? json_object_get_string_member(o,
                                                               "description")
                               : NULL;
        JsonNode *def = json_object_get_member(o, "default-value");
        GString *s = g_string_new(NULL);

        g_string_append_printf(s, "  %s=<%s>",
                               json_object_get_string_member(o, "name"),
                               json_object_get_string_member(o, "type"));
        if (desc || def) {
            if (s->len < 24) {
                g_string_append_printf(s, "%*s", 24 - (int)s->len, "");
            }
            g_string_append(s, " - ");
        }
        if (desc) {
            g_string_append(s, desc);
        }
        if (def) {
            const char *type = json_object_get_string_member(o, "type");
            /* JSON here holds int64: a size's default is unsigned */
            char *j = !strcmp(type, "size") &&
                              JSON_NODE_HOLDS_VALUE(def) &&
                              json_node_get_value_type(def) == G_TYPE_INT64
                          ? g_strdup_printf("%" G_GUINT64_FORMAT,
                                            (guint64)json_node_get_int(def))
                          : json_to_string(def, FALSE);

            g_string_append_printf(s, " (default: %s)", j);
            g_free(j);
        }
        g_ptr_array_add(lines, g_string_free(s, FALSE));
    }
    g_ptr_array_sort(lines, help_line_cmp);
    g_string_append_printf(out, "%s options:\n", driver);
    for (i = 0; i < lines->len; i++) {
        g_string_append_printf(out, "%s\n",
                               (char *)g_ptr_array_index(lines, i));
    }
    g_ptr_array_free(lines, TRUE);
    json_array_unref(arr);
    return true;
}

/* The driver a -device help request names (NULL: all), if it is one */
static bool device_help_request(const char *optarg, char **driver)
{
    QemuOpts *opts;
    const char *d;
    bool help;

    *driver = NULL;
    if (optarg[0] == '{') {
        return false;       /* QEMU's JSON form has no help */
    }
    opts = qemu_opts_parse(optarg, "driver", NULL);
    if (!opts) {
        return false;       /* qemu_device_add() reports it */
    }
    d = qemu_opt_get(opts, "driver");
    help = qemu_opts_has_help(opts) ||
           (d && (!strcmp(d, "help") || !strcmp(d, "?")));
    if (help && d && strcmp(d, "help") && strcmp(d, "?")) {
        *driver = g_strdup(d);
    }
    qemu_opts_free(opts);
    return help;
}

bool qemu_device_is_help(const char *optarg)
{
    char *driver;
    bool help = device_help_request(optarg, &driver);

    g_free(driver);
    return help;
}

/* The help text of a request, or NULL and errp */
static char *device_help_text(const char *optarg, Error **errp)
{
    GString *out = g_string_new(NULL);
    char *driver;
    bool ok = true;

    device_help_request(optarg, &driver);
    for (size_t i = 0; driver && i < G_N_ELEMENTS(qdev_alias_table); i++) {
        if (!object_class_by_name(driver) &&
            !strcmp(driver, qdev_alias_table[i].alias)) {
            g_free(driver);
            driver = g_strdup(qdev_alias_table[i].typename);
        }
    }
    if (!driver) {
        device_help_all(out);
    } else {
        ok = device_help_props(out, driver, errp);
    }
    g_free(driver);
    return g_string_free(out, !ok);
}

void qemu_device_help(const char *optarg)
{
    Error *err = NULL;
    char *text = device_help_text(optarg, &err);

    if (text) {
        fputs(text, stdout);
        g_free(text);
    } else {
        /* QEMU 7.2 says so and still exits 0 */
        error_report_err(err);
    }
}

/*
 * HMP device_add: help as -device's, else key=value as -device parses
 * it, then what QMP device_add does.  A malformed option (a bad id) is
 * reported on stderr as QEMU's option parser does, and the monitor only
 * gets its "Try" line; other errors are "Error: ..." lines.
 */
char *hmp_device_add_text(const char *arg)
{
    Error *err = NULL;
    QemuOpts *qopts;
    JsonObject *opts;
    const char *id;
    char *text;

    if (qemu_device_is_help(arg)) {
        text = device_help_text(arg, &err);
        if (!text) {
            text = g_strdup_printf("Error: %s\n", error_get_pretty(err));
            error_free(err);
        }
        return text;
    }
    qopts = qemu_opts_parse(arg, "driver", &err);
    if (!qopts) {
        error_report_err(err);
        return g_strdup("Try \"help device_add\" for more information\n");
    }
    opts = device_opts_to_json(qopts);
    id = qemu_opt_get_first(qopts, "id");
    if (id) {
        json_object_set_string_member(opts, "id", id);
        if (!id_wellformed(id)) {
            /* QEMU 7.2 prints it without its program-name prefix here */
            fprintf(stderr, "Parameter 'id' expects an identifier\n"
                    "Identifiers consist of letters, digits, '-', '.', "
                    "'_', starting with a letter.\n");
            qemu_opts_free(qopts);
            json_object_unref(opts);
            return g_strdup("Try \"help device_add\" for more "
                            "information\n");
        }
    }
    qemu_opts_free(qopts);
    text = NULL;
    if (!qdev_device_add_from_dict(opts, false, &err)) {
        text = g_strdup_printf("Error: %s\n", error_get_pretty(err));
        error_free(err);
    }
    json_object_unref(opts);
    return text ? text : g_strdup("");
}
