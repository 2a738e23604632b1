/*
 * BlockBackend (include/sysemu/block-backend.h): the object a device
 * attaches to, its request checks and accounting, the write cache mode,
 * the error policies, and the worker threads of asynchronous requests.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "block/block_int.h"
#include "sysemu/block-backend.h"

const char *const BlockdevOnError_str[] = {
    "report", "ignore", "enospc", "stop", "auto", NULL,
};

struct BlockBackend {
    char *name;                     /* NULL: anonymous */
    BdrvChild *root;
    unsigned perm, shared_perm;
    void *dev;
    char *dev_id;
    bool enable_write_cache;
    bool removable;
    BlockdevOnError on_read_error, on_write_error;
    bool iostatus_enabled;
    BlockDeviceIoStatus iostatus;
    bool account_errors;

    GMutex lock;                    /* stats and the aio counters */
    BlockAcctStats stats;
    GCond aio_done;
    int aio_in_flight;              /* in the workers */
    int aio_pending_cb;             /* completions not run yet */
    GMainContext *ctx;
};

static GPtrArray *backends;         /* creation order */
static GThreadPool *aio_pool;

/*
 * QEMU's table: what the device does on an error, by policy; enospc
 * stops only on ENOSPC, auto is report here (QEMU: the device's default)
 */
static BlockErrorAction action_for(BlockdevOnError policy, int error)
{
    switch (policy) {
    case BLOCKDEV_ON_ERROR_ENOSPC:
        return error == ENOSPC ? BLOCK_ERROR_ACTION_STOP
                               : BLOCK_ERROR_ACTION_REPORT;
    case BLOCKDEV_ON_ERROR_STOP:
        return BLOCK_ERROR_ACTION_STOP;
    case BLOCKDEV_ON_ERROR_IGNORE:
        return BLOCK_ERROR_ACTION_IGNORE;
    default:
        return BLOCK_ERROR_ACTION_REPORT;
    }
}

/* Life ------------------------------------------------------------------------ */

BlockBackend *blk_new(const char *name, unsigned perm, unsigned shared,
                      Error **errp)
{
    BlockBackend *blk;

    if (name && bdrv_find_node(name)) {
        error_setg(errp, "Device name '%s' conflicts with an existing node "
                   "name", name);
        return NULL;
    }
    blk = g_new0(BlockBackend, 1);
    blk->name = g_strdup(name);
    blk->perm = perm;
    blk->shared_perm = shared;
    blk->enable_write_cache = true;
    blk->on_read_error = BLOCKDEV_ON_ERROR_REPORT;
    blk->on_write_error = BLOCKDEV_ON_ERROR_ENOSPC;
    g_mutex_init(&blk->lock);
    g_cond_init(&blk->aio_done);
    if (!backends) {
        backends = g_ptr_array_new();
    }
    g_ptr_array_add(backends, blk);
    return blk;
}

bool blk_insert_bs(BlockBackend *blk, BlockDriverState *bs, Error **errp)
{
    g_assert(!blk->root);
    blk->root = bdrv_attach_child(NULL, bs, "root", blk->perm,
                                  blk->shared_perm, errp);
    return blk->root != NULL;
}

void blk_remove_bs(BlockBackend *blk)
{
    if (blk->root) {
        blk_drain(blk);
        bdrv_graph_wrlock();
        bdrv_graph_wrunlock();
        bdrv_detach_child(blk->root);
        blk->root = NULL;
    }
}

void blk_unref(BlockBackend *blk)
{
    blk_remove_bs(blk);
    g_ptr_array_remove(backends, blk);
    g_mutex_clear(&blk->lock);
    g_cond_clear(&blk->aio_done);
    g_free(blk->name);
    g_free(blk->dev_id);
    g_free(blk);
}

BlockBackend *blk_all_next(BlockBackend *blk)
{
    guint i;

    if (!backends || !backends->len) {
        return NULL;
    }
    if (!blk) {
        return g_ptr_array_index(backends, 0);
    }
    for (i = 0; i + 1 < backends->len; i++) {
        if (g_ptr_array_index(backends, i) == blk) {
            return g_ptr_array_index(backends, i + 1);
        }
    }
    return NULL;
}

BlockBackend *blk_next(BlockBackend *blk)
{
    do {
        blk = blk_all_next(blk);
    } while (blk && !blk->name);
    return blk;
}

BlockBackend *blk_by_name(const char *name)
{
    BlockBackend *blk = NULL;

    while ((blk = blk_next(blk))) {
        if (!strcmp(blk->name, name)) {
            return blk;
        }
    }
    return NULL;
}

const char *blk_name(const BlockBackend *blk)
{
    return blk->name ? blk->name : "";
}

BlockDriverState *blk_bs(const BlockBackend *blk)
{
    return blk->root ? bdrv_child_bs(blk->root) : NULL;
}

bool blk_is_inserted(const BlockBackend *blk)
{
    return blk->root != NULL;
}

BlockBackend *blk_by_name_or_node(const char *name, Error **errp)
{
    BlockBackend *blk = blk_by_name(name);
    BlockDriverState *bs;

    if (blk) {
        return blk;
    }
    bs = bdrv_find_node(name);
    if (!bs) {
        error_setg(errp, "Property 'drive' can't find value '%s'", name);
        return NULL;
    }
    blk = blk_new(NULL, 0, BLK_PERM_ALL, errp);
    if (blk && !blk_insert_bs(blk, bs, errp)) {
        blk_unref(blk);
        blk = NULL;
    }
    return blk;
}

bool blk_attach_dev(BlockBackend *blk, void *dev, const char *qdev_id,
                    Error **errp)
{
    if (blk->dev) {
        error_setg(errp, "Drive '%s' is already in use by another device",
                   blk_name(blk));
        return false;
    }
    blk->dev = dev;
    blk->dev_id = g_strdup(qdev_id);
    return true;
}

void blk_detach_dev(BlockBackend *blk)
{
    blk_drain(blk);
    blk->dev = NULL;
    g_free(blk->dev_id);
    blk->dev_id = NULL;
}

void *blk_get_attached_dev(const BlockBackend *blk)
{
    return blk->dev;
}

const char *blk_get_attached_dev_id(const BlockBackend *blk)
{
    return blk->dev_id;
}

bool blk_set_perm(BlockBackend *blk, unsigned perm, unsigned shared,
                  Error **errp)
{
    if (blk->root && !bdrv_child_set_perm(blk->root, perm, shared, errp)) {
        return false;
    }
    blk->perm = perm;
    blk->shared_perm = shared;
    return true;
}

void blk_get_perm(const BlockBackend *blk, unsigned *perm, unsigned *shared)
{
    *perm = blk->perm;
    *shared = blk->shared_perm;
}

bool blk_enable_write_cache(const BlockBackend *blk)
{
    return blk->enable_write_cache;
}

void blk_set_enable_write_cache(BlockBackend *blk, bool wce)
{
    blk->enable_write_cache = wce;
}

bool blk_is_read_only(const BlockBackend *blk)
{
    return !blk->root || bdrv_is_read_only(bdrv_child_bs(blk->root));
}

int64_t blk_getlength(BlockBackend *blk)
{
    return blk->root ? bdrv_getlength(bdrv_child_bs(blk->root)) : -ENOMEDIUM;
}

void blk_set_removable(BlockBackend *blk, bool removable)
{
    blk->removable = removable;
}

void blk_set_account_errors(BlockBackend *blk, bool on)
{
    blk->account_errors = on;
}

/* Error policies ---------------------------------------------------------- */

void blk_set_on_error(BlockBackend *blk, BlockdevOnError on_read_error,
                      BlockdevOnError on_write_error)
{
    blk->on_read_error = on_read_error;
    blk->on_write_error = on_write_error;
}

BlockdevOnError blk_get_on_error(const BlockBackend *blk, bool is_read)
{
    return is_read ? blk->on_read_error : blk->on_write_error;
}

BlockErrorAction blk_get_error_action(const BlockBackend *blk, bool is_read,
                                      int error)
{
    return action_for(blk_get_on_error(blk, is_read), error < 0 ? -error
                                                                : error);
}

void blk_iostatus_enable(BlockBackend *blk)
{
    blk->iostatus_enabled = true;
    blk->iostatus = BLOCK_DEVICE_IO_STATUS_OK;
}

void blk_iostatus_set_err(BlockBackend *blk, int error)
{
    if (blk->iostatus_enabled && blk->iostatus == BLOCK_DEVICE_IO_STATUS_OK) {
        blk->iostatus = abs(error) == ENOSPC ? BLOCK_DEVICE_IO_STATUS_NOSPACE
                                             : BLOCK_DEVICE_IO_STATUS_FAILED;
    }
}

void blk_iostatus_reset(BlockBackend *blk)
{
    if (blk->iostatus_enabled) {
        blk->iostatus = BLOCK_DEVICE_IO_STATUS_OK;
    }
}

/* Requests ------------------------------------------------------------------ */

static void account(BlockBackend *blk, BlockAcctType type, uint64_t bytes,
                    int64_t start, int ret, bool invalid)
{
    int64_t now = g_get_monotonic_time() * 1000;

    g_mutex_lock(&blk->lock);
    if (invalid) {
        blk->stats.invalid[type]++;
    } else if (ret < 0) {
        blk->stats.failed[type]++;
    } else {
        blk->stats.ops[type]++;
        blk->stats.bytes[type] += bytes;
        blk->stats.total_ns[type] += now - start;
    }
    blk->stats.last_access_ns = now;
    g_mutex_unlock(&blk->lock);
}

/* -EIO for a request outside the medium (counted as invalid) */
static int check_request(BlockBackend *blk, int64_t offset, int64_t bytes)
{
    int64_t len;

    if (!blk->root) {
        return -ENOMEDIUM;
    }
    len = bdrv_getlength(bdrv_child_bs(blk->root));
    if (len < 0) {
        return len;
    }
    if (offset < 0 || bytes < 0 || offset > len || len - offset < bytes) {
        return -EIO;
    }
    return 0;
}

typedef int RequestFn(BlockDriverState *bs, int64_t offset, int64_t bytes,
                      QEMUIOVector *qiov, int flags);

static int blk_request(BlockBackend *blk, BlockAcctType type, RequestFn *fn,
                       int64_t offset, int64_t bytes, QEMUIOVector *qiov,
                       int flags)
{
    int64_t start = g_get_monotonic_time() * 1000;
    int ret;

    bdrv_graph_rdlock();
    ret = check_request(blk, offset, bytes);
    if (ret < 0) {
        bdrv_graph_rdunlock();
        account(blk, type, 0, start, ret, true);
        return ret;
    }
    if (type != BLOCK_ACCT_READ && !(blk->perm & BLK_PERM_WRITE)) {
        ret = -EPERM;
    } else {
        ret = fn(bdrv_child_bs(blk->root), offset, bytes, qiov, flags);
    }
    if (!ret && type == BLOCK_ACCT_WRITE && !blk->enable_write_cache) {
        /* writethrough: stable before the write completes */
        ret = bdrv_flush(bdrv_child_bs(blk->root));
    }
    bdrv_graph_rdunlock();
    account(blk, type, bytes, start, ret, false);
    return ret;
}

static int do_zeroes(BlockDriverState *bs, int64_t offset, int64_t bytes,
                     QEMUIOVector *qiov, int flags)
{
    return bdrv_co_pwrite_zeroes(bs, offset, bytes, flags);
}

static int do_discard(BlockDriverState *bs, int64_t offset, int64_t bytes,
                      QEMUIOVector *qiov, int flags)
{
    return bdrv_co_pdiscard(bs, offset, bytes);
}

int blk_co_preadv(BlockBackend *blk, int64_t offset, int64_t bytes,
                  QEMUIOVector *qiov, int flags)
{
    return blk_request(blk, BLOCK_ACCT_READ, bdrv_co_preadv, offset, bytes,
                       qiov, flags);
}

int blk_co_pwritev(BlockBackend *blk, int64_t offset, int64_t bytes,
                   QEMUIOVector *qiov, int flags)
{
    return blk_request(blk, BLOCK_ACCT_WRITE, bdrv_co_pwritev, offset, bytes,
                       qiov, flags);
}

int blk_co_pwrite_zeroes(BlockBackend *blk, int64_t offset, int64_t bytes,
                         int flags)
{
    return blk_request(blk, BLOCK_ACCT_WRITE, do_zeroes, offset, bytes, NULL,
                       flags);
}

int blk_co_pdiscard(BlockBackend *blk, int64_t offset, int64_t bytes)
{
    return blk_request(blk, BLOCK_ACCT_UNMAP, do_discard, offset, bytes, NULL,
                       0);
}

int blk_co_flush(BlockBackend *blk)
{
    int64_t start = g_get_monotonic_time() * 1000;
    int ret;

    bdrv_graph_rdlock();
    ret = blk->root ? bdrv_flush(bdrv_child_bs(blk->root)) : 0;
    bdrv_graph_rdunlock();
    account(blk, BLOCK_ACCT_FLUSH, 0, start, ret, false);
    return ret;
}

int blk_pread(BlockBackend *blk, int64_t offset, int64_t bytes, void *buf)
{
    QEMUIOVector qiov;

    qemu_iovec_init_buf(&qiov, buf, bytes);
    return blk_co_preadv(blk, offset, bytes, &qiov, 0);
}

int blk_pwrite(BlockBackend *blk, int64_t offset, int64_t bytes,
               const void *buf)
{
    QEMUIOVector qiov;

    qemu_iovec_init_buf(&qiov, (void *)buf, bytes);
    return blk_co_pwritev(blk, offset, bytes, &qiov, 0);
}

bool blk_truncate(BlockBackend *blk, int64_t size, Error **errp)
{
    bool ok;

    if (!blk->root) {
        error_setg(errp, "No medium inserted");
        return false;
    }
    bdrv_graph_wrlock();
    ok = bdrv_truncate(bdrv_child_bs(blk->root), size, errp);
    bdrv_graph_wrunlock();
    return ok;
}

/* Asynchronous requests ---------------------------------------------------------- */

typedef enum AioKind { AIO_READ, AIO_WRITE, AIO_DISCARD, AIO_FLUSH } AioKind;

typedef struct BlkAioJob {
    BlockBackend *blk;
    AioKind kind;
    int64_t offset, bytes;
    QEMUIOVector *qiov;
    int flags;
    BlockCompletionFunc *cb;
    void *opaque;
    int ret;
} BlkAioJob;

static gboolean aio_complete(gpointer data)
{
    BlkAioJob *job = data;
    BlockBackend *blk = job->blk;

    job->cb(job->opaque, job->ret);
    g_mutex_lock(&blk->lock);
    blk->aio_pending_cb--;
    g_cond_broadcast(&blk->aio_done);
    g_mutex_unlock(&blk->lock);
    g_free(job);
    return G_SOURCE_REMOVE;
}

static void aio_worker(gpointer data, gpointer unused)
{
    BlkAioJob *job = data;
    BlockBackend *blk = job->blk;
    GSource *src;

    switch (job->kind) {
    case AIO_READ:
        job->ret = blk_co_preadv(blk, job->offset, job->bytes, job->qiov,
                                 job->flags);
        break;
    case AIO_WRITE:
        job->ret = blk_co_pwritev(blk, job->offset, job->bytes, job->qiov,
                                  job->flags);
        break;
    case AIO_DISCARD:
        job->ret = blk_co_pdiscard(blk, job->offset, job->bytes);
        break;
    case AIO_FLUSH:
        job->ret = blk_co_flush(blk);
        break;
    }
    g_mutex_lock(&blk->lock);
    blk->aio_in_flight--;
    blk->aio_pending_cb++;
    g_cond_broadcast(&blk->aio_done);
    g_mutex_unlock(&blk->lock);
    /* Always through the context: never in this worker thread */
    src = g_idle_source_new();
    g_source_set_callback(src, aio_complete, job, NULL);
    g_source_attach(src, blk->ctx ? blk->ctx : g_main_context_default());
    g_source_unref(src);
}

static void aio_submit(BlockBackend *blk, AioKind kind, int64_t offset,
                       int64_t bytes, QEMUIOVector *qiov, int flags,
                       BlockCompletionFunc *cb, void *opaque)
{
    BlkAioJob *job = g_new0(BlkAioJob, 1);

    if (!aio_pool) {
        /* As many workers as QEMU's thread pool at most */
        aio_pool = g_thread_pool_new(aio_worker, NULL, 64, FALSE, NULL);
    }
    *job = (BlkAioJob){ blk, kind, offset, bytes, qiov, flags, cb, opaque, 0 };
    g_mutex_lock(&blk->lock);
    blk->aio_in_flight++;
    g_mutex_unlock(&blk->lock);
    g_thread_pool_push(aio_pool, job, NULL);
}

void blk_aio_preadv(BlockBackend *blk, int64_t offset, QEMUIOVector *qiov,
                    int flags, BlockCompletionFunc *cb, void *opaque)
{
    aio_submit(blk, AIO_READ, offset, qiov->size, qiov, flags, cb, opaque);
}

void blk_aio_pwritev(BlockBackend *blk, int64_t offset, QEMUIOVector *qiov,
                     int flags, BlockCompletionFunc *cb, void *opaque)
{
    aio_submit(blk, AIO_WRITE, offset, qiov->size, qiov, flags, cb, opaque);
}

void blk_aio_pdiscard(BlockBackend *blk, int64_t offset, int64_t bytes,
                      BlockCompletionFunc *cb, void *opaque)
{
    aio_submit(blk, AIO_DISCARD, offset, bytes, NULL, 0, cb, opaque);
}

void blk_aio_flush(BlockBackend *blk, BlockCompletionFunc *cb, void *opaque)
{
    aio_submit(blk, AIO_FLUSH, 0, 0, NULL, 0, cb, opaque);
}

void blk_set_aio_context(BlockBackend *blk, GMainContext *ctx)
{
    blk_drain(blk);
    blk->ctx = ctx;
}

void blk_drain(BlockBackend *blk)
{
    g_mutex_lock(&blk->lock);
    while (blk->aio_in_flight) {
        g_cond_wait(&blk->aio_done, &blk->lock);
    }
    while (blk->aio_pending_cb) {
        g_mutex_unlock(&blk->lock);
        g_main_context_iteration(blk->ctx, TRUE);
        g_mutex_lock(&blk->lock);
    }
    g_mutex_unlock(&blk->lock);
}

/* Queries ----------------------------------------------------------------------- */

JsonObject *blk_query_stats(BlockBackend *blk)
{
    BlockDriverState *bs = blk_bs(blk);
    JsonObject *o = bs ? bdrv_query_bds_stats(bs, true) : json_object_new();
    BlockAcctStats st;

    g_mutex_lock(&blk->lock);
    st = blk->stats;
    g_mutex_unlock(&blk->lock);
    json_object_set_object_member(o, "stats", block_acct_stats_json(
        &st, bs ? __atomic_load_n(&bs->wr_highest_offset, __ATOMIC_RELAXED)
                : 0, blk->account_errors));
    json_object_set_string_member(o, "device", blk_name(blk));
    if (blk->dev_id) {
        json_object_set_string_member(o, "qdev", blk->dev_id);
    }
    return o;
}

JsonObject *blk_query_info(BlockBackend *blk)
{
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "device", blk_name(blk));
    if (blk->dev_id) {
        json_object_set_string_member(o, "qdev", blk->dev_id);
    }
    json_object_set_boolean_member(o, "locked", false);
    json_object_set_boolean_member(o, "removable", blk->removable);
    json_object_set_string_member(o, "type", "unknown");
    if (blk->iostatus_enabled) {
        json_object_set_string_member(o, "io-status",
                                      BlockDeviceIoStatus_str[blk->iostatus]);
    }
    if (blk->root) {
        JsonObject *ins = bdrv_block_device_info(blk_bs(blk), false);
        JsonObject *cache = json_object_get_object_member(ins, "cache");

        json_object_set_boolean_member(cache, "writeback",
                                       blk->enable_write_cache);
        json_object_set_object_member(o, "inserted", ins);
    }
    return o;
}
