/*
 * pam guest: drives the host bridge's PAM registers (i440FX 0x59-0x5f,
 * Q35 MCH 0x90-0x96) and prints what a CPU reads and writes in three
 * segments (0xF0000, 0xD0000, 0xE4000; not 0xC0000, where QEMU 7.2's
 * kvmvapic maps its option ROM writable: the firmware runs that ROM
 * there, and this tree does not load it yet) under
 * each attribute:
 *
 *   PAM-BRIDGE 8086:1237 base=0x59
 *   PAM seg=0xf0000 rw-read=0x5a ro-read=0x5a ro-write-read=0x.. ...
 *   PAM-ROM seg=0xf0000 off=0xfff0 bytes=ea5be000f0...
 *
 * The sequence at one address of a segment: read/write (write 0x5a),
 * read-only (read; write 0xa5; read), read/write (did that write land in
 * RAM?), write-only (read; write 0x3c; read), read/write, disabled
 * (read: the PCI space, i.e. the firmware ROM or pc.rom; write 0x99;
 * read), read/write.  PAM-ROM is 16 bytes read with the segment disabled
 * (the reset vector's line at 0xFFFF0 for 0xF0000).  Every register is
 * put back as found before the exit; nothing else of the BIOS area is
 * used (exit=debug, no ACPI).  tests/functional/test_pam_kvm.py compares
 * the lines with QEMU 7.2's and the ROM bytes with the firmware file.
 */
#include "lib.h"

const char guest_name[] = "pam";

static u32 pci_addr(u32 off)
{
    return 0x80000000u | (off & 0xfc);
}

static u8 cfg_readb(u32 off)
{
    outl(0xcf8, pci_addr(off));
    return inb(0xcfc + (off & 3));
}

static void cfg_writeb(u32 off, u8 v)
{
    outl(0xcf8, pci_addr(off));
    outb(0xcfc + (off & 3), v);
}

static u32 pam_base;

/* nibble n of the PAM registers: 1 is 0xF0000, 2.. are 0xC0000 up */
static void pam_set(unsigned nibble, unsigned attr)
{
    u32 reg = pam_base + nibble / 2;
    unsigned shift = (nibble & 1) * 4;
    u8 v = cfg_readb(reg);

    cfg_writeb(reg, (v & ~(3u << shift)) | (attr << shift));
}

static u8 peek(u32 a)
{
    return *(volatile u8 *)phys(a);
}

static void poke(u32 a, u8 v)
{
    *(volatile u8 *)phys(a) = v;
}

static void test_segment(u32 seg, unsigned nibble, u32 off)
{
    u32 a = seg + off;
    u8 r[10];
    int i;

    pam_set(nibble, 3);
    poke(a, 0x5a);
    r[0] = peek(a);
    pam_set(nibble, 1);
    r[1] = peek(a);
    poke(a, 0xa5);
    r[2] = peek(a);
    pam_set(nibble, 3);
    r[3] = peek(a);
    pam_set(nibble, 2);
    r[4] = peek(a);
    poke(a, 0x3c);
    r[5] = peek(a);
    pam_set(nibble, 3);
    r[6] = peek(a);
    pam_set(nibble, 0);
    r[7] = peek(a);
    poke(a, 0x99);
    r[8] = peek(a);
    pam_set(nibble, 3);
    r[9] = peek(a);
    printf("PAM seg=0x%x off=0x%x rw-read=0x%x ro-read=0x%x "
           "ro-write-read=0x%x rw-after-ro-write=0x%x wo-read=0x%x "
           "wo-write-read=0x%x rw-after-wo-write=0x%x disabled-read=0x%x "
           "disabled-write-read=0x%x rw-after-disabled-write=0x%x\n",
           seg, off, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8],
           r[9]);
    pam_set(nibble, 0);
    printf("PAM-ROM seg=0x%x off=0x%x bytes=", seg, off & ~0xfu);
    for (i = 0; i < 16; i++) {
        printf("%02x", peek((a & ~0xfu) + i));
    }
    printf("\n");
}

int guest_main(void)
{
    u16 vendor, device;
    u8 saved[7];
    int i;

    outl(0xcf8, 0x80000000u);
    vendor = inw(0xcfc);
    device = inw(0xcfe);
    if (vendor != 0x8086 || (device != 0x1237 && device != 0x29c0)) {
        printf("PAM-FAIL host bridge %04x:%04x\n", vendor, device);
        return 1;
    }
    pam_base = device == 0x1237 ? 0x59 : 0x90;
    printf("PAM-BRIDGE %04x:%04x base=0x%x\n", vendor, device, pam_base);
    for (i = 0; i < 7; i++) {
        saved[i] = cfg_readb(pam_base + i);
    }
    test_segment(0xf0000, 1, 0xfff0);
    test_segment(0xd0000, 6, 0x10);
    test_segment(0xe4000, 11, 0x20);
    for (i = 0; i < 7; i++) {
        cfg_writeb(pam_base + i, saved[i]);
    }
    printf("PAM-DONE\n");
    return 0;
}
