/*
 * NUMA: -numa and set-numa-node (system/numa.c).  The nodes, their memory
 * (a memory backend each, or none), the distances between them and which
 * node each possible vCPU is on, as QEMU 7.2 builds them; the board turns
 * them into the guest's SRAT/SLIT and fw_cfg's NUMA item.
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

typedef struct NodeInfo {
    bool present;
    uint64_t node_mem;
    Object *node_memdev;        /* NULL: mem= (or no memory) */
    uint8_t distance[MAX_NODES];    /* 0: not given */
} NodeInfo;

struct NumaState {
    int num_nodes;              /* the largest node id + 1 */
    bool have_numa_distance;    /* some -numa dist was given */
    bool have_mem, have_memdev;
    NodeInfo nodes[MAX_NODES];
};
typedef struct NumaState NumaState;

/* One -numa option (key=value, "type" implied), in command-line order */
bool numa_parse_cli(MachineState *ms, const char *optarg, Error **errp);
/* After -numa and set-numa-node, before the RAM and the vCPUs exist */
bool numa_complete_configuration(MachineState *ms, Error **errp);
/* Possible vCPUs -numa left alone: their default node, with 7.2's warnings */
void numa_finish_cpu_init(MachineState *ms);
/* The node of a possible vCPU (slot index), or -1 without NUMA */
int numa_cpu_node(MachineState *ms, unsigned index);
/* HMP info numa */
char *numa_info_text(MachineState *ms);

#endif
