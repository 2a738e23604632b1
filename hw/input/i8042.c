/*
 * i8042 keyboard controller at 0x60 (data) and 0x64 (status/command), as
 * QEMU 7.2's: its children "ps2kbd" and "ps2mouse" (ps2-kbd, ps2-mouse,
 * hw/input/ps2.c) answer the bytes written to them, and raise the
 * controller's inputs "ps2-kbd-input-irq" / "ps2-mouse-input-irq" while
 * they have data.  The controller holds one byte of its own (extended-
 * state, QEMU's default since 2.x: a reply to 0x20, 0xaa, 0xd2, ...) and
 * picks what the guest reads next: its own byte first, then the
 * keyboard's, then the mouse's, a device only while its interface is
 * enabled (mode bits 4 and 5) and never while a byte is in the output
 * buffer.  IRQ 1 or 12 (kbd-irq, mouse-irq) follows the buffer and the
 * mode's interrupt bits.  The reset line: command 0xfe, the pulse
 * commands 0xf0-0xfe with bit 0 clear, or 0xd1 writing output port bit 0
 * as 0.
 *
 * kbd-throttle holds the next keyboard byte back for 1 ms of virtual time
 * after the guest reads one.  One recursive lock covers the controller
 * and its two devices: their lines call back into it.
 */
#include <string.h>

#include <glib.h>

#include "hw/input/i8042.h"
#include "hw/input/ps2.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "qemu/timer.h"
#include "sysemu/runstate.h"

#define I8042_DATA 0x60
#define I8042_CMD 0x64
#define I8042_KBD_IRQ 1
#define I8042_AUX_IRQ 12
#define I8042_THROTTLE_NS 1000000

#define CCMD_READ_MODE 0x20
#define CCMD_WRITE_MODE 0x60
#define CCMD_MOUSE_DISABLE 0xa7
#define CCMD_MOUSE_ENABLE 0xa8
#define CCMD_TEST_MOUSE 0xa9
#define CCMD_SELF_TEST 0xaa
#define CCMD_KBD_TEST 0xab
#define CCMD_KBD_DISABLE 0xad
#define CCMD_KBD_ENABLE 0xae
#define CCMD_READ_INPORT 0xc0
#define CCMD_READ_OUTPORT 0xd0
#define CCMD_WRITE_OUTPORT 0xd1
#define CCMD_WRITE_OBUF 0xd2
#define CCMD_WRITE_AUX_OBUF 0xd3
#define CCMD_WRITE_MOUSE 0xd4
#define CCMD_DISABLE_A20 0xdd
#define CCMD_ENABLE_A20 0xdf
#define CCMD_PULSE_BITS_3_0 0xf0
#define CCMD_RESET 0xfe
#define CCMD_NO_OP 0xff

#define STAT_OBF 0x01
#define STAT_SELFTEST 0x04
#define STAT_CMD 0x08
#define STAT_UNLOCKED 0x10
#define STAT_AUX_OBF 0x20

#define MODE_KBD_INT 0x01
#define MODE_AUX_INT 0x02
#define MODE_DISABLE_KBD 0x10
#define MODE_DISABLE_AUX 0x20
#define MODE_TRANSLATE 0x40

#define OUT_RESET 0x01
#define OUT_A20 0x02
#define OUT_OBF 0x10
#define OUT_AUX_OBF 0x20
#define OUT_ONES 0xcc

/* Who has a byte for the guest: the bits line up with the mode's */
#define PENDING_CTRL_KBD 0x04
#define PENDING_CTRL_AUX 0x08
#define PENDING_KBD MODE_DISABLE_KBD
#define PENDING_AUX MODE_DISABLE_AUX

/* Whose byte is in the output buffer */
#define OBSRC_KBD 0x01
#define OBSRC_MOUSE 0x02
#define OBSRC_CTRL 0x04

/* State ------------------------------------------------------------------ */

typedef struct I8042State {
    ISADevice parent_obj;
    GRecMutex lock;
    uint8_t mode, status, outport;
    uint8_t write_cmd;      /* controller command waiting for its data */
    uint8_t pending;        /* PENDING_* */
    uint8_t obsrc;          /* OBSRC_* of the byte in the buffer */
    uint8_t obdata;         /* the buffer: what port 0x60 reads */
    uint8_t cbdata;         /* the controller's own byte */
    bool reset_requested;   /* sent after the lock is dropped */
    MemoryRegion data_io, cmd_io;
    qemu_irq irq_kbd, irq_mouse;
    qemu_irq a20_out;
    QEMUTimer *throttle_timer;
    PS2KbdState ps2kbd;
    PS2MouseState ps2mouse;

    /* Properties, as QEMU's */
    uint8_t kbd_irq, mouse_irq;
    bool extended_state, kbd_throttle;
} I8042State;

/* Register read/write ---------------------------------------------------- */

/*
 * 7.2 raises no keyboard interrupt while the keyboard interface is
 * disabled, even for a byte already in the buffer
 */
static void i8042_update_irq_lines(I8042State *s)
{
    int kbd = 0, aux = 0;

    if (s->status & STAT_OBF) {
        if (s->status & STAT_AUX_OBF) {
            aux = !!(s->mode & MODE_AUX_INT);
        } else {
            kbd = (s->mode & MODE_KBD_INT) && !(s->mode & MODE_DISABLE_KBD);
        }
    }
    qemu_set_irq(s->irq_kbd, kbd);
    qemu_set_irq(s->irq_mouse, aux);
}

static void i8042_deassert_irq(I8042State *s)
{
    s->status &= ~(STAT_OBF | STAT_AUX_OBF);
    s->outport &= ~(OUT_OBF | OUT_AUX_OBF);
    i8042_update_irq_lines(s);
}

/* With extended-state a disabled interface's data waits */
static uint8_t i8042_pending(I8042State *s)
{
    if (!s->extended_state) {
        return s->pending;
    }
    return s->pending & (~s->mode | ~(PENDING_KBD | PENDING_AUX));
}

/* Fills the output buffer's flags from the first source with data */
static void i8042_update_irq(I8042State *s)
{
    uint8_t pending = i8042_pending(s);

    s->status &= ~(STAT_OBF | STAT_AUX_OBF);
    s->outport &= ~(OUT_OBF | OUT_AUX_OBF);
    if (pending) {
        s->status |= STAT_OBF;
        s->outport |= OUT_OBF;
        if (pending & PENDING_CTRL_KBD) {
            s->obsrc = OBSRC_CTRL;
        } else if (pending & PENDING_CTRL_AUX) {
            s->status |= STAT_AUX_OBF;
            s->outport |= OUT_AUX_OBF;
            s->obsrc = OBSRC_CTRL;
        } else if (pending & PENDING_KBD) {
            s->obsrc = OBSRC_KBD;
        } else {
            s->status |= STAT_AUX_OBF;
            s->outport |= OUT_AUX_OBF;
            s->obsrc = OBSRC_MOUSE;
        }
    }
    i8042_update_irq_lines(s);
}

/* Nothing while the buffer is full or the throttle holds the keyboard */
static void i8042_safe_update_irq(I8042State *s)
{
    if (s->status & STAT_OBF) {
        return;
    }
    if (s->throttle_timer && timer_pending(s->throttle_timer)) {
        return;
    }
    if (i8042_pending(s)) {
        i8042_update_irq(s);
    }
}

/* The devices' lines: "ps2-kbd-input-irq", "ps2-mouse-input-irq" */
static void i8042_set_kbd_irq(void *opaque, int n, int level)
{
    I8042State *s = opaque;

    g_rec_mutex_lock(&s->lock);
    s->pending = level ? s->pending | PENDING_KBD
                       : s->pending & ~PENDING_KBD;
    i8042_safe_update_irq(s);
    g_rec_mutex_unlock(&s->lock);
}

static void i8042_set_mouse_irq(void *opaque, int n, int level)
{
    I8042State *s = opaque;

    g_rec_mutex_lock(&s->lock);
    s->pending = level ? s->pending | PENDING_AUX
                       : s->pending & ~PENDING_AUX;
    i8042_safe_update_irq(s);
    g_rec_mutex_unlock(&s->lock);
}

static void i8042_throttle_timeout(void *opaque)
{
    I8042State *s = opaque;

    g_rec_mutex_lock(&s->lock);
    if (i8042_pending(s)) {
        i8042_update_irq(s);
    }
    g_rec_mutex_unlock(&s->lock);
}

/* A byte of the controller's own, from the keyboard's or the aux port */
static void i8042_queue(I8042State *s, uint8_t b, bool aux)
{
    if (!s->extended_state) {
        ps2_queue(aux ? PS2_DEVICE(&s->ps2mouse) : PS2_DEVICE(&s->ps2kbd), b);
        return;
    }
    s->cbdata = b;
    s->pending &= ~(PENDING_CTRL_KBD | PENDING_CTRL_AUX);
    s->pending |= aux ? PENDING_CTRL_AUX : PENDING_CTRL_KBD;
    i8042_safe_update_irq(s);
}

static uint8_t i8042_dequeue(I8042State *s)
{
    s->pending &= ~(PENDING_CTRL_KBD | PENDING_CTRL_AUX);
    if (i8042_pending(s)) {
        i8042_update_irq(s);
    }
    return s->cbdata;
}

static void i8042_write_outport(I8042State *s, uint8_t value)
{
    s->outport = value;
    qemu_set_irq(s->a20_out, (value & OUT_A20) != 0);
    if (!(value & OUT_RESET)) {
        s->reset_requested = true;
    }
}

static void i8042_write_command(I8042State *s, uint8_t cmd)
{
    /* 0xf0-0xff pulse output port bits 3-0 low; only bit 0 does anything */
    if ((cmd & CCMD_PULSE_BITS_3_0) == CCMD_PULSE_BITS_3_0) {
        cmd = (cmd & 1) ? CCMD_NO_OP : CCMD_RESET;
    }
    switch (cmd) {
    case CCMD_READ_MODE:
        i8042_queue(s, s->mode, false);
        break;
    case CCMD_WRITE_MODE:
    case CCMD_WRITE_OBUF:
    case CCMD_WRITE_AUX_OBUF:
    case CCMD_WRITE_MOUSE:
    case CCMD_WRITE_OUTPORT:
        s->write_cmd = cmd;
        break;
    case CCMD_MOUSE_DISABLE:
        s->mode |= MODE_DISABLE_AUX;
        break;
    case CCMD_MOUSE_ENABLE:
        s->mode &= ~MODE_DISABLE_AUX;
        i8042_safe_update_irq(s);
        break;
    case CCMD_TEST_MOUSE:
    case CCMD_KBD_TEST:
        i8042_queue(s, 0x00, false);
        break;
    case CCMD_SELF_TEST:
        s->status |= STAT_SELFTEST;
        i8042_queue(s, 0x55, false);
        break;
    case CCMD_KBD_DISABLE:
        s->mode |= MODE_DISABLE_KBD;
        break;
    case CCMD_KBD_ENABLE:
        s->mode &= ~MODE_DISABLE_KBD;
        i8042_safe_update_irq(s);
        break;
    case CCMD_READ_INPORT:
        i8042_queue(s, 0x80, false);
        break;
    case CCMD_READ_OUTPORT:
        i8042_queue(s, s->outport, false);
        break;
    case CCMD_ENABLE_A20:
        qemu_irq_raise(s->a20_out);
        s->outport |= OUT_A20;
        break;
    case CCMD_DISABLE_A20:
        qemu_irq_lower(s->a20_out);
        s->outport &= ~OUT_A20;
        break;
    case CCMD_RESET:
        s->reset_requested = true;
        break;
    default:
        /* 0xff, and what 7.2 does not know (0xa1, 0xe0, ...): ignored */
        break;
    }
}

static void i8042_write_data(I8042State *s, uint8_t value)
{
    switch (s->write_cmd) {
    case 0:
        ps2_write_keyboard(&s->ps2kbd, value);
        /* Writing to the keyboard enables its interface again */
        s->mode &= ~MODE_DISABLE_KBD;
        i8042_safe_update_irq(s);
        break;
    case CCMD_WRITE_MODE:
        s->mode = value;
        ps2_keyboard_set_translation(&s->ps2kbd,
                                     (value & MODE_TRANSLATE) != 0);
        /* The interrupt bits act at once; enabling may deliver data */
        i8042_update_irq_lines(s);
        i8042_safe_update_irq(s);
        break;
    case CCMD_WRITE_OBUF:
        i8042_queue(s, value, false);
        break;
    case CCMD_WRITE_AUX_OBUF:
        i8042_queue(s, value, true);
        break;
    case CCMD_WRITE_OUTPORT:
        i8042_write_outport(s, value);
        break;
    case CCMD_WRITE_MOUSE:
        ps2_write_mouse(&s->ps2mouse, value);
        s->mode &= ~MODE_DISABLE_AUX;
        i8042_safe_update_irq(s);
        break;
    default:
        break;
    }
    s->write_cmd = 0;
}

/* Port 0x60 reads the buffer; an empty one reads its last byte again */
static uint8_t i8042_read_data(I8042State *s)
{
    if (!(s->status & STAT_OBF)) {
        return s->obdata;
    }
    i8042_deassert_irq(s);
    if (s->obsrc & OBSRC_KBD) {
        if (s->throttle_timer) {
            timer_mod(s->throttle_timer,
                      qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                      I8042_THROTTLE_NS);
        }
        s->obdata = ps2_read_data(PS2_DEVICE(&s->ps2kbd));
    } else if (s->obsrc & OBSRC_MOUSE) {
        s->obdata = ps2_read_data(PS2_DEVICE(&s->ps2mouse));
    } else if (s->obsrc & OBSRC_CTRL) {
        s->obdata = i8042_dequeue(s);
    }
    return s->obdata;
}

static uint8_t i8042_read(I8042State *s, bool cmd_port)
{
    uint8_t v;

    g_rec_mutex_lock(&s->lock);
    v = cmd_port ? s->status : i8042_read_data(s);
    g_rec_mutex_unlock(&s->lock);
    return v;
}

static void i8042_write(I8042State *s, bool cmd_port, uint8_t value)
{
    bool reset;

    g_rec_mutex_lock(&s->lock);
    if (cmd_port) {
        i8042_write_command(s, value);
    } else {
        i8042_write_data(s, value);
    }
    reset = s->reset_requested;
    s->reset_requested = false;
    g_rec_mutex_unlock(&s->lock);
    if (reset) {
        qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
    }
}

/* QEMU's i8042 ops: byte registers, wider accesses read or write each byte */
static uint64_t i8042_data_read(void *opaque, hwaddr addr, unsigned size)
{
    return i8042_read(opaque, false);
}

static uint64_t i8042_cmd_read(void *opaque, hwaddr addr, unsigned size)
{
    return i8042_read(opaque, true);
}

static void i8042_data_write(void *opaque, hwaddr addr, uint64_t value,
                             unsigned size)
{
    i8042_write(opaque, false, value);
}

static void i8042_cmd_write(void *opaque, hwaddr addr, uint64_t value,
                            unsigned size)
{
    i8042_write(opaque, true, value);
}

static const MemoryRegionOps i8042_data_ops = {
    .read = i8042_data_read,
    .write = i8042_data_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static const MemoryRegionOps i8042_cmd_ops = {
    .read = i8042_cmd_read,
    .write = i8042_cmd_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Reset ------------------------------------------------------------------ */

static void i8042_reset(DeviceState *dev)
{
    I8042State *s = (I8042State *)dev;

    g_rec_mutex_lock(&s->lock);
    s->mode = MODE_KBD_INT | MODE_AUX_INT;
    s->status = STAT_CMD | STAT_UNLOCKED;
    s->outport = OUT_RESET | OUT_A20 | OUT_ONES;
    s->pending = 0;
    i8042_deassert_irq(s);
    if (s->throttle_timer) {
        timer_del(s->throttle_timer);
    }
    g_rec_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void i8042_initfn(Object *obj)
{
    I8042State *s = (I8042State *)obj;
    DeviceState *dev = DEVICE(obj);

    g_rec_mutex_init(&s->lock);
    memory_region_init_io(&s->data_io, obj, &i8042_data_ops, s, "i8042-data",
                          1);
    memory_region_init_io(&s->cmd_io, obj, &i8042_cmd_ops, s, "i8042-cmd", 1);
    object_initialize_child(obj, "ps2kbd", &s->ps2kbd, sizeof(s->ps2kbd),
                            TYPE_PS2_KBD_DEVICE);
    object_initialize_child(obj, "ps2mouse", &s->ps2mouse,
                            sizeof(s->ps2mouse), TYPE_PS2_MOUSE_DEVICE);
    qdev_init_gpio_out_named(dev, &s->a20_out, "a20", 1);
    qdev_init_gpio_out(dev, &s->irq_kbd, 1);
    qdev_init_gpio_out(dev, &s->irq_mouse, 1);
    qdev_init_gpio_in_named(dev, i8042_set_kbd_irq, "ps2-kbd-input-irq", 1);
    qdev_init_gpio_in_named(dev, i8042_set_mouse_irq, "ps2-mouse-input-irq",
                            1);
}

static bool i8042_realize(DeviceState *dev, Error **errp)
{
    I8042State *s = (I8042State *)dev;
    ISADevice *isadev = ISA_DEVICE(dev);

    if (s->kbd_irq >= ISA_NUM_IRQS) {
        error_setg(errp, "Maximum value for \"kbd-irq\" is: %u",
                   ISA_NUM_IRQS - 1);
        return false;
    }
    if (s->mouse_irq >= ISA_NUM_IRQS) {
        error_setg(errp, "Maximum value for \"mouse-irq\" is: %u",
                   ISA_NUM_IRQS - 1);
        return false;
    }
    qdev_connect_gpio_out(dev, 0, isa_get_irq(isadev, s->kbd_irq));
    qdev_connect_gpio_out(dev, 1, isa_get_irq(isadev, s->mouse_irq));
    isa_register_ioport(isadev, &s->data_io, I8042_DATA);
    isa_register_ioport(isadev, &s->cmd_io, I8042_CMD);
    /* On the system bus, keyboard first (7.2's info qtree lists it last) */
    if (!qdev_realize(DEVICE(&s->ps2kbd), sysbus_get_default(), errp)) {
        return false;
    }
    qdev_connect_gpio_out(DEVICE(&s->ps2kbd), 0,
                          qdev_get_gpio_in_named(dev, "ps2-kbd-input-irq",
                                                 0));
    if (!qdev_realize(DEVICE(&s->ps2mouse), sysbus_get_default(), errp)) {
        return false;
    }
    qdev_connect_gpio_out(DEVICE(&s->ps2mouse), 0,
                          qdev_get_gpio_in_named(dev, "ps2-mouse-input-irq",
                                                 0));
    if (s->kbd_throttle && !s->extended_state) {
        warn_report("i8042: can't enable kbd-throttle without "
                    "extended-state, disabling kbd-throttle");
    } else if (s->kbd_throttle) {
        s->throttle_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                         i8042_throttle_timeout, s);
    }
    return true;
}

static void i8042_finalize(Object *obj)
{
    I8042State *s = (I8042State *)obj;

    timer_free(s->throttle_timer);
    g_rec_mutex_clear(&s->lock);
}

/* Property table --------------------------------------------------------- */

/* extended-state: hw_compat_6_0 turns it off (0xd2/0xd3 go to the queues) */
static Property i8042_properties[] = {
    DEFINE_PROP_BOOL("extended-state", I8042State, extended_state, true),
    DEFINE_PROP_BOOL("kbd-throttle", I8042State, kbd_throttle, false),
    DEFINE_PROP_UINT8("kbd-irq", I8042State, kbd_irq, I8042_KBD_IRQ),
    DEFINE_PROP_UINT8("mouse-irq", I8042State, mouse_irq, I8042_AUX_IRQ),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void i8042_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = i8042_realize;
    dc->reset = i8042_reset;
    device_class_set_props(dc, i8042_properties);
    dc->categories = 1u << DEVICE_CATEGORY_INPUT;
}

static const TypeInfo i8042_info = {
    .name = TYPE_I8042,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(I8042State),
    .instance_init = i8042_initfn,
    .instance_finalize = i8042_finalize,
    .class_init = i8042_class_init,
};

static void i8042_register_types(void)
{
    type_register_static(&i8042_info);
}
type_init(i8042_register_types)
