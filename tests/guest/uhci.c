/*
 * uhci guest: drives the piix3-usb-uhci at 00:01.2 from its vCPU (port
 * I/O on the vCPU thread while the controller's frame timer runs on the
 * emulator's), nothing plugged in, and prints what it finds:
 *
 *   UHCI-ID id=0x70208086 class=0x0c030001 pin=4 sbrn=0x10
 *   UHCI-RESET cmd=.. sts=.. intr=.. frnum=.. flbase=.. sof=.. port1=.. port2=..
 *   UHCI-NODEV td=0x... sts=0x.. irq=1          (a SETUP TD to device 0)
 *   UHCI-MASKED sts=0x.. irq=0                  (USBINTR cleared)
 *   UHCI-QUIET sts=0x.. irq=0                   (empty frames, W1C)
 *   UHCI-BADPID td=0x... sts=0x.. cmd=0x.. irq=1
 *   UHCI-LOOP td=0x... frames=ok                 (a QH linked to itself)
 *   UHCI-STOP sts=0x.. cmd=0x..
 *   UHCI-DONE
 *
 * The firmware may have used the controller before (SeaBIOS does under
 * QEMU 7.2), so the guest takes it over with GRESET and HCRESET and
 * places BAR4 itself.  It waits for what it polls with a bound (a frame
 * is 1 ms of VM time) and prints "UHCI-FAIL what" when that runs out.
 * The line is read from the PCI status register's interrupt bit, since
 * interrupts stay off.  tests/functional/test_uhci_kvm.py compares the
 * lines with QEMU 7.2's.
 */
#include "lib.h"

const char guest_name[] = "uhci";

#define DEVFN 0x0a
#define IO 0xe000
#define FL 0x300000u
#define QH 0x301000u
#define TD 0x301100u
#define TIMEOUT 5000000u

#define CMD 0x00
#define STS 0x02
#define INTR 0x04
#define FRNUM 0x06
#define FLBASE 0x08
#define SOF 0x0c
#define PORT1 0x10
#define PORT2 0x12

#define TD_ACTIVE (1u << 23)
#define TD_IOC (1u << 24)
#define TD_CERR3 (3u << 27)

static u32 cfg_read(unsigned off)
{
    outl(0xcf8, 0x80000000u | DEVFN << 8 | (off & 0xfc));
    return inl(0xcfc);
}

static void cfg_write(unsigned off, u32 val)
{
    outl(0xcf8, 0x80000000u | DEVFN << 8 | (off & 0xfc));
    outl(0xcfc, val);
}

static int irq_line(void)
{
    return (cfg_read(0x04) >> 16 & 0x08) != 0;  /* status: interrupt */
}

static volatile u32 *mem(u32 addr)
{
    return phys(addr);
}

static void frame_list(u32 link)
{
    unsigned i;

    for (i = 0; i < 1024; i++) {
        mem(FL)[i] = link;
    }
}

static void td(u32 link, u32 ctrl, u32 token)
{
    mem(TD)[0] = link;
    mem(TD)[1] = ctrl;
    mem(TD)[2] = token;
    mem(TD)[3] = 0x302000;
}

/* Waits until (sts & mask) == want; false on timeout */
static bool wait_sts(u16 mask, u16 want)
{
    u32 i;

    for (i = 0; i < TIMEOUT; i++) {
        if ((inw(IO + STS) & mask) == want) {
            return true;
        }
        io_delay();
    }
    return false;
}

/* Waits for n frames to pass */
static bool wait_frames(unsigned n)
{
    u16 start = inw(IO + FRNUM);
    u32 i;

    for (i = 0; i < TIMEOUT; i++) {
        if (((inw(IO + FRNUM) - start) & 0x7ff) >= n) {
            return true;
        }
        io_delay();
    }
    return false;
}

static int fail(const char *what)
{
    printf("UHCI-FAIL %s sts=0x%x cmd=0x%x frnum=0x%x\n", what,
           inw(IO + STS), inw(IO + CMD), inw(IO + FRNUM));
    return 1;
}

int guest_main(void)
{
    printf("UHCI-ID id=0x%08x class=0x%08x pin=%u sbrn=0x%02x\n",
           cfg_read(0x00), cfg_read(0x08), cfg_read(0x3c) >> 8 & 0xff,
           cfg_read(0x60) & 0xff);
    cfg_write(0x20, IO | 1);
    cfg_write(0x04, 0x5);                   /* I/O, bus master */
    outw(IO + CMD, 0x4);                    /* GRESET */
    outw(IO + CMD, 0x2);                    /* HCRESET */
    outw(IO + FRNUM, 0);                    /* halted: writable */
    printf("UHCI-RESET cmd=0x%x sts=0x%x intr=0x%x frnum=0x%x flbase=0x%x "
           "sof=0x%x port1=0x%x port2=0x%x\n", inw(IO + CMD), inw(IO + STS),
           inw(IO + INTR), inw(IO + FRNUM), inl(IO + FLBASE), inb(IO + SOF),
           inw(IO + PORT1), inw(IO + PORT2));

    /* a SETUP to device 0 through a QH: nobody answers */
    frame_list(QH | 2);
    mem(QH)[0] = 1;
    mem(QH)[1] = TD;
    td(1, TD_CERR3 | TD_ACTIVE | TD_IOC | 0x7ff, 7u << 21 | 0x2d);
    outl(IO + FLBASE, FL);
    outw(IO + INTR, 0xf);
    outw(IO + CMD, 0x1);
    if (!wait_sts(0x03, 0x03)) {
        return fail("nodev");
    }
    printf("UHCI-NODEV td=0x%08x sts=0x%x irq=%d\n", mem(TD)[1],
           inw(IO + STS), irq_line());

    outw(IO + INTR, 0);
    printf("UHCI-MASKED sts=0x%x irq=%d\n", inw(IO + STS), irq_line());

    frame_list(1);
    if (!wait_frames(3)) {
        return fail("frames");
    }
    outw(IO + STS, 0x3f);
    if (!wait_frames(3)) {
        return fail("frames");
    }
    outw(IO + INTR, 0xf);
    printf("UHCI-QUIET sts=0x%x irq=%d\n", inw(IO + STS), irq_line());

    /* a PID no transaction has: the controller stops itself */
    td(1, TD_CERR3 | TD_ACTIVE, 0x5a);
    frame_list(TD);
    if (!wait_sts(0x30, 0x30)) {
        return fail("badpid");
    }
    printf("UHCI-BADPID td=0x%08x sts=0x%x cmd=0x%x irq=%d\n", mem(TD)[1],
           inw(IO + STS), inw(IO + CMD), irq_line());

    /* a QH linked to itself, its TD failing: frames go on */
    outw(IO + STS, 0x3f);
    mem(QH)[0] = QH | 2;
    mem(QH)[1] = TD;
    td(1, TD_CERR3 | TD_ACTIVE, 7u << 21 | 5 << 8 | 0x69);
    frame_list(QH | 2);
    outw(IO + CMD, 0x1);
    if (!wait_frames(10)) {
        return fail("loop");
    }
    printf("UHCI-LOOP td=0x%08x frames=ok\n", mem(TD)[1]);

    outw(IO + CMD, 0x0);
    printf("UHCI-STOP sts=0x%x cmd=0x%x\n", inw(IO + STS) & 0x20,
           inw(IO + CMD));
    printf("UHCI-DONE\n");
    return 0;
}
