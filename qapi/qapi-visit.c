/*
 * The QMP argument visitor (include/qapi/qapi-visit.h): one walk over a
 * command's descriptor table replaces per-command argument code, so that
 * every command checks its arguments the same way, with QEMU's texts.
 * The same walk reads -blockdev's JSON and keyval forms.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "qapi-types.h"
#include "qapi/qapi-visit.h"
#include "qemu/option.h"

static const char *const kind_json_name[] = {
    [QAPI_STR] = "string",   [QAPI_INT] = "integer", [QAPI_BOOL] = "boolean",
    [QAPI_INT32] = "integer", [QAPI_UINT64] = "integer",
    [QAPI_NUMBER] = "number", [QAPI_ANY] = "any",    [QAPI_NULL] = "null",
    [QAPI_ENUM] = "string",  [QAPI_STRUCT] = "object", [QAPI_LIST] = "array",
    [QAPI_ALTERNATE] = "alternate",
};

typedef struct Visit {
    bool keyval;    /* scalars arrive as strings (-blockdev a=b,c.d=e) */
} Visit;

static bool visit_struct_at(const Visit *v, const QapiStructDesc *desc,
                            JsonObject *obj, const char *path, void *out,
                            Error **errp);

static char *member_path(const char *path, const char *name)
{
    return path ? g_strdup_printf("%s.%s", path, name) : g_strdup(name);
}

static GType value_type(JsonNode *n)
{
    return JSON_NODE_HOLDS_VALUE(n) ? json_node_get_value_type(n)
                                    : G_TYPE_INVALID;
}

static bool type_error(const char *path, QapiKind kind, Error **errp)
{
    error_setg(errp, "Invalid parameter type for '%s', expected: %s", path,
               kind_json_name[kind]);
    return false;
}

/* int32 and uint64 from an int64: QEMU's range check and text */
static bool sized_int(QapiKind kind, int64_t v, const char *path, void *dst,
                      Error **errp)
{
    if (kind == QAPI_UINT64) {
        *(uint64_t *)dst = (uint64_t)v;
        return true;
    }
    if (v < INT32_MIN || v > INT32_MAX) {
        error_setg(errp, "Parameter '%s' expects int32_t", path);
        return false;
    }
    *(int32_t *)dst = (int32_t)v;
    return true;
}

/* keyval scalars: QEMU's keyval visitor's conversions and texts */
static bool keyval_scalar(QapiKind kind, const char *s, const char *path,
                          void *dst, Error **errp)
{
    char *end;

    switch (kind) {
    case QAPI_INT: {
        long long v;

        errno = 0;
        v = strtoll(s, &end, 0);
        if (!*s || *end || errno) {
            error_setg(errp, "Parameter '%s' expects integer", path);
            return false;
        }
        *(int64_t *)dst = v;
        return true;
    }
    case QAPI_INT32:
    case QAPI_UINT64: {
        int64_t v;

        if (!keyval_scalar(QAPI_INT, s, path, &v, errp)) {
            return false;
        }
        return sized_int(kind, v, path, dst, errp);
    }
    case QAPI_BOOL: {
        Error *err = NULL;

        if (!qapi_bool_parse(path, s, dst, &err)) {
            error_free(err);
            error_setg(errp, "Parameter '%s' expects 'on' or 'off'", path);
            return false;
        }
        return true;
    }
    case QAPI_NUMBER:
        errno = 0;
        *(double *)dst = strtod(s, &end);
        if (!*s || *end || errno) {
            error_setg(errp, "Parameter '%s' expects number", path);
            return false;
        }
        return true;
    default:
        g_assert_not_reached();
    }
}

static bool visit_enum(const char *const *values, JsonNode *n,
                       const char *name, const char *path, void *dst,
                       Error **errp)
{
    const char *s;
    int i;

    if (value_type(n) != G_TYPE_STRING) {
        return type_error(path, QAPI_ENUM, errp);
    }
    s = json_node_get_string(n);
    for (i = 0; values[i]; i++) {
        if (!strcmp(values[i], s)) {
            *(int *)dst = i;
            return true;
        }
    }
    error_setg(errp, "Parameter '%s' does not accept value '%s'", name, s);
    return false;
}

/* An alternate: the branch of the value's JSON type */
static bool visit_alternate(const Visit *v, const QapiAltDesc *alt,
                            JsonNode *n, const char *name, const char *path,
                            void *dst, Error **errp)
{
    QapiAltKind *kind = (QapiAltKind *)((char *)dst + alt->kind_offset);
    char *base = dst;

    if (JSON_NODE_HOLDS_OBJECT(n) && alt->obj) {
        void *o = g_malloc0(alt->obj->size);

        *kind = QAPI_ALT_OBJECT;
        *(void **)(base + alt->obj_offset) = o;
        return visit_struct_at(v, alt->obj, json_node_get_object(n), path, o,
                               errp);
    }
    if (value_type(n) == G_TYPE_STRING && alt->has_str) {
        *kind = QAPI_ALT_STRING;
        if (alt->str_kind == QAPI_ENUM) {
            return visit_enum(alt->enum_values, n, name, path,
                              base + alt->str_offset, errp);
        }
        *(const char **)(base + alt->str_offset) = json_node_get_string(n);
        return true;
    }
    if (JSON_NODE_HOLDS_NULL(n) && alt->has_null) {
        *kind = QAPI_ALT_NULL;
        return true;
    }
    error_setg(errp, "Invalid parameter type for '%s', expected: %s", name,
               alt->name);
    return false;
}

/*
 * keyval's lists: "inject-error.0.event=..." gives an object whose keys
 * are indexes; they must be 0, 1, ... with none missing, as QEMU's keyval
 * parser wants ("Parameter 'inject-error.0' missing").  NULL (errp set
 * only for a missing index) when the object is not such a list.
 */
static JsonArray *keyval_list(JsonObject *o, const char *path, Error **errp)
{
    guint n = json_object_get_size(o), i;
    GList *keys = json_object_get_members(o), *l;
    JsonArray *a;

    for (l = keys; l; l = l->next) {
        const char *k = l->data;

        if (!*k || strspn(k, "0123456789") != strlen(k)) {
            g_list_free(keys);
            return NULL;
        }
    }
    g_list_free(keys);
    a = json_array_sized_new(n);
    for (i = 0; i < n; i++) {
        char key[16];
        JsonNode *e;

        g_snprintf(key, sizeof(key), "%u", i);
        e = json_object_get_member(o, key);
        if (!e) {
            error_setg(errp, "Parameter '%s.%u' missing", path, i);
            json_array_unref(a);
            return NULL;
        }
        json_array_add_element(a, json_node_copy(e));
    }
    return a;
}

/*
 * One value of the given kind at dst.  name is the member's own name (the
 * enum error names it alone, as QEMU does), path its full path.
 */
static bool visit_value(const Visit *v, const QapiMemberDesc *m,
                        QapiKind kind, JsonNode *n, const char *name,
                        const char *path, void *dst, Error **errp)
{
    if (v->keyval && value_type(n) == G_TYPE_STRING &&
        (kind == QAPI_INT || kind == QAPI_INT32 || kind == QAPI_UINT64 ||
         kind == QAPI_BOOL || kind == QAPI_NUMBER)) {
        return keyval_scalar(kind, json_node_get_string(n), path, dst, errp);
    }
    switch (kind) {
    case QAPI_STR:
        if (value_type(n) != G_TYPE_STRING) {
            return type_error(path, kind, errp);
        }
        *(const char **)dst = json_node_get_string(n);
        return true;
    case QAPI_INT:
        /* Integers beyond int64 arrive as doubles: not integers */
        if (value_type(n) != G_TYPE_INT64) {
            return type_error(path, kind, errp);
        }
        *(int64_t *)dst = json_node_get_int(n);
        return true;
    case QAPI_INT32:
        if (value_type(n) != G_TYPE_INT64) {
            return type_error(path, kind, errp);
        }
        return sized_int(kind, json_node_get_int(n), path, dst, errp);
    case QAPI_UINT64:
        /*
         * Integers in [2^63, 2^64) arrive as doubles (2^64 - 1 rounded up
         * to 2^64: saturated; doubles that large are whole); any other
         * double (a fraction, or beyond) is refused with QEMU's text
         */
        if (value_type(n) == G_TYPE_DOUBLE) {
            double d = json_node_get_double(n);

            if (!(d >= 0x1p63 && d <= 0x1p64)) {
                error_setg(errp, "Parameter '%s' expects uint64", path);
                return false;
            }
            *(uint64_t *)dst = d == 0x1p64 ? UINT64_MAX : (uint64_t)d;
            return true;
        }
        if (value_type(n) != G_TYPE_INT64) {
            return type_error(path, kind, errp);
        }
        return sized_int(kind, json_node_get_int(n), path, dst, errp);
    case QAPI_BOOL:
        if (value_type(n) != G_TYPE_BOOLEAN) {
            return type_error(path, kind, errp);
        }
        *(bool *)dst = json_node_get_boolean(n);
        return true;
    case QAPI_NUMBER:
        if (value_type(n) == G_TYPE_INT64) {
            *(double *)dst = json_node_get_int(n);
        } else if (value_type(n) == G_TYPE_DOUBLE) {
            *(double *)dst = json_node_get_double(n);
        } else {
            return type_error(path, kind, errp);
        }
        return true;
    case QAPI_ANY:
        *(JsonNode **)dst = n;
        return true;
    case QAPI_NULL:
        if (!JSON_NODE_HOLDS_NULL(n)) {
            return type_error(path, kind, errp);
        }
        *(JsonNode **)dst = n;
        return true;
    case QAPI_ENUM:
        return visit_enum(m->enum_values, n, name, path, dst, errp);
    case QAPI_STRUCT:
        if (!JSON_NODE_HOLDS_OBJECT(n)) {
            return type_error(path, kind, errp);
        }
        return visit_struct_at(v, m->sub, json_node_get_object(n), path, dst,
                               errp);
    case QAPI_ALTERNATE:
        return visit_alternate(v, m->alt, n, name, path, dst, errp);
    case QAPI_LIST: {
        struct { unsigned len; void *items; } *list = dst;
        g_autoptr(JsonArray) from_keyval = NULL;
        JsonArray *a;
        guint i;

        if (v->keyval && JSON_NODE_HOLDS_OBJECT(n)) {
            Error *err = NULL;

            from_keyval = keyval_list(json_node_get_object(n), path, &err);
            if (err) {
                error_propagate(errp, err);
                return false;
            }
        }
        if (!JSON_NODE_HOLDS_ARRAY(n) && !from_keyval) {
            return type_error(path, kind, errp);
        }
        a = from_keyval ? from_keyval : json_node_get_array(n);
        list->len = json_array_get_length(a);
        list->items = g_malloc0(m->elem_size * (list->len ? list->len : 1));
        for (i = 0; i < list->len; i++) {
            char *epath = g_strdup_printf(v->keyval ? "%s.%u" : "%s[%u]",
                                          path, i);
            /* QEMU's visitor names list elements "null" (enum texts) */
            bool ok = visit_value(v, m, m->elem_kind,
                                  json_array_get_element(a, i), "null", epath,
                                  (char *)list->items + i * m->elem_size,
                                  errp);

            g_free(epath);
            if (!ok) {
                return false;
            }
        }
        return true;
    }
    }
    g_assert_not_reached();
}

static bool visit_members(const Visit *v, const QapiMemberDesc *members,
                          JsonObject *obj, const char *path, void *out,
                          Error **errp)
{
    const QapiMemberDesc *m;

    for (m = members; m && m->name; m++) {
        JsonNode *n = json_object_get_member(obj, m->name);
        char *mpath = member_path(path, m->name);
        bool ok = true;

        if (!n) {
            if (m->has_offset < 0) {
                error_setg(errp, "Parameter '%s' is missing", mpath);
                ok = false;
            }
        } else {
            if (m->has_offset >= 0) {
                *(bool *)((char *)out + m->has_offset) = true;
            }
            ok = visit_value(v, m, m->kind, n, m->name, mpath,
                             (char *)out + m->offset, errp);
        }
        g_free(mpath);
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool in_members(const QapiMemberDesc *m, const char *name)
{
    for (; m && m->name; m++) {
        if (!strcmp(m->name, name)) {
            return true;
        }
    }
    return false;
}

static const QapiStructDesc *variant_of(const QapiStructDesc *desc, int tag)
{
    return desc && desc->discriminator && tag >= 0 ? desc->variants[tag]
                                                   : NULL;
}

bool qapi_struct_has_member(const QapiStructDesc *desc, int tag,
                            const char *name)
{
    const QapiStructDesc *var = variant_of(desc, tag);

    return (desc && in_members(desc->members, name)) ||
           (var && in_members(var->members, name));
}

static bool visit_struct_at(const Visit *v, const QapiStructDesc *desc,
                            JsonObject *obj, const char *path, void *out,
                            Error **errp)
{
    const QapiStructDesc *var = NULL;
    JsonObjectIter it;
    const char *name;
    JsonNode *node;
    int tag = -1;

    if (!visit_members(v, desc ? desc->members : NULL, obj, path, out, errp)) {
        return false;
    }
    if (desc && desc->discriminator) {
        /* The discriminator is a required enum member of the base */
        tag = *(int *)((char *)out + desc->discriminator_offset);
        var = variant_of(desc, tag);
        if (var && !visit_members(v, var->members, obj, path,
                                  (char *)out + desc->variants_offset,
                                  errp)) {
            return false;
        }
    }
    /* Then what the declaration lacks, in the request's order */
    json_object_iter_init_ordered(&it, obj);
    while (json_object_iter_next_ordered(&it, &name, &node)) {
        if (!qapi_struct_has_member(desc, tag, name)) {
            char *mpath = member_path(path, name);

            error_setg(errp, "Parameter '%s' is unexpected", mpath);
            g_free(mpath);
            return false;
        }
    }
    return true;
}

bool qapi_visit_struct(const QapiStructDesc *desc, JsonObject *obj,
                       void *out, Error **errp)
{
    static const Visit json = { .keyval = false };

    return visit_struct_at(&json, desc, obj, NULL, out, errp);
}

bool qapi_visit_struct_keyval(const QapiStructDesc *desc, JsonObject *obj,
                              void *out, Error **errp)
{
    static const Visit keyval = { .keyval = true };

    return visit_struct_at(&keyval, desc, obj, NULL, out, errp);
}

static void free_members(const QapiMemberDesc *members, void *out);

static void free_value(const QapiMemberDesc *m, QapiKind kind, void *p)
{
    if (kind == QAPI_STRUCT) {
        qapi_struct_free(m->sub, p);
    } else if (kind == QAPI_ALTERNATE) {
        const QapiAltDesc *alt = m->alt;
        void **o = (void **)((char *)p + alt->obj_offset);

        if (alt->obj && *o) {
            qapi_struct_free(alt->obj, *o);
            g_free(*o);
            *o = NULL;
        }
    } else if (kind == QAPI_LIST) {
        struct { unsigned len; void *items; } *list = p;
        unsigned i;

        for (i = 0; list->items && i < list->len; i++) {
            free_value(m, m->elem_kind, (char *)list->items + i * m->elem_size);
        }
        g_free(list->items);
        list->items = NULL;
    }
}

static void free_members(const QapiMemberDesc *members, void *out)
{
    const QapiMemberDesc *m;

    for (m = members; m && m->name; m++) {
        free_value(m, m->kind, (char *)out + m->offset);
    }
}

void qapi_struct_free(const QapiStructDesc *desc, void *out)
{
    const QapiStructDesc *var;

    if (!desc) {
        return;
    }
    free_members(desc->members, out);
    if (desc->discriminator) {
        var = variant_of(desc, *(int *)((char *)out +
                                        desc->discriminator_offset));
        if (var) {
            free_members(var->members, (char *)out + desc->variants_offset);
        }
    }
}
