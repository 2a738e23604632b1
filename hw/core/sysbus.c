/*
 * The main system bus and TYPE_SYS_BUS_DEVICE (include/hw/sysbus.h).
 */
#include <inttypes.h>

#include "hw/sysbus.h"

static BusState *main_system_bus;

BusState *sysbus_get_default(void)
{
    Object *unattached;

    if (!main_system_bus) {
        main_system_bus = qbus_new(TYPE_SYSTEM_BUS, NULL, "main-system-bus");
        unattached = object_resolve_path("/machine/unattached");
        if (unattached) {
            object_property_add_child(unattached, "sysbus",
                                      OBJECT(main_system_bus));
        }
    }
    return main_system_bus;
}

void sysbus_init_mmio(SysBusDevice *dev, MemoryRegion *mr)
{
    int n = dev->num_mmio++;

    g_assert(n < QDEV_MAX_MMIO);
    dev->mmio[n].addr = (hwaddr)-1;
    dev->mmio[n].memory = mr;
}

void sysbus_mmio_map(SysBusDevice *dev, int n, hwaddr addr)
{
    g_assert(n >= 0 && n < dev->num_mmio);
    if (dev->mmio[n].addr == addr) {
        return;
    }
    if (dev->mmio[n].addr != (hwaddr)-1) {
        memory_region_del_subregion(get_system_memory(),
                                    dev->mmio[n].memory);
    }
    dev->mmio[n].addr = addr;
    memory_region_add_subregion(get_system_memory(), addr,
                                dev->mmio[n].memory);
}

void sysbus_add_io(SysBusDevice *dev, hwaddr addr, MemoryRegion *mr)
{
    memory_region_add_subregion(get_system_io(), addr, mr);
}

bool sysbus_realize_and_unref(SysBusDevice *dev, Error **errp)
{
    return qdev_realize_and_unref(DEVICE(dev), sysbus_get_default(), errp);
}

/* info qtree: "mmio ADDR/SIZE" per region, as QEMU prints it */
static void sysbus_dev_print(GString *out, DeviceState *dev, int indent)
{
    SysBusDevice *s = SYS_BUS_DEVICE(dev);
    int i;

    for (i = 0; i < s->num_mmio; i++) {
        g_string_append_printf(out, "%*smmio %016" PRIx64 "/%016" PRIx64 "\n",
                               indent, "", s->mmio[i].addr,
                               memory_region_size(s->mmio[i].memory));
    }
}

static void system_bus_class_init(ObjectClass *oc, void *data)
{
    BUS_CLASS(oc)->print_dev = sysbus_dev_print;
}

static void sysbus_device_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->bus_type = TYPE_SYSTEM_BUS;
    /* Its lines and regions need a board to connect them */
    dc->user_creatable = false;
}

static const TypeInfo system_bus_info = {
    .name = TYPE_SYSTEM_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(BusState),
    .class_init = system_bus_class_init,
};

static const TypeInfo sysbus_device_info = {
    .name = TYPE_SYS_BUS_DEVICE,
    .parent = TYPE_DEVICE,
    .abstract = true,
    .instance_size = sizeof(SysBusDevice),
    .class_init = sysbus_device_class_init,
};

static void sysbus_register_types(void)
{
    type_register_static(&system_bus_info);
    type_register_static(&sysbus_device_info);
}
type_init(sysbus_register_types)
