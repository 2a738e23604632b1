/*
 * The qtest server: a line protocol on a chardev that lets a test program
 * drive the machine (memory, ports, the virtual clock, IRQ lines) without
 * running guest code.  The protocol is described in system/qtest.c.
 */
#ifndef SYSEMU_QTEST_H
#define SYSEMU_QTEST_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "qapi/error.h"

/*
 * -qtest CHARDEV [-qtest-log FILE]: CHARDEV is "unix:PATH[,opts]" (the
 * emulator connects to PATH unless server=on), "chardev:ID", "stdio" or
 * "null".  log NULL logs to stderr, "none" does not log.
 */
bool qtest_server_init(const char *chrdev, const char *log, Error **errp);

/*
 * Processes one request line (without its "\n") in-process, as if it came
 * from a qtest client, and appends the reply line(s) to reply: the way a
 * fuzz target drives the machine.  No chardev or qtest_server_init needed.
 */
void qtest_process_line(const char *line, GString *reply);
/* Forgets IRQ interceptions and levels, as a new session would start */
void qtest_server_reset(void);

/* The machine runs under the qtest accelerator (no guest code at all) */
bool qtest_enabled(void);

/* QEMU_CLOCK_VIRTUAL under qtest: only clock_step / clock_set move it */
int64_t qtest_clock_get_ns(void);

/*
 * Sends "IRQ raise N" / "IRQ lower N" when line n changes level (the
 * intercepted inputs of irq_intercept_in call it)
 */
void qtest_irq_report(int n, int level);

#endif
