/*
 * -device: a {driver, category, properties, create} table of the devices
 * this build can add, and the PC board's built-in devices.
 *
 * Devices are checked when the option is parsed (driver and property
 * names, as QEMU's errors name them) and created in command-line order
 * after the board, with "-device ARG: " before any error, as QEMU does.
 * A device with an id appears at /machine/peripheral/ID.
 *
 * pcie-root-port, qemu-xhci and piix3-usb-uhci are accepted and do
 * nothing: libvirt adds them to every q35/i440fx domain that does not
 * turn USB off, and this board has no PCI devices behind its host bridge
 * for a guest to find.  Each driver is a QOM type (qom-list-types, which
 * is how libvirt learns which devices exist).
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "hw/char/serial.h"
#include "hw/input/i8042.h"
#include "hw/audio/pcspk.h"
#include "hw/misc/debugexit.h"
#include "hw/misc/pvpanic.h"
#include "hw/pci-host/pc-pci-host.h"
#include "hw/rtc/mc146818rtc.h"
#include "exec/memory.h"
#include "monitor/qmp-commands.h"
#include "qemu/option.h"
#include "qom/object.h"
#include "sysemu/device.h"

typedef struct DeviceProp {
    const char *name;
    const char *type;
    const char *desc;       /* "" for none */
    const char *defval;     /* NULL for none */
} DeviceProp;

typedef struct DeviceModel {
    const char *driver;
    const char *category;   /* as -device help groups it */
    const char *bus;
    bool (*create)(QemuOpts *opts, const char *id, Error **errp);
    DeviceProp props[8];
} DeviceModel;

/* The PCI controllers libvirt adds: accepted, nothing is created */
static bool device_create_noop(QemuOpts *opts, const char *id, Error **errp)
{
    return true;
}

#define PCI_DEVICE_PROPS                                                    \
    { "addr", "int32", "Slot and optional function number, example: "      \
      "06.0 or 06", "-1" },                                                 \
    { "multifunction", "bool", "on/off", "false" },                         \
    { "bus", "str", "", NULL }

static const DeviceModel device_models[] = {
    {
        "isa-serial", "Input devices", "ISA", isa_serial_device_create,
        {
            { "chardev", "str", "ID of a chardev to use as a backend", NULL },
            { "index", "uint32", "", "4294967295" },
            { "iobase", "uint32", "", "4294967295" },
            { "irq", "uint32", "", "4294967295" },
        },
    },
    {
        "isa-debug-exit", "Misc devices", "ISA", isa_debug_exit_create,
        {
            { "iobase", "uint32", "", "1281" },
            { "iosize", "uint32", "", "2" },
        },
    },
    {
        "pvpanic", "Misc devices", "ISA", pvpanic_create,
        {
            { "ioport", "uint16", "", "1285" },
            { "events", "uint8", "", "3" },
        },
    },
    {
        "pcie-root-port", "Controller/Bridge/Hub devices", "PCI",
        device_create_noop,
        {
            { "port", "uint8", "", "0" },
            { "chassis", "uint8", "", "0" },
            { "slot", "uint16", "", "0" },
            PCI_DEVICE_PROPS,
        },
    },
    {
        "qemu-xhci", "USB", "PCI", device_create_noop,
        {
            { "p2", "uint32", "", "4" },
            { "p3", "uint32", "", "4" },
            PCI_DEVICE_PROPS,
        },
    },
    {
        "piix3-usb-uhci", "USB", "PCI", device_create_noop,
        {
            { "masterbus", "str", "", NULL },
            { "firstport", "uint32", "", "0" },
            PCI_DEVICE_PROPS,
        },
    },
};

static void device_register_types(void)
{
    size_t i;

    /* "device" itself is registered with the CPU types */
    for (i = 0; i < G_N_ELEMENTS(device_models); i++) {
        TypeInfo *ti = g_new0(TypeInfo, 1);

        ti->name = device_models[i].driver;
        ti->parent = "device";
        ti->instance_size = sizeof(Object);
        type_register_static(ti);
    }
}
type_init(device_register_types)

/* device-list-properties: the -device properties of a driver */
JsonNode *qmp_device_list_properties(
    const QmpArgsDeviceListProperties *args, Error **errp)
{
    const char *name = args->typename;
    const DeviceModel *m = NULL;
    const DeviceProp *p;
    JsonArray *arr;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(device_models); i++) {
        if (!strcmp(device_models[i].driver, name)) {
            m = &device_models[i];
        }
    }
    if (!m) {
        error_set(errp, ERROR_CLASS_DEVICE_NOT_FOUND, "Device '%s' not found",
                  name);
        return NULL;
    }
    arr = json_array_new();
    for (p = m->props; p->name; p++) {
        JsonObject *o = json_object_new();

        json_object_set_string_member(o, "name", p->name);
        json_object_set_string_member(o, "type", p->type);
        if (p->desc[0]) {
            json_object_set_string_member(o, "description", p->desc);
        }
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

typedef struct DeviceConfig {
    char *optarg;
    const DeviceModel *model;
    QemuOpts *opts;
    char *id;
} DeviceConfig;

static GPtrArray *device_configs;
static bool nodefaults, nographic;

void qemu_devices_set_nodefaults(bool on)
{
    nodefaults = on;
}

void qemu_devices_set_nographic(bool on)
{
    nographic = on;
}

static const DeviceModel *device_model_find(const char *driver)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(device_models); i++) {
        if (!strcmp(device_models[i].driver, driver)) {
            return &device_models[i];
        }
    }
    return NULL;
}

bool device_prop_get_uint(QemuOpts *opts, const char *name, unsigned bits,
                          uint32_t defval, uint32_t *out, Error **errp)
{
    const char *v = qemu_opt_get(opts, name);
    uint64_t n;

    *out = defval;
    if (!v) {
        return true;
    }
    if (v[0] != '-' && !qemu_opt_get_number(opts, name, 0, &n, NULL)) {
        error_setg(errp, "Parameter '%s' expects integer", name);
        return false;
    }
    if (v[0] == '-' || n > (bits < 32 ? (1ULL << bits) - 1 : UINT32_MAX)) {
        error_setg(errp, "Parameter '%s' expects uint%u_t", name, bits);
        return false;
    }
    *out = n;
    return true;
}

/* Help -------------------------------------------------------------------- */

static void device_help_all(void)
{
    const char *categories[] = {
        "Controller/Bridge/Hub devices", "USB", "Input devices",
        "Misc devices",
    };
    size_t c, i;

    for (c = 0; c < G_N_ELEMENTS(categories); c++) {
        printf("%s%s:\n", c ? "\n" : "", categories[c]);
        for (i = 0; i < G_N_ELEMENTS(device_models); i++) {
            if (!strcmp(device_models[i].category, categories[c])) {
                printf("name \"%s\", bus %s\n", device_models[i].driver,
                       device_models[i].bus);
            }
        }
    }
}

static void device_help_props(const DeviceModel *m)
{
    const DeviceProp *p;

    printf("%s options:\n", m->driver);
    for (p = m->props; p->name; p++) {
        char *left = g_strdup_printf("%s=<%s>", p->name, p->type);

        printf("  %-23s- %s", left, p->desc);
        if (p->defval) {
            printf(" (default: %s)", p->defval);
        }
        printf("\n");
        g_free(left);
    }
}

/* The driver a -device help request names (NULL: all), if it is one */
static bool device_help_request(const char *optarg, char **driver)
{
    QemuOpts *opts;
    const char *d;
    bool help;

    *driver = NULL;
    if (optarg[0] == '{') {
        return false;
    }
    opts = qemu_opts_parse(optarg, "driver", NULL);
    d = qemu_opt_get(opts, "driver");
    help = qemu_opts_has_help(opts) || (d && (!strcmp(d, "help") ||
                                              !strcmp(d, "?")));
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

void qemu_device_help(const char *optarg)
{
    const DeviceModel *m;
    char *driver;

    device_help_request(optarg, &driver);
    if (!driver) {
        device_help_all();
        return;
    }
    m = device_model_find(driver);
    if (m) {
        device_help_props(m);
    } else {
        /* QEMU 7.2 says so and still exits 0 */
        error_report("Device '%s' not found", driver);
    }
    g_free(driver);
}

/* Parsing ----------------------------------------------------------------- */

/* The JSON form as the equivalent key=value string (",," for a comma) */
static char *device_json_to_opts(const char *json, Error **errp)
{
    JsonObject *obj = qemu_opts_parse_json(json, errp);
    GString *out;
    GList *members, *l;

    if (!obj) {
        return NULL;
    }
    out = g_string_new("");
    members = json_object_get_members(obj);
    for (l = members; l; l = l->next) {
        JsonNode *n = json_object_get_member(obj, l->data);
        char *v;
        const char *c;

        if (JSON_NODE_TYPE(n) != JSON_NODE_VALUE) {
            error_setg(errp, "Invalid parameter type for '%s', expected: "
                       "string", (const char *)l->data);
            g_list_free(members);
            json_object_unref(obj);
            g_string_free(out, TRUE);
            return NULL;
        }
        if (json_node_get_value_type(n) == G_TYPE_BOOLEAN) {
            v = g_strdup(json_node_get_boolean(n) ? "on" : "off");
        } else if (json_node_get_value_type(n) == G_TYPE_INT64) {
            v = g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(n));
        } else {
            v = g_strdup(json_node_get_string(n) ? json_node_get_string(n)
                                                 : "");
        }
        g_string_append_printf(out, "%s%s=", out->len ? "," : "",
                               (const char *)l->data);
        for (c = v; *c; c++) {
            g_string_append(out, *c == ',' ? ",," : (char[]){ *c, 0 });
        }
        g_free(v);
    }
    g_list_free(members);
    json_object_unref(obj);
    return g_string_free(out, FALSE);
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
    const DeviceModel *m;
    const QemuOpt *unused;
    const DeviceProp *p;
    QemuOpts *opts;
    const char *driver, *id;
    char *keyval = NULL;
    DeviceConfig *dc;

    if (optarg[0] == '{') {
        keyval = device_json_to_opts(optarg, errp);
        if (!keyval) {
            return false;
        }
    }
    opts = qemu_opts_parse(keyval ? keyval : optarg, keyval ? NULL : "driver",
                           errp);
    g_free(keyval);
    if (!opts) {
        return false;
    }
    driver = qemu_opt_get(opts, "driver");
    /* QEMU takes the first id of a key=value option */
    id = qemu_opt_get_first(opts, "id");
    if (id && !id_wellformed(id)) {
        /* QEMU checks an id as it parses, before anything else */
        error_setg(errp, "Parameter 'id' expects an identifier");
        error_append_hint(errp, "Identifiers consist of letters, digits, "
                          "'-', '.', '_', starting with a letter.\n");
        goto fail;
    }
    if (!driver) {
        error_setg(errp, "Parameter 'driver' is missing");
        goto fail;
    }
    m = device_model_find(driver);
    if (!m) {
        error_setg(errp, "'%s' is not a valid device model name", driver);
        goto fail;
    }
    for (p = m->props; p->name; p++) {
        qemu_opt_get(opts, p->name);
    }
    unused = qemu_opts_first_unused(opts);
    if (unused) {
        error_setg(errp, "Property '%s.%s' not found", driver, unused->name);
        goto fail;
    }
    if (id && device_id_in_use(id)) {
        error_setg(errp, "Duplicate ID '%s' for device", id);
        goto fail;
    }
    if (!device_configs) {
        device_configs = g_ptr_array_new();
    }
    dc = g_new0(DeviceConfig, 1);
    dc->optarg = g_strdup(optarg);
    dc->model = m;
    dc->opts = opts;
    dc->id = g_strdup(id);
    g_ptr_array_add(device_configs, dc);
    return true;

fail:
    qemu_opts_free(opts);
    return false;
}

/* The board's devices ------------------------------------------------------ */

static bool device_given(const char *driver)
{
    guint i;

    for (i = 0; device_configs && i < device_configs->len; i++) {
        DeviceConfig *dc = g_ptr_array_index(device_configs, i);

        if (!strcmp(dc->model->driver, driver)) {
            return true;
        }
    }
    return false;
}

bool pc_devices_create(MachineState *ms, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    bool q35 = mc->family && !strcmp(mc->family, "pc-q35");
    uint64_t below_4g = memory_below_4g();
    const char *default_serial = NULL;
    guint i;

    if (!pc_pci_host_create(q35 ? PC_HOST_Q35_MCH : PC_HOST_I440FX, errp) ||
        !rtc_isa_create(below_4g, ms->ram_size - below_4g, ms->smp.cpus,
                        errp) ||
        (ms->i8042 && !i8042_create(errp)) || !port92_create(errp) ||
        !pcspk_create(errp)) {
        return false;
    }
    /* QEMU's default serial port yields to any serial the user asked for */
    if (!nodefaults && !serial_hds_count() && !device_given("isa-serial")) {
        default_serial = nographic ? "mon:stdio" : "vc";
    }
    if (!serial_hds_create(default_serial, errp)) {
        return false;
    }
    for (i = 0; device_configs && i < device_configs->len; i++) {
        DeviceConfig *dc = g_ptr_array_index(device_configs, i);

        if (!dc->model->create(dc->opts, dc->id, errp)) {
            error_prepend(errp, "-device %s: ", dc->optarg);
            return false;
        }
        if (dc->id) {
            Object *peripheral = object_resolve_path("/machine/peripheral");
            Object *dev = object_new(dc->model->driver);

            if (peripheral) {
                object_property_add_child(peripheral, dc->id, dev);
            }
            object_unref(dev);
        }
    }
    return true;
}
