/*
 * qcow2 refcounts: reading and changing them, allocating clusters, new
 * refcount blocks, growing the refcount table, deferred frees, and the
 * ordered metadata flush (the write order is explained in qcow2.h).
 *
 * A refcount block is one cluster of (cluster_size * 8 / refcount_bits)
 * entries, 1 to 64 bits wide; widths below 8 bits pack several entries in
 * a byte, entry 0 in the least significant bits; wider ones are
 * big-endian.
 */
#include <errno.h>
#include <string.h>

#include "block/qcow2.h"

static uint64_t rb_get(const BDRVQcow2State *s, const void *block,
                       uint64_t i)
{
    const uint8_t *p = block;
    int bits = s->refcount_bits;

    switch (bits) {
    case 1: case 2: case 4:
        return (p[i * bits / 8] >> (i * bits % 8)) & ((1u << bits) - 1);
    case 8:
        return p[i];
    case 16:
        return GUINT16_FROM_BE(((const uint16_t *)p)[i]);
    case 32:
        return GUINT32_FROM_BE(((const uint32_t *)p)[i]);
    default:
        return GUINT64_FROM_BE(((const uint64_t *)p)[i]);
    }
}

static void rb_set(const BDRVQcow2State *s, void *block, uint64_t i,
                   uint64_t v)
{
    uint8_t *p = block;
    int bits = s->refcount_bits;

    switch (bits) {
    case 1: case 2: case 4: {
        unsigned shift = i * bits % 8, mask = ((1u << bits) - 1) << shift;

        p[i * bits / 8] = (p[i * bits / 8] & ~mask) | ((v << shift) & mask);
        break;
    }
    case 8:
        p[i] = v;
        break;
    case 16:
        ((uint16_t *)p)[i] = GUINT16_TO_BE(v);
        break;
    case 32:
        ((uint32_t *)p)[i] = GUINT32_TO_BE(v);
        break;
    default:
        ((uint64_t *)p)[i] = GUINT64_TO_BE(v);
    }
}

/* Metadata clusters -------------------------------------------------------- */

bool qcow2_is_metadata(BDRVQcow2State *s, uint64_t host_offset)
{
    uint64_t ci = host_offset >> s->cluster_bits;

    return g_hash_table_contains(s->metadata, &ci);
}

void qcow2_mark_metadata(BDRVQcow2State *s, uint64_t offset, uint64_t bytes,
                         bool on)
{
    uint64_t ci, end = (offset + bytes + s->cluster_size - 1) >>
                       s->cluster_bits;

    for (ci = offset >> s->cluster_bits; ci < end; ci++) {
        if (on) {
            uint64_t *key = g_new(uint64_t, 1);

            *key = ci;
            g_hash_table_add(s->metadata, key);
        } else {
            g_hash_table_remove(s->metadata, &ci);
        }
    }
}

/* Lookup --------------------------------------------------------------------- */

/*
 * The refcount block of table entry rt_index: 1 with *block set, 0 when
 * there is none (all its refcounts are 0), or -errno.
 */
static int refblock_load(BlockDriverState *bs, uint64_t rt_index,
                         void **block)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t off;
    int ret;

    if (rt_index >= s->refcount_table_size) {
        return 0;
    }
    off = s->refcount_table[rt_index];
    if (off & REFT_RESERVED_MASK) {
        return -EIO;            /* a corrupt image: refuse the request */
    }
    if (!off) {
        return 0;
    }
    ret = qcow2_cache_get(bs, s->refcount_cache, off, false, block);
    return ret < 0 ? ret : 1;
}

int qcow2_get_refcount(BlockDriverState *bs, uint64_t cluster_index,
                       uint64_t *refcount)
{
    BDRVQcow2State *s = bs->opaque;
    void *block;
    int ret = refblock_load(bs, cluster_index >> s->refcount_block_bits,
                            &block);

    *refcount = 0;
    if (ret <= 0) {
        return ret;
    }
    *refcount = rb_get(s, block, cluster_index &
                                 ((1ULL << s->refcount_block_bits) - 1));
    return 0;
}

/*
 * The loaded refcount block of a cluster and its index there; -EIO if
 * the block does not exist
 */
static int refcount_entry(BlockDriverState *bs, uint64_t cluster_index,
                          void **block, uint64_t *i)
{
    BDRVQcow2State *s = bs->opaque;
    int ret = refblock_load(bs, cluster_index >> s->refcount_block_bits,
                            block);

    *i = cluster_index & ((1ULL << s->refcount_block_bits) - 1);
    return ret <= 0 ? (ret ? ret : -EIO) : 0;
}

/* Changes a refcount whose block exists */
static int update_refcount(BlockDriverState *bs, uint64_t cluster_index,
                           int delta)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t i, v;
    void *block;
    int ret = refcount_entry(bs, cluster_index, &block, &i);

    if (ret < 0) {
        return ret;
    }
    v = rb_get(s, block, i);
    if ((delta < 0 && v == 0) || (delta > 0 && v == s->refcount_max)) {
        return -EIO;            /* underflow/overflow: a corrupt image */
    }
    rb_set(s, block, i, v + delta);
    qcow2_cache_mark_dirty(s->refcount_cache, block);
    if (delta < 0 && v == 1 && cluster_index < s->free_cluster_index) {
        s->free_cluster_index = cluster_index;
    }
    return 0;
}

/*
 * Refcount 1 for a cluster find_free_run() found free: +1 inside the
 * image; past its end, whatever a leak left there is overwritten
 */
static int take_cluster(BlockDriverState *bs, uint64_t cluster_index)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t i;
    void *block;
    int ret;

    if (cluster_index < size_to_clusters(s, s->alloc_end)) {
        return update_refcount(bs, cluster_index, 1);
    }
    ret = refcount_entry(bs, cluster_index, &block, &i);
    if (ret < 0) {
        return ret;
    }
    rb_set(s, block, i, 1);
    qcow2_cache_mark_dirty(s->refcount_cache, block);
    return 0;
}

/* New refcount blocks and a bigger table ------------------------------------------ */

static int write_header_reftable(BlockDriverState *bs, uint64_t offset,
                                 uint32_t clusters)
{
    uint8_t buf[12];
    int ret;

    qcow2_st64(buf, offset);
    qcow2_st32(buf + 8, clusters);
    ret = bdrv_flush(bs->file->bs);
    if (!ret) {
        ret = bdrv_pwrite(bs->file, QH_REFTABLE_OFFSET, sizeof(buf), buf);
    }
    return ret ? ret : bdrv_flush(bs->file->bs);
}

/* Whether table entry j would need a new block */
static bool needs_block(BDRVQcow2State *s, uint64_t j)
{
    return j >= s->refcount_table_size || !s->refcount_table[j];
}

/* Table entries [first, last] and those of clusters [a, b) lacking blocks */
static void missing_blocks(BDRVQcow2State *s, uint64_t first, uint64_t last,
                           uint64_t a, uint64_t b, GArray *out)
{
    uint64_t j, lo = a >> s->refcount_block_bits;
    uint64_t hi = (MAX(b, a + 1) - 1) >> s->refcount_block_bits;

    g_array_set_size(out, 0);
    for (j = MIN(first, lo); j <= MAX(last, hi); j++) {
        if (((j >= first && j <= last) || (j >= lo && j <= hi)) &&
            needs_block(s, j)) {
            g_array_append_val(out, j);
        }
    }
}

static int write_table_entries(BlockDriverState *bs, GArray *js)
{
    BDRVQcow2State *s = bs->opaque;
    guint i;
    int ret = 0;

    for (i = 0; i < js->len && !ret; i++) {
        uint64_t j = g_array_index(js, uint64_t, i);
        uint64_t be = GUINT64_TO_BE(s->refcount_table[j]);

        ret = bdrv_pwrite(bs->file, s->refcount_table_offset + j * 8, 8, &be);
    }
    return ret;
}

/*
 * New refcount blocks for table entries [first, last], placed in an area
 * at the end of the image (from start_min on) together with the blocks
 * that describe the area itself and, when the table must grow, a new
 * refcount table: a self-describing area, as QEMU builds it.  Written
 * blocks and table are flushed before anything points to them.
 */
static int refcount_area(BlockDriverState *bs, uint64_t first, uint64_t last,
                         uint64_t start_min)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t per_cluster = s->cluster_size / 8, nt = 0, entries = 0;
    uint64_t area = MAX(size_to_clusters(s, s->alloc_end), start_min);
    uint64_t old_off = s->refcount_table_offset, x, k, rc, *table = NULL;
    uint64_t old_bytes = (uint64_t)s->refcount_table_size * 8;
    GArray *js = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    uint8_t *blocks = NULL;
    guint nb = 0, i;
    int iter, ret;

    for (iter = 0; iter < 64; iter++) {
        uint64_t end = area + nb + nt, nt2 = 0;

        missing_blocks(s, first, last, area, end, js);
        entries = MAX(s->refcount_table_size,
                      MAX(last, (MAX(end, area + 1) - 1) >>
                                s->refcount_block_bits) + 1);
        if (entries > s->refcount_table_size) {
            entries = (entries + per_cluster - 1) / per_cluster * per_cluster;
            nt2 = entries / per_cluster;
        }
        if (js->len == nb && nt2 == nt) {
            break;
        }
        nb = js->len;
        nt = nt2;
    }
    if (iter == 64 || nt * s->cluster_size > QCOW_MAX_REFTABLE_SIZE ||
        ((area + nb + nt) << s->cluster_bits) >= QCOW_MAX_HOST_OFFSET) {
        ret = -EFBIG;
        goto out;
    }
    /* The area must really be free (beyond everything refcounted) */
    for (x = area; x < area + nb + nt; x++) {
        ret = qcow2_get_refcount(bs, x, &rc);
        if (ret < 0 || rc) {
            ret = ret < 0 ? ret : -EIO;
            goto out;
        }
    }
    table = g_new0(uint64_t, MAX(entries, 1));
    memcpy(table, s->refcount_table, old_bytes);
    blocks = g_malloc0((nb ? nb : 1) * s->cluster_size);
    for (i = 0; i < nb; i++) {
        table[g_array_index(js, uint64_t, i)] = (area + i) << s->cluster_bits;
    }
    /* Refcount 1 for each cluster of the area, in its (new or old) block */
    for (x = area; x < area + nb + nt; x++) {
        uint64_t j = x >> s->refcount_block_bits;

        if (needs_block(s, j)) {
            k = (table[j] >> s->cluster_bits) - area;
            rb_set(s, blocks + k * s->cluster_size,
                   x & ((1ULL << s->refcount_block_bits) - 1), 1);
        } else if ((ret = update_refcount(bs, x, 1)) < 0) {
            goto out;
        }
    }
    ret = qcow2_cache_write(bs, s->refcount_cache);
    if (!ret && nb) {
        ret = bdrv_pwrite(bs->file, area << s->cluster_bits,
                          (uint64_t)nb * s->cluster_size, blocks);
    }
    if (!ret) {
        ret = bdrv_flush(bs->file->bs);
    }
    if (ret < 0) {
        goto out;
    }
    if (nt) {
        for (k = 0; k < entries; k++) {
            table[k] = GUINT64_TO_BE(table[k]);
        }
        ret = bdrv_pwrite(bs->file, (area + nb) << s->cluster_bits,
                          nt * s->cluster_size, table);
        for (k = 0; k < entries; k++) {
            table[k] = GUINT64_FROM_BE(table[k]);
        }
        if (!ret) {
            ret = write_header_reftable(bs, (area + nb) << s->cluster_bits,
                                        nt);
        }
        if (ret < 0) {
            goto out;
        }
        g_free(s->refcount_table);
        s->refcount_table = table;
        table = NULL;
        s->refcount_table_size = entries;
        s->refcount_table_offset = (area + nb) << s->cluster_bits;
    } else {
        for (i = 0; i < nb; i++) {
            uint64_t j = g_array_index(js, uint64_t, i);

            s->refcount_table[j] = table[j];
        }
        ret = write_table_entries(bs, js);
        if (ret < 0) {
            goto out;
        }
    }
    s->alloc_end = MAX(s->alloc_end, (area + nb + nt) << s->cluster_bits);
    qcow2_mark_metadata(s, area << s->cluster_bits,
                        (nb + nt) << s->cluster_bits, true);
    if (nt) {
        /* Nothing points to the old table any more */
        qcow2_mark_metadata(s, old_off, old_bytes, false);
        ret = qcow2_free_now(bs, old_off, old_bytes);
    }
out:
    g_array_free(js, TRUE);
    g_free(table);
    g_free(blocks);
    return ret;
}

/*
 * Makes sure the refcount blocks of clusters [idx, idx + n) exist: the
 * missing ones go to an area after the run, so that the run stays free.
 * Returns 1 when it changed the refcount structure (the caller looks for
 * free clusters again), 0 when all were there, or -errno.
 */
static int ensure_refblocks(BlockDriverState *bs, uint64_t idx, uint64_t n)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t j, first = idx >> s->refcount_block_bits;
    uint64_t last = (idx + n - 1) >> s->refcount_block_bits;
    int ret;

    for (j = first; j <= last; j++) {
        if (needs_block(s, j)) {
            ret = refcount_area(bs, first, last, idx + n);
            return ret < 0 ? ret : 1;
        }
    }
    return 0;
}

/* Allocation ------------------------------------------------------------------- */

/*
 * The first run of n clusters with refcount 0 from the hint on.  Nothing
 * past the end of the image is in use, so a refcount there counts as 0:
 * it is a leak (a crash after the refcount reached the disk and before
 * the write that would have extended the file: legitimate, QEMU leaks the
 * same way) or a corrupt image's, and in both cases the cluster is free
 * to take.  This also keeps the scan short on an image whose refcounts
 * claim everything the refcount table reaches.
 */
static int64_t find_free_run(BlockDriverState *bs, uint64_t n)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t limit = QCOW_MAX_HOST_OFFSET >> s->cluster_bits;
    uint64_t end = size_to_clusters(s, s->alloc_end);
    uint64_t start = s->free_cluster_index, i = start, rc;
    int ret;

    while (i - start < n) {
        if (i >= limit) {
            return -EFBIG;
        }
        ret = qcow2_get_refcount(bs, i, &rc);
        if (ret < 0) {
            return ret;
        }
        if (i >= end) {
            rc = 0;
        }
        i++;
        if (rc) {
            start = i;
        }
    }
    return start;
}

int64_t qcow2_alloc_clusters(BlockDriverState *bs, uint64_t n)
{
    BDRVQcow2State *s = bs->opaque;
    int64_t idx;
    uint64_t i;
    int ret, tries;

    for (tries = 0; tries < 1000; tries++) {
        idx = find_free_run(bs, n);
        if (idx < 0) {
            return idx;
        }
        ret = ensure_refblocks(bs, idx, n);
        if (ret < 0) {
            return ret;
        }
        if (ret) {
            continue;
        }
        for (i = 0; i < n; i++) {
            ret = take_cluster(bs, idx + i);
            if (ret < 0) {
                return ret;
            }
        }
        s->free_cluster_index = idx + n;
        s->alloc_end = MAX(s->alloc_end, (uint64_t)(idx + n) <<
                                         s->cluster_bits);
        return idx << s->cluster_bits;
    }
    return -EIO;
}

/* Frees ------------------------------------------------------------------------ */

void qcow2_free_later(BlockDriverState *bs, uint64_t offset, uint64_t bytes,
                      bool discard_host)
{
    BDRVQcow2State *s = bs->opaque;
    Qcow2PendingFree f = { offset, bytes, discard_host };

    g_array_append_val(s->pending_frees, f);
}

static int free_range(BlockDriverState *bs, uint64_t offset, uint64_t bytes,
                      bool discard_host)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t ci, end = (offset + bytes + s->cluster_size - 1) >>
                       s->cluster_bits;
    uint64_t rc;
    int ret;

    for (ci = offset >> s->cluster_bits; ci < end; ci++) {
        ret = update_refcount(bs, ci, -1);
        if (ret == -EIO) {
            continue;           /* already 0: leave it, never underflow */
        }
        if (ret < 0) {
            return ret;
        }
        if (qcow2_get_refcount(bs, ci, &rc) == 0 && !rc) {
            qcow2_cache_discard(s->l2_cache, ci << s->cluster_bits);
            qcow2_mark_metadata(s, ci << s->cluster_bits, 1, false);
            if (discard_host) {
                bdrv_pdiscard(bs->file, ci << s->cluster_bits,
                              s->cluster_size);
            }
        }
    }
    return 0;
}

int qcow2_free_now(BlockDriverState *bs, uint64_t offset, uint64_t bytes)
{
    BDRVQcow2State *s = bs->opaque;

    return free_range(bs, offset, bytes, s->pass_discard_other);
}

/* Flush ------------------------------------------------------------------------ */

int qcow2_write_refcounts_stable(BlockDriverState *bs)
{
    BDRVQcow2State *s = bs->opaque;
    int ret = qcow2_cache_write(bs, s->refcount_cache);

    return ret ? ret : bdrv_flush(bs->file->bs);
}

int qcow2_flush_metadata(BlockDriverState *bs)
{
    BDRVQcow2State *s = bs->opaque;
    bool l2 = qcow2_cache_is_dirty(s->l2_cache);
    guint i;
    int ret = 0;

    if (l2 || s->l1_any_dirty || s->pending_frees->len) {
        /* 1: data and refcount increments before what references them */
        ret = qcow2_write_refcounts_stable(bs);
    } else {
        ret = qcow2_cache_write(bs, s->refcount_cache);
    }
    if (!ret && l2) {
        ret = qcow2_cache_write(bs, s->l2_cache);
    }
    if (!ret && s->l1_any_dirty) {
        /* 3: L2 tables before the L1 entries that point to them */
        ret = l2 ? bdrv_flush(bs->file->bs) : 0;
        if (!ret) {
            ret = qcow2_write_l1_dirty(bs);
        }
    }
    if (!ret && s->pending_frees->len) {
        /* 5: references dropped on disk before their refcounts drop */
        ret = bdrv_flush(bs->file->bs);
        for (i = 0; !ret && i < s->pending_frees->len; i++) {
            Qcow2PendingFree *f = &g_array_index(s->pending_frees,
                                                 Qcow2PendingFree, i);

            ret = free_range(bs, f->offset, f->bytes, f->discard_host);
        }
        if (!ret) {
            g_array_set_size(s->pending_frees, 0);
            ret = qcow2_cache_write(bs, s->refcount_cache);
        }
    }
    return ret;
}

bool qcow2_refcount_init(BlockDriverState *bs, Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    int64_t len = bdrv_getlength(bs->file->bs);
    uint32_t i;
    int ret;

    if (len < 0) {
        error_setg_errno(errp, -len, "Could not get the image size");
        return false;
    }
    s->refcount_table = g_new0(uint64_t, MAX(s->refcount_table_size, 1));
    ret = bdrv_pread(bs->file, s->refcount_table_offset,
                     (int64_t)s->refcount_table_size * 8, s->refcount_table);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "Could not read the refcount table");
        return false;
    }
    for (i = 0; i < s->refcount_table_size; i++) {
        s->refcount_table[i] = GUINT64_FROM_BE(s->refcount_table[i]);
        if (s->refcount_table[i] & REFT_OFFSET_MASK) {
            qcow2_mark_metadata(s, s->refcount_table[i] & REFT_OFFSET_MASK,
                                s->cluster_size, true);
        }
    }
    qcow2_mark_metadata(s, s->refcount_table_offset,
                        (uint64_t)s->refcount_table_size * 8, true);
    s->alloc_end = ((uint64_t)len + s->cluster_size - 1) &
                   ~(uint64_t)(s->cluster_size - 1);
    s->pending_frees = g_array_new(FALSE, FALSE, sizeof(Qcow2PendingFree));
    return true;
}
