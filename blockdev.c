/*
 * The block layer's command line and QMP (include/sysemu/blockdev.h).
 *
 * -blockdev (JSON, or keyval as "driver=qcow2,file.driver=file,...") and
 * blockdev-add go through the QAPI visitor into BlockdevOptions, then
 * bdrv_open(); the nodes they create belong to the monitor until
 * blockdev-del.  -drive is QEMU's legacy option: its own keys (if, index,
 * media, cache, aio, werror, ...) are taken here, a file node is opened
 * and probed when format= is absent, the format node goes on top, and a
 * named BlockBackend holds it; the remaining keys are the format's and
 * (file.*) the protocol's options, refused with QEMU's texts when the
 * driver has no such option.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "block/block_int.h"
#include "monitor/qmp-commands.h"
#include "monitor/qmp.h"
#include "qapi/qapi-visit.h"
#include "qemu/keyval-tree.h"
#include "qemu/option.h"
#include "sysemu/blockdev.h"

typedef struct DriveEntry {
    DriveInfo info;
    char *id;
} DriveEntry;

/* if=: name, and the device that drives of that kind need */
static const struct {
    const char *name;
    const char *device;         /* NULL: no PC machine has one */
    const char *cd_device;
    int max_devs;               /* units per bus (0: no buses) */
} if_table[IF_COUNT] = {
    [IF_NONE] = { "none", NULL, NULL, 0 },
    [IF_IDE] = { "ide", "ide-hd", "ide-cd", 2 },
    [IF_SCSI] = { "scsi", NULL, NULL, 7 },
    [IF_FLOPPY] = { "floppy", "floppy", "floppy", 0 },
    [IF_PFLASH] = { "pflash", "cfi.pflash01", "cfi.pflash01", 0 },
    [IF_MTD] = { "mtd", NULL, NULL, 0 },
    [IF_SD] = { "sd", NULL, NULL, 0 },
    [IF_VIRTIO] = { "virtio", "virtio-blk-pci", "virtio-blk-pci", 0 },
    [IF_XEN] = { "xen", NULL, NULL, 0 },
};

/* The -drive options QEMU takes itself (the rest go to the drivers) */
static const char *const drive_keys[] = {
    "if", "index", "bus", "unit", "media", "snapshot", "file", "format",
    "cache", "aio", "werror", "rerror", "discard", "detect-zeroes", "id",
    "readonly", "read-only", "node-name", "copy-on-read",
    "cache.direct", "cache.no-flush", "cache.writeback",
    "stats-account-invalid", "stats-account-failed", "auto-read-only",
    "force-share", "file.locking",
};

static bool if_registered[IF_COUNT];
static GPtrArray *drive_opts, *blockdev_opts;   /* char*, queued */
static GPtrArray *drives;                       /* DriveEntry* */
static GPtrArray *monitor_nodes;                /* BlockDriverState* */
static const char *machine_type_name = "none";

static void blockdev_at_exit(void)
{
    bdrv_close_all();
}

static void init_once(void)
{
    if (!drives) {
        drives = g_ptr_array_new();
        monitor_nodes = g_ptr_array_new();
        atexit(blockdev_at_exit);
    }
}

void drive_register_interface(BlockInterfaceType type)
{
    if_registered[type] = true;
}

DriveInfo *drive_get(BlockInterfaceType type, int bus, int unit)
{
    guint i;

    for (i = 0; drives && i < drives->len; i++) {
        DriveEntry *d = g_ptr_array_index(drives, i);

        if (d->info.type == type && d->info.bus == bus &&
            d->info.unit == unit) {
            return &d->info;
        }
    }
    return NULL;
}

DriveInfo *drive_get_by_blk(BlockBackend *blk)
{
    guint i;

    for (i = 0; drives && i < drives->len; i++) {
        DriveEntry *d = g_ptr_array_index(drives, i);

        if (d->info.blk == blk) {
            return &d->info;
        }
    }
    return NULL;
}

/* -blockdev and blockdev-add ----------------------------------------------- */

static bool blockdev_open(const BlockdevOptions *opts, Error **errp)
{
    BlockDriverState *bs;

    if (!opts->has_node_name) {
        error_setg(errp, "'node-name' must be specified for the root node");
        return false;
    }
    init_once();
    bdrv_graph_wrlock();
    bs = bdrv_open(opts, errp);
    bdrv_graph_wrunlock();
    if (!bs) {
        return false;
    }
    g_ptr_array_add(monitor_nodes, bs);
    return true;
}

JsonNode *qmp_blockdev_add(const BlockdevOptions *args, Error **errp)
{
    return blockdev_open(args, errp) ? qmp_empty_return() : NULL;
}

JsonNode *qmp_blockdev_del(const QmpArgsBlockdevDel *args, Error **errp)
{
    BlockDriverState *bs = bdrv_find_node(args->node_name);

    if (!bs) {
        error_setg(errp, "Failed to find node with node-name='%s'",
                   args->node_name);
        return NULL;
    }
    if (!monitor_nodes || !g_ptr_array_find(monitor_nodes, bs, NULL)) {
        error_setg(errp, "Node %s is not owned by the monitor",
                   args->node_name);
        return NULL;
    }
    if (bdrv_has_parents(bs)) {
        error_setg(errp, "Block device %s is in use", args->node_name);
        return NULL;
    }
    g_ptr_array_remove(monitor_nodes, bs);
    bdrv_graph_wrlock();
    bdrv_unref(bs);
    bdrv_graph_wrunlock();
    return qmp_empty_return();
}

JsonNode *qmp_block_resize(const QmpArgsBlockResize *args, Error **errp)
{
    const char *dev = args->has_device ? args->device : NULL;
    const char *node = args->has_node_name ? args->node_name : NULL;
    BlockBackend *blk = dev ? blk_by_name(dev) : NULL;
    BlockDriverState *bs = blk ? blk_bs(blk) : NULL;
    bool ok;

    if (blk && !bs) {
        error_setg(errp, "Device '%s' has no medium", dev);
        return NULL;
    }
    if (!bs && node) {
        bs = bdrv_find_node(node);
    }
    if (!bs) {
        error_setg(errp, "Cannot find device='%s' nor node-name='%s'",
                   dev ? dev : "", node ? node : "");
        return NULL;
    }
    if (args->size < 0) {
        error_setg(errp, "Parameter 'size' expects a >0 size");
        return NULL;
    }
    bdrv_graph_wrlock();
    ok = bdrv_truncate(bs, args->size, errp);
    bdrv_graph_wrunlock();
    return ok ? qmp_empty_return() : NULL;
}

/* "-blockdev ARG" or "--blockdev ARG": as typed, for error messages */
static void queue_option(GPtrArray **queue, const char *opt, const char *arg)
{
    if (!*queue) {
        *queue = g_ptr_array_new();
    }
    g_ptr_array_add(*queue, g_strdup(opt));
    g_ptr_array_add(*queue, g_strdup(arg));
}

void blockdev_blockdev_option(const char *opt, const char *arg)
{
    queue_option(&blockdev_opts, opt, arg);
}

void blockdev_drive_option(const char *opt, const char *arg)
{
    queue_option(&drive_opts, opt, arg);
}

static bool blockdev_from_cli(const char *arg, Error **errp)
{
    BlockdevOptions opts = { 0 };
    bool json = arg[0] == '{';
    JsonObject *obj = json ? qemu_opts_parse_json(arg, errp)
                           : keyval_parse_tree(arg, errp);
    bool ok;

    if (!obj) {
        return false;
    }
    ok = json ? qapi_visit_struct(&qapi_desc_BlockdevOptions, obj, &opts,
                                  errp)
              : qapi_visit_struct_keyval(&qapi_desc_BlockdevOptions, obj,
                                         &opts, errp);
    ok = ok && blockdev_open(&opts, errp);
    qapi_struct_free(&qapi_desc_BlockdevOptions, &opts);
    json_object_unref(obj);
    return ok;
}

/* -drive ----------------------------------------------------------------- */

/* What the -drive keys said, before anything is opened */
typedef struct DriveConfig {
    BlockInterfaceType type;
    int bus, unit, index;
    bool cdrom, read_only, snapshot;
    const char *file, *format, *id, *node_name;
    bool direct, no_flush, wce;
    const char *aio, *discard, *detect_zeroes, *locking;
    const char *force_share, *auto_read_only;
    BlockdevOnError rerror, werror;
} DriveConfig;

static bool machine_is_q35(void)
{
    return g_str_has_prefix(machine_type_name, "pc-q35") ||
           !strcmp(machine_type_name, "q35");
}

static int machine_units_per_bus(BlockInterfaceType type)
{
    /* q35's AHCI: one unit per (SATA) bus */
    if (type == IF_IDE && machine_is_q35()) {
        return 1;
    }
    return if_table[type].max_devs;
}

/* Buses the board has for if=TYPE drives (IDE: 6 AHCI ports or 2 IDE) */
static int machine_buses(BlockInterfaceType type)
{
    if (type == IF_IDE) {
        return machine_is_q35() ? 6 : 2;
    }
    return 1;
}

static bool parse_error_action(const char *s, bool is_read,
                               BlockdevOnError *out, Error **errp)
{
    if (!strcmp(s, "ignore")) {
        *out = BLOCKDEV_ON_ERROR_IGNORE;
    } else if (!is_read && !strcmp(s, "enospc")) {
        *out = BLOCKDEV_ON_ERROR_ENOSPC;
    } else if (!strcmp(s, "stop")) {
        *out = BLOCKDEV_ON_ERROR_STOP;
    } else if (!strcmp(s, "report")) {
        *out = BLOCKDEV_ON_ERROR_REPORT;
    } else {
        error_setg(errp, "'%s' invalid %s error action", s,
                   is_read ? "read" : "write");
        return false;
    }
    return true;
}

static bool parse_cache(const char *s, DriveConfig *c)
{
    static const struct {
        const char *name;
        bool direct, no_flush, wce;
    } modes[] = {
        { "writeback", false, false, true },
        { "none", true, false, true }, { "off", true, false, true },
        { "writethrough", false, false, false },
        { "directsync", true, false, false },
        { "unsafe", false, true, true },
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS(modes); i++) {
        if (!strcmp(s, modes[i].name)) {
            c->direct = modes[i].direct;
            c->no_flush = modes[i].no_flush;
            c->wce = modes[i].wce;
            return true;
        }
    }
    return false;
}

static bool opt_bool(QemuOpts *o, const char *key, const char *name,
                     bool def, bool *out, Error **errp)
{
    const char *v = qemu_opt_get(o, key);
    Error *err = NULL;

    *out = def;
    if (v && !qapi_bool_parse(name, v, out, &err)) {
        error_free(err);
        error_setg(errp, "Parameter '%s' expects 'on' or 'off'", name);
        return false;
    }
    return true;
}

static bool opt_int(QemuOpts *o, const char *key, int def, int *out,
                    Error **errp)
{
    uint64_t v;

    if (!qemu_opt_get_number(o, key, def < 0 ? 0 : def, &v, errp)) {
        return false;
    }
    *out = qemu_opt_get(o, key) ? (int)MIN(v, (uint64_t)INT32_MAX) : def;
    return true;
}

static bool parse_drive_keys(QemuOpts *o, DriveConfig *c, Error **errp)
{
    const char *s;
    bool ro, ro2, b;
    int i;

    memset(c, 0, sizeof(*c));
    c->wce = true;
    c->werror = BLOCKDEV_ON_ERROR_ENOSPC;
    c->rerror = BLOCKDEV_ON_ERROR_REPORT;
    c->id = qemu_opt_get(o, "id");
    if (c->id && !id_wellformed(c->id)) {
        error_setg(errp, "Parameter 'id' expects an identifier");
        error_append_hint(errp, "Identifiers consist of letters, digits, "
                          "'-', '.', '_', starting with a letter.\n");
        return false;
    }
    s = qemu_opt_get(o, "if");
    c->type = strcmp(machine_type_name, "none") ? IF_IDE : IF_NONE;
    for (i = 0; s && i < IF_COUNT && strcmp(s, if_table[i].name); i++) {
    }
    if (s && i == IF_COUNT) {
        error_setg(errp, "unsupported bus type '%s'", s);
        return false;
    }
    c->type = s ? (BlockInterfaceType)i : c->type;
    s = qemu_opt_get(o, "cache");
    if (s && !parse_cache(s, c)) {
        error_setg(errp, "invalid cache option");
        return false;
    }
    if (!opt_bool(o, "cache.direct", "cache.direct", c->direct, &c->direct,
                  errp) ||
        !opt_bool(o, "cache.no-flush", "cache.no-flush", c->no_flush,
                  &c->no_flush, errp) ||
        !opt_bool(o, "cache.writeback", "cache.writeback", c->wce, &c->wce,
                  errp)) {
        return false;
    }
    c->aio = qemu_opt_get(o, "aio");
    if (c->aio && strcmp(c->aio, "threads") && strcmp(c->aio, "native") &&
        strcmp(c->aio, "io_uring")) {
        error_setg(errp, "invalid aio option");
        return false;
    }
    c->format = qemu_opt_get(o, "format");
    if (c->format && !*c->format) {
        c->format = NULL;
    }
    s = qemu_opt_get(o, "werror");
    if (s && !parse_error_action(s, false, &c->werror, errp)) {
        return false;
    }
    s = qemu_opt_get(o, "rerror");
    if (s && !parse_error_action(s, true, &c->rerror, errp)) {
        return false;
    }
    s = qemu_opt_get(o, "media");
    if (s && strcmp(s, "disk") && strcmp(s, "cdrom")) {
        error_setg(errp, "'%s' invalid media", s);
        return false;
    }
    c->cdrom = s && !strcmp(s, "cdrom");
    c->discard = qemu_opt_get(o, "discard");
    if (c->discard && strcmp(c->discard, "ignore") &&
        strcmp(c->discard, "off") && strcmp(c->discard, "unmap") &&
        strcmp(c->discard, "on")) {
        error_setg(errp, "Invalid discard option");
        return false;
    }
    c->detect_zeroes = qemu_opt_get(o, "detect-zeroes");
    c->locking = qemu_opt_get(o, "file.locking");
    for (i = 0; i < 2; i++) {
        const char *v = i ? c->locking : c->detect_zeroes;

        if (v && strcmp(v, "off") && strcmp(v, "on") &&
            strcmp(v, i ? "auto" : "unmap")) {
            error_setg(errp, "invalid parameter value: %s", v);
            return false;
        }
    }
    if (!opt_bool(o, "read-only", "read-only", false, &ro2, errp) ||
        !opt_bool(o, "readonly", "read-only", ro2, &ro, errp) ||
        !opt_bool(o, "snapshot", "snapshot", false, &c->snapshot, errp) ||
        !opt_bool(o, "copy-on-read", "copy-on-read", false, &b, errp)) {
        return false;
    }
    if (b) {
        error_setg(errp, "copy-on-read=on is not supported by this build");
        return false;
    }
    c->read_only = ro || c->cdrom;
    c->file = qemu_opt_get(o, "file");
    if (qemu_opt_get(o, "driver")) {
        error_setg(errp, "-drive driver= is not supported by this build; "
                   "use format= and file=, or -blockdev");
        return false;
    }
    c->node_name = qemu_opt_get(o, "node-name");
    c->force_share = qemu_opt_get(o, "force-share");
    c->auto_read_only = qemu_opt_get(o, "auto-read-only");
    return opt_int(o, "bus", 0, &c->bus, errp) &&
           opt_int(o, "unit", -1, &c->unit, errp) &&
           opt_int(o, "index", -1, &c->index, errp);
}

/* QEMU's placement of a drive on its interface's buses */
static bool place_drive(DriveConfig *c, Error **errp)
{
    int max = machine_units_per_bus(c->type);

    if (c->index != -1) {
        if (c->bus || c->unit != -1) {
            error_setg(errp, "index cannot be used with bus and unit");
            return false;
        }
        c->bus = max ? c->index / max : 0;
        c->unit = max ? c->index % max : c->index;
    }
    if (c->unit == -1) {
        c->unit = 0;
        while (drive_get(c->type, c->bus, c->unit)) {
            c->unit++;
            if (max && c->unit >= max) {
                c->unit -= max;
                c->bus++;
            }
        }
    }
    if (max && c->unit >= max) {
        error_setg(errp, "unit %d too big (max is %d)", c->unit, max - 1);
        return false;
    }
    if (drive_get(c->type, c->bus, c->unit)) {
        error_setg(errp, "drive with bus=%d, unit=%d (index=%d) exists",
                   c->bus, c->unit, c->index);
        return false;
    }
    return true;
}

/* Guest-visible drives need their device: refused until it exists */
static bool check_interface(const DriveConfig *c, Error **errp)
{
    const char *dev = c->cdrom ? if_table[c->type].cd_device
                               : if_table[c->type].device;

    if (c->type == IF_NONE || if_registered[c->type]) {
        return true;
    }
    if (!dev || !strcmp(machine_type_name, "none") ||
        c->bus >= machine_buses(c->type)) {
        error_setg(errp, "machine type does not support if=%s,bus=%d,unit=%d",
                   if_table[c->type].name, c->bus, c->unit);
    } else {
        error_setg(errp, "if=%s needs the device '%s', which this build "
                   "does not have yet; use if=none (or -blockdev) for a "
                   "backend without a device", if_table[c->type].name, dev);
    }
    return false;
}

static char *default_drive_id(const DriveConfig *c)
{
    const char *media = "";

    if (c->type == IF_IDE || c->type == IF_SCSI) {
        media = c->cdrom ? "-cd" : "-hd";
    }
    if (if_table[c->type].max_devs) {
        return g_strdup_printf("%s%d%s%d", if_table[c->type].name, c->bus,
                               media, c->unit);
    }
    return g_strdup_printf("%s%s%d", if_table[c->type].name, media,
                           c->unit);
}

static void set_str(JsonObject *o, const char *k, const char *v)
{
    if (v) {
        json_object_set_string_member(o, k, v);
    }
}

static void set_base_options(JsonObject *o, const DriveConfig *c)
{
    set_str(o, "force-share", c->force_share);
    set_str(o, "auto-read-only", c->auto_read_only);
    JsonObject *cache = json_object_new();

    json_object_set_string_member(cache, "direct", c->direct ? "on" : "off");
    json_object_set_string_member(cache, "no-flush",
                                  c->no_flush ? "on" : "off");
    json_object_set_object_member(o, "cache", cache);
    json_object_set_string_member(o, "read-only", c->read_only ? "on"
                                                                : "off");
    if (c->discard) {
        set_str(o, "discard", !strcmp(c->discard, "on") ||
                              !strcmp(c->discard, "unmap") ? "unmap"
                                                           : "ignore");
    }
}

/* Opens a node from keyval-style options */
static BlockDriverState *open_keyval(JsonObject *o, Error **errp)
{
    BlockdevOptions opts = { 0 };
    BlockDriverState *bs = NULL;

    if (qapi_visit_struct_keyval(&qapi_desc_BlockdevOptions, o, &opts,
                                 errp)) {
        bs = bdrv_open(&opts, errp);
    }
    qapi_struct_free(&qapi_desc_BlockdevOptions, &opts);
    return bs;
}

static bool is_drive_key(const char *name)
{
    guint k;

    for (k = 0; k < G_N_ELEMENTS(drive_keys); k++) {
        if (!strcmp(name, drive_keys[k])) {
            return true;
        }
    }
    return false;
}

/* The -drive keys file.*: the protocol's options */
static bool protocol_keys(QemuOpts *o, const char *proto, JsonObject *po,
                          Error **errp)
{
    int tag = !strcmp(proto, "file") ? BLOCKDEV_DRIVER_FILE
                                     : BLOCKDEV_DRIVER_HOST_DEVICE;
    guint i;

    for (i = 0; i < o->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(o->opts, i);
        const char *key = opt->name + 5;

        if (is_drive_key(opt->name) || !g_str_has_prefix(opt->name, "file.")) {
            continue;
        }
        /* QEMU names these strings in json: filenames ("size": "4096"),
         * which this build's null driver does not keep */
        if (g_str_has_prefix(proto, "null-")) {
            error_setg(errp, "-drive file.%s= for %s is not supported by "
                       "this build; use -blockdev", key, proto);
            return false;
        }
        if (!qapi_struct_has_member(&qapi_desc_BlockdevOptions, tag, key) ||
            !strcmp(key, "driver") || !strcmp(key, "filename")) {
            error_setg(errp, "Block protocol '%s' doesn't support the option "
                       "'%s'", proto, key);
            return false;
        }
        set_str(po, key, opt->value);
    }
    return true;
}

/* The other keys QEMU does not take itself: the format's options */
static bool format_keys(QemuOpts *o, const char *format, JsonObject *fo,
                        Error **errp)
{
    int tag = !strcmp(format, "qcow2") ? BLOCKDEV_DRIVER_QCOW2
                                       : BLOCKDEV_DRIVER_RAW;
    guint i;

    for (i = 0; i < o->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(o->opts, i);

        if (is_drive_key(opt->name) || g_str_has_prefix(opt->name, "file.")) {
            continue;
        }
        if (strchr(opt->name, '.') || !strcmp(opt->name, "driver") ||
            !qapi_struct_has_member(&qapi_desc_BlockdevOptions, tag,
                                    opt->name)) {
            error_setg(errp, "Block format '%s' does not support the option "
                       "'%s'", format, opt->name);
            return false;
        }
        set_str(fo, opt->name, opt->value);
    }
    return true;
}

static const char *probe_format(BlockDriverState *file_bs, const char *name)
{
    BdrvChild probe = { .bs = file_bs };
    uint8_t buf[512] = { 0 };
    int64_t len = bdrv_getlength(file_bs);
    const char *fmt;

    bdrv_pread(&probe, 0, MIN((int64_t)sizeof(buf), MAX(len, 0)), buf);
    fmt = bdrv_probe_format(buf, sizeof(buf));
    if (!strcmp(fmt, "raw")) {
        fprintf(stderr, "WARNING: Image format was not specified for '%s' "
                "and probing guessed raw.\n         Automatically detecting "
                "the format is dangerous for raw images, write operations on "
                "block 0 will be restricted.\n         Specify the 'raw' "
                "format explicitly to remove the restrictions.\n", name);
    }
    return fmt;
}

/*
 * The protocol a -drive file= names: "null-co://" and "null-aio://" are
 * QEMU's null drivers (that exact text only, as QEMU checks); a
 * "blkdebug:" filename is refused (QEMU parses it into options, which
 * this build takes from -blockdev only); anything else is a file
 */
static const char *filename_protocol(const char *file, Error **errp)
{
    static const char *const nulls[] = { "null-co", "null-aio" };
    guint i;

    for (i = 0; i < G_N_ELEMENTS(nulls); i++) {
        size_t n = strlen(nulls[i]);

        if (!strncmp(file, nulls[i], n) && file[n] == ':') {
            if (strcmp(file + n, "://")) {
                error_setg(errp, "The only allowed filename for this driver "
                           "is '%s://'", nulls[i]);
                return NULL;
            }
            return nulls[i];
        }
    }
    if (g_str_has_prefix(file, "blkdebug:")) {
        error_setg(errp, "A blkdebug: filename is not supported by this "
                   "build; define the node with -blockdev or blockdev-add");
        return NULL;
    }
    return "file";
}

/*
 * The protocol node of a -drive (file or host_device, by what the path
 * is, or null-co / null-aio by its name), the format probed when format=
 * is absent, and the format node
 */
static BlockDriverState *drive_open_medium(QemuOpts *o, const DriveConfig *c,
                                           Error **errp)
{
    const char *fmt = c->format, *proto;
    BlockDriverState *file_bs = NULL, *bs = NULL;
    JsonObject *fo = json_object_new(), *po = json_object_new();
    struct stat st;

    if (fmt && strcmp(fmt, "raw") && strcmp(fmt, "qcow2")) {
        error_setg(errp, "Unknown driver '%s'", fmt);
        goto out;
    }
    if (c->snapshot) {
        error_setg(errp, "snapshot=on is not supported by this build");
        goto out;
    }
    if (c->node_name && !bdrv_check_node_name(c->node_name, errp)) {
        goto out;
    }
    proto = filename_protocol(c->file, errp);
    if (!proto) {
        goto out;
    }
    if (!strcmp(proto, "file")) {
        proto = stat(c->file, &st) == 0 &&
                (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) ? "host_device"
                                                             : "file";
    }
    if (!protocol_keys(o, proto, po, errp)) {
        goto out;
    }
    json_object_set_string_member(po, "driver", proto);
    if (!g_str_has_prefix(proto, "null-")) {
        json_object_set_string_member(po, "filename", c->file);
    }
    set_base_options(po, c);
    set_str(po, "locking", c->locking);
    set_str(po, "aio", c->aio);
    file_bs = open_keyval(po, errp);
    if (!file_bs) {
        goto out;
    }
    if (!fmt) {
        fmt = probe_format(file_bs, c->file);
    }
    if (!format_keys(o, fmt, fo, errp)) {
        goto out;
    }
    json_object_set_string_member(fo, "driver", fmt);
    json_object_set_string_member(fo, "file", file_bs->node_name);
    set_str(fo, "node-name", c->node_name);
    set_base_options(fo, c);
    bs = open_keyval(fo, errp);
    if (bs && !c->format && !strcmp(fmt, "raw")) {
        bs->probed_raw = true;
    }
    /* -drive takes detect-zeroes=unmap without discard=unmap (then it
     * detects zeroes without unmapping), unlike -blockdev */
    if (bs && c->detect_zeroes) {
        bs->detect_zeroes = !strcmp(c->detect_zeroes, "off")
                                ? BLOCKDEV_DETECT_ZEROES_OPTIONS_OFF
                            : !strcmp(c->detect_zeroes, "on")
                                ? BLOCKDEV_DETECT_ZEROES_OPTIONS_ON
                                : BLOCKDEV_DETECT_ZEROES_OPTIONS_UNMAP;
    }
out:
    if (file_bs) {
        bdrv_unref(file_bs);
    }
    json_object_unref(fo);
    json_object_unref(po);
    return bs;
}

static bool drive_create(const char *arg, Error **errp)
{
    QemuOpts *o = qemu_opts_parse(arg, NULL, errp);
    DriveConfig c;
    DriveEntry *d = NULL;
    BlockBackend *blk = NULL;
    BlockDriverState *bs = NULL;
    char *id = NULL;
    bool ok = false;

    if (!o || !parse_drive_keys(o, &c, errp) || !place_drive(&c, errp) ||
        !check_interface(&c, errp)) {
        goto out;
    }
    id = c.id ? g_strdup(c.id) : default_drive_id(&c);
    if (blk_by_name(id)) {
        error_setg(errp, "Duplicate ID '%s' for drive", id);
        goto out;
    }
    if (c.format && !c.file) {
        error_setg(errp, "A block device must be specified for \"file\"");
        goto out;
    }
    if (c.file && *c.file) {
        bs = drive_open_medium(o, &c, errp);
        if (!bs) {
            goto out;
        }
    }
    /* A drive without a device takes nothing but consistent reads */
    blk = blk_new(id, BLK_PERM_CONSISTENT_READ, BLK_PERM_ALL, errp);
    if (!blk || (bs && !blk_insert_bs(blk, bs, errp))) {
        goto out;
    }
    blk_set_enable_write_cache(blk, c.wce);
    blk_set_on_error(blk, c.rerror, c.werror);
    blk_set_account_errors(blk, true);
    blk_set_removable(blk, true);
    d = g_new0(DriveEntry, 1);
    d->info = (DriveInfo){ c.type, c.bus, c.unit, c.cdrom, blk };
    d->id = g_strdup(id);
    g_ptr_array_add(drives, d);
    blk = NULL;
    ok = true;
out:
    if (blk) {
        blk_unref(blk);
    }
    if (bs) {
        bdrv_unref(bs);
    }
    g_free(id);
    if (o) {
        qemu_opts_free(o);
    }
    return ok;
}

/* QEMU finds duplicate drive ids while parsing, before opening any */
static bool check_drive_ids(Error **errp)
{
    GHashTable *ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                            NULL);
    bool ok = true;
    guint i;

    for (i = 0; ok && drive_opts && i < drive_opts->len; i += 2) {
        const char *opt = g_ptr_array_index(drive_opts, i);
        const char *arg = g_ptr_array_index(drive_opts, i + 1);
        QemuOpts *o = qemu_opts_parse(arg, NULL, NULL);
        const char *id = o ? qemu_opt_get(o, "id") : NULL;

        if (id && g_hash_table_contains(ids, id)) {
            error_setg(errp, "%s %s: Duplicate ID '%s' for drive", opt, arg,
                       id);
            ok = false;
        } else if (id) {
            g_hash_table_add(ids, g_strdup(id));
        }
        if (o) {
            qemu_opts_free(o);
        }
    }
    g_hash_table_destroy(ids);
    return ok;
}

bool blockdev_create_all(const char *machine_type, Error **errp)
{
    Error *err = NULL;
    bool ok = true;
    guint i;

    machine_type_name = machine_type ? machine_type : "none";
    init_once();
    if (!check_drive_ids(errp)) {
        return false;
    }
    for (i = 0; ok && blockdev_opts && i < blockdev_opts->len; i += 2) {
        const char *opt = g_ptr_array_index(blockdev_opts, i);
        const char *arg = g_ptr_array_index(blockdev_opts, i + 1);

        ok = blockdev_from_cli(arg, &err);
        if (!ok) {
            error_prepend(&err, "%s %s: ", opt, arg);
        }
    }
    for (i = 0; ok && drive_opts && i < drive_opts->len; i += 2) {
        const char *opt = g_ptr_array_index(drive_opts, i);
        const char *arg = g_ptr_array_index(drive_opts, i + 1);

        bdrv_graph_wrlock();
        ok = drive_create(arg, &err);
        bdrv_graph_wrunlock();
        if (!ok) {
            error_prepend(&err, "%s %s: ", opt, arg);
        }
    }
    if (!ok) {
        error_propagate(errp, err);
    }
    return ok;
}
