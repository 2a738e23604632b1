/*
 * ACPI PCI hotplug ("acpi-pci-hotplug", 24 bytes of 32-bit registers) as
 * QEMU 7.2's PIIX4_PM (0xae00) and ICH9-LPC (0xcc0) have it; QEMU's
 * docs/specs/acpi_pci_hotplug.rst describes it.  Each hot-pluggable PCI
 * bus gets a number at the first reset, its "acpi-pcihp-bsel" property
 * (depth first from the root bus, the newest bridge first, as 7.2); the
 * registers speak of the bus the selector names:
 *   0x00 PCIU  slots with a device plugged (read clears, but on legacy
 *              PIIX, i.e. without bridge support)
 *   0x04 PCID  slots with an unplug request
 *   0x08 B0EJ  write: ejects the devices of the lowest slot set; reads 0
 *   0x0c PCIRMV slots whose device may go (a device not hotpluggable or a
 *              coldplugged bridge clears its slot's bit)
 *   0x10 BNUM  the selector (legacy PIIX: always 0)
 *   0x14 PCIAIDX  write a slot bit, read its device's acpi-index (once)
 * Any access but a 32-bit one reads 0 and writes nothing.
 *
 * The PM device is the hot-plug handler of the root bus (unless root
 * hotplug is off: acpi-root-pci-hotplug=off, or ICH9, whose root bus has
 * none from the first reset) and, with bridge support, of the buses of
 * the bridges coldplugged there (but PCIe slots with hotplug=off).  A
 * device_add there sets PCIU and GPE0 bit 1; device_del sets PCID and GPE0
 * bit 1 and waits for the guest's eject.
 */
#ifndef HW_ACPI_PCIHP_H
#define HW_ACPI_PCIHP_H

#include "exec/memory.h"
#include "hw/acpi/pm-block.h"
#include "hw/pci/pci.h"

#define ACPI_PCIHP_SIZE 0x18
#define ACPI_PCIHP_MAX_HOTPLUG_BUS 256
#define PIIX4_PCIHP_IO_BASE 0xae00
#define ICH9_PCIHP_IO_BASE 0xcc0
#define ACPI_PCIHP_PROP_BSEL "acpi-pcihp-bsel"

typedef struct AcpiPciHpPciStatus {
    uint32_t up, down, hotplug_enable;
} AcpiPciHpPciStatus;

typedef struct AcpiPciHpState {
    GMutex lock;
    Object *owner;
    AcpiPMBlock *block;         /* whose GPE0 the events go to */
    PCIBus *root;
    MemoryRegion io;
    bool realized;
    bool legacy_piix;           /* no bridge support: BNUM stays 0 */
    uint32_t hotplug_select;
    uint32_t acpi_index;        /* for the next PCIAIDX read */
    uint16_t io_base, io_len;   /* acpi-pcihp-io-base, -io-len */
    AcpiPciHpPciStatus status[ACPI_PCIHP_MAX_HOTPLUG_BUS];
} AcpiPciHpState;

/*
 * The block at io_base in the I/O space, the owner's properties
 * acpi-pcihp-io-base/-io-len; registers it as the board's
 */
bool acpi_pcihp_realize(AcpiPciHpState *s, Object *owner, AcpiPMBlock *block,
                        PCIBus *root, bool bridges, uint16_t io_base,
                        Error **errp);
void acpi_pcihp_unrealize(AcpiPciHpState *s);
/* The owner's reset: root_off takes the root bus's handler away */
void acpi_pcihp_reset(AcpiPciHpState *s, bool root_off);
/* The owner becomes the hot-plug handler of bus */
void acpi_pcihp_own_bus(Object *owner, PCIBus *bus);

#endif
