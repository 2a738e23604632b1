/*
 * Run state, stop/cont, shutdown/reset/powerdown requests, signals and the
 * main loop.
 *
 * QMP events go out from the main thread only (monitors are not
 * thread-safe), so a request from a vCPU thread is handed to the main loop
 * with g_idle_add(), which also wakes it.  Requests on the main thread
 * act at once, which is what puts QEMU's event before the command's reply.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib-unix.h>

#include "monitor/qmp.h"
#include "qapi/error.h"
#include "sysemu/kvm.h"
#include "sysemu/qtest.h"
#include "sysemu/runstate.h"

static RunState current_state = RUN_STATE_PRELAUNCH;
static const RunstateHooks *hooks;
static void (*machine_reset)(ShutdownCause cause);
static void (*machine_powerdown)(void);
/* -action / set-action, as QEMU 7.2's defaults */
static RebootAction reboot_action = REBOOT_ACTION_RESET;
static ShutdownAction shutdown_action = SHUTDOWN_ACTION_POWEROFF;
static PanicAction panic_action = PANIC_ACTION_SHUTDOWN;
static WatchdogAction watchdog_action = WATCHDOG_ACTION_RESET;
static GMainLoop *main_loop;
static volatile gint shutdown_requested;
static int exit_status;
static GThread *main_thread;

static void __attribute__((constructor)) runstate_init_thread(void)
{
    main_thread = g_thread_self();
}

static bool on_main_thread(void)
{
    return g_thread_self() == main_thread;
}

RunState runstate_get(void)
{
    return current_state;
}

const char *runstate_name(RunState state)
{
    return state < RUN_STATE__MAX ? RunState_str[state] : "unknown";
}

bool runstate_is_running(void)
{
    return current_state == RUN_STATE_RUNNING;
}

/*
 * QEMU's virtual clock: it runs while the VM runs and stands while it is
 * stopped; under the qtest accelerator it is qtest's clock.  -rtc
 * clock=vm keeps the RTC on it.
 */
static int64_t vm_clock_accumulated_ns;
static int64_t vm_clock_running_since_ns = -1;

int64_t vm_clock_get_ns(void)
{
    int64_t ns = vm_clock_accumulated_ns;

    if (qtest_enabled()) {
        return qtest_clock_get_ns();
    }
    if (vm_clock_running_since_ns >= 0) {
        ns += g_get_monotonic_time() * 1000 - vm_clock_running_since_ns;
    }
    return ns;
}

/*
 * The run-state changes QEMU 7.2 allows, as observed and documented for
 * it: a row per state, the states it may go to.  Any other change is a
 * bug of ours, reported and not made (QEMU aborts).  Setting the current
 * state again is always allowed and changes nothing.
 */
#define TO(s) (1u << RUN_STATE_##s)
static const uint32_t runstate_next[RUN_STATE__MAX] = {
    [RUN_STATE_DEBUG] = TO(RUNNING) | TO(FINISH_MIGRATE) | TO(PRELAUNCH) |
                        TO(SUSPENDED),
    [RUN_STATE_INMIGRATE] = TO(INTERNAL_ERROR) | TO(IO_ERROR) | TO(PAUSED) |
                            TO(RUNNING) | TO(SHUTDOWN) | TO(SUSPENDED) |
                            TO(WATCHDOG) | TO(GUEST_PANICKED) |
                            TO(FINISH_MIGRATE) | TO(PRELAUNCH) |
                            TO(POSTMIGRATE) | TO(COLO),
    [RUN_STATE_INTERNAL_ERROR] = TO(PAUSED) | TO(FINISH_MIGRATE) |
                                 TO(PRELAUNCH),
    [RUN_STATE_IO_ERROR] = TO(RUNNING) | TO(FINISH_MIGRATE) | TO(PRELAUNCH),
    [RUN_STATE_PAUSED] = TO(RUNNING) | TO(FINISH_MIGRATE) | TO(POSTMIGRATE) |
                         TO(PRELAUNCH) | TO(COLO),
    [RUN_STATE_POSTMIGRATE] = TO(RUNNING) | TO(FINISH_MIGRATE) |
                              TO(PRELAUNCH),
    [RUN_STATE_PRELAUNCH] = TO(RUNNING) | TO(FINISH_MIGRATE) | TO(INMIGRATE),
    [RUN_STATE_FINISH_MIGRATE] = TO(RUNNING) | TO(PAUSED) | TO(POSTMIGRATE) |
                                 TO(PRELAUNCH) | TO(COLO),
    [RUN_STATE_RESTORE_VM] = TO(RUNNING) | TO(PRELAUNCH),
    [RUN_STATE_COLO] = TO(RUNNING) | TO(PRELAUNCH) | TO(SHUTDOWN),
    [RUN_STATE_RUNNING] = TO(DEBUG) | TO(INTERNAL_ERROR) | TO(IO_ERROR) |
                          TO(PAUSED) | TO(FINISH_MIGRATE) | TO(RESTORE_VM) |
                          TO(SAVE_VM) | TO(SHUTDOWN) | TO(WATCHDOG) |
                          TO(GUEST_PANICKED) | TO(COLO) | TO(SUSPENDED),
    [RUN_STATE_SAVE_VM] = TO(RUNNING),
    [RUN_STATE_SHUTDOWN] = TO(PAUSED) | TO(FINISH_MIGRATE) | TO(PRELAUNCH) |
                           TO(COLO),
    [RUN_STATE_SUSPENDED] = TO(RUNNING) | TO(FINISH_MIGRATE) |
                            TO(PRELAUNCH) | TO(COLO),
    [RUN_STATE_WATCHDOG] = TO(RUNNING) | TO(FINISH_MIGRATE) | TO(PRELAUNCH) |
                           TO(COLO),
    [RUN_STATE_GUEST_PANICKED] = TO(RUNNING) | TO(FINISH_MIGRATE) |
                                 TO(PRELAUNCH),
};
#undef TO

bool runstate_transition_allowed(RunState from, RunState to)
{
    return from == to ||
           (from < RUN_STATE__MAX && to < RUN_STATE__MAX &&
            (runstate_next[from] & (1u << to)));
}

/* States only a reset leaves (cont refuses them), as QEMU 7.2 */
bool runstate_needs_reset(void)
{
    return current_state == RUN_STATE_INTERNAL_ERROR ||
           current_state == RUN_STATE_SHUTDOWN;
}

/* Every change of run state goes through here, for the virtual clock */
static void set_state(RunState state)
{
    bool was_running = current_state == RUN_STATE_RUNNING;
    bool running = state == RUN_STATE_RUNNING;

    if (!runstate_transition_allowed(current_state, state)) {
        error_report("invalid runstate transition: '%s' -> '%s'",
                     runstate_name(current_state), runstate_name(state));
        return;
    }
    if (was_running && !running) {
        vm_clock_accumulated_ns = vm_clock_get_ns();
        vm_clock_running_since_ns = -1;
    } else if (!was_running && running) {
        vm_clock_running_since_ns = g_get_monotonic_time() * 1000;
    }
    current_state = state;
}

void runstate_set(RunState state)
{
    set_state(state);
}

void runstate_set_hooks(const RunstateHooks *h)
{
    hooks = h;
}

void runstate_set_machine_hooks(void (*reset)(ShutdownCause cause),
                                void (*powerdown)(void))
{
    machine_reset = reset;
    machine_powerdown = powerdown;
}

void runstate_set_reboot_action(RebootAction a)
{
    reboot_action = a;
}

void runstate_set_shutdown_action(ShutdownAction a)
{
    shutdown_action = a;
}

void runstate_set_panic_action(PanicAction a)
{
    panic_action = a;
}

void runstate_set_watchdog_action(WatchdogAction a)
{
    watchdog_action = a;
}

WatchdogAction runstate_watchdog_action(void)
{
    return watchdog_action;
}

/* As QEMU 7.2: a VM that is not running keeps its state, and no STOP */
void vm_stop(RunState state)
{
    if (current_state == RUN_STATE_RUNNING) {
        if (hooks && hooks->pause_all) {
            hooks->pause_all();
        }
        set_state(state);
        qmp_event_send("STOP", NULL);
    }
}

bool vm_start(void)
{
    if (current_state == RUN_STATE_RUNNING) {
        return true;
    }
    if (!runstate_transition_allowed(current_state, RUN_STATE_RUNNING)) {
        return false;
    }
    set_state(RUN_STATE_RUNNING);
    if (hooks && hooks->resume_all) {
        hooks->resume_all();
    }
    qmp_event_send("RESUME", NULL);
    return true;
}

static bool cause_is_guest(ShutdownCause cause)
{
    return cause >= SHUTDOWN_CAUSE_GUEST_SHUTDOWN &&
           cause != SHUTDOWN_CAUSE_SUBSYSTEM_RESET;
}

static JsonNode *cause_data(ShutdownCause cause)
{
    JsonObject *d = json_object_new();
    JsonNode *n;

    json_object_set_boolean_member(d, "guest", cause_is_guest(cause));
    json_object_set_string_member(d, "reason", ShutdownCause_str[cause]);
    n = json_node_init_object(json_node_alloc(), d);
    json_object_unref(d);
    return n;
}

static void guest_panicked(bool from_vcpu);

/* Requests from other threads, carried out by the main loop */
typedef enum RequestKind {
    REQ_SHUTDOWN,
    REQ_RESET,
    REQ_POWERDOWN,
    REQ_PANICKED,
    REQ_CRASHLOADED,
    REQ_SUSPEND,
} RequestKind;

typedef struct Request {
    RequestKind kind;
    ShutdownCause cause;
} Request;

static gboolean request_cb(gpointer opaque)
{
    Request *r = opaque;

    switch (r->kind) {
    case REQ_SHUTDOWN:
        qemu_system_shutdown_request(r->cause);
        break;
    case REQ_RESET:
        qemu_system_reset_request(r->cause);
        break;
    case REQ_POWERDOWN:
        qemu_system_powerdown_request();
        break;
    case REQ_PANICKED:
        if (!g_atomic_int_get(&shutdown_requested)) {
            guest_panicked(true);
        }
        break;
    case REQ_CRASHLOADED:
        qemu_system_guest_crashloaded();
        break;
    case REQ_SUSPEND:
        qemu_system_suspend_request();
        break;
    }
    g_free(r);
    return G_SOURCE_REMOVE;
}

/* Returns true if the request was deferred to the main thread. */
static bool defer_to_main(RequestKind kind, ShutdownCause cause)
{
    Request *r;

    if (on_main_thread()) {
        return false;
    }
    r = g_new(Request, 1);
    r->kind = kind;
    r->cause = cause;
    g_idle_add(request_cb, r);
    return true;
}

void qemu_system_shutdown_request(ShutdownCause cause)
{
    if (g_atomic_int_get(&shutdown_requested)) {
        return;
    }
    if (defer_to_main(REQ_SHUTDOWN, cause)) {
        return;
    }
    /* The host's quit and signals end the process whatever the action */
    if (cause == SHUTDOWN_CAUSE_HOST_QMP_QUIT ||
        cause == SHUTDOWN_CAUSE_HOST_SIGNAL) {
        shutdown_action = SHUTDOWN_ACTION_POWEROFF;
    }
    if (shutdown_action == SHUTDOWN_ACTION_PAUSE) {
        /* -no-shutdown: keep the process, stop the guest */
        qmp_event_send("SHUTDOWN", cause_data(cause));
        vm_stop(RUN_STATE_SHUTDOWN);
        return;
    }
    if (cause == SHUTDOWN_CAUSE_GUEST_PANIC &&
        panic_action == PANIC_ACTION_EXIT_FAILURE) {
        exit_status = 1;
    }
    g_atomic_int_set(&shutdown_requested, 1);
    qmp_event_send("SHUTDOWN", cause_data(cause));
    if (main_loop) {
        g_main_loop_quit(main_loop);
    }
}

void qemu_system_exit(int status)
{
    exit_status = status;
    g_atomic_int_set(&shutdown_requested, 1);
    if (main_loop) {
        g_main_loop_quit(main_loop);
    }
}

void qemu_system_reset_request(ShutdownCause cause)
{
    if (g_atomic_int_get(&shutdown_requested) ||
        defer_to_main(REQ_RESET, cause)) {
        return;
    }
    if (reboot_action == REBOOT_ACTION_SHUTDOWN &&
        cause == SHUTDOWN_CAUSE_GUEST_RESET) {
        qemu_system_shutdown_request(cause);
        return;
    }
    if (machine_reset) {
        machine_reset(cause);
    }
    qmp_event_send("RESET", cause_data(cause));
    /*
     * A reset of a VM that is not running (paused, shut down, panicked,
     * stopped on an error) leaves it in prelaunch, from where cont runs
     * it: what lets `virsh reboot` of a -no-shutdown guest start again
     */
    if (current_state != RUN_STATE_RUNNING &&
        current_state != RUN_STATE_INMIGRATE &&
        current_state != RUN_STATE_FINISH_MIGRATE) {
        set_state(RUN_STATE_PRELAUNCH);
    }
}

void qemu_system_powerdown_request(void)
{
    if (g_atomic_int_get(&shutdown_requested) ||
        defer_to_main(REQ_POWERDOWN, SHUTDOWN_CAUSE_NONE)) {
        return;
    }
    qmp_event_send("POWERDOWN", NULL);
    if (machine_powerdown) {
        machine_powerdown();
    }
}

static JsonNode *panic_action_data(const char *action)
{
    JsonObject *d = json_object_new();
    JsonNode *n;

    json_object_set_string_member(d, "action", action);
    n = json_node_init_object(json_node_alloc(), d);
    json_object_unref(d);
    return n;
}

/*
 * As QEMU 7.2's panic actions: pause (also shutdown while the shutdown
 * action is pause, -no-shutdown's case) stops the VM in guest-panicked;
 * shutdown and exit-failure stop it and end the process (exit-failure
 * with status 1); none lets the guest run on.  from_vcpu: a guest's panic
 * arrives from a vCPU thread.  QEMU then only requests the stop, and its
 * main loop ends before carrying it out, so with the poweroff action no
 * STOP is sent (from qtest it is).
 */
static void guest_panicked(bool from_vcpu)
{
    if (panic_action == PANIC_ACTION_PAUSE ||
        (panic_action == PANIC_ACTION_SHUTDOWN &&
         shutdown_action == SHUTDOWN_ACTION_PAUSE)) {
        qmp_event_send("GUEST_PANICKED", panic_action_data("pause"));
        vm_stop(RUN_STATE_GUEST_PANICKED);
    } else if (panic_action == PANIC_ACTION_SHUTDOWN ||
               panic_action == PANIC_ACTION_EXIT_FAILURE) {
        qmp_event_send("GUEST_PANICKED", panic_action_data("poweroff"));
        if (!from_vcpu) {
            vm_stop(RUN_STATE_GUEST_PANICKED);
        }
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_PANIC);
    } else {
        qmp_event_send("GUEST_PANICKED", panic_action_data("run"));
    }
}

/*
 * A watchdog device's timer ran out (QEMU 7.2's watchdog_perform_action):
 * the WATCHDOG event names the -action watchdog= action (or
 * -watchdog-action), then it happens; poweroff ends the process at once
 * with status 0, as 7.2's exit(0) does.  Main thread (timer callbacks).
 */
void qemu_watchdog_perform_action(void)
{
    JsonObject *o = json_object_new();
    JsonNode *n;

    json_object_set_string_member(o, "action",
                                  WatchdogAction_str[watchdog_action]);
    n = json_node_init_object(json_node_alloc(), o);
    json_object_unref(o);
    qmp_event_send("WATCHDOG", n);
    switch (watchdog_action) {
    case WATCHDOG_ACTION_RESET:
        qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
        break;
    case WATCHDOG_ACTION_SHUTDOWN:
        qemu_system_powerdown_request();
        break;
    case WATCHDOG_ACTION_POWEROFF:
        exit(0);
    case WATCHDOG_ACTION_PAUSE:
        vm_stop(RUN_STATE_WATCHDOG);
        break;
    case WATCHDOG_ACTION_DEBUG:
        fprintf(stderr, "watchdog: timer fired\n");
        break;
    case WATCHDOG_ACTION_INJECT_NMI:
        if (kvm_enabled()) {
            kvm_inject_nmi_all();
        }
        break;
    default:
        break;
    }
}

void qemu_system_guest_panicked(void)
{
    if (g_atomic_int_get(&shutdown_requested) ||
        defer_to_main(REQ_PANICKED, SHUTDOWN_CAUSE_GUEST_PANIC)) {
        return;
    }
    guest_panicked(false);
}

void qemu_system_guest_crashloaded(void)
{
    if (g_atomic_int_get(&shutdown_requested) ||
        defer_to_main(REQ_CRASHLOADED, SHUTDOWN_CAUSE_NONE)) {
        return;
    }
    qmp_event_send("GUEST_CRASHLOADED", panic_action_data("run"));
}

static void (*wakeup_hook)(void);

void runstate_set_wakeup_hook(void (*hook)(void))
{
    wakeup_hook = hook;
}

void qemu_system_suspend_request(void)
{
    if (g_atomic_int_get(&shutdown_requested) ||
        defer_to_main(REQ_SUSPEND, SHUTDOWN_CAUSE_NONE)) {
        return;
    }
    if (current_state != RUN_STATE_RUNNING) {
        return;                 /* suspended already, or stopped meanwhile */
    }
    if (hooks && hooks->pause_all) {
        hooks->pause_all();
    }
    set_state(RUN_STATE_SUSPENDED);
    qmp_event_send("SUSPEND", NULL);
}

bool qemu_system_wakeup_request(Error **errp)
{
    if (current_state != RUN_STATE_SUSPENDED) {
        error_setg(errp, "Unable to wake up: guest is not in suspended "
                   "state");
        return false;
    }
    if (machine_reset) {
        machine_reset(SHUTDOWN_CAUSE_NONE);
    }
    if (wakeup_hook) {
        wakeup_hook();
    }
    set_state(RUN_STATE_RUNNING);
    if (hooks && hooks->resume_all) {
        hooks->resume_all();
    }
    qmp_event_send("WAKEUP", NULL);
    return true;
}

bool qemu_shutdown_requested(void)
{
    return g_atomic_int_get(&shutdown_requested);
}

void qemu_shutdown_request_withdraw(void)
{
    g_atomic_int_set(&shutdown_requested, 0);
    exit_status = 0;
}

int qemu_exit_status(void)
{
    return exit_status;
}

void qemu_set_exit_status(int status)
{
    exit_status = status;
}

/*
 * Signals.  g_unix_signal_add() does not say who sent a signal, and QEMU
 * names the sender, so an SA_SIGINFO handler passes the siginfo through a
 * pipe that the main loop watches.
 */
static int signal_pipe[2] = { -1, -1 };

static void signal_handler(int sig, siginfo_t *info, void *ctx)
{
    int saved = errno;
    ssize_t n = write(signal_pipe[1], info, sizeof(*info));

    (void)n; /* a full pipe already holds a pending termination */
    errno = saved;
}

/* argv[0] of the sender, as QEMU prints it */
static char *process_name(pid_t pid)
{
    char *path = g_strdup_printf("/proc/%d/cmdline", (int)pid);
    char *data = NULL, *name;
    gsize len;

    if (g_file_get_contents(path, &data, &len, NULL) && len && data[0]) {
        name = g_strdup(data);
    } else {
        name = g_strdup("<unknown process>");
    }
    g_free(data);
    g_free(path);
    return name;
}

static gboolean signal_readable(gint fd, GIOCondition cond, gpointer opaque)
{
    siginfo_t info;
    ssize_t n = read(fd, &info, sizeof(info));

    if (n != sizeof(info)) {
        return G_SOURCE_CONTINUE;
    }
    if (info.si_code == SI_USER || info.si_code == SI_QUEUE) {
        char *name = process_name(info.si_pid);
        error_report("terminating on signal %d from pid %d (%s)",
                     info.si_signo, (int)info.si_pid, name);
        g_free(name);
    } else {
        error_report("terminating on signal %d", info.si_signo);
    }
    qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_SIGNAL);
    return G_SOURCE_CONTINUE;
}

static void signals_install(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;
    size_t i;

    if (signal_pipe[0] >= 0) {
        return;
    }
    if (!g_unix_open_pipe(signal_pipe, FD_CLOEXEC, NULL)) {
        return;
    }
    g_unix_set_fd_nonblocking(signal_pipe[0], TRUE, NULL);
    g_unix_set_fd_nonblocking(signal_pipe[1], TRUE, NULL);
    g_unix_fd_add(signal_pipe[0], G_IO_IN, signal_readable, NULL);

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = signal_handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < G_N_ELEMENTS(sigs); i++) {
        sigaction(sigs[i], &sa, NULL);
    }
}

void main_loop_run(void)
{
    signal(SIGPIPE, SIG_IGN);
    signals_install();
    if (qemu_shutdown_requested()) {
        return;
    }
    main_loop = g_main_loop_new(NULL, FALSE);
    g_main_loop_run(main_loop);
    g_main_loop_unref(main_loop);
    main_loop = NULL;
}
