/*
 * The block driver interface: what block/block.c asks of a driver
 * (block/file-posix.c, block/raw-format.c, block/qcow2.c).
 */
#ifndef BLOCK_BLOCK_INT_H
#define BLOCK_BLOCK_INT_H

#include <glib.h>

#include "block/block.h"

struct BlockDriver {
    const char *format_name;        /* "file", "raw", "qcow2" */
    BlockdevDriver driver;
    size_t instance_size;           /* of bs->opaque */
    bool is_protocol;               /* no "file" child */
    bool has_variable_length;       /* size asked each time (devices) */
    /*
     * A filter (blkdebug): its child, bs->file, is shown as its backing
     * image by the queries; it opens that child itself, in .open
     */
    bool is_filter;
    /* Protocols without a "filename" option (null-co) */
    bool no_filename;
    /*
     * No image information of its own (QEMU's .bdrv_get_info): the
     * queries show no dirty-flag; raw shows its file's
     */
    bool no_image_info;
    bool image_info_from_file;

    /*
     * Opens with the node's options (the union variant for this driver;
     * the base options are in bs already, a "file" child is attached).
     */
    bool (*open)(BlockDriverState *bs, const BlockdevOptions *opts,
                 Error **errp);
    /* Releases everything; the node has been flushed */
    void (*close)(BlockDriverState *bs);

    /* I/O: 0 or -errno; offset and bytes are within the request limits */
    int (*preadv)(BlockDriverState *bs, int64_t offset, int64_t bytes,
                  QEMUIOVector *qiov, int flags);
    int (*pwritev)(BlockDriverState *bs, int64_t offset, int64_t bytes,
                   QEMUIOVector *qiov, int flags);
    /* Optional: without it, zeroes are written */
    int (*pwrite_zeroes)(BlockDriverState *bs, int64_t offset, int64_t bytes,
                         int flags);
    /* Optional: without it, a discard does nothing (it is advisory) */
    int (*pdiscard)(BlockDriverState *bs, int64_t offset, int64_t bytes);
    /* Writes what the driver caches to its children (formats) */
    int (*flush_to_os)(BlockDriverState *bs);
    /* Makes what was written stable (protocols: fdatasync) */
    int (*flush_to_disk)(BlockDriverState *bs);

    int64_t (*getlength)(BlockDriverState *bs);
    int64_t (*get_allocated_file_size)(BlockDriverState *bs);
    /* Optional: without it, resizing is refused */
    bool (*truncate)(BlockDriverState *bs, int64_t size, Error **errp);

    /*
     * What this node takes and shares on child c, given what its own
     * parents take and share (perm, shared).  NULL: pass them through.
     */
    void (*child_perm)(BlockDriverState *bs, BdrvChild *c, unsigned perm,
                       unsigned shared, unsigned *nperm, unsigned *nshared);
    /*
     * Protocols: make the node's permissions effective (the image locks).
     * On failure nothing has changed.  errp NULL: restoring permissions
     * held before, without the conflict check.
     */
    bool (*set_perm)(BlockDriverState *bs, unsigned perm, unsigned shared,
                     Error **errp);

    /* ImageInfo members beyond the common ones (cluster-size, ...) */
    void (*image_info)(BlockDriverState *bs, JsonObject *info);
    /* query-blockstats' driver-specific, or NULL */
    JsonObject *(*stats_specific)(BlockDriverState *bs);
    /*
     * Options that change what the image means (raw: offset, size): a
     * node with any is named by a "json:{...}" filename, as in QEMU
     */
    void (*strong_options)(BlockDriverState *bs, GPtrArray *keys,
                           GPtrArray *values);
    /*
     * Optional: the node's filename when its options need no json:
     * (QEMU's exact_filename: "null-co://", "blkdebug:CONFIG:IMAGE"), or
     * NULL.  Without it: a format's is its file's, if that is exact.
     */
    char *(*exact_filename)(BlockDriverState *bs);
    /* Optional: an event of the node's parent reached it (blkdebug) */
    void (*debug_event)(BlockDriverState *bs, BlkdebugEvent event);
};

struct BdrvChild {
    BlockDriverState *bs;           /* the child node */
    BlockDriverState *parent;       /* NULL: a BlockBackend */
    const char *name;               /* "file", "backing", "root" */
    unsigned perm, shared_perm;
};

struct BlockDriverState {
    const BlockDriver *drv;
    void *opaque;
    char node_name[BDRV_NODE_NAME_SIZE];
    bool named_by_user;

    char *filename;                 /* the image's file name */
    /* From the image header (formats with backing files) */
    char *backing_file;             /* as written in the image */
    char *backing_format;
    char *full_backing_filename;    /* resolved against filename */
    /* The backing child is not the header's (or the header's is left out) */
    bool backing_overridden;

    bool read_only;
    bool auto_read_only;            /* read-only if it cannot be written */
    bool force_share;
    bool cache_direct;              /* O_DIRECT */
    bool cache_no_flush;            /* flush does not reach the disk */
    bool discard_unmap;             /* discard=unmap: pass discards down */
    BlockdevDetectZeroesOptions detect_zeroes;
    bool probed_raw;                /* -drive without format= found raw */

    BdrvChild *file;
    BdrvChild *backing;
    GPtrArray *parents;             /* BdrvChild* with bs == this */
    unsigned perm, shared_perm;     /* in effect: union/intersection */
    int refcnt;
    uint32_t request_alignment;     /* O_DIRECT needs aligned requests */

    gint64 wr_highest_offset;       /* atomic */
    /*
     * QEMU's flush generations (atomic): write_gen counts write requests
     * (failed ones too), flushed_gen is its value at the last successful
     * flush; a flush finds nothing to make stable while they are equal
     */
    guint64 write_gen, flushed_gen;
    /* The size, as QEMU keeps it: read at open, after a resize, grown by
     * writes past the end (atomic; not for has_variable_length drivers) */
    gint64 total_bytes;
};

/* The drivers (block/file-posix.c, raw-format.c, qcow2.c) */
extern const BlockDriver bdrv_file;
extern const BlockDriver bdrv_host_device;
extern const BlockDriver bdrv_raw;
extern const BlockDriver bdrv_qcow2;
extern const BlockDriver bdrv_null_co;
extern const BlockDriver bdrv_null_aio;
extern const BlockDriver bdrv_blkdebug;

/*
 * Opens a backing file named in an image header (qcow2): read-only,
 * format from the header's extension or probed, cache options inherited.
 */
BlockDriverState *bdrv_open_backing_file(BlockDriverState *parent,
                                         Error **errp);
/* A backing file defined inline in the options ("backing": {...}) */
BlockDriverState *bdrv_open_inline_backing(BlockDriverState *parent,
                                           const BlockdevOptions *opts,
                                           Error **errp);
/*
 * Opens a driver's child from its reference (a node name or inline
 * options, which inherit the parent's flags) and attaches it as bs->file
 * under name ("file", "image"), taking nothing yet
 */
bool bdrv_open_file_child(BlockDriverState *bs, const BlockdevRef *ref,
                          const char *name, Error **errp);
/* Tells bs (a child) that its parent reached event: blkdebug's rules */
void bdrv_debug_event(BlockDriverState *bs, BlkdebugEvent event);
/* The bucket (0..511) of a key in QEMU's dictionaries: their order */
unsigned bdrv_key_bucket(const char *key);
/* A string in JSON's syntax, quoted and escaped (strong options) */
char *bdrv_json_string(const char *s);

/* A node reference: node name or drive id, with QEMU's text if neither */
BlockDriverState *bdrv_find_reference(const char *ref, Error **errp);
/* Resolves a backing file name against the image's own directory */
char *bdrv_combine_filename(const char *image, const char *backing);
/* Format probing for -drive and backing files: "qcow2" or "raw" */
const char *bdrv_probe_format(const uint8_t *buf, size_t len);

/* QEMU's filename of a format node: its file's, or "json:{...}" */
void bdrv_refresh_filename(BlockDriverState *bs);

/* Permissions a format node takes on its storage and its backing */
void bdrv_format_child_perm(BlockDriverState *bs, BdrvChild *c,
                            unsigned perm, unsigned shared, unsigned *nperm,
                            unsigned *nshared);
/*
 * Recomputes what bs takes on its children and below (after open: what a
 * driver takes may depend on its options, as raw's window)
 */
bool bdrv_refresh_perms(BlockDriverState *bs, Error **errp);
/* QEMU's rule for a child that holds guest data (applied to nperm/nshared) */
void bdrv_data_child_perm(unsigned *nperm, unsigned *nshared);

#endif
