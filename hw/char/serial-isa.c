/*
 * isa-serial: the 16550A model (hw/char/serial.c) on a COM port.
 *
 * Threads: the guest's port accesses arrive on vCPU threads, chardev input
 * on the main thread; one mutex per port guards the model.  A vCPU never
 * writes to the chardev itself: output collects in a bounded buffer that
 * the main loop sends.  While the buffer is full the UART keeps THRE
 * clear, so a guest that polls LSR waits as it would for a slow line.
 * Input waits in a small buffer and moves into the receive FIFO as the
 * guest makes room (on its RBR reads, without a trip through the main
 * loop); the chardev is read only as far as that buffer has room, so the
 * Ctrl-A escapes below work even while the guest reads nothing.
 *
 * -serial mon:stdio and -nographic add QEMU's Ctrl-A escapes on input:
 * Ctrl-A x quits, Ctrl-A c switches the keyboard between the guest and
 * the human monitor (monitor/hmp.c), Ctrl-A Ctrl-A sends a Ctrl-A.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "chardev/char.h"
#include "monitor/hmp.h"
#include "hw/char/serial.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "sysemu/runstate.h"

/* What the main loop has not sent yet; beyond it the UART holds back */
#define SERIAL_OUT_MAX 4096
/* Input taken from the chardev that the UART has no room for yet */
#define SERIAL_IN_MAX 64

/* State ------------------------------------------------------------------ */

/* QEMU's "serial": the UART's own properties; isa-serial shows them */
typedef struct SerialDevice {
    DeviceState parent_obj;
    Chardev *chr;
    uint32_t baudbase;      /* no line timing here: kept, not used */
    bool wakeup;
} SerialDevice;

typedef struct ISASerialState {
    ISADevice parent_obj;
    SerialDevice serial;    /* child "serial" */
    GMutex lock;
    SerialState uart;
    Chardev *chr;
    uint32_t index, iobase, isairq;     /* properties; -1: from index */
    MemoryRegion io;
    qemu_irq irq;
    GByteArray *out;        /* for the chardev, sent by the main loop */
    GByteArray *in;         /* from the chardev, waiting for UART room */
    bool flush_scheduled;
    bool input_blocked;     /* can_read said 0: resume when in drains */
    bool accept_scheduled;
    bool mux_escapes;       /* Ctrl-A commands (mon:stdio) */
    bool escape_pending;    /* the last input byte was Ctrl-A */
    bool monitor_focus;     /* Ctrl-A c: input goes to the monitor */
    HMPSession *monitor;    /* created at the first Ctrl-A c */
} ISASerialState;

static const uint16_t isa_serial_io[MAX_ISA_SERIAL_PORTS] = {
    0x3f8, 0x2f8, 0x3e8, 0x2e8,
};
static const int isa_serial_irq[MAX_ISA_SERIAL_PORTS] = { 4, 3, 4, 3 };

/* Realized ports, flushed at exit (the last guest output is not lost) */
static GPtrArray *isa_serials;
static bool flush_at_exit;

/* Main-loop work --------------------------------------------------------- */

static gboolean isa_serial_flush_cb(gpointer opaque)
{
    ISASerialState *s = opaque;
    GByteArray *data;

    g_mutex_lock(&s->lock);
    data = s->out;
    s->out = g_byte_array_new();
    s->flush_scheduled = false;
    g_mutex_unlock(&s->lock);

    if (data->len && s->chr) {
        qemu_chr_write_all(s->chr, data->data, data->len);
    }
    g_byte_array_unref(data);

    g_mutex_lock(&s->lock);
    serial_tx_kick(&s->uart);
    g_mutex_unlock(&s->lock);
    return G_SOURCE_REMOVE;
}

static gboolean isa_serial_accept_cb(gpointer opaque)
{
    ISASerialState *s = opaque;

    g_mutex_lock(&s->lock);
    s->accept_scheduled = false;
    s->input_blocked = false;
    g_mutex_unlock(&s->lock);
    if (s->chr) {
        qemu_chr_accept_input(s->chr);
    }
    return G_SOURCE_REMOVE;
}

/* At exit, on the main thread: what the guest wrote last is not lost */
static void isa_serial_flush_all(void)
{
    guint i;

    for (i = 0; isa_serials && i < isa_serials->len; i++) {
        ISASerialState *s = g_ptr_array_index(isa_serials, i);

        if (s) {
            g_mutex_lock(&s->lock);
            if (s->out->len && s->chr) {
                qemu_chr_write_all(s->chr, s->out->data, s->out->len);
            }
            g_byte_array_set_size(s->out, 0);
            g_mutex_unlock(&s->lock);
        }
    }
}

/* Model callbacks (lock held) -------------------------------------------- */

static void isa_serial_irq_cb(void *opaque, int level)
{
    ISASerialState *s = opaque;

    qemu_set_irq(s->irq, level);
}

static bool isa_serial_tx_cb(void *opaque, uint8_t byte)
{
    ISASerialState *s = opaque;

    if (s->out->len >= SERIAL_OUT_MAX) {
        return false;
    }
    g_byte_array_append(s->out, &byte, 1);
    if (!s->flush_scheduled) {
        s->flush_scheduled = true;
        g_idle_add(isa_serial_flush_cb, s);
    }
    return true;
}

/* Moves buffered input into the UART as far as it has room */
static void isa_serial_feed(ISASerialState *s)
{
    size_t n = MIN(serial_can_receive(&s->uart), s->in->len);

    if (n) {
        serial_receive(&s->uart, s->in->data, n);
        g_byte_array_remove_range(s->in, 0, n);
    }
    if (s->input_blocked && !s->accept_scheduled &&
        s->in->len < SERIAL_IN_MAX) {
        s->accept_scheduled = true;
        g_idle_add(isa_serial_accept_cb, s);
    }
}

/* Register read/write ---------------------------------------------------- */

static uint64_t isa_serial_ioport_read(void *opaque, hwaddr addr,
                                       unsigned size)
{
    ISASerialState *s = opaque;
    uint8_t v;

    g_mutex_lock(&s->lock);
    v = serial_read(&s->uart, addr & 7);
    if (s->in->len) {
        isa_serial_feed(s);
    }
    g_mutex_unlock(&s->lock);
    return v;
}

static void isa_serial_ioport_write(void *opaque, hwaddr addr, uint64_t value,
                                    unsigned size)
{
    ISASerialState *s = opaque;

    g_mutex_lock(&s->lock);
    serial_write(&s->uart, addr & 7, value);
    g_mutex_unlock(&s->lock);
}

/* QEMU 7.2's serial_io_ops: byte registers, any alignment */
static const MemoryRegionOps isa_serial_io_ops = {
    .read = isa_serial_ioport_read,
    .write = isa_serial_ioport_write,
    .valid.unaligned = true,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Chardev input (main thread) -------------------------------------------- */

static size_t isa_serial_can_read(void *opaque)
{
    ISASerialState *s = opaque;
    size_t n;

    g_mutex_lock(&s->lock);
    n = SERIAL_IN_MAX - s->in->len;
    if (!n) {
        s->input_blocked = true;
    }
    g_mutex_unlock(&s->lock);
    return n;
}

static void isa_serial_quit(ISASerialState *s)
{
    static const char msg[] = "QEMU: Terminated\n\r";

    qemu_chr_write_all(s->chr, (const uint8_t *)msg, strlen(msg));
    qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_UI);
}

static void isa_serial_monitor_write(void *opaque, const char *str)
{
    ISASerialState *s = opaque;

    qemu_chr_write_all(s->chr, (const uint8_t *)str, strlen(str));
}

/* Ctrl-A c: the monitor takes the keyboard, or gives it back */
static void isa_serial_toggle_monitor(ISASerialState *s)
{
    s->monitor_focus = !s->monitor_focus;
    if (!s->monitor_focus) {
        return;
    }
    if (!s->monitor) {
        s->monitor = hmp_session_new(isa_serial_monitor_write, s);
        hmp_session_banner(s->monitor);
    } else {
        isa_serial_monitor_write(s, "\r\n(qemu) ");
    }
}

/*
 * Input, on the main thread.  Bytes for the guest collect under the lock;
 * the monitor and the escapes run without it (they may stop the vCPUs).
 */
static void isa_serial_chr_read(void *opaque, const uint8_t *buf,
                                size_t len)
{
    ISASerialState *s = opaque;
    size_t i;

    if (!s->mux_escapes) {
        g_mutex_lock(&s->lock);
        g_byte_array_append(s->in, buf, len);
        isa_serial_feed(s);
        g_mutex_unlock(&s->lock);
        return;
    }
    for (i = 0; i < len; i++) {
        uint8_t c = buf[i];

        if (!s->escape_pending && c == 0x01) {
            s->escape_pending = true;
            continue;
        }
        if (s->escape_pending) {
            s->escape_pending = false;
            if (c == 'x') {
                isa_serial_quit(s);
                return;
            }
            if (c == 'c') {
                isa_serial_toggle_monitor(s);
                continue;
            }
            if (c != 0x01 && c != 'a') {
                continue; /* other escapes have no function here */
            }
            c = 0x01;
        }
        if (s->monitor_focus) {
            hmp_session_input(s->monitor, &c, 1);
            continue;
        }
        g_mutex_lock(&s->lock);
        g_byte_array_append(s->in, &c, 1);
        isa_serial_feed(s);
        g_mutex_unlock(&s->lock);
    }
}

/* Reset ------------------------------------------------------------------ */

static void isa_serial_reset(DeviceState *dev)
{
    ISASerialState *s = (ISASerialState *)dev;

    g_mutex_lock(&s->lock);
    serial_reset(&s->uart);
    isa_serial_feed(s);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static bool serial_chr_mux_escapes(Chardev *chr);

static void isa_serial_initfn(Object *obj)
{
    ISASerialState *s = (ISASerialState *)obj;

    g_mutex_init(&s->lock);
    s->out = g_byte_array_new();
    s->in = g_byte_array_new();
    serial_init(&s->uart, isa_serial_irq_cb, isa_serial_tx_cb, s);
    /* QEMU's isa-serial holds a "serial" device and shows its properties */
    object_initialize_child(obj, "serial", &s->serial, sizeof(s->serial),
                            TYPE_SERIAL);
    object_property_add_alias(obj, "wakeup", OBJECT(&s->serial), "wakeup");
    object_property_add_alias(obj, "chardev", OBJECT(&s->serial), "chardev");
    object_property_add_alias(obj, "baudbase", OBJECT(&s->serial),
                              "baudbase");
}

static bool isa_serial_realize(DeviceState *dev, Error **errp)
{
    /* Ports without an index take the next one, as QEMU counts them */
    static uint32_t next_index;
    ISASerialState *s = (ISASerialState *)dev;
    ChardevHandlers h = {
        .read = isa_serial_chr_read,
        .can_read = isa_serial_can_read,
        .opaque = s,
    };

    if (s->index == UINT32_MAX) {
        s->index = next_index;
    }
    if (s->index >= MAX_ISA_SERIAL_PORTS) {
        error_setg(errp, "Max. supported number of ISA serial ports is %d.",
                   MAX_ISA_SERIAL_PORTS);
        return false;
    }
    if (s->iobase == UINT32_MAX) {
        s->iobase = isa_serial_io[s->index];
    }
    if (s->isairq == UINT32_MAX) {
        s->isairq = isa_serial_irq[s->index];
    }
    next_index++;
    /* QEMU asserts here; a bad property is an error for the user */
    if (s->isairq >= ISA_NUM_IRQS) {
        error_setg(errp, "isa-serial: irq %u is out of range", s->isairq);
        return false;
    }
    s->irq = isa_get_irq(ISA_DEVICE(dev), s->isairq);
    if (!qdev_realize(DEVICE(&s->serial), NULL, errp)) {
        return false;
    }
    s->chr = s->serial.chr;
    s->mux_escapes = s->chr && serial_chr_mux_escapes(s->chr);
    if (s->chr && !qemu_chr_set_handlers(s->chr, &h, errp)) {
        return false;
    }
    memory_region_init_io(&s->io, OBJECT(dev), &isa_serial_io_ops, s,
                          "serial", 8);
    isa_register_ioport(ISA_DEVICE(dev), &s->io, s->iobase);
    if (!isa_serials) {
        isa_serials = g_ptr_array_new();
    }
    g_ptr_array_add(isa_serials, s);
    if (!flush_at_exit) {
        flush_at_exit = true;
        atexit(isa_serial_flush_all);
    }
    return true;
}

static void isa_serial_finalize(Object *obj)
{
    ISASerialState *s = (ISASerialState *)obj;

    if (isa_serials) {
        g_ptr_array_remove(isa_serials, s);
    }
    g_byte_array_unref(s->out);
    g_byte_array_unref(s->in);
    g_mutex_clear(&s->lock);
}

/* Property tables --------------------------------------------------------- */

static Property isa_serial_properties[] = {
    DEFINE_PROP_UINT32("index", ISASerialState, index, -1),
    DEFINE_PROP_UINT32("iobase", ISASerialState, iobase, -1),
    DEFINE_PROP_UINT32("irq", ISASerialState, isairq, -1),
    DEFINE_PROP_END_OF_LIST(),
};

static Property serial_properties[] = {
    DEFINE_PROP_CHR("chardev", SerialDevice, chr),
    DEFINE_PROP_UINT32("baudbase", SerialDevice, baudbase, 115200),
    DEFINE_PROP_BOOL("wakeup", SerialDevice, wakeup, false),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration: the types -------------------------------------------------- */

static void serial_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    device_class_set_props(dc, serial_properties);
    /* Only inside a bus device (isa-serial) */
    dc->user_creatable = false;
}

static void isa_serial_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = isa_serial_realize;
    dc->reset = isa_serial_reset;
    device_class_set_props(dc, isa_serial_properties);
    dc->categories = 1u << DEVICE_CATEGORY_INPUT;
}

static const TypeInfo serial_info = {
    .name = TYPE_SERIAL,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(SerialDevice),
    .class_init = serial_class_init,
};

static const TypeInfo isa_serial_info = {
    .name = TYPE_ISA_SERIAL,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISASerialState),
    .instance_init = isa_serial_initfn,
    .instance_finalize = isa_serial_finalize,
    .class_init = isa_serial_class_init,
};

static void isa_serial_register_types(void)
{
    type_register_static(&serial_info);
    type_register_static(&isa_serial_info);
}
type_init(isa_serial_register_types)

/* Registration: -serial ---------------------------------------------------- */

typedef struct SerialHd {
    char *spec;             /* as given, for errors */
    char *chardev_ref;      /* chardev:ID, resolved at creation */
    Chardev *chr;
    bool none, mux_escapes;
} SerialHd;

static GPtrArray *serial_hds;

/* -serial's shorthand as a -chardev option string; NULL if unknown */
static char *serial_spec_to_chardev(const char *spec, bool *mux_escapes)
{

    *mux_escapes = false;
    if (g_str_has_prefix(spec, "mon:")) {
        spec += 4;
        *mux_escapes = true;
    }
    if (!strcmp(spec, "stdio")) {
        /* With Ctrl-A escapes, Ctrl-C goes to the guest as in QEMU */
        return g_strdup(*mux_escapes ? "stdio,signal=off" : "stdio");
    }
    /* No consoles in this build: a vc is a sink, as QEMU's -display none */
    return qemu_chr_legacy_to_opts(spec);
}

bool serial_hds_add(const char *spec, Error **errp)
{
    SerialHd *hd = g_new0(SerialHd, 1);
    char *id, *optstr;

    if (!serial_hds) {
        serial_hds = g_ptr_array_new();
    }
    hd->spec = g_strdup(spec);
    if (!strcmp(spec, "none")) {
        hd->none = true;
    } else if (g_str_has_prefix(spec, "chardev:")) {
        hd->chardev_ref = g_strdup(spec + 8);
    } else {
        optstr = serial_spec_to_chardev(spec, &hd->mux_escapes);
        if (!optstr) {
            error_setg(errp, "'%s' is not a valid char driver", spec);
            goto fail;
        }
        id = g_strdup_printf("serial%u", serial_hds->len);
        hd->chr = qemu_chr_new_from_str(id, optstr, errp);
        g_free(id);
        g_free(optstr);
        if (!hd->chr) {
            goto fail;
        }
    }
    g_ptr_array_add(serial_hds, hd);
    return true;

fail:
    g_free(hd->spec);
    g_free(hd);
    return false;
}

int serial_hds_count(void)
{
    return serial_hds ? serial_hds->len : 0;
}

bool serial_hd_present(int index)
{
    return index < serial_hds_count() &&
           !((SerialHd *)g_ptr_array_index(serial_hds, index))->none;
}

/* -serial mon:stdio: the port's input understands QEMU's Ctrl-A escapes */
static bool serial_chr_mux_escapes(Chardev *chr)
{
    guint i;

    for (i = 0; serial_hds && i < serial_hds->len; i++) {
        SerialHd *hd = g_ptr_array_index(serial_hds, i);

        if (hd->chr == chr) {
            return hd->mux_escapes;
        }
    }
    return false;
}

/* COM1..COM4 for the -serial options, as QEMU's serial_hds_isa_init */
bool serial_hds_create(ISABus *bus, const char *default_spec, Error **errp)
{
    guint i;

    if (default_spec && !serial_hds_count() &&
        !serial_hds_add(default_spec, errp)) {
        return false;
    }
    for (i = 0; i < (guint)serial_hds_count() && i < MAX_ISA_SERIAL_PORTS;
         i++) {
        SerialHd *hd = g_ptr_array_index(serial_hds, i);
        ISADevice *dev;

        if (hd->none) {
            continue;
        }
        if (hd->chardev_ref) {
            hd->chr = qemu_chr_find(hd->chardev_ref);
            if (!hd->chr) {
                error_setg(errp, "-serial %s: chardev '%s' not found",
                           hd->spec, hd->chardev_ref);
                return false;
            }
        }
        dev = isa_new(TYPE_ISA_SERIAL);
        qdev_prop_set_uint32(DEVICE(dev), "index", i);
        qdev_prop_set_chr(DEVICE(dev), "chardev", hd->chr);
        if (!isa_realize_and_unref(dev, bus, errp)) {
            error_prepend(errp, "-serial %s: ", hd->spec);
            return false;
        }
    }
    return true;
}
