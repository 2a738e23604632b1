/*
 * Port 0x61, the PC speaker's control port, as QEMU's pcspk answers it:
 * bit 0 the PIT channel 2 gate, bit 1 the speaker data enable, bit 4 a
 * refresh clock that toggles on every read, bit 5 channel 2's OUT.  Guests
 * time things with channel 2 through it (Linux's PIT calibration of the
 * TSC).  The PIT is the one its link "pit" names, as 7.2's: the board's
 * isa-pit, or kvm-pit (read and set through KVM); there is no sound.
 * Without a PIT (pit=off) the gate is kept here and OUT reads 1.
 */
#include <glib.h>

#include "hw/audio/pcspk.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "hw/timer/i8254.h"
#include "sysemu/kvm.h"

/* State ------------------------------------------------------------------ */

typedef struct PCSpkState {
    ISADevice parent_obj;
    GMutex lock;
    bool data_on;
    bool gate;              /* without an in-kernel PIT */
    uint8_t refresh;        /* bit 4, toggled per read */
    Object *pit;            /* link "pit": isa-pit or kvm-pit */
    MemoryRegion io;
    /* Properties, as QEMU's (audiodev and migrate: no sound, no migration) */
    uint32_t iobase;
    char *audiodev;
    bool migrate;
} PCSpkState;

/* Register read/write ---------------------------------------------------- */

static uint64_t pcspk_read(void *opaque, hwaddr addr, unsigned size)
{
    PCSpkState *s = opaque;
    bool gate, out;
    uint32_t v;

    g_mutex_lock(&s->lock);
    if (s->pit && object_dynamic_cast(s->pit, TYPE_I8254)) {
        PITChannelInfo ch;

        pit_get_channel_info(DEVICE(s->pit), 2, &ch);
        gate = ch.gate;
        out = ch.out;
    } else if (!kvm_pit_ch2_get(&gate, &out)) {
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
    if (s->pit && object_dynamic_cast(s->pit, TYPE_I8254)) {
        pit_set_gate(DEVICE(s->pit), 2, value & 1);
    } else if (!kvm_pit_ch2_set_gate(value & 1)) {
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

/* Realize ---------------------------------------------------------------- */

static void pcspk_initfn(Object *obj)
{
    PCSpkState *s = (PCSpkState *)obj;

    g_mutex_init(&s->lock);
    object_property_add_link(obj, "pit", "pit-common", &s->pit);
    memory_region_init_io(&s->io, obj, &pcspk_ops, s, "pcspk", 1);
}

static bool pcspk_realize(DeviceState *dev, Error **errp)
{
    PCSpkState *s = (PCSpkState *)dev;

    isa_register_ioport(ISA_DEVICE(dev), &s->io, s->iobase);
    return true;
}

static void pcspk_finalize(Object *obj)
{
    g_mutex_clear(&((PCSpkState *)obj)->lock);
}

void pcspk_set_pit(DeviceState *dev, DeviceState *pit)
{
    ((PCSpkState *)dev)->pit = OBJECT(pit);
}

/* Property table --------------------------------------------------------- */

static Property pcspk_properties[] = {
    DEFINE_AUDIO_PROPERTIES(PCSpkState, audiodev),
    DEFINE_PROP_UINT32("iobase", PCSpkState, iobase, 0x61),
    DEFINE_PROP_BOOL("migrate", PCSpkState, migrate, true),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void pcspk_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = pcspk_realize;
    device_class_set_props(dc, pcspk_properties);
    dc->categories = 1u << DEVICE_CATEGORY_SOUND;
    /* The board's own: its channel 2 is the board's PIT */
    dc->user_creatable = false;
}

static const TypeInfo pcspk_info = {
    .name = TYPE_PC_SPEAKER,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(PCSpkState),
    .instance_init = pcspk_initfn,
    .instance_finalize = pcspk_finalize,
    .class_init = pcspk_class_init,
};

static void pcspk_register_types(void)
{
    type_register_static(&pcspk_info);
}
type_init(pcspk_register_types)
