/*
 * Field properties: members of an instance struct (bool, the integer
 * widths, strings, OnOffAuto) as typed QOM properties, with QEMU's
 * visitors' rules and error texts for JSON values and for the strings of
 * the command line (-cpu, -global, -machine).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/option.h"
#include "qom/object.h"

static const char *prop_kind_type_name(PropKind kind)
{
    static const char *const names[] = {
        [PROP_KIND_BOOL] = "bool",       [PROP_KIND_UINT8] = "uint8",
        [PROP_KIND_UINT16] = "uint16",   [PROP_KIND_UINT32] = "uint32",
        [PROP_KIND_UINT64] = "uint64",   [PROP_KIND_INT32] = "int32",
        [PROP_KIND_INT64] = "int64",     [PROP_KIND_STRING] = "str",
        [PROP_KIND_ONOFFAUTO] = "OnOffAuto",
    };
    return kind < PROP_KIND_OTHER ? names[kind] : "unknown";
}

/* What QEMU's visitors name in a range error ("expects uint8_t") */
static const char *prop_kind_c_type(PropKind kind)
{
    static const char *const names[] = {
        [PROP_KIND_UINT8] = "uint8_t",   [PROP_KIND_UINT16] = "uint16_t",
        [PROP_KIND_UINT32] = "uint32_t", [PROP_KIND_UINT64] = "uint64_t",
        [PROP_KIND_INT32] = "int32_t",   [PROP_KIND_INT64] = "int64_t",
    };
    return kind < G_N_ELEMENTS(names) && names[kind] ? names[kind]
                                                      : "integer";
}

static bool prop_kind_is_unsigned(PropKind kind)
{
    return kind == PROP_KIND_UINT8 || kind == PROP_KIND_UINT16 ||
           kind == PROP_KIND_UINT32 || kind == PROP_KIND_UINT64;
}

static PropKind prop_kind_from_type(const char *type)
{
    PropKind k;

    for (k = 0; k < PROP_KIND_OTHER; k++) {
        if (!strcmp(type, prop_kind_type_name(k))) {
            return k;
        }
    }
    if (!strcmp(type, "string")) {
        return PROP_KIND_STRING;
    }
    if (!strcmp(type, "int")) {
        return PROP_KIND_INT64;
    }
    return PROP_KIND_OTHER;
}

static const char *const on_off_auto_names[] = { "auto", "on", "off" };

JsonNode *object_field_get(Object *obj, ObjectProperty *prop, Error **errp)
{
    void *p = (char *)obj + prop->offset;
    JsonNode *n = json_node_alloc();

    switch (prop->kind) {
    case PROP_KIND_BOOL:
        return json_node_init_boolean(n, *(bool *)p);
    case PROP_KIND_UINT8:
        return json_node_init_int(n, *(uint8_t *)p);
    case PROP_KIND_UINT16:
        return json_node_init_int(n, *(uint16_t *)p);
    case PROP_KIND_UINT32:
        return json_node_init_int(n, *(uint32_t *)p);
    case PROP_KIND_UINT64:
        /* json-glib holds gint64; QMP readers see the same bits */
        return json_node_init_int(n, (gint64)*(uint64_t *)p);
    case PROP_KIND_INT32:
        return json_node_init_int(n, *(int32_t *)p);
    case PROP_KIND_INT64:
        return json_node_init_int(n, *(int64_t *)p);
    case PROP_KIND_STRING:
        json_node_unref(n);
        return object_prop_get_str_at_offset(obj, prop, errp);
    case PROP_KIND_ONOFFAUTO:
        return json_node_init_string(n, on_off_auto_names[*(int *)p]);
    default:
        json_node_unref(n);
        error_setg(errp, "Property '%s' cannot be read", prop->name);
        return NULL;
    }
}

static bool json_get_int_checked(ObjectProperty *prop, JsonNode *v,
                                 int64_t min, uint64_t max, uint64_t *out,
                                 Error **errp)
{
    int64_t i;

    if (!JSON_NODE_HOLDS_VALUE(v) || json_node_get_value_type(v) != G_TYPE_INT64) {
        /* QEMU's QMP input visitor: every unsigned is read as a uint64 */
        if (prop_kind_is_unsigned(prop->kind)) {
            error_setg(errp, "Parameter '%s' expects uint64", prop->name);
        } else {
            error_setg(errp, "Invalid parameter type for '%s', expected: %s",
                       prop->name, "integer");
        }
        return false;
    }
    i = json_node_get_int(v);
    if (min == 0 && max == UINT64_MAX) {
        *out = (uint64_t)i;
        return true;
    }
    if (i < min || (i >= 0 && (uint64_t)i > max)) {
        error_setg(errp, "Parameter '%s' expects %s", prop->name,
                   prop_kind_c_type(prop->kind));
        return false;
    }
    *out = (uint64_t)i;
    return true;
}

bool object_field_set(Object *obj, ObjectProperty *prop, JsonNode *v,
                      Error **errp)
{
    void *p = (char *)obj + prop->offset;
    uint64_t u;
    const char *s;
    int i;

    switch (prop->kind) {
    case PROP_KIND_BOOL:
        if (!JSON_NODE_HOLDS_VALUE(v) ||
            json_node_get_value_type(v) != G_TYPE_BOOLEAN) {
            error_setg(errp, "Invalid parameter type for '%s', expected: %s",
                       prop->name, "boolean");
            return false;
        }
        *(bool *)p = json_node_get_boolean(v);
        return true;
    case PROP_KIND_UINT8:
        if (!json_get_int_checked(prop, v, 0, UINT8_MAX, &u, errp)) {
            return false;
        }
        *(uint8_t *)p = u;
        return true;
    case PROP_KIND_UINT16:
        if (!json_get_int_checked(prop, v, 0, UINT16_MAX, &u, errp)) {
            return false;
        }
        *(uint16_t *)p = u;
        return true;
    case PROP_KIND_UINT32:
        if (!json_get_int_checked(prop, v, 0, UINT32_MAX, &u, errp)) {
            return false;
        }
        *(uint32_t *)p = u;
        return true;
    case PROP_KIND_UINT64:
        if (!json_get_int_checked(prop, v, 0, UINT64_MAX, &u, errp)) {
            return false;
        }
        *(uint64_t *)p = u;
        return true;
    case PROP_KIND_INT32:
        if (!json_get_int_checked(prop, v, INT32_MIN, INT32_MAX, &u, errp)) {
            return false;
        }
        *(int32_t *)p = (int32_t)u;
        return true;
    case PROP_KIND_INT64:
        if (!json_get_int_checked(prop, v, INT64_MIN, INT64_MAX, &u, errp)) {
            return false;
        }
        *(int64_t *)p = (int64_t)u;
        return true;
    case PROP_KIND_STRING:
        if (!(s = object_prop_value_str(prop, v, errp))) {
            return false;
        }
        g_free(*(char **)p);
        *(char **)p = g_strdup(s);
        return true;
    case PROP_KIND_ONOFFAUTO:
        if (!(s = object_prop_value_str(prop, v, errp))) {
            return false;
        }
        for (i = 0; i < 3; i++) {
            if (!strcmp(s, on_off_auto_names[i])) {
                *(int *)p = i;
                return true;
            }
        }
        error_setg(errp, "Parameter '%s' does not accept value '%s'",
                   prop->name, s);
        return false;
    default:
        error_setg(errp, "Property '%s' cannot be written", prop->name);
        return false;
    }
}

ObjectProperty *object_class_property_add_field(ObjectClass *oc,
                                                const char *name,
                                                PropKind kind, size_t offset,
                                                const char *defval,
                                                const char *description)
{
    ObjectProperty *prop;

    prop = object_class_property_add(oc, name, prop_kind_type_name(kind),
                                     object_field_get, object_field_set,
                                     description);
    prop->kind = kind;
    prop->offset = offset;
    prop->defval = g_strdup(defval);
    return prop;
}

JsonNode *object_property_parse_str(ObjectProperty *prop, const char *str,
                                    Error **errp)
{
    if (prop->setter_parses_text) {
        return json_node_init_string(json_node_alloc(), str);
    }
    return object_property_parse_typed(prop, str, errp);
}

JsonNode *object_property_parse_typed(ObjectProperty *prop, const char *str,
                                      Error **errp)
{
    PropKind kind = prop->kind != PROP_KIND_OTHER
                        ? prop->kind
                        : prop_kind_from_type(prop->type);
    JsonNode *n;
    char *end;
    bool b;

    switch (kind) {
    case PROP_KIND_BOOL:
        if (!qapi_bool_parse(prop->name, str, &b, errp)) {
            return NULL;
        }
        return json_node_init_boolean(json_node_alloc(), b);
    case PROP_KIND_UINT8:
    case PROP_KIND_UINT16:
    case PROP_KIND_UINT32:
    case PROP_KIND_UINT64: {
        /*
         * As QEMU's string visitor: strtoull's rules, so "-1" wraps to
         * 2^64-1; what does not parse "expects uint64", what parses but
         * does not fit the field "expects uint8_t" (..._t)
         */
        unsigned long long v;
        uint64_t max = kind == PROP_KIND_UINT8    ? UINT8_MAX
                       : kind == PROP_KIND_UINT16 ? UINT16_MAX
                       : kind == PROP_KIND_UINT32 ? UINT32_MAX
                                                  : UINT64_MAX;
        errno = 0;
        v = strtoull(str, &end, 0);
        if (!*str || *end || errno) {
            error_setg(errp, "Parameter '%s' expects uint64", prop->name);
            return NULL;
        }
        if (v > max) {
            error_setg(errp, "Parameter '%s' expects %s", prop->name,
                       prop_kind_c_type(kind));
            return NULL;
        }
        return json_node_init_int(json_node_alloc(), (gint64)v);
    }
    case PROP_KIND_INT32:
    case PROP_KIND_INT64: {
        long long v;
        errno = 0;
        v = strtoll(str, &end, 0);
        if (!*str || *end || errno) {
            error_setg(errp, "Parameter '%s' expects int64", prop->name);
            return NULL;
        }
        if (kind == PROP_KIND_INT32 && (v < INT32_MIN || v > INT32_MAX)) {
            error_setg(errp, "Parameter '%s' expects int32_t", prop->name);
            return NULL;
        }
        return json_node_init_int(json_node_alloc(), v);
    }
    case PROP_KIND_STRING:
    case PROP_KIND_ONOFFAUTO:
    default:
        n = json_node_init_string(json_node_alloc(), str);
        return n;
    }
}

bool object_property_owns_string(const ObjectProperty *prop)
{
    return (prop->get == object_field_get && prop->kind == PROP_KIND_STRING) ||
           prop->get == object_prop_get_str_at_offset;
}

const char *object_prop_value_str(ObjectProperty *prop, JsonNode *value,
                                  Error **errp)
{
    if (!JSON_NODE_HOLDS_VALUE(value) ||
        json_node_get_value_type(value) != G_TYPE_STRING) {
        error_setg(errp, "Invalid parameter type for '%s', expected: %s",
                   prop->name, "string");
        return NULL;
    }
    return json_node_get_string(value);
}

JsonNode *object_prop_get_str_at_offset(Object *obj, ObjectProperty *prop,
                                        Error **errp)
{
    const char *s = *(char **)((char *)obj + prop->offset);

    return json_node_init_string(json_node_alloc(), s ? s : "");
}
