/*
 * PCI-to-PCI bridges: the type 1 header's registers and what they steer
 * (include/hw/pci/pci_bridge.h, docs/devices.md "Bridges").
 *
 * As QEMU 7.2: a window is base..limit with the limit's low bits all-ones
 * (4 KiB granules for I/O, 1 MiB for memory); it forwards while the
 * command register's I/O or memory bit is on and base <= limit.  The alias
 * regions are made again after each write to the command register, the
 * windows or the bridge control register, and only then: a reset changes
 * the registers but leaves the aliases as they were (7.2 does the same).
 */
#include "hw/pci/pci_bridge.h"
#include "hw/qdev-properties.h"

/* The VGA ranges a bridge forwards with the bridge control's VGA bit */
/* QEMU's vendor capability asking firmware to reserve resources */
#define REDHAT_CAP_RESOURCE_RESERVE 1
#define REDHAT_CAP_RESERVE_LEN 0x20

#define PCI_VGA_MEM_BASE 0xa0000
#define PCI_VGA_MEM_SIZE 0x20000
#define PCI_VGA_IO_LO_BASE 0x3b0
#define PCI_VGA_IO_LO_SIZE 0xc
#define PCI_VGA_IO_HI_BASE 0x3c0
#define PCI_VGA_IO_HI_SIZE 0x20

static PCIBus *pci_bridge_parent_bus(PCIBridge *br)
{
    return PCI_BUS(DEVICE(br)->parent_bus);
}

/* Windows ------------------------------------------------------------------- */

static uint64_t pci_bridge_io_reg(PCIDevice *d, int reg, int upper16)
{
    uint64_t v = (uint64_t)(d->config[reg] & PCI_IO_RANGE_MASK) << 8;

    if (d->config[reg] & PCI_IO_RANGE_TYPE_32) {
        v |= (uint64_t)pci_get_word(d->config + upper16) << 16;
    }
    return v;
}

static uint64_t pci_bridge_pref_reg(PCIDevice *d, int reg, int upper32)
{
    uint16_t w = pci_get_word(d->config + reg);
    uint64_t v = (uint64_t)(w & PCI_PREF_RANGE_MASK) << 16;

    if (w & PCI_PREF_RANGE_TYPE_64) {
        v |= (uint64_t)pci_get_long(d->config + upper32) << 32;
    }
    return v;
}

uint64_t pci_bridge_get_base(PCIDevice *bridge, uint8_t type)
{
    if (type & PCI_BASE_ADDRESS_SPACE_IO) {
        return pci_bridge_io_reg(bridge, PCI_IO_BASE, PCI_IO_BASE_UPPER16);
    }
    if (type & PCI_BASE_ADDRESS_MEM_PREFETCH) {
        return pci_bridge_pref_reg(bridge, PCI_PREF_MEMORY_BASE,
                                   PCI_PREF_BASE_UPPER32);
    }
    return (uint64_t)(pci_get_word(bridge->config + PCI_MEMORY_BASE) &
                      PCI_MEMORY_RANGE_MASK) << 16;
}

uint64_t pci_bridge_get_limit(PCIDevice *bridge, uint8_t type)
{
    if (type & PCI_BASE_ADDRESS_SPACE_IO) {
        return pci_bridge_io_reg(bridge, PCI_IO_LIMIT, PCI_IO_LIMIT_UPPER16) |
               0xfff;
    }
    if (type & PCI_BASE_ADDRESS_MEM_PREFETCH) {
        return pci_bridge_pref_reg(bridge, PCI_PREF_MEMORY_LIMIT,
                                   PCI_PREF_LIMIT_UPPER32) | 0xfffff;
    }
    return (uint64_t)(pci_get_word(bridge->config + PCI_MEMORY_LIMIT) &
                      PCI_MEMORY_RANGE_MASK) << 16 | 0xfffff;
}

static void pci_bridge_alias_init(PCIBridge *br, MemoryRegion *alias,
                                  uint8_t type, const char *name,
                                  MemoryRegion *space, MemoryRegion *parent,
                                  bool enabled)
{
    PCIDevice *d = PCI_DEVICE(br);
    uint64_t base = pci_bridge_get_base(d, type);
    uint64_t limit = pci_bridge_get_limit(d, type);
    /* 7.2's: a window that covers all 2^64 bytes cannot be said, so 0 */
    uint64_t size = enabled && limit >= base ? limit + 1 - base : 0;

    memory_region_init_alias(alias, OBJECT(br), name, space, base, size);
    memory_region_add_subregion_overlap(parent, base, alias, 1);
}

static void pci_bridge_windows_init(PCIBridge *br)
{
    PCIDevice *d = PCI_DEVICE(br);
    PCIBus *parent = pci_bridge_parent_bus(br);
    uint16_t cmd = pci_get_word(d->config + PCI_COMMAND);
    uint16_t brctl = pci_get_word(d->config + PCI_BRIDGE_CONTROL);

    pci_bridge_alias_init(br, &br->alias_pref_mem,
                          PCI_BASE_ADDRESS_MEM_PREFETCH, "pci_bridge_pref_mem",
                          &br->address_space_mem, parent->address_space_mem,
                          cmd & PCI_COMMAND_MEMORY);
    pci_bridge_alias_init(br, &br->alias_mem, 0, "pci_bridge_mem",
                          &br->address_space_mem, parent->address_space_mem,
                          cmd & PCI_COMMAND_MEMORY);
    pci_bridge_alias_init(br, &br->alias_io, PCI_BASE_ADDRESS_SPACE_IO,
                          "pci_bridge_io", &br->address_space_io,
                          parent->address_space_io, cmd & PCI_COMMAND_IO);
    memory_region_init_alias(&br->alias_vga_io_lo, OBJECT(br),
                             "pci_bridge_vga_io_lo", &br->address_space_io,
                             PCI_VGA_IO_LO_BASE, PCI_VGA_IO_LO_SIZE);
    memory_region_init_alias(&br->alias_vga_io_hi, OBJECT(br),
                             "pci_bridge_vga_io_hi", &br->address_space_io,
                             PCI_VGA_IO_HI_BASE, PCI_VGA_IO_HI_SIZE);
    memory_region_init_alias(&br->alias_vga_mem, OBJECT(br),
                             "pci_bridge_vga_mem", &br->address_space_mem,
                             PCI_VGA_MEM_BASE, PCI_VGA_MEM_SIZE);
    br->vga_mapped = brctl & PCI_BRIDGE_CTL_VGA;
    if (br->vga_mapped) {
        /* the parent bus's VGA ranges, as a VGA function's */
        memory_region_add_subregion_overlap(parent->address_space_mem,
                                            PCI_VGA_MEM_BASE,
                                            &br->alias_vga_mem, 1);
        memory_region_add_subregion_overlap(parent->address_space_io,
                                            PCI_VGA_IO_LO_BASE,
                                            &br->alias_vga_io_lo, 1);
        memory_region_add_subregion_overlap(parent->address_space_io,
                                            PCI_VGA_IO_HI_BASE,
                                            &br->alias_vga_io_hi, 1);
        memory_region_set_enabled(&br->alias_vga_mem,
                                  cmd & PCI_COMMAND_MEMORY);
        memory_region_set_enabled(&br->alias_vga_io_lo, cmd & PCI_COMMAND_IO);
        memory_region_set_enabled(&br->alias_vga_io_hi, cmd & PCI_COMMAND_IO);
    }
}

static void pci_bridge_windows_del(PCIBridge *br)
{
    PCIBus *parent = pci_bridge_parent_bus(br);

    memory_region_del_subregion(parent->address_space_io, &br->alias_io);
    memory_region_del_subregion(parent->address_space_mem, &br->alias_mem);
    memory_region_del_subregion(parent->address_space_mem,
                                &br->alias_pref_mem);
    if (br->vga_mapped) {
        memory_region_del_subregion(parent->address_space_mem,
                                    &br->alias_vga_mem);
        memory_region_del_subregion(parent->address_space_io,
                                    &br->alias_vga_io_lo);
        memory_region_del_subregion(parent->address_space_io,
                                    &br->alias_vga_io_hi);
        br->vga_mapped = false;
    }
    object_unparent(OBJECT(&br->alias_io));
    object_unparent(OBJECT(&br->alias_mem));
    object_unparent(OBJECT(&br->alias_pref_mem));
    object_unparent(OBJECT(&br->alias_vga_io_lo));
    object_unparent(OBJECT(&br->alias_vga_io_hi));
    object_unparent(OBJECT(&br->alias_vga_mem));
}

static void pci_bridge_update_mappings(PCIBridge *br)
{
    memory_region_transaction_begin();
    pci_bridge_windows_del(br);
    pci_bridge_windows_init(br);
    memory_region_transaction_commit();
}

static bool range_touches(uint32_t addr, int len, uint32_t start, int n)
{
    return addr < start + n && addr + len > start;
}

void pci_bridge_write_config(PCIDevice *d, uint32_t addr, uint32_t val,
                             int len)
{
    PCIBridge *br = PCI_BRIDGE(d);
    uint16_t oldctl = pci_get_word(d->config + PCI_BRIDGE_CONTROL);
    uint16_t newctl;

    pci_default_write_config(d, addr, val, len);
    if (range_touches(addr, len, PCI_COMMAND, 2) ||
        range_touches(addr, len, PCI_IO_BASE, 2) ||
        /* memory, prefetchable and I/O upper 16 */
        range_touches(addr, len, PCI_MEMORY_BASE, 20) ||
        range_touches(addr, len, PCI_BRIDGE_CONTROL, 2)) {
        pci_bridge_update_mappings(br);
    }
    newctl = pci_get_word(d->config + PCI_BRIDGE_CONTROL);
    if (~oldctl & newctl & PCI_BRIDGE_CTL_BUS_RESET) {
        /* a secondary bus reset on the bit's rising edge */
        int devfn;

        for (devfn = 0; devfn < 256; devfn++) {
            if (br->sec_bus->devices[devfn]) {
                device_cold_reset(DEVICE(br->sec_bus->devices[devfn]));
            }
        }
    }
}

void pci_bridge_disable_base_limit(PCIDevice *dev)
{
    uint8_t *c = dev->config;

    c[PCI_IO_BASE] |= PCI_IO_RANGE_MASK;
    c[PCI_IO_LIMIT] &= ~PCI_IO_RANGE_MASK;
    pci_set_word(c + PCI_MEMORY_BASE, pci_get_word(c + PCI_MEMORY_BASE) |
                 PCI_MEMORY_RANGE_MASK);
    pci_set_word(c + PCI_MEMORY_LIMIT, pci_get_word(c + PCI_MEMORY_LIMIT) &
                 ~PCI_MEMORY_RANGE_MASK);
    pci_set_word(c + PCI_PREF_MEMORY_BASE,
                 pci_get_word(c + PCI_PREF_MEMORY_BASE) | PCI_PREF_RANGE_MASK);
    pci_set_word(c + PCI_PREF_MEMORY_LIMIT,
                 pci_get_word(c + PCI_PREF_MEMORY_LIMIT) &
                 ~PCI_PREF_RANGE_MASK);
    pci_set_long(c + PCI_PREF_BASE_UPPER32, 0);
    pci_set_long(c + PCI_PREF_LIMIT_UPPER32, 0);
}

/* Reset, realize ---------------------------------------------------------------- */

void pci_bridge_reset(DeviceState *qdev)
{
    PCIDevice *dev = PCI_DEVICE(qdev);
    uint8_t *c = dev->config;

    pci_device_reset_config(dev);
    pci_lock();
    c[PCI_PRIMARY_BUS] = 0;
    c[PCI_SECONDARY_BUS] = 0;
    c[PCI_SUBORDINATE_BUS] = 0;
    c[PCI_SEC_LATENCY_TIMER] = 0;
    c[PCI_IO_BASE] &= ~PCI_IO_RANGE_MASK;
    c[PCI_IO_LIMIT] &= ~PCI_IO_RANGE_MASK;
    pci_set_word(c + PCI_MEMORY_BASE, pci_get_word(c + PCI_MEMORY_BASE) &
                 ~PCI_MEMORY_RANGE_MASK);
    pci_set_word(c + PCI_MEMORY_LIMIT, pci_get_word(c + PCI_MEMORY_LIMIT) &
                 ~PCI_MEMORY_RANGE_MASK);
    pci_set_word(c + PCI_PREF_MEMORY_BASE,
                 pci_get_word(c + PCI_PREF_MEMORY_BASE) &
                 ~PCI_PREF_RANGE_MASK);
    pci_set_word(c + PCI_PREF_MEMORY_LIMIT,
                 pci_get_word(c + PCI_PREF_MEMORY_LIMIT) &
                 ~PCI_PREF_RANGE_MASK);
    pci_set_long(c + PCI_PREF_BASE_UPPER32, 0);
    pci_set_long(c + PCI_PREF_LIMIT_UPPER32, 0);
    pci_set_word(c + PCI_BRIDGE_CONTROL, 0);
    if (PCI_BRIDGE(dev)->vga_mapped) {
        /*
         * As a VGA function's ranges, the VGA aliases follow the command
         * register at reset (off), though still mapped
         */
        memory_region_transaction_begin();
        memory_region_set_enabled(&PCI_BRIDGE(dev)->alias_vga_mem, false);
        memory_region_set_enabled(&PCI_BRIDGE(dev)->alias_vga_io_lo, false);
        memory_region_set_enabled(&PCI_BRIDGE(dev)->alias_vga_io_hi, false);
        memory_region_transaction_commit();
    }
    pci_unlock();
}

void pci_bridge_initfn(PCIDevice *dev, const char *bus_type)
{
    PCIBridge *br = PCI_BRIDGE(dev);
    const char *id = DEVICE(dev)->id;

    pci_set_word(dev->config + PCI_STATUS,
                 pci_get_word(dev->config + PCI_STATUS) |
                 PCI_STATUS_66MHZ | PCI_STATUS_FAST_BACK);
    dev->config[PCI_HEADER_TYPE] =
        (dev->config[PCI_HEADER_TYPE] & PCI_HEADER_TYPE_MULTI_FUNCTION) |
        PCI_HEADER_TYPE_BRIDGE;
    pci_set_word(dev->config + PCI_SEC_STATUS,
                 PCI_STATUS_66MHZ | PCI_STATUS_FAST_BACK);
    memory_region_init(&br->address_space_mem, OBJECT(br), "pci_bridge_pci",
                       UINT64_MAX);
    memory_region_init(&br->address_space_io, OBJECT(br), "pci_bridge_io",
                       4ULL << 30);
    /* the bus is named by the bridge's id, without QEMU's usual ".0" */
    br->sec_bus = pci_bus_new_secondary(dev, id && *id ? id : NULL, bus_type,
                                        &br->address_space_mem,
                                        &br->address_space_io);
    pci_bridge_windows_init(br);
}

void pci_bridge_exitfn(PCIDevice *dev)
{
    PCIBridge *br = PCI_BRIDGE(dev);

    memory_region_transaction_begin();
    pci_bridge_windows_del(br);
    memory_region_transaction_commit();
}

bool pci_bridge_qemu_reserve_cap_init(PCIDevice *dev, const PCIResReserve *r,
                                 Error **errp)
{
    uint8_t *c;
    int pos;

    if (r->mem_pref_32 != UINT64_MAX && r->mem_pref_64 != UINT64_MAX) {
        error_setg(errp,
                   "PCI resource reserve cap: PREF32 and PREF64 conflict");
        return false;
    }
    if (r->mem_non_pref != UINT64_MAX && r->mem_non_pref >= (4ULL << 30)) {
        error_setg(errp, "PCI resource reserve cap: mem-reserve must be less "
                   "than 4G");
        return false;
    }
    if (r->mem_pref_32 != UINT64_MAX && r->mem_pref_32 >= (4ULL << 30)) {
        error_setg(errp, "PCI resource reserve cap: pref32-reserve  must be "
                   "less than 4G");
        return false;
    }
    if (r->bus == UINT32_MAX && r->io == UINT64_MAX &&
        r->mem_non_pref == UINT64_MAX && r->mem_pref_32 == UINT64_MAX &&
        r->mem_pref_64 == UINT64_MAX) {
        return true;
    }
    pos = pci_add_capability(dev, 0x09, 0, REDHAT_CAP_RESERVE_LEN, errp);
    if (pos < 0) {
        return false;
    }
    c = dev->config + pos;
    c[2] = REDHAT_CAP_RESERVE_LEN;
    c[3] = REDHAT_CAP_RESOURCE_RESERVE;
    pci_set_long(c + 4, r->bus);
    pci_set_quad(c + 8, r->io);
    pci_set_long(c + 16, r->mem_non_pref);
    pci_set_long(c + 20, r->mem_pref_32);
    pci_set_quad(c + 24, r->mem_pref_64);
    return true;
}

int pci_bridge_ssvid_init(PCIDevice *dev, uint8_t offset, uint16_t svid,
                          uint16_t ssid, Error **errp)
{
    int pos = pci_add_capability(dev, PCI_CAP_ID_SSVID, offset, 8, errp);

    if (pos < 0) {
        return -1;
    }
    pci_set_word(dev->config + pos + 4, svid);
    pci_set_word(dev->config + pos + 6, ssid);
    return pos;
}

/* Registration ---------------------------------------------------------------- */

static void pci_bridge_class_init(ObjectClass *oc, void *data)
{
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->is_bridge = true;
    pc->config_write = pci_bridge_write_config;
    DEVICE_CLASS(oc)->reset = pci_bridge_reset;
}

static void pci_bridge_register_types(void)
{
    static const TypeInfo info = {
        .name = TYPE_PCI_BRIDGE,
        .parent = TYPE_PCI_DEVICE,
        .abstract = true,
        .instance_size = sizeof(PCIBridge),
        .class_size = sizeof(PCIDeviceClass),
        .class_init = pci_bridge_class_init,
    };

    type_register_static(&info);
}
type_init(pci_bridge_register_types)
