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
    MemoryRegion io;
} PVPanicState;

static PVPanicState *pvpanic;

static uint64_t pvpanic_read(void *opaque, hwaddr addr, unsigned size)
{
    PVPanicState *s = opaque;

    return s->events;
}

static void pvpanic_write(void *opaque, hwaddr addr, uint64_t value,
                          unsigned size)
{
    if (value & PVPANIC_PANICKED) {
        qemu_system_guest_panicked();
    } else if (value & PVPANIC_CRASH_LOADED) {
        qemu_system_guest_crashloaded();
    }
}

static const MemoryRegionOps pvpanic_ops = {
    .read = pvpanic_read,
    .write = pvpanic_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

bool pvpanic_create(QemuOpts *opts, const char *id, Error **errp)
{
    PVPanicState *s;
    uint32_t ioport, events;

    if (!device_prop_get_uint32(opts, "ioport", 0x505, &ioport, errp) ||
        !device_prop_get_uint32(opts, "events",
                                PVPANIC_PANICKED | PVPANIC_CRASH_LOADED,
                                &events, errp)) {
        return false;
    }
    if (ioport > 0xffff) {
        error_setg(errp, "Parameter 'ioport' expects uint16_t");
        return false;
    }
    if (events > 0xff) {
        error_setg(errp, "Parameter 'events' expects uint8_t");
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
    memory_region_init_io(&s->io, NULL, &pvpanic_ops, s, "pvpanic", 1);
    memory_region_add_subregion(get_system_io(), ioport, &s->io);
    pvpanic = s;
    return true;
}

int pvpanic_port(void)
{
    return pvpanic ? (int)pvpanic->ioport : -1;
}
