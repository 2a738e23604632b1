/*
 * The ISA bus and ISA devices (include/hw/isa/isa.h).
 */
#include "hw/isa/isa.h"
#include "hw/sysbus.h"

static ISABus *isabus;

ISABus *isa_bus_new(DeviceState *bridge, MemoryRegion *address_space,
                    MemoryRegion *address_space_io, Error **errp)
{
    if (isabus) {
        error_setg(errp, "Can't create a second ISA bus");
        return NULL;
    }
    if (!bridge) {
        bridge = qdev_new(TYPE_ISABUS_BRIDGE);
        if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(bridge), errp)) {
            return NULL;
        }
    }
    isabus = ISA_BUS(qbus_new(TYPE_ISA_BUS, bridge, NULL));
    isabus->address_space = address_space;
    isabus->address_space_io = address_space_io;
    return isabus;
}

ISABus *isa_bus_get_default(void)
{
    return isabus;
}

void isa_bus_irqs(ISABus *bus, qemu_irq *irqs)
{
    int i;

    for (i = 0; i < ISA_NUM_IRQS; i++) {
        bus->irqs[i] = irqs[i];
    }
}

static ISABus *isa_device_bus(ISADevice *dev)
{
    return ISA_BUS(DEVICE(dev)->parent_bus);
}

qemu_irq isa_get_irq(ISADevice *dev, unsigned n)
{
    ISABus *bus = dev ? isa_device_bus(dev) : isabus;

    return bus && n < ISA_NUM_IRQS ? bus->irqs[n] : NULL;
}

MemoryRegion *isa_address_space_io(ISADevice *dev)
{
    return isa_device_bus(dev)->address_space_io;
}

MemoryRegion *isa_address_space(ISADevice *dev)
{
    return isa_device_bus(dev)->address_space;
}

void isa_register_ioport(ISADevice *dev, MemoryRegion *io, uint16_t start)
{
    memory_region_add_subregion(isa_address_space_io(dev), start, io);
}

ISADevice *isa_new(const char *name)
{
    return ISA_DEVICE(qdev_new(name));
}

bool isa_realize_and_unref(ISADevice *dev, ISABus *bus, Error **errp)
{
    return qdev_realize_and_unref(DEVICE(dev), BUS(bus), errp);
}

static void isa_device_class_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->bus_type = TYPE_ISA_BUS;
}

static void isabus_bridge_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    dc->user_creatable = false;
}

static const TypeInfo isa_bus_info = {
    .name = TYPE_ISA_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(ISABus),
};

static const TypeInfo isa_device_info = {
    .name = TYPE_ISA_DEVICE,
    .parent = TYPE_DEVICE,
    .abstract = true,
    .instance_size = sizeof(ISADevice),
    .class_init = isa_device_class_init,
};

static const TypeInfo isabus_bridge_info = {
    .name = TYPE_ISABUS_BRIDGE,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(SysBusDevice),
    .class_init = isabus_bridge_class_init,
};

static void isa_register_types(void)
{
    type_register_static(&isa_bus_info);
    type_register_static(&isa_device_info);
    type_register_static(&isabus_bridge_info);
}
type_init(isa_register_types)
