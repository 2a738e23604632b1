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

#include "hw/isa/isa.h"
#include "hw/misc/debugexit.h"
#include "hw/qdev-properties.h"
#include "sysemu/reset.h"

/* State ------------------------------------------------------------------ */

typedef struct ISADebugExitState {
    ISADevice parent_obj;
    uint32_t iobase, iosize;
    MemoryRegion io;
} ISADebugExitState;

/* Register read/write ---------------------------------------------------- */

static uint64_t debug_exit_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
}

static void debug_exit_write(void *opaque, hwaddr addr, uint64_t value,
                             unsigned size)
{
    qemu_system_exit_request((int)((value << 1) | 1));
}

static const MemoryRegionOps debug_exit_ops = {
    .read = debug_exit_read,
    .write = debug_exit_write,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Realize ---------------------------------------------------------------- */

static bool debug_exit_realize(DeviceState *dev, Error **errp)
{
    ISADebugExitState *s = (ISADebugExitState *)dev;

    memory_region_init_io(&s->io, OBJECT(dev), &debug_exit_ops, s,
                          TYPE_ISA_DEBUG_EXIT_DEVICE, s->iosize);
    isa_register_ioport(ISA_DEVICE(dev), &s->io, s->iobase);
    return true;
}

/* Property table --------------------------------------------------------- */

static Property debug_exit_properties[] = {
    DEFINE_PROP_UINT32("iobase", ISADebugExitState, iobase, 0x501),
    DEFINE_PROP_UINT32("iosize", ISADebugExitState, iosize, 0x02),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void debug_exit_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = debug_exit_realize;
    device_class_set_props(dc, debug_exit_properties);
    dc->categories = 1u << DEVICE_CATEGORY_MISC;
}

static const TypeInfo debug_exit_info = {
    .name = TYPE_ISA_DEBUG_EXIT_DEVICE,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISADebugExitState),
    .class_init = debug_exit_class_init,
};

static void debug_exit_register_types(void)
{
    type_register_static(&debug_exit_info);
}
type_init(debug_exit_register_types)
