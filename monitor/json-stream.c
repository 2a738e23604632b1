/*
 * The QMP input stream: bytes in, one callback per top-level JSON value
 * (see json-parser.h).  Two layers below the parser (json-parser.c):
 *  - a lexer, a state machine fed one byte at a time and described by a
 *    table, so that a value may arrive split across any number of reads
 *    and several values may arrive in one;
 *  - a streamer that collects tokens until braces and brackets balance,
 *    which is what delimits one QMP message (whitespace does not).
 *
 * Both behave as QEMU 7.2's do, as measured through its QMP monitor (the
 * cases are in tests/unit/test-qmp-stream.c):
 *  - a byte that no token can continue with is a lexical error, reported
 *    at once as "JSON parse error, stray '<the token so far and that
 *    byte>'"; the partial message is dropped;
 *  - after it, bytes are skipped up to a resynchronisation point: a
 *    structural character, a control character other than tab, or one of
 *    the bytes 0xFE and 0xFF, which UTF-8 never uses.  Since those two and
 *    the control characters are errors inside strings as well, a client
 *    can reset the parser from any state by sending one (the QMP spec
 *    suggests 0xFF);
 *  - a message ends when neither braces nor brackets are open, or when one
 *    of the two has been closed more often than opened; they are counted
 *    apart, so "{{]" ends (in a parse error) at the ']'.
 *
 * One deliberate difference: when a message exceeds a limit, QEMU reports
 * it, forgets the message so far and parses the rest of it as new
 * messages, one error each (over a thousand for a value nested too deep).
 * Here the rest of the message is skipped up to where it would have ended,
 * so an oversized message gets one error; a lexical error ends the
 * skipping, so that the 0xFF reset works here too.  A token that can no
 * longer fit is reported as soon as it cannot, not when it ends.
 */
#include <stdint.h>
#include <string.h>

#include "monitor/json-parser.h"
#include "monitor/json-internal.h"

/* ---- lexer tables ----------------------------------------------------- */

/* The lexer sees bytes only through these classes */
typedef enum CharClass {
    C_OTHER,        /* printable ASCII with no role of its own, and DEL */
    C_SPACE,
    C_TAB,          /* whitespace, but does not end error recovery */
    C_EOL,          /* \n \r */
    C_CTRL,         /* the other bytes below 0x20 */
    C_LCURLY,
    C_RCURLY,
    C_LSQUARE,
    C_RSQUARE,
    C_COLON,
    C_COMMA,
    C_DQUOTE,
    C_SQUOTE,
    C_BACKSLASH,
    C_MINUS,
    C_PLUS,
    C_ZERO,
    C_DIGIT,        /* 1-9 */
    C_POINT,
    C_LOWER_E,
    C_UPPER_E,
    C_LOWER,        /* a-z but e; keywords are lower case only */
    C_HIGH,         /* 0x80-0xFD: inside strings only, UTF-8 is the parser's */
    C_NEVER,        /* 0xFE, 0xFF: never in UTF-8, errors everywhere */
    C_COUNT
} CharClass;

/* Bytes not listed are C_OTHER */
static const uint8_t char_class[256] = {
    [0x00 ... 0x08] = C_CTRL,
    ['\t'] = C_TAB,
    ['\n'] = C_EOL,
    [0x0b ... 0x0c] = C_CTRL,
    ['\r'] = C_EOL,
    [0x0e ... 0x1f] = C_CTRL,
    [' '] = C_SPACE,
    ['"'] = C_DQUOTE,
    ['\''] = C_SQUOTE,
    ['+'] = C_PLUS,
    [','] = C_COMMA,
    ['-'] = C_MINUS,
    ['.'] = C_POINT,
    ['0'] = C_ZERO,
    ['1' ... '9'] = C_DIGIT,
    [':'] = C_COLON,
    ['E'] = C_UPPER_E,
    ['['] = C_LSQUARE,
    ['\\'] = C_BACKSLASH,
    [']'] = C_RSQUARE,
    ['a' ... 'd'] = C_LOWER,
    ['e'] = C_LOWER_E,
    ['f' ... 'z'] = C_LOWER,
    ['{'] = C_LCURLY,
    ['}'] = C_RCURLY,
    [0x80 ... 0xfd] = C_HIGH,
    [0xfe ... 0xff] = C_NEVER,
};

typedef enum LexState {
    LS_START,       /* between tokens */
    LS_RECOVERY,    /* after a lexical error, up to a resync point */
    LS_DQ,          /* in "..." */
    LS_DQ_ESC,      /* in "...", after a backslash */
    LS_SQ,          /* in '...' (QEMU's extension) */
    LS_SQ_ESC,
    LS_SIGN,        /* "-" */
    LS_ZERO,        /* "0", "-0": a fraction may follow, nothing else */
    LS_INT,
    LS_POINT,       /* "1." needs a digit */
    LS_FRAC,
    LS_EXP_MARK,    /* "1e" needs a sign or a digit */
    LS_EXP_SIGN,    /* "1e-" needs a digit */
    LS_EXP,
    LS_KEYWORD,
    LS_COUNT
} LexState;

/*
 * What a (state, class) pair does, packed in a byte: a kind in the top
 * three bits and a state or token type below.  0 is "not listed": the
 * row's default applies.
 */
enum {
    A_UNLISTED,
    A_ERROR,        /* lexical error: report, then skip to a resync point */
    A_SKIP,         /* drop the byte, stay */
    A_SHIFT,        /* append the byte, go to the state in arg */
    A_EMIT,         /* append the byte: the token (type in arg) is complete */
    A_END,          /* the token (type in arg) ended before this byte: */
                    /* emit it, then read the byte again from LS_START */
    A_RESYNC,       /* read the byte again from LS_START */
};
#define LEX_ACT(kind, arg) ((uint8_t)((kind) << 5 | (arg)))
#define LEX_KIND(act) ((act) >> 5)
#define LEX_ARG(act) ((act) & 0x1f)

#define ERR LEX_ACT(A_ERROR, 0)
#define SKIP LEX_ACT(A_SKIP, 0)
#define GO(state) LEX_ACT(A_SHIFT, state)
#define EMIT(type) LEX_ACT(A_EMIT, type)
#define END(type) LEX_ACT(A_END, type)
#define RESYNC LEX_ACT(A_RESYNC, 0)

typedef struct LexRow {
    uint8_t otherwise;          /* for the classes not listed in on[] */
    uint8_t on[C_COUNT];
} LexRow;

/*
 * Only A_END and A_RESYNC read a byte again, and only from LS_START,
 * whose row has neither: a byte is looked up at most twice.
 */
static const LexRow lex_table[LS_COUNT] = {
    [LS_START] = {
        .otherwise = ERR,
        .on = {
            [C_SPACE] = SKIP, [C_TAB] = SKIP, [C_EOL] = SKIP,
            [C_LCURLY] = EMIT(JSON_TOK_LCURLY),
            [C_RCURLY] = EMIT(JSON_TOK_RCURLY),
            [C_LSQUARE] = EMIT(JSON_TOK_LSQUARE),
            [C_RSQUARE] = EMIT(JSON_TOK_RSQUARE),
            [C_COLON] = EMIT(JSON_TOK_COLON),
            [C_COMMA] = EMIT(JSON_TOK_COMMA),
            [C_DQUOTE] = GO(LS_DQ),
            [C_SQUOTE] = GO(LS_SQ),
            [C_MINUS] = GO(LS_SIGN),
            [C_ZERO] = GO(LS_ZERO),
            [C_DIGIT] = GO(LS_INT),
            [C_LOWER] = GO(LS_KEYWORD), [C_LOWER_E] = GO(LS_KEYWORD),
        },
    },
    [LS_RECOVERY] = {
        .otherwise = SKIP,
        .on = {
            [C_LCURLY] = RESYNC, [C_RCURLY] = RESYNC,
            [C_LSQUARE] = RESYNC, [C_RSQUARE] = RESYNC,
            [C_COLON] = RESYNC, [C_COMMA] = RESYNC,
            [C_EOL] = RESYNC, [C_CTRL] = RESYNC, [C_NEVER] = RESYNC,
        },
    },
    [LS_DQ] = {
        .otherwise = GO(LS_DQ),
        .on = {
            [C_DQUOTE] = EMIT(JSON_TOK_STRING),
            [C_BACKSLASH] = GO(LS_DQ_ESC),
            [C_TAB] = ERR, [C_EOL] = ERR, [C_CTRL] = ERR, [C_NEVER] = ERR,
        },
    },
    /* which escapes exist is the parser's business, as in QEMU */
    [LS_DQ_ESC] = {
        .otherwise = GO(LS_DQ),
        .on = {
            [C_TAB] = ERR, [C_EOL] = ERR, [C_CTRL] = ERR, [C_NEVER] = ERR,
        },
    },
    [LS_SQ] = {
        .otherwise = GO(LS_SQ),
        .on = {
            [C_SQUOTE] = EMIT(JSON_TOK_STRING),
            [C_BACKSLASH] = GO(LS_SQ_ESC),
            [C_TAB] = ERR, [C_EOL] = ERR, [C_CTRL] = ERR, [C_NEVER] = ERR,
        },
    },
    [LS_SQ_ESC] = {
        .otherwise = GO(LS_SQ),
        .on = {
            [C_TAB] = ERR, [C_EOL] = ERR, [C_CTRL] = ERR, [C_NEVER] = ERR,
        },
    },
    [LS_SIGN] = {
        .otherwise = ERR,
        .on = { [C_ZERO] = GO(LS_ZERO), [C_DIGIT] = GO(LS_INT) },
    },
    /* "0e1" is 0 then the keyword e: QEMU takes no exponent after 0 */
    [LS_ZERO] = {
        .otherwise = END(JSON_TOK_INTEGER),
        .on = { [C_POINT] = GO(LS_POINT), [C_ZERO] = ERR, [C_DIGIT] = ERR },
    },
    [LS_INT] = {
        .otherwise = END(JSON_TOK_INTEGER),
        .on = {
            [C_ZERO] = GO(LS_INT), [C_DIGIT] = GO(LS_INT),
            [C_POINT] = GO(LS_POINT),
            [C_LOWER_E] = GO(LS_EXP_MARK), [C_UPPER_E] = GO(LS_EXP_MARK),
        },
    },
    [LS_POINT] = {
        .otherwise = ERR,
        .on = { [C_ZERO] = GO(LS_FRAC), [C_DIGIT] = GO(LS_FRAC) },
    },
    [LS_FRAC] = {
        .otherwise = END(JSON_TOK_FLOAT),
        .on = {
            [C_ZERO] = GO(LS_FRAC), [C_DIGIT] = GO(LS_FRAC),
            [C_LOWER_E] = GO(LS_EXP_MARK), [C_UPPER_E] = GO(LS_EXP_MARK),
        },
    },
    [LS_EXP_MARK] = {
        .otherwise = ERR,
        .on = {
            [C_PLUS] = GO(LS_EXP_SIGN), [C_MINUS] = GO(LS_EXP_SIGN),
            [C_ZERO] = GO(LS_EXP), [C_DIGIT] = GO(LS_EXP),
        },
    },
    [LS_EXP_SIGN] = {
        .otherwise = ERR,
        .on = { [C_ZERO] = GO(LS_EXP), [C_DIGIT] = GO(LS_EXP) },
    },
    [LS_EXP] = {
        .otherwise = END(JSON_TOK_FLOAT),
        .on = { [C_ZERO] = GO(LS_EXP), [C_DIGIT] = GO(LS_EXP) },
    },
    [LS_KEYWORD] = {
        .otherwise = END(JSON_TOK_KEYWORD),
        .on = { [C_LOWER] = GO(LS_KEYWORD), [C_LOWER_E] = GO(LS_KEYWORD) },
    },
};

/* ---- stream state ----------------------------------------------------- */

struct JsonStream {
    JsonStreamEmit *emit;
    void *opaque;

    LexState state;

    /*
     * The message so far: its tokens, and their texts one after another,
     * each NUL-terminated, followed by the token being lexed (from
     * tok_start on).
     */
    GArray *tokens;         /* JsonToken */
    GString *text;
    size_t tok_start;
    bool tok_dropped;       /* the token being lexed can no longer fit */
    size_t size;            /* sum of the token lengths, as QEMU counts */
    int braces;             /* open minus closed, counted apart ... */
    int brackets;           /* ... as QEMU does */
    bool skipping;          /* a limit was hit: drop tokens up to its end */
};

JsonStream *json_stream_new(JsonStreamEmit *emit, void *opaque)
{
    JsonStream *s = g_new0(JsonStream, 1);

    s->emit = emit;
    s->opaque = opaque;
    s->tokens = g_array_new(FALSE, FALSE, sizeof(JsonToken));
    s->text = g_string_new(NULL);
    return s;
}

/* Forgets the message so far, the token being lexed included */
static void message_clear(JsonStream *s)
{
    g_array_set_size(s->tokens, 0);
    g_string_truncate(s->text, 0);
    s->tok_start = 0;
    s->tok_dropped = false;
    s->size = 0;
    s->braces = 0;
    s->brackets = 0;
    s->skipping = false;
}

void json_stream_reset(JsonStream *s)
{
    message_clear(s);
    s->state = LS_START;
}

void json_stream_free(JsonStream *s)
{
    if (!s) {
        return;
    }
    g_array_free(s->tokens, TRUE);
    g_string_free(s->text, TRUE);
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

/* ---- streamer --------------------------------------------------------- */

static bool message_ended(JsonStream *s)
{
    return (s->braces <= 0 && s->brackets <= 0)
           || s->braces < 0 || s->brackets < 0;
}

static void stream_limit(JsonStream *s, const char *what)
{
    int braces = s->braces, brackets = s->brackets;
    bool ended = message_ended(s);

    message_clear(s);
    if (!ended) {
        /* skip the rest: the counts tell where it would have ended */
        s->skipping = true;
        s->braces = braces;
        s->brackets = brackets;
    }
    emit_error(s, "JSON %s limit exceeded", what);
}

/* The token being lexed is complete */
static void stream_token(JsonStream *s, JsonTokenType type)
{
    size_t len = s->text->len - s->tok_start;
    JsonToken tok = { type, s->tok_start };
    Error *err = NULL;
    JsonNode *value;

    switch (type) {
    case JSON_TOK_LCURLY: s->braces++; break;
    case JSON_TOK_RCURLY: s->braces--; break;
    case JSON_TOK_LSQUARE: s->brackets++; break;
    case JSON_TOK_RSQUARE: s->brackets--; break;
    default: break;
    }
    if (s->skipping || s->tok_dropped) {
        g_string_truncate(s->text, s->tok_start);
        s->tok_dropped = false;
        if (message_ended(s)) {
            message_clear(s);
        }
        return;
    }
    /* QEMU's limits, checked in its order */
    if (s->size + len + 1 > JSON_MAX_MESSAGE_SIZE) {
        stream_limit(s, "token size");
        return;
    }
    if (s->tokens->len + 1 > JSON_MAX_TOKEN_COUNT) {
        stream_limit(s, "token count");
        return;
    }
    if (s->braces + s->brackets > JSON_MAX_NESTING) {
        stream_limit(s, "nesting depth");
        return;
    }
    g_array_append_val(s->tokens, tok);
    g_string_append_c(s->text, '\0');
    s->size += len;
    s->tok_start = s->text->len;
    if (!message_ended(s)) {
        return;
    }
    value = json_parse_tokens((JsonToken *)s->tokens->data, s->tokens->len,
                              s->text->str, &err);
    message_clear(s);
    s->emit(s->opaque, value, err);
}

/* ---- lexer ------------------------------------------------------------ */

static void tok_append(JsonStream *s, char c)
{
    size_t len = s->text->len - s->tok_start + 1;

    if (s->tok_dropped) {
        return;
    }
    if (s->size + len + 1 > JSON_MAX_MESSAGE_SIZE) {
        /* it cannot fit whatever follows: report now, drop its bytes */
        if (!s->skipping) {
            stream_limit(s, "token size");
        }
        g_string_truncate(s->text, s->tok_start);
        s->tok_dropped = true;
        return;
    }
    g_string_append_c(s->text, c);
}

static void lex_error(JsonStream *s, char c)
{
    /* "%s" stops at a NUL byte, so a NUL shows as nothing, as in QEMU */
    g_string_append_c(s->text, c);
    emit_error(s, "JSON parse error, stray '%s'", s->text->str + s->tok_start);
    message_clear(s);
    s->state = LS_RECOVERY;
}

static void lex_byte(JsonStream *s, unsigned char c)
{
    int pass;

    for (pass = 0; pass < 2; pass++) {
        const LexRow *row = &lex_table[s->state];
        uint8_t act = row->on[char_class[c]];

        if (act == A_UNLISTED) {
            act = row->otherwise;
        }
        switch (LEX_KIND(act)) {
        case A_SKIP:
            return;
        case A_SHIFT:
            tok_append(s, c);
            s->state = LEX_ARG(act);
            return;
        case A_EMIT:
            tok_append(s, c);
            s->state = LS_START;
            stream_token(s, LEX_ARG(act));
            return;
        case A_END:
            s->state = LS_START;
            stream_token(s, LEX_ARG(act));
            break;
        case A_RESYNC:
            s->state = LS_START;
            break;
        default:
            lex_error(s, c);
            return;
        }
    }
}

void json_stream_feed(JsonStream *s, const char *buf, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        lex_byte(s, buf[i]);
    }
}
