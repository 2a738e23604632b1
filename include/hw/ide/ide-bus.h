/*
 * IDE channels and the "IDE" bus (hw/ide/ide-channel.c, hw/ide/ide-bus.c).
 *
 * An IDEChannel is the register model of one ATA channel (two units, the
 * taskfile, device control) without file descriptors, so a unit test can
 * drive it.  No drive can be attached yet (the block layer's attachment
 * is issue 13's), so both units are always empty and a channel answers
 * as QEMU 7.2's does with no drive: every taskfile and status read gives
 * 0, a command to the master completes at once with an interrupt (7.2
 * aborts or ends each one without a medium; its SMART commands run all
 * the same, and SMART READ DATA/THRESHOLDS/LOG hand 512 bytes to the
 * data register, during which further commands are ignored) and one to
 * the empty slave is ignored; a software reset (SRST in device control) runs a
 * moment later, as 7.2's bottom half, and ends with an interrupt; nIEN
 * masks interrupts.  Writes land in both units' registers as in 7.2.
 *
 * The "ide" I/O regions answer like 7.2's port lists: the taskfile byte
 * by byte, the data register also as a word and a dword at offset 0,
 * other word accesses byte by byte (0xff above the last port), other
 * dword accesses all-ones.
 */
#ifndef HW_IDE_IDE_BUS_H
#define HW_IDE_IDE_BUS_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/memory.h"
#include "hw/qdev-core.h"

#define TYPE_IDE_BUS "IDE"

/* Status and device control bits */
#define IDE_STAT_ERR 0x01
#define IDE_STAT_DRQ 0x08
#define IDE_STAT_SEEK 0x10
#define IDE_STAT_READY 0x40
#define IDE_STAT_BUSY 0x80
#define IDE_CTRL_NIEN 0x02
#define IDE_CTRL_SRST 0x04
#define IDE_CTRL_HOB 0x80
#define IDE_ERR_ABRT 0x04
#define IDE_DEV_ALWAYS_ON 0xa0
#define IDE_DEV_SELECT 0x10

#define IDE_SECTOR_SIZE 512

typedef struct IDEUnit {
    uint8_t feature, nsector, sector, lcyl, hcyl;
    uint8_t hob_feature, hob_nsector, hob_sector, hob_lcyl, hob_hcyl;
    uint8_t select, status, error;
    bool present;               /* a drive: never, until drives attach */
    /* SMART, which 7.2 runs on the empty master too */
    bool smart_enabled, smart_autosave;
    uint8_t smart_selftest_count;
    uint8_t smart_selftest_data[IDE_SECTOR_SIZE];
    /* a PIO transfer to the host (DRQ): io_buffer[data_pos..data_end) */
    uint8_t io_buffer[IDE_SECTOR_SIZE];
    uint16_t data_pos, data_end;
} IDEUnit;

typedef struct IDEChannel {
    IDEUnit units[2];
    uint8_t cur;                /* the selected unit */
    uint8_t devctl;             /* device control: nIEN, SRST, HOB */
    /* the channel's interrupt (BMDMA's, which passes it on) */
    void (*set_irq)(void *opaque, int level);
    void *opaque;
    /* asks for ide_channel_run_srst() a moment later */
    void (*schedule_srst)(void *srst_opaque);
    void *srst_opaque;
} IDEChannel;

void ide_channel_init(IDEChannel *ch, void (*set_irq)(void *, int),
                      void *opaque, void (*schedule_srst)(void *),
                      void *srst_opaque);
void ide_channel_reset(IDEChannel *ch);
/* reg 0-7: the command block; ide_channel_*_status: alternate status */
uint8_t ide_channel_read(IDEChannel *ch, unsigned reg);
void ide_channel_write(IDEChannel *ch, unsigned reg, uint8_t val);
uint8_t ide_channel_read_alt_status(IDEChannel *ch);
void ide_channel_write_devctl(IDEChannel *ch, uint8_t val);
uint32_t ide_channel_read_data(IDEChannel *ch, unsigned size);
void ide_channel_write_data(IDEChannel *ch, uint32_t val, unsigned size);
void ide_channel_run_srst(IDEChannel *ch);

/* The bus: an IDEChannel with its "ide" port regions */
typedef struct IDEBus {
    BusState parent_obj;
    IDEChannel ch;
    GMutex *lock;               /* the controller's */
    MemoryRegion cmd_io, ctl_io;
    bool srst_pending;
} IDEBus;

#define IDE_BUS(obj) ((IDEBus *)(obj))

/* set_irq(opaque, level): the channel's interrupt; lock: the controller's */
IDEBus *ide_bus_new(DeviceState *parent, GMutex *lock,
                    void (*set_irq)(void *, int), void *opaque);
/* "ide" regions at iobase (8 ports) and iobase2 (1) in io */
void ide_bus_map_ports(IDEBus *bus, MemoryRegion *io, uint16_t iobase,
                       uint16_t iobase2);
void ide_bus_unmap_ports(IDEBus *bus);

#endif
