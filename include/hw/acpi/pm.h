/*
 * ACPI fixed-hardware power management block of the PC boards: PM1a event
 * (status/enable), PM1a control and the PM timer, at ACPI_PM_BASE in I/O
 * space on both i440fx and q35.  The FADT built by hw/i386/acpi-build.c
 * points at these registers, and its DSDT's \_S5_ names ACPI_PM_SLP_TYP_S5.
 *
 * Port layout (offsets from ACPI_PM_BASE):
 *   0x0  PM1_STS  16 bits, write 1 to clear; PWRBTN_STS is the only source
 *   0x2  PM1_EN   16 bits, read/write
 *   0x4  PM1_CNT  16 bits: SCI_EN, SLP_TYP (10-12), SLP_EN (13, write-only)
 *   0x8  PM_TMR   32 bits, read-only, 3.579545 MHz from CLOCK_MONOTONIC
 * Other bytes of the 16-byte range read all-ones and ignore writes.
 *
 * The GPE0 block (ACPI 4.7.1.6) lives here too, so that one function
 * computes the SCI: its first half is status (write 1 to clear), its
 * second enable, byte by byte.  QEMU 7.2's SCI is a level: an enabled
 * PM1 event (while SCI_EN is set), or bit & enable in GPE0 status byte 0
 * — only byte 0: 7.2 looks at no other, and its hotplug events (CPU bit
 * 2, PCI bit 1, memory bit 3) are all there.
 *
 * The register model (AcpiPMState and the acpi_pm_state_* functions) uses
 * no ports, fds or globals: its outputs are callbacks, so it is tested
 * alone.  acpi_pm_init() wires one instance to the ports, the SCI line and
 * the shutdown request.
 */
#ifndef HW_ACPI_PM_H
#define HW_ACPI_PM_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "qapi/error.h"

#define ACPI_PM_BASE            0x600
#define ACPI_PM_IO_LEN          0x10
#define ACPI_PM1_EVT_OFFSET     0x0     /* PM1_STS, then PM1_EN */
#define ACPI_PM1_EVT_LEN        4
#define ACPI_PM1_CNT_OFFSET     0x4
#define ACPI_PM1_CNT_LEN        2
#define ACPI_PM_TMR_OFFSET      0x8
#define ACPI_PM_TMR_LEN         4
#define ACPI_PM_TIMER_HZ        3579545

/* The SCI: ISA IRQ 9, level-triggered, active high (see the MADT) */
#define ACPI_PM_SCI_GSI         9

/* PM1_STS / PM1_EN bits */
#define ACPI_PM1_TMR            (1u << 0)
#define ACPI_PM1_GBL            (1u << 5)
#define ACPI_PM1_PWRBTN         (1u << 8)
#define ACPI_PM1_SLPBTN         (1u << 9)
#define ACPI_PM1_RTC            (1u << 10)
#define ACPI_PM1_WAK            (1u << 15)

/* PM1_CNT bits */
#define ACPI_PM1_CNT_SCI_EN     (1u << 0)
#define ACPI_PM1_CNT_BM_RLD     (1u << 1)
#define ACPI_PM1_CNT_GBL_RLS    (1u << 2)
#define ACPI_PM1_CNT_SLP_TYP_SHIFT 10
#define ACPI_PM1_CNT_SLP_TYP_MASK  (7u << ACPI_PM1_CNT_SLP_TYP_SHIFT)
#define ACPI_PM1_CNT_SLP_EN     (1u << 13)

/*
 * SLP_TYP values as QEMU 7.2's PIIX4 PM and ICH9 LPC decode them (and its
 * DSDT's \_S3_, \_S4_, \_S5_ packages name them): 0 powers off (S5), 1
 * suspends to RAM (S3), s4_val (a property of the PM device, 2 by
 * default) sends SUSPEND_DISK and powers off (S4); other values are
 * ignored.  disable_s3 / disable_s4 only leave \_S3_ / \_S4_ out of the
 * DSDT, as in QEMU.
 */
#define ACPI_PM_SLP_TYP_S5      0
#define ACPI_PM_SLP_TYP_S3      1
#define ACPI_PM_S4_VAL_DEFAULT  2

typedef struct AcpiSleepStates {
    uint8_t disable_s3;         /* nonzero: no \_S3_ */
    uint8_t disable_s4;         /* nonzero: no \_S4_ */
    uint8_t s4_val;             /* SLP_TYP of S4 */
} AcpiSleepStates;

/* The board's values (the PM device's properties set them) */
const AcpiSleepStates *acpi_pm_sleep_states(void);

/* GPE0: 4 bytes on PIIX4 (at 0xafe0), 16 on ICH9 (at PMBASE + 0x20) */
#define ACPI_GPE0_MAX_LEN       16
/* GPE0 status bits of QEMU 7.2's hotplug events */
#define ACPI_GPE_PCI_HOTPLUG    (1u << 1)
#define ACPI_GPE_CPU_HOTPLUG    (1u << 2)
#define ACPI_GPE_MEM_HOTPLUG    (1u << 3)

typedef struct AcpiPMState {
    GMutex lock;
    uint16_t pm1_sts;
    uint16_t pm1_en;
    uint16_t pm1_cnt;           /* SLP_EN is never stored */
    int64_t tmr_base_ns;        /* clock value at reset: the timer's 0 */
    int sci_level;              /* last level given to set_sci */
    unsigned gpe_len;           /* 0: no GPE0 block */
    uint8_t gpe_sts[ACPI_GPE0_MAX_LEN / 2];
    uint8_t gpe_en[ACPI_GPE0_MAX_LEN / 2];
    /*
     * No legacy (SMM) mode to leave: SCI_EN is set from reset on and the
     * ACPI enable/disable commands change nothing (QEMU 7.2's acpi_only,
     * true unless the machine has SMM or smm-compat is set)
     */
    bool acpi_only;

    /* Outputs; each is called with lock held */
    int64_t (*clock_ns)(void);                      /* monotonic ns */
    void (*set_sci)(void *opaque, int level);
    void (*sleep)(void *opaque, unsigned slp_typ);  /* SLP_EN written */
    void *opaque;
} AcpiPMState;

/*
 * Register model.  init sets up the lock and resets; hooks are set by the
 * caller before the first access (a NULL hook does nothing, a NULL clock
 * means CLOCK_MONOTONIC).  Accesses are 1, 2 or 4 bytes at any offset of
 * the block; values are little-endian across the registers they span.
 */
void acpi_pm_state_init(AcpiPMState *s);
void acpi_pm_state_destroy(AcpiPMState *s);
void acpi_pm_state_reset(AcpiPMState *s);
/*
 * The APM port's ACPI enable/disable commands (ACPI 3.0, 4.7.2.5): set or
 * clear SCI_EN, unless acpi_only
 */
void acpi_pm_state_cnt_update(AcpiPMState *s, bool enable, bool disable);
/* After an S3 wakeup: WAK_STS set, as QEMU's wakeup notifier does */
void acpi_pm_state_wakeup(AcpiPMState *s);
uint32_t acpi_pm_state_read(AcpiPMState *s, uint16_t offset, unsigned size);
void acpi_pm_state_write(AcpiPMState *s, uint16_t offset, unsigned size,
                         uint32_t value);
/* Sets PWRBTN_STS; the SCI follows if PWRBTN_EN and SCI_EN are set */
void acpi_pm_state_power_button(AcpiPMState *s);
/* The PM timer's current 32-bit value */
uint32_t acpi_pm_state_timer(AcpiPMState *s);

/*
 * GPE0 of len bytes (even, up to ACPI_GPE0_MAX_LEN; before the first
 * access).  Byte accesses at offset 0..len-1: status, then enable.
 */
void acpi_pm_state_gpe_init(AcpiPMState *s, unsigned len);
uint8_t acpi_pm_state_gpe_readb(AcpiPMState *s, unsigned offset);
void acpi_pm_state_gpe_writeb(AcpiPMState *s, unsigned offset, uint8_t val);
/* A hotplug event: sets bits in GPE0 status byte 0; the SCI follows */
void acpi_pm_state_gpe_event(AcpiPMState *s, uint8_t bits);

/* QMP system_powerdown: presses the fixed-feature power button */
void acpi_pm_powerdown(void);

#endif
