/*
 * Comma-separated option strings, QEMU style: "value,key=value,flag,...".
 * ",," stands for a literal comma inside a value.  A first element without
 * "=" is stored under the implied key (e.g. "type" for -machine, "backend"
 * for -chardev), if the caller names one; later elements without "=" are
 * boolean flags ("key" means key=on).
 */
#ifndef QEMU_OPTION_H
#define QEMU_OPTION_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "qapi/error.h"

typedef struct QemuOpt {
    char *name;
    char *value;
    bool used;
} QemuOpt;

typedef struct QemuOpts {
    GPtrArray *opts; /* QemuOpt*, in order */
} QemuOpts;

QemuOpts *qemu_opts_parse(const char *params, const char *implied_key,
                          Error **errp);
void qemu_opts_free(QemuOpts *opts);
/* Last value given for name, or NULL; marks it used. */
const char *qemu_opt_get(QemuOpts *opts, const char *name);
bool qemu_opt_get_bool(QemuOpts *opts, const char *name, bool defval,
                       Error **errp);
bool qemu_opt_get_number(QemuOpts *opts, const char *name, uint64_t defval,
                         uint64_t *out, Error **errp);
/* Size with an optional suffix (B, K, M, G, T; default unit given). */
bool qemu_opt_get_size(QemuOpts *opts, const char *name, uint64_t defval,
                       uint64_t *out, Error **errp);
/* First option not marked used, or NULL (for "Invalid parameter" errors). */
const QemuOpt *qemu_opts_first_unused(QemuOpts *opts);

/* Parses "on"/"off"/"yes"/"no"/"true"/"false". */
bool qapi_bool_parse(const char *name, const char *value, bool *out,
                     Error **errp);
/*
 * The JSON form of an option ('{"driver": ...}', as libvirt writes -device,
 * -object and -audiodev): the object, or NULL with QEMU's "JSON parse
 * error, ..." text.  The caller owns the reference.
 */
JsonObject *qemu_opts_parse_json(const char *str, Error **errp);
/* A string member of a JSON option, or NULL when absent */
const char *qemu_json_opt_get(JsonObject *obj, const char *name);

/* QEMU's rule for -chardev/-object/-device ids: a letter, then letters,
 * digits, '-', '.', '_' */
bool id_wellformed(const char *id);

/* Parses a size: number with optional k/K/M/G/T/P/E suffix. */
bool qemu_strtosz(const char *str, uint64_t default_unit, uint64_t *out);

#endif
