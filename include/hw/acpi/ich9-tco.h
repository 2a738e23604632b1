/*
 * ICH9's TCO watchdog ("sm-tco", 32 bytes at PMBASE + 0x60;
 * hw/acpi/ich9-tco.c).
 */
#ifndef HW_ACPI_ICH9_TCO_H
#define HW_ACPI_ICH9_TCO_H

#include "exec/memory.h"
#include "qemu/timer.h"

#define ICH9_TCO_OFFSET 0x60
#define ICH9_TCO_LEN 32
#define ICH9_TCO_LOCK 0x1000            /* TCO1_CNT: TCO_EN locked */
#define ICH9_SMI_EN_TCO_EN 0x2000       /* SMI_EN bit 13 */

typedef struct ICH9TCO {
    uint16_t rld, sts1, sts2, cnt1, cnt2, tmr;
    uint8_t din, dout, msg1, msg2, wdcnt, sw_irq_gen;
    QEMUTimer *timer;
    int64_t expire_time;                /* -1: stopped */
    uint8_t timeouts;
    MemoryRegion io;
    /* the board: whether a second timeout may act (no pin strap, GCS) */
    bool (*may_reboot)(void *opaque);
    void *opaque;
} ICH9TCO;

/* In parent (the PM block) at ICH9_TCO_OFFSET, registers at 7.2's values */
void ich9_tco_init(ICH9TCO *t, Object *owner, MemoryRegion *parent,
                   bool (*may_reboot)(void *opaque), void *opaque);
void ich9_tco_cleanup(ICH9TCO *t, MemoryRegion *parent);

#endif
