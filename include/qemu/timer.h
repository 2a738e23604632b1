/*
 * Timers on QEMU's clocks, for device models.
 *
 * QEMU_CLOCK_REALTIME   the host's monotonic clock
 * QEMU_CLOCK_HOST       the host's wall clock (may jump)
 * QEMU_CLOCK_VIRTUAL    the VM's running time (sysemu/runstate.h
 *                       vm_clock_get_ns): it stands while the VM is
 *                       stopped; under the qtest accelerator it is qtest's
 *                       clock, which only clock_step/clock_set move
 *
 * A timer calls cb(opaque) on the main thread once its clock reaches the
 * expiry time given to timer_mod(); a VIRTUAL timer only while the VM
 * runs (as QEMU 7.2, which disables that clock while the VM is stopped:
 * under qtest with -S clock_step moves the clock but runs no timer).  The main loop (a GSource on the
 * default GMainContext) runs every expired timer and sleeps until the
 * next deadline of the REALTIME and HOST clocks, and of the VIRTUAL clock
 * while the VM runs.  Under qtest the VIRTUAL clock's future deadlines are
 * reached only by qtest_clock_warp(), which runs each timer at its own
 * expiry time, in order, as QEMU's qtest does.
 *
 * timer_mod/timer_del/timer_pending may be called from any thread (a vCPU
 * thread doing port I/O): a new earlier deadline wakes the main loop.
 * Callbacks run without the timer lock, so a callback may re-arm its
 * timer; one that was deleted just as it expired may still run once, so a
 * callback checks its device's state rather than assuming it is wanted.
 */
#ifndef QEMU_TIMER_H
#define QEMU_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#define NANOSECONDS_PER_SECOND 1000000000LL

typedef enum QEMUClockType {
    QEMU_CLOCK_REALTIME,
    QEMU_CLOCK_VIRTUAL,
    QEMU_CLOCK_HOST,
    QEMU_CLOCK_MAX,
} QEMUClockType;

typedef void QEMUTimerCB(void *opaque);
typedef struct QEMUTimer QEMUTimer;

int64_t qemu_clock_get_ns(QEMUClockType type);

QEMUTimer *timer_new_ns(QEMUClockType type, QEMUTimerCB *cb, void *opaque);
/* Deletes the timer if pending; then frees it (NULL is fine) */
void timer_free(QEMUTimer *t);
/* (Re)arms the timer for expire_time on its clock, in ns */
void timer_mod(QEMUTimer *t, int64_t expire_time);
void timer_del(QEMUTimer *t);
bool timer_pending(QEMUTimer *t);
/* The expiry time if pending, else -1 */
int64_t timer_expire_time_ns(QEMUTimer *t);

/* The earliest expiry time of the clock's pending timers, or -1 (always
 * for VIRTUAL while the VM is not running) */
int64_t qemu_clock_next_deadline(QEMUClockType type);
/* Runs the clock's timers that expired by now; true if one ran */
bool qemu_clock_run_timers(QEMUClockType type);

/*
 * qtest: moves the VIRTUAL clock forward to target (never back), stopping
 * at every pending deadline on the way to run its timers.  set_clock sets
 * qtest's clock.
 */
void qtest_clock_warp(int64_t target, void (*set_clock)(int64_t ns));

#endif
