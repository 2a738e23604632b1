/*
 * PIIX3, function 0 (00:01.0 on the i440fx boards): the PCI-to-ISA bridge
 * (8086:7000, multifunction), parent of the machine's ISA bus.  Its
 * configuration registers hold QEMU 7.2's reset values (measured over
 * qtest): IORT 0x4c, XBCS 0x4e, PIRQ route control 0x60-0x63 (0x80:
 * routing disabled), TOM 0x69, MBIRQ 0x70, MBDMA 0x76/0x77, PCSC 0x78,
 * SMI control 0xa0, SMI request enable 0xa8; every byte past the header
 * is writable, as there.
 *
 * Realize makes, as 7.2's does, the reset control register at 0xcf9
 * (hw/isa/reset-control.c; SYS_RST stored) and the two i8257 DMA
 * controllers on its ISA bus.
 *
 * PCI interrupts, as 7.2 routes them: a root-bus function's pin reaches
 * PIRQ[A-D] by (pin + slot - 1) % 4, and PIRQn drives the ISA IRQ its
 * route control register (0x60 + n) names while that is below 16 (0x80:
 * off); an ISA IRQ is the OR of the PIRQs routed to it.  Those levels
 * are remembered per (IRQ, PIRQ) pair: a write to 0x60-0x63 forgets them,
 * notes each PIRQ's level at its new IRQ, then sets every ISA IRQ 0-15 to
 * what its PIRQs say — lowering a line another device raised, as 7.2
 * does; a reset forgets them without touching any line.  The IOAPIC's pins 16-23 get nothing here.
 */
#include "hw/dma/i8257.h"
#include "hw/isa/isa.h"
#include "hw/isa/reset-control.h"
#include "hw/pci/pci.h"
#include "hw/southbridge/piix.h"
#include "sysemu/device.h"

/* State ------------------------------------------------------------------ */

#define PIIX_NUM_PIRQS 4
#define PIIX_PIRQC 0x60

typedef struct PIIX3State {
    PCIDevice parent_obj;
    ResetControl rcr;
    uint64_t pic_levels;        /* bit irq * 4 + pirq: PIRQ asserts IRQ */
} PIIX3State;

#define PIIX3_RCR_KEEP 0x02     /* SYS_RST */

/* PCI interrupts ---------------------------------------------------------- */

static int piix3_map_irq(PCIDevice *dev, int pin)
{
    return (pin + PCI_SLOT(dev->devfn) - 1) & 3;
}

static void piix3_drive_pic(PIIX3State *s, int irq)
{
    qemu_irq line = isa_get_irq(NULL, irq);

    if (line) {
        qemu_set_irq(line,
                     !!((s->pic_levels >> (irq * PIIX_NUM_PIRQS)) & 0xf));
    }
}

/* Remembers PIRQn's level at its IRQ; returns that IRQ, or -1 */
static int piix3_note_level(PIIX3State *s, int pirq, int level)
{
    int irq = s->parent_obj.config[PIIX_PIRQC + pirq];
    uint64_t bit;

    if (irq >= 16) {
        return -1;
    }
    bit = 1ull << (irq * PIIX_NUM_PIRQS + pirq);
    s->pic_levels = level ? s->pic_levels | bit : s->pic_levels & ~bit;
    return irq;
}

static void piix3_set_irq(void *opaque, int pirq, int level)
{
    PIIX3State *s = opaque;
    int irq = piix3_note_level(s, pirq, level);

    if (irq >= 0) {
        piix3_drive_pic(s, irq);
    }
}

static void piix3_write_config(PCIDevice *d, uint32_t addr, uint32_t val,
                               int len)
{
    PIIX3State *s = (PIIX3State *)d;
    PCIBus *bus = PCI_BUS(DEVICE(d)->parent_bus);
    int pirq, irq;

    pci_default_write_config(d, addr, val, len);
    if (addr < PIIX_PIRQC + PIIX_NUM_PIRQS && addr + len > PIIX_PIRQC) {
        s->pic_levels = 0;
        for (pirq = 0; pirq < PIIX_NUM_PIRQS; pirq++) {
            piix3_set_irq(s, pirq, pci_bus_get_irq_level(bus, pirq));
        }
        /* then every ISA IRQ takes its PIRQs' level, as 7.2 does */
        for (irq = 0; irq < 16; irq++) {
            piix3_drive_pic(s, irq);
        }
    }
}

/* Reset ------------------------------------------------------------------ */

static const struct {
    uint8_t offset, value;
} piix3_reset_values[] = {
    { 0x4c, 0x4d }, { 0x4e, 0x03 }, { 0x60, 0x80 }, { 0x61, 0x80 },
    { 0x62, 0x80 }, { 0x63, 0x80 }, { 0x69, 0x02 }, { 0x70, 0x80 },
    { 0x76, 0x0c }, { 0x77, 0x0c }, { 0x78, 0x02 }, { 0xa0, 0x08 },
    { 0xa8, 0x0f },
};

static void piix3_reset(DeviceState *dev)
{
    PCIDevice *d = PCI_DEVICE(dev);
    size_t i;

    DEVICE_CLASS(object_class_get_parent(OBJECT_GET_CLASS(dev)))->reset(dev);
    pci_lock();
    memset(d->config + PCI_CONFIG_HEADER_SIZE, 0,
           d->config_size - PCI_CONFIG_HEADER_SIZE);
    for (i = 0; i < G_N_ELEMENTS(piix3_reset_values); i++) {
        d->config[piix3_reset_values[i].offset] = piix3_reset_values[i].value;
    }
    ((PIIX3State *)dev)->pic_levels = 0;
    pci_unlock();
    reset_control_reset(&((PIIX3State *)dev)->rcr);
}

/* Realize ---------------------------------------------------------------- */

static bool piix3_realize(PCIDevice *d, Error **errp)
{
    PIIX3State *s = (PIIX3State *)d;
    ISABus *isa;

    /* DEVSEL# medium timing, as the PIIX3 reports */
    pci_set_word(d->config + PCI_STATUS, 0x0200);
    isa = isa_bus_new(DEVICE(d),
                      PCI_BUS(DEVICE(d)->parent_bus)->address_space_mem,
                      get_system_io(), errp);
    if (!isa) {
        return false;
    }
    reset_control_init(&s->rcr, OBJECT(d), "piix3-reset-control",
                       PIIX3_RCR_KEEP, get_system_io());
    if (!i8257_dma_init(isa, errp)) {
        reset_control_destroy(&s->rcr, get_system_io());
        return false;
    }
    pci_bus_irqs(PCI_BUS(DEVICE(d)->parent_bus), piix3_set_irq,
                 piix3_map_irq, s, PIIX_NUM_PIRQS);
    return true;
}

/* Registration ------------------------------------------------------------ */

static void piix3_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = piix3_realize;
    pc->config_write = piix3_write_config;
    pc->vendor_id = 0x8086;
    pc->device_id = 0x7000;
    pc->class_id = 0x0601;      /* ISA bridge */
    dc->reset = piix3_reset;
    dc->desc = "ISA bridge";
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    /* part of the chipset: the board wires it */
    dc->user_creatable = false;
    dc->hotpluggable = false;
}

static const TypeInfo piix3_info = {
    .name = TYPE_PIIX3_DEVICE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(PIIX3State),
    .class_init = piix3_class_init,
};

static void piix3_register_types(void)
{
    type_register_static(&piix3_info);
}
type_init(piix3_register_types)
