/*
 * The 8254 interval timer (hw/timer/i8254.c), QEMU's "isa-pit": the
 * board's own where the PIT is not in the kernel (the qtest accelerator,
 * kernel-irqchip=off and split).  It counts on QEMU_CLOCK_VIRTUAL.
 */
#ifndef HW_TIMER_I8254_H
#define HW_TIMER_I8254_H

#include "hw/isa/isa.h"

#define TYPE_PIT_COMMON "pit-common"   /* abstract: isa-pit and kvm-pit */
#define TYPE_I8254 "isa-pit"
#define PIT_FREQ 1193182

typedef struct PITChannelInfo {
    int gate;
    int mode;
    int initial_count;
    int out;
} PITChannelInfo;

/*
 * The PIT at base; channel 0's OUT on alt_irq if given (the HPET's
 * legacy input), else on the ISA bus's IRQ isa_irq.
 */
DeviceState *i8254_pit_init(ISABus *bus, int base, int isa_irq,
                            qemu_irq alt_irq, Error **errp);

/* Channel 2's gate is port 0x61's bit 0 (val 0 or 1) */
void pit_set_gate(DeviceState *pit, int channel, int val);
void pit_get_channel_info(DeviceState *pit, int channel,
                          PITChannelInfo *info);

#endif
