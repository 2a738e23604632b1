/*
 * isa-debug-exit: a write of v to its ports ends the emulator with exit
 * status (v << 1) | 1, as QEMU's (hw/misc/debugexit.c).
 */
#ifndef HW_MISC_DEBUGEXIT_H
#define HW_MISC_DEBUGEXIT_H

#include <stdbool.h>

#include "qapi/error.h"
#include "qemu/option.h"

/* -device isa-debug-exit[,iobase=0x501][,iosize=2] */
bool isa_debug_exit_create(QemuOpts *opts, const char *id, Error **errp);

#endif
