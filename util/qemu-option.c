/*
 * Parsing of comma-separated option strings: QemuOpts (this file) and
 * keyval (util/keyval.c), the two dialects of QEMU's command line.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/option.h"

QemuOpts *qemu_opts_new(void)
{
    QemuOpts *opts = g_new0(QemuOpts, 1);

    opts->opts = g_ptr_array_new();
    return opts;
}

static QemuOpt *opts_add(QemuOpts *opts, const char *name, const char *value)
{
    QemuOpt *opt = g_new0(QemuOpt, 1);

    opt->name = g_strdup(name);
    opt->value = g_strdup(value);
    g_ptr_array_add(opts->opts, opt);
    return opt;
}

void qemu_opts_add(QemuOpts *opts, const char *name, const char *value)
{
    opts_add(opts, name, value);
}

void qemu_opts_set(QemuOpts *opts, const char *name, const char *value)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);

        if (!strcmp(opt->name, name)) {
            g_free(opt->value);
            opt->value = g_strdup(value);
            opt->used = false;
            opt->short_form = false;
            return;
        }
    }
    opts_add(opts, name, value);
}

void qemu_opts_merge(QemuOpts *dst, const QemuOpts *src)
{
    guint i;

    for (i = 0; i < src->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(src->opts, i);

        qemu_opts_set(dst, opt->name, opt->value);
    }
}

/*
 * A value up to the next comma that is not doubled; ",," is a comma.
 * Returns where it stopped (at the ending comma or NUL).
 */
static const char *get_value(const char *p, GString *out)
{
    g_string_truncate(out, 0);
    while (*p) {
        if (*p == ',') {
            if (p[1] != ',') {
                break;
            }
            p++;
        }
        g_string_append_c(out, *p++);
    }
    return p;
}

QemuOpts *qemu_opts_parse(const char *params, const char *implied_key,
                          Error **errp)
{
    QemuOpts *opts = qemu_opts_new();
    GString *val = g_string_new(NULL);
    const char *p = params;
    bool first = true;

    while (*p) {
        size_t len = strcspn(p, "=,");

        if (p[len] == '=') {
            char *key = g_strndup(p, len);

            p = get_value(p + len + 1, val);
            opts_add(opts, key, val->str);
            g_free(key);
        } else if (first && implied_key) {
            p = get_value(p, val);
            opts_add(opts, implied_key, val->str);
        } else {
            char *key = g_strndup(p, len);
            QemuOpt *opt;

            p += len;
            if (!strcmp(key, "help") || !strcmp(key, "?")) {
                opts_add(opts, key, "on")->help = true;
            } else {
                /* QEMU's legacy "flag" means flag=on, "noflag" flag=off */
                bool off = g_str_has_prefix(key, "no");

                opt = opts_add(opts, off ? key + 2 : key, off ? "off" : "on");
                opt->short_form = true;
            }
            g_free(key);
        }
        first = false;
        if (*p == ',') {
            p++;
        }
    }
    g_string_free(val, TRUE);
    return opts;
}

bool qemu_opts_has_help(const QemuOpts *opts)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);

        if (opt->help) {
            return true;
        }
    }
    return false;
}

static const char size_hint[] =
    "Optional suffix k, M, G, T, P or E means kilo-, mega-, giga-, tera-, "
    "peta-\nand exabytes, respectively.\n";

static bool opt_validate_value(const QemuOpt *opt, QemuOptType type,
                               Error **errp)
{
    bool b, hex_suffix;
    uint64_t n;
    int ret;

    switch (type) {
    case QEMU_OPT_BOOL:
        return qapi_bool_parse(opt->name, opt->value, &b, errp);
    case QEMU_OPT_NUMBER:
        ret = qemu_strtou64(opt->value, &n);
        if (ret == -ERANGE) {
            error_setg(errp, "Value '%s' is too large for parameter '%s'",
                       opt->value, opt->name);
        } else if (ret) {
            error_setg(errp, "Parameter '%s' expects a number", opt->name);
        }
        return !ret;
    case QEMU_OPT_SIZE:
        ret = qemu_strtosz(opt->value, 1, &n, &hex_suffix);
        if (!ret && hex_suffix) {
            warn_report("Using a multiplier suffix on hex numbers is "
                        "deprecated: %s", opt->value);
        }
        if (ret == -ERANGE) {
            error_setg(errp, "Value '%s' is out of range for parameter '%s'",
                       opt->value, opt->name);
        } else if (ret) {
            error_setg(errp, "Parameter '%s' expects a non-negative number "
                       "below 2^64", opt->name);
            error_append_hint(errp, "%s", size_hint);
        }
        return !ret;
    case QEMU_OPT_STRING:
    default:
        return true;
    }
}

bool qemu_opts_validate(const QemuOpts *opts, const QemuOptDesc *desc,
                        bool warn, Error **errp)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);
        bool off = !strcmp(opt->value, "off");
        const QemuOptDesc *d;

        if (warn && opt->short_form) {
            warn_report("short-form boolean option '%s%s' deprecated\n"
                        "Please use %s=%s instead", off ? "no" : "",
                        opt->name, opt->name, opt->value);
        }
        if (!desc) {
            continue;
        }
        for (d = desc; d->name && strcmp(d->name, opt->name); d++) {
        }
        if (!d->name) {
            error_setg(errp, "Invalid parameter '%s'", opt->name);
            return false;
        }
        if (!opt_validate_value(opt, d->type, errp)) {
            return false;
        }
    }
    return true;
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

const char *qemu_opt_get_first(QemuOpts *opts, const char *name)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);

        if (!strcmp(opt->name, name)) {
            qemu_opt_get(opts, name);
            return opt->value;
        }
    }
    return NULL;
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

int qemu_strtou64(const char *str, uint64_t *out)
{
    unsigned long long n;
    char *end;

    if (!str || !*str) {
        return -EINVAL;
    }
    errno = 0;
    n = strtoull(str, &end, 0);
    if (end == str || *end) {
        return -EINVAL;
    }
    if (errno == ERANGE) {
        return -ERANGE;
    }
    *out = n;
    return 0;
}

int qemu_strtoi64(const char *str, int64_t *out)
{
    long long n;
    char *end;

    if (!str || !*str) {
        return -EINVAL;
    }
    errno = 0;
    n = strtoll(str, &end, 0);
    if (end == str || *end) {
        return -EINVAL;
    }
    if (errno == ERANGE) {
        return -ERANGE;
    }
    *out = n;
    return 0;
}

bool qemu_opt_get_number(QemuOpts *opts, const char *name, uint64_t defval,
                         uint64_t *out, Error **errp)
{
    const char *v = qemu_opt_get(opts, name);
    uint64_t n;
    int ret;

    *out = defval;
    if (!v) {
        return true;
    }
    ret = qemu_strtou64(v, &n);
    if (ret == -ERANGE) {
        error_setg(errp, "Value '%s' is too large for parameter '%s'", v,
                   name);
        return false;
    }
    if (ret) {
        error_setg(errp, "Parameter '%s' expects a number", name);
        return false;
    }
    *out = n;
    return true;
}

/* The multiplier of a size suffix in powers of base, 0 if c is none */
static uint64_t size_suffix(char c, uint64_t base)
{
    static const char suffixes[] = "bkmgtpe";
    const char *s = strchr(suffixes, g_ascii_tolower(c));
    uint64_t mul = 1;
    int i;

    if (!c || !s) {
        return 0;
    }
    for (i = 0; i < s - suffixes; i++) {
        mul *= base;
    }
    return mul;
}

static int strtosz_base(const char *str, uint64_t default_unit, uint64_t base,
                        uint64_t *out, bool *hex_suffix)
{
    unsigned long long whole;
    double fraction = 0;
    bool hex = false, has_fraction = false;
    const char *p;
    char *end;
    uint64_t mul;

    if (hex_suffix) {
        *hex_suffix = false;
    }
    if (!str) {
        return -EINVAL;
    }
    /* strtoull would take a sign (and wrap a negative number) */
    for (p = str; g_ascii_isspace(*p); p++) {
    }
    if (*p == '-' || *p == '+') {
        return -EINVAL;
    }
    errno = 0;
    whole = strtoull(p, &end, 10);
    if (end == p) {
        return -EINVAL;
    }
    if (whole == 0 && (*end == 'x' || *end == 'X')) {
        errno = 0;
        whole = strtoull(p, &end, 16);
        hex = true;
    }
    if (errno == ERANGE) {
        return -ERANGE;
    }
    if (*end == '.') {
        /* "5." is 5; a fraction needs a suffix, and no hexadecimal */
        size_t n = strspn(end + 1, "0123456789");
        char *digits = g_strdup_printf("0.%.*s", (int)n, end + 1);

        fraction = g_ascii_strtod(digits, NULL);
        g_free(digits);
        has_fraction = true;
        end += 1 + n;
        if (hex) {
            return -EINVAL;
        }
    }
    mul = size_suffix(*end, base);
    if (mul) {
        if (hex && hex_suffix) {
            *hex_suffix = true;
        }
        end++;
    } else {
        mul = default_unit;
    }
    if (*end) {
        return -EINVAL;
    }
    if (mul == 1 && has_fraction) {
        return -EINVAL;
    }
    if (whole > (UINT64_MAX - (uint64_t)(fraction * mul)) / mul) {
        return -ERANGE;
    }
    *out = whole * mul + (uint64_t)(fraction * mul);
    return 0;
}

int qemu_strtosz(const char *str, uint64_t default_unit, uint64_t *out,
                 bool *hex_suffix)
{
    return strtosz_base(str, default_unit, 1024, out, hex_suffix);
}

int qemu_strtosz_metric(const char *str, uint64_t *out)
{
    return strtosz_base(str, 1, 1000, out, NULL);
}

bool qemu_opt_get_size(QemuOpts *opts, const char *name, uint64_t defval,
                       uint64_t *out, Error **errp)
{
    const char *v = qemu_opt_get(opts, name);
    int ret;

    *out = defval;
    if (!v) {
        return true;
    }
    ret = qemu_strtosz(v, 1, out, NULL);
    if (ret == -ERANGE) {
        error_setg(errp, "Value '%s' is out of range for parameter '%s'", v,
                   name);
        return false;
    }
    if (ret) {
        error_setg(errp, "Parameter '%s' expects a non-negative number "
                   "below 2^64", name);
        error_append_hint(errp, "%s", size_hint);
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

bool qemu_json_opt_get_str(JsonObject *obj, const char *name,
                           const char **out, Error **errp)
{
    JsonNode *n = json_object_get_member(obj, name);

    *out = NULL;
    if (!n) {
        return true;
    }
    if (!JSON_NODE_HOLDS_VALUE(n) ||
        json_node_get_value_type(n) != G_TYPE_STRING) {
        error_setg(errp, "Invalid parameter type for '%s', expected: string",
                   name);
        return false;
    }
    *out = json_node_get_string(n);
    return true;
}

const char *qemu_json_opt_get(JsonObject *obj, const char *name)
{
    return json_object_has_member(obj, name)
               ? json_object_get_string_member(obj, name)
               : NULL;
}
