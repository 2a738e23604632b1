/*
 * Machine reset handlers and guest-initiated exits.
 *
 * Reset and powerdown requests themselves are in sysemu/runstate.h
 * (qemu_system_reset_request, qemu_system_powerdown_request); this is what
 * a reset does: hold the vCPUs still, run every registered handler in
 * registration order, let the vCPUs go again.
 */
#ifndef SYSEMU_RESET_H
#define SYSEMU_RESET_H

#include <stdbool.h>

#include "sysemu/runstate.h"

typedef void QEMUResetHandler(void *opaque);

void qemu_register_reset(QEMUResetHandler *fn, void *opaque);
/* The device tree's reset (qemu_devices_reset), as a reset handler */
void qemu_devices_reset_handler(void *opaque);

/* Installs the machine's reset and powerdown (ACPI power button) hooks */
void qemu_machine_hooks_install(void (*powerdown)(void));

/* -no-reboot: a guest reset ends the emulator instead */

/* isa-debug-exit: ends the emulator with this exit status (any thread) */
void qemu_system_exit_request(int status);
/* True once a guest asked to exit: vCPUs stop at once, as QEMU's exit() */
bool qemu_guest_exit_pending(void);
/* Resets the machine after a shutdown or exit instead of exiting */
void qemu_system_restart(void);

/* The accelerator's way to hold the vCPUs still during a reset */
void qemu_set_reset_vcpu_hooks(void (*pause)(void), void (*resume)(void));

#endif
