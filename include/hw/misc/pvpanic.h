/*
 * pvpanic (ISA): the guest reports a panic through an I/O port
 * (hw/misc/pvpanic.c).  Properties ioport (0x505) and events (3).
 */
#ifndef HW_MISC_PVPANIC_H
#define HW_MISC_PVPANIC_H

#define TYPE_PVPANIC_ISA_DEVICE "pvpanic"

/* The port for the ACPI tables' QEMU0001 device, -1 without a pvpanic */
int pvpanic_port(void);

#endif
