/*
 * A small libqtest: starts the emulator the way upstream QEMU's libqtest
 * does and talks the qtest line protocol and QMP to it.
 *
 * The launch contract (nothing else about this tree is assumed):
 *   QTEST_QEMU_BINARY names the binary (required);
 *   /bin/sh -c "exec BIN -qtest unix:TMP/qtest-PID.sock -qtest-log LOG
 *       -chardev socket,path=TMP/qtest-PID.qmp,id=char0
 *       -mon chardev=char0,mode=control -display none -audio none
 *       EXTRA -accel qtest"
 *   LOG is /dev/fd/2 when QTEST_LOG is set, else /dev/null (and the
 *   emulator's stderr goes to /dev/null too, as in newer upstream);
 *   the test listens on both sockets and accepts within 50 s, sends
 *   "endianness", reads the QMP greeting and sends qmp_capabilities;
 *   qtest_quit() sends SIGTERM, waits 30 s (then SIGKILL) and requires
 *   exit status 0.
 */
#ifndef TESTS_QTEST_LIBQTEST_H
#define TESTS_QTEST_LIBQTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>
#include <json-glib/json-glib.h>

typedef struct QTestState QTestState;

/* Starts an instance with extra arguments (split by the shell) */
QTestState *qtest_init(const char *extra_args);
QTestState *qtest_initf(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* Same, with the emulator's stderr kept for qtest_get_stderr() */
QTestState *qtest_init_capture_stderr(const char *extra_args);
/* Stops the instance; fails the test unless it exits with status 0 */
void qtest_quit(QTestState *s);
/* After qtest_quit() of a capturing instance: what it wrote to stderr */
const char *qtest_get_stderr(QTestState *s);
void qtest_state_free(QTestState *s);

/* The emulator's process id (-1 after qtest_quit) */
int qtest_pid(QTestState *s);

/* The greeting's "QMP" object */
JsonObject *qtest_qmp_greeting(QTestState *s);

/* QMP: sends a printf-formatted JSON command, returns the response object
 * (a new reference: json_object_unref() it).  Events read while waiting
 * are queued for qtest_qmp_eventwait(). */
JsonObject *qtest_qmp(QTestState *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Same, asserting success; returns the "return" member (new reference) */
JsonNode *qtest_qmp_return(QTestState *s, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);
/* Waits for the event named event; returns it (new reference) */
JsonObject *qtest_qmp_eventwait(QTestState *s, const char *event);

/* qom-get; the value node (new reference) */
JsonNode *qtest_qom_get(QTestState *s, const char *path, const char *prop);
int64_t qtest_qom_get_int(QTestState *s, const char *path, const char *prop);
bool qtest_qom_get_bool(QTestState *s, const char *path, const char *prop);
/* The first CPU's QOM path as query-cpus-fast reports it (g_free it) */
char *qtest_cpu_path(QTestState *s);

/* Probes with a -machine none instance (cached per process) */
bool qtest_has_machine(const char *machine);
bool qtest_has_cpu_model(const char *model);

/* The line protocol.  qtest_raw() sends one request line (without "\n")
 * and returns the reply line (g_free it), skipping "IRQ" lines. */
char *qtest_raw(QTestState *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void qtest_outb(QTestState *s, uint16_t addr, uint8_t value);
void qtest_outw(QTestState *s, uint16_t addr, uint16_t value);
void qtest_outl(QTestState *s, uint16_t addr, uint32_t value);
uint8_t qtest_inb(QTestState *s, uint16_t addr);
uint16_t qtest_inw(QTestState *s, uint16_t addr);
uint32_t qtest_inl(QTestState *s, uint16_t addr);
void qtest_writeb(QTestState *s, uint64_t addr, uint8_t value);
void qtest_writew(QTestState *s, uint64_t addr, uint16_t value);
void qtest_writel(QTestState *s, uint64_t addr, uint32_t value);
void qtest_writeq(QTestState *s, uint64_t addr, uint64_t value);
uint8_t qtest_readb(QTestState *s, uint64_t addr);
uint16_t qtest_readw(QTestState *s, uint64_t addr);
uint32_t qtest_readl(QTestState *s, uint64_t addr);
uint64_t qtest_readq(QTestState *s, uint64_t addr);
/* "read" / "write" with hex data */
void qtest_memread(QTestState *s, uint64_t addr, void *data, size_t size);
void qtest_memwrite(QTestState *s, uint64_t addr, const void *data,
                    size_t size);
/* "b64read" / "b64write" */
void qtest_bufread(QTestState *s, uint64_t addr, void *data, size_t size);
void qtest_bufwrite(QTestState *s, uint64_t addr, const void *data,
                    size_t size);
void qtest_memset(QTestState *s, uint64_t addr, uint8_t pattern,
                  size_t size);
/* Clock: the new virtual time in ns */
int64_t qtest_clock_step(QTestState *s, int64_t step);
int64_t qtest_clock_step_next(QTestState *s);
int64_t qtest_clock_set(QTestState *s, int64_t val);
void qtest_irq_intercept_in(QTestState *s, const char *path);
void qtest_set_irq_in(QTestState *s, const char *path, const char *name,
                      int num, int level);
/* Level of an intercepted IRQ line as the "IRQ" lines reported it */
bool qtest_get_irq(QTestState *s, int num);
bool qtest_big_endian(QTestState *s);

#endif
