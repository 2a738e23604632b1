/*
 * irqchip guest (tests/functional/test_irqchip_kvm.py): takes interrupts
 * through each path of the PC's interrupt controllers, whichever of them
 * the machine has (KVM's in-kernel ones, or the userspace PICs, IOAPIC and
 * PIT of kernel-irqchip=split), and prints how many arrived:
 *
 *   IRQCHIP pic=N        the PIT's IRQ 0 through the 8259s (vector 0x20),
 *                        LINT0 in ExtINT mode, EOI to the PIC
 *   IRQCHIP ioapic=N     the PIT's IRQ 0 through IOAPIC pin 2, edge
 *   IRQCHIP level=N      the RTC's periodic IRQ 8 through IOAPIC pin 8,
 *                        level-triggered: each one needs the LAPIC's EOI
 *                        to reach the IOAPIC (remote IRR)
 *   IRQCHIP-DONE
 *
 * Each path gets a fixed TSC window with interrupts on.  No iret (PVM's
 * emulation lacks it): the stubs end with `popfl; ret $8` as in boot.S.
 */
#include "lib.h"

const char guest_name[] = "irqchip";

#define IOAPIC 0xfec00000u
#define APIC_EOI 0xb0
#define APIC_SVR 0xf0
#define APIC_LVT0 0x350

#define VEC_PIC 0x20
#define VEC_IOAPIC 0x31
#define VEC_LEVEL 0x32

extern void irq_stub_pic(void), irq_stub_ioapic(void), irq_stub_level(void);

static u32 lapic;
static volatile u32 ticks_pic, ticks_ioapic, ticks_level;

__asm__(
    ".text\n"
    ".macro IRQ_STUB name, fn\n"
    "\\name:\n"
    "    pushal\n"
    "    cld\n"
    "    call \\fn\n"
    "    popal\n"
    "    pushl 8(%esp)\n"
    "    popfl\n"
    "    ret $8\n"
    ".endm\n"
    ".globl irq_stub_pic, irq_stub_ioapic, irq_stub_level\n"
    "IRQ_STUB irq_stub_pic, on_pic\n"
    "IRQ_STUB irq_stub_ioapic, on_ioapic\n"
    "IRQ_STUB irq_stub_level, on_level\n");

static inline void lapic_eoi(void) { mmio_write32(lapic + APIC_EOI, 0); }

__attribute__((used)) static void on_pic(void)
{
    ticks_pic++;
    outb(0x20, 0x20);
}

__attribute__((used)) static void on_ioapic(void)
{
    ticks_ioapic++;
    lapic_eoi();
}

__attribute__((used)) static void on_level(void)
{
    ticks_level++;
    outb(0x70, 0x0c);       /* reading C lowers IRQ 8 */
    inb(0x71);
    lapic_eoi();
}

static inline u64 rdtsc(void)
{
    u32 lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((u64)hi << 32) | lo;
}

/* Interrupts on for a window of cycles (about 0.3 s on a 2-3 GHz host) */
static void window(void)
{
    u64 end = rdtsc() + 800000000ull;

    __asm__ volatile("sti" ::: "memory");
    while (rdtsc() < end) {
        cpu_relax();
    }
    __asm__ volatile("cli" ::: "memory");
}

static void ioapic_write(u32 reg, u32 val)
{
    mmio_write32(IOAPIC, reg);
    mmio_write32(IOAPIC + 0x10, val);
}

static void ioapic_route(int pin, u32 lo)
{
    ioapic_write(0x11 + 2 * pin, 0);     /* destination: APIC ID 0 */
    ioapic_write(0x10 + 2 * pin, lo);
}

static void pic_init(u8 mask_master, u8 mask_slave)
{
    outb(0x20, 0x11);
    outb(0x21, VEC_PIC);
    outb(0x21, 0x04);
    outb(0x21, 0x01);
    outb(0xa0, 0x11);
    outb(0xa1, VEC_PIC + 8);
    outb(0xa1, 0x02);
    outb(0xa1, 0x01);
    outb(0x21, mask_master);
    outb(0xa1, mask_slave);
}

int guest_main(void)
{
    lapic = lapic_base();
    idt_set_gate(VEC_PIC, (u32)irq_stub_pic);
    idt_set_gate(VEC_IOAPIC, (u32)irq_stub_ioapic);
    idt_set_gate(VEC_LEVEL, (u32)irq_stub_level);
    idt_load();
    mmio_write32(lapic + APIC_SVR, mmio_read32(lapic + APIC_SVR) | 0x1ff);

    /* the PIT at 100 Hz (mode 2) */
    outb(0x43, 0x34);
    outb(0x40, 11932 & 0xff);
    outb(0x40, 11932 >> 8);

    /* 1: through the 8259s to LINT0 (ExtINT) */
    mmio_write32(lapic + APIC_LVT0, 0x700);
    pic_init(0xfe, 0xff);
    window();
    printf("IRQCHIP pic=%u\n", ticks_pic);

    /* 2: through the IOAPIC, edge */
    outb(0x21, 0xff);
    mmio_write32(lapic + APIC_LVT0, 0x10700);
    ioapic_route(2, VEC_IOAPIC);
    window();
    ioapic_route(2, 0x10000 | VEC_IOAPIC);
    printf("IRQCHIP ioapic=%u\n", ticks_ioapic);

    /* 3: the RTC's 64 Hz periodic interrupt, level-triggered */
    outb(0x70, 0x0a);
    outb(0x71, 0x2a);
    outb(0x70, 0x0b);
    outb(0x71, inb(0x71) | 0x40);
    outb(0x70, 0x0c);
    inb(0x71);
    ioapic_route(8, 0x8000 | VEC_LEVEL);
    window();
    ioapic_route(8, 0x10000 | VEC_LEVEL);
    outb(0x70, 0x0b);
    outb(0x71, inb(0x71) & ~0x40);
    printf("IRQCHIP level=%u\n", ticks_level);
    puts("IRQCHIP-DONE\n");
    return 0;
}
