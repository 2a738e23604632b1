/*
 * Run state, stop/cont, shutdown requests and the main loop.
 */
#include <glib-unix.h>
#include <signal.h>

#include "monitor/qmp.h"
#include "sysemu/runstate.h"

static RunState current_state = RUN_STATE_PRELAUNCH;
static const RunstateHooks *hooks;
static GMainLoop *main_loop;
static bool shutdown_requested;
static int exit_status;

static const char *const runstate_names[RUN_STATE__MAX] = {
    [RUN_STATE_PRELAUNCH] = "prelaunch",
    [RUN_STATE_PAUSED] = "paused",
    [RUN_STATE_RUNNING] = "running",
    [RUN_STATE_INTERNAL_ERROR] = "internal-error",
    [RUN_STATE_SHUTDOWN] = "shutdown",
    [RUN_STATE_GUEST_PANICKED] = "guest-panicked",
};

static const char *const shutdown_cause_names[] = {
    [SHUTDOWN_CAUSE_NONE] = "none",
    [SHUTDOWN_CAUSE_HOST_ERROR] = "host-error",
    [SHUTDOWN_CAUSE_HOST_QMP_QUIT] = "host-qmp-quit",
    [SHUTDOWN_CAUSE_HOST_QMP_SYSTEM_RESET] = "host-qmp-system-reset",
    [SHUTDOWN_CAUSE_HOST_SIGNAL] = "host-signal",
    [SHUTDOWN_CAUSE_HOST_UI] = "host-ui",
    [SHUTDOWN_CAUSE_GUEST_SHUTDOWN] = "guest-shutdown",
    [SHUTDOWN_CAUSE_GUEST_RESET] = "guest-reset",
    [SHUTDOWN_CAUSE_GUEST_PANIC] = "guest-panic",
    [SHUTDOWN_CAUSE_SUBSYSTEM_RESET] = "subsystem-reset",
};

RunState runstate_get(void)
{
    return current_state;
}

const char *runstate_name(RunState state)
{
    return runstate_names[state];
}

bool runstate_is_running(void)
{
    return current_state == RUN_STATE_RUNNING;
}

void runstate_set(RunState state)
{
    current_state = state;
}

void runstate_set_hooks(const RunstateHooks *h)
{
    hooks = h;
}

void vm_stop(RunState state)
{
    if (current_state == RUN_STATE_RUNNING) {
        if (hooks && hooks->pause_all) {
            hooks->pause_all();
        }
        current_state = state;
        qmp_event_send("STOP", NULL);
    } else if (current_state == RUN_STATE_PRELAUNCH) {
        /* QEMU keeps "prelaunch" until the first cont */
    } else {
        current_state = state;
    }
}

bool vm_start(void)
{
    if (current_state == RUN_STATE_RUNNING) {
        return true;
    }
    current_state = RUN_STATE_RUNNING;
    if (hooks && hooks->resume_all) {
        hooks->resume_all();
    }
    qmp_event_send("RESUME", NULL);
    return true;
}

void qemu_system_shutdown_request(ShutdownCause cause)
{
    JsonObject *d = json_object_new();

    if (shutdown_requested) {
        return;
    }
    shutdown_requested = true;
    json_object_set_boolean_member(d, "guest",
                                   cause >= SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    json_object_set_string_member(d, "reason", shutdown_cause_names[cause]);
    qmp_event_send("SHUTDOWN", json_node_init_object(json_node_alloc(), d));
    if (main_loop) {
        g_main_loop_quit(main_loop);
    }
}

bool qemu_shutdown_requested(void)
{
    return shutdown_requested;
}

int qemu_exit_status(void)
{
    return exit_status;
}

void qemu_set_exit_status(int status)
{
    exit_status = status;
}

static gboolean on_signal(gpointer data)
{
    int sig = GPOINTER_TO_INT(data);

    error_report("terminating on signal %d", sig);
    qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_SIGNAL);
    return G_SOURCE_CONTINUE;
}

void main_loop_run(void)
{
    signal(SIGPIPE, SIG_IGN);
    g_unix_signal_add(SIGINT, on_signal, GINT_TO_POINTER(SIGINT));
    g_unix_signal_add(SIGTERM, on_signal, GINT_TO_POINTER(SIGTERM));
    g_unix_signal_add(SIGHUP, on_signal, GINT_TO_POINTER(SIGHUP));
    if (shutdown_requested) {
        return;
    }
    main_loop = g_main_loop_new(NULL, FALSE);
    g_main_loop_run(main_loop);
    g_main_loop_unref(main_loop);
    main_loop = NULL;
}
