/*
 * Stream socket chardev, unix (path=) or TCP (host=, port=):
 *  - server=on: listen on path= (or on an inherited listening fd=N, as
 *    libvirt passes its monitor socket); one client at a time, and the
 *    next one is accepted when it leaves.  wait=on (the default for a
 *    server) blocks start-up until the first client connects.
 *  - server=off (the default): connect at start-up to a socket someone
 *    else listens on, as upstream's libqtest wants; fd=N may also be an
 *    already connected socket.
 * The socket file a server created is removed at exit.  TCP: an empty
 * host listens on 0.0.0.0 (a client connects to localhost); nodelay=on
 * turns Nagle off.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "chardev/char-internal.h"

static gboolean socket_accept(gint fd, GIOCondition cond, gpointer opaque)
{
    Chardev *chr = opaque;
    GSource *self = g_main_current_source();
    int cfd;

    qemu_chr_lock(chr);
    if (self && g_source_is_destroyed(self)) {
        /* another thread stopped listening while we waited */
        qemu_chr_unlock(chr);
        return G_SOURCE_REMOVE;
    }
    cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
    if (cfd < 0) {
        /* EAGAIN/ECONNABORTED/EMFILE...: keep listening */
        qemu_chr_unlock(chr);
        return G_SOURCE_CONTINUE;
    }
    /* One client at a time: later ones wait in the backlog */
    chr->listen_watch = 0;
    qemu_chr_fd_attach(chr, cfd, cfd);
    qemu_chr_unlock(chr);
    return G_SOURCE_REMOVE;
}

void qemu_chr_socket_listen(Chardev *chr)
{
    qemu_chr_lock(chr);
    if (chr->listen_fd >= 0 && !chr->listen_watch) {
        chr->listen_watch = qemu_chr_add_fd_watch(chr, chr->listen_fd,
                                                  G_IO_IN, socket_accept);
    }
    qemu_chr_unlock(chr);
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

/* Blocks until the first client connects (server=on,wait=on). */
static void socket_wait_client(Chardev *chr, const char *desc)
{
    int cfd;

    error_report("info: QEMU waiting for connection on: disconnected:%s,"
                 "server=on", desc);
    g_unix_set_fd_nonblocking(chr->listen_fd, FALSE, NULL);
    do {
        cfd = accept4(chr->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    } while (cfd < 0 && errno == EINTR);
    g_unix_set_fd_nonblocking(chr->listen_fd, TRUE, NULL);
    if (cfd >= 0) {
        qemu_chr_fd_attach(chr, cfd, cfd);
    } else {
        qemu_chr_socket_listen(chr);
    }
}

/* A listening socket: accept clients from the main loop (or wait now) */
static void socket_serve(Chardev *chr, int fd, const char *desc, bool wait)
{
    g_unix_set_fd_nonblocking(fd, TRUE, NULL);
    chr->listen_fd = fd;
    chr->disconnected = qemu_chr_socket_listen;
    if (wait) {
        socket_wait_client(chr, desc);
    } else {
        qemu_chr_socket_listen(chr);
    }
}

/* TCP: a listening (server) or connected socket for host:port, or -1 */
static int socket_tcp(const char *host, const char *port, bool server,
                      Error **errp)
{
    struct addrinfo hints = { 0 }, *res, *ai;
    int fd = -1, rc, err = 0;
    const char *node = *host ? host : server ? NULL : "localhost";
    int one = 1;

    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = server ? AI_PASSIVE : 0;
    rc = getaddrinfo(node, port, &hints, &res);
    if (rc) {
        error_setg(errp, "address resolution failed for %s:%s: %s", host,
                   port, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            err = errno;
            continue;
        }
        if (server) {
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
            if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
                listen(fd, 1) == 0) {
                break;
            }
        } else if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            break;
        }
        err = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        if (server) {
            error_setg(errp, "Failed to bind socket to %s:%s: %s", host,
                       port, strerror(err));
        } else {
            error_setg(errp, "Failed to connect to '%s:%s': %s", host, port,
                       strerror(err));
        }
    }
    return fd;
}

static bool socket_open_tcp(Chardev *chr, QemuOpts *opts, bool server,
                            bool wait, Error **errp)
{
    const char *host = qemu_opt_get(opts, "host");
    const char *port = qemu_opt_get(opts, "port");
    bool nodelay;
    char *desc;
    int fd, one = 1;

    host = host ? host : "";
    if (server && !*host) {
        host = "0.0.0.0";           /* as QEMU: every IPv4 address */
    }
    if (!port || !*port) {
        error_setg(errp, "chardev: socket: no port given");
        return false;
    }
    if (!qemu_chr_opt_bool(opts, "nodelay", false, &nodelay, errp)) {
        return false;
    }
    fd = socket_tcp(host, port, server, errp);
    if (fd < 0) {
        return false;
    }
    if (nodelay) {
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    }
    desc = g_strdup_printf("tcp:%s:%s", host, port);
    chr->filename = g_strdup_printf("%s%s", desc, server ? ",server=on" : "");
    if (server) {
        socket_serve(chr, fd, desc, wait);
    } else {
        qemu_chr_fd_attach(chr, fd, fd);
    }
    g_free(desc);
    return true;
}

static bool socket_open_fd(Chardev *chr, const char *fdstr, bool server,
                           bool wait, Error **errp)
{
    int listening = 0;
    socklen_t optlen = sizeof(listening);
    struct stat st;
    char *end, *desc;
    long n;

    errno = 0;
    n = strtol(fdstr, &end, 10);
    if (!*fdstr || *end || errno || n < 0 || n > INT32_MAX) {
        error_setg(errp, "Unable to parse FD number %s", fdstr);
        return false;
    }
    if (fstat(n, &st) < 0 || !S_ISSOCK(st.st_mode)) {
        error_setg(errp, "File descriptor '%s' is not a socket", fdstr);
        return false;
    }
    fcntl(n, F_SETFD, FD_CLOEXEC);
    getsockopt(n, SOL_SOCKET, SO_ACCEPTCONN, &listening, &optlen);
    if (!listening && !server) {
        /* an already connected socket handed to us */
        qemu_chr_fd_attach(chr, n, n);
        return true;
    }
    if (!listening) {
        error_setg(errp, "File descriptor '%s' is not a listening socket",
                   fdstr);
        return false;
    }
    chr->filename = g_strdup_printf("fd:%s%s", fdstr,
                                    server ? ",server=on" : "");
    desc = g_strdup_printf("fd:%s", fdstr);
    socket_serve(chr, n, desc, server && wait);
    g_free(desc);
    return true;
}

bool qemu_chr_open_socket(Chardev *chr, QemuOpts *opts, Error **errp)
{
    const char *path = qemu_opt_get(opts, "path");
    const char *fdstr = qemu_opt_get(opts, "fd");
    const char *reconnect = qemu_opt_get(opts, "reconnect");
    bool server, wait;
    struct sockaddr_un sa;
    char *desc;
    int fd;

    if (!qemu_chr_opt_bool(opts, "server", false, &server, errp) ||
        !qemu_chr_opt_bool(opts, "wait", server, &wait, errp)) {
        return false;
    }
    chr->is_socket = true;
    chr->nonblock_write = true;
    if ((path && fdstr) ||
        ((path || fdstr) && qemu_opt_get(opts, "host"))) {
        error_setg(errp, "None or one of 'path', 'fd' or 'host' option "
                   "required.");
        return false;
    }
    if (!server && qemu_opt_get(opts, "wait")) {
        error_setg(errp, "'wait' option is incompatible with socket in "
                   "client connect mode");
        return false;
    }
    if (reconnect && strcmp(reconnect, "0")) {
        error_setg(errp, "chardev option 'reconnect' is not supported by "
                   "this build");
        return false;
    }
    if (fdstr) {
        return socket_open_fd(chr, fdstr, server, wait, errp);
    }
    if (!path) {
        if (qemu_opt_get(opts, "host") || qemu_opt_get(opts, "port")) {
            return socket_open_tcp(chr, opts, server, wait, errp);
        } else {
            /* QEMU's text when neither path nor fd is given */
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
        chr->filename = g_strdup_printf("unix:%s", path);
        qemu_chr_fd_attach(chr, fd, fd);
        return true;
    }
    /* A stale file from an earlier run would make bind() fail */
    unlink(path);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        listen(fd, 1) < 0) {
        error_setg(errp, "Failed to bind socket to %s: %s", path,
                   strerror(errno));
        close(fd);
        return false;
    }
    chr->filename = g_strdup_printf("unix:%s,server=on", path);
    chr->unlink_path = g_strdup(path);
    desc = g_strdup_printf("unix:%s", path);
    socket_serve(chr, fd, desc, wait);
    g_free(desc);
    return true;
}
