/*
 * The floppy disk controller's registers and commands, as QEMU 7.2's
 * hw/block/fdc.c behaves with empty drives (the only drives this tree
 * has): DOR, TDR, MSR/DSR, FIFO, DIR/CCR and SRB; the status register A
 * is kept (its interrupt-pending bit decides SENSE INTERRUPT STATUS) but
 * the ISA device does not map it, as in 7.2.
 *
 * Commands (7.2's table, first match of value/mask): READ, WRITE, READ
 * TRACK, VERIFY, the SCANs (a transfer: with no diskette every one ends
 * at once with abnormal termination, the sector address echoed), READ and
 * WRITE DELETED DATA (abnormal termination + seek end), SEEK, RECALIBRATE,
 * RELATIVE SEEK IN/OUT (a head moves only where the drive's limits allow:
 * track 0 of an empty drive), SENSE INTERRUPT STATUS (four after a reset),
 * SENSE DRIVE STATUS (write-protected, track 0), READ ID (after 20 ms of
 * virtual time: missing address mark unless the data rate is the empty
 * drive's 500 kb/s), FORMAT TRACK (sets the sector count and ends),
 * SPECIFY, CONFIGURE, DUMPREG, SAVE, RESTORE, LOCK, VERSION (0x90), PART ID
 * (0x41), PERPENDICULAR MODE, POWERDOWN MODE, OPTION, DRIVE SPECIFICATION;
 * FORMAT AND WRITE and unknown bytes answer "invalid command" (0x80).
 * IRQ: raised at a command's end, a seek's end and a reset; cleared by the
 * last result byte, SENSE INTERRUPT STATUS and resets.  A command ending
 * releases DMA channel 2's request.
 */
#include <string.h>

#include "hw/block/fdc.h"
#include "hw/dma/i8257.h"

enum { FD_PHASE_COMMAND = 1, FD_PHASE_EXECUTION, FD_PHASE_RESULT };
enum { FD_DIR_WRITE, FD_DIR_READ, FD_DIR_SCANE, FD_DIR_SCANL,
       FD_DIR_SCANH, FD_DIR_VERIFY };
enum { FD_STATE_MULTI = 0x01, FD_STATE_FORMAT = 0x02 };

#define FD_SR0_DS0 0x01
#define FD_SR0_HEAD 0x04
#define FD_SR0_SEEK 0x20
#define FD_SR0_ABNTERM 0x40
#define FD_SR0_INVCMD 0x80
#define FD_SR0_RDYCHG 0xc0
#define FD_SR1_MA 0x01
#define FD_SR1_EC 0x80
#define FD_SRA_nDRV2 0x40
#define FD_SRA_INTPEND 0x80
#define FD_SRB_MTR0 0x01
#define FD_SRB_MTR1 0x02
#define FD_SRB_DR0 0x20
#define FD_DOR_SELMASK 0x01
#define FD_DOR_nRESET 0x04
#define FD_DOR_DMAEN 0x08
#define FD_DOR_MOTEN0 0x10
#define FD_DOR_MOTEN1 0x20
#define FD_TDR_BOOTSEL 0x04
#define FD_DSR_DRATEMASK 0x03
#define FD_DSR_PWRDOWN 0x40
#define FD_DSR_SWRESET 0x80
#define FD_MSR_CMDBUSY 0x10
#define FD_MSR_NONDMA 0x20
#define FD_MSR_DIO 0x40
#define FD_MSR_RQM 0x80
#define FD_DIR_DSKCHG 0x80
#define FD_CONFIG_EFIFO 0x20
#define FD_CONFIG_EIS 0x40
#define FD_SECTOR_SC 2
#define FD_RESET_SENSEI_COUNT 4

/* Drives ------------------------------------------------------------------ */

static void fd_init(FDrive *d)
{
    memset(d, 0, sizeof(*d));
    d->media_changed = true;
    d->drive = FLOPPY_DRIVE_TYPE_NONE;
}

static int fd_sector_calc(uint8_t head, uint8_t track, uint8_t sect,
                          uint8_t last_sect, int sides)
{
    return ((track * sides + head) * last_sect) + sect - 1;
}

/*
 * 7.2's fd_seek: 2 for a track (or head) beyond the drive, 3 for a sector
 * beyond it; otherwise the head moves (if the sector differs) and, the
 * drive being empty, the answer is 2 all the same
 */
static int fd_seek(FDrive *d, uint8_t head, uint8_t track, uint8_t sect)
{
    int sides = d->double_sided ? 2 : 1;

    if (track > d->max_track || (head != 0 && !d->double_sided)) {
        return 2;
    }
    if (sect > d->last_sect) {
        return 3;
    }
    if (fd_sector_calc(head, track, sect, d->last_sect, sides) !=
        fd_sector_calc(d->head, d->track, d->sect, d->last_sect, sides)) {
        d->head = head;
        d->track = track;
        d->sect = sect;
    }
    return 2;
}

static void fd_recalibrate(FDrive *d)
{
    fd_seek(d, 0, 0, 1);
}

static FDrive *fdctrl_drive(FDCtrl *s, int unit)
{
    bool swapped = s->tdr & FD_TDR_BOOTSEL;

    return &s->drives[unit == 0 ? swapped : !swapped];
}

static FDrive *fdctrl_cur_drive(FDCtrl *s)
{
    FDrive *d = fdctrl_drive(s, s->cur_drv);

    d->has_backend = true;
    return d;
}

/* Interrupt and phases ---------------------------------------------------- */

static void fdctrl_reset_irq(FDCtrl *s)
{
    s->status0 = 0;
    if (s->sra & FD_SRA_INTPEND) {
        qemu_set_irq(s->irq, 0);
        s->sra &= ~FD_SRA_INTPEND;
    }
}

static void fdctrl_raise_irq(FDCtrl *s)
{
    if (!(s->sra & FD_SRA_INTPEND)) {
        qemu_set_irq(s->irq, 1);
        s->sra |= FD_SRA_INTPEND;
    }
    s->reset_sensei = 0;
}

static void fdctrl_to_command_phase(FDCtrl *s)
{
    s->phase = FD_PHASE_COMMAND;
    s->data_dir = FD_DIR_WRITE;
    s->data_pos = 0;
    s->data_len = 1;
    s->msr &= ~(FD_MSR_CMDBUSY | FD_MSR_DIO);
    s->msr |= FD_MSR_RQM;
}

static void fdctrl_to_result_phase(FDCtrl *s, int len)
{
    s->phase = FD_PHASE_RESULT;
    s->data_dir = FD_DIR_READ;
    s->data_len = len;
    s->data_pos = 0;
    s->msr |= FD_MSR_CMDBUSY | FD_MSR_RQM | FD_MSR_DIO;
}

static void fdctrl_reset_locked(FDCtrl *s, bool do_irq)
{
    int i;

    fdctrl_reset_irq(s);
    s->sra = s->drives[1].has_backend ? 0 : FD_SRA_nDRV2;
    s->srb = 0xc0;
    s->cur_drv = 0;
    s->dor = FD_DOR_nRESET | (s->dma_chann != -1 ? FD_DOR_DMAEN : 0);
    s->msr = FD_MSR_RQM;
    s->reset_sensei = 0;
    s->readid_pending = false;
    timer_del(s->result_timer);
    s->data_pos = 0;
    s->data_len = 0;
    s->data_state = 0;
    s->data_dir = FD_DIR_WRITE;
    for (i = 0; i < FDC_MAX_DRIVES; i++) {
        fd_recalibrate(&s->drives[i]);
    }
    fdctrl_to_command_phase(s);
    if (do_irq) {
        s->status0 |= FD_SR0_RDYCHG;
        fdctrl_raise_irq(s);
        s->reset_sensei = FD_RESET_SENSEI_COUNT;
    }
}

/* The end of a transfer command: seven result bytes and the interrupt */
static void fdctrl_stop_transfer(FDCtrl *s, uint8_t st0, uint8_t st1,
                                 uint8_t st2)
{
    FDrive *d = fdctrl_cur_drive(s);

    s->status0 &= ~(FD_SR0_DS0 | 0x02 | FD_SR0_HEAD);
    s->status0 |= s->cur_drv | (d->head ? FD_SR0_HEAD : 0) | st0;
    s->fifo[0] = s->status0;
    s->fifo[1] = st1;
    s->fifo[2] = st2;
    s->fifo[3] = d->track;
    s->fifo[4] = d->head;
    s->fifo[5] = d->sect;
    s->fifo[6] = FD_SECTOR_SC;
    s->data_dir = FD_DIR_READ;
    if (s->dma_chann != -1 && !(s->msr & FD_MSR_NONDMA)) {
        i8257_dma_release_dreq(s->dma_chann);
    }
    s->msr |= FD_MSR_RQM | FD_MSR_DIO;
    s->msr &= ~FD_MSR_NONDMA;
    fdctrl_to_result_phase(s, 7);
    fdctrl_raise_irq(s);
}

/* Commands ---------------------------------------------------------------- */

/* READ, WRITE, VERIFY, SCAN: no diskette, so no transfer ever starts */
static void fdctrl_start_transfer(FDCtrl *s, int direction)
{
    uint8_t kt = s->fifo[2], kh = s->fifo[3], ks = s->fifo[4];
    FDrive *d;

    s->cur_drv = s->fifo[1] & FD_DOR_SELMASK;
    d = fdctrl_cur_drive(s);
    if (fd_seek(d, kh, kt, ks) == 3) {
        fdctrl_stop_transfer(s, FD_SR0_ABNTERM, FD_SR1_EC, 0x00);
    } else {
        fdctrl_stop_transfer(s, FD_SR0_ABNTERM, 0x00, 0x00);
    }
    s->fifo[3] = kt;
    s->fifo[4] = kh;
    s->fifo[5] = ks;
}

static void fdctrl_start_transfer_del(FDCtrl *s, int direction)
{
    fdctrl_stop_transfer(s, FD_SR0_ABNTERM | FD_SR0_SEEK, 0x00, 0x00);
}

static void fdctrl_unimplemented(FDCtrl *s, int direction)
{
    s->fifo[0] = FD_SR0_INVCMD;
    fdctrl_to_result_phase(s, 1);
}

static void fdctrl_handle_lock(FDCtrl *s, int direction)
{
    s->lock_bit = (s->fifo[0] & 0x80) ? 1 : 0;
    s->fifo[0] = s->lock_bit << 4;
    fdctrl_to_result_phase(s, 1);
}

static void fdctrl_handle_dumpreg(FDCtrl *s, int direction)
{
    FDrive *d = fdctrl_cur_drive(s);

    s->fifo[0] = fdctrl_drive(s, 0)->track;
    s->fifo[1] = fdctrl_drive(s, 1)->track;
    s->fifo[2] = 0;
    s->fifo[3] = 0;
    s->fifo[4] = s->timer0;
    s->fifo[5] = (s->timer1 << 1) | (s->dor & FD_DOR_DMAEN ? 1 : 0);
    s->fifo[6] = d->last_sect;
    s->fifo[7] = (s->lock_bit << 7) | (d->perpendicular << 2);
    s->fifo[8] = s->config;
    s->fifo[9] = s->precomp_trk;
    fdctrl_to_result_phase(s, 10);
}

static void fdctrl_handle_version(FDCtrl *s, int direction)
{
    s->fifo[0] = s->version;
    fdctrl_to_result_phase(s, 1);
}

static void fdctrl_handle_partid(FDCtrl *s, int direction)
{
    s->fifo[0] = 0x41;          /* stepping 1 */
    fdctrl_to_result_phase(s, 1);
}

static void fdctrl_handle_restore(FDCtrl *s, int direction)
{
    FDrive *d = fdctrl_cur_drive(s);

    fdctrl_drive(s, 0)->track = s->fifo[3];
    fdctrl_drive(s, 1)->track = s->fifo[4];
    s->timer0 = s->fifo[7];
    s->timer1 = s->fifo[8];
    d->last_sect = s->fifo[9];
    s->lock_bit = s->fifo[10] >> 7;
    d->perpendicular = (s->fifo[10] >> 2) & 0xf;
    s->config = s->fifo[11];
    s->precomp_trk = s->fifo[12];
    s->pwrd = s->fifo[13];
    fdctrl_to_command_phase(s);
}

static void fdctrl_handle_save(FDCtrl *s, int direction)
{
    FDrive *d = fdctrl_cur_drive(s);

    memset(s->fifo, 0, 15);
    s->fifo[2] = fdctrl_drive(s, 0)->track;
    s->fifo[3] = fdctrl_drive(s, 1)->track;
    s->fifo[6] = s->timer0;
    s->fifo[7] = s->timer1;
    s->fifo[8] = d->last_sect;
    s->fifo[9] = (s->lock_bit << 7) | (d->perpendicular << 2);
    s->fifo[10] = s->config;
    s->fifo[11] = s->precomp_trk;
    s->fifo[12] = s->pwrd;
    fdctrl_to_result_phase(s, 15);
}

/* READ ID answers after a fifth of a turn (fdctrl_result_timer) */
static void fdctrl_handle_readid(FDCtrl *s, int direction)
{
    FDrive *d = fdctrl_cur_drive(s);

    d->head = (s->fifo[1] >> 2) & 1;
    s->readid_pending = true;
    timer_mod(s->result_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                                   NANOSECONDS_PER_SECOND / 50);
}

static void fdctrl_handle_format_track(FDCtrl *s, int direction)
{
    FDrive *d;

    s->cur_drv = s->fifo[1] & FD_DOR_SELMASK;
    d = fdctrl_cur_drive(s);
    if (s->fifo[0] & 0x80) {
        s->data_state |= FD_STATE_MULTI;
    } else {
        s->data_state &= ~FD_STATE_MULTI;
    }
    d->bps = s->fifo[2] > 7 ? 16384 : 128 << s->fifo[2];
    d->last_sect = s->fifo[3];
    s->data_state &= ~FD_STATE_FORMAT;
    fdctrl_stop_transfer(s, 0x00, 0x00, 0x00);
}

static void fdctrl_handle_specify(FDCtrl *s, int direction)
{
    s->timer0 = (s->fifo[1] >> 4) & 0xf;
    s->timer1 = s->fifo[2] >> 1;
    if (s->fifo[2] & 1) {
        s->dor &= ~FD_DOR_DMAEN;
    } else {
        s->dor |= FD_DOR_DMAEN;
    }
    fdctrl_to_command_phase(s);
}

static void fdctrl_handle_sense_drive_status(FDCtrl *s, int direction)
{
    FDrive *d;

    s->cur_drv = s->fifo[1] & FD_DOR_SELMASK;
    d = fdctrl_cur_drive(s);
    d->head = (s->fifo[1] >> 2) & 1;
    /* write-protected: an empty drive is read-only in 7.2 */
    s->fifo[0] = 0x40 | (d->track == 0 ? 0x10 : 0x00) | (d->head << 2) |
                 s->cur_drv | 0x28;
    fdctrl_to_result_phase(s, 1);
}

static void fdctrl_handle_recalibrate(FDCtrl *s, int direction)
{
    s->cur_drv = s->fifo[1] & FD_DOR_SELMASK;
    fd_recalibrate(fdctrl_cur_drive(s));
    fdctrl_to_command_phase(s);
    s->status0 |= FD_SR0_SEEK;
    fdctrl_raise_irq(s);
}

static void fdctrl_handle_sense_interrupt_status(FDCtrl *s, int direction)
{
    FDrive *d = fdctrl_cur_drive(s);

    if (s->reset_sensei > 0) {
        s->fifo[0] =
            FD_SR0_RDYCHG + FD_RESET_SENSEI_COUNT - s->reset_sensei;
        s->reset_sensei--;
    } else if (!(s->sra & FD_SRA_INTPEND)) {
        s->fifo[0] = FD_SR0_INVCMD;
        fdctrl_to_result_phase(s, 1);
        return;
    } else {
        s->fifo[0] = (s->status0 & ~(FD_SR0_HEAD | 0x02 | FD_SR0_DS0)) |
                     s->cur_drv;
    }
    s->fifo[1] = d->track;
    fdctrl_to_result_phase(s, 2);
    fdctrl_reset_irq(s);
    s->status0 = FD_SR0_RDYCHG;
}

static void fdctrl_handle_seek(FDCtrl *s, int direction)
{
    FDrive *d;

    s->cur_drv = s->fifo[1] & FD_DOR_SELMASK;
    d = fdctrl_cur_drive(s);
    fdctrl_to_command_phase(s);
    fd_seek(d, d->head, s->fifo[2], d->sect);
    s->status0 |= FD_SR0_SEEK;
    fdctrl_raise_irq(s);
}

static void fdctrl_handle_perpendicular_mode(FDCtrl *s, int direction)
{
    FDrive *d = fdctrl_cur_drive(s);

    if (s->fifo[1] & 0x80) {
        d->perpendicular = s->fifo[1] & 0x7;
    }
    fdctrl_to_command_phase(s);
}

static void fdctrl_handle_configure(FDCtrl *s, int direction)
{
    s->config = s->fifo[2];
    s->precomp_trk = s->fifo[3];
    fdctrl_to_command_phase(s);
}

static void fdctrl_handle_powerdown_mode(FDCtrl *s, int direction)
{
    s->pwrd = s->fifo[1];
    s->fifo[0] = s->fifo[1];
    fdctrl_to_result_phase(s, 1);
}

static void fdctrl_handle_option(FDCtrl *s, int direction)
{
    fdctrl_to_command_phase(s);
}

/* Parameters until one has bit 7; with bit 6 too, four result bytes */
static void fdctrl_handle_drive_specification(FDCtrl *s, int direction)
{
    FDrive *d = fdctrl_cur_drive(s);
    uint32_t pos = (s->data_pos - 1) % FDC_FIFO_SIZE;

    if (s->fifo[pos] & 0x80) {
        if (s->fifo[pos] & 0x40) {
            s->fifo[0] = s->fifo[1];
            s->fifo[2] = 0;
            s->fifo[3] = 0;
            fdctrl_to_result_phase(s, 4);
        } else {
            fdctrl_to_command_phase(s);
        }
    } else if (s->data_len > 7) {
        s->fifo[0] = 0x80 | (d->head << 2) | s->cur_drv;
        fdctrl_to_result_phase(s, 1);
    }
}

static void fdctrl_handle_relative_seek_in(FDCtrl *s, int direction)
{
    FDrive *d;

    s->cur_drv = s->fifo[1] & FD_DOR_SELMASK;
    d = fdctrl_cur_drive(s);
    if (s->fifo[2] + d->track >= d->max_track) {
        fd_seek(d, d->head, (uint8_t)(d->max_track - 1), d->sect);
    } else {
        fd_seek(d, d->head, d->track + s->fifo[2], d->sect);
    }
    fdctrl_to_command_phase(s);
    s->status0 |= FD_SR0_SEEK;
    fdctrl_raise_irq(s);
}

static void fdctrl_handle_relative_seek_out(FDCtrl *s, int direction)
{
    FDrive *d;

    s->cur_drv = s->fifo[1] & FD_DOR_SELMASK;
    d = fdctrl_cur_drive(s);
    if (s->fifo[2] > d->track) {
        fd_seek(d, d->head, 0, d->sect);
    } else {
        fd_seek(d, d->head, d->track - s->fifo[2], d->sect);
    }
    fdctrl_to_command_phase(s);
    s->status0 |= FD_SR0_SEEK;
    fdctrl_raise_irq(s);
}

typedef struct FDCtrlCommand {
    uint8_t value, mask;
    int parameters;
    void (*handler)(FDCtrl *s, int direction);
    int direction;
} FDCtrlCommand;

/* QEMU 7.2's table: the first entry whose mask and value match wins */
static const FDCtrlCommand fdctrl_commands[] = {
    { 0x06, 0x1f, 8, fdctrl_start_transfer, FD_DIR_READ },
    { 0x05, 0x3f, 8, fdctrl_start_transfer, FD_DIR_WRITE },
    { 0x0f, 0xff, 2, fdctrl_handle_seek },
    { 0x08, 0xff, 0, fdctrl_handle_sense_interrupt_status },
    { 0x07, 0xff, 1, fdctrl_handle_recalibrate },
    { 0x0d, 0xbf, 5, fdctrl_handle_format_track },
    { 0x02, 0xbf, 8, fdctrl_start_transfer, FD_DIR_READ },   /* READ TRACK */
    { 0x4e, 0xff, 17, fdctrl_handle_restore },
    { 0x2e, 0xff, 0, fdctrl_handle_save },
    { 0x0c, 0x1f, 8, fdctrl_start_transfer_del, FD_DIR_READ },
    { 0x11, 0x1f, 8, fdctrl_start_transfer, FD_DIR_SCANE },
    { 0x16, 0x1f, 8, fdctrl_start_transfer, FD_DIR_VERIFY },
    { 0x19, 0x1f, 8, fdctrl_start_transfer, FD_DIR_SCANL },
    { 0x1d, 0x1f, 8, fdctrl_start_transfer, FD_DIR_SCANH },
    { 0x09, 0x3f, 8, fdctrl_start_transfer_del, FD_DIR_WRITE },
    { 0x0a, 0xbf, 1, fdctrl_handle_readid },
    { 0x03, 0xff, 2, fdctrl_handle_specify },
    { 0x04, 0xff, 1, fdctrl_handle_sense_drive_status },
    { 0x12, 0xff, 1, fdctrl_handle_perpendicular_mode },
    { 0x13, 0xff, 3, fdctrl_handle_configure },
    { 0x17, 0xff, 2, fdctrl_handle_powerdown_mode },
    { 0x33, 0xff, 1, fdctrl_handle_option },
    { 0x8e, 0xff, 5, fdctrl_handle_drive_specification },
    { 0x8f, 0xff, 2, fdctrl_handle_relative_seek_out },
    { 0xcd, 0xff, 10, fdctrl_unimplemented },   /* FORMAT AND WRITE */
    { 0xcf, 0xff, 2, fdctrl_handle_relative_seek_in },
    { 0x14, 0x7f, 0, fdctrl_handle_lock },
    { 0x0e, 0xff, 0, fdctrl_handle_dumpreg },
    { 0x10, 0xff, 0, fdctrl_handle_version },
    { 0x18, 0xff, 0, fdctrl_handle_partid },
    { 0x05, 0x1f, 8, fdctrl_start_transfer, FD_DIR_WRITE },  /* BeOS' WRITE */
    { 0x00, 0x00, 0, fdctrl_unimplemented },
};

static const FDCtrlCommand *fdctrl_command(uint8_t byte)
{
    const FDCtrlCommand *c = fdctrl_commands;

    while ((byte & c->mask) != c->value) {
        c++;
    }
    return c;
}

/* READ ID's answer, on the main thread */
static void fdctrl_result_timer(void *opaque)
{
    FDCtrl *s = opaque;
    FDrive *d;

    g_mutex_lock(&s->lock);
    if (s->readid_pending) {
        s->readid_pending = false;
        d = fdctrl_cur_drive(s);
        if (d->last_sect != 0) {
            d->sect = (d->sect % d->last_sect) + 1;
        }
        if ((s->dsr & FD_DSR_DRATEMASK) != d->media_rate) {
            fdctrl_stop_transfer(s, FD_SR0_ABNTERM, FD_SR1_MA, 0x00);
        } else {
            fdctrl_stop_transfer(s, 0x00, 0x00, 0x00);
        }
    }
    g_mutex_unlock(&s->lock);
}

/* Registers --------------------------------------------------------------- */

static void fdctrl_write_dor(FDCtrl *s, uint32_t value)
{
    s->srb = (s->srb & ~(FD_SRB_MTR0 | FD_SRB_MTR1 | FD_SRB_DR0)) |
             (value & FD_DOR_MOTEN0 ? FD_SRB_MTR0 : 0) |
             (value & FD_DOR_MOTEN1 ? FD_SRB_MTR1 : 0) |
             (value & 1 ? FD_SRB_DR0 : 0);
    /* Leaving reset resets the controller, with the interrupt */
    if ((value & FD_DOR_nRESET) && !(s->dor & FD_DOR_nRESET)) {
        fdctrl_reset_locked(s, true);
        s->dsr &= ~FD_DSR_PWRDOWN;
    }
    s->cur_drv = value & FD_DOR_SELMASK;
    s->dor = value;
}

static void fdctrl_write_rate(FDCtrl *s, uint32_t value)
{
    if (value & FD_DSR_SWRESET) {
        s->dor &= ~FD_DOR_nRESET;
        fdctrl_reset_locked(s, true);
        s->dor |= FD_DOR_nRESET;
    }
    if (value & FD_DSR_PWRDOWN) {
        fdctrl_reset_locked(s, true);
    }
    s->dsr = value;
}

static uint32_t fdctrl_read_data(FDCtrl *s)
{
    uint32_t pos;

    fdctrl_cur_drive(s);
    s->dsr &= ~FD_DSR_PWRDOWN;
    /* only the result phase ever reads here: no diskette, no data */
    if (!(s->msr & FD_MSR_RQM) || !(s->msr & FD_MSR_DIO) ||
        s->phase != FD_PHASE_RESULT) {
        return 0;
    }
    pos = s->data_pos % FDC_FIFO_SIZE;
    if (++s->data_pos == s->data_len) {
        s->msr &= ~FD_MSR_RQM;
        fdctrl_to_command_phase(s);
        fdctrl_reset_irq(s);
    }
    return s->fifo[pos];
}

static void fdctrl_write_data(FDCtrl *s, uint32_t value)
{
    const FDCtrlCommand *cmd;
    uint32_t pos;

    if (!(s->msr & FD_MSR_RQM) || (s->msr & FD_MSR_DIO)) {
        return;
    }
    s->dsr &= ~FD_DSR_PWRDOWN;
    pos = s->data_pos++ % FDC_FIFO_SIZE;
    s->fifo[pos] = value;
    if (s->data_pos == s->data_len) {
        s->msr &= ~FD_MSR_RQM;
    }
    /* only the command phase ever takes bytes here: no diskette */
    if (s->phase != FD_PHASE_COMMAND) {
        return;
    }
    if (pos == 0) {
        cmd = fdctrl_command(value);
        s->data_len = cmd->parameters + 1;
        if (cmd->parameters) {
            s->msr |= FD_MSR_RQM;
        }
        s->msr |= FD_MSR_CMDBUSY;
    }
    if (s->data_pos == s->data_len) {
        s->phase = FD_PHASE_EXECUTION;
        cmd = fdctrl_command(s->fifo[0]);
        cmd->handler(s, cmd->direction);
    }
}

uint32_t fdctrl_read(FDCtrl *s, unsigned reg)
{
    uint32_t v;

    g_mutex_lock(&s->lock);
    switch (reg & 7) {
    case 0:
        v = s->sra;
        break;
    case 1:
        v = s->srb;
        break;
    case 2:
        v = s->dor | s->cur_drv;
        break;
    case 3:
        v = s->tdr;
        break;
    case 4:                     /* MSR; reading it ends power-down */
        v = s->msr;
        s->dsr &= ~FD_DSR_PWRDOWN;
        s->dor |= FD_DOR_nRESET;
        break;
    case 5:
        v = fdctrl_read_data(s);
        break;
    case 7:                     /* DIR: an empty drive's change line */
        v = fdctrl_cur_drive(s)->media_changed ? FD_DIR_DSKCHG : 0;
        break;
    default:
        v = UINT32_MAX;
        break;
    }
    g_mutex_unlock(&s->lock);
    return v;
}

void fdctrl_write(FDCtrl *s, unsigned reg, uint32_t value)
{
    g_mutex_lock(&s->lock);
    reg &= 7;
    if (reg == 2) {
        fdctrl_write_dor(s, value);
    } else if (!(s->dor & FD_DOR_nRESET)) {
        /* in reset only the DOR listens */
    } else if (reg == 3) {
        s->tdr = value & FD_TDR_BOOTSEL;
    } else if (reg == 4) {
        fdctrl_write_rate(s, value);
    } else if (reg == 5) {
        fdctrl_write_data(s, value);
    } else if (reg == 7) {      /* CCR: the data rate, kept in the DSR */
        s->dsr = (s->dsr & ~FD_DSR_DRATEMASK) | (value & FD_DSR_DRATEMASK);
    }
    g_mutex_unlock(&s->lock);
}

/* Reset and set-up --------------------------------------------------------- */

void fdctrl_reset(FDCtrl *s, bool do_irq)
{
    g_mutex_lock(&s->lock);
    fdctrl_reset_locked(s, do_irq);
    g_mutex_unlock(&s->lock);
}

void fdctrl_finalize(FDCtrl *s)
{
    timer_free(s->result_timer);
    g_mutex_clear(&s->lock);
}

void fdctrl_init(FDCtrl *s, qemu_irq irq, int dma_chann)
{
    int i;

    g_mutex_init(&s->lock);
    s->irq = irq;
    s->dma_chann = dma_chann;
    s->result_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, fdctrl_result_timer, s);
    s->version = 0x90;          /* Intel 82078 */
    s->config = FD_CONFIG_EIS | FD_CONFIG_EFIFO;
    for (i = 0; i < FDC_MAX_DRIVES; i++) {
        fd_init(&s->drives[i]);
    }
}
