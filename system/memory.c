/*
 * The memory API's regions, transactions and flat views (see
 * include/exec/memory.h).  Dispatch of accesses is in system/physmem.c,
 * info mtree in system/memory-info.c.
 *
 * Rendering follows QEMU 7.2: a region is drawn at its address with its
 * subregions first, in priority order (highest first, the newest first
 * among equals), then itself into whatever gaps they leave, if it
 * terminates (RAM or I/O); an alias draws its target through the window.
 * Adjacent pieces of one region at consecutive offsets are merged.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <glib.h>

#include "exec/memory.h"
#include "qemu/rcu.h"
#include "sysemu/hostmem.h"

static GRecMutex memory_lock;
static int transaction_depth;
static bool update_pending;
static GPtrArray *address_spaces;   /* AddressSpace*, creation order */

void memory_tree_lock(void)
{
    g_rec_mutex_lock(&memory_lock);
}

void memory_tree_unlock(void)
{
    g_rec_mutex_unlock(&memory_lock);
}

GPtrArray *address_space_list(void)
{
    if (!address_spaces) {
        address_spaces = g_ptr_array_new();
    }
    return address_spaces;
}

/* The QOM type ------------------------------------------------------------- */

static JsonNode *mr_get_addr(Object *obj, ObjectProperty *prop, Error **errp)
{
    return json_node_init_int(json_node_alloc(),
                              (gint64)((MemoryRegion *)obj)->addr);
}

static JsonNode *mr_get_size(Object *obj, ObjectProperty *prop, Error **errp)
{
    return json_node_init_int(json_node_alloc(),
                              (gint64)memory_region_size((MemoryRegion *)obj));
}

static JsonNode *mr_get_priority(Object *obj, ObjectProperty *prop,
                                 Error **errp)
{
    /* QEMU's type says uint32; the value is the signed priority */
    return json_node_init_int(json_node_alloc(),
                              ((MemoryRegion *)obj)->priority);
}

static JsonNode *mr_get_container(Object *obj, ObjectProperty *prop,
                                  Error **errp)
{
    MemoryRegion *c = ((MemoryRegion *)obj)->container;
    char *path = c ? object_get_canonical_path(OBJECT(c)) : g_strdup("");
    JsonNode *n = json_node_init_string(json_node_alloc(), path);

    g_free(path);
    return n;
}

static void memory_region_class_init(ObjectClass *oc, void *data)
{
    object_class_property_add(oc, "container", "link<memory-region>",
                              mr_get_container, NULL, NULL);
    object_class_property_add(oc, "addr", "uint64", mr_get_addr, NULL, NULL);
    object_class_property_add(oc, "priority", "uint32", mr_get_priority,
                              NULL, NULL);
    object_class_property_add(oc, "size", "uint64", mr_get_size, NULL, NULL);
}

static void memory_region_finalize(Object *obj)
{
    MemoryRegion *mr = (MemoryRegion *)obj;

    g_assert(!mr->container);
    while (mr->subregions->len) {
        MemoryRegion *sub = g_ptr_array_index(mr->subregions, 0);

        sub->container = NULL;
        g_ptr_array_remove_index(mr->subregions, 0);
    }
    g_ptr_array_free(mr->subregions, TRUE);
    if (mr->ram_mapped && mr->ram_ptr) {
        munmap(mr->ram_ptr, (size_t)mr->size);
    }
    g_free(mr->name);
}

static const TypeInfo memory_region_info = {
    .name = TYPE_MEMORY_REGION,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(MemoryRegion),
    .class_init = memory_region_class_init,
    .instance_finalize = memory_region_finalize,
};

static void memory_register_types(void)
{
    type_register_static(&memory_region_info);
}
type_init(memory_register_types)

/* Creation ------------------------------------------------------------------ */

/* QOM child names cannot hold '/': QEMU writes it as \x2f */
static char *memory_region_escape_name(const char *name)
{
    GString *s = g_string_new(NULL);
    const char *p;

    for (p = name; *p; p++) {
        if (*p == '/') {
            g_string_append(s, "\\x2f");
        } else {
            g_string_append_c(s, *p);
        }
    }
    return g_string_free(s, FALSE);
}

void memory_region_init(MemoryRegion *mr, Object *owner, const char *name,
                        uint64_t size)
{
    object_initialize(mr, sizeof(*mr), TYPE_MEMORY_REGION);
    mr->enabled = true;
    mr->size = size == UINT64_MAX ? (Int128)1 << 64 : size;
    mr->name = g_strdup(name);
    mr->owner = owner;
    mr->subregions = g_ptr_array_new();
    if (name) {
        char *escaped = memory_region_escape_name(name);
        char *child = g_strdup_printf("%s[*]", escaped);
        Object *parent = owner;

        if (!parent) {
            parent = object_resolve_path("/machine/unattached");
        }
        if (parent) {
            object_property_add_child(parent, child, OBJECT(mr));
            object_unref(OBJECT(mr));
        }
        g_free(child);
        g_free(escaped);
    }
}

void memory_region_init_io(MemoryRegion *mr, Object *owner,
                           const MemoryRegionOps *ops, void *opaque,
                           const char *name, uint64_t size)
{
    memory_region_init(mr, owner, name, size);
    mr->ops = ops;
    mr->opaque = opaque;
    mr->terminates = true;
}

void memory_region_init_ram_ptr(MemoryRegion *mr, Object *owner,
                                const char *name, uint64_t size, void *ptr)
{
    memory_region_init(mr, owner, name, size);
    mr->ram = true;
    mr->terminates = true;
    mr->ram_ptr = ptr;
}

bool memory_region_init_ram(MemoryRegion *mr, Object *owner,
                            const char *name, uint64_t size, Error **errp)
{
    void *p;

    if (!size) {
        error_setg(errp, "cannot set up guest memory '%s': size is 0", name);
        return false;
    }
    /* Every RAM region is mapped as the machine's RAM backing says */
    p = host_mem_map(name, size, host_mem_ram_backing(), errp);
    if (!p) {
        return false;
    }
    memory_region_init_ram_ptr(mr, owner, name, size, p);
    mr->ram_mapped = true;
    return true;
}

bool memory_region_init_rom(MemoryRegion *mr, Object *owner,
                            const char *name, uint64_t size, Error **errp)
{
    if (!memory_region_init_ram(mr, owner, name, size, errp)) {
        return false;
    }
    mr->readonly = true;
    return true;
}

void memory_region_init_alias(MemoryRegion *mr, Object *owner,
                              const char *name, MemoryRegion *orig,
                              hwaddr offset, uint64_t size)
{
    memory_region_init(mr, owner, name, size);
    mr->alias = orig;
    mr->alias_offset = offset;
}

const char *memory_region_name(const MemoryRegion *mr)
{
    return mr->name ? mr->name : "";
}

uint64_t memory_region_size(const MemoryRegion *mr)
{
    return mr->size > UINT64_MAX ? UINT64_MAX : (uint64_t)mr->size;
}

bool memory_region_is_ram(const MemoryRegion *mr)
{
    return mr->ram;
}

bool memory_region_is_rom(const MemoryRegion *mr)
{
    return mr->ram && mr->readonly;
}

void *memory_region_get_ram_ptr(MemoryRegion *mr)
{
    while (mr->alias) {
        mr = mr->alias;
    }
    return mr->ram_ptr;
}

Object *memory_region_owner(const MemoryRegion *mr)
{
    return mr->owner;
}

/* Transactions --------------------------------------------------------------- */

static void address_space_update(AddressSpace *as, GHashTable *views);

void memory_region_transaction_begin(void)
{
    g_rec_mutex_lock(&memory_lock);
    transaction_depth++;
}

void memory_region_transaction_commit(void)
{
    g_assert(transaction_depth > 0);
    if (--transaction_depth == 0 && update_pending) {
        /* Address spaces with the same root share one rendering */
        GHashTable *views = g_hash_table_new_full(NULL, NULL, NULL,
                                                  (GDestroyNotify)
                                                  flatview_unref);
        guint i;

        update_pending = false;
        for (i = 0; address_spaces && i < address_spaces->len; i++) {
            address_space_update(g_ptr_array_index(address_spaces, i),
                                 views);
        }
        g_hash_table_destroy(views);
    }
    g_rec_mutex_unlock(&memory_lock);
}

static void memory_region_changed(void)
{
    update_pending = true;
}

/* The tree ------------------------------------------------------------------- */

/*
 * A mapped region keeps its owner alive (or itself, without one), except
 * inside its own owner's regions, where that would be a cycle
 */
static Object *memory_region_holder(MemoryRegion *mr)
{
    return mr->owner ? mr->owner : OBJECT(mr);
}

static void memory_region_ref_in(MemoryRegion *container, MemoryRegion *sub)
{
    if (!sub->owner || sub->owner != container->owner) {
        object_ref(memory_region_holder(sub));
    }
}

static void memory_region_unref_in(MemoryRegion *container,
                                   MemoryRegion *sub)
{
    if (!sub->owner || sub->owner != container->owner) {
        object_unref(memory_region_holder(sub));
    }
}

static void memory_region_insert(MemoryRegion *mr, MemoryRegion *sub)
{
    guint i;

    g_assert(!sub->container);
    sub->container = mr;
    /* Before the first of lower or equal priority: newest wins ties */
    for (i = 0; i < mr->subregions->len; i++) {
        MemoryRegion *other = g_ptr_array_index(mr->subregions, i);

        if (sub->priority >= other->priority) {
            break;
        }
    }
    g_ptr_array_insert(mr->subregions, i, sub);
}

static void memory_region_add_subregion_common(MemoryRegion *mr,
                                               hwaddr offset,
                                               MemoryRegion *sub)
{
    memory_region_transaction_begin();
    sub->addr = offset;
    memory_region_insert(mr, sub);
    memory_region_ref_in(mr, sub);
    memory_region_changed();
    memory_region_transaction_commit();
}

void memory_region_add_subregion(MemoryRegion *mr, hwaddr offset,
                                 MemoryRegion *subregion)
{
    subregion->priority = 0;
    memory_region_add_subregion_common(mr, offset, subregion);
}

void memory_region_add_subregion_overlap(MemoryRegion *mr, hwaddr offset,
                                         MemoryRegion *subregion,
                                         int priority)
{
    subregion->priority = priority;
    memory_region_add_subregion_common(mr, offset, subregion);
}

void memory_region_del_subregion(MemoryRegion *mr, MemoryRegion *subregion)
{
    memory_region_transaction_begin();
    g_assert(subregion->container == mr);
    subregion->container = NULL;
    g_ptr_array_remove(mr->subregions, subregion);
    memory_region_changed();
    memory_region_transaction_commit();
    memory_region_unref_in(mr, subregion);
}

void memory_region_set_enabled(MemoryRegion *mr, bool enabled)
{
    memory_region_transaction_begin();
    if (mr->enabled != enabled) {
        mr->enabled = enabled;
        memory_region_changed();
    }
    memory_region_transaction_commit();
}

void memory_region_set_readonly(MemoryRegion *mr, bool readonly)
{
    memory_region_transaction_begin();
    if (mr->readonly != readonly) {
        mr->readonly = readonly;
        memory_region_changed();
    }
    memory_region_transaction_commit();
}

void memory_region_set_address(MemoryRegion *mr, hwaddr addr)
{
    MemoryRegion *container = mr->container;

    memory_region_transaction_begin();
    if (addr != mr->addr) {
        if (container) {
            /* Re-inserted: the move makes it the newest among equals */
            g_ptr_array_remove(container->subregions, mr);
            mr->container = NULL;
            mr->addr = addr;
            memory_region_insert(container, mr);
        } else {
            mr->addr = addr;
        }
        memory_region_changed();
    }
    memory_region_transaction_commit();
}

void memory_region_set_alias_offset(MemoryRegion *mr, hwaddr offset)
{
    memory_region_transaction_begin();
    if (offset != mr->alias_offset) {
        mr->alias_offset = offset;
        memory_region_changed();
    }
    memory_region_transaction_commit();
}

/* Flat views ------------------------------------------------------------------ */

static FlatView *flatview_new(MemoryRegion *root)
{
    FlatView *fv = g_new0(FlatView, 1);

    fv->ref = 1;
    fv->root = root;
    return fv;
}

void flatview_ref(FlatView *fv)
{
    g_atomic_int_inc(&fv->ref);
}

static void flatview_destroy(void *opaque)
{
    FlatView *fv = opaque;
    unsigned i;

    for (i = 0; i < fv->nr; i++) {
        object_unref(memory_region_holder(fv->ranges[i].mr));
    }
    g_free(fv->ranges);
    g_free(fv);
}

void flatview_unref(FlatView *fv)
{
    if (fv && g_atomic_int_dec_and_test(&fv->ref)) {
        /* A reader may still look at it: free after a grace period */
        rcu_defer_free(flatview_destroy, fv);
    }
}

static void flatview_insert(FlatView *fv, unsigned pos, const FlatRange *r)
{
    if (fv->nr == fv->nr_allocated) {
        fv->nr_allocated = MAX(2 * fv->nr_allocated, 16);
        fv->ranges = g_renew(FlatRange, fv->ranges, fv->nr_allocated);
    }
    memmove(&fv->ranges[pos + 1], &fv->ranges[pos],
            (fv->nr - pos) * sizeof(FlatRange));
    fv->ranges[pos] = *r;
    fv->nr++;
}

static Int128 i128_min(Int128 a, Int128 b)
{
    return a < b ? a : b;
}

/*
 * Draws mr, seen at base (the address of its container's origin), into
 * the part of the address space clip_start..clip_end (exclusive).
 */
static void render_memory_region(FlatView *fv, MemoryRegion *mr, Int128 base,
                                 Int128 clip_start, Int128 clip_end,
                                 bool readonly)
{
    Int128 start, end, remain, offset_in_region;
    FlatRange fr;
    unsigned i;

    if (!mr->enabled) {
        return;
    }
    base += mr->addr;
    readonly |= mr->readonly;
    start = base;
    end = base + mr->size;
    if (end <= clip_start || start >= clip_end) {
        return;
    }
    clip_start = start > clip_start ? start : clip_start;
    clip_end = i128_min(end, clip_end);

    if (mr->alias) {
        render_memory_region(fv, mr->alias,
                             base - mr->alias->addr - mr->alias_offset,
                             clip_start, clip_end, readonly);
        return;
    }
    for (i = 0; i < mr->subregions->len; i++) {
        render_memory_region(fv, g_ptr_array_index(mr->subregions, i), base,
                             clip_start, clip_end, readonly);
    }
    if (!mr->terminates) {
        return;
    }

    offset_in_region = clip_start - base;
    base = clip_start;
    remain = clip_end - clip_start;
    fr.mr = mr;
    fr.readonly = readonly;
    /* Into the gaps the view has between base and base + remain */
    for (i = 0; i < fv->nr && remain; i++) {
        Int128 rstart = fv->ranges[i].start;
        Int128 rend = rstart + fv->ranges[i].size;
        Int128 now;

        if (base >= rend) {
            continue;
        }
        if (base < rstart) {
            now = i128_min(remain, rstart - base);
            fr.offset_in_region = (hwaddr)offset_in_region;
            fr.start = (hwaddr)base;
            fr.size = now;
            flatview_insert(fv, i, &fr);
            i++;
            base += now;
            offset_in_region += now;
            remain -= now;
        }
        now = i128_min(base + remain, rend) - base;
        base += now;
        offset_in_region += now;
        remain -= now;
    }
    if (remain) {
        fr.offset_in_region = (hwaddr)offset_in_region;
        fr.start = (hwaddr)base;
        fr.size = remain;
        flatview_insert(fv, i, &fr);
    }
}

static bool flat_range_can_merge(const FlatRange *a, const FlatRange *b)
{
    return a->mr == b->mr && (Int128)a->start + a->size == b->start &&
           (Int128)a->offset_in_region + a->size == b->offset_in_region &&
           a->readonly == b->readonly;
}

static void flatview_simplify(FlatView *fv)
{
    unsigned i = 0, j, k;

    while (i < fv->nr) {
        j = i + 1;
        while (j < fv->nr && flat_range_can_merge(&fv->ranges[j - 1],
                                                  &fv->ranges[j])) {
            fv->ranges[i].size += fv->ranges[j].size;
            j++;
        }
        i++;
        k = j - i;
        if (k) {
            memmove(&fv->ranges[i], &fv->ranges[j],
                    (fv->nr - j) * sizeof(FlatRange));
            fv->nr -= k;
        }
    }
}

/*
 * The region a view is drawn from: the root, or what it reduces to when
 * it is an alias of a whole region or a container with one enabled child
 * covering it (so that address spaces share views); NULL if nothing in it
 * is enabled.  QEMU 7.2's rule, visible in info mtree -f.
 */
static MemoryRegion *memory_region_get_flatview_root(MemoryRegion *mr)
{
    while (mr->enabled) {
        if (mr->alias) {
            if (!mr->alias_offset && mr->size >= mr->alias->size) {
                mr = mr->alias;
                continue;
            }
        } else if (!mr->terminates) {
            MemoryRegion *next = NULL;
            unsigned found = 0;
            guint i;

            for (i = 0; i < mr->subregions->len; i++) {
                MemoryRegion *child = g_ptr_array_index(mr->subregions, i);

                if (!child->enabled) {
                    continue;
                }
                if (++found > 1) {
                    next = NULL;
                    break;
                }
                if (!child->addr && mr->size >= child->size) {
                    next = child;
                }
            }
            if (!found) {
                return NULL;
            }
            if (next) {
                mr = next;
                continue;
            }
        }
        return mr;
    }
    return NULL;
}

FlatView *generate_memory_topology(MemoryRegion *mr)
{
    MemoryRegion *root = mr ? memory_region_get_flatview_root(mr) : NULL;
    FlatView *fv = flatview_new(root);
    unsigned i;

    if (root) {
        render_memory_region(fv, root, 0, 0, (Int128)1 << 64, false);
    }
    flatview_simplify(fv);
    for (i = 0; i < fv->nr; i++) {
        object_ref(memory_region_holder(fv->ranges[i].mr));
    }
    return fv;
}

const FlatRange *flatview_lookup(const FlatView *fv, hwaddr addr)
{
    unsigned lo = 0, hi = fv->nr;

    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        const FlatRange *r = &fv->ranges[mid];

        if ((Int128)r->start + r->size <= addr) {
            lo = mid + 1;
        } else if (r->start > addr) {
            hi = mid;
        } else {
            return r;
        }
    }
    return NULL;
}

/* Address spaces -------------------------------------------------------------- */

FlatView *address_space_to_flatview(AddressSpace *as)
{
    return __atomic_load_n(&as->current_map, __ATOMIC_ACQUIRE);
}

FlatView *address_space_get_flatview(AddressSpace *as)
{
    FlatView *fv;

    memory_tree_lock();
    fv = as->current_map;
    flatview_ref(fv);
    memory_tree_unlock();
    return fv;
}

static void address_space_update(AddressSpace *as, GHashTable *views)
{
    MemoryRegion *root = memory_region_get_flatview_root(as->root);
    FlatView *old = as->current_map, *fv;
    guint i;

    /* spaces with nothing to render (no root) share one empty view, as
     * in QEMU 7.2 (a disabled bus master's: info mtree -f lists them
     * together) */
    static char no_root;
    gpointer key = root ? (gpointer)root : &no_root;

    fv = g_hash_table_lookup(views, key);
    if (fv) {
        flatview_ref(fv);
    } else {
        fv = generate_memory_topology(as->root);
        flatview_ref(fv);
        g_hash_table_insert(views, key, fv);
    }
    for (i = 0; i < as->listeners->len; i++) {
        MemoryListener *l = g_ptr_array_index(as->listeners, i);

        l->commit(l, as, old, fv);
    }
    __atomic_store_n(&as->current_map, fv, __ATOMIC_RELEASE);
    flatview_unref(old);
}

void address_space_init(AddressSpace *as, MemoryRegion *root,
                        const char *name)
{
    g_assert(!as->initialized);
    memory_region_transaction_begin();
    as->name = g_strdup(name);
    as->root = root;
    object_ref(OBJECT(root));
    as->listeners = g_ptr_array_new();
    as->current_map = flatview_new(NULL);
    as->initialized = true;
    g_ptr_array_add(address_space_list(), as);
    memory_region_changed();
    memory_region_transaction_commit();
}

void address_space_destroy(AddressSpace *as)
{
    memory_region_transaction_begin();
    g_ptr_array_remove(address_spaces, as);
    flatview_unref(as->current_map);
    as->current_map = NULL;
    g_ptr_array_free(as->listeners, TRUE);
    object_unref(OBJECT(as->root));
    g_free(as->name);
    as->initialized = false;
    memory_region_transaction_commit();
}

void memory_listener_register(MemoryListener *l, AddressSpace *as)
{
    memory_region_transaction_begin();
    g_ptr_array_add(as->listeners, l);
    /* The listener learns the current state as a change from nothing */
    l->commit(l, as, NULL, as->current_map);
    memory_region_transaction_commit();
}

void memory_listener_unregister(MemoryListener *l, AddressSpace *as)
{
    memory_region_transaction_begin();
    g_ptr_array_remove(as->listeners, l);
    memory_region_transaction_commit();
}

/* The machine's two roots ------------------------------------------------------ */

static MemoryRegion system_memory, system_io;
AddressSpace address_space_memory, address_space_io;

static uint64_t unassigned_io_read(void *opaque, hwaddr addr, unsigned size)
{
    return UINT64_MAX;
}

static void unassigned_io_write(void *opaque, hwaddr addr, uint64_t data,
                                unsigned size)
{
}

/* An unclaimed port reads all-ones, as QEMU 7.2's "io" region answers */
static const MemoryRegionOps unassigned_io_ops = {
    .read = unassigned_io_read,
    .write = unassigned_io_write,
    .endianness = DEVICE_NATIVE_ENDIAN,
};

static void memory_init_roots(void)
{
    static bool done;

    if (done) {
        return;
    }
    done = true;
    memory_region_init(&system_memory, NULL, "system", UINT64_MAX);
    memory_region_init_io(&system_io, NULL, &unassigned_io_ops, NULL, "io",
                          0x10000);
    address_space_init(&address_space_memory, &system_memory, "memory");
    address_space_init(&address_space_io, &system_io, "I/O");
}

MemoryRegion *get_system_memory(void)
{
    memory_init_roots();
    return &system_memory;
}

MemoryRegion *get_system_io(void)
{
    memory_init_roots();
    return &system_io;
}
