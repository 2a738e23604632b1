/*
 * The "raw" format: the guest's bytes are the file's, optionally a window
 * of it (offset, size).  Requests pass straight to the file child; raw
 * caches nothing, so its flush is its child's.  Permissions pass through
 * unchanged (a raw node takes on its file what its users take on it).
 */
#include <errno.h>
#include <inttypes.h>

#include "block/block_int.h"

typedef struct BDRVRawFormatState {
    uint64_t offset;
    uint64_t size;
    bool has_offset, has_size;
} BDRVRawFormatState;

static const char size_hint[] =
    "Optional suffix k, M, G, T, P or E means kilo-, mega-, giga-, tera-, "
    "peta-\nand exabytes, respectively.\n";

static bool raw_open(BlockDriverState *bs, const BlockdevOptions *opts,
                     Error **errp)
{
    BDRVRawFormatState *s = bs->opaque;
    const BlockdevOptionsRaw *o = &opts->u.raw;
    int64_t len;

    if ((o->has_offset && o->offset < 0) || (o->has_size && o->size < 0)) {
        error_setg(errp, "Parameter '%s' expects a non-negative number "
                   "below 2^64", o->has_offset && o->offset < 0 ? "offset"
                                                               : "size");
        error_append_hint(errp, "%s", size_hint);
        return false;
    }
    s->offset = o->has_offset ? o->offset : 0;
    s->has_offset = o->has_offset;
    s->has_size = o->has_size;
    s->size = o->has_size ? o->size : 0;
    len = bdrv_getlength(bs->file->bs);
    if (len < 0) {
        error_setg_errno(errp, -len, "Could not get the file size");
        return false;
    }
    if (s->has_size && s->size % 512) {
        error_setg(errp, "Specified size is not multiple of 512");
        return false;
    }
    if (s->offset > (uint64_t)len) {
        error_setg(errp, "Offset (%" PRIu64 ") cannot be greater than size "
                   "of the containing file (%" PRId64 ")", s->offset, len);
        return false;
    }
    if (s->has_size && s->size > (uint64_t)len - s->offset) {
        error_setg(errp, "The sum of offset (%" PRIu64 ") and size (%"
                   PRIu64 ") has to be smaller or equal to the  actual size "
                   "of the containing file (%" PRId64 ")", s->offset,
                   s->size, len);
        return false;
    }
    return true;
}

/* QEMU's rule: nothing outside the window, -ENOSPC for a write */
static int raw_adjust(BlockDriverState *bs, int64_t *offset, int64_t bytes,
                      bool write)
{
    BDRVRawFormatState *s = bs->opaque;

    if (s->has_size && ((uint64_t)*offset > s->size ||
                        (uint64_t)bytes > s->size - *offset)) {
        return write ? -ENOSPC : -EINVAL;
    }
    if ((uint64_t)*offset > INT64_MAX - s->offset) {
        return -EINVAL;
    }
    *offset += s->offset;
    return 0;
}

static int raw_preadv(BlockDriverState *bs, int64_t offset, int64_t bytes,
                      QEMUIOVector *qiov, int flags)
{
    int ret = raw_adjust(bs, &offset, bytes, false);

    if (ret) {
        return ret;
    }
    bdrv_debug_event(bs->file->bs, BLKDEBUG_EVENT_READ_AIO);
    return bdrv_preadv(bs->file, offset, bytes, qiov, flags);
}

static int raw_pwritev(BlockDriverState *bs, int64_t offset, int64_t bytes,
                       QEMUIOVector *qiov, int flags)
{
    int ret = raw_adjust(bs, &offset, bytes, true);

    if (ret) {
        return ret;
    }
    bdrv_debug_event(bs->file->bs, BLKDEBUG_EVENT_WRITE_AIO);
    return bdrv_pwritev(bs->file, offset, bytes, qiov, flags);
}

static int raw_pwrite_zeroes(BlockDriverState *bs, int64_t offset,
                             int64_t bytes, int flags)
{
    int ret = raw_adjust(bs, &offset, bytes, true);

    return ret ? ret : bdrv_pwrite_zeroes(bs->file, offset, bytes, flags);
}

static int raw_pdiscard(BlockDriverState *bs, int64_t offset, int64_t bytes)
{
    int ret = raw_adjust(bs, &offset, bytes, true);

    return ret ? ret : bdrv_pdiscard(bs->file, offset, bytes);
}

static int64_t raw_getlength(BlockDriverState *bs)
{
    BDRVRawFormatState *s = bs->opaque;
    int64_t len;

    if (s->has_size) {
        return s->size;
    }
    len = bdrv_getlength(bs->file->bs);
    if (len < 0) {
        return len;
    }
    return (uint64_t)len > s->offset ? len - (int64_t)s->offset : 0;
}

static bool raw_truncate(BlockDriverState *bs, int64_t size, Error **errp)
{
    BDRVRawFormatState *s = bs->opaque;

    if (s->has_size) {
        error_setg(errp, "Cannot resize fixed-size raw disks");
        return false;
    }
    if ((uint64_t)size > INT64_MAX - s->offset) {
        error_setg(errp, "Disk size too large for the chosen offset");
        return false;
    }
    return bdrv_truncate(bs->file->bs, s->offset + size, errp);
}

/*
 * A window (offset or size) holds data the parent depends on: others may
 * not resize it (QEMU's data child); otherwise raw is transparent
 */
static void raw_child_perm(BlockDriverState *bs, BdrvChild *c, unsigned perm,
                           unsigned shared, unsigned *nperm, unsigned *nshared)
{
    BDRVRawFormatState *s = bs->opaque;

    *nperm = perm;
    *nshared = shared;
    if (s->has_offset || s->has_size) {
        bdrv_data_child_perm(nperm, nshared);
        *nperm = (*nperm & ~(BLK_PERM_WRITE | BLK_PERM_RESIZE)) |
                 (perm & (BLK_PERM_WRITE | BLK_PERM_RESIZE));
    }
}

static void raw_strong_options(BlockDriverState *bs, GPtrArray *keys,
                               GPtrArray *values)
{
    BDRVRawFormatState *s = bs->opaque;

    if (s->has_offset) {
        g_ptr_array_add(keys, g_strdup("offset"));
        g_ptr_array_add(values, g_strdup_printf("%" PRIu64, s->offset));
    }
    if (s->has_size) {
        g_ptr_array_add(keys, g_strdup("size"));
        g_ptr_array_add(values, g_strdup_printf("%" PRIu64, s->size));
    }
}

const BlockDriver bdrv_raw = {
    .format_name = "raw",
    .driver = BLOCKDEV_DRIVER_RAW,
    .instance_size = sizeof(BDRVRawFormatState),
    .image_info_from_file = true,
    .open = raw_open,
    .preadv = raw_preadv,
    .pwritev = raw_pwritev,
    .pwrite_zeroes = raw_pwrite_zeroes,
    .pdiscard = raw_pdiscard,
    .getlength = raw_getlength,
    .truncate = raw_truncate,
    .strong_options = raw_strong_options,
    .child_perm = raw_child_perm,
};
