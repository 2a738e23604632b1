/*
 * ich9-ahci, function 2 of device 31 on the q35 boards (00:1f.2;
 * 8086:2922 rev 02, class 0106 prog-if 01, multifunction; QEMU 7.2's
 * values): the AHCI host bus adapter with six ports, each an IDE bus
 * ("ide.0".."ide.5") with room for one drive.
 *
 * Configuration space as 7.2 builds it: BAR4 the index/data pair
 * ("ahci-idp", 32 bytes of I/O: index at 0x10, data at 0x14), BAR5 ABAR
 * ("ahci", 4 KiB of memory), the MSI capability at 0x80 (one vector,
 * 64-bit) before the SATA capability at 0xa8 (revision 1.0, "BAR4 +
 * 0x10"), 0x90 (MAP) = 0x40.
 *
 * HBA registers as 7.2 answers them: CAP 0xc0141f05 (64-bit, NCQ, AHCI
 * only, Gen1, 32 slots, 6 ports), GHC (IE writable, AE always set, HR
 * resets the HBA and reads back 0), IS (write 1 to clear), PI 0x3f, VS
 * 1.0; CCC, EM, CAP2 and BOHC read 0.  Reads of any size at any offset
 * within a dword; writes only dword-aligned (narrower ones land as the
 * value written).  Each port: CLB/CLBU/FB/FBU as written, IS (write 1 to
 * clear), IE (mask 0xfdc000ff), CMD (the writable bits; ST and FRE start
 * the command list and FIS receive engines, which map their buffers
 * through the function's bus master view as 7.2's DMA mapping does:
 * guest RAM while bus mastering is on, else 7.2's single bounce buffer,
 * which the first mapping holds), TFD 0x7f and SIG all-ones for a port
 * without a drive, SSTS 0 (no device), SCTL (DET going 1 -> 0 resets
 * the port), SERR (write 1 to clear), SACT (write 1 to set), CI.
 * Reset (and GHC.HR): GHC = AE, IS 0, each port IS/IE/SCTL 0, CMD
 * SUD|POD, SERR/SACT/CI 0, TFD 0x7f, SIG all-ones; CLB and FB keep
 * their values, as in 7.2.
 *
 * No drive attaches yet, so no port ever has a device; as in 7.2 the
 * first start of FIS receive still "receives" the empty unit's D2H
 * register FIS (TFD, SIG, IS.DHRS, the FIS in the receive area, an
 * interrupt if enabled), and commands issued (CI) stay issued.
 */
#include "hw/ide/ide-bus.h"
#include "hw/pci/msi.h"
#include "hw/pci/pci.h"
#include "hw/southbridge/ich9.h"
#include "qemu/rcu.h"
#include "sysemu/device.h"

/* State ------------------------------------------------------------------ */

#define AHCI_PORTS 6
#define AHCI_MEM_BAR_SIZE 0x1000
#define AHCI_IDP_SIZE 32
#define AHCI_IDP_INDEX 0x10
#define AHCI_HOST_REGS_END 0x2c
#define AHCI_PORT_REGS_START 0x100
#define AHCI_PORT_REGS_LEN 0x80

#define HOST_CTL_RESET 0x00000001u
#define HOST_CTL_IRQ_EN 0x00000002u
#define HOST_CTL_AHCI_EN 0x80000000u
#define AHCI_CAP (0x80000000u /* 64-bit */ | 0x40000000u /* NCQ */ | \
                  0x00040000u /* AHCI only */ | 1u << 20 /* Gen1 */ |   \
                  31u << 8 /* 32 slots */ | (AHCI_PORTS - 1))
#define AHCI_VERSION_1_0 0x00010000u

#define PORT_CMD_START 0x00000001u
#define PORT_CMD_SPIN_UP 0x00000002u
#define PORT_CMD_POWER_ON 0x00000004u
#define PORT_CMD_FIS_RX 0x00000010u
#define PORT_CMD_FIS_ON 0x00004000u
#define PORT_CMD_LIST_ON 0x00008000u
#define PORT_CMD_RO_MASK 0x007dffe0u
#define PORT_CMD_ICC_MASK 0xf0000000u
#define PORT_IRQ_MASK 0xfdc000ffu
#define SCTL_DET 0xfu

/* Port registers, dword index */
enum {
    PORT_CLB, PORT_CLBU, PORT_FB, PORT_FBU, PORT_IS, PORT_IE, PORT_CMD,
    PORT_RSVD, PORT_TFD, PORT_SIG, PORT_SSTS, PORT_SCTL, PORT_SERR,
    PORT_SACT, PORT_CI,
};

/* Where an engine's buffer is mapped: nowhere, guest RAM, the bounce */
typedef enum { MAP_NONE, MAP_RAM, MAP_BOUNCE } AHCIMapping;

typedef struct AHCIPort {
    uint32_t clb, clbu, fb, fbu, is, ie, cmd, tfd, sig;
    uint32_t sctl, serr, sact, ci;
    AHCIMapping lst, fis;
    bool init_d2h_sent;         /* the first D2H register FIS went out */
    IDEBus *bus;
} AHCIPort;

typedef struct AHCIPCIState {
    PCIDevice parent_obj;
    GMutex lock;
    MemoryRegion mem, idp;
    uint32_t ghc, irqstatus, idp_index;
    AHCIPort ports[AHCI_PORTS];
} AHCIPCIState;

/*
 * QEMU 7.2 maps non-RAM DMA targets through one bounce buffer for the
 * whole machine; an AHCI engine that maps one keeps it.  Nothing else
 * here maps DMA that way, so the AHCI functions share this one.
 */
static bool ahci_bounce_in_use;

/* DMA mapping ------------------------------------------------------------ */

/* Is [addr, addr + len) one piece of writable guest RAM? */
static bool ahci_range_is_ram(uint64_t addr, uint64_t len)
{
    const FlatRange *r;
    bool ok = false;

    rcu_read_lock();
    r = flatview_lookup(address_space_to_flatview(&address_space_memory),
                        addr);
    if (r && r->mr->ram && !r->mr->readonly &&
        (Int128)r->start + r->size >= (Int128)addr + len) {
        ok = true;
    }
    rcu_read_unlock();
    return ok;
}

static void ahci_unmap(AHCIMapping *m)
{
    if (*m == MAP_BOUNCE) {
        ahci_bounce_in_use = false;
    }
    *m = MAP_NONE;
}

/* 7.2's map_page: drop the old mapping, map len bytes at addr */
static bool ahci_map(AHCIPCIState *s, AHCIMapping *m, uint64_t addr,
                     uint64_t len)
{
    bool master = pci_get_word(s->parent_obj.config + PCI_COMMAND) &
                  PCI_COMMAND_MASTER;

    ahci_unmap(m);
    if (master && ahci_range_is_ram(addr, len)) {
        *m = MAP_RAM;
    } else if (!ahci_bounce_in_use && (!master || !ahci_range_is_ram(addr, 1))) {
        /* not RAM: the bounce buffer (a page: room for either buffer) */
        ahci_bounce_in_use = true;
        *m = MAP_BOUNCE;
    }
    return *m != MAP_NONE;
}

/* ST and FRE start and stop the engines */
static void ahci_cond_start_engines(AHCIPCIState *s, AHCIPort *p)
{
    if ((p->cmd & PORT_CMD_START) && !(p->cmd & PORT_CMD_LIST_ON)) {
        if (!ahci_map(s, &p->lst, (uint64_t)p->clbu << 32 | p->clb, 1024)) {
            p->cmd &= ~(PORT_CMD_START | PORT_CMD_LIST_ON);
            return;
        }
        p->cmd |= PORT_CMD_LIST_ON;
    } else if (!(p->cmd & PORT_CMD_START) && (p->cmd & PORT_CMD_LIST_ON)) {
        if (p->lst != MAP_NONE) {
            ahci_unmap(&p->lst);
            p->cmd &= ~PORT_CMD_LIST_ON;
        }
    }
    if ((p->cmd & PORT_CMD_FIS_RX) && !(p->cmd & PORT_CMD_FIS_ON)) {
        if (!ahci_map(s, &p->fis, (uint64_t)p->fbu << 32 | p->fb, 256)) {
            p->cmd &= ~(PORT_CMD_FIS_RX | PORT_CMD_FIS_ON);
            return;
        }
        p->cmd |= PORT_CMD_FIS_ON;
    } else if (!(p->cmd & PORT_CMD_FIS_RX) && (p->cmd & PORT_CMD_FIS_ON)) {
        if (p->fis != MAP_NONE) {
            ahci_unmap(&p->fis);
            p->cmd &= ~PORT_CMD_FIS_ON;
        }
    }
}

/* Interrupts ------------------------------------------------------------- */

static void ahci_check_irq(AHCIPCIState *s)
{
    PCIDevice *d = &s->parent_obj;
    int i;

    s->irqstatus = 0;
    for (i = 0; i < AHCI_PORTS; i++) {
        if (s->ports[i].is & s->ports[i].ie) {
            s->irqstatus |= 1u << i;
        }
    }
    if (s->irqstatus && (s->ghc & HOST_CTL_IRQ_EN)) {
        if (msi_enabled(d)) {
            msi_notify(d, 0);
        } else {
            pci_set_irq(d, 1);
        }
    } else if (!msi_enabled(d)) {
        pci_set_irq(d, 0);
    }
}

#define PORT_IRQ_DHRS 0x00000001u
#define PORT_IRQ_TFES 0x40000000u
#define RES_FIS_RFIS 0x40

/*
 * The D2H register FIS the device sends once the FIS receive engine
 * runs.  7.2 sends it on a port without a drive too, with the empty
 * unit's registers: TFD and SIG take them (0x50, 0xffff0101), IS.DHRS
 * is set and the FIS lands in the receive area (when that is guest
 * RAM; 7.2's bounce buffer keeps it)
 */
static void ahci_init_d2h(AHCIPCIState *s, AHCIPort *p)
{
    IDEUnit *u = &p->bus->ch.units[0];
    uint8_t fis[20] = { 0x34, 0x40, u->status, u->error, u->sector, u->lcyl,
                        u->hcyl, u->select, u->hob_sector, u->hob_lcyl,
                        u->hob_hcyl, 0, u->nsector, 0 };

    if (p->init_d2h_sent || p->fis == MAP_NONE ||
        !(p->cmd & PORT_CMD_FIS_RX)) {
        return;
    }
    if (p->fis == MAP_RAM) {
        address_space_write(&address_space_memory,
                            ((uint64_t)p->fbu << 32 | p->fb) + RES_FIS_RFIS,
                            MEMTXATTRS_UNSPECIFIED, fis, sizeof(fis));
    }
    p->tfd = (uint32_t)u->error << 8 | u->status;
    p->is |= (u->status & IDE_STAT_ERR) ? PORT_IRQ_TFES : 0;
    p->is |= PORT_IRQ_DHRS;
    ahci_check_irq(s);
    p->init_d2h_sent = true;
    p->sig = (uint32_t)u->hcyl << 24 | u->lcyl << 16 | u->sector << 8 |
             u->nsector;
}

/* Reset ------------------------------------------------------------------ */

/* Lock held (the channel's is the HBA's) */
static void ahci_reset_port(AHCIPort *p)
{
    ide_channel_reset(&p->bus->ch);
    /* 7.2's port reset also drops the issued commands (measured) */
    p->serr = p->sact = p->ci = 0;
    p->tfd = 0x7f;              /* no drive */
    p->sig = 0xffffffff;
    p->init_d2h_sent = false;
}

/* The HBA's registers (GHC.HR and a machine reset); lock held */
static void ahci_hba_reset(AHCIPCIState *s)
{
    int i;

    s->irqstatus = 0;
    s->ghc = HOST_CTL_AHCI_EN;
    for (i = 0; i < AHCI_PORTS; i++) {
        AHCIPort *p = &s->ports[i];

        p->is = p->ie = p->sctl = 0;
        /* LIST_ON/FIS_ON drop; 7.2 keeps the buffers mapped all the same */
        p->cmd = PORT_CMD_SPIN_UP | PORT_CMD_POWER_ON;
        ahci_reset_port(p);
    }
}

/* Register read/write ---------------------------------------------------- */

static uint32_t ahci_port_read(AHCIPort *p, unsigned reg)
{
    switch (reg) {
    case PORT_CLB: return p->clb;
    case PORT_CLBU: return p->clbu;
    case PORT_FB: return p->fb;
    case PORT_FBU: return p->fbu;
    case PORT_IS: return p->is;
    case PORT_IE: return p->ie;
    case PORT_CMD: return p->cmd;
    case PORT_TFD: return p->tfd;
    case PORT_SIG: return p->sig;
    case PORT_SSTS: return 0;   /* DET 0: no device */
    case PORT_SCTL: return p->sctl;
    case PORT_SERR: return p->serr;
    case PORT_SACT: return p->sact;
    case PORT_CI: return p->ci;
    default: return 0;
    }
}

static void ahci_port_write(AHCIPCIState *s, AHCIPort *p, unsigned reg,
                            uint32_t val)
{
    switch (reg) {
    case PORT_CLB:
        p->clb = val;
        break;
    case PORT_CLBU:
        p->clbu = val;
        break;
    case PORT_FB:
        p->fb = val;
        break;
    case PORT_FBU:
        p->fbu = val;
        break;
    case PORT_IS:
        p->is &= ~val;
        ahci_check_irq(s);
        break;
    case PORT_IE:
        p->ie = val & PORT_IRQ_MASK;
        ahci_check_irq(s);
        break;
    case PORT_CMD:
        p->cmd = (p->cmd & PORT_CMD_RO_MASK) |
                 (val & ~(PORT_CMD_RO_MASK | PORT_CMD_ICC_MASK));
        ahci_cond_start_engines(s, p);
        if (p->cmd & PORT_CMD_FIS_ON) {
            ahci_init_d2h(s, p);
        }
        break;
    case PORT_SCTL:
        if ((p->sctl & SCTL_DET) == 1 && (val & SCTL_DET) == 0) {
            ahci_reset_port(p);
        }
        p->sctl = val;
        break;
    case PORT_SERR:
        p->serr &= ~val;
        break;
    case PORT_SACT:
        p->sact |= val;
        break;
    case PORT_CI:
        /* 7.2 runs none of them without a drive: they stay issued */
        p->ci |= val;
        break;
    default:                    /* read-only or reserved */
        break;
    }
}

static uint32_t ahci_read32(AHCIPCIState *s, hwaddr addr)
{
    if (addr < AHCI_HOST_REGS_END) {
        switch (addr >> 2) {
        case 0: return AHCI_CAP;
        case 1: return s->ghc;
        case 2: return s->irqstatus;
        case 3: return (1u << AHCI_PORTS) - 1;
        case 4: return AHCI_VERSION_1_0;
        default: return 0;
        }
    }
    if (addr >= AHCI_PORT_REGS_START &&
        addr < AHCI_PORT_REGS_START + AHCI_PORTS * AHCI_PORT_REGS_LEN) {
        addr -= AHCI_PORT_REGS_START;
        return ahci_port_read(&s->ports[addr / AHCI_PORT_REGS_LEN],
                              (addr % AHCI_PORT_REGS_LEN) >> 2);
    }
    return 0;
}

/* Any size within a dword (a qword: two dwords) */
static uint64_t ahci_read(AHCIPCIState *s, hwaddr addr, unsigned size)
{
    hwaddr aligned = addr & ~3;
    unsigned ofs = addr - aligned;
    uint64_t v = ahci_read32(s, aligned);

    if (ofs + size > 4) {
        v |= (uint64_t)ahci_read32(s, aligned + 4) << 32;
    }
    return v >> (ofs * 8);
}

static void ahci_write(AHCIPCIState *s, hwaddr addr, uint64_t val)
{
    if (addr & 3) {
        return;                 /* 7.2 ignores misaligned writes */
    }
    if (addr < AHCI_HOST_REGS_END) {
        switch (addr >> 2) {
        case 1:                 /* GHC */
            if (val & HOST_CTL_RESET) {
                ahci_hba_reset(s);
            } else {
                s->ghc = (val & 3) | HOST_CTL_AHCI_EN;
                ahci_check_irq(s);
            }
            break;
        case 2:                 /* IS */
            s->irqstatus &= ~val;
            ahci_check_irq(s);
            break;
        default:                /* read-only */
            break;
        }
    } else if (addr >= AHCI_PORT_REGS_START &&
               addr < AHCI_PORT_REGS_START + AHCI_PORTS * AHCI_PORT_REGS_LEN) {
        addr -= AHCI_PORT_REGS_START;
        ahci_port_write(s, &s->ports[addr / AHCI_PORT_REGS_LEN],
                        (addr % AHCI_PORT_REGS_LEN) >> 2, val);
    }
}

static uint64_t ahci_mem_read(void *opaque, hwaddr addr, unsigned size)
{
    AHCIPCIState *s = opaque;
    uint64_t v;

    g_mutex_lock(&s->lock);
    v = ahci_read(s, addr, size);
    g_mutex_unlock(&s->lock);
    return v;
}

static void ahci_mem_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    AHCIPCIState *s = opaque;

    g_mutex_lock(&s->lock);
    ahci_write(s, addr, val);
    g_mutex_unlock(&s->lock);
}

static const MemoryRegionOps ahci_mem_ops = {
    .read = ahci_mem_read,
    .write = ahci_mem_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* The index/data pair: ABAR through I/O space */
static uint64_t ahci_idp_read(void *opaque, hwaddr addr, unsigned size)
{
    AHCIPCIState *s = opaque;
    uint64_t v = 0;

    g_mutex_lock(&s->lock);
    if (addr == AHCI_IDP_INDEX) {
        v = s->idp_index;
    } else if (addr == AHCI_IDP_INDEX + 4) {
        v = ahci_read(s, s->idp_index, size);
    }
    g_mutex_unlock(&s->lock);
    return v;
}

static void ahci_idp_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    AHCIPCIState *s = opaque;

    g_mutex_lock(&s->lock);
    if (addr == AHCI_IDP_INDEX) {
        s->idp_index = (uint32_t)val & ((AHCI_MEM_BAR_SIZE - 1) & ~3);
    } else if (addr == AHCI_IDP_INDEX + 4) {
        ahci_write(s, s->idp_index, val);
    }
    g_mutex_unlock(&s->lock);
}

static const MemoryRegionOps ahci_idp_ops = {
    .read = ahci_idp_read,
    .write = ahci_idp_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static void ich9_ahci_reset(DeviceState *dev)
{
    AHCIPCIState *s = (AHCIPCIState *)dev;

    DEVICE_CLASS(object_class_get_parent(OBJECT_GET_CLASS(dev)))->reset(dev);
    g_mutex_lock(&s->lock);
    ahci_hba_reset(s);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void ich9_ahci_initfn(Object *obj)
{
    AHCIPCIState *s = (AHCIPCIState *)obj;

    g_mutex_init(&s->lock);
    /* in instance_init, as 7.2 (-device ich9-ahci,help lists them) */
    memory_region_init_io(&s->mem, obj, &ahci_mem_ops, s, "ahci",
                          AHCI_MEM_BAR_SIZE);
    memory_region_init_io(&s->idp, obj, &ahci_idp_ops, s, "ahci-idp",
                          AHCI_IDP_SIZE);
}

static bool ich9_ahci_realize(PCIDevice *d, Error **errp)
{
    AHCIPCIState *s = (AHCIPCIState *)d;
    uint8_t *sata;
    int i, off;

    for (i = 0; i < AHCI_PORTS; i++) {
        s->ports[i].bus = ide_bus_new(DEVICE(d), &s->lock, NULL, NULL);
    }
    d->config[PCI_CLASS_PROG] = 0x01;       /* AHCI 1.0 */
    d->config[PCI_CACHE_LINE_SIZE] = 0x08;
    d->config[PCI_INTERRUPT_PIN] = 1;
    d->config[0x90] = 0x40;                 /* MAP: AHCI mode */
    pci_register_bar(d, 4, PCI_BASE_ADDRESS_SPACE_IO, &s->idp);
    pci_register_bar(d, 5, 0, &s->mem);
    off = pci_add_capability(d, PCI_CAP_ID_SATA, 0xa8, 8, errp);
    if (off < 0) {
        return false;
    }
    sata = d->config + off;
    pci_set_word(sata + 2, 0x10);           /* revision 1.0 */
    pci_set_long(sata + 4, (4 + 4) | (4 << 4));  /* BAR4, offset 0x10 */
    /* 7.2 puts MSI first in the list (the ICH9 datasheet's order) */
    if (msi_init(d, 0x80, 1, true, false, errp) < 0) {
        return false;
    }
    return true;
}

static void ich9_ahci_exit(PCIDevice *d)
{
    AHCIPCIState *s = (AHCIPCIState *)d;
    int i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < AHCI_PORTS; i++) {
        ahci_unmap(&s->ports[i].lst);
        ahci_unmap(&s->ports[i].fis);
    }
    g_mutex_unlock(&s->lock);
}

static void ich9_ahci_finalize(Object *obj)
{
    g_mutex_clear(&((AHCIPCIState *)obj)->lock);
}

/* Registration ------------------------------------------------------------ */

static void ich9_ahci_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = ich9_ahci_realize;
    pc->exit = ich9_ahci_exit;
    pc->vendor_id = 0x8086;
    pc->device_id = 0x2922;
    pc->revision = 0x02;
    pc->class_id = 0x0106;      /* SATA */
    dc->reset = ich9_ahci_reset;
    dc->categories = 1u << DEVICE_CATEGORY_STORAGE;
}

static const TypeInfo ich9_ahci_info = {
    .name = TYPE_ICH9_AHCI,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(AHCIPCIState),
    .instance_init = ich9_ahci_initfn,
    .instance_finalize = ich9_ahci_finalize,
    .class_init = ich9_ahci_class_init,
};

static void ich9_ahci_register_types(void)
{
    type_register_static(&ich9_ahci_info);
}
type_init(ich9_ahci_register_types)
