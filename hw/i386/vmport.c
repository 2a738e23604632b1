/*
 * vmport: the VMware backdoor port 0x5658, as QEMU 7.2's.  A read (or a
 * write, which answers in EAX) with EAX = VMPORT_MAGIC runs the command in
 * CL; the command reads and changes the guest's registers.  Under qtest
 * there is no vCPU: reads give all-ones and writes do nothing, as in 7.2.
 *
 * Commands: GETVERSION (EBX = magic, ECX = vmware-vmx-type when
 * x-report-vmx-type, returns vmware-vmx-version), GETRAMSIZE (EBX =
 * 0x1177, returns the RAM size's low 32 bits) and, with x-cmds-v2,
 * GETBIOSUUID (the -uuid's bytes in EAX..EDX, little-endian), GETHZ (the
 * TSC's Hz in EBX:EAX, the APIC bus's in ECX; EBX all-ones if unknown)
 * and GET_VCPU_INFO (bit 3: the vCPU has x2APIC).  The vmmouse adds its
 * three.  Anything else (or a wrong magic) leaves the registers and
 * returns EAX, or all-ones with x-signal-unsupported-cmd.  x-read-set-eax
 * writes the answer to EAX as well (a 1- or 2-byte read then still leaves
 * the whole answer there).  hw_compat_5_0 turns the four x- flags off.
 */
#include <stdint.h>
#include <string.h>

#include <linux/kvm.h>

#include "hw/boards.h"
#include "hw/i386/vmport.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "sysemu/kvm.h"
#include "sysemu/qtest.h"
#include "sysemu/sysemu.h"
#include "target/i386/cpu.h"

#define VMPORT_PORT 0x5658
/* KVM's LAPIC timer runs at 1 GHz (QEMU's KVM_APIC_BUS_FREQUENCY) */
#define VMPORT_KVM_APIC_BUS_HZ 1000000000u
#define VCPU_INFO_LEGACY_X2APIC (1u << 3)
#define CPUID_1_ECX_X2APIC (1u << 21)

/* State ------------------------------------------------------------------ */

typedef struct VMPortState {
    ISADevice parent_obj;
    MemoryRegion io;
    VMPortCommandFunc *func[VMPORT_ENTRIES];
    void *opaque[VMPORT_ENTRIES];

    uint32_t vmx_version;
    uint8_t vmx_type;
    bool read_set_eax;
    bool signal_unsupported_cmd;
    bool report_vmx_type;
    bool cmds_v2;
} VMPortState;

/* The machine's vmport (the commands are the guest's, not a device's) */
static VMPortState *vmport_state;

bool vmport_register(VMPortCommand command, VMPortCommandFunc *func,
                     void *opaque)
{
    if (!vmport_state || command >= VMPORT_ENTRIES) {
        return false;
    }
    vmport_state->func[command] = func;
    vmport_state->opaque[command] = opaque;
    return true;
}

/* Commands ---------------------------------------------------------------- */

static uint32_t vmport_cmd_get_version(void *opaque, VMPortRegs *r)
{
    VMPortState *s = opaque;

    r->rbx = VMPORT_MAGIC;
    if (s->report_vmx_type) {
        r->rcx = s->vmx_type;
    }
    return s->vmx_version;
}

static uint32_t vmport_cmd_ram_size(void *opaque, VMPortRegs *r)
{
    r->rbx = 0x1177;
    return (uint32_t)current_machine->ram_size;
}

static uint32_t vmport_cmd_get_bios_uuid(void *opaque, VMPortRegs *r)
{
    uint8_t u[16];
    uint64_t *out[4] = { &r->rax, &r->rbx, &r->rcx, &r->rdx };
    int i;

    qemu_uuid_get_bytes(u);
    for (i = 0; i < 4; i++) {
        *out[i] = (uint32_t)u[4 * i] | (uint32_t)u[4 * i + 1] << 8 |
                  (uint32_t)u[4 * i + 2] << 16 | (uint32_t)u[4 * i + 3] << 24;
    }
    return (uint32_t)r->rax;
}

static uint32_t vmport_cmd_get_hz(void *opaque, VMPortRegs *r)
{
    uint64_t tsc_hz = (uint64_t)kvm_exit_tsc_khz() * 1000;

    if (tsc_hz) {
        r->rcx = VMPORT_KVM_APIC_BUS_HZ;
        r->rbx = (uint32_t)(tsc_hz >> 32);
        r->rax = (uint32_t)tsc_hz;
    } else {
        r->rbx = UINT32_MAX;
    }
    return (uint32_t)r->rax;
}

static uint32_t vmport_cmd_get_vcpu_info(void *opaque, VMPortRegs *r)
{
    X86CPU *cpu = kvm_exit_cpu();

    return cpu && (cpu->features[FEAT_1_ECX] & CPUID_1_ECX_X2APIC)
               ? VCPU_INFO_LEGACY_X2APIC
               : 0;
}

/* Register read/write ---------------------------------------------------- */

static uint32_t vmport_dispatch(VMPortState *s, VMPortRegs *r)
{
    uint32_t eax = (uint32_t)r->rax;
    uint8_t command = (uint8_t)r->rcx;

    if (eax == VMPORT_MAGIC && command < VMPORT_ENTRIES && s->func[command]) {
        eax = s->func[command](s->opaque[command], r);
    } else if (s->signal_unsupported_cmd) {
        eax = UINT32_MAX;
    }
    if (s->read_set_eax) {
        r->rax = eax;
    }
    return eax;
}

/* Runs the command on the vCPU's registers; false without a vCPU (qtest) */
static bool vmport_run(VMPortState *s, bool is_write, uint32_t *answer)
{
    struct kvm_regs *k = qtest_enabled() ? NULL : kvm_exit_regs();
    VMPortRegs r;

    if (!k) {
        return false;
    }
    r = (VMPortRegs){ k->rax, k->rbx, k->rcx, k->rdx, k->rsi, k->rdi };
    *answer = vmport_dispatch(s, &r);
    if (is_write) {
        /* An OUT answers in EAX whatever x-read-set-eax says */
        r.rax = *answer;
    }
    k->rax = r.rax;
    k->rbx = r.rbx;
    k->rcx = r.rcx;
    k->rdx = r.rdx;
    k->rsi = r.rsi;
    k->rdi = r.rdi;
    return true;
}

static uint64_t vmport_read(void *opaque, hwaddr addr, unsigned size)
{
    uint32_t answer;

    return vmport_run(opaque, false, &answer) ? answer : UINT32_MAX;
}

static void vmport_write(void *opaque, hwaddr addr, uint64_t value,
                         unsigned size)
{
    uint32_t answer;

    vmport_run(opaque, true, &answer);
}

/* Any access size reaches the device as one 4-byte access (7.2's impl) */
static const MemoryRegionOps vmport_ops = {
    .read = vmport_read,
    .write = vmport_write,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Realize ---------------------------------------------------------------- */

static bool vmport_realize(DeviceState *dev, Error **errp)
{
    VMPortState *s = (VMPortState *)dev;

    if (vmport_state) {
        error_setg(errp, "There can be at most one vmport");
        return false;
    }
    memory_region_init_io(&s->io, OBJECT(dev), &vmport_ops, s, "vmport", 1);
    isa_register_ioport(ISA_DEVICE(dev), &s->io, VMPORT_PORT);
    vmport_state = s;
    vmport_register(VMPORT_CMD_GETVERSION, vmport_cmd_get_version, s);
    vmport_register(VMPORT_CMD_GETRAMSIZE, vmport_cmd_ram_size, s);
    if (s->cmds_v2) {
        vmport_register(VMPORT_CMD_GETBIOSUUID, vmport_cmd_get_bios_uuid, s);
        vmport_register(VMPORT_CMD_GETHZ, vmport_cmd_get_hz, s);
        vmport_register(VMPORT_CMD_GET_VCPU_INFO, vmport_cmd_get_vcpu_info,
                        s);
    }
    return true;
}

/* Property table --------------------------------------------------------- */

static Property vmport_properties[] = {
    DEFINE_PROP_BIT("x-read-set-eax", VMPortState, read_set_eax, true),
    DEFINE_PROP_BIT("x-signal-unsupported-cmd", VMPortState,
                    signal_unsupported_cmd, true),
    DEFINE_PROP_BIT("x-report-vmx-type", VMPortState, report_vmx_type, true),
    DEFINE_PROP_BIT("x-cmds-v2", VMPortState, cmds_v2, true),
    /* open-vm-tools' VERSION_MAGIC */
    DEFINE_PROP_UINT32("vmware-vmx-version", VMPortState, vmx_version, 6),
    /* 2: VMware ESX Server (open-vm-tools' VMXType) */
    DEFINE_PROP_UINT8("vmware-vmx-type", VMPortState, vmx_type, 2),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void vmport_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = vmport_realize;
    /* The machine makes it (-machine vmport=); the commands are global */
    dc->user_creatable = false;
    device_class_set_props(dc, vmport_properties);
}

static const TypeInfo vmport_info = {
    .name = TYPE_VMPORT,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(VMPortState),
    .class_init = vmport_class_init,
};

static void vmport_register_types(void)
{
    type_register_static(&vmport_info);
}
type_init(vmport_register_types)
