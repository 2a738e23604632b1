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
 */
#ifndef QAPI_QAPI_VISIT_H
#define QAPI_QAPI_VISIT_H

#include <stddef.h>
#include <json-glib/json-glib.h>

#include "qapi/error.h"

typedef enum QapiKind {
    QAPI_STR,
    QAPI_INT,
    QAPI_BOOL,
    QAPI_NUMBER,
    QAPI_ANY,       /* any JSON value, null included, kept as a node */
    QAPI_NULL,
    QAPI_ENUM,      /* a string from enum_values, stored as an int */
    QAPI_STRUCT,    /* an object, embedded */
    QAPI_LIST,      /* an array of elem_kind, as { unsigned len; T *items } */
} QapiKind;

typedef struct QapiStructDesc QapiStructDesc;

typedef struct QapiMemberDesc {
    const char *name;           /* NULL ends a member table */
    QapiKind kind;
    ptrdiff_t offset;           /* of the value in the C struct */
    ptrdiff_t has_offset;       /* of its has_ flag; -1: required */
    const char *const *enum_values;   /* QAPI_ENUM, or a list's elements */
    const QapiStructDesc *sub;        /* QAPI_STRUCT, or a list's elements */
    QapiKind elem_kind;               /* QAPI_LIST */
    size_t elem_size;                 /* QAPI_LIST */
} QapiMemberDesc;

/*
 * A flat union (QEMU's: a base with an enum discriminator, then the
 * members of the variant the discriminator selects, in the same object).
 */
typedef struct QapiVariantDesc {
    int tag_value;              /* -1 ends the table */
    ptrdiff_t offset;           /* of the variant's struct in the union */
    const QapiStructDesc *desc;
} QapiVariantDesc;

typedef struct QapiVariantsDesc {
    ptrdiff_t tag_offset;       /* of the discriminator (an enum member) */
    const QapiVariantDesc *cases;   /* a value absent here: no members */
} QapiVariantsDesc;

struct QapiStructDesc {
    const char *name;
    size_t size;
    const QapiMemberDesc *members;
    const QapiVariantsDesc *variants;   /* NULL unless a union */
};

/*
 * Fills *out (desc->size bytes, zeroed by the caller) from obj.  Strings
 * and 'any' nodes point into obj, which must outlive *out; lists are
 * allocated (qapi_struct_free).  A NULL desc takes no members.
 */
bool qapi_visit_struct(const QapiStructDesc *desc, JsonObject *obj,
                       void *out, Error **errp);
/* Frees what qapi_visit_struct allocated inside *out (not out itself). */
void qapi_struct_free(const QapiStructDesc *desc, void *out);

#endif
