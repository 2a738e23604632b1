/*
 * Chardev internals shared by the files of chardev/.
 */
#ifndef CHARDEV_CHAR_INTERNAL_H
#define CHARDEV_CHAR_INTERNAL_H

#include <glib.h>
#include <glib-unix.h>

#include "chardev/char.h"
#include "qemu/option.h"

struct Chardev {
    char *id;
    int in_fd, out_fd;     /* the connection (or stdio/file fds) */
    int listen_fd;         /* server sockets */
    guint in_watch, listen_watch;
    bool connected;
    bool has_frontend;
    ChardevHandlers handlers;
    /* Called after a connection ends (servers listen again) */
    void (*disconnected)(Chardev *chr);
};

void qemu_chr_fd_attach(Chardev *chr, int in_fd, int out_fd);
void qemu_chr_fd_detach(Chardev *chr);
gboolean qemu_chr_fd_readable(gint fd, GIOCondition cond, gpointer opaque);
bool qemu_chr_open_socket(Chardev *chr, QemuOpts *opts, Error **errp);

#endif
