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
#include "exec/memory.h"
#include "monitor/hmp.h"
#include "hw/char/serial.h"
#include "hw/irq.h"
#include "sysemu/device.h"
#include "sysemu/reset.h"
#include "sysemu/runstate.h"

/* What the main loop has not sent yet; beyond it the UART holds back */
#define SERIAL_OUT_MAX 4096
/* Input taken from the chardev that the UART has no room for yet */
#define SERIAL_IN_MAX 64

/* State ------------------------------------------------------------------ */

typedef struct ISASerialState {
    GMutex lock;
    SerialState uart;
    Chardev *chr;
    int index;
    uint16_t iobase;
    int irq;
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

static ISASerialState *isa_serials[MAX_ISA_SERIAL_PORTS];
static bool isa_serial_index_used[MAX_ISA_SERIAL_PORTS];
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
    int i;

    for (i = 0; i < MAX_ISA_SERIAL_PORTS; i++) {
        ISASerialState *s = isa_serials[i];

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

    pc_set_irq(s->irq, level);
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

static uint32_t isa_serial_ioport_read(void *opaque, uint16_t offset,
                                       unsigned size)
{
    ISASerialState *s = opaque;
    uint32_t v = 0;
    unsigned i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < size; i++) {
        v |= (uint32_t)serial_read(&s->uart, offset + i) << (8 * i);
    }
    if (s->in->len) {
        isa_serial_feed(s);
    }
    g_mutex_unlock(&s->lock);
    return v;
}

static void isa_serial_ioport_write(void *opaque, uint16_t offset,
                                    unsigned size, uint32_t value)
{
    ISASerialState *s = opaque;
    unsigned i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < size; i++) {
        serial_write(&s->uart, offset + i, value >> (8 * i));
    }
    g_mutex_unlock(&s->lock);
}

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

static void isa_serial_reset(void *opaque)
{
    ISASerialState *s = opaque;

    g_mutex_lock(&s->lock);
    serial_reset(&s->uart);
    isa_serial_feed(s);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static bool isa_serial_realize(int index, int64_t iobase, int64_t irq,
                               Chardev *chr, bool mux_escapes, Error **errp)
{
    ChardevHandlers h = {
        .read = isa_serial_chr_read,
        .can_read = isa_serial_can_read,
    };
    ISASerialState *s;

    if (index < 0) {
        for (index = 0; index < MAX_ISA_SERIAL_PORTS; index++) {
            if (!isa_serial_index_used[index]) {
                break;
            }
        }
    }
    if (index >= MAX_ISA_SERIAL_PORTS) {
        error_setg(errp, "Max. supported number of ISA serial ports is %d.",
                   MAX_ISA_SERIAL_PORTS);
        return false;
    }
    s = g_new0(ISASerialState, 1);
    g_mutex_init(&s->lock);
    s->index = index;
    s->iobase = iobase >= 0 ? iobase : isa_serial_io[index];
    s->irq = irq >= 0 ? irq : isa_serial_irq[index];
    s->chr = chr;
    s->mux_escapes = mux_escapes;
    s->out = g_byte_array_new();
    s->in = g_byte_array_new();
    serial_init(&s->uart, isa_serial_irq_cb, isa_serial_tx_cb, s);
    h.opaque = s;
    if (chr && !qemu_chr_set_handlers(chr, &h, errp)) {
        goto fail;
    }
    if (!ioport_register(s->iobase, 8, isa_serial_ioport_read,
                         isa_serial_ioport_write, s)) {
        error_setg(errp, "isa-serial: I/O ports 0x%x-0x%x are in use",
                   s->iobase, s->iobase + 7);
        goto fail;
    }
    isa_serial_index_used[index] = true;
    if (!isa_serials[index]) {
        isa_serials[index] = s;
    }
    qemu_register_reset(isa_serial_reset, s);
    if (!flush_at_exit) {
        flush_at_exit = true;
        atexit(isa_serial_flush_all);
    }
    return true;

fail:
    g_byte_array_unref(s->out);
    g_byte_array_unref(s->in);
    g_mutex_clear(&s->lock);
    g_free(s);
    return false;
}

/* Property table --------------------------------------------------------- */

/* -device isa-serial's numeric properties (absent: from the index) */
static const struct {
    const char *name;
    int64_t max;
} isa_serial_props[] = {
    { "index", 0xfffffffeLL },
    { "iobase", 0xfff8 },
    { "irq", 23 },
};

bool isa_serial_device_create(QemuOpts *opts, const char *id, Error **errp)
{
    const char *chr_id = qemu_opt_get(opts, "chardev");
    int64_t vals[G_N_ELEMENTS(isa_serial_props)];
    Chardev *chr = NULL;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(isa_serial_props); i++) {
        const char *name = isa_serial_props[i].name;
        uint32_t v;

        if (!device_prop_get_uint(opts, name, 32, UINT32_MAX, &v, errp)) {
            return false;
        }
        if (v != UINT32_MAX && v > isa_serial_props[i].max) {
            error_setg(errp, "isa-serial: %s 0x%x is out of range", name, v);
            return false;
        }
        vals[i] = v == UINT32_MAX ? -1 : (int64_t)v;
    }
    if (chr_id) {
        chr = qemu_chr_find(chr_id);
        if (!chr) {
            error_setg(errp, "Property 'serial.chardev' can't find value '%s'",
                       chr_id);
            return false;
        }
    }
    return isa_serial_realize(vals[0], vals[1], vals[2], chr, false, errp);
}

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

bool serial_hds_create(const char *default_spec, Error **errp)
{
    guint i;

    if (default_spec && !serial_hds_count() &&
        !serial_hds_add(default_spec, errp)) {
        return false;
    }
    for (i = 0; i < (guint)serial_hds_count() && i < MAX_ISA_SERIAL_PORTS;
         i++) {
        SerialHd *hd = g_ptr_array_index(serial_hds, i);

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
        if (!isa_serial_realize(i, -1, -1, hd->chr, hd->mux_escapes, errp)) {
            error_prepend(errp, "-serial %s: ", hd->spec);
            return false;
        }
    }
    return true;
}
