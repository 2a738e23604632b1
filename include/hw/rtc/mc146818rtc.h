/*
 * MC146818 RTC and CMOS RAM (ports 0x70 index, 0x71 data).
 *
 * The register model is pure: the clock is a callback (host UTC by
 * default), so tests run it at fixed times.  The time registers follow
 * the clock plus an offset the guest sets by writing them with SET
 * (register B bit 7) held.  Update-in-progress (register A bit 7) reads
 * as 1 during the last 244 us of every second.  No periodic, alarm or
 * update interrupts are generated; register C reads 0.
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
#define REG_B_SET 0x80
#define REG_B_DM 0x04   /* binary, not BCD */
#define REG_B_24H 0x02
#define REG_D_VRT 0x80

/* Memory size fields a PC BIOS and Linux read */
#define CMOS_BASE_MEM_LO 0x15 /* KiB below 1 MiB (640) */
#define CMOS_EXT_MEM_LO 0x17  /* KiB above 1 MiB, at most 65535 */
#define CMOS_EXT_MEM2_LO 0x30 /* the same again */
#define CMOS_MEM_16M_LO 0x34  /* 64 KiB units above 16 MiB, below 4 GiB */
#define CMOS_MEM_4G_LO 0x5b   /* 64 KiB units above 4 GiB, three bytes */
#define CMOS_NR_CPUS 0x5f     /* vCPUs - 1 */

#define RTC_CMOS_SIZE 128

/* Host time in nanoseconds since the epoch (UTC) */
typedef int64_t RTCClockFunc(void *opaque);
typedef void RTCIrqFunc(void *opaque, int level);

typedef struct RTCState {
    uint8_t cmos[RTC_CMOS_SIZE];
    uint8_t index;
    bool nmi_disabled;      /* bit 7 of the last index write */
    int64_t offset_secs;    /* guest time minus host time, in seconds */
    int32_t base_year;      /* the year register counts from it (QEMU) */
    RTCClockFunc *clock;
    RTCIrqFunc *irq;
    void *opaque;
} RTCState;

/* clock NULL: host UTC (g_get_real_time) */
void rtc_init(RTCState *s, RTCClockFunc *clock, RTCIrqFunc *irq,
              void *opaque);
/* Register A 0x26, B 0x02 (24-hour BCD), C 0, D VRT; the time remains */
void rtc_reset(RTCState *s);

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
