/*
 * Interrupt lines: devices raise and lower GSIs; the accelerator (KVM's
 * in-kernel irqchip, or qtest's interception) decides what that means.
 */
#include <stddef.h>

#include "hw/irq.h"

static PCIrqHandler *irq_handler;

void pc_set_irq_handler(PCIrqHandler *handler)
{
    irq_handler = handler;
}

void pc_set_irq(int gsi, int level)
{
    if (irq_handler) {
        irq_handler(gsi, level);
    }
}
