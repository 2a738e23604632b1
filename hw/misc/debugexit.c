/*
 * isa-debug-exit: test guests end the emulator with a status of their
 * choosing.  The status is (v << 1) | 1, so it is never 0 and a guest
 * cannot fake a clean ACPI poweroff.  As in QEMU there is no SHUTDOWN
 * event and -no-shutdown does not hold the process.  The exit goes through
 * the main loop (sysemu/reset.h), so chardev output is flushed and the
 * terminal restored; every vCPU stops at its next exit meanwhile.
 */
#include <stddef.h>

#include <glib.h>

#include "exec/memory.h"
#include "hw/misc/debugexit.h"
#include "sysemu/device.h"
#include "sysemu/reset.h"

/* State ------------------------------------------------------------------ */

typedef struct DebugExitState {
    uint32_t iobase, iosize;
} DebugExitState;

/* Register read/write ---------------------------------------------------- */

static uint32_t debug_exit_read(void *opaque, uint16_t offset, unsigned size)
{
    return 0;
}

static void debug_exit_write(void *opaque, uint16_t offset, unsigned size,
                             uint32_t value)
{
    qemu_system_exit_request((int)((value << 1) | 1));
}

/* Realize ---------------------------------------------------------------- */

static bool debug_exit_realize(DebugExitState *s, Error **errp)
{
    if (!s->iosize || s->iobase > 0xffff || s->iosize > 0x10000 - s->iobase) {
        error_setg(errp, "isa-debug-exit: ports 0x%x+0x%x are outside the "
                   "I/O space", s->iobase, s->iosize);
        return false;
    }
    if (!ioport_register(s->iobase, s->iosize, debug_exit_read,
                         debug_exit_write, s)) {
        error_setg(errp, "isa-debug-exit: I/O ports 0x%x-0x%x are in use",
                   s->iobase, s->iobase + s->iosize - 1);
        return false;
    }
    return true;
}

/* Property table --------------------------------------------------------- */

static const struct {
    const char *name;
    uint32_t defval;
    size_t offset;
} debug_exit_props[] = {
    { "iobase", 0x501, offsetof(DebugExitState, iobase) },
    { "iosize", 0x02, offsetof(DebugExitState, iosize) },
};

/* Registration ------------------------------------------------------------ */

bool isa_debug_exit_create(QemuOpts *opts, const char *id, Error **errp)
{
    DebugExitState *s = g_new0(DebugExitState, 1);
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(debug_exit_props); i++) {
        uint32_t *field = (uint32_t *)((char *)s + debug_exit_props[i].offset);

        if (!device_prop_get_uint(opts, debug_exit_props[i].name, 32,
                                  debug_exit_props[i].defval, field, errp)) {
            g_free(s);
            return false;
        }
    }
    if (!debug_exit_realize(s, errp)) {
        g_free(s);
        return false;
    }
    return true;
}
