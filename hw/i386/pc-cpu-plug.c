/*
 * vCPUs with -device and device_add on the PC boards: the machine is the
 * hotplug handler of bus-less vCPUs (QEMU's pc_cpu_pre_plug/plug/
 * unplug_request).  A vCPU goes into a free slot of -smp maxcpus, named by
 * its socket/die/core/thread ids or its apic-id; the refusals are QEMU
 * 7.2's texts, in its order.  Under KVM a vCPU plugged at run time gets its
 * vCPU fd and thread at once, parked in wait-for-SIPI as a powered-on AP.
 *
 * A plug tells the board's ACPI CPU hotplug block (hw/acpi/cpu-hotplug.c):
 * the present bit or the insert event, GPE0 bit 2, the SCI.
 *
 * Unplug: the guest must eject a vCPU through ACPI.  Until its OSPM
 * switches the CPU hotplug interface to the modern one QEMU 7.2's ACPI
 * devices refuse the request, and so does this handler, with the same
 * texts; after the switch 7.2 asks the guest, while this tree, which
 * cannot take a vCPU away, still refuses.
 */
#include <inttypes.h>
#include <string.h>

#include "hw/acpi/cpu-hotplug.h"
#include "hw/boards.h"
#include "hw/i386/acpi-build.h"
#include "hw/i386/pc.h"
#include "sysemu/kvm.h"
#include "target/i386/cpu.h"

/*
 * One topology level of a vCPU given by ids: set (unless a single die may
 * stay unset) and below count
 */
static bool pc_cpu_check_id(int32_t *id, unsigned count, const char *name,
                            bool may_default, Error **errp)
{
    if (*id < 0) {
        if (may_default) {
            *id = 0;
            return true;
        }
        error_setg(errp, "CPU %s is not set", name);
        return false;
    }
    if ((unsigned)*id > count - 1) {
        error_setg(errp, "Invalid CPU %s: %u must be in range 0:%u", name,
                   (unsigned)*id, count - 1);
        return false;
    }
    return true;
}

/* An id the user gave next to apic-id must be the APIC ID's */
static bool pc_cpu_match_id(int32_t *id, unsigned want, const char *name,
                            uint32_t apic_id, Error **errp)
{
    if (*id != -1 && (unsigned)*id != want) {
        error_setg(errp, "property %s: %u doesn't match set apic-id: 0x%x "
                   "(%s: %u)", name, (unsigned)*id, apic_id, name, want);
        return false;
    }
    *id = want;
    return true;
}

static bool pc_cpu_pre_plug(Object *handler, DeviceState *dev, Error **errp)
{
    MachineState *ms = MACHINE(handler);
    X86CPU *cpu = X86_CPU(dev);
    const SMPConfiguration *smp = &ms->smp;
    unsigned socket, die, core, thread, index;
    CPUSlot *slot;

    if (strcmp(object_get_typename(OBJECT(dev)), machine_cpu_type(ms))) {
        error_setg(errp, "Invalid CPU type, expected cpu type: '%s'",
                   machine_cpu_type(ms));
        return false;
    }
    if (cpu->apic_id == UINT32_MAX) {
        if (!pc_cpu_check_id(&cpu->socket_id, MAX(smp->sockets, 1),
                             "socket-id", false, errp) ||
            !pc_cpu_check_id(&cpu->die_id, MAX(smp->dies, 1), "die-id",
                             smp->dies <= 1, errp) ||
            !pc_cpu_check_id(&cpu->core_id, MAX(smp->cores, 1), "core-id",
                             false, errp) ||
            !pc_cpu_check_id(&cpu->thread_id, MAX(smp->threads, 1),
                             "thread-id", false, errp)) {
            return false;
        }
        cpu->apic_id = machine_apic_id_from_topo(smp, cpu->socket_id,
                                                 cpu->die_id, cpu->core_id,
                                                 cpu->thread_id);
    }
    slot = machine_find_cpu_slot(ms, cpu->apic_id, &index);
    machine_topo_from_apic_id(smp, cpu->apic_id, &socket, &die, &core,
                              &thread);
    if (!slot) {
        error_setg(errp, "Invalid CPU [socket: %u, die: %u, core: %u, "
                   "thread: %u] with APIC ID %" PRIu32 ", valid index range "
                   "0:%u", socket, die, core, thread, cpu->apic_id,
                   MAX(smp->max_cpus, 1) - 1);
        return false;
    }
    if (slot->cpu) {
        error_setg(errp, "CPU[%u] with APIC ID %" PRIu32 " exists", index,
                   cpu->apic_id);
        return false;
    }
    if (!pc_cpu_match_id(&cpu->socket_id, socket, "socket-id", cpu->apic_id,
                         errp) ||
        !pc_cpu_match_id(&cpu->die_id, die, "die-id", cpu->apic_id, errp) ||
        !pc_cpu_match_id(&cpu->core_id, core, "core-id", cpu->apic_id,
                         errp) ||
        !pc_cpu_match_id(&cpu->thread_id, thread, "thread-id", cpu->apic_id,
                         errp)) {
        return false;
    }
    if (slot->node_id >= 0) {
        if (cpu->node_id >= 0 && cpu->node_id != slot->node_id) {
            error_setg(errp, "node-id=%d must match numa node specified "
                       "with -numa option", cpu->node_id);
            return false;
        }
        cpu->node_id = slot->node_id;
    }
    cpu->cpu_index = index;
    return true;
}

static bool pc_cpu_plug(Object *handler, DeviceState *dev, Error **errp)
{
    MachineState *ms = MACHINE(handler);
    X86CPU *cpu = X86_CPU(dev);
    CPUSlot *slot = &ms->possible_cpus[cpu->cpu_index];
    AcpiCpuHotplug *cpuhp = acpi_cpu_hotplug_of_board();

    /* Before the VM's vCPUs exist (-device) they are made with them */
    if (ms->cpu_env.accel == X86_ACCEL_KVM && !kvm_hotplug_vcpu(ms, cpu,
                                                                errp)) {
        return false;
    }
    slot->cpu = cpu;
    g_ptr_array_add(ms->cpus, cpu);
    if (cpuhp) {
        acpi_cpu_hotplug_plug(cpuhp, cpu, DEVICE(dev)->hotplugged);
    }
    return true;
}

static bool pc_cpu_unplug_request(Object *handler, DeviceState *dev,
                                  Error **errp)
{
    MachineState *ms = MACHINE(handler);
    X86CPU *cpu = X86_CPU(dev);
    AcpiCpuHotplug *cpuhp;

    if (!acpi_enabled(ms)) {
        error_setg(errp, "CPU hot unplug not supported without ACPI");
        return false;
    }
    if (cpu->cpu_index == 0) {
        error_setg(errp, "Boot CPU is unpluggable");
        return false;
    }
    cpuhp = acpi_cpu_hotplug_of_board();
    if (cpuhp && !cpuhp->legacy) {
        error_setg(errp, "CPU hot-unplug is not supported by this build: it "
                   "cannot remove a vCPU");
        return false;
    }
    error_setg(errp, "acpi: device unplug request for not supported device "
               "type: %s", object_get_typename(OBJECT(dev)));
    return false;
}

static const HotplugHandlerOps pc_cpu_hotplug_ops = {
    .pre_plug = pc_cpu_pre_plug,
    .plug = pc_cpu_plug,
    .unplug_request = pc_cpu_unplug_request,
};

static Object *pc_hotplug_handler_for(DeviceState *dev,
                                      const HotplugHandlerOps **ops)
{
    if (!current_machine || !object_dynamic_cast(OBJECT(dev), TYPE_X86_CPU)) {
        return NULL;
    }
    *ops = &pc_cpu_hotplug_ops;
    return OBJECT(current_machine);
}

void pc_cpu_hotplug_init(MachineState *ms)
{
    qdev_set_machine_hotplug_handler(pc_hotplug_handler_for);
}
