/*
 * What system/numa.c (-numa node/dist/cpu, set-numa-node) and
 * system/numa-hmat.c (hmat-lb, hmat-cache) share: the typed getters of
 * an option's members, which check them as QEMU 7.2's visitors do.
 */
#ifndef SYSTEM_NUMA_INTERNAL_H
#define SYSTEM_NUMA_INTERNAL_H

#include "hw/boards.h"
#include "sysemu/numa.h"

typedef enum NumaInt {
    NUMA_U8, NUMA_U16, NUMA_U32, NUMA_U64, NUMA_I64, NUMA_SIZE,
} NumaInt;

/* An optional integer member; *present says whether it was given */
bool numa_get_int(JsonObject *o, const char *key, NumaInt kind,
                  int64_t *out, bool *present, Error **errp);
/* A required one: "Parameter 'key' is missing" otherwise */
bool numa_get_required_int(JsonObject *o, const char *key, NumaInt kind,
                           int64_t *out, Error **errp);
/* A required enum member: *out is its index in names (NULL-terminated) */
bool numa_get_enum(JsonObject *o, const char *key, const char *const *names,
                   int *out, Error **errp);
/* Members other than known (NULL-terminated) are refused */
bool numa_check_keys(JsonObject *o, const char *const *known, Error **errp);

/* 7.2's text for HMAT options without -machine hmat=on; returns false */
bool numa_hmat_disabled(Error **errp);

/* -numa hmat-lb / hmat-cache and their set-numa-node forms */
bool numa_parse_hmat_lb(MachineState *ms, JsonObject *o, Error **errp);
bool numa_parse_hmat_cache(MachineState *ms, JsonObject *o, Error **errp);
/* hmat=on, the vCPUs placed: every initiator= names a node with vCPUs */
bool numa_hmat_check_initiators(NumaState *ns, Error **errp);

#endif
