/*
 * Where the PC's interrupt lines end (include/hw/i386/pc-irqchip.h).
 *
 * Every ISA and PCI line of the board is a GSI (pc_set_irq).  With KVM's
 * in-kernel irqchip KVM routes it (KVM_IRQ_LINE).  Elsewhere, as QEMU 7.2
 * wires its userspace chips: GSI 0-15 go to both the PICs' inputs and
 * the IOAPIC's, GSI 16-23 to the IOAPIC only; the master PIC's INT is the
 * CPU's INTR (under KVM, an ExtINT injection: kvm_set_pic_intr); the
 * IOAPIC's deliveries are MSI writes to the APIC's window (KVM's LAPICs
 * under split; under qtest no CPU takes them, as in 7.2 where none runs).
 */
#include <glib.h>

#include "exec/memory.h"
#include "hw/i386/kvm-irqchip.h"
#include "hw/i386/pc-irqchip.h"
#include "hw/intc/i8259.h"
#include "hw/intc/ioapic.h"
#include "hw/irq.h"
#include "hw/audio/pcspk.h"
#include "hw/sysbus.h"
#include "hw/timer/hpet.h"
#include "hw/timer/i8254.h"
#include "sysemu/kvm.h"

#define APIC_MSI_BASE 0xfee00000ULL
#define APIC_MSI_SIZE 0x100000

static struct {
    qemu_irq pic[ISA_NUM_IRQS];         /* NULL with pic=off */
    qemu_irq ioapic[IOAPIC_NUM_PINS];
} board_gsi;

static void pc_userspace_gsi(int gsi, int level)
{
    if (gsi < 0 || gsi >= IOAPIC_NUM_PINS) {
        return;
    }
    if (gsi < ISA_NUM_IRQS) {
        qemu_set_irq(board_gsi.pic[gsi], level);
    }
    qemu_set_irq(board_gsi.ioapic[gsi], level);
}

/* The master PIC's INT: the CPU's INTR pin */
static void pc_cpu_intr(void *opaque, int n, int level)
{
    if (kvm_enabled()) {
        kvm_set_pic_intr(level);
    }
}

static bool pc_ioapic_create(Object *host, Error **errp)
{
    DeviceState *d = qdev_new(TYPE_IOAPIC);

    object_property_add_child(host, "ioapic", OBJECT(d));
    if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(d), errp)) {
        return false;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(d), 0, IOAPIC_DEFAULT_BASE);
    for (int i = 0; i < IOAPIC_NUM_PINS; i++) {
        board_gsi.ioapic[i] = qdev_get_gpio_in(d, i);
    }
    return true;
}

bool pc_irqchip_create(ISABus *isa, Object *host, bool pic, Error **errp)
{
    qemu_irq *pic_in;

    if (kvm_irqchip_in_kernel()) {
        return (!pic || kvm_irqchip_create_pics(isa, errp)) &&
               kvm_irqchip_create_ioapic(host, errp);
    }
    memset(&board_gsi, 0, sizeof(board_gsi));
    if (pic) {
        pic_in = i8259_init(isa, qemu_allocate_irq(pc_cpu_intr, NULL, 0),
                            errp);
        if (!pic_in) {
            return false;
        }
        memcpy(board_gsi.pic, pic_in, sizeof(board_gsi.pic));
        g_free(pic_in);
    }
    if (!pc_ioapic_create(host, errp)) {
        return false;
    }
    pc_set_irq_handler(pc_userspace_gsi);
    return true;
}

bool pc_irqchip_create_pit(ISABus *isa, bool enabled, DeviceState *hpet,
                           DeviceState **pit, Error **errp)
{
    if (kvm_irqchip_in_kernel() || !enabled) {
        return kvm_irqchip_create_pit(isa, enabled, pit, errp);
    }
    *pit = i8254_pit_init(isa, 0x40, 0,
                          hpet ? qdev_get_gpio_in(hpet, HPET_LEGACY_PIT_INT)
                               : NULL,
                          errp);
    return *pit != NULL;
}

/* Without a CPU to take them (qtest) MSIs go nowhere; reads are 0 */
static uint64_t apic_msi_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
}

static void apic_msi_write(void *opaque, hwaddr addr, uint64_t data,
                           unsigned size)
{
}

static const MemoryRegionOps apic_msi_ops = {
    .read = apic_msi_read,
    .write = apic_msi_write,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

void pc_irqchip_create_msi_window(void)
{
    static MemoryRegion apic_msi;
    static bool mapped;

    if (mapped) {
        return;
    }
    memory_region_init_io(&apic_msi, NULL, &apic_msi_ops, NULL, "apic-msi",
                          APIC_MSI_SIZE);
    memory_region_add_subregion_overlap(get_system_memory(), APIC_MSI_BASE,
                                        &apic_msi, 4096);
    mapped = true;
}
