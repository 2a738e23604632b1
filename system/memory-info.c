/*
 * HMP info mtree [-f]: the region tree and the flat views, in QEMU 7.2's
 * layout (as its human monitor prints them, line for line).
 *
 * info mtree: every address space, grouped by root ("address-space: N"
 * once per space sharing it, names sorted), then the tree with two spaces
 * of indentation per level; subregions in address order, the higher
 * priority first at one address; disabled regions are not printed (their
 * subregions are).  Regions that aliases point to follow, each under
 * "memory-region: N", in the order the aliases were met.
 *
 * -o adds each region's owner (and QOM parent), -D the disabled regions.
 *
 * info mtree -f: one block per distinct flat view ("FlatView #N", the
 * address spaces showing it, its root), each range with the priority and
 * name of the region that answers there, "@offset" inside that region
 * when not 0, and the accelerator's name where it maps the range.
 *
 * QEMU lists address spaces and flat views in hash-table order, which
 * varies; here they come in creation order.
 */
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "exec/memory.h"
#include "qemu/rcu.h"

#define MTREE_INDENT "  "

static const char *accel_name;
static MemoryAccelHasMemory *accel_has_memory;

void memory_set_accel_has_memory(const char *name, MemoryAccelHasMemory *fn)
{
    accel_name = name;
    accel_has_memory = fn;
}

static uint64_t mr_last_offset(Int128 size)
{
    return size ? (uint64_t)(size - 1) : 0;
}

static const char *memory_region_type(const MemoryRegion *mr)
{
    while (mr->alias) {
        mr = mr->alias;
    }
    if (mr->ram) {
        return mr->readonly ? "rom" : "ram";
    }
    return "i/o";
}

typedef struct MtreeOptions {
    bool owner;         /* -o */
    bool disabled;      /* -D */
} MtreeOptions;

/* -o: " owner:{id=ID}" or its path, and the QOM parent when different */
static void mtree_expand_owner(GString *out, const char *label, Object *obj)
{
    Object *dev = object_dynamic_cast(obj, "device");
    char *id = NULL;

    if (dev && object_property_find(dev, "id")) {
        id = object_property_get_str(dev, "id", NULL);
    }
    g_string_append_printf(out, " %s:{", label);
    if (id && *id) {
        g_string_append_printf(out, "id=%s", id);
    } else {
        char *path = object_get_canonical_path(obj);

        g_string_append_printf(out, "path=%s", path);
        g_free(path);
    }
    g_string_append(out, "}");
    g_free(id);
}

static void mtree_print_mr_owner(GString *out, MemoryRegion *mr)
{
    Object *owner = mr->owner, *parent = OBJECT(mr)->parent;

    if (!owner && !parent) {
        g_string_append(out, " orphan");
        return;
    }
    if (owner) {
        mtree_expand_owner(out, "owner", owner);
    }
    if (parent && parent != owner) {
        mtree_expand_owner(out, "parent", parent);
    }
}

static void mtree_print_mr(GString *out, MemoryRegion *mr, unsigned level,
                           uint64_t base, GPtrArray *alias_queue,
                           const MtreeOptions *opt)
{
    uint64_t start = base + mr->addr;
    uint64_t end = start + mr_last_offset(mr->size);
    GPtrArray *order;
    unsigned i;
    guint j;

    if (mr->enabled || opt->disabled) {
        /* QEMU 7.2 puts the mark before the indentation */
        if (start < base || end < start) {
            g_string_append(out, "[DETECTED OVERFLOW!] ");
        }
        for (i = 0; i < level; i++) {
            g_string_append(out, MTREE_INDENT);
        }
        g_string_append_printf(out, "%016" PRIx64 "-%016" PRIx64
                               " (prio %d, %s): ", start, end, mr->priority,
                               memory_region_type(mr));
        if (mr->alias) {
            g_string_append_printf(out, "alias %s @%s %016" PRIx64 "-%016"
                                   PRIx64, memory_region_name(mr),
                                   memory_region_name(mr->alias),
                                   mr->alias_offset,
                                   mr->alias_offset +
                                       mr_last_offset(mr->size));
        } else {
            g_string_append(out, memory_region_name(mr));
        }
        if (!mr->enabled) {
            g_string_append(out, " [disabled]");
        }
        if (opt->owner) {
            mtree_print_mr_owner(out, mr);
        }
        g_string_append(out, "\n");
    }
    if (mr->alias && !g_ptr_array_find(alias_queue, mr->alias, NULL)) {
        g_ptr_array_add(alias_queue, mr->alias);
    }

    /* By address; at one address the higher priority first */
    order = g_ptr_array_new();
    for (j = 0; j < mr->subregions->len; j++) {
        MemoryRegion *sub = g_ptr_array_index(mr->subregions, j);
        guint k;

        for (k = 0; k < order->len; k++) {
            MemoryRegion *o = g_ptr_array_index(order, k);

            if (sub->addr < o->addr ||
                (sub->addr == o->addr && sub->priority > o->priority)) {
                break;
            }
        }
        g_ptr_array_insert(order, k, sub);
    }
    for (j = 0; j < order->len; j++) {
        mtree_print_mr(out, g_ptr_array_index(order, j), level + 1, start,
                       alias_queue, opt);
    }
    g_ptr_array_free(order, TRUE);
}

static gint as_name_cmp(gconstpointer a, gconstpointer b)
{
    const AddressSpace *x = *(AddressSpace *const *)a;
    const AddressSpace *y = *(AddressSpace *const *)b;

    return strcmp(x->name, y->name);
}

static void mtree_info_tree(GString *out, const MtreeOptions *opt)
{
    GPtrArray *spaces = address_space_list();
    GPtrArray *roots = g_ptr_array_new();
    GPtrArray *alias_queue = g_ptr_array_new();
    guint i, j;

    for (i = 0; i < spaces->len; i++) {
        AddressSpace *as = g_ptr_array_index(spaces, i);

        if (!g_ptr_array_find(roots, as->root, NULL)) {
            g_ptr_array_add(roots, as->root);
        }
    }
    for (i = 0; i < roots->len; i++) {
        MemoryRegion *root = g_ptr_array_index(roots, i);
        GPtrArray *names = g_ptr_array_new();

        for (j = 0; j < spaces->len; j++) {
            AddressSpace *as = g_ptr_array_index(spaces, j);

            if (as->root == root) {
                g_ptr_array_add(names, as);
            }
        }
        g_ptr_array_sort(names, as_name_cmp);
        for (j = 0; j < names->len; j++) {
            g_string_append_printf(out, "address-space: %s\n",
                                   ((AddressSpace *)
                                    g_ptr_array_index(names, j))->name);
        }
        mtree_print_mr(out, root, 1, 0, alias_queue, opt);
        g_string_append(out, "\n");
        g_ptr_array_free(names, TRUE);
    }
    /* The queue grows while it is printed: aliases inside alias targets */
    for (i = 0; i < alias_queue->len; i++) {
        MemoryRegion *mr = g_ptr_array_index(alias_queue, i);

        g_string_append_printf(out, "memory-region: %s\n",
                               memory_region_name(mr));
        mtree_print_mr(out, mr, 1, 0, alias_queue, opt);
        g_string_append(out, "\n");
    }
    g_ptr_array_free(alias_queue, TRUE);
    g_ptr_array_free(roots, TRUE);
}

static void mtree_print_flatview(GString *out, FlatView *fv, int number,
                                 GPtrArray *spaces, const MtreeOptions *opt)
{
    guint i;
    unsigned r;

    g_string_append_printf(out, "FlatView #%d\n", number);
    for (i = 0; i < spaces->len; i++) {
        AddressSpace *as = g_ptr_array_index(spaces, i);

        g_string_append_printf(out, " AS \"%s\", root: %s", as->name,
                               memory_region_name(as->root));
        if (as->root->alias) {
            g_string_append_printf(out, ", alias %s",
                                   memory_region_name(as->root->alias));
        }
        g_string_append(out, "\n");
    }
    g_string_append_printf(out, " Root memory region: %s\n",
                           fv->root ? memory_region_name(fv->root)
                                    : "(none)");
    if (!fv->nr) {
        g_string_append(out, MTREE_INDENT "No rendered FlatView\n\n");
        return;
    }
    for (r = 0; r < fv->nr; r++) {
        const FlatRange *range = &fv->ranges[r];
        MemoryRegion *mr = range->mr;

        g_string_append_printf(out, MTREE_INDENT "%016" PRIx64 "-%016" PRIx64
                               " (prio %d, %s): %s", range->start,
                               range->start + mr_last_offset(range->size),
                               mr->priority,
                               range->readonly ? "rom"
                                               : memory_region_type(mr),
                               memory_region_name(mr));
        if (range->offset_in_region) {
            g_string_append_printf(out, " @%016" PRIx64,
                                   range->offset_in_region);
        }
        if (opt->owner) {
            mtree_print_mr_owner(out, mr);
        }
        for (i = 0; accel_has_memory && i < spaces->len; i++) {
            if (accel_has_memory(g_ptr_array_index(spaces, i), range->start,
                                 (hwaddr)range->size)) {
                g_string_append_printf(out, " %s", accel_name);
            }
        }
        g_string_append(out, "\n");
    }
    g_string_append(out, "\n");
}

static void mtree_info_flatview(GString *out, const MtreeOptions *opt)
{
    GPtrArray *spaces = address_space_list();
    GPtrArray *views = g_ptr_array_new();
    guint i, j;

    for (i = 0; i < spaces->len; i++) {
        FlatView *fv = ((AddressSpace *)g_ptr_array_index(spaces, i))
                           ->current_map;

        if (!g_ptr_array_find(views, fv, NULL)) {
            g_ptr_array_add(views, fv);
        }
    }
    for (i = 0; i < views->len; i++) {
        FlatView *fv = g_ptr_array_index(views, i);
        GPtrArray *showing = g_ptr_array_new();

        for (j = 0; j < spaces->len; j++) {
            AddressSpace *as = g_ptr_array_index(spaces, j);

            if (as->current_map == fv) {
                g_ptr_array_add(showing, as);
            }
        }
        mtree_print_flatview(out, fv, i, showing, opt);
        g_ptr_array_free(showing, TRUE);
    }
    g_ptr_array_free(views, TRUE);
}

void mtree_info(GString *out, bool flatview)
{
    MtreeOptions opt = { false, false };

    memory_tree_lock();
    if (flatview) {
        mtree_info_flatview(out, &opt);
    } else {
        mtree_info_tree(out, &opt);
    }
    memory_tree_unlock();
}

char *mtree_info_text(bool flatview, bool owner, bool disabled)
{
    MtreeOptions opt = { owner, disabled };
    GString *out = g_string_new(NULL);

    memory_tree_lock();
    if (flatview) {
        mtree_info_flatview(out, &opt);
    } else {
        mtree_info_tree(out, &opt);
    }
    memory_tree_unlock();
    return g_string_free(out, FALSE);
}
