/*
 * What the JSON streamer (json-stream.c) hands to the parser
 * (json-parser.c): the tokens of one complete top-level message.
 */
#ifndef MONITOR_JSON_INTERNAL_H
#define MONITOR_JSON_INTERNAL_H

#include <stdint.h>
#include <json-glib/json-glib.h>

#include "qapi/error.h"

typedef enum JsonTokenType {
    JSON_TOK_NONE,      /* not a token: "no token ends here" in the tables */
    JSON_TOK_LCURLY,
    JSON_TOK_RCURLY,
    JSON_TOK_LSQUARE,
    JSON_TOK_RSQUARE,
    JSON_TOK_COLON,
    JSON_TOK_COMMA,
    JSON_TOK_STRING,    /* text is raw, quotes and escapes included */
    JSON_TOK_INTEGER,
    JSON_TOK_FLOAT,
    JSON_TOK_KEYWORD,   /* any run of a-z: the parser knows the three */
} JsonTokenType;

/*
 * A token's text lives in a buffer shared by the whole message, at
 * text + start, NUL-terminated (a token never contains a NUL: the lexer
 * rejects control characters everywhere but as whitespace).
 */
typedef struct JsonToken {
    uint32_t type;      /* JsonTokenType */
    uint32_t start;
} JsonToken;

/*
 * Parses one message: tokens[0..n) whose brackets the streamer found
 * balanced (or whose last token closed more than was open).  Returns the
 * value, or NULL and sets errp with QEMU's "JSON parse error, ..." text.
 */
JsonNode *json_parse_tokens(const JsonToken *tokens, unsigned n,
                            const char *text, Error **errp);

#endif
