/*
 * Character devices: parsing -chardev, the registry (/chardevs in the QOM
 * tree), the fd plumbing every backend shares, and the simple backends
 * (stdio, null, file, pty).  Sockets are in char-socket.c.
 *
 * pty: a new pseudo-terminal whose slave side (raw mode) is named on
 * stderr, "char device redirected to /dev/pts/N (label ID)", and in
 * query-chardev as "pty:/dev/pts/N".  The emulator keeps a slave fd open
 * itself, so the master never sees a hang-up while nobody has the
 * terminal open: output waits in the terminal (then in the chardev's
 * queue) for whoever opens it later.
 *
 * Connection fds of sockets are non-blocking: a write the peer cannot take
 * at once is queued and flushed from a G_IO_OUT watch, so a client that
 * stops reading never stalls the main loop (and with it every vCPU stop,
 * event and other monitor).  A peer that leaves more than CHR_MAX_QUEUED
 * bytes unread is disconnected.  Errors on write are handled from an idle
 * callback, because the writer is often the frontend's own read handler.
 *
 * Threads: a chardev's watches run in its GMainContext (the default one,
 * or the QMP monitors' I/O thread, qemu_chr_set_context()).  Its I/O state
 * is under chr->lock, a recursive mutex held around every watch callback,
 * so the frontend's read and event handlers run with it held; a frontend
 * in another thread takes it (qemu_chr_lock()) to keep its own state
 * consistent with them.  Lock order: a chardev's lock before anything a
 * frontend locks; nothing that can block runs under it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include "chardev/char-internal.h"
#include "monitor/qmp-commands.h"
#include "qemu/option.h"
#include "qemu/osdep.h"
#include "sysemu/os-posix.h"

static GHashTable *chardevs; /* id -> Chardev* */
static bool stdio_in_use;
static bool stdio_tty_saved;
static struct termios stdio_tty;

Chardev *qemu_chr_find(const char *id)
{
    return chardevs && id ? g_hash_table_lookup(chardevs, id) : NULL;
}

const char *qemu_chr_get_id(Chardev *chr)
{
    return chr->id;
}

bool qemu_chr_is_connected(Chardev *chr)
{
    return chr->connected;
}

bool qemu_chr_opt_bool(QemuOpts *opts, const char *name, bool defval,
                       bool *out, Error **errp)
{
    Error *err = NULL;

    *out = qemu_opt_get_bool(opts, name, defval, &err);
    if (err) {
        error_propagate(errp, err);
        return false;
    }
    return true;
}

/* Sources and locking ---------------------------------------------------- */

void qemu_chr_lock(Chardev *chr)
{
    g_rec_mutex_lock(&chr->lock);
}

void qemu_chr_unlock(Chardev *chr)
{
    g_rec_mutex_unlock(&chr->lock);
}

guint qemu_chr_add_fd_watch(Chardev *chr, int fd, GIOCondition cond,
                            GUnixFDSourceFunc fn)
{
    GSource *src = g_unix_fd_source_new(fd, cond);
    guint id;

    g_source_set_callback(src, (GSourceFunc)(void (*)(void))fn, chr, NULL);
    id = g_source_attach(src, chr->context);
    g_source_unref(src);
    return id;
}

static guint chr_add_idle(Chardev *chr, GSourceFunc fn)
{
    GSource *src = g_idle_source_new();
    guint id;

    g_source_set_callback(src, fn, chr, NULL);
    id = g_source_attach(src, chr->context);
    g_source_unref(src);
    return id;
}

void qemu_chr_remove_source(Chardev *chr, guint *id)
{
    GSource *src;

    if (*id) {
        src = g_main_context_find_source_by_id(chr->context, *id);
        if (src) {
            g_source_destroy(src);
        }
        *id = 0;
    }
}

/*
 * A callback of a source another thread destroyed while it waited for the
 * lock must not act: its fd may be closed, or another connection's.
 */
static bool chr_source_gone(void)
{
    GSource *src = g_main_current_source();

    return src && g_source_is_destroyed(src);
}

/* Connection I/O ------------------------------------------------------------ */

static gboolean chr_readable(gint fd, GIOCondition cond, gpointer opaque);
static gboolean chr_writable(gint fd, GIOCondition cond, gpointer opaque);
static gboolean chr_broken_cb(gpointer opaque);

static void chr_watch_input(Chardev *chr)
{
    if (chr->in_fd >= 0 && !chr->in_watch && !chr->read_paused) {
        chr->in_watch = qemu_chr_add_fd_watch(chr, chr->in_fd,
                                              G_IO_IN | G_IO_HUP | G_IO_ERR,
                                              chr_readable);
    }
}

void qemu_chr_set_context(Chardev *chr, GMainContext *context)
{
    bool listening, writing, broken;

    qemu_chr_lock(chr);
    listening = chr->listen_watch != 0;
    writing = chr->out_watch != 0;
    broken = chr->broken_idle != 0;
    qemu_chr_remove_source(chr, &chr->in_watch);
    qemu_chr_remove_source(chr, &chr->out_watch);
    qemu_chr_remove_source(chr, &chr->listen_watch);
    qemu_chr_remove_source(chr, &chr->broken_idle);
    chr->context = context;
    chr_watch_input(chr);
    if (writing) {
        chr->out_watch = qemu_chr_add_fd_watch(chr, chr->out_fd, G_IO_OUT,
                                               chr_writable);
    }
    if (listening) {
        qemu_chr_socket_listen(chr);
    }
    if (broken) {
        chr->broken_idle = chr_add_idle(chr, chr_broken_cb);
    }
    qemu_chr_unlock(chr);
}

void qemu_chr_fd_attach(Chardev *chr, int in_fd, int out_fd)
{
    qemu_chr_lock(chr);
    chr->in_fd = in_fd;
    chr->out_fd = out_fd;
    chr->read_paused = false;
    if (chr->is_socket) {
        g_unix_set_fd_nonblocking(in_fd, TRUE, NULL);
    }
    chr_watch_input(chr);
    chr->connected = true;
    if (chr->handlers.event) {
        chr->handlers.event(chr->handlers.opaque, CHR_EVENT_OPENED);
    }
    qemu_chr_unlock(chr);
}

static void chr_drop_msgfds(Chardev *chr)
{
    guint i;

    for (i = 0; chr->msgfds && i < chr->msgfds->len; i++) {
        close(g_array_index(chr->msgfds, int, i));
    }
    if (chr->msgfds) {
        g_array_set_size(chr->msgfds, 0);
    }
}

int qemu_chr_take_msgfd(Chardev *chr)
{
    int fd = -1;

    qemu_chr_lock(chr);
    if (chr->msgfds && chr->msgfds->len) {
        fd = g_array_index(chr->msgfds, int, 0);
        g_array_remove_index(chr->msgfds, 0);
        chr_drop_msgfds(chr);
    }
    qemu_chr_unlock(chr);
    return fd;
}

/*
 * A read that also takes the fds sent with the data (as QEMU, at most 16
 * at a time); they replace the unclaimed ones of an earlier read.
 */
static ssize_t chr_recv(Chardev *chr, int fd, uint8_t *buf, size_t len)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(16 * sizeof(int))];
    } control;
    struct iovec iov = { .iov_base = buf, .iov_len = len };
    struct msghdr msg = {
        .msg_iov = &iov, .msg_iovlen = 1,
        .msg_control = &control, .msg_controllen = sizeof(control),
    };
    struct cmsghdr *c;
    ssize_t n;

    if (!chr->is_socket) {
        return read(fd, buf, len);
    }
    n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0) {
        return n;
    }
    for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        size_t count;
        const int *fds;

        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
            c->cmsg_len <= CMSG_LEN(0)) {
            continue;
        }
        count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        fds = (const int *)CMSG_DATA(c);
        chr_drop_msgfds(chr);
        if (!chr->msgfds) {
            chr->msgfds = g_array_new(FALSE, FALSE, sizeof(int));
        }
        g_array_append_vals(chr->msgfds, fds, count);
    }
    return n;
}

void qemu_chr_fd_detach(Chardev *chr)
{
    qemu_chr_lock(chr);
    chr_drop_msgfds(chr);
    qemu_chr_remove_source(chr, &chr->in_watch);
    qemu_chr_remove_source(chr, &chr->out_watch);
    qemu_chr_remove_source(chr, &chr->broken_idle);
    if (chr->outq) {
        g_byte_array_set_size(chr->outq, 0);
    }
    if (chr->in_fd >= 0 && chr->in_fd != STDIN_FILENO) {
        close(chr->in_fd);
    }
    if (chr->out_fd >= 0 && chr->out_fd != chr->in_fd &&
        chr->out_fd != STDOUT_FILENO) {
        close(chr->out_fd);
    }
    chr->in_fd = chr->out_fd = -1;
    if (chr->connected) {
        chr->connected = false;
        if (chr->handlers.event) {
            chr->handlers.event(chr->handlers.opaque, CHR_EVENT_CLOSED);
        }
    }
    if (chr->disconnected) {
        chr->disconnected(chr);
    }
    qemu_chr_unlock(chr);
}

void qemu_chr_disconnect(Chardev *chr)
{
    qemu_chr_lock(chr);
    if (chr->in_fd >= 0 || chr->out_fd >= 0) {
        qemu_chr_fd_detach(chr);
    }
    qemu_chr_unlock(chr);
}

static gboolean chr_broken_cb(gpointer opaque)
{
    Chardev *chr = opaque;

    qemu_chr_lock(chr);
    if (!chr_source_gone()) {
        chr->broken_idle = 0;
        qemu_chr_disconnect(chr);
    }
    qemu_chr_unlock(chr);
    return G_SOURCE_REMOVE;
}

/* The peer is gone; tell the frontend later, not from inside its handler. */
static void chr_mark_broken(Chardev *chr)
{
    if (chr->outq) {
        g_byte_array_set_size(chr->outq, 0);
    }
    if (!chr->broken_idle) {
        chr->broken_idle = chr_add_idle(chr, chr_broken_cb);
    }
}

static gboolean chr_readable_locked(Chardev *chr, gint fd)
{
    uint8_t buf[4096];
    size_t want = sizeof(buf);
    ssize_t n;

    if (chr->handlers.can_read) {
        size_t room = chr->handlers.can_read(chr->handlers.opaque);
        if (!room) {
            chr->read_paused = true;
            chr->in_watch = 0;
            return G_SOURCE_REMOVE;
        }
        want = MIN(want, room);
    }
    n = chr_recv(chr, fd, buf, want);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return G_SOURCE_CONTINUE;
    }
    if (n <= 0 && !chr->is_socket && chr->out_fd >= 0 &&
        chr->out_fd != chr->in_fd) {
        /* stdio whose input ended (</dev/null): output goes on, as QEMU */
        chr->in_watch = 0;
        chr->in_fd = -1;
        return G_SOURCE_REMOVE;
    }
    if (n <= 0) {
        chr->in_watch = 0;
        qemu_chr_fd_detach(chr);
        return G_SOURCE_REMOVE;
    }
    if (chr->handlers.read) {
        chr->handlers.read(chr->handlers.opaque, buf, n);
    }
    return G_SOURCE_CONTINUE;
}

static gboolean chr_readable(gint fd, GIOCondition cond, gpointer opaque)
{
    Chardev *chr = opaque;
    gboolean ret = G_SOURCE_REMOVE;

    qemu_chr_lock(chr);
    if (!chr_source_gone()) {
        ret = chr_readable_locked(chr, fd);
    }
    qemu_chr_unlock(chr);
    return ret;
}

void qemu_chr_accept_input(Chardev *chr)
{
    qemu_chr_lock(chr);
    if (chr->read_paused) {
        chr->read_paused = false;
        chr_watch_input(chr);
    }
    qemu_chr_unlock(chr);
}

/* Writes what the fd takes now; returns bytes written or -1 on error. */
static ssize_t chr_write_some(Chardev *chr, const uint8_t *buf, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = chr->is_socket
            ? send(chr->out_fd, buf + done, len - done, MSG_NOSIGNAL)
            : write(chr->out_fd, buf + done, len - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == EAGAIN) {
            if (chr->nonblock_write) {
                break;
            }
            /* stdout or a file someone made non-blocking: just wait */
            struct pollfd p = { .fd = chr->out_fd, .events = POLLOUT };
            poll(&p, 1, 1000);
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        done += n;
    }
    return done;
}

static gboolean chr_writable(gint fd, GIOCondition cond, gpointer opaque)
{
    Chardev *chr = opaque;
    gboolean ret = G_SOURCE_REMOVE;
    ssize_t n;

    qemu_chr_lock(chr);
    if (chr_source_gone()) {
        goto out;
    }
    n = chr_write_some(chr, chr->outq->data, chr->outq->len);
    if (n < 0) {
        chr->out_watch = 0;
        chr_mark_broken(chr);
        goto out;
    }
    g_byte_array_remove_range(chr->outq, 0, n);
    if (!chr->outq->len) {
        chr->out_watch = 0;
        goto out;
    }
    ret = G_SOURCE_CONTINUE;
out:
    qemu_chr_unlock(chr);
    return ret;
}

/* logfile=: what the frontend writes, whatever becomes of it */
static void chr_write_log(Chardev *chr, const uint8_t *buf, size_t len)
{
    while (chr->logfd >= 0 && len) {
        ssize_t n = write(chr->logfd, buf, len);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        buf += n;
        len -= n;
    }
}

static bool chr_write_all_locked(Chardev *chr, const uint8_t *buf,
                                 size_t len)
{
    ssize_t n = 0;

    chr_write_log(chr, buf, len);
    if (!chr->connected || chr->broken_idle) {
        return false;
    }
    if (chr->out_fd < 0) {
        return true; /* null backend, or stdio with a closed stdout */
    }
    if (!chr->outq) {
        chr->outq = g_byte_array_new();
    }
    if (!chr->outq->len) {
        n = chr_write_some(chr, buf, len);
        if (n < 0) {
            chr_mark_broken(chr);
            return false;
        }
    }
    if ((size_t)n < len) {
        if (chr->outq->len + (len - n) > CHR_MAX_QUEUED) {
            chr_mark_broken(chr);
            return false;
        }
        g_byte_array_append(chr->outq, buf + n, len - n);
        if (!chr->out_watch) {
            chr->out_watch = qemu_chr_add_fd_watch(chr, chr->out_fd,
                                                   G_IO_OUT, chr_writable);
        }
    }
    return true;
}

bool qemu_chr_write_all(Chardev *chr, const uint8_t *buf, size_t len)
{
    bool ok;

    qemu_chr_lock(chr);
    ok = chr_write_all_locked(chr, buf, len);
    qemu_chr_unlock(chr);
    return ok;
}

bool qemu_chr_set_handlers(Chardev *chr, const ChardevHandlers *h,
                           Error **errp)
{
    qemu_chr_lock(chr);
    if (chr->has_frontend) {
        qemu_chr_unlock(chr);
        error_setg(errp, "Device '%s' is in use", chr->id);
        return false;
    }
    chr->has_frontend = true;
    chr->handlers = *h;
    if (chr->connected && h->event) {
        h->event(h->opaque, CHR_EVENT_OPENED);
    }
    qemu_chr_unlock(chr);
    return true;
}

void qemu_chr_clear_handlers(Chardev *chr)
{
    qemu_chr_lock(chr);
    chr->has_frontend = false;
    memset(&chr->handlers, 0, sizeof(chr->handlers));
    if (chr->read_paused) {
        qemu_chr_accept_input(chr);
    }
    qemu_chr_unlock(chr);
}

/* Exit ------------------------------------------------------------------------ */

static void chr_flush_queue(Chardev *chr, gint64 deadline)
{
    while (chr->outq && chr->outq->len && chr->out_fd >= 0 &&
           !chr->broken_idle) {
        struct pollfd p = { .fd = chr->out_fd, .events = POLLOUT };
        gint64 left = (deadline - g_get_monotonic_time()) / 1000;
        ssize_t n;

        if (left <= 0 || poll(&p, 1, left) <= 0) {
            return;
        }
        n = chr_write_some(chr, chr->outq->data, chr->outq->len);
        if (n < 0) {
            return;
        }
        g_byte_array_remove_range(chr->outq, 0, n);
    }
}

void qemu_chr_cleanup(void)
{
    gint64 deadline = g_get_monotonic_time() + G_USEC_PER_SEC;
    GHashTableIter it;
    gpointer value;

    if (stdio_tty_saved) {
        tcsetattr(STDIN_FILENO, TCSANOW, &stdio_tty);
        stdio_tty_saved = false;
    }
    if (!chardevs) {
        return;
    }
    g_hash_table_iter_init(&it, chardevs);
    while (g_hash_table_iter_next(&it, NULL, &value)) {
        Chardev *chr = value;

        /* A reply to "quit" must reach the client before we exit */
        qemu_chr_lock(chr);
        chr_flush_queue(chr, deadline);
        qemu_chr_unlock(chr);
        if (chr->unlink_path) {
            unlink(chr->unlink_path);
            g_free(chr->unlink_path);
            chr->unlink_path = NULL;
        }
    }
}

void qemu_chr_register_cleanup(void)
{
    static bool done;

    if (!done) {
        done = true;
        /* A peer that vanished must not kill us with SIGPIPE */
        signal(SIGPIPE, SIG_IGN);
        atexit(qemu_chr_cleanup);
    }
}

/* Simple backends ------------------------------------------------------------ */

/*
 * A terminal on stdin: byte-at-a-time input without echo, so a guest
 * console behaves; Ctrl-C still signals unless signal=off.
 */
static void stdio_set_raw(bool keep_signals)
{
    struct termios tty;

    if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &stdio_tty) < 0) {
        return;
    }
    stdio_tty_saved = true;
    tty = stdio_tty;
    tty.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR |
                     ICRNL | IXON);
    tty.c_oflag |= OPOST;
    tty.c_lflag &= ~(ECHO | ECHONL | ICANON | IEXTEN);
    if (!keep_signals) {
        tty.c_lflag &= ~ISIG;
    }
    tty.c_cflag &= ~(CSIZE | PARENB);
    tty.c_cflag |= CS8;
    tty.c_cc[VMIN] = 1;
    tty.c_cc[VTIME] = 0;
    tcsetattr(STDIN_FILENO, TCSANOW, &tty);
}

static bool chr_open_stdio(Chardev *chr, QemuOpts *opts, Error **errp)
{
    bool sig;

    if (stdio_in_use) {
        error_setg(errp, "cannot use stdio by multiple character devices");
        return false;
    }
    if (os_is_daemonized()) {
        error_setg(errp, "cannot use stdio with -daemonize");
        return false;
    }
    if (!qemu_chr_opt_bool(opts, "signal", true, &sig, errp)) {
        return false;
    }
    stdio_in_use = true;
    chr->filename = g_strdup("stdio");
    stdio_set_raw(sig);
    qemu_chr_fd_attach(chr, STDIN_FILENO, STDOUT_FILENO);
    return true;
}

static bool chr_open_null(Chardev *chr, QemuOpts *opts, Error **errp)
{
    chr->filename = g_strdup("null");
    chr->connected = true;
    return true;
}

static bool chr_open_file(Chardev *chr, QemuOpts *opts, Error **errp)
{
    const char *path = qemu_opt_get(opts, "path");
    bool append;
    int fd;

    if (!qemu_chr_opt_bool(opts, "append", false, &append, errp)) {
        return false;
    }
    if (!path) {
        error_setg(errp, "chardev: file: no filename given");
        return false;
    }
    /* path may name an fd set (/dev/fdset/N) */
    fd = qemu_open_raw(path, O_WRONLY | O_CREAT |
                                 (append ? O_APPEND : O_TRUNC), 0666);
    if (fd < 0) {
        error_setg(errp, "Could not open '%s': %s", path, strerror(errno));
        return false;
    }
    chr->out_fd = fd;
    chr->filename = g_strdup_printf("file:%s", path);
    chr->connected = true;
    return true;
}

static bool chr_open_pty(Chardev *chr, QemuOpts *opts, Error **errp)
{
    struct termios tty;
    const char *name;
    int master, slave;

    master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 ||
        !(name = ptsname(master))) {
        error_setg(errp, "Failed to create PTY: %s", strerror(errno));
        if (master >= 0) {
            close(master);
        }
        return false;
    }
    slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        error_setg(errp, "Failed to open %s: %s", name, strerror(errno));
        close(master);
        return false;
    }
    if (tcgetattr(slave, &tty) == 0) {
        cfmakeraw(&tty);
        tcsetattr(slave, TCSAFLUSH, &tty);
    }
    /* slave stays open for the life of the process (see above) */
    chr->filename = g_strdup_printf("pty:%s", name);
    fprintf(stderr, "char device redirected to %s (label %s)\n", name,
            chr->id);
    chr->nonblock_write = true;
    g_unix_set_fd_nonblocking(master, TRUE, NULL);
    qemu_chr_fd_attach(chr, master, master);
    return true;
}

/* query-chardev: [{label, filename, frontend-open}] sorted by label */
JsonNode *qmp_query_chardev(Error **errp)
{
    JsonArray *arr = json_array_new();
    GList *ids = chardevs ? g_hash_table_get_keys(chardevs) : NULL, *l;

    ids = g_list_sort(ids, (GCompareFunc)strcmp);
    for (l = ids; l; l = l->next) {
        Chardev *chr = g_hash_table_lookup(chardevs, l->data);
        JsonObject *o = json_object_new();
        char *fn;

        if (chr->is_socket && chr->listen_fd >= 0 && !chr->connected) {
            fn = g_strdup_printf("disconnected:%s", chr->filename);
        } else {
            fn = g_strdup(chr->filename ? chr->filename : "");
        }
        json_object_set_string_member(o, "label", chr->id);
        json_object_set_string_member(o, "filename", fn);
        json_object_set_boolean_member(o, "frontend-open",
                                       chr->has_frontend && chr->connected);
        json_array_add_object_element(arr, o);
        g_free(fn);
    }
    g_list_free(ids);
    return json_node_init_array(json_node_alloc(), arr);
}

/* Registry and option parsing ------------------------------------------------ */

char *qemu_chr_legacy_to_opts(const char *spec)
{
    const char *colon;

    if (!strcmp(spec, "stdio") || !strcmp(spec, "null") ||
        !strcmp(spec, "pty")) {
        return g_strdup(spec);
    }
    if (!strcmp(spec, "vc") || g_str_has_prefix(spec, "vc:")) {
        return g_strdup("null");
    }
    if (g_str_has_prefix(spec, "file:")) {
        return g_strdup_printf("file,path=%s", spec + 5);
    }
    if (g_str_has_prefix(spec, "unix:")) {
        return g_strdup_printf("socket,path=%s", spec + 5);
    }
    if (g_str_has_prefix(spec, "tcp:")) {
        /* tcp:HOST:PORT[,opts]; the port is after the last colon */
        const char *addr = spec + 4, *comma = strchr(addr, ',');
        char *hostport = g_strndup(addr, comma ? (size_t)(comma - addr)
                                               : strlen(addr));
        char *opts = NULL;

        colon = strrchr(hostport, ':');
        if (colon) {
            opts = g_strdup_printf("socket,host=%.*s,port=%s%s",
                                   (int)(colon - hostport), hostport,
                                   colon + 1, comma ? comma : "");
        }
        g_free(hostport);
        return opts;
    }
    return NULL;
}

static const struct {
    const char *name;
    const char *type;
    bool (*open)(Chardev *chr, QemuOpts *opts, Error **errp);
} chardev_backends[] = {
    { "socket", TYPE_CHARDEV_SOCKET, qemu_chr_open_socket },
    { "stdio", "chardev-stdio", chr_open_stdio },
    { "null", "chardev-null", chr_open_null },
    { "file", "chardev-file", chr_open_file },
    { "pty", "chardev-pty", chr_open_pty },
};

/*
 * Keys -chardev accepts for every backend and their types (QEMU checks the
 * union, not per backend); keys whose feature this build lacks are refused
 * in chr_check_unsupported().
 */
const QemuOptDesc qemu_chardev_opts[] = {
    { "backend", QEMU_OPT_STRING }, { "id", QEMU_OPT_STRING },
    { "path", QEMU_OPT_STRING }, { "fd", QEMU_OPT_STRING },
    { "server", QEMU_OPT_BOOL }, { "wait", QEMU_OPT_BOOL },
    { "append", QEMU_OPT_BOOL }, { "signal", QEMU_OPT_BOOL },
    { "mux", QEMU_OPT_BOOL }, { "logfile", QEMU_OPT_STRING },
    { "logappend", QEMU_OPT_BOOL }, { "host", QEMU_OPT_STRING },
    { "port", QEMU_OPT_STRING }, { "to", QEMU_OPT_NUMBER },
    { "ipv4", QEMU_OPT_BOOL }, { "ipv6", QEMU_OPT_BOOL },
    { "delay", QEMU_OPT_BOOL }, { "nodelay", QEMU_OPT_BOOL },
    { "reconnect", QEMU_OPT_NUMBER }, { "telnet", QEMU_OPT_BOOL },
    { "tn3270", QEMU_OPT_BOOL }, { "websocket", QEMU_OPT_BOOL },
    { "abstract", QEMU_OPT_BOOL }, { "tight", QEMU_OPT_BOOL },
    { "local", QEMU_OPT_STRING }, { "localaddr", QEMU_OPT_STRING },
    { "localport", QEMU_OPT_STRING }, { "tls-creds", QEMU_OPT_STRING },
    { "tls-authz", QEMU_OPT_STRING }, { "name", QEMU_OPT_STRING },
    { "debug", QEMU_OPT_NUMBER }, { "size", QEMU_OPT_SIZE },
    { "chardev", QEMU_OPT_STRING }, { "width", QEMU_OPT_NUMBER },
    { "height", QEMU_OPT_NUMBER }, { "cols", QEMU_OPT_NUMBER },
    { "rows", QEMU_OPT_NUMBER }, { NULL },
};

/* Every occurrence of every key, as QEMU checks them when parsing */
static bool chr_check_keys(QemuOpts *opts, Error **errp)
{
    return qemu_opts_validate(opts, qemu_chardev_opts, false, errp);
}

static bool chr_check_unsupported(QemuOpts *opts, Error **errp)
{
    static const char *const off_ok[] = {
        "mux", "telnet", "tn3270", "websocket", NULL,
    };
    bool on;
    int i;

    for (i = 0; off_ok[i]; i++) {
        if (!qemu_chr_opt_bool(opts, off_ok[i], false, &on, errp)) {
            return false;
        }
        if (on) {
            error_setg(errp, "chardev option '%s' is not supported by this "
                       "build", off_ok[i]);
            return false;
        }
    }
    return true;
}

static void chardev_register_types(void)
{
    static const TypeInfo types[] = {
        { .name = TYPE_CHARDEV, .parent = TYPE_OBJECT,
          .instance_size = sizeof(Chardev), .abstract = true },
        { .name = TYPE_CHARDEV_FD, .parent = TYPE_CHARDEV, .abstract = true },
        { .name = "chardev-file", .parent = TYPE_CHARDEV_FD },
        { .name = "chardev-stdio", .parent = TYPE_CHARDEV_FD },
        { .name = "chardev-pty", .parent = TYPE_CHARDEV },
        { .name = "chardev-null", .parent = TYPE_CHARDEV },
        { .name = TYPE_CHARDEV_SOCKET, .parent = TYPE_CHARDEV },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(types); i++) {
        type_register_static(&types[i]);
    }
}
type_init(chardev_register_types)

/* logfile= (an fd set too), truncated unless logappend=on, as QEMU */
static bool chr_open_log(Chardev *chr, QemuOpts *opts, Error **errp)
{
    const char *path = qemu_opt_get(opts, "logfile");
    bool append;

    if (!qemu_chr_opt_bool(opts, "logappend", false, &append, errp)) {
        return false;
    }
    if (!path) {
        return true;
    }
    chr->logfd = qemu_create(path, O_WRONLY | (append ? O_APPEND : O_TRUNC),
                             0666, errp);
    return chr->logfd >= 0;
}

static Chardev *chr_new(const char *id, QemuOpts *opts, Error **errp)
{
    const char *backend = qemu_opt_get(opts, "backend");
    Chardev *chr;
    size_t i;

    if (!chr_check_keys(opts, errp)) {
        return NULL;
    }
    if (!backend) {
        error_setg(errp, "chardev: \"%s\" missing backend", id);
        return NULL;
    }
    for (i = 0; i < G_N_ELEMENTS(chardev_backends); i++) {
        if (!strcmp(chardev_backends[i].name, backend)) {
            break;
        }
    }
    if (i == G_N_ELEMENTS(chardev_backends)) {
        error_setg(errp, "'%s' is not a valid char driver name", backend);
        return NULL;
    }
    if (qemu_chr_find(id)) {
        error_setg(errp, "Duplicate ID '%s' for chardev", id);
        return NULL;
    }
    if (!chr_check_unsupported(opts, errp)) {
        return NULL;
    }
    qemu_chr_register_cleanup();
    chr = (Chardev *)object_new(chardev_backends[i].type);
    chr->id = g_strdup(id);
    chr->in_fd = chr->out_fd = chr->listen_fd = chr->logfd = -1;
    g_rec_mutex_init(&chr->lock);
    if (!chr_open_log(chr, opts, errp) ||
        !chardev_backends[i].open(chr, opts, errp)) {
        if (chr->logfd >= 0) {
            qemu_close(chr->logfd);
        }
        g_rec_mutex_clear(&chr->lock);
        g_free(chr->id);
        object_unref(OBJECT(chr));
        return NULL;
    }
    if (!chardevs) {
        chardevs = g_hash_table_new(g_str_hash, g_str_equal);
    }
    g_hash_table_insert(chardevs, chr->id, chr);
    object_property_add_child(object_get_container("chardevs"), chr->id,
                              OBJECT(chr));
    return chr;
}

Chardev *qemu_chr_new_from_str(const char *id, const char *optstr,
                               Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optstr, "backend", errp);
    Chardev *chr;

    if (!opts) {
        return NULL;
    }
    chr = chr_new(id, opts, errp);
    qemu_opts_free(opts);
    return chr;
}

bool qemu_chardev_add(const char *optstr, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optstr, "backend", errp);
    const char *id;
    Chardev *chr = NULL;

    if (!opts) {
        return false;
    }
    /* QEMU takes the first id of a key=value option */
    id = qemu_opt_get_first(opts, "id");
    if (!chr_check_keys(opts, errp)) {
        /* reported first, as QEMU validates options before their values */
    } else if (!id) {
        /* QEMU says "chardev: no id specified"; kept as the tests expect */
        error_setg(errp, "Parameter 'id' is missing");
    } else if (!id_wellformed(id)) {
        error_setg(errp, "Parameter 'id' expects an identifier");
        error_append_hint(errp, "Identifiers consist of letters, digits, "
                          "'-', '.', '_', starting with a letter.\n");
    } else {
        chr = chr_new(id, opts, errp);
    }
    qemu_opts_free(opts);
    return chr != NULL;
}
