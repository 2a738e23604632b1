/*
 * Comma-separated option strings, in QEMU's two dialects.
 *
 * QemuOpts ("value,key=value,flag,..."): ",," stands for a literal comma
 * in a value, the implied value of the first element included.  A first
 * element without "=" is stored under the implied key (e.g. "accel" for
 * -accel), if the caller names one; later elements without "=" are short
 * boolean forms ("key" is key=on, "nokey" is key=off) that QEMU 7.2 still
 * accepts with a deprecation warning.  Keys repeat; the last one counts,
 * but a description table validates every occurrence, as QEMU does.
 *
 * keyval (-machine, -smp, -boot): only the first element may be implied,
 * and its value ends at the first comma; every other element needs "=";
 * keys are dotted names; a repeated key replaces the earlier value.
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
    bool short_form;    /* written as "name" or "noname", without '=' */
    bool help;          /* a bare "help" or "?" */
} QemuOpt;

typedef struct QemuOpts {
    GPtrArray *opts; /* QemuOpt*, in order */
} QemuOpts;

typedef enum QemuOptType {
    QEMU_OPT_STRING,
    QEMU_OPT_BOOL,
    QEMU_OPT_NUMBER,
    QEMU_OPT_SIZE,
} QemuOptType;

/* One accepted key of an option and its type; a table ends with NULL name */
typedef struct QemuOptDesc {
    const char *name;
    QemuOptType type;
} QemuOptDesc;

QemuOpts *qemu_opts_new(void);
QemuOpts *qemu_opts_parse(const char *params, const char *implied_key,
                          Error **errp);
void qemu_opts_free(QemuOpts *opts);
/* Appends name=value (a repeated name is kept: the last one counts). */
void qemu_opts_add(QemuOpts *opts, const char *name, const char *value);
/* Sets name to value, replacing an earlier value in place. */
void qemu_opts_set(QemuOpts *opts, const char *name, const char *value);
/* Every option of src set into dst, as a later option string would. */
void qemu_opts_merge(QemuOpts *dst, const QemuOpts *src);
/*
 * Checks every occurrence, in order, against desc (if not NULL): "Invalid
 * parameter 'KEY'" for a key it does not list, QEMU's type errors for a
 * value.  With warn, QEMU 7.2's deprecation warning for a short boolean
 * form comes as its element is reached, as QEMU's parser prints it.
 */
bool qemu_opts_validate(const QemuOpts *opts, const QemuOptDesc *desc,
                        bool warn, Error **errp);
/* Last value given for name, or NULL; marks it used. */
const char *qemu_opt_get(QemuOpts *opts, const char *name);
/* First value given for name ("id", which QEMU takes from the first) */
const char *qemu_opt_get_first(QemuOpts *opts, const char *name);
bool qemu_opt_get_bool(QemuOpts *opts, const char *name, bool defval,
                       Error **errp);
bool qemu_opt_get_number(QemuOpts *opts, const char *name, uint64_t defval,
                         uint64_t *out, Error **errp);
/* Size with an optional suffix (B, K, M, G, T; default unit given). */
bool qemu_opt_get_size(QemuOpts *opts, const char *name, uint64_t defval,
                       uint64_t *out, Error **errp);
/* First option not marked used, or NULL (for "Invalid parameter" errors). */
const QemuOpt *qemu_opts_first_unused(QemuOpts *opts);
/* True if a bare "help" or "?" element was given */
bool qemu_opts_has_help(const QemuOpts *opts);

/*
 * keyval: parses params into a new QemuOpts (or into merge_into, as a
 * repeated -machine does).  help is set when an element is "help" or "?";
 * without a help pointer those words are ordinary.
 */
QemuOpts *keyval_parse(const char *params, const char *implied_key,
                       bool *help, Error **errp);
bool keyval_parse_into(QemuOpts *merge_into, const char *params,
                       const char *implied_key, bool *help, Error **errp);
/*
 * A keyval integer (QEMU's visitor reads it as int64, any base): false
 * with "Parameter 'PREFIXKEY' expects integer" otherwise.
 */
bool keyval_get_int(QemuOpts *opts, const char *prefix, const char *key,
                    int64_t *out, bool *present, Error **errp);
/*
 * Refuses a key not in known (NULL-terminated): "Parameter 'PREFIXKEY' is
 * unexpected", or "Parameters 'PREFIXKEY.*' are unexpected" for members
 * of a known key, which has none.
 */
bool keyval_check_unexpected(QemuOpts *opts, const char *prefix,
                             const char *const *known, Error **errp);
/* A keyval boolean: "Parameter 'PREFIXKEY' expects 'on' or 'off'" */
bool keyval_get_bool(QemuOpts *opts, const char *prefix, const char *key,
                     bool *out, bool *present, Error **errp);

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
/*
 * A member that must be a string: *out is it, or NULL when absent; a
 * member of another type is QEMU's visitor error ("Invalid parameter
 * type for 'NAME', expected: string")
 */
bool qemu_json_opt_get_str(JsonObject *obj, const char *name,
                           const char **out, Error **errp);

/* QEMU's rule for -chardev/-object/-device ids: a letter, then letters,
 * digits, '-', '.', '_' */
bool id_wellformed(const char *id);

/*
 * A size: a decimal (or 0x hexadecimal) number, a fraction only with a
 * suffix, and an optional suffix B, K, M, G, T, P, E (any case); without
 * one, default_unit.  0, -EINVAL for anything else, -ERANGE from 2^64 up.
 * A suffix on a hexadecimal number is deprecated; *hex_suffix says so
 * (may be NULL).
 */
int qemu_strtosz(const char *str, uint64_t default_unit, uint64_t *out,
                 bool *hex_suffix);
/* The same in powers of 1000 (K is 1000), unit 1: a frequency */
int qemu_strtosz_metric(const char *str, uint64_t *out);
/* An unsigned number in any base (QEMU's qemu_strtou64); "-N" wraps */
int qemu_strtou64(const char *str, uint64_t *out);
/* A signed 64-bit number in any base (QEMU's qemu_strtoi64) */
int qemu_strtoi64(const char *str, int64_t *out);

#endif
