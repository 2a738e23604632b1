/*
 * How guest RAM is backed on the host: what -machine mem-merge= and
 * dump-guest-core=, and the memory-backend-ram properties ask for, applied
 * to the mapping (system/hostmem.c).
 */
#ifndef SYSEMU_HOSTMEM_H
#define SYSEMU_HOSTMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

typedef enum HostMemPolicyMode {
    HOST_MEM_POLICY_DEFAULT,
    HOST_MEM_POLICY_PREFERRED,
    HOST_MEM_POLICY_BIND,
    HOST_MEM_POLICY_INTERLEAVE,
} HostMemPolicyMode;

/* QEMU's limit on host node numbers (MAX_NODES) */
#define HOST_MEM_MAX_NODES 128

typedef struct HostMemBacking {
    bool share;         /* MAP_SHARED */
    bool reserve;       /* swap space reserved (no MAP_NORESERVE) */
    bool merge;         /* MADV_MERGEABLE (KSM) */
    bool dump;          /* in core dumps (else MADV_DONTDUMP) */
    bool prealloc;      /* every page faulted in at start-up */
    HostMemPolicyMode policy;
    uint64_t host_nodes[HOST_MEM_MAX_NODES / 64];   /* bitmap */
} HostMemBacking;

/* The defaults of QEMU's implicit RAM backend, from the machine's props */
void host_mem_backing_init(HostMemBacking *b, bool merge, bool dump);
/* The backing RAM regions are mapped with (NULL: the defaults) */
void host_mem_set_ram_backing(const HostMemBacking *b);
const HostMemBacking *host_mem_ram_backing(void);

/*
 * Maps size bytes for the RAM region name as b says and applies its
 * advice, NUMA policy and preallocation, with QEMU 7.2's errors; NULL with
 * *errp set on failure.
 */
void *host_mem_map(const char *name, uint64_t size, const HostMemBacking *b,
                   Error **errp);

#endif
