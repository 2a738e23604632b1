/*
 * The APM control and status ports (0xb2, 0xb3) of the PC southbridges
 * (hw/isa/apm.c), region "apm-io" as in QEMU 7.2.  PIIX4_PM and ICH9-LPC
 * each hold one; a write of the control port goes to the owner's
 * callback (ACPI enable/disable, SMI).
 */
#ifndef HW_ISA_APM_H
#define HW_ISA_APM_H

#include <glib.h>

#include "exec/memory.h"

#define APM_CNT_IOPORT 0xb2
#define APM_STS_IOPORT 0xb3

/* Called (without the APM's lock) with the value written to APM_CNT */
typedef void APMCtrlChanged(uint32_t value, void *opaque);

typedef struct APMState {
    GMutex lock;
    uint8_t apmc, apms;
    MemoryRegion io;
    APMCtrlChanged *callback;
    void *opaque;
} APMState;

/* The region, owned by owner, at 0xb2 of io_space */
void apm_init(APMState *apm, Object *owner, MemoryRegion *io_space,
              APMCtrlChanged *callback, void *opaque);
/* Its reverse, for the owner's exit */
void apm_destroy(APMState *apm, MemoryRegion *io_space);

#endif
