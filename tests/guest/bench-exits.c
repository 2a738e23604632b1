/*
 * bench-exits guest (bench/exits.py): times exits to the emulator with the
 * TSC.  Each phase is a tight assembly loop of `count=` (100000) iterations
 * of three instructions (access; dec; jnz):
 *   null   nop instead of the access (loop overhead, no exit)
 *   pio80  outb to port 0x80
 *   pio    outb to an unclaimed port (`port=`, 0x2e0)
 *   mmio   32-bit write to an unmapped address (`mmio=`, 0xe0001000)
 *   mmior  32-bit read from it
 * repeated `reps=` (3) times.  Lines:
 *   EXITS-TSC leaf15=eax/ebx/ecx leaf16=eax
 *   MARK <tsc>                           (host timestamps these to calibrate)
 *   EXITS <phase> rep=R count=N cycles=C
 *   EXITS-DONE
 */
#include "lib.h"

const char guest_name[] = "bench-exits";

static inline u64 rdtsc(void)
{
    u32 lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((u64)hi << 32) | lo;
}

static void mark(void)
{
    u64 t = rdtsc();
    printf("MARK %llu\n", t);
}

static u64 run(const char *phase, u32 n, u32 port, u32 addr)
{
    u64 t0 = rdtsc(), t1;
    if (!memcmp(phase, "null", 5)) {
        __asm__ volatile("1: nop; dec %0; jnz 1b" : "+c"(n) :: "memory");
    } else if (!memcmp(phase, "pio80", 6)) {
        __asm__ volatile("1: outb %%al, $0x80; dec %0; jnz 1b" : "+c"(n) : "a"(0) : "memory");
    } else if (!memcmp(phase, "pio", 4)) {
        __asm__ volatile("1: outb %%al, %%dx; dec %0; jnz 1b" : "+c"(n) : "a"(0), "d"(port) : "memory");
    } else if (!memcmp(phase, "mmio", 5)) {
        __asm__ volatile("1: movl %%eax, (%%edx); dec %0; jnz 1b" : "+c"(n) : "a"(0), "d"(addr) : "memory");
    } else {
        __asm__ volatile("1: movl (%%edx), %%eax; dec %0; jnz 1b" : "+c"(n) : "d"(addr) : "eax", "memory");
    }
    t1 = rdtsc();
    return t1 - t0;
}

int guest_main(void)
{
    static const char *const phases[] = { "null", "pio80", "pio", "mmio", "mmior" };
    u32 count = cmdline_uint("count", 100000);
    u32 reps = cmdline_uint("reps", 3);
    u32 port = cmdline_uint("port", 0x2e0);
    u32 addr = cmdline_uint("mmio", 0xe0001000);
    struct cpuid_regs l0 = cpuid(0), l15 = { 0, 0, 0, 0 }, l16 = { 0, 0, 0, 0 };
    if (l0.eax >= 0x15) {
        l15 = cpuid(0x15);
    }
    if (l0.eax >= 0x16) {
        l16 = cpuid(0x16);
    }
    printf("EXITS-TSC leaf15=%u/%u/%u leaf16=%u\n", l15.eax, l15.ebx, l15.ecx, l16.eax);
    mark();
    for (u32 r = 0; r < reps; r++) {
        for (u32 i = 0; i < ARRAY_SIZE(phases); i++) {
            u64 c = run(phases[i], count, port, addr);
            printf("EXITS %s rep=%u count=%u cycles=%llu\n", phases[i], r, count, c);
        }
    }
    mark();
    puts("EXITS-DONE\n");
    return 0;
}
