/*
 * keyval: the option dialect of -machine, -smp and -boot in QEMU 7.2.
 *
 *   [implied-value,]key=value[,key=value]...
 *
 * Unlike QemuOpts there are no short boolean forms: every element but an
 * implied first one needs '='.  The implied value ends at the first comma
 * (",," is no escape there); other values take ",," for a comma.  A key is
 * one or more '.'-separated fragments; each starts with a letter (later
 * ones may be list indexes, all digits) and holds letters, digits, '-' and
 * '_', 127 at most.  A key set twice keeps the later value; a key that is both a value
 * and a prefix of another key ("usb=on,usb.x=on") is an error.
 *
 * The result is a QemuOpts with unique keys, in the order they first
 * appeared; merging a later option string into it is what a repeated
 * -machine does.
 */
#include <errno.h>
#include <string.h>

#include "qemu/option.h"

static bool key_fragment_valid(const char *s, size_t len, bool first)
{
    size_t i;

    if (!len) {
        return false;
    }
    if (!first && strspn(s, "0123456789") >= len) {
        return true;
    }
    if (!g_ascii_isalpha(s[0])) {
        return false;
    }
    for (i = 1; i < len; i++) {
        if (!g_ascii_isalnum(s[i]) && s[i] != '-' && s[i] != '_') {
            return false;
        }
    }
    return true;
}

/* QEMU's limit on a key fragment (its buffer holds 127 characters) */
#define KEY_FRAGMENT_MAX 127

/* Checks each fragment in turn: its characters, then its length */
static bool key_check(const char *key, size_t len, Error **errp)
{
    size_t start = 0, i;

    for (i = 0; i <= len; i++) {
        if (i < len && key[i] != '.') {
            continue;
        }
        if (!key_fragment_valid(key + start, i - start, start == 0)) {
            error_setg(errp, "Invalid parameter '%.*s'", (int)len, key);
            return false;
        }
        if (i - start > KEY_FRAGMENT_MAX) {
            error_setg(errp, "Parameter %s'%.*s' is too long",
                       memchr(key, '.', len) ? "fragment " : "",
                       (int)(i - start), key + start);
            return false;
        }
        start = i + 1;
    }
    return true;
}

/* True if a is b followed by ".something" */
static bool key_is_below(const char *a, const char *b)
{
    size_t n = strlen(b);

    return !strncmp(a, b, n) && a[n] == '.';
}

/* Sets key=value, refusing a key that is both a value and a prefix */
static bool keyval_set(QemuOpts *opts, const char *key, const char *value,
                       Error **errp)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);
        const char *prefix = NULL;

        if (key_is_below(key, opt->name)) {
            prefix = opt->name;
        } else if (key_is_below(opt->name, key)) {
            prefix = key;
        }
        if (prefix) {
            error_setg(errp, "Parameters '%s.*' used inconsistently", prefix);
            return false;
        }
    }
    qemu_opts_set(opts, key, value);
    return true;
}

static bool is_help(const char *s, size_t len)
{
    return (len == 4 && !strncmp(s, "help", 4)) ||
           (len == 1 && s[0] == '?');
}

bool keyval_parse_into(QemuOpts *opts, const char *params,
                       const char *implied_key, bool *help, Error **errp)
{
    GString *val = g_string_new(NULL);
    const char *p = params;
    bool first = true, ok = false;

    while (*p) {
        size_t len = strcspn(p, "=,");
        char *key;

        if (help && p[len] != '=' && is_help(p, len)) {
            *help = true;
            p += len;
        } else if (first && implied_key && len && p[len] != '=') {
            len = strcspn(p, ",");
            key = g_strndup(p, len);
            if (!keyval_set(opts, implied_key, key, errp)) {
                g_free(key);
                goto out;
            }
            g_free(key);
            p += len;
        } else {
            if (!key_check(p, len, errp)) {
                goto out;
            }
            if (p[len] != '=') {
                error_setg(errp, "Expected '=' after parameter '%.*s'",
                           (int)len, p);
                goto out;
            }
            key = g_strndup(p, len);
            p += len + 1;
            g_string_truncate(val, 0);
            while (*p && (*p != ',' || p[1] == ',')) {
                p += *p == ',';
                g_string_append_c(val, *p++);
            }
            if (!keyval_set(opts, key, val->str, errp)) {
                g_free(key);
                goto out;
            }
            g_free(key);
        }
        first = false;
        if (*p == ',') {
            p++;
        }
    }
    ok = true;
out:
    g_string_free(val, TRUE);
    return ok;
}

QemuOpts *keyval_parse(const char *params, const char *implied_key,
                       bool *help, Error **errp)
{
    QemuOpts *opts = qemu_opts_new();

    if (!keyval_parse_into(opts, params, implied_key, help, errp)) {
        qemu_opts_free(opts);
        return NULL;
    }
    return opts;
}

bool keyval_get_int(QemuOpts *opts, const char *prefix, const char *key,
                    int64_t *out, bool *present, Error **errp)
{
    const char *v = qemu_opt_get(opts, key);

    *present = v != NULL;
    if (v && qemu_strtoi64(v, out)) {
        error_setg(errp, "Parameter '%s%s' expects integer", prefix, key);
        return false;
    }
    return true;
}

bool keyval_get_bool(QemuOpts *opts, const char *prefix, const char *key,
                     bool *out, bool *present, Error **errp)
{
    const char *v = qemu_opt_get(opts, key);

    *present = v != NULL;
    if (v && !qapi_bool_parse(key, v, out, NULL)) {
        error_setg(errp, "Parameter '%s%s' expects 'on' or 'off'", prefix,
                   key);
        return false;
    }
    return true;
}

bool keyval_check_unexpected(QemuOpts *opts, const char *prefix,
                             const char *const *known, Error **errp)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);
        size_t len = strcspn(o->name, ".");
        char *first = g_strndup(o->name, len);
        bool is_known = g_strv_contains(known, first);

        g_free(first);
        if (is_known && !o->name[len]) {
            continue;
        }
        if (is_known) {
            error_setg(errp, "Parameters '%s%.*s.*' are unexpected", prefix,
                       (int)len, o->name);
        } else {
            error_setg(errp, "Parameter '%s%.*s' is unexpected", prefix,
                       (int)len, o->name);
        }
        return false;
    }
    return true;
}
