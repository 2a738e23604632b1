/*
 * The "null-co" and "null-aio" protocols: a disk of a given size (1 GiB
 * unless size is given) that stores nothing.  Writes and flushes succeed;
 * reads succeed and leave the caller's buffer as it was, unless
 * read-zeroes=on, which fills it with zeroes (QEMU 7.2's default is off).
 * latency-ns delays every request by that long.  QEMU's two drivers
 * differ only in how QEMU completes requests (a coroutine, or a callback
 * from its event loop); here requests complete in the caller's thread,
 * so the two are one driver under two names.
 *
 * Filename: "null-co://" (or "null-aio://") while no option that changes
 * the disk (size, read-zeroes) is given, else json:{...}, as in QEMU.
 */
#include <errno.h>
#include <inttypes.h>
#include <time.h>

#include "block/block_int.h"

typedef struct BDRVNullState {
    int64_t length;
    uint64_t latency_ns;
    bool read_zeroes;
    /* As given: QEMU's "strong" options, named in json: filenames */
    bool has_size, has_read_zeroes;
} BDRVNullState;

static bool null_open(BlockDriverState *bs, const BlockdevOptions *opts,
                      Error **errp)
{
    BDRVNullState *s = bs->opaque;
    const BlockdevOptionsNull *o = &opts->u.null_co;

    /* QEMU 7.2 aborts on a negative size (its option parser's error
     * reaches &error_abort); this is the text it prints before dying */
    if (o->has_size && o->size < 0) {
        error_setg(errp, "Parameter 'size' expects a non-negative number "
                   "below 2^64");
        return false;
    }
    s->length = o->has_size ? o->size : 1LL << 30;
    s->has_size = o->has_size;
    if (s->length > INT64_MAX - 511) {
        /* QEMU's generic check: the size in whole sectors overflows */
        error_setg(errp, "Could not refresh total sector count: %s",
                   g_strerror(EFBIG));
        return false;
    }
    s->latency_ns = o->has_latency_ns ? o->latency_ns : 0;
    if (s->latency_ns > INT64_MAX) {
        error_setg(errp, "latency-ns is invalid");
        return false;
    }
    s->read_zeroes = o->has_read_zeroes && o->read_zeroes;
    s->has_read_zeroes = o->has_read_zeroes;
    return true;
}

static int null_delay(BlockDriverState *bs)
{
    BDRVNullState *s = bs->opaque;
    struct timespec ts = {
        .tv_sec = s->latency_ns / 1000000000,
        .tv_nsec = s->latency_ns % 1000000000,
    };

    while (s->latency_ns && nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
    return 0;
}

static int null_preadv(BlockDriverState *bs, int64_t offset, int64_t bytes,
                       QEMUIOVector *qiov, int flags)
{
    BDRVNullState *s = bs->opaque;

    if (s->read_zeroes) {
        qemu_iovec_memset(qiov, 0, 0, bytes);
    }
    return null_delay(bs);
}

static int null_pwritev(BlockDriverState *bs, int64_t offset, int64_t bytes,
                        QEMUIOVector *qiov, int flags)
{
    return null_delay(bs);
}

static int null_flush_to_disk(BlockDriverState *bs)
{
    return null_delay(bs);
}

static int64_t null_getlength(BlockDriverState *bs)
{
    BDRVNullState *s = bs->opaque;

    return s->length;
}

static int64_t null_allocated_file_size(BlockDriverState *bs)
{
    return 0;
}

static void null_strong_options(BlockDriverState *bs, GPtrArray *keys,
                                GPtrArray *values)
{
    BDRVNullState *s = bs->opaque;

    if (s->has_size) {
        g_ptr_array_add(keys, g_strdup("size"));
        g_ptr_array_add(values, g_strdup_printf("%" PRId64, s->length));
    }
    if (s->has_read_zeroes) {
        g_ptr_array_add(keys, g_strdup("read-zeroes"));
        g_ptr_array_add(values, g_strdup(s->read_zeroes ? "true" : "false"));
    }
}

static char *null_exact_filename(BlockDriverState *bs)
{
    BDRVNullState *s = bs->opaque;

    if (s->has_size || s->has_read_zeroes) {
        return NULL;
    }
    return g_strdup_printf("%s://", bs->drv->format_name);
}

#define NULL_DRIVER(name, tag)                                              \
    {                                                                       \
        .format_name = name,                                                \
        .driver = tag,                                                      \
        .instance_size = sizeof(BDRVNullState),                             \
        .is_protocol = true,                                                \
        .no_filename = true,                                                \
        .no_image_info = true,                                              \
        .open = null_open,                                                  \
        .preadv = null_preadv,                                              \
        .pwritev = null_pwritev,                                            \
        .flush_to_disk = null_flush_to_disk,                                \
        .getlength = null_getlength,                                        \
        .get_allocated_file_size = null_allocated_file_size,                \
        .strong_options = null_strong_options,                              \
        .exact_filename = null_exact_filename,                              \
    }

const BlockDriver bdrv_null_co = NULL_DRIVER("null-co",
                                             BLOCKDEV_DRIVER_NULL_CO);
const BlockDriver bdrv_null_aio = NULL_DRIVER("null-aio",
                                              BLOCKDEV_DRIVER_NULL_AIO);
