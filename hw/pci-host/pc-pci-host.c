/*
 * PCI configuration mechanism #1 and the board's host bridge (see
 * include/hw/pci-host/pc-pci-host.h).
 *
 * CONFIG_ADDRESS (0xcf8) is a dword register: other widths there are not
 * configuration cycles, and 0xcf9 is the southbridge's reset control
 * register (hw/isa/reset-control.c), a region of the southbridge over
 * CONFIG_ADDRESS as in QEMU.  The host bridge shows the IDs and reset values a QEMU guest
 * reads before firmware touches it (its function 00.0, `i440FX` or `mch`,
 * is a PCI device of hw/pci/pci.c); CONFIG_DATA reaches every function of
 * the root bus, and on q35 the MCH's PCIEXBAR opens MMCONFIG.
 */
#include <string.h>

#include <glib.h>

#include "hw/pci-host/pc-pci-host.h"
#include "hw/pci-host/pam.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/i386/pc.h"
#include "hw/sysbus.h"

#define PCI_CONFIG_ADDR 0xcf8
#define PCI_CONFIG_DATA 0xcfc



/* State ------------------------------------------------------------------ */

/* The host bridge's own function, 00.0 on its root bus */
typedef struct PCHostFunctionInfo {
    const char *type;
    uint16_t device;
    uint8_t revision;
    /* Chipset registers' power-on values: {offset, size, value} */
    struct {
        uint8_t offset, size;
        uint32_t value;
    } regs[6];
    /*
     * Whether a machine reset loads them again: QEMU 7.2's MCH does, its
     * i440FX keeps whatever was written (PAM and the rest too)
     */
    bool regs_at_reset;
} PCHostFunctionInfo;

static const PCHostFunctionInfo host_functions[] = {
    [PC_HOST_I440FX] = {
        .type = TYPE_I440FX_PCI_DEVICE, .device = 0x1237, .revision = 0x02,
        .regs = { { 0x57, 1, 0x10 },                /* DRAMC */
                  { 0x72, 1, 0x02 } },              /* SMRAM: C_BASE_SEG */
    },
    [PC_HOST_Q35_MCH] = {
        .type = TYPE_MCH_PCI_DEVICE, .device = 0x29c0, .revision = 0x00,
        /* 0x50, QEMU's extended TSEG size, comes from ext_tseg_mbytes */
        .regs = { /* PCIEXBAR: 0xb0000000, 256 MiB, disabled until firmware */
                  { 0x60, 4, 0xb0000000 }, { 0x64, 4, 0 },
                  { 0x9c, 1, 0 },                   /* F_SMBASE */
                  { 0x9d, 1, 0x02 }, { 0x9e, 1, 0x38 } }, /* SMRAM, ESMRAMC */
        .regs_at_reset = true,
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
    PCIBus *bus;
    MemoryRegion conf_idx, conf_data;
    /*
     * QEMU 7.2's properties: "MCFG" (q35) follows where the MCH maps
     * MMCONFIG (-1: nowhere); the board sets the RAM split; the others
     * are stored for the ACPI tables and migration of later issues
     * (pci-hole64-size and x-pci-hole64-fix the 64-bit hole firmware is
     * told about, short_root_bus and x-config-reg-migration-enabled the
     * migration stream's device paths and sections)
     */
    uint64_t mcfg, hole64_size, below_4g, above_4g;
    uint32_t short_root_bus;
    bool hole64_fix, config_reg_migration, bypass_iommu;
} PCPCIHostState;

typedef struct PCHostFunctionState {
    PCIDevice parent_obj;
    PCHostBridgeKind kind;
    PCIBus *bus;                /* MMCONFIG's target */
    MemoryRegion mmcfg;         /* the MCH's PCIEXBAR window */
    uint64_t mmcfg_base;        /* UINT64_MAX: not mapped */

    /* Memory steering (see the SMRAM section below) */
    PAMState pam;
    MemoryRegion smram_region;  /* 0xA0000-0xBFFFF onto the PCI space */
    MemoryRegion open_high_smram, tseg_blackhole, smbase_blackhole; /* MCH */
    uint64_t tseg_size;

    /* mch properties */
    uint16_t ext_tseg_mbytes;
    bool smbase_smram;
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
    /* the host bridge's MCFG property says where, as 7.2's base_addr */
    ((PCPCIHostState *)DEVICE(f)->parent_bus->parent)->mcfg = base;
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

/*
 * Memory steering: PAM (hw/pci-host/pam.c) and SMRAM, as QEMU 7.2 models
 * them for code outside System Management Mode (there is no SMM address
 * space here, so the SMM-only windows of 7.2 -- smram-low, smram-high,
 * tseg-window, smbase-window -- have nothing to show through).
 *
 * i440FX SMRAM (0x72): a plain byte; D_OPEN (bit 6) lets RAM show at
 * 0xA0000-0xBFFFF instead of the PCI space ("smram-region" disabled).
 *
 * MCH SMRAM (0x9d): D_OPEN, D_CLS, D_LCK, G_SMRAME writable, C_BASE_SEG
 * fixed at 010.  Setting D_LCK clears D_OPEN and leaves only D_CLS
 * writable there and nothing in ESMRAMC, until reset.  With D_OPEN, the
 * legacy window opens to RAM unless H_SMRAME, which instead shows it at
 * 0xFEDA0000 ("smram-open-high").
 * MCH ESMRAMC (0x9e): H_SMRAME, TSEG_SZ (1, 2, 8 MiB or the property
 * extended-tseg-mbytes), T_EN writable; 0x38 fixed.  While T_EN and
 * G_SMRAME are set, the top TSEG_SZ of RAM below 4 GiB reads all-ones and
 * drops writes ("tseg-blackhole"), D_OPEN or not.
 * MCH F_SMBASE (0x9c), with smbase-smram (7.2's default from pc-q35-5.0):
 * not writable; 0xff asks for SMRAM at SMBASE (reads 0x01 then), a write
 * with bit 1 after that locks (0x02): 0x30000-0x4FFFF then reads all-ones
 * and drops writes ("smbase-blackhole"), until reset.  Without the
 * property it is a plain byte.
 */
#define I440FX_PAM 0x59
#define I440FX_SMRAM 0x72
/*
 * QEMU's own register (no Intel one is there): the TSEG size in MiB when
 * ESMRAMC selects the extended TSEG; firmware writes the query value and
 * reads the size back
 */
#define MCH_EXT_TSEG_MBYTES 0x50
#define MCH_EXT_TSEG_MBYTES_QUERY 0xffff
#define MCH_PAM 0x90
#define MCH_F_SMBASE 0x9c
#define MCH_SMRAM 0x9d
#define MCH_ESMRAMC 0x9e

#define SMRAM_D_OPEN 0x40
#define SMRAM_D_CLS 0x20
#define SMRAM_D_LCK 0x10
#define SMRAM_G_SMRAME 0x08
#define SMRAM_WMASK (SMRAM_D_OPEN | SMRAM_D_CLS | SMRAM_D_LCK | SMRAM_G_SMRAME)
#define ESMRAMC_H_SMRAME 0x80
#define ESMRAMC_TSEG_SZ 0x06
#define ESMRAMC_T_EN 0x01
#define ESMRAMC_WMASK (ESMRAMC_H_SMRAME | ESMRAMC_TSEG_SZ | ESMRAMC_T_EN)
#define F_SMBASE_QUERY 0xff
#define F_SMBASE_IN_RAM 0x01
#define F_SMBASE_LCK 0x02

#define SMRAM_LOW_BASE 0xa0000
#define SMRAM_LOW_SIZE 0x20000
#define SMRAM_HIGH_BASE 0xfeda0000
#define SMBASE_BASE 0x30000
#define SMBASE_SIZE 0x20000

static uint64_t blackhole_read(void *opaque, hwaddr addr, unsigned size)
{
    return UINT64_MAX;
}

static void blackhole_write(void *opaque, hwaddr addr, uint64_t value,
                            unsigned size)
{
}

static const MemoryRegionOps blackhole_ops = {
    .read = blackhole_read,
    .write = blackhole_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

static bool pc_host_function_is_mch(PCHostFunctionState *f)
{
    return f->kind == PC_HOST_Q35_MCH;
}

static void pc_host_update_pam(PCHostFunctionState *f)
{
    PCIDevice *d = &f->parent_obj;

    pam_update(&f->pam, d->config + (pc_host_function_is_mch(f) ? MCH_PAM
                                                               : I440FX_PAM));
}

static uint64_t mch_tseg_size(PCHostFunctionState *f)
{
    uint8_t esmramc = f->parent_obj.config[MCH_ESMRAMC];

    if (!(esmramc & ESMRAMC_T_EN) ||
        !(f->parent_obj.config[MCH_SMRAM] & SMRAM_G_SMRAME)) {
        return 0;
    }
    switch ((esmramc & ESMRAMC_TSEG_SZ) >> 1) {
    case 0:
        return 1 << 20;
    case 1:
        return 2 << 20;
    case 2:
        return 8 << 20;
    default:
        return (uint64_t)f->ext_tseg_mbytes << 20;
    }
}

static void pc_host_update_smram(PCHostFunctionState *f)
{
    PCIDevice *d = &f->parent_obj;
    uint8_t *smram;
    bool h_smrame;
    uint64_t tseg;

    memory_region_transaction_begin();
    if (!pc_host_function_is_mch(f)) {
        memory_region_set_enabled(&f->smram_region,
                                  !(d->config[I440FX_SMRAM] & SMRAM_D_OPEN));
        memory_region_transaction_commit();
        return;
    }
    smram = &d->config[MCH_SMRAM];
    if (*smram & SMRAM_D_LCK) {
        *smram &= ~SMRAM_D_OPEN;
        d->wmask[MCH_SMRAM] = SMRAM_D_CLS;
        d->wmask[MCH_ESMRAMC] = 0;
    }
    h_smrame = d->config[MCH_ESMRAMC] & ESMRAMC_H_SMRAME;
    if (*smram & SMRAM_D_OPEN) {
        memory_region_set_enabled(&f->smram_region, h_smrame);
        memory_region_set_enabled(&f->open_high_smram, h_smrame);
    } else {
        memory_region_set_enabled(&f->smram_region, true);
        memory_region_set_enabled(&f->open_high_smram, false);
    }
    tseg = mch_tseg_size(f);
    if (tseg != f->tseg_size) {
        /* A region's size is fixed here: a new one for each size */
        if (f->tseg_size) {
            memory_region_del_subregion(get_system_memory(),
                                        &f->tseg_blackhole);
            object_unparent(OBJECT(&f->tseg_blackhole));
        }
        f->tseg_size = tseg;
        if (tseg) {
            memory_region_init_io(&f->tseg_blackhole, OBJECT(f),
                                  &blackhole_ops, f, "tseg-blackhole", tseg);
            memory_region_add_subregion_overlap(get_system_memory(),
                                                memory_below_4g() - tseg,
                                                &f->tseg_blackhole, 1);
        }
    }
    memory_region_set_enabled(&f->smbase_blackhole,
                              f->smbase_smram &&
                              d->config[MCH_F_SMBASE] == F_SMBASE_LCK);
    memory_region_transaction_commit();
}

/* F_SMBASE's negotiation, with smbase-smram (the byte is not writable) */
static void mch_write_f_smbase(PCHostFunctionState *f, uint8_t value)
{
    uint8_t *reg = &f->parent_obj.config[MCH_F_SMBASE];

    if (*reg == 0 && value == F_SMBASE_QUERY) {
        *reg = F_SMBASE_IN_RAM;
    } else if (*reg == F_SMBASE_IN_RAM && (value & F_SMBASE_LCK)) {
        *reg = F_SMBASE_LCK;
    }
}

static void pc_host_load_regs(PCHostFunctionState *f)
{
    const PCHostFunctionInfo *info = &host_functions[f->kind];
    PCIDevice *d = &f->parent_obj;
    size_t i;
    unsigned b;

    for (i = 0; i < G_N_ELEMENTS(info->regs) && info->regs[i].size; i++) {
        for (b = 0; b < info->regs[i].size; b++) {
            d->config[info->regs[i].offset + b] =
                info->regs[i].value >> (8 * b);
        }
    }
}

/* Write masks and regions as reset leaves them (config already reset) */
static void pc_host_reset_steering(PCHostFunctionState *f)
{
    PCIDevice *d = &f->parent_obj;

    if (pc_host_function_is_mch(f)) {
        d->wmask[MCH_SMRAM] = SMRAM_WMASK;
        d->wmask[MCH_ESMRAMC] = ESMRAMC_WMASK;
        d->wmask[MCH_F_SMBASE] = f->smbase_smram ? 0 : 0xff;
    }
    pc_host_update_pam(f);
    pc_host_update_smram(f);
}

static bool pc_host_function_realize(PCIDevice *d, Error **errp)
{
    PCHostFunctionState *f = (PCHostFunctionState *)d;
    MemoryRegion *sysmem = get_system_memory();
    MemoryRegion *ram = memory_ram_region();

    if (!ram) {
        error_setg(errp, "%s needs the machine's RAM",
                   object_get_typename(OBJECT(d)));
        return false;
    }
    /* ESMRAMC has room for 12 bits of it in 7.2's design (0xfff MiB) */
    if (pc_host_function_is_mch(f) && f->ext_tseg_mbytes > 0xfff) {
        error_setg(errp, "invalid extended-tseg-mbytes value: %u",
                   f->ext_tseg_mbytes);
        return false;
    }
    pc_host_load_regs(f);
    memory_region_transaction_begin();
    pam_init(&f->pam, OBJECT(d), sysmem, ram, pc_pci_memory());
    memory_region_init_alias(&f->smram_region, OBJECT(d), "smram-region",
                             pc_pci_memory(), SMRAM_LOW_BASE,
                             SMRAM_LOW_SIZE);
    memory_region_add_subregion_overlap(sysmem, SMRAM_LOW_BASE,
                                        &f->smram_region, 1);
    if (pc_host_function_is_mch(f)) {
        memory_region_init_alias(&f->open_high_smram, OBJECT(d),
                                 "smram-open-high", ram, SMRAM_LOW_BASE,
                                 SMRAM_LOW_SIZE);
        memory_region_set_enabled(&f->open_high_smram, false);
        memory_region_add_subregion_overlap(sysmem, SMRAM_HIGH_BASE,
                                            &f->open_high_smram, 1);
        memory_region_init_io(&f->smbase_blackhole, OBJECT(d),
                              &blackhole_ops, f, "smbase-blackhole",
                              SMBASE_SIZE);
        memory_region_set_enabled(&f->smbase_blackhole, false);
        memory_region_add_subregion_overlap(sysmem, SMBASE_BASE,
                                            &f->smbase_blackhole, 1);
    }
    pc_host_reset_steering(f);
    memory_region_transaction_commit();
    return true;
}

static bool pc_range_touches(uint32_t addr, int len, uint32_t start,
                             uint32_t end)
{
    return addr < end && addr + len > start;
}

static void pc_host_function_write_config(PCIDevice *d, uint32_t addr,
                                          uint32_t val, int len)
{
    PCHostFunctionState *f = (PCHostFunctionState *)d;
    bool mch = pc_host_function_is_mch(f);
    uint32_t pam = mch ? MCH_PAM : I440FX_PAM;

    pci_default_write_config(d, addr, val, len);
    if (mch && f->smbase_smram &&
        pc_range_touches(addr, len, MCH_F_SMBASE, MCH_F_SMBASE + 1)) {
        mch_write_f_smbase(f, val >> (8 * (MCH_F_SMBASE - addr)));
    }
    if (mch && f->ext_tseg_mbytes > 0 &&
        pc_range_touches(addr, len, MCH_EXT_TSEG_MBYTES,
                         MCH_EXT_TSEG_MBYTES + 2) &&
        pci_get_word(d->config + MCH_EXT_TSEG_MBYTES) ==
            MCH_EXT_TSEG_MBYTES_QUERY) {
        pci_set_word(d->config + MCH_EXT_TSEG_MBYTES, f->ext_tseg_mbytes);
    }
    if (mch && pc_range_touches(addr, len, MCH_PCIEXBAR, MCH_PCIEXBAR + 8)) {
        mch_update_pciexbar(f);
    }
    if (pc_range_touches(addr, len, pam, pam + PAM_REGS)) {
        pc_host_update_pam(f);
    }
    if (mch ? pc_range_touches(addr, len, MCH_F_SMBASE, MCH_ESMRAMC + 1)
            : pc_range_touches(addr, len, I440FX_SMRAM, I440FX_SMRAM + 1)) {
        pc_host_update_smram(f);
    }
}

/* Reset ------------------------------------------------------------------ */

/* The chipset registers go back to their reset values; PCIEXBAR with them */
/*
 * Reset: the MCH's registers go back to their reset values (PCIEXBAR with
 * them), the i440FX's stay; PAM stays on both, as in QEMU 7.2 (SeaBIOS
 * copies itself back into the shadow RAM on a reboot for that reason)
 */
static void pc_host_function_reset(DeviceState *dev)
{
    PCHostFunctionState *f = (PCHostFunctionState *)dev;

    DEVICE_CLASS(object_class_get_parent(OBJECT_GET_CLASS(dev)))->reset(dev);
    pci_lock();
    if (host_functions[f->kind].regs_at_reset) {
        pc_host_load_regs(f);
    }
    /* 7.2: the query value, answered at once; left alone without one */
    if (f->kind == PC_HOST_Q35_MCH && f->ext_tseg_mbytes > 0) {
        pci_set_word(f->parent_obj.config + MCH_EXT_TSEG_MBYTES,
                     f->ext_tseg_mbytes);
    }
    if (f->kind == PC_HOST_Q35_MCH) {
        mch_update_pciexbar(f);
    }
    pc_host_reset_steering(f);
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

/* The host bridges' properties, in 7.2's order (its own, then its parent's) */
static Property q35_host_properties[] = {
    DEFINE_PROP_UINT64("MCFG", PCPCIHostState, mcfg, 0xb0000000),
    DEFINE_PROP_SIZE("pci-hole64-size", PCPCIHostState, hole64_size,
                     1ull << 35),
    DEFINE_PROP_UINT32("short_root_bus", PCPCIHostState, short_root_bus, 0),
    DEFINE_PROP_SIZE("below-4g-mem-size", PCPCIHostState, below_4g, 0),
    DEFINE_PROP_SIZE("above-4g-mem-size", PCPCIHostState, above_4g, 0),
    DEFINE_PROP_BOOL("x-pci-hole64-fix", PCPCIHostState, hole64_fix, true),
    DEFINE_PROP_END_OF_LIST(),
};

static Property i440fx_host_properties[] = {
    DEFINE_PROP_SIZE("pci-hole64-size", PCPCIHostState, hole64_size,
                     1ull << 31),
    DEFINE_PROP_UINT32("short_root_bus", PCPCIHostState, short_root_bus, 0),
    DEFINE_PROP_BOOL("x-pci-hole64-fix", PCPCIHostState, hole64_fix, true),
    DEFINE_PROP_END_OF_LIST(),
};

/* 7.2's abstract "pci-host-bridge" (hw_compat_5_0 names it) */
static Property pci_host_bridge_properties[] = {
    DEFINE_PROP_BOOL("x-config-reg-migration-enabled", PCPCIHostState,
                     config_reg_migration, true),
    DEFINE_PROP_BOOL("bypass-iommu", PCPCIHostState, bypass_iommu, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void pci_host_bridge_class_init(ObjectClass *oc, void *data)
{
    device_class_set_props(DEVICE_CLASS(oc), pci_host_bridge_properties);
}

static void pc_pci_host_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    ((PCPCIHostClass *)oc)->kind = (PCHostBridgeKind)(uintptr_t)data;
    dc->realize = pc_pci_host_realize;
    device_class_set_props(dc, (uintptr_t)data == PC_HOST_Q35_MCH
                               ? q35_host_properties
                               : i440fx_host_properties);
    /* no reset: CONFIG_ADDRESS keeps its value over a reset, as in 7.2 */
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
}

/* QEMU 7.2's defaults; pc_compat_2_9 and pc_compat_4_2 turn them off */
static Property mch_properties[] = {
    DEFINE_PROP_UINT16("extended-tseg-mbytes", PCHostFunctionState,
                       ext_tseg_mbytes, 16),
    DEFINE_PROP_BOOL("smbase-smram", PCHostFunctionState, smbase_smram, true),
    DEFINE_PROP_END_OF_LIST(),
};

static void pc_host_function_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);
    const PCHostFunctionInfo *info = &host_functions[(uintptr_t)data];

    pc->realize = pc_host_function_realize;
    if ((uintptr_t)data == PC_HOST_Q35_MCH) {
        device_class_set_props(dc, mch_properties);
    }

    pc->vendor_id = 0x8086;
    pc->device_id = info->device;
    pc->revision = info->revision;
    pc->class_id = 0x0600;      /* host bridge */
    pc->config_write = pc_host_function_write_config;
    dc->reset = pc_host_function_reset;
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    dc->user_creatable = false;
    /* 7.2's i440FX is not hotpluggable (ACPI's PCIRMV says so); mch is */
    dc->hotpluggable = (uintptr_t)data != PC_HOST_I440FX;
    dc->desc = (uintptr_t)data == PC_HOST_I440FX ? "Host bridge"
                                                 : "Host bridge";
}

static void pc_pci_host_register_types(void)
{
    static const TypeInfo infos[] = {
        {
            .name = "pci-host-bridge",
            .parent = TYPE_SYS_BUS_DEVICE,
            .instance_size = sizeof(PCPCIHostState),
            .class_size = sizeof(PCPCIHostClass),
            .abstract = true,
            .class_init = pci_host_bridge_class_init,
        },
        {
            .name = TYPE_Q35_HOST_DEVICE,
            .parent = "pci-host-bridge",
            .instance_size = sizeof(PCPCIHostState),
            .class_size = sizeof(PCPCIHostClass),
            .instance_init = pc_pci_host_initfn,
            .instance_finalize = pc_pci_host_finalize,
            .class_init = pc_pci_host_class_init,
            .class_data = (void *)(uintptr_t)PC_HOST_Q35_MCH,
        },
        {
            .name = TYPE_I440FX_PCI_HOST_BRIDGE,
            .parent = "pci-host-bridge",
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
