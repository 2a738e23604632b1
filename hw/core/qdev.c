/*
 * Devices (include/hw/qdev-core.h): TYPE_DEVICE, its life (create,
 * properties and globals, realize onto a bus, reset, unrealize, unplug),
 * its place in the composition tree, and its interrupt lines.
 */
#include <string.h>

#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "monitor/qmp.h"

static const GPtrArray *compat_props;
static GPtrArray *global_props;
static bool machine_ready;

/* Composition --------------------------------------------------------------- */

static Object *machine_container(const char *name)
{
    char *path = g_strdup_printf("/machine/%s", name);
    Object *c = object_resolve_path(path);

    g_free(path);
    return c;
}

void qdev_add_unattached(Object *obj)
{
    /* One count for vCPUs and devices, as QEMU numbers them */
    static unsigned unattached_count;
    Object *c = machine_container("unattached");
    char *name;

    if (!c) {
        return;     /* no machine (unit tests) */
    }
    name = g_strdup_printf("device[%u]", unattached_count++);
    object_property_add_child(c, name, obj);
    g_free(name);
}

bool qdev_set_id(DeviceState *dev, const char *id, Error **errp)
{
    static unsigned anon_count;
    Object *c;

    if (id) {
        c = machine_container("peripheral");
        if (c && object_resolve_path_component(c, id)) {
            error_setg(errp, "Duplicate device ID '%s'", id);
            return false;
        }
        dev->id = g_strdup(id);
        if (c) {
            object_property_add_child(c, id, OBJECT(dev));
        }
        return true;
    }
    c = machine_container("peripheral-anon");
    if (c) {
        char *name = g_strdup_printf("device[%u]", anon_count++);

        object_property_add_child(c, name, OBJECT(dev));
        g_free(name);
    }
    return true;
}

const char *qdev_get_id(DeviceState *dev)
{
    return dev->id;
}

/* Globals ------------------------------------------------------------------- */

void qdev_set_compat_props(const GPtrArray *compat)
{
    compat_props = compat;
}

/*
 * The board's own defaults (QEMU's "sugar" properties), applied between
 * the compat entries and -global
 */
static GPtrArray *board_props;

void qdev_add_board_global(const char *driver, const char *property,
                           const char *value)
{
    static GlobalProperty props[4];
    static unsigned n;

    g_assert(n < G_N_ELEMENTS(props));
    props[n] = (GlobalProperty){ driver, property, value };
    if (!board_props) {
        board_props = g_ptr_array_new();
    }
    g_ptr_array_add(board_props, &props[n++]);
}

void qdev_set_global_props(GPtrArray *globals)
{
    global_props = globals;
}

GPtrArray *qdev_get_global_props(void)
{
    return global_props;
}

bool qdev_machine_ready(void)
{
    return machine_ready;
}

void qdev_machine_creation_done(void)
{
    machine_ready = true;
}

void qdev_prop_check_globals(const char *const *silent_types)
{
    guint i;

    for (i = 0; global_props && i < global_props->len; i++) {
        GlobalProperty *p = g_ptr_array_index(global_props, i);
        ObjectClass *oc = object_class_by_name(p->driver);

        if (p->used || (silent_types &&
                        g_strv_contains(silent_types, p->driver))) {
            continue;
        }
        oc = oc ? object_class_dynamic_cast(oc, TYPE_DEVICE) : NULL;
        if (!oc) {
            warn_report("global %s.%s has invalid class name", p->driver,
                        p->property);
            continue;
        }
        if (!DEVICE_CLASS(oc)->hotpluggable) {
            warn_report("global %s.%s=%s not used", p->driver, p->property,
                        p->value);
        }
    }
}

/*
 * Machine compat entries, then -global, as QEMU applies them at
 * instance post-init.  A failure is kept and reported by realize (the
 * creator's error, as QEMU exits with it); a hotplugged device warns.
 */
static void device_post_init(Object *obj)
{
    DeviceState *dev = DEVICE(obj);
    Error *err = NULL;

    if (DEVICE_GET_CLASS(dev)->globals_applied_by_type) {
        return;
    }
    if (!object_apply_global_props(obj, compat_props, &err) ||
        !object_apply_global_props(obj, board_props, &err) ||
        !object_apply_global_props_used(obj, global_props,
                                        dev->hotplugged ? NULL : &err)) {
        dev->post_init_error = err;
    }
}

/* Buses a device sits on ------------------------------------------------------ */

static void bus_add_child(BusState *bus, DeviceState *dev)
{
    BusChild *kid = g_new0(BusChild, 1);
    char *name;

    kid->child = dev;
    kid->index = bus->max_index++;
    object_ref(OBJECT(dev));
    /* Newest first, as QEMU lists a bus's children */
    g_ptr_array_insert(bus->children, 0, kid);
    name = g_strdup_printf("child[%d]", kid->index);
    object_property_add_link(OBJECT(bus), name, object_get_typename(
                                 OBJECT(dev)), (Object **)&kid->child);
    g_free(name);
}

static void bus_remove_child(BusState *bus, DeviceState *dev)
{
    guint i;

    for (i = 0; i < bus->children->len; i++) {
        BusChild *kid = g_ptr_array_index(bus->children, i);
        char *name;

        if (kid->child != dev) {
            continue;
        }
        name = g_strdup_printf("child[%d]", kid->index);
        object_property_del(OBJECT(bus), name);
        g_free(name);
        g_ptr_array_remove_index(bus->children, i);
        g_free(kid);
        object_unref(OBJECT(dev));
        return;
    }
}

static bool qdev_set_parent_bus(DeviceState *dev, BusState *bus,
                                Error **errp)
{
    BusClass *bc = BUS_GET_CLASS(bus);

    if (bc->check_address && !bc->check_address(bus, dev, errp)) {
        return false;
    }
    if (dev->parent_bus) {
        bus_remove_child(dev->parent_bus, dev);
        object_unref(OBJECT(dev->parent_bus));
    }
    dev->parent_bus = bus;
    object_ref(OBJECT(bus));
    bus_add_child(bus, dev);
    return true;
}

/* Realize ----------------------------------------------------------------------- */

DeviceState *qdev_new(const char *name)
{
    return DEVICE(object_new(name));
}

static void qbus_set_realized(BusState *bus, bool realized)
{
    guint i;

    if (!realized) {
        for (i = 0; i < bus->children->len; i++) {
            qdev_unrealize(((BusChild *)g_ptr_array_index(bus->children,
                                                          i))->child);
        }
    }
    bus->realized = realized;
}

static Object *(*machine_hotplug_handler_for)(DeviceState *dev,
                                              const HotplugHandlerOps **ops);

void qdev_set_machine_hotplug_handler(
    Object *(*handler_for)(DeviceState *dev, const HotplugHandlerOps **ops))
{
    machine_hotplug_handler_for = handler_for;
}

Object *qdev_get_hotplug_handler(DeviceState *dev,
                                 const HotplugHandlerOps **ops)
{
    BusState *bus = dev->parent_bus;

    if (bus) {
        *ops = bus->hotplug_ops;
        return bus->hotplug_handler;
    }
    *ops = NULL;
    return machine_hotplug_handler_for ? machine_hotplug_handler_for(dev, ops)
                                       : NULL;
}

DeviceState *qdev_new_for_user(ObjectClass *oc, Error **errp)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    if (dc->create) {
        return dc->create(oc, errp);
    }
    return DEVICE(object_new_with_class(oc));
}

static bool device_realize(DeviceState *dev, Error **errp)
{
    DeviceClass *dc = DEVICE_GET_CLASS(dev);
    const HotplugHandlerOps *ops;
    Object *handler = qdev_get_hotplug_handler(dev, &ops);
    guint i;

    if (dev->post_init_error) {
        error_propagate(errp, dev->post_init_error);
        dev->post_init_error = NULL;
        return false;
    }
    if (!OBJECT(dev)->parent) {
        qdev_add_unattached(OBJECT(dev));
    }
    if (handler && ops->pre_plug && !ops->pre_plug(handler, dev, errp)) {
        return false;
    }
    if (dc->realize && !dc->realize(dev, errp)) {
        return false;
    }
    if (handler && ops->plug && !ops->plug(handler, dev, errp)) {
        if (dc->unrealize) {
            dc->unrealize(dev);
        }
        return false;
    }
    dev->realized = true;
    for (i = 0; i < dev->child_bus->len; i++) {
        qbus_set_realized(g_ptr_array_index(dev->child_bus, i), true);
    }
    if (dev->hotplugged) {
        device_cold_reset(dev);
    }
    dev->pending_deletion_event = false;
    return true;
}

void qdev_unrealize(DeviceState *dev)
{
    DeviceClass *dc = DEVICE_GET_CLASS(dev);
    guint i;

    if (!dev->realized) {
        return;
    }
    for (i = 0; i < dev->child_bus->len; i++) {
        qbus_set_realized(g_ptr_array_index(dev->child_bus, i), false);
    }
    if (dc->unrealize) {
        dc->unrealize(dev);
    }
    dev->realized = false;
    dev->pending_deletion_event = true;
}

bool qdev_realize(DeviceState *dev, BusState *bus, Error **errp)
{
    if (bus && !qdev_set_parent_bus(dev, bus, errp)) {
        return false;
    }
    return device_realize(dev, errp);
}

bool qdev_realize_and_unref(DeviceState *dev, BusState *bus, Error **errp)
{
    bool ok = qdev_realize(dev, bus, errp);

    object_unref(OBJECT(dev));
    return ok;
}

static void qdev_send_deleted(DeviceState *dev)
{
    JsonObject *o = json_object_new();
    JsonNode *n = json_node_alloc();

    if (dev->id) {
        json_object_set_string_member(o, "device", dev->id);
    }
    json_object_set_string_member(o, "path", dev->canonical_path);
    json_node_init_object(n, o);
    json_object_unref(o);
    qmp_event_send("DEVICE_DELETED", n);
}

void qdev_unparent(DeviceState *dev)
{
    if (!dev->canonical_path) {
        dev->canonical_path = object_get_canonical_path(OBJECT(dev));
    }
    object_ref(OBJECT(dev));
    qdev_unrealize(dev);
    while (dev->child_bus->len) {
        BusState *bus = g_ptr_array_index(dev->child_bus, 0);

        g_ptr_array_remove_index(dev->child_bus, 0);
        object_unparent(OBJECT(bus));
        object_unref(OBJECT(bus));
    }
    if (dev->parent_bus) {
        BusState *bus = dev->parent_bus;

        bus_remove_child(bus, dev);
        dev->parent_bus = NULL;
        object_unref(OBJECT(bus));
    }
    if (dev->pending_deletion_event) {
        qdev_send_deleted(dev);
        dev->pending_deletion_event = false;
    }
    object_unparent(OBJECT(dev));
    object_unref(OBJECT(dev));
}

void qdev_unplug_complete(DeviceState *dev)
{
    qdev_unparent(dev);
}

/* Reset --------------------------------------------------------------------------- */

static void qbus_cold_reset(BusState *bus)
{
    BusClass *bc = BUS_GET_CLASS(bus);
    guint i;

    if (bc->reset_enter) {
        bc->reset_enter(bus);
    }
    for (i = 0; i < bus->children->len; i++) {
        device_cold_reset(((BusChild *)g_ptr_array_index(bus->children,
                                                         i))->child);
    }
    if (bc->reset) {
        bc->reset(bus);
    }
}

void device_cold_reset(DeviceState *dev)
{
    DeviceClass *dc = DEVICE_GET_CLASS(dev);
    guint i;

    for (i = 0; i < dev->child_bus->len; i++) {
        qbus_cold_reset(g_ptr_array_index(dev->child_bus, i));
    }
    if (dc->reset) {
        dc->reset(dev);
    }
}

void qemu_devices_reset(void)
{
    BusState *sysbus = BUS(object_resolve_path("/machine/unattached/sysbus"));

    if (sysbus) {
        qbus_cold_reset(sysbus);
    }
}

/* Interrupt lines ---------------------------------------------------------------- */

static NamedGPIOList *qdev_get_named_gpio_list(DeviceState *dev,
                                               const char *name)
{
    NamedGPIOList *ngl;
    guint i;

    for (i = 0; i < dev->gpios->len; i++) {
        ngl = g_ptr_array_index(dev->gpios, i);
        if (g_strcmp0(name, ngl->name) == 0) {
            return ngl;
        }
    }
    ngl = g_new0(NamedGPIOList, 1);
    ngl->name = g_strdup(name);
    g_ptr_array_insert(dev->gpios, 0, ngl);
    return ngl;
}

void qdev_init_gpio_in_named(DeviceState *dev, qemu_irq_handler *handler,
                             const char *name, int n)
{
    NamedGPIOList *ngl = qdev_get_named_gpio_list(dev, name);
    char *child = g_strdup_printf("%s[*]", name ? name : "unnamed-gpio-in");
    int i;

    ngl->in = g_renew(qemu_irq, ngl->in, ngl->num_in + n);
    for (i = 0; i < n; i++) {
        qemu_irq irq = qemu_allocate_irq(handler, dev, ngl->num_in + i);

        ngl->in[ngl->num_in + i] = irq;
        object_property_add_child(OBJECT(dev), child, OBJECT(irq));
        object_unref(OBJECT(irq));
    }
    ngl->num_in += n;
    g_free(child);
}

void qdev_init_gpio_in(DeviceState *dev, qemu_irq_handler *handler, int n)
{
    qdev_init_gpio_in_named(dev, handler, NULL, n);
}

void qdev_init_gpio_out_named(DeviceState *dev, qemu_irq *pins,
                              const char *name, int n)
{
    NamedGPIOList *ngl = qdev_get_named_gpio_list(dev, name);
    int i;

    for (i = 0; i < n; i++) {
        char *prop = g_strdup_printf("%s[%d]",
                                     name ? name : "unnamed-gpio-out",
                                     ngl->num_out + i);

        object_property_add_link(OBJECT(dev), prop, TYPE_IRQ,
                                 (Object **)&pins[i]);
        g_free(prop);
    }
    ngl->num_out += n;
}

void qdev_init_gpio_out(DeviceState *dev, qemu_irq *pins, int n)
{
    qdev_init_gpio_out_named(dev, pins, NULL, n);
}

qemu_irq qdev_get_gpio_in_named(DeviceState *dev, const char *name, int n)
{
    NamedGPIOList *ngl = qdev_get_named_gpio_list(dev, name);

    g_assert(n >= 0 && n < ngl->num_in);
    return ngl->in[n];
}

qemu_irq qdev_get_gpio_in(DeviceState *dev, int n)
{
    return qdev_get_gpio_in_named(dev, NULL, n);
}

void qdev_connect_gpio_out_named(DeviceState *dev, const char *name, int n,
                                 qemu_irq irq)
{
    char *prop = g_strdup_printf("%s[%d]", name ? name : "unnamed-gpio-out",
                                 n);
    ObjectProperty *op = object_property_find(OBJECT(dev), prop);

    g_assert(op && op->opaque_ptr);
    /* A line that is in no device gets a name, as QEMU gives it */
    if (irq && !OBJECT(irq)->parent && machine_container("unattached")) {
        object_property_add_child(machine_container("unattached"),
                                  "non-qdev-gpio[*]", OBJECT(irq));
    }
    *(qemu_irq *)op->opaque_ptr = irq;
    g_free(prop);
}

void qdev_connect_gpio_out(DeviceState *dev, int n, qemu_irq irq)
{
    qdev_connect_gpio_out_named(dev, NULL, n, irq);
}

/* The type --------------------------------------------------------------------- */

static JsonNode *device_get_realized(Object *obj, ObjectProperty *prop,
                                     Error **errp)
{
    return json_node_init_boolean(json_node_alloc(), DEVICE(obj)->realized);
}

static bool device_set_realized(Object *obj, ObjectProperty *prop,
                                JsonNode *value, Error **errp)
{
    DeviceState *dev = DEVICE(obj);

    if (!JSON_NODE_HOLDS_VALUE(value) ||
        json_node_get_value_type(value) != G_TYPE_BOOLEAN) {
        error_setg(errp, "Invalid parameter type for '%s', expected: boolean",
                   prop->name);
        return false;
    }
    if (json_node_get_boolean(value) && !dev->realized) {
        return device_realize(dev, errp);
    }
    if (!json_node_get_boolean(value)) {
        qdev_unrealize(dev);
    }
    return true;
}

static JsonNode *device_get_hotpluggable(Object *obj, ObjectProperty *prop,
                                         Error **errp)
{
    DeviceState *dev = DEVICE(obj);
    bool v = DEVICE_GET_CLASS(dev)->hotpluggable &&
             (!dev->parent_bus || qbus_is_hotpluggable(dev->parent_bus));

    return json_node_init_boolean(json_node_alloc(), v);
}

static JsonNode *device_get_hotplugged(Object *obj, ObjectProperty *prop,
                                       Error **errp)
{
    return json_node_init_boolean(json_node_alloc(),
                                  DEVICE(obj)->hotplugged);
}

static JsonNode *device_get_parent_bus(Object *obj, ObjectProperty *prop,
                                       Error **errp)
{
    BusState *bus = DEVICE(obj)->parent_bus;
    char *path = bus ? object_get_canonical_path(OBJECT(bus)) : g_strdup("");
    JsonNode *n = json_node_init_string(json_node_alloc(), path);

    g_free(path);
    return n;
}

static void device_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->user_creatable = true;
    dc->hotpluggable = true;
    object_class_property_add(oc, "realized", "bool", device_get_realized,
                              device_set_realized, NULL);
    object_class_property_add(oc, "hotpluggable", "bool",
                              device_get_hotpluggable, NULL, NULL);
    object_class_property_add(oc, "hotplugged", "bool", device_get_hotplugged,
                              NULL, NULL);
    object_class_property_add(oc, "parent_bus", "link<bus>",
                              device_get_parent_bus, NULL, NULL);
}

/* Each class lists its own table: info qtree walks the parents' */
static void device_class_base_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->props_ = NULL;
}

static void device_initfn(Object *obj)
{
    DeviceState *dev = DEVICE(obj);

    dev->gpios = g_ptr_array_new();
    dev->child_bus = g_ptr_array_new();
    dev->hotplugged = machine_ready;
}

static void device_finalize(Object *obj)
{
    DeviceState *dev = DEVICE(obj);
    guint i;

    for (i = 0; i < dev->gpios->len; i++) {
        NamedGPIOList *ngl = g_ptr_array_index(dev->gpios, i);

        g_free(ngl->in);
        g_free(ngl->name);
        g_free(ngl);
    }
    g_ptr_array_free(dev->gpios, TRUE);
    g_ptr_array_free(dev->child_bus, TRUE);
    if (dev->post_init_error) {
        error_free(dev->post_init_error);
    }
    g_free(dev->canonical_path);
    g_free(dev->id);
}

static const TypeInfo device_type_info = {
    .name = TYPE_DEVICE,
    .parent = TYPE_OBJECT,
    .abstract = true,
    .instance_size = sizeof(DeviceState),
    .class_size = sizeof(DeviceClass),
    .class_init = device_class_init,
    .class_base_init = device_class_base_init,
    .instance_init = device_initfn,
    .instance_post_init = device_post_init,
    .instance_finalize = device_finalize,
};

static void qdev_register_types(void)
{
    type_register_static(&device_type_info);
}
type_init(qdev_register_types)
