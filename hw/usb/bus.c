/*
 * The USB bus and its root ports (include/hw/usb/usb.h)
 */
#include "hw/usb/usb.h"

#include <stdio.h>

USBBus *usb_bus_new(DeviceState *controller)
{
    return USB_BUS(qbus_new(TYPE_USB_BUS, controller, NULL));
}

void usb_register_port(USBBus *bus, USBPort *port, void *opaque, int index,
                       const USBPortOps *ops, int speedmask)
{
    port->dev = NULL;
    port->opaque = opaque;
    port->index = index;
    port->ops = ops;
    port->speedmask = speedmask;
    g_ptr_array_add(bus->ports, port);
    snprintf(port->path, sizeof(port->path), "%u", bus->ports->len);
}

void usb_unregister_port(USBBus *bus, USBPort *port)
{
    if (port->dev && port->ops->detach) {
        port->ops->detach(port);
    }
    if (port->dev) {
        port->dev->port = NULL;
        port->dev = NULL;
    }
    g_ptr_array_remove(bus->ports, port);
}

static void usb_bus_init(Object *obj)
{
    USB_BUS(obj)->ports = g_ptr_array_new();
}

static void usb_bus_finalize(Object *obj)
{
    g_ptr_array_free(USB_BUS(obj)->ports, true);
}

static void usb_device_class_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->bus_type = TYPE_USB_BUS;
}

static const TypeInfo usb_bus_info = {
    .name = TYPE_USB_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(USBBus),
    .instance_init = usb_bus_init,
    .instance_finalize = usb_bus_finalize,
};

static const TypeInfo usb_device_info = {
    .name = TYPE_USB_DEVICE,
    .parent = TYPE_DEVICE,
    .abstract = true,
    .instance_size = sizeof(USBDevice),
    .class_size = sizeof(DeviceClass),
    .class_init = usb_device_class_init,
};

static void usb_register_types(void)
{
    type_register_static(&usb_bus_info);
    type_register_static(&usb_device_info);
}
type_init(usb_register_types)
