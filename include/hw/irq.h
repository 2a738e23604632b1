/*
 * Interrupt lines.
 *
 * qemu_irq is QEMU's line object ("irq" in the QOM tree): a handler, its
 * opaque and a line number.  Devices raise and lower the lines their
 * output pins are connected to (qdev GPIOs, hw/qdev-core.h); a line that
 * is not connected (NULL) ignores it.
 *
 * The PC board ends every ISA and PCI line at a GSI (the IOAPIC input;
 * GSI 0-15 are also the PIC's ISA IRQs): pc_set_irq().  With KVM's
 * in-kernel irqchip a level change is KVM_IRQ_LINE; otherwise the board
 * passes it to its userspace PICs and IOAPIC (hw/i386/pc-irqchip.c).
 */
#ifndef HW_IRQ_H
#define HW_IRQ_H

#include <stdbool.h>

#include "hw/qdev-core.h"

#define TYPE_IRQ "irq"

typedef struct IRQState {
    Object parent_obj;
    qemu_irq_handler *handler;
    void *opaque;
    int n;
} IRQState;

qemu_irq qemu_allocate_irq(qemu_irq_handler *handler, void *opaque, int n);
void qemu_free_irq(qemu_irq irq);
void qemu_set_irq(qemu_irq irq, int level);

static inline void qemu_irq_raise(qemu_irq irq)
{
    qemu_set_irq(irq, 1);
}

static inline void qemu_irq_lower(qemu_irq irq)
{
    qemu_set_irq(irq, 0);
}

/* An edge: high, then low */
static inline void qemu_irq_pulse(qemu_irq irq)
{
    qemu_set_irq(irq, 1);
    qemu_set_irq(irq, 0);
}

/*
 * qtest's irq_intercept_in: each line of gpio_in[0..n-1] calls handler
 * with a copy of what it was as opaque (which the handler passes the
 * level on to) and its own number
 */
void qemu_irq_intercept_in(qemu_irq *gpio_in, qemu_irq_handler *handler,
                           int n);

/* Sets the level of a GSI (the end of every line on the PC board). */
void pc_set_irq(int gsi, int level);

/* Who delivers interrupts: the accelerator registers its function. */
typedef void PCIrqHandler(int gsi, int level);
void pc_set_irq_handler(PCIrqHandler *handler);

/* A line per GSI, 0..n-1, ending in pc_set_irq (for the ISA bus) */
qemu_irq *pc_gsi_irqs(int n);

#endif
