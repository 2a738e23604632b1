/*
 * i8042 keyboard controller at 0x60 (data) and 0x64 (status/command),
 * with a PS/2 keyboard and mouse that answer commands but never type or
 * move: enough for Linux's i8042/atkbd/psmouse probes and for the reset
 * line (command 0xfe, or 0xd1 writing output port bit 0 as 0).
 *
 * Controller and device replies share one output queue; each entry says
 * whether it came from the aux (mouse) port, which selects AUX_OBF and
 * IRQ 12 instead of IRQ 1.
 */
#include <string.h>

#include <glib.h>

#include "hw/input/i8042.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "sysemu/runstate.h"

#define I8042_DATA 0x60
#define I8042_CMD 0x64
#define I8042_KBD_IRQ 1
#define I8042_AUX_IRQ 12
#define I8042_QUEUE_SIZE 32

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

#define REPLY_ACK 0xfa
#define REPLY_RESEND 0xfe
#define REPLY_POR 0xaa

/* State ------------------------------------------------------------------ */

typedef struct I8042State {
    ISADevice parent_obj;
    GMutex lock;
    uint8_t mode, status, outport;
    uint8_t pending_cmd;    /* controller command waiting for its data */
    uint8_t kbd_cmd;        /* keyboard command waiting for a parameter */
    uint8_t aux_cmd;        /* mouse command waiting for a parameter */
    uint8_t last;           /* what a read of an empty queue returns */
    uint8_t queue[I8042_QUEUE_SIZE];
    bool queue_aux[I8042_QUEUE_SIZE];
    unsigned head, count;
    int kbd_level, aux_level;
    bool reset_requested;   /* sent after the lock is dropped */
    MemoryRegion data_io, cmd_io;
    qemu_irq irq_kbd, irq_mouse;
    qemu_irq a20_out;

    /* Properties, as QEMU's */
    uint8_t kbd_irq, mouse_irq;
    bool extended_state, kbd_throttle;
} I8042State;

static void i8042_update_irq(I8042State *s)
{
    int kbd = 0, aux = 0;

    s->status &= ~(STAT_OBF | STAT_AUX_OBF);
    s->outport &= ~(OUT_OBF | OUT_AUX_OBF);
    if (s->count) {
        s->status |= STAT_OBF;
        s->outport |= OUT_OBF;
        if (s->queue_aux[s->head]) {
            s->status |= STAT_AUX_OBF;
            s->outport |= OUT_AUX_OBF;
            aux = !!(s->mode & MODE_AUX_INT);
        } else {
            kbd = !!(s->mode & MODE_KBD_INT);
        }
    }
    if (kbd != s->kbd_level) {
        s->kbd_level = kbd;
        qemu_set_irq(s->irq_kbd, kbd);
    }
    if (aux != s->aux_level) {
        s->aux_level = aux;
        qemu_set_irq(s->irq_mouse, aux);
    }
}

static void i8042_queue(I8042State *s, uint8_t byte, bool aux)
{
    unsigned tail;

    if (s->count == I8042_QUEUE_SIZE) {
        return;
    }
    tail = (s->head + s->count) % I8042_QUEUE_SIZE;
    s->queue[tail] = byte;
    s->queue_aux[tail] = aux;
    s->count++;
}

static void i8042_queue_flush(I8042State *s)
{
    s->head = 0;
    s->count = 0;
}

/* The PS/2 keyboard and mouse ---------------------------------------------- */

static void ps2_kbd_write(I8042State *s, uint8_t byte)
{
    bool translate = s->mode & MODE_TRANSLATE;

    if (s->kbd_cmd) {
        uint8_t cmd = s->kbd_cmd;

        s->kbd_cmd = 0;
        i8042_queue(s, REPLY_ACK, false);
        if (cmd == 0xf0 && byte == 0) {
            /* Scancode set 2, as the controller's translation shows it */
            i8042_queue(s, translate ? 0x41 : 0x02, false);
        }
        return;
    }
    switch (byte) {
    case 0xed: /* set LEDs */
    case 0xf3: /* typematic rate */
    case 0xf0: /* scancode set */
        s->kbd_cmd = byte;
        i8042_queue(s, REPLY_ACK, false);
        break;
    case 0xee: /* echo */
        i8042_queue(s, 0xee, false);
        break;
    case 0xf2: /* identify: MF2 keyboard */
        i8042_queue(s, REPLY_ACK, false);
        i8042_queue(s, 0xab, false);
        i8042_queue(s, translate ? 0x41 : 0x83, false);
        break;
    case 0xff: /* reset and self test */
        i8042_queue(s, REPLY_ACK, false);
        i8042_queue(s, REPLY_POR, false);
        break;
    case 0xf4: case 0xf5: case 0xf6: case 0xf7: case 0xf8:
    case 0xf9: case 0xfa: case 0xfb: case 0xfc: case 0xfd:
        i8042_queue(s, REPLY_ACK, false);
        break;
    default:
        i8042_queue(s, REPLY_RESEND, false);
        break;
    }
}

static void ps2_mouse_write(I8042State *s, uint8_t byte)
{
    if (s->aux_cmd) {
        s->aux_cmd = 0;
        i8042_queue(s, REPLY_ACK, true);
        return;
    }
    switch (byte) {
    case 0xe8: /* resolution */
    case 0xf3: /* sample rate */
        s->aux_cmd = byte;
        i8042_queue(s, REPLY_ACK, true);
        break;
    case 0xe9: /* status: stream mode, resolution 2, 100 samples/s */
        i8042_queue(s, REPLY_ACK, true);
        i8042_queue(s, 0x00, true);
        i8042_queue(s, 0x02, true);
        i8042_queue(s, 0x64, true);
        break;
    case 0xeb: /* read data: no movement */
        i8042_queue(s, REPLY_ACK, true);
        i8042_queue(s, 0x08, true);
        i8042_queue(s, 0x00, true);
        i8042_queue(s, 0x00, true);
        break;
    case 0xf2: /* device id: standard mouse */
        i8042_queue(s, REPLY_ACK, true);
        i8042_queue(s, 0x00, true);
        break;
    case 0xff: /* reset */
        i8042_queue(s, REPLY_ACK, true);
        i8042_queue(s, REPLY_POR, true);
        i8042_queue(s, 0x00, true);
        break;
    default:
        i8042_queue(s, REPLY_ACK, true);
        break;
    }
}

/* Register read/write ---------------------------------------------------- */

static void i8042_write_outport(I8042State *s, uint8_t value)
{
    s->outport = value | OUT_ONES;
    if (!(value & OUT_RESET)) {
        s->reset_requested = true;
    }
}

static void i8042_write_command(I8042State *s, uint8_t cmd)
{
    s->status |= STAT_CMD;
    switch (cmd) {
    case 0x20: /* read command byte */
        i8042_queue(s, s->mode, false);
        break;
    case 0x60: case 0xd1: case 0xd2: case 0xd3: case 0xd4:
        s->pending_cmd = cmd;
        break;
    case 0xa1: /* controller version */
        i8042_queue(s, 0x00, false);
        break;
    case 0xa7:
        s->mode |= MODE_DISABLE_AUX;
        break;
    case 0xa8:
        s->mode &= ~MODE_DISABLE_AUX;
        break;
    case 0xa9: /* aux interface test: no error */
    case 0xab: /* keyboard interface test: no error */
        i8042_queue(s, 0x00, false);
        break;
    case 0xaa: /* self test */
        s->status |= STAT_SELFTEST;
        i8042_queue(s, 0x55, false);
        break;
    case 0xad:
        s->mode |= MODE_DISABLE_KBD;
        break;
    case 0xae:
        s->mode &= ~MODE_DISABLE_KBD;
        break;
    case 0xc0: /* input port: keyboard not inhibited */
        i8042_queue(s, 0x80, false);
        break;
    case 0xd0: /* output port */
        i8042_queue(s, s->outport, false);
        break;
    case 0xdd:
        s->outport &= ~OUT_A20;
        break;
    case 0xdf:
        s->outport |= OUT_A20;
        break;
    case 0xe0: /* test inputs */
        i8042_queue(s, 0x00, false);
        break;
    default:
        /* 0xf0-0xff pulse output lines low; bit 0 is the CPU reset */
        if (cmd >= 0xf0 && !(cmd & 1)) {
            s->reset_requested = true;
        }
        break;
    }
}

static void i8042_write_data(I8042State *s, uint8_t value)
{
    uint8_t cmd = s->pending_cmd;

    s->status &= ~STAT_CMD;
    s->pending_cmd = 0;
    switch (cmd) {
    case 0x60:
        s->mode = value;
        break;
    case 0xd1:
        i8042_write_outport(s, value);
        break;
    case 0xd2:
        i8042_queue(s, value, false);
        break;
    case 0xd3:
        i8042_queue(s, value, true);
        break;
    case 0xd4:
        ps2_mouse_write(s, value);
        break;
    default:
        ps2_kbd_write(s, value);
        break;
    }
}

static uint8_t i8042_read(I8042State *s, bool cmd_port)
{
    uint8_t v;

    g_mutex_lock(&s->lock);
    if (cmd_port) {
        v = s->status;
    } else {
        if (s->count) {
            s->last = s->queue[s->head];
            s->head = (s->head + 1) % I8042_QUEUE_SIZE;
            s->count--;
        }
        v = s->last;
        i8042_update_irq(s);
    }
    g_mutex_unlock(&s->lock);
    return v;
}

static void i8042_write(I8042State *s, bool cmd_port, uint8_t value)
{
    bool reset;

    g_mutex_lock(&s->lock);
    if (cmd_port) {
        i8042_write_command(s, value);
    } else {
        i8042_write_data(s, value);
    }
    i8042_update_irq(s);
    reset = s->reset_requested;
    s->reset_requested = false;
    g_mutex_unlock(&s->lock);
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

    g_mutex_lock(&s->lock);
    s->mode = MODE_KBD_INT | MODE_AUX_INT;
    s->status = STAT_CMD | STAT_UNLOCKED;
    s->outport = OUT_RESET | OUT_A20 | OUT_ONES;
    s->pending_cmd = s->kbd_cmd = s->aux_cmd = 0;
    s->last = 0;
    i8042_queue_flush(s);
    i8042_update_irq(s);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void i8042_initfn(Object *obj)
{
    I8042State *s = (I8042State *)obj;

    g_mutex_init(&s->lock);
    memory_region_init_io(&s->data_io, obj, &i8042_data_ops, s, "i8042-data",
                          1);
    memory_region_init_io(&s->cmd_io, obj, &i8042_cmd_ops, s, "i8042-cmd", 1);
    qdev_init_gpio_out_named(DEVICE(obj), &s->a20_out, "a20", 1);
    qdev_init_gpio_out(DEVICE(obj), &s->irq_kbd, 1);
    qdev_init_gpio_out(DEVICE(obj), &s->irq_mouse, 1);
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
    isa_register_ioport(isadev, &s->data_io, I8042_DATA);
    isa_register_ioport(isadev, &s->cmd_io, I8042_CMD);
    qdev_connect_gpio_out(dev, 0, isa_get_irq(isadev, s->kbd_irq));
    qdev_connect_gpio_out(dev, 1, isa_get_irq(isadev, s->mouse_irq));
    return true;
}

static void i8042_finalize(Object *obj)
{
    g_mutex_clear(&((I8042State *)obj)->lock);
}

/* Property table --------------------------------------------------------- */

/* extended-state and kbd-throttle are QEMU's migration and input knobs */
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
