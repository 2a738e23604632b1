/*
 * -numa hmat-lb and hmat-cache (and set-numa-node's forms): the numbers
 * the guest's HMAT (hw/acpi/hmat.c) gets, checked with QEMU 7.2's texts
 * in its order, and the initiators checked once the vCPUs have nodes.
 *
 * Latencies (ns) and bandwidths (bytes/s) are stored as given; the HMAT
 * holds each as a 16-bit multiple of one base per hierarchy and data
 * type, so every entry also moves that base the way 7.2 moves it:
 *   - latency: the base is the largest power of ten dividing the first
 *     non-zero latency, then the smallest of those; an entry is refused
 *     when the value divided by the base so far, or the largest such
 *     quotient before, reaches 0xFFFF;
 *   - bandwidth: the values must be MiB multiples; the base is the
 *     lowest bit set in any of them, and an entry is refused when the
 *     bits set span more than 16 or the value over that base reaches
 *     0xFFFF.
 * 0 is allowed and counts as "not given" for hmat-cache's precondition
 * (a node needs a non-zero latency and a non-zero bandwidth first).
 */
#include <inttypes.h>
#include <string.h>

#include "numa-internal.h"

#define MIB (1024 * 1024)

static const char *const hmat_hierarchy_names[] = {
    "memory", "first-level", "second-level", "third-level", NULL,
};
static const char *const hmat_data_type_names[] = {
    "access-latency", "read-latency", "write-latency", "access-bandwidth",
    "read-bandwidth", "write-bandwidth", NULL,
};
static const char *const hmat_associativity_names[] = {
    "none", "direct", "complex", NULL,
};
static const char *const hmat_policy_names[] = {
    "none", "write-back", "write-through", NULL,
};

/* hmat-lb ------------------------------------------------------------------ */

static bool hmat_lb_duplicate(HmatLBInfo *lb, int initiator, int target,
                              const char *what, Error **errp)
{
    guint i;

    for (i = 0; i < lb->list->len; i++) {
        HmatLBEntry *e = &g_array_index(lb->list, HmatLBEntry, i);

        if (e->initiator == initiator && e->target == target) {
            error_setg(errp, "Duplicate configuration of the %s for "
                       "initiator=%d and target=%d", what, initiator, target);
            return true;
        }
    }
    return false;
}

static bool hmat_lb_add_latency(NumaState *ns, HmatLBInfo *lb, int initiator,
                                int target, uint64_t latency, Error **errp)
{
    uint64_t quotient, base = 1, max_entry;

    if (hmat_lb_duplicate(lb, initiator, target, "latency", errp)) {
        return false;
    }
    if (!lb->base) {
        lb->base = UINT64_MAX;
    }
    if (!latency) {
        return true;
    }
    for (quotient = latency; quotient % 10 == 0; quotient /= 10) {
        base *= 10;
    }
    /* 7.2 compares against the base before this entry moves it */
    max_entry = MAX(lb->range_bitmap, latency / lb->base);
    if (max_entry >= UINT16_MAX) {
        error_setg(errp, "Latency %" PRIu64 " between initiator=%d and "
                   "target=%d should not differ from previously entered min "
                   "or max values on more than %d", latency, initiator,
                   target, UINT16_MAX - 1);
        return false;
    }
    lb->base = MIN(lb->base, base);
    lb->range_bitmap = max_entry;
    ns->nodes[target].lb_info_provided |= HMAT_LB_INFO_LATENCY;
    return true;
}

static bool hmat_lb_add_bandwidth(NumaState *ns, HmatLBInfo *lb,
                                  int initiator, int target,
                                  uint64_t bandwidth, Error **errp)
{
    uint64_t bits;
    int first_bit, last_bit;

    if (bandwidth % MIB) {
        error_setg(errp, "Bandwidth %" PRIu64 " between initiator=%d and "
                   "target=%d should be 1MB aligned", bandwidth, initiator,
                   target);
        return false;
    }
    if (hmat_lb_duplicate(lb, initiator, target, "bandwidth", errp)) {
        return false;
    }
    if (!lb->base) {
        lb->base = 1;
    }
    if (!bandwidth) {
        return true;
    }
    bits = lb->range_bitmap | bandwidth;
    first_bit = __builtin_ctzll(bits);
    last_bit = 64 - __builtin_clzll(bits);
    if (last_bit - first_bit > 16 ||
        (bandwidth >> first_bit) >= UINT16_MAX) {
        error_setg(errp, "Bandwidth %" PRIu64 " between initiator=%d and "
                   "target=%d should not differ from previously entered "
                   "values on more than %d", bandwidth, initiator, target,
                   UINT16_MAX - 1);
        return false;
    }
    lb->base = UINT64_C(1) << first_bit;
    lb->range_bitmap = bits;
    ns->nodes[target].lb_info_provided |= HMAT_LB_INFO_BANDWIDTH;
    return true;
}

bool numa_parse_hmat_lb(MachineState *ms, JsonObject *o, Error **errp)
{
    static const char *const known[] = {
        "type", "initiator", "target", "hierarchy", "data-type", "latency",
        "bandwidth", NULL,
    };
    NumaState *ns = ms->numa_state;
    int64_t initiator, target, latency, bandwidth;
    bool has_latency, has_bandwidth;
    int hierarchy, data_type;
    HmatLBInfo *lb;
    HmatLBEntry entry;

    if (!numa_get_required_int(o, "initiator", NUMA_U16, &initiator, errp) ||
        !numa_get_required_int(o, "target", NUMA_U16, &target, errp) ||
        !numa_get_enum(o, "hierarchy", hmat_hierarchy_names, &hierarchy,
                       errp) ||
        !numa_get_enum(o, "data-type", hmat_data_type_names, &data_type,
                       errp) ||
        !numa_get_int(o, "latency", NUMA_U64, &latency, &has_latency, errp) ||
        !numa_get_int(o, "bandwidth", NUMA_SIZE, &bandwidth, &has_bandwidth,
                      errp) ||
        !numa_check_keys(o, known, errp)) {
        return false;
    }
    if (!ms->hmat) {
        return numa_hmat_disabled(errp);
    }
    /* "Less than" the node count, yet 7.2 lets the count itself through */
    if (initiator > ns->num_nodes) {
        error_setg(errp, "Invalid initiator=%d, it should be less than %d",
                   (int)initiator, ns->num_nodes);
        return false;
    }
    if (target > ns->num_nodes) {
        error_setg(errp, "Invalid target=%d, it should be less than %d",
                   (int)target, ns->num_nodes);
        return false;
    }
    if (initiator >= MAX_NODES || !ns->nodes[initiator].has_cpu) {
        error_setg(errp, "Invalid initiator=%d, it isn't an initiator "
                   "proximity domain", (int)initiator);
        return false;
    }
    if (target >= MAX_NODES || !ns->nodes[target].present) {
        error_setg(errp, "The target=%d should point to an existing node",
                   (int)target);
        return false;
    }
    lb = ns->hmat_lb[hierarchy][data_type];
    if (!lb) {
        lb = ns->hmat_lb[hierarchy][data_type] = g_new0(HmatLBInfo, 1);
        lb->list = g_array_new(FALSE, TRUE, sizeof(HmatLBEntry));
    }
    entry.initiator = initiator;
    entry.target = target;
    if (data_type <= HMAT_LB_WRITE_LATENCY) {
        if (!has_latency) {
            error_setg(errp, "Missing 'latency' option");
            return false;
        }
        if (has_bandwidth) {
            error_setg(errp, "Invalid option 'bandwidth' since the data type "
                       "is latency");
            return false;
        }
        if (!hmat_lb_add_latency(ns, lb, initiator, target, latency, errp)) {
            return false;
        }
        entry.data = latency;
    } else {
        if (!has_bandwidth) {
            error_setg(errp, "Missing 'bandwidth' option");
            return false;
        }
        if (has_latency) {
            error_setg(errp, "Invalid option 'latency' since the data type "
                       "is bandwidth");
            return false;
        }
        if (!hmat_lb_add_bandwidth(ns, lb, initiator, target, bandwidth,
                                   errp)) {
            return false;
        }
        entry.data = bandwidth;
    }
    g_array_append_val(lb->list, entry);
    return true;
}

/* hmat-cache --------------------------------------------------------------- */

bool numa_parse_hmat_cache(MachineState *ms, JsonObject *o, Error **errp)
{
    static const char *const known[] = {
        "type", "node-id", "size", "level", "associativity", "policy",
        "line", NULL,
    };
    NumaState *ns = ms->numa_state;
    int64_t node_id, size, level, line;
    int associativity, policy;
    HmatCacheInfo *caches, *c;

    if (!numa_get_required_int(o, "node-id", NUMA_U32, &node_id, errp) ||
        !numa_get_required_int(o, "size", NUMA_SIZE, &size, errp) ||
        !numa_get_required_int(o, "level", NUMA_U8, &level, errp) ||
        !numa_get_enum(o, "associativity", hmat_associativity_names,
                       &associativity, errp) ||
        !numa_get_enum(o, "policy", hmat_policy_names, &policy, errp) ||
        !numa_get_required_int(o, "line", NUMA_U16, &line, errp) ||
        !numa_check_keys(o, known, errp)) {
        return false;
    }
    if (!ms->hmat) {
        return numa_hmat_disabled(errp);
    }
    if (node_id >= ns->num_nodes) {
        error_setg(errp, "Invalid node-id=%" PRId64 ", it should be less "
                   "than %d", node_id, ns->num_nodes);
        return false;
    }
    if (ns->nodes[node_id].lb_info_provided !=
        (HMAT_LB_INFO_LATENCY | HMAT_LB_INFO_BANDWIDTH)) {
        error_setg(errp, "The latency and bandwidth information of "
                   "node-id=%" PRId64 " should be provided before memory "
                   "side cache attributes", node_id);
        return false;
    }
    if (level < 1 || level >= HMAT_LB_LEVELS) {
        error_setg(errp, "Invalid level=%" PRId64 ", it should be larger "
                   "than 0 and less than or equal to %d", level,
                   HMAT_LB_LEVELS - 1);
        return false;
    }
    caches = ns->hmat_cache[node_id];
    if (caches[level].present) {
        error_setg(errp, "Duplicate configuration of the side cache for "
                   "node-id=%" PRId64 " and level=%" PRId64, node_id, level);
        return false;
    }
    /* Each level is larger than the one before, which comes first */
    if (level > 1 && !caches[level - 1].present) {
        error_setg(errp, "Cache level=%" PRId64 " shall be defined first",
                   level - 1);
        return false;
    }
    if (level > 1 && (uint64_t)size <= caches[level - 1].size) {
        error_setg(errp, "Invalid size=%" PRIu64 ", the size of level=%"
                   PRId64 " should be larger than the size(%" PRIu64 ") of "
                   "level=%" PRId64, (uint64_t)size, level,
                   caches[level - 1].size, level - 1);
        return false;
    }
    if (level < HMAT_LB_LEVELS - 1 && caches[level + 1].present &&
        (uint64_t)size >= caches[level + 1].size) {
        error_setg(errp, "Invalid size=%" PRIu64 ", the size of level=%"
                   PRId64 " should be less than the size(%" PRIu64 ") of "
                   "level=%" PRId64, (uint64_t)size, level,
                   caches[level + 1].size, level + 1);
        return false;
    }
    c = &caches[level];
    c->present = true;
    c->node_id = node_id;
    c->size = size;
    c->level = level;
    c->associativity = associativity;
    c->policy = policy;
    c->line = line;
    return true;
}

/* Initiators --------------------------------------------------------------- */

bool numa_hmat_check_initiators(NumaState *ns, Error **errp)
{
    int i;

    for (i = 0; i < ns->num_nodes; i++) {
        uint16_t initiator = ns->nodes[i].initiator;

        if (initiator == MAX_NODES) {
            continue;
        }
        if (!ns->nodes[initiator].present) {
            error_setg(errp, "NUMA node %u is missing, use '-numa node' "
                       "option to declare it first", initiator);
            return false;
        }
        if (!ns->nodes[initiator].has_cpu) {
            error_setg(errp, "The initiator of NUMA node %d is invalid", i);
            return false;
        }
    }
    return true;
}
