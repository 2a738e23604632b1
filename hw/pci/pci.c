/*
 * The PCI core: buses, the PCI device type and its configuration space
 * (include/hw/pci/pci.h, docs/devices.md "PCI").
 *
 * What a guest reads and writes follows QEMU 7.2, measured over qtest by
 * writing all-ones and zeros to every byte of its functions: the command
 * register takes I/O, memory, bus master, SERR# and INTx disable; cache
 * line size and interrupt line are writable; every byte past the header
 * is writable until a device says otherwise; a BAR takes the address bits
 * its size leaves (so all-ones reads back the size mask).  A BAR is
 * mapped while its decode bit in the command register is on and its
 * address is neither 0 nor wraps; it moves when the guest writes it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "hw/pci/msi.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"

static GRecMutex pci_mutex;
static GPtrArray *pci_buses;

void pci_lock(void)
{
    g_rec_mutex_lock(&pci_mutex);
}

void pci_unlock(void)
{
    g_rec_mutex_unlock(&pci_mutex);
}

static PCIBus *pci_device_bus(PCIDevice *dev)
{
    return PCI_BUS(DEVICE(dev)->parent_bus);
}

/* BARs ------------------------------------------------------------------- */

static int pci_bar_offset(PCIDevice *dev, int region)
{
    if (region == PCI_ROM_SLOT) {
        return PCI_DEVICE_GET_CLASS(dev)->is_bridge ? PCI_ROM_ADDRESS1
                                                    : PCI_ROM_ADDRESS;
    }
    return PCI_BASE_ADDRESS_0 + region * 4;
}

/* Where the BAR's current value and the command register put it */
static uint64_t pci_bar_address(PCIDevice *dev, int region)
{
    PCIIORegion *r = &dev->io_regions[region];
    int off = pci_bar_offset(dev, region);
    uint16_t cmd = pci_get_word(dev->config + PCI_COMMAND);
    uint64_t addr, last;

    if (!dev->has_power) {
        return PCI_BAR_UNMAPPED;
    }
    if (r->type & PCI_BASE_ADDRESS_SPACE_IO) {
        if (!(cmd & PCI_COMMAND_IO)) {
            return PCI_BAR_UNMAPPED;
        }
        addr = pci_get_long(dev->config + off) & ~(r->size - 1);
        last = addr + r->size - 1;
        /* x86 I/O space ends at 64 KiB */
        if (!addr || last <= addr || last > 0xffff) {
            return PCI_BAR_UNMAPPED;
        }
        return addr;
    }
    if (!(cmd & PCI_COMMAND_MEMORY)) {
        return PCI_BAR_UNMAPPED;
    }
    addr = pci_get_long(dev->config + off);
    if (r->type & PCI_BASE_ADDRESS_MEM_TYPE_64) {
        addr |= (uint64_t)pci_get_long(dev->config + off + 4) << 32;
    }
    if (region == PCI_ROM_SLOT && !(addr & 1)) {
        return PCI_BAR_UNMAPPED;        /* ROM decode enable */
    }
    addr &= ~(r->size - 1);
    last = addr + r->size - 1;
    if (!addr || last <= addr ||
        (!(r->type & PCI_BASE_ADDRESS_MEM_TYPE_64) && last >= UINT32_MAX)) {
        return PCI_BAR_UNMAPPED;
    }
    return addr;
}

static void pci_update_mappings(PCIDevice *dev)
{
    int i;

    memory_region_transaction_begin();
    for (i = 0; i < PCI_NUM_REGIONS; i++) {
        PCIIORegion *r = &dev->io_regions[i];
        uint64_t addr;

        if (!r->size) {
            continue;
        }
        addr = pci_bar_address(dev, i);
        if (addr == r->addr) {
            continue;
        }
        if (r->addr != PCI_BAR_UNMAPPED) {
            memory_region_del_subregion(r->address_space, r->memory);
        }
        r->addr = addr;
        if (addr != PCI_BAR_UNMAPPED) {
            memory_region_add_subregion_overlap(r->address_space, addr,
                                                r->memory, 1);
        }
    }
    memory_region_transaction_commit();
}

void pci_register_bar(PCIDevice *dev, int region, uint8_t type,
                      MemoryRegion *mr)
{
    PCIIORegion *r = &dev->io_regions[region];
    uint64_t size = memory_region_size(mr);
    uint64_t wmask = ~(size - 1);
    int off = pci_bar_offset(dev, region);
    PCIBus *bus = pci_device_bus(dev);

    g_assert(region >= 0 && region < PCI_NUM_REGIONS);
    g_assert(size && !(size & (size - 1)));
    r->size = size;
    r->type = type;
    r->memory = mr;
    r->addr = PCI_BAR_UNMAPPED;
    r->address_space = type & PCI_BASE_ADDRESS_SPACE_IO
                           ? bus->address_space_io
                           : bus->address_space_mem;
    if (region == PCI_ROM_SLOT) {
        wmask |= 1;             /* the enable bit */
    }
    pci_set_long(dev->config + off, type);
    if (type & PCI_BASE_ADDRESS_MEM_TYPE_64) {
        pci_set_long(dev->wmask + off, wmask & 0xffffffff);
        pci_set_long(dev->wmask + off + 4, wmask >> 32);
        pci_set_long(dev->config + off + 4, 0);
    } else {
        pci_set_long(dev->wmask + off, wmask & 0xffffffff);
    }
}

uint64_t pci_get_bar_addr(PCIDevice *dev, int region)
{
    return dev->io_regions[region].addr;
}

/* Capabilities ------------------------------------------------------------ */

static int pci_find_space(PCIDevice *dev, uint8_t size)
{
    int off, i;

    for (off = PCI_CONFIG_HEADER_SIZE; off + size <= PCI_CONFIG_SPACE_SIZE;
         off += 4) {
        for (i = 0; i < size && !dev->used[off + i]; i++) {
        }
        if (i == size) {
            return off;
        }
    }
    return 0;
}

uint8_t pci_find_capability(PCIDevice *dev, uint8_t cap_id)
{
    uint8_t off;
    int hops = 0;

    if (!(pci_get_word(dev->config + PCI_STATUS) & PCI_STATUS_CAP_LIST)) {
        return 0;
    }
    for (off = dev->config[PCI_CAPABILITY_LIST]; off && hops < 48;
         off = dev->config[off + 1], hops++) {
        if (dev->config[off] == cap_id) {
            return off;
        }
    }
    return 0;
}

int pci_add_capability(PCIDevice *dev, uint8_t cap_id, uint8_t offset,
                       uint8_t size, Error **errp)
{
    int i;

    if (!offset) {
        offset = pci_find_space(dev, size);
        if (!offset) {
            error_setg(errp, "PCI: no space for capability 0x%x on %s",
                       cap_id, object_get_typename(OBJECT(dev)));
            return -1;
        }
    } else {
        for (i = 0; i < size; i++) {
            if (offset + i >= PCI_CONFIG_SPACE_SIZE || dev->used[offset + i]) {
                error_setg(errp, "%s:%02x:%02x.%x Attempt to add PCI "
                           "capability %x at offset %x overlaps existing "
                           "capability", object_get_typename(OBJECT(dev)),
                           pci_device_bus(dev)->bus_num, PCI_SLOT(dev->devfn),
                           PCI_FUNC(dev->devfn), cap_id, offset);
                return -1;
            }
        }
    }
    dev->config[offset] = cap_id;
    dev->config[offset + 1] = dev->config[PCI_CAPABILITY_LIST];
    dev->config[PCI_CAPABILITY_LIST] = offset;
    pci_set_word(dev->config + PCI_STATUS,
                 pci_get_word(dev->config + PCI_STATUS) | PCI_STATUS_CAP_LIST);
    /* A capability is read-only until its device opens fields of it */
    memset(dev->used + offset, 0xff, size);
    memset(dev->wmask + offset, 0, size);
    memset(dev->w1cmask + offset, 0, size);
    return offset;
}

void pcie_add_capability(PCIDevice *dev, uint16_t cap_id, uint8_t ver,
                         uint16_t offset, uint16_t size)
{
    uint16_t prev = PCI_CONFIG_SPACE_SIZE;
    uint32_t header;

    g_assert(offset >= PCI_CONFIG_SPACE_SIZE &&
             offset + size <= dev->config_size);
    if (offset != PCI_CONFIG_SPACE_SIZE) {
        /* link it after the last one */
        for (;;) {
            uint16_t next = pci_get_long(dev->config + prev) >> 20;

            if (!next) {
                break;
            }
            prev = next;
        }
        header = pci_get_long(dev->config + prev);
        pci_set_long(dev->config + prev, (header & 0xfffff) |
                     (uint32_t)offset << 20);
    }
    pci_set_long(dev->config + offset, cap_id | (uint32_t)ver << 16);
    memset(dev->used + offset, 0xff, size);
    memset(dev->wmask + offset, 0, size);
    memset(dev->w1cmask + offset, 0, size);
}

/* Interrupts ---------------------------------------------------------------- */

int pci_intx(PCIDevice *dev)
{
    int pin = dev->config[PCI_INTERRUPT_PIN];

    return pin >= 1 && pin <= 4 ? pin - 1 : -1;
}

/*
 * The line a pin reaches: each bridge's secondary bus swizzles it
 * (QEMU's pci_swizzle_map_irq_fn) until a bus that drives lines
 */
static void pci_bus_change_irq(PCIDevice *dev, int change)
{
    PCIBus *bus = pci_device_bus(dev);
    int line = pci_intx(dev);

    if (!change || line < 0) {
        return;
    }
    for (;;) {
        if (!bus->map_irq) {
            return;
        }
        line = bus->map_irq(dev, line);
        if (bus->set_irq || pci_bus_is_root(bus)) {
            break;
        }
        dev = bus->parent_dev;
        bus = pci_device_bus(dev);
    }
    if (line < 0 || line >= bus->nirq) {
        return;
    }
    bus->irq_count[line] += change;
    if (bus->set_irq) {
        bus->set_irq(bus->irq_opaque, line, bus->irq_count[line] != 0);
    }
}

/* What the bus sees: the device's level unless INTx is disabled */
static int pci_irq_visible(PCIDevice *dev)
{
    return dev->irq_level &&
           !(pci_get_word(dev->config + PCI_COMMAND) &
             PCI_COMMAND_INTX_DISABLE);
}

void pci_set_irq(PCIDevice *dev, int level)
{
    int before;

    if (pci_intx(dev) < 0) {
        return;
    }
    pci_lock();
    before = pci_irq_visible(dev);
    dev->irq_level = !!level;
    if (level) {
        dev->config[PCI_STATUS] |= PCI_STATUS_INTERRUPT;
    } else {
        dev->config[PCI_STATUS] &= ~PCI_STATUS_INTERRUPT;
    }
    pci_bus_change_irq(dev, pci_irq_visible(dev) - before);
    pci_unlock();
}

/* Configuration space -------------------------------------------------------- */

uint32_t pci_default_read_config(PCIDevice *dev, uint32_t addr, int len)
{
    uint32_t v = 0;
    int i;

    for (i = 0; i < len && addr + i < dev->config_size; i++) {
        v |= (uint32_t)dev->config[addr + i] << (8 * i);
    }
    return v;
}

static bool pci_range_touches(uint32_t addr, int len, uint32_t start,
                              uint32_t end)
{
    return addr < end && addr + len > start;
}

void pci_default_write_config(PCIDevice *dev, uint32_t addr, uint32_t val,
                              int len)
{
    int before = pci_irq_visible(dev);
    int i;

    for (i = 0; i < len && addr + i < dev->config_size; i++) {
        uint8_t b = val >> (8 * i);
        uint8_t wm = dev->wmask[addr + i], w1c = dev->w1cmask[addr + i];
        uint8_t *p = dev->config + addr + i;

        *p = (*p & ~wm) | (b & wm);
        *p &= ~(b & w1c);
    }
    if (pci_range_touches(addr, len, PCI_BASE_ADDRESS_0, 0x28) ||
        pci_range_touches(addr, len, PCI_ROM_ADDRESS, PCI_ROM_ADDRESS + 4) ||
        pci_range_touches(addr, len, PCI_COMMAND, PCI_COMMAND + 2)) {
        pci_update_mappings(dev);
    }
    if (pci_range_touches(addr, len, PCI_COMMAND, PCI_COMMAND + 2)) {
        pci_bus_change_irq(dev, pci_irq_visible(dev) - before);
    }
    msi_write_config(dev, addr, val, len);
}

int pci_bus_num(PCIBus *bus)
{
    return pci_bus_is_root(bus) ? bus->bus_num
                                : bus->parent_dev->config[PCI_SECONDARY_BUS];
}

/* Whether a bridge forwards configuration cycles for bus_num */
static bool pci_secondary_bus_in_range(PCIDevice *bridge, int bus_num)
{
    return !(pci_get_word(bridge->config + PCI_BRIDGE_CONTROL) &
             PCI_BRIDGE_CTL_BUS_RESET) &&
           bridge->config[PCI_SECONDARY_BUS] <= bus_num &&
           bus_num <= bridge->config[PCI_SUBORDINATE_BUS];
}

/*
 * QEMU 7.2's walk: from bus, into the first child bus (in the order the
 * bridges were made, newest first as QEMU's list has them) whose range
 * holds bus_num, until one has the number
 */
PCIBus *pci_find_bus_nr(PCIBus *bus, int bus_num)
{
    GPtrArray *buses = pci_all_buses();

    if (!bus) {
        return NULL;
    }
    if (pci_bus_num(bus) == bus_num) {
        return bus;
    }
    if (!pci_bus_is_root(bus) &&
        !pci_secondary_bus_in_range(bus->parent_dev, bus_num)) {
        return NULL;
    }
    while (bus) {
        PCIBus *next = NULL;
        guint i;

        for (i = buses->len; i-- > 0;) {
            PCIBus *sec = g_ptr_array_index(buses, i);

            if (pci_bus_is_root(sec) ||
                DEVICE(sec->parent_dev)->parent_bus != BUS(bus)) {
                continue;
            }
            if (pci_bus_num(sec) == bus_num) {
                return sec;
            }
            if (pci_secondary_bus_in_range(sec->parent_dev, bus_num)) {
                next = sec;
                break;
            }
        }
        bus = next;
    }
    return NULL;
}

PCIDevice *pci_find_device(PCIBus *bus, int bus_num, int devfn)
{
    if (devfn < 0 || devfn > 255) {
        return NULL;
    }
    bus = pci_find_bus_nr(bus, bus_num);
    return bus ? bus->devices[devfn] : NULL;
}

uint32_t pci_host_config_read(PCIBus *bus, int bus_num, int devfn,
                              uint32_t addr, int len)
{
    PCIDevice *dev;
    uint32_t v = UINT32_MAX;

    pci_lock();
    dev = pci_find_device(bus, bus_num, devfn);
    if (dev && addr < dev->config_size && dev->has_power) {
        PCIDeviceClass *pc = PCI_DEVICE_GET_CLASS(dev);

        if (len > (int)(dev->config_size - addr)) {
            len = dev->config_size - addr;
        }
        v = pc->config_read(dev, addr, len);
        if (len < 4) {
            v |= UINT32_MAX << (8 * len);     /* past the end: all-ones */
        }
    }
    pci_unlock();
    return v;
}

void pci_host_config_write(PCIBus *bus, int bus_num, int devfn,
                           uint32_t addr, uint32_t val, int len)
{
    PCIDevice *dev;

    pci_lock();
    dev = pci_find_device(bus, bus_num, devfn);
    if (dev && addr < dev->config_size && dev->has_power) {
        if (len > (int)(dev->config_size - addr)) {
            len = dev->config_size - addr;
        }
        PCI_DEVICE_GET_CLASS(dev)->config_write(dev, addr, val, len);
    }
    pci_unlock();
}

/*
 * A type 1 header (QEMU 7.2's): bus numbers, windows, bridge control; the
 * I/O window is 16-bit, the prefetchable one 64-bit
 */
static void pci_config_init_bridge(PCIDevice *dev)
{
    memset(dev->wmask + PCI_PRIMARY_BUS, 0xff, 4);
    dev->wmask[PCI_IO_BASE] = PCI_IO_RANGE_MASK;
    dev->wmask[PCI_IO_LIMIT] = PCI_IO_RANGE_MASK;
    pci_set_word(dev->wmask + PCI_MEMORY_BASE, PCI_MEMORY_RANGE_MASK);
    pci_set_word(dev->wmask + PCI_MEMORY_LIMIT, PCI_MEMORY_RANGE_MASK);
    pci_set_word(dev->wmask + PCI_PREF_MEMORY_BASE, PCI_PREF_RANGE_MASK);
    pci_set_word(dev->wmask + PCI_PREF_MEMORY_LIMIT, PCI_PREF_RANGE_MASK);
    memset(dev->wmask + PCI_PREF_BASE_UPPER32, 0xff, 8);
    dev->config[PCI_IO_BASE] |= PCI_IO_RANGE_TYPE_16;
    dev->config[PCI_IO_LIMIT] |= PCI_IO_RANGE_TYPE_16;
    pci_set_word(dev->config + PCI_PREF_MEMORY_BASE, PCI_PREF_RANGE_TYPE_64);
    pci_set_word(dev->config + PCI_PREF_MEMORY_LIMIT, PCI_PREF_RANGE_TYPE_64);
    /* 16-bit VGA decoding only, as 7.2 */
    pci_set_word(dev->wmask + PCI_BRIDGE_CONTROL,
                 PCI_BRIDGE_CTL_PARITY | PCI_BRIDGE_CTL_SERR |
                 PCI_BRIDGE_CTL_ISA | PCI_BRIDGE_CTL_VGA |
                 PCI_BRIDGE_CTL_VGA_16BIT | PCI_BRIDGE_CTL_MASTER_ABORT |
                 PCI_BRIDGE_CTL_BUS_RESET | PCI_BRIDGE_CTL_FAST_BACK |
                 PCI_BRIDGE_CTL_DISCARD | PCI_BRIDGE_CTL_SEC_DISCARD |
                 PCI_BRIDGE_CTL_DISCARD_SERR);
    pci_set_word(dev->w1cmask + PCI_BRIDGE_CONTROL,
                 PCI_BRIDGE_CTL_DISCARD_STATUS);
}

/* The header every function starts with, and its write masks */
static void pci_config_init(PCIDevice *dev)
{
    PCIDeviceClass *pc = PCI_DEVICE_GET_CLASS(dev);
    uint32_t n = dev->config_size;

    dev->config = g_malloc0(n);
    dev->wmask = g_malloc0(n);
    dev->w1cmask = g_malloc0(n);
    dev->used = g_malloc0(n);
    memset(dev->used, 0xff, PCI_CONFIG_HEADER_SIZE);
    pci_set_word(dev->config + PCI_VENDOR_ID, pc->vendor_id);
    pci_set_word(dev->config + PCI_DEVICE_ID, pc->device_id);
    dev->config[PCI_REVISION_ID] = pc->revision;
    pci_set_word(dev->config + PCI_CLASS_DEVICE, pc->class_id);
    if (pc->is_bridge) {
        /* a type 1 header has no subsystem IDs */
    } else if (pc->subsystem_vendor_id) {
        pci_set_word(dev->config + PCI_SUBSYSTEM_VENDOR_ID,
                     pc->subsystem_vendor_id);
        pci_set_word(dev->config + PCI_SUBSYSTEM_ID, pc->subsystem_id);
    } else {
        /* QEMU's: Red Hat / Qumranet, "QEMU" */
        pci_set_word(dev->config + PCI_SUBSYSTEM_VENDOR_ID, 0x1af4);
        pci_set_word(dev->config + PCI_SUBSYSTEM_ID, 0x1100);
    }
    if (dev->multifunction) {
        dev->config[PCI_HEADER_TYPE] |= PCI_HEADER_TYPE_MULTI_FUNCTION;
    }
    pci_set_word(dev->wmask + PCI_COMMAND,
                 PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
                 PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE);
    dev->wmask[PCI_CACHE_LINE_SIZE] = 0xff;
    dev->wmask[PCI_INTERRUPT_LINE] = 0xff;
    pci_set_word(dev->w1cmask + PCI_STATUS, PCI_STATUS_W1C);
    memset(dev->wmask + PCI_CONFIG_HEADER_SIZE, 0xff,
           n - PCI_CONFIG_HEADER_SIZE);
    if (pc->is_bridge) {
        pci_config_init_bridge(dev);
    }
}

/* Placement (addr=, multifunction=) with QEMU 7.2's refusals */
static bool pci_place(PCIDevice *dev, PCIBus *bus, Error **errp)
{
    const char *name = object_get_typename(OBJECT(dev));
    int devfn = dev->devfn, slot, fn, f;
    PCIDevice *other;

    if (devfn < 0) {
        for (devfn = 0; devfn < 256 && bus->devices[devfn]; devfn += 8) {
        }
        if (devfn >= 256) {
            error_setg(errp, "PCI: no slot/function available for %s, all "
                       "in use or reserved", name);
            return false;
        }
    }
    slot = PCI_SLOT(devfn);
    fn = PCI_FUNC(devfn);
    other = bus->devices[devfn];
    if (other) {
        error_setg(errp, "PCI: slot %d function %d not available for %s, in "
                   "use by %s,id=%s", slot, fn, name,
                   object_get_typename(OBJECT(other)),
                   DEVICE(other)->id ? DEVICE(other)->id : "(null)");
        return false;
    }
    if (fn) {
        other = bus->devices[PCI_DEVFN(slot, 0)];
        if (other && !other->multifunction) {
            error_setg(errp, "PCI: single function device can't be populated "
                       "in function %x.%x", slot, fn);
            return false;
        }
    } else if (!dev->multifunction) {
        for (f = 1; f < 8; f++) {
            if (bus->devices[PCI_DEVFN(slot, f)]) {
                error_setg(errp, "PCI: %x.0 indicates single function, but "
                           "%x.%x is already populated.", slot, slot, f);
                return false;
            }
        }
    }
    dev->devfn = devfn;
    return true;
}

static bool pci_qdev_realize(DeviceState *qdev, Error **errp)
{
    PCIDevice *dev = PCI_DEVICE(qdev);
    PCIDeviceClass *pc = PCI_DEVICE_GET_CLASS(dev);
    PCIBus *bus = pci_device_bus(dev);
    int i;

    pci_lock();
    if (!pci_place(dev, bus, errp)) {
        pci_unlock();
        return false;
    }
    dev->config_size = pc->is_express && object_dynamic_cast(
                           OBJECT(bus), TYPE_PCIE_BUS)
                           ? PCIE_CONFIG_SPACE_SIZE : PCI_CONFIG_SPACE_SIZE;
    pci_config_init(dev);
    dev->has_power = true;
    for (i = 0; i < PCI_NUM_REGIONS; i++) {
        dev->io_regions[i].addr = PCI_BAR_UNMAPPED;
    }
    bus->devices[dev->devfn] = dev;
    if (pc->realize && !pc->realize(dev, errp)) {
        bus->devices[dev->devfn] = NULL;
        pci_unlock();
        return false;
    }
    if (bus->parent_dev &&
        PCI_DEVICE_GET_CLASS(bus->parent_dev)->child_plugged) {
        PCI_DEVICE_GET_CLASS(bus->parent_dev)->child_plugged(bus->parent_dev,
                                                             dev);
    }
    pci_unlock();
    return true;
}

static void pci_qdev_unrealize(DeviceState *qdev)
{
    PCIDevice *dev = PCI_DEVICE(qdev);
    PCIDeviceClass *pc = PCI_DEVICE_GET_CLASS(dev);
    int i;

    pci_lock();
    if (pc->exit) {
        pc->exit(dev);
    }
    memory_region_transaction_begin();
    for (i = 0; i < PCI_NUM_REGIONS; i++) {
        PCIIORegion *r = &dev->io_regions[i];

        if (r->size && r->addr != PCI_BAR_UNMAPPED) {
            memory_region_del_subregion(r->address_space, r->memory);
            r->addr = PCI_BAR_UNMAPPED;
        }
    }
    memory_region_transaction_commit();
    pci_bus_change_irq(dev, -pci_irq_visible(dev));
    pci_device_bus(dev)->devices[dev->devfn] = NULL;
    pci_unlock();
}

/* A machine reset: the command register, BARs and INTx go back */
void pci_device_reset_config(PCIDevice *dev)
{
    int i;

    pci_lock();
    pci_bus_change_irq(dev, -pci_irq_visible(dev));
    dev->irq_level = 0;
    pci_set_word(dev->config + PCI_COMMAND,
                 pci_get_word(dev->config + PCI_COMMAND) &
                 ~pci_get_word(dev->wmask + PCI_COMMAND));
    pci_set_word(dev->config + PCI_STATUS,
                 pci_get_word(dev->config + PCI_STATUS) &
                 ~(PCI_STATUS_W1C | PCI_STATUS_INTERRUPT));
    dev->config[PCI_CACHE_LINE_SIZE] = 0;
    dev->config[PCI_INTERRUPT_LINE] = 0;
    for (i = 0; i < PCI_NUM_REGIONS; i++) {
        PCIIORegion *r = &dev->io_regions[i];
        int off = pci_bar_offset(dev, i);

        if (r->size) {
            pci_set_long(dev->config + off, r->type);
            if (r->type & PCI_BASE_ADDRESS_MEM_TYPE_64) {
                pci_set_long(dev->config + off + 4, 0);
            }
        }
    }
    pci_update_mappings(dev);
    pci_unlock();
}

void pci_set_power(PCIDevice *dev, bool state)
{
    pci_lock();
    if (dev->has_power != state) {
        dev->has_power = state;
        pci_update_mappings(dev);
        if (!state) {
            device_cold_reset(DEVICE(dev));
        }
    }
    pci_unlock();
}

static void pci_qdev_reset(DeviceState *qdev)
{
    pci_device_reset_config(PCI_DEVICE(qdev));
}

/* addr=: "slot[.fn]" in hex, or the devfn as a number ------------------------- */

static JsonNode *pci_devfn_get(Object *obj, ObjectProperty *prop,
                               Error **errp)
{
    return json_node_init_int(json_node_alloc(),
                              *(int32_t *)((char *)obj + prop->offset));
}

/*
 * QEMU 7.2's text: "SLOT[.FN]", each a number as strtoul reads hex (so
 * " 4", "+4" and "0x1f.0x2" pass, "4." and "-1" do not)
 */
static bool pci_devfn_parse(const char *s, int32_t *devfn)
{
    unsigned long slot, fn = 0;
    char *end;

    slot = strtoul(s, &end, 16);
    if (end == s) {
        return false;
    }
    if (*end == '.') {
        s = end + 1;
        fn = strtoul(s, &end, 16);
        if (end == s) {
            return false;
        }
    }
    if (*end || slot > 0x1f || fn > 7) {
        return false;
    }
    *devfn = PCI_DEVFN(slot, fn);
    return true;
}

/*
 * A JSON number is the devfn (-1: the first free slot); text, from JSON or
 * from -device/-global/device_add (which hand every value over as text,
 * so device_add's "addr": 24 is slot 0x24 and refused), is "SLOT[.FN]"
 */
static bool pci_devfn_set(Object *obj, ObjectProperty *prop, JsonNode *value,
                          Error **errp)
{
    int32_t *field = (int32_t *)((char *)obj + prop->offset);
    const char *type = object_get_typename(obj);

    if (!qdev_prop_allow_set(obj, prop->name, errp)) {
        return false;
    }
    if (JSON_NODE_HOLDS_VALUE(value) &&
        json_node_get_value_type(value) == G_TYPE_INT64) {
        int64_t v = json_node_get_int(value);

        if (v < -1 || v > 255) {
            error_setg(errp, "Parameter '%s' expects a value between -1 and "
                       "255", prop->name);
            return false;
        }
        *field = v;
        return true;
    }
    if (JSON_NODE_HOLDS_VALUE(value) &&
        json_node_get_value_type(value) == G_TYPE_STRING) {
        const char *s = json_node_get_string(value);

        if (!pci_devfn_parse(s, field)) {
            error_setg(errp, "Property '%s.%s' doesn't take value '%s'", type,
                       prop->name, s);
            return false;
        }
        return true;
    }
    error_setg(errp, "Invalid parameter type for '%s', expected int or str",
               prop->name);
    return false;
}

static char *pci_devfn_print(Object *obj, Property *p)
{
    int32_t devfn = *(int32_t *)((char *)obj + p->offset);

    if (devfn < 0) {
        return g_strdup("<unset>");
    }
    return g_strdup_printf("%02x.%x", PCI_SLOT(devfn), PCI_FUNC(devfn));
}

static const PropertyInfo pci_prop_devfn = {
    .name = "int32",
    .description = "Slot and optional function number, example: 06.0 or 06",
    .kind = PROP_KIND_OTHER,
    .get = pci_devfn_get,
    .set = pci_devfn_set,
    .print = pci_devfn_print,
    .setter_parses_text = true,
};

static Property pci_props[] = {
    DEFINE_PROP_SIGNED("addr", PCIDevice, devfn, -1, pci_prop_devfn, int32_t),
    DEFINE_PROP_STRING("romfile", PCIDevice, romfile),
    DEFINE_PROP_UINT32("romsize", PCIDevice, romsize, UINT32_MAX),
    DEFINE_PROP_UINT32("rombar", PCIDevice, rombar, 1),
    DEFINE_PROP_UNSIGNED("multifunction", PCIDevice, multifunction, false,
                         qdev_prop_bit, bool),
    DEFINE_PROP_UNSIGNED("x-pcie-lnksta-dllla", PCIDevice,
                         x_pcie_lnksta_dllla, true, qdev_prop_bit, bool),
    DEFINE_PROP_UNSIGNED("x-pcie-extcap-init", PCIDevice, x_pcie_extcap_init,
                         true, qdev_prop_bit, bool),
    DEFINE_PROP_STRING("failover_pair_id", PCIDevice, failover_pair_id),
    DEFINE_PROP_UINT32("acpi-index", PCIDevice, acpi_index, 0),
    DEFINE_PROP_END_OF_LIST(),
};

/* Buses -------------------------------------------------------------------- */

PCIBus *pci_root_bus_new(DeviceState *parent, const char *name,
                         MemoryRegion *mem, MemoryRegion *io,
                         const char *bus_type)
{
    PCIBus *bus = PCI_BUS(qbus_new(bus_type, parent, name));

    bus->address_space_mem = mem;
    bus->address_space_io = io;
    if (!pci_buses) {
        pci_buses = g_ptr_array_new();
    }
    g_ptr_array_add(pci_buses, bus);
    return bus;
}

static int pci_swizzle_map_irq(PCIDevice *dev, int pin)
{
    return (PCI_SLOT(dev->devfn) + pin) % 4;
}

PCIBus *pci_bus_new_secondary(PCIDevice *bridge, const char *name,
                              const char *bus_type, MemoryRegion *mem,
                              MemoryRegion *io)
{
    PCIBus *bus = PCI_BUS(qbus_new(bus_type, DEVICE(bridge), name));

    bus->parent_dev = bridge;
    bus->address_space_mem = mem;
    bus->address_space_io = io;
    bus->map_irq = pci_swizzle_map_irq;
    g_ptr_array_add(pci_all_buses(), bus);
    return bus;
}

void pci_bus_irqs(PCIBus *bus, PCISetIRQFunc *set_irq, PCIMapIRQFunc *map_irq,
                  void *opaque, int nirq)
{
    bus->set_irq = set_irq;
    bus->map_irq = map_irq;
    bus->irq_opaque = opaque;
    bus->nirq = nirq;
    g_free(bus->irq_count);
    bus->irq_count = g_new0(int, nirq);
}

GPtrArray *pci_all_buses(void)
{
    if (!pci_buses) {
        pci_buses = g_ptr_array_new();
    }
    return pci_buses;
}

PCIDevice *pci_new(int devfn, bool multifunction, const char *name)
{
    DeviceState *dev = qdev_new(name);

    qdev_prop_set_int32(dev, "addr", devfn);
    qdev_prop_set_bit(dev, "multifunction", multifunction);
    return PCI_DEVICE(dev);
}

bool pci_realize_and_unref(PCIDevice *dev, PCIBus *bus, Error **errp)
{
    return qdev_realize_and_unref(DEVICE(dev), BUS(bus), errp);
}

/* Registration ---------------------------------------------------------------- */

static void pci_device_finalize(Object *obj)
{
    PCIDevice *dev = PCI_DEVICE(obj);

    g_free(dev->config);
    g_free(dev->wmask);
    g_free(dev->w1cmask);
    g_free(dev->used);
}

static void pci_device_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    dc->bus_type = TYPE_PCI_BUS;
    dc->realize = pci_qdev_realize;
    dc->unrealize = pci_qdev_unrealize;
    dc->reset = pci_qdev_reset;
    pc->config_read = pci_default_read_config;
    pc->config_write = pci_default_write_config;
    device_class_set_props(dc, pci_props);
}

/* info qtree's lines of a function (QEMU's class names: pci-info.c) */
static void pci_dev_print(GString *out, DeviceState *qdev, int indent)
{
    PCIDevice *d = PCI_DEVICE(qdev);
    uint16_t class_id = pci_get_word(d->config + PCI_CLASS_DEVICE);
    const char *desc = pci_class_desc(class_id);
    size_t i;

    g_string_append_printf(out, "%*sclass ", indent, "");
    if (desc) {
        g_string_append(out, desc);
    } else {
        g_string_append_printf(out, "Class %04x", class_id);
    }
    g_string_append_printf(
        out, ", addr %02x:%02x.%x, pci id %04x:%04x (sub %04x:%04x)\n",
        pci_device_bus(d)->bus_num, PCI_SLOT(d->devfn), PCI_FUNC(d->devfn),
        pci_get_word(d->config + PCI_VENDOR_ID),
        pci_get_word(d->config + PCI_DEVICE_ID),
        pci_get_word(d->config + PCI_SUBSYSTEM_VENDOR_ID),
        pci_get_word(d->config + PCI_SUBSYSTEM_ID));
    for (i = 0; i < PCI_NUM_REGIONS; i++) {
        PCIIORegion *r = &d->io_regions[i];

        if (!r->size) {
            continue;
        }
        g_string_append_printf(out, "%*sbar %zu: %s at 0x%" PRIx64
                               " [0x%" PRIx64 "]\n", indent, "", i,
                               r->type & PCI_BASE_ADDRESS_SPACE_IO ? "i/o"
                                                                   : "mem",
                               r->addr, r->addr + r->size - 1);
    }
}

static void pci_bus_class_init(ObjectClass *oc, void *data)
{
    BUS_CLASS(oc)->print_dev = pci_dev_print;
}

static void pci_bus_finalize(Object *obj)
{
    PCIBus *bus = PCI_BUS(obj);

    if (pci_buses) {
        g_ptr_array_remove(pci_buses, bus);
    }
    g_free(bus->irq_count);
}

static void pci_register_types(void)
{
    static const TypeInfo infos[] = {
        {
            .name = TYPE_PCI_BUS,
            .parent = TYPE_BUS,
            .instance_size = sizeof(PCIBus),
            .instance_finalize = pci_bus_finalize,
            .class_init = pci_bus_class_init,
        },
        {
            .name = TYPE_PCIE_BUS,
            .parent = TYPE_PCI_BUS,
            .instance_size = sizeof(PCIBus),
        },
        {
            .name = TYPE_PCI_DEVICE,
            .parent = TYPE_DEVICE,
            .abstract = true,
            .instance_size = sizeof(PCIDevice),
            .instance_finalize = pci_device_finalize,
            .class_size = sizeof(PCIDeviceClass),
            .class_init = pci_device_class_init,
        },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(pci_register_types)
