/*
 * The local APICs' devices (include/hw/i386/apic.h): "apic-common" and
 * its "kvm-apic" and "apic", with QEMU 7.2's properties and places.  KVM
 * emulates the APIC itself; what acts here is the first kvm-apic's MSI
 * window and, for the first APIC with vapic=on, the kvmvapic device.
 */
#include "hw/i386/apic.h"

#include "hw/boards.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "sysemu/kvm.h"

#define APIC_MSI_BASE 0xfee00000ULL
#define APIC_MSI_SIZE 0x100000
#define APIC_MSI_PRIORITY 4096
#define CPUID_APIC (1u << 9)

/* State ------------------------------------------------------------------ */

typedef struct APICCommonState {
    DeviceState parent_obj;
    MemoryRegion msi_io;
    DeviceState *vapic;         /* the machine's kvmvapic, if any */

    /* Properties, as QEMU's */
    uint8_t version;
    bool vapic_enabled;
    bool legacy_instance_id;
    uint32_t initial_apic_id;
} APICCommonState;

/* The MSI window ----------------------------------------------------------- */

static uint64_t apic_msi_read(void *opaque, hwaddr addr, unsigned size)
{
    return UINT64_MAX;
}

static void apic_msi_write(void *opaque, hwaddr addr, uint64_t data,
                           unsigned size)
{
    kvm_send_msi(APIC_MSI_BASE + addr, data);
}

static const MemoryRegionOps apic_msi_ops = {
    .read = apic_msi_read,
    .write = apic_msi_write,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Realize ---------------------------------------------------------------- */

/*
 * One kvmvapic per machine, made by the first APIC that wants it (7.2
 * also needs 1 MiB of RAM for the option ROM it would map)
 */
static bool apic_common_realize(DeviceState *dev, Error **errp)
{
    static DeviceState *vapic;
    APICCommonState *s = (APICCommonState *)dev;

    if (!vapic && s->vapic_enabled && current_machine &&
        current_machine->ram_size >= 1024 * 1024) {
        DeviceState *d = qdev_new(TYPE_VAPIC);

        if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(d), errp)) {
            return false;
        }
        vapic = d;
    }
    s->vapic = vapic;
    return true;
}

static bool kvm_apic_realize(DeviceState *dev, Error **errp)
{
    static bool msi_mapped;
    APICCommonState *s = (APICCommonState *)dev;

    memory_region_init_io(&s->msi_io, OBJECT(dev), &apic_msi_ops, s,
                          "kvm-apic-msi", APIC_MSI_SIZE);
    if (!msi_mapped) {
        memory_region_add_subregion_overlap(get_system_memory(),
                                            APIC_MSI_BASE, &s->msi_io,
                                            APIC_MSI_PRIORITY);
        msi_mapped = true;
    }
    return apic_common_realize(dev, errp);
}

bool x86_cpu_apic_realize(X86CPU *cpu, Error **errp)
{
    MachineState *ms = current_machine;
    DeviceState *apic;

    if (!(cpu->features[FEAT_1_EDX] & CPUID_APIC) &&
        !(ms && ms->smp.cpus > 1)) {
        return true;
    }
    apic = qdev_new(kvm_lapic_in_kernel() ? TYPE_KVM_APIC : TYPE_APIC);
    object_property_add_child(OBJECT(cpu), "lapic", OBJECT(apic));
    object_unref(OBJECT(apic));
    qdev_prop_set_uint32(apic, "id", cpu->apic_id);
    return qdev_realize(apic, NULL, errp);
}

/* Property table --------------------------------------------------------- */

/*
 * id: no default, as 7.2's (set from the vCPU's APIC ID).  In the order
 * 7.2's qom-list and device-list-properties give them
 */
static Property apic_common_properties[] = {
    DEFINE_PROP_BIT("vapic", APICCommonState, vapic_enabled, true),
    DEFINE_PROP_UINT8("version", APICCommonState, version, 0x14),
    DEFINE_PROP_BOOL("legacy-instance-id", APICCommonState,
                     legacy_instance_id, false),
    DEFINE_PROP("id", APICCommonState, initial_apic_id, qdev_prop_uint32,
                uint32_t),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void apic_common_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    device_class_set_props(dc, apic_common_properties);
    dc->realize = apic_common_realize;
    dc->user_creatable = false;
}

static void kvm_apic_class_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->realize = kvm_apic_realize;
}

static const TypeInfo apic_common_info = {
    .name = TYPE_APIC_COMMON,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(APICCommonState),
    .class_init = apic_common_class_init,
    .abstract = true,
};

static const TypeInfo kvm_apic_info = {
    .name = TYPE_KVM_APIC,
    .parent = TYPE_APIC_COMMON,
    .instance_size = sizeof(APICCommonState),
    .class_init = kvm_apic_class_init,
};

static const TypeInfo apic_info = {
    .name = TYPE_APIC,
    .parent = TYPE_APIC_COMMON,
    .instance_size = sizeof(APICCommonState),
};

static void apic_register_types(void)
{
    type_register_static(&apic_common_info);
    type_register_static(&kvm_apic_info);
    type_register_static(&apic_info);
}
type_init(apic_register_types)
