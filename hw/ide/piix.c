/*
 * piix3-ide, function 1 of the PIIX3 (00:01.1 on the i440fx boards;
 * 8086:7010, class 0101 prog-if 0x80: legacy ATA, bus master): two IDE
 * channels ("ide.0", "ide.1") at the legacy ports 0x1f0/0x3f6 (ISA IRQ
 * 14) and 0x170/0x376 (IRQ 15), and the bus master IDE registers in
 * BAR4 (16 bytes of I/O, "piix-bmdma-container": per channel the command
 * and status bytes, "piix-bmdma", and the PRD table address, "bmdma").
 *
 * As in QEMU 7.2: the BMDMA command/status registers answer only byte
 * accesses (wider reads all-ones), the command register keeps bits 0 and
 * 3, START sets the status's active bit (and clearing it drops the bit),
 * status bits 5-6 are written, 1-2 cleared by writing ones; the address
 * register keeps bits 31:2 at any width; a channel's interrupt sets its
 * status bit 2 on the way to the ISA IRQ.  Reset: command register 0,
 * status 0x0280, BARs and BMDMA registers cleared.
 *
 * No drives attach yet (include/hw/ide/ide-bus.h says what an empty
 * channel answers), so no DMA transfer ever starts.
 */
#include "hw/ide/ide-bus.h"
#include "hw/irq.h"
#include "hw/isa/isa.h"
#include "hw/pci/pci.h"
#include "hw/southbridge/piix.h"
#include "sysemu/device.h"

/* State ------------------------------------------------------------------ */

#define BM_CMD_START 0x01
#define BM_CMD_MASK 0x09
#define BM_STATUS_DMAING 0x01
#define BM_STATUS_INT 0x04

typedef struct BMDMAState {
    uint8_t cmd, status;
    uint32_t addr;
    qemu_irq irq;               /* the channel's ISA IRQ */
    MemoryRegion extra_io, addr_io;
    GMutex *lock;
} BMDMAState;

typedef struct PCIIDEState {
    PCIDevice parent_obj;
    GMutex lock;
    IDEBus *bus[2];
    BMDMAState bmdma[2];
    MemoryRegion bmdma_bar;
} PCIIDEState;

/* Register read/write ---------------------------------------------------- */

static uint64_t bmdma_read(void *opaque, hwaddr addr, unsigned size)
{
    BMDMAState *bm = opaque;
    uint64_t v;

    if (size != 1) {
        return size >= 8 ? UINT64_MAX : (1ULL << (size * 8)) - 1;
    }
    g_mutex_lock(bm->lock);
    v = (addr & 3) == 0 ? bm->cmd : (addr & 3) == 2 ? bm->status : 0xff;
    g_mutex_unlock(bm->lock);
    return v;
}

static void bmdma_write(void *opaque, hwaddr addr, uint64_t val,
                        unsigned size)
{
    BMDMAState *bm = opaque;

    if (size != 1) {
        return;
    }
    g_mutex_lock(bm->lock);
    if ((addr & 3) == 0) {
        /* no transfer is ever pending: START only flips "active" */
        if ((val ^ bm->cmd) & BM_CMD_START) {
            if (val & BM_CMD_START) {
                bm->status |= BM_STATUS_DMAING;
            } else {
                bm->status &= ~BM_STATUS_DMAING;
            }
        }
        bm->cmd = val & BM_CMD_MASK;
    } else if ((addr & 3) == 2) {
        bm->status = (val & 0x60) | (bm->status & BM_STATUS_DMAING) |
                     (bm->status & ~val & 0x06);
    }
    g_mutex_unlock(bm->lock);
}

static const MemoryRegionOps piix_bmdma_ops = {
    .read = bmdma_read,
    .write = bmdma_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static uint64_t bmdma_addr_read(void *opaque, hwaddr addr, unsigned size)
{
    BMDMAState *bm = opaque;
    uint64_t v;

    g_mutex_lock(bm->lock);
    v = addr < 4 ? (uint64_t)bm->addr >> (addr * 8) : 0;
    g_mutex_unlock(bm->lock);
    return v & ((1ULL << (size * 8)) - 1);
}

static void bmdma_addr_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    BMDMAState *bm = opaque;
    uint64_t mask = ((1ULL << (size * 8)) - 1) << (addr * 8);

    if (addr >= 4) {
        return;
    }
    g_mutex_lock(bm->lock);
    bm->addr = ((bm->addr & ~mask) | ((val << (addr * 8)) & mask)) & ~3u;
    g_mutex_unlock(bm->lock);
}

static const MemoryRegionOps bmdma_addr_ops = {
    .read = bmdma_addr_read,
    .write = bmdma_addr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* A channel's interrupt passes through BMDMA (called with the lock held) */
static void bmdma_set_irq(void *opaque, int level)
{
    BMDMAState *bm = opaque;

    if (level) {
        bm->status |= BM_STATUS_INT;
    }
    qemu_set_irq(bm->irq, level);
}

/* Reset ------------------------------------------------------------------ */

static void piix_ide_reset(DeviceState *dev)
{
    PCIIDEState *d = (PCIIDEState *)dev;
    PCIDevice *pd = PCI_DEVICE(dev);
    int i;

    DEVICE_CLASS(object_class_get_parent(OBJECT_GET_CLASS(dev)))->reset(dev);
    g_mutex_lock(&d->lock);
    for (i = 0; i < 2; i++) {
        ide_channel_reset(&d->bus[i]->ch);
        d->bus[i]->srst_pending = false;
        d->bmdma[i].cmd = d->bmdma[i].status = 0;
        d->bmdma[i].addr = 0;
    }
    g_mutex_unlock(&d->lock);
    pci_lock();
    pci_set_word(pd->config + PCI_COMMAND, 0);
    pci_set_word(pd->config + PCI_STATUS,
                 PCI_STATUS_DEVSEL_MEDIUM | PCI_STATUS_FAST_BACK);
    pd->config[0x20] = PCI_BASE_ADDRESS_SPACE_IO;
    pci_unlock();
}

/* Realize ---------------------------------------------------------------- */

static const struct {
    uint16_t iobase, iobase2;
    uint8_t isairq;
} piix_ide_ports[2] = {
    { 0x1f0, 0x3f6, 14 },
    { 0x170, 0x376, 15 },
};

static bool piix_ide_realize(PCIDevice *dev, Error **errp)
{
    PCIIDEState *d = (PCIIDEState *)dev;
    Object *obj = OBJECT(dev);
    int i;

    dev->config[PCI_CLASS_PROG] = 0x80;     /* legacy ATA, bus master */
    g_mutex_init(&d->lock);
    memory_region_init(&d->bmdma_bar, obj, "piix-bmdma-container", 16);
    for (i = 0; i < 2; i++) {
        BMDMAState *bm = &d->bmdma[i];

        bm->lock = &d->lock;
        bm->irq = isa_get_irq(NULL, piix_ide_ports[i].isairq);
        memory_region_init_io(&bm->extra_io, obj, &piix_bmdma_ops, bm,
                              "piix-bmdma", 4);
        memory_region_add_subregion(&d->bmdma_bar, i * 8, &bm->extra_io);
        memory_region_init_io(&bm->addr_io, obj, &bmdma_addr_ops, bm,
                              "bmdma", 4);
        memory_region_add_subregion(&d->bmdma_bar, i * 8 + 4, &bm->addr_io);
    }
    pci_register_bar(dev, 4, PCI_BASE_ADDRESS_SPACE_IO, &d->bmdma_bar);
    for (i = 0; i < 2; i++) {
        d->bus[i] = ide_bus_new(DEVICE(dev), &d->lock, bmdma_set_irq,
                                &d->bmdma[i]);
        ide_bus_map_ports(d->bus[i], get_system_io(),
                          piix_ide_ports[i].iobase,
                          piix_ide_ports[i].iobase2);
    }
    return true;
}

static void piix_ide_exit(PCIDevice *dev)
{
    PCIIDEState *d = (PCIIDEState *)dev;
    int i;

    for (i = 0; i < 2; i++) {
        ide_bus_unmap_ports(d->bus[i]);
    }
}

/* Registration ------------------------------------------------------------ */

static void piix3_ide_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = piix_ide_realize;
    pc->exit = piix_ide_exit;
    pc->vendor_id = 0x8086;
    pc->device_id = 0x7010;
    pc->class_id = 0x0101;      /* IDE controller */
    dc->reset = piix_ide_reset;
    dc->categories = 1u << DEVICE_CATEGORY_STORAGE;
    dc->user_creatable = true;
    dc->hotpluggable = false;
}

static const TypeInfo piix3_ide_info = {
    .name = TYPE_PIIX3_IDE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(PCIIDEState),
    .class_init = piix3_ide_class_init,
};

static void piix_ide_register_types(void)
{
    type_register_static(&piix3_ide_info);
}
type_init(piix_ide_register_types)
