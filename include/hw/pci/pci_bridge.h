/*
 * PCI-to-PCI bridges (hw/pci/pci_bridge.c, docs/devices.md "Bridges"):
 * the abstract base type of every bridge function with a type 1 header.
 *
 * A bridge provides a secondary bus, named by its id as in QEMU 7.2
 * ("-device pcie-root-port,id=rp1" makes bus "rp1"), whose devices'
 * BARs live in the bridge's own spaces, "pci_bridge_pci" (memory) and
 * "pci_bridge_io".  The guest's windows (I/O, memory, prefetchable
 * memory base/limit, and VGA in the bridge control register) decide what
 * of them shows in the parent bus's spaces: alias regions
 * "pci_bridge_io", "pci_bridge_mem", "pci_bridge_pref_mem" (and the VGA
 * ranges) at priority 1, made again on every write that touches them.
 */
#ifndef HW_PCI_PCI_BRIDGE_H
#define HW_PCI_PCI_BRIDGE_H

#include "hw/pci/pci.h"

#define TYPE_PCI_BRIDGE "base-pci-bridge"

typedef struct PCIBridge {
    PCIDevice parent_obj;

    PCIBus *sec_bus;
    MemoryRegion address_space_mem;     /* "pci_bridge_pci" */
    MemoryRegion address_space_io;      /* "pci_bridge_io" */
    MemoryRegion alias_pref_mem, alias_mem, alias_io;
    MemoryRegion alias_vga_mem, alias_vga_io_lo, alias_vga_io_hi;
    bool vga_mapped;
} PCIBridge;

#define PCI_BRIDGE(obj) ((PCIBridge *)(obj))

/*
 * For a bridge's realize, after its header is set up: makes the
 * secondary bus (of bus_type: TYPE_PCI_BUS or TYPE_PCIE_BUS) and the
 * windows as the registers say
 */
void pci_bridge_initfn(PCIDevice *dev, const char *bus_type);
void pci_bridge_exitfn(PCIDevice *dev);
/* The config_write of every bridge (its own wrap it) */
void pci_bridge_write_config(PCIDevice *dev, uint32_t addr, uint32_t val,
                             int len);
/* Reset of the type 1 registers (bus numbers, windows, bridge control) */
void pci_bridge_reset(DeviceState *dev);
/* Windows that forward nothing: base above limit (PCIe ports' reset) */
void pci_bridge_disable_base_limit(PCIDevice *dev);

/* What -device ...,bus-reserve=,io-reserve=... ask firmware to keep free */
typedef struct PCIResReserve {
    uint32_t bus;
    uint64_t io, mem_non_pref, mem_pref_32, mem_pref_64;
} PCIResReserve;

/* QEMU's vendor-specific capability carrying them (none if all unset) */
bool pci_bridge_qemu_reserve_cap_init(PCIDevice *dev, const PCIResReserve *r,
                                      Error **errp);

/* The bridge subsystem vendor ID capability; its offset or -1 */
int pci_bridge_ssvid_init(PCIDevice *dev, uint8_t offset, uint16_t svid,
                          uint16_t ssid, Error **errp);

/* Window base and limit as the registers say (type: a BAR's low bits) */
uint64_t pci_bridge_get_base(PCIDevice *bridge, uint8_t type);
uint64_t pci_bridge_get_limit(PCIDevice *bridge, uint8_t type);

#endif
