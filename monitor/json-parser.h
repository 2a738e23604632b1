/*
 * JSON for QMP: a streaming parser that splits a byte stream into
 * top-level JSON values, and the writer that formats replies the way QEMU
 * does.  Pure functions of their input (no I/O), so they are unit-tested
 * on their own (tests/unit/test-qmp-stream.c).
 *
 * The dialect and the errors are QEMU 7.2's (json-stream.c for the lexer
 * and the framing, json-parser.c for values): standard JSON plus
 * single-quoted strings.  U+0000 inside a string is kept as the two bytes
 * C0 80 (so C strings stay NUL-free) and written back as \u0000.
 */
#ifndef MONITOR_JSON_PARSER_H
#define MONITOR_JSON_PARSER_H

#include <stddef.h>
#include <json-glib/json-glib.h>

#include "qapi/error.h"

/*
 * QEMU 7.2's limits on one top-level value, beyond which it is rejected:
 * open braces plus brackets, tokens, and the sum of the token lengths,
 * which must stay below JSON_MAX_MESSAGE_SIZE.
 */
#define JSON_MAX_NESTING 1024
#define JSON_MAX_TOKEN_COUNT (2 * 1024 * 1024)
#define JSON_MAX_MESSAGE_SIZE (64 * 1024 * 1024)

typedef struct JsonStream JsonStream;

/*
 * Called once per complete top-level value, in input order: either value
 * (owned by the callee) or err (owned by the callee) is set, never both.
 */
typedef void JsonStreamEmit(void *opaque, JsonNode *value, Error *err);

JsonStream *json_stream_new(JsonStreamEmit *emit, void *opaque);
/* Feeds bytes; may call emit any number of times, including zero. */
void json_stream_feed(JsonStream *s, const char *buf, size_t len);
/* Forgets any partial value (e.g. when the client disconnects). */
void json_stream_reset(JsonStream *s);
void json_stream_free(JsonStream *s);

/* Parses exactly one value from str (convenience for tests and tools). */
JsonNode *qmp_json_parse(const char *str, Error **errp);

/* Formats a value as QEMU's QMP output does: {"a": 1, "b": [2, 3]}. */
char *qmp_json_to_string(JsonNode *node);
void qmp_json_append(GString *out, JsonNode *node);
/* -mon pretty=on: one member per line, four spaces per level, "\n" */
void qmp_json_append_pretty(GString *out, JsonNode *node);

#endif
