/*
 * The ISA bus ("ISA", named "isa.0") and ISA devices ("isa-device").
 *
 * An ISA device claims ports in the bus's I/O space (the machine's "I/O"
 * address space) with isa_register_ioport() and takes its interrupt line
 * from the bus by ISA IRQ number.  The bus has no hotplug handler, so
 * device_add and device_del of ISA devices fail with QEMU 7.2's "Bus
 * 'isa.0' does not support hotplugging".
 *
 * The bus hangs off a bridge: PIIX3 or ICH9-LPC in QEMU's PCs; until
 * this tree has them, "isabus-bridge", QEMU's own bridge for boards
 * without a PCI-to-ISA bridge, on the main system bus.
 */
#ifndef HW_ISA_ISA_H
#define HW_ISA_ISA_H

#include "exec/memory.h"
#include "hw/irq.h"
#include "hw/qdev-core.h"

#define TYPE_ISA_BUS "ISA"
#define TYPE_ISA_DEVICE "isa-device"
#define TYPE_ISABUS_BRIDGE "isabus-bridge"

#define ISA_NUM_IRQS 16

typedef struct ISABus {
    BusState parent_obj;
    MemoryRegion *address_space;    /* memory: the PC's PCI memory */
    MemoryRegion *address_space_io;
    qemu_irq irqs[ISA_NUM_IRQS];
} ISABus;

typedef struct ISADevice {
    DeviceState parent_obj;
} ISADevice;

#define ISA_BUS(obj) ((ISABus *)(obj))
#define ISA_DEVICE(obj) ((ISADevice *)(obj))

/*
 * The machine's ISA bus on bridge (NULL: an isabus-bridge is made),
 * memory in address_space (the bridge's PCI memory on the PC), ports in
 * address_space_io.  One per machine: a second is refused with
 * QEMU's "Can't create a second ISA bus".
 */
ISABus *isa_bus_new(DeviceState *bridge, MemoryRegion *address_space,
                    MemoryRegion *address_space_io, Error **errp);
/* The machine's ISA bus, or NULL */
ISABus *isa_bus_get_default(void);
/* Connects ISA IRQ i to irqs[i] (the board's GSI lines) */
void isa_bus_irqs(ISABus *bus, qemu_irq *irqs);

/* ISA IRQ n of dev's bus, or NULL if n is no ISA IRQ (0-15) */
qemu_irq isa_get_irq(ISADevice *dev, unsigned n);
/* Maps io at port start in the bus's I/O space */
void isa_register_ioport(ISADevice *dev, MemoryRegion *io, uint16_t start);
MemoryRegion *isa_address_space_io(ISADevice *dev);
/* Where an ISA device maps memory (QEMU's isa_address_space) */
MemoryRegion *isa_address_space(ISADevice *dev);

/* Creates, realizes and drops a board device on the ISA bus */
ISADevice *isa_new(const char *name);
bool isa_realize_and_unref(ISADevice *dev, ISABus *bus, Error **errp);

#endif
