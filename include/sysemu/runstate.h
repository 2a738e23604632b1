/*
 * Run state of the VM and shutdown requests.
 */
#ifndef SYSEMU_RUNSTATE_H
#define SYSEMU_RUNSTATE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * RunState and ShutdownCause are QEMU's enums, declared in qapi/schema.json
 * (query-status and the SHUTDOWN/RESET events carry their names).
 */
#include "qapi-types.h"

RunState runstate_get(void);
/* QEMU's virtual clock: ns the VM has run (qtest's clock under qtest) */
int64_t vm_clock_get_ns(void);
const char *runstate_name(RunState state);
bool runstate_is_running(void);
/*
 * Changes the state if QEMU 7.2 allows the change (runstate.c has the
 * table); any other change is reported and not made.
 */
void runstate_set(RunState state);
bool runstate_transition_allowed(RunState from, RunState to);
/* shutdown or internal-error: cont refuses until a reset */
bool runstate_needs_reset(void);

/* Hooks the accelerator installs so stop/cont reach the vCPUs. */
typedef struct RunstateHooks {
    void (*pause_all)(void);
    void (*resume_all)(void);
} RunstateHooks;
void runstate_set_hooks(const RunstateHooks *hooks);

/*
 * stop / cont (QMP and -S); emit STOP / RESUME.  vm_stop() acts only on
 * a running VM.  A reset (qemu_system_reset_request) of a VM that is not
 * running leaves it in prelaunch.
 */
void vm_stop(RunState state);
bool vm_start(void);

/* Asks the main loop to end; emits SHUTDOWN with the reason. */
void qemu_system_shutdown_request(ShutdownCause cause);
bool qemu_shutdown_requested(void);
/* Takes back a pending shutdown or exit and its status (see reset.h) */
void qemu_shutdown_request_withdraw(void);
/*
 * Ends the main loop with this exit status and no event, -no-shutdown or
 * not, as QEMU's exit() from isa-debug-exit (main thread only).
 */
void qemu_system_exit(int status);
int qemu_exit_status(void);
void qemu_set_exit_status(int status);

/*
 * Machine-level requests.  Callable from any thread (vCPU threads
 * included): off the main thread they are carried out, and their events
 * sent, from the main loop.
 *
 * Reset: with reboot=shutdown (-no-reboot) a guest-initiated reset
 * becomes a shutdown;
 * otherwise the machine's reset hook runs, then RESET is emitted.
 * Powerdown: emits POWERDOWN, then the machine's hook (ACPI power button).
 * A shutdown under shutdown=pause (-no-shutdown) emits SHUTDOWN and
 * pauses instead of ending the main loop.
 */
void qemu_system_reset_request(ShutdownCause cause);
void qemu_system_powerdown_request(void);
/*
 * pvpanic: the guest panicked.  As QEMU 7.2's panic actions: shutdown
 * (the default) and exit-failure emit GUEST_PANICKED (action poweroff),
 * STOP (only when not called from a vCPU, as in QEMU) and SHUTDOWN
 * (guest-panic), and end (exit-failure with status 1); pause, or shutdown
 * while the shutdown action is pause (-no-shutdown), emit GUEST_PANICKED
 * (action pause) and STOP, and the VM stays in guest-panicked; none emits
 * GUEST_PANICKED (action run) and the guest runs on.
 */
void qemu_system_guest_panicked(void);
/*
 * ACPI S3 (PM1a_CNT SLP_TYP 1): as QEMU 7.2, the vCPUs stop, the state
 * becomes suspended and SUSPEND is sent (no STOP); nothing if already
 * suspended.  qemu_system_wakeup_request() (QMP system_wakeup): only from
 * suspended ("Unable to wake up: guest is not in suspended state"); the
 * machine is reset (no RESET event: there is no firmware here to resume
 * from the S3 vector, the guest starts again as QEMU 7.2's does under
 * qboot), the wakeup hook runs (ACPI WAK_STS), the vCPUs go and WAKEUP is
 * sent.
 */
void qemu_system_suspend_request(void);
struct Error;
bool qemu_system_wakeup_request(struct Error **errp);
void runstate_set_wakeup_hook(void (*hook)(void));
/* pvpanic: a crash kernel loaded; GUEST_CRASHLOADED (action run) */
void qemu_system_guest_crashloaded(void);
void runstate_set_machine_hooks(void (*reset)(ShutdownCause cause),
                                void (*powerdown)(void));
/*
 * -action / set-action (-no-reboot is reboot=shutdown, -no-shutdown
 * shutdown=pause), QEMU 7.2's meanings: reboot=shutdown turns a guest's
 * reset into a shutdown; shutdown=pause stops the VM in the shutdown
 * state instead of ending the process (the host's quit and signals end it
 * anyway, and set the action back to poweroff); panic: see
 * qemu_system_guest_panicked.  The watchdog action is kept for watchdog
 * devices.
 */
void runstate_set_reboot_action(RebootAction a);
void runstate_set_shutdown_action(ShutdownAction a);
void runstate_set_panic_action(PanicAction a);
void runstate_set_watchdog_action(WatchdogAction a);
WatchdogAction runstate_watchdog_action(void);
/* A watchdog fired: the WATCHDOG event, then the action */
void qemu_watchdog_perform_action(void);

/*
 * Main loop (GLib) until a shutdown request.  Installs handlers for
 * SIGINT, SIGTERM and SIGHUP: "terminating on signal N from pid P (CMD)",
 * then a shutdown with reason host-signal.
 */
void main_loop_run(void);

#endif
