/*
 * qcow2, versions 2 and 3 (the format: QEMU's docs/interop/qcow2.txt).
 *
 *   qcow2.c           open (header, extensions, checks), close, resize,
 *                     image info, the driver
 *   qcow2-cluster.c   guest -> host mapping (L1/L2), reads, allocating
 *                     writes with copy-on-write, zero clusters, discard,
 *                     compressed clusters (read)
 *   qcow2-refcount.c  refcounts: allocation, new refcount blocks, growing
 *                     the refcount table, deferred frees, the flush order
 *   qcow2-cache.c     the L2 table and refcount block caches
 *
 * Threads: one mutex (s->lock) per image, held for the whole of every
 * request, flush and resize; metadata and its ordering have one owner.
 *
 * Crash consistency (QEMU's metadata write ordering, docs/block.md): at
 * any point of the sequence of writes this driver issues, what is on disk
 * is a consistent image except for leaked clusters:
 *   1. a cluster's refcount increment is written before any L2 or L1
 *      entry that references it (cached L2 tables are written only after
 *      the dirty refcount blocks have been written and the file flushed);
 *   2. guest data and copy-on-write data are written to a new cluster
 *      before the L2 entry pointing to it;
 *   3. an L2 table is written before the L1 entry pointing to it;
 *   4. a new refcount block is written, and the file flushed, before the
 *      refcount table entry pointing to it; a new refcount table before
 *      the header that switches to it;
 *   5. refcount decrements (freed clusters) are applied only after the
 *      L2/L1 updates that dropped the references are on disk.
 * A crash can therefore leak clusters (refcount 1, unreferenced), which
 * qemu-img check reports as leaks and QEMU accepts, never reference a
 * cluster whose refcount is 0.
 */
#ifndef BLOCK_QCOW2_H
#define BLOCK_QCOW2_H

#include <string.h>
#include <glib.h>

#include "block/block_int.h"

#define QCOW_MAGIC 0x514649fbu

#define QCOW_OFLAG_COPIED (1ULL << 63)
#define QCOW_OFLAG_COMPRESSED (1ULL << 62)
#define QCOW_OFLAG_ZERO (1ULL << 0)

#define L1E_OFFSET_MASK 0x00fffffffffffe00ULL
#define L1E_RESERVED_MASK 0x7f000000000001ffULL
#define L2E_OFFSET_MASK 0x00fffffffffffe00ULL
#define L2E_STD_RESERVED_MASK 0x3f000000000001feULL
#define REFT_OFFSET_MASK 0xfffffffffffffe00ULL
#define REFT_RESERVED_MASK 0x1ffULL

#define MIN_CLUSTER_BITS 9
#define MAX_CLUSTER_BITS 21
/* QEMU's implementation limits, which an image must respect */
#define QCOW_MAX_L1_SIZE (32 * 1024 * 1024)         /* bytes */
#define QCOW_MAX_REFTABLE_SIZE (8 * 1024 * 1024)    /* bytes */
#define QCOW_MAX_SNAPSHOTS 65536
#define QCOW_MAX_BACKING_NAME 1023
/* Host offsets must stay below 2^56 (L1/L2 entry width) */
#define QCOW_MAX_HOST_OFFSET (1ULL << 56)

#define QCOW2_INCOMPAT_DIRTY (1ULL << 0)
#define QCOW2_INCOMPAT_CORRUPT (1ULL << 1)
#define QCOW2_INCOMPAT_DATA_FILE (1ULL << 2)
#define QCOW2_INCOMPAT_COMPRESSION (1ULL << 3)
#define QCOW2_INCOMPAT_EXTL2 (1ULL << 4)
#define QCOW2_INCOMPAT_KNOWN 0x1fULL
#define QCOW2_COMPAT_LAZY_REFCOUNTS (1ULL << 0)
#define QCOW2_AUTOCLEAR_BITMAPS (1ULL << 0)
#define QCOW2_AUTOCLEAR_DATA_FILE_RAW (1ULL << 1)

#define QCOW2_EXT_END 0x00000000u
#define QCOW2_EXT_BACKING_FORMAT 0xe2792acau
#define QCOW2_EXT_FEATURE_TABLE 0x6803f857u
#define QCOW2_EXT_BITMAPS 0x23852875u
#define QCOW2_EXT_CRYPTO_HEADER 0x0537be77u
#define QCOW2_EXT_DATA_FILE 0x44415441u

/* Header field offsets (big-endian on disk) */
enum {
    QH_MAGIC = 0, QH_VERSION = 4, QH_BACKING_OFFSET = 8,
    QH_BACKING_SIZE = 16, QH_CLUSTER_BITS = 20, QH_SIZE = 24,
    QH_CRYPT_METHOD = 32, QH_L1_SIZE = 36, QH_L1_OFFSET = 40,
    QH_REFTABLE_OFFSET = 48, QH_REFTABLE_CLUSTERS = 56,
    QH_NB_SNAPSHOTS = 60, QH_SNAPSHOTS_OFFSET = 64, QH_V2_LENGTH = 72,
    QH_INCOMPAT = 72, QH_COMPAT = 80, QH_AUTOCLEAR = 88,
    QH_REFCOUNT_ORDER = 96, QH_HEADER_LENGTH = 100, QH_V3_LENGTH = 104,
    QH_COMPRESSION_TYPE = 104,
};

typedef enum Qcow2ClusterType {
    QCOW2_CLUSTER_UNALLOCATED,
    QCOW2_CLUSTER_ZERO_PLAIN,       /* zero flag, no host cluster */
    QCOW2_CLUSTER_ZERO_ALLOC,       /* zero flag, host cluster kept */
    QCOW2_CLUSTER_NORMAL,
    QCOW2_CLUSTER_COMPRESSED,
} Qcow2ClusterType;

typedef struct Qcow2Cache Qcow2Cache;

/* A cluster range whose refcounts drop once the L2/L1 updates are stable */
typedef struct Qcow2PendingFree {
    uint64_t offset;
    uint64_t bytes;
    bool discard_host;              /* pass-discard: punch the host file */
} Qcow2PendingFree;

typedef struct BDRVQcow2State {
    GMutex lock;
    int version;
    int cluster_bits;
    uint32_t cluster_size;
    int l2_bits;
    uint32_t l2_size;               /* entries per L2 table */
    int csize_shift;                /* compressed descriptors */
    uint64_t csize_mask;
    uint64_t cluster_offset_mask;   /* compressed host offset bits */

    int refcount_order;
    int refcount_bits;
    uint64_t refcount_max;
    int refcount_block_bits;        /* log2(entries per refcount block) */

    uint64_t virtual_size;
    uint64_t l1_table_offset;
    uint32_t l1_size;
    uint64_t *l1_table;             /* host order */
    uint8_t *l1_dirty;              /* per entry: to be written */
    bool l1_any_dirty;

    uint64_t refcount_table_offset;
    uint32_t refcount_table_size;   /* entries */
    uint64_t *refcount_table;       /* host order */

    uint32_t header_length;
    uint64_t incompatible_features;
    uint64_t compatible_features;
    uint64_t autoclear_features;
    int compression_type;
    uint32_t nb_snapshots;
    uint64_t snapshots_offset;

    Qcow2Cache *l2_cache;
    Qcow2Cache *refcount_cache;
    /* Clusters holding metadata (index set): no guest write may land
     * there, whatever an L2 table says */
    GHashTable *metadata;

    uint64_t free_cluster_index;    /* allocation search hint */
    uint64_t alloc_end;             /* bytes: past every used cluster */
    GArray *pending_frees;          /* Qcow2PendingFree */
    bool pass_discard_request;
    bool pass_discard_other;

    /* The last decompressed cluster (reads of compressed images) */
    uint64_t zbuf_entry;
    uint8_t *zbuf;
} BDRVQcow2State;

/* Big-endian fields at any alignment */
static inline uint64_t qcow2_be64(const void *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return GUINT64_FROM_BE(v);
}

static inline uint32_t qcow2_be32(const void *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return GUINT32_FROM_BE(v);
}

static inline void qcow2_st64(void *p, uint64_t v)
{
    v = GUINT64_TO_BE(v);
    memcpy(p, &v, sizeof(v));
}

static inline void qcow2_st32(void *p, uint32_t v)
{
    v = GUINT32_TO_BE(v);
    memcpy(p, &v, sizeof(v));
}

static inline uint64_t size_to_clusters(const BDRVQcow2State *s, uint64_t n)
{
    return (n + s->cluster_size - 1) >> s->cluster_bits;
}

/* qcow2-cache.c */
Qcow2Cache *qcow2_cache_new(int entries, uint32_t table_size);
void qcow2_cache_free(Qcow2Cache *c);
/*
 * The table at a host offset, read from the file when not cached; the
 * pointer stays valid until the next get of this cache.  new_table: the
 * caller fills it (a new table), nothing is read.
 */
int qcow2_cache_get(BlockDriverState *bs, Qcow2Cache *c, uint64_t offset,
                    bool new_table, void **table);
void qcow2_cache_mark_dirty(Qcow2Cache *c, void *table);
bool qcow2_cache_is_dirty(Qcow2Cache *c);
/* Writes every dirty table (ordering is the caller's: see above) */
int qcow2_cache_write(BlockDriverState *bs, Qcow2Cache *c);
/* Forgets a table (its cluster is being freed or reused) */
void qcow2_cache_discard(Qcow2Cache *c, uint64_t offset);
/* Before a dirty entry of c is evicted (L2: write refcounts first) */
void qcow2_cache_set_evict_hook(Qcow2Cache *c,
                                int (*hook)(BlockDriverState *bs));

/* qcow2-refcount.c */
bool qcow2_refcount_init(BlockDriverState *bs, Error **errp);
int qcow2_get_refcount(BlockDriverState *bs, uint64_t cluster_index,
                       uint64_t *refcount);
/* n contiguous free clusters, refcount 1: host offset, or -errno */
int64_t qcow2_alloc_clusters(BlockDriverState *bs, uint64_t n);
/* Queues a drop of the refcounts of [offset, offset + bytes) */
void qcow2_free_later(BlockDriverState *bs, uint64_t offset, uint64_t bytes,
                      bool discard_host);
/* Drops a reference now (structures nothing on disk points to any more) */
int qcow2_free_now(BlockDriverState *bs, uint64_t offset, uint64_t bytes);
/* Writes the dirty refcount blocks and flushes the file (eviction hook) */
int qcow2_write_refcounts_stable(BlockDriverState *bs);
/* The whole ordered flush of the metadata (s->lock held) */
int qcow2_flush_metadata(BlockDriverState *bs);
bool qcow2_is_metadata(BDRVQcow2State *s, uint64_t host_offset);
void qcow2_mark_metadata(BDRVQcow2State *s, uint64_t offset, uint64_t bytes,
                         bool on);

/* qcow2-cluster.c */
int qcow2_co_preadv(BlockDriverState *bs, int64_t offset, int64_t bytes,
                    QEMUIOVector *qiov, int flags);
int qcow2_co_pwritev(BlockDriverState *bs, int64_t offset, int64_t bytes,
                     QEMUIOVector *qiov, int flags);
int qcow2_co_pwrite_zeroes(BlockDriverState *bs, int64_t offset,
                           int64_t bytes, int flags);
int qcow2_co_pdiscard(BlockDriverState *bs, int64_t offset, int64_t bytes);
/* Grows the L1 table to at least min_size entries (resize) */
int qcow2_grow_l1_table(BlockDriverState *bs, uint64_t min_size);
/* Writes the dirty L1 entries */
int qcow2_write_l1_dirty(BlockDriverState *bs);

#endif
