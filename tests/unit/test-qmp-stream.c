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

static void check_len(const char *input, size_t len, const char *want)
{
    size_t chunk;

    /* the result must not depend on how the bytes were split */
    for (chunk = 0; chunk <= 3; chunk++) {
        char *got = run(input, len, chunk);
        g_assert_cmpstr(got, ==, want);
        g_free(got);
    }
}

static void check(const char *input, const char *want)
{
    check_len(input, strlen(input), want);
}

/* A literal input (it may hold NUL bytes) and what the stream emits */
typedef struct StreamCase {
    const char *input;
    size_t len;
    const char *want;
} StreamCase;

#define CASE(in, out) { in, sizeof(in) - 1, out }

/* Reports every mismatch of a table, not just the first */
static void check_table(const StreamCase *cases, size_t n)
{
    size_t i, chunk;

    for (i = 0; i < n; i++) {
        for (chunk = 0; chunk <= 3; chunk++) {
            char *got = run(cases[i].input, cases[i].len, chunk);

            if (strcmp(got, cases[i].want)) {
                char *in = g_strescape(cases[i].input, NULL);

                g_test_message("case %zu \"%s\" (chunk %zu): got \"%s\", "
                               "want \"%s\"", i, in, chunk, got,
                               cases[i].want);
                g_free(in);
                g_test_fail();
            }
            g_free(got);
        }
    }
}

#define PE "E:JSON parse error, "
#define OK_A "V:{\"a\": 1}"

/*
 * QEMU 7.2's lexer, as its QMP monitor answers (each input followed by a
 * good command): what is a lexical error ("stray" shows the token so far,
 * the offending byte included), that the partial message is dropped at
 * once, and which bytes end the skipping that follows.
 */
static const StreamCase lexer_cases[] = {
    /* outside strings: bytes >= 0x80, controls, upper case, '%' */
    CASE("{\xff{\"a\":1}", PE "stray '\xff'|" OK_A),
    CASE("{\x01{\"a\":1}", PE "stray '\x01'|" OK_A),
    CASE("[1,\x80]{\"a\":1}", PE "stray '\x80'|" PE "expecting value|" OK_A),
    CASE("\x00{\"a\":1}", PE "stray ''|" OK_A),
    CASE("A\n", PE "stray 'A'"),
    CASE("{\"a\": True}", PE "stray 'T'|" PE "expecting value"),
    CASE("[NULL]", PE "stray 'N'|" PE "expecting value"),
    CASE("1A ", "V:1|" PE "stray 'A'"),
    CASE("trueX ", "V:true|" PE "stray 'X'"),
    CASE("true\xfe ", "V:true|" PE "stray '\xfe'"),
    CASE("1\x80 ", "V:1|" PE "stray '\x80'"),
    CASE("%p\n", PE "stray '%'"),
    CASE("{\"a\": %d}", PE "stray '%'|" PE "expecting value"),
    /* inside strings: controls and the bytes UTF-8 never uses */
    CASE("{'bad \xff{\"a\":1}", PE "stray ''bad \xff'|" OK_A),
    CASE("{\"x\": \"a\xfe{\"a\":1}", PE "stray '\"a\xfe'|" OK_A),
    CASE("{'execute': 'nonexistent', 'id':'\n{\"a\":1}",
         PE "stray ''\n'|" OK_A),
    CASE("[\"a\tb\"]{\"a\":1}",
         PE "stray '\"a\t'|" PE "expecting value|" OK_A),
    CASE("\"\\\xff{\"a\":1}", PE "stray '\"\\\xff'|" OK_A),
    CASE("\"\\\x01{\"a\":1}", PE "stray '\"\\\x01'|" OK_A),
    CASE("\"\x00\"", PE "stray '\"'"),
    CASE("\"\xfd\x7f\"", PE "invalid UTF-8 sequence in string"),
    /* recovery ends at structural characters, controls but tab, 0xFE/FF */
    CASE("@\t1 x\x80'\"-}", PE "stray '@'|" PE "expecting value"),
    CASE("@\n1 ", PE "stray '@'|V:1"),
    CASE("@\r1 ", PE "stray '@'|V:1"),
    CASE("@\x01" "1 ", PE "stray '@'|" PE "stray '\x01'"),
    CASE("@\xfe" "1 ", PE "stray '@'|" PE "stray '\xfe'"),
    CASE("@\xff" "1 ", PE "stray '@'|" PE "stray '\xff'"),
    CASE("@,", PE "stray '@'|" PE "expecting value"),
    /* numbers: nothing may follow a lone zero but a fraction */
    CASE("[0e1]", PE "expected separator in list"),
    CASE("[-0e9]", PE "expected separator in list"),
    CASE("[0E1]", PE "stray 'E'|" PE "expecting value"),
    CASE("{\"a\":0e1}", PE "expected separator in dict"),
    CASE("00 ", PE "stray '00'"),
    CASE("-01 ", PE "stray '-01'"),
    CASE("[0.5e3, 0.5E-3, -0.0e0, 1e01]",
         "V:[500, 0.00050000000000000001, -0, 10]"),
    CASE("[-]", PE "stray '-]'"),
    CASE("[1.e5]", PE "stray '1.e'|" PE "expecting value"),
    CASE("[1e+-1]", PE "stray '1e+-'|" PE "expecting value"),
    CASE("[+1]", PE "stray '+'|" PE "expecting value"),
    /* braces and brackets are counted apart */
    CASE("{{]", PE "expecting value"),
    CASE("[[}", PE "expecting value"),
    CASE("{\"a\":{\"b\":1]", PE "expected separator in dict"),
    CASE("[{]", ""),
    CASE("{[]]", PE "key is not a string in object"),
    CASE("[{}}", PE "expected separator in list"),
};

/* QEMU 7.2's string decoding: modified UTF-8, no noncharacters */
static const StreamCase string_cases[] = {
    CASE("\"\xc0\x80\"", "V:\"\\u0000\""),
    CASE("\"\xef\xb7\xb0\xf0\x9f\x98\x80\"", "V:\"\\uFDF0\\uD83D\\uDE00\""),
    CASE("\"\xef\xbf\xbf\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xef\xbf\xbe\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xef\xb7\x90\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xef\xb7\xaf\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xf0\x9f\xbf\xbf\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xf4\x8f\xbf\xbe\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xc0\x81\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xe0\x80\x80\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xed\xa0\x80\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xf4\x90\x80\x80\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xf8\x88\x80\x80\x80\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xe2\x82\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\xc0\x80\x80\"", PE "invalid UTF-8 sequence in string"),
    CASE("\"\\uFFFF\"", PE "\\uFFFF is not a valid Unicode character"),
    CASE("\"\\ufdd0\"", PE "\\ufdd0 is not a valid Unicode character"),
    CASE("\"\\udbff\\udfff\"",
         PE "\\udbff\\udfff is not a valid Unicode character"),
    CASE("\"\\uD83F\\uDFFD\"", "V:\"\\uD83F\\uDFFD\""),
    CASE("\"\\uD800\\u0041\"", PE "\\uD800 is not a valid Unicode character"),
    CASE("\"\\uDC00\"", PE "\\uDC00 is not a valid Unicode character"),
    CASE("\"\\u12\"", PE "\\u12\" is not a valid Unicode character"),
    CASE("\"\\u\"", PE "\\u\" is not a valid Unicode character"),
    CASE("\"\\u12G4\"", PE "\\u12G4 is not a valid Unicode character"),
    CASE("\"\\U0041\"", PE "invalid escape sequence in string"),
    CASE("'a\"b\\'\\\"'", "V:\"a\\\"b'\\\"\""),
    CASE("\"%d\"", "V:\"%d\""),
};

/*
 * The writer, on strings holding invalid UTF-8 (a "stray" error text
 * quotes the client's bytes): QEMU 7.2 writes one U+FFFD per invalid
 * sequence, a sequence being a lead byte and the continuation bytes it
 * announces, and refuses noncharacters there too.
 */
static const struct {
    const char *str, *json;
} writer_cases[] = {
    { "\xed\xa0\x80", "\"\\uFFFD\"" },
    { "\xc0\x81", "\"\\uFFFD\"" },
    { "\xe2\x82" "A", "\"\\uFFFDA\"" },
    { "\x80\x80", "\"\\uFFFD\\uFFFD\"" },
    { "\xf8\x88\x80\x80\x80", "\"\\uFFFD\"" },
    { "\xfc\x84\x80\x80\x80\x80", "\"\\uFFFD\"" },
    { "\xfd\xbf\xbf\xbf\xbf\xbf\xff", "\"\\uFFFD\\uFFFD\"" },
    { "\xef\xbf\xbf", "\"\\uFFFD\"" },
    { "\xf4\x90\x80\x80", "\"\\uFFFD\"" },
    { "\xe0\x80\x80", "\"\\uFFFD\"" },
    { "\xe2\x82\xc3\xa9", "\"\\uFFFD\\u00E9\"" },
    { "\xf0\x9f\x98", "\"\\uFFFD\"" },
    { "\xc2", "\"\\uFFFD\"" },
    { "\xc0\x80\x7f\xf0\x9f\x98\x80", "\"\\u0000\\u007F\\uD83D\\uDE00\"" },
};

static void test_writer(void)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(writer_cases); i++) {
        JsonNode *n = json_node_init_string(json_node_alloc(),
                                            writer_cases[i].str);
        char *got = qmp_json_to_string(n);

        if (strcmp(got, writer_cases[i].json)) {
            g_test_message("case %zu: got %s, want %s", i, got,
                           writer_cases[i].json);
            g_test_fail();
        }
        g_free(got);
        json_node_unref(n);
    }
}

static void test_lexer(void)
{
    check_table(lexer_cases, G_N_ELEMENTS(lexer_cases));
}

static void test_strings(void)
{
    check_table(string_cases, G_N_ELEMENTS(string_cases));
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

static GString *repeat(GString *in, const char *s, size_t times)
{
    size_t i, len = strlen(s), at = in->len;

    g_string_set_size(in, at + len * times);
    for (i = 0; i < times; i++) {
        memcpy(in->str + at + i * len, s, len);
    }
    return in;
}

/* Runs in (then empties it): the emitted values' and errors' summary */
static char *run_big(GString *in, size_t chunk)
{
    char *got = run(in->str, in->len, chunk);
    GString *sum = g_string_new(NULL);
    char **parts = g_strsplit(got, "|", -1);
    int i;

    /* values are long: their first and last few bytes tell them apart */
    for (i = 0; parts[i]; i++) {
        size_t len = strlen(parts[i]);

        g_string_append_printf(sum, "%s%.*s", i ? "|" : "", 8, parts[i]);
        if (len > 16) {
            g_string_append_printf(sum, "..%s", parts[i] + len - 4);
        } else if (len > 8) {
            g_string_append(sum, parts[i] + 8);
        }
    }
    g_strfreev(parts);
    g_free(got);
    g_string_truncate(in, 0);
    return g_string_free(sum, FALSE);
}

#define CHECK_BIG(in, chunk, want) do { \
        char *sum_ = run_big(in, chunk); \
        g_assert_cmpstr(sum_, ==, want); \
        g_free(sum_); \
    } while (0)

/*
 * QEMU 7.2's limits, at their edges.  Beyond one, QEMU parses the rest of
 * the message as new messages; here it is skipped (see json-stream.c).
 */
static void test_limits(void)
{
    const size_t size = JSON_MAX_MESSAGE_SIZE;
    GString *in = g_string_new(NULL);

    /* open braces and brackets together */
    repeat(in, "{\"a\":", JSON_MAX_NESTING / 2);
    repeat(in, "[", JSON_MAX_NESTING / 2);
    repeat(in, "]", JSON_MAX_NESTING / 2);
    repeat(in, "}", JSON_MAX_NESTING / 2);
    CHECK_BIG(in, 0, "V:{\"a\": ..}}}}");
    repeat(repeat(in, "[", JSON_MAX_NESTING + 1), "]", JSON_MAX_NESTING + 1);
    g_string_append(in, "{\"ok\":1}");
    /* one error for the whole oversized value, then back in sync */
    CHECK_BIG(in, 0, "E:JSON n..eded|V:{\"ok\": 1}");

    /* a lexical error ends the skipping: 0xFF resets the stream */
    repeat(in, "[", JSON_MAX_NESTING + 1);
    g_string_append(in, "\xff{\"ok\":2}");
    CHECK_BIG(in, 0, "E:JSON n..eded|E:JSON p.. '\xff'|V:{\"ok\": 2}");

    /* the token lengths add up to at most size - 1 */
    g_string_append(in, "[\"");
    repeat(in, "a", size - 5);
    g_string_append(in, "\"]");
    CHECK_BIG(in, 65536, "V:[\"aaaa..aa\"]");
    g_string_append(in, "[\"");
    repeat(in, "a", size - 4);
    g_string_append(in, "\"] {\"ok\":3}");
    CHECK_BIG(in, 65536, "E:JSON t..eded|V:{\"ok\": 3}");
    /* one token alone cannot be longer either */
    g_string_append(in, "\"");
    repeat(in, "a", size + 10);
    g_string_append(in, "\" {\"ok\":4}");
    CHECK_BIG(in, 65536, "E:JSON t..eded|V:{\"ok\": 4}");

    /* tokens: [ 1 , ... [ ] ] */
    g_string_append(in, "[");
    repeat(in, "1,", JSON_MAX_TOKEN_COUNT / 2 - 2);
    g_string_append(in, "[]]");
    CHECK_BIG(in, 4096, "V:[1, 1,.. []]");
    g_string_append(in, "[");
    repeat(in, "1,", JSON_MAX_TOKEN_COUNT / 2 - 1);
    g_string_append(in, "[]] {\"ok\":5}");
    CHECK_BIG(in, 4096, "E:JSON t..eded|V:{\"ok\": 5}");
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
    g_test_add_func("/qmp/stream/lexer", test_lexer);
    g_test_add_func("/qmp/stream/strings", test_strings);
    g_test_add_func("/qmp/stream/writer", test_writer);
    g_test_add_func("/qmp/stream/limits", test_limits);
    g_test_add_func("/qmp/stream/parse-one", test_parse_one);
    return g_test_run();
}
