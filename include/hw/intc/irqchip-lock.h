/*
 * The userspace interrupt controllers' lock.
 *
 * The PICs and the IOAPIC (hw/intc/) change state on any thread: a vCPU's
 * port or MMIO access, a device raising a line from a timer on the main
 * loop.  They share one recursive lock, because a line change runs
 * through both of them (the board gives ISA IRQs to both) and the IOAPIC
 * acknowledges the master PIC for ExtINT.  Whoever holds it may only
 * deliver to the CPUs (MSIs, KVM ioctls); it never calls into another
 * device that has a lock of its own.
 */
#ifndef HW_INTC_IRQCHIP_LOCK_H
#define HW_INTC_IRQCHIP_LOCK_H

void irqchip_lock(void);
void irqchip_unlock(void);

#endif
