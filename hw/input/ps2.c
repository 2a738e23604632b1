/*
 * PS/2 keyboard and mouse (include/hw/input/ps2.h), answering the
 * commands a guest sends through the i8042 as QEMU 7.2's do.  No host
 * input reaches them (this tree has no display), so the keyboard never
 * types and the mouse never moves: their queues hold command replies
 * and the mouse's (motionless) packets.
 *
 * The keyboard puts its replies before any waiting scancodes (the
 * "command queue", cwptr) and a new command drops the replies not read
 * yet; the mouse queues replies after its data, and a full queue drops
 * a reply that does not fit whole, as 7.2 does.
 */
#include "hw/input/ps2.h"

#include "hw/qdev-core.h"

#define KBD_CMD_SET_LEDS 0xed
#define KBD_CMD_ECHO 0xee
#define KBD_CMD_SCANCODE 0xf0
#define KBD_CMD_GET_ID 0xf2
#define KBD_CMD_SET_RATE 0xf3
#define KBD_CMD_ENABLE 0xf4
#define KBD_CMD_RESET_DISABLE 0xf5
#define KBD_CMD_RESET_ENABLE 0xf6
#define KBD_CMD_SET_TYPEMATIC 0xfa
#define KBD_CMD_SET_MAKE_BREAK 0xfc
#define KBD_CMD_RESET 0xff

#define KBD_REPLY_POR 0xaa
#define KBD_REPLY_ID 0xab
#define KBD_REPLY_ACK 0xfa
#define KBD_REPLY_RESEND 0xfe

#define AUX_SET_SCALE11 0xe6
#define AUX_SET_SCALE21 0xe7
#define AUX_SET_RES 0xe8
#define AUX_GET_SCALE 0xe9
#define AUX_SET_STREAM 0xea
#define AUX_POLL 0xeb
#define AUX_RESET_WRAP 0xec
#define AUX_SET_WRAP 0xee
#define AUX_SET_REMOTE 0xf0
#define AUX_GET_TYPE 0xf2
#define AUX_SET_SAMPLE 0xf3
#define AUX_ENABLE_DEV 0xf4
#define AUX_DISABLE_DEV 0xf5
#define AUX_SET_DEFAULT 0xf6
#define AUX_RESET 0xff
#define AUX_ACK 0xfa

#define MOUSE_STATUS_REMOTE 0x40
#define MOUSE_STATUS_ENABLED 0x20
#define MOUSE_STATUS_SCALE21 0x10

#define PS2_NO_CMD (-1)

/*
 * Scancode set 2 -> set 1 for the three set numbers the keyboard reports
 * under the i8042's translation (a fact of the 8042, not of QEMU)
 */
static const uint8_t ps2_translated_set[4] = { 0xff, 0x43, 0x41, 0x3f };

/* The queue ---------------------------------------------------------------- */

static void ps2_reset_queue(PS2State *s)
{
    s->queue.rptr = 0;
    s->queue.wptr = 0;
    s->queue.cwptr = -1;
    s->queue.count = 0;
}

bool ps2_queue_empty(PS2State *s)
{
    return s->queue.count == 0;
}

static void ps2_put(PS2State *s, int b)
{
    PS2Queue *q = &s->queue;

    if (q->count >= PS2_QUEUE_SIZE) {
        return;
    }
    q->data[q->wptr] = b;
    q->wptr = (q->wptr + 1) % PS2_BUFFER_SIZE;
    q->count++;
}

/* Appends n bytes, or none if they do not all fit, and raises the line */
static void ps2_queue_n(PS2State *s, int n, const uint8_t *b)
{
    int i;

    if (PS2_QUEUE_SIZE - s->queue.count < n) {
        return;
    }
    for (i = 0; i < n; i++) {
        ps2_put(s, b[i]);
    }
    qemu_set_irq(s->irq, 1);
}

void ps2_queue(PS2State *s, int b)
{
    uint8_t v = b;

    ps2_queue_n(s, 1, &v);
}

/* A keyboard reply goes in front of the data waiting (the command queue) */
static void ps2_cqueue(PS2State *s, int n, int b1, int b2, int b3)
{
    PS2Queue *q = &s->queue;
    const int b[3] = { b1, b2, b3 };
    int i;

    q->rptr = (q->rptr - n) & (PS2_BUFFER_SIZE - 1);
    q->cwptr = q->rptr;
    for (i = 0; i < n; i++) {
        q->data[q->cwptr] = b[i];
        q->cwptr = (q->cwptr + 1) % PS2_BUFFER_SIZE;
        q->count++;
    }
    qemu_set_irq(s->irq, 1);
}

/* Drops the replies of the previous command that were not read */
static void ps2_cqueue_reset(PS2State *s)
{
    PS2Queue *q = &s->queue;

    if (q->cwptr == -1) {
        return;
    }
    q->count -= (q->cwptr - q->rptr) & (PS2_BUFFER_SIZE - 1);
    q->rptr = q->cwptr;
    q->cwptr = -1;
}

uint8_t ps2_read_data(PS2State *s)
{
    PS2Queue *q = &s->queue;
    uint8_t val;

    if (q->count == 0) {
        /* The last byte again: DOS memory managers read the port twice */
        return q->data[(q->rptr + PS2_BUFFER_SIZE - 1) % PS2_BUFFER_SIZE];
    }
    val = q->data[q->rptr];
    q->rptr = (q->rptr + 1) % PS2_BUFFER_SIZE;
    q->count--;
    if (q->rptr == q->cwptr) {
        q->cwptr = -1;
    }
    /* 7.2 lowers the line, then raises it again if more waits */
    qemu_set_irq(s->irq, 0);
    if (q->count) {
        qemu_set_irq(s->irq, 1);
    }
    return val;
}

/* The keyboard ------------------------------------------------------------- */

static void ps2_reset_keyboard(PS2KbdState *s)
{
    s->scan_enabled = 1;
    s->scancode_set = 2;
    ps2_reset_queue(PS2_DEVICE(s));
    s->ledstate = 0;
}

static void ps2_keyboard_command(PS2KbdState *s, int val)
{
    PS2State *ps2 = PS2_DEVICE(s);

    switch (val) {
    case 0x00:
        ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        break;
    case 0x05:
        ps2_cqueue(ps2, 1, KBD_REPLY_RESEND, 0, 0);
        break;
    case KBD_CMD_GET_ID:
        /* An MF2 keyboard; its second ID byte as translation shows it */
        ps2_cqueue(ps2, 3, KBD_REPLY_ACK, KBD_REPLY_ID,
                   s->translate ? 0x41 : 0x83);
        break;
    case KBD_CMD_ECHO:
        ps2_cqueue(ps2, 1, KBD_CMD_ECHO, 0, 0);
        break;
    case KBD_CMD_ENABLE:
        s->scan_enabled = 1;
        ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        break;
    case KBD_CMD_SCANCODE:
    case KBD_CMD_SET_LEDS:
    case KBD_CMD_SET_RATE:
    case KBD_CMD_SET_MAKE_BREAK:
        ps2->write_cmd = val;
        ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        break;
    case KBD_CMD_RESET_DISABLE:
    case KBD_CMD_RESET_ENABLE:
        ps2_reset_keyboard(s);
        s->scan_enabled = val == KBD_CMD_RESET_ENABLE;
        ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        break;
    case KBD_CMD_RESET:
        ps2_reset_keyboard(s);
        ps2_cqueue(ps2, 2, KBD_REPLY_ACK, KBD_REPLY_POR, 0);
        break;
    case KBD_CMD_SET_TYPEMATIC:
        ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        break;
    default:
        ps2_cqueue(ps2, 1, KBD_REPLY_RESEND, 0, 0);
        break;
    }
}

void ps2_write_keyboard(PS2KbdState *s, int val)
{
    PS2State *ps2 = PS2_DEVICE(s);
    int cmd = ps2->write_cmd;

    ps2_cqueue_reset(ps2);
    if (cmd != KBD_CMD_SCANCODE && cmd != KBD_CMD_SET_LEDS &&
        cmd != KBD_CMD_SET_RATE && cmd != KBD_CMD_SET_MAKE_BREAK) {
        ps2_keyboard_command(s, val);
        return;
    }
    ps2->write_cmd = PS2_NO_CMD;
    switch (cmd) {
    case KBD_CMD_SCANCODE:
        if (val == 0) {
            ps2_cqueue(ps2, 2, KBD_REPLY_ACK,
                       s->translate ? ps2_translated_set[s->scancode_set]
                                    : s->scancode_set, 0);
        } else if (val >= 1 && val <= 3) {
            s->scancode_set = val;
            ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        } else {
            ps2_cqueue(ps2, 1, KBD_REPLY_RESEND, 0, 0);
        }
        break;
    case KBD_CMD_SET_LEDS:
        s->ledstate = val;
        ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        break;
    default: /* the typematic rate, make/break mode: taken, not used */
        ps2_cqueue(ps2, 1, KBD_REPLY_ACK, 0, 0);
        break;
    }
}

void ps2_keyboard_set_translation(PS2KbdState *s, int mode)
{
    s->translate = mode;
}

/* The mouse ---------------------------------------------------------------- */

/* One packet of what moved since the last (never anything here) */
static void ps2_mouse_send_packet(PS2MouseState *s)
{
    PS2State *ps2 = PS2_DEVICE(s);
    int needed = s->mouse_type ? 4 : 3;
    int dx = s->mouse_dx, dy = s->mouse_dy, dz = s->mouse_dz;
    uint8_t b;

    if (PS2_QUEUE_SIZE - ps2->queue.count < needed) {
        return;
    }
    dx = dx > 127 ? 127 : dx < -127 ? -127 : dx;
    dy = dy > 127 ? 127 : dy < -127 ? -127 : dy;
    ps2_put(ps2, 0x08 | ((dx < 0) << 4) | ((dy < 0) << 5) |
                     (s->mouse_buttons & 0x07));
    ps2_put(ps2, dx & 0xff);
    ps2_put(ps2, dy & 0xff);
    if (s->mouse_type == 3) {
        dz = dz > 127 ? 127 : dz < -127 ? -127 : dz;
        ps2_put(ps2, dz & 0xff);
        s->mouse_dz -= dz;
        s->mouse_dw = 0;
    } else if (s->mouse_type == 4) {
        int dw = s->mouse_dw;

        if (dw) {
            dw = dw > 31 ? 31 : dw < -31 ? -31 : dw;
            b = (dw & 0x3f) | 0x40;
            s->mouse_dw -= dw;
        } else {
            dz = dz > 7 ? 7 : dz < -7 ? -7 : dz;
            b = (dz & 0x0f) | ((s->mouse_buttons & 0x18) << 1);
            s->mouse_dz -= dz;
        }
        ps2_put(ps2, b);
    } else {
        s->mouse_dz = 0;
        s->mouse_dw = 0;
    }
    qemu_set_irq(ps2->irq, 1);
    s->mouse_dx -= dx;
    s->mouse_dy -= dy;
}

static void ps2_mouse_defaults(PS2MouseState *s)
{
    s->mouse_sample_rate = 100;
    s->mouse_resolution = 2;
    s->mouse_status = 0;
}

/*
 * Sample rates 200, 100, 80 in a row turn on the IntelliMouse wheel
 * (type 3), 200, 200, 80 the Explorer's buttons 4 and 5 (type 4)
 */
static void ps2_mouse_detect(PS2MouseState *s, uint8_t rate)
{
    switch (s->mouse_detect_state) {
    case 1:
        s->mouse_detect_state = rate == 100 ? 2 : rate == 200 ? 3 : 0;
        break;
    case 2:
    case 3:
        if (rate == 80) {
            s->mouse_type = s->mouse_detect_state == 2 ? 3 : 4;
        }
        s->mouse_detect_state = 0;
        break;
    default:
        if (rate == 200) {
            s->mouse_detect_state = 1;
        }
        break;
    }
}

static void ps2_mouse_command(PS2MouseState *s, int val)
{
    PS2State *ps2 = PS2_DEVICE(s);

    switch (val) {
    case AUX_SET_SCALE11:
        s->mouse_status &= ~MOUSE_STATUS_SCALE21;
        break;
    case AUX_SET_SCALE21:
        s->mouse_status |= MOUSE_STATUS_SCALE21;
        break;
    case AUX_SET_STREAM:
        s->mouse_status &= ~MOUSE_STATUS_REMOTE;
        break;
    case AUX_SET_WRAP:
        s->mouse_wrap = 1;
        break;
    case AUX_SET_REMOTE:
        s->mouse_status |= MOUSE_STATUS_REMOTE;
        break;
    case AUX_GET_TYPE: {
        const uint8_t r[] = { AUX_ACK, s->mouse_type };

        ps2_queue_n(ps2, 2, r);
        return;
    }
    case AUX_SET_RES:
    case AUX_SET_SAMPLE:
        ps2->write_cmd = val;
        break;
    case AUX_GET_SCALE: {
        const uint8_t r[] = { AUX_ACK, s->mouse_status, s->mouse_resolution,
                              s->mouse_sample_rate };

        ps2_queue_n(ps2, 4, r);
        return;
    }
    case AUX_POLL:
        ps2_queue(ps2, AUX_ACK);
        ps2_mouse_send_packet(s);
        return;
    case AUX_ENABLE_DEV:
        s->mouse_status |= MOUSE_STATUS_ENABLED;
        break;
    case AUX_DISABLE_DEV:
        s->mouse_status &= ~MOUSE_STATUS_ENABLED;
        break;
    case AUX_SET_DEFAULT:
        ps2_mouse_defaults(s);
        break;
    case AUX_RESET: {
        const uint8_t r[] = { AUX_ACK, KBD_REPLY_POR, 0 };

        ps2_mouse_defaults(s);
        s->mouse_type = 0;
        ps2_reset_queue(ps2);
        ps2_queue_n(ps2, 3, r);
        return;
    }
    default:
        /* 7.2's mouse does not answer a command it does not know */
        return;
    }
    ps2_queue(ps2, AUX_ACK);
}

void ps2_write_mouse(PS2MouseState *s, int val)
{
    PS2State *ps2 = PS2_DEVICE(s);

    switch (ps2->write_cmd) {
    case AUX_SET_SAMPLE:
        s->mouse_sample_rate = val;
        ps2_mouse_detect(s, val);
        break;
    case AUX_SET_RES:
        s->mouse_resolution = val;
        break;
    default:
        /* Wrap mode echoes every byte but its own end and reset */
        if (s->mouse_wrap) {
            if (val == AUX_RESET_WRAP) {
                s->mouse_wrap = 0;
                ps2_queue(ps2, AUX_ACK);
                return;
            } else if (val != AUX_RESET) {
                ps2_queue(ps2, val);
                return;
            }
        }
        ps2_mouse_command(s, val);
        return;
    }
    ps2_queue(ps2, AUX_ACK);
    ps2->write_cmd = PS2_NO_CMD;
}

/* Reset -------------------------------------------------------------------- */

static void ps2_reset(DeviceState *dev)
{
    PS2State *s = PS2_DEVICE(dev);

    s->write_cmd = PS2_NO_CMD;
    ps2_reset_queue(s);
    qemu_set_irq(s->irq, 0);
}

static void ps2_kbd_reset(DeviceState *dev)
{
    PS2KbdState *s = PS2_KBD_DEVICE(dev);

    ps2_reset(dev);
    s->scan_enabled = 1;
    s->translate = 0;
    s->scancode_set = 2;
}

static void ps2_mouse_reset(DeviceState *dev)
{
    PS2MouseState *s = PS2_MOUSE_DEVICE(dev);

    ps2_reset(dev);
    /* 0 until the guest resets it or asks for defaults, as in 7.2 */
    s->mouse_status = 0;
    s->mouse_resolution = 0;
    s->mouse_sample_rate = 0;
    s->mouse_wrap = 0;
    s->mouse_type = 0;
    s->mouse_detect_state = 0;
    s->mouse_dx = s->mouse_dy = s->mouse_dz = s->mouse_dw = 0;
    s->mouse_buttons = 0;
}

/* Realize ------------------------------------------------------------------ */

static void ps2_initfn(Object *obj)
{
    PS2State *s = PS2_DEVICE(obj);

    s->write_cmd = PS2_NO_CMD;
    s->queue.cwptr = -1;
    qdev_init_gpio_out(DEVICE(obj), &s->irq, 1);
}

/* Registration ------------------------------------------------------------- */

static void ps2_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->reset = ps2_reset;
    dc->categories = 1u << DEVICE_CATEGORY_INPUT;
}

static void ps2_kbd_class_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->reset = ps2_kbd_reset;
}

static void ps2_mouse_class_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->reset = ps2_mouse_reset;
}

static const TypeInfo ps2_info = {
    .name = TYPE_PS2_DEVICE,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(PS2State),
    .instance_init = ps2_initfn,
    .class_init = ps2_class_init,
    .abstract = true,
};

static const TypeInfo ps2_kbd_info = {
    .name = TYPE_PS2_KBD_DEVICE,
    .parent = TYPE_PS2_DEVICE,
    .instance_size = sizeof(PS2KbdState),
    .class_init = ps2_kbd_class_init,
};

static const TypeInfo ps2_mouse_info = {
    .name = TYPE_PS2_MOUSE_DEVICE,
    .parent = TYPE_PS2_DEVICE,
    .instance_size = sizeof(PS2MouseState),
    .class_init = ps2_mouse_class_init,
};

static void ps2_register_types(void)
{
    type_register_static(&ps2_info);
    type_register_static(&ps2_kbd_info);
    type_register_static(&ps2_mouse_info);
}
type_init(ps2_register_types)
