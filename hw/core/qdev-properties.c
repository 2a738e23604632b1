/*
 * Device property tables (include/hw/qdev-properties.h): each Property
 * becomes a class property of the device type, with QEMU's type name and
 * default, the field accessors of qom/field.c (QEMU's visitor rules and
 * texts), and the rule that nothing changes after realize.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "chardev/char.h"
#include "hw/qdev-properties.h"
#include "qemu/option.h"

/* Setters refuse once the device is realized --------------------------------- */

bool qdev_prop_allow_set(Object *obj, const char *name, Error **errp)
{
    DeviceState *dev = DEVICE(obj);

    if (!dev->realized) {
        return true;
    }
    if (dev->id) {
        error_setg(errp, "Attempt to set property '%s' on device '%s' "
                   "(type '%s') after it was realized", name, dev->id,
                   object_get_typename(obj));
    } else {
        error_setg(errp, "Attempt to set property '%s' on anonymous device "
                   "(type '%s') after it was realized", name,
                   object_get_typename(obj));
    }
    return false;
}

static bool qdev_field_set(Object *obj, ObjectProperty *prop, JsonNode *value,
                           Error **errp)
{
    return qdev_prop_allow_set(obj, prop->name, errp) &&
           object_field_set(obj, prop, value, errp);
}

/* Enumerations (an int field holding the index) ------------------------------ */

static JsonNode *qdev_enum_get(Object *obj, ObjectProperty *prop,
                               Error **errp)
{
    Property *p = prop->opaque_ptr;
    int v = *(int *)((char *)obj + prop->offset);

    return json_node_init_string(json_node_alloc(), p->info->enum_table[v]);
}

static bool qdev_enum_set(Object *obj, ObjectProperty *prop, JsonNode *value,
                          Error **errp)
{
    Property *p = prop->opaque_ptr;
    const char *s;
    int i;

    if (!qdev_prop_allow_set(obj, prop->name, errp) ||
        !(s = object_prop_value_str(prop, value, errp))) {
        return false;
    }
    for (i = 0; p->info->enum_table[i]; i++) {
        if (!strcmp(s, p->info->enum_table[i])) {
            *(int *)((char *)obj + prop->offset) = i;
            return true;
        }
    }
    error_setg(errp, "Parameter '%s' does not accept value '%s'", prop->name,
               s);
    return false;
}

/* Chardevs by id (QEMU's "chr"): read back as the id, "" when unset --------- */

static JsonNode *qdev_chr_get(Object *obj, ObjectProperty *prop, Error **errp)
{
    Chardev *chr = *(Chardev **)((char *)obj + prop->offset);

    return json_node_init_string(json_node_alloc(),
                                 chr ? qemu_chr_get_id(chr) : "");
}

static bool qdev_chr_set(Object *obj, ObjectProperty *prop, JsonNode *value,
                         Error **errp)
{
    Chardev **field = (Chardev **)((char *)obj + prop->offset);
    const char *id;
    Chardev *chr = NULL;

    if (!qdev_prop_allow_set(obj, prop->name, errp) ||
        !(id = object_prop_value_str(prop, value, errp))) {
        return false;
    }
    if (*id) {
        chr = qemu_chr_find(id);
        if (!chr) {
            error_setg(errp, "Property '%s.%s' can't find value '%s'",
                       object_get_typename(obj), prop->name, id);
            return false;
        }
    }
    *field = chr;
    return true;
}

/* The types -------------------------------------------------------------------- */

const PropertyInfo qdev_prop_bool = { "bool", NULL, PROP_KIND_BOOL };
const PropertyInfo qdev_prop_bit = { "bool", "on/off", PROP_KIND_BOOL };
const PropertyInfo qdev_prop_uint8 = { "uint8", NULL, PROP_KIND_UINT8 };
const PropertyInfo qdev_prop_uint16 = { "uint16", NULL, PROP_KIND_UINT16 };
const PropertyInfo qdev_prop_uint32 = { "uint32", NULL, PROP_KIND_UINT32 };
const PropertyInfo qdev_prop_uint64 = { "uint64", NULL, PROP_KIND_UINT64 };
const PropertyInfo qdev_prop_int32 = { "int32", NULL, PROP_KIND_INT32 };
const PropertyInfo qdev_prop_int64 = { "int64", NULL, PROP_KIND_INT64 };
const PropertyInfo qdev_prop_string = { "str", NULL, PROP_KIND_STRING };
const PropertyInfo qdev_prop_audiodev = {
    "str", "ID of an audiodev to use as a backend", PROP_KIND_STRING,
};
const PropertyInfo qdev_prop_on_off_auto = {
    "OnOffAuto", "on/off/auto", PROP_KIND_ONOFFAUTO,
};
const PropertyInfo qdev_prop_chr = {
    "str", "ID of a chardev to use as a backend", PROP_KIND_OTHER, NULL,
    qdev_chr_get, qdev_chr_set,
};

static const char *const lost_tick_policy_table[] = {
    "discard", "delay", "slew", NULL,
};
const PropertyInfo qdev_prop_losttickpolicy = {
    "LostTickPolicy", NULL, PROP_KIND_OTHER, lost_tick_policy_table,
    qdev_enum_get, qdev_enum_set,
};

/* The floppy drive types (QEMU's FloppyDriveType, hw/block/fdc.h order) */
static const char *const fdc_drive_type_table[] = {
    "144", "288", "120", "none", "auto", NULL,
};
const PropertyInfo qdev_prop_fdc_drive_type = {
    "FdcDriveType", "FDC drive type, 144/288/120/none/auto", PROP_KIND_OTHER,
    fdc_drive_type_table, qdev_enum_get, qdev_enum_set,
};

/* PCIe link speed and width (QEMU's PCIELinkSpeed, PCIELinkWidth) */
static const char *const pcie_link_speed_table[] = {
    "2_5", "5", "8", "16", NULL,
};
const PropertyInfo qdev_prop_pcie_link_speed = {
    "PCIELinkSpeed", "2_5/5/8/16", PROP_KIND_OTHER, pcie_link_speed_table,
    qdev_enum_get, qdev_enum_set,
};
static const char *const pcie_link_width_table[] = {
    "1", "2", "4", "8", "12", "16", "32", NULL,
};
const PropertyInfo qdev_prop_pcie_link_width = {
    "PCIELinkWidth", "1/2/4/8/12/16/32", PROP_KIND_OTHER,
    pcie_link_width_table, qdev_enum_get, qdev_enum_set,
};

/* Sizes: a number, or text with QEMU's suffixes ("4K", "1M") ------------------ */

static JsonNode *qdev_size_get(Object *obj, ObjectProperty *prop,
                               Error **errp)
{
    return json_node_init_int(json_node_alloc(),
                              *(uint64_t *)((char *)obj + prop->offset));
}

static bool qdev_size_set(Object *obj, ObjectProperty *prop, JsonNode *value,
                          Error **errp)
{
    uint64_t *field = (uint64_t *)((char *)obj + prop->offset);

    if (!qdev_prop_allow_set(obj, prop->name, errp)) {
        return false;
    }
    if (JSON_NODE_HOLDS_VALUE(value) &&
        json_node_get_value_type(value) == G_TYPE_INT64) {
        *field = json_node_get_int(value);
        return true;
    }
    if (JSON_NODE_HOLDS_VALUE(value) &&
        json_node_get_value_type(value) == G_TYPE_STRING) {
        const char *s = json_node_get_string(value);
        uint64_t v;

        if (qemu_strtosz(s, 1, &v, NULL) < 0) {
            error_setg(errp, "Parameter '%s' expects size", prop->name);
            return false;
        }
        *field = v;
        return true;
    }
    error_setg(errp, "Invalid parameter type for '%s', expected: size",
               prop->name);
    return false;
}

/* info qtree: "N (S)" with S as QEMU's size_to_str: 3 digits, binary unit */
static char *qdev_size_print(Object *obj, Property *p)
{
    static const char *const units[] = {
        "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
    };
    uint64_t v = *(uint64_t *)((char *)obj + p->offset);
    double d = v;
    int i = 0;

    while (d >= 1024 && i < 6) {
        d /= 1024;
        i++;
    }
    return g_strdup_printf("%" PRIu64 " (%0.3g %s)", v, d, units[i]);
}

const PropertyInfo qdev_prop_size = {
    "size", NULL, PROP_KIND_OTHER, NULL, qdev_size_get, qdev_size_set,
    qdev_size_print, true,
};

static bool prop_kind_signed(PropKind k)
{
    return k == PROP_KIND_INT32 || k == PROP_KIND_INT64;
}

/* A Property's default as the string the field parser takes */
static char *qdev_default_string(const Property *p)
{
    const PropertyInfo *info = p->info;

    if (!p->set_default) {
        return NULL;
    }
    if (info->enum_table) {
        return g_strdup(info->enum_table[p->defval.i]);
    }
    switch (info->kind) {
    case PROP_KIND_BOOL:
        return g_strdup(p->defval.u ? "on" : "off");
    case PROP_KIND_ONOFFAUTO: {
        static const char *const names[] = { "auto", "on", "off" };
        return g_strdup(names[p->defval.i]);
    }
    default:
        /* a signed field, or a type of its own on one (PCI's addr) */
        if (prop_kind_signed(info->kind) ||
            (info->kind == PROP_KIND_OTHER &&
             g_str_has_prefix(info->name, "int"))) {
            return g_strdup_printf("%" PRId64, p->defval.i);
        }
        return g_strdup_printf("%" PRIu64, p->defval.u);
    }
}

void device_class_set_props(DeviceClass *dc, Property *props)
{
    ObjectClass *oc = OBJECT_CLASS_CAST(dc);
    Property *p;

    dc->props_ = props;
    for (p = props; p->name; p++) {
        const PropertyInfo *info = p->info;
        char *def = qdev_default_string(p);
        ObjectProperty *op;

        if (info->kind != PROP_KIND_OTHER) {
            op = object_class_property_add_field(oc, p->name, info->kind,
                                                 p->offset, def,
                                                 info->description);
            op->set = qdev_field_set;
            object_property_set_type(op, info->name);
        } else {
            op = object_class_property_add(oc, p->name, info->name,
                                           info->get, info->set,
                                           info->description);
            op->offset = p->offset;
            op->defval = g_strdup(def);
            op->setter_parses_text = info->setter_parses_text;
        }
        op->opaque_ptr = p;
        op->qdev_prop = p;
        g_free(def);
    }
}

Property *qdev_property_entry(ObjectProperty *prop)
{
    prop = object_property_resolve_alias(prop, NULL);
    return prop ? (Property *)prop->qdev_prop : NULL;
}

JsonNode *qdev_property_default(ObjectProperty *prop)
{
    Property *p = qdev_property_entry(prop);
    const PropertyInfo *info;

    if (!p || !p->set_default) {
        return NULL;
    }
    info = p->info;
    if (info->enum_table) {
        return json_node_init_string(json_node_alloc(),
                                     info->enum_table[p->defval.i]);
    }
    switch (info->kind) {
    case PROP_KIND_BOOL:
        return json_node_init_boolean(json_node_alloc(), p->defval.u);
    case PROP_KIND_ONOFFAUTO: {
        static const char *const names[] = { "auto", "on", "off" };
        return json_node_init_string(json_node_alloc(), names[p->defval.i]);
    }
    default:
        /* json-glib holds a gint64: a uint64 default keeps its bits */
        return json_node_init_int(json_node_alloc(), p->defval.i);
    }
}

/* info qtree's values ------------------------------------------------------------ */

char *qdev_property_print(Object *obj, ObjectProperty *prop)
{
    Property *p = qdev_property_entry(prop);
    JsonNode *n;
    char *s = NULL;

    if (p && p->info->print) {
        return p->info->print(obj, p);
    }
    n = object_property_get(obj, prop->name, NULL);
    if (!n) {
        return NULL;
    }
    if (JSON_NODE_HOLDS_VALUE(n)) {
        GType t = json_node_get_value_type(n);

        if (t == G_TYPE_BOOLEAN) {
            s = g_strdup(json_node_get_boolean(n) ? "true" : "false");
        } else if (t == G_TYPE_INT64) {
            int64_t v = json_node_get_int(n);
            PropKind k = p ? p->info->kind : prop->kind;

            /* Every integer prints signed with the hex of its 64-bit
             * value, uint64 ones too: QEMU 7.2's string output visitor
             * prints a uint64 as an int64 ("-1 (0xffffffffffffffff)") */
            (void)k;
            s = g_strdup_printf("%" PRId64 " (0x%" PRIx64 ")", v,
                                (uint64_t)v);
        } else if (t == G_TYPE_STRING) {
            s = g_strdup_printf("\"%s\"", json_node_get_string(n));
        }
    }
    if (!s) {
        s = json_to_string(n, FALSE);
    }
    json_node_unref(n);
    return s;
}

/* Board helpers ------------------------------------------------------------------ */

static void qdev_prop_set_or_abort(DeviceState *dev, const char *name,
                                   JsonNode *n)
{
    Error *err = NULL;

    if (!object_property_set(OBJECT(dev), name, n, &err)) {
        g_error("%s: %s", object_get_typename(OBJECT(dev)),
                error_get_pretty(err));
    }
    json_node_unref(n);
}

void qdev_prop_set_uint32(DeviceState *dev, const char *name, uint32_t v)
{
    qdev_prop_set_or_abort(dev, name, json_node_init_int(json_node_alloc(),
                                                         v));
}

void qdev_prop_set_uint64(DeviceState *dev, const char *name, uint64_t v)
{
    qdev_prop_set_or_abort(dev, name, json_node_init_int(json_node_alloc(),
                                                         (int64_t)v));
}

void qdev_prop_set_uint8(DeviceState *dev, const char *name, uint8_t v)
{
    qdev_prop_set_or_abort(dev, name, json_node_init_int(json_node_alloc(),
                                                         v));
}

void qdev_prop_set_uint16(DeviceState *dev, const char *name, uint16_t v)
{
    qdev_prop_set_or_abort(dev, name, json_node_init_int(json_node_alloc(),
                                                         v));
}

void qdev_prop_set_int32(DeviceState *dev, const char *name, int32_t v)
{
    qdev_prop_set_or_abort(dev, name, json_node_init_int(json_node_alloc(),
                                                         v));
}

void qdev_prop_set_bit(DeviceState *dev, const char *name, bool v)
{
    qdev_prop_set_or_abort(dev, name,
                           json_node_init_boolean(json_node_alloc(), v));
}

void qdev_prop_set_string(DeviceState *dev, const char *name, const char *v)
{
    qdev_prop_set_or_abort(dev, name,
                           json_node_init_string(json_node_alloc(), v));
}

void qdev_prop_set_chr(DeviceState *dev, const char *name, Chardev *chr)
{
    Object *obj = OBJECT(dev);
    ObjectProperty *prop = object_property_resolve_alias(
        object_property_find(obj, name), &obj);

    g_assert(prop && prop->set == qdev_chr_set && !DEVICE(obj)->realized);
    *(Chardev **)((char *)obj + prop->offset) = chr;
}
