/*
 * What the block layer tells QMP: query-block, query-named-block-nodes and
 * query-blockstats, in QEMU 7.2's shapes (qapi/schema.json: BlockInfo,
 * BlockDeviceInfo, ImageInfo, BlockStats).  Throttling is not modelled:
 * its fields are 0, as for an unthrottled drive in QEMU.
 */
#include <string.h>

#include "block/block_int.h"
#include "monitor/qmp-commands.h"
#include "sysemu/block-backend.h"

/* What QEMU's queries show below a node: a filter's child, or backing */
static BlockDriverState *bdrv_filter_or_cow_bs(BlockDriverState *bs)
{
    if (bs->drv->is_filter) {
        return bdrv_file_bs(bs);
    }
    return bdrv_backing_bs(bs);
}

/*
 * QEMU's key order in json: filenames: its dictionary's, 512 buckets in
 * ascending order, a key's bucket given by the hash below (TDB's, which
 * QEMU's QDict uses).  Keys sharing a bucket keep the order they were
 * given in (observed: blkdebug's inject-error.N.event before .errno).
 */
unsigned bdrv_key_bucket(const char *key)
{
    size_t len = strlen(key), i;
    uint32_t v = 0x238F13AFu * (uint32_t)len;

    for (i = 0; i < len; i++) {
        v += (uint32_t)(unsigned char)key[i] << (i * 5 % 24);
    }
    return (1103515243u * v + 12345u) % 512;
}

char *bdrv_json_string(const char *s)
{
    JsonNode *n = json_node_init_string(json_node_alloc(), s);
    char *out = json_to_string(n, FALSE);

    json_node_unref(n);
    return out;
}

static bool has_strong_options(BlockDriverState *bs)
{
    GPtrArray *k = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
    bool strong;

    if (bs->drv->strong_options) {
        bs->drv->strong_options(bs, k, v);
    }
    strong = k->len > 0;
    g_ptr_array_free(k, TRUE);
    g_ptr_array_free(v, TRUE);
    return strong;
}

/* A node's options that matter, in QEMU's json: syntax */
static char *full_options(BlockDriverState *bs)
{
    GPtrArray *k = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
    GString *out = g_string_new("{");
    unsigned b;
    guint i;

    g_ptr_array_add(k, g_strdup("driver"));
    g_ptr_array_add(v, bdrv_json_string(bs->drv->format_name));
    if (bs->drv->is_protocol && !bs->drv->no_filename) {
        g_ptr_array_add(k, g_strdup("filename"));
        g_ptr_array_add(v, bdrv_json_string(bdrv_get_filename(bs)));
    }
    if (bs->drv->strong_options) {
        bs->drv->strong_options(bs, k, v);
    }
    if (bs->file) {
        g_ptr_array_add(k, g_strdup(bs->file->name));
        g_ptr_array_add(v, full_options(bs->file->bs));
    }
    if (bs->backing_overridden) {
        g_ptr_array_add(k, g_strdup("backing"));
        g_ptr_array_add(v, bs->backing ? full_options(bs->backing->bs)
                                       : g_strdup("null"));
    }
    for (b = 0; b < 512; b++) {
        for (i = 0; i < k->len; i++) {
            const char *key = g_ptr_array_index(k, i);

            if (bdrv_key_bucket(key) == b) {
                g_string_append_printf(out, "%s\"%s\": %s",
                                       out->len > 1 ? ", " : "", key,
                                       (char *)g_ptr_array_index(v, i));
            }
        }
    }
    g_string_append_c(out, '}');
    g_ptr_array_free(k, TRUE);
    g_ptr_array_free(v, TRUE);
    return g_string_free(out, FALSE);
}

/* A node QEMU opens by its filename alone (its .bdrv_file_open) */
static bool opens_as_protocol(BlockDriverState *bs)
{
    return bs->drv->is_protocol || bs->drv->is_filter;
}

static bool is_exact(const char *filename)
{
    return !g_str_has_prefix(filename, "json:");
}

/*
 * QEMU's rule: a driver's own exact filename if it has one; else a
 * format's file's, if that is a protocol node's exact filename and the
 * format has no strong options nor an overridden backing file; else
 * json:{the options}
 */
void bdrv_refresh_filename(BlockDriverState *bs)
{
    char *name = NULL, *opts;

    if (bs->drv->exact_filename) {
        name = bs->drv->exact_filename(bs);
    } else if (bs->drv->is_protocol) {
        return;
    } else if (!bs->backing_overridden && !has_strong_options(bs) &&
               opens_as_protocol(bs->file->bs) &&
               is_exact(bdrv_get_filename(bs->file->bs))) {
        name = g_strdup(bdrv_get_filename(bs->file->bs));
    }
    g_free(bs->filename);
    if (name) {
        bs->filename = name;
        return;
    }
    opts = full_options(bs);
    bs->filename = g_strconcat("json:", opts, NULL);
    g_free(opts);
}

/* QEMU shows a dirty-flag for nodes whose driver answers bdrv_get_info */
static bool has_image_info(BlockDriverState *bs)
{
    while (bs->drv->image_info_from_file && bs->file) {
        bs = bs->file->bs;
    }
    return !bs->drv->no_image_info;
}

static JsonObject *image_info(BlockDriverState *bs, bool flat)
{
    JsonObject *o = json_object_new();
    int64_t size = bdrv_getlength(bs);
    int64_t actual = bdrv_get_allocated_file_size(bs);

    json_object_set_string_member(o, "filename", bdrv_get_filename(bs));
    json_object_set_string_member(o, "format", bs->drv->format_name);
    if (has_image_info(bs)) {
        json_object_set_boolean_member(o, "dirty-flag", false);
    }
    if (actual >= 0) {
        json_object_set_int_member(o, "actual-size", actual);
    }
    json_object_set_int_member(o, "virtual-size", MAX(size, 0));
    if (bs->backing_file) {
        json_object_set_string_member(o, "backing-filename",
                                      bs->backing_file);
        json_object_set_string_member(o, "full-backing-filename",
                                      bs->full_backing_filename);
        if (bs->backing_format) {
            json_object_set_string_member(o, "backing-filename-format",
                                          bs->backing_format);
        }
    }
    if (bs->drv->image_info) {
        bs->drv->image_info(bs, o);
    }
    if (!flat && bdrv_filter_or_cow_bs(bs)) {
        json_object_set_object_member(
            o, "backing-image", image_info(bdrv_filter_or_cow_bs(bs), false));
    }
    return o;
}

JsonObject *bdrv_block_device_info(BlockDriverState *bs, bool flat)
{
    static const char *const zero_fields[] = {
        "bps", "bps_rd", "bps_wr", "iops", "iops_rd", "iops_wr",
        "write_threshold",
    };
    JsonObject *o = json_object_new(), *cache = json_object_new();
    BlockDriverState *b;
    int depth = 0;
    guint i;

    json_object_set_string_member(o, "file", bdrv_get_filename(bs));
    json_object_set_string_member(o, "node-name", bs->node_name);
    json_object_set_boolean_member(o, "ro", bs->read_only);
    json_object_set_string_member(o, "drv", bs->drv->format_name);
    if (bs->backing) {
        json_object_set_string_member(o, "backing_file",
                                      bdrv_get_filename(bs->backing->bs));
    }
    for (b = bdrv_filter_or_cow_bs(bs); !flat && b;
         b = bdrv_filter_or_cow_bs(b)) {
        depth++;
    }
    json_object_set_int_member(o, "backing_file_depth", depth);
    json_object_set_boolean_member(o, "encrypted", false);
    json_object_set_string_member(
        o, "detect_zeroes", BlockdevDetectZeroesOptions_str[bs->detect_zeroes]);
    for (i = 0; i < G_N_ELEMENTS(zero_fields); i++) {
        json_object_set_int_member(o, zero_fields[i], 0);
    }
    json_object_set_object_member(o, "image", image_info(bs, flat));
    json_object_set_boolean_member(cache, "writeback", true);
    json_object_set_boolean_member(cache, "direct", bs->cache_direct);
    json_object_set_boolean_member(cache, "no-flush", bs->cache_no_flush);
    json_object_set_object_member(o, "cache", cache);
    return o;
}

JsonObject *block_acct_stats_json(const BlockAcctStats *st,
                                  int64_t wr_highest_offset, bool account)
{
    static const char *const names[BLOCK_ACCT__MAX] = {
        [BLOCK_ACCT_READ] = "rd", [BLOCK_ACCT_WRITE] = "wr",
        [BLOCK_ACCT_FLUSH] = "flush", [BLOCK_ACCT_UNMAP] = "unmap",
    };
    JsonObject *o = json_object_new();
    int t;

    for (t = 0; t < BLOCK_ACCT__MAX; t++) {
        struct { const char *fmt; uint64_t v; bool flush_too; } f[] = {
            { "%s_bytes", st->bytes[t], false },
            { "%s_merged", 0, false },
            { "%s_operations", st->ops[t], true },
            { "%s_total_time_ns", st->total_ns[t], true },
            { "failed_%s_operations", st->failed[t], true },
            { "invalid_%s_operations", st->invalid[t], true },
        };
        guint i;

        for (i = 0; i < G_N_ELEMENTS(f); i++) {
            char *k;

            if (t == BLOCK_ACCT_FLUSH && !f[i].flush_too) {
                continue;
            }
            k = g_strdup_printf(f[i].fmt, names[t]);
            json_object_set_int_member(o, k, f[i].v);
            g_free(k);
        }
    }
    json_object_set_int_member(o, "wr_highest_offset", wr_highest_offset);
    if (st->last_access_ns) {
        json_object_set_int_member(o, "idle_time_ns",
                                   g_get_monotonic_time() * 1000 -
                                   st->last_access_ns);
    }
    json_object_set_boolean_member(o, "account_invalid", account);
    json_object_set_boolean_member(o, "account_failed", account);
    json_object_set_array_member(o, "timed_stats", json_array_new());
    return o;
}

JsonObject *bdrv_query_bds_stats(BlockDriverState *bs, bool blk_level)
{
    static const BlockAcctStats none;
    JsonObject *o = json_object_new();

    json_object_set_string_member(o, "node-name", bs->node_name);
    json_object_set_object_member(
        o, "stats",
        block_acct_stats_json(&none, __atomic_load_n(&bs->wr_highest_offset,
                                                     __ATOMIC_RELAXED),
                              false));
    if (bs->drv->stats_specific) {
        json_object_set_object_member(o, "driver-specific",
                                      bs->drv->stats_specific(bs));
    }
    if (bs->file) {
        json_object_set_object_member(o, "parent",
                                      bdrv_query_bds_stats(bs->file->bs,
                                                           blk_level));
    }
    if (blk_level && bs->backing) {
        json_object_set_object_member(o, "backing",
                                      bdrv_query_bds_stats(bs->backing->bs,
                                                           blk_level));
    }
    return o;
}

/* QMP ------------------------------------------------------------------------ */

static JsonNode *array_node(JsonArray *a)
{
    return json_node_init_array(json_node_alloc(), a);
}

/* Backends a user can see: named ones and those of devices */
static bool blk_is_visible(BlockBackend *blk)
{
    return *blk_name(blk) || blk_get_attached_dev(blk);
}

JsonNode *qmp_query_block(Error **errp)
{
    JsonArray *a = json_array_new();
    BlockBackend *blk = NULL;

    bdrv_graph_rdlock();
    while ((blk = blk_all_next(blk))) {
        if (blk_is_visible(blk)) {
            json_array_add_object_element(a, blk_query_info(blk));
        }
    }
    bdrv_graph_rdunlock();
    return array_node(a);
}

JsonNode *qmp_query_named_block_nodes(const QmpArgsQueryNamedBlockNodes *args,
                                      Error **errp)
{
    bool flat = args->has_flat && args->flat;
    JsonArray *a = json_array_new();
    BlockDriverState *bs = NULL;

    bdrv_graph_rdlock();
    while ((bs = bdrv_next_named_node(bs))) {
        json_array_add_object_element(a, bdrv_block_device_info(bs, flat));
    }
    bdrv_graph_rdunlock();
    return array_node(a);
}

JsonNode *qmp_query_blockstats(const QmpArgsQueryBlockstats *args,
                               Error **errp)
{
    JsonArray *a = json_array_new();

    bdrv_graph_rdlock();
    if (args->has_query_nodes && args->query_nodes) {
        BlockDriverState *bs = NULL;

        while ((bs = bdrv_next_node(bs))) {
            json_array_add_object_element(a, bdrv_query_bds_stats(bs, false));
        }
    } else {
        BlockBackend *blk = NULL;

        while ((blk = blk_all_next(blk))) {
            if (blk_is_visible(blk)) {
                json_array_add_object_element(a, blk_query_stats(blk));
            }
        }
    }
    bdrv_graph_rdunlock();
    return array_node(a);
}
