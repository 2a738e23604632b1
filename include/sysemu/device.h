/*
 * -device and the PC board's built-in devices (system/device.c).
 */
#ifndef SYSEMU_DEVICE_H
#define SYSEMU_DEVICE_H

#include <stdbool.h>

#include "hw/boards.h"
#include "qemu/option.h"
#include "qapi/error.h"

/*
 * -device DRIVER[,prop=value,...] or -device '{"driver": ..., ...}'.
 * Checks the driver and property names now; the device is created by
 * pc_devices_create().
 */
bool qemu_device_add(const char *optarg, Error **errp);
/* "-device help" or "-device DRIVER,...,help" */
bool qemu_device_is_help(const char *optarg);
/* Prints the answer to such a request (an unknown DRIVER is reported) */
void qemu_device_help(const char *optarg);

/*
 * An unsigned property of -device, of 8, 16 or 32 bits, with QEMU's errors
 * for a bad value ("expects integer", "expects uint16_t")
 */
bool device_prop_get_uint(QemuOpts *opts, const char *name, unsigned bits,
                          uint32_t defval, uint32_t *out, Error **errp);

/* -nodefaults: no default serial port; -nographic: it goes to stdio */
void qemu_devices_set_nodefaults(bool on);
void qemu_devices_set_nographic(bool on);

/*
 * The PC board's devices, in this order: the PCI host bridge of the
 * machine's family, the RTC with the memory size in CMOS, the i8042,
 * port 0x92, the -serial ports (COM1 to "vc", a sink here, or to stdio
 * with -nographic, unless -nodefaults, -serial or -device isa-serial),
 * then every -device in command-line order.
 */
bool pc_devices_create(MachineState *ms, Error **errp);

#endif
