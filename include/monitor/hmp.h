/*
 * The human monitor, a subset (monitor/hmp.c).
 */
#ifndef MONITOR_HMP_H
#define MONITOR_HMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-glib/json-glib.h>

#include "chardev/char.h"
#include "qapi/error.h"

/* Runs an HMP command line; its output (CRLF line ends), newly allocated */
char *hmp_execute(const char *cmdline);
/*
 * A monitor session: line editing, echo and the prompt, its output going
 * to write().  The -nographic console's Ctrl-A c gives one the keyboard.
 */
typedef struct HMPSession HMPSession;
typedef void HMPWriteFunc(void *opaque, const char *s);
HMPSession *hmp_session_new(HMPWriteFunc *write, void *opaque);
/* Prints the banner and the first prompt */
void hmp_session_banner(HMPSession *m);
void hmp_session_input(HMPSession *m, const uint8_t *buf, size_t len);
/* A human monitor on chr (-monitor, -mon mode=readline) */
bool monitor_init_hmp(Chardev *chr, Error **errp);
/* -monitor SPEC: QEMU's legacy chardev shorthand, or none */
bool qemu_monitor_add(const char *spec, Error **errp);

/* info pci, from query-pci's reply (hw/pci/pci-info.c) */
void hmp_info_pci(GString *out, JsonArray *buses);

#endif
