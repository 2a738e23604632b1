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
    MemoryRegion io;
} PCSpkState;

static PCSpkState pcspk;

static uint64_t pcspk_read(void *opaque, hwaddr addr, unsigned size)
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

static void pcspk_write(void *opaque, hwaddr addr, uint64_t value,
                        unsigned size)
{
    PCSpkState *s = opaque;

    g_mutex_lock(&s->lock);
    s->data_on = (value >> 1) & 1;
    if (!kvm_pit_ch2_set_gate(value & 1)) {
        s->gate = value & 1;
    }
    g_mutex_unlock(&s->lock);
}

static const MemoryRegionOps pcspk_ops = {
    .read = pcspk_read,
    .write = pcspk_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

bool pcspk_create(Error **errp)
{
    memory_region_init_io(&pcspk.io, NULL, &pcspk_ops, &pcspk, "pcspk", 1);
    memory_region_add_subregion(get_system_io(), 0x61, &pcspk.io);
    return true;
}
