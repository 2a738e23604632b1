/*
 * The MC146818 model's update cycle, alarm and periodic interrupt
 * (hw/rtc/mc146818rtc.c) on a fake clock: the model says when it has
 * work (rtc_next_deadline) and the test runs it then, as the device's
 * timer does.  The expected values are the datasheet's: an update every
 * second of the 32.768 kHz divider, UIP 8 cycles (244.14 us) before it,
 * the first update 500 ms after a divider reset ends, the periodic rates
 * of register A's RS bits, alarm bytes from 0xC0 up matching anything.
 */
#include <glib.h>

#include "hw/rtc/mc146818rtc.h"
#include "rtc-cmos.h"

#define NS 1000000000LL
#define UIP_NS (8 * NS / 32768)

/* 2011-02-02 02:04:58 UTC */
#define T0 1296612298LL

static int64_t fake_now;
static int irq_level, irq_raises;

static int64_t fake_clock(void *opaque)
{
    return fake_now;
}

static void fake_irq(void *opaque, int level)
{
    irq_raises += level && !irq_level;
    irq_level = level;
}

/* Runs the clock to target, stopping at each deadline as a timer would */
static void advance_to(RTCState *s, int64_t target)
{
    int64_t d;

    while ((d = rtc_next_deadline(s)) >= 0 && d <= target) {
        g_assert_cmpint(d, >=, fake_now);
        fake_now = d;
        rtc_run_timers(s);
    }
    fake_now = target;
    rtc_run_timers(s);
}

static void advance(RTCState *s, int64_t ns)
{
    advance_to(s, fake_now + ns);
}

static void rtc_new(RTCState *s)
{
    fake_now = 1000 * NS;
    irq_level = irq_raises = 0;
    rtc_init(s, fake_clock, fake_irq, NULL);
}

/* 02:04:58 on 2011-02-02 set in divider reset, which ends now */
static void set_time_in_reset(RTCState *s, uint8_t reg_b)
{
    cmos_write(s, RTC_REG_B, reg_b);
    cmos_write(s, RTC_REG_A, 0x76);
    cmos_write(s, RTC_HOURS, reg_b & REG_B_DM ? 2 : 0x02);
    cmos_write(s, RTC_MINUTES, reg_b & REG_B_DM ? 4 : 0x04);
    cmos_write(s, RTC_SECONDS, reg_b & REG_B_DM ? 58 : 0x58);
    cmos_write(s, RTC_REG_A, 0x26);
}

static void test_divider_reset(void)
{
    RTCState s;
    int64_t start;

    rtc_new(&s);
    cmos_write(&s, RTC_REG_B, REG_B_24H);
    cmos_write(&s, RTC_REG_A, 0x76);
    cmos_write(&s, RTC_MINUTES, 0x04);
    cmos_write(&s, RTC_SECONDS, 0x58);
    /* Held in reset: no updates, no UIP, no deadline */
    advance(&s, 3 * NS);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x58);
    g_assert_cmphex(cmos_read(&s, RTC_REG_A), ==, 0x76);
    g_assert_cmpint(rtc_next_deadline(&s), ==, -1);
    cmos_write(&s, RTC_REG_A, 0x26);
    start = fake_now;
    advance_to(&s, start + NS / 2 - UIP_NS - 1);
    g_assert_cmphex(cmos_read(&s, RTC_REG_A) & REG_A_UIP, ==, 0);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x58);
    advance(&s, 1);
    g_assert_cmphex(cmos_read(&s, RTC_REG_A) & REG_A_UIP, ==, REG_A_UIP);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x58);
    advance_to(&s, start + NS / 2);
    g_assert_cmphex(cmos_read(&s, RTC_REG_A) & REG_A_UIP, ==, 0);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x59);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, REG_C_UF);
    /* then once a second */
    advance_to(&s, start + NS / 2 + NS - 1);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x59);
    advance(&s, 1);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x00);
    g_assert_cmphex(cmos_read(&s, RTC_MINUTES), ==, 0x05);
}

static void test_update_interrupt(void)
{
    RTCState s;

    rtc_new(&s);
    set_time_in_reset(&s, REG_B_24H | REG_B_UIE);
    advance(&s, NS / 2 - 1);
    g_assert_cmpint(irq_level, ==, 0);
    advance(&s, 1);
    g_assert_cmpint(irq_level, ==, 1);
    /* Reading C returns the flags, clears them and lowers the line */
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, REG_C_IRQF | REG_C_UF);
    g_assert_cmpint(irq_level, ==, 0);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, 0);
    advance(&s, NS);
    g_assert_cmpint(irq_raises, ==, 2);
    /* SET clears UIE; UF is still set at each update, without an IRQ */
    cmos_read(&s, RTC_REG_C);
    cmos_write(&s, RTC_REG_B, REG_B_SET | REG_B_24H | REG_B_UIE);
    g_assert_cmphex(cmos_read(&s, RTC_REG_B), ==, REG_B_SET | REG_B_24H);
    advance(&s, NS);
    g_assert_cmpint(irq_raises, ==, 2);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, REG_C_UF);
    /* A flag already up when its interrupt is enabled raises the line */
    cmos_write(&s, RTC_REG_B, REG_B_24H);
    advance(&s, NS);
    cmos_write(&s, RTC_REG_B, REG_B_24H | REG_B_UIE);
    g_assert_cmpint(irq_level, ==, 1);
}

static void test_alarm_dont_care(void)
{
    RTCState s;

    rtc_new(&s);
    set_time_in_reset(&s, REG_B_24H | REG_B_DM | REG_B_AIE);
    /* any hour, any minute, second 0: the update to 02:05:00 */
    cmos_write(&s, RTC_HOURS_ALARM, 0xff);
    cmos_write(&s, RTC_MINUTES_ALARM, RTC_ALARM_DONT_CARE);
    cmos_write(&s, RTC_SECONDS_ALARM, 0);
    advance(&s, NS / 2);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, REG_C_UF);
    g_assert_cmpint(irq_raises, ==, 0);
    advance(&s, NS);
    g_assert_cmpint(irq_level, ==, 1);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==,
                    REG_C_IRQF | REG_C_AF | REG_C_UF);
    /* the next match is a minute later */
    advance(&s, 59 * NS);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_AF, ==, 0);
    advance(&s, NS);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_AF, ==, REG_C_AF);
    /* every byte "don't care": every update */
    cmos_write(&s, RTC_SECONDS_ALARM, 0xc3);
    advance(&s, NS);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_AF, ==, REG_C_AF);
}

static void test_alarm_12h(void)
{
    RTCState s;

    rtc_new(&s);
    cmos_write(&s, RTC_MINUTES_ALARM, RTC_ALARM_DONT_CARE);
    cmos_write(&s, RTC_SECONDS_ALARM, RTC_ALARM_DONT_CARE);
    cmos_write(&s, RTC_REG_B, 0); /* BCD, 12-hour */
    cmos_write(&s, RTC_REG_A, 0x76);
    cmos_write(&s, RTC_HOURS_ALARM, 0x82); /* 2 PM */
    cmos_write(&s, RTC_HOURS, 0x81);       /* 1:59:00 PM */
    cmos_write(&s, RTC_MINUTES, 0x59);
    cmos_write(&s, RTC_SECONDS, 0x00);
    cmos_write(&s, RTC_REG_A, 0x26);
    advance(&s, 59 * NS);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_AF, ==, 0);
    advance(&s, NS);
    g_assert_cmphex(cmos_read(&s, RTC_HOURS), ==, 0x82);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_AF, ==, REG_C_AF);
    /* 2 AM is another hour: 11 hours from 3 AM reach 2 PM, not it */
    cmos_write(&s, RTC_REG_B, REG_B_DM);
    cmos_write(&s, RTC_REG_A, 0x76);
    cmos_write(&s, RTC_HOURS_ALARM, 2);
    cmos_write(&s, RTC_HOURS, 3);
    cmos_write(&s, RTC_MINUTES, 0);
    cmos_write(&s, RTC_SECONDS, 0);
    cmos_read(&s, RTC_REG_C);
    cmos_write(&s, RTC_REG_A, 0x26);
    advance(&s, 11 * 3600 * NS);
    g_assert_cmphex(cmos_read(&s, RTC_HOURS), ==, 0x82);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_AF, ==, 0);
}

/* RS 1-15 and the rate each gives (RS 1 and 2 as 8 and 9) */
static const int periodic_hz[16] = {
    0, 256, 128, 8192, 4096, 2048, 1024, 512,
    256, 128, 64, 32, 16, 8, 4, 2,
};

static void test_periodic_rates(void)
{
    int rs;

    for (rs = 0; rs < 16; rs++) {
        RTCState s;
        int64_t start;

        rtc_new(&s);
        cmos_write(&s, RTC_REG_A, 0x20 | rs);
        cmos_write(&s, RTC_REG_B, REG_B_24H | REG_B_PIE);
        start = fake_now;
        irq_raises = 0;
        /*
         * each interrupt acknowledged, so each raises the line anew; one
         * second and 1 us, less than any period (the ticks fall on the
         * clock's 32.768 kHz edges, QEMU's a nanosecond after them)
         */
        while (fake_now < start + NS + 1000) {
            int64_t d = rtc_next_deadline(&s);

            if (d < 0 || d > start + NS + 1000) {
                break;
            }
            advance_to(&s, d);
            if (irq_level) {
                g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_PF, ==,
                                REG_C_PF);
            }
        }
        g_assert_cmpint(irq_raises, ==, periodic_hz[rs]);
    }
}

static void test_periodic_needs_pie(void)
{
    RTCState s;

    rtc_new(&s);
    cmos_write(&s, RTC_REG_A, 0x2f);
    cmos_write(&s, RTC_REG_B, REG_B_24H);
    advance(&s, NS);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_PF, ==, 0);
    /* 2 Hz from when PIE is set; switched off by a reset */
    cmos_write(&s, RTC_REG_B, REG_B_24H | REG_B_PIE);
    advance(&s, NS / 2 + 1);
    g_assert_cmpint(irq_level, ==, 1);
    rtc_reset(&s);
    g_assert_cmpint(irq_level, ==, 0);
    g_assert_cmphex(cmos_read(&s, RTC_REG_B), ==, REG_B_24H);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, 0);
    advance(&s, NS);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C) & REG_C_PF, ==, 0);
}

/* Nothing to do, nothing to wake for: UF up and no alarm to come */
static void test_deadlines(void)
{
    RTCState s;

    rtc_new(&s);
    set_time_in_reset(&s, REG_B_24H);
    g_assert_cmpint(rtc_next_deadline(&s), ==, fake_now + NS / 2);
    advance(&s, NS / 2);
    /* UF is up: the next thing that can change is the alarm, 00:00:00 */
    cmos_write(&s, RTC_HOURS_ALARM, 0x02);
    cmos_write(&s, RTC_MINUTES_ALARM, 0x05);
    cmos_write(&s, RTC_SECONDS_ALARM, 0x10);
    g_assert_cmpint(rtc_next_deadline(&s), ==, fake_now + 11 * NS);
    advance(&s, 11 * NS);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, REG_C_AF | REG_C_UF);
    g_assert_cmpint(rtc_next_deadline(&s), ==, fake_now + NS);
    advance(&s, NS);
    cmos_write(&s, RTC_REG_A, 0x76);
    g_assert_cmpint(rtc_next_deadline(&s), ==, -1);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rtc/update/divider-reset", test_divider_reset);
    g_test_add_func("/rtc/update/interrupt", test_update_interrupt);
    g_test_add_func("/rtc/alarm/dont-care", test_alarm_dont_care);
    g_test_add_func("/rtc/alarm/12h", test_alarm_12h);
    g_test_add_func("/rtc/periodic/rates", test_periodic_rates);
    g_test_add_func("/rtc/periodic/needs-pie", test_periodic_needs_pie);
    g_test_add_func("/rtc/deadlines", test_deadlines);
    return g_test_run();
}
