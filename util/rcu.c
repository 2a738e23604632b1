/*
 * Read-copy-update for the memory API's flat views (include/qemu/rcu.h).
 *
 * A global grace-period counter; each reader thread publishes the value
 * it saw when it entered its outermost read-side section (0 outside).  A
 * deferred free records the counter after the writer's pointer swap; it
 * may run once every reader is outside (0) or entered after that point.
 * The counter only grows (64 bits), so there is no wrap-around to handle.
 */
#include <pthread.h>
#include <stdint.h>

#include <glib.h>

#include "qemu/rcu.h"

typedef struct RcuReader {
    uint64_t ctr;       /* 0: outside; else the counter at entry */
    int depth;
    bool registered;
} RcuReader;

typedef struct RcuItem {
    void (*fn)(void *data);
    void *data;
    uint64_t gp;
} RcuItem;

static uint64_t rcu_gp = 1;
static GMutex rcu_mutex;            /* readers and pending */
static GPtrArray *rcu_readers;      /* RcuReader* */
static GQueue rcu_pending = G_QUEUE_INIT;   /* RcuItem*, gp ascending */
static bool rcu_scheduled;
static pthread_key_t rcu_key;
static pthread_once_t rcu_key_once = PTHREAD_ONCE_INIT;
static __thread RcuReader rcu_reader;

static void rcu_thread_exit(void *opaque)
{
    g_mutex_lock(&rcu_mutex);
    g_ptr_array_remove(rcu_readers, opaque);
    g_mutex_unlock(&rcu_mutex);
}

static void rcu_key_init(void)
{
    pthread_key_create(&rcu_key, rcu_thread_exit);
}

static void rcu_register(RcuReader *r)
{
    pthread_once(&rcu_key_once, rcu_key_init);
    g_mutex_lock(&rcu_mutex);
    if (!rcu_readers) {
        rcu_readers = g_ptr_array_new();
    }
    g_ptr_array_add(rcu_readers, r);
    g_mutex_unlock(&rcu_mutex);
    pthread_setspecific(rcu_key, r);
    r->registered = true;
}

void rcu_read_lock(void)
{
    RcuReader *r = &rcu_reader;

    if (r->depth++ > 0) {
        return;
    }
    if (!r->registered) {
        rcu_register(r);
    }
    __atomic_store_n(&r->ctr, __atomic_load_n(&rcu_gp, __ATOMIC_SEQ_CST),
                     __ATOMIC_SEQ_CST);
    /* The entry is visible before any protected pointer is read */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void rcu_read_unlock(void)
{
    RcuReader *r = &rcu_reader;

    g_assert(r->depth > 0);
    if (--r->depth > 0) {
        return;
    }
    __atomic_store_n(&r->ctr, 0, __ATOMIC_RELEASE);
}

static gboolean rcu_reclaim_cb(gpointer opaque)
{
    if (rcu_reclaim()) {
        return G_SOURCE_CONTINUE;
    }
    return G_SOURCE_REMOVE;
}

void rcu_defer_free(void (*fn)(void *data), void *data)
{
    RcuItem *item = g_new0(RcuItem, 1);

    item->fn = fn;
    item->data = data;
    /* The writer's pointer swap is ordered before the new grace period */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    g_mutex_lock(&rcu_mutex);
    item->gp = __atomic_add_fetch(&rcu_gp, 1, __ATOMIC_SEQ_CST);
    g_queue_push_tail(&rcu_pending, item);
    if (!rcu_scheduled) {
        rcu_scheduled = true;
        g_timeout_add(2, rcu_reclaim_cb, NULL);
    }
    g_mutex_unlock(&rcu_mutex);
}

/* Oldest counter a reader inside a section entered with (UINT64_MAX: none) */
static uint64_t rcu_oldest_reader_locked(void)
{
    uint64_t oldest = UINT64_MAX;
    guint i;

    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (i = 0; rcu_readers && i < rcu_readers->len; i++) {
        RcuReader *r = g_ptr_array_index(rcu_readers, i);
        uint64_t c = __atomic_load_n(&r->ctr, __ATOMIC_SEQ_CST);

        if (c && c < oldest) {
            oldest = c;
        }
    }
    return oldest;
}

bool rcu_reclaim(void)
{
    GQueue ready = G_QUEUE_INIT;
    uint64_t oldest;
    RcuItem *item;
    bool more;

    g_mutex_lock(&rcu_mutex);
    oldest = rcu_oldest_reader_locked();
    while ((item = g_queue_peek_head(&rcu_pending)) && item->gp <= oldest) {
        g_queue_push_tail(&ready, g_queue_pop_head(&rcu_pending));
    }
    g_mutex_unlock(&rcu_mutex);
    /* Outside the lock: a free may defer more (an object's last unref) */
    while ((item = g_queue_pop_head(&ready))) {
        item->fn(item->data);
        g_free(item);
    }
    g_mutex_lock(&rcu_mutex);
    more = !g_queue_is_empty(&rcu_pending);
    if (!more) {
        rcu_scheduled = false;
    }
    g_mutex_unlock(&rcu_mutex);
    return more;
}

void rcu_drain(void)
{
    g_assert(rcu_reader.depth == 0);
    while (rcu_reclaim()) {
        g_usleep(100);
    }
}
