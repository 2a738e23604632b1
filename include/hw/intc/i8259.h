/*
 * The two 8259A interrupt controllers of the PC (hw/intc/i8259.c), QEMU's
 * "isa-i8259": the board's own where the irqchip is not in the kernel
 * (the qtest accelerator, kernel-irqchip=off and split).
 */
#ifndef HW_INTC_I8259_H
#define HW_INTC_I8259_H

#include "hw/isa/isa.h"

#define TYPE_PIC_COMMON "pic-common"   /* abstract: isa- and kvm-i8259 */
#define TYPE_I8259 "isa-i8259"

/*
 * Creates the master (0x20, ELCR 0x4d0) and the slave (0xa0, 0x4d1),
 * the slave's INT on the master's IRQ 2, the master's INT on parent_irq.
 * Returns the 16 ISA inputs (g_free them; the lines are the devices').
 */
qemu_irq *i8259_init(ISABus *bus, qemu_irq parent_irq, Error **errp);

/* The master made by i8259_init (NULL before or without one) */
DeviceState *i8259_master(void);

/*
 * The CPU's interrupt acknowledge: the vector of the highest-priority
 * request, through the slave for IRQ 2 (a spurious request: IRQ 7's
 * vector of the controller that has none).
 */
int pic_read_irq(DeviceState *master);

/* Whether the controller's INT output is asserted */
bool pic_get_output(DeviceState *dev);

#endif
