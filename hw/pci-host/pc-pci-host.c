/*
 * PCI configuration mechanism #1 and the board's host bridge (see
 * include/hw/pci-host/pc-pci-host.h).
 *
 * CONFIG_ADDRESS (0xcf8) is a dword register: other widths there are not
 * configuration cycles, and 0xcf9 is the southbridge's reset control
 * register (bit 2 resets the system, as Linux's reboot=pci uses it), a
 * region of its own over CONFIG_ADDRESS as in QEMU.  The host bridge shows the IDs and reset values a QEMU guest
 * reads before firmware touches it, subsystem 1af4:1100 as every QEMU
 * PCI device.  No other device exists yet, so every other bus, device
 * and function reads all-ones.
 */
#include <string.h>

#include <glib.h>

#include "hw/pci-host/pc-pci-host.h"
#include "hw/sysbus.h"
#include "sysemu/runstate.h"

#define PCI_CONFIG_ADDR 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_CONFIG_SPACE_SIZE 256

#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_CLASS_DEVICE 0x0a
#define PCI_HEADER_TYPE 0x0e
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c
#define PCI_SUBSYSTEM_ID 0x2e

#define RCR_SYS_RST 0x02
#define RCR_RST_CPU 0x04

/* State ------------------------------------------------------------------ */

typedef struct PCHostBridgeInfo {
    uint16_t vendor, device;
    uint8_t revision;
    /* Chipset registers with non-zero reset values: {offset, value} */
    struct {
        uint8_t offset, value;
    } regs[4];
} PCHostBridgeInfo;

static const PCHostBridgeInfo host_bridges[] = {
    [PC_HOST_I440FX] = {
        .vendor = 0x8086, .device = 0x1237, .revision = 0x02,
        .regs = { { 0x72, 0x02 } },                 /* SMRAM: C_BASE_SEG */
    },
    [PC_HOST_Q35_MCH] = {
        .vendor = 0x8086, .device = 0x29c0, .revision = 0x00,
        .regs = { { 0x9d, 0x02 }, { 0x9e, 0x38 } }, /* SMRAM, ESMRAMC */
    },
};

typedef struct PCPCIHostClass {
    DeviceClass parent_class;
    PCHostBridgeKind kind;
} PCPCIHostClass;

typedef struct PCPCIHostState {
    SysBusDevice parent_obj;
    GMutex lock;
    PCHostBridgeKind kind;
    uint32_t config_addr;
    uint8_t rcr;                /* reset control at 0xcf9 */
    uint8_t config[PCI_CONFIG_SPACE_SIZE];
    MemoryRegion conf_idx, conf_data, rcr_io;
} PCPCIHostState;

static void pci_set_word(uint8_t *p, uint16_t v)
{
    p[0] = v & 0xff;
    p[1] = v >> 8;
}

/* Register read/write ---------------------------------------------------- */

/* Offset in 00:00.0's space the current address selects, or -1 */
static int pc_pci_host_selected(const PCPCIHostState *s)
{
    uint32_t a = s->config_addr;

    if (!(a & 0x80000000u) || (a & 0x00ffff00u)) {
        return -1; /* disabled, or a bus/device/function with nothing */
    }
    return a & 0xfc;
}

/* Writable: command bits and the chipset's own registers */
static bool pc_pci_host_writable(unsigned offset)
{
    return offset == PCI_COMMAND || offset == PCI_COMMAND + 1 ||
           offset == 0x0d || offset >= 0x40;
}

/*
 * CONFIG_ADDRESS as QEMU 7.2's "pci-conf-idx": any read returns the
 * register (cut to the access), only a dword write at 0xcf8 sets it
 */
static uint64_t pc_pci_host_addr_read(void *opaque, hwaddr addr,
                                      unsigned size)
{
    PCPCIHostState *s = opaque;
    uint32_t v;

    g_mutex_lock(&s->lock);
    v = s->config_addr;
    g_mutex_unlock(&s->lock);
    return v;
}

static void pc_pci_host_addr_write(void *opaque, hwaddr addr, uint64_t value,
                                   unsigned size)
{
    PCPCIHostState *s = opaque;

    if (addr != 0 || size != 4) {
        return;
    }
    g_mutex_lock(&s->lock);
    s->config_addr = value;
    g_mutex_unlock(&s->lock);
}

/* The southbridge's reset control register at 0xcf9 */
static uint64_t pc_pci_host_rcr_read(void *opaque, hwaddr addr,
                                     unsigned size)
{
    PCPCIHostState *s = opaque;
    uint8_t v;

    g_mutex_lock(&s->lock);
    v = s->rcr;
    g_mutex_unlock(&s->lock);
    return v;
}

static void pc_pci_host_rcr_write(void *opaque, hwaddr addr, uint64_t value,
                                  unsigned size)
{
    PCPCIHostState *s = opaque;
    bool reset = value & RCR_RST_CPU;

    g_mutex_lock(&s->lock);
    if (!reset) {
        s->rcr = value & RCR_SYS_RST;
    }
    g_mutex_unlock(&s->lock);
    if (reset) {
        qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
    }
}

static uint64_t pc_pci_host_data_read(void *opaque, hwaddr addr,
                                      unsigned size)
{
    PCPCIHostState *s = opaque;
    uint64_t v = 0;
    unsigned i;
    int base;

    g_mutex_lock(&s->lock);
    base = pc_pci_host_selected(s);
    for (i = 0; i < size; i++) {
        unsigned off = base + (addr & 3) + i;

        v |= (uint64_t)(base < 0 ? 0xff : s->config[off & 0xff]) << (8 * i);
    }
    g_mutex_unlock(&s->lock);
    return v;
}

static void pc_pci_host_data_write(void *opaque, hwaddr addr, uint64_t value,
                                   unsigned size)
{
    PCPCIHostState *s = opaque;
    unsigned i;
    int base;

    g_mutex_lock(&s->lock);
    base = pc_pci_host_selected(s);
    for (i = 0; base >= 0 && i < size; i++) {
        unsigned off = (base + (addr & 3) + i) & 0xff;

        if (pc_pci_host_writable(off)) {
            s->config[off] = value >> (8 * i);
        }
    }
    g_mutex_unlock(&s->lock);
}

static const MemoryRegionOps pc_pci_host_addr_ops = {
    .read = pc_pci_host_addr_read,
    .write = pc_pci_host_addr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static const MemoryRegionOps pc_pci_host_data_ops = {
    .read = pc_pci_host_data_read,
    .write = pc_pci_host_data_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static const MemoryRegionOps pc_pci_host_rcr_ops = {
    .read = pc_pci_host_rcr_read,
    .write = pc_pci_host_rcr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Reset ------------------------------------------------------------------ */

static void pc_pci_host_reset_locked(PCPCIHostState *s)
{
    const PCHostBridgeInfo *info = &host_bridges[s->kind];
    size_t i;

    memset(s->config, 0, sizeof(s->config));
    pci_set_word(s->config + PCI_VENDOR_ID, info->vendor);
    pci_set_word(s->config + PCI_DEVICE_ID, info->device);
    s->config[PCI_REVISION_ID] = info->revision;
    s->config[PCI_CLASS_PROG] = 0x00;
    pci_set_word(s->config + PCI_CLASS_DEVICE, 0x0600); /* host bridge */
    s->config[PCI_HEADER_TYPE] = 0x00;
    pci_set_word(s->config + PCI_SUBSYSTEM_VENDOR_ID, 0x1af4);
    pci_set_word(s->config + PCI_SUBSYSTEM_ID, 0x1100);
    for (i = 0; i < G_N_ELEMENTS(info->regs) && info->regs[i].offset; i++) {
        s->config[info->regs[i].offset] = info->regs[i].value;
    }
    s->config_addr = 0;
    s->rcr = 0;
}

static void pc_pci_host_reset(DeviceState *dev)
{
    PCPCIHostState *s = (PCPCIHostState *)dev;

    g_mutex_lock(&s->lock);
    pc_pci_host_reset_locked(s);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void pc_pci_host_initfn(Object *obj)
{
    PCPCIHostState *s = (PCPCIHostState *)obj;

    g_mutex_init(&s->lock);
    s->kind = ((PCPCIHostClass *)OBJECT_GET_CLASS(obj))->kind;
    memory_region_init_io(&s->conf_idx, obj, &pc_pci_host_addr_ops, s,
                          "pci-conf-idx", 4);
    memory_region_init_io(&s->conf_data, obj, &pc_pci_host_data_ops, s,
                          "pci-conf-data", 4);
}

static bool pc_pci_host_realize(DeviceState *dev, Error **errp)
{
    PCPCIHostState *s = (PCPCIHostState *)dev;
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);

    sysbus_add_io(sbd, PCI_CONFIG_ADDR, &s->conf_idx);
    sysbus_add_io(sbd, PCI_CONFIG_DATA, &s->conf_data);
    /* ICH9-LPC's and PIIX3's register in QEMU, over pci-conf-idx */
    memory_region_init_io(&s->rcr_io, OBJECT(dev), &pc_pci_host_rcr_ops, s,
                          s->kind == PC_HOST_Q35_MCH ? "lpc-reset-control"
                                                     : "piix3-reset-control",
                          1);
    memory_region_add_subregion_overlap(get_system_io(), PCI_CONFIG_ADDR + 1,
                                        &s->rcr_io, 1);
    return true;
}

static void pc_pci_host_finalize(Object *obj)
{
    g_mutex_clear(&((PCPCIHostState *)obj)->lock);
}

/* Registration ------------------------------------------------------------ */

static void pc_pci_host_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    ((PCPCIHostClass *)oc)->kind = (PCHostBridgeKind)(uintptr_t)data;
    dc->realize = pc_pci_host_realize;
    dc->reset = pc_pci_host_reset;
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
}

static void pc_pci_host_register_types(void)
{
    static const TypeInfo infos[] = {
        {
            .name = TYPE_Q35_HOST_DEVICE,
            .parent = TYPE_SYS_BUS_DEVICE,
            .instance_size = sizeof(PCPCIHostState),
            .class_size = sizeof(PCPCIHostClass),
            .instance_init = pc_pci_host_initfn,
            .instance_finalize = pc_pci_host_finalize,
            .class_init = pc_pci_host_class_init,
            .class_data = (void *)(uintptr_t)PC_HOST_Q35_MCH,
        },
        {
            .name = TYPE_I440FX_PCI_HOST_BRIDGE,
            .parent = TYPE_SYS_BUS_DEVICE,
            .instance_size = sizeof(PCPCIHostState),
            .class_size = sizeof(PCPCIHostClass),
            .instance_init = pc_pci_host_initfn,
            .instance_finalize = pc_pci_host_finalize,
            .class_init = pc_pci_host_class_init,
            .class_data = (void *)(uintptr_t)PC_HOST_I440FX,
        },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(pc_pci_host_register_types)
