/*
 * isa-debug-exit: a write of v to its ports ends the emulator with exit
 * status (v << 1) | 1, as QEMU's (hw/misc/debugexit.c).  Properties
 * iobase (0x501) and iosize (2).
 */
#ifndef HW_MISC_DEBUGEXIT_H
#define HW_MISC_DEBUGEXIT_H

#define TYPE_ISA_DEBUG_EXIT_DEVICE "isa-debug-exit"

#endif
