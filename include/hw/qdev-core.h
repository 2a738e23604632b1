/*
 * Devices and buses, the way QEMU's qdev does them (docs/devices.md).
 *
 * A device is a QOM type under TYPE_DEVICE ("device").  Its class holds a
 * property table (hw/qdev-properties.h), realize/unrealize/reset, the bus
 * type it plugs into, whether users may create it (-device, device_add)
 * and hot-plug it, a description and categories for -device help.  An
 * instance is created (qdev_new), gets its properties (the class
 * defaults, then machine compat entries and -global at instance
 * post-init, then the creator's own), and is realized onto a bus
 * (qdev_realize), which is when it claims ports, memory and lines.
 * After that its properties are fixed: setting one fails with QEMU's
 * "Attempt to set property ... after it was realized".
 *
 * Buses are QOM objects too (TYPE_BUS), children of the device that
 * provides them, named as QEMU names them: "isa.0" (the bus type in lower
 * case and a per-type counter) unless the provider gives a name
 * ("main-system-bus", "pcie.0").  Devices on a bus are listed newest
 * first, as QEMU lists them; a bus may limit how many it takes.
 *
 * Composition: a device the board creates goes to /machine/unattached
 * as "device[N]" when realized (unless already placed elsewhere); a user
 * device to /machine/peripheral/ID or /machine/peripheral-anon/device[N].
 *
 * Reset: qemu_devices_reset() walks the tree from the main system bus,
 * each device after the devices on its own buses, children of a bus in
 * its list order.  The board calls it once when the machine is built and
 * on every machine reset.
 *
 * Interrupt lines (GPIOs): a device declares input lines with a handler
 * and output pins (qemu_irq slots); the board connects outputs to other
 * devices' inputs.  info qtree lists them as QEMU does.
 */
#ifndef HW_QDEV_CORE_H
#define HW_QDEV_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "qom/object.h"

#define TYPE_DEVICE "device"
#define TYPE_BUS "bus"

typedef struct DeviceState DeviceState;
typedef struct BusState BusState;
typedef struct Property Property;
typedef struct IRQState *qemu_irq;

/* -device help's groups, in its order (QEMU 7.2's) */
typedef enum DeviceCategory {
    DEVICE_CATEGORY_BRIDGE,
    DEVICE_CATEGORY_USB,
    DEVICE_CATEGORY_STORAGE,
    DEVICE_CATEGORY_NETWORK,
    DEVICE_CATEGORY_INPUT,
    DEVICE_CATEGORY_DISPLAY,
    DEVICE_CATEGORY_SOUND,
    DEVICE_CATEGORY_MISC,
    DEVICE_CATEGORY_CPU,
    DEVICE_CATEGORY_WATCHDOG,
    DEVICE_CATEGORY_MAX,
} DeviceCategory;

typedef bool DeviceRealize(DeviceState *dev, Error **errp);
typedef void DeviceUnrealize(DeviceState *dev);
typedef void DeviceReset(DeviceState *dev);

typedef struct DeviceClass {
    ObjectClass parent_class;

    unsigned categories;        /* 1u << DeviceCategory, for -device help */
    const char *desc;
    Property *props_;           /* device_class_set_props() */
    const char *bus_type;       /* NULL: on no bus */
    bool user_creatable;        /* -device, device_add */
    bool hotpluggable;          /* device_add/del at run time (on a bus
                                 * that supports it) */
    /*
     * The type applies compat entries and -global itself, later than
     * instance post-init (X86CPU does, after loading its model)
     */
    bool globals_applied_by_type;
    /*
     * Makes the instance for -device/device_add (NULL: object_new): X86CPU
     * loads its model and the machine's -cpu options there
     */
    DeviceState *(*create)(ObjectClass *oc, Error **errp);
    DeviceRealize *realize;
    DeviceUnrealize *unrealize;
    DeviceReset *reset;
} DeviceClass;

/* A named group of lines: "" (QEMU's unnamed) or e.g. "a20" */
typedef struct NamedGPIOList {
    char *name;                 /* NULL: unnamed */
    qemu_irq *in;
    int num_in;
    int num_out;
} NamedGPIOList;

struct DeviceState {
    Object parent_obj;

    char *id;                   /* user's id; NULL for board devices */
    bool realized;
    bool hotplugged;            /* realized after the machine was built */
    bool pending_deletion_event;
    char *canonical_path;       /* kept for DEVICE_DELETED */
    Error *post_init_error;     /* a global that failed; realize reports */
    BusState *parent_bus;
    GPtrArray *gpios;           /* NamedGPIOList*, newest first */
    GPtrArray *child_bus;       /* BusState*, newest first */
};

typedef struct BusClass {
    ObjectClass parent_class;

    /* info qtree's per-device lines this bus adds (sysbus: mmio) */
    void (*print_dev)(GString *out, DeviceState *dev, int indent);
    /* Refuses a device the bus cannot take where it asks to be */
    bool (*check_address)(BusState *bus, DeviceState *dev, Error **errp);
    int max_dev;                /* 0: no limit */
    int automatic_ids;          /* the next "<type>.N" */
    /* A cold reset of the bus: before its devices', and after them */
    void (*reset_enter)(BusState *bus);
    void (*reset)(BusState *bus);
} BusClass;

/* Who may plug devices into a bus at run time, and how */
typedef struct HotplugHandlerOps {
    /* Before the device's realize: refuses what cannot be plugged */
    bool (*pre_plug)(Object *handler, DeviceState *dev, Error **errp);
    bool (*plug)(Object *handler, DeviceState *dev, Error **errp);
    /* Asks the guest (or does it at once, calling qdev_unplug_complete) */
    bool (*unplug_request)(Object *handler, DeviceState *dev, Error **errp);
} HotplugHandlerOps;

typedef struct BusChild {
    DeviceState *child;
    int index;                  /* the bus's "child[N]" link */
} BusChild;

struct BusState {
    Object parent_obj;

    DeviceState *parent;
    char *name;
    Object *hotplug_handler;    /* NULL: no hotplug on this bus */
    const HotplugHandlerOps *hotplug_ops;
    bool realized;
    int max_index;
    GPtrArray *children;        /* BusChild*, newest first */
};

#define DEVICE(obj) ((DeviceState *)(obj))
#define DEVICE_CLASS(oc) ((DeviceClass *)(oc))
#define DEVICE_GET_CLASS(obj) DEVICE_CLASS(OBJECT_GET_CLASS(obj))
#define BUS(obj) ((BusState *)(obj))
#define BUS_CLASS(oc) ((BusClass *)(oc))
#define BUS_GET_CLASS(obj) BUS_CLASS(OBJECT_GET_CLASS(obj))

/* Devices ----------------------------------------------------------------- */

DeviceState *qdev_new(const char *name);
/* Plugs dev into bus (NULL: none) and realizes it */
bool qdev_realize(DeviceState *dev, BusState *bus, Error **errp);
/* The same, and drops the creator's reference (the tree keeps one) */
bool qdev_realize_and_unref(DeviceState *dev, BusState *bus, Error **errp);
void qdev_unrealize(DeviceState *dev);
/* Takes dev off the composition tree and its bus; DEVICE_DELETED */
void qdev_unparent(DeviceState *dev);

/* The device's id, or NULL */
const char *qdev_get_id(DeviceState *dev);
/*
 * A user's device: /machine/peripheral/ID, or peripheral-anon/device[N]
 * without an id; false with QEMU's "Duplicate device ID" if taken
 */
bool qdev_set_id(DeviceState *dev, const char *id, Error **errp);
/* Board objects (devices, vCPUs): /machine/unattached/device[N] */
void qdev_add_unattached(Object *obj);

/*
 * A device's property setter calls this first: false with QEMU's error
 * once the device is realized
 */
bool qdev_prop_allow_set(Object *obj, const char *name, Error **errp);

void device_class_set_props(DeviceClass *dc, Property *props);

/* Cold reset of dev: the devices on its buses first, then dev */
void device_cold_reset(DeviceState *dev);
/* Cold reset of every device on the main system bus, recursively */
void qemu_devices_reset(void);

/*
 * Global properties, applied to every device (but the types that do it
 * themselves) at instance post-init: the machine's compat entries, then
 * -global.  Set by vl.c once the machine type is known.
 */
void qdev_set_compat_props(const GPtrArray *compat);
void qdev_set_global_props(GPtrArray *globals);
GPtrArray *qdev_get_global_props(void);
/*
 * A default the board sets for every device of driver (QEMU's sugar
 * properties): after the compat entries, before -global; static strings
 */
void qdev_add_board_global(const char *driver, const char *property,
                           const char *value);
/*
 * After the machine is built: "global D.P has invalid class name" for a
 * driver that is no device type, "global D.P=V not used" for a
 * non-hotpluggable device type nothing took it for (QEMU 7.2's warnings).
 * Drivers in silent_types (NULL-terminated, or NULL) are not warned about.
 */
void qdev_prop_check_globals(const char *const *silent_types);
/* True once the board and -device are done: device_add is hotplug now */
bool qdev_machine_ready(void);
void qdev_machine_creation_done(void);

/* Interrupt lines ---------------------------------------------------------- */

typedef void qemu_irq_handler(void *opaque, int n, int level);

void qdev_init_gpio_in(DeviceState *dev, qemu_irq_handler *handler, int n);
void qdev_init_gpio_in_named(DeviceState *dev, qemu_irq_handler *handler,
                             const char *name, int n);
/* pins[0..n-1] are set when the board connects them (NULL: unconnected) */
void qdev_init_gpio_out(DeviceState *dev, qemu_irq *pins, int n);
void qdev_init_gpio_out_named(DeviceState *dev, qemu_irq *pins,
                              const char *name, int n);
qemu_irq qdev_get_gpio_in(DeviceState *dev, int n);
qemu_irq qdev_get_gpio_in_named(DeviceState *dev, const char *name, int n);
void qdev_connect_gpio_out(DeviceState *dev, int n, qemu_irq irq);
void qdev_connect_gpio_out_named(DeviceState *dev, const char *name, int n,
                                 qemu_irq irq);

/* Buses -------------------------------------------------------------------- */

/* A bus of typename provided by parent (NULL: a root, as the sysbus) */
BusState *qbus_new(const char *typename, DeviceState *parent,
                   const char *name);
bool qbus_is_hotpluggable(BusState *bus);
bool qbus_is_full(BusState *bus);
void qbus_set_hotplug_handler(BusState *bus, Object *handler,
                              const HotplugHandlerOps *ops);
/*
 * The first bus at or below bus (depth first, in list order) named name
 * (if given) or of bus_typename (if given) and not full
 */
/* dev's bus called name, or NULL */
BusState *qdev_get_child_bus(DeviceState *dev, const char *name);
BusState *qbus_find_recursive(BusState *bus, const char *name,
                              const char *bus_typename);
/* bus= of -device: a bus name, or a path to one */
BusState *qbus_find(const char *path, Error **errp);
/* The device of this id below bus, or NULL */
DeviceState *qdev_find_recursive(BusState *bus, const char *id);
/*
 * The machine's handler for devices on no bus (QEMU's
 * get_hotplug_handler; the PC boards take vCPUs): handler_for returns
 * the handler of dev, or NULL
 */
void qdev_set_machine_hotplug_handler(
    Object *(*handler_for)(DeviceState *dev, const HotplugHandlerOps **ops));
/* dev's handler: its bus's, else the machine's for bus-less devices */
Object *qdev_get_hotplug_handler(DeviceState *dev,
                                 const HotplugHandlerOps **ops);
/* A new instance of oc for -device/device_add (DeviceClass.create) */
DeviceState *qdev_new_for_user(ObjectClass *oc, Error **errp);
/* Called by a hotplug handler once an unplug is done */
void qdev_unplug_complete(DeviceState *dev);

/* info qtree, QEMU 7.2's layout, from the main system bus */
void qdev_print_tree(GString *out);

#endif
