/*
 * Edges and permissions of the node graph (include/block/block.h): what
 * each parent takes and shares on a child, the union and intersection
 * over a node's parents, and the protocol nodes' image locks that follow
 * from them.  Changes are all-or-nothing: a conflict (another process's
 * lock, a read-only node asked to write) undoes what was changed.
 */
#include "block/block_int.h"

/* Permissions ----------------------------------------------------------------- */

/*
 * The permissions a format node takes on its children, as QEMU 7.2 takes
 * them (its rules for COW, metadata and data children; observed through
 * its image locks):
 *   backing: reads if its users read; shares writes and resizes only if
 *            its users do; always shares reads and unchanged writes;
 *   storage: what its users take, plus reads (metadata) and, when the
 *            node is writable, writes and resizes; never shares writes
 *            or resizes.
 */
void bdrv_format_child_perm(BlockDriverState *bs, BdrvChild *c,
                            unsigned perm, unsigned shared, unsigned *nperm,
                            unsigned *nshared)
{
    if (c == bs->backing) {
        *nperm = perm & BLK_PERM_CONSISTENT_READ;
        *nshared = (shared & BLK_PERM_WRITE)
                       ? BLK_PERM_WRITE | BLK_PERM_RESIZE : 0;
        *nshared |= BLK_PERM_CONSISTENT_READ | BLK_PERM_WRITE_UNCHANGED;
        return;
    }
    *nperm = perm | BLK_PERM_CONSISTENT_READ;
    if (!bs->read_only) {
        *nperm |= BLK_PERM_WRITE | BLK_PERM_RESIZE;
    }
    *nshared = shared & ~(BLK_PERM_WRITE | BLK_PERM_RESIZE);
    bdrv_data_child_perm(nperm, nshared);
}

/* A child holding the guest's data: nobody else may resize it */
void bdrv_data_child_perm(unsigned *nperm, unsigned *nshared)
{
    *nshared &= ~BLK_PERM_RESIZE;
    if (*nperm & BLK_PERM_WRITE_UNCHANGED) {
        *nperm |= BLK_PERM_WRITE;
    }
    if (*nperm & BLK_PERM_WRITE) {
        *nperm |= BLK_PERM_RESIZE;
    }
}

static void cumulative_perm(BlockDriverState *bs, unsigned *perm,
                            unsigned *shared)
{
    guint i;

    *perm = 0;
    *shared = BLK_PERM_ALL;
    for (i = 0; i < bs->parents->len; i++) {
        BdrvChild *c = g_ptr_array_index(bs->parents, i);

        *perm |= c->perm;
        *shared &= c->shared_perm;
    }
}

typedef struct PermUndo {
    BlockDriverState *bs;       /* a node, or */
    BdrvChild *c;               /* an edge */
    unsigned perm, shared;
} PermUndo;

static void perm_undo(GArray *undo)
{
    guint i;

    for (i = undo->len; i-- > 0;) {
        PermUndo *u = &g_array_index(undo, PermUndo, i);

        if (u->c) {
            u->c->perm = u->perm;
            u->c->shared_perm = u->shared;
        } else {
            if (u->bs->drv->set_perm) {
                u->bs->drv->set_perm(u->bs, u->perm, u->shared, NULL);
            }
            u->bs->perm = u->perm;
            u->bs->shared_perm = u->shared;
        }
    }
}

/*
 * Recomputes bs's permissions from its parents, makes them effective
 * (protocols lock), and goes on with its children.  What it changes is
 * recorded in undo.
 */
static bool refresh_perms(BlockDriverState *bs, GArray *undo, Error **errp)
{
    BdrvChild *children[2] = { bs->file, bs->backing };
    unsigned perm, shared;
    PermUndo u = { .bs = bs, .perm = bs->perm, .shared = bs->shared_perm };
    int i;

    cumulative_perm(bs, &perm, &shared);
    if ((perm & (BLK_PERM_WRITE | BLK_PERM_RESIZE)) && bs->read_only) {
        error_setg(errp, "Block node is read-only");
        return false;
    }
    g_array_append_val(undo, u);
    if (bs->drv->set_perm && !bs->drv->set_perm(bs, perm, shared, errp)) {
        g_array_set_size(undo, undo->len - 1);
        return false;
    }
    bs->perm = perm;
    bs->shared_perm = shared;
    for (i = 0; i < 2; i++) {
        BdrvChild *c = children[i];
        PermUndo cu;

        if (!c) {
            continue;
        }
        cu = (PermUndo){ .c = c, .perm = c->perm, .shared = c->shared_perm };
        g_array_append_val(undo, cu);
        if (bs->drv->child_perm) {
            bs->drv->child_perm(bs, c, perm, shared, &c->perm,
                                &c->shared_perm);
        } else {
            c->perm = perm;
            c->shared_perm = shared;
        }
        if (bs->force_share) {
            c->shared_perm = BLK_PERM_ALL;
        }
        if (!refresh_perms(c->bs, undo, errp)) {
            return false;
        }
    }
    return true;
}

static bool update_perms(BlockDriverState *bs, GArray *undo, Error **errp)
{
    if (!refresh_perms(bs, undo, errp)) {
        perm_undo(undo);
        return false;
    }
    return true;
}

bool bdrv_refresh_perms(BlockDriverState *bs, Error **errp)
{
    GArray *undo = g_array_new(FALSE, FALSE, sizeof(PermUndo));
    bool ok = update_perms(bs, undo, errp);

    g_array_free(undo, TRUE);
    return ok;
}

BdrvChild *bdrv_attach_child(BlockDriverState *parent, BlockDriverState *child,
                             const char *name, unsigned perm, unsigned shared,
                             Error **errp)
{
    BdrvChild *c = g_new0(BdrvChild, 1);
    GArray *undo = g_array_new(FALSE, FALSE, sizeof(PermUndo));
    bool ok;

    c->bs = child;
    c->parent = parent;
    c->name = name;
    c->perm = perm;
    c->shared_perm = shared;
    if (parent && parent->drv->child_perm) {
        /* A format node's edge, from what its own parents take now */
        unsigned p, s;

        cumulative_perm(parent, &p, &s);
        if (!strcmp(name, "file")) {
            parent->file = c;
        } else {
            parent->backing = c;
        }
        parent->drv->child_perm(parent, c, p, s, &c->perm, &c->shared_perm);
        if (!strcmp(name, "file")) {
            parent->file = NULL;
        } else {
            parent->backing = NULL;
        }
        if (parent->force_share) {
            c->shared_perm = BLK_PERM_ALL;
        }
    }
    g_ptr_array_add(child->parents, c);
    ok = update_perms(child, undo, errp);
    g_array_free(undo, TRUE);
    if (!ok) {
        g_ptr_array_remove(child->parents, c);
        g_free(c);
        return NULL;
    }
    bdrv_ref(child);
    return c;
}

void bdrv_detach_child(BdrvChild *c)
{
    BlockDriverState *child = c->bs;
    GArray *undo = g_array_new(FALSE, FALSE, sizeof(PermUndo));

    g_ptr_array_remove(child->parents, c);
    /* Dropping permissions cannot conflict */
    refresh_perms(child, undo, NULL);
    g_array_free(undo, TRUE);
    g_free(c);
    bdrv_unref(child);
}

bool bdrv_child_set_perm(BdrvChild *c, unsigned perm, unsigned shared,
                         Error **errp)
{
    GArray *undo = g_array_new(FALSE, FALSE, sizeof(PermUndo));
    PermUndo cu = { .c = c, .perm = c->perm, .shared = c->shared_perm };
    bool ok;

    g_array_append_val(undo, cu);
    c->perm = perm;
    c->shared_perm = shared;
    ok = update_perms(c->bs, undo, errp);
    if (!ok) {
        c->perm = cu.perm;
        c->shared_perm = cu.shared;
    }
    g_array_free(undo, TRUE);
    return ok;
}

