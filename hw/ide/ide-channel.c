/*
 * One ATA channel's registers (include/hw/ide/ide-bus.h), as QEMU 7.2
 * answers them with no drive attached.  No file descriptors: the unit
 * test drives it alone.
 */
#include <string.h>

#include <glib.h>

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

/* Ends a PIO transfer (7.2's ide_transfer_halt) */
static void ide_transfer_halt(IDEUnit *u)
{
    u->data_pos = u->data_end = 0;
    u->status &= ~IDE_STAT_DRQ;
}

/* The registers (7.2's ide_reset: SMART's state stays) */
static void ide_unit_reset(IDEUnit *u)
{
    u->feature = u->error = u->nsector = u->sector = u->lcyl = u->hcyl = 0;
    u->hob_feature = u->hob_sector = u->hob_nsector = 0;
    u->hob_lcyl = u->hob_hcyl = 0;
    u->select = IDE_DEV_ALWAYS_ON;
    u->status = IDE_STAT_READY | IDE_STAT_SEEK;
    ide_unit_signature(u);
    ide_transfer_halt(u);
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
    ch->units[0].present = ch->units[1].present = false;
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
 * PIO data: only while DRQ is set (and only transfers to the host exist
 * here: writes are dropped, as 7.2 drops them during one); the last
 * bytes end the transfer
 */
uint32_t ide_channel_read_data(IDEChannel *ch, unsigned size)
{
    IDEUnit *u = ide_cur(ch);
    uint32_t v = 0;

    if (!(u->status & IDE_STAT_DRQ) || u->data_pos + size > u->data_end) {
        return 0;
    }
    for (unsigned i = 0; i < size; i++) {
        v |= (uint32_t)u->io_buffer[u->data_pos + i] << (8 * i);
    }
    u->data_pos += size;
    if (u->data_pos >= u->data_end) {
        ide_transfer_halt(u);
    }
    return v;
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

/* SMART attributes: id, flags (2), value, worst, raw (6), threshold */
static const uint8_t smart_attributes[][12] = {
    { 0x01, 0x03, 0x00, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06 },
    { 0x03, 0x03, 0x00, 0x64, 0x64, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x04, 0x02, 0x00, 0x64, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14 },
    { 0x05, 0x03, 0x00, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x24 },
    { 0x09, 0x03, 0x00, 0x64, 0x64, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x0c, 0x03, 0x00, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0xbe, 0x03, 0x00, 0x45, 0x45, 0x1f, 0x00, 0x1f, 0x1f, 0x00, 0x00, 0x32 },
};

enum {
    SMART_READ_DATA = 0xd0,
    SMART_READ_THRESH = 0xd1,
    SMART_ATTR_AUTOSAVE = 0xd2,
    SMART_EXECUTE_OFFLINE = 0xd4,
    SMART_READ_LOG = 0xd5,
    SMART_ENABLE = 0xd8,
    SMART_DISABLE = 0xd9,
    SMART_STATUS = 0xda,
};

static void ide_abort(IDEUnit *u)
{
    ide_transfer_halt(u);
    u->status = IDE_STAT_READY | IDE_STAT_ERR;
    u->error = IDE_ERR_ABRT;
}

/* The sector's last byte makes the bytes sum to 0 */
static void smart_checksum(uint8_t *buf)
{
    uint8_t sum = 0;

    for (int i = 0; i < IDE_SECTOR_SIZE - 1; i++) {
        sum += buf[i];
    }
    buf[IDE_SECTOR_SIZE - 1] = -sum;
}

/* A SMART sector for the host: DRQ until it has been read */
static void smart_transfer(IDEUnit *u)
{
    smart_checksum(u->io_buffer);
    u->status = IDE_STAT_READY | IDE_STAT_SEEK | IDE_STAT_DRQ;
    u->data_pos = 0;
    u->data_end = IDE_SECTOR_SIZE;
}

/* SMART (0xb0) as 7.2 runs it: the "key" in the cylinder registers */
static void ide_smart(IDEUnit *u)
{
    uint8_t *b = u->io_buffer;
    unsigned n;

    if (u->hcyl != 0xc2 || u->lcyl != 0x4f ||
        (!u->smart_enabled && u->feature != SMART_ENABLE)) {
        ide_abort(u);
        return;
    }
    switch (u->feature) {
    case SMART_DISABLE:
    case SMART_ENABLE:
        u->smart_enabled = u->feature == SMART_ENABLE;
        break;
    case SMART_ATTR_AUTOSAVE:
        if (u->sector != 0x00 && u->sector != 0xf1) {
            ide_abort(u);
            return;
        }
        u->smart_autosave = u->sector == 0xf1;
        break;
    case SMART_STATUS:          /* no errors logged: the "good" key */
        u->hcyl = 0xc2;
        u->lcyl = 0x4f;
        break;
    case SMART_READ_THRESH:
        memset(b, 0, IDE_SECTOR_SIZE);
        b[0] = 0x01;
        for (n = 0; n < G_N_ELEMENTS(smart_attributes); n++) {
            b[2 + n * 12] = smart_attributes[n][0];
            b[3 + n * 12] = smart_attributes[n][11];
        }
        smart_transfer(u);
        return;
    case SMART_READ_DATA:
        memset(b, 0, IDE_SECTOR_SIZE);
        b[0] = 0x01;
        for (n = 0; n < G_N_ELEMENTS(smart_attributes); n++) {
            memcpy(b + 2 + n * 12, smart_attributes[n], 11);
        }
        b[362] = 0x02 | (u->smart_autosave ? 0x80 : 0);
        b[363] = u->smart_selftest_count
                     ? u->smart_selftest_data[3 + (u->smart_selftest_count -
                                                   1) * 24]
                     : 0;
        b[364] = 0x20;
        b[365] = 0x01;
        b[367] = 0x19;          /* offline collection: execute, self-test */
        b[368] = 0x03;
        b[370] = 0x01;          /* error logging */
        b[372] = 0x02;          /* minutes: short, extended, conveyance */
        b[373] = 0x36;
        b[374] = 0x01;
        smart_transfer(u);
        return;
    case SMART_READ_LOG:
        memset(b, 0, IDE_SECTOR_SIZE);
        b[0] = 0x01;
        if (u->sector == 0x06) {            /* self-test log */
            if (u->smart_selftest_count) {
                b[508] = u->smart_selftest_count;
                memcpy(b + 2, u->smart_selftest_data + 2, 504);
            }
        } else if (u->sector != 0x01) {     /* 0x01: the error log, empty */
            ide_abort(u);
            return;
        }
        smart_transfer(u);
        return;
    case SMART_EXECUTE_OFFLINE:
        if (u->sector > 2) {
            ide_abort(u);
            return;
        }
        if (++u->smart_selftest_count > 21) {
            u->smart_selftest_count = 1;
        }
        n = 2 + (u->smart_selftest_count - 1) * 24;
        u->smart_selftest_data[n] = u->sector;
        u->smart_selftest_data[n + 1] = 0x00;     /* done, passed */
        u->smart_selftest_data[n + 2] = 0x34;     /* the hour count */
        u->smart_selftest_data[n + 3] = 0x12;
        break;
    default:
        ide_abort(u);
        return;
    }
    u->status = IDE_STAT_READY | IDE_STAT_SEEK;
}

/*
 * A command.  An empty slave ignores it; a busy unit too.  The empty
 * master ends every command at once with an interrupt: 7.2 aborts those
 * that need a medium and completes the rest (diagnostics, power modes,
 * NOP-like ones) without one, and runs SMART; the guest sees the
 * interrupt, and SMART's data (the registers read 0)
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
        u->error = 0;
        if (cmd == 0xb0) {
            ide_smart(u);
        } else {
            ide_abort(u);
        }
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
