/*
 * xAPIC access and AP bring-up with INIT/SIPI/SIPI.  The real-mode
 * trampoline (boot.S) is copied to AP_TRAMPOLINE_ADDR; it switches to
 * protected mode with our GDT and enters ap_entry32, which takes a stack
 * and calls ap_main().
 */
#include "lib.h"

#define MSR_IA32_APIC_BASE 0x1b
#define APIC_ID 0x20
#define APIC_SVR 0xf0
#define APIC_ICR_LO 0x300
#define APIC_ICR_HI 0x310

extern const u8 ap_tramp_start[], ap_tramp_end[];

static u32 madt_ids[MAX_CPUS];
static int madt_count = -2; /* -2: not read yet, -1: no MADT */

static void (*volatile ap_fn)(int cpu);
static volatile u32 ap_done;

u32 lapic_base(void)
{
    return (u32)rdmsr(MSR_IA32_APIC_BASE) & 0xfffff000u;
}

u32 cpu_apic_id(void)
{
    return cpuid(1).ebx >> 24;
}

static void madt_load(void)
{
    if (madt_count == -2) {
        madt_count = acpi_madt_apic_ids(madt_ids, MAX_CPUS);
        if (madt_count > MAX_CPUS) {
            madt_count = MAX_CPUS;
        }
    }
}

int cpu_index_of_apic(u32 apic)
{
    for (int i = 0; i < madt_count; i++) {
        if (madt_ids[i] == apic) {
            return i;
        }
    }
    return (int)apic;
}

int smp_expected_cpus(void)
{
    madt_load();
    if (cmdline_has("cpus")) {
        return (int)cmdline_uint("cpus", 1);
    }
    return madt_count;
}

NORETURN void ap_main(void)
{
    idt_load();
    int cpu = cpu_index_of_apic(cpu_apic_id());
    ap_fn(cpu);
    __atomic_add_fetch(&ap_done, 1, __ATOMIC_SEQ_CST);
    halt_forever();
}

static void icr_send(u32 base, u32 lo)
{
    mmio_write32(base + APIC_ICR_HI, 0);
    mmio_write32(base + APIC_ICR_LO, lo);
    for (int i = 0; i < 100000 && (mmio_read32(base + APIC_ICR_LO) & (1 << 12)); i++) {
        cpu_relax(); /* delivery status */
    }
}

static void delay(int n)
{
    while (n--) {
        io_delay();
    }
}

int smp_run_aps(void (*fn)(int cpu), int expected)
{
    u32 base = lapic_base();
    u32 timeout = cmdline_uint("smp-timeout", 200000); /* port-0x80 writes */

    madt_load();
    ap_fn = fn;
    ap_done = 0;
    memcpy((void *)AP_TRAMPOLINE_ADDR, ap_tramp_start, (size_t)(ap_tramp_end - ap_tramp_start));
    mmio_write32(base + APIC_SVR, mmio_read32(base + APIC_SVR) | 0x1ff);

    /* all excluding self: INIT (level assert), then SIPI twice */
    icr_send(base, 0x000c4500);
    delay(1000);
    icr_send(base, 0x000c4600 | (AP_TRAMPOLINE_ADDR >> 12));
    delay(20);
    if (expected < 0 || (int)ap_done + 1 < expected) {
        icr_send(base, 0x000c4600 | (AP_TRAMPOLINE_ADDR >> 12));
    }
    for (u32 i = 0; i < timeout; i++) {
        if (expected > 0 && (int)ap_done + 1 >= expected) {
            break;
        }
        io_delay();
    }
    return (int)ap_done + 1;
}
