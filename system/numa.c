/*
 * NUMA (include/sysemu/numa.h): -numa node/dist/cpu and QMP set-numa-node
 * into ms->numa_state and the vCPU slots, checked with QEMU 7.2's texts in
 * its order; completed when the board is built (node ids without holes,
 * the nodes' memory adding up to the RAM, distances); HMP info numa.
 *
 * -numa's values arrive as strings, set-numa-node's as JSON numbers: the
 * getters below take either; as QEMU's visitors, the members' types are
 * checked in the schema's order, then the unknown keys, then the values.
 * initiator=, hmat-lb and hmat-cache need -machine hmat=on; the last two
 * are parsed in system/numa-hmat.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hw/boards.h"
#include "qemu/option.h"
#include "numa-internal.h"
#include "sysemu/qtest.h"
#include "sysemu/user-objects.h"

#define MIB (1024 * 1024)

/* Option values ------------------------------------------------------------- */

/* set-numa-node's typed arguments are checked as QEMU's QMP visitor does */
static bool numa_from_qmp;

/*
 * An integer member: a JSON number, or a string as -numa gives it.  What
 * is no number "expects a uint64 value" (QEMU's string visitor); a number
 * too large for the member "expects uint16_t" (its range check).  A
 * negative JSON number is a uint64's two's complement (QEMU's QMP visitor
 * takes it "for backward compatibility")
 */
bool numa_get_int(JsonObject *o, const char *key, NumaInt kind,
                  int64_t *out, bool *present, Error **errp)
{
    static const char *const what[] = {
        [NUMA_U8] = "a uint64 value", [NUMA_U16] = "a uint64 value",
        [NUMA_U32] = "a uint64 value", [NUMA_U64] = "a uint64 value",
        [NUMA_I64] = "an int64 value", [NUMA_SIZE] = "a size value",
    };
    static const char *const c_type[] = {
        [NUMA_U8] = "uint8_t", [NUMA_U16] = "uint16_t", [NUMA_U32] = "uint32_t",
    };
    JsonNode *n = json_object_get_member(o, key);
    uint64_t u = 0;
    int64_t v;

    *present = n != NULL;
    if (!n) {
        return true;
    }
    if (JSON_NODE_HOLDS_VALUE(n) &&
        json_node_get_value_type(n) == G_TYPE_INT64) {
        v = json_node_get_int(n);
        u = v;
    } else if (numa_from_qmp) {
        /* A size is read as a uint64 outside the keyval visitor */
        static const char *const typed[] = {
            [NUMA_U8] = "uint64", [NUMA_U16] = "uint64", [NUMA_U32] = "uint64",
            [NUMA_U64] = "uint64", [NUMA_I64] = "int64", [NUMA_SIZE] = "uint64",
        };

        error_setg(errp, "Parameter '%s' expects %s", key, typed[kind]);
        return false;
    } else if (JSON_NODE_HOLDS_VALUE(n) &&
               json_node_get_value_type(n) == G_TYPE_STRING) {
        const char *s = json_node_get_string(n);
        int r = kind == NUMA_SIZE ? qemu_strtosz(s, 1, &u, NULL)
                : kind == NUMA_I64 ? qemu_strtoi64(s, &v)
                                   : qemu_strtou64(s, &u);

        /* QEMU's options visitor takes no sign for an unsigned member */
        if (r < 0 || (kind != NUMA_I64 && strchr(s, '-'))) {
            error_setg(errp, "Parameter '%s' expects %s", key, what[kind]);
            return false;
        }
        if (kind != NUMA_I64) {
            v = u;
        }
    } else {
        error_setg(errp, "Invalid parameter type for '%s', expected: %s",
                   key, kind == NUMA_SIZE ? "size" : "integer");
        return false;
    }
    if ((kind == NUMA_U8 && u > UINT8_MAX) ||
        (kind == NUMA_U16 && u > UINT16_MAX) ||
        (kind == NUMA_U32 && u > UINT32_MAX)) {
        error_setg(errp, "Parameter '%s' expects %s", key, c_type[kind]);
        return false;
    }
    *out = v;
    return true;
}

bool numa_get_required_int(JsonObject *o, const char *key, NumaInt kind,
                           int64_t *out, Error **errp)
{
    bool present;

    if (!numa_get_int(o, key, kind, out, &present, errp)) {
        return false;
    }
    if (!present) {
        error_setg(errp, "Parameter '%s' is missing", key);
        return false;
    }
    return true;
}

/* A QAPI enum member, required: its index in names (NULL-terminated) */
bool numa_get_enum(JsonObject *o, const char *key, const char *const *names,
                   int *out, Error **errp)
{
    const char *s;

    if (!qemu_json_opt_get_str(o, key, &s, errp)) {
        return false;
    }
    if (!s) {
        error_setg(errp, "Parameter '%s' is missing", key);
        return false;
    }
    for (*out = 0; names[*out]; (*out)++) {
        if (!strcmp(names[*out], s)) {
            return true;
        }
    }
    error_setg(errp, "Parameter '%s' does not accept value '%s'", key, s);
    return false;
}

bool numa_check_keys(JsonObject *o, const char *const *known, Error **errp)
{
    GList *members = json_object_get_members(o), *l;
    bool ok = true;
    size_t i;

    for (l = members; l && ok; l = l->next) {
        for (i = 0; known[i] && strcmp(known[i], l->data); i++) {
        }
        if (!known[i]) {
            error_setg(errp, numa_from_qmp ? "Parameter '%s' is unexpected"
                                           : "Invalid parameter '%s'",
                       (char *)l->data);
            ok = false;
        }
    }
    g_list_free(members);
    return ok;
}

/* -numa node ------------------------------------------------------------------ */

bool numa_hmat_disabled(Error **errp)
{
    error_setg(errp, "ACPI Heterogeneous Memory Attribute Table (HMAT) is "
               "disabled, enable it with -machine hmat=on before using any "
               "of hmat specific options");
    return false;
}

/*
 * With hmat=on a node with vCPUs is its own initiator: a node that named
 * another one with initiator= cannot take vCPUs (7.2 checks it as each
 * vCPU joins, the default mapping's included)
 */
bool numa_set_cpu_node(MachineState *ms, unsigned index, int node,
                       Error **errp)
{
    CPUSlot *slot = &ms->possible_cpus[index];
    NodeInfo *info = &ms->numa_state->nodes[node];

    if (slot->node_id >= 0 && slot->node_id != node) {
        error_setg(errp, "CPU is already assigned to node-id: %d",
                   slot->node_id);
        return false;
    }
    slot->node_id = node;
    if (ms->hmat) {
        if (info->initiator < MAX_NODES && info->initiator != node) {
            error_setg(errp, "The initiator of CPU NUMA node %d should be "
                       "itself (got %u)", node, info->initiator);
            return false;
        }
        info->has_cpu = true;
        info->initiator = node;
    }
    return true;
}

static bool numa_assign_cpu(MachineState *ms, uint64_t index, int node,
                            Error **errp)
{
    if (index >= MAX(ms->smp.max_cpus, 1)) {
        error_setg(errp, "CPU index (%" PRIu64 ") should be smaller than "
                   "maxcpus (%u)", index, MAX(ms->smp.max_cpus, 1));
        return false;
    }
    return numa_set_cpu_node(ms, index, node, errp);
}

/* cpus=N or N-M, each once per -numa cpus= (JSON: an array of numbers) */
static bool numa_node_cpus(MachineState *ms, JsonNode *n, int node,
                           Error **errp)
{
    JsonArray *a = JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
    guint i, len = a ? json_array_get_length(a) : 1;

    for (i = 0; i < len; i++) {
        JsonNode *e = a ? json_array_get_element(a, i) : n;
        uint64_t first, last;

        if (JSON_NODE_HOLDS_VALUE(e) &&
            json_node_get_value_type(e) == G_TYPE_INT64 &&
            json_node_get_int(e) >= 0) {
            first = last = json_node_get_int(e);
        } else if (JSON_NODE_HOLDS_VALUE(e) &&
                   json_node_get_value_type(e) == G_TYPE_STRING) {
            char **parts = g_strsplit(json_node_get_string(e), "-", 2);
            bool ok = qemu_strtou64(parts[0], &first) == 0 &&
                      (!parts[1] || qemu_strtou64(parts[1], &last) == 0);

            if (ok && !parts[1]) {
                last = first;
            }
            g_strfreev(parts);
            if (!ok || last < first) {
                error_setg(errp, "Parameter 'cpus' expects a uint64 value "
                           "or range");
                return false;
            }
        } else {
            error_setg(errp, "Invalid parameter type for 'cpus', expected: "
                       "integer");
            return false;
        }
        for (; first <= last; first++) {
            if (!numa_assign_cpu(ms, first, node, errp)) {
                return false;
            }
        }
    }
    return true;
}

static bool numa_set_node(MachineState *ms, JsonObject *o, Error **errp)
{
    static const char *const known[] = {
        "type", "nodeid", "cpus", "mem", "memdev", "initiator", NULL,
    };
    NumaState *ns = ms->numa_state;
    int64_t nodeid = 0, mem = 0, initiator;
    bool has_nodeid, has_mem, has_initiator;
    const char *memdev = NULL;
    JsonNode *cpus;
    NodeInfo *node;

    if (!numa_get_int(o, "nodeid", NUMA_U16, &nodeid, &has_nodeid, errp) ||
        !numa_get_int(o, "mem", NUMA_SIZE, &mem, &has_mem, errp) ||
        !qemu_json_opt_get_str(o, "memdev", &memdev, errp) ||
        !numa_get_int(o, "initiator", NUMA_U16, &initiator, &has_initiator,
                      errp) ||
        !numa_check_keys(o, known, errp)) {
        return false;
    }
    if (!has_nodeid) {
        nodeid = ns->num_nodes;
    }
    if (nodeid >= MAX_NODES) {
        error_setg(errp, "Max number of NUMA nodes reached: %" PRId64,
                   nodeid);
        return false;
    }
    node = &ns->nodes[nodeid];
    if (node->present) {
        error_setg(errp, "Duplicate NUMA nodeid: %" PRId64, nodeid);
        return false;
    }
    node->initiator = MAX_NODES;
    if (has_initiator) {
        if (!ms->hmat) {
            return numa_hmat_disabled(errp);
        }
        if (initiator >= MAX_NODES) {
            /*
             * 7.2 only prints this: the option "succeeds" without a node
             * (and, under QMP, without the program name before the text)
             */
            if (numa_from_qmp) {
                fprintf(stderr, "The initiator id %" PRId64 " expects an "
                        "integer between 0 and %d\n", initiator,
                        MAX_NODES - 1);
            } else {
                error_report("The initiator id %" PRId64 " expects an "
                             "integer between 0 and %d", initiator,
                             MAX_NODES - 1);
            }
            return true;
        }
        node->initiator = initiator;
    }
    cpus = json_object_get_member(o, "cpus");
    if (cpus && !numa_node_cpus(ms, cpus, nodeid, errp)) {
        return false;
    }
    if ((has_mem && ns->have_memdev) || (memdev && ns->have_mem) ||
        (has_mem && memdev)) {
        error_setg(errp, "numa configuration should use either mem= or "
                   "memdev=,mixing both is not allowed");
        return false;
    }
    if (has_mem) {
        if (!MACHINE_GET_CLASS(ms)->numa_mem_supported) {
            error_setg(errp, "Parameter -numa node,mem is not supported by "
                       "this machine type");
            error_append_hint(errp, "Use -numa node,memdev instead\n");
            return false;
        }
        warn_report("Parameter -numa node,mem is deprecated, use -numa "
                    "node,memdev instead");
        node->node_mem = mem;
        ns->have_mem = true;
    }
    if (memdev) {
        Object *b = object_resolve_path_component(
            object_get_container("objects"), memdev);

        if (!b || !object_dynamic_cast(b, TYPE_MEMORY_BACKEND)) {
            error_setg(errp, "memdev=%s is ambiguous", memdev);
            return false;
        }
        node->node_memdev = b;
        node->node_mem = user_objects_backend_size(b);
        ns->have_memdev = true;
    }
    node->present = true;
    ns->num_nodes++;
    ns->max_nodeid = MAX(ns->max_nodeid, nodeid + 1);
    return true;
}

/* -numa dist, -numa cpu ----------------------------------------------------------- */

static bool numa_set_dist(MachineState *ms, JsonObject *o, Error **errp)
{
    static const char *const known[] = { "type", "src", "dst", "val", NULL };
    NumaState *ns = ms->numa_state;
    int64_t src, dst, val;

    if (!numa_get_required_int(o, "src", NUMA_U16, &src, errp) ||
        !numa_get_required_int(o, "dst", NUMA_U16, &dst, errp) ||
        !numa_get_required_int(o, "val", NUMA_U8, &val, errp) ||
        !numa_check_keys(o, known, errp)) {
        return false;
    }
    if (src >= MAX_NODES || dst >= MAX_NODES) {
        error_setg(errp, "Parameter '%s' expects an integer between 0 and "
                   "%d", src >= MAX_NODES ? "src" : "dst", MAX_NODES - 1);
        return false;
    }
    if (!ns->nodes[src].present || !ns->nodes[dst].present) {
        error_setg(errp, "Source/Destination NUMA node is missing. Please "
                   "use '-numa node' option to declare it first.");
        return false;
    }
    if (val < NUMA_DISTANCE_MIN) {
        error_setg(errp, "NUMA distance (%" PRId64 ") is invalid, it "
                   "shouldn't be less than %d.", val, NUMA_DISTANCE_MIN);
        return false;
    }
    if (src == dst && val != NUMA_DISTANCE_MIN) {
        error_setg(errp, "Local distance of node %" PRId64 " should be %d.",
                   src, NUMA_DISTANCE_MIN);
        return false;
    }
    ns->nodes[src].distance[dst] = val;
    ns->have_numa_distance = true;
    return true;
}

static bool numa_set_cpu(MachineState *ms, JsonObject *o, Error **errp)
{
    /* The schema's order; cluster-id (index 2) is refused below */
    static const char *const known[] = {
        "type", "node-id", "socket-id", "die-id", "cluster-id", "core-id",
        "thread-id", NULL,
    };
    int64_t node, want[5];
    bool has_node, has[5], matched = false;
    unsigned i, k;

    if (!numa_get_int(o, "node-id", NUMA_I64, &node, &has_node, errp)) {
        return false;
    }
    for (k = 0; k < 5; k++) {
        if (!numa_get_int(o, known[k + 2], NUMA_I64, &want[k], &has[k],
                          errp)) {
            return false;
        }
    }
    if (!numa_check_keys(o, known, errp)) {
        return false;
    }
    if (!has_node) {
        error_setg(errp, "Missing mandatory node-id property");
        return false;
    }
    if (node < 0 || node >= MAX_NODES || !ms->numa_state->nodes[node].present) {
        error_setg(errp, "Invalid node-id=%" PRId64 ", NUMA node must be "
                   "defined with -numa node,nodeid=ID before it's used with "
                   "-numa cpu,node-id=ID", node);
        return false;
    }
    if (has[2]) {
        error_setg(errp, "cluster-id is not supported");
        return false;
    }
    if (has[1] && ms->smp.dies <= 1) {
        error_setg(errp, "die-id is not supported");
        return false;
    }
    /* Every possible vCPU whose given ids all match */
    for (i = 0; i < MAX(ms->smp.max_cpus, 1); i++) {
        CPUSlot *s = &ms->possible_cpus[i];
        const unsigned got[5] = { s->socket, s->die, 0, s->core, s->thread };
        bool match = true;

        for (k = 0; k < 5; k++) {
            match = match && (!has[k] || want[k] == got[k]);
        }
        if (!match) {
            continue;
        }
        matched = true;
        if (!numa_set_cpu_node(ms, i, node, errp)) {
            return false;
        }
    }
    if (!matched) {
        error_setg(errp, "no match found");
        return false;
    }
    return true;
}

static bool numa_set_options(MachineState *ms, JsonObject *o, Error **errp)
{
    const char *type;

    if (!ms->numa_state) {
        ms->numa_state = g_new0(NumaState, 1);
    }
    machine_init_possible_cpus(ms);
    if (!qemu_json_opt_get_str(o, "type", &type, errp)) {
        return false;
    }
    if (!type) {
        error_setg(errp, "Parameter 'type' is missing");
        return false;
    }
    if (!strcmp(type, "node")) {
        return numa_set_node(ms, o, errp);
    } else if (!strcmp(type, "dist")) {
        return numa_set_dist(ms, o, errp);
    } else if (!strcmp(type, "cpu")) {
        return numa_set_cpu(ms, o, errp);
    } else if (!strcmp(type, "hmat-lb")) {
        return numa_parse_hmat_lb(ms, o, errp);
    } else if (!strcmp(type, "hmat-cache")) {
        return numa_parse_hmat_cache(ms, o, errp);
    }
    error_setg(errp, "Parameter 'type' does not accept value '%s'", type);
    return false;
}

bool numa_parse_cli(MachineState *ms, const char *optarg, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "type", errp);
    JsonObject *o;
    JsonArray *cpus = NULL;
    bool ok;
    guint i;

    if (!opts) {
        return false;
    }
    o = json_object_new();
    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);

        /* cpus= may be repeated; every other key: the last one counts */
        if (!strcmp(opt->name, "cpus")) {
            if (!cpus) {
                cpus = json_array_new();
                json_object_set_array_member(o, "cpus", cpus);
            }
            json_array_add_string_element(cpus, opt->value);
        } else {
            json_object_set_string_member(o, opt->name, opt->value);
        }
    }
    qemu_opts_free(opts);
    ok = numa_set_options(ms, o, errp);
    json_object_unref(o);
    return ok;
}

JsonNode *qmp_set_numa_node(JsonObject *args, Error **errp)
{
    static const char *const types[] = {
        "node", "dist", "cpu", "hmat-lb", "hmat-cache", NULL,
    };
    JsonNode *type = json_object_get_member(args, "type");
    bool ok;
    size_t i;

    /* The arguments' discriminator first, as QEMU's visitor reads it */
    if (!type) {
        error_setg(errp, "Parameter 'type' is missing");
        return NULL;
    }
    if (!JSON_NODE_HOLDS_VALUE(type) ||
        json_node_get_value_type(type) != G_TYPE_STRING) {
        error_setg(errp, "Invalid parameter type for 'type', expected: "
                   "string");
        return NULL;
    }
    for (i = 0; types[i] && strcmp(types[i], json_node_get_string(type));
         i++) {
    }
    if (!types[i]) {
        error_setg(errp, "Parameter 'type' does not accept value '%s'",
                   json_node_get_string(type));
        return NULL;
    }
    if (qdev_machine_ready() || !current_machine ||
        current_machine->numa_complete) {
        error_setg(errp, "The command is permitted only before the machine "
                   "has been created");
        return NULL;
    }
    numa_from_qmp = true;
    ok = numa_set_options(current_machine, args, errp);
    numa_from_qmp = false;
    if (!ok) {
        return NULL;
    }
    return json_node_init_object(json_node_alloc(), json_object_new());
}

/* Completion ---------------------------------------------------------------------- */

/* 7.2's check: every pair given one way at least, local distances 10 */
static bool numa_complete_distances(NumaState *ns, Error **errp)
{
    int src, dst;
    bool asymmetric = false;

    for (src = 0; src < ns->num_nodes; src++) {
        for (dst = src; dst < ns->num_nodes; dst++) {
            uint8_t d1 = ns->nodes[src].distance[dst];
            uint8_t d2 = ns->nodes[dst].distance[src];

            if (src != dst && !d1 && !d2) {
                error_setg(errp, "The distance between node %d and %d is "
                           "missing, at least one distance value between "
                           "each nodes should be provided.", src, dst);
                return false;
            }
            if (d1 && d2 && d1 != d2) {
                asymmetric = true;
            }
        }
    }
    for (src = 0; src < ns->num_nodes; src++) {
        for (dst = 0; dst < ns->num_nodes; dst++) {
            uint8_t *d = &ns->nodes[src].distance[dst];

            if (src == dst) {
                *d = NUMA_DISTANCE_MIN;
            } else if (!*d) {
                if (asymmetric) {
                    error_setg(errp, "At least one asymmetrical pair of "
                               "distances is given, please provide distances "
                               "for both directions of all node pairs.");
                    return false;
                }
                *d = ns->nodes[dst].distance[src];
            }
        }
    }
    return true;
}

bool numa_complete_configuration(MachineState *ms, Error **errp)
{
    NumaState *ns = ms->numa_state;
    uint64_t total = 0;
    int i;

    ms->numa_complete = true;
    if (!ns || !ns->num_nodes) {
        return true;
    }
    /* From the top, as 7.2 looks */
    for (i = ns->max_nodeid - 1; i >= 0; i--) {
        if (!ns->nodes[i].present) {
            error_setg(errp, "numa: Node ID missing: %d", i);
            return false;
        }
        total += ns->nodes[i].node_mem;
    }
    if (total != ms->ram_size) {
        error_setg(errp, "total memory for NUMA nodes (0x%" PRIx64 ") should "
                   "equal RAM size (0x%" PRIx64 ")", total, ms->ram_size);
        return false;
    }
    if (ns->have_numa_distance && !numa_complete_distances(ns, errp)) {
        return false;
    }
    return true;
}

static void numa_append_slot(GString *s, MachineState *ms, unsigned i)
{
    CPUSlot *slot = &ms->possible_cpus[i];

    g_string_append_printf(s, "%sCPU %u [socket-id: %u, ", s->len ? ", " : "",
                           i, slot->socket);
    if (ms->smp.dies > 1) {
        g_string_append_printf(s, "die-id: %u, ", slot->die);
    }
    g_string_append_printf(s, "core-id: %u, thread-id: %u]", slot->core,
                           slot->thread);
}

bool numa_finish_cpu_init(MachineState *ms, Error **errp)
{
    NumaState *ns = ms->numa_state;
    GString *s;
    bool default_mapping = true;
    unsigned i, n = MAX(ms->smp.max_cpus, 1);

    if (!ns || !ns->num_nodes) {
        return true;
    }
    for (i = 0; i < n; i++) {
        if (ms->possible_cpus[i].node_id >= 0) {
            default_mapping = false;
        }
    }
    s = g_string_new(NULL);
    for (i = 0; i < n; i++) {
        CPUSlot *slot = &ms->possible_cpus[i];

        if (slot->node_id >= 0) {
            continue;
        }
        if (!default_mapping) {
            numa_append_slot(s, ms, i);
        }
        /*
         * Without any mapping, the PC boards' default: sockets round-robin
         * over the nodes; with a partial one, 7.2 puts the rest in node 0
         */
        if (!numa_set_cpu_node(ms, i,
                               default_mapping ? slot->socket % ns->num_nodes
                                               : 0, errp)) {
            g_string_free(s, TRUE);
            return false;
        }
    }
    if (ms->hmat && !numa_hmat_check_initiators(ns, errp)) {
        g_string_free(s, TRUE);
        return false;
    }
    if (s->len && !qtest_enabled()) {
        warn_report("CPU(s) not present in any NUMA nodes: %s", s->str);
        warn_report("All CPU(s) up to maxcpus should be described in NUMA "
                    "config, ability to start up with partial NUMA mappings "
                    "is obsoleted and will be removed in future");
    }
    g_string_free(s, TRUE);
    return true;
}

void numa_state_free(NumaState *ns)
{
    int h, t;

    if (!ns) {
        return;
    }
    for (h = 0; h < HMAT_LB_LEVELS; h++) {
        for (t = 0; t < HMAT_LB_TYPES; t++) {
            if (ns->hmat_lb[h][t]) {
                g_array_free(ns->hmat_lb[h][t]->list, TRUE);
                g_free(ns->hmat_lb[h][t]);
            }
        }
    }
    g_free(ns);
}

int numa_cpu_node(MachineState *ms, unsigned index)
{
    if (!ms->numa_state || !ms->numa_state->num_nodes) {
        return -1;
    }
    return ms->possible_cpus[index].node_id;
}

char *numa_info_text(MachineState *ms)
{
    NumaState *ns = ms->numa_state;
    GString *s = g_string_new(NULL);
    int n = ns ? ns->num_nodes : 0, i;
    guint c;

    g_string_append_printf(s, "%d nodes\n", n);
    for (i = 0; i < n; i++) {
        g_string_append_printf(s, "node %d cpus:", i);
        for (c = 0; ms->cpus && c < ms->cpus->len; c++) {
            X86CPU *cpu = g_ptr_array_index(ms->cpus, c);

            if (ms->possible_cpus[cpu->cpu_index].node_id == i) {
                g_string_append_printf(s, " %d", cpu->cpu_index);
            }
        }
        g_string_append_printf(s, "\nnode %d size: %" PRIu64 " MB\n", i,
                               ns->nodes[i].node_mem / MIB);
        g_string_append_printf(s, "node %d plugged: 0 MB\n", i);
    }
    return g_string_free(s, FALSE);
}
