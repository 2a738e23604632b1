/*
 * The main system bus ("main-system-bus", type "System") and the devices
 * on it (TYPE_SYS_BUS_DEVICE): board devices that are not behind another
 * bus (the PCI host bridge, later the I/O APIC, HPET, fw_cfg).  A device
 * declares its MMIO regions (info qtree lists them, "mmio ADDR/SIZE")
 * and the board maps them; users cannot create them, as in QEMU.
 */
#ifndef HW_SYSBUS_H
#define HW_SYSBUS_H

#include "exec/memory.h"
#include "hw/qdev-core.h"

#define TYPE_SYSTEM_BUS "System"
#define TYPE_SYS_BUS_DEVICE "sys-bus-device"

#define QDEV_MAX_MMIO 32
/* A sysbus device's interrupt outputs: QEMU's gpio-out "sysbus-irq" */
#define SYSBUS_DEVICE_GPIO_IRQ "sysbus-irq"

typedef struct SysBusDevice {
    DeviceState parent_obj;

    int num_mmio;
    struct {
        hwaddr addr;            /* -1 while unmapped */
        MemoryRegion *memory;
    } mmio[QDEV_MAX_MMIO];
} SysBusDevice;

#define SYS_BUS_DEVICE(obj) ((SysBusDevice *)(obj))

/* The main system bus, at /machine/unattached/sysbus (created on use) */
BusState *sysbus_get_default(void);

void sysbus_init_mmio(SysBusDevice *dev, MemoryRegion *mr);
/* Maps MMIO region n into system memory at addr */
void sysbus_mmio_map(SysBusDevice *dev, int n, hwaddr addr);
/* Maps an I/O region into the I/O address space at addr */
void sysbus_add_io(SysBusDevice *dev, hwaddr addr, MemoryRegion *mr);
bool sysbus_realize_and_unref(SysBusDevice *dev, Error **errp);

#endif
