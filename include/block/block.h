/*
 * The block layer's node graph (docs/block.md).
 *
 * A node (BlockDriverState) is one driver instance: a protocol node
 * ("file", "host_device") on a POSIX file descriptor, or a format node
 * ("raw", "qcow2") over a "file" child and, for qcow2, a "backing" child.
 * Parents reach children through BdrvChild edges, each carrying the
 * permissions the parent takes on the child and the ones it shares with
 * other users; a node's permissions are the union (taken) and the
 * intersection (shared) over its parents, and protocol nodes turn them
 * into QEMU's image locks.  Devices never see nodes: they use a
 * BlockBackend (sysemu/block-backend.h) attached to the top node.
 *
 * Threads.  Graph changes (open, close, attach, permission changes,
 * truncate) happen in the main thread under the graph write lock, which
 * waits for every request in flight.  I/O runs in any thread under the
 * graph read lock, which the BlockBackend takes for each request; format
 * drivers serialise what must be (qcow2: one mutex per image, see
 * block/qcow2.h), protocol I/O is positional and runs in parallel.
 *
 * I/O functions return 0 or a negative errno (the werror/rerror policies
 * need the errno); opening and graph changes use Error **.
 */
#ifndef BLOCK_BLOCK_H
#define BLOCK_BLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <json-glib/json-glib.h>

#include "qapi/error.h"
#include "qapi-types.h"
#include "qemu/iov.h"

typedef struct BlockDriver BlockDriver;
typedef struct BlockDriverState BlockDriverState;
typedef struct BdrvChild BdrvChild;

/*
 * Permissions, with QEMU 7.2's bit numbers: the image locks of
 * block/file-lock.c put bit N at byte 100 + N (taken) and 200 + N (not
 * shared), so these numbers are an interface with other processes.
 */
enum {
    BLK_PERM_CONSISTENT_READ = 1u << 0,
    BLK_PERM_WRITE = 1u << 1,
    BLK_PERM_WRITE_UNCHANGED = 1u << 2,
    BLK_PERM_RESIZE = 1u << 3,
    BLK_PERM_ALL = 0x0f,
};
#define BLK_PERM_COUNT 4
/* "consistent read", "write", ... as QEMU names them in its errors */
extern const char *const bdrv_perm_names[BLK_PERM_COUNT];

/* Request flags */
enum {
    BDRV_REQ_MAY_UNMAP = 1u << 0,   /* write-zeroes may deallocate */
    BDRV_REQ_FUA = 1u << 1,         /* stable before completion */
};

/* Bytes an I/O request may span at most (QEMU's BDRV_REQUEST_MAX_BYTES) */
#define BDRV_REQUEST_MAX_BYTES (INT32_MAX & ~511LL)
/* Longest node name plus its NUL */
#define BDRV_NODE_NAME_SIZE 32

/*
 * Opens a node from options as -blockdev and blockdev-add give them
 * (children defined inline are opened too; a "reference" names an
 * existing node).  The new node has one reference, owned by the caller.
 */
BlockDriverState *bdrv_open(const BlockdevOptions *opts, Error **errp);
void bdrv_ref(BlockDriverState *bs);
/* Drops a reference; the last one flushes and closes the node */
void bdrv_unref(BlockDriverState *bs);
/* Flushes and closes every node (at exit) */
void bdrv_close_all(void);

BlockDriverState *bdrv_find_node(const char *node_name);
/* Every node, in creation order (NULL starts) */
BlockDriverState *bdrv_next_node(BlockDriverState *bs);
/* Every node in query-named-block-nodes' order: newest name first */
BlockDriverState *bdrv_next_named_node(BlockDriverState *bs);
/* QEMU's checks of a user's node name ("Invalid node-name: '%s'") */
bool bdrv_check_node_name(const char *name, Error **errp);

const char *bdrv_get_node_name(const BlockDriverState *bs);
const char *bdrv_get_format_name(const BlockDriverState *bs);
const char *bdrv_get_filename(const BlockDriverState *bs);
bool bdrv_is_read_only(const BlockDriverState *bs);
bool bdrv_has_parents(const BlockDriverState *bs);
BlockDriverState *bdrv_file_bs(const BlockDriverState *bs);
BlockDriverState *bdrv_backing_bs(const BlockDriverState *bs);

int64_t bdrv_getlength(BlockDriverState *bs);
/* Bytes the image occupies on the host, or -errno */
int64_t bdrv_get_allocated_file_size(BlockDriverState *bs);
/* block_resize: needs the resize permission of no other user denied */
bool bdrv_truncate(BlockDriverState *bs, int64_t size, Error **errp);

/* I/O through an edge (drivers) or on a node (tests, the backend) */
int bdrv_preadv(BdrvChild *child, int64_t offset, int64_t bytes,
                QEMUIOVector *qiov, int flags);
int bdrv_pwritev(BdrvChild *child, int64_t offset, int64_t bytes,
                 QEMUIOVector *qiov, int flags);
int bdrv_pread(BdrvChild *child, int64_t offset, int64_t bytes, void *buf);
int bdrv_pwrite(BdrvChild *child, int64_t offset, int64_t bytes,
                const void *buf);
int bdrv_pwrite_zeroes(BdrvChild *child, int64_t offset, int64_t bytes,
                       int flags);
int bdrv_pdiscard(BdrvChild *child, int64_t offset, int64_t bytes);
int bdrv_co_preadv(BlockDriverState *bs, int64_t offset, int64_t bytes,
                   QEMUIOVector *qiov, int flags);
int bdrv_co_pwritev(BlockDriverState *bs, int64_t offset, int64_t bytes,
                    QEMUIOVector *qiov, int flags);
int bdrv_co_pwrite_zeroes(BlockDriverState *bs, int64_t offset,
                          int64_t bytes, int flags);
int bdrv_co_pdiscard(BlockDriverState *bs, int64_t offset, int64_t bytes);
/*
 * Flush, per level (docs/block.md): a format driver first writes what it
 * caches (qcow2: its metadata, in an order that keeps the image
 * consistent), then its file child is flushed, and a protocol node makes
 * everything written to it stable (fdatasync) unless cache.no-flush.
 * When bdrv_flush returns 0, every write that completed before it was
 * called is on stable storage.
 */
int bdrv_flush(BlockDriverState *bs);

/*
 * Edges.  parent NULL: a BlockBackend's root edge.  Attaching takes a
 * reference on child and applies the permissions (the image locks of the
 * protocol nodes below included); it fails, changing nothing, when they
 * conflict with another user's.
 */
BdrvChild *bdrv_attach_child(BlockDriverState *parent, BlockDriverState *child,
                             const char *name, unsigned perm, unsigned shared,
                             Error **errp);
/* Detaches (permissions dropped) and drops the reference */
void bdrv_detach_child(BdrvChild *c);
bool bdrv_child_set_perm(BdrvChild *c, unsigned perm, unsigned shared,
                         Error **errp);
BlockDriverState *bdrv_child_bs(const BdrvChild *c);

/*
 * The graph lock.  Readers: requests in flight (BlockBackend takes it per
 * request; not recursive).  Writer: graph changes from the main thread,
 * which thereby wait until no request is in flight.
 */
void bdrv_graph_rdlock(void);
void bdrv_graph_rdunlock(void);
void bdrv_graph_wrlock(void);
void bdrv_graph_wrunlock(void);

/* query-named-block-nodes' BlockDeviceInfo of a node (block/qapi.c) */
JsonObject *bdrv_block_device_info(BlockDriverState *bs, bool flat);
/*
 * query-blockstats' entry of a node: its "parent" (the file child's
 * entry) and, at backend level, its "backing"
 */
JsonObject *bdrv_query_bds_stats(BlockDriverState *bs, bool blk_level);

#endif
