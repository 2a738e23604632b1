/*
 * The object model: types, classes, instances, properties, composition
 * tree and global properties.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/option.h"
#include "qom/object.h"

struct TypeImpl {
    const TypeInfo *info;
    TypeImpl *parent_type;
    ObjectClass *class;
    bool class_ready;
};

static GHashTable *type_table; /* name -> TypeImpl* */

static GHashTable *type_table_get(void)
{
    if (!type_table) {
        type_table = g_hash_table_new(g_str_hash, g_str_equal);
    }
    return type_table;
}

void type_register_static(const TypeInfo *info)
{
    TypeImpl *ti = g_new0(TypeImpl, 1);

    g_assert(info->name);
    g_assert(!g_hash_table_lookup(type_table_get(), info->name));
    ti->info = info;
    g_hash_table_insert(type_table_get(), (gpointer)info->name, ti);
}

static TypeImpl *type_get_by_name(const char *name)
{
    return name ? g_hash_table_lookup(type_table_get(), name) : NULL;
}

static size_t type_class_size(TypeImpl *ti)
{
    for (; ti; ti = ti->parent_type) {
        if (ti->info->class_size) {
            return ti->info->class_size;
        }
    }
    return sizeof(ObjectClass);
}

static size_t type_instance_size(TypeImpl *ti)
{
    for (; ti; ti = ti->parent_type) {
        if (ti->info->instance_size) {
            return ti->info->instance_size;
        }
    }
    return sizeof(Object);
}

static void type_initialize(TypeImpl *ti)
{
    size_t size;
    TypeImpl *p;

    if (ti->class_ready) {
        return;
    }
    if (ti->info->parent) {
        ti->parent_type = type_get_by_name(ti->info->parent);
        g_assert(ti->parent_type);
        type_initialize(ti->parent_type);
    }
    size = type_class_size(ti);
    ti->class = g_malloc0(size);
    if (ti->parent_type) {
        size_t psize = type_class_size(ti->parent_type);
        g_assert(psize <= size);
        memcpy(ti->class, ti->parent_type->class, psize);
    }
    ti->class->type = ti;
    ti->class->properties = g_hash_table_new(g_str_hash, g_str_equal);
    ti->class->property_order = g_ptr_array_new();
    ti->class_ready = true;
    for (p = ti->parent_type; p; p = p->parent_type) {
        if (p->info->class_base_init) {
            p->info->class_base_init(ti->class, ti->info->class_data);
        }
    }
    if (ti->info->class_init) {
        ti->info->class_init(ti->class, ti->info->class_data);
    }
}

ObjectClass *object_class_by_name(const char *name)
{
    TypeImpl *ti = type_get_by_name(name);

    if (!ti) {
        return NULL;
    }
    type_initialize(ti);
    return ti->class;
}

ObjectClass *object_class_get_parent(ObjectClass *oc)
{
    return oc->type->parent_type ? oc->type->parent_type->class : NULL;
}

const char *object_class_get_name(ObjectClass *oc)
{
    return oc->type->info->name;
}

bool object_class_is_abstract(ObjectClass *oc)
{
    return oc->type->info->abstract;
}

ObjectClass *object_class_dynamic_cast(ObjectClass *oc, const char *typename)
{
    TypeImpl *ti;

    if (!oc) {
        return NULL;
    }
    for (ti = oc->type; ti; ti = ti->parent_type) {
        if (!strcmp(ti->info->name, typename)) {
            return oc;
        }
    }
    return NULL;
}

/* Whether ti is implements or a subtype, from the names alone */
static bool type_is_a(TypeImpl *ti, const char *implements)
{
    for (; ti; ti = type_get_by_name(ti->info->parent)) {
        if (!strcmp(ti->info->name, implements)) {
            return true;
        }
    }
    return false;
}

/*
 * Only the classes asked for are initialized (a machine lookup at start-up
 * need not run every CPU model's class_init)
 */
GSList *object_class_get_list(const char *implements, bool include_abstract)
{
    GHashTableIter it;
    gpointer key, value;
    GSList *list = NULL;

    g_hash_table_iter_init(&it, type_table_get());
    while (g_hash_table_iter_next(&it, &key, &value)) {
        TypeImpl *ti = value;

        if (!include_abstract && ti->info->abstract) {
            continue;
        }
        if (implements && !type_is_a(ti, implements)) {
            continue;
        }
        type_initialize(ti);
        list = g_slist_prepend(list, ti->class);
    }
    return list;
}

static gint class_cmp_name(gconstpointer a, gconstpointer b)
{
    return strcmp(object_class_get_name((ObjectClass *)a),
                  object_class_get_name((ObjectClass *)b));
}

GSList *object_class_get_list_sorted(const char *implements,
                                     bool include_abstract)
{
    return g_slist_sort(object_class_get_list(implements, include_abstract),
                        class_cmp_name);
}

/* Properties ------------------------------------------------------------ */

static void class_property_insert(ObjectClass *oc, ObjectProperty *prop)
{
    g_assert(!g_hash_table_lookup(oc->properties, prop->name));
    g_hash_table_insert(oc->properties, prop->name, prop);
    g_ptr_array_add(oc->property_order, prop);
}

ObjectProperty *object_class_property_add(ObjectClass *oc, const char *name,
                                          const char *type,
                                          ObjectPropertyGet *get,
                                          ObjectPropertySet *set,
                                          const char *description)
{
    ObjectProperty *prop = g_new0(ObjectProperty, 1);

    prop->name = g_strdup(name);
    prop->type = g_strdup(type);
    prop->description = g_strdup(description);
    prop->kind = PROP_KIND_OTHER;
    prop->get = get;
    prop->set = set;
    class_property_insert(oc, prop);
    return prop;
}

void object_property_set_type(ObjectProperty *prop, const char *type)
{
    g_free(prop->type);
    prop->type = g_strdup(type);
}

ObjectProperty *object_class_property_add_alias(ObjectClass *oc,
                                                const char *name,
                                                ObjectProperty *target)
{
    ObjectProperty *prop = g_new0(ObjectProperty, 1);

    *prop = *target;
    prop->name = g_strdup(name);
    prop->defval = NULL; /* the target's default is applied once */
    class_property_insert(oc, prop);
    return prop;
}

ObjectProperty *object_class_property_find(ObjectClass *oc, const char *name)
{
    for (; oc; oc = object_class_get_parent(oc)) {
        ObjectProperty *prop = g_hash_table_lookup(oc->properties, name);
        if (prop) {
            return prop;
        }
    }
    return NULL;
}

static void class_property_list_rec(ObjectClass *oc, GPtrArray *out)
{
    ObjectClass *parent = object_class_get_parent(oc);
    guint i;

    if (parent) {
        class_property_list_rec(parent, out);
    }
    for (i = 0; i < oc->property_order->len; i++) {
        g_ptr_array_add(out, g_ptr_array_index(oc->property_order, i));
    }
}

GPtrArray *object_class_property_list(ObjectClass *oc)
{
    GPtrArray *out = g_ptr_array_new();

    class_property_list_rec(oc, out);
    return out;
}

ObjectProperty *object_property_find(Object *obj, const char *name)
{
    guint i;

    for (i = 0; obj->dynamic_props && i < obj->dynamic_props->len; i++) {
        ObjectProperty *prop = g_ptr_array_index(obj->dynamic_props, i);
        if (!strcmp(prop->name, name)) {
            return prop;
        }
    }
    return object_class_property_find(obj->klass, name);
}

GPtrArray *object_property_list(Object *obj)
{
    GPtrArray *out = object_class_property_list(obj->klass);
    guint i;

    for (i = 0; obj->dynamic_props && i < obj->dynamic_props->len; i++) {
        g_ptr_array_add(out, g_ptr_array_index(obj->dynamic_props, i));
    }
    return out;
}

/* What an alias property forwards to */
typedef struct AliasTarget {
    Object *obj;
    char *name;
} AliasTarget;

ObjectProperty *object_property_add(Object *obj, const char *name,
                                    const char *type, ObjectPropertyGet *get,
                                    ObjectPropertySet *set)
{
    ObjectProperty *prop = g_new0(ObjectProperty, 1);

    prop->name = g_strdup(name);
    prop->type = g_strdup(type);
    prop->kind = PROP_KIND_OTHER;
    prop->get = get;
    prop->set = set;
    if (!obj->dynamic_props) {
        obj->dynamic_props = g_ptr_array_new();
    }
    g_ptr_array_add(obj->dynamic_props, prop);
    return prop;
}

static void property_free(ObjectProperty *prop)
{
    if (prop->alias_target) {
        AliasTarget *t = prop->opaque_ptr;

        g_free(t->name);
        g_free(t);
    }
    g_free(prop->name);
    g_free(prop->type);
    g_free(prop->description);
    g_free(prop->defval);
    g_free(prop);
}

void object_property_del(Object *obj, const char *name)
{
    guint i;

    for (i = 0; obj->dynamic_props && i < obj->dynamic_props->len; i++) {
        ObjectProperty *prop = g_ptr_array_index(obj->dynamic_props, i);

        if (!strcmp(prop->name, name)) {
            if (obj->user_set) {
                g_hash_table_remove(obj->user_set, prop->name);
            }
            g_ptr_array_remove_index(obj->dynamic_props, i);
            property_free(prop);
            return;
        }
    }
}

static JsonNode *link_get(Object *obj, ObjectProperty *prop, Error **errp)
{
    Object *target = *(Object **)prop->opaque_ptr;
    char *path = target ? object_get_canonical_path(target) : g_strdup("");
    JsonNode *n = json_node_init_string(json_node_alloc(), path);

    g_free(path);
    return n;
}

ObjectProperty *object_property_add_link(Object *obj, const char *name,
                                         const char *type,
                                         Object **targetp)
{
    char *t = g_strdup_printf("link<%s>", type);
    ObjectProperty *prop = object_property_add(obj, name, t, link_get, NULL);

    g_free(t);
    prop->opaque_ptr = targetp;
    return prop;
}

static JsonNode *alias_get(Object *obj, ObjectProperty *prop, Error **errp)
{
    AliasTarget *t = prop->opaque_ptr;

    return object_property_get(t->obj, t->name, errp);
}

static bool alias_set(Object *obj, ObjectProperty *prop, JsonNode *value,
                      Error **errp)
{
    AliasTarget *t = prop->opaque_ptr;

    return object_property_set(t->obj, t->name, value, errp);
}

ObjectProperty *object_property_resolve_alias(ObjectProperty *prop,
                                              Object **objp)
{
    while (prop && prop->alias_target) {
        AliasTarget *t = prop->opaque_ptr;

        if (objp) {
            *objp = t->obj;
        }
        prop = object_property_find(t->obj, t->name);
    }
    return prop;
}

ObjectProperty *object_property_add_alias(Object *obj, const char *name,
                                          Object *target,
                                          const char *target_name)
{
    ObjectProperty *tp = object_property_find(target, target_name);
    ObjectProperty *prop;
    AliasTarget *t;

    g_assert(tp);
    prop = object_property_add(obj, name, tp->type, tp->get ? alias_get : NULL,
                               tp->set ? alias_set : NULL);
    prop->kind = tp->kind;
    prop->description = g_strdup(tp->description);
    t = g_new0(AliasTarget, 1);
    t->obj = target;
    t->name = g_strdup(target_name);
    prop->opaque_ptr = t;
    prop->alias_target = true;
    return prop;
}

JsonNode *object_property_get(Object *obj, const char *name, Error **errp)
{
    ObjectProperty *prop = object_property_find(obj, name);

    if (!prop) {
        error_setg(errp, "Property '%s.%s' not found",
                   object_get_typename(obj), name);
        return NULL;
    }
    if (!prop->get) {
        error_setg(errp, "Property '%s.%s' is not readable",
                   object_get_typename(obj), name);
        return NULL;
    }
    return prop->get(obj, prop, errp);
}

bool object_property_set(Object *obj, const char *name, JsonNode *value,
                         Error **errp)
{
    ObjectProperty *prop = object_property_find(obj, name);

    if (!prop) {
        error_setg(errp, "Property '%s.%s' not found",
                   object_get_typename(obj), name);
        return false;
    }
    if (!prop->set) {
        error_setg(errp, "Property '%s.%s' is not writable",
                   object_get_typename(obj), name);
        return false;
    }
    if (!prop->set(obj, prop, value, errp)) {
        return false;
    }
    if (!obj->user_set) {
        /* made on the first write: most objects never have one */
        obj->user_set = g_hash_table_new(g_str_hash, g_str_equal);
    }
    g_hash_table_add(obj->user_set, prop->name);
    return true;
}

void object_forget_user_set(Object *obj)
{
    if (obj->user_set) {
        g_hash_table_destroy(obj->user_set);
        obj->user_set = NULL;
    }
}

bool object_property_is_user_set(Object *obj, const char *name)
{
    ObjectProperty *prop = object_property_find(obj, name);

    return prop && obj->user_set &&
           g_hash_table_contains(obj->user_set, prop->name);
}

bool object_property_parse(Object *obj, const char *name, const char *str,
                           Error **errp)
{
    ObjectProperty *prop = object_property_find(obj, name);
    JsonNode *n;
    bool ok;

    if (!prop) {
        error_setg(errp, "Property '%s.%s' not found",
                   object_get_typename(obj), name);
        return false;
    }
    n = object_property_parse_str(prop, str, errp);
    if (!n) {
        return false;
    }
    ok = object_property_set(obj, name, n, errp);
    json_node_unref(n);
    return ok;
}

char *object_property_value_to_str(JsonNode *node)
{
    if (!node) {
        return g_strdup("");
    }
    if (JSON_NODE_HOLDS_VALUE(node)) {
        switch (json_node_get_value_type(node)) {
        case G_TYPE_BOOLEAN:
            return g_strdup(json_node_get_boolean(node) ? "true" : "false");
        case G_TYPE_INT64:
            return g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(node));
        case G_TYPE_STRING:
            return g_strdup(json_node_get_string(node));
        default:
            break;
        }
    }
    return json_to_string(node, FALSE);
}

bool object_property_get_bool(Object *obj, const char *name, Error **errp)
{
    JsonNode *n = object_property_get(obj, name, errp);
    bool v = false;

    if (!n) {
        return false;
    }
    if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_BOOLEAN) {
        v = json_node_get_boolean(n);
    } else {
        error_setg(errp, "Property '%s' is not a boolean", name);
    }
    json_node_unref(n);
    return v;
}

bool object_property_set_bool(Object *obj, const char *name, bool value,
                              Error **errp)
{
    JsonNode *n = json_node_init_boolean(json_node_alloc(), value);
    bool ok = object_property_set(obj, name, n, errp);

    json_node_unref(n);
    return ok;
}

int64_t object_property_get_int(Object *obj, const char *name, Error **errp)
{
    JsonNode *n = object_property_get(obj, name, errp);
    int64_t v = -1;

    if (!n) {
        return -1;
    }
    if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_INT64) {
        v = json_node_get_int(n);
    } else {
        error_setg(errp, "Property '%s' is not an integer", name);
    }
    json_node_unref(n);
    return v;
}

bool object_property_set_int(Object *obj, const char *name, int64_t value,
                             Error **errp)
{
    JsonNode *n = json_node_init_int(json_node_alloc(), value);
    bool ok = object_property_set(obj, name, n, errp);

    json_node_unref(n);
    return ok;
}

char *object_property_get_str(Object *obj, const char *name, Error **errp)
{
    JsonNode *n = object_property_get(obj, name, errp);
    char *v = NULL;

    if (!n) {
        return NULL;
    }
    if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING) {
        v = g_strdup(json_node_get_string(n));
    } else {
        error_setg(errp, "Property '%s' is not a string", name);
    }
    json_node_unref(n);
    return v;
}

bool object_property_set_str(Object *obj, const char *name, const char *value,
                             Error **errp)
{
    JsonNode *n = json_node_init_string(json_node_alloc(), value);
    bool ok = object_property_set(obj, name, n, errp);

    json_node_unref(n);
    return ok;
}

/* Instances --------------------------------------------------------------- */

static void object_apply_defaults(Object *obj, ObjectClass *oc)
{
    ObjectClass *parent = object_class_get_parent(oc);
    guint i;

    if (parent) {
        object_apply_defaults(obj, parent);
    }
    for (i = 0; i < oc->property_order->len; i++) {
        ObjectProperty *prop = g_ptr_array_index(oc->property_order, i);
        JsonNode *n;

        if (!prop->defval) {
            continue;
        }
        n = object_property_parse_typed(prop, prop->defval, NULL);
        g_assert(n);
        g_assert(prop->set(obj, prop, n, NULL));
        json_node_unref(n);
    }
}

static void object_init_rec(Object *obj, TypeImpl *ti)
{
    if (ti->parent_type) {
        object_init_rec(obj, ti->parent_type);
    }
    if (ti->info->instance_init) {
        ti->info->instance_init(obj);
    }
}

static void object_init_instance(Object *obj, ObjectClass *oc)
{
    TypeImpl *ti = oc->type, *p;

    g_assert(!ti->info->abstract);
    obj->klass = oc;
    obj->ref = 1;
    obj->children = g_ptr_array_new();
    object_apply_defaults(obj, oc);
    object_init_rec(obj, ti);
    for (p = ti; p; p = p->parent_type) {
        if (p->info->instance_post_init) {
            p->info->instance_post_init(obj);
        }
    }
    /* Only writes after creation count as "set by the user". */
    object_forget_user_set(obj);
}

Object *object_new_with_class(ObjectClass *oc)
{
    Object *obj = g_malloc0(type_instance_size(oc->type));

    object_init_instance(obj, oc);
    return obj;
}

Object *object_new(const char *typename)
{
    ObjectClass *oc = object_class_by_name(typename);

    g_assert(oc);
    return object_new_with_class(oc);
}

void object_initialize(void *data, size_t size, const char *typename)
{
    ObjectClass *oc = object_class_by_name(typename);
    Object *obj = data;

    g_assert(oc);
    g_assert(size >= type_instance_size(oc->type));
    memset(data, 0, size);
    obj->embedded = true;
    object_init_instance(obj, oc);
}

void object_initialize_child(Object *parent, const char *name, void *child,
                             size_t size, const char *typename)
{
    object_initialize(child, size, typename);
    object_property_add_child(parent, name, child);
    object_unref(child);
}

Object *object_ref(Object *obj)
{
    g_atomic_int_inc(&obj->ref);
    return obj;
}

void object_unref(Object *obj)
{
    TypeImpl *ti;
    guint i;

    if (!obj || !g_atomic_int_dec_and_test(&obj->ref)) {
        return;
    }
    while (obj->children->len) {
        object_unparent(g_ptr_array_index(obj->children,
                                          obj->children->len - 1));
    }
    for (ti = obj->klass->type; ti; ti = ti->parent_type) {
        if (ti->info->instance_finalize) {
            ti->info->instance_finalize(obj);
        }
    }
    /* string fields own their memory */
    {
        GPtrArray *props = object_class_property_list(obj->klass);
        for (i = 0; i < props->len; i++) {
            ObjectProperty *prop = g_ptr_array_index(props, i);
            /* Field strings belong to the object model, not finalizers */
            if (object_property_owns_string(prop)) {
                char **p = (char **)((char *)obj + prop->offset);
                g_free(*p);
                *p = NULL;
            }
        }
        g_ptr_array_free(props, TRUE);
    }
    for (i = 0; obj->dynamic_props && i < obj->dynamic_props->len; i++) {
        property_free(g_ptr_array_index(obj->dynamic_props, i));
    }
    if (obj->dynamic_props) {
        g_ptr_array_free(obj->dynamic_props, TRUE);
    }
    g_ptr_array_free(obj->children, TRUE);
    if (obj->child_names) {
        g_hash_table_destroy(obj->child_names);
        g_hash_table_destroy(obj->next_index);
    }
    if (obj->user_set) {
        g_hash_table_destroy(obj->user_set);
    }
    g_free(obj->name);
    if (!obj->embedded) {
        g_free(obj);
    }
}

const char *object_get_typename(const Object *obj)
{
    return obj->klass->type->info->name;
}

Object *object_dynamic_cast(Object *obj, const char *typename)
{
    return obj && object_class_dynamic_cast(obj->klass, typename) ? obj : NULL;
}

/* Composition tree -------------------------------------------------------- */

static const TypeInfo object_info = {
    .name = TYPE_OBJECT,
    .instance_size = sizeof(Object),
    .class_size = sizeof(ObjectClass),
    .abstract = true,
};

static JsonNode *object_type_get(Object *obj, ObjectProperty *prop,
                                 Error **errp)
{
    return json_node_init_string(json_node_alloc(), object_get_typename(obj));
}

static void object_class_init(ObjectClass *oc, void *data)
{
    object_class_property_add(oc, "type", "string", object_type_get, NULL,
                              NULL);
}

static const TypeInfo container_info = {
    .name = TYPE_CONTAINER,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(Object),
};

static void object_register_types(void)
{
    static TypeInfo obj_info;

    obj_info = object_info;
    obj_info.class_init = object_class_init;
    type_register_static(&obj_info);
    type_register_static(&container_info);
}
type_init(object_register_types)

static Object *root;

Object *object_get_root(void)
{
    if (!root) {
        root = object_new(TYPE_CONTAINER);
    }
    return root;
}

Object *object_get_container(const char *name)
{
    Object *c = object_resolve_path_component(object_get_root(), name);

    if (!c) {
        c = object_new(TYPE_CONTAINER);
        object_property_add_child(object_get_root(), name, c);
        object_unref(c);
    }
    return c;
}

const char *object_property_add_child(Object *parent, const char *name,
                                      Object *child)
{
    g_assert(!child->parent);
    if (!parent->child_names) {
        /* most objects (memory regions) never have children */
        parent->child_names = g_hash_table_new(g_str_hash, g_str_equal);
        parent->next_index = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                   g_free, NULL);
    }
    if (g_str_has_suffix(name, "[*]")) {
        /* The first free index: none below the last one taken is */
        char *base = g_strndup(name, strlen(name) - 3);
        unsigned i = GPOINTER_TO_UINT(g_hash_table_lookup(parent->next_index,
                                                          base));

        for (;; i++) {
            char *n = g_strdup_printf("%s[%u]", base, i);

            if (!object_resolve_path_component(parent, n)) {
                child->name = n;
                break;
            }
            g_free(n);
        }
        g_hash_table_insert(parent->next_index, base, GUINT_TO_POINTER(i + 1));
    } else {
        g_assert(!object_resolve_path_component(parent, name));
        child->name = g_strdup(name);
    }
    child->parent = parent;
    object_ref(child);
    g_ptr_array_add(parent->children, child);
    g_hash_table_insert(parent->child_names, child->name, child);
    return child->name;
}

void object_unparent(Object *obj)
{
    Object *parent = obj->parent;

    if (!parent) {
        return;
    }
    g_ptr_array_remove(parent->children, obj);
    g_hash_table_remove(parent->child_names, obj->name);   /* it has one */
    /* a "[*]" name may be free again below the hints */
    g_hash_table_remove_all(parent->next_index);
    obj->parent = NULL;
    object_unref(obj);
}

Object *object_resolve_path_component(Object *parent, const char *name)
{
    return parent->child_names ? g_hash_table_lookup(parent->child_names, name)
                               : NULL;
}

Object *object_resolve_path(const char *path)
{
    Object *obj = object_get_root();
    char **parts;
    int i;

    if (!path || path[0] != '/') {
        return NULL;
    }
    parts = g_strsplit(path + 1, "/", -1);
    for (i = 0; parts[i] && obj; i++) {
        if (!parts[i][0]) {
            continue;
        }
        obj = object_resolve_path_component(obj, parts[i]);
    }
    g_strfreev(parts);
    return obj;
}

/* Whether obj's path ends with parts[0..n-1] */
static bool object_path_ends_with(Object *obj, char **parts, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        if (!obj || !obj->parent || strcmp(obj->name, parts[i])) {
            return false;
        }
        obj = obj->parent;
    }
    return true;
}

static void object_find_partial(Object *obj, char **parts, int n,
                                Object **found, int *matches)
{
    if (object_path_ends_with(obj, parts, n)) {
        *found = obj;
        (*matches)++;
    }
    for (guint i = 0; obj->children && i < obj->children->len; i++) {
        object_find_partial(g_ptr_array_index(obj->children, i), parts, n,
                            found, matches);
    }
}

Object *object_resolve_path_ambiguous(const char *path, bool *ambiguous)
{
    Object *found = NULL;
    char **parts;
    int matches = 0, n;

    if (ambiguous) {
        *ambiguous = false;
    }
    if (!path || !path[0]) {
        return NULL;
    }
    if (path[0] == '/') {
        return object_resolve_path(path);
    }
    parts = g_strsplit(path, "/", -1);
    n = g_strv_length(parts);
    object_find_partial(object_get_root(), parts, n, &found, &matches);
    g_strfreev(parts);
    if (matches > 1) {
        if (ambiguous) {
            *ambiguous = true;
        }
        return NULL;
    }
    return found;
}

char *object_get_canonical_path(Object *obj)
{
    GString *s = g_string_new(NULL);
    GSList *names = NULL, *l;

    for (; obj && obj->parent; obj = obj->parent) {
        names = g_slist_prepend(names, obj->name);
    }
    if (!names) {
        g_string_append_c(s, '/');
    }
    for (l = names; l; l = l->next) {
        g_string_append_printf(s, "/%s", (char *)l->data);
    }
    g_slist_free(names);
    return g_string_free(s, FALSE);
}
