/*
 * pvpanic (ISA): the guest reports a panic through an I/O port
 * (hw/misc/pvpanic.c).
 */
#ifndef HW_MISC_PVPANIC_H
#define HW_MISC_PVPANIC_H

#include <stdbool.h>

#include "qapi/error.h"
#include "qemu/option.h"

/* -device pvpanic[,ioport=0x505][,events=3]; one per machine */
bool pvpanic_create(QemuOpts *opts, const char *id, Error **errp);
/* The port for the ACPI tables' QEMU0001 device, -1 without a pvpanic */
int pvpanic_port(void);

#endif
