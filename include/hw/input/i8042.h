/*
 * The PC's keyboard controller (i8042, ports 0x60/0x64) and the system
 * control port A (port 0x92).  Both can pulse the CPU reset line.
 */
#ifndef HW_INPUT_I8042_H
#define HW_INPUT_I8042_H

#include <stdbool.h>

#include "qapi/error.h"

/* i8042 at 0x60/0x64, keyboard IRQ 1, aux IRQ 12 (hw/input/i8042.c) */
bool i8042_create(Error **errp);
/* Port 0x92: bit 1 fast A20, bit 0 reset (hw/i386/port92.c) */
bool port92_create(Error **errp);

#endif
