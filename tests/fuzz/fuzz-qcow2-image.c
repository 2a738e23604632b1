/*
 * Fuzz target: a qcow2 image from the input's bytes, opened by the qcow2
 * driver over the file driver (the image lives in a memfd), then read,
 * written, zeroed, discarded, resized and flushed through a BlockBackend
 * as a guest would.  Every header field, table offset and size, L1/L2 and
 * refcount entry is the fuzzer's: the driver must refuse or fail requests,
 * never crash, hang, leak or touch memory out of bounds.
 *
 * Input: 9 bytes of options, then the image file.
 *   byte 0   bit 0  open read-write (else read-only)
 *            bit 1  a raw backing node (else "backing": null: the
 *                   header's backing file name is never opened)
 *            bit 2  write zeroes (with and without unmap)
 *            bit 3  discard (with discard=unmap)
 *            bit 4  grow the image (block_resize)
 *            bit 5  flush between steps (the ordered metadata flush)
 *   bytes 1-8  two little-endian 32-bit seeds for request offsets/sizes
 * With FUZZ_VERBOSE set, each input's outcome is printed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "block/block.h"
#include "qapi/qapi-visit.h"
#include "qapi-commands.h"
#include "qemu/keyval-tree.h"
#include "sysemu/block-backend.h"

#define HDR_LEN 9
/* Requests stay within this much of the disk: big images stay cheap */
#define WINDOW (64u << 20)

static bool verbose;
static int backing_fd = -1;
static BlockDriverState *backing_bs;

static uint32_t ld32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* backing: a node name, NULL for "backing": null, "" to leave it out */
static BlockDriverState *open_opts(const char *opts, const char *backing,
                                   Error **errp)
{
    JsonObject *o = keyval_parse_tree(opts, errp);
    BlockdevOptions bo = { 0 };
    BlockDriverState *bs = NULL;

    if (o && qapi_visit_struct_keyval(&qapi_desc_BlockdevOptions, o, &bo,
                                      errp)) {
        if (!backing || *backing) {
            bo.u.qcow2.has_backing = true;
            bo.u.qcow2.backing.kind = backing ? QAPI_ALT_STRING
                                              : QAPI_ALT_NULL;
            bo.u.qcow2.backing.reference = backing;
        }
        bs = bdrv_open(&bo, errp);
    }
    qapi_struct_free(&qapi_desc_BlockdevOptions, &bo);
    if (o) {
        json_object_unref(o);
    }
    return bs;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char buf[4096], opts[128];
    Error *err = NULL;

    verbose = getenv("FUZZ_VERBOSE") != NULL;
    /* The backing node: 1 MiB of a pattern, read-only, kept for all runs */
    backing_fd = memfd_create("fuzz-backing", 0);
    for (int i = 0; i < 256; i++) {
        memset(buf, i, sizeof(buf));
        if (write(backing_fd, buf, sizeof(buf)) != sizeof(buf)) {
            abort();
        }
    }
    snprintf(opts, sizeof(opts), "driver=raw,node-name=fuzz-backing,"
             "read-only=on,file.driver=file,file.filename=/proc/self/fd/%d",
             backing_fd);
    backing_bs = open_opts(opts, "", &err);
    if (!backing_bs) {
        error_report_err(err);
        abort();
    }
    return 0;
}

static void note(const char *what, int ret)
{
    if (verbose) {
        printf("  %s: %s\n", what, ret < 0 ? g_strerror(-ret) : "ok");
    }
}

/* A request inside the disk's first WINDOW bytes */
static void pick(uint32_t *seed, int64_t len, int64_t *off, int64_t *n)
{
    int64_t lim = MIN(len, (int64_t)WINDOW);

    *seed = *seed * 1103515245u + 12345u;
    *off = lim ? (*seed % lim) : 0;
    *seed = *seed * 1103515245u + 12345u;
    *n = MIN(lim - *off, (int64_t)(*seed % (300 * 1024)) + 1);
    if (*n < 0) {
        *n = 0;
    }
}

static void exercise(BlockBackend *blk, uint8_t flags, uint32_t seed)
{
    int64_t len = blk_getlength(blk), off, n;
    uint8_t *buf = g_malloc(300 * 1024 + 512);
    int i;

    for (i = 0; i < 4; i++) {
        pick(&seed, len, &off, &n);
        note("read", blk_pread(blk, off, n, buf));
    }
    if (len > 0) {
        note("read end", blk_pread(blk, len - MIN(len, 4096),
                                   MIN(len, 4096), buf));
    }
    if (!(flags & 1)) {
        g_free(buf);
        return;
    }
    for (i = 0; i < 6; i++) {
        pick(&seed, len, &off, &n);
        memset(buf, 0x40 + i, n);
        note("write", blk_pwrite(blk, off, n, buf));
        if (flags & 4) {
            pick(&seed, len, &off, &n);
            note("zeroes", blk_co_pwrite_zeroes(blk, off, n,
                                                i & 1 ? BDRV_REQ_MAY_UNMAP
                                                      : 0));
        }
        if (flags & 8) {
            pick(&seed, len, &off, &n);
            note("discard", blk_co_pdiscard(blk, off, n));
        }
        if (flags & 32) {
            note("flush", blk_co_flush(blk));
        }
    }
    if ((flags & 16) && len >= 0 && len < (int64_t)WINDOW) {
        Error *err = NULL;

        if (!blk_truncate(blk, len + 3 * 65536 + 512, &err)) {
            note("resize", -EINVAL);
            error_free(err);
        }
        pick(&seed, blk_getlength(blk), &off, &n);
        note("write after resize", blk_pwrite(blk, off, n, buf));
    }
    note("flush", blk_co_flush(blk));
    pick(&seed, len, &off, &n);
    note("read back", blk_pread(blk, off, n, buf));
    g_free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-image", 0);
    char opts[256];
    BlockDriverState *bs;
    BlockBackend *blk;
    Error *err = NULL;
    uint8_t flags;

    if (size < HDR_LEN || fd < 0) {
        if (fd >= 0) {
            close(fd);
        }
        return 0;
    }
    flags = data[0];
    if (write(fd, data + HDR_LEN, size - HDR_LEN) != (ssize_t)(size -
                                                                HDR_LEN)) {
        abort();
    }
    snprintf(opts, sizeof(opts), "driver=qcow2,read-only=%s,discard=%s,"
             "file.driver=file,file.filename=/proc/self/fd/%d,"
             "file.locking=off", flags & 1 ? "off" : "on",
             flags & 8 ? "unmap" : "ignore", fd);
    bs = open_opts(opts, flags & 2 ? "fuzz-backing" : NULL, &err);
    if (verbose) {
        printf("open (%s): %s\n", flags & 1 ? "rw" : "ro",
               bs ? "ok" : error_get_pretty(err));
    }
    error_free(err);
    err = NULL;
    if (bs) {
        blk = blk_new(NULL, BLK_PERM_CONSISTENT_READ |
                      (flags & 1 ? BLK_PERM_WRITE | BLK_PERM_RESIZE : 0),
                      BLK_PERM_ALL, &err);
        if (!blk || !blk_insert_bs(blk, bs, &err)) {
            abort();
        }
        bdrv_unref(bs);
        exercise(blk, flags, ld32(data + 1) ^ ld32(data + 5));
        blk_unref(blk);
    }
    close(fd);
    return 0;
}
