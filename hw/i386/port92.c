/*
 * System control port A (0x92): bit 1 is the fast A20 gate, bit 0 a CPU
 * reset (written as 1).  KVM guests always see A20 enabled; the bit is
 * only remembered and given to the "a20" line, which nothing needs here.
 * As in QEMU 7.2 the port reads 0x02 at power-on and keeps what is
 * written (bit 0 too, until the reset it asked for clears it).
 */
#include <glib.h>

#include "hw/input/i8042.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "sysemu/runstate.h"

#define PORT92 0x92
#define PORT92_RESET 0x01
#define PORT92_A20 0x02

/* State ------------------------------------------------------------------ */

typedef struct Port92State {
    ISADevice parent_obj;
    GMutex lock;
    uint8_t outport;
    MemoryRegion io;
    qemu_irq a20_out;
} Port92State;

/* Register read/write ---------------------------------------------------- */

static uint64_t port92_read(void *opaque, hwaddr addr, unsigned size)
{
    Port92State *s = opaque;
    uint8_t v;

    g_mutex_lock(&s->lock);
    v = s->outport;
    g_mutex_unlock(&s->lock);
    return v;
}

static void port92_write(void *opaque, hwaddr addr, uint64_t value,
                         unsigned size)
{
    Port92State *s = opaque;
    bool reset;

    g_mutex_lock(&s->lock);
    reset = (value & PORT92_RESET) && !(s->outport & PORT92_RESET);
    s->outport = value;
    g_mutex_unlock(&s->lock);
    qemu_set_irq(s->a20_out, (value & PORT92_A20) != 0);
    if (reset) {
        qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
    }
}

static const MemoryRegionOps port92_ops = {
    .read = port92_read,
    .write = port92_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Reset ------------------------------------------------------------------ */

static void port92_reset(DeviceState *dev)
{
    Port92State *s = (Port92State *)dev;

    g_mutex_lock(&s->lock);
    s->outport &= ~PORT92_RESET;
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void port92_initfn(Object *obj)
{
    Port92State *s = (Port92State *)obj;

    g_mutex_init(&s->lock);
    s->outport = PORT92_A20;
    memory_region_init_io(&s->io, obj, &port92_ops, s, "port92", 1);
    qdev_init_gpio_out_named(DEVICE(obj), &s->a20_out, "a20", 1);
}

static bool port92_realize(DeviceState *dev, Error **errp)
{
    Port92State *s = (Port92State *)dev;

    isa_register_ioport(ISA_DEVICE(dev), &s->io, PORT92);
    return true;
}

static void port92_finalize(Object *obj)
{
    g_mutex_clear(&((Port92State *)obj)->lock);
}

/* Registration ------------------------------------------------------------ */

static void port92_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = port92_realize;
    dc->reset = port92_reset;
    /* The board's own: its line goes to the i8042 and the CPU */
    dc->user_creatable = false;
}

static const TypeInfo port92_info = {
    .name = TYPE_PORT92,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(Port92State),
    .instance_init = port92_initfn,
    .instance_finalize = port92_finalize,
    .class_init = port92_class_init,
};

static void port92_register_types(void)
{
    type_register_static(&port92_info);
}
type_init(port92_register_types)
