/*
 * A small libqtest (see libqtest.h for the launch contract it follows).
 * Written against the documented behaviour of upstream's libqtest so
 * that what passes here passes with a test program built on upstream's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libqtest.h"

#define ACCEPT_TIMEOUT_MS (50 * 1000)
#define QUIT_TIMEOUT_US (30 * G_USEC_PER_SEC)
#define MAX_IRQ 256

struct QTestState {
    pid_t pid;
    int fd, qmp_fd;
    GString *rx, *qmp_rx;
    GQueue *events;                 /* JsonObject* */
    JsonObject *greeting;
    bool big_endian;
    bool irq_level[MAX_IRQ];
    char *stderr_path;
    char *stderr_text;
};

/* Sockets and processes ------------------------------------------------------- */

static int socket_listen(const char *path)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd;

    g_assert(strlen(path) < sizeof(sa.sun_path));
    strcpy(sa.sun_path, path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    g_assert(fd >= 0);
    unlink(path);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        listen(fd, 1) < 0) {
        g_error("cannot listen on %s: %s", path, strerror(errno));
    }
    return fd;
}

/* Accepts the emulator's connection; fails early if the emulator died */
static int socket_accept(QTestState *s, int lfd, const char *path)
{
    gint64 deadline = g_get_monotonic_time() + ACCEPT_TIMEOUT_MS * 1000LL;
    struct pollfd p = { .fd = lfd, .events = POLLIN };
    int status, fd;

    while (poll(&p, 1, 100) <= 0) {
        if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
            s->pid = -1;
            g_error("the emulator exited before connecting to %s "
                    "(status 0x%x)", path, status);
        }
        if (g_get_monotonic_time() > deadline) {
            g_error("the emulator did not connect to %s within 50 s", path);
        }
    }
    do {
        fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    g_assert(fd >= 0);
    close(lfd);
    unlink(path);
    return fd;
}

static void write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            g_error("write to the emulator failed: %s", strerror(errno));
        }
        buf += n;
        len -= n;
    }
}

/* One line from fd (without the line end), buffered in rx */
static char *read_line(int fd, GString *rx)
{
    char *nl, *line;

    while (!(nl = memchr(rx->str, '\n', rx->len))) {
        char buf[4096];
        ssize_t n = read(fd, buf, sizeof(buf));

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            g_error("the emulator closed the connection");
        }
        g_string_append_len(rx, buf, n);
    }
    line = g_strndup(rx->str, nl - rx->str);
    g_string_erase(rx, 0, nl - rx->str + 1);
    if (line[0] && line[strlen(line) - 1] == '\r') {
        line[strlen(line) - 1] = '\0';
    }
    return line;
}

static JsonObject *qmp_read(QTestState *s)
{
    for (;;) {
        char *line = read_line(s->qmp_fd, s->qmp_rx);
        JsonParser *p = json_parser_new();
        GError *err = NULL;
        JsonObject *obj;

        if (!line[0]) {
            g_free(line);
            g_object_unref(p);
            continue;
        }
        if (!json_parser_load_from_data(p, line, -1, &err) ||
            !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p))) {
            g_error("bad QMP message '%s'", line);
        }
        obj = json_object_ref(json_node_get_object(json_parser_get_root(p)));
        g_object_unref(p);
        g_free(line);
        return obj;
    }
}

/* The next non-event message; events go to the queue */
static JsonObject *qmp_response(QTestState *s)
{
    for (;;) {
        JsonObject *obj = qmp_read(s);

        if (!json_object_has_member(obj, "event")) {
            return obj;
        }
        g_queue_push_tail(s->events, obj);
    }
}

static QTestState *qtest_spawn(const char *extra_args, bool capture)
{
    QTestState *s = g_new0(QTestState, 1);
    const char *bin = getenv("QTEST_QEMU_BINARY");
    const char *tmp = g_get_tmp_dir();
    char *sock = g_strdup_printf("%s/qtest-%d.sock", tmp, (int)getpid());
    char *qmp = g_strdup_printf("%s/qtest-%d.qmp", tmp, (int)getpid());
    int lfd, qmp_lfd;
    char *cmd, *reply;

    if (!bin) {
        g_error("Environment variable QTEST_QEMU_BINARY required");
    }
    lfd = socket_listen(sock);
    qmp_lfd = socket_listen(qmp);
    cmd = g_strdup_printf("exec %s -qtest unix:%s -qtest-log %s "
                          "-chardev socket,path=%s,id=char0 "
                          "-mon chardev=char0,mode=control "
                          "-display none -audio none %s -accel qtest",
                          bin, sock, getenv("QTEST_LOG") ? "/dev/fd/2"
                                                         : "/dev/null",
                          qmp, extra_args ? extra_args : "");
    if (getenv("QTEST_LOG")) {
        g_printerr("starting QEMU: %s\n", cmd);
    }
    if (capture) {
        s->stderr_path = g_strdup_printf("%s/qtest-%d.err", tmp,
                                         (int)getpid());
    }
    s->pid = fork();
    g_assert(s->pid >= 0);
    if (s->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        /* As upstream: the emulator's stderr only with QTEST_LOG */
        if (capture || !getenv("QTEST_LOG")) {
            int fd = capture ? open(s->stderr_path,
                                    O_WRONLY | O_CREAT | O_TRUNC, 0600)
                             : open("/dev/null", O_WRONLY);
            if (fd < 0 || dup2(fd, STDERR_FILENO) < 0) {
                _exit(1);
            }
        }
        execlp("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(1);
    }
    s->fd = socket_accept(s, lfd, sock);
    s->qmp_fd = socket_accept(s, qmp_lfd, qmp);
    s->rx = g_string_new("");
    s->qmp_rx = g_string_new("");
    s->events = g_queue_new();
    g_free(cmd);
    g_free(sock);
    g_free(qmp);

    reply = qtest_raw(s, "endianness");
    g_assert(!strcmp(reply, "OK little") || !strcmp(reply, "OK big"));
    s->big_endian = !strcmp(reply, "OK big");
    g_free(reply);
    return s;
}

static QTestState *qtest_init_full(const char *extra_args, bool capture)
{
    QTestState *s = qtest_spawn(extra_args, capture);
    JsonObject *greeting = qmp_response(s), *rsp;

    g_assert(json_object_has_member(greeting, "QMP"));
    s->greeting = json_object_ref(json_object_get_object_member(greeting,
                                                                "QMP"));
    json_object_unref(greeting);
    rsp = qtest_qmp(s, "{\"execute\": \"qmp_capabilities\"}");
    g_assert(json_object_has_member(rsp, "return"));
    json_object_unref(rsp);
    return s;
}

QTestState *qtest_init(const char *extra_args)
{
    return qtest_init_full(extra_args, false);
}

QTestState *qtest_init_capture_stderr(const char *extra_args)
{
    return qtest_init_full(extra_args, true);
}

QTestState *qtest_initf(const char *fmt, ...)
{
    va_list ap;
    char *args;
    QTestState *s;

    va_start(ap, fmt);
    args = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    s = qtest_init(args);
    g_free(args);
    return s;
}

void qtest_quit(QTestState *s)
{
    gint64 deadline = g_get_monotonic_time() + QUIT_TIMEOUT_US;
    int status = 0;
    pid_t r;

    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        while ((r = waitpid(s->pid, &status, WNOHANG)) == 0) {
            if (g_get_monotonic_time() > deadline) {
                kill(s->pid, SIGKILL);
                waitpid(s->pid, &status, 0);
                g_error("the emulator did not exit within 30 s of SIGTERM");
            }
            g_usleep(10 * 1000);
        }
        g_assert(r == s->pid);
        s->pid = -1;
        if (WIFSIGNALED(status)) {
            g_error("the emulator was killed by signal %d%s",
                    WTERMSIG(status),
                    WCOREDUMP(status) ? " (core dumped)" : "");
        }
        g_assert_cmpint(WEXITSTATUS(status), ==, 0);
    }
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    if (s->qmp_fd >= 0) {
        close(s->qmp_fd);
        s->qmp_fd = -1;
    }
    if (s->stderr_path && !s->stderr_text) {
        g_file_get_contents(s->stderr_path, &s->stderr_text, NULL, NULL);
        unlink(s->stderr_path);
    }
}

const char *qtest_get_stderr(QTestState *s)
{
    return s->stderr_text ? s->stderr_text : "";
}

void qtest_state_free(QTestState *s)
{
    if (!s) {
        return;
    }
    if (s->pid > 0 || s->fd >= 0) {
        qtest_quit(s);
    }
    g_string_free(s->rx, TRUE);
    g_string_free(s->qmp_rx, TRUE);
    g_queue_free_full(s->events, (GDestroyNotify)json_object_unref);
    if (s->greeting) {
        json_object_unref(s->greeting);
    }
    g_free(s->stderr_path);
    g_free(s->stderr_text);
    g_free(s);
}

int qtest_pid(QTestState *s)
{
    return s->pid;
}

JsonObject *qtest_qmp_greeting(QTestState *s)
{
    return s->greeting;
}

/* QMP -------------------------------------------------------------------------- */

static JsonObject *qtest_vqmp(QTestState *s, const char *fmt, va_list ap)
{
    char *text = g_strdup_vprintf(fmt, ap);

    write_all(s->qmp_fd, text, strlen(text));
    write_all(s->qmp_fd, "\n", 1);
    g_free(text);
    return qmp_response(s);
}

JsonObject *qtest_qmp(QTestState *s, const char *fmt, ...)
{
    va_list ap;
    JsonObject *rsp;

    va_start(ap, fmt);
    rsp = qtest_vqmp(s, fmt, ap);
    va_end(ap);
    return rsp;
}

JsonNode *qtest_qmp_return(QTestState *s, const char *fmt, ...)
{
    va_list ap;
    JsonObject *rsp;
    JsonNode *ret;

    va_start(ap, fmt);
    rsp = qtest_vqmp(s, fmt, ap);
    va_end(ap);
    if (!json_object_has_member(rsp, "return")) {
        JsonNode *n = json_node_init_object(json_node_alloc(), rsp);
        g_error("QMP command failed: %s", json_to_string(n, FALSE));
    }
    ret = json_node_copy(json_object_get_member(rsp, "return"));
    json_object_unref(rsp);
    return ret;
}

JsonObject *qtest_qmp_eventwait(QTestState *s, const char *event)
{
    for (;;) {
        JsonObject *obj;

        while ((obj = g_queue_pop_head(s->events))) {
            if (!strcmp(json_object_get_string_member(obj, "event"), event)) {
                return obj;
            }
            json_object_unref(obj);
        }
        obj = qmp_read(s);
        if (json_object_has_member(obj, "event")) {
            g_queue_push_tail(s->events, obj);
        } else {
            json_object_unref(obj);
        }
    }
}

JsonNode *qtest_qom_get(QTestState *s, const char *path, const char *prop)
{
    return qtest_qmp_return(s, "{\"execute\": \"qom-get\", \"arguments\": "
                            "{\"path\": \"%s\", \"property\": \"%s\"}}",
                            path, prop);
}

int64_t qtest_qom_get_int(QTestState *s, const char *path, const char *prop)
{
    JsonNode *n = qtest_qom_get(s, path, prop);
    int64_t v;

    g_assert(JSON_NODE_HOLDS_VALUE(n) &&
             json_node_get_value_type(n) == G_TYPE_INT64);
    v = json_node_get_int(n);
    json_node_unref(n);
    return v;
}

bool qtest_qom_get_bool(QTestState *s, const char *path, const char *prop)
{
    JsonNode *n = qtest_qom_get(s, path, prop);
    bool v;

    g_assert(JSON_NODE_HOLDS_VALUE(n) &&
             json_node_get_value_type(n) == G_TYPE_BOOLEAN);
    v = json_node_get_boolean(n);
    json_node_unref(n);
    return v;
}

char *qtest_cpu_path(QTestState *s)
{
    JsonNode *n = qtest_qmp_return(s, "{\"execute\": \"query-cpus-fast\"}");
    JsonArray *cpus = json_node_get_array(n);
    char *path;

    g_assert(cpus && json_array_get_length(cpus) > 0);
    path = g_strdup(json_object_get_string_member(
        json_array_get_object_element(cpus, 0), "qom-path"));
    json_node_unref(n);
    return path;
}

/* -machine none probes ---------------------------------------------------- */

static GHashTable *probe_machines, *probe_cpus;

static void probe_collect(GHashTable *set, JsonNode *list,
                          const char *key, const char *alias_key)
{
    JsonArray *arr = json_node_get_array(list);
    guint i;

    for (i = 0; i < json_array_get_length(arr); i++) {
        JsonObject *o = json_array_get_object_element(arr, i);

        g_hash_table_add(set, g_strdup(json_object_get_string_member(o, key)));
        if (json_object_has_member(o, alias_key)) {
            g_hash_table_add(set, g_strdup(
                json_object_get_string_member(o, alias_key)));
        }
    }
}

static void probe(void)
{
    QTestState *s;
    JsonNode *n;

    if (probe_machines) {
        return;
    }
    probe_machines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                           NULL);
    probe_cpus = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    s = qtest_init("-machine none");
    n = qtest_qmp_return(s, "{\"execute\": \"query-machines\"}");
    probe_collect(probe_machines, n, "name", "alias");
    json_node_unref(n);
    n = qtest_qmp_return(s, "{\"execute\": \"query-cpu-definitions\"}");
    probe_collect(probe_cpus, n, "name", "alias-of");
    json_node_unref(n);
    qtest_quit(s);
    qtest_state_free(s);
}

bool qtest_has_machine(const char *machine)
{
    probe();
    return g_hash_table_contains(probe_machines, machine);
}

bool qtest_has_cpu_model(const char *model)
{
    probe();
    return g_hash_table_contains(probe_cpus, model);
}

/* The line protocol ------------------------------------------------------------ */

static char *qtest_vraw(QTestState *s, const char *fmt, va_list ap)
{
    char *line = g_strdup_vprintf(fmt, ap);

    write_all(s->fd, line, strlen(line));
    write_all(s->fd, "\n", 1);
    g_free(line);
    for (;;) {
        char *reply = read_line(s->fd, s->rx);
        int n;

        if (sscanf(reply, "IRQ raise %d", &n) == 1 && n >= 0 && n < MAX_IRQ) {
            s->irq_level[n] = true;
        } else if (sscanf(reply, "IRQ lower %d", &n) == 1 &&
                   n >= 0 && n < MAX_IRQ) {
            s->irq_level[n] = false;
        } else {
            return reply;
        }
        g_free(reply);
    }
}

char *qtest_raw(QTestState *s, const char *fmt, ...)
{
    va_list ap;
    char *reply;

    va_start(ap, fmt);
    reply = qtest_vraw(s, fmt, ap);
    va_end(ap);
    return reply;
}

/* Sends a request that must succeed; returns what follows "OK" */
static char * G_GNUC_PRINTF(2, 3) qtest_ok(QTestState *s, const char *fmt,
                                           ...)
{
    va_list ap;
    char *reply, *rest;

    va_start(ap, fmt);
    reply = qtest_vraw(s, fmt, ap);
    va_end(ap);
    if (strcmp(reply, "OK") && !g_str_has_prefix(reply, "OK ")) {
        g_error("qtest: unexpected reply '%s'", reply);
    }
    rest = g_strdup(reply[2] ? reply + 3 : "");
    g_free(reply);
    return rest;
}

static uint64_t parse_u64(const char *s)
{
    char *end;
    uint64_t v = g_ascii_strtoull(s, &end, 0);

    g_assert(*s && !*end);
    return v;
}

static void out_n(QTestState *s, const char *cmd, uint16_t addr,
                  uint32_t value)
{
    g_free(qtest_ok(s, "%s 0x%x 0x%x", cmd, addr, value));
}

static uint64_t in_n(QTestState *s, const char *cmd, uint64_t addr)
{
    char *r = qtest_ok(s, "%s 0x%" PRIx64, cmd, addr);
    uint64_t v = parse_u64(r);

    g_free(r);
    return v;
}

void qtest_outb(QTestState *s, uint16_t a, uint8_t v) { out_n(s, "outb", a, v); }
void qtest_outw(QTestState *s, uint16_t a, uint16_t v) { out_n(s, "outw", a, v); }
void qtest_outl(QTestState *s, uint16_t a, uint32_t v) { out_n(s, "outl", a, v); }
uint8_t qtest_inb(QTestState *s, uint16_t a) { return in_n(s, "inb", a); }
uint16_t qtest_inw(QTestState *s, uint16_t a) { return in_n(s, "inw", a); }
uint32_t qtest_inl(QTestState *s, uint16_t a) { return in_n(s, "inl", a); }

static void write_n(QTestState *s, const char *cmd, uint64_t addr,
                    uint64_t value)
{
    g_free(qtest_ok(s, "%s 0x%" PRIx64 " 0x%" PRIx64, cmd, addr, value));
}

void qtest_writeb(QTestState *s, uint64_t a, uint8_t v)
{
    write_n(s, "writeb", a, v);
}

void qtest_writew(QTestState *s, uint64_t a, uint16_t v)
{
    write_n(s, "writew", a, v);
}

void qtest_writel(QTestState *s, uint64_t a, uint32_t v)
{
    write_n(s, "writel", a, v);
}

void qtest_writeq(QTestState *s, uint64_t a, uint64_t v)
{
    write_n(s, "writeq", a, v);
}

uint8_t qtest_readb(QTestState *s, uint64_t a) { return in_n(s, "readb", a); }
uint16_t qtest_readw(QTestState *s, uint64_t a) { return in_n(s, "readw", a); }
uint32_t qtest_readl(QTestState *s, uint64_t a) { return in_n(s, "readl", a); }
uint64_t qtest_readq(QTestState *s, uint64_t a) { return in_n(s, "readq", a); }

void qtest_memread(QTestState *s, uint64_t addr, void *data, size_t size)
{
    uint8_t *out = data;
    char *r;
    size_t i;

    if (!size) {
        return;
    }
    r = qtest_ok(s, "read 0x%" PRIx64 " 0x%zx", addr, size);
    g_assert(g_str_has_prefix(r, "0x") && strlen(r) == 2 + 2 * size);
    for (i = 0; i < size; i++) {
        out[i] = g_ascii_xdigit_value(r[2 + 2 * i]) << 4 |
                 g_ascii_xdigit_value(r[3 + 2 * i]);
    }
    g_free(r);
}

void qtest_memwrite(QTestState *s, uint64_t addr, const void *data,
                    size_t size)
{
    const uint8_t *in = data;
    GString *hex = g_string_new("0x");
    size_t i;

    if (!size) {
        g_string_free(hex, TRUE);
        return;
    }
    for (i = 0; i < size; i++) {
        g_string_append_printf(hex, "%02x", in[i]);
    }
    g_free(qtest_ok(s, "write 0x%" PRIx64 " 0x%zx %s", addr, size, hex->str));
    g_string_free(hex, TRUE);
}

void qtest_bufread(QTestState *s, uint64_t addr, void *data, size_t size)
{
    char *r = qtest_ok(s, "b64read 0x%" PRIx64 " 0x%zx", addr, size);
    gsize len;
    guchar *bytes = g_base64_decode(r, &len);

    g_assert_cmpuint(len, ==, size);
    memcpy(data, bytes, size);
    g_free(bytes);
    g_free(r);
}

void qtest_bufwrite(QTestState *s, uint64_t addr, const void *data,
                    size_t size)
{
    char *b64 = g_base64_encode(data, size);

    g_free(qtest_ok(s, "b64write 0x%" PRIx64 " 0x%zx %s", addr, size, b64));
    g_free(b64);
}

void qtest_memset(QTestState *s, uint64_t addr, uint8_t pattern, size_t size)
{
    g_free(qtest_ok(s, "memset 0x%" PRIx64 " 0x%zx 0x%02x", addr, size,
                    pattern));
}

static int64_t clock_reply(char *r)
{
    char *end;
    int64_t v = g_ascii_strtoll(r, &end, 10);

    g_assert(*r && !*end);
    g_free(r);
    return v;
}

int64_t qtest_clock_step(QTestState *s, int64_t step)
{
    return clock_reply(qtest_ok(s, "clock_step %" PRIi64, step));
}

int64_t qtest_clock_step_next(QTestState *s)
{
    return clock_reply(qtest_ok(s, "clock_step"));
}

int64_t qtest_clock_set(QTestState *s, int64_t val)
{
    return clock_reply(qtest_ok(s, "clock_set %" PRIi64, val));
}

void qtest_irq_intercept_in(QTestState *s, const char *path)
{
    g_free(qtest_ok(s, "irq_intercept_in %s", path));
}

void qtest_set_irq_in(QTestState *s, const char *path, const char *name,
                      int num, int level)
{
    g_free(qtest_ok(s, "set_irq_in %s %s %d %d", path,
                    name ? name : "unnamed-gpio-in", num, level));
}

bool qtest_get_irq(QTestState *s, int num)
{
    g_assert(num >= 0 && num < MAX_IRQ);
    return s->irq_level[num];
}

bool qtest_big_endian(QTestState *s)
{
    return s->big_endian;
}
