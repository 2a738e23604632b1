/*
 * The human monitor, a subset (monitor/hmp.c).
 */
#ifndef MONITOR_HMP_H
#define MONITOR_HMP_H

#include <stdbool.h>

#include "chardev/char.h"
#include "qapi/error.h"

/* Runs an HMP command line; its output (CRLF line ends), newly allocated */
char *hmp_execute(const char *cmdline);
/* A human monitor on chr (-monitor, -mon mode=readline) */
bool monitor_init_hmp(Chardev *chr, Error **errp);
/* -monitor SPEC: QEMU's legacy chardev shorthand, or none */
bool qemu_monitor_add(const char *spec, Error **errp);

#endif
