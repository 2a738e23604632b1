/*
 * BlockBackend: what a device will rely on.  The werror/rerror table,
 * asynchronous requests completing in the main loop, several threads
 * writing one qcow2 image at once (the per-image lock), the write cache
 * modes (writethrough makes each write visible to another reader at
 * once, writeback only after a flush), cache.direct with unaligned
 * requests, and image locks between two users in one process.
 */
#include <errno.h>
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

#define DISK_PERM (BLK_PERM_CONSISTENT_READ | BLK_PERM_WRITE)
#define DISK_SHARED (BLK_PERM_ALL & ~BLK_PERM_WRITE)

static char *tmpdir;

static int sh(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int sh(const char *fmt, ...)
{
    va_list ap;
    char *cmd;
    int status;

    va_start(ap, fmt);
    cmd = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_assert(g_spawn_command_line_sync(cmd, NULL, NULL, &status, NULL));
    g_free(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static BlockBackend *open_disk(const char *opts, unsigned perm,
                               unsigned shared, Error **errp)
{
    JsonObject *o = keyval_parse_tree(opts, errp);
    BlockdevOptions bo = { 0 };
    BlockDriverState *bs = NULL;
    BlockBackend *blk = NULL;

    g_assert(o);
    g_assert(qapi_visit_struct_keyval(&qapi_desc_BlockdevOptions, o, &bo,
                                      errp));
    bs = bdrv_open(&bo, errp);
    qapi_struct_free(&qapi_desc_BlockdevOptions, &bo);
    json_object_unref(o);
    if (!bs) {
        return NULL;
    }
    blk = blk_new(NULL, perm, shared, errp);
    if (!blk_insert_bs(blk, bs, errp)) {
        blk_unref(blk);
        blk = NULL;
    }
    bdrv_unref(bs);
    return blk;
}

static char *new_qcow2(const char *name, const char *size)
{
    char *path = g_build_filename(tmpdir, name, NULL);

    g_assert_cmpint(sh("qemu-img create -q -f qcow2 %s %s", path, size), ==,
                    0);
    return path;
}

static char *qcow2_opts(const char *path, const char *extra)
{
    return g_strdup_printf("driver=qcow2,node-name=disk%s,file.driver=file,"
                           "file.filename=%s", extra, path);
}

/* The error policies ------------------------------------------------------- */

static const struct {
    BlockdevOnError policy;
    int error;
    BlockErrorAction action;
} error_cases[] = {
    { BLOCKDEV_ON_ERROR_REPORT, EIO, BLOCK_ERROR_ACTION_REPORT },
    { BLOCKDEV_ON_ERROR_REPORT, ENOSPC, BLOCK_ERROR_ACTION_REPORT },
    { BLOCKDEV_ON_ERROR_IGNORE, EIO, BLOCK_ERROR_ACTION_IGNORE },
    { BLOCKDEV_ON_ERROR_ENOSPC, EIO, BLOCK_ERROR_ACTION_REPORT },
    { BLOCKDEV_ON_ERROR_ENOSPC, ENOSPC, BLOCK_ERROR_ACTION_STOP },
    { BLOCKDEV_ON_ERROR_STOP, EIO, BLOCK_ERROR_ACTION_STOP },
    { BLOCKDEV_ON_ERROR_STOP, ENOSPC, BLOCK_ERROR_ACTION_STOP },
    { BLOCKDEV_ON_ERROR_AUTO, EIO, BLOCK_ERROR_ACTION_REPORT },
};

static void test_error_policy(void)
{
    Error *err = NULL;
    BlockBackend *blk = blk_new("policy", 0, BLK_PERM_ALL, &err);
    guint i;

    /* QEMU's defaults: stop on a full disk when writing, report reads */
    g_assert_cmpint(blk_get_on_error(blk, false), ==,
                    BLOCKDEV_ON_ERROR_ENOSPC);
    g_assert_cmpint(blk_get_on_error(blk, true), ==,
                    BLOCKDEV_ON_ERROR_REPORT);
    for (i = 0; i < G_N_ELEMENTS(error_cases); i++) {
        blk_set_on_error(blk, BLOCKDEV_ON_ERROR_REPORT, error_cases[i].policy);
        g_assert_cmpint(blk_get_error_action(blk, false,
                                             -error_cases[i].error),
                        ==, error_cases[i].action);
    }
    g_assert(blk_by_name("policy") == blk);
    blk_unref(blk);
    g_assert(!blk_by_name("policy"));
}

/* Asynchronous requests ---------------------------------------------------- */

typedef struct AioState {
    int done, failed;
    GThread *main_thread;
    bool wrong_thread;
} AioState;

static void aio_cb(void *opaque, int ret)
{
    AioState *st = opaque;

    st->done++;
    st->failed += ret < 0;
    st->wrong_thread |= g_thread_self() != st->main_thread;
}

static void test_aio(void)
{
    char *img = new_qcow2("aio.qcow2", "64M"), *opts = qcow2_opts(img, "");
    Error *err = NULL;
    BlockBackend *blk = open_disk(opts, DISK_PERM, DISK_SHARED, &err);
    AioState st = { .main_thread = g_thread_self() };
    QEMUIOVector qiov[64];
    guint8 *bufs[64], *check = g_malloc(100000);
    int i;

    g_assert(blk);
    for (i = 0; i < 64; i++) {
        bufs[i] = g_malloc(100000);
        memset(bufs[i], i + 1, 100000);
        qemu_iovec_init_buf(&qiov[i], bufs[i], 100000);
        blk_aio_pwritev(blk, (int64_t)i * 1000003, &qiov[i], 0, aio_cb, &st);
    }
    blk_aio_flush(blk, aio_cb, &st);
    /* Completions wait for this thread's main loop */
    blk_drain(blk);
    g_assert_cmpint(st.done, ==, 65);
    g_assert_cmpint(st.failed, ==, 0);
    g_assert(!st.wrong_thread);
    for (i = 0; i < 64; i++) {
        g_assert_cmpint(blk_pread(blk, (int64_t)i * 1000003, 100000, check),
                        ==, 0);
        g_assert(memcmp(check, bufs[i], 100000) == 0);
        g_free(bufs[i]);
    }
    /* A request beyond the end fails, through the same path */
    qemu_iovec_init_buf(&qiov[0], check, 512);
    blk_aio_preadv(blk, 64 << 20, &qiov[0], 0, aio_cb, &st);
    blk_drain(blk);
    g_assert_cmpint(st.failed, ==, 1);
    blk_unref(blk);
    g_assert_cmpint(sh("qemu-img check -q %s", img), ==, 0);
    g_free(check);
    g_free(opts);
    g_free(img);
}

/* Threads -------------------------------------------------------------- */

#define THREADS 4
#define REGION (4 << 20)

typedef struct Writer {
    BlockBackend *blk;
    int index;
    guint8 *mirror;     /* this thread's region */
} Writer;

static gpointer writer_thread(gpointer opaque)
{
    Writer *w = opaque;
    GRand *r = g_rand_new_with_seed(w->index);
    guint8 *buf = g_malloc(200000);
    int i;

    for (i = 0; i < 150; i++) {
        int64_t len = g_rand_int_range(r, 1, 200000);
        int64_t off = g_rand_int_range(r, 0, REGION - len);

        memset(buf, g_rand_int(r), len);
        g_assert_cmpint(blk_pwrite(w->blk, (int64_t)w->index * REGION + off,
                                   len, buf), ==, 0);
        memcpy(w->mirror + off, buf, len);
        if (i % 16 == 0) {
            g_assert_cmpint(blk_co_flush(w->blk), ==, 0);
        }
    }
    g_free(buf);
    g_rand_free(r);
    return NULL;
}

static void test_threads(void)
{
    char *img = new_qcow2("threads.qcow2", "16M");
    char *opts = qcow2_opts(img, "");
    Error *err = NULL;
    BlockBackend *blk = open_disk(opts, DISK_PERM, DISK_SHARED, &err);
    Writer w[THREADS];
    GThread *t[THREADS];
    guint8 *buf = g_malloc(REGION);
    int i;

    g_assert(blk);
    for (i = 0; i < THREADS; i++) {
        w[i] = (Writer){ blk, i, g_malloc0(REGION) };
        t[i] = g_thread_new("writer", writer_thread, &w[i]);
    }
    for (i = 0; i < THREADS; i++) {
        g_thread_join(t[i]);
    }
    for (i = 0; i < THREADS; i++) {
        g_assert_cmpint(blk_pread(blk, (int64_t)i * REGION, REGION, buf), ==,
                        0);
        g_assert(memcmp(buf, w[i].mirror, REGION) == 0);
        g_free(w[i].mirror);
    }
    blk_unref(blk);
    g_assert_cmpint(sh("qemu-img check -q %s", img), ==, 0);
    g_free(buf);
    g_free(opts);
    g_free(img);
}

/* Write cache modes ------------------------------------------------------- */

/* What another process reads at offset 0 of the image right now */
static int other_reader_sees(const char *img, guint8 want)
{
    char *raw = g_build_filename(tmpdir, "seen.raw", NULL), *data = NULL;
    gsize len;
    int seen;

    g_assert_cmpint(sh("qemu-img convert -U -O raw %s %s", img, raw), ==, 0);
    g_assert(g_file_get_contents(raw, &data, &len, NULL));
    seen = data[0] == (char)want;
    g_free(data);
    g_unlink(raw);
    g_free(raw);
    return seen;
}

static void test_write_cache(void)
{
    char *img = new_qcow2("wc.qcow2", "1M"), *opts = qcow2_opts(img, "");
    Error *err = NULL;
    BlockBackend *blk = open_disk(opts, DISK_PERM, DISK_SHARED, &err);
    guint8 buf[4096];

    /* writeback: the new cluster's L2 entry waits for a flush */
    memset(buf, 0x11, sizeof(buf));
    g_assert_cmpint(blk_pwrite(blk, 0, sizeof(buf), buf), ==, 0);
    g_assert(!other_reader_sees(img, 0x11));
    g_assert_cmpint(blk_co_flush(blk), ==, 0);
    g_assert(other_reader_sees(img, 0x11));
    /* writethrough: each write is stable when it completes */
    blk_set_enable_write_cache(blk, false);
    memset(buf, 0x22, sizeof(buf));
    g_assert_cmpint(blk_pwrite(blk, 0, sizeof(buf), buf), ==, 0);
    g_assert(other_reader_sees(img, 0x22));
    memset(buf, 0x33, sizeof(buf));
    g_assert_cmpint(blk_pwrite(blk, 512 * 1024, sizeof(buf), buf), ==, 0);
    g_assert_cmpint(sh("qemu-img check -U -q %s", img), ==, 0);
    blk_unref(blk);
    g_free(opts);
    g_free(img);
}

/* cache.direct=on: O_DIRECT, unaligned requests through bounce buffers */
static void test_direct(void)
{
    char *img = g_build_filename(tmpdir, "direct.raw", NULL), *opts;
    Error *err = NULL;
    BlockBackend *blk;
    guint8 *mirror = g_malloc0(1 << 20), *buf = g_malloc(70000), *data;
    GRand *r = g_rand_new_with_seed(1);
    int i;

    g_assert(g_file_set_contents(img, (char *)mirror, 1 << 20, NULL));
    opts = g_strdup_printf("driver=raw,node-name=d,cache.direct=on,"
                           "file.driver=file,file.filename=%s", img);
    blk = open_disk(opts, DISK_PERM, DISK_SHARED, &err);
    g_assert(blk);
    for (i = 0; i < 200; i++) {
        int64_t len = g_rand_int_range(r, 1, 70000);
        int64_t off = g_rand_int_range(r, 0, (1 << 20) - len);

        memset(buf, i, len);
        g_assert_cmpint(blk_pwrite(blk, off, len, buf + (i & 7)), ==, 0);
        memcpy(mirror + off, buf + (i & 7), len);
    }
    g_assert_cmpint(blk_pread(blk, 3, 70000 - 3, buf), ==, 0);
    g_assert(memcmp(buf, mirror + 3, 70000 - 3) == 0);
    blk_unref(blk);
    g_assert(g_file_get_contents(img, (char **)&data, NULL, NULL));
    g_assert(memcmp(data, mirror, 1 << 20) == 0);
    g_free(data);
    g_rand_free(r);
    g_free(buf);
    g_free(mirror);
    g_free(opts);
    g_free(img);
}

/* Two users of one image in one process: the second writer is refused */
static void test_locks(void)
{
    char *img = new_qcow2("lock.qcow2", "1M"), *opts = qcow2_opts(img, "");
    char *opts2 = g_strdup_printf("driver=qcow2,node-name=other,"
                                  "read-only=on,file.driver=file,"
                                  "file.filename=%s", img);
    Error *err = NULL;
    BlockBackend *a = open_disk(opts, DISK_PERM, DISK_SHARED, &err), *b;

    g_assert(a);
    b = open_disk(opts2, BLK_PERM_CONSISTENT_READ, DISK_SHARED, &err);
    g_assert(!b);
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "Failed to get shared \"write\" lock");
    error_free(err);
    err = NULL;
    blk_unref(a);
    b = open_disk(opts2, BLK_PERM_CONSISTENT_READ, DISK_SHARED, &err);
    g_assert(b);
    blk_unref(b);
    g_free(opts);
    g_free(opts2);
    g_free(img);
}

int main(int argc, char **argv)
{
    int ret;

    g_test_init(&argc, &argv, NULL);
    tmpdir = g_dir_make_tmp("test-block-backend-XXXXXX", NULL);
    g_test_add_func("/block/backend/error-policy", test_error_policy);
    g_test_add_func("/block/backend/aio", test_aio);
    g_test_add_func("/block/backend/threads", test_threads);
    g_test_add_func("/block/backend/write-cache", test_write_cache);
    g_test_add_func("/block/backend/direct", test_direct);
    g_test_add_func("/block/backend/locks", test_locks);
    ret = g_test_run();
    sh("rm -rf %s", tmpdir);
    g_free(tmpdir);
    return ret;
}
