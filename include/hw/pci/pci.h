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
    char *romfile;
    uint32_t romsize;
    uint32_t rombar;
    bool x_pcie_lnksta_dllla, x_pcie_extcap_init;
    char *failover_pair_id;
    uint32_t acpi_index;
    uint8_t msi_cap;            /* the MSI capability's offset, or 0 */
};

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
};

#define PCI_DEVICE(obj) ((PCIDevice *)(obj))
#define PCI_DEVICE_CLASS(oc) ((PCIDeviceClass *)(oc))
#define PCI_DEVICE_GET_CLASS(obj) PCI_DEVICE_CLASS(OBJECT_GET_CLASS(obj))
#define PCI_BUS(obj) ((PCIBus *)(obj))

/* Buses ------------------------------------------------------------------ */

PCIBus *pci_root_bus_new(DeviceState *parent, const char *name,
                         MemoryRegion *mem, MemoryRegion *io,
                         const char *bus_type);
void pci_bus_irqs(PCIBus *bus, PCISetIRQFunc *set_irq, PCIMapIRQFunc *map_irq,
                  void *opaque, int nirq);
PCIDevice *pci_find_device(PCIBus *bus, int bus_num, int devfn);
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
uint8_t pci_find_capability(PCIDevice *dev, uint8_t cap_id);
void pci_set_irq(PCIDevice *dev, int level);
int pci_intx(PCIDevice *dev);   /* 0..3 for INTA..INTD, -1: none */

/* MSI (hw/pci/msi.c) ----------------------------------------------------- */

#define PCI_CAP_ID_MSI 0x05
#define PCI_CAP_ID_SATA 0x12

/*
 * The MSI capability at offset with nr_vectors (a power of two up to
 * 32), as QEMU 7.2's msi_init lays it out and opens it (enable, multiple
 * message enable, address, data, per-vector mask bits); 0 or -1
 */
int msi_init(PCIDevice *dev, uint8_t offset, unsigned nr_vectors,
             bool msi64bit, bool per_vector_mask, Error **errp);
bool msi_enabled(const PCIDevice *dev);
/* Sends vector's message (a write of its data to its address) */
void msi_notify(PCIDevice *dev, unsigned vector);
/* pci_default_write_config's part: MME is clamped to what is offered */
void msi_write_config(PCIDevice *dev, uint32_t addr, uint32_t val, int len);

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

#endif
