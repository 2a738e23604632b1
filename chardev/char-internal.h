/*
 * Chardev internals shared by the files of chardev/.
 */
#ifndef CHARDEV_CHAR_INTERNAL_H
#define CHARDEV_CHAR_INTERNAL_H

#include <glib.h>
#include <glib-unix.h>

#include "chardev/char.h"
#include "qemu/option.h"
#include "qom/object.h"

#define TYPE_CHARDEV "chardev"
#define TYPE_CHARDEV_FD "chardev-fd"
#define TYPE_CHARDEV_SOCKET "chardev-socket"

/* Output a peer may leave unread before it is considered gone */
#define CHR_MAX_QUEUED (64 * 1024 * 1024)

struct Chardev {
    Object parent_obj;
    char *id;
    int in_fd, out_fd;     /* the connection (or stdio/file fds) */
    int listen_fd;         /* server sockets */
    guint in_watch, out_watch, listen_watch, broken_idle;
    bool connected;
    bool is_socket;        /* non-blocking connection, send() */
    bool nonblock_write;   /* queue on EAGAIN (sockets, ptys) */
    char *filename;        /* for query-chardev ("pty:/dev/pts/3") */
    bool read_paused;      /* the frontend's can_read said 0 */
    bool has_frontend;
    ChardevHandlers handlers;
    GRecMutex lock;        /* the I/O state; see char.c */
    GMainContext *context; /* where its watches run; NULL: the default */
    GByteArray *outq;      /* output the peer has not taken yet */
    char *unlink_path;     /* listening socket file, removed at exit */
    int logfd;             /* logfile=: a copy of the output, or -1 */
    GArray *msgfds;        /* int: fds that came with the last read */
    /* Called after a connection ends (servers listen again) */
    void (*disconnected)(Chardev *chr);
};

void qemu_chr_fd_attach(Chardev *chr, int in_fd, int out_fd);
/* A watch (fn gets chr) in the chardev's context; its source id */
guint qemu_chr_add_fd_watch(Chardev *chr, int fd, GIOCondition cond,
                            GUnixFDSourceFunc fn);
/* Destroys the source *id names in the chardev's context; *id = 0 */
void qemu_chr_remove_source(Chardev *chr, guint *id);
/* A server socket listens for the next client (char-socket.c) */
void qemu_chr_socket_listen(Chardev *chr);
void qemu_chr_fd_detach(Chardev *chr);
bool qemu_chr_open_socket(Chardev *chr, QemuOpts *opts, Error **errp);
void qemu_chr_register_cleanup(void);
/* qemu_opt_get_bool() with a separate success result */
bool qemu_chr_opt_bool(QemuOpts *opts, const char *name, bool defval,
                       bool *out, Error **errp);

#endif
