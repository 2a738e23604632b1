/*
 * The QMP JSON stream parser and writer (monitor/json-parser.c): framing
 * across arbitrary read boundaries, QEMU's error texts, limits, output
 * format.
 */
#include <string.h>
#include <glib.h>

#include "monitor/json-parser.h"

typedef struct Collected {
    GPtrArray *out;  /* char*: "V:<json>" or "E:<error text>" */
} Collected;

static void collect(void *opaque, JsonNode *value, Error *err)
{
    Collected *c = opaque;

    if (err) {
        g_ptr_array_add(c->out, g_strdup_printf("E:%s",
                                                error_get_pretty(err)));
        error_free(err);
    } else {
        char *s = qmp_json_to_string(value);
        g_ptr_array_add(c->out, g_strdup_printf("V:%s", s));
        g_free(s);
        json_node_unref(value);
    }
}

/* Feeds input in chunks of `chunk` bytes (0: all at once). */
static char *run(const char *input, size_t len, size_t chunk)
{
    Collected c = { g_ptr_array_new_with_free_func(g_free) };
    JsonStream *s = json_stream_new(collect, &c);
    GString *all = g_string_new(NULL);
    size_t i;
    guint j;

    if (!chunk) {
        chunk = len ? len : 1;
    }
    for (i = 0; i < len; i += chunk) {
        json_stream_feed(s, input + i, MIN(chunk, len - i));
    }
    json_stream_free(s);
    for (j = 0; j < c.out->len; j++) {
        g_string_append_printf(all, "%s%s", j ? "|" : "",
                               (char *)g_ptr_array_index(c.out, j));
    }
    g_ptr_array_free(c.out, TRUE);
    return g_string_free(all, FALSE);
}

static void check(const char *input, const char *want)
{
    size_t len = strlen(input), chunk;

    /* the result must not depend on how the bytes were split */
    for (chunk = 0; chunk <= 3; chunk++) {
        char *got = run(input, len, chunk);
        g_assert_cmpstr(got, ==, want);
        g_free(got);
    }
}

static void test_framing(void)
{
    check("{\"execute\": \"a\"}", "V:{\"execute\": \"a\"}");
    check("{\"a\":1}{\"b\":2}\n", "V:{\"a\": 1}|V:{\"b\": 2}");
    check("  \r\n\t{ \"a\" : [ 1 , 2 ] }  ", "V:{\"a\": [1, 2]}");
    check("[]\n1\n\"s\"\n", "V:[]|V:1|V:\"s\"");
    check("{'a':'b'}\n", "V:{\"a\": \"b\"}");
    check("{\"a\":{\"b\":[{}]}} ", "V:{\"a\": {\"b\": [{}]}}");
    /* a partial value produces nothing yet */
    check("{\"a\":", "");
}

static void test_errors(void)
{
    check("{]\n", "E:JSON parse error, expecting value");
    check("}\n", "E:JSON parse error, expecting value");
    check("{\"a\" 1}\n", "E:JSON parse error, missing : in object pair");
    check("{1:2}\n", "E:JSON parse error, key is not a string in object");
    check("{\"a\":1 \"b\":2}\n",
          "E:JSON parse error, expected separator in dict");
    check("[1 2]\n", "E:JSON parse error, expected separator in list");
    check("{\"a\":1,\"a\":2}\n", "E:JSON parse error, duplicate key");
    check("tru\n", "E:JSON parse error, invalid keyword 'tru'");
    check("@\n", "E:JSON parse error, stray '@'");
    check("1.5.3\n", "V:1.5|E:JSON parse error, stray '.'");
    check("01}\n", "E:JSON parse error, stray '01'|"
          "E:JSON parse error, expecting value");
    check("\"\\x\"\n", "E:JSON parse error, invalid escape sequence in string");
    check("\"\\ud83d\"\n",
          "E:JSON parse error, \\ud83d is not a valid Unicode character");
    /* recovery after a lexical error: the next object still parses */
    check("@{\"a\":1}\n", "E:JSON parse error, stray '@'|V:{\"a\": 1}");
}

static void test_values(void)
{
    check("[1.5e3, -0, 0.1, -1.0, 9223372036854775807]\n",
          "V:[1500, 0, 0.10000000000000001, -1, 9223372036854775807]");
    check("[true, false, null]\n", "V:[true, false, null]");
    check("\"\\u0001\\u00e9\\/\\ud83d\\ude00\\n\\\"\"\n",
          "V:\"\\u0001\\u00E9/\\uD83D\\uDE00\\n\\\"\"");
    check("\"\\u0000x\"\n", "V:\"\\u0000x\"");
    check("\"\xc3\xa9\"\n", "V:\"\\u00E9\"");
}

static void test_limits(void)
{
    GString *in = g_string_new(NULL);
    char *got;
    int i;

    for (i = 0; i < JSON_MAX_NESTING + 10; i++) {
        g_string_append_c(in, '[');
    }
    for (i = 0; i < JSON_MAX_NESTING + 10; i++) {
        g_string_append_c(in, ']');
    }
    g_string_append(in, "{\"ok\":1}");
    got = run(in->str, in->len, 0);
    /* one error for the whole oversized value, then back in sync */
    g_assert_cmpstr(got, ==, "E:JSON nesting depth limit exceeded|"
                    "V:{\"ok\": 1}");
    g_free(got);

    g_string_assign(in, "\"");
    for (i = 0; i < JSON_MAX_MESSAGE_SIZE + 10; i++) {
        g_string_append_c(in, 'a');
    }
    g_string_append(in, "\" {\"ok\":2}");
    got = run(in->str, in->len, 65536);
    g_assert_cmpstr(got, ==, "E:JSON token size limit exceeded|"
                    "V:{\"ok\": 2}");
    g_free(got);

    g_string_assign(in, "[");
    for (i = 0; i < JSON_MAX_TOKEN_COUNT; i++) {
        g_string_append(in, "1,");
    }
    g_string_append(in, "1] {\"ok\":3}");
    got = run(in->str, in->len, 4096);
    g_assert_cmpstr(got, ==, "E:JSON token count limit exceeded|"
                    "V:{\"ok\": 3}");
    g_free(got);
    g_string_free(in, TRUE);
}

static void test_parse_one(void)
{
    Error *err = NULL;
    JsonNode *n = qmp_json_parse("{\"a\": [1, \"x\"]}", &err);
    char *s;

    g_assert_nonnull(n);
    s = qmp_json_to_string(n);
    g_assert_cmpstr(s, ==, "{\"a\": [1, \"x\"]}");
    g_free(s);
    json_node_unref(n);
    g_assert_null(qmp_json_parse("42x", &err));
    g_assert_nonnull(err);
    error_free(err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/qmp/stream/framing", test_framing);
    g_test_add_func("/qmp/stream/errors", test_errors);
    g_test_add_func("/qmp/stream/values", test_values);
    g_test_add_func("/qmp/stream/limits", test_limits);
    g_test_add_func("/qmp/stream/parse-one", test_parse_one);
    return g_test_run();
}
