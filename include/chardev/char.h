/*
 * Character devices: -chardev socket (unix, server or client, or an
 * inherited listening fd), stdio, null, file.  One frontend per chardev.
 *
 * Every callback runs on the main thread from the GLib main context.
 * Writes never stall the main loop on a socket: what the peer does not
 * take at once is queued and sent when the socket becomes writable.
 * Each chardev is also a QOM object at /chardevs/ID (type chardev-BACKEND).
 */
#ifndef CHARDEV_CHAR_H
#define CHARDEV_CHAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>

#include "qapi/error.h"
#include "qemu/option.h"

typedef struct Chardev Chardev;

typedef enum ChardevEvent {
    CHR_EVENT_OPENED,
    CHR_EVENT_CLOSED,
} ChardevEvent;

typedef struct ChardevHandlers {
    void (*read)(void *opaque, const uint8_t *buf, size_t len);
    void (*event)(void *opaque, ChardevEvent event);
    void *opaque;
    /*
     * Optional flow control: how many bytes the frontend can take now;
     * 0 pauses reading until qemu_chr_accept_input().
     */
    size_t (*can_read)(void *opaque);
} ChardevHandlers;

/* -chardev BACKEND,id=ID,... */
bool qemu_chardev_add(const char *optstr, Error **errp);
Chardev *qemu_chr_find(const char *id);
/*
 * QEMU's legacy chardev shorthand (-serial, -qmp, -qtest) as -chardev
 * options: "stdio", "null", "vc[:...]" (a sink: no consoles here), "pty",
 * "file:PATH", "unix:PATH[,opts]", "tcp:[HOST]:PORT[,opts]".  NULL if the
 * spec is none of these.
 */
char *qemu_chr_legacy_to_opts(const char *spec);
/* The keys of -chardev and their types (checked as each -chardev is read) */
extern const QemuOptDesc qemu_chardev_opts[];
/* Creates an anonymous chardev (for -qmp); returns it or NULL. */
Chardev *qemu_chr_new_from_str(const char *id, const char *optstr,
                               Error **errp);
/* Attaches the single frontend; fails if one is attached already. */
bool qemu_chr_set_handlers(Chardev *chr, const ChardevHandlers *h,
                           Error **errp);
/* Detaches the frontend (it is going away); the chardev stays. */
void qemu_chr_clear_handlers(Chardev *chr);
/* Writes everything or drops the connection; returns false if dropped. */
bool qemu_chr_write_all(Chardev *chr, const uint8_t *buf, size_t len);
bool qemu_chr_is_connected(Chardev *chr);
const char *qemu_chr_get_id(Chardev *chr);
/*
 * The first fd that came (SCM_RIGHTS, unix sockets) with the data read
 * last, now the caller's, or -1; the others that came with it are closed.
 * Unclaimed fds are closed when the next fds arrive or the peer leaves.
 */
int qemu_chr_take_msgfd(Chardev *chr);
/* Resumes reading after the frontend's can_read returned 0. */
void qemu_chr_accept_input(Chardev *chr);
/*
 * Moves the chardev's watches to @context (NULL: the default one): its
 * frontend's handlers then run in the thread that runs @context.
 */
void qemu_chr_set_context(Chardev *chr, GMainContext *context);
/*
 * The chardev's recursive lock, held while its handlers run: a frontend
 * living in two threads takes it to act atomically with them.
 */
void qemu_chr_lock(Chardev *chr);
void qemu_chr_unlock(Chardev *chr);
/* Drops the current peer; a server then accepts the next client. */
void qemu_chr_disconnect(Chardev *chr);
/*
 * Sends queued output (waiting at most about a second) and removes the
 * files of listening sockets.  Registered with atexit(); idempotent.
 */
void qemu_chr_cleanup(void);

#endif
