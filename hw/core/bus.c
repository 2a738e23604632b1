/*
 * Buses (include/hw/qdev-core.h): TYPE_BUS, QEMU's naming, lookup for
 * -device bus=, hotplug handlers, and info qtree.
 */
#include <ctype.h>
#include <string.h>

#include "hw/qdev-properties.h"

/* Naming and creation --------------------------------------------------------- */

/*
 * QEMU's rule: the name given; else the providing device's id and the
 * number of its buses; else the bus type in lower case and a count of
 * that type's buses ("isa.0")
 */
static char *qbus_make_name(BusState *bus, DeviceState *parent,
                            const char *name)
{
    BusClass *bc = BUS_GET_CLASS(bus);
    char *s;
    size_t i;

    if (name) {
        return g_strdup(name);
    }
    if (parent && parent->id) {
        return g_strdup_printf("%s.%u", parent->id, parent->child_bus->len);
    }
    s = g_strdup_printf("%s.%d", object_get_typename(OBJECT(bus)),
                        bc->automatic_ids++);
    for (i = 0; s[i]; i++) {
        s[i] = tolower((unsigned char)s[i]);
    }
    return s;
}

BusState *qbus_new(const char *typename, DeviceState *parent,
                   const char *name)
{
    BusState *bus = BUS(object_new(typename));

    bus->name = qbus_make_name(bus, parent, name);
    bus->parent = parent;
    if (parent) {
        g_ptr_array_insert(parent->child_bus, 0, bus);
        object_property_add_child(OBJECT(parent), bus->name, OBJECT(bus));
        bus->realized = parent->realized;
    }
    /* The parent's list holds the creator's reference */
    return bus;
}

bool qbus_is_hotpluggable(BusState *bus)
{
    return bus->hotplug_handler != NULL;
}

bool qbus_is_full(BusState *bus)
{
    BusClass *bc = BUS_GET_CLASS(bus);

    return bc->max_dev && (int)bus->children->len >= bc->max_dev;
}

void qbus_set_hotplug_handler(BusState *bus, Object *handler,
                              const HotplugHandlerOps *ops)
{
    bus->hotplug_handler = handler;
    bus->hotplug_ops = ops;
}

/* Lookup ------------------------------------------------------------------------ */

BusState *qdev_get_child_bus(DeviceState *dev, const char *name)
{
    guint i;

    for (i = 0; i < dev->child_bus->len; i++) {
        BusState *bus = g_ptr_array_index(dev->child_bus, i);

        if (!strcmp(bus->name, name)) {
            return bus;
        }
    }
    return NULL;
}

BusState *qbus_find_recursive(BusState *bus, const char *name,
                              const char *bus_typename)
{
    bool match = !((name && strcmp(bus->name, name)) ||
                   (bus_typename &&
                    !object_dynamic_cast(OBJECT(bus), bus_typename)));
    guint i, j;

    if (match && !qbus_is_full(bus)) {
        return bus;
    }
    if (match && name) {
        return bus;     /* a name is exact: full or not */
    }
    for (i = 0; i < bus->children->len; i++) {
        DeviceState *dev = ((BusChild *)g_ptr_array_index(bus->children,
                                                          i))->child;

        for (j = 0; j < dev->child_bus->len; j++) {
            BusState *found = qbus_find_recursive(
                g_ptr_array_index(dev->child_bus, j), name, bus_typename);

            if (found) {
                return found;
            }
        }
    }
    return NULL;
}

DeviceState *qdev_find_recursive(BusState *bus, const char *id)
{
    guint i, j;

    for (i = 0; i < bus->children->len; i++) {
        DeviceState *dev = ((BusChild *)g_ptr_array_index(bus->children,
                                                          i))->child;

        if (dev->id && !strcmp(dev->id, id)) {
            return dev;
        }
        for (j = 0; j < dev->child_bus->len; j++) {
            DeviceState *d = qdev_find_recursive(
                g_ptr_array_index(dev->child_bus, j), id);

            if (d) {
                return d;
            }
        }
    }
    return NULL;
}

static BusState *main_system_bus(void)
{
    return BUS(object_resolve_path("/machine/unattached/sysbus"));
}

/* A device on bus by id, or by type name when it is the only one */
static DeviceState *qbus_find_dev(BusState *bus, const char *elem)
{
    DeviceState *found = NULL;
    guint i;

    for (i = 0; i < bus->children->len; i++) {
        DeviceState *dev = ((BusChild *)g_ptr_array_index(bus->children,
                                                          i))->child;

        if (dev->id && !strcmp(dev->id, elem)) {
            return dev;
        }
    }
    for (i = 0; i < bus->children->len; i++) {
        DeviceState *dev = ((BusChild *)g_ptr_array_index(bus->children,
                                                          i))->child;

        if (!strcmp(object_get_typename(OBJECT(dev)), elem)) {
            if (found) {
                return NULL;
            }
            found = dev;
        }
    }
    return found;
}

/*
 * bus= as QEMU reads it: a bus name found anywhere ("isa.0"), or a path
 * from the main system bus ("/isa.0", "/q35-pcihost/isa.0") alternating
 * devices and buses
 */
BusState *qbus_find(const char *path, Error **errp)
{
    BusState *root = main_system_bus(), *bus = NULL;
    char **elems = g_strsplit(path, "/", -1);
    int i = 0;

    if (!root) {
        error_setg(errp, "Bus '%s' not found", path);
        goto out;
    }
    if (path[0] != '/') {
        bus = qbus_find_recursive(root, elems[0], NULL);
        if (!bus) {
            error_setg(errp, "Bus '%s' not found", elems[0]);
            goto out;
        }
        i = 1;
    } else {
        bus = root;
        i = 1;
    }
    for (; elems[i] && elems[i][0]; i += 2) {
        DeviceState *dev = qbus_find_dev(bus, elems[i]);
        guint j;

        if (!dev) {
            error_setg(errp, "Device '%s' not found", elems[i]);
            bus = NULL;
            goto out;
        }
        if (!elems[i + 1] || !elems[i + 1][0]) {
            if (dev->child_bus->len == 1) {
                bus = g_ptr_array_index(dev->child_bus, 0);
                goto out;
            }
            error_setg(errp, "Device '%s' has %s child buses", elems[i],
                       dev->child_bus->len ? "multiple" : "no");
            bus = NULL;
            goto out;
        }
        bus = NULL;
        for (j = 0; j < dev->child_bus->len; j++) {
            BusState *b = g_ptr_array_index(dev->child_bus, j);

            if (!strcmp(b->name, elems[i + 1])) {
                bus = b;
            }
        }
        if (!bus) {
            error_setg(errp, "Bus '%s' not found", elems[i + 1]);
            goto out;
        }
    }
out:
    g_strfreev(elems);
    return bus;
}

/* info qtree ------------------------------------------------------------------- */

static void qdev_print(GString *out, DeviceState *dev, int indent);

static void qbus_print(GString *out, BusState *bus, int indent)
{
    guint i;

    g_string_append_printf(out, "%*sbus: %s\n", indent, "", bus->name);
    indent += 2;
    g_string_append_printf(out, "%*stype %s\n", indent, "",
                           object_get_typename(OBJECT(bus)));
    for (i = 0; i < bus->children->len; i++) {
        qdev_print(out, ((BusChild *)g_ptr_array_index(bus->children,
                                                       i))->child, indent);
    }
}

/* Each class's own table, the leaf's first, as QEMU prints them */
static void qdev_print_props(GString *out, DeviceState *dev, int indent)
{
    ObjectClass *oc = OBJECT_GET_CLASS(dev);
    ObjectClass *top = object_class_by_name(TYPE_DEVICE);

    for (; oc && oc != top; oc = object_class_get_parent(oc)) {
        Property *p;

        for (p = DEVICE_CLASS(oc)->props_; p && p->name; p++) {
            ObjectProperty *op = object_property_find(OBJECT(dev), p->name);
            char *v = op ? qdev_property_print(OBJECT(dev), op) : NULL;

            if (v) {
                g_string_append_printf(out, "%*s%s = %s\n", indent, "",
                                       p->name, *v ? v : "<null>");
            }
            g_free(v);
        }
    }
}

static void qdev_print(GString *out, DeviceState *dev, int indent)
{
    BusClass *bc = dev->parent_bus ? BUS_GET_CLASS(dev->parent_bus) : NULL;
    guint i;

    g_string_append_printf(out, "%*sdev: %s, id \"%s\"\n", indent, "",
                           object_get_typename(OBJECT(dev)),
                           dev->id ? dev->id : "");
    indent += 2;
    for (i = 0; i < dev->gpios->len; i++) {
        NamedGPIOList *ngl = g_ptr_array_index(dev->gpios, i);

        if (ngl->num_in) {
            g_string_append_printf(out, "%*sgpio-in \"%s\" %d\n", indent, "",
                                   ngl->name ? ngl->name : "", ngl->num_in);
        }
        if (ngl->num_out) {
            g_string_append_printf(out, "%*sgpio-out \"%s\" %d\n", indent,
                                   "", ngl->name ? ngl->name : "",
                                   ngl->num_out);
        }
    }
    qdev_print_props(out, dev, indent);
    if (bc && bc->print_dev) {
        bc->print_dev(out, dev, indent);
    }
    for (i = 0; i < dev->child_bus->len; i++) {
        qbus_print(out, g_ptr_array_index(dev->child_bus, i), indent);
    }
}

void qdev_print_tree(GString *out)
{
    BusState *root = main_system_bus();

    if (root) {
        qbus_print(out, root, 0);
    }
}

/* The type ----------------------------------------------------------------------- */

static JsonNode *bus_get_realized(Object *obj, ObjectProperty *prop,
                                  Error **errp)
{
    return json_node_init_boolean(json_node_alloc(), BUS(obj)->realized);
}

static JsonNode *bus_get_hotplug_handler(Object *obj, ObjectProperty *prop,
                                         Error **errp)
{
    Object *h = BUS(obj)->hotplug_handler;
    char *path = h ? object_get_canonical_path(h) : g_strdup("");
    JsonNode *n = json_node_init_string(json_node_alloc(), path);

    g_free(path);
    return n;
}

static void bus_class_init(ObjectClass *oc, void *data)
{
    object_class_property_add(oc, "realized", "bool", bus_get_realized, NULL,
                              NULL);
    object_class_property_add(oc, "hotplug-handler", "link<hotplug-handler>",
                              bus_get_hotplug_handler, NULL, NULL);
}

static void bus_initfn(Object *obj)
{
    BUS(obj)->children = g_ptr_array_new();
}

static void bus_finalize(Object *obj)
{
    BusState *bus = BUS(obj);

    g_assert(!bus->children->len);
    g_ptr_array_free(bus->children, TRUE);
    g_free(bus->name);
}

static const TypeInfo bus_type_info = {
    .name = TYPE_BUS,
    .parent = TYPE_OBJECT,
    .abstract = true,
    .instance_size = sizeof(BusState),
    .class_size = sizeof(BusClass),
    .class_init = bus_class_init,
    .instance_init = bus_initfn,
    .instance_finalize = bus_finalize,
};

static void bus_register_types(void)
{
    type_register_static(&bus_type_info);
}
type_init(bus_register_types)
