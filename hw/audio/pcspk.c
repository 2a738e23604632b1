/*
 * Port 0x61, the PC speaker's control port, as QEMU's pcspk answers it:
 * bit 0 the PIT channel 2 gate, bit 1 the speaker data enable, bit 4 a
 * refresh clock that toggles on every read, bit 5 channel 2's OUT.  Guests
 * time things with channel 2 through it (Linux's PIT calibration of the
 * TSC).  The PIT is KVM's; there is no sound.  Without an in-kernel PIT
 * (qtest) the gate is kept here and OUT reads 1, as QEMU's idle channel.
 */
#include <glib.h>

#include "exec/memory.h"
#include "hw/audio/pcspk.h"
#include "sysemu/kvm.h"

typedef struct PCSpkState {
    GMutex lock;
    bool data_on;
    bool gate;              /* without an in-kernel PIT */
    uint8_t refresh;        /* bit 4, toggled per read */
} PCSpkState;

static PCSpkState pcspk;

static uint32_t pcspk_read(void *opaque, uint16_t offset, unsigned size)
{
    PCSpkState *s = opaque;
    bool gate, out;
    uint32_t v;

    g_mutex_lock(&s->lock);
    if (!kvm_pit_ch2_get(&gate, &out)) {
        gate = s->gate;
        out = true;
    }
    s->refresh ^= 1u << 4;
    v = gate | (s->data_on << 1) | s->refresh | (out << 5);
    g_mutex_unlock(&s->lock);
    return v;
}

static void pcspk_write(void *opaque, uint16_t offset, unsigned size,
                        uint32_t value)
{
    PCSpkState *s = opaque;

    g_mutex_lock(&s->lock);
    s->data_on = (value >> 1) & 1;
    if (!kvm_pit_ch2_set_gate(value & 1)) {
        s->gate = value & 1;
    }
    g_mutex_unlock(&s->lock);
}

bool pcspk_create(Error **errp)
{
    if (!ioport_register(0x61, 1, pcspk_read, pcspk_write, &pcspk)) {
        error_setg(errp, "pcspk: I/O port 0x61 is in use");
        return false;
    }
    return true;
}
