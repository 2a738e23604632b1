/*
 * ACPI PM1a event/control block and PM timer (see include/hw/acpi/pm.h).
 *
 * Guests touch these registers with 8-, 16- and 32-bit accesses (ACPICA
 * uses the register widths, firmware and older kernels sometimes bytes),
 * so an access is split over the registers it overlaps: reads assemble a
 * snapshot of the block, writes hand each register the bits that were
 * written and a mask of them.  A write-1-to-clear register must see
 * unwritten bytes as zeros, never as a read-modify-write of their value.
 */
#include <string.h>
#include <time.h>

#include "hw/acpi/pm.h"

/* PM1_CNT bits that are stored and read back (SLP_EN, GBL_RLS are not) */
#define PM1_CNT_STORED (ACPI_PM1_CNT_SCI_EN | ACPI_PM1_CNT_BM_RLD | \
                        ACPI_PM1_CNT_SLP_TYP_MASK)
/* PM1_STS bits this block can set; the rest read 0 */
#define PM1_STS_SOURCES ACPI_PM1_PWRBTN

/* ------------------------------------------------------------------ */
/* State */

static int64_t clock_monotonic_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t pm_now_ns(AcpiPMState *s)
{
    return s->clock_ns ? s->clock_ns() : clock_monotonic_ns();
}

/* Ticks in ns nanoseconds, without overflowing for any uptime */
static uint64_t ns_to_ticks(uint64_t ns)
{
    uint64_t sec = ns / 1000000000, rem = ns % 1000000000;

    return sec * ACPI_PM_TIMER_HZ + rem * ACPI_PM_TIMER_HZ / 1000000000;
}

static uint32_t pm_timer_locked(AcpiPMState *s)
{
    int64_t ns = pm_now_ns(s) - s->tmr_base_ns;

    return (uint32_t)ns_to_ticks(ns < 0 ? 0 : (uint64_t)ns);
}

/*
 * The SCI is a level: asserted while an enabled status bit is set (of
 * GPE0, QEMU 7.2 looks at byte 0 alone, whatever SCI_EN says)
 */
static void pm_update_sci_locked(AcpiPMState *s)
{
    int level = ((s->pm1_cnt & ACPI_PM1_CNT_SCI_EN) &&
                 (s->pm1_sts & s->pm1_en & PM1_STS_SOURCES)) ||
                (s->gpe_len && (s->gpe_sts[0] & s->gpe_en[0]));

    if (level != s->sci_level) {
        s->sci_level = level;
        if (s->set_sci) {
            s->set_sci(s->opaque, level);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Register read/write */

static void pm_snapshot_locked(AcpiPMState *s, uint8_t img[ACPI_PM_IO_LEN])
{
    uint32_t tmr = pm_timer_locked(s);
    int i;

    memset(img, 0xff, ACPI_PM_IO_LEN);
    img[0] = s->pm1_sts;
    img[1] = s->pm1_sts >> 8;
    img[2] = s->pm1_en;
    img[3] = s->pm1_en >> 8;
    img[4] = s->pm1_cnt;
    img[5] = s->pm1_cnt >> 8;
    for (i = 0; i < 4; i++) {
        img[ACPI_PM_TMR_OFFSET + i] = tmr >> (8 * i);
    }
}

uint32_t acpi_pm_state_read(AcpiPMState *s, uint16_t offset, unsigned size)
{
    uint8_t img[ACPI_PM_IO_LEN];
    uint32_t value = 0;
    unsigned i;

    g_mutex_lock(&s->lock);
    pm_snapshot_locked(s, img);
    g_mutex_unlock(&s->lock);
    for (i = 0; i < size && i < 4; i++) {
        uint32_t b = offset + i < ACPI_PM_IO_LEN ? img[offset + i] : 0xff;

        value |= b << (8 * i);
    }
    return value;
}

static void pm1_cnt_write_locked(AcpiPMState *s, uint16_t val, uint16_t mask)
{
    unsigned slp_typ;

    s->pm1_cnt = (s->pm1_cnt & ~(mask & PM1_CNT_STORED)) |
                 (val & mask & PM1_CNT_STORED);
    if (!(mask & val & ACPI_PM1_CNT_SLP_EN)) {
        return;
    }
    slp_typ = (s->pm1_cnt & ACPI_PM1_CNT_SLP_TYP_MASK) >>
              ACPI_PM1_CNT_SLP_TYP_SHIFT;
    if (s->sleep) {
        s->sleep(s->opaque, slp_typ);
    }
}

void acpi_pm_state_write(AcpiPMState *s, uint16_t offset, unsigned size,
                         uint32_t value)
{
    /* Bytes of the block this access writes, and their values */
    uint8_t val[ACPI_PM_IO_LEN] = { 0 }, msk[ACPI_PM_IO_LEN] = { 0 };
    uint16_t v, m;
    unsigned i;

    for (i = 0; i < size && i < 4; i++) {
        if (offset + i < ACPI_PM_IO_LEN) {
            val[offset + i] = value >> (8 * i);
            msk[offset + i] = 0xff;
        }
    }

    g_mutex_lock(&s->lock);
    /* PM1_STS: write 1 to clear */
    v = val[0] | val[1] << 8;
    m = msk[0] | msk[1] << 8;
    s->pm1_sts &= ~(v & m);
    /* PM1_EN */
    v = val[2] | val[3] << 8;
    m = msk[2] | msk[3] << 8;
    s->pm1_en = (s->pm1_en & ~m) | (v & m);
    /* PM1_CNT; the PM timer is read-only */
    v = val[4] | val[5] << 8;
    m = msk[4] | msk[5] << 8;
    if (m) {
        pm1_cnt_write_locked(s, v, m);
    }
    pm_update_sci_locked(s);
    g_mutex_unlock(&s->lock);
}

void acpi_pm_state_power_button(AcpiPMState *s)
{
    g_mutex_lock(&s->lock);
    s->pm1_sts |= ACPI_PM1_PWRBTN;
    pm_update_sci_locked(s);
    g_mutex_unlock(&s->lock);
}

/* GPE0: status in the first half, enable in the second, byte by byte */
uint8_t acpi_pm_state_gpe_readb(AcpiPMState *s, unsigned offset)
{
    unsigned half = s->gpe_len / 2;
    uint8_t v = 0;

    g_mutex_lock(&s->lock);
    if (offset < half) {
        v = s->gpe_sts[offset];
    } else if (offset < s->gpe_len) {
        v = s->gpe_en[offset - half];
    }
    g_mutex_unlock(&s->lock);
    return v;
}

void acpi_pm_state_gpe_writeb(AcpiPMState *s, unsigned offset, uint8_t val)
{
    unsigned half = s->gpe_len / 2;

    g_mutex_lock(&s->lock);
    if (offset < half) {
        s->gpe_sts[offset] &= ~val;
    } else if (offset < s->gpe_len) {
        s->gpe_en[offset - half] = val;
    }
    pm_update_sci_locked(s);
    g_mutex_unlock(&s->lock);
}

void acpi_pm_state_gpe_event(AcpiPMState *s, uint8_t bits)
{
    g_mutex_lock(&s->lock);
    if (s->gpe_len) {
        s->gpe_sts[0] |= bits;
        pm_update_sci_locked(s);
    }
    g_mutex_unlock(&s->lock);
}

uint32_t acpi_pm_state_timer(AcpiPMState *s)
{
    uint32_t t;

    g_mutex_lock(&s->lock);
    t = pm_timer_locked(s);
    g_mutex_unlock(&s->lock);
    return t;
}

/* ------------------------------------------------------------------ */
/* Reset */

void acpi_pm_state_reset(AcpiPMState *s)
{
    g_mutex_lock(&s->lock);
    s->pm1_sts = 0;
    s->pm1_en = 0;
    memset(s->gpe_sts, 0, sizeof(s->gpe_sts));
    memset(s->gpe_en, 0, sizeof(s->gpe_en));
    /*
     * Without SMM the FADT has no SMI_CMD: the machine is in ACPI mode
     * from power-on, which the OS reads from SCI_EN.  With SMM the OS (or
     * firmware) writes ACPI_ENABLE to SMI_CMD first.
     */
    s->pm1_cnt = s->acpi_only ? ACPI_PM1_CNT_SCI_EN : 0;
    s->tmr_base_ns = pm_now_ns(s);
    pm_update_sci_locked(s);
    g_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------------ */
/* Init */

void acpi_pm_state_init(AcpiPMState *s)
{
    g_mutex_init(&s->lock);
    s->sci_level = 0;
    s->acpi_only = true;
    acpi_pm_state_reset(s);
}

void acpi_pm_state_gpe_init(AcpiPMState *s, unsigned len)
{
    g_mutex_lock(&s->lock);
    s->gpe_len = MIN(len, ACPI_GPE0_MAX_LEN) & ~1u;
    g_mutex_unlock(&s->lock);
}

void acpi_pm_state_destroy(AcpiPMState *s)
{
    g_mutex_clear(&s->lock);
}

void acpi_pm_state_cnt_update(AcpiPMState *s, bool enable, bool disable)
{
    g_mutex_lock(&s->lock);
    if (!s->acpi_only) {
        if (enable) {
            s->pm1_cnt |= ACPI_PM1_CNT_SCI_EN;
        } else if (disable) {
            s->pm1_cnt &= ~ACPI_PM1_CNT_SCI_EN;
        }
        pm_update_sci_locked(s);
    }
    g_mutex_unlock(&s->lock);
}

void acpi_pm_state_wakeup(AcpiPMState *s)
{
    g_mutex_lock(&s->lock);
    s->pm1_sts |= ACPI_PM1_WAK;
    g_mutex_unlock(&s->lock);
}
