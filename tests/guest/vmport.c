/*
 * vmport guest: calls the VMware backdoor (port 0x5658) with chosen
 * registers and prints what every general register holds afterwards, one
 * line per call:
 *   VMPORT name in4 eax=0x... ebx=0x... ecx=0x... edx=0x... esi=0x... edi=0x...
 * Calls: every command number 0..70 with the magic (4-byte IN), a wrong
 * magic, 1- and 2-byte INs, OUTs of each width, ECX with bits above CL,
 * the vmmouse protocol (status, READ_ID, data of 1 and of too many words,
 * disable, the absolute/relative requests), the next port (0x5659), and
 * `random=N` (200) pseudo-random calls from `seed=N`.  DX always holds the
 * port (it is EDX's low half).  Then VMPORT-DONE.
 */
#include "lib.h"

const char guest_name[] = "vmport";

#define MAGIC 0x564D5868u
#define PORT 0x5658

struct regs {
    u32 a, b, c, d, S, D;
};

/* width: 1, 2, 4 for IN; -1, -2, -4 for OUT */
static void call(const char *name, int width, struct regs r)
{
    switch (width) {
    case 4:
        __asm__ volatile("inl %%dx, %%eax" : "+a"(r.a), "+b"(r.b), "+c"(r.c), "+d"(r.d),
                         "+S"(r.S), "+D"(r.D) : : "memory");
        break;
    case 2:
        __asm__ volatile("inw %%dx, %%ax" : "+a"(r.a), "+b"(r.b), "+c"(r.c), "+d"(r.d),
                         "+S"(r.S), "+D"(r.D) : : "memory");
        break;
    case 1:
        __asm__ volatile("inb %%dx, %%al" : "+a"(r.a), "+b"(r.b), "+c"(r.c), "+d"(r.d),
                         "+S"(r.S), "+D"(r.D) : : "memory");
        break;
    case -4:
        __asm__ volatile("outl %%eax, %%dx" : "+a"(r.a), "+b"(r.b), "+c"(r.c), "+d"(r.d),
                         "+S"(r.S), "+D"(r.D) : : "memory");
        break;
    case -2:
        __asm__ volatile("outw %%ax, %%dx" : "+a"(r.a), "+b"(r.b), "+c"(r.c), "+d"(r.d),
                         "+S"(r.S), "+D"(r.D) : : "memory");
        break;
    default:
        __asm__ volatile("outb %%al, %%dx" : "+a"(r.a), "+b"(r.b), "+c"(r.c), "+d"(r.d),
                         "+S"(r.S), "+D"(r.D) : : "memory");
        break;
    }
    printf("VMPORT %s %s%d eax=0x%08x ebx=0x%08x ecx=0x%08x edx=0x%08x esi=0x%08x "
           "edi=0x%08x\n", name, width < 0 ? "out" : "in", width < 0 ? -width : width,
           r.a, r.b, r.c, r.d, r.S, r.D);
}

static struct regs cmd(u32 c, u32 b)
{
    struct regs r = { MAGIC, b, c, PORT, 0x11111111, 0x22222222 };
    return r;
}

static void mouse(const char *name, u32 c, u32 b)
{
    call(name, 4, cmd(c, b));
}

int guest_main(void)
{
    char name[32];
    u32 state = cmdline_uint("seed", 1);

    for (u32 c = 0; c <= 70; c++) {
        snprintf(name, sizeof(name), "cmd%u", c);
        call(name, 4, cmd(c, 0xdeadbeef));
    }
    call("bad-magic", 4, (struct regs){ 0x12345678, 1, 10, PORT, 2, 3 });
    call("bad-magic-unknown", 4, (struct regs){ 0x12345678, 1, 99, PORT, 2, 3 });
    for (int w = 1; w <= 4; w *= 2) {
        snprintf(name, sizeof(name), "version-w%d", w);
        call(name, w, cmd(10, 0));
        call(name, -w, cmd(10, 0));
        snprintf(name, sizeof(name), "ramsize-w%d", w);
        call(name, w, cmd(20, 0));
        call(name, -w, cmd(20, 0));
        snprintf(name, sizeof(name), "unknown-w%d", w);
        call(name, w, cmd(99, 0));
        call(name, -w, cmd(99, 0));
    }
    call("next-port", 4, (struct regs){ MAGIC, 0, 10, PORT + 1, 0, 0 });
    call("edx-high", 4, (struct regs){ MAGIC, 0, 10, 0xabcd0000 | PORT, 0, 0 });
    call("cx-high-version", 4, cmd(0xff0a, 0));
    call("cx-high-mouse-status", 4, cmd(0x0128, 0));
    call("ecx-high-mouse-status", 4, cmd(0x10028, 0));

    mouse("mouse-status-reset", 40, 0);
    mouse("mouse-data-empty", 39, 1);
    mouse("mouse-status-after-bad-data", 40, 0);
    mouse("mouse-read-id", 41, 0x45414552);
    mouse("mouse-status-enabled", 40, 0);
    mouse("mouse-read-id-2", 41, 0x45414552);
    mouse("mouse-request-absolute", 41, 0x53424152);
    mouse("mouse-status-2", 40, 0);
    mouse("mouse-data-1", 39, 1);
    mouse("mouse-status-1", 40, 0);
    mouse("mouse-data-7", 39, 7);
    mouse("mouse-status-7", 40, 0);
    mouse("mouse-read-id-3", 41, 0x45414552);
    mouse("mouse-read-id-4", 41, 0x45414552);
    mouse("mouse-data-2", 39, 2);
    mouse("mouse-unknown-cmd", 41, 0x12345678);
    mouse("mouse-request-relative", 41, 0x4c455252);
    mouse("mouse-disable", 41, 0xf5);
    mouse("mouse-status-disabled", 40, 0);

    for (u32 i = 0; i < cmdline_uint("random", 200); i++) {
        static const u8 cmds[] = { 10, 19, 20, 39, 40, 41, 45, 68, 0, 99 };
        static const int widths[] = { 1, 2, 4, -1, -2, -4 };
        u32 r0 = rand32(&state);
        struct regs r = { (r0 & 7) ? MAGIC : rand32(&state), rand32(&state),
                          (rand32(&state) & 0xffffff00) | cmds[r0 % 10],
                          (rand32(&state) & 0xffff0000) | PORT,
                          rand32(&state), rand32(&state) };
        if ((r0 >> 8) & 1) {
            r.c &= 0xff;    /* vmmouse commands look at CX */
        }
        if (cmds[r0 % 10] == 39) {
            r.b = (r0 >> 12) % 8;
        }
        snprintf(name, sizeof(name), "random%u", i);
        call(name, widths[(r0 >> 4) % 6], r);
    }
    printf("VMPORT-DONE\n");
    return 0;
}
