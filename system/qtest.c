/*
 * The qtest server (design §5): QEMU's qtest line protocol, so that test
 * programs written for upstream's libqtest drive this emulator unchanged.
 *
 * Protocol
 * --------
 * Requests are lines of words separated by single spaces and ended by
 * "\n".  Numbers (ADDR, SIZE, VALUE, NS, NUM, LEVEL) are C integers in
 * any base strtoull() accepts with base 0 (0x1f, 017, 31).  Every request
 * gets exactly one reply line:
 *
 *   OK [VALUE]       success, with the command's result if it has one
 *   FAIL [MESSAGE]   the command is known but could not be carried out
 *   ERR MESSAGE      malformed arguments
 *
 * Asynchronous lines "IRQ raise NUM" / "IRQ lower NUM" (intercepted
 * interrupt lines changing level) may come before any reply.
 *
 *   > outb ADDR VALUE          < OK        (also outw, outl; ADDR <= 0xffff)
 *   > inb ADDR                 < OK 0x%04x (also inw, inl: "OK 0x00ff")
 *   > writeb ADDR VALUE        < OK        (also writew, writel, writeq)
 *   > readb ADDR               < OK 0x%016x (also readw, readl, readq)
 *   > read ADDR SIZE           < OK 0xHEX  (SIZE bytes, two digits each)
 *   > write ADDR SIZE 0xHEX    < OK        (short data is zero-filled;
 *                                          "ERR invalid argument size" if
 *                                          the data has no digits)
 *   > b64read ADDR SIZE        < OK BASE64
 *   > b64write ADDR SIZE BASE64 < OK       (sizes differ: the shorter one)
 *   > memset ADDR SIZE VALUE   < OK        (SIZE 0 does nothing)
 *     read, write, b64read and b64write take at most 64 MiB: beyond,
 *     "ERR invalid argument size" (QEMU aborts if it cannot allocate)
 *   > clock_step               < OK NS     (to the next timer deadline of
 *                                          the virtual clock; nowhere
 *                                          without one)
 *   > clock_step NS            < OK NS     (forward by NS)
 *   > clock_set NS             < OK NS     (forward to NS)
 *     The clock never goes back: a step of 0 or less, or a time already
 *     past, leaves it, and the reply is the time it has (QEMU 7.2.0's
 *     answers; later QEMUs answer FAIL there).  On its way the clock
 *     stops at every timer deadline and runs those timers, so a device's
 *     interrupt lines ("IRQ raise") come before the OK.
 *   > endianness               < OK little
 *   > irq_intercept_in PATH    < OK        (PC: "irq_intercept_in ioapic";
 *   > irq_intercept_out PATH [NAME] < OK   FAIL Unknown device / IRQ
 *                                          intercept already enabled /
 *                                          No intercepts installed)
 *   > set_irq_in PATH NAME NUM LEVEL < OK  (NAME "unnamed-gpio-in" is the
 *                                          unnamed list)
 *   > module_load PREFIX NAME  < FAIL      (this build has no modules)
 *   > anything else            < FAIL Unknown command 'WORD'
 *
 * Memory accesses use guest-physical addresses: RAM and devices answer,
 * unassigned memory reads zeros and ignores writes (as QEMU 7.2), ports
 * nobody claims read all-ones.  Multi-byte values are
 * little-endian in memory.  clock_step and clock_set exist only under
 * -accel qtest (elsewhere they are unknown commands, as in QEMU).  Where
 * QEMU would abort on malformed arguments this server answers ERR.
 *
 * The log (-qtest-log FILE; stderr without the option, nothing for
 * "none") has QEMU's format: "[R +SECONDS] request", "[S +SECONDS] reply",
 * "[I SECONDS] OPENED", "[I +SECONDS] CLOSED", seconds since the
 * connection opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "chardev/char.h"
#include "exec/memory.h"
#include "hw/boards.h"
#include "hw/irq.h"
#include "qemu/timer.h"
#include "sysemu/qtest.h"

#define QTEST_MAX_IRQ 256
#define QTEST_MAX_BLOCK (64 * 1024 * 1024)
#define PC_IOAPIC_PINS 24

typedef struct QTestServer {
    Chardev *chr;
    GString *out;                   /* in-process: replies go here */
    FILE *log;
    GTimer *timer;
    bool opened;
    GString *inbuf;
    DeviceState *intercepted;       /* device whose IRQs go to the test */
    DeviceState *wrapped;           /* its inputs call us (for good) */
    int irq_levels[QTEST_MAX_IRQ];
} QTestServer;

static QTestServer qtest_server;
static int64_t clock_virtual_ns;

bool qtest_enabled(void)
{
    return current_machine && current_machine->cpu_env.accel == X86_ACCEL_QTEST;
}

int64_t qtest_clock_get_ns(void)
{
    return clock_virtual_ns;
}

/* Replies and the log -------------------------------------------------------- */

static void qtest_log_stamp(QTestServer *q, const char *tag)
{
    fprintf(q->log, "[%s +%.6f]", tag,
            q->timer ? g_timer_elapsed(q->timer, NULL) : 0.0);
}

static void qtest_send(QTestServer *q, const char *line)
{
    if (q->log && q->opened) {
        qtest_log_stamp(q, "S");
        fprintf(q->log, " %s", line);
    }
    if (q->out) {
        g_string_append(q->out, line);
    } else if (q->chr) {
        qemu_chr_write_all(q->chr, (const uint8_t *)line, strlen(line));
    }
}

static void G_GNUC_PRINTF(2, 3) qtest_sendf(QTestServer *q, const char *fmt,
                                            ...)
{
    va_list ap;
    char *line;

    va_start(ap, fmt);
    line = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    qtest_send(q, line);
    g_free(line);
}

/* Arguments ------------------------------------------------------------------- */

/* A request: its words and how many there are */
typedef struct QTestRequest {
    char **words;
    unsigned argc;                  /* words after the command */
} QTestRequest;

static bool need_args(QTestServer *q, QTestRequest *r, unsigned n)
{
    if (r->argc < n) {
        qtest_sendf(q, "ERR too few arguments for '%s'\n", r->words[0]);
        return false;
    }
    return true;
}

static bool arg_u64(QTestServer *q, QTestRequest *r, unsigned i,
                    uint64_t *out)
{
    const char *s = r->words[i];
    char *end;

    errno = 0;
    *out = strtoull(s, &end, 0);
    if (!*s || *end || errno) {
        qtest_sendf(q, "ERR invalid number '%s'\n", s);
        return false;
    }
    return true;
}

static bool arg_i64(QTestServer *q, QTestRequest *r, unsigned i,
                    int64_t *out)
{
    const char *s = r->words[i];
    char *end;

    errno = 0;
    *out = strtoll(s, &end, 0);
    if (!*s || *end || errno) {
        qtest_sendf(q, "ERR invalid number '%s'\n", s);
        return false;
    }
    return true;
}

static bool arg_port(QTestServer *q, QTestRequest *r, uint16_t *port)
{
    uint64_t v;

    if (!arg_u64(q, r, 1, &v)) {
        return false;
    }
    if (v > 0xffff) {
        qtest_sendf(q, "ERR invalid port '%s'\n", r->words[1]);
        return false;
    }
    *port = v;
    return true;
}

/* Commands ---------------------------------------------------------------------- */

typedef struct QTestCommand {
    const char *name;
    void (*handler)(QTestServer *q, QTestRequest *r,
                    const struct QTestCommand *cmd);
    unsigned size;                  /* access size in bytes, or 0 */
    bool qtest_accel_only;
} QTestCommand;

static void cmd_out(QTestServer *q, QTestRequest *r, const QTestCommand *c)
{
    uint16_t port;
    uint64_t value;

    if (!need_args(q, r, 2) || !arg_port(q, r, &port) ||
        !arg_u64(q, r, 2, &value)) {
        return;
    }
    switch (c->size) {
    case 1:
        cpu_outb(port, value);
        break;
    case 2:
        cpu_outw(port, value);
        break;
    default:
        cpu_outl(port, value);
        break;
    }
    qtest_send(q, "OK\n");
}

static void cmd_in(QTestServer *q, QTestRequest *r, const QTestCommand *c)
{
    uint16_t port;

    if (!need_args(q, r, 1) || !arg_port(q, r, &port)) {
        return;
    }
    qtest_sendf(q, "OK 0x%04x\n", c->size == 1   ? cpu_inb(port)
                                  : c->size == 2 ? cpu_inw(port)
                                                 : cpu_inl(port));
}

static void cmd_write_n(QTestServer *q, QTestRequest *r,
                        const QTestCommand *c)
{
    uint64_t addr, value;
    uint8_t buf[8];
    unsigned i;

    if (!need_args(q, r, 2) || !arg_u64(q, r, 1, &addr) ||
        !arg_u64(q, r, 2, &value)) {
        return;
    }
    for (i = 0; i < c->size; i++) {
        buf[i] = value >> (8 * i);
    }
    cpu_physical_memory_write(addr, buf, c->size);
    qtest_send(q, "OK\n");
}

static void cmd_read_n(QTestServer *q, QTestRequest *r,
                       const QTestCommand *c)
{
    uint64_t addr, value = 0;
    uint8_t buf[8];
    unsigned i;

    if (!need_args(q, r, 1) || !arg_u64(q, r, 1, &addr)) {
        return;
    }
    cpu_physical_memory_read(addr, buf, c->size);
    for (i = 0; i < c->size; i++) {
        value |= (uint64_t)buf[i] << (8 * i);
    }
    qtest_sendf(q, "OK 0x%016" PRIx64 "\n", value);
}

/*
 * ADDR SIZE for the block commands.  The data is held in memory at once
 * (twice, as hex or base64), so SIZE is bounded: QEMU's g_malloc aborts on
 * a size it cannot allocate, and a request must not end the emulator.
 */
static bool block_args(QTestServer *q, QTestRequest *r, unsigned n,
                       uint64_t *addr, uint64_t *len)
{
    if (!need_args(q, r, n) || !arg_u64(q, r, 1, addr) ||
        !arg_u64(q, r, 2, len)) {
        return false;
    }
    if (*len > QTEST_MAX_BLOCK) {
        qtest_send(q, "ERR invalid argument size\n");
        return false;
    }
    return true;
}

static void cmd_read(QTestServer *q, QTestRequest *r, const QTestCommand *c)
{
    static const char digits[] = "0123456789abcdef";
    uint64_t addr, len, i;
    uint8_t *data;
    GString *out;

    if (!block_args(q, r, 2, &addr, &len)) {
        return;
    }
    if (!len) {
        /* "OK 0x" would be no number at all */
        qtest_send(q, "ERR invalid argument size\n");
        return;
    }
    data = g_malloc(len);
    cpu_physical_memory_read(addr, data, len);
    out = g_string_sized_new(len * 2 + 8);
    g_string_append(out, "OK 0x");
    for (i = 0; i < len; i++) {
        g_string_append_c(out, digits[data[i] >> 4]);
        g_string_append_c(out, digits[data[i] & 0xf]);
    }
    g_string_append_c(out, '\n');
    qtest_send(q, out->str);
    g_string_free(out, TRUE);
    g_free(data);
}

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9') {
        return ch - '0';
    }
    ch |= 0x20;
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

static void cmd_write(QTestServer *q, QTestRequest *r, const QTestCommand *c)
{
    const char *hex;
    uint64_t addr, len, i;
    size_t digits;
    uint8_t *data;

    if (!block_args(q, r, 3, &addr, &len)) {
        return;
    }
    hex = r->words[3];
    digits = strlen(hex);
    if (digits < 3 || hex[0] != '0' || (hex[1] | 0x20) != 'x') {
        qtest_send(q, "ERR invalid argument size\n");
        return;
    }
    hex += 2;
    digits -= 2;
    for (i = 0; i < digits; i++) {
        if (hex_digit(hex[i]) < 0) {
            qtest_sendf(q, "ERR invalid hex data '%s'\n", r->words[3]);
            return;
        }
    }
    /* Byte i comes from digits 2i and 2i+1; missing bytes are zero */
    data = g_malloc0(len ? len : 1);
    for (i = 0; i < len && 2 * i + 1 < digits; i++) {
        data[i] = hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]);
    }
    cpu_physical_memory_write(addr, data, len);
    g_free(data);
    qtest_send(q, "OK\n");
}

static void cmd_b64read(QTestServer *q, QTestRequest *r,
                        const QTestCommand *c)
{
    uint64_t addr, len;
    uint8_t *data;
    char *b64;

    if (!block_args(q, r, 2, &addr, &len)) {
        return;
    }
    data = g_malloc(len ? len : 1);
    cpu_physical_memory_read(addr, data, len);
    b64 = g_base64_encode(data, len);
    qtest_sendf(q, "OK %s\n", b64);
    g_free(b64);
    g_free(data);
}

static void cmd_b64write(QTestServer *q, QTestRequest *r,
                         const QTestCommand *c)
{
    uint64_t addr, len;
    gsize decoded;
    uint8_t *data;

    if (!block_args(q, r, 3, &addr, &len)) {
        return;
    }
    if (strlen(r->words[3]) < 3) {
        qtest_send(q, "ERR invalid argument size\n");
        return;
    }
    data = g_base64_decode(r->words[3], &decoded);
    if (decoded != len && q->log && q->opened) {
        qtest_log_stamp(q, "S");
        fprintf(q->log, " b64write: data length mismatch (told %" PRIu64
                ", found %zu)\n", len, (size_t)decoded);
    }
    cpu_physical_memory_write(addr, data, MIN(len, decoded));
    g_free(data);
    qtest_send(q, "OK\n");
}

static void cmd_memset(QTestServer *q, QTestRequest *r, const QTestCommand *c)
{
    uint64_t addr, len, value;

    /* nothing is allocated: any size up to the old bound goes */
    if (!need_args(q, r, 3) || !arg_u64(q, r, 1, &addr) ||
        !arg_u64(q, r, 2, &len)) {
        return;
    }
    if (len > G_MAXSIZE / 2) {
        qtest_send(q, "ERR invalid argument size\n");
        return;
    }
    if (!arg_u64(q, r, 3, &value)) {
        return;
    }
    cpu_physical_memory_set(addr, value, len);
    qtest_send(q, "OK\n");
}

static void clock_set_ns(int64_t ns)
{
    if (ns > clock_virtual_ns) {
        clock_virtual_ns = ns;
    }
}

/* Forward to ns (never back), running the timers due on the way */
static void clock_advance_to(int64_t ns)
{
    qtest_clock_warp(ns, clock_set_ns);
}

static void cmd_clock_step(QTestServer *q, QTestRequest *r,
                           const QTestCommand *c)
{
    int64_t old = clock_virtual_ns, ns;

    if (!r->argc) {
        int64_t deadline = qemu_clock_next_deadline(QEMU_CLOCK_VIRTUAL);

        ns = deadline < 0 ? 0 : MAX(deadline - old, 0);
    } else if (!arg_i64(q, r, 1, &ns)) {
        return;
    }
    if (ns > 0 && old > INT64_MAX - ns) {
        ns = INT64_MAX - old;
    }
    clock_advance_to(old + MAX(ns, 0));
    qtest_sendf(q, "OK %" PRIi64 "\n", clock_virtual_ns);
}

static void cmd_clock_set(QTestServer *q, QTestRequest *r,
                          const QTestCommand *c)
{
    int64_t ns;

    if (!need_args(q, r, 1) || !arg_i64(q, r, 1, &ns)) {
        return;
    }
    clock_advance_to(ns);
    qtest_sendf(q, "OK %" PRIi64 "\n", clock_virtual_ns);
}

static void cmd_endianness(QTestServer *q, QTestRequest *r,
                           const QTestCommand *c)
{
    qtest_send(q, "OK little\n");
}

/*
 * The devices with interrupt lines a test can reach: the PC's IOAPIC
 * ("ioapic" as QEMU's partial path, or its full path /machine/q35/ioapic
 * or /machine/i440fx/ioapic), whichever of its models the board has.
 */
static DeviceState *irq_device(const char *path, int *num_in)
{
    Object *obj;

    if (!current_machine || !MACHINE_GET_CLASS(current_machine)->family) {
        return NULL;
    }
    obj = object_resolve_path_ambiguous(path, NULL);
    if (!obj || !object_dynamic_cast(obj, TYPE_DEVICE) ||
        strcmp(obj->name, "ioapic")) {
        return NULL;
    }
    *num_in = PC_IOAPIC_PINS;
    return DEVICE(obj);
}

/* An intercepted input: the device still gets the level, the test hears */
static void qtest_irq_intercept_handler(void *opaque, int n, int level)
{
    qemu_set_irq(opaque, level);
    if (qtest_server.intercepted) {
        qtest_irq_report(n, level);
    }
}

/* Once per device: a reset of the server only stops the reports */
static void qtest_intercept_inputs(QTestServer *q, DeviceState *dev)
{
    if (q->wrapped == dev) {
        return;
    }
    for (guint i = 0; i < dev->gpios->len; i++) {
        NamedGPIOList *ngl = g_ptr_array_index(dev->gpios, i);

        if (!ngl->name) {
            qemu_irq_intercept_in(ngl->in, qtest_irq_intercept_handler,
                                  ngl->num_in);
        }
    }
    q->wrapped = dev;
}

static void cmd_irq_intercept(QTestServer *q, QTestRequest *r,
                              const QTestCommand *c)
{
    bool outbound = !strcmp(r->words[0], "irq_intercept_out");
    bool named = r->argc >= 2;
    DeviceState *dev;
    int num_in;

    if (!need_args(q, r, 1)) {
        return;
    }
    dev = irq_device(r->words[1], &num_in);
    if (!dev) {
        qtest_send(q, object_resolve_path(r->words[1])
                      ? "FAIL No intercepts installed\n"
                      : "FAIL Unknown device\n");
        return;
    }
    if (named && !outbound) {
        qtest_send(q, "FAIL Interception of named in-GPIOs not yet "
                   "supported\n");
        return;
    }
    if (q->intercepted) {
        qtest_send(q, q->intercepted != dev
                      ? "FAIL IRQ intercept already enabled\n" : "OK\n");
        return;
    }
    if (named) {
        /* The IOAPIC has no named output lines */
        qtest_send(q, "FAIL No intercepts installed\n");
        return;
    }
    if (!outbound) {
        qtest_intercept_inputs(q, dev);
    }
    q->intercepted = dev;
    qtest_send(q, "OK\n");
}

static void cmd_set_irq_in(QTestServer *q, QTestRequest *r,
                           const QTestCommand *c)
{
    DeviceState *dev;
    int64_t num, level;
    int num_in;

    if (!need_args(q, r, 4)) {
        return;
    }
    dev = irq_device(r->words[1], &num_in);
    if (!dev) {
        qtest_send(q, "FAIL Unknown device\n");
        return;
    }
    if (strcmp(r->words[2], "unnamed-gpio-in")) {
        qtest_sendf(q, "ERR unknown IRQ list '%s'\n", r->words[2]);
        return;
    }
    if (!arg_i64(q, r, 3, &num) || !arg_i64(q, r, 4, &level)) {
        return;
    }
    if (num < 0 || num >= num_in) {
        qtest_sendf(q, "ERR invalid IRQ number '%s'\n", r->words[3]);
        return;
    }
    /* QEMU passes the level as given (an int), not just 0 or 1 */
    qemu_set_irq(qdev_get_gpio_in(dev, num), (int)level);
    qtest_send(q, "OK\n");
}

static void cmd_module_load(QTestServer *q, QTestRequest *r,
                            const QTestCommand *c)
{
    if (!need_args(q, r, 2)) {
        return;
    }
    /* Everything is built in: there is never a module to load */
    qtest_send(q, "FAIL\n");
}

static const QTestCommand qtest_commands[] = {
    { "outb", cmd_out, 1 },
    { "outw", cmd_out, 2 },
    { "outl", cmd_out, 4 },
    { "inb", cmd_in, 1 },
    { "inw", cmd_in, 2 },
    { "inl", cmd_in, 4 },
    { "writeb", cmd_write_n, 1 },
    { "writew", cmd_write_n, 2 },
    { "writel", cmd_write_n, 4 },
    { "writeq", cmd_write_n, 8 },
    { "readb", cmd_read_n, 1 },
    { "readw", cmd_read_n, 2 },
    { "readl", cmd_read_n, 4 },
    { "readq", cmd_read_n, 8 },
    { "read", cmd_read },
    { "write", cmd_write },
    { "b64read", cmd_b64read },
    { "b64write", cmd_b64write },
    { "memset", cmd_memset },
    { "clock_step", cmd_clock_step, 0, true },
    { "clock_set", cmd_clock_set, 0, true },
    { "endianness", cmd_endianness },
    { "irq_intercept_in", cmd_irq_intercept },
    { "irq_intercept_out", cmd_irq_intercept },
    { "set_irq_in", cmd_set_irq_in },
    { "module_load", cmd_module_load },
    { NULL },
};

static void qtest_process_command(QTestServer *q, char **words)
{
    QTestRequest r = { .words = words, .argc = g_strv_length(words) - 1 };
    const QTestCommand *c;
    unsigned i;

    if (q->log) {
        qtest_log_stamp(q, "R");
        for (i = 0; words[i]; i++) {
            fprintf(q->log, " %s", words[i]);
        }
        fputc('\n', q->log);
    }
    for (c = qtest_commands; c->name; c++) {
        if (!strcmp(c->name, words[0]) &&
            (!c->qtest_accel_only || qtest_enabled())) {
            c->handler(q, &r, c);
            return;
        }
    }
    qtest_sendf(q, "FAIL Unknown command '%s'\n", words[0]);
}

static void qtest_process_words(QTestServer *q, const char *line)
{
    char **words = g_strsplit(line, " ", -1);

    if (!words[0]) {
        /* An empty line still gets its one reply */
        char *empty[] = { (char *)"", NULL };
        qtest_process_command(q, empty);
    } else {
        qtest_process_command(q, words);
    }
    g_strfreev(words);
}

static void qtest_read(void *opaque, const uint8_t *buf, size_t len)
{
    QTestServer *q = opaque;
    char *nl;

    g_string_append_len(q->inbuf, (const char *)buf, len);
    while ((nl = memchr(q->inbuf->str, '\n', q->inbuf->len))) {
        char *line = g_strndup(q->inbuf->str, nl - q->inbuf->str);

        g_string_erase(q->inbuf, 0, nl - q->inbuf->str + 1);
        qtest_process_words(q, line);
        g_free(line);
    }
}

static void qtest_event(void *opaque, ChardevEvent event)
{
    QTestServer *q = opaque;

    switch (event) {
    case CHR_EVENT_OPENED:
        memset(q->irq_levels, 0, sizeof(q->irq_levels));
        if (q->timer) {
            g_timer_destroy(q->timer);
        }
        q->timer = g_timer_new();
        q->opened = true;
        if (q->log) {
            fprintf(q->log, "[I %.6f] OPENED\n",
                    g_timer_elapsed(q->timer, NULL));
        }
        break;
    case CHR_EVENT_CLOSED:
        q->opened = false;
        if (q->log) {
            qtest_log_stamp(q, "I");
            fputs(" CLOSED\n", q->log);
        }
        break;
    }
}

/* In-process use ---------------------------------------------------------- */

void qtest_process_line(const char *line, GString *reply)
{
    QTestServer *q = &qtest_server;
    GString *saved = q->out;

    q->out = reply;
    qtest_process_words(q, line);
    q->out = saved;
}

void qtest_server_reset(void)
{
    QTestServer *q = &qtest_server;

    q->intercepted = NULL;
    memset(q->irq_levels, 0, sizeof(q->irq_levels));
    if (q->inbuf) {
        g_string_truncate(q->inbuf, 0);
    }
}

void qtest_irq_report(int n, int level)
{
    QTestServer *q = &qtest_server;

    if ((!q->chr && !q->out) || n < 0 || n >= QTEST_MAX_IRQ ||
        q->irq_levels[n] == level) {
        return;
    }
    q->irq_levels[n] = level;
    qtest_sendf(q, "IRQ %s %d\n", level ? "raise" : "lower", n);
}

/* Start-up -------------------------------------------------------------------- */

static FILE *qtest_open_log(const char *path, Error **errp)
{
    FILE *f;
    int fd;

    if (!path) {
        return stderr;
    }
    if (!strcmp(path, "none")) {
        return NULL;
    }
    /* /dev/fd/N: write to that descriptor, do not truncate what it is */
    if (g_str_has_prefix(path, "/dev/fd/") && g_ascii_isdigit(path[8])) {
        fd = dup(atoi(path + 8));
        f = fd >= 0 ? fdopen(fd, "w") : NULL;
    } else {
        f = fopen(path, "w+");
    }
    if (!f) {
        error_setg(errp, "Could not open qtest log '%s': %s", path,
                   strerror(errno));
        return NULL;
    }
    fcntl(fileno(f), F_SETFD, FD_CLOEXEC);
    setvbuf(f, NULL, _IOLBF, 0);
    return f;
}

/* QEMU's legacy chardev syntax ("unix:PATH,opts", ...) or chardev:ID */
static Chardev *qtest_chr_new(const char *spec, Error **errp)
{
    char *opts;
    Chardev *chr;

    if (g_str_has_prefix(spec, "chardev:")) {
        chr = qemu_chr_find(spec + 8);
        if (!chr) {
            error_setg(errp, "Chardev '%s' not found", spec + 8);
        }
        return chr;
    }
    opts = qemu_chr_legacy_to_opts(spec);
    if (!opts) {
        error_setg(errp, "'%s' is not a valid char driver", spec);
        return NULL;
    }
    chr = qemu_chr_new_from_str("qtest", opts, errp);
    g_free(opts);
    return chr;
}

bool qtest_server_init(const char *chrdev, const char *log, Error **errp)
{
    QTestServer *q = &qtest_server;
    ChardevHandlers h = {
        .read = qtest_read, .event = qtest_event, .opaque = q,
    };
    Error *err = NULL;
    Chardev *chr;

    if (q->chr) {
        error_setg(errp, "Only one instance of qtest can be created");
        return false;
    }
    chr = qtest_chr_new(chrdev, &err);
    if (!chr) {
        error_report_err(err);
        error_setg(errp, "Failed to initialize device for qtest: \"%s\"",
                   chrdev);
        return false;
    }
    q->log = qtest_open_log(log, &err);
    if (err) {
        error_propagate(errp, err);
        return false;
    }
    q->inbuf = g_string_new("");
    q->chr = chr;
    return qemu_chr_set_handlers(chr, &h, errp);
}
