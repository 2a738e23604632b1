/*
 * triple guest: prints TRIPLE-START, loads an empty IDT and raises an
 * exception.  The exception cannot be delivered (#GP), nor can that (#DF),
 * so the CPU shuts down: the machine resets, or exits with -no-reboot.
 * The exception is a divide error by default; `fault=int3`, `fault=ud2` or
 * `fault=gp` (loading a selector beyond the GDT limit) choose
 * another.  (PVM's instruction emulation lacks int3, hence the default.)
 * If execution ever continues: TRIPLE-FAILED and exit code 1.
 */
#include "lib.h"

const char guest_name[] = "triple";

int guest_main(void)
{
    static const struct {
        u16 limit;
        u32 base;
    } __attribute__((packed)) empty_idt = { 0, 0 };
    char how[16];

    if (!cmdline_get("fault", how, sizeof(how))) {
        how[0] = 0;
    }
    printf("TRIPLE-START fault=%s\n", how[0] ? how : "de");
    __asm__ volatile("lidt %0" :: "m"(empty_idt) : "memory");
    if (cmdline_is("fault", "int3")) {
        __asm__ volatile("int3");
    } else if (cmdline_is("fault", "ud2")) {
        __asm__ volatile("ud2");
    } else if (cmdline_is("fault", "gp")) {
        __asm__ volatile("movw $0xfff8, %%ax\n\tmovw %%ax, %%fs" ::: "eax");
    } else {
        __asm__ volatile("xorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\tdivl %%ecx" ::: "eax", "ecx", "edx");
    }
    printf("TRIPLE-FAILED\n");
    return 1;
}
