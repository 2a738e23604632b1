/*
 * System control port A (0x92): bit 1 is the fast A20 gate, bit 0 a CPU
 * reset (written as 1).  KVM guests always see A20 enabled; the bit is
 * only remembered.
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
} Port92State;

/* Register read/write ---------------------------------------------------- */

static uint32_t port92_read(void *opaque, uint16_t offset, unsigned size)
{
    Port92State *s = opaque;
    uint8_t v;

    g_mutex_lock(&s->lock);
    v = s->outport;
    g_mutex_unlock(&s->lock);
    return v | (size > 1 ? 0xffffff00u : 0);
}

static void port92_write(void *opaque, uint16_t offset, unsigned size,
                         uint32_t value)
{
    Port92State *s = opaque;

    g_mutex_lock(&s->lock);
    /* The reset bit does not stick */
    s->outport = value & ~PORT92_RESET;
    g_mutex_unlock(&s->lock);
    if (value & PORT92_RESET) {
        qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
    }
}

/* Reset ------------------------------------------------------------------ */

static void port92_reset(void *opaque)
{
    Port92State *s = opaque;

    g_mutex_lock(&s->lock);
    s->outport &= ~PORT92_A20;
    g_mutex_unlock(&s->lock);
}

/* Realize and registration ------------------------------------------------ */

bool port92_create(Error **errp)
{
    Port92State *s = g_new0(Port92State, 1);

    g_mutex_init(&s->lock);
    if (!ioport_register(PORT92, 1, port92_read, port92_write, s)) {
        error_setg(errp, "port92: I/O port 0x92 is in use");
        return false;
    }
    qemu_register_reset(port92_reset, s);
    return true;
}
