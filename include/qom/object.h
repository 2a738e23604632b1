/*
 * A minimal object model in the spirit of QEMU's QOM.
 *
 * A type has a name, a parent, instance and class sizes, class_init and
 * instance_init.  Properties live on the class, so a type can be inspected
 * without creating an instance.  Property values travel as JsonNode, which is
 * also what QMP speaks; strings from the command line and from compat entries
 * are parsed according to the property's type name.
 *
 * Phases of an object's life are explicit: object_new() (defaults, then
 * instance_init from the root type down, then instance_post_init), property
 * writes, then whatever realize step the owner runs.
 */
#ifndef QOM_OBJECT_H
#define QOM_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "qapi/error.h"

typedef struct TypeImpl TypeImpl;
typedef struct ObjectClass ObjectClass;
typedef struct Object Object;
typedef struct ObjectProperty ObjectProperty;

#define TYPE_OBJECT "object"
#define TYPE_CONTAINER "container"

typedef struct TypeInfo {
    const char *name;
    const char *parent;
    size_t instance_size;
    size_t class_size;
    bool abstract;
    void (*class_init)(ObjectClass *oc, void *data);
    void (*class_base_init)(ObjectClass *oc, void *data);
    void *class_data;
    void (*instance_init)(Object *obj);
    /* Runs after every instance_init, leaf type first up to the root. */
    void (*instance_post_init)(Object *obj);
    void (*instance_finalize)(Object *obj);
} TypeInfo;

struct ObjectClass {
    TypeImpl *type;
    GHashTable *properties;   /* name -> ObjectProperty*, this class only */
    GPtrArray *property_order; /* ObjectProperty*, registration order */
};

struct Object {
    ObjectClass *klass;
    Object *parent;
    char *name;               /* name in the parent, NULL for a root */
    GPtrArray *children;      /* Object*, in insertion order */
    GHashTable *child_names;  /* name -> Object*: the same children */
    GHashTable *next_index;   /* "base" -> first index "base[*]" may try */
    GHashTable *user_set;     /* property names written after creation
                               * (NULL: none) */
    GPtrArray *dynamic_props; /* ObjectProperty*, added to this instance */
    int ref;                  /* atomic: flat views take refs on any thread */
    bool embedded;            /* object_initialize(): memory is the owner's */
};

/*
 * Accessors.  get returns a new JsonNode (or NULL with *errp set); set
 * takes a borrowed node and returns false with *errp set on failure.
 */
typedef JsonNode *ObjectPropertyGet(Object *obj, ObjectProperty *prop,
                                    Error **errp);
typedef bool ObjectPropertySet(Object *obj, ObjectProperty *prop,
                               JsonNode *value, Error **errp);

/* Built-in value kinds for field properties. */
typedef enum PropKind {
    PROP_KIND_BOOL,
    PROP_KIND_UINT8,
    PROP_KIND_UINT16,
    PROP_KIND_UINT32,
    PROP_KIND_UINT64,
    PROP_KIND_INT32,
    PROP_KIND_INT64,
    PROP_KIND_STRING,
    PROP_KIND_ONOFFAUTO, /* int field: 0 auto, 1 on, 2 off */
    PROP_KIND_OTHER,
} PropKind;

typedef enum OnOffAuto {
    ON_OFF_AUTO_AUTO,
    ON_OFF_AUTO_ON,
    ON_OFF_AUTO_OFF,
} OnOffAuto;

struct ObjectProperty {
    char *name;
    char *type;        /* QOM type name: "bool", "uint32", "str", ... */
    char *description;
    PropKind kind;
    ObjectPropertyGet *get;
    ObjectPropertySet *set;
    size_t offset;     /* field properties: offset in the instance */
    uint64_t opaque;   /* free for the owner (e.g. a feature bit) */
    void *opaque_ptr;
    char *defval;      /* field properties: default, parsed at object_new */
    bool alias_target; /* opaque_ptr is the alias's target (qom/object.c) */
    const void *qdev_prop; /* the qdev Property it was made from, or NULL */
    /*
     * The setter takes command-line text (-device, -global) as a JSON
     * string and parses it itself, as QEMU's PCI addr= does ("04.0" is
     * slot 4 in hex, while a JSON number is the devfn); defval is still
     * in the syntax of the property's type
     */
    bool setter_parses_text;
    /*
     * QEMU adds it to each instance rather than to the class: `-machine
     * TYPE,help`, which lists the class's, leaves it out, while
     * qom-list-properties (an instance's) shows it
     */
    bool instance_only;
};

/* Type registration; type_init(fn) runs fn before main(). */
void type_register_static(const TypeInfo *info);
#define type_init(fn)                                                    \
    static void __attribute__((constructor)) do_type_init_##fn(void)     \
    {                                                                    \
        fn();                                                            \
    }

ObjectClass *object_class_by_name(const char *name);
ObjectClass *object_class_get_parent(ObjectClass *oc);
const char *object_class_get_name(ObjectClass *oc);
bool object_class_is_abstract(ObjectClass *oc);
/* Returns oc if it is typename or a subtype of it, else NULL. */
ObjectClass *object_class_dynamic_cast(ObjectClass *oc, const char *typename);
/* Every non-abstract-or-abstract class that is a subtype of implements. */
GSList *object_class_get_list(const char *implements, bool include_abstract);
GSList *object_class_get_list_sorted(const char *implements,
                                     bool include_abstract);

Object *object_new(const char *typename);
Object *object_new_with_class(ObjectClass *oc);
/*
 * An object inside another structure (a MemoryRegion in a device's state):
 * initialised in place, never freed by the last unref.  size is checked
 * against the type's instance size.
 */
void object_initialize(void *data, size_t size, const char *typename);
/* object_initialize() and object_property_add_child() in one */
void object_initialize_child(Object *parent, const char *name, void *child,
                             size_t size, const char *typename);
Object *object_ref(Object *obj);
void object_unref(Object *obj);
const char *object_get_typename(const Object *obj);
#define OBJECT(o) ((Object *)(o))
#define OBJECT_GET_CLASS(o) (OBJECT(o)->klass)
#define OBJECT_CLASS_CAST(c) ((ObjectClass *)(c))
Object *object_dynamic_cast(Object *obj, const char *typename);

/* Properties on classes */
ObjectProperty *object_class_property_add(ObjectClass *oc, const char *name,
                                          const char *type,
                                          ObjectPropertyGet *get,
                                          ObjectPropertySet *set,
                                          const char *description);
ObjectProperty *object_class_property_add_field(ObjectClass *oc,
                                                const char *name,
                                                PropKind kind, size_t offset,
                                                const char *defval,
                                                const char *description);
/* The accessors of field properties, for wrappers (qdev's) */
JsonNode *object_field_get(Object *obj, ObjectProperty *prop, Error **errp);
bool object_field_set(Object *obj, ObjectProperty *prop, JsonNode *value,
                      Error **errp);
/*
 * For custom string properties: the string a set accessor was given, or
 * NULL with QEMU's "Invalid parameter type ... expected: string"
 */
const char *object_prop_value_str(ObjectProperty *prop, JsonNode *value,
                                  Error **errp);
/* A get accessor for a char * at prop->offset ("" while NULL) */
JsonNode *object_prop_get_str_at_offset(Object *obj, ObjectProperty *prop,
                                        Error **errp);
/*
 * True for a property whose value is a char * at prop->offset owned by the
 * object (string fields, object_prop_get_str_at_offset): object_unref()
 * frees it, finalizers must not.
 */
bool object_property_owns_string(const ObjectProperty *prop);
/* The QOM type name listings show ("string" where QEMU says so) */
void object_property_set_type(ObjectProperty *prop, const char *type);
/* Adds an alias: another name for the same accessors. */
ObjectProperty *object_class_property_add_alias(ObjectClass *oc,
                                                const char *name,
                                                ObjectProperty *target);
ObjectProperty *object_class_property_find(ObjectClass *oc, const char *name);
/* All properties of a class and its parents, parents first. */
GPtrArray *object_class_property_list(ObjectClass *oc);

ObjectProperty *object_property_find(Object *obj, const char *name);
GPtrArray *object_property_list(Object *obj);
ObjectProperty *object_property_add(Object *obj, const char *name,
                                    const char *type, ObjectPropertyGet *get,
                                    ObjectPropertySet *set);
/* Removes a property added with object_property_add() (and links) */
void object_property_del(Object *obj, const char *name);
/*
 * A read-only link<type> property: reads as the canonical path of
 * *targetp, or "" while it is NULL (as QEMU's qom-get answers)
 */
ObjectProperty *object_property_add_link(Object *obj, const char *name,
                                         const char *type,
                                         Object **targetp);
/* name on obj reads and writes target_name on target (same type) */
ObjectProperty *object_property_add_alias(Object *obj, const char *name,
                                          Object *target,
                                          const char *target_name);
/*
 * The property an alias stands for (itself if it is none); *objp, if
 * given, becomes the object that has it
 */
ObjectProperty *object_property_resolve_alias(ObjectProperty *prop,
                                              Object **objp);

JsonNode *object_property_get(Object *obj, const char *name, Error **errp);
bool object_property_set(Object *obj, const char *name, JsonNode *value,
                         Error **errp);
/* Parses str according to the property's type, then sets it. */
bool object_property_parse(Object *obj, const char *name, const char *str,
                           Error **errp);
bool object_property_get_bool(Object *obj, const char *name, Error **errp);
bool object_property_set_bool(Object *obj, const char *name, bool value,
                              Error **errp);
int64_t object_property_get_int(Object *obj, const char *name, Error **errp);
bool object_property_set_int(Object *obj, const char *name, int64_t value,
                             Error **errp);
char *object_property_get_str(Object *obj, const char *name, Error **errp);
bool object_property_set_str(Object *obj, const char *name, const char *value,
                             Error **errp);
/* true if the property was written after object_new() returned. */
bool object_property_is_user_set(Object *obj, const char *name);
/* From now on no property counts as set by the user (so far) */
void object_forget_user_set(Object *obj);

/*
 * Converts a command-line string to a JsonNode for a property of `type`
 * (a JSON string for a setter_parses_text property).
 */
JsonNode *object_property_parse_str(ObjectProperty *prop, const char *str,
                                    Error **errp);
/* The same by the property's type alone (its default's syntax). */
JsonNode *object_property_parse_typed(ObjectProperty *prop, const char *str,
                                      Error **errp);
/* Formats a property value as QEMU prints it in help output. */
char *object_property_value_to_str(JsonNode *node);

/* Composition tree ("/machine/unattached/device[0]") */
Object *object_get_root(void);
Object *object_get_container(const char *name); /* child of root, created */
/*
 * Adds child under parent (taking a reference).  A name ending in "[*]"
 * gets the first free index ("pc.ram[0]"), as QEMU names children; the
 * name given is returned (owned by child).
 */
const char *object_property_add_child(Object *parent, const char *name,
                                      Object *child);
void object_unparent(Object *obj);
Object *object_resolve_path(const char *path);
/*
 * QEMU's partial paths too: "ioapic" or "q35/ioapic" name the one object
 * whose path ends so (NULL, *ambiguous set, if several do)
 */
Object *object_resolve_path_ambiguous(const char *path, bool *ambiguous);
char *object_get_canonical_path(Object *obj);
Object *object_resolve_path_component(Object *parent, const char *name);

/* Global properties: -global, compat entries (hw/core/qdev-properties) */
typedef struct GlobalProperty {
    const char *driver;
    const char *property;
    const char *value;
    bool used;
    bool optional;
} GlobalProperty;

/*
 * Applies every entry of props whose driver is obj's type or a parent of
 * it.  Stops at the first error.  For compat arrays (read-only data).
 */
bool object_apply_global_props(Object *obj, const GPtrArray *props,
                               Error **errp);
/*
 * The same for -global's list: an entry that applies is marked used (for
 * the "not used" warning).  With errp NULL a failing entry is reported as
 * a warning and the rest still apply, as QEMU does for hotplugged devices.
 */
bool object_apply_global_props_used(Object *obj, const GPtrArray *props,
                                    Error **errp);
/*
 * A -global option as a new GlobalProperty (strings owned), or NULL with
 * QEMU 7.2's error; short boolean forms are warned about
 */
GlobalProperty *global_property_parse(const char *str, Error **errp);
void global_property_free(GlobalProperty *g);

#endif
