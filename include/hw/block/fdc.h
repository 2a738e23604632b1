/*
 * The PC floppy disk controller (Intel 82078 as QEMU 7.2 models it):
 * hw/block/fdc.c holds the controller, hw/block/fdc-isa.c the ISA device
 * "isa-fdc" (ports 0x3f1-0x3f5 and 0x3f7, IRQ 6, DMA channel 2) with its
 * "floppy-bus".  The drives are always empty here: floppy drives with
 * media (-drive if=floppy, -device floppy) are refused until the block
 * layer serves them.
 */
#ifndef HW_BLOCK_FDC_H
#define HW_BLOCK_FDC_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "hw/irq.h"
#include "hw/isa/isa.h"
#include "qemu/timer.h"

#define TYPE_ISA_FDC "isa-fdc"
#define TYPE_FLOPPY_BUS "floppy-bus"

#define FDC_MAX_DRIVES 2
#define FDC_FIFO_SIZE 512

/* QEMU's FloppyDriveType, in its order */
typedef enum FloppyDriveType {
    FLOPPY_DRIVE_TYPE_144,
    FLOPPY_DRIVE_TYPE_288,
    FLOPPY_DRIVE_TYPE_120,
    FLOPPY_DRIVE_TYPE_NONE,
    FLOPPY_DRIVE_TYPE_AUTO,
} FloppyDriveType;

/* One drive slot: geometry limits, head position, and no diskette */
typedef struct FDrive {
    /* 7.2 gives a selected empty slot an empty backend; the SRA shows it */
    bool has_backend;
    uint8_t head, track, sect;
    uint8_t last_sect, max_track;
    bool double_sided;
    uint8_t perpendicular;
    uint8_t media_rate;
    bool media_changed;
    uint16_t bps;
    FloppyDriveType drive;
} FDrive;

/* The controller; every access under lock */
typedef struct FDCtrl {
    GMutex lock;
    qemu_irq irq;
    QEMUTimer *result_timer;
    bool readid_pending;
    int dma_chann;              /* -1: none */
    FloppyDriveType fallback;

    uint8_t sra, srb, dor, tdr, dsr, msr;
    uint8_t cur_drv;
    uint8_t status0;
    uint8_t phase, data_dir, data_state;
    uint32_t data_pos, data_len;
    uint8_t fifo[FDC_FIFO_SIZE];
    uint8_t eot, timer0, timer1, precomp_trk, config, lock_bit, pwrd;
    uint8_t version;
    uint8_t reset_sensei;
    FDrive drives[FDC_MAX_DRIVES];
} FDCtrl;

/* Sets up the controller (drives empty) and its READ ID timer */
void fdctrl_init(FDCtrl *s, qemu_irq irq, int dma_chann);
/* Frees what fdctrl_init() made (unit tests) */
void fdctrl_finalize(FDCtrl *s);
/* The controller's reset; do_irq as a DOR/DSR reset (not the machine's) */
void fdctrl_reset(FDCtrl *s, bool do_irq);
/* reg: the port's low three bits */
uint32_t fdctrl_read(FDCtrl *s, unsigned reg);
void fdctrl_write(FDCtrl *s, unsigned reg, uint32_t value);

/* A drive's type as the CMOS reports it (none here, no drive has media) */
FloppyDriveType isa_fdc_get_drive_type(ISADevice *fdc, int i);

#endif
