/*
 * The HMAT's structures (include/hw/acpi/hmat.h), byte for byte as QEMU
 * 7.2 lays them out, its quirks included: the Entry Base Unit is 7.2's
 * base as a 32-bit number, widened (latency bases in ps, ns x 1000;
 * bandwidth bases in MB/s, bytes/s over 1 MiB; both truncated to 32 bits
 * first).  An entry's row is its initiator's place in the initiator list,
 * as in Debian's 7.2 (7.2.0 took the node id, past the matrix when a node
 * without vCPUs comes before an initiator: stable 7.2.x fixed that with
 * "hmat acpi: Fix out of bounds access due to missing use of
 * indirection").
 */
#include "hw/acpi/hmat.h"

#define MIB (1024 * 1024)

#define HMAT_MPDA               0   /* structure types */
#define HMAT_LB_INFO            1
#define HMAT_CACHE_INFO         2
#define HMAT_MPDA_LEN           40
#define HMAT_CACHE_LEN          32
#define HMAT_LB_HEADER_LEN      32  /* up to the Entry Base Unit */
#define HMAT_INITIATOR_VALID    1   /* MPDA flags */

/* A little-endian integer of size bytes */
static void hmat_append(GByteArray *t, uint64_t v, unsigned size)
{
    uint8_t b[8];
    unsigned i;

    for (i = 0; i < size; i++) {
        b[i] = v >> (8 * i);
    }
    g_byte_array_append(t, b, size);
}

/* ACPI 6.3 table 5-145; the two address fields are reserved since 6.3 */
static void hmat_append_mpda(GByteArray *t, const NodeInfo *node,
                             uint32_t mem_node)
{
    hmat_append(t, HMAT_MPDA, 2);
    hmat_append(t, 0, 2);
    hmat_append(t, HMAT_MPDA_LEN, 4);
    hmat_append(t, node->initiator < MAX_NODES ? HMAT_INITIATOR_VALID : 0,
                2);
    hmat_append(t, 0, 2);
    hmat_append(t, node->initiator, 4);
    hmat_append(t, mem_node, 4);
    hmat_append(t, 0, 4);
    hmat_append(t, 0, 8);
    hmat_append(t, 0, 8);
}

/* ACPI 6.3 table 5-146 */
static void hmat_append_lb(GByteArray *t, const HmatLBInfo *lb,
                           int hierarchy, int data_type,
                           const uint32_t *initiators, uint32_t n_init,
                           uint32_t n_target)
{
    uint32_t n_entries = n_init * n_target, base, i;
    uint16_t *entries = g_new0(uint16_t, n_entries);

    hmat_append(t, HMAT_LB_INFO, 2);
    hmat_append(t, 0, 2);
    hmat_append(t, HMAT_LB_HEADER_LEN + 4 * n_init + 4 * n_target +
                2 * n_entries, 4);
    hmat_append(t, hierarchy, 1);           /* flags: memory hierarchy */
    hmat_append(t, data_type, 1);
    hmat_append(t, 0, 2);
    hmat_append(t, n_init, 4);
    hmat_append(t, n_target, 4);
    hmat_append(t, 0, 4);
    if (data_type <= HMAT_LB_WRITE_LATENCY) {
        base = lb->base * 1000;
    } else {
        base = lb->base / MIB;
    }
    hmat_append(t, base, 8);
    for (i = 0; i < n_init; i++) {
        hmat_append(t, initiators[i], 4);
    }
    for (i = 0; i < n_target; i++) {
        hmat_append(t, i, 4);
    }
    for (i = 0; i < lb->list->len; i++) {
        const HmatLBEntry *e = &g_array_index(lb->list, HmatLBEntry, i);
        uint32_t row;

        /* hmat-lb takes only initiators: the row is always found */
        for (row = 0; row < n_init && initiators[row] != e->initiator;
             row++) {
        }
        if (row < n_init) {
            entries[row * n_target + e->target] = e->data / lb->base;
        }
    }
    for (i = 0; i < n_entries; i++) {
        hmat_append(t, entries[i], 2);
    }
    g_free(entries);
}

/* ACPI 6.3 table 5-147 */
static void hmat_append_cache(GByteArray *t, const HmatCacheInfo *c,
                              unsigned total_levels)
{
    uint32_t attributes = total_levels | (uint32_t)c->level << 4 |
                          (uint32_t)c->associativity << 8 |
                          (uint32_t)c->policy << 12 |
                          (uint32_t)c->line << 16;

    hmat_append(t, HMAT_CACHE_INFO, 2);
    hmat_append(t, 0, 2);
    hmat_append(t, HMAT_CACHE_LEN, 4);
    hmat_append(t, c->node_id, 4);
    hmat_append(t, 0, 4);
    hmat_append(t, c->size, 8);
    hmat_append(t, attributes, 4);
    hmat_append(t, 0, 2);
    hmat_append(t, 0, 2);                   /* SMBIOS handles: none */
}

void hmat_build_body(GByteArray *t, const NumaState *ns)
{
    uint32_t initiators[MAX_NODES], n_init = 0;
    int i, h, type, level;

    hmat_append(t, 0, 4);                   /* reserved */
    for (i = 0; i < ns->num_nodes; i++) {
        hmat_append_mpda(t, &ns->nodes[i], i);
    }
    for (i = 0; i < ns->num_nodes; i++) {
        if (ns->nodes[i].has_cpu) {
            initiators[n_init++] = i;
        }
    }
    for (h = 0; h < HMAT_LB_LEVELS; h++) {
        for (type = 0; type < HMAT_LB_TYPES; type++) {
            const HmatLBInfo *lb = ns->hmat_lb[h][type];

            if (lb && lb->list->len) {
                hmat_append_lb(t, lb, h, type, initiators, n_init,
                               ns->num_nodes);
            }
        }
    }
    for (i = 0; i < ns->num_nodes; i++) {
        unsigned total = 0;

        for (level = 1; level < HMAT_LB_LEVELS; level++) {
            total += ns->hmat_cache[i][level].present;
        }
        for (level = 1; level < HMAT_LB_LEVELS; level++) {
            if (ns->hmat_cache[i][level].present) {
                hmat_append_cache(t, &ns->hmat_cache[i][level], total);
            }
        }
    }
}
