/*
 * The 8254 programmable interval timer as QEMU 7.2's "isa-pit" behaves.
 *
 * Ports base+0..2 are the channels' counters, base+3 the control word:
 * channel (bits 7-6; 3 is the read-back command), access (5-4: 0 latches
 * the count, 1 LSB, 2 MSB, 3 LSB then MSB), mode (3-1) and BCD (0).  A
 * read of the control port returns 0.  Counting is binary whatever BCD
 * says (7.2 only reports the bit in the status byte); a count of 0 means
 * 0x10000.  Each channel counts from the virtual-clock time its count was
 * loaded at PIT_FREQ, so OUT and the count are functions of that clock;
 * qtest's clock_step drives them.  Modes 0-5 as 7.2: 0 and 4 count once
 * and ignore the gate, 1 and 5 restart on a rising gate, 2 and 3 are
 * periodic and restart on a rising gate (a low gate does not stop them).
 * The status byte (read-back) holds OUT, access, mode and BCD (no null
 * count).  Channel 0's OUT is an interrupt line, updated by a timer at
 * each transition; the gpio input (the HPET's "PIT enabled") stops those
 * updates while low.  Channel 2's gate and OUT are port 0x61's.
 */
#include <glib.h>

#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/timer/i8254.h"
#include "qemu/timer.h"

#define RW_STATE_LSB 1
#define RW_STATE_MSB 2
#define RW_STATE_WORD0 3
#define RW_STATE_WORD1 4

/* State ------------------------------------------------------------------ */

typedef struct PITChannel {
    int count;              /* 1..0x10000 */
    uint16_t latched_count;
    uint8_t count_latched;  /* the RW_STATE still to read from the latch */
    bool status_latched;
    uint8_t status;
    uint8_t read_state, write_state;
    uint8_t write_latch;    /* LSB of a word being written */
    uint8_t rw_mode;
    uint8_t mode;
    uint8_t bcd;
    uint8_t gate;
    int64_t count_load_time;
    int64_t next_transition_time;
    QEMUTimer *irq_timer;   /* channel 0 only */
    bool irq_disabled;
} PITChannel;

typedef struct PITState {
    ISADevice parent_obj;
    /*
     * Guards the channels.  OUT is raised or lowered after it is released
     * (the line may lead to the HPET, whose lock comes before ours when
     * it switches legacy mode).
     */
    GMutex lock;
    PITChannel channels[3];
    qemu_irq irq;
    MemoryRegion io;
    uint32_t iobase;        /* property */
} PITState;

/* Counting --------------------------------------------------------------- */

/* PIT ticks since the channel's count was loaded */
static uint64_t pit_ticks(PITChannel *c, int64_t now)
{
    return (uint64_t)((unsigned __int128)(uint64_t)(now - c->count_load_time) *
                      PIT_FREQ / NANOSECONDS_PER_SECOND);
}

static int pit_get_count(PITChannel *c)
{
    uint64_t d = pit_ticks(c, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));

    switch (c->mode) {
    case 0:
    case 1:
    case 4:
    case 5:
        return (c->count - d) & 0xffff;
    case 3:
        /* twice as fast; 7.2's approximation for odd counts */
        return c->count - ((2 * d) % c->count);
    default:
        return c->count - (d % c->count);
    }
}

static int pit_get_out(PITChannel *c, int64_t now)
{
    uint64_t d = pit_ticks(c, now);

    switch (c->mode) {
    default:
    case 0:
        return d >= (uint64_t)c->count;
    case 1:
        return d < (uint64_t)c->count;
    case 2:
        return d % c->count == 0 && d != 0;
    case 3:
        return d % c->count < (uint64_t)((c->count + 1) >> 1);
    case 4:
    case 5:
        return d == (uint64_t)c->count;
    }
}

/* The virtual time OUT next changes, or -1 if it never will */
static int64_t pit_next_transition(PITChannel *c, int64_t now)
{
    uint64_t d = pit_ticks(c, now), base, next;
    uint64_t count = c->count, half;

    switch (c->mode) {
    default:
    case 0:
    case 1:
        if (d >= count) {
            return -1;
        }
        next = count;
        break;
    case 2:
        base = d - d % count;
        next = (d == base && d != 0) ? base + count : base + count + 1;
        break;
    case 3:
        base = d - d % count;
        half = (count + 1) >> 1;
        next = d - base < half ? base + half : base + count;
        break;
    case 4:
    case 5:
        if (d < count) {
            next = count;
        } else if (d == count) {
            next = count + 1;
        } else {
            return -1;
        }
        break;
    }
    next = c->count_load_time +
           (uint64_t)((unsigned __int128)next * NANOSECONDS_PER_SECOND /
                      PIT_FREQ);
    /* rounding must not put it in the past */
    return (int64_t)next <= now ? now + 1 : (int64_t)next;
}

/*
 * Channel 0: OUT now, and the timer for its next transition.  Returns
 * the level to put on the line, or -1 to leave it.
 */
static int pit_irq_update_locked(PITChannel *c, int64_t now)
{
    int64_t expire;

    if (!c->irq_timer || c->irq_disabled) {
        return -1;
    }
    expire = pit_next_transition(c, now);
    c->next_transition_time = expire;
    if (expire != -1) {
        timer_mod(c->irq_timer, expire);
    } else {
        timer_del(c->irq_timer);
    }
    return pit_get_out(c, now);
}

static void pit_set_irq_level(PITState *s, int level)
{
    if (level >= 0) {
        qemu_set_irq(s->irq, level);
    }
}

static void pit_irq_timer(void *opaque)
{
    PITState *s = opaque;
    PITChannel *c = &s->channels[0];
    int level;

    g_mutex_lock(&s->lock);
    level = pit_irq_update_locked(c, c->next_transition_time);
    g_mutex_unlock(&s->lock);
    pit_set_irq_level(s, level);
}

/* Register read/write ---------------------------------------------------- */

static int pit_load_count(PITChannel *c, int val)
{
    c->count_load_time = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    c->count = val ? val : 0x10000;
    return pit_irq_update_locked(c, c->count_load_time);
}

/* A second latch before the first is read keeps the first */
static void pit_latch_count(PITChannel *c)
{
    if (!c->count_latched) {
        c->latched_count = pit_get_count(c);
        c->count_latched = c->rw_mode;
    }
}

static void pit_read_back(PITState *s, uint8_t val)
{
    for (int i = 0; i < 3; i++) {
        PITChannel *c = &s->channels[i];

        if (!(val & (2 << i))) {
            continue;
        }
        if (!(val & 0x20)) {
            pit_latch_count(c);
        }
        if (!(val & 0x10) && !c->status_latched) {
            c->status = pit_get_out(c, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL))
                            << 7 |
                        c->rw_mode << 4 | c->mode << 1 | c->bcd;
            c->status_latched = true;
        }
    }
}

static void pit_write_control(PITState *s, uint8_t val)
{
    int channel = val >> 6, access = (val >> 4) & 3;
    PITChannel *c;

    if (channel == 3) {
        pit_read_back(s, val);
        return;
    }
    c = &s->channels[channel];
    if (access == 0) {
        pit_latch_count(c);
        return;
    }
    c->rw_mode = access;
    c->read_state = access;
    c->write_state = access;
    c->mode = (val >> 1) & 7;
    c->bcd = val & 1;
    /* as 7.2: OUT and the timer follow only when a count is written */
}

static int pit_write_counter(PITChannel *c, uint8_t val)
{
    switch (c->write_state) {
    default:
    case RW_STATE_LSB:
        return pit_load_count(c, val);
    case RW_STATE_MSB:
        return pit_load_count(c, val << 8);
    case RW_STATE_WORD0:
        c->write_latch = val;
        c->write_state = RW_STATE_WORD1;
        return -1;
    case RW_STATE_WORD1:
        c->write_state = RW_STATE_WORD0;
        return pit_load_count(c, c->write_latch | (val << 8));
    }
}

static void pit_ioport_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    PITState *s = opaque;
    int level = -1;

    g_mutex_lock(&s->lock);
    addr &= 3;
    if (addr == 3) {
        pit_write_control(s, val);
    } else {
        level = pit_write_counter(&s->channels[addr], val);
    }
    g_mutex_unlock(&s->lock);
    pit_set_irq_level(s, level);
}

static uint8_t pit_read_latched(PITChannel *c)
{
    uint8_t ret;

    switch (c->count_latched) {
    default:
    case RW_STATE_LSB:
        ret = c->latched_count & 0xff;
        c->count_latched = 0;
        break;
    case RW_STATE_MSB:
        ret = c->latched_count >> 8;
        c->count_latched = 0;
        break;
    case RW_STATE_WORD0:
        ret = c->latched_count & 0xff;
        c->count_latched = RW_STATE_MSB;
        break;
    }
    return ret;
}

static uint8_t pit_read_counter(PITChannel *c)
{
    int count = pit_get_count(c);

    switch (c->read_state) {
    default:
    case RW_STATE_LSB:
        return count & 0xff;
    case RW_STATE_MSB:
        return (count >> 8) & 0xff;
    case RW_STATE_WORD0:
        c->read_state = RW_STATE_WORD1;
        return count & 0xff;
    case RW_STATE_WORD1:
        c->read_state = RW_STATE_WORD0;
        return (count >> 8) & 0xff;
    }
}

static uint64_t pit_ioport_read(void *opaque, hwaddr addr, unsigned size)
{
    PITState *s = opaque;
    PITChannel *c;
    uint8_t ret;

    addr &= 3;
    if (addr == 3) {
        return 0;       /* the control word is write-only */
    }
    g_mutex_lock(&s->lock);
    c = &s->channels[addr];
    if (c->status_latched) {
        c->status_latched = false;
        ret = c->status;
    } else if (c->count_latched) {
        ret = pit_read_latched(c);
    } else {
        ret = pit_read_counter(c);
    }
    g_mutex_unlock(&s->lock);
    return ret;
}

static const MemoryRegionOps pit_ops = {
    .read = pit_ioport_read,
    .write = pit_ioport_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Port 0x61 and the HPET --------------------------------------------------- */

void pit_set_gate(DeviceState *dev, int channel, int val)
{
    PITState *s = (PITState *)dev;
    PITChannel *c = &s->channels[channel];
    int level = -1;

    g_mutex_lock(&s->lock);
    switch (c->mode) {
    case 1:
    case 2:
    case 3:
    case 5:
        if (c->gate < val) {
            /* a rising gate restarts the count */
            c->count_load_time = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
            level = pit_irq_update_locked(c, c->count_load_time);
        }
        break;
    default:    /* 0, 4: 7.2 does not stop counting on a low gate */
        break;
    }
    c->gate = val;
    g_mutex_unlock(&s->lock);
    pit_set_irq_level(s, level);
}

void pit_get_channel_info(DeviceState *dev, int channel,
                          PITChannelInfo *info)
{
    PITState *s = (PITState *)dev;
    PITChannel *c = &s->channels[channel];

    g_mutex_lock(&s->lock);
    info->gate = c->gate;
    info->mode = c->mode;
    info->initial_count = c->count;
    info->out = pit_get_out(c, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    g_mutex_unlock(&s->lock);
}

/* The HPET's legacy mode takes IRQ 0: channel 0 stops driving it */
static void pit_irq_control(void *opaque, int n, int enable)
{
    PITState *s = opaque;
    PITChannel *c = &s->channels[0];
    int level = -1;

    g_mutex_lock(&s->lock);
    if (enable) {
        c->irq_disabled = false;
        level = pit_irq_update_locked(c,
                                      qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    } else {
        c->irq_disabled = true;
        timer_del(c->irq_timer);
    }
    g_mutex_unlock(&s->lock);
    pit_set_irq_level(s, level);
}

/* Reset ------------------------------------------------------------------ */

static void pit_reset(DeviceState *dev)
{
    PITState *s = (PITState *)dev;

    g_mutex_lock(&s->lock);
    for (int i = 0; i < 3; i++) {
        PITChannel *c = &s->channels[i];

        /* 7.2 keeps the access modes and latches over a reset */
        c->mode = 3;
        c->gate = i != 2;
        c->count_load_time = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        c->count = 0x10000;
        if (i == 0 && !c->irq_disabled) {
            c->next_transition_time =
                pit_next_transition(c, c->count_load_time);
            timer_mod(c->irq_timer, c->next_transition_time);
        }
    }
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void pit_instance_init(Object *obj)
{
    g_mutex_init(&((PITState *)obj)->lock);
}

static bool pit_realize(DeviceState *dev, Error **errp)
{
    PITState *s = (PITState *)dev;

    if (s->iobase > 0xfffc) {
        error_setg(errp, "isa-pit: iobase 0x%x is out of range", s->iobase);
        return false;
    }
    s->channels[0].irq_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                            pit_irq_timer, s);
    qdev_init_gpio_out(dev, &s->irq, 1);
    memory_region_init_io(&s->io, OBJECT(dev), &pit_ops, s, "pit", 4);
    qdev_init_gpio_in(dev, pit_irq_control, 1);
    isa_register_ioport(ISA_DEVICE(dev), &s->io, s->iobase);
    return true;
}

static void pit_unrealize(DeviceState *dev)
{
    PITState *s = (PITState *)dev;

    timer_free(s->channels[0].irq_timer);
    s->channels[0].irq_timer = NULL;
}

static void pit_instance_finalize(Object *obj)
{
    g_mutex_clear(&((PITState *)obj)->lock);
}

DeviceState *i8254_pit_init(ISABus *bus, int base, int isa_irq,
                            qemu_irq alt_irq, Error **errp)
{
    ISADevice *isa = isa_new(TYPE_I8254);
    DeviceState *d = DEVICE(isa);

    qdev_prop_set_uint32(d, "iobase", base);
    if (!isa_realize_and_unref(isa, bus, errp)) {
        return NULL;
    }
    qdev_connect_gpio_out(d, 0, alt_irq ? alt_irq : isa_get_irq(isa, isa_irq));
    return d;
}

/* Property table --------------------------------------------------------- */

static Property pit_properties[] = {
    DEFINE_PROP_UINT32("iobase", PITState, iobase, UINT32_MAX),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void pit_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = pit_realize;
    dc->unrealize = pit_unrealize;
    dc->reset = pit_reset;
    device_class_set_props(dc, pit_properties);
    /* the board wires it to the HPET and the speaker */
    dc->user_creatable = false;
}

static void pit_common_class_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->user_creatable = false;
}

/* 7.2's abstract parent of isa-pit and kvm-pit */
static const TypeInfo pit_common_info = {
    .name = TYPE_PIT_COMMON,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISADevice),
    .class_init = pit_common_class_init,
    .abstract = true,
};

static const TypeInfo pit_info = {
    .name = TYPE_I8254,
    .parent = TYPE_PIT_COMMON,
    .instance_size = sizeof(PITState),
    .instance_init = pit_instance_init,
    .instance_finalize = pit_instance_finalize,
    .class_init = pit_class_init,
};

static void pit_register_types(void)
{
    type_register_static(&pit_common_info);
    type_register_static(&pit_info);
}
type_init(pit_register_types)
