/*
 * Devices from the command line (system/qdev-monitor.c) and the PC
 * board's built-in devices (hw/i386/pc.c).
 */
#ifndef SYSEMU_DEVICE_H
#define SYSEMU_DEVICE_H

#include <stdbool.h>

#include "hw/boards.h"
#include "qapi/error.h"

/*
 * -device DRIVER[,prop=value,...] or -device '{"driver": ..., ...}'.
 * Checks what QEMU checks at parse time (syntax; for key=value a
 * well-formed, unique id); the device is created by
 * qemu_create_cli_devices().
 */
bool qemu_device_add(const char *optarg, Error **errp);
/* "-device help" or "-device DRIVER,...,help" */
bool qemu_device_is_help(const char *optarg);
/*
 * Prints the answer to such a request; an unknown or abstract DRIVER is
 * reported (QEMU 7.2 still exits 0)
 */
void qemu_device_help(const char *optarg);
/* HMP device_add ARG: its output ("" on success), newly allocated */
char *hmp_device_add_text(const char *arg);
/* Whether a -device with this driver was given */
bool qemu_device_given(const char *driver);
/* Creates every -device in command-line order ("-device ARG: " errors) */
bool qemu_create_cli_devices(Error **errp);

/* -nodefaults: no default serial port; -nographic: it goes to stdio */
void qemu_devices_set_nodefaults(bool on);
void qemu_devices_set_nographic(bool on);
bool qemu_devices_nographic(void);

/*
 * The PC board's devices, in this order: the PCI host bridge of the
 * machine's family with its ISA bus, the RTC with the memory size in
 * CMOS, the i8042, port 0x92, the PC speaker port, the -serial ports
 * (COM1 to "vc", a sink here, or to stdio with -nographic, unless
 * -nodefaults, -serial or -device isa-serial).
 */
bool pc_devices_create(MachineState *ms, Error **errp);
/* Whether the board makes kvmclock (7.2: up to 5.1 only for a vCPU with it) */
bool pc_wants_kvmclock(MachineState *ms);
/*
 * Whether the machine has SMM: -machine smm=on, or auto where the
 * accelerator offers it (QEMU 7.2's x86_machine_is_smm_enabled)
 */
bool pc_smm_enabled(MachineState *ms);
/*
 * The direct-boot path's stand-in for firmware: programs the chipset as
 * SeaBIOS would before booting (the PM block at ACPI_PM_BASE, decoding)
 */
void pc_chipset_init_as_firmware(void);
/* The board's devices once the machine is complete (-device included) */
void pc_devices_machine_ready(void);

#endif
