/*
 * The PCI core (hw/pci/pci.c): PCI and PCIe buses, the PCI device type
 * with its configuration space model, and configuration access for host
 * bridges.  See docs/devices.md, "PCI".
 *
 * Each function's configuration space is four byte arrays the size of the
 * space (256 bytes, 4 KiB on PCIe): config (the values), wmask (the bits
 * a guest write changes), w1cmask (the bits a guest write of 1 clears)
 * and used (bytes taken by a capability).  A device states its IDs, BARs
 * and capabilities; the core does the rest.
 */
#ifndef HW_PCI_PCI_H
#define HW_PCI_PCI_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/memory.h"
#include "hw/qdev-core.h"

#define TYPE_PCI_BUS "PCI"
#define TYPE_PCIE_BUS "PCIE"
#define TYPE_PCI_DEVICE "pci-device"

#define PCI_CONFIG_SPACE_SIZE 0x100
#define PCIE_CONFIG_SPACE_SIZE 0x1000
#define PCI_NUM_REGIONS 7               /* six BARs and the ROM */
#define PCI_ROM_SLOT 6
#define PCI_BAR_UNMAPPED UINT64_MAX

/* Configuration header offsets and bits */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define  PCI_COMMAND_IO 0x1
#define  PCI_COMMAND_MEMORY 0x2
#define  PCI_COMMAND_MASTER 0x4
#define  PCI_COMMAND_SERR 0x100
#define  PCI_COMMAND_INTX_DISABLE 0x400
#define PCI_STATUS 0x06
#define  PCI_STATUS_INTERRUPT 0x08
#define  PCI_STATUS_CAP_LIST 0x10
#define  PCI_STATUS_66MHZ 0x20
#define  PCI_STATUS_FAST_BACK 0x80
#define  PCI_STATUS_DEVSEL_MEDIUM 0x200
#define  PCI_STATUS_W1C 0xf900          /* parity..detected parity error */
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_CLASS_DEVICE 0x0a
#define PCI_CACHE_LINE_SIZE 0x0c
#define PCI_LATENCY_TIMER 0x0d
#define PCI_HEADER_TYPE 0x0e
#define  PCI_HEADER_TYPE_MULTI_FUNCTION 0x80
#define PCI_BASE_ADDRESS_0 0x10
#define  PCI_BASE_ADDRESS_SPACE_IO 0x01
#define  PCI_BASE_ADDRESS_MEM_TYPE_64 0x04
#define  PCI_BASE_ADDRESS_MEM_PREFETCH 0x08
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_ROM_ADDRESS 0x30
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_INTERRUPT_PIN 0x3d
#define PCI_CONFIG_HEADER_SIZE 0x40
#define  PCI_HEADER_TYPE_BRIDGE 0x01

/* The type 1 (PCI-to-PCI bridge) header */
#define PCI_PRIMARY_BUS 0x18
#define PCI_SECONDARY_BUS 0x19
#define PCI_SUBORDINATE_BUS 0x1a
#define PCI_SEC_LATENCY_TIMER 0x1b
#define PCI_IO_BASE 0x1c
#define PCI_IO_LIMIT 0x1d
#define  PCI_IO_RANGE_TYPE_16 0x00
#define  PCI_IO_RANGE_TYPE_32 0x01
#define  PCI_IO_RANGE_MASK 0xf0
#define PCI_SEC_STATUS 0x1e
#define PCI_MEMORY_BASE 0x20
#define PCI_MEMORY_LIMIT 0x22
#define  PCI_MEMORY_RANGE_MASK 0xfff0
#define PCI_PREF_MEMORY_BASE 0x24
#define PCI_PREF_MEMORY_LIMIT 0x26
#define  PCI_PREF_RANGE_TYPE_64 0x0001
#define  PCI_PREF_RANGE_MASK 0xfff0
#define PCI_PREF_BASE_UPPER32 0x28
#define PCI_PREF_LIMIT_UPPER32 0x2c
#define PCI_IO_BASE_UPPER16 0x30
#define PCI_IO_LIMIT_UPPER16 0x32
#define PCI_ROM_ADDRESS1 0x38
#define PCI_BRIDGE_CONTROL 0x3e
#define  PCI_BRIDGE_CTL_PARITY 0x01
#define  PCI_BRIDGE_CTL_SERR 0x02
#define  PCI_BRIDGE_CTL_ISA 0x04
#define  PCI_BRIDGE_CTL_VGA 0x08
#define  PCI_BRIDGE_CTL_VGA_16BIT 0x10
#define  PCI_BRIDGE_CTL_MASTER_ABORT 0x20
#define  PCI_BRIDGE_CTL_BUS_RESET 0x40
#define  PCI_BRIDGE_CTL_FAST_BACK 0x80
#define  PCI_BRIDGE_CTL_DISCARD 0x100
#define  PCI_BRIDGE_CTL_SEC_DISCARD 0x200
#define  PCI_BRIDGE_CTL_DISCARD_STATUS 0x400
#define  PCI_BRIDGE_CTL_DISCARD_SERR 0x800

/* Capability IDs */
#define PCI_CAP_ID_PM 0x01
#define PCI_CAP_ID_MSI 0x05
#define PCI_CAP_ID_SLOTID 0x04
#define PCI_CAP_ID_SHPC 0x0c
#define PCI_CAP_ID_SSVID 0x0d
#define PCI_CAP_ID_EXP 0x10
#define PCI_CAP_ID_MSIX 0x11
/* Extended capability IDs (PCIe, at 0x100 and up) */
#define PCI_EXT_CAP_ID_ERR 0x01
#define PCI_EXT_CAP_ID_ACS 0x0d

#define PCI_DEVFN(slot, fn) ((((slot) & 0x1f) << 3) | ((fn) & 0x07))
#define PCI_SLOT(devfn) (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn) ((devfn) & 0x07)

typedef struct PCIBus PCIBus;
typedef struct PCIDevice PCIDevice;

typedef struct PCIIORegion {
    uint64_t addr;              /* where it is mapped, or PCI_BAR_UNMAPPED */
    uint64_t size;              /* 0: no BAR here */
    uint8_t type;               /* the BAR's low bits (I/O, 64-bit, prefetch) */
    MemoryRegion *memory;
    MemoryRegion *address_space;
} PCIIORegion;

struct PCIDevice {
    DeviceState qdev;

    uint8_t *config, *wmask, *w1cmask, *used;
    uint32_t config_size;
    int32_t devfn;              /* "addr": -1 until placed */
    bool multifunction;
    PCIIORegion io_regions[PCI_NUM_REGIONS];
    int irq_level;              /* INTx as the device drives it */
    /* Off: a PCIe slot's power controller cut it (reads all-ones) */
    bool has_power;
    char *romfile;
    uint32_t romsize;
    uint32_t rombar;
    bool x_pcie_lnksta_dllla, x_pcie_extcap_init;
    char *failover_pair_id;
    uint32_t acpi_index;

    /* Capabilities the core's helpers keep (0: none) */
    uint8_t exp_cap, msi_cap, msix_cap;
    uint16_t aer_cap;
    /* MSI-X (include/hw/pci/msi.h): the vector table and pending bits */
    uint16_t msix_entries;
    bool msix_function_masked;  /* disabled or all masked */
    bool hpev_notified;         /* a PCIe slot's hot-plug event signalled */
    uint8_t *msix_table, *msix_pba;
    MemoryRegion msix_exclusive_bar, msix_table_mmio, msix_pba_mmio;
    MemoryRegion *msix_table_bar, *msix_pba_bar;    /* where they are */
    /*
     * What the device reaches as a bus master (DMA, MSI messages): a
     * container ("bus master container") holding an alias of system
     * memory ("bus master") enabled while the command register's Bus
     * Master Enable is set and the device has power, as QEMU 7.2's; the
     * address space is named after the type
     */
    MemoryRegion bus_master_container, bus_master_enable;
    AddressSpace bus_master_as;
};

/* The address space the device's DMA and MSI messages go through */
static inline AddressSpace *pci_get_address_space(PCIDevice *dev)
{
    return &dev->bus_master_as;
}

typedef struct PCIDeviceClass {
    DeviceClass parent_class;

    bool (*realize)(PCIDevice *dev, Error **errp);
    void (*exit)(PCIDevice *dev);
    /* Config accesses, 1..4 bytes at an offset inside the space */
    uint32_t (*config_read)(PCIDevice *dev, uint32_t addr, int len);
    void (*config_write)(PCIDevice *dev, uint32_t addr, uint32_t val,
                         int len);
    uint16_t vendor_id, device_id;
    uint16_t subsystem_vendor_id, subsystem_id;   /* 0: QEMU's 1af4:1100 */
    uint8_t revision;
    uint16_t class_id;
    bool is_express;            /* 4 KiB of configuration space */
    bool is_bridge;             /* a type 1 header (include/hw/pci/pci_bridge.h) */
    /* A bridge's: a device was realized on its secondary bus */
    void (*child_plugged)(PCIDevice *bridge, PCIDevice *child);
} PCIDeviceClass;

typedef void PCISetIRQFunc(void *opaque, int pirq, int level);
typedef int PCIMapIRQFunc(PCIDevice *dev, int pin);

struct PCIBus {
    BusState qbus;

    uint8_t bus_num;
    PCIDevice *parent_dev;      /* the bridge behind which it is; root: NULL */
    PCIDevice *devices[256];
    MemoryRegion *address_space_mem, *address_space_io;
    PCISetIRQFunc *set_irq;
    PCIMapIRQFunc *map_irq;
    void *irq_opaque;
    int nirq;
    int *irq_count;             /* devices asserting each bus line */
    bool in_reset;              /* between its devices' resets and its own */
};

#define PCI_DEVICE(obj) ((PCIDevice *)(obj))
#define PCI_DEVICE_CLASS(oc) ((PCIDeviceClass *)(oc))
#define PCI_DEVICE_GET_CLASS(obj) PCI_DEVICE_CLASS(OBJECT_GET_CLASS(obj))
#define PCI_BUS(obj) ((PCIBus *)(obj))

/* Buses ------------------------------------------------------------------ */

PCIBus *pci_root_bus_new(DeviceState *parent, const char *name,
                         MemoryRegion *mem, MemoryRegion *io,
                         const char *bus_type);
/* A bridge's secondary bus (name NULL: QEMU's default bus name) */
PCIBus *pci_bus_new_secondary(PCIDevice *bridge, const char *name,
                              const char *bus_type, MemoryRegion *mem,
                              MemoryRegion *io);
void pci_bus_irqs(PCIBus *bus, PCISetIRQFunc *set_irq, PCIMapIRQFunc *map_irq,
                  void *opaque, int nirq);
/* Whether a device asserts the bus's line (one that drives lines) */
bool pci_bus_get_irq_level(PCIBus *bus, int line);
/*
 * The function at bus_num:devfn as a host bridge whose root bus is bus
 * reaches it: through the bridges whose secondary..subordinate range
 * holds bus_num (QEMU 7.2: not through a bridge holding its bus in reset)
 */
PCIDevice *pci_find_device(PCIBus *bus, int bus_num, int devfn);
PCIBus *pci_find_bus_nr(PCIBus *bus, int bus_num);
/* The bus number: 0 for a root bus, else its bridge's secondary bus */
int pci_bus_num(PCIBus *bus);
/* Every PCI bus of the machine, root buses first */
GPtrArray *pci_all_buses(void);
static inline bool pci_bus_is_root(PCIBus *bus)
{
    return !bus->parent_dev;
}

/*
 * Configuration cycles as a host bridge issues them: len bytes at addr of
 * the function; a missing function or an offset past the space reads
 * all-ones and ignores writes.  Serialized by the PCI lock.
 */
uint32_t pci_host_config_read(PCIBus *bus, int bus_num, int devfn,
                              uint32_t addr, int len);
void pci_host_config_write(PCIBus *bus, int bus_num, int devfn,
                           uint32_t addr, uint32_t val, int len);
void pci_lock(void);
void pci_unlock(void);

/* Devices ---------------------------------------------------------------- */

PCIDevice *pci_new(int devfn, bool multifunction, const char *name);
bool pci_realize_and_unref(PCIDevice *dev, PCIBus *bus, Error **errp);

/* What a machine reset does to every function (a device's reset calls it) */
void pci_device_reset_config(PCIDevice *dev);

/* The default handlers, for a device's own to call */
uint32_t pci_default_read_config(PCIDevice *dev, uint32_t addr, int len);
void pci_default_write_config(PCIDevice *dev, uint32_t addr, uint32_t val,
                              int len);

/* type: the BAR's low bits; size a power of two */
void pci_register_bar(PCIDevice *dev, int region, uint8_t type,
                      MemoryRegion *mr);
uint64_t pci_get_bar_addr(PCIDevice *dev, int region);
/* Adds a capability at offset (0: the first free place); its offset */
int pci_add_capability(PCIDevice *dev, uint8_t cap_id, uint8_t offset,
                       uint8_t size, Error **errp);
/*
 * Adds a PCIe extended capability (read-only, as pci_add_capability's) at
 * offset, linked after the last one; the first one goes at 0x100
 */
void pcie_add_capability(PCIDevice *dev, uint16_t cap_id, uint8_t ver,
                         uint16_t offset, uint16_t size);
uint8_t pci_find_capability(PCIDevice *dev, uint8_t cap_id);
void pci_set_irq(PCIDevice *dev, int level);
/*
 * Power as a slot's power controller gives it: without, configuration
 * reads all-ones, writes vanish, BARs are unmapped; losing it resets
 */
void pci_set_power(PCIDevice *dev, bool state);
int pci_intx(PCIDevice *dev);   /* 0..3 for INTA..INTD, -1: none */

#define PCI_CAP_ID_SATA 0x12

/* QEMU 7.2's name of a class code (query-pci's "desc"), or NULL */
const char *pci_class_desc(uint16_t class);

static inline void pci_set_byte(uint8_t *p, uint8_t v) { p[0] = v; }
static inline void pci_set_word(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}
static inline void pci_set_long(uint8_t *p, uint32_t v)
{
    pci_set_word(p, v);
    pci_set_word(p + 2, v >> 16);
}
static inline uint16_t pci_get_word(const uint8_t *p)
{
    return p[0] | (uint16_t)p[1] << 8;
}
static inline uint32_t pci_get_long(const uint8_t *p)
{
    return pci_get_word(p) | (uint32_t)pci_get_word(p + 2) << 16;
}
static inline void pci_set_quad(uint8_t *p, uint64_t v)
{
    pci_set_long(p, v);
    pci_set_long(p + 4, v >> 32);
}

#endif
