/*
 * Interrupt lines (include/hw/irq.h): qemu_irq objects, and the GSIs
 * where the PC board's lines end, delivered by the accelerator (KVM's
 * in-kernel irqchip, or qtest's interception).
 */
#include <stddef.h>

#include "hw/intc/irqchip-lock.h"
#include "hw/irq.h"

static const TypeInfo irq_type_info = {
    .name = TYPE_IRQ,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(IRQState),
};

static void irq_register_types(void)
{
    type_register_static(&irq_type_info);
}
type_init(irq_register_types)

qemu_irq qemu_allocate_irq(qemu_irq_handler *handler, void *opaque, int n)
{
    IRQState *irq = (IRQState *)object_new(TYPE_IRQ);

    irq->handler = handler;
    irq->opaque = opaque;
    irq->n = n;
    return irq;
}

void qemu_free_irq(qemu_irq irq)
{
    object_unref(OBJECT(irq));
}

void qemu_set_irq(qemu_irq irq, int level)
{
    if (irq && irq->handler) {
        irq->handler(irq->opaque, irq->n, level);
    }
}

void qemu_irq_intercept_in(qemu_irq *gpio_in, qemu_irq_handler *handler,
                           int n)
{
    for (int i = 0; i < n; i++) {
        qemu_irq old = qemu_allocate_irq(gpio_in[i]->handler,
                                         gpio_in[i]->opaque, gpio_in[i]->n);

        gpio_in[i]->handler = handler;
        gpio_in[i]->opaque = old;
    }
}

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

static void pc_gsi_handler(void *opaque, int n, int level)
{
    pc_set_irq(n, level);
}

qemu_irq *pc_gsi_irqs(int n)
{
    qemu_irq *irqs = g_new0(qemu_irq, n);
    int i;

    for (i = 0; i < n; i++) {
        irqs[i] = qemu_allocate_irq(pc_gsi_handler, NULL, i);
    }
    return irqs;
}

/* The userspace interrupt controllers' lock (hw/intc/irqchip-lock.h) */
static GRecMutex irqchip_mutex;

void irqchip_lock(void)
{
    g_rec_mutex_lock(&irqchip_mutex);
}

void irqchip_unlock(void)
{
    g_rec_mutex_unlock(&irqchip_mutex);
}
