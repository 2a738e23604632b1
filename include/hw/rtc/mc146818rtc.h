/*
 * MC146818 RTC and CMOS RAM (ports 0x70 index, 0x71 data).
 *
 * The register model is pure: the clock is a callback (host UTC by
 * default), so tests run it at fixed times, and it has no timer of its
 * own: rtc_next_deadline() says when it next has something to do and the
 * device calls rtc_run_timers() then (every register access runs what is
 * due first, too).  As the MC146818 datasheet and QEMU 7.2:
 *
 * - the time registers count from the time the guest writes into them
 *   (SET, register B bit 7, holds them; so does a divider reset,
 *   register A DV = 11x, and the first update after leaving the reset
 *   comes 500 ms later);
 * - update-in-progress (register A bit 7) reads 1 during the last
 *   244 us (8 cycles of 32.768 kHz) before each update;
 * - register C: UF at every update (DV = 010), AF when the updated time
 *   matches the alarm bytes (0xC0-0xFF: any value), PF at the periodic
 *   rate of register A's RS bits while PIE is set (QEMU 7.2: also in
 *   divider reset); a flag enabled in register B (UIE/AIE/PIE) sets IRQF
 *   and raises the IRQ; reading C clears them all and lowers it.
 */
#ifndef HW_RTC_MC146818RTC_H
#define HW_RTC_MC146818RTC_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

#define RTC_SECONDS 0x00
#define RTC_SECONDS_ALARM 0x01
#define RTC_MINUTES 0x02
#define RTC_MINUTES_ALARM 0x03
#define RTC_HOURS 0x04
#define RTC_HOURS_ALARM 0x05
#define RTC_DAY_OF_WEEK 0x06
#define RTC_DAY_OF_MONTH 0x07
#define RTC_MONTH 0x08
#define RTC_YEAR 0x09
#define RTC_REG_A 0x0a
#define RTC_REG_B 0x0b
#define RTC_REG_C 0x0c
#define RTC_REG_D 0x0d
#define RTC_CENTURY 0x32

#define REG_A_UIP 0x80
#define REG_A_DV 0x70   /* divider: 010 counts, 11x holds it in reset */
#define REG_A_RS 0x0f   /* periodic rate */
#define REG_B_SET 0x80
#define REG_B_PIE 0x40
#define REG_B_AIE 0x20
#define REG_B_UIE 0x10
#define REG_B_SQWE 0x08
#define REG_B_DM 0x04   /* binary, not BCD */
#define REG_B_24H 0x02
#define REG_C_IRQF 0x80
#define REG_C_PF 0x40
#define REG_C_AF 0x20
#define REG_C_UF 0x10
#define REG_D_VRT 0x80
/* An alarm byte from 0xC0 up matches every value */
#define RTC_ALARM_DONT_CARE 0xC0

/* Memory size fields a PC BIOS and Linux read */
#define CMOS_FLOPPY_TYPES 0x10 /* drive A's type << 4 | drive B's */
#define CMOS_EQUIPMENT 0x14   /* FPU, PS/2 mouse, floppy drive count */
#define CMOS_BASE_MEM_LO 0x15 /* KiB below 1 MiB (640) */
#define CMOS_EXT_MEM_LO 0x17  /* KiB above 1 MiB, at most 65535 */
#define CMOS_EXT_MEM2_LO 0x30 /* the same again */
#define CMOS_MEM_16M_LO 0x34  /* 64 KiB units above 16 MiB, below 4 GiB */
#define CMOS_MEM_4G_LO 0x5b   /* 64 KiB units above 4 GiB, three bytes */
#define CMOS_NR_CPUS 0x5f     /* vCPUs - 1 */

#define RTC_CMOS_SIZE 128

/*
 * The clock the chip runs on, in ns: by default the host's UTC; the
 * device's is the QEMU clock -rtc clock= names (host, rt, vm)
 */
typedef int64_t RTCClockFunc(void *opaque);
typedef void RTCIrqFunc(void *opaque, int level);

typedef struct RTCState {
    uint8_t cmos[RTC_CMOS_SIZE];
    uint8_t index;
    bool nmi_disabled;      /* bit 7 of the last index write */
    /*
     * The guest's time: base_secs at clock base_ns, then phase_ns into
     * that second (so updates come when clock - base_ns + phase_ns
     * crosses a whole second)
     */
    int64_t base_secs, base_ns, phase_ns;
    int64_t events_ns;      /* updates are done up to this clock time */
    uint32_t period;        /* periodic interrupt, 32.768 kHz cycles; 0 off */
    int64_t next_periodic_ns;
    int32_t base_year;      /* the year register counts from it (QEMU) */
    RTCClockFunc *clock;
    RTCIrqFunc *irq;
    void *opaque;
} RTCState;

/*
 * clock NULL: host UTC (g_get_real_time); the guest's time is the
 * clock's.  Register A 0x26, B 0x02 (24-hour BCD), C 0, D VRT.
 */
void rtc_init(RTCState *s, RTCClockFunc *clock, RTCIrqFunc *irq,
              void *opaque);
/*
 * A machine reset, as QEMU 7.2: PIE, AIE and SQWE off, the flags of
 * register C clear, the IRQ low; the time and the rest remain (battery)
 */
void rtc_reset(RTCState *s);
/* The guest's time becomes secs since the epoch, a second starting now */
void rtc_set_guest_time(RTCState *s, int64_t secs);
/* Does what is due by now: updates, alarm, periodic interrupts */
void rtc_run_timers(RTCState *s);
/* The clock time at which rtc_run_timers() has something to do, or -1 */
int64_t rtc_next_deadline(RTCState *s);

/* Port offsets: 0 = index (0x70), 1 = data (0x71) */
uint8_t rtc_ioport_read(RTCState *s, unsigned offset);
void rtc_ioport_write(RTCState *s, unsigned offset, uint8_t value);

/* Direct CMOS access for the board (no time conversion) */
void rtc_set_memory(RTCState *s, unsigned addr, uint8_t value);
uint8_t rtc_get_memory(const RTCState *s, unsigned addr);
/* Fills the memory size and CPU count fields as QEMU's PC board does */
void rtc_set_pc_memory_fields(RTCState *s, uint64_t below_4g,
                              uint64_t above_4g, unsigned cpus);

/*
 * The ISA device, QEMU's "mc146818rtc": ports iobase (0x70) and +1, one
 * output line (the board connects it to ISA IRQ "irq", 8), base_year.
 */
#define TYPE_MC146818_RTC "mc146818rtc"

typedef struct ISADevice ISADevice;

/* The board's memory size fields in CMOS, as QEMU's PC writes them */
void rtc_set_pc_memory(ISADevice *dev, uint64_t below_4g, uint64_t above_4g,
                       unsigned cpus);

/* What -rtc asks of every mc146818rtc (taken at realize): clock and start */
typedef enum RTCClockKind {
    RTC_CLOCK_HOST,     /* the host's wall clock (the default) */
    RTC_CLOCK_RT,       /* the host's monotonic clock, from the wall time */
    RTC_CLOCK_VM,       /* the VM's running time, from the wall time */
} RTCClockKind;
/* offset_secs: the time shown minus UTC at start-up (base=) */
void rtc_set_config(RTCClockKind kind, int64_t offset_secs);

#endif
