/*
 * Read-copy-update, the small version the memory API needs.
 *
 * Readers (vCPU threads on every I/O exit, the main thread for qtest and
 * QMP) look up the current FlatView without a lock: they bracket the use
 * with rcu_read_lock()/rcu_read_unlock().  A writer publishes a new
 * pointer with an atomic store and hands the old object to
 * rcu_defer_free(); it is freed on the main loop once every thread that
 * might still hold it has left its read-side section.  The writer never
 * waits, so a commit may happen on a vCPU thread inside a device callback
 * (a chipset register that remaps memory) without deadlocking.
 *
 * Read-side sections nest and must not block for long.  A thread is
 * registered on its first rcu_read_lock() and unregistered when it exits.
 */
#ifndef QEMU_RCU_H
#define QEMU_RCU_H

#include <stdbool.h>

void rcu_read_lock(void);
void rcu_read_unlock(void);

/* fn(data) runs on the main thread after a grace period */
void rcu_defer_free(void (*fn)(void *data), void *data);

/*
 * Runs whatever a finished grace period allows; returns true if work is
 * still waiting.  The main loop calls it (rcu_defer_free schedules it).
 */
bool rcu_reclaim(void);

/* Waits until every deferred free has run (tests, shutdown) */
void rcu_drain(void);

#endif
