/*
 * ICH9's TCO watchdog, as QEMU 7.2 has it (its facts, measured against
 * it over qtest with its clock stepped; functional/tco-vs-qemu72):
 *
 * Registers (offset from PMBASE + 0x60; accesses of 1 to 4 bytes, split
 * into 16-bit pieces, each register answering at its own offset only):
 * TCO_RLD 0x00 (reads the ticks left while running), TCO_DAT_IN 0x02,
 * TCO_DAT_OUT 0x03, TCO1_STS 0x04, TCO2_STS 0x06, TCO1_CNT 0x08,
 * TCO2_CNT 0x0a, TCO_MESSAGE1/2 0x0c/0x0d, TCO_WDCNT 0x0e,
 * SW_IRQ_GEN 0x10, TCO_TMR 0x12.
 *
 * The timer counts TCO_TMR ticks of 0.6 s of the VM's clock; it runs
 * while TCO1_CNT's TCO_TMR_HLT (bit 11) is clear and TCO_TMR > 1, and a
 * write to TCO_RLD (or to TCO1_CNT) restarts it.  Each expiry sets
 * TCO_TIMEOUT; the second in a row also sets SECOND_TO_STS and BOOT_STS
 * and, unless the board says no (ICH9-LPC's noreboot pin strap, on by
 * default in 7.2, or GCS's NO_REBOOT), performs the -action watchdog=
 * action (WATCHDOG event; reset by default) and stops.  Otherwise it
 * starts again.  Writing TCO_DAT_IN sets SW_TCO_SMI, TCO_DAT_OUT sets
 * TCO_INT_STS; the SMIs 7.2 would raise there and on a timeout with
 * SMI_EN's TCO_EN are not raised: no SMM here.  TCO_LOCK (TCO1_CNT bit
 * 12) stays set until the process ends, and keeps SMI_EN's TCO_EN.  7.2
 * does not reset these registers (nor the timer) on a machine reset;
 * neither does this tree.
 */
#include "hw/acpi/ich9-tco.h"
#include "sysemu/runstate.h"

#define TCO_TICK_NS 600000000LL

enum {
    TCO_RLD = 0x00, TCO_DAT_IN = 0x02, TCO_DAT_OUT = 0x03,
    TCO1_STS = 0x04, TCO2_STS = 0x06, TCO1_CNT = 0x08, TCO2_CNT = 0x0a,
    TCO_MESSAGE1 = 0x0c, TCO_MESSAGE2 = 0x0d, TCO_WDCNT = 0x0e,
    SW_IRQ_GEN = 0x10, TCO_TMR = 0x12,
};

#define SW_TCO_SMI 0x0002
#define TCO_INT_STS 0x0004
#define TCO_TIMEOUT 0x0008
#define TCO_SECOND_TO_STS 0x0002
#define TCO_BOOT_STS 0x0004
#define TCO_TMR_HLT 0x0800
#define TCO_RLD_MASK 0x3ff
#define TCO1_STS_MASK 0xe870
#define TCO2_STS_MASK 0xfff8
#define TCO1_CNT_MASK 0xfeff
#define TCO_TMR_MASK 0x3ff

static void tco_reload(ICH9TCO *t)
{
    t->expire_time = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                     (int64_t)(t->tmr & TCO_TMR_MASK) * TCO_TICK_NS;
    timer_mod(t->timer, t->expire_time);
}

static void tco_stop(ICH9TCO *t)
{
    t->expire_time = -1;
    timer_del(t->timer);
}

static bool tco_can_start(ICH9TCO *t)
{
    return !(t->cnt1 & TCO_TMR_HLT) && t->tmr > 1;
}

static void tco_expired(void *opaque)
{
    ICH9TCO *t = opaque;

    t->rld = 0;
    t->sts1 |= TCO_TIMEOUT;
    if (++t->timeouts == 2) {
        t->sts2 |= TCO_SECOND_TO_STS | TCO_BOOT_STS;
        t->timeouts = 0;
        if (t->may_reboot(t->opaque)) {
            qemu_watchdog_perform_action();
            tco_stop(t);
            return;
        }
    }
    t->rld = t->tmr;
    tco_reload(t);
}

static uint64_t tco_read(void *opaque, hwaddr addr, unsigned size)
{
    ICH9TCO *t = opaque;

    switch (addr) {
    case TCO_RLD:
        if (t->expire_time != -1) {
            int64_t left = (t->expire_time -
                            qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)) /
                           TCO_TICK_NS;

            return (uint16_t)((uint16_t)left | (t->rld & ~TCO_RLD_MASK));
        }
        return t->rld;
    case TCO_DAT_IN:
        return t->din;
    case TCO_DAT_OUT:
        return t->dout;
    case TCO1_STS:
        return t->sts1;
    case TCO2_STS:
        return t->sts2;
    case TCO1_CNT:
        return t->cnt1;
    case TCO2_CNT:
        return t->cnt2;
    case TCO_MESSAGE1:
        return t->msg1;
    case TCO_MESSAGE2:
        return t->msg2;
    case TCO_WDCNT:
        return t->wdcnt;
    case TCO_TMR:
        return t->tmr;
    case SW_IRQ_GEN:
        return t->sw_irq_gen;
    }
    return 0;
}

static void tco_write(void *opaque, hwaddr addr, uint64_t val, unsigned size)
{
    ICH9TCO *t = opaque;

    switch (addr) {
    case TCO_RLD:
        t->timeouts = 0;
        if (tco_can_start(t)) {
            t->rld = t->tmr;
            tco_reload(t);
        } else {
            t->rld = val;
        }
        break;
    case TCO_DAT_IN:
        t->din = val;
        t->sts1 |= SW_TCO_SMI;
        break;
    case TCO_DAT_OUT:
        t->dout = val;
        t->sts1 |= TCO_INT_STS;
        break;
    case TCO1_STS:
        t->sts1 = val & TCO1_STS_MASK;
        break;
    case TCO2_STS:
        t->sts2 = val & TCO2_STS_MASK;
        break;
    case TCO1_CNT:
        t->cnt1 = (val & TCO1_CNT_MASK) | (t->cnt1 & ICH9_TCO_LOCK);
        if (tco_can_start(t)) {
            t->rld = t->tmr;
            tco_reload(t);
        } else {
            tco_stop(t);
        }
        break;
    case TCO2_CNT:
        t->cnt2 = val;
        break;
    case TCO_MESSAGE1:
        t->msg1 = val;
        break;
    case TCO_MESSAGE2:
        t->msg2 = val;
        break;
    case TCO_WDCNT:
        t->wdcnt = val;
        break;
    case TCO_TMR:
        t->tmr = val;
        break;
    case SW_IRQ_GEN:
        t->sw_irq_gen = val;
        break;
    }
}

static const MemoryRegionOps tco_ops = {
    .read = tco_read,
    .write = tco_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 2 },
};

void ich9_tco_init(ICH9TCO *t, Object *owner, MemoryRegion *parent,
                   bool (*may_reboot)(void *opaque), void *opaque)
{
    t->rld = 0;
    t->din = t->dout = 0;
    t->sts1 = t->sts2 = 0;
    t->cnt1 = 0;
    t->cnt2 = 0x0008;
    t->msg1 = t->msg2 = 0;
    t->wdcnt = 0;
    t->tmr = 0x0004;
    t->sw_irq_gen = 0x03;
    t->expire_time = -1;
    t->timeouts = 0;
    t->may_reboot = may_reboot;
    t->opaque = opaque;
    t->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, tco_expired, t);
    memory_region_init_io(&t->io, owner, &tco_ops, t, "sm-tco",
                          ICH9_TCO_LEN);
    memory_region_add_subregion(parent, ICH9_TCO_OFFSET, &t->io);
}

void ich9_tco_cleanup(ICH9TCO *t, MemoryRegion *parent)
{
    memory_region_del_subregion(parent, &t->io);
    timer_free(t->timer);
    t->timer = NULL;
}
