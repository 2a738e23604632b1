/*
 * The I/O APIC (hw/intc/ioapic.c), QEMU's "ioapic": the board's own
 * where the irqchip is not in the kernel (the qtest accelerator,
 * kernel-irqchip=off and split).  Its 24 inputs are the GSIs; it delivers
 * as MSI writes to the APIC's window at 0xfee00000.
 */
#ifndef HW_INTC_IOAPIC_H
#define HW_INTC_IOAPIC_H

#include "hw/sysbus.h"

#define TYPE_IOAPIC_COMMON "ioapic-common" /* abstract: ioapic, kvm-ioapic */
#define TYPE_IOAPIC "ioapic"
#define IOAPIC_NUM_PINS 24
#define IOAPIC_DEFAULT_BASE 0xfec00000ULL

/*
 * A local APIC's EOI of a level-triggered vector: clears the remote IRR
 * of every entry with that vector and delivers again what is still
 * requested (under KVM split irqchip, KVM_EXIT_IOAPIC_EOI).
 */
void ioapic_eoi_broadcast(int vector);

#endif
