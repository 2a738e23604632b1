/*
 * Streaming JSON for QMP (see json-parser.h).
 *
 * Three layers, as the protocol needs them:
 *  - a byte-at-a-time lexer, so that a value may arrive split across any
 *    number of reads, and several values may arrive in one read;
 *  - a streamer that collects tokens until the brackets balance, which is
 *    what delimits one QMP message (whitespace and newlines are not);
 *  - a recursive-descent parser over the collected tokens, whose depth is
 *    bounded by JSON_MAX_NESTING because the streamer refuses deeper input.
 *
 * Error texts follow QEMU's ("JSON parse error, expecting value", ...),
 * since clients and tests compare them.  Unlike QEMU, a value that exceeds
 * a limit yields one error and the rest of it is skipped (QEMU answers
 * every remaining token with its own error).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/json-parser.h"

typedef enum TokType {
    TOK_LCURLY,
    TOK_RCURLY,
    TOK_LSQUARE,
    TOK_RSQUARE,
    TOK_COLON,
    TOK_COMMA,
    TOK_STRING,
    TOK_INTEGER,
    TOK_FLOAT,
    TOK_KEYWORD,
} TokType;

typedef struct Token {
    TokType type;
    char *text;     /* strings: raw, with quotes; numbers, keywords */
} Token;

typedef enum LexState {
    L_START,
    L_STRING,
    L_STRING_ESC,
    L_NUM_SIGN,     /* "-" */
    L_NUM_ZERO,     /* "0" or "-0": no more integer digits allowed */
    L_NUM_INT,
    L_NUM_DOT,      /* "1." needs a digit */
    L_NUM_FRAC,
    L_NUM_E,        /* "1e" needs a sign or digit */
    L_NUM_ESIGN,    /* "1e-" needs a digit */
    L_NUM_EXP,
    L_KEYWORD,
    L_RECOVERY,     /* after a lexical error */
} LexState;

struct JsonStream {
    JsonStreamEmit *emit;
    void *opaque;

    /* lexer */
    LexState state;
    char quote;
    GString *tok;
    bool tok_discard;   /* current token overflowed: drop its bytes */
    bool tok_float;

    /* streamer */
    GPtrArray *tokens;  /* Token* of the value being collected */
    int depth;
    size_t size;
    bool skipping;      /* a limit was hit: drop tokens until depth 0 */
};

static void token_free(gpointer p)
{
    Token *t = p;

    g_free(t->text);
    g_free(t);
}

JsonStream *json_stream_new(JsonStreamEmit *emit, void *opaque)
{
    JsonStream *s = g_new0(JsonStream, 1);

    s->emit = emit;
    s->opaque = opaque;
    s->tok = g_string_new(NULL);
    s->tokens = g_ptr_array_new_with_free_func(token_free);
    return s;
}

static void stream_clear(JsonStream *s)
{
    g_ptr_array_set_size(s->tokens, 0);
    s->depth = 0;
    s->size = 0;
}

void json_stream_reset(JsonStream *s)
{
    stream_clear(s);
    s->state = L_START;
    s->skipping = false;
    s->tok_discard = false;
    g_string_truncate(s->tok, 0);
}

void json_stream_free(JsonStream *s)
{
    if (!s) {
        return;
    }
    g_ptr_array_free(s->tokens, TRUE);
    g_string_free(s->tok, TRUE);
    g_free(s);
}

static void emit_error(JsonStream *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void emit_error(JsonStream *s, const char *fmt, ...)
{
    Error *err = NULL;
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    error_setg(&err, "%s", msg);
    g_free(msg);
    s->emit(s->opaque, NULL, err);
}

/* ---- parser ----------------------------------------------------------- */

typedef struct Parser {
    GPtrArray *tokens;
    guint pos;
    Error *err;
} Parser;

static void parse_error(Parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

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

static Token *peek(Parser *p)
{
    return p->pos < p->tokens->len ? g_ptr_array_index(p->tokens, p->pos)
                                   : NULL;
}

static Token *next(Parser *p)
{
    Token *t = peek(p);

    if (t) {
        p->pos++;
    }
    return t;
}

static int hex4(const char *s)
{
    int v = 0, i;

    for (i = 0; i < 4; i++) {
        int d = g_ascii_xdigit_value(s[i]);
        if (d < 0) {
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
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

/* Decodes a string token (quotes included) into UTF-8. */
static char *parse_string(Parser *p, const char *raw)
{
    size_t len = strlen(raw);
    const char *q = raw + 1, *end = raw + len - 1;
    GString *out = g_string_sized_new(len);

    while (q < end) {
        if (*q == '\\') {
            char c = q[1];
            switch (c) {
            case '"': case '\'': case '\\': case '/':
                g_string_append_c(out, c);
                q += 2;
                continue;
            case 'b': g_string_append_c(out, '\b'); q += 2; continue;
            case 'f': g_string_append_c(out, '\f'); q += 2; continue;
            case 'n': g_string_append_c(out, '\n'); q += 2; continue;
            case 'r': g_string_append_c(out, '\r'); q += 2; continue;
            case 't': g_string_append_c(out, '\t'); q += 2; continue;
            case 'u': {
                int cp = end - q >= 6 ? hex4(q + 2) : -1;
                int lo;

                if (cp < 0) {
                    parse_error(p, "invalid escape sequence in string");
                    goto fail;
                }
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    parse_error(p, "%.6s is not a valid Unicode character", q);
                    goto fail;
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    lo = (end - q >= 12 && q[6] == '\\' && q[7] == 'u')
                         ? hex4(q + 8) : -1;
                    if (lo < 0xDC00 || lo > 0xDFFF) {
                        parse_error(p, "%.6s is not a valid Unicode character",
                                    q);
                        goto fail;
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    q += 6;
                }
                append_cp(out, cp);
                q += 6;
                continue;
            }
            default:
                parse_error(p, "invalid escape sequence in string");
                goto fail;
            }
        } else if ((unsigned char)*q < 0x80) {
            g_string_append_c(out, *q++);
        } else {
            gunichar cp = g_utf8_get_char_validated(q, end - q);
            if (cp == (gunichar)-1 || cp == (gunichar)-2) {
                parse_error(p, "invalid UTF-8 sequence in string");
                goto fail;
            }
            append_cp(out, cp);
            q = g_utf8_next_char(q);
        }
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
    Token *t;

    json_object_unref(obj);
    t = peek(p);
    if (t && t->type == TOK_RCURLY) {
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
        if (!t || t->type != TOK_COLON) {
            json_node_unref(key);
            parse_error(p, "missing : in object pair");
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
        if (t && t->type == TOK_RCURLY) {
            return node;
        }
        if (!t || t->type != TOK_COMMA) {
            parse_error(p, "expected separator in dict");
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
    Token *t;

    json_array_unref(arr);
    t = peek(p);
    if (t && t->type == TOK_RSQUARE) {
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
        if (t && t->type == TOK_RSQUARE) {
            return node;
        }
        if (!t || t->type != TOK_COMMA) {
            parse_error(p, "expected separator in list");
            goto fail;
        }
    }

fail:
    json_node_unref(node);
    return NULL;
}

static JsonNode *parse_number(Parser *p, Token *t)
{
    JsonNode *node = json_node_alloc();

    if (t->type == TOK_INTEGER) {
        char *end;
        long long v;

        errno = 0;
        v = strtoll(t->text, &end, 10);
        if (errno != ERANGE && !*end) {
            return json_node_init_int(node, v);
        }
        /* out of int64 range: QEMU falls back to a double as well */
    }
    return json_node_init_double(node, g_ascii_strtod(t->text, NULL));
}

static JsonNode *parse_value(Parser *p)
{
    Token *t = next(p);
    JsonNode *node;
    char *str;

    if (!t) {
        parse_error(p, "expecting value");
        return NULL;
    }
    switch (t->type) {
    case TOK_LCURLY:
        return parse_object(p);
    case TOK_LSQUARE:
        return parse_array(p);
    case TOK_STRING:
        str = parse_string(p, t->text);
        if (!str) {
            return NULL;
        }
        node = json_node_init_string(json_node_alloc(), str);
        g_free(str);
        return node;
    case TOK_INTEGER:
    case TOK_FLOAT:
        return parse_number(p, t);
    case TOK_KEYWORD:
        if (!strcmp(t->text, "true")) {
            return json_node_init_boolean(json_node_alloc(), TRUE);
        }
        if (!strcmp(t->text, "false")) {
            return json_node_init_boolean(json_node_alloc(), FALSE);
        }
        if (!strcmp(t->text, "null")) {
            return json_node_init_null(json_node_alloc());
        }
        parse_error(p, "invalid keyword '%s'", t->text);
        return NULL;
    default:
        parse_error(p, "expecting value");
        return NULL;
    }
}

static JsonNode *parse_tokens(GPtrArray *tokens, Error **errp)
{
    Parser p = { .tokens = tokens };
    JsonNode *v = parse_value(&p);

    if (!v) {
        error_propagate(errp, p.err);
    }
    return v;
}

/* ---- streamer --------------------------------------------------------- */

static void stream_limit(JsonStream *s, const char *what)
{
    emit_error(s, "JSON %s limit exceeded", what);
    s->skipping = true;
    g_ptr_array_set_size(s->tokens, 0);
    s->size = 0;
}

static void stream_token(JsonStream *s, TokType type, const char *text)
{
    Token *t;
    Error *err = NULL;
    JsonNode *v;

    if (type == TOK_LCURLY || type == TOK_LSQUARE) {
        s->depth++;
    } else if (type == TOK_RCURLY || type == TOK_RSQUARE) {
        s->depth--;
    }
    if (s->skipping) {
        if (s->depth <= 0) {
            s->skipping = false;
            stream_clear(s);
        }
        return;
    }

    t = g_new(Token, 1);
    t->type = type;
    t->text = g_strdup(text);
    g_ptr_array_add(s->tokens, t);
    s->size += text ? strlen(text) : 1;

    if (s->depth > JSON_MAX_NESTING) {
        stream_limit(s, "nesting depth");
        return;
    }
    if (s->tokens->len > JSON_MAX_TOKEN_COUNT) {
        stream_limit(s, "token count");
        return;
    }
    if (s->depth > 0) {
        return;
    }

    /* Balanced (or a stray closing bracket): one message is complete. */
    v = parse_tokens(s->tokens, &err);
    stream_clear(s);
    s->emit(s->opaque, v, err);
}

/*
 * A lexical error ends the current message, as in QEMU, and the lexer
 * skips what follows up to a structural character or a line end.
 */
static void lex_error(JsonStream *s, char c)
{
    g_string_append_c(s->tok, c);
    if (!s->skipping) {
        emit_error(s, "JSON parse error, stray '%s'", s->tok->str);
        stream_clear(s);
    }
    g_string_truncate(s->tok, 0);
    s->state = L_RECOVERY;
}

static void finish_token(JsonStream *s, TokType type)
{
    if (s->tok_discard) {
        /* the oversized token was reported when it crossed the limit */
        s->tok_discard = false;
        if (s->depth <= 0) {
            s->skipping = false;
            stream_clear(s);
        }
    } else {
        stream_token(s, type, s->tok->str);
    }
    g_string_truncate(s->tok, 0);
    s->state = L_START;
}

static void tok_append(JsonStream *s, char c)
{
    if (s->tok_discard) {
        return;
    }
    if (s->size + s->tok->len >= JSON_MAX_MESSAGE_SIZE) {
        if (!s->skipping) {
            stream_limit(s, "token size");
        }
        s->tok_discard = true;
        g_string_truncate(s->tok, 0);
        return;
    }
    g_string_append_c(s->tok, c);
}

static bool num_accepting(LexState st)
{
    return st == L_NUM_ZERO || st == L_NUM_INT || st == L_NUM_FRAC
           || st == L_NUM_EXP;
}

static void lex_char(JsonStream *s, char c)
{
    bool digit = c >= '0' && c <= '9';

    switch (s->state) {
    case L_START:
        switch (c) {
        case ' ': case '\t': case '\n': case '\r':
            return;
        case '{': stream_token(s, TOK_LCURLY, NULL); return;
        case '}': stream_token(s, TOK_RCURLY, NULL); return;
        case '[': stream_token(s, TOK_LSQUARE, NULL); return;
        case ']': stream_token(s, TOK_RSQUARE, NULL); return;
        case ':': stream_token(s, TOK_COLON, NULL); return;
        case ',': stream_token(s, TOK_COMMA, NULL); return;
        case '"': case '\'':
            s->quote = c;
            s->state = L_STRING;
            tok_append(s, c);
            return;
        case '-':
            s->state = L_NUM_SIGN;
            s->tok_float = false;
            tok_append(s, c);
            return;
        default:
            if (digit) {
                s->state = c == '0' ? L_NUM_ZERO : L_NUM_INT;
                s->tok_float = false;
                tok_append(s, c);
            } else if (g_ascii_isalpha(c)) {
                s->state = L_KEYWORD;
                tok_append(s, c);
            } else {
                lex_error(s, c);
            }
            return;
        }
    case L_STRING:
        if (c == s->quote) {
            tok_append(s, c);
            finish_token(s, TOK_STRING);
        } else if ((unsigned char)c < 0x20) {
            lex_error(s, c);
        } else {
            tok_append(s, c);
            if (c == '\\') {
                s->state = L_STRING_ESC;
            }
        }
        return;
    case L_STRING_ESC:
        if ((unsigned char)c < 0x20) {
            lex_error(s, c);
            return;
        }
        tok_append(s, c);
        s->state = L_STRING;
        return;
    case L_RECOVERY:
        if (c && strchr("{}[],:", c)) {
            s->state = L_START;
            lex_char(s, c);
        } else if (c == '\n' || c == '\r') {
            s->state = L_START;
        }
        return;
    case L_KEYWORD:
        if (g_ascii_isalpha(c)) {
            tok_append(s, c);
            return;
        }
        finish_token(s, TOK_KEYWORD);
        lex_char(s, c);
        return;
    default:
        break;
    }

    /* numbers */
    switch (s->state) {
    case L_NUM_SIGN:
        if (digit) {
            s->state = c == '0' ? L_NUM_ZERO : L_NUM_INT;
            tok_append(s, c);
            return;
        }
        break;
    case L_NUM_ZERO:
    case L_NUM_INT:
        if (digit && s->state == L_NUM_INT) {
            tok_append(s, c);
            return;
        }
        if (digit) {
            break; /* leading zero */
        }
        if (c == '.') {
            s->state = L_NUM_DOT;
            s->tok_float = true;
            tok_append(s, c);
            return;
        }
        if (c == 'e' || c == 'E') {
            s->state = L_NUM_E;
            s->tok_float = true;
            tok_append(s, c);
            return;
        }
        break;
    case L_NUM_DOT:
        if (digit) {
            s->state = L_NUM_FRAC;
            tok_append(s, c);
            return;
        }
        break;
    case L_NUM_FRAC:
        if (digit) {
            tok_append(s, c);
            return;
        }
        if (c == 'e' || c == 'E') {
            s->state = L_NUM_E;
            tok_append(s, c);
            return;
        }
        break;
    case L_NUM_E:
        if (c == '+' || c == '-') {
            s->state = L_NUM_ESIGN;
            tok_append(s, c);
            return;
        }
        /* fall through */
    case L_NUM_ESIGN:
    case L_NUM_EXP:
        if (digit) {
            s->state = L_NUM_EXP;
            tok_append(s, c);
            return;
        }
        break;
    default:
        g_assert_not_reached();
    }
    if (num_accepting(s->state) && !digit) {
        finish_token(s, s->tok_float ? TOK_FLOAT : TOK_INTEGER);
        lex_char(s, c);
    } else {
        lex_error(s, c);
    }
}

void json_stream_feed(JsonStream *s, const char *buf, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        lex_char(s, buf[i]);
    }
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
    const char *p = str;

    g_string_append_c(out, '"');
    while (*p) {
        gunichar cp;
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
        if (c == 0xC0 && (unsigned char)p[1] == 0x80) {
            g_string_append(out, "\\u0000");
            p += 2;
            continue;
        }
        cp = g_utf8_get_char_validated(p, -1);
        if (cp == (gunichar)-1 || cp == (gunichar)-2) {
            /* never emit invalid UTF-8: a client's JSON decoder would choke */
            g_string_append(out, "\\uFFFD");
            p++;
            continue;
        }
        if (cp > 0xFFFF) {
            cp -= 0x10000;
            g_string_append_printf(out, "\\u%04X\\u%04X",
                                   0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
        } else {
            g_string_append_printf(out, "\\u%04X", cp);
        }
        p = g_utf8_next_char(p);
    }
    g_string_append_c(out, '"');
}

void qmp_json_append(GString *out, JsonNode *node)
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
            if (!first) {
                g_string_append(out, ", ");
            }
            first = false;
            append_string(out, name);
            g_string_append(out, ": ");
            qmp_json_append(out, member);
        }
        g_string_append_c(out, '}');
        return;
    }
    case JSON_NODE_ARRAY: {
        JsonArray *arr = json_node_get_array(node);
        guint i, n = json_array_get_length(arr);

        g_string_append_c(out, '[');
        for (i = 0; i < n; i++) {
            if (i) {
                g_string_append(out, ", ");
            }
            qmp_json_append(out, json_array_get_element(arr, i));
        }
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

char *qmp_json_to_string(JsonNode *node)
{
    GString *out = g_string_new(NULL);

    qmp_json_append(out, node);
    return g_string_free(out, FALSE);
}
