/*
 * pvpanic, the ISA flavour: one I/O port (0x505 by default).  Reading it
 * gives the events the device supports (bit 0 panicked, bit 1 crash kernel
 * loaded); the guest writes the event that happened.  The ACPI tables
 * describe it as QEMU0001, the _HID Linux's pvpanic driver binds to.
 * What a panic does to the VM is runstate's (qemu_system_guest_panicked).
 */
#include <stddef.h>

#include <glib.h>

#include "exec/memory.h"
#include "hw/misc/pvpanic.h"
#include "sysemu/device.h"
#include "sysemu/runstate.h"

#define PVPANIC_PANICKED (1u << 0)
#define PVPANIC_CRASH_LOADED (1u << 1)

typedef struct PVPanicState {
    uint32_t ioport;
    uint32_t events;
} PVPanicState;

static PVPanicState *pvpanic;

static uint32_t pvpanic_read(void *opaque, uint16_t offset, unsigned size)
{
    PVPanicState *s = opaque;

    return s->events;
}

static void pvpanic_write(void *opaque, uint16_t offset, unsigned size,
                          uint32_t value)
{
    if (value & PVPANIC_PANICKED) {
        qemu_system_guest_panicked();
    } else if (value & PVPANIC_CRASH_LOADED) {
        qemu_system_guest_crashloaded();
    }
}

bool pvpanic_create(QemuOpts *opts, const char *id, Error **errp)
{
    PVPanicState *s;
    uint32_t ioport, events;

    if (!device_prop_get_uint(opts, "ioport", 16, 0x505, &ioport, errp) ||
        !device_prop_get_uint(opts, "events", 8,
                              PVPANIC_PANICKED | PVPANIC_CRASH_LOADED,
                              &events, errp)) {
        return false;
    }
    if (pvpanic) {
        /* QEMU's text: its firmware interface allows one */
        error_setg(errp, "duplicate fw_cfg file name: etc/pvpanic-port");
        return false;
    }
    s = g_new0(PVPanicState, 1);
    s->ioport = ioport;
    s->events = events;
    if (!ioport_register(ioport, 1, pvpanic_read, pvpanic_write, s)) {
        error_setg(errp, "pvpanic: I/O port 0x%x is in use", ioport);
        g_free(s);
        return false;
    }
    pvpanic = s;
    return true;
}

int pvpanic_port(void)
{
    return pvpanic ? (int)pvpanic->ioport : -1;
}
