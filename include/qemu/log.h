/*
 * -d ITEMS and -D FILE: QEMU 7.2's log items, checked as it checks them.
 *
 * A KVM guest gives QEMU's TCG items nothing to log, so a mask is only
 * validated; trace events do not exist in this build.  The log file is
 * opened (truncated) as QEMU opens it, so a bad path fails the same way.
 */
#ifndef QEMU_LOG_H
#define QEMU_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

/*
 * Parses a -d list.  False for an unknown item: QEMU then prints
 * qemu_log_help() and exits 1.  *help_trace is set by "trace:help".
 * Warns for a "trace:NAME" that matches no event.
 */
bool qemu_log_parse_items(const char *items, uint64_t *mask, bool *help_trace);
/* The "-d help" list, on stdout */
void qemu_log_help(void);
/* The names of the trace events ("-d trace:help"): none here */
void qemu_log_trace_help(void);
/*
 * Opens the -D file for mask (or checks that a per-thread template has
 * "%d"): QEMU's texts on failure.
 */
bool qemu_log_open(const char *filename, uint64_t mask, Error **errp);

#endif
