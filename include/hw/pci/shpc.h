/*
 * The Standard Hot-Plug Controller of pci-bridge and pcie-pci-bridge
 * (hw/pci/shpc.c): its register file in a BAR ("shpc-mmio") and the SHPC
 * capability's dword window onto it, as QEMU 7.2 has them — 31 slots
 * (devices 1..31 of the secondary bus), reset values, write masks and
 * the commands (slot state and LEDs, bus speed, all slots on).  Not
 * modelled: its interrupt (no MSI delivery here), device_add into a slot.
 */
#ifndef HW_PCI_SHPC_H
#define HW_PCI_SHPC_H

#include "hw/pci/pci.h"

typedef struct SHPCDevice {
    PCIDevice *dev;
    PCIBus *sec_bus;
    int nslots;
    uint8_t cap;
    uint8_t *config, *wmask, *w1cmask;
    MemoryRegion mmio;
    bool msi_requested;    /* the interrupt level last signalled */
} SHPCDevice;

/* The capability and the registers, mapped at offset of bar */
int shpc_init(SHPCDevice *shpc, PCIDevice *dev, PCIBus *sec_bus,
              MemoryRegion *bar, Error **errp);
void shpc_cleanup(SHPCDevice *shpc, MemoryRegion *bar);
/* The BAR the registers need: a power of two */
uint64_t shpc_bar_size(void);
void shpc_reset(SHPCDevice *shpc);
void shpc_cap_write_config(SHPCDevice *shpc, uint32_t addr, uint32_t val,
                           int len);

#endif
