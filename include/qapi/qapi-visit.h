/*
 * The QMP argument visitor: checks a request's "arguments" object against
 * a command's declaration (qapi/schema.json, turned into the descriptor
 * tables below by scripts/qapi-gen.py) and fills the command's C struct.
 *
 * Checks and texts are QEMU 7.2's (recorded in
 * tests/data/qemu72/qmp-arg-errors.json): members in declaration order,
 * "Parameter 'PATH' is missing", "Invalid parameter type for 'PATH',
 * expected: TYPE" (null counts as a wrong type), "Parameter 'NAME' does
 * not accept value 'V'" for an enum, then "Parameter 'PATH' is
 * unexpected" for a member the declaration lacks.  PATH names nested
 * members as QEMU does: "model.name", "capabilities[0].state".
 *
 * Flat unions (blockdev-add's BlockdevOptions) check their base members,
 * then the members of the variant their discriminator selects, then the
 * unexpected ones.  An alternate (BlockdevRef: an object or a string)
 * takes the branch of the value's JSON type; any other type is "Invalid
 * parameter type for 'NAME', expected: ALTERNATE".
 *
 * The keyval flavour reads what -blockdev's dotted key=value syntax
 * gives: every scalar is a string, converted as QEMU's keyval visitor
 * does ("Parameter 'offset' expects integer", "... expects 'on' or
 * 'off'"); an alternate then takes its string branch.
 */
#ifndef QAPI_QAPI_VISIT_H
#define QAPI_QAPI_VISIT_H

#include <stddef.h>
#include <json-glib/json-glib.h>

#include "qapi/error.h"

typedef enum QapiKind {
    QAPI_STR,
    QAPI_INT,
    QAPI_INT32,     /* QEMU's int32: "Parameter 'P' expects int32_t" */
    QAPI_UINT64,    /* QEMU's uint64: negative integers wrap, as in QEMU */
    QAPI_BOOL,
    QAPI_NUMBER,
    QAPI_ANY,       /* any JSON value, null included, kept as a node */
    QAPI_NULL,
    QAPI_ENUM,      /* a string from enum_values, stored as an int */
    QAPI_STRUCT,    /* an object, embedded */
    QAPI_LIST,      /* an array of elem_kind, as { unsigned len; T *items } */
    QAPI_ALTERNATE, /* see QapiAltDesc */
} QapiKind;

typedef struct QapiStructDesc QapiStructDesc;

/*
 * An alternate's C struct: QapiAltKind at kind_offset, then per branch an
 * allocated object (obj: desc->size bytes), a string or an enum value
 * (str_kind QAPI_STR or QAPI_ENUM), or nothing for null.
 */
typedef struct QapiAltDesc {
    const char *name;
    ptrdiff_t kind_offset;
    const QapiStructDesc *obj;        /* NULL: no object branch */
    ptrdiff_t obj_offset;
    bool has_str;
    QapiKind str_kind;
    ptrdiff_t str_offset;
    const char *const *enum_values;
    bool has_null;
} QapiAltDesc;

typedef struct QapiMemberDesc {
    const char *name;           /* NULL ends a member table */
    QapiKind kind;
    ptrdiff_t offset;           /* of the value in the C struct */
    ptrdiff_t has_offset;       /* of its has_ flag; -1: required */
    const char *const *enum_values;   /* QAPI_ENUM, or a list's elements */
    const QapiStructDesc *sub;        /* QAPI_STRUCT, or a list's elements */
    QapiKind elem_kind;               /* QAPI_LIST */
    size_t elem_size;                 /* QAPI_LIST */
    const QapiAltDesc *alt;           /* QAPI_ALTERNATE */
} QapiMemberDesc;

struct QapiStructDesc {
    const char *name;
    size_t size;
    const QapiMemberDesc *members;
    /* Flat unions: an enum member of the base selects variants[value] */
    const char *discriminator;        /* NULL: a plain struct */
    ptrdiff_t discriminator_offset;
    ptrdiff_t variants_offset;
    const QapiStructDesc *const *variants;  /* NULL entry: no members */
};

/*
 * Fills *out (desc->size bytes, zeroed by the caller) from obj.  Strings
 * and 'any' nodes point into obj, which must outlive *out; lists are
 * allocated (qapi_struct_free).  A NULL desc takes no members.
 */
bool qapi_visit_struct(const QapiStructDesc *desc, JsonObject *obj,
                       void *out, Error **errp);
/* The same over keyval input (string scalars, see above) */
bool qapi_visit_struct_keyval(const QapiStructDesc *desc, JsonObject *obj,
                              void *out, Error **errp);
/* Whether name is a member of desc (with the variant of value tag) */
bool qapi_struct_has_member(const QapiStructDesc *desc, int tag,
                            const char *name);
/* Frees what qapi_visit_struct allocated inside *out (not out itself). */
void qapi_struct_free(const QapiStructDesc *desc, void *out);

#endif
