/*
 * Interrupt lines of the PC board.  Devices name their line by GSI (the
 * IOAPIC input; GSI 0-15 are also the PIC's ISA IRQs, routed by the
 * in-kernel irqchip).  Under KVM a level change is KVM_IRQ_LINE; under
 * qtest it is recorded so irq_intercept_in can report it.
 */
#ifndef HW_IRQ_H
#define HW_IRQ_H

#include <stdbool.h>

/* Sets the level of an interrupt line (edge devices pulse 1 then 0). */
void pc_set_irq(int gsi, int level);

/* Who delivers interrupts: the accelerator registers its function. */
typedef void PCIrqHandler(int gsi, int level);
void pc_set_irq_handler(PCIrqHandler *handler);

#endif
