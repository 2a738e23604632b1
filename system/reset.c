/*
 * What a machine reset does: the vCPUs are held still, every registered
 * handler runs (devices, then the boot loader that puts vCPU 0 back at the
 * kernel's entry), and the vCPUs go again.  runstate.c decides when (and
 * whether, with -no-reboot) a reset happens and sends the RESET event.
 */
#include <glib.h>

#include "hw/qdev-core.h"
#include "sysemu/reset.h"

typedef struct ResetEntry {
    QEMUResetHandler *fn;
    void *opaque;
} ResetEntry;

static GArray *reset_handlers;
static void (*vcpu_pause)(void);
static void (*vcpu_resume)(void);

void qemu_register_reset(QEMUResetHandler *fn, void *opaque)
{
    ResetEntry e = { fn, opaque };

    if (!reset_handlers) {
        reset_handlers = g_array_new(FALSE, FALSE, sizeof(ResetEntry));
    }
    g_array_append_val(reset_handlers, e);
}

void qemu_devices_reset_handler(void *opaque)
{
    qemu_devices_reset();
}

void qemu_set_reset_vcpu_hooks(void (*pause)(void), void (*resume)(void))
{
    vcpu_pause = pause;
    vcpu_resume = resume;
}

static void machine_reset(ShutdownCause cause)
{
    bool was_running = runstate_is_running();
    guint i;

    if (was_running && vcpu_pause) {
        vcpu_pause();
    }
    for (i = 0; reset_handlers && i < reset_handlers->len; i++) {
        ResetEntry *e = &g_array_index(reset_handlers, ResetEntry, i);
        e->fn(e->opaque);
    }
    /* a VM that was not running is left in prelaunch (runstate.c) */
    if (was_running && vcpu_resume) {
        vcpu_resume();
    }
}

void qemu_machine_hooks_install(void (*powerdown)(void))
{
    runstate_set_machine_hooks(machine_reset, powerdown);
}

static gboolean exit_bh(gpointer data)
{
    qemu_system_exit(GPOINTER_TO_INT(data));
    return G_SOURCE_REMOVE;
}

static int guest_exit_pending;

void qemu_system_exit_request(int status)
{
    g_atomic_int_set(&guest_exit_pending, 1);
    g_main_context_invoke(NULL, exit_bh, GINT_TO_POINTER(status));
}

bool qemu_guest_exit_pending(void)
{
    return g_atomic_int_get(&guest_exit_pending);
}

/*
 * Instead of exiting, start over: what ended the session (a shutdown
 * request, a guest's debug exit) is taken back, every device is reset and
 * the guest runs again, also after a panic stopped it.  For a main loop
 * that runs sessions back to back in one process: the qtest fuzz target
 * ends an input so.
 */
void qemu_system_restart(void)
{
    g_atomic_int_set(&guest_exit_pending, 0);
    qemu_shutdown_request_withdraw();
    machine_reset(SHUTDOWN_CAUSE_HOST_QMP_SYSTEM_RESET);
    if (!runstate_is_running()) {
        runstate_set(RUN_STATE_PRELAUNCH);
    }
    vm_start();
}
