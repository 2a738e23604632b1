/*
 * The USB bus ("usb-bus") a host controller provides and the root ports
 * it registers on it (hw/usb/bus.c), in QEMU 7.2's shape: a controller
 * realizes its bus as a child of itself (named "ID.0", or "usb-bus.0"
 * without an id) and registers each root port with the speeds it
 * carries.  USB devices ("usb-device", abstract here until the first
 * one lands) attach to a free port; the controller learns of it through
 * the port's ops.
 */
#ifndef HW_USB_USB_H
#define HW_USB_USB_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/qdev-core.h"

#define TYPE_USB_BUS "usb-bus"
#define TYPE_USB_DEVICE "usb-device"

#define USB_SPEED_LOW    0
#define USB_SPEED_FULL   1
#define USB_SPEED_HIGH   2
#define USB_SPEED_SUPER  3

#define USB_SPEED_MASK_LOW   (1 << USB_SPEED_LOW)
#define USB_SPEED_MASK_FULL  (1 << USB_SPEED_FULL)
#define USB_SPEED_MASK_HIGH  (1 << USB_SPEED_HIGH)
#define USB_SPEED_MASK_SUPER (1 << USB_SPEED_SUPER)

typedef struct USBDevice USBDevice;
typedef struct USBPort USBPort;

typedef struct USBPortOps {
    void (*attach)(USBPort *port);      /* port->dev is set */
    void (*detach)(USBPort *port);      /* port->dev is still set */
    void (*wakeup)(USBPort *port);      /* remote wakeup, may be NULL */
} USBPortOps;

struct USBPort {
    USBDevice *dev;             /* NULL: nothing attached */
    int speedmask;              /* USB_SPEED_MASK_* the port carries */
    int index;                  /* the controller's own numbering */
    void *opaque;               /* the controller */
    const USBPortOps *ops;
    char path[16];              /* QEMU's port path: "1", "2", ... */
};

struct USBDevice {
    DeviceState parent_obj;
    USBPort *port;              /* NULL: not attached */
    int speed;                  /* USB_SPEED_* */
};

typedef struct USBBus {
    BusState parent_obj;
    GPtrArray *ports;           /* USBPort*, in registration order */
} USBBus;

#define USB_BUS(obj) ((USBBus *)(obj))
#define USB_DEVICE(obj) ((USBDevice *)(obj))

USBBus *usb_bus_new(DeviceState *controller);
/* A root port: its path is its 1-based position on the bus */
void usb_register_port(USBBus *bus, USBPort *port, void *opaque, int index,
                       const USBPortOps *ops, int speedmask);
void usb_unregister_port(USBBus *bus, USBPort *port);

#endif
