/*
 * Image locking as QEMU 7.2 does it (block/file-lock.c, docs/block.md):
 * open file description (OFD) locks on single bytes of the image file.
 * For every permission bit N the node takes, a shared lock on byte
 * 100 + N; for every bit it does not share, a shared lock on byte 200 + N.
 * A user conflicts with another when it takes a permission whose
 * "unshared" byte another open file holds, or does not share one whose
 * "taken" byte another holds.  Only shared (read) locks are ever taken, so
 * taking never blocks; the conflict test asks whether an exclusive lock
 * on the byte would be granted.
 */
#ifndef BLOCK_FILE_LOCK_H
#define BLOCK_FILE_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

#define FILE_LOCK_PERM_BASE 100
#define FILE_LOCK_SHARED_BASE 200

/*
 * Moves the locks held on fd (*held: bit N = perm byte N, bit 4 + N =
 * shared byte N) to those of (perm, shared).  With check, first tests for
 * conflicts with other open files and, on one, restores *held and fails
 * with QEMU's text ('Failed to get "write" lock', hint naming filename).
 */
bool file_lock_apply(int fd, unsigned *held, unsigned perm, unsigned shared,
                     bool check, const char *filename, Error **errp);
/* Whether this host has OFD locks (locking=auto uses them if so) */
bool file_lock_supported(int fd);

#endif
