/*
 * The PC's keyboard controller (i8042, ports 0x60/0x64, hw/input/i8042.c)
 * and the system control port A (port 0x92, hw/i386/port92.c).  Both can
 * pulse the CPU reset line.
 */
#ifndef HW_INPUT_I8042_H
#define HW_INPUT_I8042_H

#define TYPE_I8042 "i8042"
#define TYPE_PORT92 "port92"

#endif
