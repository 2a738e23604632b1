/*
 * ICH9's interrupt routing, as QEMU 7.2 has it (its facts, measured over
 * qtest; hw/isa/lpc_ich9.c owns the state):
 *
 *  - A PCI function's INTx pin reaches one of PIRQ[A-H] (the root bus's
 *    eight lines): slots 25-29 and 31 by their DnnIR registers in the
 *    chipset configuration (the root complex register block, below;
 *    defaults INTA-D -> PIRQA-D), slot 30 (the DMI-to-PCI bridge) on
 *    PIRQE-H, every other slot (slot + pin) % 4 + 4, i.e. PIRQE-H.
 *  - PIRQn drives GSI 16 + n (the IOAPIC), and, unless its routing
 *    register (0x60-0x63, 0x68-0x6b) has bit 7 set, the ISA IRQ in its
 *    low four bits too: that line is the OR of every PIRQ routed there.
 *    A routing change moves nothing already asserted (7.2 recomputes
 *    nothing then): the next change of a PIRQ's level re-evaluates the
 *    line its register's low bits name, routed or not.
 *  - The SCI goes to the GSI ACPI_CTRL's SCI_IRQ_SEL names (9, 10, 11,
 *    20 or 21; a reserved value keeps the previous one), OR-ed with the
 *    PIRQs there; moving it while raised lowers the old line first.
 *  - The root complex register block ("lpc-rcrb-mmio", 16 KiB) is
 *    mapped at RCBA (0xf0) bits 31:14 while bit 0 is set, above what
 *    else is there; accesses within it read and write the chipset
 *    configuration bytes (clipped at its end), as 7.2's.  Reset: the
 *    DnnIR defaults (0x3210, D30IR 0) and GCS 0x20 (NO_REBOOT).
 */
#include <string.h>

#include "hw/isa/ich9-irq.h"
#include "hw/pci/pci.h"
#include "hw/southbridge/ich9.h"

#define ICH9_CC_D31IR   0x3140
#define ICH9_CC_D30IR   0x3142
#define ICH9_CC_D29IR   0x3144
#define ICH9_CC_D28IR   0x3146
#define ICH9_CC_D27IR   0x3148
#define ICH9_CC_D26IR   0x314c
#define ICH9_CC_D25IR   0x3150
#define ICH9_CC_DIR_DEFAULT 0x3210
#define ICH9_CC_GCS_DEFAULT ICH9_CC_GCS_NO_REBOOT


#define ICH9_LPC_RCBA_EN 0x1
#define ICH9_LPC_RCBA_MASK 0xffffc000u
#define ICH9_PIRQ_ROUT_OFF 0x80

static uint16_t cc_word(ICH9Irq *r, unsigned off)
{
    return r->chip_config[off] | r->chip_config[off + 1] << 8;
}

/* Which PIRQ each slot's pins reach */
static void ich9_irq_update_routes(ICH9Irq *r)
{
    static const struct {
        uint8_t slot;
        uint16_t reg;
    } dir[] = {
        { 25, ICH9_CC_D25IR }, { 26, ICH9_CC_D26IR }, { 27, ICH9_CC_D27IR },
        { 28, ICH9_CC_D28IR }, { 29, ICH9_CC_D29IR }, { 31, ICH9_CC_D31IR },
    };
    unsigned slot, pin, i;

    for (slot = 0; slot < 32; slot++) {
        for (pin = 0; pin < 4; pin++) {
            r->irr[slot][pin] = slot == 30 ? pin + 4 : (slot + pin) % 4 + 4;
        }
    }
    for (i = 0; i < G_N_ELEMENTS(dir); i++) {
        uint16_t ir = cc_word(r, dir[i].reg);

        for (pin = 0; pin < 4; pin++) {
            r->irr[dir[i].slot][pin] = (ir >> (pin * 4)) & 7;
        }
    }
}

/* PIRQn's routing register (0x60-0x63, 0x68-0x6b) */
static uint8_t ich9_irq_rout(ICH9Irq *r, int pirq)
{
    return r->lpc->config[pirq < 4 ? 0x60 + pirq : 0x68 + pirq - 4];
}

/* PIRQn's ISA IRQ, or -1 while its routing is off */
static int ich9_irq_pirq_pic(ICH9Irq *r, int pirq)
{
    uint8_t rout = ich9_irq_rout(r, pirq);

    return rout & ICH9_PIRQ_ROUT_OFF ? -1 : rout & 0x0f;
}

static PCIBus *ich9_irq_bus(ICH9Irq *r)
{
    return PCI_BUS(DEVICE(r->lpc)->parent_bus);
}

static void ich9_irq_update_pic(ICH9Irq *r, int irq)
{
    bool level = irq == r->sci_gsi && r->sci_level;
    int pirq;

    for (pirq = 0; pirq < ICH9_NUM_PIRQS; pirq++) {
        if (ich9_irq_pirq_pic(r, pirq) == irq) {
            level |= pci_bus_get_irq_level(ich9_irq_bus(r), pirq);
        }
    }
    qemu_set_irq(r->gsi[irq], level);
}

static void ich9_irq_update_apic(ICH9Irq *r, int gsi)
{
    bool level = pci_bus_get_irq_level(ich9_irq_bus(r), gsi - 16) ||
                 (gsi == r->sci_gsi && r->sci_level);

    qemu_set_irq(r->gsi[gsi], level);
}

static void ich9_irq_update_gsi(ICH9Irq *r, int gsi)
{
    if (gsi >= 16) {
        ich9_irq_update_apic(r, gsi);
    } else if (gsi >= 0) {
        ich9_irq_update_pic(r, gsi);
    }
}

/*
 * A PIRQ's level changed: its GSI, and the ISA IRQ its routing register's
 * low bits name — even while that routing is off (7.2 re-evaluates that
 * line then too, from the PIRQs routed there)
 */
static void ich9_irq_set_pirq(void *opaque, int pirq, int level)
{
    ICH9Irq *r = opaque;

    ich9_irq_update_apic(r, 16 + pirq);
    ich9_irq_update_pic(r, ich9_irq_rout(r, pirq) & 0x0f);
}

static int ich9_irq_map(PCIDevice *dev, int pin)
{
    ICH9Irq *r = PCI_BUS(DEVICE(dev)->parent_bus)->irq_opaque;

    return r->irr[PCI_SLOT(dev->devfn)][pin];
}

/* The PM block's SCI output */
static void ich9_irq_set_sci(void *opaque, int n, int level)
{
    ICH9Irq *r = opaque;

    level = !!level;
    if (level != r->sci_level) {
        r->sci_level = level;
        ich9_irq_update_gsi(r, r->sci_gsi);
    }
}

void ich9_irq_acpi_ctrl_written(ICH9Irq *r)
{
    static const int8_t sel_gsi[8] = { 9, 10, 11, -1, 20, 21, -1, -1 };
    int gsi = sel_gsi[r->lpc->config[0x44] & 7];

    if (gsi < 0) {
        return;
    }
    if (r->sci_level && gsi != r->sci_gsi) {
        ich9_irq_set_sci(r, 0, 0);
        r->sci_gsi = gsi;
        ich9_irq_set_sci(r, 0, 1);
    }
    r->sci_gsi = gsi;
}

/* The root complex register block --------------------------------------- */

static void cc_clip(hwaddr *addr, unsigned *len)
{
    *addr &= ICH9_CC_SIZE - 1;
    if (*addr + *len >= ICH9_CC_SIZE) {
        *len = ICH9_CC_SIZE - *addr;
    }
}

static uint64_t ich9_rcrb_read(void *opaque, hwaddr addr, unsigned size)
{
    ICH9Irq *r = opaque;
    uint64_t v = 0;
    unsigned i;

    cc_clip(&addr, &size);
    for (i = 0; i < size; i++) {
        v |= (uint64_t)r->chip_config[addr + i] << (8 * i);
    }
    return v;
}

static void ich9_rcrb_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    ICH9Irq *r = opaque;
    unsigned i;

    cc_clip(&addr, &size);
    for (i = 0; i < size; i++) {
        r->chip_config[addr + i] = val >> (8 * i);
    }
    ich9_irq_update_routes(r);
}

static const MemoryRegionOps ich9_rcrb_ops = {
    .read = ich9_rcrb_read,
    .write = ich9_rcrb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

void ich9_irq_rcba_written(ICH9Irq *r, uint32_t old)
{
    uint32_t rcba = pci_get_long(r->lpc->config + ICH9_LPC_RCBA);

    memory_region_transaction_begin();
    if (old & ICH9_LPC_RCBA_EN) {
        memory_region_del_subregion(get_system_memory(), &r->rcrb);
    }
    if (rcba & ICH9_LPC_RCBA_EN) {
        memory_region_add_subregion_overlap(get_system_memory(),
                                            rcba & ICH9_LPC_RCBA_MASK,
                                            &r->rcrb, 1);
    }
    memory_region_transaction_commit();
}

/* Set-up and reset ------------------------------------------------------ */

void ich9_irq_init(ICH9Irq *r, PCIDevice *lpc, qemu_irq *gsi)
{
    r->lpc = lpc;
    r->gsi = gsi;
    r->sci_in = qemu_allocate_irq(ich9_irq_set_sci, r, 0);
    memory_region_init_io(&r->rcrb, OBJECT(lpc), &ich9_rcrb_ops, r,
                          "lpc-rcrb-mmio", ICH9_CC_SIZE);
    pci_bus_irqs(ich9_irq_bus(r), ich9_irq_set_pirq, ich9_irq_map, r,
                 ICH9_NUM_PIRQS);
}

void ich9_irq_cleanup(ICH9Irq *r)
{
    if (pci_get_long(r->lpc->config + ICH9_LPC_RCBA) & ICH9_LPC_RCBA_EN) {
        memory_region_del_subregion(get_system_memory(), &r->rcrb);
    }
    pci_bus_irqs(ich9_irq_bus(r), NULL, NULL, NULL, 0);
}

/* Called after the LPC's config space went back to its reset values */
void ich9_irq_reset(ICH9Irq *r, uint32_t old_rcba)
{
    static const uint16_t dir_regs[] = {
        ICH9_CC_D31IR, ICH9_CC_D29IR, ICH9_CC_D28IR, ICH9_CC_D27IR,
        ICH9_CC_D26IR, ICH9_CC_D25IR,
    };
    size_t i;

    memset(r->chip_config, 0, sizeof(r->chip_config));
    for (i = 0; i < G_N_ELEMENTS(dir_regs); i++) {
        r->chip_config[dir_regs[i]] = ICH9_CC_DIR_DEFAULT & 0xff;
        r->chip_config[dir_regs[i] + 1] = ICH9_CC_DIR_DEFAULT >> 8;
    }
    r->chip_config[ICH9_CC_GCS] = ICH9_CC_GCS_DEFAULT;
    ich9_irq_update_routes(r);
    ich9_irq_acpi_ctrl_written(r);
    ich9_irq_rcba_written(r, old_rcba);
    r->sci_level = 0;
}
