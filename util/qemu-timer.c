/*
 * Timers on QEMU's clocks (include/qemu/timer.h).
 *
 * Each clock keeps its pending timers in a list sorted by expiry time,
 * under one lock for all clocks.  The main loop's GSource asks for the
 * nearest deadline in prepare() and runs expired timers in dispatch().
 */
#include <glib.h>

#include "qemu/timer.h"
#include "sysemu/qtest.h"
#include "sysemu/runstate.h"

struct QEMUTimer {
    QEMUClockType type;
    QEMUTimerCB *cb;
    void *opaque;
    int64_t expire;             /* -1: not pending */
    QEMUTimer *next;
};

static GMutex timer_lock;
static QEMUTimer *active[QEMU_CLOCK_MAX];
static GSource *timer_source;

int64_t qemu_clock_get_ns(QEMUClockType type)
{
    switch (type) {
    case QEMU_CLOCK_VIRTUAL:
        return vm_clock_get_ns();
    case QEMU_CLOCK_HOST:
        return g_get_real_time() * 1000;
    default:
        return g_get_monotonic_time() * 1000;
    }
}

/* The main loop's part ------------------------------------------------------ */

/* Whether the main loop waits for this clock's future deadlines */
static bool clock_waits_in_main_loop(QEMUClockType type)
{
    if (type != QEMU_CLOCK_VIRTUAL) {
        return true;
    }
    return !qtest_enabled() && runstate_is_running();
}

/* Milliseconds until the nearest deadline the main loop waits for */
static gboolean timer_source_prepare(GSource *source, gint *timeout)
{
    int64_t wait = -1;
    int type;

    for (type = 0; type < QEMU_CLOCK_MAX; type++) {
        int64_t deadline = qemu_clock_next_deadline(type);
        int64_t delta;

        if (deadline < 0) {
            continue;
        }
        delta = deadline - qemu_clock_get_ns(type);
        if (delta <= 0) {
            *timeout = 0;
            return TRUE;
        }
        if (!clock_waits_in_main_loop(type)) {
            continue;
        }
        if (wait < 0 || delta < wait) {
            wait = delta;
        }
    }
    /* Rounded up: waking early would spin until the deadline */
    *timeout = wait < 0 ? -1 : (gint)MIN((wait + 999999) / 1000000, G_MAXINT);
    return FALSE;
}

static gboolean timer_source_check(GSource *source)
{
    int type;

    for (type = 0; type < QEMU_CLOCK_MAX; type++) {
        int64_t deadline = qemu_clock_next_deadline(type);

        if (deadline >= 0 && deadline <= qemu_clock_get_ns(type)) {
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean timer_source_dispatch(GSource *source, GSourceFunc cb,
                                      gpointer data)
{
    int type;

    for (type = 0; type < QEMU_CLOCK_MAX; type++) {
        qemu_clock_run_timers(type);
    }
    return G_SOURCE_CONTINUE;
}

static GSourceFuncs timer_source_funcs = {
    .prepare = timer_source_prepare,
    .check = timer_source_check,
    .dispatch = timer_source_dispatch,
};

/* The first timer attaches the source to the default main context */
static void timer_source_init(void)
{
    static gsize done;

    if (g_once_init_enter(&done)) {
        timer_source = g_source_new(&timer_source_funcs, sizeof(GSource));
        g_source_attach(timer_source, NULL);
        g_once_init_leave(&done, 1);
    }
}

/* Timers ------------------------------------------------------------------- */

QEMUTimer *timer_new_ns(QEMUClockType type, QEMUTimerCB *cb, void *opaque)
{
    QEMUTimer *t = g_new0(QEMUTimer, 1);

    timer_source_init();
    t->type = type;
    t->cb = cb;
    t->opaque = opaque;
    t->expire = -1;
    return t;
}

/* Takes t off its clock's list; timer_lock held */
static void timer_unlink_locked(QEMUTimer *t)
{
    QEMUTimer **p;

    for (p = &active[t->type]; *p; p = &(*p)->next) {
        if (*p == t) {
            *p = t->next;
            break;
        }
    }
    t->next = NULL;
    t->expire = -1;
}

void timer_del(QEMUTimer *t)
{
    g_mutex_lock(&timer_lock);
    if (t->expire >= 0) {
        timer_unlink_locked(t);
    }
    g_mutex_unlock(&timer_lock);
}

void timer_free(QEMUTimer *t)
{
    if (t) {
        timer_del(t);
        g_free(t);
    }
}

void timer_mod(QEMUTimer *t, int64_t expire_time)
{
    QEMUTimer **p;
    bool first;

    expire_time = MAX(expire_time, 0);
    g_mutex_lock(&timer_lock);
    if (t->expire >= 0) {
        timer_unlink_locked(t);
    }
    for (p = &active[t->type]; *p && (*p)->expire <= expire_time;
         p = &(*p)->next) {
    }
    t->expire = expire_time;
    t->next = *p;
    *p = t;
    first = active[t->type] == t;
    g_mutex_unlock(&timer_lock);
    /* The main loop may be asleep for a later deadline */
    if (first) {
        g_main_context_wakeup(NULL);
    }
}

bool timer_pending(QEMUTimer *t)
{
    return timer_expire_time_ns(t) >= 0;
}

int64_t timer_expire_time_ns(QEMUTimer *t)
{
    int64_t v;

    g_mutex_lock(&timer_lock);
    v = t->expire;
    g_mutex_unlock(&timer_lock);
    return v;
}

int64_t qemu_clock_next_deadline(QEMUClockType type)
{
    int64_t v;

    /* QEMU 7.2 disables the VM's clock while the VM does not run */
    if (type == QEMU_CLOCK_VIRTUAL && !runstate_is_running()) {
        return -1;
    }
    g_mutex_lock(&timer_lock);
    v = active[type] ? active[type]->expire : -1;
    g_mutex_unlock(&timer_lock);
    return v;
}

/*
 * One expired timer at a time, taken off the list before its callback
 * runs (without the lock, so it may re-arm itself or others)
 */
static bool run_timers_until(QEMUClockType type, int64_t now)
{
    bool ran = false;

    for (;;) {
        QEMUTimer *t;
        QEMUTimerCB *cb;
        void *opaque;

        g_mutex_lock(&timer_lock);
        t = active[type];
        if (!t || t->expire > now) {
            g_mutex_unlock(&timer_lock);
            return ran;
        }
        timer_unlink_locked(t);
        cb = t->cb;
        opaque = t->opaque;
        g_mutex_unlock(&timer_lock);
        cb(opaque);
        ran = true;
    }
}

bool qemu_clock_run_timers(QEMUClockType type)
{
    if (type == QEMU_CLOCK_VIRTUAL && !runstate_is_running()) {
        return false;
    }
    return run_timers_until(type, qemu_clock_get_ns(type));
}

void qtest_clock_warp(int64_t target, void (*set_clock)(int64_t ns))
{
    /* a stopped VM's clock moves, but its timers wait for it to run */
    if (!runstate_is_running()) {
        if (target > qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)) {
            set_clock(target);
        }
        return;
    }
    for (;;) {
        int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        int64_t deadline = qemu_clock_next_deadline(QEMU_CLOCK_VIRTUAL);
        int64_t step = deadline >= 0 && deadline < target ? deadline : target;

        if (step > now) {
            set_clock(step);
        }
        run_timers_until(QEMU_CLOCK_VIRTUAL,
                         qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
        if (step >= target) {
            return;
        }
    }
}
