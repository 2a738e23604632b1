/*
 * pvpanic, the ISA flavour: one I/O port (0x505 by default).  Reading it
 * gives the events the device supports (bit 0 panicked, bit 1 crash kernel
 * loaded); the guest writes the event that happened.  The ACPI tables
 * describe it as QEMU0001, the _HID Linux's pvpanic driver binds to.
 * What a panic does to the VM is runstate's (qemu_system_guest_panicked).
 */
#include <stddef.h>

#include <glib.h>

#include "hw/isa/isa.h"
#include "hw/misc/pvpanic.h"
#include "hw/qdev-properties.h"
#include "sysemu/runstate.h"

#define PVPANIC_PANICKED (1u << 0)
#define PVPANIC_CRASH_LOADED (1u << 1)

/* State ------------------------------------------------------------------ */

typedef struct PVPanicISAState {
    ISADevice parent_obj;
    uint16_t ioport;
    uint8_t events;
    MemoryRegion mr;
} PVPanicISAState;

/* The one pvpanic (QEMU allows one: its firmware file is unique) */
static PVPanicISAState *pvpanic;

/* Register read/write ---------------------------------------------------- */

static uint64_t pvpanic_read(void *opaque, hwaddr addr, unsigned size)
{
    PVPanicISAState *s = opaque;

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

/* Realize ---------------------------------------------------------------- */

static void pvpanic_isa_initfn(Object *obj)
{
    PVPanicISAState *s = (PVPanicISAState *)obj;

    memory_region_init_io(&s->mr, obj, &pvpanic_ops, s, "pvpanic", 1);
}

static bool pvpanic_isa_realize(DeviceState *dev, Error **errp)
{
    PVPanicISAState *s = (PVPanicISAState *)dev;

    if (pvpanic) {
        /* QEMU's text: its firmware interface allows one */
        error_setg(errp, "duplicate fw_cfg file name: etc/pvpanic-port");
        return false;
    }
    pvpanic = s;
    isa_register_ioport(ISA_DEVICE(dev), &s->mr, s->ioport);
    return true;
}

static void pvpanic_isa_unrealize(DeviceState *dev)
{
    PVPanicISAState *s = (PVPanicISAState *)dev;

    if (s->mr.container) {
        memory_region_del_subregion(s->mr.container, &s->mr);
    }
    pvpanic = NULL;
}

int pvpanic_port(void)
{
    return pvpanic ? (int)pvpanic->ioport : -1;
}

/* Property table --------------------------------------------------------- */

static Property pvpanic_isa_properties[] = {
    DEFINE_PROP_UINT16("ioport", PVPanicISAState, ioport, 0x505),
    DEFINE_PROP_UINT8("events", PVPanicISAState, events,
                      PVPANIC_PANICKED | PVPANIC_CRASH_LOADED),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void pvpanic_isa_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = pvpanic_isa_realize;
    dc->unrealize = pvpanic_isa_unrealize;
    device_class_set_props(dc, pvpanic_isa_properties);
    dc->categories = 1u << DEVICE_CATEGORY_MISC;
}

static const TypeInfo pvpanic_isa_info = {
    .name = TYPE_PVPANIC_ISA_DEVICE,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(PVPanicISAState),
    .instance_init = pvpanic_isa_initfn,
    .class_init = pvpanic_isa_class_init,
};

static void pvpanic_register_types(void)
{
    type_register_static(&pvpanic_isa_info);
}
type_init(pvpanic_register_types)
