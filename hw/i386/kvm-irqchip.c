/*
 * The in-kernel interrupt controllers, PIT and clock as devices, as QEMU
 * 7.2 has them under KVM with kernel-irqchip=on: two `kvm-i8259` and the
 * `kvm-pit` on the ISA bus, `kvm-ioapic` (at /machine/q35/ioapic or
 * /machine/i440fx/ioapic) and `kvmclock` on the system bus (the local
 * APICs and their MSI window "kvm-apic-msi": hw/i386/apic.c).
 *
 * KVM emulates the chips themselves: a vCPU's access to their ports and
 * MMIO never leaves the kernel.  So their regions (kvm-pic, kvm-elcr,
 * kvm-pit, kvm-ioapic), as in 7.2, have no callbacks: an access that does
 * reach them (a device's DMA, say) is unassigned.  What is real here:
 *   - kvm-pit's lost_tick_policy: delay re-injects missed ticks (KVM's
 *     default), discard turns re-injection off (KVM_REINJECT_CONTROL);
 *     anything else is refused with 7.2's text; its input is the HPET's
 *     "PIT enabled" line (low: KVM's PIT stops raising IRQ 0, the HPET's
 *     legacy mode has it);
 *   - kvm-ioapic's 24 inputs are the board's GSIs (KVM_IRQ_LINE).
 * The board makes them only with the in-kernel irqchip (not under qtest,
 * kernel-irqchip=off or split, where QEMU 7.2 has its userspace models).
 */
#include "hw/i386/kvm-irqchip.h"
#include "hw/intc/i8259.h"
#include "hw/intc/ioapic.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "hw/timer/i8254.h"
#include "sysemu/kvm.h"

#define KVM_IOAPIC_PINS 24
#define KVM_IOAPIC_BASE 0xfec00000ULL

/* kvm-i8259 --------------------------------------------------------------- */

typedef struct KVMPICState {
    ISADevice parent_obj;
    uint32_t iobase, elcr_addr;
    uint8_t elcr_mask;
    bool master;
    MemoryRegion base_io, elcr_io;
} KVMPICState;

static bool kvm_pic_realize(DeviceState *dev, Error **errp)
{
    KVMPICState *s = (KVMPICState *)dev;
    ISADevice *isa = ISA_DEVICE(dev);

    if (s->iobase > 0xfffe || s->elcr_addr > 0xffff) {
        error_setg(errp, "kvm-i8259: iobase 0x%x or elcr_addr 0x%x is out "
                   "of range", s->iobase, s->elcr_addr);
        return false;
    }
    memory_region_init_io(&s->base_io, OBJECT(dev), NULL, NULL, "kvm-pic",
                          2);
    isa_register_ioport(isa, &s->base_io, s->iobase);
    memory_region_init_io(&s->elcr_io, OBJECT(dev), NULL, NULL, "kvm-elcr",
                          1);
    isa_register_ioport(isa, &s->elcr_io, s->elcr_addr);
    return true;
}

static Property kvm_pic_properties[] = {
    DEFINE_PROP_UINT32("iobase", KVMPICState, iobase, UINT32_MAX),
    DEFINE_PROP_UINT32("elcr_addr", KVMPICState, elcr_addr, UINT32_MAX),
    DEFINE_PROP_UINT8("elcr_mask", KVMPICState, elcr_mask, UINT8_MAX),
    DEFINE_PROP_BIT("master", KVMPICState, master, false),
    DEFINE_PROP_END_OF_LIST(),
};

/* kvm-pit ------------------------------------------------------------------ */

typedef struct KVMPITState {
    ISADevice parent_obj;
    uint32_t iobase;
    int lost_tick_policy;
    MemoryRegion io;
} KVMPITState;

/* The HPET's output: low while its legacy mode has IRQ 0 */
static void kvm_pit_irq_control(void *opaque, int n, int enable)
{
    kvm_pit_set_hpet_legacy(!enable);
}

static bool kvm_pit_realize(DeviceState *dev, Error **errp)
{
    KVMPITState *s = (KVMPITState *)dev;

    if (s->iobase > 0xfffc) {
        error_setg(errp, "kvm-pit: iobase 0x%x is out of range", s->iobase);
        return false;
    }
    if (!kvm_pit_create(errp)) {
        return false;
    }
    switch (s->lost_tick_policy) {
    case LOST_TICK_POLICY_DELAY:
        break;                  /* KVM re-injects by default */
    case LOST_TICK_POLICY_DISCARD:
        if (!kvm_pit_set_reinject(false, errp)) {
            return false;
        }
        break;
    default:
        error_setg(errp, "Lost tick policy not supported.");
        return false;
    }
    qdev_init_gpio_in(dev, kvm_pit_irq_control, 1);
    memory_region_init_io(&s->io, OBJECT(dev), NULL, NULL, "kvm-pit", 4);
    isa_register_ioport(ISA_DEVICE(dev), &s->io, s->iobase);
    return true;
}

static Property kvm_pit_properties[] = {
    DEFINE_PROP_UINT32("iobase", KVMPITState, iobase, UINT32_MAX),
    DEFINE_PROP_LOSTTICKPOLICY("lost_tick_policy", KVMPITState,
                               lost_tick_policy, LOST_TICK_POLICY_DELAY),
    DEFINE_PROP_END_OF_LIST(),
};

/* kvm-ioapic --------------------------------------------------------------- */

typedef struct KVMIOAPICState {
    SysBusDevice parent_obj;
    uint32_t gsi_base;
    MemoryRegion io;
} KVMIOAPICState;

static void kvm_ioapic_set_irq(void *opaque, int n, int level)
{
    KVMIOAPICState *s = opaque;

    pc_set_irq(s->gsi_base + n, level);
}

static bool kvm_ioapic_realize(DeviceState *dev, Error **errp)
{
    KVMIOAPICState *s = (KVMIOAPICState *)dev;

    memory_region_init_io(&s->io, OBJECT(dev), NULL, NULL, "kvm-ioapic",
                          0x1000);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->io);
    qdev_init_gpio_in(dev, kvm_ioapic_set_irq, KVM_IOAPIC_PINS);
    return true;
}

static Property kvm_ioapic_properties[] = {
    DEFINE_PROP_UINT32("gsi_base", KVMIOAPICState, gsi_base, 0),
    DEFINE_PROP_END_OF_LIST(),
};

/* kvmclock ----------------------------------------------------------------- */

typedef struct KVMClockState {
    SysBusDevice parent_obj;
    bool mach_use_reliable_get_clock;
} KVMClockState;

static Property kvmclock_properties[] = {
    DEFINE_PROP_BOOL("x-mach-use-reliable-get-clock", KVMClockState,
                     mach_use_reliable_get_clock, true),
    DEFINE_PROP_END_OF_LIST(),
};

/* The board ---------------------------------------------------------------- */

static bool kvm_pic_create(ISABus *isa, bool master, Error **errp)
{
    DeviceState *d = DEVICE(isa_new(TYPE_KVM_I8259));

    qdev_prop_set_uint32(d, "iobase", master ? 0x20 : 0xa0);
    qdev_prop_set_uint32(d, "elcr_addr", master ? 0x4d0 : 0x4d1);
    qdev_prop_set_uint8(d, "elcr_mask", master ? 0xf8 : 0xde);
    qdev_prop_set_bit(d, "master", master);
    return isa_realize_and_unref(ISA_DEVICE(d), isa, errp);
}

bool kvm_irqchip_create_pics(ISABus *isa, Error **errp)
{
    if (!kvm_irqchip_in_kernel()) {
        return true;
    }
    return kvm_pic_create(isa, true, errp) && kvm_pic_create(isa, false, errp);
}

bool kvm_irqchip_create_ioapic(Object *host, Error **errp)
{
    DeviceState *d;

    if (!kvm_irqchip_in_kernel()) {
        return true;
    }
    d = qdev_new(TYPE_KVM_IOAPIC);
    object_property_add_child(host, "ioapic", OBJECT(d));
    if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(d), errp)) {
        return false;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(d), 0, KVM_IOAPIC_BASE);
    return true;
}

bool kvm_irqchip_create_pit(ISABus *isa, bool enabled, DeviceState **pit,
                            Error **errp)
{
    DeviceState *d;

    *pit = NULL;
    if (!kvm_irqchip_in_kernel() || !enabled) {
        return true;
    }
    d = DEVICE(isa_new(TYPE_KVM_PIT));
    qdev_prop_set_uint32(d, "iobase", 0x40);
    if (!isa_realize_and_unref(ISA_DEVICE(d), isa, errp)) {
        return false;
    }
    *pit = d;
    return true;
}

bool kvm_irqchip_create_clock(bool kvmclock, Error **errp)
{
    DeviceState *d;

    if (!kvm_enabled() || !kvmclock) {
        return true;
    }
    d = qdev_new(TYPE_KVMCLOCK);
    return sysbus_realize_and_unref(SYS_BUS_DEVICE(d), errp);
}

/* Registration ------------------------------------------------------------ */

static void kvm_pic_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = kvm_pic_realize;
    device_class_set_props(dc, kvm_pic_properties);
    dc->user_creatable = false;
}

static void kvm_pit_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = kvm_pit_realize;
    device_class_set_props(dc, kvm_pit_properties);
    dc->user_creatable = false;
}

static void kvm_ioapic_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = kvm_ioapic_realize;
    device_class_set_props(dc, kvm_ioapic_properties);
    dc->user_creatable = false;
}

static void kvmclock_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    device_class_set_props(dc, kvmclock_properties);
    dc->user_creatable = false;
}

static const TypeInfo kvm_irqchip_types[] = {
    {
        .name = TYPE_KVM_I8259,
        .parent = TYPE_PIC_COMMON,
        .instance_size = sizeof(KVMPICState),
        .class_init = kvm_pic_class_init,
    }, {
        .name = TYPE_KVM_PIT,
        .parent = TYPE_PIT_COMMON,
        .instance_size = sizeof(KVMPITState),
        .class_init = kvm_pit_class_init,
    }, {
        .name = TYPE_KVM_IOAPIC,
        .parent = TYPE_IOAPIC_COMMON,
        .instance_size = sizeof(KVMIOAPICState),
        .class_init = kvm_ioapic_class_init,
    }, {
        .name = TYPE_KVMCLOCK,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(KVMClockState),
        .class_init = kvmclock_class_init,
    },
};

static void kvm_irqchip_register_types(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(kvm_irqchip_types); i++) {
        type_register_static(&kvm_irqchip_types[i]);
    }
}
type_init(kvm_irqchip_register_types)
