/*
 * MC146818 RTC/CMOS model (hw/rtc/mc146818rtc.c) at fixed clock values:
 * BCD and binary time, 12-hour mode, setting the clock, UIP, the index
 * port's NMI bit and the memory size fields of a PC.
 */
#include <glib.h>

#include "hw/rtc/mc146818rtc.h"
#include "rtc-cmos.h"

#define NS 1000000000LL

/* 2024-02-29 23:59:58 UTC, a Thursday */
#define T0 1709251198LL

static int64_t fake_now;

static int64_t fake_clock(void *opaque)
{
    return fake_now;
}

static void rtc_new(RTCState *s)
{
    fake_now = T0 * NS;
    rtc_init(s, fake_clock, NULL, NULL);
}

static void test_bcd_time(void)
{
    RTCState s;

    rtc_new(&s);
    g_assert_cmphex(cmos_read(&s, RTC_REG_A), ==, 0x26);
    g_assert_cmphex(cmos_read(&s, RTC_REG_B), ==, REG_B_24H);
    g_assert_cmphex(cmos_read(&s, RTC_REG_D), ==, REG_D_VRT);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x58);
    g_assert_cmphex(cmos_read(&s, RTC_MINUTES), ==, 0x59);
    g_assert_cmphex(cmos_read(&s, RTC_HOURS), ==, 0x23);
    g_assert_cmphex(cmos_read(&s, RTC_DAY_OF_WEEK), ==, 5);
    g_assert_cmphex(cmos_read(&s, RTC_DAY_OF_MONTH), ==, 0x29);
    g_assert_cmphex(cmos_read(&s, RTC_MONTH), ==, 0x02);
    g_assert_cmphex(cmos_read(&s, RTC_YEAR), ==, 0x24);
    g_assert_cmphex(cmos_read(&s, RTC_CENTURY), ==, 0x20);
    /* The clock runs: two seconds later it is March */
    fake_now += 2 * NS;
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x00);
    g_assert_cmphex(cmos_read(&s, RTC_HOURS), ==, 0x00);
    g_assert_cmphex(cmos_read(&s, RTC_DAY_OF_MONTH), ==, 0x01);
    g_assert_cmphex(cmos_read(&s, RTC_MONTH), ==, 0x03);
}

static void test_binary_12h(void)
{
    RTCState s;

    rtc_new(&s);
    cmos_write(&s, RTC_REG_B, REG_B_DM); /* binary, 12-hour */
    g_assert_cmpuint(cmos_read(&s, RTC_SECONDS), ==, 58);
    g_assert_cmpuint(cmos_read(&s, RTC_DAY_OF_MONTH), ==, 29);
    g_assert_cmphex(cmos_read(&s, RTC_HOURS), ==, 0x80 | 11); /* 11 PM */
    cmos_write(&s, RTC_REG_B, 0);
    g_assert_cmphex(cmos_read(&s, RTC_HOURS), ==, 0x80 | 0x11);
    fake_now += 2 * NS; /* midnight is 12 AM */
    g_assert_cmphex(cmos_read(&s, RTC_HOURS), ==, 0x12);
}

static void test_set_time(void)
{
    RTCState s;

    rtc_new(&s);
    cmos_write(&s, RTC_REG_B, REG_B_SET | REG_B_24H);
    cmos_write(&s, RTC_YEAR, 0x99);
    cmos_write(&s, RTC_CENTURY, 0x19);
    cmos_write(&s, RTC_MONTH, 0x12);
    cmos_write(&s, RTC_DAY_OF_MONTH, 0x31);
    cmos_write(&s, RTC_HOURS, 0x23);
    cmos_write(&s, RTC_MINUTES, 0x59);
    cmos_write(&s, RTC_SECONDS, 0x50);
    /* Held while SET is on */
    fake_now += 5 * NS;
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x50);
    cmos_write(&s, RTC_REG_B, REG_B_24H);
    fake_now += 10 * NS;
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 0x00);
    g_assert_cmphex(cmos_read(&s, RTC_YEAR), ==, 0x00);
    g_assert_cmphex(cmos_read(&s, RTC_CENTURY), ==, 0x20);
    g_assert_cmphex(cmos_read(&s, RTC_MONTH), ==, 0x01);
    /* A reset keeps the time (battery backed) */
    rtc_reset(&s);
    g_assert_cmphex(cmos_read(&s, RTC_YEAR), ==, 0x00);
}

/*
 * Times the registers can hold but 64-bit nanoseconds since 1970 cannot
 * (after 2262), before 1900 and before year 0 (found by the qtest fuzz
 * target)
 */
static const struct {
    const char *name;
    uint8_t reg_b;                      /* without SET */
    uint8_t century, year, month, day;  /* written with SET held */
    uint8_t want[4];                    /* read back 5 seconds later */
} far_cases[] = {
    { "bcd-9999", REG_B_24H, 0x99, 0x99, 0x12, 0x31,
      { 0x99, 0x99, 0x12, 0x31 } },
    { "binary-25599", REG_B_24H | REG_B_DM, 255, 99, 12, 31,
      { 255, 99, 12, 31 } },
    /* 0xbb reads as 11 * 10 + 11: year 12221 */
    { "bcd-digits-beyond-9", REG_B_24H, 0xbb, 0xbb, 0x01, 0x01,
      { 0xc2, 0x21, 0x01, 0x01 } },
    { "before-year-0", REG_B_24H, 0x00, 0x00, 0x00, 0x00,
      { 0x00, 0x00, 0x01, 0x01 } },
    /* before 1900 struct tm's year is negative */
    { "year-24", REG_B_24H, 0x00, 0x24, 0x07, 0x31,
      { 0x00, 0x24, 0x07, 0x31 } },
    { "year-1899", REG_B_24H | REG_B_DM, 18, 99, 12, 31,
      { 18, 99, 12, 31 } },
};

static void test_far_dates(const void *data)
{
    const __typeof__(far_cases[0]) *c = data;
    RTCState s;

    rtc_new(&s);
    cmos_write(&s, RTC_REG_B, REG_B_SET | c->reg_b);
    cmos_write(&s, RTC_CENTURY, c->century);
    cmos_write(&s, RTC_YEAR, c->year);
    cmos_write(&s, RTC_MONTH, c->month);
    cmos_write(&s, RTC_DAY_OF_MONTH, c->day);
    cmos_write(&s, RTC_HOURS, 0);
    cmos_write(&s, RTC_MINUTES, 0);
    cmos_write(&s, RTC_SECONDS, 0);
    cmos_write(&s, RTC_REG_B, c->reg_b);
    fake_now += 5 * NS;
    g_assert_cmphex(cmos_read(&s, RTC_CENTURY), ==, c->want[0]);
    g_assert_cmphex(cmos_read(&s, RTC_YEAR), ==, c->want[1]);
    g_assert_cmphex(cmos_read(&s, RTC_MONTH), ==, c->want[2]);
    g_assert_cmphex(cmos_read(&s, RTC_DAY_OF_MONTH), ==, c->want[3]);
    g_assert_cmphex(cmos_read(&s, RTC_SECONDS), ==, 5);
}

static void test_uip(void)
{
    RTCState s;

    rtc_new(&s);
    fake_now = T0 * NS + NS / 2;
    g_assert_cmphex(cmos_read(&s, RTC_REG_A) & REG_A_UIP, ==, 0);
    fake_now = T0 * NS + NS - 100000;
    g_assert_cmphex(cmos_read(&s, RTC_REG_A) & REG_A_UIP, ==, REG_A_UIP);
    /* No updates while SET holds them */
    cmos_write(&s, RTC_REG_B, REG_B_SET | REG_B_24H);
    g_assert_cmphex(cmos_read(&s, RTC_REG_A) & REG_A_UIP, ==, 0);
    /* UIP is read-only */
    cmos_write(&s, RTC_REG_B, REG_B_24H);
    fake_now = T0 * NS;
    cmos_write(&s, RTC_REG_A, 0xa6);
    g_assert_cmphex(cmos_read(&s, RTC_REG_A), ==, 0x26);
}

static void test_index_nmi(void)
{
    RTCState s;

    rtc_new(&s);
    rtc_ioport_write(&s, 0, 0x80 | 0x40);
    g_assert_true(s.nmi_disabled);
    g_assert_cmpuint(s.index, ==, 0x40);
    rtc_ioport_write(&s, 1, 0xab);
    g_assert_cmphex(rtc_get_memory(&s, 0x40), ==, 0xab);
    rtc_ioport_write(&s, 0, 0x40);
    g_assert_false(s.nmi_disabled);
    g_assert_cmphex(rtc_ioport_read(&s, 1), ==, 0xab);
    /* The index port is write-only */
    g_assert_cmphex(rtc_ioport_read(&s, 0), ==, 0xff);
    /* C and D ignore writes */
    cmos_write(&s, RTC_REG_D, 0);
    g_assert_cmphex(cmos_read(&s, RTC_REG_D), ==, REG_D_VRT);
    cmos_write(&s, RTC_REG_C, 0xff);
    g_assert_cmphex(cmos_read(&s, RTC_REG_C), ==, 0);
}

typedef struct MemCase {
    const char *name;
    uint64_t below_4g, above_4g;
    unsigned cpus;
    uint16_t ext, above_16m;
    uint32_t above_4g_64k;
} MemCase;

static const MemCase mem_cases[] = {
    { "128M", 128 << 20, 0, 1, 0xffff, 0x0700, 0 }, /* 130048 KiB capped */
    { "8M", 8 << 20, 0, 2, 7168, 0, 0 },
    { "2G", 0x80000000ULL, 0, 4, 0xffff, 0x7f00, 0 },
    { "6G", 0x80000000ULL, 0x100000000ULL, 8, 0xffff, 0x7f00, 0x10000 },
};

static void test_memory_fields(const void *data)
{
    const MemCase *c = data;
    RTCState s;

    rtc_new(&s);
    rtc_set_pc_memory_fields(&s, c->below_4g, c->above_4g, c->cpus);
    g_assert_cmphex(cmos_read(&s, 0x15), ==, 0x80);
    g_assert_cmphex(cmos_read(&s, 0x16), ==, 0x02);
    g_assert_cmphex(cmos_read(&s, 0x17) | cmos_read(&s, 0x18) << 8, ==,
                    c->ext);
    g_assert_cmphex(cmos_read(&s, 0x30) | cmos_read(&s, 0x31) << 8, ==,
                    c->ext);
    g_assert_cmphex(cmos_read(&s, 0x34) | cmos_read(&s, 0x35) << 8, ==,
                    c->above_16m);
    g_assert_cmphex(cmos_read(&s, 0x5b) | cmos_read(&s, 0x5c) << 8 |
                    cmos_read(&s, 0x5d) << 16, ==, c->above_4g_64k);
    g_assert_cmpuint(cmos_read(&s, 0x5f), ==, c->cpus - 1);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rtc/bcd-time", test_bcd_time);
    g_test_add_func("/rtc/binary-12h", test_binary_12h);
    g_test_add_func("/rtc/set-time", test_set_time);
    g_test_add_func("/rtc/uip", test_uip);
    g_test_add_func("/rtc/index-nmi", test_index_nmi);
    for (i = 0; i < G_N_ELEMENTS(far_cases); i++) {
        char *name = g_strdup_printf("/rtc/far-dates/%s", far_cases[i].name);

        g_test_add_data_func(name, &far_cases[i], test_far_dates);
        g_free(name);
    }
    for (i = 0; i < G_N_ELEMENTS(mem_cases); i++) {
        char *name = g_strdup_printf("/rtc/cmos-memory/%s", mem_cases[i].name);

        g_test_add_data_func(name, &mem_cases[i], test_memory_fields);
        g_free(name);
    }
    return g_test_run();
}
