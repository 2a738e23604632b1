/*
 * Unix stream socket chardev: a server that accepts one client at a time
 * (and listens again when it leaves), a client that connects at start-up
 * (how upstream's libqtest wants it), or an inherited listening fd
 * (fd=N, as libvirt passes its monitor socket).
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "chardev/char-internal.h"

static gboolean socket_accept(gint fd, GIOCondition cond, gpointer opaque)
{
    Chardev *chr = opaque;
    int cfd;

    cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
    if (cfd < 0) {
        return G_SOURCE_CONTINUE;
    }
    /* One client at a time: wait for the current one to leave */
    chr->listen_watch = 0;
    qemu_chr_fd_attach(chr, cfd, cfd);
    return G_SOURCE_REMOVE;
}

static void socket_listen_again(Chardev *chr)
{
    if (chr->listen_fd >= 0 && !chr->listen_watch) {
        chr->listen_watch = g_unix_fd_add(chr->listen_fd, G_IO_IN,
                                          socket_accept, chr);
    }
}

static bool socket_fill_addr(struct sockaddr_un *sa, const char *path,
                             Error **errp)
{
    memset(sa, 0, sizeof(*sa));
    sa->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(sa->sun_path)) {
        error_setg(errp, "UNIX socket path '%s' is too long", path);
        return false;
    }
    strcpy(sa->sun_path, path);
    return true;
}

bool qemu_chr_open_socket(Chardev *chr, QemuOpts *opts, Error **errp)
{
    const char *path = qemu_opt_get(opts, "path");
    const char *fdstr = qemu_opt_get(opts, "fd");
    Error *err = NULL;
    bool server = qemu_opt_get_bool(opts, "server", false, &err);
    bool wait = qemu_opt_get_bool(opts, "wait", true, &err);
    struct sockaddr_un sa;
    int fd;

    qemu_opt_get(opts, "id");
    qemu_opt_get(opts, "telnet");
    if (err) {
        error_propagate(errp, err);
        return false;
    }
    if (fdstr) {
        char *end;
        long n = strtol(fdstr, &end, 10);
        if (!*fdstr || *end || n < 0 || fcntl(n, F_GETFD) < 0) {
            error_setg(errp, "Unable to parse FD number %s", fdstr);
            return false;
        }
        fcntl(n, F_SETFD, FD_CLOEXEC);
        chr->listen_fd = n;
        chr->disconnected = socket_listen_again;
        socket_listen_again(chr);
        return true;
    }
    if (!path) {
        if (qemu_opt_get(opts, "host") || qemu_opt_get(opts, "port")) {
            error_setg(errp, "TCP sockets are not supported by this build");
        } else {
            error_setg(errp, "Unable to parse FD number ");
        }
        return false;
    }
    if (!socket_fill_addr(&sa, path, errp)) {
        return false;
    }
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error_setg(errp, "Failed to create socket: %s", strerror(errno));
        return false;
    }
    if (!server) {
        if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
            error_setg(errp, "Failed to connect to '%s': %s", path,
                       strerror(errno));
            close(fd);
            return false;
        }
        qemu_chr_fd_attach(chr, fd, fd);
        return true;
    }
    unlink(path);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        listen(fd, 1) < 0) {
        error_setg(errp, "Failed to bind socket to %s: %s", path,
                   strerror(errno));
        close(fd);
        return false;
    }
    chr->listen_fd = fd;
    chr->disconnected = socket_listen_again;
    if (wait) {
        int cfd;
        fprintf(stderr, "qemu-system-x86_64: -chardev socket,path=%s: "
                "info: QEMU waiting for connection on: disconnected:unix:%s,"
                "server=on\n", path, path);
        do {
            cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
        } while (cfd < 0 && errno == EINTR);
        if (cfd >= 0) {
            qemu_chr_fd_attach(chr, cfd, cfd);
            return true;
        }
    }
    socket_listen_again(chr);
    return true;
}
