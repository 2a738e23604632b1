/*
 * The qcow2 and raw drivers against Debian's qemu-img: images qemu-img
 * makes (v2 and v3, cluster sizes from 512 bytes to 2 MiB, refcount widths
 * from 1 to 64 bits, compressed clusters, backing files) must read back as
 * the raw data they were converted from; what this code writes (random
 * requests, allocating and partial-cluster writes, zeroes, discards, a
 * resize) must pass `qemu-img check` and read back, through qemu-img
 * convert, as what was written.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "block/block.h"
#include "qapi/qapi-visit.h"
#include "qapi-commands.h"
#include "qemu/keyval-tree.h"
#include "sysemu/block-backend.h"

static char *tmpdir;

static char *tmp_path(const char *name)
{
    return g_build_filename(tmpdir, name, NULL);
}

/* Runs a command; its exit status, stdout in *out if asked */
static int run(char **out, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static int run(char **out, const char *fmt, ...)
{
    va_list ap;
    char *cmd, *sout = NULL, *serr = NULL;
    int status = -1;
    GError *err = NULL;

    va_start(ap, fmt);
    cmd = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (!g_spawn_command_line_sync(cmd, &sout, &serr, &status, &err)) {
        g_error("%s: %s", cmd, err->message);
    }
    if (status && g_test_verbose()) {
        g_printerr("%s: %s%s\n", cmd, sout, serr);
    }
    if (out) {
        *out = sout;
    } else {
        g_free(sout);
    }
    g_free(serr);
    g_free(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A raw file of size bytes: random runs, zero runs and holes */
static guint8 *make_pattern(const char *path, size_t size, guint32 seed)
{
    GRand *r = g_rand_new_with_seed(seed);
    guint8 *buf = g_malloc0(size);
    size_t off = 0;

    while (off < size) {
        size_t n = MIN(size - off, (size_t)g_rand_int_range(r, 1, 200000));

        if (g_rand_int_range(r, 0, 3)) {
            for (size_t i = 0; i < n; i++) {
                buf[off + i] = g_rand_int(r);
            }
        }
        off += n;
    }
    g_assert(g_file_set_contents(path, (char *)buf, size, NULL));
    g_rand_free(r);
    return buf;
}

static BlockBackend *open_image(const char *opts, bool writable)
{
    Error *err = NULL;
    JsonObject *o = keyval_parse_tree(opts, &err);
    BlockdevOptions bo = { 0 };
    BlockDriverState *bs;
    BlockBackend *blk;

    g_assert(o);
    g_assert(qapi_visit_struct_keyval(&qapi_desc_BlockdevOptions, o, &bo,
                                      &err));
    bs = bdrv_open(&bo, &err);
    if (!bs) {
        g_error("open %s: %s", opts, error_get_pretty(err));
    }
    qapi_struct_free(&qapi_desc_BlockdevOptions, &bo);
    json_object_unref(o);
    blk = blk_new(NULL, BLK_PERM_CONSISTENT_READ |
                  (writable ? BLK_PERM_WRITE | BLK_PERM_RESIZE : 0),
                  BLK_PERM_CONSISTENT_READ | BLK_PERM_WRITE_UNCHANGED, &err);
    g_assert(blk);
    if (!blk_insert_bs(blk, bs, &err)) {
        g_error("attach %s: %s", opts, error_get_pretty(err));
    }
    bdrv_unref(bs);
    return blk;
}

static char *qcow2_opts(const char *path)
{
    return g_strdup_printf("driver=qcow2,node-name=top,file.driver=file,"
                           "file.filename=%s", path);
}

/* What qemu-img reads from an image, as a raw file compared with want */
static void assert_image_is(const char *img, const guint8 *want, size_t size)
{
    char *raw = tmp_path("check.raw"), *data;
    gsize len;

    g_assert_cmpint(run(NULL, "qemu-img convert -O raw %s %s", img, raw), ==,
                    0);
    g_assert(g_file_get_contents(raw, &data, &len, NULL));
    g_assert_cmpuint(len, ==, size);
    g_assert(memcmp(data, want, size) == 0);
    g_free(data);
    g_unlink(raw);
    g_free(raw);
}

static void assert_check_clean(const char *img)
{
    char *out = NULL;
    int st = run(&out, "qemu-img check %s", img);

    if (st) {
        g_printerr("%s", out);
    }
    g_assert_cmpint(st, ==, 0);
    g_free(out);
}

/* Formats ------------------------------------------------------------------- */

typedef struct ImageCase {
    const char *name;
    const char *create;     /* qemu-img -o */
    size_t size;
    bool compress;
} ImageCase;

static const ImageCase cases[] = {
    { "v2-64k", "compat=0.10,cluster_size=65536", 8 << 20, false },
    { "v3-64k", "compat=1.1,cluster_size=65536", 8 << 20, false },
    { "v2-512", "compat=0.10,cluster_size=512", 2 << 20, false },
    { "v3-512-rc1", "compat=1.1,cluster_size=512,refcount_bits=1",
      2 << 20, false },
    { "v3-4k-rc8", "compat=1.1,cluster_size=4096,refcount_bits=8",
      4 << 20, false },
    { "v3-2M-rc64", "compat=1.1,cluster_size=2097152,refcount_bits=64",
      12 << 20, false },
    { "v3-64k-compressed", "compat=1.1,cluster_size=65536", 8 << 20, true },
    { "v2-4k-compressed", "compat=0.10,cluster_size=4096", 4 << 20, true },
};

/* Random requests through this code, mirrored in memory */
static void random_writes(BlockBackend *blk, guint8 *mirror, size_t size,
                          guint32 seed, int n)
{
    GRand *r = g_rand_new_with_seed(seed);
    int i;

    for (i = 0; i < n; i++) {
        size_t len = g_rand_int_range(r, 1, 300000);
        size_t off = g_rand_int_range(r, 0, size - 1);
        int kind = g_rand_int_range(r, 0, 10);
        guint8 *buf;

        len = MIN(len, size - off);
        if (kind == 0) {
            /* sector-aligned zeroes, through the zero-write path */
            off &= ~511UL;
            len = MAX(len & ~511UL, 512);
            len = MIN(len, size - off);
            g_assert_cmpint(blk_co_pwrite_zeroes(blk, off, len,
                                                 BDRV_REQ_MAY_UNMAP), ==, 0);
            memset(mirror + off, 0, len);
            continue;
        }
        buf = g_malloc(len);
        for (size_t j = 0; j < len; j++) {
            buf[j] = g_rand_int(r);
        }
        g_assert_cmpint(blk_pwrite(blk, off, len, buf), ==, 0);
        memcpy(mirror + off, buf, len);
        g_free(buf);
        if (kind == 1) {
            g_assert_cmpint(blk_co_flush(blk), ==, 0);
        }
    }
    g_rand_free(r);
}

static void test_image_case(gconstpointer data)
{
    const ImageCase *c = data;
    char *raw = tmp_path("src.raw"), *img = tmp_path("t.qcow2");
    char *opts = qcow2_opts(img);
    guint8 *pattern = make_pattern(raw, c->size, 42), *buf;
    BlockBackend *blk;

    g_assert_cmpint(run(NULL, "qemu-img convert %s -f raw -O qcow2 -o %s "
                        "%s %s", c->compress ? "-c" : "", c->create, raw,
                        img), ==, 0);
    /* Reads: what qemu-img wrote */
    blk = open_image(opts, true);
    g_assert_cmpint(blk_getlength(blk), ==, c->size);
    buf = g_malloc(c->size);
    g_assert_cmpint(blk_pread(blk, 0, c->size, buf), ==, 0);
    g_assert(memcmp(buf, pattern, c->size) == 0);
    /* Writes: what qemu-img reads */
    random_writes(blk, pattern, c->size, 7, 60);
    g_assert_cmpint(blk_pread(blk, 0, c->size, buf), ==, 0);
    g_assert(memcmp(buf, pattern, c->size) == 0);
    blk_unref(blk);
    assert_check_clean(img);
    assert_image_is(img, pattern, c->size);
    g_free(buf);
    g_free(pattern);
    g_unlink(raw);
    g_unlink(img);
    g_free(raw);
    g_free(img);
    g_free(opts);
}

/* Backing files: reads fall through, partial writes copy the rest */
static void test_backing(void)
{
    char *raw = tmp_path("base.raw"), *base = tmp_path("base.qcow2");
    char *top = tmp_path("top.qcow2"), *opts = qcow2_opts(top);
    size_t size = 6 << 20;
    guint8 *pattern = make_pattern(raw, size, 5), *buf = g_malloc(size);
    BlockBackend *blk;

    g_assert_cmpint(run(NULL, "qemu-img convert -f raw -O qcow2 -o "
                        "cluster_size=4096 %s %s", raw, base), ==, 0);
    /* The overlay is bigger than its backing file: zeroes beyond */
    g_assert_cmpint(run(NULL, "qemu-img create -f qcow2 -o cluster_size=65536"
                        " -b base.qcow2 -F qcow2 %s 8M", top), ==, 0);
    pattern = g_realloc(pattern, 8 << 20);
    memset(pattern + size, 0, (8 << 20) - size);
    size = 8 << 20;
    buf = g_realloc(buf, size);
    blk = open_image(opts, true);
    g_assert_cmpstr(bdrv_get_format_name(bdrv_backing_bs(blk_bs(blk))), ==,
                    "qcow2");
    g_assert_cmpint(blk_pread(blk, 0, size, buf), ==, 0);
    g_assert(memcmp(buf, pattern, size) == 0);
    random_writes(blk, pattern, size, 9, 40);
    blk_unref(blk);
    assert_check_clean(top);
    assert_image_is(top, pattern, size);
    g_free(buf);
    g_free(pattern);
    g_free(opts);
    g_free(raw);
    g_free(base);
    g_free(top);
}

/*
 * Growth: 512-byte clusters with 64-bit refcounts (a refcount block covers
 * 64 clusters, a table cluster 64 blocks) make this code add refcount
 * blocks and move the refcount table several times; block_resize grows
 * the L1 table.
 */
static void test_growth(void)
{
    char *img = tmp_path("grow.qcow2"), *opts = qcow2_opts(img);
    size_t size = 16 << 20, grown = 64 << 20;
    guint8 *mirror = g_malloc0(grown), *buf = g_malloc(grown);
    BlockBackend *blk;
    Error *err = NULL;
    GRand *r = g_rand_new_with_seed(3);

    g_assert_cmpint(run(NULL, "qemu-img create -f qcow2 -o cluster_size=512,"
                        "refcount_bits=64 %s %zu", img, size), ==, 0);
    blk = open_image(opts, true);
    for (size_t off = 0; off < size; off += 65536 + 512) {
        size_t n = MIN(4096, size - off);

        for (size_t j = 0; j < n; j++) {
            mirror[off + j] = g_rand_int(r);
        }
        g_assert_cmpint(blk_pwrite(blk, off, n, mirror + off), ==, 0);
    }
    g_assert(blk_truncate(blk, grown, &err));
    g_assert_cmpint(blk_getlength(blk), ==, grown);
    for (size_t j = 0; j < 100000; j++) {
        mirror[grown - 100000 + j] = g_rand_int(r);
    }
    g_assert_cmpint(blk_pwrite(blk, grown - 100000, 100000,
                               mirror + grown - 100000), ==, 0);
    g_assert(!blk_truncate(blk, size, &err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "qcow2 doesn't support shrinking images yet");
    error_free(err);
    g_assert_cmpint(blk_pread(blk, 0, grown, buf), ==, 0);
    g_assert(memcmp(buf, mirror, grown) == 0);
    blk_unref(blk);
    assert_check_clean(img);
    assert_image_is(img, mirror, grown);
    g_rand_free(r);
    g_free(mirror);
    g_free(buf);
    g_free(opts);
    g_free(img);
}

/*
 * Refcounts past the end of the file: what a crash leaves when refcount
 * updates reached the disk and the writes that would have extended the
 * file did not (seen by functional/block-crash).  The clusters are leaks,
 * and the next writer must take them, not fail with EIO; afterwards
 * qemu-img check finds the image clean and reads what was written.
 */
static guint64 be64(const guint8 *p)
{
    guint64 v;

    memcpy(&v, p, 8);
    return GUINT64_FROM_BE(v);
}

static void test_leak_past_eof(void)
{
    char *img = tmp_path("leak.qcow2"), *opts = qcow2_opts(img);
    guint8 data[4096], hdr[64], rb[512];
    guint64 rt_off, rb_off, eof;
    BlockBackend *blk;
    int fd;

    memset(data, 0x5a, sizeof(data));
    g_assert_cmpint(run(NULL, "qemu-img create -q -f qcow2 -o cluster_size=512"
                        " %s 1M", img), ==, 0);
    blk = open_image(opts, true);
    g_assert_cmpint(blk_pwrite(blk, 0, sizeof(data), data), ==, 0);
    blk_unref(blk);
    /* Refcount 1 for the 8 clusters past the end (all in the first block) */
    fd = open(img, O_RDWR);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(pread(fd, hdr, sizeof(hdr), 0), ==, sizeof(hdr));
    rt_off = be64(hdr + 48);
    g_assert_cmpint(pread(fd, rb, 8, rt_off), ==, 8);
    rb_off = be64(rb);
    g_assert_cmpint(pread(fd, rb, sizeof(rb), rb_off), ==, sizeof(rb));
    eof = lseek(fd, 0, SEEK_END) / 512;
    g_assert_cmpuint(eof + 8, <=, 256);
    for (guint64 c = eof; c < eof + 8; c++) {
        rb[c * 2] = 0;
        rb[c * 2 + 1] = 1;
    }
    g_assert_cmpint(pwrite(fd, rb, sizeof(rb), rb_off), ==, sizeof(rb));
    close(fd);
    /* qemu-img check looks at refcounts up to the end of the file only */
    g_assert_cmpint(run(NULL, "qemu-img check -q %s", img), ==, 0);
    /* 16 new data clusters: the 8 leaked ones are reused */
    blk = open_image(opts, true);
    g_assert_cmpint(blk_pwrite(blk, 65536, sizeof(data), data), ==, 0);
    g_assert_cmpint(blk_pwrite(blk, 131072, sizeof(data), data), ==, 0);
    blk_unref(blk);
    assert_check_clean(img);
    blk = open_image(opts, false);
    for (guint64 off = 0; off < 196608; off += 65536) {
        guint8 back[4096];

        g_assert_cmpint(blk_pread(blk, off, sizeof(back), back), ==, 0);
        g_assert(memcmp(back, data, sizeof(back)) == 0);
    }
    blk_unref(blk);
    g_free(opts);
    g_free(img);
}

/*
 * A 4 TiB disk written anywhere: L2 tables all over the L1 table, refcount
 * blocks as the file grows; qemu-img reads each write back (qemu-img dd)
 */
static void test_large(void)
{
    char *img = tmp_path("large.qcow2"), *opts = qcow2_opts(img);
    char *out = tmp_path("dd.raw");
    const int64_t size = 4LL << 40;
    int64_t offs[40];
    guint8 buf[4096], *data;
    BlockBackend *blk;
    GRand *r = g_rand_new_with_seed(17);
    gsize len;
    int i;

    g_assert_cmpint(run(NULL, "qemu-img create -q -f qcow2 %s %" PRId64,
                        img, size), ==, 0);
    blk = open_image(opts, true);
    for (i = 0; i < 40; i++) {
        offs[i] = i == 39 ? size - 4096
                          : (int64_t)(g_rand_double(r) * (size >> 12)) << 12;
        memset(buf, i + 1, sizeof(buf));
        g_assert_cmpint(blk_pwrite(blk, offs[i], sizeof(buf), buf), ==, 0);
    }
    blk_unref(blk);
    assert_check_clean(img);
    for (i = 0; i < 40; i += 3) {
        /* qemu-img dd counts the skipped blocks in count= */
        g_assert_cmpint(run(NULL, "qemu-img dd -f qcow2 -O raw bs=4096 "
                            "skip=%" PRId64 " count=%" PRId64 " if=%s of=%s",
                            offs[i] >> 12, (offs[i] >> 12) + 1, img, out),
                        ==, 0);
        g_assert(g_file_get_contents(out, (char **)&data, &len, NULL));
        g_assert_cmpuint(len, ==, 4096);
        g_assert_cmpint(data[0], ==, i + 1);
        g_assert_cmpint(data[4095], ==, i + 1);
        g_free(data);
        g_unlink(out);
    }
    g_rand_free(r);
    g_free(out);
    g_free(opts);
    g_free(img);
}

/* Discard: clusters freed (and reused), reading zeroes */
static void test_discard(void)
{
    char *img = tmp_path("d.qcow2");
    char *opts = g_strdup_printf("driver=qcow2,node-name=top,discard=unmap,"
                                 "file.driver=file,file.filename=%s", img);
    size_t size = 4 << 20;
    guint8 *data = g_malloc(size), *buf = g_malloc(size);
    BlockBackend *blk;
    char *out = NULL;

    memset(data, 0xa5, size);
    g_assert_cmpint(run(NULL, "qemu-img create -f qcow2 %s %zu", img, size),
                    ==, 0);
    blk = open_image(opts, true);
    g_assert_cmpint(blk_pwrite(blk, 0, size, data), ==, 0);
    g_assert_cmpint(blk_co_pdiscard(blk, 65536, 2 << 20), ==, 0);
    memset(data + 65536, 0, 2 << 20);
    g_assert_cmpint(blk_pread(blk, 0, size, buf), ==, 0);
    g_assert(memcmp(buf, data, size) == 0);
    g_assert_cmpint(blk_co_flush(blk), ==, 0);
    /* The freed clusters are found again by the next allocation */
    g_assert_cmpint(blk_co_pwrite_zeroes(blk, 0, size, BDRV_REQ_MAY_UNMAP),
                    ==, 0);
    g_assert_cmpint(blk_pwrite(blk, 0, size, data), ==, 0);
    blk_unref(blk);
    assert_check_clean(img);
    assert_image_is(img, data, size);
    g_assert_cmpint(run(&out, "qemu-img info --output=json %s", img), ==, 0);
    /* 4 MiB of data, the metadata: no more than 6 MiB on the host */
    g_assert(strstr(out, "\"actual-size\""));
    g_free(out);
    g_free(data);
    g_free(buf);
    g_free(opts);
    g_free(img);
}

/* raw with offset and size: a window of the file */
static void test_raw_window(void)
{
    char *path = tmp_path("w.raw");
    char *opts = g_strdup_printf("driver=raw,node-name=w,offset=4096,"
                                 "size=8192,file.driver=file,"
                                 "file.filename=%s", path);
    guint8 *pattern = make_pattern(path, 65536, 11), buf[8192], *data;
    BlockBackend *blk = open_image(opts, true);
    gsize len;

    g_assert_cmpint(blk_getlength(blk), ==, 8192);
    g_assert_cmpint(blk_pread(blk, 0, 8192, buf), ==, 0);
    g_assert(memcmp(buf, pattern + 4096, 8192) == 0);
    memset(buf, 0x5a, sizeof(buf));
    g_assert_cmpint(blk_pwrite(blk, 0, 8192, buf), ==, 0);
    g_assert_cmpint(blk_pwrite(blk, 8000, 1000, buf), ==, -EIO);
    blk_unref(blk);
    g_assert(g_file_get_contents(path, (char **)&data, &len, NULL));
    g_assert(memcmp(data, pattern, 4096) == 0);
    g_assert(memcmp(data + 4096, buf, 8192) == 0);
    g_assert(memcmp(data + 12288, pattern + 12288, 65536 - 12288) == 0);
    g_free(data);
    g_free(pattern);
    g_free(opts);
    g_free(path);
}

int main(int argc, char **argv)
{
    guint i;
    int ret;

    g_test_init(&argc, &argv, NULL);
    tmpdir = g_dir_make_tmp("test-qcow2-XXXXXX", NULL);
    g_assert(tmpdir && chdir(tmpdir) == 0);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *name = g_strdup_printf("/block/qcow2/qemu-img/%s",
                                     cases[i].name);

        g_test_add_data_func(name, &cases[i], test_image_case);
        g_free(name);
    }
    g_test_add_func("/block/qcow2/backing", test_backing);
    g_test_add_func("/block/qcow2/growth", test_growth);
    g_test_add_func("/block/qcow2/large", test_large);
    g_test_add_func("/block/qcow2/discard", test_discard);
    g_test_add_func("/block/qcow2/leak-past-eof", test_leak_past_eof);
    g_test_add_func("/block/raw/window", test_raw_window);
    ret = g_test_run();
    run(NULL, "rm -rf %s", tmpdir);
    g_free(tmpdir);
    return ret;
}
