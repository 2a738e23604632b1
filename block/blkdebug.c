/*
 * The "blkdebug" filter: passes requests to its child ("image") and fails
 * the ones its rules say, with the rule's errno (docs/block.md).
 *
 * Rules come from a config file (config=, QEMU's format: [inject-error]
 * and [set-state] groups, include/qemu/config-file.h) and from the
 * inject-error / set-state lists of the options, in that order.  A rule
 * names an event: the node's parent raises events as it works
 * (bdrv_debug_event(): raw and qcow2 raise read_aio before they read
 * their file, write_aio before they write it; every node raises pwritev,
 * pwritev_zero and pwritev_done around its own writes, flush_to_os and
 * flush_to_disk on its file when flushed; blkdebug raises none when it
 * opens).  When an event comes, QEMU's state machine runs: the rules for
 * that event whose state is 0 or the current state act; inject-error
 * rules become the active ones (first defined first), set-state rules
 * set the next state (the first defined wins).  Each request then fails
 * with the errno of the first active rule of its type (iotype; all but
 * block-status by default) whose sector it covers (any, without
 * sector=); once=on rules go after failing a request.
 *
 * The config file is read as QEMU does, with a plain blocking open and
 * read in the thread that opens the node: a FIFO holds blockdev-add until
 * its writer closes it (upstream's qmp-test relies on that).
 *
 * Refused, as this build could never honour them: events the block layer
 * here never raises (qcow2's metadata events and the like), iotype
 * block-status (there are no block-status requests), and non-zero align,
 * max-transfer, opt-/max-write-zero and opt-/max-discard (the request
 * layer does not split or align requests for a node).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "block/block_int.h"
#include "qemu/config-file.h"
#include "qemu/option.h"

typedef struct BlkdebugRule {
    BlkdebugEvent event;
    bool set_state;                 /* else inject-error */
    int state;                      /* 0: any */
    uint64_t iotype_mask;
    int error;
    bool once;
    uint64_t offset;                /* UINT64_MAX: any */
    int new_state;
} BlkdebugRule;

/* A rule as written, before its event and iotype are looked up */
typedef struct RuleSpec {
    bool set_state;
    char *event, *iotype;           /* NULL: not given */
    uint64_t state, error, sector, new_state;
    bool once;
} RuleSpec;

typedef struct BDRVBlkdebugState {
    GMutex lock;
    int state;
    GPtrArray *rules;               /* owned: inject-error, then set-state */
    GPtrArray *active;              /* first match wins */
    unsigned take_perms, unshare_perms;
    char *config_file;
    GPtrArray *opt_keys, *opt_values;   /* strong options, for json: */
} BDRVBlkdebugState;

/* The events this build's block layer raises somewhere */
static const BlkdebugEvent raised_events[] = {
    BLKDEBUG_EVENT_NONE, BLKDEBUG_EVENT_READ_AIO, BLKDEBUG_EVENT_WRITE_AIO,
    BLKDEBUG_EVENT_READ_BACKING_AIO, BLKDEBUG_EVENT_FLUSH_TO_OS,
    BLKDEBUG_EVENT_FLUSH_TO_DISK, BLKDEBUG_EVENT_PWRITEV,
    BLKDEBUG_EVENT_PWRITEV_ZERO, BLKDEBUG_EVENT_PWRITEV_DONE,
};

/* QEMU's default iotypes: every one but block-status */
#define IOTYPE_DEFAULT ((1u << BLKDEBUG_IOTYPE_BLOCK_STATUS) - 1)

/* Rules ---------------------------------------------------------------- */

static int enum_lookup(const char *const *names, const char *s)
{
    int i;

    for (i = 0; s && names[i]; i++) {
        if (!strcmp(names[i], s)) {
            return i;
        }
    }
    return -1;
}

static bool event_is_raised(BlkdebugEvent e)
{
    guint i;

    for (i = 0; i < G_N_ELEMENTS(raised_events); i++) {
        if (raised_events[i] == e) {
            return true;
        }
    }
    return false;
}

/* QEMU's checks (its texts), then what this build cannot honour */
static BlkdebugRule *rule_new(const RuleSpec *r, Error **errp)
{
    BlkdebugRule *rule;
    int event, iotype = -1;

    if (!r->event) {
        error_setg(errp, "Missing event name for rule");
        return NULL;
    }
    event = enum_lookup(BlkdebugEvent_str, r->event);
    if (event < 0) {
        error_setg(errp, "invalid parameter value: %s", r->event);
        return NULL;
    }
    if (!r->set_state && r->iotype) {
        iotype = enum_lookup(BlkdebugIOType_str, r->iotype);
        if (iotype < 0) {
            error_setg(errp, "invalid parameter value: %s", r->iotype);
            return NULL;
        }
    }
    if (!event_is_raised(event)) {
        error_setg(errp, "blkdebug event '%s' is never raised by this "
                   "build's block layer", r->event);
        return NULL;
    }
    if (iotype == BLKDEBUG_IOTYPE_BLOCK_STATUS) {
        error_setg(errp, "blkdebug iotype 'block-status' is not supported "
                   "by this build (it has no block-status requests)");
        return NULL;
    }
    if (!r->set_state && (int)r->error < 0) {
        error_setg(errp, "blkdebug errno %d is not supported by this build "
                   "(a request fails with a positive errno)", (int)r->error);
        return NULL;
    }
    rule = g_new0(BlkdebugRule, 1);
    rule->event = event;
    rule->set_state = r->set_state;
    rule->state = (int)r->state;
    rule->iotype_mask = iotype < 0 ? IOTYPE_DEFAULT : 1u << iotype;
    rule->error = (int)r->error;
    rule->once = r->once;
    rule->offset = r->sector == UINT64_MAX ? UINT64_MAX : r->sector * 512;
    rule->new_state = (int)r->new_state;
    return rule;
}

static void spec_free(gpointer p)
{
    RuleSpec *r = p;

    g_free(r->event);
    g_free(r->iotype);
    g_free(r);
}

/* Config file ------------------------------------------------------------ */

typedef struct ConfigRead {
    GPtrArray *specs;               /* RuleSpec* */
    GHashTable *ids[2];             /* per group: inject-error, set-state */
} ConfigRead;

/* QEMU's QemuOpts texts for a value of the wrong kind */
static bool opt_number(const char *key, const char *v, uint64_t *out,
                       Error **errp)
{
    char *end;

    errno = 0;
    *out = strtoull(v, &end, 0);
    if (errno == ERANGE) {
        error_setg(errp, "Value '%s' out of range for parameter '%s'", v,
                   key);
        return false;
    }
    if (!*v || *end || errno) {
        error_setg(errp, "Parameter '%s' expects a number", key);
        return false;
    }
    return true;
}

static bool group_id(ConfigRead *c, int set_state, const char *group,
                     const char *id, Error **errp)
{
    if (!id) {
        return true;
    }
    if (!id_wellformed(id)) {
        error_setg(errp, "Parameter 'id' expects an identifier");
        error_append_hint(errp, "Identifiers consist of letters, digits, "
                          "'-', '.', '_', starting with a letter.\n");
        return false;
    }
    if (g_hash_table_contains(c->ids[set_state], id)) {
        error_setg(errp, "Duplicate ID '%s' for %s", id, group);
        return false;
    }
    g_hash_table_add(c->ids[set_state], g_strdup(id));
    return true;
}

static bool config_group(const ConfigGroup *g, void *opaque, Error **errp)
{
    static const char *const keys[2][8] = {
        { "event", "state", "iotype", "errno", "sector", "once",
          "immediately", NULL },
        { "event", "state", "new_state", NULL },
    };
    ConfigRead *c = opaque;
    RuleSpec *r;
    const char *id = g->id;
    guint i;
    int set_state = !strcmp(g->name, "set-state");

    if (!set_state && strcmp(g->name, "inject-error")) {
        error_setg(errp, "There is no option group '%s'", g->name);
        return false;
    }
    r = g_new0(RuleSpec, 1);
    r->set_state = set_state;
    r->error = EIO;
    r->sector = UINT64_MAX;
    g_ptr_array_add(c->specs, r);
    for (i = 0; i < g->keys->len; i++) {
        const char *k = g_ptr_array_index(g->keys, i);
        const char *v = g_ptr_array_index(g->values, i);
        uint64_t *num = !strcmp(k, "state") ? &r->state
                        : !strcmp(k, "errno") ? &r->error
                        : !strcmp(k, "sector") ? &r->sector
                        : !strcmp(k, "new_state") ? &r->new_state : NULL;
        bool b;

        if (!strcmp(k, "id")) {
            id = v;
        } else if (enum_lookup(keys[set_state], k) < 0) {
            error_setg(errp, "Invalid parameter '%s'", k);
            return false;
        } else if (num) {
            if (!opt_number(k, v, num, errp)) {
                return false;
            }
        } else if (!strcmp(k, "once") || !strcmp(k, "immediately")) {
            if (!qapi_bool_parse(k, v, &b, errp)) {
                return false;
            }
            /* immediately: QEMU's completion without a reschedule; here
             * every request completes in its caller's thread anyway */
            r->once = !strcmp(k, "once") ? b : r->once;
        } else if (!strcmp(k, "event")) {
            g_free(r->event);
            r->event = g_strdup(v);
        } else {
            g_free(r->iotype);
            r->iotype = g_strdup(v);
        }
    }
    return group_id(c, set_state, g->name, id, errp);
}

static bool read_config(const char *path, GPtrArray *specs, Error **errp)
{
    ConfigRead c = { .specs = specs };
    FILE *f;
    int line;
    bool ok;

    if (!path) {
        return true;
    }
    /* Plain blocking open and read: see the top of this file */
    f = fopen(path, "r");
    if (!f) {
        error_setg_errno(errp, errno, "Could not read blkdebug config file");
        return false;
    }
    c.ids[0] = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    c.ids[1] = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    ok = qemu_config_parse(f, config_group, &c, &line, errp);
    g_hash_table_destroy(c.ids[0]);
    g_hash_table_destroy(c.ids[1]);
    fclose(f);
    return ok;
}

/* Options ---------------------------------------------------------------- */

static void strong_opt(BDRVBlkdebugState *s, char *key, char *value)
{
    g_ptr_array_add(s->opt_keys, key);
    g_ptr_array_add(s->opt_values, value);
}

static void strong_int(BDRVBlkdebugState *s, char *key, int64_t v)
{
    strong_opt(s, key, g_strdup_printf("%" PRId64, v));
}

/* The inline lists: rules after the config file's, strong options */
static void inline_rules(BDRVBlkdebugState *s,
                         const BlockdevOptionsBlkdebug *o, GPtrArray *specs)
{
    unsigned i;

    for (i = 0; o->has_inject_error && i < o->inject_error.len; i++) {
        const BlkdebugInjectErrorOptions *e = &o->inject_error.items[i];
        RuleSpec *r = g_new0(RuleSpec, 1);
        char *p = g_strdup_printf("inject-error.%u.", i);

        r->event = g_strdup(BlkdebugEvent_str[e->event]);
        r->iotype = e->has_iotype ? g_strdup(BlkdebugIOType_str[e->iotype])
                                  : NULL;
        r->state = e->has_state ? (uint64_t)e->state : 0;
        r->error = e->has_q_errno ? (uint64_t)e->q_errno : EIO;
        r->sector = e->has_sector ? (uint64_t)e->sector : UINT64_MAX;
        r->once = e->has_once && e->once;
        g_ptr_array_add(specs, r);
        strong_opt(s, g_strconcat(p, "event", NULL),
                   bdrv_json_string(r->event));
        if (e->has_state) {
            strong_int(s, g_strconcat(p, "state", NULL), e->state);
        }
        if (e->has_iotype) {
            strong_opt(s, g_strconcat(p, "iotype", NULL),
                       bdrv_json_string(r->iotype));
        }
        if (e->has_q_errno) {
            strong_int(s, g_strconcat(p, "errno", NULL), e->q_errno);
        }
        if (e->has_sector) {
            strong_int(s, g_strconcat(p, "sector", NULL), e->sector);
        }
        if (e->has_once) {
            strong_opt(s, g_strconcat(p, "once", NULL),
                       g_strdup(e->once ? "true" : "false"));
        }
        if (e->has_immediately) {
            strong_opt(s, g_strconcat(p, "immediately", NULL),
                       g_strdup(e->immediately ? "true" : "false"));
        }
        g_free(p);
    }
    for (i = 0; o->has_set_state && i < o->set_state.len; i++) {
        const BlkdebugSetStateOptions *e = &o->set_state.items[i];
        RuleSpec *r = g_new0(RuleSpec, 1);
        char *p = g_strdup_printf("set-state.%u.", i);

        r->set_state = true;
        r->event = g_strdup(BlkdebugEvent_str[e->event]);
        r->state = e->has_state ? (uint64_t)e->state : 0;
        r->new_state = (uint64_t)e->new_state;
        g_ptr_array_add(specs, r);
        strong_opt(s, g_strconcat(p, "event", NULL),
                   bdrv_json_string(r->event));
        if (e->has_state) {
            strong_int(s, g_strconcat(p, "state", NULL), e->state);
        }
        strong_int(s, g_strconcat(p, "new_state", NULL), e->new_state);
        g_free(p);
    }
}

/* Rules in QEMU's order: every inject-error one, then every set-state */
static bool add_rules(BDRVBlkdebugState *s, GPtrArray *specs, Error **errp)
{
    int pass;
    guint i;

    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < specs->len; i++) {
            const RuleSpec *r = g_ptr_array_index(specs, i);
            BlkdebugRule *rule;

            if (r->set_state != pass) {
                continue;
            }
            rule = rule_new(r, errp);
            if (!rule) {
                return false;
            }
            g_ptr_array_add(s->rules, rule);
        }
    }
    return true;
}

static const char *const limit_names[] = {
    "align", "max-transfer", "opt-write-zero", "max-write-zero",
    "opt-discard", "max-discard",
};

static void limits_of(const BlockdevOptionsBlkdebug *o, bool has[6],
                      int64_t v[6])
{
    has[0] = o->has_align, v[0] = o->align;
    has[1] = o->has_max_transfer, v[1] = o->max_transfer;
    has[2] = o->has_opt_write_zero, v[2] = o->opt_write_zero;
    has[3] = o->has_max_write_zero, v[3] = o->max_write_zero;
    has[4] = o->has_opt_discard, v[4] = o->opt_discard;
    has[5] = o->has_max_discard, v[5] = o->max_discard;
}

/* QEMU reads these as sizes before anything else: negative is refused,
 * the first in its dictionary's order */
static bool check_limit_signs(const bool has[6], const int64_t v[6],
                              Error **errp)
{
    unsigned b;
    int i;

    for (b = 0; b < 512; b++) {
        for (i = 0; i < 6; i++) {
            if (has[i] && v[i] < 0 && bdrv_key_bucket(limit_names[i]) == b) {
                error_setg(errp, "Parameter '%s' expects a non-negative "
                           "number below 2^64", limit_names[i]);
                return false;
            }
        }
    }
    return true;
}

/*
 * QEMU's constraints (its texts); then values it would honour are refused
 * here, as requests are not split or aligned for a node
 */
static bool check_limits(BlockDriverState *bs, const bool has[6],
                         const int64_t v[6], Error **errp)
{
    uint64_t align = MAX((uint64_t)v[0] * has[0], bs->file->bs->
                         request_alignment);
    uint64_t base[6];
    int i;

    base[1] = base[2] = base[4] = align;
    base[3] = MAX((uint64_t)v[2] * has[2], align);
    base[5] = MAX((uint64_t)v[4] * has[4], align);
    for (i = 0; i < 6; i++) {
        uint64_t x = has[i] ? (uint64_t)v[i] : 0;

        if (x && (x >= INT32_MAX || (i == 0 ? (x & (x - 1)) != 0
                                            : x % base[i] != 0))) {
            error_setg(errp, "Cannot meet constraints with %s %" PRIu64,
                       limit_names[i], x);
            return false;
        }
    }
    for (i = 0; i < 6; i++) {
        if (has[i] && v[i]) {
            error_setg(errp, "blkdebug: %s is not supported by this build "
                       "(requests are not split or aligned for a node)",
                       limit_names[i]);
            return false;
        }
    }
    return true;
}

static unsigned perm_mask(const QapiList_BlockPermission *l, bool has)
{
    unsigned m = 0, i;

    /* BlockPermission's order is the permission bits' (QEMU's too) */
    for (i = 0; has && i < l->len; i++) {
        m |= 1u << l->items[i];
    }
    return m;
}

static bool blkdebug_open(BlockDriverState *bs, const BlockdevOptions *opts,
                          Error **errp)
{
    BDRVBlkdebugState *s = bs->opaque;
    const BlockdevOptionsBlkdebug *o = &opts->u.blkdebug;
    GPtrArray *specs = g_ptr_array_new_with_free_func(spec_free);
    bool has[6], ok;
    int64_t v[6];
    int i;

    g_mutex_init(&s->lock);
    s->rules = g_ptr_array_new_with_free_func(g_free);
    s->active = g_ptr_array_new();
    s->opt_keys = g_ptr_array_new_with_free_func(g_free);
    s->opt_values = g_ptr_array_new_with_free_func(g_free);
    limits_of(o, has, v);
    if (o->has_config) {
        s->config_file = g_strdup(o->config);
        strong_opt(s, g_strdup("config"), bdrv_json_string(o->config));
    }
    for (i = 0; i < 6; i++) {
        if (has[i]) {
            strong_int(s, g_strdup(limit_names[i]), v[i]);
        }
    }
    inline_rules(s, o, specs);
    /* The config file's rules come before the inline ones */
    ok = check_limit_signs(has, v, errp);
    if (ok) {
        GPtrArray *file_specs = g_ptr_array_new_with_free_func(spec_free);

        ok = read_config(s->config_file, file_specs, errp);
        for (i = 0; (guint)i < specs->len; i++) {
            g_ptr_array_add(file_specs, specs->pdata[i]);
        }
        g_ptr_array_set_free_func(specs, NULL);
        g_ptr_array_free(specs, TRUE);
        specs = file_specs;
    }
    ok = ok && add_rules(s, specs, errp);
    g_ptr_array_free(specs, TRUE);
    s->state = 1;
    s->take_perms = perm_mask(&o->take_child_perms, o->has_take_child_perms);
    s->unshare_perms = perm_mask(&o->unshare_child_perms,
                                 o->has_unshare_child_perms);
    ok = ok && bdrv_open_file_child(bs, &o->image, "image", errp) &&
         check_limits(bs, has, v, errp);
    if (ok) {
        bdrv_debug_event(bs, BLKDEBUG_EVENT_NONE);
    }
    return ok;
}

static void blkdebug_close(BlockDriverState *bs)
{
    BDRVBlkdebugState *s = bs->opaque;

    g_ptr_array_free(s->active, TRUE);
    g_ptr_array_free(s->rules, TRUE);
    g_ptr_array_free(s->opt_keys, TRUE);
    g_ptr_array_free(s->opt_values, TRUE);
    g_free(s->config_file);
    g_mutex_clear(&s->lock);
}

/* Events and requests ------------------------------------------------------ */

static void blkdebug_debug_event(BlockDriverState *bs, BlkdebugEvent event)
{
    BDRVBlkdebugState *s = bs->opaque;
    int new_state, injects = 0;
    guint i;

    g_mutex_lock(&s->lock);
    new_state = s->state;
    /* QEMU keeps each event's rules newest first: walk them backwards */
    for (i = s->rules->len; i-- > 0;) {
        BlkdebugRule *rule = g_ptr_array_index(s->rules, i);

        if (rule->event != event || (rule->state && rule->state != s->state)) {
            continue;
        }
        if (rule->set_state) {
            new_state = rule->new_state;
            continue;
        }
        if (!injects++) {
            g_ptr_array_set_size(s->active, 0);
        }
        g_ptr_array_insert(s->active, 0, rule);
    }
    s->state = new_state;
    g_mutex_unlock(&s->lock);
}

/* 0, or the errno (negative) of the rule that fails this request */
static int rule_check(BlockDriverState *bs, int64_t offset, int64_t bytes,
                      BlkdebugIOType iotype)
{
    BDRVBlkdebugState *s = bs->opaque;
    BlkdebugRule *rule = NULL;
    int error = 0;
    guint i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < s->active->len; i++) {
        BlkdebugRule *r = g_ptr_array_index(s->active, i);

        if ((r->offset == UINT64_MAX ||
             (bytes && r->offset >= (uint64_t)offset &&
              r->offset < (uint64_t)offset + bytes)) &&
            (r->iotype_mask & (1u << iotype))) {
            rule = r;
            break;
        }
    }
    if (rule && rule->error) {
        error = rule->error;
        if (rule->once) {
            g_ptr_array_remove(s->active, rule);
            g_ptr_array_remove(s->rules, rule);
        }
    }
    g_mutex_unlock(&s->lock);
    return -error;
}

static int blkdebug_preadv(BlockDriverState *bs, int64_t offset,
                           int64_t bytes, QEMUIOVector *qiov, int flags)
{
    int ret = rule_check(bs, offset, bytes, BLKDEBUG_IOTYPE_READ);

    return ret ? ret : bdrv_preadv(bs->file, offset, bytes, qiov, flags);
}

static int blkdebug_pwritev(BlockDriverState *bs, int64_t offset,
                            int64_t bytes, QEMUIOVector *qiov, int flags)
{
    int ret = rule_check(bs, offset, bytes, BLKDEBUG_IOTYPE_WRITE);

    return ret ? ret : bdrv_pwritev(bs->file, offset, bytes, qiov, flags);
}

static int blkdebug_pwrite_zeroes(BlockDriverState *bs, int64_t offset,
                                  int64_t bytes, int flags)
{
    int ret = rule_check(bs, offset, bytes, BLKDEBUG_IOTYPE_WRITE_ZEROES);

    return ret ? ret : bdrv_pwrite_zeroes(bs->file, offset, bytes, flags);
}

static int blkdebug_pdiscard(BlockDriverState *bs, int64_t offset,
                             int64_t bytes)
{
    int ret = rule_check(bs, offset, bytes, BLKDEBUG_IOTYPE_DISCARD);

    return ret ? ret : bdrv_pdiscard(bs->file, offset, bytes);
}

/* The child is flushed by the block layer; this is blkdebug's own part,
 * reached only when the node was written to since its last flush */
static int blkdebug_flush_to_disk(BlockDriverState *bs)
{
    return rule_check(bs, 0, 0, BLKDEBUG_IOTYPE_FLUSH);
}

/* QEMU has no such number for it (a protocol driver without one) */
static int64_t blkdebug_allocated_file_size(BlockDriverState *bs)
{
    return -ENOTSUP;
}

static int64_t blkdebug_getlength(BlockDriverState *bs)
{
    return bdrv_getlength(bs->file->bs);
}

/* A filter: what its users take, plus take-/unshare-child-perms */
static void blkdebug_child_perm(BlockDriverState *bs, BdrvChild *c,
                                unsigned perm, unsigned shared,
                                unsigned *nperm, unsigned *nshared)
{
    BDRVBlkdebugState *s = bs->opaque;

    *nperm = perm | s->take_perms;
    *nshared = shared & ~s->unshare_perms;
}

static void blkdebug_strong_options(BlockDriverState *bs, GPtrArray *keys,
                                    GPtrArray *values)
{
    BDRVBlkdebugState *s = bs->opaque;
    guint i;

    for (i = 0; i < s->opt_keys->len; i++) {
        g_ptr_array_add(keys, g_strdup(s->opt_keys->pdata[i]));
        g_ptr_array_add(values, g_strdup(s->opt_values->pdata[i]));
    }
}

/* "blkdebug:CONFIG:IMAGE" while config is the only strong option */
static char *blkdebug_exact_filename(BlockDriverState *bs)
{
    BDRVBlkdebugState *s = bs->opaque;
    const char *child = bdrv_get_filename(bs->file->bs);

    if (g_str_has_prefix(child, "json:") ||
        s->opt_keys->len > (s->config_file ? 1u : 0u)) {
        return NULL;
    }
    return g_strdup_printf("blkdebug:%s:%s",
                           s->config_file ? s->config_file : "", child);
}

const BlockDriver bdrv_blkdebug = {
    .format_name = "blkdebug",
    .driver = BLOCKDEV_DRIVER_BLKDEBUG,
    .instance_size = sizeof(BDRVBlkdebugState),
    .is_filter = true,
    .open = blkdebug_open,
    .close = blkdebug_close,
    .preadv = blkdebug_preadv,
    .pwritev = blkdebug_pwritev,
    .pwrite_zeroes = blkdebug_pwrite_zeroes,
    .pdiscard = blkdebug_pdiscard,
    .flush_to_disk = blkdebug_flush_to_disk,
    .getlength = blkdebug_getlength,
    .get_allocated_file_size = blkdebug_allocated_file_size,
    .no_image_info = true,
    .child_perm = blkdebug_child_perm,
    .strong_options = blkdebug_strong_options,
    .exact_filename = blkdebug_exact_filename,
    .debug_event = blkdebug_debug_event,
};
