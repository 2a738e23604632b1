/*
 * The PC's interrupt controllers and PIT, whichever models the machine
 * has (hw/i386/pc-irqchip.c): KVM's in-kernel ones (kernel-irqchip=on),
 * or QEMU 7.2's userspace isa-i8259, ioapic and isa-pit (the qtest
 * accelerator, kernel-irqchip=off and split).
 */
#ifndef HW_I386_PC_IRQCHIP_H
#define HW_I386_PC_IRQCHIP_H

#include "hw/isa/isa.h"

/*
 * The PICs (unless pic is false: -machine pic=off) and the IOAPIC, the
 * child "ioapic" of the PCI host; the board's GSIs (pc_set_irq) then
 * end at them.
 */
bool pc_irqchip_create(ISABus *isa, Object *host, bool pic, Error **errp);

/*
 * The PIT at 0x40 (*pit; NULL with pit=off), IRQ 0 through the HPET's
 * legacy input if there is an HPET.
 */
bool pc_irqchip_create_pit(ISABus *isa, bool enabled, DeviceState *hpet,
                           DeviceState **pit, Error **errp);

/* The APIC's MSI window at 0xfee00000 without KVM's LAPICs */
void pc_irqchip_create_msi_window(void);

#endif
