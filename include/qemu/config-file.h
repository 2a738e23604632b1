/*
 * QEMU's config file format (util/config-file.c), for -readconfig and
 * blkdebug's config=:
 *
 *   # comment
 *   [group]
 *   [group "id"]
 *   key = "value"
 *
 * Empty lines and lines starting with '#' are skipped; a key line before
 * any group is "no group defined", a line that is none of these is
 * "parse error" (QEMU 7.2's texts).  A group's keys come in file order,
 * a key given twice twice (a reader takes the last, as QemuOpts).
 */
#ifndef QEMU_CONFIG_FILE_H
#define QEMU_CONFIG_FILE_H

#include <stdio.h>
#include <glib.h>

#include "qapi/error.h"

typedef struct ConfigGroup {
    const char *name;
    const char *id;                 /* NULL: [name] without one */
    GPtrArray *keys, *values;       /* char*, in file order */
    int line;                       /* the last key line read, or 0 */
} ConfigGroup;

/* Called once per group, when the group has ended */
typedef bool (*ConfigGroupFn)(const ConfigGroup *g, void *opaque,
                              Error **errp);

/*
 * Reads f to its end with plain blocking reads in the calling thread (a
 * FIFO's reader waits for its writer, as in QEMU), handing each group to
 * fn; stops at the first error.  *err_line is the line of a syntax error
 * (for the caller's location), else 0.
 */
bool qemu_config_parse(FILE *f, ConfigGroupFn fn, void *opaque,
                       int *err_line, Error **errp);

#endif
