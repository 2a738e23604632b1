/*
 * QEMU's keyval syntax, as -blockdev takes it when not JSON:
 * "driver=qcow2,file.driver=file,file.filename=a,,b.img" is the object
 * {"driver": "qcow2", "file": {"driver": "file", "filename": "a,b.img"}}.
 * Dotted keys nest, ",," is a comma inside a value, every value is a
 * string (the keyval visitor of qapi/qapi-visit.c converts them), and a
 * key given twice keeps its last value.
 */
#ifndef QEMU_KEYVAL_TREE_H
#define QEMU_KEYVAL_TREE_H

#include <json-glib/json-glib.h>

#include "qapi/error.h"

/* A new object, or NULL with QEMU's text */
JsonObject *keyval_parse_tree(const char *params, Error **errp);

#endif
