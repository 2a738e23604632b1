/*
 * The QMP argument visitor (include/qapi/qapi-visit.h): one walk over a
 * command's descriptor table replaces per-command argument code, so that
 * every command checks its arguments the same way, with QEMU's texts.
 */
#include <inttypes.h>
#include <string.h>

#include "qapi/qapi-visit.h"

static const char *const kind_json_name[] = {
    [QAPI_STR] = "string",   [QAPI_INT] = "integer", [QAPI_BOOL] = "boolean",
    [QAPI_NUMBER] = "number", [QAPI_ANY] = "any",    [QAPI_NULL] = "null",
    [QAPI_ENUM] = "string",  [QAPI_STRUCT] = "object", [QAPI_LIST] = "array",
};

static bool visit_struct_at(const QapiStructDesc *desc, JsonObject *obj,
                            const char *path, void *out, Error **errp);

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

/*
 * One value of the given kind at dst.  name is the member's own name (the
 * enum error names it alone, as QEMU does), path its full path.
 */
static bool visit_value(QapiKind kind, const char *const *enum_values,
                        const QapiStructDesc *sub, QapiKind elem_kind,
                        size_t elem_size, JsonNode *n, const char *name,
                        const char *path, void *dst, Error **errp)
{
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
    case QAPI_ENUM: {
        const char *s;
        int i;

        if (value_type(n) != G_TYPE_STRING) {
            return type_error(path, kind, errp);
        }
        s = json_node_get_string(n);
        for (i = 0; enum_values[i]; i++) {
            if (!strcmp(enum_values[i], s)) {
                *(int *)dst = i;
                return true;
            }
        }
        error_setg(errp, "Parameter '%s' does not accept value '%s'", name, s);
        return false;
    }
    case QAPI_STRUCT:
        if (!JSON_NODE_HOLDS_OBJECT(n)) {
            return type_error(path, kind, errp);
        }
        return visit_struct_at(sub, json_node_get_object(n), path, dst, errp);
    case QAPI_LIST: {
        struct { unsigned len; void *items; } *list = dst;
        JsonArray *a;
        guint i;

        if (!JSON_NODE_HOLDS_ARRAY(n)) {
            return type_error(path, kind, errp);
        }
        a = json_node_get_array(n);
        list->len = json_array_get_length(a);
        list->items = g_malloc0(elem_size * (list->len ? list->len : 1));
        for (i = 0; i < list->len; i++) {
            char *epath = g_strdup_printf("%s[%u]", path, i);
            bool ok = visit_value(elem_kind, enum_values, sub, 0, 0,
                                  json_array_get_element(a, i), name, epath,
                                  (char *)list->items + i * elem_size, errp);

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

static bool visit_members(const QapiMemberDesc *members, JsonObject *obj,
                          const char *path, void *out, Error **errp)
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
            ok = visit_value(m->kind, m->enum_values, m->sub, m->elem_kind,
                             m->elem_size, n, m->name, mpath,
                             (char *)out + m->offset, errp);
        }
        g_free(mpath);
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool has_member(const QapiMemberDesc *members, const char *name)
{
    const QapiMemberDesc *m;

    for (m = members; m && m->name; m++) {
        if (!strcmp(m->name, name)) {
            return true;
        }
    }
    return false;
}

/* The variant a union's discriminator (already visited) selects, or NULL */
static const QapiVariantDesc *union_case(const QapiStructDesc *desc,
                                         const void *out)
{
    const QapiVariantDesc *v;
    int tag;

    if (!desc || !desc->variants) {
        return NULL;
    }
    tag = *(const int *)((const char *)out + desc->variants->tag_offset);
    for (v = desc->variants->cases; v->tag_value >= 0; v++) {
        if (v->tag_value == tag) {
            return v;
        }
    }
    return NULL;
}

static bool visit_struct_at(const QapiStructDesc *desc, JsonObject *obj,
                            const char *path, void *out, Error **errp)
{
    const QapiMemberDesc *vmembers = NULL;
    const QapiVariantDesc *v;
    JsonObjectIter it;
    const char *name;
    JsonNode *node;

    if (!visit_members(desc ? desc->members : NULL, obj, path, out, errp)) {
        return false;
    }
    /* A union: the base first, then the selected variant's members */
    v = union_case(desc, out);
    if (v) {
        vmembers = v->desc->members;
        if (!visit_members(vmembers, obj, path, (char *)out + v->offset,
                           errp)) {
            return false;
        }
    }
    /* Then what the declaration lacks, in the request's order */
    json_object_iter_init_ordered(&it, obj);
    while (json_object_iter_next_ordered(&it, &name, &node)) {
        if (!has_member(desc ? desc->members : NULL, name) &&
            !has_member(vmembers, name)) {
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
    return visit_struct_at(desc, obj, NULL, out, errp);
}

static void free_value(QapiKind kind, const QapiStructDesc *sub,
                       QapiKind elem_kind, size_t elem_size, void *p)
{
    if (kind == QAPI_STRUCT) {
        qapi_struct_free(sub, p);
    } else if (kind == QAPI_LIST) {
        struct { unsigned len; void *items; } *list = p;
        unsigned i;

        for (i = 0; list->items && i < list->len; i++) {
            free_value(elem_kind, sub, 0, 0,
                       (char *)list->items + i * elem_size);
        }
        g_free(list->items);
        list->items = NULL;
    }
}

void qapi_struct_free(const QapiStructDesc *desc, void *out)
{
    const QapiVariantDesc *v = union_case(desc, out);
    const QapiMemberDesc *m;

    for (m = desc ? desc->members : NULL; m && m->name; m++) {
        free_value(m->kind, m->sub, m->elem_kind, m->elem_size,
                   (char *)out + m->offset);
    }
    if (v) {
        qapi_struct_free(v->desc, (char *)out + v->offset);
    }
}
