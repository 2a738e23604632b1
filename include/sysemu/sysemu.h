#ifndef SYSEMU_SYSEMU_H
#define SYSEMU_SYSEMU_H

#include <stdbool.h>
#include <stdint.h>

/* -name guest=X */
extern char *qemu_name;
/* -name debug-threads=on: vCPU and I/O threads get QEMU's names */
extern bool qemu_debug_threads;
/* -uuid */
extern char *qemu_uuid;
/* The -uuid's 16 bytes in text order (zeros without -uuid, as QEMU's) */
void qemu_uuid_get_bytes(uint8_t uuid[16]);

/* Builds the machine from the command line; see system/vl.c */
void qemu_init(int argc, char **argv);

#endif
