/*
 * Parsing of comma-separated option strings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/option.h"

static void opts_add(QemuOpts *opts, const char *name, const char *value)
{
    QemuOpt *opt = g_new0(QemuOpt, 1);

    opt->name = g_strdup(name);
    opt->value = g_strdup(value);
    g_ptr_array_add(opts->opts, opt);
}

/* Reads up to the next unescaped delim (',' or '=' when want_eq). */
static const char *get_token(const char *p, GString *out, bool stop_at_eq)
{
    g_string_truncate(out, 0);
    while (*p) {
        if (*p == ',') {
            if (p[1] == ',') {
                g_string_append_c(out, ',');
                p += 2;
                continue;
            }
            break;
        }
        if (stop_at_eq && *p == '=') {
            break;
        }
        g_string_append_c(out, *p++);
    }
    return p;
}

QemuOpts *qemu_opts_parse(const char *params, const char *implied_key,
                          Error **errp)
{
    QemuOpts *opts = g_new0(QemuOpts, 1);
    GString *key = g_string_new(NULL), *val = g_string_new(NULL);
    const char *p = params;
    bool first = true;

    opts->opts = g_ptr_array_new();
    while (*p) {
        p = get_token(p, key, true);
        if (*p == '=') {
            p = get_token(p + 1, val, false);
            if (!key->len) {
                error_setg(errp, "Invalid parameter ''");
                goto fail;
            }
            opts_add(opts, key->str, val->str);
        } else if (first && implied_key) {
            opts_add(opts, implied_key, key->str);
        } else if (key->len) {
            if (g_str_has_prefix(key->str, "no") && key->len > 2) {
                /* QEMU's legacy "noflag" means flag=off */
                opts_add(opts, key->str + 2, "off");
            } else {
                opts_add(opts, key->str, "on");
            }
        } else if (*p == ',' || !*p) {
            /* empty element: "a,,"-style doubled commas were consumed above */
        }
        first = false;
        if (*p == ',') {
            p++;
        }
    }
    g_string_free(key, TRUE);
    g_string_free(val, TRUE);
    return opts;

fail:
    g_string_free(key, TRUE);
    g_string_free(val, TRUE);
    qemu_opts_free(opts);
    return NULL;
}

void qemu_opts_free(QemuOpts *opts)
{
    guint i;

    if (!opts) {
        return;
    }
    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);
        g_free(opt->name);
        g_free(opt->value);
        g_free(opt);
    }
    g_ptr_array_free(opts->opts, TRUE);
    g_free(opts);
}

const char *qemu_opt_get(QemuOpts *opts, const char *name)
{
    const char *value = NULL;
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);
        if (!strcmp(opt->name, name)) {
            opt->used = true;
            value = opt->value;
        }
    }
    return value;
}

bool qapi_bool_parse(const char *name, const char *value, bool *out,
                     Error **errp)
{
    if (!strcmp(value, "on") || !strcmp(value, "yes") ||
        !strcmp(value, "true") || !strcmp(value, "y")) {
        *out = true;
        return true;
    }
    if (!strcmp(value, "off") || !strcmp(value, "no") ||
        !strcmp(value, "false") || !strcmp(value, "n")) {
        *out = false;
        return true;
    }
    error_setg(errp, "Parameter '%s' expects 'on' or 'off'", name);
    return false;
}

bool qemu_opt_get_bool(QemuOpts *opts, const char *name, bool defval,
                       Error **errp)
{
    const char *v = qemu_opt_get(opts, name);
    bool b = defval;

    if (v && !qapi_bool_parse(name, v, &b, errp)) {
        return defval;
    }
    return b;
}

bool qemu_opt_get_number(QemuOpts *opts, const char *name, uint64_t defval,
                         uint64_t *out, Error **errp)
{
    const char *v = qemu_opt_get(opts, name);
    unsigned long long n;
    char *end;

    *out = defval;
    if (!v) {
        return true;
    }
    errno = 0;
    n = strtoull(v, &end, 0);
    if (!*v || *end || errno || v[0] == '-') {
        error_setg(errp, "Parameter '%s' expects a number", name);
        return false;
    }
    *out = n;
    return true;
}

bool qemu_strtosz(const char *str, uint64_t default_unit, uint64_t *out)
{
    char *end;
    double d;
    unsigned long long whole;
    uint64_t mul = default_unit;

    if (!str || !*str || str[0] == '-' || g_ascii_isspace(str[0])) {
        return false;
    }
    errno = 0;
    whole = strtoull(str, &end, 10);
    if (errno || end == str) {
        return false;
    }
    d = (double)whole;
    if (*end == '.') {
        d = g_ascii_strtod(str, &end);
    }
    if (*end) {
        switch (g_ascii_tolower(*end)) {
        case 'b': mul = 1; break;
        case 'k': mul = 1ULL << 10; break;
        case 'm': mul = 1ULL << 20; break;
        case 'g': mul = 1ULL << 30; break;
        case 't': mul = 1ULL << 40; break;
        case 'p': mul = 1ULL << 50; break;
        case 'e': mul = 1ULL << 60; break;
        default: return false;
        }
        end++;
        if (*end) {
            return false;
        }
    }
    if (d * mul >= 18446744073709551616.0) {
        return false;
    }
    *out = (uint64_t)(d * mul);
    return true;
}

bool qemu_opt_get_size(QemuOpts *opts, const char *name, uint64_t defval,
                       uint64_t *out, Error **errp)
{
    const char *v = qemu_opt_get(opts, name);

    *out = defval;
    if (!v) {
        return true;
    }
    if (!qemu_strtosz(v, 1, out)) {
        error_setg(errp, "Parameter '%s' expects a non-negative number below 2^64", name);
        return false;
    }
    return true;
}

const QemuOpt *qemu_opts_first_unused(QemuOpts *opts)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);
        if (!opt->used) {
            return opt;
        }
    }
    return NULL;
}

bool id_wellformed(const char *id)
{
    const char *p;

    if (!g_ascii_isalpha(id[0])) {
        return false;
    }
    for (p = id; *p; p++) {
        if (!g_ascii_isalnum(*p) && !strchr("-._", *p)) {
            return false;
        }
    }
    return true;
}

JsonObject *qemu_opts_parse_json(const char *str, Error **errp)
{
    JsonParser *parser = json_parser_new();
    GError *gerr = NULL;
    JsonObject *obj = NULL;

    if (!json_parser_load_from_data(parser, str, -1, &gerr) ||
        !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
        error_setg(errp, "JSON parse error, %s",
                   gerr ? gerr->message : "expecting an object");
        g_clear_error(&gerr);
    } else {
        obj = json_object_ref(json_node_get_object(
            json_parser_get_root(parser)));
    }
    g_object_unref(parser);
    return obj;
}

const char *qemu_json_opt_get(JsonObject *obj, const char *name)
{
    return json_object_has_member(obj, name)
               ? json_object_get_string_member(obj, name)
               : NULL;
}
