/*
 * vapic guest: talks to the kvmvapic device (port 0x7e) the way its option
 * ROM does and prints what changed:
 *
 *   VAPIC read b=0xff w=0xffff l=0xffffffff
 *   VAPIC step=sized-1 rom=1 off=0x40 bytes=b8010000000f01c1
 *
 * A 2-byte write reports "my state is at offset AX of the 512-byte block I
 * run in"; the device takes the ROM's size from byte 2 of that block (512-
 * byte units) and, if it is not 0, turns the ROM's interrupt polls
 * ("mov $1,%eax; nop; outl %eax,$0x7e") into VMCALLs.  The guest builds
 * fake ROM blocks in RAM (0x200000 up), each with an "outw %ax,$0x7e; ret"
 * stub at offset 0x10 and the poll patterns at 0x40 (outl), 0x80 (vmcall),
 * 0xc0 (vmmcall), 0x240 and the ROM's last 8 bytes, and calls the stubs.
 *
 * `part=compare` stops after the reads and a report from a block of size
 * 0: where QEMU 7.2's firmware has run the real kvmvapic.bin the device is
 * in standby (a new report re-checks that ROM, not the caller's), and a
 * failed report after a successful one makes 7.2 abort on the next
 * (memory_region_del_subregion's assertion), so only that much compares
 * with 7.2; the rest is this tree's alone, without the option ROM.
 * 1-byte writes (7.2 overwrites the calling OUT) are not made.
 */
#include "lib.h"

const char guest_name[] = "vapic";

#define VAPIC_PORT 0x7e
#define FAKE_ROM_BASE 0x200000
#define STUB_OFFSET 0x10
#define STATE_OFFSET 0x100

static const u8 outl_poll[8] = { 0xb8, 1, 0, 0, 0, 0x90, 0xe7, 0x7e };
static const u8 vmcall_poll[8] = { 0xb8, 1, 0, 0, 0, 0x0f, 0x01, 0xc1 };
static const u8 vmmcall_poll[8] = { 0xb8, 1, 0, 0, 0, 0x0f, 0x01, 0xd9 };
static const u32 pattern_offsets[] = { 0x40, 0x80, 0xc0, 0x240 };

static void fake_rom(int n, u8 size_blocks)
{
    u8 *rom = phys(FAKE_ROM_BASE + n * 0x1000);
    static const u8 stub[] = { 0x66, 0xe7, VAPIC_PORT, 0xc3 };

    memset(rom, 0, 0x1000);
    rom[0] = 0x55;
    rom[1] = 0xaa;
    rom[2] = size_blocks;
    memcpy(rom + STUB_OFFSET, stub, sizeof(stub));
    memcpy(rom + 0x40, outl_poll, 8);
    memcpy(rom + 0x80, vmcall_poll, 8);
    memcpy(rom + 0xc0, vmmcall_poll, 8);
    memcpy(rom + 0x240, outl_poll, 8);
    /* A pattern in the ROM's last 8 bytes is past 7.2's scan */
    if (size_blocks) {
        memcpy(rom + size_blocks * 512 - 8, outl_poll, 8);
    }
}

static void call_stub(int n, u16 state_offset)
{
    void (*stub)(void) = phys(FAKE_ROM_BASE + n * 0x1000 + STUB_OFFSET);

    __asm__ volatile("call *%1" :: "a"(state_offset), "r"(stub) : "memory");
}

static void print_rom(const char *step, int n, u8 size_blocks)
{
    const u8 *rom = phys(FAKE_ROM_BASE + n * 0x1000);
    unsigned i, j;

    for (i = 0; i < sizeof(pattern_offsets) / sizeof(pattern_offsets[0]);
         i++) {
        printf("VAPIC step=%s rom=%d off=0x%x bytes=", step, n,
               pattern_offsets[i]);
        for (j = 0; j < 8; j++) {
            printf("%02x", rom[pattern_offsets[i] + j]);
        }
        printf("\n");
    }
    if (size_blocks) {
        printf("VAPIC step=%s rom=%d tail=", step, n);
        for (j = 0; j < 8; j++) {
            printf("%02x", rom[size_blocks * 512 - 8 + j]);
        }
        printf("\n");
    }
}

int guest_main(void)
{
    printf("VAPIC read b=0x%x w=0x%x l=0x%x\n", inb(VAPIC_PORT),
           inw(VAPIC_PORT), inl(VAPIC_PORT));
    printf("VAPIC read b7f=0x%x w7d=0x%x\n", inb(VAPIC_PORT + 1),
           inw(VAPIC_PORT - 1));
    fake_rom(0, 0);
    call_stub(0, STATE_OFFSET);
    print_rom("size-0", 0, 0);
    if (cmdline_is("part", "compare")) {
        printf("VAPIC-DONE\n");
        return 0;
    }

    /* One block: the polls in it are patched, the tail is not scanned */
    fake_rom(1, 1);
    call_stub(1, STATE_OFFSET);
    print_rom("sized-1", 1, 1);
    /* Standby: the report again re-maps and re-scans the same ROM */
    call_stub(1, 0);
    print_rom("sized-1-again", 1, 1);
    /* Standby: a report from another block still means the first ROM */
    fake_rom(2, 2);
    call_stub(2, STATE_OFFSET);
    print_rom("other-block", 2, 2);
    print_rom("other-block-first", 1, 1);
    /* Its size byte gone, the first ROM's report fails: inactive again */
    *(volatile u8 *)phys(FAKE_ROM_BASE + 0x1000 + 2) = 0;
    call_stub(2, 0);
    print_rom("after-reset-first-rom-size-0", 2, 2);
    call_stub(2, 0);
    print_rom("two-blocks", 2, 2);

    /* A 4-byte write: an interrupt poll, nothing with KVM's irqchip */
    fake_rom(3, 1);
    outl(VAPIC_PORT, 0x12345678);
    print_rom("outl", 3, 1);
    printf("VAPIC-DONE\n");
    return 0;
}
