/*
 * The node graph (include/block/block.h): opening nodes from their
 * options, node names, edges and their permissions, and the generic part
 * of every request (limits, read-only, detect-zeroes) before the driver.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "block/block_int.h"
#include "qemu/option.h"
#include "sysemu/block-backend.h"

const char *const bdrv_perm_names[BLK_PERM_COUNT] = {
    "consistent read", "write", "write unchanged", "resize",
};

/* The drivers, by BlockdevOptions' discriminator */
static const BlockDriver *const drivers[BLOCKDEV_DRIVER__MAX] = {
    [BLOCKDEV_DRIVER_FILE] = &bdrv_file,
    [BLOCKDEV_DRIVER_HOST_DEVICE] = &bdrv_host_device,
    [BLOCKDEV_DRIVER_QCOW2] = &bdrv_qcow2,
    [BLOCKDEV_DRIVER_RAW] = &bdrv_raw,
    [BLOCKDEV_DRIVER_NULL_CO] = &bdrv_null_co,
    [BLOCKDEV_DRIVER_NULL_AIO] = &bdrv_null_aio,
    [BLOCKDEV_DRIVER_BLKDEBUG] = &bdrv_blkdebug,
};

static GPtrArray *all_nodes;        /* creation order */
static GList *named_nodes;          /* newest name first */
static GRWLock graph_lock;
static uint64_t node_name_counter;

/* What an inline child takes from its parent unless given explicitly */
typedef struct BdrvInherit {
    bool read_only, auto_read_only, force_share;
    bool cache_direct, cache_no_flush, discard_unmap;
} BdrvInherit;

static BlockDriverState *bdrv_open_inherit(const BlockdevOptions *opts,
                                           const BdrvInherit *inh,
                                           Error **errp);
static int64_t driver_length(BlockDriverState *bs);

/* Locks ------------------------------------------------------------------- */

void bdrv_graph_rdlock(void)
{
    g_rw_lock_reader_lock(&graph_lock);
}

void bdrv_graph_rdunlock(void)
{
    g_rw_lock_reader_unlock(&graph_lock);
}

void bdrv_graph_wrlock(void)
{
    g_rw_lock_writer_lock(&graph_lock);
}

void bdrv_graph_wrunlock(void)
{
    g_rw_lock_writer_unlock(&graph_lock);
}

/* Names and lookup ---------------------------------------------------------- */

BlockDriverState *bdrv_find_node(const char *node_name)
{
    guint i;

    for (i = 0; all_nodes && i < all_nodes->len; i++) {
        BlockDriverState *bs = g_ptr_array_index(all_nodes, i);

        /* A node being opened has no name yet: never found */
        if (bs->node_name[0] && !strcmp(bs->node_name, node_name)) {
            return bs;
        }
    }
    return NULL;
}

BlockDriverState *bdrv_next_node(BlockDriverState *bs)
{
    guint i;

    if (!all_nodes || !all_nodes->len) {
        return NULL;
    }
    if (!bs) {
        return g_ptr_array_index(all_nodes, 0);
    }
    for (i = 0; i + 1 < all_nodes->len; i++) {
        if (g_ptr_array_index(all_nodes, i) == bs) {
            return g_ptr_array_index(all_nodes, i + 1);
        }
    }
    return NULL;
}

BlockDriverState *bdrv_next_named_node(BlockDriverState *bs)
{
    GList *l = bs ? g_list_find(named_nodes, bs) : NULL;

    if (!bs) {
        return named_nodes ? named_nodes->data : NULL;
    }
    return l && l->next ? l->next->data : NULL;
}

bool bdrv_check_node_name(const char *name, Error **errp)
{
    if (!id_wellformed(name)) {
        error_setg(errp, "Invalid node-name: '%s'", name);
        return false;
    }
    if (strlen(name) >= BDRV_NODE_NAME_SIZE) {
        error_setg(errp, "Node name too long");
        return false;
    }
    return true;
}

/* A user's name, or QEMU's automatic one: "#block", a counter, 2 digits */
static bool assign_node_name(BlockDriverState *bs, const char *name,
                             Error **errp)
{
    if (name) {
        if (!bdrv_check_node_name(name, errp)) {
            return false;
        }
        if (blk_by_name(name)) {
            error_setg(errp, "node-name=%s is conflicting with a device id",
                       name);
            return false;
        }
        if (bdrv_find_node(name)) {
            error_setg(errp, "Duplicate nodes with node-name='%s'", name);
            return false;
        }
        g_strlcpy(bs->node_name, name, sizeof(bs->node_name));
        bs->named_by_user = true;
    } else {
        g_snprintf(bs->node_name, sizeof(bs->node_name),
                   "#block%" G_GUINT64_FORMAT "%02d", node_name_counter++,
                   g_random_int_range(0, 100));
    }
    named_nodes = g_list_prepend(named_nodes, bs);
    return true;
}

const char *bdrv_get_node_name(const BlockDriverState *bs)
{
    return bs->node_name;
}

const char *bdrv_get_format_name(const BlockDriverState *bs)
{
    return bs->drv->format_name;
}

const char *bdrv_get_filename(const BlockDriverState *bs)
{
    return bs->filename ? bs->filename : "";
}

bool bdrv_is_read_only(const BlockDriverState *bs)
{
    return bs->read_only;
}

bool bdrv_has_parents(const BlockDriverState *bs)
{
    return bs->parents->len > 0;
}

BlockDriverState *bdrv_file_bs(const BlockDriverState *bs)
{
    return bs->file ? bs->file->bs : NULL;
}

BlockDriverState *bdrv_backing_bs(const BlockDriverState *bs)
{
    return bs->backing ? bs->backing->bs : NULL;
}

BlockDriverState *bdrv_child_bs(const BdrvChild *c)
{
    return c->bs;
}

/* Opening ------------------------------------------------------------------- */

/* The "file" member of a format driver's options */
static const BlockdevRef *format_file_ref(const BlockdevOptions *opts)
{
    switch (opts->driver) {
    case BLOCKDEV_DRIVER_RAW:
        return &opts->u.raw.file;
    case BLOCKDEV_DRIVER_QCOW2:
        return &opts->u.qcow2.file;
    default:
        return NULL;
    }
}

/* A node named by a reference: a node name, or a drive's id */
BlockDriverState *bdrv_find_reference(const char *ref, Error **errp)
{
    BlockBackend *blk = blk_by_name(ref);
    BlockDriverState *bs = blk ? blk_bs(blk) : NULL;

    if (!bs) {
        bs = bdrv_find_node(ref);
    }
    if (!bs) {
        error_setg(errp, "Cannot find device='%s' nor node-name='%s'", ref,
                   ref);
    }
    return bs;
}

static BlockDriverState *open_child_ref(const BlockdevRef *ref,
                                        const BdrvInherit *inh, Error **errp)
{
    BlockDriverState *bs;

    if (ref->kind == QAPI_ALT_OBJECT) {
        return bdrv_open_inherit(ref->definition, inh, errp);
    }
    bs = bdrv_find_reference(ref->reference, errp);
    if (bs) {
        bdrv_ref(bs);
    }
    return bs;
}

bool bdrv_open_file_child(BlockDriverState *bs, const BlockdevRef *ref,
                          const char *name, Error **errp)
{
    BdrvInherit inh = {
        .read_only = bs->read_only, .auto_read_only = bs->auto_read_only,
        .force_share = bs->force_share, .cache_direct = bs->cache_direct,
        .cache_no_flush = bs->cache_no_flush,
        .discard_unmap = bs->discard_unmap,
    };
    BlockDriverState *file_bs = open_child_ref(ref, &inh, errp);

    if (!file_bs) {
        return false;
    }
    bs->file = bdrv_attach_child(bs, file_bs, name, 0, BLK_PERM_ALL, errp);
    bdrv_unref(file_bs);
    if (!bs->file) {
        return false;
    }
    g_free(bs->filename);
    bs->filename = g_strdup(bdrv_get_filename(file_bs));
    bs->request_alignment = file_bs->request_alignment;
    return true;
}

void bdrv_debug_event(BlockDriverState *bs, BlkdebugEvent event)
{
    if (bs && bs->drv && bs->drv->debug_event) {
        bs->drv->debug_event(bs, event);
    }
}

static void bdrv_free(BlockDriverState *bs)
{
    g_ptr_array_remove(all_nodes, bs);
    named_nodes = g_list_remove(named_nodes, bs);
    g_ptr_array_free(bs->parents, TRUE);
    g_free(bs->filename);
    g_free(bs->backing_file);
    g_free(bs->backing_format);
    g_free(bs->full_backing_filename);
    g_free(bs->opaque);
    g_free(bs);
}

static BlockDriverState *bdrv_open_inherit(const BlockdevOptions *opts,
                                           const BdrvInherit *inh,
                                           Error **errp)
{
    const BlockDriver *drv = drivers[opts->driver];
    BlockDriverState *bs;
    const BlockdevRef *file_ref;

    if (opts->has_detect_zeroes &&
        opts->detect_zeroes == BLOCKDEV_DETECT_ZEROES_OPTIONS_UNMAP &&
        !(opts->has_discard
              ? opts->discard == BLOCKDEV_DISCARD_OPTIONS_UNMAP
              : inh->discard_unmap)) {
        error_setg(errp, "setting detect-zeroes to unmap is not allowed "
                   "without setting discard operation to unmap");
        return NULL;
    }
    if (opts->has_node_name && !bdrv_check_node_name(opts->node_name, errp)) {
        return NULL;
    }
    if (!all_nodes) {
        all_nodes = g_ptr_array_new();
    }
    bs = g_new0(BlockDriverState, 1);
    bs->drv = drv;
    bs->refcnt = 1;
    bs->parents = g_ptr_array_new();
    bs->shared_perm = BLK_PERM_ALL;
    bs->request_alignment = 1;
    bs->total_bytes = -1;
    bs->read_only = opts->has_read_only ? opts->read_only : inh->read_only;
    bs->auto_read_only = opts->has_auto_read_only ? opts->auto_read_only
                                                  : inh->auto_read_only;
    bs->force_share = opts->has_force_share ? opts->force_share
                                            : inh->force_share;
    bs->cache_direct = opts->has_cache && opts->cache.has_direct
                           ? opts->cache.direct : inh->cache_direct;
    bs->cache_no_flush = opts->has_cache && opts->cache.has_no_flush
                             ? opts->cache.no_flush : inh->cache_no_flush;
    bs->discard_unmap = opts->has_discard
                            ? opts->discard == BLOCKDEV_DISCARD_OPTIONS_UNMAP
                            : inh->discard_unmap;
    bs->detect_zeroes = opts->has_detect_zeroes
                            ? opts->detect_zeroes
                            : BLOCKDEV_DETECT_ZEROES_OPTIONS_OFF;
    if (bs->force_share && !bs->read_only) {
        error_setg(errp, "force-share=on can only be used with read-only "
                   "images");
        bdrv_free(bs);
        return NULL;
    }
    bs->opaque = g_malloc0(drv->instance_size ? drv->instance_size : 1);

    file_ref = format_file_ref(opts);
    if (file_ref && !bdrv_open_file_child(bs, file_ref, "file", errp)) {
        bdrv_free(bs);
        return NULL;
    }
    /* QEMU's order of nodes: a format node after its file, before its
     * backing file */
    g_ptr_array_add(all_nodes, bs);
    if (!assign_node_name(bs, opts->has_node_name ? opts->node_name : NULL,
                          errp)) {
        if (bs->file) {
            bdrv_detach_child(bs->file);
        }
        bdrv_free(bs);
        return NULL;
    }
    if (!drv->open(bs, opts, errp) || !bdrv_refresh_perms(bs, errp)) {
        if (drv->close) {
            drv->close(bs);
        }
        if (bs->backing) {
            bdrv_detach_child(bs->backing);
        }
        if (bs->file) {
            bdrv_detach_child(bs->file);
        }
        bdrv_free(bs);
        return NULL;
    }
    bs->total_bytes = driver_length(bs);
    bdrv_refresh_filename(bs);
    return bs;
}

BlockDriverState *bdrv_open(const BlockdevOptions *opts, Error **errp)
{
    static const BdrvInherit defaults;

    return bdrv_open_inherit(opts, &defaults, errp);
}

const char *bdrv_probe_format(const uint8_t *buf, size_t len)
{
    static const uint8_t qcow_magic[4] = { 'Q', 'F', 'I', 0xfb };

    if (len >= 8 && !memcmp(buf, qcow_magic, 4)) {
        return "qcow2";
    }
    return "raw";
}

char *bdrv_combine_filename(const char *image, const char *backing)
{
    char *dir, *path;

    if (g_path_is_absolute(backing) || !strchr(image, '/')) {
        return g_strdup(backing);
    }
    dir = g_path_get_dirname(image);
    path = g_build_filename(dir, backing, NULL);
    g_free(dir);
    return path;
}

/* Backing chains being opened, nested: a bound against loops */
static int backing_depth;
#define MAX_BACKING_DEPTH 256

BlockDriverState *bdrv_open_inline_backing(BlockDriverState *parent,
                                           const BlockdevOptions *opts,
                                           Error **errp)
{
    BdrvInherit inh = {
        .read_only = true, .cache_direct = parent->cache_direct,
        .cache_no_flush = parent->cache_no_flush,
        .force_share = parent->force_share,
    };
    BlockDriverState *bs;

    if (backing_depth >= MAX_BACKING_DEPTH) {
        error_setg(errp, "Backing file chain is too long");
        return NULL;
    }
    backing_depth++;
    bs = bdrv_open_inherit(opts, &inh, errp);
    backing_depth--;
    return bs;
}

static BlockDriverState *open_backing_file(BlockDriverState *parent,
                                           Error **errp);

BlockDriverState *bdrv_open_backing_file(BlockDriverState *parent,
                                         Error **errp)
{
    BlockDriverState *bs;

    if (backing_depth >= MAX_BACKING_DEPTH) {
        error_setg(errp, "Backing file chain is too long");
        return NULL;
    }
    backing_depth++;
    bs = open_backing_file(parent, errp);
    backing_depth--;
    return bs;
}

static BlockDriverState *open_backing_file(BlockDriverState *parent,
                                           Error **errp)
{
    BlockdevOptions file_opts = { .driver = BLOCKDEV_DRIVER_FILE };
    BlockdevOptions fmt_opts = { .read_only = true, .has_read_only = true };
    BdrvInherit inh = {
        .read_only = true, .cache_direct = parent->cache_direct,
        .cache_no_flush = parent->cache_no_flush,
        .force_share = parent->force_share,
    };
    BlockDriverState *file_bs, *bs;
    const char *fmt = parent->backing_format;
    uint8_t buf[512];
    int ret;

    file_opts.u.file.filename = parent->full_backing_filename;
    file_bs = bdrv_open_inherit(&file_opts, &inh, errp);
    if (!file_bs) {
        return NULL;
    }
    if (!fmt) {
        BdrvChild probe = { .bs = file_bs };
        int64_t len = bdrv_getlength(file_bs);

        memset(buf, 0, sizeof(buf));
        ret = bdrv_pread(&probe, 0, MIN((int64_t)sizeof(buf), MAX(len, 0)),
                         buf);
        fmt = ret < 0 ? "raw" : bdrv_probe_format(buf, sizeof(buf));
    }
    if (!strcmp(fmt, "qcow2")) {
        fmt_opts.driver = BLOCKDEV_DRIVER_QCOW2;
        fmt_opts.u.qcow2.file.kind = QAPI_ALT_STRING;
        fmt_opts.u.qcow2.file.reference = file_bs->node_name;
    } else if (!strcmp(fmt, "raw")) {
        fmt_opts.driver = BLOCKDEV_DRIVER_RAW;
        fmt_opts.u.raw.file.kind = QAPI_ALT_STRING;
        fmt_opts.u.raw.file.reference = file_bs->node_name;
    } else {
        error_setg(errp, "Unknown driver '%s'", fmt);
        bdrv_unref(file_bs);
        return NULL;
    }
    bs = bdrv_open_inherit(&fmt_opts, &inh, errp);
    bdrv_unref(file_bs);
    return bs;
}

/* References ------------------------------------------------------------- */

void bdrv_ref(BlockDriverState *bs)
{
    bs->refcnt++;
}

void bdrv_unref(BlockDriverState *bs)
{
    g_assert(bs->refcnt > 0);
    if (--bs->refcnt) {
        return;
    }
    g_assert(!bs->parents->len);
    bdrv_flush(bs);
    if (bs->drv->close) {
        bs->drv->close(bs);
    }
    if (bs->backing) {
        bdrv_detach_child(bs->backing);
    }
    if (bs->file) {
        bdrv_detach_child(bs->file);
    }
    bdrv_free(bs);
}

void bdrv_close_all(void)
{
    guint i;

    for (i = 0; all_nodes && i < all_nodes->len; i++) {
        bdrv_flush(g_ptr_array_index(all_nodes, i));
    }
}

/* Size ------------------------------------------------------------------ */

/* In whole sectors, as QEMU reports and uses it: a file of 1000 bytes is
 * a 1024-byte disk whose last bytes read as zeroes */
static int64_t driver_length(BlockDriverState *bs)
{
    int64_t len = bs->drv->getlength(bs);

    return len < 0 || len > INT64_MAX - 511 ? len : (len + 511) & ~511LL;
}

int64_t bdrv_getlength(BlockDriverState *bs)
{
    if (bs->drv->has_variable_length || bs->total_bytes < 0) {
        return driver_length(bs);
    }
    return __atomic_load_n(&bs->total_bytes, __ATOMIC_RELAXED);
}

int64_t bdrv_get_allocated_file_size(BlockDriverState *bs)
{
    if (bs->drv->get_allocated_file_size) {
        return bs->drv->get_allocated_file_size(bs);
    }
    return bs->file ? bdrv_get_allocated_file_size(bs->file->bs) : -ENOTSUP;
}

bool bdrv_truncate(BlockDriverState *bs, int64_t size, Error **errp)
{
    if (!bs->drv->truncate) {
        error_setg(errp, "Image format driver does not support resize");
        return false;
    }
    if (bs->read_only) {
        error_setg(errp, "Image is read-only");
        return false;
    }
    if (!bs->drv->truncate(bs, size, errp)) {
        return false;
    }
    __atomic_store_n(&bs->total_bytes, driver_length(bs), __ATOMIC_RELAXED);
    return true;
}

/* Requests ------------------------------------------------------------------- */

static int check_request(BlockDriverState *bs, int64_t offset, int64_t bytes)
{
    if (!bs || !bs->drv) {
        return -ENOMEDIUM;
    }
    if (offset < 0 || bytes < 0 || bytes > BDRV_REQUEST_MAX_BYTES ||
        offset > INT64_MAX - bytes) {
        return -EIO;
    }
    return 0;
}

static int check_write(BlockDriverState *bs, int64_t offset, int64_t bytes)
{
    int ret = check_request(bs, offset, bytes);

    if (!ret && bs->read_only) {
        ret = -EPERM;
    }
    return ret;
}

static void atomic_max(gint64 *p, gint64 v)
{
    gint64 cur = __atomic_load_n(p, __ATOMIC_RELAXED);

    while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, false,
                                                   __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED)) {
    }
}

static void note_write(BlockDriverState *bs, int64_t end)
{
    atomic_max(&bs->wr_highest_offset, end);
    if (end <= INT64_MAX - 511) {
        atomic_max(&bs->total_bytes, (end + 511) & ~511LL);
    }
}

int bdrv_co_preadv(BlockDriverState *bs, int64_t offset, int64_t bytes,
                   QEMUIOVector *qiov, int flags)
{
    int ret = check_request(bs, offset, bytes);

    if (ret || !bytes) {
        return ret;
    }
    g_assert(qiov->size >= (size_t)bytes);
    return bs->drv->preadv(bs, offset, bytes, qiov, flags);
}

/*
 * A raw image found by probing must not become something else: QEMU's
 * restriction on writes to its first sector
 */
static bool write_changes_format(BlockDriverState *bs, int64_t offset,
                                 int64_t bytes, QEMUIOVector *qiov)
{
    uint8_t head[512];
    size_t n;

    if (!bs->probed_raw || offset >= 512) {
        return false;
    }
    memset(head, 0, sizeof(head));
    if (bdrv_pread(bs->file, 0, 512, head) < 0) {
        return true;
    }
    n = MIN((int64_t)sizeof(head) - offset, bytes);
    qemu_iovec_to_buf(qiov, 0, head + offset, n);
    return strcmp(bdrv_probe_format(head, sizeof(head)), "raw") != 0;
}

int bdrv_co_pwritev(BlockDriverState *bs, int64_t offset, int64_t bytes,
                    QEMUIOVector *qiov, int flags)
{
    int ret = check_write(bs, offset, bytes);

    if (ret || !bytes) {
        return ret;
    }
    g_assert(qiov->size >= (size_t)bytes);
    if (write_changes_format(bs, offset, bytes, qiov)) {
        return -EPERM;
    }
    if (bs->detect_zeroes != BLOCKDEV_DETECT_ZEROES_OPTIONS_OFF &&
        qemu_iovec_is_zero(qiov, 0, bytes)) {
        int zflags = flags;

        if (bs->detect_zeroes == BLOCKDEV_DETECT_ZEROES_OPTIONS_UNMAP &&
            bs->discard_unmap) {
            zflags |= BDRV_REQ_MAY_UNMAP;
        }
        return bdrv_co_pwrite_zeroes(bs, offset, bytes, zflags);
    }
    bdrv_debug_event(bs, BLKDEBUG_EVENT_PWRITEV);
    ret = bs->drv->pwritev(bs, offset, bytes, qiov, flags);
    bdrv_debug_event(bs, BLKDEBUG_EVENT_PWRITEV_DONE);
    __atomic_add_fetch(&bs->write_gen, 1, __ATOMIC_RELAXED);
    if (!ret) {
        note_write(bs, offset + bytes);
    }
    return ret;
}

static int write_zeroes(BlockDriverState *bs, int64_t offset, int64_t bytes,
                        int flags);

int bdrv_co_pwrite_zeroes(BlockDriverState *bs, int64_t offset,
                          int64_t bytes, int flags)
{
    int ret = check_write(bs, offset, bytes);

    if (ret || !bytes) {
        return ret;
    }
    if (!bs->discard_unmap) {
        flags &= ~BDRV_REQ_MAY_UNMAP;
    }
    bdrv_debug_event(bs, BLKDEBUG_EVENT_PWRITEV_ZERO);
    ret = write_zeroes(bs, offset, bytes, flags);
    bdrv_debug_event(bs, BLKDEBUG_EVENT_PWRITEV_DONE);
    __atomic_add_fetch(&bs->write_gen, 1, __ATOMIC_RELAXED);
    return ret;
}

static int write_zeroes(BlockDriverState *bs, int64_t offset, int64_t bytes,
                        int flags)
{
    QEMUIOVector qiov;
    void *buf;
    int ret;

    if (bs->drv->pwrite_zeroes) {
        ret = bs->drv->pwrite_zeroes(bs, offset, bytes, flags);
        if (ret != -ENOTSUP) {
            if (!ret) {
                note_write(bs, offset + bytes);
            }
            return ret;
        }
    }
    /* Fallback: write zeroes, a bounded buffer at a time */
    ret = 0;
    buf = g_malloc0(MIN(bytes, 1 << 20));
    while (bytes && !ret) {
        int64_t n = MIN(bytes, 1 << 20);

        qemu_iovec_init_buf(&qiov, buf, n);
        ret = bs->drv->pwritev(bs, offset, n, &qiov, flags);
        offset += n;
        bytes -= n;
    }
    g_free(buf);
    if (!ret) {
        note_write(bs, offset);
    }
    return ret;
}

int bdrv_co_pdiscard(BlockDriverState *bs, int64_t offset, int64_t bytes)
{
    int ret = check_write(bs, offset, bytes);

    if (ret || !bytes || !bs->discard_unmap || !bs->drv->pdiscard) {
        return ret;
    }
    ret = bs->drv->pdiscard(bs, offset, bytes);
    __atomic_add_fetch(&bs->write_gen, 1, __ATOMIC_RELAXED);
    return ret == -ENOTSUP ? 0 : ret;
}

int bdrv_flush(BlockDriverState *bs)
{
    int ret = 0, r;
    guint64 gen;
    bool to_disk;

    if (!bs || !bs->drv) {
        return 0;
    }
    /* QEMU's events, on the primary child; the node's own flush to disk
     * only if it was written to since its last successful flush */
    gen = __atomic_load_n(&bs->write_gen, __ATOMIC_RELAXED);
    to_disk = !bs->cache_no_flush &&
              gen != __atomic_load_n(&bs->flushed_gen, __ATOMIC_RELAXED);
    bdrv_debug_event(bdrv_file_bs(bs), BLKDEBUG_EVENT_FLUSH_TO_OS);
    if (bs->drv->flush_to_os) {
        ret = bs->drv->flush_to_os(bs);
    }
    if (to_disk) {
        bdrv_debug_event(bdrv_file_bs(bs), BLKDEBUG_EVENT_FLUSH_TO_DISK);
    }
    if (bs->file) {
        r = bdrv_flush(bs->file->bs);
        ret = ret ? ret : r;
    }
    if (bs->drv->flush_to_disk && to_disk) {
        r = bs->drv->flush_to_disk(bs);
        ret = ret ? ret : r;
    }
    if (!ret) {
        __atomic_store_n(&bs->flushed_gen, gen, __ATOMIC_RELAXED);
    }
    return ret;
}

/* Through an edge: what a parent (a driver) calls */

int bdrv_preadv(BdrvChild *child, int64_t offset, int64_t bytes,
                QEMUIOVector *qiov, int flags)
{
    return bdrv_co_preadv(child->bs, offset, bytes, qiov, flags);
}

int bdrv_pwritev(BdrvChild *child, int64_t offset, int64_t bytes,
                 QEMUIOVector *qiov, int flags)
{
    return bdrv_co_pwritev(child->bs, offset, bytes, qiov, flags);
}

int bdrv_pread(BdrvChild *child, int64_t offset, int64_t bytes, void *buf)
{
    QEMUIOVector qiov;

    qemu_iovec_init_buf(&qiov, buf, bytes);
    return bdrv_co_preadv(child->bs, offset, bytes, &qiov, 0);
}

int bdrv_pwrite(BdrvChild *child, int64_t offset, int64_t bytes,
                const void *buf)
{
    QEMUIOVector qiov;

    qemu_iovec_init_buf(&qiov, (void *)buf, bytes);
    return bdrv_co_pwritev(child->bs, offset, bytes, &qiov, 0);
}

int bdrv_pwrite_zeroes(BdrvChild *child, int64_t offset, int64_t bytes,
                       int flags)
{
    return bdrv_co_pwrite_zeroes(child->bs, offset, bytes, flags);
}

int bdrv_pdiscard(BdrvChild *child, int64_t offset, int64_t bytes)
{
    return bdrv_co_pdiscard(child->bs, offset, bytes);
}
