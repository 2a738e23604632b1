/*
 * One ATA channel's registers (include/hw/ide/ide-bus.h), as QEMU 7.2
 * answers them with no drive attached.  No file descriptors: the unit
 * test drives it alone.
 */
#include <string.h>

#include "hw/ide/ide-bus.h"

/* Register numbers of the command block */
enum {
    IDE_REG_DATA, IDE_REG_FEATURE, IDE_REG_NSECTOR, IDE_REG_SECTOR,
    IDE_REG_LCYL, IDE_REG_HCYL, IDE_REG_SELECT, IDE_REG_COMMAND,
};

static IDEUnit *ide_cur(IDEChannel *ch)
{
    return &ch->units[ch->cur & 1];
}

static void ide_raise_irq(IDEChannel *ch)
{
    if (!(ch->devctl & IDE_CTRL_NIEN) && ch->set_irq) {
        ch->set_irq(ch->opaque, 1);
    }
}

static void ide_lower_irq(IDEChannel *ch)
{
    if (ch->set_irq) {
        ch->set_irq(ch->opaque, 0);
    }
}

/* The signature a unit shows after reset (no drive: cylinders all-ones) */
static void ide_unit_signature(IDEUnit *u)
{
    u->select &= ~0x0f;
    u->nsector = 1;
    u->sector = 1;
    u->lcyl = u->present ? 0 : 0xff;
    u->hcyl = u->present ? 0 : 0xff;
}

static void ide_unit_reset(IDEUnit *u)
{
    bool present = u->present;

    memset(u, 0, sizeof(*u));
    u->present = present;
    u->select = IDE_DEV_ALWAYS_ON;
    u->status = IDE_STAT_READY | IDE_STAT_SEEK;
    ide_unit_signature(u);
}

void ide_channel_reset(IDEChannel *ch)
{
    ch->cur = 0;
    ch->devctl = 0;
    ide_unit_reset(&ch->units[0]);
    ide_unit_reset(&ch->units[1]);
}

void ide_channel_init(IDEChannel *ch, void (*set_irq)(void *, int),
                      void *opaque, void (*schedule_srst)(void *),
                      void *srst_opaque)
{
    memset(ch, 0, sizeof(*ch));
    ch->set_irq = set_irq;
    ch->opaque = opaque;
    ch->schedule_srst = schedule_srst;
    ch->srst_opaque = srst_opaque;
    ide_channel_reset(ch);
}

/* Reads ------------------------------------------------------------------ */

/* 7.2 reads 0 from a channel without drives, and from an empty slave */
static bool ide_regs_hidden(IDEChannel *ch, bool slave_matters)
{
    if (!ch->units[0].present && !ch->units[1].present) {
        return true;
    }
    return slave_matters && ch->cur && !ide_cur(ch)->present;
}

uint8_t ide_channel_read(IDEChannel *ch, unsigned reg)
{
    IDEUnit *u = ide_cur(ch);
    bool hob = ch->devctl & IDE_CTRL_HOB;

    switch (reg & 7) {
    case IDE_REG_DATA:
        return ide_channel_read_data(ch, 2) & 0xff;
    case IDE_REG_FEATURE:     /* the error register */
        return ide_regs_hidden(ch, true) ? 0
               : hob ? u->hob_feature : u->error;
    case IDE_REG_NSECTOR:
        return ide_regs_hidden(ch, false) ? 0
               : hob ? u->hob_nsector : u->nsector;
    case IDE_REG_SECTOR:
        return ide_regs_hidden(ch, false) ? 0
               : hob ? u->hob_sector : u->sector;
    case IDE_REG_LCYL:
        return ide_regs_hidden(ch, false) ? 0 : hob ? u->hob_lcyl : u->lcyl;
    case IDE_REG_HCYL:
        return ide_regs_hidden(ch, false) ? 0 : hob ? u->hob_hcyl : u->hcyl;
    case IDE_REG_SELECT:
        return ide_regs_hidden(ch, false) ? 0 : u->select;
    default:                  /* status: reading it acknowledges the IRQ */
        ide_lower_irq(ch);
        return ide_regs_hidden(ch, true) ? 0 : u->status;
    }
}

uint8_t ide_channel_read_alt_status(IDEChannel *ch)
{
    return ide_regs_hidden(ch, true) ? 0 : ide_cur(ch)->status;
}

/*
 * PIO data: only while DRQ is set, which needs a drive that transfers;
 * without one 7.2 reads 0 and drops writes
 */
uint32_t ide_channel_read_data(IDEChannel *ch, unsigned size)
{
    return 0;
}

void ide_channel_write_data(IDEChannel *ch, uint32_t val, unsigned size)
{
}

/* Writes ----------------------------------------------------------------- */

/* A command block register: both units take it, the old value to HOB */
#define IDE_SHIFT_IN(ch, field, val)                    \
    do {                                                \
        for (int i_ = 0; i_ < 2; i_++) {                \
            IDEUnit *u_ = &(ch)->units[i_];             \
            u_->hob_##field = u_->field;                \
            u_->field = (val);                          \
        }                                               \
    } while (0)

/*
 * A command.  An empty slave ignores it; a busy unit too.  The empty
 * master ends every command at once with an interrupt: 7.2 aborts those
 * that need a medium and completes the rest (diagnostics, power modes,
 * NOP-like ones) without one; either way the guest sees the interrupt
 * (the registers read 0)
 */
static void ide_exec_cmd(IDEChannel *ch, uint8_t cmd)
{
    IDEUnit *u = ide_cur(ch);

    if (ch->cur && !u->present) {
        return;
    }
    if (u->status & (IDE_STAT_BUSY | IDE_STAT_DRQ)) {
        return;
    }
    if (!u->present) {
        u->status = IDE_STAT_READY | IDE_STAT_ERR;
        u->error = IDE_ERR_ABRT;
        ide_raise_irq(ch);
    }
}

void ide_channel_write(IDEChannel *ch, unsigned reg, uint8_t val)
{
    reg &= 7;
    /* the command block is read-only while the unit is busy */
    if (reg != IDE_REG_COMMAND &&
        (ide_cur(ch)->status & (IDE_STAT_BUSY | IDE_STAT_DRQ))) {
        return;
    }
    if (reg != IDE_REG_DATA) {
        ch->devctl &= ~IDE_CTRL_HOB;
    }
    switch (reg) {
    case IDE_REG_DATA:
        break;
    case IDE_REG_FEATURE:
        IDE_SHIFT_IN(ch, feature, val);
        break;
    case IDE_REG_NSECTOR:
        IDE_SHIFT_IN(ch, nsector, val);
        break;
    case IDE_REG_SECTOR:
        IDE_SHIFT_IN(ch, sector, val);
        break;
    case IDE_REG_LCYL:
        IDE_SHIFT_IN(ch, lcyl, val);
        break;
    case IDE_REG_HCYL:
        IDE_SHIFT_IN(ch, hcyl, val);
        break;
    case IDE_REG_SELECT:
        ch->units[0].select = val | IDE_DEV_ALWAYS_ON;
        ch->units[1].select = val | IDE_DEV_ALWAYS_ON;
        ch->cur = (val & IDE_DEV_SELECT) ? 1 : 0;
        break;
    default:
        ide_lower_irq(ch);
        ide_exec_cmd(ch, val);
        break;
    }
}

/*
 * Device control.  SRST's rising edge makes both units busy; the reset
 * itself runs a moment later (ide_channel_run_srst), as 7.2's bottom half
 */
void ide_channel_write_devctl(IDEChannel *ch, uint8_t val)
{
    if (!(ch->devctl & IDE_CTRL_SRST) && (val & IDE_CTRL_SRST)) {
        ch->units[0].status |= IDE_STAT_BUSY;
        ch->units[1].status |= IDE_STAT_BUSY;
        if (ch->schedule_srst) {
            ch->schedule_srst(ch->srst_opaque);
        }
    }
    ch->devctl = val;
}

/*
 * The software reset: each unit resets and runs its diagnostic, which
 * for a (non-ATAPI) unit ends with an interrupt, as in 7.2
 */
void ide_channel_run_srst(IDEChannel *ch)
{
    for (int i = 0; i < 2; i++) {
        IDEUnit *u = &ch->units[i];

        ide_unit_reset(u);
        u->select = IDE_DEV_ALWAYS_ON;
        ide_unit_signature(u);
        u->status = IDE_STAT_READY | IDE_STAT_SEEK;
        u->error = 0x01;
        ide_raise_irq(ch);
    }
    ch->devctl &= ~IDE_CTRL_SRST;
}
