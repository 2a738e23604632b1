/*
 * PCI configuration mechanism #1 and the board's host bridge (see
 * include/hw/pci-host/pc-pci-host.h).
 *
 * CONFIG_ADDRESS (0xcf8) is a dword register: other widths there are not
 * configuration cycles, and 0xcf9 is the southbridge's reset control
 * register (bit 2 resets the system, as Linux's reboot=pci uses it), a
 * region of its own over CONFIG_ADDRESS as in QEMU.  The host bridge shows the IDs and reset values a QEMU guest
 * reads before firmware touches it (its function 00.0, `i440FX` or `mch`,
 * is a PCI device of hw/pci/pci.c); CONFIG_DATA reaches every function of
 * the root bus, and on q35 the MCH's PCIEXBAR opens MMCONFIG.
 */
#include <string.h>

#include <glib.h>

#include "hw/pci-host/pc-pci-host.h"
#include "hw/pci/pci.h"
#include "hw/i386/pc.h"
#include "hw/sysbus.h"
#include "sysemu/runstate.h"

#define PCI_CONFIG_ADDR 0xcf8
#define PCI_CONFIG_DATA 0xcfc


#define RCR_SYS_RST 0x02
#define RCR_RST_CPU 0x04

/* State ------------------------------------------------------------------ */

/* The host bridge's own function, 00.0 on its root bus */
typedef struct PCHostFunctionInfo {
    const char *type;
    uint16_t device;
    uint8_t revision;
    /* Chipset registers with non-zero reset values: {offset, value} */
    struct {
        uint8_t offset, value;
    } regs[6];
} PCHostFunctionInfo;

static const PCHostFunctionInfo host_functions[] = {
    [PC_HOST_I440FX] = {
        .type = TYPE_I440FX_PCI_DEVICE, .device = 0x1237, .revision = 0x02,
        .regs = { { 0x57, 0x10 },                   /* DRAMC */
                  { 0x72, 0x02 } },                 /* SMRAM: C_BASE_SEG */
    },
    [PC_HOST_Q35_MCH] = {
        .type = TYPE_MCH_PCI_DEVICE, .device = 0x29c0, .revision = 0x00,
        .regs = { { 0x50, 0x10 },                   /* GGC */
                  /* PCIEXBAR: 0xb0000000, 256 MiB, disabled until firmware */
                  { 0x63, 0xb0 },
                  { 0x9d, 0x02 }, { 0x9e, 0x38 } }, /* SMRAM, ESMRAMC */
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
    PCIBus *bus;
    MemoryRegion conf_idx, conf_data, rcr_io;
} PCPCIHostState;

typedef struct PCHostFunctionState {
    PCIDevice parent_obj;
    PCHostBridgeKind kind;
    PCIBus *bus;                /* MMCONFIG's target */
    MemoryRegion mmcfg;         /* the MCH's PCIEXBAR window */
    uint64_t mmcfg_base;        /* UINT64_MAX: not mapped */
} PCHostFunctionState;

/* Register read/write ---------------------------------------------------- */

/* CONFIG_ADDRESS as QEMU 7.2's "pci-conf-idx": any read returns the
 * register (cut to the access), only a dword write at 0xcf8 sets it */
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

/*
 * CONFIG_DATA: the enable bit, bus, device and function of CONFIG_ADDRESS
 * select the function; its low byte and the port's low bits the
 * offset, ORed together (QEMU 7.2: 0x80000001 then inl 0xcfc reads bytes
 * 1-4).  Disabled: all-ones.
 */
static bool pc_pci_host_target(PCPCIHostState *s, hwaddr addr, int *bus_num,
                               int *devfn, uint32_t *offset)
{
    uint32_t a;

    g_mutex_lock(&s->lock);
    a = s->config_addr;
    g_mutex_unlock(&s->lock);
    if (!(a & 0x80000000u)) {
        return false;
    }
    *bus_num = (a >> 16) & 0xff;
    *devfn = (a >> 8) & 0xff;
    *offset = (a & 0xff) | (addr & 3);
    return true;
}

static uint64_t pc_pci_host_data_read(void *opaque, hwaddr addr,
                                      unsigned size)
{
    PCPCIHostState *s = opaque;
    int bus_num, devfn;
    uint32_t offset;

    if (size > 4 || !pc_pci_host_target(s, addr, &bus_num, &devfn, &offset)) {
        return UINT32_MAX;
    }
    return pci_host_config_read(s->bus, bus_num, devfn, offset, size) &
           (UINT32_MAX >> (32 - 8 * size));
}

static void pc_pci_host_data_write(void *opaque, hwaddr addr, uint64_t value,
                                   unsigned size)
{
    PCPCIHostState *s = opaque;
    int bus_num, devfn;
    uint32_t offset;

    if (size <= 4 && pc_pci_host_target(s, addr, &bus_num, &devfn, &offset)) {
        pci_host_config_write(s->bus, bus_num, devfn, offset, value, size);
    }
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

/*
 * MMCONFIG (q35): the MCH's PCIEXBAR maps 1 MiB per bus of extended
 * configuration space, bus << 20 | devfn << 12 | offset
 */
static uint64_t mch_mmcfg_read(void *opaque, hwaddr addr, unsigned size)
{
    PCHostFunctionState *f = opaque;

    return pci_host_config_read(f->bus, addr >> 20, (addr >> 12) & 0xff,
                                addr & 0xfff, size) &
           (UINT32_MAX >> (32 - 8 * size));
}

static void mch_mmcfg_write(void *opaque, hwaddr addr, uint64_t value,
                            unsigned size)
{
    PCHostFunctionState *f = opaque;

    pci_host_config_write(f->bus, addr >> 20, (addr >> 12) & 0xff,
                          addr & 0xfff, value, size);
}

static const MemoryRegionOps mch_mmcfg_ops = {
    .read = mch_mmcfg_read,
    .write = mch_mmcfg_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

#define MCH_PCIEXBAR 0x60
#define MCH_PCIEXBAR_EN 0x1

/* PCIEXBAR: enable bit 0, length in bits 2:1 (256, 128, 64 MiB buses) */
static void mch_update_pciexbar(PCHostFunctionState *f)
{
    PCIDevice *d = &f->parent_obj;
    uint64_t bar = pci_get_long(d->config + MCH_PCIEXBAR) |
                   (uint64_t)pci_get_long(d->config + MCH_PCIEXBAR + 4) << 32;
    uint64_t base = UINT64_MAX, size = 0;

    if (bar & MCH_PCIEXBAR_EN) {
        switch ((bar >> 1) & 3) {
        case 0:
            size = 256ull << 20, base = bar & 0xff0000000ull;
            break;
        case 1:
            size = 128ull << 20, base = bar & 0xff8000000ull;
            break;
        case 2:
            size = 64ull << 20, base = bar & 0xffc000000ull;
            break;
        default:
            break;              /* reserved: no window */
        }
    }
    if (base == f->mmcfg_base &&
        (base == UINT64_MAX || size == memory_region_size(&f->mmcfg))) {
        return;
    }
    memory_region_transaction_begin();
    if (f->mmcfg_base != UINT64_MAX) {
        memory_region_del_subregion(get_system_memory(), &f->mmcfg);
        object_unparent(OBJECT(&f->mmcfg));
    }
    f->mmcfg_base = base;
    if (base != UINT64_MAX) {
        memory_region_init_io(&f->mmcfg, OBJECT(f), &mch_mmcfg_ops, f,
                              "pcie-mmcfg-mmio", size);
        memory_region_add_subregion(get_system_memory(), base, &f->mmcfg);
    }
    memory_region_transaction_commit();
}

static void pc_host_function_write_config(PCIDevice *d, uint32_t addr,
                                          uint32_t val, int len)
{
    PCHostFunctionState *f = (PCHostFunctionState *)d;

    pci_default_write_config(d, addr, val, len);
    if (f->kind == PC_HOST_Q35_MCH && addr < MCH_PCIEXBAR + 8 &&
        addr + len > MCH_PCIEXBAR) {
        mch_update_pciexbar(f);
    }
}

/* Reset ------------------------------------------------------------------ */

static void pc_pci_host_reset(DeviceState *dev)
{
    PCPCIHostState *s = (PCPCIHostState *)dev;

    g_mutex_lock(&s->lock);
    s->config_addr = 0;
    s->rcr = 0;
    g_mutex_unlock(&s->lock);
}

/* The chipset registers go back to their reset values; PCIEXBAR with them */
static void pc_host_function_reset(DeviceState *dev)
{
    PCHostFunctionState *f = (PCHostFunctionState *)dev;
    PCIDevice *d = &f->parent_obj;
    const PCHostFunctionInfo *info = &host_functions[f->kind];
    size_t i;

    DEVICE_CLASS(object_class_get_parent(OBJECT_GET_CLASS(dev)))->reset(dev);
    pci_lock();
    memset(d->config + PCI_CONFIG_HEADER_SIZE, 0,
           d->config_size - PCI_CONFIG_HEADER_SIZE);
    for (i = 0; i < G_N_ELEMENTS(info->regs) && info->regs[i].offset; i++) {
        d->config[info->regs[i].offset] = info->regs[i].value;
    }
    if (f->kind == PC_HOST_Q35_MCH) {
        mch_update_pciexbar(f);
    }
    pci_unlock();
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
    bool q35 = s->kind == PC_HOST_Q35_MCH;
    PCHostFunctionState *f;
    PCIDevice *d;

    sysbus_add_io(sbd, PCI_CONFIG_ADDR, &s->conf_idx);
    sysbus_add_io(sbd, PCI_CONFIG_DATA, &s->conf_data);
    /* ICH9-LPC's and PIIX3's register in QEMU, over pci-conf-idx */
    memory_region_init_io(&s->rcr_io, OBJECT(dev), &pc_pci_host_rcr_ops, s,
                          q35 ? "lpc-reset-control" : "piix3-reset-control",
                          1);
    memory_region_add_subregion_overlap(get_system_io(), PCI_CONFIG_ADDR + 1,
                                        &s->rcr_io, 1);

    s->bus = pci_root_bus_new(dev, q35 ? "pcie.0" : "pci.0", pc_pci_memory(),
                              get_system_io(),
                              q35 ? TYPE_PCIE_BUS : TYPE_PCI_BUS);
    d = pci_new(0, false, host_functions[s->kind].type);
    f = (PCHostFunctionState *)d;
    f->bus = s->bus;
    if (q35) {
        object_property_add_child(OBJECT(dev), "mch", OBJECT(d));
    }
    return pci_realize_and_unref(d, s->bus, errp);
}

PCIBus *pc_pci_host_bus(DeviceState *host)
{
    return ((PCPCIHostState *)host)->bus;
}

static void pc_pci_host_finalize(Object *obj)
{
    g_mutex_clear(&((PCPCIHostState *)obj)->lock);
}

static void pc_host_function_initfn(Object *obj)
{
    PCHostFunctionState *f = (PCHostFunctionState *)obj;

    f->kind = strcmp(object_get_typename(obj), TYPE_MCH_PCI_DEVICE)
                  ? PC_HOST_I440FX : PC_HOST_Q35_MCH;
    f->mmcfg_base = UINT64_MAX;
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

static void pc_host_function_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);
    const PCHostFunctionInfo *info = &host_functions[(uintptr_t)data];

    pc->vendor_id = 0x8086;
    pc->device_id = info->device;
    pc->revision = info->revision;
    pc->class_id = 0x0600;      /* host bridge */
    pc->config_write = pc_host_function_write_config;
    dc->reset = pc_host_function_reset;
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    dc->user_creatable = false;
    dc->desc = (uintptr_t)data == PC_HOST_I440FX ? "Host bridge"
                                                 : "Host bridge";
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
        {
            .name = TYPE_MCH_PCI_DEVICE,
            .parent = TYPE_PCI_DEVICE,
            .instance_size = sizeof(PCHostFunctionState),
            .instance_init = pc_host_function_initfn,
            .class_init = pc_host_function_class_init,
            .class_data = (void *)(uintptr_t)PC_HOST_Q35_MCH,
        },
        {
            .name = TYPE_I440FX_PCI_DEVICE,
            .parent = TYPE_PCI_DEVICE,
            .instance_size = sizeof(PCHostFunctionState),
            .instance_init = pc_host_function_initfn,
            .class_init = pc_host_function_class_init,
            .class_data = (void *)(uintptr_t)PC_HOST_I440FX,
        },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(pc_pci_host_register_types)
