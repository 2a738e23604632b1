/*
 * The keyval syntax as a tree of objects (include/qemu/keyval-tree.h).
 */
#include <string.h>

#include "qemu/keyval-tree.h"

/* A key fragment: letters, digits, '-' and '_' */
static bool fragment_ok(const char *s, size_t len)
{
    size_t i;

    if (!len) {
        return false;
    }
    for (i = 0; i < len; i++) {
        if (!g_ascii_isalnum(s[i]) && s[i] != '-' && s[i] != '_') {
            return false;
        }
    }
    return true;
}

static bool key_ok(const char *key)
{
    const char *p = key, *dot;

    for (;;) {
        dot = strchr(p, '.');
        if (!fragment_ok(p, dot ? (size_t)(dot - p) : strlen(p))) {
            return false;
        }
        if (!dot) {
            return true;
        }
        p = dot + 1;
    }
}

static bool keyval_insert(JsonObject *root, const char *key,
                          const char *value, Error **errp)
{
    char **parts = g_strsplit(key, ".", -1);
    JsonObject *cur = root;
    GString *path = g_string_new(NULL);
    bool ok = true;
    int i;

    for (i = 0; parts[i + 1]; i++) {
        JsonNode *n = json_object_get_member(cur, parts[i]);

        g_string_append_printf(path, "%s%s", i ? "." : "", parts[i]);
        if (n && !JSON_NODE_HOLDS_OBJECT(n)) {
            error_setg(errp, "Parameters '%s.*' used inconsistently",
                       path->str);
            ok = false;
            goto out;
        }
        if (!n) {
            json_object_set_object_member(cur, parts[i], json_object_new());
        }
        cur = json_object_get_object_member(cur, parts[i]);
    }
    if (json_object_has_member(cur, parts[i]) &&
        JSON_NODE_HOLDS_OBJECT(json_object_get_member(cur, parts[i]))) {
        error_setg(errp, "Parameters '%s.*' used inconsistently", key);
        ok = false;
        goto out;
    }
    json_object_set_string_member(cur, parts[i], value);
out:
    g_string_free(path, TRUE);
    g_strfreev(parts);
    return ok;
}

JsonObject *keyval_parse_tree(const char *params, Error **errp)
{
    JsonObject *root = json_object_new();
    GString *key = g_string_new(NULL), *val = g_string_new(NULL);
    const char *p = params;

    while (*p) {
        g_string_truncate(key, 0);
        g_string_truncate(val, 0);
        while (*p && *p != '=' && *p != ',') {
            g_string_append_c(key, *p++);
        }
        if (!key_ok(key->str)) {
            error_setg(errp, "Invalid parameter '%s'", key->str);
            goto fail;
        }
        if (*p != '=') {
            error_setg(errp, "Expected '=' after parameter '%s'", key->str);
            goto fail;
        }
        for (p++; *p; p++) {
            if (*p == ',' && p[1] != ',') {
                break;
            }
            if (*p == ',') {
                p++;
            }
            g_string_append_c(val, *p);
        }
        if (!keyval_insert(root, key->str, val->str, errp)) {
            goto fail;
        }
        if (*p == ',') {
            p++;
        }
    }
    g_string_free(key, TRUE);
    g_string_free(val, TRUE);
    return root;
fail:
    g_string_free(key, TRUE);
    g_string_free(val, TRUE);
    json_object_unref(root);
    return NULL;
}
