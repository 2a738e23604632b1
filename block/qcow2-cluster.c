/*
 * qcow2 cluster mapping and requests: the L1/L2 lookup, reads (allocated,
 * zero, compressed, backing), allocating writes with copy-on-write of the
 * parts of a cluster the guest does not write, zero writes, discard, and
 * growing the L1 table.  Every entry point runs with s->lock held.
 *
 * An L2 table pointer from l2_load() stays valid while no other L2 table
 * is loaded: each step below works within one L2 table.
 */
#include <errno.h>
#include <string.h>
#include <zlib.h>

#include "block/qcow2.h"

typedef enum WriteMode {
    WRITE_IN_PLACE,         /* an allocated cluster of ours (COPIED) */
    WRITE_ZERO_IN_PLACE,    /* a preallocated zero cluster of ours */
    WRITE_ALLOCATE,         /* anything else: a new cluster */
} WriteMode;

static Qcow2ClusterType cluster_type(const BDRVQcow2State *s, uint64_t e)
{
    if (e & QCOW_OFLAG_COMPRESSED) {
        return QCOW2_CLUSTER_COMPRESSED;
    }
    if (e & QCOW_OFLAG_ZERO) {
        return e & L2E_OFFSET_MASK ? QCOW2_CLUSTER_ZERO_ALLOC
                                   : QCOW2_CLUSTER_ZERO_PLAIN;
    }
    return e & L2E_OFFSET_MASK ? QCOW2_CLUSTER_NORMAL
                               : QCOW2_CLUSTER_UNALLOCATED;
}

/* A standard entry's host cluster, or 0 when it cannot be one */
static uint64_t host_cluster(const BDRVQcow2State *s, uint64_t e)
{
    uint64_t host = e & L2E_OFFSET_MASK;

    return host & (s->cluster_size - 1) ? 0 : host;
}

/*
 * The L2 table of l1_index.  Returns 1 with *table, 0 when there is none
 * (and allocate is false), or -errno (-EIO: a corrupt entry).
 */
static int l2_load(BlockDriverState *bs, uint64_t l1_index, bool allocate,
                   uint64_t **table)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t l1e, off, rc;
    int64_t new_off;
    int ret;

    *table = NULL;
    if (l1_index >= s->l1_size) {
        return allocate ? -EIO : 0;
    }
    l1e = s->l1_table[l1_index];
    off = l1e & L1E_OFFSET_MASK;
    if (off & (s->cluster_size - 1)) {
        return -EIO;
    }
    if (off) {
        if (allocate && !(l1e & QCOW_OFLAG_COPIED)) {
            /* Only a table of ours may be changed in place */
            ret = qcow2_get_refcount(bs, off >> s->cluster_bits, &rc);
            if (ret < 0 || rc != 1) {
                return ret < 0 ? ret : -EIO;
            }
            s->l1_table[l1_index] |= QCOW_OFLAG_COPIED;
            s->l1_dirty[l1_index] = 1;
            s->l1_any_dirty = true;
        }
        ret = qcow2_cache_get(bs, s->l2_cache, off, false, (void **)table);
        return ret < 0 ? ret : 1;
    }
    if (!allocate) {
        return 0;
    }
    /* A new table, written on flush (after the refcounts); L1 after it */
    new_off = qcow2_alloc_clusters(bs, 1);
    if (new_off < 0) {
        return new_off;
    }
    ret = qcow2_cache_get(bs, s->l2_cache, new_off, true, (void **)table);
    if (ret < 0) {
        return ret;
    }
    qcow2_cache_mark_dirty(s->l2_cache, *table);
    qcow2_mark_metadata(s, new_off, s->cluster_size, true);
    s->l1_table[l1_index] = new_off | QCOW_OFLAG_COPIED;
    s->l1_dirty[l1_index] = 1;
    s->l1_any_dirty = true;
    return 1;
}

static uint64_t l1_index_of(const BDRVQcow2State *s, uint64_t offset)
{
    return offset >> (s->l2_bits + s->cluster_bits);
}

static uint64_t l2_index_of(const BDRVQcow2State *s, uint64_t offset)
{
    return (offset >> s->cluster_bits) & (s->l2_size - 1);
}

/* Compressed clusters --------------------------------------------------------- */

static void compressed_range(const BDRVQcow2State *s, uint64_t e,
                             uint64_t *offset, uint64_t *bytes)
{
    uint64_t coff = e & s->cluster_offset_mask;
    uint64_t nb = ((e >> s->csize_shift) & s->csize_mask) + 1;

    *offset = coff;
    *bytes = nb * 512 - (coff & 511);
}

/* Inflates the cluster of entry e into s->zbuf (the last one is kept) */
static int decompress_cluster(BlockDriverState *bs, uint64_t e)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t coff, csize;
    uint8_t *in;
    z_stream z;
    int ret;

    if (s->zbuf && s->zbuf_entry == e) {
        return 0;
    }
    compressed_range(s, e, &coff, &csize);
    if (coff >= QCOW_MAX_HOST_OFFSET) {
        return -EIO;
    }
    if (!s->zbuf) {
        s->zbuf = g_malloc(s->cluster_size);
    }
    s->zbuf_entry = 0;
    in = g_malloc(csize);
    ret = bdrv_pread(bs->file, coff, csize, in);
    if (ret < 0) {
        g_free(in);
        return ret;
    }
    memset(&z, 0, sizeof(z));
    z.next_in = in;
    z.avail_in = csize;
    z.next_out = s->zbuf;
    z.avail_out = s->cluster_size;
    /* Raw deflate; a 32 KiB window decodes QEMU's 4 KiB one too */
    if (inflateInit2(&z, -15) != Z_OK) {
        g_free(in);
        return -ENOMEM;
    }
    ret = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    g_free(in);
    /* Done when the cluster is full, whatever follows in the input */
    if ((ret != Z_STREAM_END && ret != Z_BUF_ERROR) || z.avail_out) {
        return -EIO;
    }
    s->zbuf_entry = e;
    return 0;
}

/* Reads ----------------------------------------------------------------------- */

/* Guest bytes that no cluster of this image holds: backing file or zero */
static int read_backing(BlockDriverState *bs, uint64_t offset, uint64_t n,
                        QEMUIOVector *qiov, size_t qoff)
{
    QEMUIOVector part;
    int64_t blen;
    uint64_t avail = 0;
    int ret = 0;

    if (bs->backing) {
        blen = bdrv_getlength(bs->backing->bs);
        if (blen < 0) {
            return blen;
        }
        avail = offset < (uint64_t)blen ? MIN(n, blen - offset) : 0;
    }
    if (avail) {
        qemu_iovec_init(&part, qiov->niov);
        qemu_iovec_concat(&part, qiov, qoff, avail);
        bdrv_debug_event(bs->backing->bs, BLKDEBUG_EVENT_READ_BACKING_AIO);
        ret = bdrv_preadv(bs->backing, offset, avail, &part, 0);
        qemu_iovec_destroy(&part);
    }
    qemu_iovec_memset(qiov, qoff + avail, 0, n - avail);
    return ret;
}

/*
 * The current content of bytes [in_off, in_off + n) of the guest cluster
 * at cluster_offset, whose entry is e, into buf
 */
static int read_old(BlockDriverState *bs, uint64_t cluster_offset,
                    uint64_t e, uint64_t in_off, uint64_t n, void *buf)
{
    BDRVQcow2State *s = bs->opaque;
    QEMUIOVector qiov;
    uint64_t host;
    int ret;

    qemu_iovec_init_buf(&qiov, buf, n);
    switch (cluster_type(s, e)) {
    case QCOW2_CLUSTER_UNALLOCATED:
        return read_backing(bs, cluster_offset + in_off, n, &qiov, 0);
    case QCOW2_CLUSTER_ZERO_PLAIN:
    case QCOW2_CLUSTER_ZERO_ALLOC:
        memset(buf, 0, n);
        return 0;
    case QCOW2_CLUSTER_COMPRESSED:
        ret = decompress_cluster(bs, e);
        if (!ret) {
            memcpy(buf, s->zbuf + in_off, n);
        }
        return ret;
    case QCOW2_CLUSTER_NORMAL:
        host = host_cluster(s, e);
        return host ? bdrv_pread(bs->file, host + in_off, n, buf) : -EIO;
    }
    return -EIO;
}

int qcow2_co_preadv(BlockDriverState *bs, int64_t offset, int64_t bytes,
                    QEMUIOVector *qiov, int flags)
{
    BDRVQcow2State *s = bs->opaque;
    QEMUIOVector part;
    size_t qoff = 0;
    int ret = 0;

    qemu_iovec_init(&part, qiov->niov + 1);
    g_mutex_lock(&s->lock);
    while (bytes > 0 && !ret) {
        uint64_t in_off = offset & (s->cluster_size - 1), e = 0, host = 0;
        uint64_t n = MIN((uint64_t)bytes, s->cluster_size - in_off);
        uint64_t *table, l2i = l2_index_of(s, offset), run;

        ret = l2_load(bs, l1_index_of(s, offset), false, &table);
        if (ret < 0) {
            break;
        }
        if (ret) {
            e = qcow2_be64(&table[l2i]);
        }
        ret = 0;
        switch (cluster_type(s, e)) {
        case QCOW2_CLUSTER_UNALLOCATED:
            ret = read_backing(bs, offset, n, qiov, qoff);
            break;
        case QCOW2_CLUSTER_ZERO_PLAIN:
        case QCOW2_CLUSTER_ZERO_ALLOC:
            qemu_iovec_memset(qiov, qoff, 0, n);
            break;
        case QCOW2_CLUSTER_COMPRESSED:
            ret = decompress_cluster(bs, e);
            if (!ret) {
                qemu_iovec_from_buf(qiov, qoff, s->zbuf + in_off, n);
            }
            break;
        case QCOW2_CLUSTER_NORMAL:
            host = host_cluster(s, e);
            if (!host) {
                ret = -EIO;
                break;
            }
            /* Following clusters of this table contiguous on the host */
            for (run = 1; n < (uint64_t)bytes && l2i + run < s->l2_size;
                 run++) {
                uint64_t next = qcow2_be64(&table[l2i + run]);

                if (cluster_type(s, next) != QCOW2_CLUSTER_NORMAL ||
                    host_cluster(s, next) != host + run * s->cluster_size) {
                    break;
                }
                n = MIN((uint64_t)bytes, n + s->cluster_size);
            }
            qemu_iovec_reset(&part);
            qemu_iovec_concat(&part, qiov, qoff, n);
            bdrv_debug_event(bs->file->bs, BLKDEBUG_EVENT_READ_AIO);
            ret = bdrv_preadv(bs->file, host + in_off, n, &part, 0);
            break;
        }
        offset += n;
        bytes -= n;
        qoff += n;
    }
    g_mutex_unlock(&s->lock);
    qemu_iovec_destroy(&part);
    return ret;
}

/* Writes ---------------------------------------------------------------------- */

static WriteMode write_mode(BDRVQcow2State *s, uint64_t e)
{
    uint64_t host = host_cluster(s, e);

    if (!(e & QCOW_OFLAG_COPIED) || !host || qcow2_is_metadata(s, host)) {
        return WRITE_ALLOCATE;
    }
    switch (cluster_type(s, e)) {
    case QCOW2_CLUSTER_NORMAL:
        return WRITE_IN_PLACE;
    case QCOW2_CLUSTER_ZERO_ALLOC:
        return WRITE_ZERO_IN_PLACE;
    default:
        return WRITE_ALLOCATE;
    }
}

/* Drops (after the next metadata flush) what a replaced entry held */
static void release_entry(BlockDriverState *bs, uint64_t e)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t off, bytes;

    switch (cluster_type(s, e)) {
    case QCOW2_CLUSTER_COMPRESSED:
        compressed_range(s, e, &off, &bytes);
        qcow2_free_later(bs, off & ~511ULL, bytes + (off & 511),
                         s->pass_discard_request);
        break;
    case QCOW2_CLUSTER_NORMAL:
    case QCOW2_CLUSTER_ZERO_ALLOC:
        if (host_cluster(s, e)) {
            qcow2_free_later(bs, host_cluster(s, e), s->cluster_size,
                             s->pass_discard_request);
        }
        break;
    default:
        break;
    }
}

/*
 * Allocating write of clusters [l2i, l2i + k) of one table: new clusters,
 * the guest's bytes with the untouched head and tail of the first and last
 * cluster copied from their old content, one write, then the entries.
 */
static int write_allocate(BlockDriverState *bs, uint64_t *table, uint64_t l2i,
                          uint64_t k, uint64_t offset, uint64_t n,
                          QEMUIOVector *qiov, size_t qoff)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t cstart = offset & ~(uint64_t)(s->cluster_size - 1);
    uint64_t head = offset - cstart, tail = k * s->cluster_size - head - n;
    uint64_t *old = g_new(uint64_t, k), j;
    uint8_t *headbuf = NULL, *tailbuf = NULL;
    QEMUIOVector v;
    int64_t host;
    int ret = 0;

    for (j = 0; j < k; j++) {
        old[j] = qcow2_be64(&table[l2i + j]);
    }
    if (head) {
        headbuf = g_malloc(head);
        ret = read_old(bs, cstart, old[0], 0, head, headbuf);
    }
    if (tail && !ret) {
        tailbuf = g_malloc(tail);
        ret = read_old(bs, cstart + (k - 1) * s->cluster_size, old[k - 1],
                       s->cluster_size - tail, tail, tailbuf);
    }
    host = ret ? ret : qcow2_alloc_clusters(bs, k);
    if (host < 0) {
        ret = host;
        goto out;
    }
    qemu_iovec_init(&v, qiov->niov + 2);
    if (head) {
        qemu_iovec_add(&v, headbuf, head);
    }
    qemu_iovec_concat(&v, qiov, qoff, n);
    if (tail) {
        qemu_iovec_add(&v, tailbuf, tail);
    }
    bdrv_debug_event(bs->file->bs, BLKDEBUG_EVENT_WRITE_AIO);
    ret = bdrv_pwritev(bs->file, host, k * s->cluster_size, &v, 0);
    qemu_iovec_destroy(&v);
    if (ret < 0) {
        /* Unreferenced: the clusters leak until the image is repaired */
        goto out;
    }
    for (j = 0; j < k; j++) {
        table[l2i + j] = GUINT64_TO_BE((host + j * s->cluster_size) |
                                       QCOW_OFLAG_COPIED);
        release_entry(bs, old[j]);
    }
    qcow2_cache_mark_dirty(s->l2_cache, table);
out:
    g_free(old);
    g_free(headbuf);
    g_free(tailbuf);
    return ret;
}

/* A preallocated zero cluster: the rest of the cluster becomes zeroes */
static int write_zero_in_place(BlockDriverState *bs, uint64_t *table,
                               uint64_t l2i, uint64_t in_off, uint64_t n,
                               QEMUIOVector *qiov, size_t qoff)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t host = host_cluster(s, qcow2_be64(&table[l2i]));
    uint8_t *buf = g_malloc0(s->cluster_size);
    int ret;

    qemu_iovec_to_buf(qiov, qoff, buf + in_off, n);
    ret = bdrv_pwrite(bs->file, host, s->cluster_size, buf);
    g_free(buf);
    if (!ret) {
        table[l2i] = GUINT64_TO_BE(host | QCOW_OFLAG_COPIED);
        qcow2_cache_mark_dirty(s->l2_cache, table);
    }
    return ret;
}

int qcow2_co_pwritev(BlockDriverState *bs, int64_t offset, int64_t bytes,
                     QEMUIOVector *qiov, int flags)
{
    BDRVQcow2State *s = bs->opaque;
    QEMUIOVector part;
    size_t qoff = 0;
    int ret = 0;

    qemu_iovec_init(&part, qiov->niov + 1);
    g_mutex_lock(&s->lock);
    while (bytes > 0 && !ret) {
        uint64_t in_off = offset & (s->cluster_size - 1);
        uint64_t n = MIN((uint64_t)bytes, s->cluster_size - in_off);
        uint64_t l2i = l2_index_of(s, offset), k, e, host;
        uint64_t *table;
        WriteMode mode;

        ret = l2_load(bs, l1_index_of(s, offset), true, &table);
        if (ret < 0) {
            break;
        }
        e = qcow2_be64(&table[l2i]);
        mode = write_mode(s, e);
        host = host_cluster(s, e);
        /* Extend over the following clusters of the same kind */
        for (k = 1; mode != WRITE_ZERO_IN_PLACE && n < (uint64_t)bytes &&
                    l2i + k < s->l2_size; k++) {
            uint64_t next = qcow2_be64(&table[l2i + k]);

            if (write_mode(s, next) != mode ||
                (mode == WRITE_IN_PLACE &&
                 host_cluster(s, next) != host + k * s->cluster_size)) {
                break;
            }
            n = MIN((uint64_t)bytes, n + s->cluster_size);
        }
        switch (mode) {
        case WRITE_IN_PLACE:
            qemu_iovec_reset(&part);
            qemu_iovec_concat(&part, qiov, qoff, n);
            bdrv_debug_event(bs->file->bs, BLKDEBUG_EVENT_WRITE_AIO);
            ret = bdrv_pwritev(bs->file, host + in_off, n, &part, 0);
            break;
        case WRITE_ZERO_IN_PLACE:
            ret = write_zero_in_place(bs, table, l2i, in_off, n, qiov, qoff);
            break;
        case WRITE_ALLOCATE:
            ret = write_allocate(bs, table, l2i, k, offset, n, qiov, qoff);
            break;
        }
        offset += n;
        bytes -= n;
        qoff += n;
    }
    g_mutex_unlock(&s->lock);
    qemu_iovec_destroy(&part);
    return ret;
}

/* Zeroes and discard ------------------------------------------------------------ */

/*
 * Whole clusters [offset, offset + bytes): zero (zero=true) or discard.
 * A discarded cluster reads as zeroes where a backing file would
 * otherwise show through (v3), as QEMU does.
 */
static int zero_or_discard(BlockDriverState *bs, uint64_t offset,
                           uint64_t bytes, bool zero, bool unmap)
{
    BDRVQcow2State *s = bs->opaque;
    int ret = 0;

    while (bytes && !ret) {
        uint64_t l2i = l2_index_of(s, offset), e, ne, *table;
        Qcow2ClusterType type;
        bool need_table = zero && bs->backing;

        ret = l2_load(bs, l1_index_of(s, offset), need_table, &table);
        if (ret < 0) {
            break;
        }
        e = ret ? qcow2_be64(&table[l2i]) : 0;
        type = cluster_type(s, e);
        ret = 0;
        if (table && !(type == QCOW2_CLUSTER_ZERO_PLAIN ||
                       (type == QCOW2_CLUSTER_UNALLOCATED &&
                        !(zero && bs->backing)))) {
            ne = bs->backing && s->version >= 3 ? QCOW_OFLAG_ZERO : 0;
            if (zero && !unmap && write_mode(s, e) != WRITE_ALLOCATE) {
                /* Keep the allocation, mark it zero */
                ne = host_cluster(s, e) | QCOW_OFLAG_COPIED | QCOW_OFLAG_ZERO;
            } else {
                if (zero) {
                    ne = QCOW_OFLAG_ZERO;
                }
                release_entry(bs, e);
            }
            table[l2i] = GUINT64_TO_BE(ne);
            qcow2_cache_mark_dirty(s->l2_cache, table);
        }
        offset += s->cluster_size;
        bytes -= s->cluster_size;
    }
    return ret;
}

int qcow2_co_pwrite_zeroes(BlockDriverState *bs, int64_t offset,
                           int64_t bytes, int flags)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t cs = s->cluster_size;
    uint64_t first = offset, last = offset + bytes;
    uint64_t start = (first + cs - 1) & ~(cs - 1), end = last & ~(cs - 1);
    QEMUIOVector qiov;
    void *buf;
    int ret = 0;

    if (s->version < 3) {
        return -ENOTSUP;       /* no zero flag: the generic layer writes */
    }
    if (start >= end) {
        start = end = last;    /* no whole cluster: one ordinary write */
    }
    /* Partial clusters at either end are ordinary writes of zeroes */
    buf = g_malloc0(MAX(start - first, last - end));
    if (start > first) {
        qemu_iovec_init_buf(&qiov, buf, start - first);
        ret = qcow2_co_pwritev(bs, first, start - first, &qiov, 0);
    }
    if (!ret && last > end && end > first) {
        qemu_iovec_init_buf(&qiov, buf, last - end);
        ret = qcow2_co_pwritev(bs, end, last - end, &qiov, 0);
    }
    g_free(buf);
    if (!ret && end > start) {
        g_mutex_lock(&s->lock);
        ret = zero_or_discard(bs, start, end - start, true,
                              flags & BDRV_REQ_MAY_UNMAP);
        g_mutex_unlock(&s->lock);
    }
    return ret;
}

int qcow2_co_pdiscard(BlockDriverState *bs, int64_t offset, int64_t bytes)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t cs = s->cluster_size;
    uint64_t start = (offset + cs - 1) & ~(cs - 1);
    uint64_t end = (offset + bytes) & ~(cs - 1);
    int ret = 0;

    /* Discard is advisory: the partial clusters at the ends stay */
    if (end > start) {
        g_mutex_lock(&s->lock);
        ret = zero_or_discard(bs, start, end - start, false, true);
        g_mutex_unlock(&s->lock);
    }
    return ret;
}

/* L1 ----------------------------------------------------------------------------- */

int qcow2_write_l1_dirty(BlockDriverState *bs)
{
    BDRVQcow2State *s = bs->opaque;
    uint32_t i = 0, j;
    int ret;

    while (i < s->l1_size) {
        uint64_t *buf;

        if (!s->l1_dirty[i]) {
            i++;
            continue;
        }
        for (j = i; j < s->l1_size && s->l1_dirty[j]; j++) {
        }
        buf = g_new(uint64_t, j - i);
        for (uint32_t k = i; k < j; k++) {
            buf[k - i] = GUINT64_TO_BE(s->l1_table[k]);
        }
        ret = bdrv_pwrite(bs->file, s->l1_table_offset + (uint64_t)i * 8,
                          (j - i) * 8, buf);
        g_free(buf);
        if (ret < 0) {
            return ret;
        }
        memset(s->l1_dirty + i, 0, j - i);
        i = j;
    }
    s->l1_any_dirty = false;
    return 0;
}

int qcow2_grow_l1_table(BlockDriverState *bs, uint64_t min_size)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t per_cluster = s->cluster_size / 8, clusters, i;
    uint64_t old_off = s->l1_table_offset, old_bytes = s->l1_size * 8ULL;
    uint64_t *table;
    uint8_t hdr[12];
    int64_t off;
    int ret;

    if (min_size <= s->l1_size) {
        return 0;
    }
    if (min_size > QCOW_MAX_L1_SIZE / 8) {
        return -EFBIG;
    }
    /* Everything the new table will point to is on disk first */
    ret = qcow2_flush_metadata(bs);
    if (ret < 0) {
        return ret;
    }
    clusters = (min_size + per_cluster - 1) / per_cluster;
    off = qcow2_alloc_clusters(bs, clusters);
    if (off < 0) {
        return off;
    }
    table = g_new0(uint64_t, clusters * per_cluster);
    for (i = 0; i < s->l1_size; i++) {
        table[i] = GUINT64_TO_BE(s->l1_table[i]);
    }
    ret = qcow2_write_refcounts_stable(bs);
    if (!ret) {
        ret = bdrv_pwrite(bs->file, off, clusters * s->cluster_size, table);
    }
    if (!ret) {
        ret = bdrv_flush(bs->file->bs);
    }
    qcow2_st32(hdr, min_size);
    qcow2_st64(hdr + 4, off);
    if (!ret) {
        ret = bdrv_pwrite(bs->file, QH_L1_SIZE, sizeof(hdr), hdr);
    }
    if (!ret) {
        ret = bdrv_flush(bs->file->bs);
    }
    if (ret < 0) {
        g_free(table);
        return ret;
    }
    for (i = 0; i < clusters * per_cluster; i++) {
        table[i] = GUINT64_FROM_BE(table[i]);
    }
    g_free(s->l1_table);
    s->l1_table = table;
    g_free(s->l1_dirty);
    s->l1_dirty = g_malloc0(min_size);
    s->l1_size = min_size;
    s->l1_table_offset = off;
    qcow2_mark_metadata(s, off, clusters * s->cluster_size, true);
    qcow2_mark_metadata(s, old_off, old_bytes, false);
    return old_bytes ? qcow2_free_now(bs, old_off, old_bytes) : 0;
}
