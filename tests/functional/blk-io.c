/*
 * blk-io: drives the block layer the way a device will, for the
 * functional tests and benchmarks.  OPTS are -blockdev keyval options.
 *
 *   blk-io writer OPTS LOG SEED    random writes until killed
 *   blk-io dump OPTS OUT           the disk's bytes, as a raw file
 *   blk-io bench OPTS MIB BS       sequential write, flush, read: MB/s
 *   blk-io io OPTS CMD...          requests, one line of result each
 *
 * writer opens the image read-write (as a disk device: write permission,
 * the image locks taken), prints "ready" and then, forever: appends
 * "W id offset length" (or "Z" for a write of zeroes) to LOG, does the
 * write, and every few writes flushes and appends "F" once the flush has
 * returned.  The data of write id is sha256(decimal id) repeated from the
 * write's first byte.  Everything logged before an "F" is on stable
 * storage; what follows the last "F" may or may not have landed
 * (tests/functional/test_block_crash.py checks exactly that).
 *
 * io runs each CMD ("read OFF LEN", "write OFF LEN", "zero OFF LEN",
 * "discard OFF LEN", "flush") in turn and prints "NAME ok" or, as
 * qemu-io does, "NAME failed: STRERROR"; a read that succeeds adds what
 * its buffer, filled with 0xab before, holds after: "ab", "00" or
 * "mixed" (test_block_vs_qemu72.py compares it with qemu-io's).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>

#include "block/block.h"
#include "qapi/qapi-visit.h"
#include "qapi-commands.h"
#include "qemu/keyval-tree.h"
#include "sysemu/block-backend.h"

static BlockBackend *open_disk(const char *opts, bool writable)
{
    Error *err = NULL;
    JsonObject *o = keyval_parse_tree(opts, &err);
    BlockdevOptions bo = { 0 };
    BlockDriverState *bs = NULL;
    BlockBackend *blk;
    unsigned perm = BLK_PERM_CONSISTENT_READ |
                    (writable ? BLK_PERM_WRITE : 0);

    if (o && qapi_visit_struct_keyval(&qapi_desc_BlockdevOptions, o, &bo,
                                      &err)) {
        bs = bdrv_open(&bo, &err);
    }
    qapi_struct_free(&qapi_desc_BlockdevOptions, &bo);
    if (o) {
        json_object_unref(o);
    }
    blk = bs ? blk_new(NULL, perm, BLK_PERM_ALL & ~BLK_PERM_WRITE, &err)
             : NULL;
    if (!blk || !blk_insert_bs(blk, bs, &err)) {
        error_report_err(err);
        exit(1);
    }
    bdrv_unref(bs);
    return blk;
}

static void fill_pattern(uint8_t *buf, size_t len, uint64_t id)
{
    char s[32];
    guint8 digest[32];
    gsize dlen = sizeof(digest);
    GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
    size_t i;

    snprintf(s, sizeof(s), "%" PRIu64, id);
    g_checksum_update(c, (const guchar *)s, strlen(s));
    g_checksum_get_digest(c, digest, &dlen);
    g_checksum_free(c);
    for (i = 0; i < len; i++) {
        buf[i] = digest[i % 32];
    }
}

static void log_line(int fd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* One write(2) per record: a kill leaves whole lines or a torn last one */
static void log_line(int fd, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (write(fd, s, strlen(s)) != (ssize_t)strlen(s)) {
        abort();
    }
    g_free(s);
}

static int writer(const char *opts, const char *log, uint32_t seed)
{
    BlockBackend *blk = open_disk(opts, true);
    int64_t size = blk_getlength(blk);
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    GRand *r = g_rand_new_with_seed(seed);
    uint8_t *buf = g_malloc(1 << 20);
    uint64_t id = (uint64_t)seed << 32;
    int ret;

    if (fd < 0 || size <= 0) {
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        int n = g_rand_int_range(r, 1, 9), i;

        for (i = 0; i < n; i++) {
            /* Mostly small, sometimes up to 1 MiB; aligned or not */
            int64_t len = g_rand_int_range(r, 0, 4) ? g_rand_int_range(r, 1,
                                                                       70000)
                                                     : g_rand_int_range(r, 1,
                                                                        1 << 20);
            int64_t off = g_rand_int_range(r, 0, size);
            bool zero = !g_rand_int_range(r, 0, 8);

            if (g_rand_boolean(r)) {
                off &= ~4095LL;
                len = MAX(len & ~4095LL, 4096);
            }
            len = MIN(len, size - off);
            id++;
            log_line(fd, "%c %" PRIu64 " %" PRId64 " %" PRId64 "\n",
                     zero ? 'Z' : 'W', id, off, len);
            if (zero) {
                ret = blk_co_pwrite_zeroes(blk, off, len, BDRV_REQ_MAY_UNMAP);
            } else {
                fill_pattern(buf, len, id);
                ret = blk_pwrite(blk, off, len, buf);
            }
            if (ret < 0) {
                fprintf(stderr, "write: %s\n", g_strerror(-ret));
                return 1;
            }
        }
        ret = blk_co_flush(blk);
        if (ret < 0) {
            fprintf(stderr, "flush: %s\n", g_strerror(-ret));
            return 1;
        }
        log_line(fd, "F\n");
    }
}

static int dump(const char *opts, const char *out)
{
    BlockBackend *blk = open_disk(opts, false);
    int64_t size = blk_getlength(blk), off;
    uint8_t *buf = g_malloc(1 << 20);
    FILE *f = fopen(out, "wb");

    int ret = f ? 0 : 1;

    for (off = 0; !ret && off < size; off += 1 << 20) {
        int64_t n = MIN(size - off, 1 << 20);

        if (blk_pread(blk, off, n, buf) < 0 || fwrite(buf, 1, n, f) != n) {
            ret = 1;
        }
    }
    blk_unref(blk);
    g_free(buf);
    if (f && fclose(f)) {
        ret = 1;
    }
    return ret;
}

static int bench(const char *opts, int64_t mib, int64_t bs)
{
    BlockBackend *blk = open_disk(opts, true);
    int64_t total = mib << 20, off;
    uint8_t *buf = g_malloc(bs);
    gint64 t0, t1, t2;

    memset(buf, 0x5a, bs);
    t0 = g_get_monotonic_time();
    for (off = 0; off < total; off += bs) {
        if (blk_pwrite(blk, off, bs, buf) < 0) {
            return 1;
        }
    }
    if (blk_co_flush(blk) < 0) {
        return 1;
    }
    t1 = g_get_monotonic_time();
    for (off = 0; off < total; off += bs) {
        if (blk_pread(blk, off, bs, buf) < 0) {
            return 1;
        }
    }
    t2 = g_get_monotonic_time();
    printf("write %.1f MB/s read %.1f MB/s\n",
           (double)total / (t1 - t0), (double)total / (t2 - t1));
    blk_unref(blk);
    g_free(buf);
    return 0;
}

static void io_result(const char *name, int ret, const uint8_t *buf,
                      int64_t len)
{
    int64_t i;

    if (ret < 0) {
        printf("%s failed: %s\n", name, g_strerror(-ret));
        return;
    }
    printf("%s ok", name);
    if (buf) {
        for (i = 1; i < len && buf[i] == buf[0]; i++) {
        }
        if (i < len || (buf[0] != 0xab && buf[0] != 0)) {
            printf(" mixed");
        } else {
            printf(" %02x", buf[0]);
        }
    }
    printf("\n");
}

static int io(const char *opts, char **cmds, int n)
{
    BlockBackend *blk = open_disk(opts, true);
    int i;

    for (i = 0; i < n; i++) {
        char name[16] = "";
        int64_t off = 0, len = 0;
        uint8_t *buf;
        int ret;

        if (sscanf(cmds[i], "%15s %" SCNd64 " %" SCNd64, name, &off,
                   &len) < 1 || len < 0 || len > (1 << 20)) {
            fprintf(stderr, "bad command '%s'\n", cmds[i]);
            return 2;
        }
        buf = g_malloc(len ? len : 1);
        memset(buf, 0xab, len);
        if (!strcmp(name, "read")) {
            ret = blk_pread(blk, off, len, buf);
            io_result(name, ret, ret < 0 ? NULL : buf, len);
        } else if (!strcmp(name, "write")) {
            io_result(name, blk_pwrite(blk, off, len, buf), NULL, 0);
        } else if (!strcmp(name, "zero")) {
            io_result("write", blk_co_pwrite_zeroes(blk, off, len, 0), NULL,
                      0);
        } else if (!strcmp(name, "discard")) {
            io_result(name, blk_co_pdiscard(blk, off, len), NULL, 0);
        } else if (!strcmp(name, "flush")) {
            io_result(name, blk_co_flush(blk), NULL, 0);
        } else {
            fprintf(stderr, "bad command '%s'\n", cmds[i]);
            return 2;
        }
        g_free(buf);
    }
    blk_unref(blk);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "writer")) {
        return writer(argv[2], argv[3], strtoul(argv[4], NULL, 0));
    }
    if (argc == 4 && !strcmp(argv[1], "dump")) {
        return dump(argv[2], argv[3]);
    }
    if (argc == 5 && !strcmp(argv[1], "bench")) {
        return bench(argv[2], strtoll(argv[3], NULL, 0),
                     strtoll(argv[4], NULL, 0));
    }
    if (argc >= 3 && !strcmp(argv[1], "io")) {
        return io(argv[2], argv + 3, argc - 3);
    }
    fprintf(stderr, "usage: blk-io writer OPTS LOG SEED | dump OPTS OUT | "
            "bench OPTS MIB BS | io OPTS CMD...\n");
    return 2;
}
