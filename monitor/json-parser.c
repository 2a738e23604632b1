/*
 * The QMP JSON parser (over the tokens of one message, from
 * json-stream.c), the one-shot parse and the writer (see json-parser.h).
 *
 * The parser is recursive descent; its depth is bounded because the
 * streamer refuses messages nested deeper than JSON_MAX_NESTING.  Error
 * texts and what is accepted follow QEMU 7.2 ("JSON parse error,
 * expecting value", ...), since clients and tests compare them.  Strings
 * are QEMU's dialect: single quotes as well as double, modified UTF-8
 * (U+0000 is kept as the two bytes C0 80, so C strings stay NUL-free, and
 * written back as \u0000), and Unicode's noncharacters are refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/json-parser.h"
#include "monitor/json-internal.h"

/* ---- parser ----------------------------------------------------------- */

typedef struct Parser {
    const JsonToken *tokens;
    unsigned n, pos;
    const char *text;
    Error *err;
} Parser;

static void parse_error(Parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The first error is the one reported */
static void parse_error(Parser *p, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    if (p->err) {
        return;
    }
    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    error_setg(&p->err, "JSON parse error, %s", msg);
    g_free(msg);
}

static const JsonToken *peek(Parser *p)
{
    return p->pos < p->n ? &p->tokens[p->pos] : NULL;
}

static const JsonToken *next(Parser *p)
{
    const JsonToken *t = peek(p);

    if (t) {
        p->pos++;
    }
    return t;
}

static const char *tok_text(Parser *p, const JsonToken *t)
{
    return p->text + t->start;
}

/* Four hex digits at s, or -1; stops at the first non-digit (or NUL) */
static int32_t hex4(const char *s)
{
    int32_t v = 0;
    int i;

    for (i = 0; i < 4; i++) {
        int d = g_ascii_xdigit_value(s[i]);
        if (d < 0) {
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
}

/*
 * QEMU accepts a code point in a string only if Unicode assigns it to a
 * character: no surrogates, nothing above U+10FFFF, and none of the 66
 * noncharacters (U+FDD0..U+FDEF and the last two of every plane).
 */
static bool codepoint_ok(int32_t cp)
{
    if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return false;
    }
    return !(cp >= 0xFDD0 && cp <= 0xFDEF) && (cp & 0xFFFE) != 0xFFFE;
}

/*
 * One UTF-8 sequence at p, before end: its code point, or -1 if it is
 * invalid; *next is set past it either way.  Shortest forms only, except
 * C0 80, which is U+0000 in modified UTF-8 (what \u0000 becomes here).
 * An invalid sequence ends after its lead byte and the continuation bytes
 * that follow, up to the length the lead byte announces (up to six, as in
 * UTF-8's first definition): that is what QEMU replaces by one U+FFFD when
 * it writes such bytes back.
 */
static int32_t utf8_decode(const char *p, const char *end, const char **next)
{
    static const int32_t shortest[7] = {
        0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000
    };
    unsigned char c = p[0];
    int32_t cp;
    int len, i;

    *next = p + 1;
    if (c < 0x80) {
        return c;
    }
    if (c >= 0xFE || !(c & 0x40)) {
        return -1;      /* never in UTF-8, or a stray continuation byte */
    }
    len = c >= 0xFC ? 6 : c >= 0xF8 ? 5 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    cp = c & (0x7F >> len);
    for (i = 1; i < len; i++) {
        if (p + i >= end || ((unsigned char)p[i] & 0xC0) != 0x80) {
            *next = p + i;
            return -1;
        }
        cp = cp << 6 | (p[i] & 0x3F);
    }
    *next = p + len;
    if (cp == 0 && len == 2) {
        return 0;
    }
    return cp >= shortest[len] && codepoint_ok(cp) ? cp : -1;
}

static void append_cp(GString *out, gunichar cp)
{
    if (cp == 0) {
        /* modified UTF-8 keeps the C string intact */
        g_string_append_c(out, (char)0xC0);
        g_string_append_c(out, (char)0x80);
    } else {
        g_string_append_unichar(out, cp);
    }
}

/*
 * A \u escape at q (the backslash): its code point, or -1 with *len the
 * length QEMU quotes in its error (the escape, or the surrogate pair).
 */
static int32_t parse_u_escape(const char *q, int *len)
{
    int32_t cp = hex4(q + 2), lo;

    *len = 6;
    /* q + 2..5 are digits, so q[6] is at worst the closing quote */
    if (cp >= 0xD800 && cp <= 0xDBFF && q[6] == '\\' && q[7] == 'u') {
        lo = hex4(q + 8);
        if (lo < 0xDC00 || lo > 0xDFFF) {
            return -1;
        }
        *len = 12;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    return codepoint_ok(cp) ? cp : -1;
}

/* Decodes a string token (quotes included) into (modified) UTF-8 */
static char *parse_string(Parser *p, const char *raw)
{
    size_t len = strlen(raw);
    const char *q = raw + 1, *end = raw + len - 1;
    GString *out = g_string_sized_new(len);

    while (q < end) {
        const char *after;
        int32_t cp;
        int used;

        if (*q != '\\') {
            cp = utf8_decode(q, end, &after);
            if (cp < 0) {
                parse_error(p, "invalid UTF-8 sequence in string");
                goto fail;
            }
            append_cp(out, cp);
            q = after;
            continue;
        }
        switch (q[1]) {
        case '"': case '\'': case '\\': case '/':
            g_string_append_c(out, q[1]);
            break;
        case 'b': g_string_append_c(out, '\b'); break;
        case 'f': g_string_append_c(out, '\f'); break;
        case 'n': g_string_append_c(out, '\n'); break;
        case 'r': g_string_append_c(out, '\r'); break;
        case 't': g_string_append_c(out, '\t'); break;
        case 'u':
            cp = parse_u_escape(q, &used);
            if (cp < 0) {
                /* the text stops at the token's end, quote included */
                parse_error(p, "%.*s is not a valid Unicode character",
                            used, q);
                goto fail;
            }
            append_cp(out, cp);
            q += used;
            continue;
        default:
            parse_error(p, "invalid escape sequence in string");
            goto fail;
        }
        q += 2;
    }
    return g_string_free(out, FALSE);

fail:
    g_string_free(out, TRUE);
    return NULL;
}

static JsonNode *parse_value(Parser *p);

static JsonNode *parse_object(Parser *p)
{
    JsonObject *obj = json_object_new();
    JsonNode *node = json_node_init_object(json_node_alloc(), obj);
    const JsonToken *t;

    json_object_unref(obj);
    t = peek(p);
    if (t && t->type == JSON_TOK_RCURLY) {
        next(p);
        return node;
    }
    for (;;) {
        JsonNode *key, *val;
        const char *name;

        key = parse_value(p);
        if (!key) {
            goto fail;
        }
        if (!JSON_NODE_HOLDS_VALUE(key)
            || json_node_get_value_type(key) != G_TYPE_STRING) {
            json_node_unref(key);
            parse_error(p, "key is not a string in object");
            goto fail;
        }
        t = next(p);
        if (!t || t->type != JSON_TOK_COLON) {
            json_node_unref(key);
            parse_error(p, t ? "missing : in object pair" : "premature EOI");
            goto fail;
        }
        val = parse_value(p);
        if (!val) {
            json_node_unref(key);
            goto fail;
        }
        name = json_node_get_string(key);
        if (json_object_has_member(obj, name)) {
            json_node_unref(key);
            json_node_unref(val);
            parse_error(p, "duplicate key");
            goto fail;
        }
        json_object_set_member(obj, name, val);
        json_node_unref(key);

        t = next(p);
        if (t && t->type == JSON_TOK_RCURLY) {
            return node;
        }
        if (!t || t->type != JSON_TOK_COMMA) {
            parse_error(p, t ? "expected separator in dict" : "premature EOI");
            goto fail;
        }
    }

fail:
    json_node_unref(node);
    return NULL;
}

static JsonNode *parse_array(Parser *p)
{
    JsonArray *arr = json_array_new();
    JsonNode *node = json_node_init_array(json_node_alloc(), arr);
    const JsonToken *t;

    json_array_unref(arr);
    t = peek(p);
    if (t && t->type == JSON_TOK_RSQUARE) {
        next(p);
        return node;
    }
    for (;;) {
        JsonNode *val = parse_value(p);

        if (!val) {
            goto fail;
        }
        json_array_add_element(arr, val);
        t = next(p);
        if (t && t->type == JSON_TOK_RSQUARE) {
            return node;
        }
        if (!t || t->type != JSON_TOK_COMMA) {
            parse_error(p, t ? "expected separator in list" : "premature EOI");
            goto fail;
        }
    }

fail:
    json_node_unref(node);
    return NULL;
}

static JsonNode *parse_number(const JsonToken *t, const char *text)
{
    JsonNode *node = json_node_alloc();

    if (t->type == JSON_TOK_INTEGER) {
        char *end;
        long long v;

        errno = 0;
        v = strtoll(text, &end, 10);
        if (errno != ERANGE && !*end) {
            return json_node_init_int(node, v);
        }
        /*
         * Out of int64 range: a double, as QEMU does beyond uint64 (a
         * JsonNode has no uint64, so 2^63..2^64-1 become doubles too).
         */
    }
    return json_node_init_double(node, g_ascii_strtod(text, NULL));
}

static JsonNode *parse_value(Parser *p)
{
    const JsonToken *t = next(p);
    const char *text;
    JsonNode *node;
    char *str;

    if (!t) {
        parse_error(p, "premature EOI");
        return NULL;
    }
    text = tok_text(p, t);
    switch (t->type) {
    case JSON_TOK_LCURLY:
        return parse_object(p);
    case JSON_TOK_LSQUARE:
        return parse_array(p);
    case JSON_TOK_STRING:
        str = parse_string(p, text);
        if (!str) {
            return NULL;
        }
        node = json_node_init_string(json_node_alloc(), str);
        g_free(str);
        return node;
    case JSON_TOK_INTEGER:
    case JSON_TOK_FLOAT:
        return parse_number(t, text);
    case JSON_TOK_KEYWORD:
        if (!strcmp(text, "true")) {
            return json_node_init_boolean(json_node_alloc(), TRUE);
        }
        if (!strcmp(text, "false")) {
            return json_node_init_boolean(json_node_alloc(), FALSE);
        }
        if (!strcmp(text, "null")) {
            return json_node_init_null(json_node_alloc());
        }
        parse_error(p, "invalid keyword '%s'", text);
        return NULL;
    default:
        parse_error(p, "expecting value");
        return NULL;
    }
}

JsonNode *json_parse_tokens(const JsonToken *tokens, unsigned n,
                            const char *text, Error **errp)
{
    Parser p = { .tokens = tokens, .n = n, .text = text };
    JsonNode *v = parse_value(&p);

    /*
     * A value that parsed used every token: the streamer ends a message
     * where its brackets first balance.
     */
    if (!v) {
        error_propagate(errp, p.err);
    }
    return v;
}

/* ---- one-shot parse --------------------------------------------------- */

typedef struct OneShot {
    JsonNode *value;
    Error *err;
    int count;
} OneShot;

static void oneshot_emit(void *opaque, JsonNode *value, Error *err)
{
    OneShot *o = opaque;

    if (o->count++ == 0) {
        o->value = value;
        o->err = err;
        return;
    }
    if (value) {
        json_node_unref(value);
    }
    error_free(err);
}

JsonNode *qmp_json_parse(const char *str, Error **errp)
{
    OneShot o = { 0 };
    JsonStream *s = json_stream_new(oneshot_emit, &o);

    json_stream_feed(s, str, strlen(str));
    /* a trailing number or keyword ends at end of input */
    json_stream_feed(s, " ", 1);
    json_stream_free(s);
    if (!o.count) {
        error_setg(errp, "JSON parse error, expecting value");
        return NULL;
    }
    if (o.err) {
        error_propagate(errp, o.err);
        return NULL;
    }
    if (o.count > 1) {
        json_node_unref(o.value);
        error_setg(errp, "JSON parse error, trailing input after value");
        return NULL;
    }
    return o.value;
}

/* ---- writer ----------------------------------------------------------- */

static void append_string(GString *out, const char *str)
{
    const char *p = str, *end = str + strlen(str);

    g_string_append_c(out, '"');
    while (*p) {
        int32_t cp;
        unsigned char c = *p;

        if (c < 0x80) {
            p++;
            switch (c) {
            case '"': g_string_append(out, "\\\""); break;
            case '\\': g_string_append(out, "\\\\"); break;
            case '\b': g_string_append(out, "\\b"); break;
            case '\f': g_string_append(out, "\\f"); break;
            case '\n': g_string_append(out, "\\n"); break;
            case '\r': g_string_append(out, "\\r"); break;
            case '\t': g_string_append(out, "\\t"); break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    g_string_append_printf(out, "\\u%04X", c);
                } else {
                    g_string_append_c(out, c);
                }
            }
            continue;
        }
        cp = utf8_decode(p, end, &p);
        if (cp < 0) {
            /* never emit invalid UTF-8: a client's JSON decoder would choke */
            cp = 0xFFFD;
        }
        if (cp > 0xFFFF) {
            cp -= 0x10000;
            g_string_append_printf(out, "\\u%04X\\u%04X",
                                   0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
        } else {
            g_string_append_printf(out, "\\u%04X", cp);
        }
    }
    g_string_append_c(out, '"');
}

/*
 * QEMU's two layouts: compact ({"a": 1, "b": [2]}) and, for -mon
 * pretty=on, one member or element per line, indented by four spaces per
 * level, an empty object or array closed on its own line.
 */
static void newline(GString *out, bool pretty, int level)
{
    if (pretty) {
        g_string_append_printf(out, "\n%*s", 4 * level, "");
    }
}

static void json_append(GString *out, JsonNode *node, bool pretty, int level)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    if (!node || JSON_NODE_HOLDS_NULL(node)) {
        g_string_append(out, "null");
        return;
    }
    switch (JSON_NODE_TYPE(node)) {
    case JSON_NODE_OBJECT: {
        JsonObjectIter it;
        const char *name;
        JsonNode *member;
        bool first = true;

        g_string_append_c(out, '{');
        json_object_iter_init_ordered(&it, json_node_get_object(node));
        while (json_object_iter_next_ordered(&it, &name, &member)) {
            g_string_append(out, first ? "" : pretty ? "," : ", ");
            first = false;
            newline(out, pretty, level + 1);
            append_string(out, name);
            g_string_append(out, ": ");
            json_append(out, member, pretty, level + 1);
        }
        newline(out, pretty, level);
        g_string_append_c(out, '}');
        return;
    }
    case JSON_NODE_ARRAY: {
        JsonArray *arr = json_node_get_array(node);
        guint i, n = json_array_get_length(arr);

        g_string_append_c(out, '[');
        for (i = 0; i < n; i++) {
            g_string_append(out, !i ? "" : pretty ? "," : ", ");
            newline(out, pretty, level + 1);
            json_append(out, json_array_get_element(arr, i), pretty,
                        level + 1);
        }
        newline(out, pretty, level);
        g_string_append_c(out, ']');
        return;
    }
    default:
        break;
    }
    switch (json_node_get_value_type(node)) {
    case G_TYPE_BOOLEAN:
        g_string_append(out, json_node_get_boolean(node) ? "true" : "false");
        break;
    case G_TYPE_STRING:
        append_string(out, json_node_get_string(node));
        break;
    case G_TYPE_DOUBLE:
        g_string_append(out, g_ascii_formatd(buf, sizeof(buf), "%.17g",
                                             json_node_get_double(node)));
        break;
    default:
        g_string_append_printf(out, "%" PRId64, json_node_get_int(node));
        break;
    }
}

void qmp_json_append(GString *out, JsonNode *node)
{
    json_append(out, node, false, 0);
}

void qmp_json_append_pretty(GString *out, JsonNode *node)
{
    json_append(out, node, true, 0);
}

char *qmp_json_to_string(JsonNode *node)
{
    GString *out = g_string_new(NULL);

    qmp_json_append(out, node);
    return g_string_free(out, FALSE);
}
