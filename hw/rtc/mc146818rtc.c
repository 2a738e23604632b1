/*
 * MC146818 RTC and CMOS RAM (see include/hw/rtc/mc146818rtc.h).
 *
 * The clock is host UTC by default (-rtc base=utc,clock=host; -rtc picks
 * another start or clock: rtc_set_config).  The guest's view of time is
 * kept as a time and the clock reading it was set at, so setting the
 * clock never touches the host and a reset keeps the time (the chip is
 * battery backed).
 */
#include <string.h>
#include <time.h>

#include <glib.h>

#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "hw/rtc/mc146818rtc.h"
#include "qemu/timer.h"
#include "sysemu/runstate.h"

#define NS_PER_SEC 1000000000LL
#define RTC_CLOCK_RATE 32768
/* UIP is set 8 cycles of 32.768 kHz before each update (244.14 us) */
#define RTC_UIP_NS (8 * NS_PER_SEC / RTC_CLOCK_RATE)
#define RTC_ISA_IRQ 8
/*
 * 0000-01-01 00:00:00 UTC: the earliest time the registers can show (a
 * guest writing month 0 of year 0 would otherwise go before it)
 */
#define RTC_MIN_SECS (-62167219200LL)

/* State ------------------------------------------------------------------ */

static int64_t rtc_host_clock(void *opaque)
{
    return g_get_real_time() * 1000;
}

static int64_t rtc_now(const RTCState *s)
{
    return s->clock(s->opaque);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    return a / b - (a % b < 0);
}

static int64_t floor_mod(int64_t a, int64_t b)
{
    return a - floor_div(a, b) * b;
}

/* Nanoseconds of guest time since base_secs began, at clock time now */
static int64_t rtc_elapsed(const RTCState *s, int64_t now)
{
    return now - s->base_ns + s->phase_ns;
}

/*
 * The guest's time in whole seconds.  Kept apart from the nanoseconds:
 * the registers reach year 9999 in BCD (25755 in binary), and a count of
 * nanoseconds since 1970 ends in 2262.
 */
static int64_t rtc_secs_at(const RTCState *s, int64_t now)
{
    return s->base_secs + floor_div(rtc_elapsed(s, now), NS_PER_SEC);
}

static int64_t rtc_fraction_at(const RTCState *s, int64_t now)
{
    return floor_mod(rtc_elapsed(s, now), NS_PER_SEC);
}

static int64_t rtc_guest_secs(const RTCState *s)
{
    return rtc_secs_at(s, rtc_now(s));
}

/* The time registers follow the clock (neither SET nor a stopped divider) */
static bool rtc_running(const RTCState *s)
{
    return !(s->cmos[RTC_REG_B] & REG_B_SET) &&
           (s->cmos[RTC_REG_A] & REG_A_DV) <= 0x20;
}

/* Update cycles happen (QEMU 7.2: only with the 32.768 kHz divider) */
static bool rtc_updating(const RTCState *s)
{
    return (s->cmos[RTC_REG_A] & REG_A_DV) == 0x20;
}

static bool rtc_is_time_reg(unsigned reg)
{
    return reg <= RTC_YEAR || reg == RTC_CENTURY;
}

static uint8_t rtc_to_reg(const RTCState *s, int v)
{
    if (s->cmos[RTC_REG_B] & REG_B_DM) {
        return v;
    }
    return ((v / 10) << 4) | (v % 10);
}

static int rtc_from_reg(const RTCState *s, uint8_t v)
{
    if (s->cmos[RTC_REG_B] & REG_B_DM) {
        return v;
    }
    return (v >> 4) * 10 + (v & 0x0f);
}

static uint8_t rtc_hour_to_reg(const RTCState *s, int hour)
{
    int h12;

    if (s->cmos[RTC_REG_B] & REG_B_24H) {
        return rtc_to_reg(s, hour);
    }
    h12 = hour % 12 ? hour % 12 : 12;
    return rtc_to_reg(s, h12) | (hour >= 12 ? 0x80 : 0);
}

static int rtc_hour_from_reg(const RTCState *s, uint8_t v)
{
    int h;

    if (s->cmos[RTC_REG_B] & REG_B_24H) {
        return rtc_from_reg(s, v);
    }
    h = rtc_from_reg(s, v & 0x7f) % 12;
    return (v & 0x80) ? h + 12 : h;
}

/* Copies the guest's current time into the time registers */
static void rtc_latch_time(RTCState *s)
{
    time_t secs = rtc_guest_secs(s);
    struct tm tm;
    int year;

    gmtime_r(&secs, &tm);
    /*
     * Counted from base_year, as QEMU's registers count (0 on the PC);
     * not negative (RTC_MIN_SECS, and a base after the date reads 0)
     */
    year = MAX((int64_t)tm.tm_year + 1900 - s->base_year, 0);
    s->cmos[RTC_SECONDS] = rtc_to_reg(s, tm.tm_sec);
    s->cmos[RTC_MINUTES] = rtc_to_reg(s, tm.tm_min);
    s->cmos[RTC_HOURS] = rtc_hour_to_reg(s, tm.tm_hour);
    s->cmos[RTC_DAY_OF_WEEK] = rtc_to_reg(s, tm.tm_wday + 1);
    s->cmos[RTC_DAY_OF_MONTH] = rtc_to_reg(s, tm.tm_mday);
    s->cmos[RTC_MONTH] = rtc_to_reg(s, tm.tm_mon + 1);
    s->cmos[RTC_YEAR] = rtc_to_reg(s, year % 100);
    s->cmos[RTC_CENTURY] = rtc_to_reg(s, year / 100);
}

/*
 * The time registers as the guest set them become the time now, phase_ns
 * into its second: the sub-second phase is the chip's divider chain, which
 * writing the registers does not touch (QEMU 7.2)
 */
static void rtc_commit_time(RTCState *s)
{
    struct tm tm = { 0 };
    int64_t now = rtc_now(s);
    time_t secs;

    tm.tm_sec = rtc_from_reg(s, s->cmos[RTC_SECONDS]);
    tm.tm_min = rtc_from_reg(s, s->cmos[RTC_MINUTES]);
    tm.tm_hour = rtc_hour_from_reg(s, s->cmos[RTC_HOURS]);
    tm.tm_mday = rtc_from_reg(s, s->cmos[RTC_DAY_OF_MONTH]);
    tm.tm_mon = rtc_from_reg(s, s->cmos[RTC_MONTH]) - 1;
    tm.tm_year = MIN((int64_t)rtc_from_reg(s, s->cmos[RTC_CENTURY]) * 100 +
                     rtc_from_reg(s, s->cmos[RTC_YEAR]) + s->base_year - 1900,
                     INT32_MAX / 2);
    secs = timegm(&tm);
    if (secs < RTC_MIN_SECS) {
        secs = RTC_MIN_SECS;
    }
    s->base_secs = secs;
    s->base_ns = now;
    s->events_ns = now;
}

void rtc_set_guest_time(RTCState *s, int64_t secs)
{
    s->base_secs = secs;
    s->base_ns = rtc_now(s);
    s->phase_ns = 0;
    s->events_ns = s->base_ns;
}

/* UIP: the last 8 cycles of 32.768 kHz before an update */
static bool rtc_update_in_progress(const RTCState *s)
{
    return rtc_running(s) &&
           rtc_fraction_at(s, rtc_now(s)) >= NS_PER_SEC - RTC_UIP_NS;
}

/* Interrupts ------------------------------------------------------------- */

/* Flags (UF, AF) into register C; the newly set and enabled raise the IRQ */
static void rtc_set_flags(RTCState *s, uint8_t flags)
{
    uint8_t fresh = flags & ~s->cmos[RTC_REG_C];

    s->cmos[RTC_REG_C] |= flags;
    if (fresh & s->cmos[RTC_REG_B] & (REG_B_PIE | REG_B_AIE | REG_B_UIE)) {
        s->cmos[RTC_REG_C] |= REG_C_IRQF;
        if (s->irq) {
            s->irq(s->opaque, 1);
        }
    }
}

/*
 * The value of an alarm byte (hours in 24-hour form), -1 for "any"; -2
 * for one no time has (which then never matches)
 */
static int rtc_alarm_field(const RTCState *s, unsigned reg, int limit)
{
    uint8_t v = s->cmos[reg];
    int x;

    if ((v & RTC_ALARM_DONT_CARE) == RTC_ALARM_DONT_CARE) {
        return -1;
    }
    x = reg == RTC_HOURS_ALARM ? rtc_hour_from_reg(s, v) : rtc_from_reg(s, v);
    return x < limit ? x : -2;
}

/*
 * Seconds from the second secs until the next one (1 to a day later) whose
 * time of day matches the alarm bytes, or -1 if none does
 */
static int64_t rtc_secs_to_alarm(const RTCState *s, int64_t secs)
{
    int hour = rtc_alarm_field(s, RTC_HOURS_ALARM, 24);
    int min = rtc_alarm_field(s, RTC_MINUTES_ALARM, 60);
    int sec = rtc_alarm_field(s, RTC_SECONDS_ALARM, 60);
    int64_t day_sec = floor_mod(secs, 86400);
    int64_t d = 1;

    if (hour == -2 || min == -2 || sec == -2) {
        return -1;
    }
    /* At most 24 hour steps, 60 minute steps and 60 second steps */
    while (d <= 86400) {
        int64_t t = (day_sec + d) % 86400;

        if (hour >= 0 && t / 3600 != hour) {
            d += 3600 - t % 3600;
        } else if (min >= 0 && t / 60 % 60 != min) {
            d += 60 - t % 60;
        } else if (sec >= 0 && t % 60 != sec) {
            d++;
        } else {
            return d;
        }
    }
    return -1;
}

/* Every update from events_ns up to now: UF, and AF if one matched */
static void rtc_run_updates(RTCState *s, int64_t now)
{
    int64_t first, count, to_alarm;

    if (rtc_updating(s) && now > s->events_ns) {
        first = s->events_ns + NS_PER_SEC -
                rtc_fraction_at(s, s->events_ns);
        if (first <= now) {
            count = (now - first) / NS_PER_SEC + 1;
            to_alarm = rtc_secs_to_alarm(s, rtc_secs_at(s, s->events_ns));
            rtc_set_flags(s, REG_C_UF | (to_alarm >= 1 && to_alarm <= count
                                         ? REG_C_AF : 0));
        }
    }
    s->events_ns = now;
}

/* The periodic rate in 32.768 kHz cycles; 0 without PIE (QEMU 7.2) */
static uint32_t rtc_period_cycles(const RTCState *s)
{
    int rs = s->cmos[RTC_REG_A] & REG_A_RS;

    if (!(s->cmos[RTC_REG_B] & REG_B_PIE) || !rs) {
        return 0;
    }
    /* RS 1 and 2 are 256 and 128 Hz, as RS 8 and 9 (the datasheet) */
    if (rs <= 2) {
        rs += 7;
    }
    return 1u << (rs - 1);
}

static int64_t rtc_ns_to_cycles(int64_t ns)
{
    return (__int128)ns * RTC_CLOCK_RATE / NS_PER_SEC;
}

static int64_t rtc_cycles_to_ns(int64_t cycles)
{
    return (__int128)cycles * NS_PER_SEC / RTC_CLOCK_RATE;
}

/*
 * Schedules the next periodic interrupt after a change of rate or of PIE
 * at now: one period on, less the part of the old period that already
 * went by (at most a whole one), on the clock's 32.768 kHz edges, as
 * QEMU 7.2 does
 */
static void rtc_periodic_reconfigure(RTCState *s, int64_t now,
                                     uint32_t old_period)
{
    uint32_t period = rtc_period_cycles(s);
    int64_t cycles = rtc_ns_to_cycles(now), gone = 0;

    if (!period) {
        s->period = 0;
        s->next_periodic_ns = -1;
        return;
    }
    if (old_period && s->next_periodic_ns >= 0) {
        gone = cycles - (rtc_ns_to_cycles(s->next_periodic_ns) - old_period);
        gone = MIN(MAX(gone, 0), (int64_t)period);
    }
    s->period = period;
    s->next_periodic_ns = rtc_cycles_to_ns(cycles + period - gone) + 1;
}

/* Every periodic interrupt due by now (those missed by far: one) */
static void rtc_run_periodic(RTCState *s, int64_t now)
{
    while (s->period && s->next_periodic_ns >= 0 &&
           s->next_periodic_ns <= now) {
        int64_t cycles = rtc_ns_to_cycles(s->next_periodic_ns);
        int64_t behind = (rtc_ns_to_cycles(now) - cycles) / s->period;

        /* QEMU 7.2 raises the IRQ at every period while PIE is set */
        s->cmos[RTC_REG_C] |= REG_C_PF | REG_C_IRQF;
        if (s->irq) {
            s->irq(s->opaque, 1);
        }
        if (behind > 1) {
            cycles += (behind - 1) * s->period;
        }
        s->next_periodic_ns = rtc_cycles_to_ns(cycles + s->period) + 1;
    }
}

void rtc_run_timers(RTCState *s)
{
    int64_t now = rtc_now(s);

    rtc_run_updates(s, now);
    rtc_run_periodic(s, now);
}

int64_t rtc_next_deadline(RTCState *s)
{
    int64_t next = s->period ? s->next_periodic_ns : -1;
    int64_t update = -1, first, to_alarm;
    uint8_t c = s->cmos[RTC_REG_C];

    if (rtc_updating(s)) {
        first = s->events_ns + NS_PER_SEC -
                rtc_fraction_at(s, s->events_ns);
        if (!(c & REG_C_UF)) {
            update = first;
        } else if (!(c & REG_C_AF)) {
            /* UF is already up: only the alarm can change anything */
            to_alarm = rtc_secs_to_alarm(s, rtc_secs_at(s, s->events_ns));
            update = to_alarm > 0 ? first + (to_alarm - 1) * NS_PER_SEC : -1;
        }
    }
    if (update >= 0 && (next < 0 || update < next)) {
        next = update;
    }
    return next;
}

/* Register read/write ---------------------------------------------------- */

uint8_t rtc_ioport_read(RTCState *s, unsigned offset)
{
    unsigned reg = s->index;
    uint8_t v;

    if (offset == 0) {
        return 0xff; /* the index register is write-only */
    }
    rtc_run_timers(s);
    if (rtc_is_time_reg(reg) && reg != RTC_SECONDS_ALARM &&
        reg != RTC_MINUTES_ALARM && reg != RTC_HOURS_ALARM &&
        rtc_running(s)) {
        rtc_latch_time(s);
    }
    v = s->cmos[reg];
    switch (reg) {
    case RTC_REG_A:
        v = (v & ~REG_A_UIP) | (rtc_update_in_progress(s) ? REG_A_UIP : 0);
        break;
    case RTC_REG_C:
        /* Reading C acknowledges its flags */
        s->cmos[RTC_REG_C] = 0;
        if (s->irq) {
            s->irq(s->opaque, 0);
        }
        break;
    }
    return v;
}

/*
 * While the clock runs, a write to one time register keeps the others at
 * the current time; held (SET or the divider stopped), the registers
 * keep what the guest writes until it lets them go
 */
static void rtc_write_time_reg(RTCState *s, unsigned reg, uint8_t value)
{
    bool running = rtc_running(s);

    if (running) {
        rtc_latch_time(s);
    }
    s->cmos[reg] = value;
    if (running) {
        rtc_commit_time(s);
    }
}

static void rtc_write_reg_a(RTCState *s, uint8_t value)
{
    uint8_t old = s->cmos[RTC_REG_A];
    uint32_t old_period = s->period;

    if ((value & 0x60) == 0x60) {
        /* Divider reset: the registers stop at the current time */
        if (rtc_running(s)) {
            rtc_latch_time(s);
        }
    } else if ((old & 0x60) == 0x60 && (value & REG_A_DV) <= 0x20 &&
               !(s->cmos[RTC_REG_B] & REG_B_SET)) {
        /*
         * Out of reset: the registers' time starts, and the first update
         * comes half a second later (the datasheet)
         */
        s->cmos[RTC_REG_A] = value;
        s->phase_ns = NS_PER_SEC / 2;
        rtc_commit_time(s);
    }
    s->cmos[RTC_REG_A] = value & ~REG_A_UIP;
    if ((old ^ value) & REG_A_RS) {
        rtc_periodic_reconfigure(s, rtc_now(s), old_period);
    }
}

static void rtc_write_reg_b(RTCState *s, uint8_t value)
{
    uint8_t old = s->cmos[RTC_REG_B];
    uint32_t old_period = s->period;
    uint8_t enabled = REG_B_PIE | REG_B_AIE | REG_B_UIE;

    if (value & REG_B_SET) {
        /* Freeze the registers at the current time for the guest */
        if (rtc_running(s)) {
            rtc_latch_time(s);
        }
        value &= ~REG_B_UIE; /* SET clears the update-ended interrupt */
    } else if ((old & REG_B_SET) &&
               (s->cmos[RTC_REG_A] & REG_A_DV) <= 0x20) {
        /*
         * The registers, in the format they were written in, become the
         * time; the divider chain kept counting, so the phase stays
         */
        s->phase_ns = rtc_fraction_at(s, rtc_now(s));
        rtc_commit_time(s);
    }
    /* A flag that is up when its interrupt becomes enabled raises it */
    if (value & s->cmos[RTC_REG_C] & enabled) {
        s->cmos[RTC_REG_C] |= REG_C_IRQF;
        if (s->irq) {
            s->irq(s->opaque, 1);
        }
    } else {
        s->cmos[RTC_REG_C] &= ~REG_C_IRQF;
        if (s->irq) {
            s->irq(s->opaque, 0);
        }
    }
    s->cmos[RTC_REG_B] = value;
    if ((old ^ value) & REG_B_PIE) {
        rtc_periodic_reconfigure(s, rtc_now(s), old_period);
    }
}

void rtc_ioport_write(RTCState *s, unsigned offset, uint8_t value)
{
    unsigned reg = s->index;

    if (offset == 0) {
        s->index = value & 0x7f;
        s->nmi_disabled = value & 0x80;
        return;
    }
    rtc_run_timers(s);
    switch (reg) {
    case RTC_SECONDS_ALARM:
    case RTC_MINUTES_ALARM:
    case RTC_HOURS_ALARM:
        s->cmos[reg] = value;
        break;
    case RTC_SECONDS:
    case RTC_MINUTES:
    case RTC_HOURS:
    case RTC_DAY_OF_WEEK:
    case RTC_DAY_OF_MONTH:
    case RTC_MONTH:
    case RTC_YEAR:
    case RTC_CENTURY:
        rtc_write_time_reg(s, reg, value);
        break;
    case RTC_REG_A:
        rtc_write_reg_a(s, value);
        break;
    case RTC_REG_B:
        rtc_write_reg_b(s, value);
        break;
    case RTC_REG_C:
    case RTC_REG_D:
        break; /* read-only */
    default:
        s->cmos[reg] = value;
        break;
    }
}

void rtc_set_memory(RTCState *s, unsigned addr, uint8_t value)
{
    if (addr < RTC_CMOS_SIZE) {
        s->cmos[addr] = value;
    }
}

uint8_t rtc_get_memory(const RTCState *s, unsigned addr)
{
    return addr < RTC_CMOS_SIZE ? s->cmos[addr] : 0xff;
}

static void rtc_set_word(RTCState *s, unsigned addr, uint16_t v)
{
    s->cmos[addr] = v & 0xff;
    s->cmos[addr + 1] = v >> 8;
}

void rtc_set_pc_memory_fields(RTCState *s, uint64_t below_4g,
                              uint64_t above_4g, unsigned cpus)
{
    uint64_t ext_kib = below_4g > 0x100000 ? below_4g / 1024 - 1024 : 0;
    uint64_t above_16m = below_4g > 0x1000000 ?
                         (below_4g - 0x1000000) / 65536 : 0;
    uint64_t high = above_4g / 65536;

    rtc_set_word(s, CMOS_BASE_MEM_LO, 640);
    rtc_set_word(s, CMOS_EXT_MEM_LO, MIN(ext_kib, 0xffff));
    rtc_set_word(s, CMOS_EXT_MEM2_LO, MIN(ext_kib, 0xffff));
    rtc_set_word(s, CMOS_MEM_16M_LO, MIN(above_16m, 0xffff));
    s->cmos[CMOS_MEM_4G_LO] = high & 0xff;
    s->cmos[CMOS_MEM_4G_LO + 1] = (high >> 8) & 0xff;
    s->cmos[CMOS_MEM_4G_LO + 2] = (high >> 16) & 0xff;
    s->cmos[CMOS_NR_CPUS] = cpus ? cpus - 1 : 0;
    /*
     * QEMU 7.2's pc_cmos_init: an FPU and a PS/2 mouse; no floppy drive
     * (type byte 0x10 zero, no drive-count bits) as no drive has media
     */
    s->cmos[CMOS_EQUIPMENT] = 0x02 | 0x04;
    s->cmos[CMOS_FLOPPY_TYPES] = 0;
}

/* Reset ------------------------------------------------------------------ */

void rtc_reset(RTCState *s)
{
    uint32_t old_period = s->period;

    rtc_run_timers(s);
    s->cmos[RTC_REG_B] &= ~(REG_B_PIE | REG_B_AIE | REG_B_SQWE);
    s->cmos[RTC_REG_C] &= ~(REG_C_IRQF | REG_C_PF | REG_C_AF | REG_C_UF);
    rtc_periodic_reconfigure(s, rtc_now(s), old_period);
    if (s->irq) {
        s->irq(s->opaque, 0);
    }
}

/* Realize ---------------------------------------------------------------- */

void rtc_init(RTCState *s, RTCClockFunc *clock, RTCIrqFunc *irq,
              void *opaque)
{
    int64_t now;

    memset(s, 0, sizeof(*s));
    s->clock = clock ? clock : rtc_host_clock;
    s->irq = irq;
    s->opaque = opaque;
    s->next_periodic_ns = -1;
    /* The guest's time is the clock's, to the nanosecond */
    now = rtc_now(s);
    s->base_secs = floor_div(now, NS_PER_SEC);
    s->base_ns = now;
    s->phase_ns = floor_mod(now, NS_PER_SEC);
    s->events_ns = now;
    s->cmos[RTC_REG_A] = 0x26; /* 32.768 kHz divider, 1024 Hz rate */
    s->cmos[RTC_REG_B] = REG_B_24H;
    s->cmos[RTC_REG_C] = 0;
    s->cmos[RTC_REG_D] = REG_D_VRT;
    rtc_latch_time(s);
}

/* The ISA device ------------------------------------------------------------ */

static RTCClockKind config_clock = RTC_CLOCK_HOST;
static int64_t config_offset_secs;

void rtc_set_config(RTCClockKind kind, int64_t offset_secs)
{
    config_clock = kind;
    config_offset_secs = offset_secs;
}

/*
 * The chip runs on the QEMU clock -rtc clock= names (QEMU's rtc_clock):
 * the host's wall clock, its monotonic clock or the VM's (which qtest's
 * clock_step moves); its timer is on the same clock.  The guest's time
 * starts at the wall time of realize (plus -rtc base=).
 */
typedef struct ISARTCState {
    ISADevice parent_obj;
    GMutex lock;
    RTCState rtc;
    QEMUClockType clock_type;
    QEMUTimer *timer;
    MemoryRegion io, index_io;
    qemu_irq irq;
    /* Properties, as QEMU's (lost_tick_policy: no periodic interrupt) */
    int32_t base_year;
    uint16_t iobase;
    uint8_t isairq;
    int lost_tick_policy;
} ISARTCState;

static int64_t isa_rtc_clock(void *opaque)
{
    return qemu_clock_get_ns(((ISARTCState *)opaque)->clock_type);
}

static void isa_rtc_irq(void *opaque, int level)
{
    ISARTCState *s = opaque;

    qemu_set_irq(s->irq, level);
}

/* After every change: the timer goes off when the model has work; locked */
static void isa_rtc_rearm(ISARTCState *s)
{
    int64_t deadline;

    if (!s->timer) {
        return;
    }
    deadline = rtc_next_deadline(&s->rtc);
    if (deadline < 0) {
        timer_del(s->timer);
    } else if (deadline != timer_expire_time_ns(s->timer)) {
        /* (most accesses change nothing: no need to wake the main loop) */
        timer_mod(s->timer, deadline);
    }
}

static void isa_rtc_timer(void *opaque)
{
    ISARTCState *s = opaque;

    g_mutex_lock(&s->lock);
    rtc_run_timers(&s->rtc);
    isa_rtc_rearm(s);
    g_mutex_unlock(&s->lock);
}

/* Even offsets are the index register, odd ones the data (QEMU's cmos_ops) */
static uint64_t isa_rtc_read(void *opaque, hwaddr addr, unsigned size)
{
    ISARTCState *s = opaque;
    uint8_t v;

    g_mutex_lock(&s->lock);
    v = rtc_ioport_read(&s->rtc, addr & 1);
    isa_rtc_rearm(s);
    g_mutex_unlock(&s->lock);
    return v;
}

static void isa_rtc_write(void *opaque, hwaddr addr, uint64_t value,
                          unsigned size)
{
    ISARTCState *s = opaque;

    g_mutex_lock(&s->lock);
    rtc_ioport_write(&s->rtc, addr & 1, value);
    isa_rtc_rearm(s);
    g_mutex_unlock(&s->lock);
}

static const MemoryRegionOps isa_rtc_ops = {
    .read = isa_rtc_read,
    .write = isa_rtc_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static void isa_rtc_reset(DeviceState *dev)
{
    ISARTCState *s = (ISARTCState *)dev;

    g_mutex_lock(&s->lock);
    rtc_reset(&s->rtc);
    isa_rtc_rearm(s);
    g_mutex_unlock(&s->lock);
}

static void isa_rtc_initfn(Object *obj)
{
    ISARTCState *s = (ISARTCState *)obj;

    g_mutex_init(&s->lock);
    rtc_init(&s->rtc, NULL, isa_rtc_irq, s);
}

static JsonNode *isa_rtc_get_date(Object *obj, ObjectProperty *prop,
                                  Error **errp);

static bool isa_rtc_realize(DeviceState *dev, Error **errp)
{
    ISARTCState *s = (ISARTCState *)dev;

    g_mutex_lock(&s->lock);
    s->rtc.base_year = s->base_year;
    /* -rtc clock= and base= (rtc_set_config), from realize on */
    s->clock_type = config_clock == RTC_CLOCK_RT   ? QEMU_CLOCK_REALTIME
                    : config_clock == RTC_CLOCK_VM ? QEMU_CLOCK_VIRTUAL
                                                   : QEMU_CLOCK_HOST;
    s->rtc.clock = isa_rtc_clock;
    rtc_set_guest_time(&s->rtc, g_get_real_time() / G_USEC_PER_SEC +
                                    config_offset_secs);
    rtc_latch_time(&s->rtc);
    if (!s->timer) {
        s->timer = timer_new_ns(s->clock_type, isa_rtc_timer, s);
    }
    isa_rtc_rearm(s);
    g_mutex_unlock(&s->lock);
    /* QEMU adds these at realize (device-list-properties lacks them) */
    if (!object_property_find(OBJECT(dev), "date")) {
        qdev_init_gpio_out(dev, &s->irq, 1);
        object_property_add(OBJECT(dev), "date", "struct tm",
                            isa_rtc_get_date, NULL);
    }
    memory_region_init_io(&s->io, OBJECT(dev), &isa_rtc_ops, s, "rtc", 2);
    /* QEMU's index port is a region of its own, for coalesced writes */
    memory_region_init_io(&s->index_io, OBJECT(dev), &isa_rtc_ops, s,
                          "rtc-index", 1);
    memory_region_add_subregion(&s->io, 0, &s->index_io);
    isa_register_ioport(ISA_DEVICE(dev), &s->io, s->iobase);
    return true;
}

static void isa_rtc_finalize(Object *obj)
{
    ISARTCState *s = (ISARTCState *)obj;

    timer_free(s->timer);
    g_mutex_clear(&s->lock);
}

void rtc_set_pc_memory(ISADevice *dev, uint64_t below_4g, uint64_t above_4g,
                       unsigned cpus)
{
    ISARTCState *s = (ISARTCState *)dev;

    g_mutex_lock(&s->lock);
    rtc_set_pc_memory_fields(&s->rtc, below_4g, above_4g, cpus);
    g_mutex_unlock(&s->lock);
}

/* "date": the guest's time as the registers show it (QEMU's struct tm) */
static JsonNode *isa_rtc_get_date(Object *obj, ObjectProperty *prop,
                                  Error **errp)
{
    ISARTCState *s = (ISARTCState *)obj;
    JsonObject *o = json_object_new();
    JsonNode *n = json_node_alloc();
    struct tm tm;
    time_t secs;

    g_mutex_lock(&s->lock);
    secs = rtc_guest_secs(&s->rtc);
    g_mutex_unlock(&s->lock);
    gmtime_r(&secs, &tm);
    json_object_set_int_member(o, "tm_year", tm.tm_year);
    json_object_set_int_member(o, "tm_mon", tm.tm_mon);
    json_object_set_int_member(o, "tm_mday", tm.tm_mday);
    json_object_set_int_member(o, "tm_hour", tm.tm_hour);
    json_object_set_int_member(o, "tm_min", tm.tm_min);
    json_object_set_int_member(o, "tm_sec", tm.tm_sec);
    json_node_init_object(n, o);
    json_object_unref(o);
    return n;
}

static Property isa_rtc_properties[] = {
    DEFINE_PROP_INT32("base_year", ISARTCState, base_year, 1980),
    DEFINE_PROP_UINT16("iobase", ISARTCState, iobase, 0x70),
    DEFINE_PROP_UINT8("irq", ISARTCState, isairq, RTC_ISA_IRQ),
    DEFINE_PROP_LOSTTICKPOLICY("lost_tick_policy", ISARTCState,
                               lost_tick_policy, LOST_TICK_POLICY_DISCARD),
    DEFINE_PROP_END_OF_LIST(),
};

static void isa_rtc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = isa_rtc_realize;
    dc->reset = isa_rtc_reset;
    device_class_set_props(dc, isa_rtc_properties);
    dc->categories = 1u << DEVICE_CATEGORY_MISC;
}

static const TypeInfo isa_rtc_info = {
    .name = TYPE_MC146818_RTC,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISARTCState),
    .instance_init = isa_rtc_initfn,
    .instance_finalize = isa_rtc_finalize,
    .class_init = isa_rtc_class_init,
};

static void isa_rtc_register_types(void)
{
    type_register_static(&isa_rtc_info);
}
type_init(isa_rtc_register_types)
