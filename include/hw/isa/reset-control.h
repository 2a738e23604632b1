/*
 * The reset control register at 0xcf9 of the PC southbridges (hw/isa/
 * reset-control.c): PIIX3's "piix3-reset-control" and ICH9-LPC's
 * "lpc-reset-control", a byte over the PCI host's CONFIG_ADDRESS (priority
 * 1, as in QEMU 7.2).
 */
#ifndef HW_ISA_RESET_CONTROL_H
#define HW_ISA_RESET_CONTROL_H

#include <glib.h>

#include "exec/memory.h"

#define RESET_CONTROL_IOPORT 0xcf9
#define RESET_CONTROL_RST_CPU 0x04      /* written 1: reset the system */

typedef struct ResetControl {
    GMutex lock;
    uint8_t value;
    uint8_t keep;               /* the bits a write stores */
    MemoryRegion io;
} ResetControl;

/* The region, owned by owner, at 0xcf9 of io_space */
void reset_control_init(ResetControl *rc, Object *owner, const char *name,
                        uint8_t keep, MemoryRegion *io_space);
void reset_control_destroy(ResetControl *rc, MemoryRegion *io_space);
/* The owner's reset: the register reads 0 */
void reset_control_reset(ResetControl *rc);

#endif
