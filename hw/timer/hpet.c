/*
 * HPET: the High Precision Event Timer as QEMU 7.2 has it on the PC.
 *
 * One block of registers at 0xfed00000 (1 KiB, 32-bit accesses only): the
 * capabilities/ID (vendor 8086, revision 1, 64-bit counter, legacy route
 * capable, a 10 ns period), the general configuration (ENABLE_CNF,
 * LEG_RT_CNF), the interrupt status, the main counter, and per timer its
 * configuration/capabilities, comparator and FSB route.  The counter runs
 * on the VM's clock (QEMU_CLOCK_VIRTUAL: stopped while the VM is, qtest's
 * clock under qtest) while ENABLE_CNF is set and keeps its value while
 * not.  A timer fires when the counter reaches its comparator: once, or
 * periodically with the period last written to the comparator (SETVAL
 * sets the comparator itself); a 32-bit one-shot timer also fires when
 * the counter's low 32 bits wrap.  Its interrupt goes to the IRQ its
 * configuration routes it to (an edge, or a level kept asserted until
 * the guest clears the status bit), or in LegacyReplacementRoute mode
 * timer 0 to IRQ 0 and timer 1 to IRQ 8; the PIT's and the RTC's own
 * interrupts come through the HPET's two inputs and are passed on only
 * outside that mode, where the PIT is also told to stop (its "enabled"
 * output).  FSB (MSI) delivery exists with the "msi" property.
 *
 * Every answer is QEMU 7.2's, its quirks too (tests/functional/
 * test_hpet_vs_qemu72.py compares them over qtest): the timer after the
 * last (index "timers") answers and keeps what is written, as in 7.2;
 * capabilities and configuration are read a 32-bit half at a time; the
 * counter's halves can be written at any time but only count from the
 * next enabling.  One difference on purpose: a 32-bit periodic timer
 * whose period's low half is 0 (a guest can make one by writing the high
 * half of the comparator) hangs QEMU 7.2 in an endless loop; here it
 * fires once and stops.  And a short period far behind the counter costs
 * one division here, not a loop as long as the distance.
 */
#include <glib.h>

#include "exec/memory.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/timer/hpet.h"
#include "qapi/error.h"
#include "qemu/timer.h"

#define HPET_MIN_TIMERS         3
#define HPET_MAX_TIMERS         32
#define HPET_CLK_PERIOD_NS      10
#define HPET_RTC_IRQ            8

/* Registers */
#define HPET_ID                 0x000
#define HPET_PERIOD             0x004
#define HPET_CFG                0x010
#define HPET_STATUS             0x020
#define HPET_COUNTER            0x0f0
#define HPET_TN_BASE            0x100
#define HPET_TN_STRIDE          0x20
#define HPET_TN_CFG             0x000
#define HPET_TN_CMP             0x008
#define HPET_TN_ROUTE           0x010

#define HPET_CFG_ENABLE         0x001
#define HPET_CFG_LEGACY         0x002
#define HPET_CFG_WRITE_MASK     0x003

#define HPET_TN_TYPE_LEVEL      0x002
#define HPET_TN_ENABLE          0x004
#define HPET_TN_PERIODIC        0x008
#define HPET_TN_PERIODIC_CAP    0x010
#define HPET_TN_SIZE_CAP        0x020
#define HPET_TN_SETVAL          0x040
#define HPET_TN_32BIT           0x100
#define HPET_TN_INT_ROUTE_MASK  0x3e00
#define HPET_TN_INT_ROUTE_SHIFT 9
#define HPET_TN_FSB_ENABLE      0x4000
#define HPET_TN_FSB_CAP         0x8000
#define HPET_TN_CFG_WRITE_MASK  0x7f4e

/* The ID register's fixed part: 8086, 64-bit counter, legacy capable */
#define HPET_ID_FIXED           0x8086a001ULL
#define HPET_ID_NUM_TIM_SHIFT   8
#define HPET_FS_PER_NS          1000000ULL

/* State ------------------------------------------------------------------ */

typedef struct HPETState HPETState;

typedef struct HPETTimer {
    HPETState *s;
    uint8_t tn;
    QEMUTimer *timer;
    uint64_t config;            /* configuration (low), capabilities (high) */
    uint64_t cmp;
    uint64_t fsb;               /* FSB route: address (high), value (low) */
    uint64_t period;            /* last value written to the comparator */
    bool wrap_pending;          /* 32-bit one-shot: this pop is the wrap */
} HPETTimer;

struct HPETState {
    SysBusDevice parent_obj;
    /* qdev properties */
    uint8_t num_timers;
    bool msi;
    uint32_t intcap;
    bool offset_saved;

    /* recursive: "PIT enabled" comes back as the PIT's IRQ 0 (legacy input) */
    GRecMutex lock;
    MemoryRegion iomem;
    qemu_irq irqs[HPET_NUM_IRQ_ROUTES];
    qemu_irq pit_enabled;
    HPETTimer timer[HPET_MAX_TIMERS];
    uint64_t capability, config, isr;
    uint64_t counter;           /* while disabled: the counter's value */
    int64_t offset_ns;          /* while enabled: counter = clock + this */
    bool rtc_irq_level;
};

/* The one HPET the board maps, for the fw_cfg item */
static HPETState *board_hpet;

/* Register read/write ---------------------------------------------------- */

static bool hpet_enabled(HPETState *s)
{
    return s->config & HPET_CFG_ENABLE;
}

static bool hpet_legacy(HPETState *s)
{
    return s->config & HPET_CFG_LEGACY;
}

static bool timer_periodic(HPETTimer *t)
{
    return t->config & HPET_TN_PERIODIC;
}

static uint64_t hpet_now_ticks(HPETState *s)
{
    return (uint64_t)(qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + s->offset_ns) /
           HPET_CLK_PERIOD_NS;
}

/* Ticks until the comparator, at least 1, in the timer's width */
static uint64_t timer_ticks_left(HPETTimer *t, uint64_t now)
{
    if (t->config & HPET_TN_32BIT) {
        uint32_t d = (uint32_t)t->cmp - (uint32_t)now;

        return (int32_t)d > 0 ? d : 1;
    } else {
        uint64_t d = t->cmp - now;

        return (int64_t)d > 0 ? d : 1;
    }
}

static void timer_arm_in(HPETTimer *t, uint64_t ticks)
{
    timer_mod(t->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                        (int64_t)(ticks * HPET_CLK_PERIOD_NS));
}

/* The timer's interrupt asserted (set) or withdrawn; locked */
static void timer_update_irq(HPETTimer *t, bool set)
{
    HPETState *s = t->s;
    uint64_t mask = 1ULL << t->tn;
    int route;

    if (t->tn <= 1 && hpet_legacy(s)) {
        route = t->tn == 0 ? 0 : HPET_RTC_IRQ;
    } else {
        route = (t->config & HPET_TN_INT_ROUTE_MASK) >>
                HPET_TN_INT_ROUTE_SHIFT;
    }
    if (!set || !(t->config & HPET_TN_ENABLE) || !hpet_enabled(s)) {
        s->isr &= ~mask;
        if (!(t->config & HPET_TN_FSB_ENABLE)) {
            qemu_irq_lower(s->irqs[route]);
        }
    } else if (t->config & HPET_TN_FSB_ENABLE) {
        uint32_t data = t->fsb;

        cpu_physical_memory_write(t->fsb >> 32, &data, sizeof(data));
    } else if (t->config & HPET_TN_TYPE_LEVEL) {
        s->isr |= mask;
        qemu_irq_raise(s->irqs[route]);
    } else {
        s->isr &= ~mask;
        qemu_irq_pulse(s->irqs[route]);
    }
}

/* A new setting: the timer goes off at its comparator; locked */
static void timer_start(HPETTimer *t)
{
    uint64_t now = hpet_now_ticks(t->s);
    uint64_t ticks = timer_ticks_left(t, now);

    t->wrap_pending = false;
    /* 32-bit one-shot: also when the counter's low half wraps */
    if ((t->config & HPET_TN_32BIT) && !timer_periodic(t)) {
        uint32_t to_wrap = 0xffffffffu - (uint32_t)now;

        if (to_wrap < (uint32_t)ticks) {
            ticks = to_wrap;
            t->wrap_pending = true;
        }
    }
    timer_arm_in(t, ticks);
}

static void timer_stop(HPETTimer *t)
{
    timer_del(t->timer);
    timer_update_irq(t, false);
}

/*
 * A periodic timer's next comparator: the first of cmp + n * period (n >= 0)
 * not behind the counter, in the timer's width, as QEMU 7.2 steps to it
 * one period at a time; computed, so a short period far behind costs
 * nothing.  false where 7.2 would step for ever (a 32-bit timer whose
 * period is a multiple of 2^32): no next one.
 */
static bool timer_next_period(HPETTimer *t, uint64_t now)
{
    if (t->config & HPET_TN_32BIT) {
        uint32_t p = t->period;
        int32_t d = (int32_t)((uint32_t)t->cmp - (uint32_t)now);
        uint64_t n;

        if (!p) {
            return false;
        }
        if (d >= 0) {
            return true;
        }
        if (p < 0x80000000u) {
            n = ((uint64_t)-(int64_t)d + p - 1) / p;
        } else {
            /* a step past 2^31 moves back, until it wraps to >= 0 */
            n = ((int64_t)d + 0x80000000LL) / (0x100000000LL - p) + 1;
        }
        t->cmp = (uint32_t)(t->cmp + n * p);
    } else {
        uint64_t behind = now - t->cmp;

        if ((int64_t)(t->cmp - now) >= 0) {
            return true;
        }
        t->cmp += (behind + t->period - 1) / t->period * t->period;
    }
    return true;
}

static void hpet_timer_cb(void *opaque)
{
    HPETTimer *t = opaque;
    HPETState *s = t->s;
    uint64_t now;

    g_rec_mutex_lock(&s->lock);
    now = hpet_now_ticks(s);
    if (timer_periodic(t) && t->period) {
        if (timer_next_period(t, now)) {
            timer_arm_in(t, timer_ticks_left(t, now));
        }
    } else if ((t->config & HPET_TN_32BIT) && !timer_periodic(t) &&
               t->wrap_pending) {
        timer_arm_in(t, timer_ticks_left(t, now));
        t->wrap_pending = false;
    }
    timer_update_irq(t, true);
    g_rec_mutex_unlock(&s->lock);
}

/* The timer a register offset is in, or NULL past 7.2's last one */
static HPETTimer *hpet_timer_at(HPETState *s, hwaddr addr)
{
    unsigned n = (addr - HPET_TN_BASE) / HPET_TN_STRIDE;

    return n <= s->num_timers ? &s->timer[n] : NULL;
}

static uint32_t hpet_read_locked(HPETState *s, hwaddr addr)
{
    uint64_t counter;

    if (addr >= HPET_TN_BASE && addr < HPET_LEN) {
        HPETTimer *t = hpet_timer_at(s, addr);

        if (!t) {
            return 0;
        }
        switch ((addr - HPET_TN_BASE) % HPET_TN_STRIDE) {
        case HPET_TN_CFG:
            return t->config;
        case HPET_TN_CFG + 4:
            return t->config >> 32;
        case HPET_TN_CMP:
            return t->cmp;
        case HPET_TN_CMP + 4:
            return t->cmp >> 32;
        case HPET_TN_ROUTE:
            return t->fsb;
        case HPET_TN_ROUTE + 4:
            return t->fsb >> 32;
        }
        return 0;
    }
    switch (addr) {
    case HPET_ID:
        return s->capability;
    case HPET_PERIOD:
        return s->capability >> 32;
    case HPET_CFG:
        return s->config;
    case HPET_STATUS:
        return s->isr;
    case HPET_COUNTER:
    case HPET_COUNTER + 4:
        counter = hpet_enabled(s) ? hpet_now_ticks(s) : s->counter;
        return addr == HPET_COUNTER ? counter : counter >> 32;
    }
    return 0;
}

static uint64_t hpet_read(void *opaque, hwaddr addr, unsigned size)
{
    HPETState *s = opaque;
    uint32_t v;

    g_rec_mutex_lock(&s->lock);
    v = hpet_read_locked(s, addr);
    g_rec_mutex_unlock(&s->lock);
    return v;
}

static bool turned_on(uint64_t old, uint64_t new, uint64_t mask)
{
    return !(old & mask) && (new & mask);
}

static bool turned_off(uint64_t old, uint64_t new, uint64_t mask)
{
    return (old & mask) && !(new & mask);
}

/* The largest period a write sets: half the timer's range */
static uint64_t timer_period_mask(HPETTimer *t)
{
    return (t->config & HPET_TN_32BIT ? (uint64_t)UINT32_MAX : UINT64_MAX)
           >> 1;
}

static void timer_write(HPETTimer *t, hwaddr reg, uint32_t old, uint64_t new)
{
    HPETState *s = t->s;

    switch (reg) {
    case HPET_TN_CFG:
        if (turned_on(old, new, HPET_TN_FSB_ENABLE)) {
            timer_update_irq(t, false);
        }
        t->config = (t->config & ~(uint64_t)HPET_TN_CFG_WRITE_MASK) |
                    (new & HPET_TN_CFG_WRITE_MASK);
        if (new & HPET_TN_32BIT) {
            t->cmp = (uint32_t)t->cmp;
            t->period = (uint32_t)t->period;
        }
        if (turned_on(old, new, HPET_TN_ENABLE) && hpet_enabled(s)) {
            timer_start(t);
        } else if (turned_off(old, new, HPET_TN_ENABLE)) {
            timer_stop(t);
        }
        break;
    case HPET_TN_CMP:
        if (t->config & HPET_TN_32BIT) {
            new = (uint32_t)new;
        }
        if (!timer_periodic(t) || (t->config & HPET_TN_SETVAL)) {
            t->cmp = (t->cmp & 0xffffffff00000000ULL) | new;
        }
        if (timer_periodic(t)) {
            new &= timer_period_mask(t);
            t->period = (t->period & 0xffffffff00000000ULL) | new;
        }
        t->config &= ~(uint64_t)HPET_TN_SETVAL;
        if (hpet_enabled(s)) {
            timer_start(t);
        }
        break;
    case HPET_TN_CMP + 4:
        if (!timer_periodic(t) || (t->config & HPET_TN_SETVAL)) {
            t->cmp = (t->cmp & 0xffffffffULL) | (new << 32);
        } else {
            new &= timer_period_mask(t);
            t->period = (t->period & 0xffffffffULL) | (new << 32);
        }
        t->config &= ~(uint64_t)HPET_TN_SETVAL;
        if (hpet_enabled(s)) {
            timer_start(t);
        }
        break;
    case HPET_TN_ROUTE:
        t->fsb = (t->fsb & 0xffffffff00000000ULL) | new;
        break;
    case HPET_TN_ROUTE + 4:
        t->fsb = (new << 32) | (t->fsb & 0xffffffffULL);
        break;
    }
}

static void hpet_config_write(HPETState *s, uint32_t old, uint64_t new)
{
    int i;

    s->config = (s->config & ~(uint64_t)HPET_CFG_WRITE_MASK) |
                (new & HPET_CFG_WRITE_MASK);
    if (turned_on(old, new, HPET_CFG_ENABLE)) {
        /* the counter goes on from where it stood */
        s->offset_ns = (int64_t)(s->counter * HPET_CLK_PERIOD_NS) -
                       qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        for (i = 0; i < s->num_timers; i++) {
            if (s->timer[i].cmp != UINT64_MAX) {
                timer_start(&s->timer[i]);
            }
        }
    } else if (turned_off(old, new, HPET_CFG_ENABLE)) {
        s->counter = hpet_now_ticks(s);
        for (i = 0; i < s->num_timers; i++) {
            timer_stop(&s->timer[i]);
        }
    }
    /* The PIT's and the RTC's interrupts yield to timers 0 and 1 */
    if (turned_on(old, new, HPET_CFG_LEGACY)) {
        qemu_set_irq(s->pit_enabled, 0);
        qemu_irq_lower(s->irqs[0]);
        qemu_irq_lower(s->irqs[HPET_RTC_IRQ]);
    } else if (turned_off(old, new, HPET_CFG_LEGACY)) {
        qemu_irq_lower(s->irqs[0]);
        qemu_set_irq(s->pit_enabled, 1);
        qemu_set_irq(s->irqs[HPET_RTC_IRQ], s->rtc_irq_level);
    }
}

static void hpet_write(void *opaque, hwaddr addr, uint64_t value,
                       unsigned size)
{
    HPETState *s = opaque;
    uint32_t old;
    uint64_t val = (uint32_t)value;
    int i;

    g_rec_mutex_lock(&s->lock);
    old = hpet_read_locked(s, addr);
    if (addr >= HPET_TN_BASE && addr < HPET_LEN) {
        HPETTimer *t = hpet_timer_at(s, addr);

        if (t) {
            timer_write(t, (addr - HPET_TN_BASE) % HPET_TN_STRIDE, old, val);
        }
        g_rec_mutex_unlock(&s->lock);
        return;
    }
    switch (addr) {
    case HPET_CFG:
        hpet_config_write(s, old, val);
        break;
    case HPET_STATUS:
        /* write 1 to clear a level-triggered timer's status */
        for (i = 0; i < s->num_timers; i++) {
            if (val & s->isr & (1ULL << i)) {
                timer_update_irq(&s->timer[i], false);
            }
        }
        break;
    case HPET_COUNTER:
        s->counter = (s->counter & 0xffffffff00000000ULL) | val;
        break;
    case HPET_COUNTER + 4:
        s->counter = (s->counter & 0xffffffffULL) | (val << 32);
        break;
    }
    g_rec_mutex_unlock(&s->lock);
}

static const MemoryRegionOps hpet_ops = {
    .read = hpet_read,
    .write = hpet_write,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* The PIT's and the RTC's interrupt lines, passed on outside legacy mode */
static void hpet_legacy_irq(void *opaque, int n, int level)
{
    HPETState *s = opaque;

    g_rec_mutex_lock(&s->lock);
    if (n != HPET_LEGACY_PIT_INT) {
        s->rtc_irq_level = level;
    }
    if (!hpet_legacy(s)) {
        qemu_set_irq(s->irqs[n == HPET_LEGACY_PIT_INT ? 0 : HPET_RTC_IRQ],
                     level);
    }
    g_rec_mutex_unlock(&s->lock);
}

/* Reset ------------------------------------------------------------------ */

static void hpet_reset(DeviceState *dev)
{
    HPETState *s = (HPETState *)dev;
    int i;

    g_rec_mutex_lock(&s->lock);
    for (i = 0; i < s->num_timers; i++) {
        HPETTimer *t = &s->timer[i];

        timer_stop(t);
        t->cmp = UINT64_MAX;
        t->config = HPET_TN_PERIODIC_CAP | HPET_TN_SIZE_CAP |
                    (s->msi ? HPET_TN_FSB_CAP : 0) |
                    ((uint64_t)s->intcap << 32);
        t->period = 0;
        t->wrap_pending = false;
    }
    qemu_set_irq(s->pit_enabled, 1);
    s->counter = 0;
    s->offset_ns = 0;
    s->config = 0;
    s->rtc_irq_level = false;
    g_rec_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void hpet_initfn(Object *obj)
{
    HPETState *s = (HPETState *)obj;

    g_rec_mutex_init(&s->lock);
    memory_region_init_io(&s->iomem, obj, &hpet_ops, s, "hpet", HPET_LEN);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
}

static bool hpet_realize(DeviceState *dev, Error **errp)
{
    HPETState *s = (HPETState *)dev;
    int i;

    if (board_hpet) {
        error_setg(errp, "Only one HPET is supported here");
        return false;
    }
    if (!s->intcap) {
        warn_report("Hpet's intcap not initialized");
    }
    s->num_timers = CLAMP(s->num_timers, HPET_MIN_TIMERS, HPET_MAX_TIMERS);
    qdev_init_gpio_out_named(dev, s->irqs, SYSBUS_DEVICE_GPIO_IRQ,
                             HPET_NUM_IRQ_ROUTES);
    for (i = 0; i < HPET_MAX_TIMERS; i++) {
        s->timer[i].s = s;
        s->timer[i].tn = i;
        s->timer[i].timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, hpet_timer_cb,
                                         &s->timer[i]);
    }
    s->capability = HPET_ID_FIXED |
                    ((uint64_t)(s->num_timers - 1) << HPET_ID_NUM_TIM_SHIFT) |
                    ((uint64_t)HPET_CLK_PERIOD_NS * HPET_FS_PER_NS << 32);
    qdev_init_gpio_in(dev, hpet_legacy_irq, 2);
    qdev_init_gpio_out(dev, &s->pit_enabled, 1);
    board_hpet = s;
    return true;
}

static void hpet_unrealize(DeviceState *dev)
{
    HPETState *s = (HPETState *)dev;

    for (int i = 0; i < HPET_MAX_TIMERS; i++) {
        timer_free(s->timer[i].timer);
    }
    if (board_hpet == s) {
        board_hpet = NULL;
    }
}

static void hpet_finalize(Object *obj)
{
    g_rec_mutex_clear(&((HPETState *)obj)->lock);
}

void hpet_fw_cfg(uint8_t buf[HPET_FW_CFG_SIZE])
{
    uint32_t id;
    uint64_t addr = HPET_BASE;

    memset(buf, 0, HPET_FW_CFG_SIZE);
    if (!board_hpet) {
        buf[0] = 0xff;
        return;
    }
    id = GUINT32_TO_LE((uint32_t)board_hpet->capability);
    addr = GUINT64_TO_LE(addr);
    buf[0] = 1;
    memcpy(buf + 1, &id, 4);
    memcpy(buf + 5, &addr, 8);
}

/* Property table --------------------------------------------------------- */

static Property hpet_properties[] = {
    DEFINE_PROP_UINT8("timers", HPETState, num_timers, HPET_MIN_TIMERS),
    DEFINE_PROP_BIT("msi", HPETState, msi, false),
    DEFINE_PROP_UINT32("hpet-intcap", HPETState, intcap, 0),
    DEFINE_PROP_BOOL("hpet-offset-saved", HPETState, offset_saved, true),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void hpet_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = hpet_realize;
    dc->unrealize = hpet_unrealize;
    dc->reset = hpet_reset;
    device_class_set_props(dc, hpet_properties);
    dc->user_creatable = false;
}

static const TypeInfo hpet_info = {
    .name = TYPE_HPET,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(HPETState),
    .instance_init = hpet_initfn,
    .instance_finalize = hpet_finalize,
    .class_init = hpet_class_init,
};

static void hpet_register_types(void)
{
    type_register_static(&hpet_info);
}
type_init(hpet_register_types)
