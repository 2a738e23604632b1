/*
 * BlockBackend: what a device attaches to (docs/block.md).
 *
 * A backend is named (a -drive id) or anonymous (created for a device
 * that names a -blockdev node), holds the top node of a graph through a
 * "root" edge with the permissions of its user, and carries what QEMU
 * keeps per drive: the guest-visible write cache (writeback or
 * writethrough), the read/write error policies, the I/O status and the
 * statistics of query-blockstats.
 *
 * Requests are checked against the medium's size, counted, and run under
 * the graph read lock, from any thread.  With the write cache off
 * (cache=writethrough, directsync) every write is followed by a flush
 * before it completes.  blk_co_flush() returning 0 means every write that
 * completed before the call is on stable storage.
 *
 * Asynchronous requests (blk_aio_*) run on a pool of worker threads; the
 * completion callback runs in the backend's GMainContext (the main loop
 * unless a device moved it with blk_set_aio_context()), once, with 0 or
 * a negative errno.  A device consults blk_get_error_action() on an
 * error and acts (report it, ignore it, or stop the VM).
 */
#ifndef SYSEMU_BLOCK_BACKEND_H
#define SYSEMU_BLOCK_BACKEND_H

#include <glib.h>

#include "block/block.h"

typedef struct BlockBackend BlockBackend;

/* -drive werror=/rerror= and the devices' properties: QEMU's names */
typedef enum BlockdevOnError {
    BLOCKDEV_ON_ERROR_REPORT,
    BLOCKDEV_ON_ERROR_IGNORE,
    BLOCKDEV_ON_ERROR_ENOSPC,
    BLOCKDEV_ON_ERROR_STOP,
    BLOCKDEV_ON_ERROR_AUTO,
    BLOCKDEV_ON_ERROR__MAX,
} BlockdevOnError;
extern const char *const BlockdevOnError_str[];

typedef enum BlockErrorAction {
    BLOCK_ERROR_ACTION_IGNORE,
    BLOCK_ERROR_ACTION_REPORT,
    BLOCK_ERROR_ACTION_STOP,
} BlockErrorAction;

typedef void BlockCompletionFunc(void *opaque, int ret);

/* Accounting, per backend (query-blockstats) */
typedef enum BlockAcctType {
    BLOCK_ACCT_READ, BLOCK_ACCT_WRITE, BLOCK_ACCT_FLUSH, BLOCK_ACCT_UNMAP,
    BLOCK_ACCT__MAX,
} BlockAcctType;

typedef struct BlockAcctStats {
    uint64_t bytes[BLOCK_ACCT__MAX];
    uint64_t ops[BLOCK_ACCT__MAX];
    uint64_t failed[BLOCK_ACCT__MAX];
    uint64_t invalid[BLOCK_ACCT__MAX];
    uint64_t total_ns[BLOCK_ACCT__MAX];
    int64_t last_access_ns;         /* monotonic; 0: no request yet */
} BlockAcctStats;

/* BlockDeviceStats of query-blockstats (block/qapi.c) */
JsonObject *block_acct_stats_json(const BlockAcctStats *st,
                                  int64_t wr_highest_offset, bool account);

/* A backend, anonymous when name is NULL; no medium yet */
BlockBackend *blk_new(const char *name, unsigned perm, unsigned shared,
                      Error **errp);
/* Attaches the top node (the backend holds a reference) */
bool blk_insert_bs(BlockBackend *blk, BlockDriverState *bs, Error **errp);
void blk_remove_bs(BlockBackend *blk);
/* Drains, detaches the medium, frees */
void blk_unref(BlockBackend *blk);

BlockBackend *blk_by_name(const char *name);
/* Named backends in creation order (NULL starts) */
BlockBackend *blk_next(BlockBackend *blk);
/* Every backend, anonymous ones included */
BlockBackend *blk_all_next(BlockBackend *blk);
const char *blk_name(const BlockBackend *blk);
BlockDriverState *blk_bs(const BlockBackend *blk);
bool blk_is_inserted(const BlockBackend *blk);

/*
 * For a device's drive= property: the backend of that name, else an
 * anonymous one over the node of that name (as QEMU), else an error.
 */
BlockBackend *blk_by_name_or_node(const char *name, Error **errp);
/* The device using the backend: one at a time */
bool blk_attach_dev(BlockBackend *blk, void *dev, const char *qdev_id,
                    Error **errp);
void blk_detach_dev(BlockBackend *blk);
void *blk_get_attached_dev(const BlockBackend *blk);
const char *blk_get_attached_dev_id(const BlockBackend *blk);
/* What the device takes and shares (disks: write; CD-ROMs: read) */
bool blk_set_perm(BlockBackend *blk, unsigned perm, unsigned shared,
                  Error **errp);
void blk_get_perm(const BlockBackend *blk, unsigned *perm, unsigned *shared);

bool blk_enable_write_cache(const BlockBackend *blk);
void blk_set_enable_write_cache(BlockBackend *blk, bool wce);
bool blk_is_read_only(const BlockBackend *blk);
int64_t blk_getlength(BlockBackend *blk);

/* Error policies (data the device consults) */
void blk_set_on_error(BlockBackend *blk, BlockdevOnError on_read_error,
                      BlockdevOnError on_write_error);
BlockdevOnError blk_get_on_error(const BlockBackend *blk, bool is_read);
BlockErrorAction blk_get_error_action(const BlockBackend *blk, bool is_read,
                                      int error);
/* query-block's io-status: devices with error policies enable it */
void blk_iostatus_enable(BlockBackend *blk);
void blk_iostatus_set_err(BlockBackend *blk, int error);
void blk_iostatus_reset(BlockBackend *blk);

/* Synchronous requests: 0 or -errno */
int blk_co_preadv(BlockBackend *blk, int64_t offset, int64_t bytes,
                  QEMUIOVector *qiov, int flags);
int blk_co_pwritev(BlockBackend *blk, int64_t offset, int64_t bytes,
                   QEMUIOVector *qiov, int flags);
int blk_co_pwrite_zeroes(BlockBackend *blk, int64_t offset, int64_t bytes,
                         int flags);
int blk_co_pdiscard(BlockBackend *blk, int64_t offset, int64_t bytes);
int blk_co_flush(BlockBackend *blk);
int blk_pread(BlockBackend *blk, int64_t offset, int64_t bytes, void *buf);
int blk_pwrite(BlockBackend *blk, int64_t offset, int64_t bytes,
               const void *buf);
bool blk_truncate(BlockBackend *blk, int64_t size, Error **errp);

/* Asynchronous requests (see above); qiov must live until completion */
void blk_aio_preadv(BlockBackend *blk, int64_t offset, QEMUIOVector *qiov,
                    int flags, BlockCompletionFunc *cb, void *opaque);
void blk_aio_pwritev(BlockBackend *blk, int64_t offset, QEMUIOVector *qiov,
                     int flags, BlockCompletionFunc *cb, void *opaque);
void blk_aio_pdiscard(BlockBackend *blk, int64_t offset, int64_t bytes,
                      BlockCompletionFunc *cb, void *opaque);
void blk_aio_flush(BlockBackend *blk, BlockCompletionFunc *cb, void *opaque);
/* Where completions run (NULL: the main loop) */
void blk_set_aio_context(BlockBackend *blk, GMainContext *ctx);
/*
 * Waits for every asynchronous request of blk and runs their completions;
 * called from the thread that runs blk's context.
 */
void blk_drain(BlockBackend *blk);

/* query-block's BlockInfo and query-blockstats' entry (block/qapi.c) */
JsonObject *blk_query_info(BlockBackend *blk);
JsonObject *blk_query_stats(BlockBackend *blk);
/* -drive backends report account_invalid/failed: they count those */
void blk_set_account_errors(BlockBackend *blk, bool on);
/* Device properties of query-block, filled by the device code */
void blk_set_removable(BlockBackend *blk, bool removable);

#endif
