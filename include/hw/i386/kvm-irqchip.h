/*
 * The in-kernel irqchip's devices as QEMU 7.2 shows them under KVM
 * (hw/i386/kvm-irqchip.c).  Each creator does nothing unless the machine
 * runs under KVM with kernel-irqchip=on (kvmclock: under KVM).
 */
#ifndef HW_I386_KVM_IRQCHIP_H
#define HW_I386_KVM_IRQCHIP_H

#include "hw/isa/isa.h"

#define TYPE_KVM_I8259 "kvm-i8259"
#define TYPE_KVM_PIT "kvm-pit"
#define TYPE_KVM_IOAPIC "kvm-ioapic"
#define TYPE_KVMCLOCK "kvmclock"

/* The master (0x20, ELCR 0x4d0) and slave (0xa0, 0x4d1) kvm-i8259 */
bool kvm_irqchip_create_pics(ISABus *isa, Error **errp);
/* kvm-ioapic at 0xfec00000, the child "ioapic" of the PCI host */
bool kvm_irqchip_create_ioapic(Object *host, Error **errp);
/* kvm-pit at 0x40 (*pit), unless the machine has pit=off (NULL) */
bool kvm_irqchip_create_pit(ISABus *isa, bool enabled, DeviceState **pit,
                            Error **errp);
/* kvmclock, if wanted (the MSI window is the APIC's, hw/i386/apic.c) */
bool kvm_irqchip_create_clock(bool kvmclock, Error **errp);

#endif
