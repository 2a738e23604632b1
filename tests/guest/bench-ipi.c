/*
 * bench-ipi guest (bench/guestside.py): IPI round trips through the xAPIC
 * and a lock hand-off between two vCPUs, driven over COM1 by the host so
 * that several VMs measure the same wall-clock window.
 *
 * Protocol: the guest starts its APs, prints `IPI-READY cpus=N kvm-eax=...`
 * and waits for a command byte on COM1:
 *   s  self IPI round trip (fixed IPI to self, wait for the handler)
 *   o  one target: IPI to CPU 1, whose handler sends one back
 *   b  broadcast: all-excluding-self, wait for every reply
 *   l  lock hand-off, waiters spin (pause loop)
 *   h  lock hand-off, waiters halt (sti; hlt) and the releaser wakes the
 *      other with a LAPIC IPI (what a PV kick would do without a hypercall)
 *   q  exit
 * A test runs until the next byte arrives on COM1 (the stop), then prints
 *   RESULT <c> count=N cycles=C
 * KVM hypercalls (PV kick, PV send-IPI) are never used: vmcall does not
 * return on the PVM host this was written on.
 *
 * No iret (PVM's emulation lacks it): the interrupt stubs end with
 * `popfl; ret $8` like the exception stubs in boot.S.
 */
#include "lib.h"

const char guest_name[] = "bench-ipi";

#define APIC_ID 0x20
#define APIC_EOI 0xb0
#define APIC_SVR 0xf0
#define APIC_ICR_LO 0x300
#define APIC_ICR_HI 0x310

#define VEC_SELF 0x40
#define VEC_PING 0x41
#define VEC_PONG 0x42
#define VEC_WAKE 0x43

#define COM1 0x3f8

extern void ipi_stub_self(void), ipi_stub_ping(void), ipi_stub_pong(void), ipi_stub_wake(void);

static u32 lapic;
static int ncpus;
static u32 apic_ids[MAX_CPUS];

static volatile u32 self_hits;
static volatile u32 pongs;
static volatile u32 stop;
static volatile u32 ap_mode;    /* 0 idle, 'l' or 'h' hand-off */
static volatile u32 ap_active;  /* AP is inside a hand-off loop */
static volatile u32 turn;       /* hand-off token: CPU index owning it */
static volatile u32 handoffs[2];

/* Interrupt stubs: save registers, call the C handler, return without iret. */
__asm__(
    ".text\n"
    ".macro IPI_STUB name, fn\n"
    "\\name:\n"
    "    pushal\n"
    "    cld\n"
    "    call \\fn\n"
    "    popal\n"
    "    pushl 8(%esp)\n"
    "    popfl\n"
    "    ret $8\n"
    ".endm\n"
    ".globl ipi_stub_self, ipi_stub_ping, ipi_stub_pong, ipi_stub_wake\n"
    "IPI_STUB ipi_stub_self, on_self\n"
    "IPI_STUB ipi_stub_ping, on_ping\n"
    "IPI_STUB ipi_stub_pong, on_pong\n"
    "IPI_STUB ipi_stub_wake, on_wake\n");

static inline void eoi(void) { mmio_write32(lapic + APIC_EOI, 0); }

static inline void send_ipi(u32 apic, u32 lo)
{
    mmio_write32(lapic + APIC_ICR_HI, apic << 24);
    mmio_write32(lapic + APIC_ICR_LO, lo);
}

__attribute__((used)) static void on_self(void) { self_hits++; eoi(); }
__attribute__((used)) static void on_ping(void) { eoi(); send_ipi(apic_ids[0], VEC_PONG); }
__attribute__((used)) static void on_pong(void) { pongs++; eoi(); }
__attribute__((used)) static void on_wake(void) { eoi(); }

static inline u64 rdtsc(void)
{
    u32 lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((u64)hi << 32) | lo;
}
static inline void sti(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void sti_hlt(void) { __asm__ volatile("sti; hlt" ::: "memory"); }

static void idt_setup(void)
{
    idt_set_gate(VEC_SELF, (u32)ipi_stub_self);
    idt_set_gate(VEC_PING, (u32)ipi_stub_ping);
    idt_set_gate(VEC_PONG, (u32)ipi_stub_pong);
    idt_set_gate(VEC_WAKE, (u32)ipi_stub_wake);
}

static void cpu_setup(void)
{
    idt_load();
    mmio_write32(lapic + APIC_SVR, mmio_read32(lapic + APIC_SVR) | 0x1ff);
}

/* Byte waiting on COM1? (one port exit) */
static inline bool uart_ready(void) { return inb(COM1 + 5) & 1; }
static u8 uart_get(void)
{
    while (!uart_ready()) {
        cpu_relax();
    }
    return inb(COM1);
}

/* One side of the hand-off: wait for the token, take it, pass it on. */
static u32 handoff_loop(int me, bool halt, bool poll_uart)
{
    int other = 1 - me;
    u32 n = 0;
    for (;;) {
        if (halt) {
            cli();
            while (turn != (u32)me && !stop) {
                sti_hlt();
                cli();
            }
            sti();
        } else {
            while (turn != (u32)me && !stop) {
                cpu_relax();
            }
        }
        if (stop) {
            break;
        }
        n++;
        turn = (u32)other;
        if (halt) {
            send_ipi(apic_ids[other], VEC_WAKE);
        }
        if (poll_uart && !(n & 15) && uart_ready()) {
            stop = 1;
            send_ipi(apic_ids[other], VEC_WAKE);
            break;
        }
    }
    return n;
}

static volatile u32 ap_up;

static void ap_run(int cpu)
{
    cpu_setup();
    __atomic_add_fetch(&ap_up, 1, __ATOMIC_SEQ_CST);
    sti();
    for (;;) {
        cli();
        if (ap_mode == 0) {
            sti_hlt();
            continue;
        }
        sti();
        ap_active = 1;
        handoffs[1] = handoff_loop(1, ap_mode == 'h', false);
        ap_mode = 0;
        ap_active = 0;
    }
}

static u32 run_test(u8 c)
{
    u32 n = 0;
    stop = 0;
    switch (c) {
    case 's':
        for (;;) {
            u32 want = self_hits + 1;
            send_ipi(0, 0x40000 | VEC_SELF);
            while (self_hits != want) {
                cpu_relax();
            }
            n++;
            if (!(n & 63) && uart_ready()) {
                break;
            }
        }
        break;
    case 'o':
    case 'b':
        for (;;) {
            u32 want = pongs + (c == 'o' ? 1 : (u32)(ncpus - 1));
            if (c == 'o') {
                send_ipi(apic_ids[1], VEC_PING);
            } else {
                send_ipi(0, 0xc0000 | VEC_PING);
            }
            while (pongs != want) {
                cpu_relax();
            }
            n++;
            if (!(n & 63) && uart_ready()) {
                break;
            }
        }
        break;
    case 'l':
    case 'h':
        turn = 0;
        ap_mode = c;
        send_ipi(apic_ids[1], VEC_WAKE);
        n = handoff_loop(0, c == 'h', true);
        while (ap_active || ap_mode) {
            stop = 1;
            send_ipi(apic_ids[1], VEC_WAKE);
            cpu_relax();
        }
        n += handoffs[1];
        break;
    }
    (void)inb(COM1); /* consume the stop byte */
    return n;
}

int guest_main(void)
{
    lapic = lapic_base();
    int found = acpi_madt_apic_ids(apic_ids, MAX_CPUS);
    ncpus = smp_expected_cpus();
    if (found < 2 || ncpus < 2) {
        printf("IPI-ERROR needs 2 or more vCPUs (madt=%d)\n", found);
        return 1;
    }
    /* SeaBIOS leaves the 8259s unmasked with the PIT's IRQ 0 at vector 8 */
    outb(0x21, 0xff);
    outb(0xa1, 0xff);
    idt_setup();
    cpu_setup();
    /*
     * ap_run never returns, so smp_run_aps cannot count it: ask for one CPU
     * (one SIPI, no wait) and count the APs that arrive ourselves.
     */
    smp_run_aps(ap_run, 1);
    for (u32 i = 0; i < 200000 && (int)ap_up + 1 < ncpus; i++) {
        io_delay();
    }
    int got = (int)ap_up + 1;
    if (got < ncpus) {
        printf("IPI-ERROR expected=%d got=%d\n", ncpus, got);
        return 1;
    }
    sti();
    u32 base = kvm_cpuid_base();
    printf("IPI-READY cpus=%d kvm-eax=0x%08x\n", ncpus, base ? cpuid(base + 1).eax : 0);
    for (;;) {
        u8 c = uart_get();
        if (c == 'q') {
            break;
        }
        if (c != 's' && c != 'o' && c != 'b' && c != 'l' && c != 'h') {
            continue;
        }
        u64 t0 = rdtsc();
        u32 n = run_test(c);
        u64 t1 = rdtsc();
        printf("RESULT %c count=%u cycles=%llu\n", c, n, t1 - t0);
    }
    cli();
    puts("IPI-DONE\n");
    return 0;
}
