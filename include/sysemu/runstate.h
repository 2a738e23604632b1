/*
 * Run state of the VM (QEMU's RunState subset) and shutdown requests.
 */
#ifndef SYSEMU_RUNSTATE_H
#define SYSEMU_RUNSTATE_H

#include <stdbool.h>

typedef enum RunState {
    RUN_STATE_PRELAUNCH,
    RUN_STATE_PAUSED,
    RUN_STATE_RUNNING,
    RUN_STATE_INTERNAL_ERROR,
    RUN_STATE_SHUTDOWN,
    RUN_STATE_GUEST_PANICKED,
    RUN_STATE__MAX,
} RunState;

typedef enum ShutdownCause {
    SHUTDOWN_CAUSE_NONE,
    SHUTDOWN_CAUSE_HOST_ERROR,
    SHUTDOWN_CAUSE_HOST_QMP_QUIT,
    SHUTDOWN_CAUSE_HOST_QMP_SYSTEM_RESET,
    SHUTDOWN_CAUSE_HOST_SIGNAL,
    SHUTDOWN_CAUSE_HOST_UI,
    SHUTDOWN_CAUSE_GUEST_SHUTDOWN,
    SHUTDOWN_CAUSE_GUEST_RESET,
    SHUTDOWN_CAUSE_GUEST_PANIC,
    SHUTDOWN_CAUSE_SUBSYSTEM_RESET,
} ShutdownCause;

RunState runstate_get(void);
const char *runstate_name(RunState state);
bool runstate_is_running(void);
void runstate_set(RunState state);

/* Hooks the accelerator installs so stop/cont reach the vCPUs. */
typedef struct RunstateHooks {
    void (*pause_all)(void);
    void (*resume_all)(void);
} RunstateHooks;
void runstate_set_hooks(const RunstateHooks *hooks);

/* stop / cont (QMP and -S); emit STOP / RESUME. */
void vm_stop(RunState state);
bool vm_start(void);

/* Asks the main loop to end; emits SHUTDOWN with the reason. */
void qemu_system_shutdown_request(ShutdownCause cause);
bool qemu_shutdown_requested(void);
int qemu_exit_status(void);
void qemu_set_exit_status(int status);

/* Main loop (GLib) until a shutdown request; installs SIGINT/SIGTERM. */
void main_loop_run(void);

#endif
