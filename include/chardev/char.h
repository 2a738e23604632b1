/*
 * Character devices: -chardev socket (unix, server or client, or an
 * inherited listening fd), stdio, null, file.  One frontend per chardev.
 */
#ifndef CHARDEV_CHAR_H
#define CHARDEV_CHAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qapi/error.h"

typedef struct Chardev Chardev;

typedef enum ChardevEvent {
    CHR_EVENT_OPENED,
    CHR_EVENT_CLOSED,
} ChardevEvent;

typedef struct ChardevHandlers {
    void (*read)(void *opaque, const uint8_t *buf, size_t len);
    void (*event)(void *opaque, ChardevEvent event);
    void *opaque;
} ChardevHandlers;

/* -chardev BACKEND,id=ID,... */
bool qemu_chardev_add(const char *optstr, Error **errp);
Chardev *qemu_chr_find(const char *id);
/* Creates an anonymous chardev (for -qmp); returns it or NULL. */
Chardev *qemu_chr_new_from_str(const char *id, const char *optstr,
                               Error **errp);
/* Attaches the single frontend; fails if one is attached already. */
bool qemu_chr_set_handlers(Chardev *chr, const ChardevHandlers *h,
                           Error **errp);
/* Writes everything or drops the connection; returns false if dropped. */
bool qemu_chr_write_all(Chardev *chr, const uint8_t *buf, size_t len);
bool qemu_chr_is_connected(Chardev *chr);

#endif
