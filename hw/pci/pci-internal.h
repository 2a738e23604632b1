/*
 * What the files of hw/pci/ share: pci.c (devices, config space, buses)
 * and pci-irq.c (INTx).
 */
#ifndef HW_PCI_PCI_INTERNAL_H
#define HW_PCI_PCI_INTERNAL_H

#include "hw/pci/pci.h"

PCIBus *pci_device_bus(PCIDevice *dev);
/* What the bus sees: the device's level unless INTx is disabled */
int pci_irq_visible(PCIDevice *dev);
/* The device's INTx line moves by change (nothing for 0) */
void pci_bus_change_irq(PCIDevice *dev, int change);
/* After a command register write: INTx disable was was */
void pci_update_intx_disabled(PCIDevice *dev, bool was);
/* Deasserts the device's INTx */
void pci_reset_intx(PCIDevice *dev);
/* The PCI bus's reset hooks: INTx after every device's own reset */
void pci_bus_reset_enter(BusState *qbus);
void pci_bus_reset(BusState *qbus);
/* A bridge's secondary bus: pin (slot + pin) % 4 of the bridge's */
int pci_swizzle_map_irq(PCIDevice *dev, int pin);

#endif
