/*
 * qcow2's metadata caches: L2 tables and refcount blocks, one cluster
 * each, kept in memory and written back on flush or eviction (least
 * recently used first).  Write ordering between the two caches is the
 * caller's business (qcow2.h); an eviction hook lets the L2 cache make
 * the refcounts stable before it writes a table out.
 */
#include <errno.h>
#include <string.h>

#include "block/qcow2.h"

typedef struct Qcow2CacheEntry {
    uint64_t offset;                /* 0: free slot */
    void *table;
    bool dirty;
    uint64_t last_used;
} Qcow2CacheEntry;

struct Qcow2Cache {
    Qcow2CacheEntry *entries;
    int size;
    uint32_t table_size;
    uint64_t clock;
    GHashTable *index;              /* offset -> entry number + 1 */
    int (*evict_hook)(BlockDriverState *bs);
};

Qcow2Cache *qcow2_cache_new(int entries, uint32_t table_size)
{
    Qcow2Cache *c = g_new0(Qcow2Cache, 1);

    c->size = MAX(entries, 2);
    c->table_size = table_size;
    /* Tables are allocated when first used: most images need few */
    c->entries = g_new0(Qcow2CacheEntry, c->size);
    c->index = g_hash_table_new(g_int64_hash, g_int64_equal);
    return c;
}

void qcow2_cache_free(Qcow2Cache *c)
{
    int i;

    if (!c) {
        return;
    }
    for (i = 0; i < c->size; i++) {
        g_free(c->entries[i].table);
    }
    g_hash_table_destroy(c->index);
    g_free(c->entries);
    g_free(c);
}

void qcow2_cache_set_evict_hook(Qcow2Cache *c,
                                int (*hook)(BlockDriverState *bs))
{
    c->evict_hook = hook;
}

static int find(Qcow2Cache *c, uint64_t offset)
{
    gpointer v = g_hash_table_lookup(c->index, &offset);

    return v ? GPOINTER_TO_INT(v) - 1 : -1;
}

static int entry_write(BlockDriverState *bs, Qcow2Cache *c, int i)
{
    Qcow2CacheEntry *e = &c->entries[i];
    int ret;

    if (!e->dirty) {
        return 0;
    }
    ret = bdrv_pwrite(bs->file, e->offset, c->table_size, e->table);
    if (!ret) {
        e->dirty = false;
    }
    return ret;
}

static void entry_forget(Qcow2Cache *c, int i)
{
    g_hash_table_remove(c->index, &c->entries[i].offset);
    c->entries[i].offset = 0;
    c->entries[i].dirty = false;
}

int qcow2_cache_get(BlockDriverState *bs, Qcow2Cache *c, uint64_t offset,
                    bool new_table, void **table)
{
    int i = find(c, offset), victim = 0, ret;

    if (i >= 0) {
        c->entries[i].last_used = ++c->clock;
        if (new_table) {
            memset(c->entries[i].table, 0, c->table_size);
        }
        *table = c->entries[i].table;
        return 0;
    }
    for (i = 0; i < c->size; i++) {
        if (!c->entries[i].offset) {
            victim = i;
            break;
        }
        if (c->entries[i].last_used < c->entries[victim].last_used) {
            victim = i;
        }
    }
    if (c->entries[victim].offset) {
        if (c->entries[victim].dirty && c->evict_hook) {
            ret = c->evict_hook(bs);
            if (ret < 0) {
                return ret;
            }
        }
        ret = entry_write(bs, c, victim);
        if (ret < 0) {
            return ret;
        }
        entry_forget(c, victim);
    }
    if (!c->entries[victim].table) {
        c->entries[victim].table = g_malloc(c->table_size);
    }
    if (new_table) {
        memset(c->entries[victim].table, 0, c->table_size);
    } else {
        ret = bdrv_pread(bs->file, offset, c->table_size,
                         c->entries[victim].table);
        if (ret < 0) {
            return ret;
        }
    }
    c->entries[victim].offset = offset;
    c->entries[victim].dirty = false;
    c->entries[victim].last_used = ++c->clock;
    g_hash_table_insert(c->index, &c->entries[victim].offset,
                        GINT_TO_POINTER(victim + 1));
    *table = c->entries[victim].table;
    return 0;
}

void qcow2_cache_mark_dirty(Qcow2Cache *c, void *table)
{
    int i;

    for (i = 0; i < c->size; i++) {
        /*
         * A table forgotten meanwhile (a corrupt image whose table shares
         * a cluster with a structure that was freed) stays unwritten
         */
        if (c->entries[i].table == table && c->entries[i].offset) {
            c->entries[i].dirty = true;
            return;
        }
    }
}

bool qcow2_cache_is_dirty(Qcow2Cache *c)
{
    int i;

    for (i = 0; i < c->size; i++) {
        if (c->entries[i].dirty) {
            return true;
        }
    }
    return false;
}

static gint by_offset(gconstpointer a, gconstpointer b)
{
    uint64_t x = (*(Qcow2CacheEntry *const *)a)->offset;
    uint64_t y = (*(Qcow2CacheEntry *const *)b)->offset;

    return x < y ? -1 : x > y;
}

int qcow2_cache_write(BlockDriverState *bs, Qcow2Cache *c)
{
    GPtrArray *dirty = g_ptr_array_new();
    int i, ret = 0;
    guint j;

    for (i = 0; i < c->size; i++) {
        if (c->entries[i].dirty) {
            g_ptr_array_add(dirty, &c->entries[i]);
        }
    }
    /* In file order: friendlier to the disk, same consistency */
    g_ptr_array_sort(dirty, by_offset);
    for (j = 0; j < dirty->len && !ret; j++) {
        Qcow2CacheEntry *e = g_ptr_array_index(dirty, j);

        ret = entry_write(bs, c, e - c->entries);
    }
    g_ptr_array_free(dirty, TRUE);
    return ret;
}

void qcow2_cache_discard(Qcow2Cache *c, uint64_t offset)
{
    int i = find(c, offset);

    if (i >= 0) {
        entry_forget(c, i);
    }
}
