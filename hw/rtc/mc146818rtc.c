/*
 * MC146818 RTC and CMOS RAM (see include/hw/rtc/mc146818rtc.h).
 *
 * The clock is host UTC by default (-rtc base=utc,clock=host; -rtc picks
 * another start or clock: rtc_set_config).  The guest's view of time is
 * kept as an offset from it, so setting the clock never
 * touches the host and a reset keeps the time (the chip is battery
 * backed).
 */
#include <string.h>
#include <time.h>

#include <glib.h>

#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "hw/rtc/mc146818rtc.h"
#include "sysemu/runstate.h"

#define NS_PER_SEC 1000000000LL
/* UIP is set this long before each update (244 us at 32.768 kHz) */
#define RTC_UIP_NS 244000LL
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

/*
 * The guest's time in whole seconds.  Kept apart from the nanoseconds:
 * the registers reach year 9999 in BCD (25755 in binary), and a count of
 * nanoseconds since 1970 ends in 2262.
 */
static int64_t rtc_guest_secs(const RTCState *s)
{
    return s->clock(s->opaque) / NS_PER_SEC + s->offset_secs;
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

/* The time registers as the guest set them become the new offset */
static void rtc_commit_time(RTCState *s)
{
    struct tm tm = { 0 };
    int64_t host = s->clock(s->opaque);
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
    /*
     * Whole seconds: the guest keeps the host's fraction of a second, so
     * its updates stay on the host's second edges
     */
    s->offset_secs = (int64_t)secs - host / NS_PER_SEC;
}

static bool rtc_update_in_progress(const RTCState *s)
{
    int64_t ns = s->clock(s->opaque) % NS_PER_SEC;

    if ((s->cmos[RTC_REG_A] & 0x70) != 0x20 ||
        (s->cmos[RTC_REG_B] & REG_B_SET)) {
        return false; /* divider stopped or updates held */
    }
    return ns >= NS_PER_SEC - RTC_UIP_NS;
}

/* Register read/write ---------------------------------------------------- */

uint8_t rtc_ioport_read(RTCState *s, unsigned offset)
{
    unsigned reg = s->index;
    uint8_t v;

    if (offset == 0) {
        return 0xff; /* the index register is write-only */
    }
    if (rtc_is_time_reg(reg) && reg != RTC_SECONDS_ALARM &&
        reg != RTC_MINUTES_ALARM && reg != RTC_HOURS_ALARM &&
        !(s->cmos[RTC_REG_B] & REG_B_SET)) {
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
        if (v && s->irq) {
            s->irq(s->opaque, 0);
        }
        break;
    }
    return v;
}

static void rtc_write_time_reg(RTCState *s, unsigned reg, uint8_t value)
{
    bool held = s->cmos[RTC_REG_B] & REG_B_SET;

    if (!held) {
        rtc_latch_time(s);
    }
    s->cmos[reg] = value;
    if (!held) {
        rtc_commit_time(s);
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
        s->cmos[reg] = (s->cmos[reg] & REG_A_UIP) | (value & ~REG_A_UIP);
        break;
    case RTC_REG_B:
        if ((value & REG_B_SET) && !(s->cmos[RTC_REG_B] & REG_B_SET)) {
            /* Freeze the registers at the current time for the guest */
            rtc_latch_time(s);
            value &= ~0x10; /* SET clears the update-ended interrupt enable */
        } else if (!(value & REG_B_SET) &&
                   (s->cmos[RTC_REG_B] & REG_B_SET)) {
            /* In the format the registers were written in */
            rtc_commit_time(s);
        }
        s->cmos[RTC_REG_B] = value;
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
}

/* Reset ------------------------------------------------------------------ */

void rtc_reset(RTCState *s)
{
    s->cmos[RTC_REG_A] = 0x26; /* 32.768 kHz divider, 1024 Hz rate */
    s->cmos[RTC_REG_B] = REG_B_24H;
    s->cmos[RTC_REG_C] = 0;
    s->cmos[RTC_REG_D] = REG_D_VRT;
    if (s->irq) {
        s->irq(s->opaque, 0);
    }
}

/* Realize ---------------------------------------------------------------- */

void rtc_init(RTCState *s, RTCClockFunc *clock, RTCIrqFunc *irq,
              void *opaque)
{
    memset(s, 0, sizeof(*s));
    s->clock = clock ? clock : rtc_host_clock;
    s->irq = irq;
    s->opaque = opaque;
    rtc_reset(s);
    rtc_latch_time(s);
}

/* The ISA device ------------------------------------------------------------ */

static RTCClockKind config_clock = RTC_CLOCK_HOST;
static int64_t config_offset_secs;
/* Wall time and the chosen clock's reading at start-up, in ns */
static int64_t start_wall_ns, start_clock_ns;

void rtc_set_config(RTCClockKind kind, int64_t offset_secs)
{
    config_clock = kind;
    config_offset_secs = offset_secs;
}

static int64_t rtc_rt_clock(void *opaque)
{
    return start_wall_ns + g_get_monotonic_time() * 1000 - start_clock_ns;
}

static int64_t rtc_vm_clock(void *opaque)
{
    return start_wall_ns + vm_clock_get_ns() - start_clock_ns;
}

typedef struct ISARTCState {
    ISADevice parent_obj;
    GMutex lock;
    RTCState rtc;
    MemoryRegion io, index_io;
    qemu_irq irq;
    /* Properties, as QEMU's (lost_tick_policy: no periodic interrupt) */
    int32_t base_year;
    uint16_t iobase;
    uint8_t isairq;
    int lost_tick_policy;
} ISARTCState;

static void isa_rtc_irq(void *opaque, int level)
{
    ISARTCState *s = opaque;

    qemu_set_irq(s->irq, level);
}

/* Even offsets are the index register, odd ones the data (QEMU's cmos_ops) */
static uint64_t isa_rtc_read(void *opaque, hwaddr addr, unsigned size)
{
    ISARTCState *s = opaque;
    uint8_t v;

    g_mutex_lock(&s->lock);
    v = rtc_ioport_read(&s->rtc, addr & 1);
    g_mutex_unlock(&s->lock);
    return v;
}

static void isa_rtc_write(void *opaque, hwaddr addr, uint64_t value,
                          unsigned size)
{
    ISARTCState *s = opaque;

    g_mutex_lock(&s->lock);
    rtc_ioport_write(&s->rtc, addr & 1, value);
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
    start_wall_ns = rtc_host_clock(NULL);
    start_clock_ns = config_clock == RTC_CLOCK_VM
                         ? vm_clock_get_ns()
                         : g_get_monotonic_time() * 1000;
    s->rtc.clock = config_clock == RTC_CLOCK_RT   ? rtc_rt_clock
                   : config_clock == RTC_CLOCK_VM ? rtc_vm_clock
                                                  : rtc_host_clock;
    s->rtc.offset_secs = config_offset_secs;
    rtc_latch_time(&s->rtc);
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
    g_mutex_clear(&((ISARTCState *)obj)->lock);
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
