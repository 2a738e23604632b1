/*
 * Character devices: parsing -chardev, the registry, and the simple
 * backends (stdio, null, file).  Sockets are in char-socket.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "chardev/char-internal.h"
#include "qemu/option.h"

static GHashTable *chardevs; /* id -> Chardev* */

Chardev *qemu_chr_find(const char *id)
{
    return chardevs ? g_hash_table_lookup(chardevs, id) : NULL;
}

void qemu_chr_fd_attach(Chardev *chr, int in_fd, int out_fd)
{
    chr->in_fd = in_fd;
    chr->out_fd = out_fd;
    if (in_fd >= 0) {
        chr->in_watch = g_unix_fd_add(in_fd, G_IO_IN | G_IO_HUP | G_IO_ERR,
                                      qemu_chr_fd_readable, chr);
    }
    chr->connected = true;
    if (chr->handlers.event) {
        chr->handlers.event(chr->handlers.opaque, CHR_EVENT_OPENED);
    }
}

void qemu_chr_fd_detach(Chardev *chr)
{
    if (chr->in_watch) {
        g_source_remove(chr->in_watch);
        chr->in_watch = 0;
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
}

gboolean qemu_chr_fd_readable(gint fd, GIOCondition cond, gpointer opaque)
{
    Chardev *chr = opaque;
    uint8_t buf[4096];
    ssize_t n;

    n = read(fd, buf, sizeof(buf));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return G_SOURCE_CONTINUE;
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

bool qemu_chr_write_all(Chardev *chr, const uint8_t *buf, size_t len)
{
    while (len && chr->out_fd >= 0) {
        ssize_t n = write(chr->out_fd, buf, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == EAGAIN) {
            /* A slow reader: wait until it can take more */
            GPollFD p = { .fd = chr->out_fd, .events = G_IO_OUT };
            if (g_poll(&p, 1, 5000) <= 0) {
                qemu_chr_fd_detach(chr);
                return false;
            }
            continue;
        }
        if (n <= 0) {
            qemu_chr_fd_detach(chr);
            return false;
        }
        buf += n;
        len -= n;
    }
    return len == 0;
}

bool qemu_chr_is_connected(Chardev *chr)
{
    return chr->connected;
}

bool qemu_chr_set_handlers(Chardev *chr, const ChardevHandlers *h,
                           Error **errp)
{
    if (chr->has_frontend) {
        error_setg(errp, "chardev '%s' is already in use", chr->id);
        return false;
    }
    chr->has_frontend = true;
    chr->handlers = *h;
    if (chr->connected && h->event) {
        h->event(h->opaque, CHR_EVENT_OPENED);
    }
    return true;
}

static Chardev *chr_alloc(const char *id)
{
    Chardev *chr = g_new0(Chardev, 1);

    chr->id = g_strdup(id);
    chr->in_fd = chr->out_fd = chr->listen_fd = -1;
    return chr;
}

static bool chr_open_stdio(Chardev *chr, QemuOpts *opts, Error **errp)
{
    qemu_chr_fd_attach(chr, STDIN_FILENO, STDOUT_FILENO);
    return true;
}

static bool chr_open_null(Chardev *chr, QemuOpts *opts, Error **errp)
{
    chr->connected = true;
    return true;
}

static bool chr_open_file(Chardev *chr, QemuOpts *opts, Error **errp)
{
    const char *path = qemu_opt_get(opts, "path");
    bool append = qemu_opt_get_bool(opts, "append", false, NULL);
    int fd;

    if (!path) {
        error_setg(errp, "chardev: file: no filename given");
        return false;
    }
    fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC |
                        (append ? O_APPEND : O_TRUNC), 0666);
    if (fd < 0) {
        error_setg(errp, "Could not open '%s': %s", path, strerror(errno));
        return false;
    }
    chr->out_fd = fd;
    chr->connected = true;
    return true;
}

static const struct {
    const char *name;
    bool (*open)(Chardev *chr, QemuOpts *opts, Error **errp);
} chardev_backends[] = {
    { "socket", qemu_chr_open_socket },
    { "stdio", chr_open_stdio },
    { "null", chr_open_null },
    { "file", chr_open_file },
};

static Chardev *chr_new(const char *id, QemuOpts *opts, Error **errp)
{
    const char *backend = qemu_opt_get(opts, "backend");
    Chardev *chr;
    size_t i;

    if (!backend) {
        error_setg(errp, "chardev: \"%s\" missing backend", id ? id : "");
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
        error_setg(errp, "attempt to add duplicate property '%s' to object "
                   "(type 'container')", id);
        return NULL;
    }
    chr = chr_alloc(id);
    if (!chardev_backends[i].open(chr, opts, errp)) {
        g_free(chr->id);
        g_free(chr);
        return NULL;
    }
    if (!chardevs) {
        chardevs = g_hash_table_new(g_str_hash, g_str_equal);
    }
    g_hash_table_insert(chardevs, chr->id, chr);
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
    Chardev *chr;

    if (!opts) {
        return false;
    }
    id = qemu_opt_get(opts, "id");
    if (!id) {
        error_setg(errp, "Parameter 'id' is missing");
        qemu_opts_free(opts);
        return false;
    }
    chr = chr_new(id, opts, errp);
    qemu_opts_free(opts);
    return chr != NULL;
}
