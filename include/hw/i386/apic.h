/*
 * The local APIC as QEMU 7.2 shows it: the child "lapic" of each vCPU
 * (hw/i386/apic.c), of type "kvm-apic" when KVM has the APICs
 * (kernel-irqchip=on or split), else "apic" (under qtest and
 * kernel-irqchip=off; this tree has no userspace APIC model, so that one
 * is only its properties).  Properties: version (0x14), vapic
 * (on: the first APIC makes the "kvmvapic" device, hw/i386/kvmvapic.c),
 * legacy-instance-id and id (the APIC ID).  The first kvm-apic maps its
 * MSI window "kvm-apic-msi" (0xfee00000, 1 MiB, priority 4096): a write
 * there by a device of this tree is an MSI (KVM_SIGNAL_MSI), reads are
 * all-ones.
 */
#ifndef HW_I386_APIC_H
#define HW_I386_APIC_H

#include "hw/qdev-core.h"
#include "target/i386/cpu.h"

#define TYPE_APIC_COMMON "apic-common"
#define TYPE_KVM_APIC "kvm-apic"
#define TYPE_APIC "apic"
#define TYPE_VAPIC "kvmvapic"

/*
 * Makes and realizes cpu's "lapic" when 7.2 would (the CPU has the APIC
 * feature, or the machine more than one vCPU), after cpu went into the
 * composition tree: the kvmvapic's device[N] follows the first vCPU's
 */
bool x86_cpu_apic_realize(X86CPU *cpu, Error **errp);

#endif
