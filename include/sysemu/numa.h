/*
 * NUMA: -numa and set-numa-node (system/numa.c).  The nodes, their memory
 * (a memory backend each, or none), the distances between them and which
 * node each possible vCPU is on, as QEMU 7.2 builds them; the board turns
 * them into the guest's SRAT/SLIT and fw_cfg's NUMA item.  With -machine
 * hmat=on also the HMAT's data (system/numa-hmat.c, hw/acpi/hmat.c): each
 * node's initiator, the latencies and bandwidths between nodes and the
 * nodes' memory side caches.
 */
#ifndef SYSEMU_NUMA_H
#define SYSEMU_NUMA_H

#include <stdbool.h>
#include <stdint.h>

#include <json-glib/json-glib.h>

#include "qapi/error.h"
#include "qom/object.h"

#define MAX_NODES 128
#define NUMA_DISTANCE_MIN 10
#define NUMA_DISTANCE_DEFAULT 20
#define NUMA_DISTANCE_MAX 254

typedef struct MachineState MachineState;

/* hmat-lb's hierarchy= and data-type= (QAPI's enum order = ACPI's values) */
enum {
    HMAT_LB_MEMORY, HMAT_LB_CACHE_1ST, HMAT_LB_CACHE_2ND, HMAT_LB_CACHE_3RD,
    HMAT_LB_LEVELS
};
enum {
    HMAT_LB_ACCESS_LATENCY, HMAT_LB_READ_LATENCY, HMAT_LB_WRITE_LATENCY,
    HMAT_LB_ACCESS_BANDWIDTH, HMAT_LB_READ_BANDWIDTH,
    HMAT_LB_WRITE_BANDWIDTH, HMAT_LB_TYPES
};

/* NodeInfo.lb_info_provided: which of hmat-lb's kinds named it a target */
#define HMAT_LB_INFO_LATENCY   1
#define HMAT_LB_INFO_BANDWIDTH 2

typedef struct NodeInfo {
    bool present;
    bool has_cpu;               /* hmat=on: some vCPU is in the node */
    uint8_t lb_info_provided;   /* HMAT_LB_INFO_* */
    uint16_t initiator;         /* MAX_NODES: none */
    uint64_t node_mem;
    Object *node_memdev;        /* NULL: mem= (or no memory) */
    uint8_t distance[MAX_NODES];    /* 0: not given */
} NodeInfo;

typedef struct HmatLBEntry {
    uint8_t initiator, target;
    uint64_t data;              /* ns or bytes/s as given */
} HmatLBEntry;

/*
 * One hierarchy and data type's hmat-lb entries with 7.2's common base:
 * latencies in ns (base a power of ten), bandwidths in bytes/s (base a
 * power of two); range_bitmap is the largest compressed latency so far,
 * or the OR of every bandwidth
 */
typedef struct HmatLBInfo {
    uint64_t range_bitmap;
    uint64_t base;
    GArray *list;               /* HmatLBEntry, in the order given */
} HmatLBInfo;

typedef struct HmatCacheInfo {
    bool present;
    uint32_t node_id;
    uint64_t size;
    uint8_t level;
    uint8_t associativity;      /* none, direct, complex */
    uint8_t policy;             /* none, write-back, write-through */
    uint16_t line;
} HmatCacheInfo;

struct NumaState {
    int num_nodes;              /* how many nodes are declared, as 7.2 */
    int max_nodeid;             /* the largest declared node id + 1 */
    bool have_numa_distance;    /* some -numa dist was given */
    bool have_mem, have_memdev;
    NodeInfo nodes[MAX_NODES];
    HmatLBInfo *hmat_lb[HMAT_LB_LEVELS][HMAT_LB_TYPES];
    HmatCacheInfo hmat_cache[MAX_NODES][HMAT_LB_LEVELS];  /* by level */
};
typedef struct NumaState NumaState;

/* One -numa option (key=value, "type" implied), in command-line order */
bool numa_parse_cli(MachineState *ms, const char *optarg, Error **errp);
/* After -numa and set-numa-node, before the RAM and the vCPUs exist */
bool numa_complete_configuration(MachineState *ms, Error **errp);
/*
 * Possible vCPUs -numa left alone: their default node, with 7.2's
 * warnings; with hmat=on, the nodes' initiators checked
 */
bool numa_finish_cpu_init(MachineState *ms, Error **errp);
/* The vCPU slot index joins node (hmat=on: the node is an initiator) */
bool numa_set_cpu_node(MachineState *ms, unsigned index, int node,
                       Error **errp);
/* ms->numa_state's, at the machine's end */
void numa_state_free(NumaState *ns);
/* The node of a possible vCPU (slot index), or -1 without NUMA */
int numa_cpu_node(MachineState *ms, unsigned index);
/* HMP info numa */
char *numa_info_text(MachineState *ms);

#endif
