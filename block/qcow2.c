/*
 * qcow2: opening an image (every header field, table offset and size is
 * checked before use, with QEMU 7.2's texts), closing, resizing, image
 * information and the driver table.  What this build does not do is
 * refused at open: encryption, external data files, extended L2 entries,
 * zstd compression, lazy refcounts, writing to dirty images (repair with
 * qemu-img check -r all) or to images with internal snapshots.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "block/qcow2.h"

typedef struct Qcow2FeatureName {
    uint8_t type;                   /* 0 incompatible, 1 compatible, ... */
    uint8_t bit;
    char name[46];
} Qcow2FeatureName;

/* What the header extensions said */
typedef struct Qcow2Extensions {
    char backing_format[16];
    bool has_backing_format;
    GArray *features;               /* Qcow2FeatureName */
    bool has_crypto_header;
} Qcow2Extensions;

/* "Unsupported qcow2 feature(s): dirty bit, Unknown incompatible ..." */
static void report_unsupported(const Qcow2Extensions *ext, uint64_t mask,
                               Error **errp)
{
    GString *s = g_string_new("Unsupported qcow2 feature(s): ");
    const char *sep = "";
    guint i;

    for (i = 0; ext->features && i < ext->features->len; i++) {
        Qcow2FeatureName *f = &g_array_index(ext->features,
                                             Qcow2FeatureName, i);

        if (f->type == 0 && f->bit < 64 && (mask & (1ULL << f->bit))) {
            g_string_append_printf(s, "%s%.46s", sep, f->name);
            sep = ", ";
            mask &= ~(1ULL << f->bit);
        }
    }
    if (mask) {
        g_string_append_printf(s, "%sUnknown incompatible feature: %" PRIx64,
                               sep, mask);
    }
    error_setg(errp, "%s", s->str);
    g_string_free(s, TRUE);
}

static bool read_extensions(BlockDriverState *bs, const uint8_t *cluster0,
                            uint64_t start, uint64_t end,
                            Qcow2Extensions *ext, Error **errp)
{
    uint64_t pos = start;

    while (pos + 8 <= end) {
        uint32_t type = qcow2_be32(cluster0 + pos);
        uint32_t len = qcow2_be32(cluster0 + pos + 4);
        const uint8_t *data = cluster0 + pos + 8;

        if (type == QCOW2_EXT_END) {
            return true;
        }
        if (len > end - pos - 8) {
            error_setg(errp, "qcow2_read_extension: ERROR: "
                       "Header extension too large");
            return false;
        }
        switch (type) {
        case QCOW2_EXT_BACKING_FORMAT:
            if (len >= sizeof(ext->backing_format)) {
                error_setg(errp, "ERROR: ext_backing_format: len=%" PRIu32
                           " too large (>=%zu)", len,
                           sizeof(ext->backing_format));
                return false;
            }
            memcpy(ext->backing_format, data, len);
            ext->backing_format[len] = 0;
            ext->has_backing_format = true;
            break;
        case QCOW2_EXT_FEATURE_TABLE:
            if (!ext->features) {
                ext->features = g_array_new(FALSE, TRUE,
                                            sizeof(Qcow2FeatureName));
            }
            for (uint32_t i = 0; i + 48 <= len; i += 48) {
                Qcow2FeatureName f;

                f.type = data[i];
                f.bit = data[i + 1];
                memcpy(f.name, data + i + 2, sizeof(f.name));
                g_array_append_val(ext->features, f);
            }
            break;
        case QCOW2_EXT_CRYPTO_HEADER:
            ext->has_crypto_header = true;
            break;
        default:
            break;  /* bitmaps, data file name, unknown: not used here */
        }
        pos += 8 + (((uint64_t)len + 7) & ~7ULL);
    }
    return true;
}

/* A table must be cluster aligned and end below 2^63 */
static bool table_offset_ok(const BDRVQcow2State *s, uint64_t offset,
                            uint64_t bytes)
{
    return !(offset & (s->cluster_size - 1)) && offset <= INT64_MAX - bytes;
}

static bool check_features(BlockDriverState *bs, const Qcow2Extensions *ext,
                           Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t incompat = s->incompatible_features;

    if (incompat & ~QCOW2_INCOMPAT_KNOWN) {
        report_unsupported(ext, incompat & ~QCOW2_INCOMPAT_KNOWN, errp);
        return false;
    }
    if ((incompat & QCOW2_INCOMPAT_CORRUPT) && !bs->read_only) {
        error_setg(errp, "qcow2: Image is corrupt; cannot be opened "
                   "read/write");
        return false;
    }
    if ((incompat & QCOW2_INCOMPAT_DIRTY) && !bs->read_only) {
        error_setg(errp, "qcow2: Image is dirty (lazy refcounts were in "
                   "use); repair it with 'qemu-img check -r all' first");
        return false;
    }
    if (incompat & QCOW2_INCOMPAT_DATA_FILE) {
        error_setg(errp, "qcow2: External data files are not supported by "
                   "this build");
        return false;
    }
    if (incompat & QCOW2_INCOMPAT_EXTL2) {
        error_setg(errp, "qcow2: Extended L2 entries are not supported by "
                   "this build");
        return false;
    }
    if ((incompat & QCOW2_INCOMPAT_COMPRESSION) && !s->compression_type) {
        error_setg(errp, "qcow2: Compression type incompatible feature bit "
                   "must not be set");
        return false;
    }
    if (!(incompat & QCOW2_INCOMPAT_COMPRESSION) && s->compression_type) {
        error_setg(errp, "qcow2: Compression type incompatible feature bit "
                   "must be set");
        return false;
    }
    if (s->compression_type > 1) {
        error_setg(errp, "qcow2: unknown compression type: %d",
                   s->compression_type);
        return false;
    }
    if (s->compression_type == 1) {
        error_setg(errp, "qcow2: zstd compression is not supported by this "
                   "build");
        return false;
    }
    return true;
}

static bool check_encryption(uint32_t method, const Qcow2Extensions *ext,
                             Error **errp)
{
    switch (method) {
    case 0:
        return true;
    case 1:
        error_setg(errp, "Use of AES-CBC encrypted qcow2 images is no longer "
                   "supported in system emulators");
        error_append_hint(errp, "You can use 'qemu-img convert' to convert "
                          "your image to an alternative supported format, "
                          "such as unencrypted qcow2, or raw with the LUKS "
                          "format instead.\n");
        return false;
    case 2:
        if (!ext->has_crypto_header) {
            error_setg(errp, "Missing CRYPTO header for crypt method 2");
        } else {
            error_setg(errp, "qcow2: LUKS encryption is not supported by "
                       "this build");
        }
        return false;
    default:
        error_setg(errp, "Unsupported encryption method %" PRIu32, method);
        return false;
    }
}

/* The header's fixed fields, checked in QEMU's order */
static bool parse_header(BlockDriverState *bs, const uint8_t *h,
                         Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    uint32_t bits;

    if (qcow2_be32(h + QH_MAGIC) != QCOW_MAGIC) {
        error_setg(errp, "Image is not in qcow2 format");
        return false;
    }
    s->version = qcow2_be32(h + QH_VERSION);
    if (s->version < 2 || s->version > 3) {
        error_setg(errp, "Unsupported qcow2 version %d", s->version);
        return false;
    }
    bits = qcow2_be32(h + QH_CLUSTER_BITS);
    if (bits < MIN_CLUSTER_BITS || bits > MAX_CLUSTER_BITS) {
        error_setg(errp, "Unsupported cluster size: 2^%" PRIu32, bits);
        return false;
    }
    s->cluster_bits = bits;
    s->cluster_size = 1u << bits;
    if (s->version == 2) {
        s->header_length = QH_V2_LENGTH;
        s->refcount_order = 4;
    } else {
        s->header_length = qcow2_be32(h + QH_HEADER_LENGTH);
        if (s->header_length < QH_V3_LENGTH) {
            error_setg(errp, "qcow2 header too short");
            return false;
        }
        if (s->header_length > s->cluster_size) {
            error_setg(errp, "qcow2 header exceeds cluster size");
            return false;
        }
        s->incompatible_features = qcow2_be64(h + QH_INCOMPAT);
        s->compatible_features = qcow2_be64(h + QH_COMPAT);
        s->autoclear_features = qcow2_be64(h + QH_AUTOCLEAR);
        s->refcount_order = qcow2_be32(h + QH_REFCOUNT_ORDER);
        if (s->header_length > QH_COMPRESSION_TYPE) {
            s->compression_type = h[QH_COMPRESSION_TYPE];
        }
    }
    if (qcow2_be64(h + QH_BACKING_OFFSET) > s->cluster_size) {
        error_setg(errp, "Invalid backing file offset");
        return false;
    }
    return true;
}

static bool parse_tables(BlockDriverState *bs, const uint8_t *h,
                         Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t coverage, l1_needed;
    uint32_t rt_clusters;

    if ((uint32_t)s->refcount_order > 6) {
        error_setg(errp, "Reference count entry width too large; may not "
                   "exceed 64 bits");
        return false;
    }
    s->refcount_bits = 1 << s->refcount_order;
    s->refcount_max = s->refcount_bits == 64
                          ? UINT64_MAX : (1ULL << s->refcount_bits) - 1;
    s->refcount_block_bits = s->cluster_bits + 3 - s->refcount_order;
    s->l2_bits = s->cluster_bits - 3;
    s->l2_size = 1u << s->l2_bits;
    s->csize_shift = 62 - (s->cluster_bits - 8);
    s->csize_mask = (1ULL << (s->cluster_bits - 8)) - 1;
    s->cluster_offset_mask = (1ULL << s->csize_shift) - 1;

    rt_clusters = qcow2_be32(h + QH_REFTABLE_CLUSTERS);
    s->refcount_table_offset = qcow2_be64(h + QH_REFTABLE_OFFSET);
    if (!rt_clusters) {
        error_setg(errp, "Image does not contain a reference count table");
        return false;
    }
    if ((uint64_t)rt_clusters * s->cluster_size > QCOW_MAX_REFTABLE_SIZE) {
        error_setg(errp, "Reference count table too large");
        return false;
    }
    s->refcount_table_size = rt_clusters * (s->cluster_size / 8);
    if (!table_offset_ok(s, s->refcount_table_offset,
                         (uint64_t)rt_clusters * s->cluster_size)) {
        error_setg(errp, "Reference count table offset invalid");
        return false;
    }
    s->nb_snapshots = qcow2_be32(h + QH_NB_SNAPSHOTS);
    s->snapshots_offset = qcow2_be64(h + QH_SNAPSHOTS_OFFSET);
    if (s->nb_snapshots > QCOW_MAX_SNAPSHOTS) {
        error_setg(errp, "Snapshot table too large");
        return false;
    }
    if (s->nb_snapshots && !table_offset_ok(s, s->snapshots_offset, 0)) {
        error_setg(errp, "Snapshot table offset invalid");
        return false;
    }
    s->virtual_size = qcow2_be64(h + QH_SIZE);
    coverage = (uint64_t)s->cluster_size << s->l2_bits;
    l1_needed = s->virtual_size / coverage +
                (s->virtual_size % coverage != 0);
    if (s->virtual_size > INT64_MAX || l1_needed > INT32_MAX) {
        error_setg(errp, "Image is too big");
        return false;
    }
    s->l1_size = qcow2_be32(h + QH_L1_SIZE);
    s->l1_table_offset = qcow2_be64(h + QH_L1_OFFSET);
    if (s->l1_size > QCOW_MAX_L1_SIZE / 8) {
        error_setg(errp, "Active L1 table too large");
        return false;
    }
    if (s->l1_size < l1_needed) {
        error_setg(errp, "L1 table is too small");
        return false;
    }
    if (!table_offset_ok(s, s->l1_table_offset, (uint64_t)s->l1_size * 8)) {
        error_setg(errp, "Active L1 table offset invalid");
        return false;
    }
    return true;
}

static bool load_l1(BlockDriverState *bs, Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    uint32_t i;
    int ret;

    s->l1_table = g_new0(uint64_t, MAX(s->l1_size, 1));
    s->l1_dirty = g_malloc0(MAX(s->l1_size, 1));
    if (!s->l1_size) {
        return true;
    }
    ret = bdrv_pread(bs->file, s->l1_table_offset, (int64_t)s->l1_size * 8,
                     s->l1_table);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "Could not read L1 table");
        return false;
    }
    for (i = 0; i < s->l1_size; i++) {
        uint64_t l2 = (s->l1_table[i] = GUINT64_FROM_BE(s->l1_table[i])) &
                      L1E_OFFSET_MASK;

        if (l2 && !(l2 & (s->cluster_size - 1))) {
            qcow2_mark_metadata(s, l2, s->cluster_size, true);
        }
    }
    qcow2_mark_metadata(s, s->l1_table_offset, (uint64_t)s->l1_size * 8,
                        true);
    return true;
}

static bool read_backing_name(BlockDriverState *bs, const uint8_t *cluster0,
                              const Qcow2Extensions *ext, Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t off = qcow2_be64(cluster0 + QH_BACKING_OFFSET);
    uint32_t len = qcow2_be32(cluster0 + QH_BACKING_SIZE);

    if (!off) {
        return true;
    }
    if (len > QCOW_MAX_BACKING_NAME || len > s->cluster_size - off) {
        error_setg(errp, "Backing file name too long");
        return false;
    }
    bs->backing_file = g_strndup((const char *)cluster0 + off, len);
    bs->full_backing_filename = bdrv_combine_filename(bs->filename,
                                                      bs->backing_file);
    if (ext->has_backing_format) {
        bs->backing_format = g_strdup(ext->backing_format);
    }
    return true;
}

static void set_cache_sizes(BlockDriverState *bs,
                            const BlockdevOptionsQcow2 *o)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t coverage = (uint64_t)s->cluster_size << s->l2_bits;
    uint64_t max = MAX(16, (32u << 20) / s->cluster_size);
    uint64_t l2 = s->virtual_size / coverage + 1, rc;

    /* Enough L2 tables for the whole disk, within 32 MiB */
    l2 = CLAMP(l2, 16, max);
    if (o->has_l2_cache_size && o->l2_cache_size > 0) {
        l2 = CLAMP((uint64_t)o->l2_cache_size / s->cluster_size, 2, max);
    }
    rc = CLAMP(l2 / 4, 16, max);
    if (o->has_refcount_cache_size && o->refcount_cache_size > 0) {
        rc = CLAMP((uint64_t)o->refcount_cache_size / s->cluster_size, 2,
                   max);
    }
    s->l2_cache = qcow2_cache_new(l2, s->cluster_size);
    s->refcount_cache = qcow2_cache_new(rc, s->cluster_size);
    qcow2_cache_set_evict_hook(s->l2_cache, qcow2_write_refcounts_stable);
}

static bool check_options(const BlockdevOptionsQcow2 *o, Error **errp)
{
    if (o->has_data_file && o->data_file.kind == QAPI_ALT_STRING &&
        !bdrv_find_reference(o->data_file.reference, errp)) {
        return false;
    }
    if (o->has_data_file) {
        error_setg(errp, "'data-file' can only be set for images with an "
                   "external data file");
        return false;
    }
    if (o->has_lazy_refcounts && o->lazy_refcounts) {
        error_setg(errp, "qcow2: lazy-refcounts=on is not supported by this "
                   "build");
        return false;
    }
    if ((o->has_l2_cache_size && o->l2_cache_size < 0) ||
        (o->has_refcount_cache_size && o->refcount_cache_size < 0) ||
        (o->has_cache_size && o->cache_size < 0)) {
        error_setg(errp, "Cache sizes must not be negative");
        return false;
    }
    return true;
}

/* The backing child: the "backing" option, else the header's file */
static bool open_backing(BlockDriverState *bs, const BlockdevOptionsQcow2 *o,
                         Error **errp)
{
    BlockDriverState *backing = NULL;

    /* QEMU names a node whose backing is not the header's by its options */
    bs->backing_overridden = bs->backing_file != NULL;
    if (o->has_backing && o->backing.kind == QAPI_ALT_NULL) {
        return true;
    }
    if (o->has_backing && o->backing.kind == QAPI_ALT_STRING &&
        !*o->backing.reference) {
        warn_report("Use of \"backing\": \"\" is deprecated; use "
                    "\"backing\": null instead");
        return true;
    }
    if (o->has_backing && o->backing.kind == QAPI_ALT_STRING) {
        backing = bdrv_find_reference(o->backing.reference, errp);
        if (!backing) {
            return false;
        }
        bdrv_ref(backing);
    } else if (o->has_backing) {
        backing = bdrv_open_inline_backing(bs, o->backing.definition, errp);
    } else if (bs->backing_file) {
        backing = bdrv_open_backing_file(bs, errp);
        if (!backing) {
            error_prepend(errp, "Could not open backing file: ");
        }
    } else {
        return true;
    }
    if (!backing) {
        return false;
    }
    bs->backing_overridden = o->has_backing &&
                             g_strcmp0(bs->backing_file,
                                       bdrv_get_filename(backing));
    bs->backing = bdrv_attach_child(bs, backing, "backing", 0, BLK_PERM_ALL,
                                    errp);
    bdrv_unref(backing);
    return bs->backing != NULL;
}

/* Unknown autoclear bits are cleared before the first write (the spec) */
static bool clear_autoclear(BlockDriverState *bs, Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t zero = 0;
    int ret;

    if (bs->read_only || s->version < 3 || !s->autoclear_features) {
        return true;
    }
    if (s->autoclear_features & QCOW2_AUTOCLEAR_BITMAPS) {
        warn_report("qcow2: '%s' has persistent dirty bitmaps, which this "
                    "build does not keep up to date: they become "
                    "inconsistent", bs->filename);
    }
    ret = bdrv_pwrite(bs->file, QH_AUTOCLEAR, 8, &zero);
    if (!ret) {
        ret = bdrv_flush(bs->file->bs);
    }
    if (ret < 0) {
        error_setg_errno(errp, -ret, "Could not update qcow2 header");
        return false;
    }
    s->autoclear_features = 0;
    return true;
}

static bool qcow2_open(BlockDriverState *bs, const BlockdevOptions *opts,
                       Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    const BlockdevOptionsQcow2 *o = &opts->u.qcow2;
    Qcow2Extensions ext = { 0 };
    uint8_t *cluster0 = g_malloc0(1u << MAX_CLUSTER_BITS);
    uint64_t ext_end;
    bool ok = false;
    int ret;

    g_mutex_init(&s->lock);
    s->metadata = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                        NULL);
    if (!check_options(o, errp)) {
        goto out;
    }
    ret = bdrv_pread(bs->file, 0, QH_V3_LENGTH + 8, cluster0);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "Could not read qcow2 header");
        goto out;
    }
    if (!parse_header(bs, cluster0, errp)) {
        goto out;
    }
    ret = bdrv_pread(bs->file, 0, s->cluster_size, cluster0);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "Could not read qcow2 header");
        goto out;
    }
    ext_end = qcow2_be64(cluster0 + QH_BACKING_OFFSET);
    if (!ext_end) {
        ext_end = s->cluster_size;
    }
    if (!read_extensions(bs, cluster0, s->header_length, ext_end, &ext,
                         errp) ||
        !check_features(bs, &ext, errp) ||
        !check_encryption(qcow2_be32(cluster0 + QH_CRYPT_METHOD), &ext,
                          errp) ||
        !parse_tables(bs, cluster0, errp)) {
        goto out;
    }
    if (o->has_encrypt) {
        error_setg(errp, "No encryption in image header, but options "
                   "specified format '%s'",
                   BlockdevQcow2EncryptionFormat_str[o->encrypt.format]);
        goto out;
    }
    if (s->nb_snapshots && !bs->read_only) {
        error_setg(errp, "qcow2: Writing to images with internal snapshots "
                   "is not supported by this build");
        goto out;
    }
    if (!read_backing_name(bs, cluster0, &ext, errp) ||
        !load_l1(bs, errp) || !qcow2_refcount_init(bs, errp)) {
        goto out;
    }
    qcow2_mark_metadata(s, 0, s->cluster_size, true);
    set_cache_sizes(bs, o);
    s->pass_discard_request = o->has_pass_discard_request
                                  ? o->pass_discard_request
                                  : bs->discard_unmap;
    s->pass_discard_other = o->has_pass_discard_other && o->pass_discard_other;
    ok = clear_autoclear(bs, errp) && open_backing(bs, o, errp);
out:
    if (ext.features) {
        g_array_free(ext.features, TRUE);
    }
    g_free(cluster0);
    return ok;
}

static void qcow2_close(BlockDriverState *bs)
{
    BDRVQcow2State *s = bs->opaque;

    qcow2_cache_free(s->l2_cache);
    qcow2_cache_free(s->refcount_cache);
    if (s->metadata) {
        g_hash_table_destroy(s->metadata);
    }
    if (s->pending_frees) {
        g_array_free(s->pending_frees, TRUE);
    }
    g_free(s->l1_table);
    g_free(s->l1_dirty);
    g_free(s->refcount_table);
    g_free(s->zbuf);
    g_mutex_clear(&s->lock);
}

static int qcow2_flush_to_os(BlockDriverState *bs)
{
    BDRVQcow2State *s = bs->opaque;
    int ret;

    if (bs->read_only) {
        return 0;
    }
    g_mutex_lock(&s->lock);
    ret = qcow2_flush_metadata(bs);
    g_mutex_unlock(&s->lock);
    return ret;
}

static int64_t qcow2_getlength(BlockDriverState *bs)
{
    BDRVQcow2State *s = bs->opaque;

    return s->virtual_size;
}

static bool qcow2_truncate(BlockDriverState *bs, int64_t size, Error **errp)
{
    BDRVQcow2State *s = bs->opaque;
    uint64_t coverage = (uint64_t)s->cluster_size << s->l2_bits;
    uint64_t be = GUINT64_TO_BE(size);
    int ret;

    if (size % 512) {
        error_setg(errp, "The new size must be a multiple of 512");
        return false;
    }
    if ((uint64_t)size < s->virtual_size) {
        error_setg(errp, "qcow2 doesn't support shrinking images yet");
        return false;
    }
    if ((uint64_t)size / coverage + 1 > QCOW_MAX_L1_SIZE / 8) {
        error_setg(errp, "Image is too big");
        return false;
    }
    g_mutex_lock(&s->lock);
    ret = qcow2_grow_l1_table(bs, (size + coverage - 1) / coverage);
    if (!ret) {
        ret = bdrv_pwrite(bs->file, QH_SIZE, 8, &be);
    }
    if (!ret) {
        ret = bdrv_flush(bs->file->bs);
    }
    if (!ret) {
        s->virtual_size = size;
    }
    g_mutex_unlock(&s->lock);
    if (ret < 0) {
        error_setg_errno(errp, -ret, "Failed to grow the L1 table");
        return false;
    }
    return true;
}

static void qcow2_image_info(BlockDriverState *bs, JsonObject *info)
{
    BDRVQcow2State *s = bs->opaque;
    JsonObject *spec = json_object_new(), *data = json_object_new();

    json_object_set_int_member(info, "cluster-size", s->cluster_size);
    json_object_set_boolean_member(info, "dirty-flag",
                                   s->incompatible_features &
                                   QCOW2_INCOMPAT_DIRTY);
    json_object_set_string_member(data, "compat",
                                  s->version == 2 ? "0.10" : "1.1");
    json_object_set_string_member(data, "compression-type", "zlib");
    if (s->version >= 3) {
        json_object_set_boolean_member(data, "lazy-refcounts",
                                       s->compatible_features &
                                       QCOW2_COMPAT_LAZY_REFCOUNTS);
        json_object_set_boolean_member(data, "corrupt",
                                       s->incompatible_features &
                                       QCOW2_INCOMPAT_CORRUPT);
        json_object_set_boolean_member(data, "extended-l2", false);
    }
    json_object_set_int_member(data, "refcount-bits", s->refcount_bits);
    json_object_set_string_member(spec, "type", "qcow2");
    json_object_set_object_member(spec, "data", data);
    json_object_set_object_member(info, "format-specific", spec);
}

const BlockDriver bdrv_qcow2 = {
    .format_name = "qcow2",
    .driver = BLOCKDEV_DRIVER_QCOW2,
    .instance_size = sizeof(BDRVQcow2State),
    .open = qcow2_open,
    .close = qcow2_close,
    .preadv = qcow2_co_preadv,
    .pwritev = qcow2_co_pwritev,
    .pwrite_zeroes = qcow2_co_pwrite_zeroes,
    .pdiscard = qcow2_co_pdiscard,
    .flush_to_os = qcow2_flush_to_os,
    .getlength = qcow2_getlength,
    .truncate = qcow2_truncate,
    .child_perm = bdrv_format_child_perm,
    .image_info = qcow2_image_info,
};
