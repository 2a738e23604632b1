/*
 * System control port A (0x92): bit 1 is the fast A20 gate, bit 0 a CPU
 * reset (written as 1).  KVM guests always see A20 enabled; the bit is
 * only remembered.  As in QEMU 7.2 the port reads 0x02 at power-on, keeps
 * what is written (bit 0 too, until the reset it asked for clears it).
 */
#include <glib.h>

#include "exec/memory.h"
#include "hw/input/i8042.h"
#include "sysemu/reset.h"
#include "sysemu/runstate.h"

#define PORT92 0x92
#define PORT92_RESET 0x01
#define PORT92_A20 0x02

/* State ------------------------------------------------------------------ */

typedef struct Port92State {
    GMutex lock;
    uint8_t outport;
    MemoryRegion io;
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

static void port92_reset(void *opaque)
{
    Port92State *s = opaque;

    g_mutex_lock(&s->lock);
    s->outport &= ~PORT92_RESET;
    g_mutex_unlock(&s->lock);
}

/* Realize and registration ------------------------------------------------ */

bool port92_create(Error **errp)
{
    Port92State *s = g_new0(Port92State, 1);

    g_mutex_init(&s->lock);
    s->outport = PORT92_A20;
    memory_region_init_io(&s->io, NULL, &port92_ops, s, "port92", 1);
    memory_region_add_subregion(get_system_io(), PORT92, &s->io);
    qemu_register_reset(port92_reset, s);
    return true;
}
