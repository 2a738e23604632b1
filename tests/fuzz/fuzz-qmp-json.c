/*
 * Fuzz target: the QMP JSON stream parser (monitor/json-parser.c).
 *
 * The input is a byte stream as a client would send it.  The first byte
 * picks the size of the reads it arrives in (1..16 bytes, or all at once),
 * since framing must not depend on read boundaries.  Every value the
 * stream emits must survive a round trip: written back by the QMP writer,
 * parsed again, written again, the two texts are equal.  Two numbers do not
 * come back as they went, in QEMU 7.2 as here (an echoed "id" shows both):
 * one beyond double's range (1e400) is written "inf", which is not JSON, and
 * a negative zero double is written "-0", which reads back as the integer 0.
 *
 * After the input comes a 0xFF byte and a sentinel object: whatever state
 * the input left the stream in, 0xFF is an error that resynchronises it
 * (what QMP clients rely on), so the sentinel must be the last value out.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/json-parser.h"

static bool has_lossy_number(JsonNode *node)
{
    bool found = false;

    if (JSON_NODE_HOLDS_VALUE(node)) {
        double d;

        if (json_node_get_value_type(node) != G_TYPE_DOUBLE) {
            return false;
        }
        d = json_node_get_double(node);
        return !isfinite(d) || (d == 0 && signbit(d));
    }
    if (JSON_NODE_HOLDS_ARRAY(node)) {
        JsonArray *a = json_node_get_array(node);
        guint i;

        for (i = 0; i < json_array_get_length(a) && !found; i++) {
            found = has_lossy_number(json_array_get_element(a, i));
        }
    } else if (JSON_NODE_HOLDS_OBJECT(node)) {
        GList *members = json_object_get_values(json_node_get_object(node));
        GList *l;

        for (l = members; l && !found; l = l->next) {
            found = has_lossy_number(l->data);
        }
        g_list_free(members);
    }
    return found;
}

#define SENTINEL "{\"resync\": true}"

typedef struct FuzzState {
    bool last_was_sentinel;
} FuzzState;

static void check_round_trip(void *opaque, JsonNode *value, Error *err)
{
    FuzzState *fs = opaque;
    char *text, *again;
    JsonNode *reparsed;
    Error *perr = NULL;

    fs->last_was_sentinel = false;
    if (err) {
        /* Every error has a message, and errors are reported once */
        if (!error_get_pretty(err) || !*error_get_pretty(err)) {
            abort();
        }
        error_free(err);
        return;
    }
    if (has_lossy_number(value)) {
        json_node_unref(value);
        return;
    }
    text = qmp_json_to_string(value);
    fs->last_was_sentinel = !strcmp(text, SENTINEL);
    reparsed = qmp_json_parse(text, &perr);
    if (!reparsed) {
        abort();
    }
    again = qmp_json_to_string(reparsed);
    if (strcmp(text, again) != 0) {
        abort();
    }
    g_free(again);
    g_free(text);
    json_node_unref(reparsed);
    json_node_unref(value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzState fs = { false };
    JsonStream *s;
    size_t chunk, i;

    if (!size) {
        return 0;
    }
    chunk = data[0] & 0x10 ? size : (size_t)(data[0] & 0x0f) + 1;
    data++;
    size--;
    s = json_stream_new(check_round_trip, &fs);
    for (i = 0; i < size; i += chunk) {
        json_stream_feed(s, (const char *)data + i, MIN(chunk, size - i));
    }
    json_stream_feed(s, "\xff" SENTINEL, strlen("\xff" SENTINEL));
    if (!fs.last_was_sentinel) {
        abort();
    }
    json_stream_free(s);
    return 0;
}
