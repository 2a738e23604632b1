#!/usr/bin/env python3
"""qemu-xhci compared with QEMU 7.2 over qtest (docs/devices.md, "USB").

Both binaries run the same machine with the controller, no firmware, the
IOAPIC's inputs intercepted (so each answer carries the INTx changes
before it), and answer the same steps one by one:

  * configuration space: the 256 bytes by dword on pc-q35-7.2 (on pcie.0,
    an integrated endpoint; behind libvirt's root port, an endpoint, bus
    numbers programmed as firmware would) and pc-i440fx-7.2 (no PCIe
    capability), BAR0 sized with all-ones and placed;
  * every capability, operational, port and runtime register after reset,
    byte, word and dword reads of the capabilities, then writes of
    patterns to each writable one (W1C bits, PORTSC's PP and wake bits,
    port reset on an empty port, CRCR's hidden bits), and HCRST;
  * the command ring: DCBAAP, a command ring and interrupter 0's event
    ring (ERST of one segment) in guest memory, the controller run with
    INTE and IMAN.IE, doorbell 0 rung over No-Op, Enable Slot (twice),
    Disable Slot (enabled and not), Address Device / Evaluate Context /
    Configure Endpoint (with and without DC) / Reset Device / endpoint
    commands on empty ports, Get Port Bandwidth, an unknown type, a link
    TRB with toggle cycle; after each ring the 16 event TRBs, USBSTS,
    IMAN, ERDP and CRCR are read, ERDP written back with EHB;
  * MSI-X: the table entry aimed at guest RAM, unmasked, masked (the PBA
    bit), the function mask, vectors used and not;
  * the bounds: a link TRB to itself (32 links, then nothing), a two-TRB
    loop of No-Ops (the 257-command limit, the event ring full), an ERDP
    outside the ring and a bad ERSTSZ (HCE), stopping the command ring;
  * endpoints configured on a slot whose output context says addressed
    (7.2 enables them without a device), with and without streams, and
    the endpoint commands on them;
  * seeded random command traffic (any type, slot, context, cycle bit,
    link, ack, IMAN and MSI-X state), every answer compared;
  * a machine reset of a running controller (registers, MSI-X, config);
  * MFINDEX on the VM clock and its wrap event (EWE), with clock_step
    against the upstream 7.2 build with the qtest accelerator.

Skips (77) where QEMU 7.2 is missing.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import (ORACLE, compare_with_qemu72,  # noqa: E402
                           report_comparison)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")

BAR = 0xfe000000
DCBAA, CMD, EVT, ERST, MSG, ICTX, OCTX, BW = (
    0x10000, 0x11000, 0x12000, 0x13000, 0x14000, 0x15000, 0x16000, 0x17000)
EVT_SIZE = 32

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - xhci/{name}" +
          ("" if ok else f" # {detail}"))


# Configuration space ----------------------------------------------------------

def cfg(bus, dev, off):
    return f"outl 0xcf8 0x{0x80000000 | bus << 16 | dev << 11 | off:x}"


def cfg_read(bus, dev, off, width="l"):
    port = 0xcfc + (off & 3)
    return [cfg(bus, dev, off & ~3), f"in{width} 0x{port:x}"]


def cfg_write(bus, dev, off, val, width="l"):
    port = 0xcfc + (off & 3)
    return [cfg(bus, dev, off & ~3), f"out{width} 0x{port:x} 0x{val:x}"]


def cfg_dump(bus, dev):
    s = []
    for off in range(0, 0x100, 4):
        s += cfg_read(bus, dev, off)
    return s


def place_bar(bus, dev):
    """BAR0 sized, placed at BAR, memory and bus mastering on"""
    return (cfg_write(bus, dev, 0x10, 0xffffffff) + cfg_read(bus, dev, 0x10) +
            cfg_write(bus, dev, 0x14, 0xffffffff) + cfg_read(bus, dev, 0x14) +
            cfg_write(bus, dev, 0x10, BAR) + cfg_write(bus, dev, 0x14, 0) +
            cfg_write(bus, dev, 0x04, 0x6, "w") + cfg_read(bus, dev, 0x04))


def root_port_buses():
    """pci.1 (00:01.0) forwards bus 1, its window over BAR"""
    return (cfg_write(0, 1, 0x18, 0x010100) +
            cfg_write(0, 1, 0x20, (BAR >> 16) | ((BAR + 0xf00000) & 0xfff00000)) +
            cfg_write(0, 1, 0x04, 0x6, "w"))


# Registers -------------------------------------------------------------------

def rd(off, w="l"):
    return f"read{w} 0x{BAR + off:x}"


def wr(off, val, w="l"):
    return f"write{w} 0x{BAR + off:x} 0x{val:x}"


def all_registers():
    s = [rd(o) for o in range(0, 0x40, 4)]
    s += [rd(o, "b") for o in range(0, 0x40, 3)]
    s += [rd(o, "w") for o in range(0, 0x40, 6)]
    s += [rd(0x40 + o) for o in range(0, 0x40, 4)]
    s += [rd(0x440 + o) for o in range(0, 0x80, 4)]
    s += [rd(0x1000 + o) for o in range(0, 0x60, 4)]
    s += [rd(0x1000 + 0x20 * 16 + o) for o in range(0, 0x20, 4)]
    s += [rd(0x2000), rd(0x2004), rd(0x3000), rd(0x300c), rd(0x3800)]
    return s


def register_writes():
    s = []
    for off, pats in ((0x54, (0xffffffff, 0x1234)),     # DNCTRL
                      (0x78, (0xffffffff, 0x5a)),       # CONFIG
                      (0x70, (0xffffffff, 0x12345678)),  # DCBAAP
                      (0x74, (0xffffffff, 0x1)),
                      (0x58, (0xffffffff, 0x12345677)),  # CRCR low
                      (0x5c, (0x0,)),
                      (0x48, (0xffffffff,)),            # PAGESIZE (RO)
                      (0x44, (0xffffffff,)),            # USBSTS W1C
                      (0x1024, (0xffffffff, 0x10)),     # IMOD
                      (0x1028, (0xffffffff, 0x1)),      # ERSTSZ
                      (0x1030, (0xffffffff, 0x0)),      # ERSTBA
                      (0x1038, (0xffffffff, 0x8, 0x0)),  # ERDP
                      (0x103c, (0xffffffff, 0x0)),
                      (0x1020, (0x3, 0x0)),             # IMAN
                      (0x1000, (0xffffffff,)),          # MFINDEX (RO)
                      (0x0, (0xffffffff,)),             # capabilities (RO)
                      (0x2004, (0x1,))):                # slot 1's doorbell
        for v in pats:
            s += [wr(off, v), rd(off & ~3)]
    # ports: W1C change bits, PP and wake bits, LWS link states, resets
    for port in (0x440, 0x450, 0x480, 0x4b0):
        for v in (0x00fe0000, 0x0e000000, 0x0, 0x200, 0x10060, 0x10000,
                  0x10, 0x80000000, 0x202a0):
            s += [wr(port, v), rd(port)]
    s += [rd(0x40), rd(0x44)]
    # USBCMD's kept bits (not R/S, not HCRST)
    for v in (0xc0c, 0xf0, 0x300, 0x0):
        s += [wr(0x40, v), rd(0x40), rd(0x44)]
    s += [wr(0x40, 0x2)] + [rd(0x40 + o) for o in range(0, 0x40, 4)]
    s += [rd(0x440), rd(0x1020), rd(0x1028)]
    return s


# Rings -----------------------------------------------------------------------

def trb(addr, param, status, control):
    return [f"writeq 0x{addr:x} 0x{param:x}", f"writel 0x{addr + 8:x} "
            f"0x{status:x}", f"writel 0x{addr + 12:x} 0x{control:x}"]


def cmd(addr, ttype, cycle=1, slot=0, param=0, extra=0):
    return trb(addr, param, 0, slot << 24 | ttype << 10 | extra | cycle)


def events():
    s = [f"readq 0x{EVT + 16 * i:x}" for i in range(EVT_SIZE)]
    s += [f"readq 0x{EVT + 16 * i + 8:x}" for i in range(EVT_SIZE)]
    return s + [rd(0x44), rd(0x1020), rd(0x1038), rd(0x58), rd(0x3800)]


def ring_setup(inte=True, iman=0x2):
    s = [f"memset 0x{EVT:x} {16 * EVT_SIZE} 0",
         f"writeq 0x{ERST:x} 0x{EVT:x}", f"writel 0x{ERST + 8:x} {EVT_SIZE}",
         wr(0x70, DCBAA), wr(0x74, 0),
         wr(0x1028, 1), wr(0x1030, ERST), wr(0x1034, 0),
         wr(0x1038, EVT), wr(0x103c, 0),
         wr(0x58, CMD | 1), wr(0x5c, 0), wr(0x1020, iman),
         wr(0x40, 0x5 if inte else 0x1), rd(0x40), rd(0x44)]
    return s


def ack(upto):
    """The guest consumed events up to index upto: ERDP there, EHB, then
    IMAN.IP and USBSTS.EINT cleared"""
    return [wr(0x1038, (EVT + 16 * upto) | 0x8), wr(0x103c, 0), rd(0x1038),
            rd(0x1020), rd(0x44), wr(0x1020, 0x3), rd(0x1020),
            wr(0x44, 0x8), rd(0x44)]


def command_steps():
    # input context: drop 0, add slot + ep0; slot context on root port 1
    ictx = [f"memset 0x{ICTX:x} 0x440 0", f"writel 0x{ICTX + 4:x} 0x3",
            f"writel 0x{ICTX + 0x24:x} 0x00010000",
            f"writel 0x{ICTX + 0x28:x} 0x00c00000"]
    ring = []
    a = CMD
    for ttype, slot, param, extra in (
            (23, 0, 0, 0),              # No-Op
            (9, 0, 0, 0),               # Enable Slot: 1
            (9, 0, 0, 0),               # Enable Slot: 2
            (10, 1, 0, 0),              # Disable Slot 1
            (10, 5, 0, 0),              # Disable Slot 5: not enabled
            (10, 0, 0, 0),              # slot 0: TRB error
            (11, 2, ICTX, 0),           # Address Device: no device
            (11, 2, ICTX + 0x100, 0),   # bad input control context
            (13, 2, ICTX, 0),           # Evaluate Context
            (12, 2, ICTX, 0),           # Configure Endpoint: slot state
            (12, 2, ICTX, 1 << 9),      # deconfigure
            (17, 2, 0, 0),              # Reset Device
            (15, 2, 0, 3 << 16),        # Stop Endpoint 3
            (14, 2, 0, 0),              # Reset Endpoint 0
            (16, 2, 0, 1 << 16)):       # Set TR Dequeue ep 1
        ring += cmd(a, ttype, slot=slot, param=param, extra=extra)
        a += 16
    ring += cmd(a, 6, param=CMD, extra=0x2)          # link, toggle cycle
    second = []
    b = CMD
    for ttype, slot, param in ((21, 0, BW), (30, 0, 0), (23, 0, 0),
                               (9, 0, 0)):
        second += cmd(b, ttype, cycle=0, slot=slot, param=param)
        b += 16
    s = ictx + [f"writeq 0x{OCTX:x} 0x0", f"writel 0x{OCTX + 12:x} "
                f"0x{2 << 27:x}", f"writeq 0x{DCBAA + 16:x} 0x{OCTX:x}"]
    s += ring + ring_setup() + [wr(0x2000, 0)] + events()
    s += [f"readl 0x{OCTX + o:x}" for o in range(0, 0x40, 4)]
    s += ack(8) + ack(15) + [wr(0x2000, 0)] + events()
    # the ring toggled: the second lap's TRBs with cycle 0
    s += second + [wr(0x2000, 0)] + events() + ack(19)
    s += [f"readq 0x{BW + o:x}" for o in (0, 8)]
    # a doorbell while stopped, then stop with CS while the ring runs
    s += cmd(b, 23, cycle=0) + [wr(0x40, 0x4), rd(0x44), wr(0x2000, 0),
                                rd(0x58)] + events()
    s += [wr(0x40, 0x5), wr(0x58, 0x2), wr(0x5c, 0), rd(0x58)] + events()
    return s


def msix_steps():
    s = cmd(CMD, 23)
    s += cfg_write(0, 3, 0x90, 0x80000000) + cfg_read(0, 3, 0x90)
    s += [wr(0x3000, MSG), wr(0x3004, 0), wr(0x3008, 0x4321),
          wr(0x300c, 0), rd(0x300c)]
    s += ring_setup(iman=0x0) + [wr(0x1020, 0x2)]      # vector in use
    s += [f"writel 0x{MSG:x} 0x0", wr(0x2000, 0), f"readl 0x{MSG:x}"]
    s += events() + ack(1)
    # masked: pending in the PBA, sent on unmask
    s += [wr(0x300c, 1), f"writel 0x{MSG:x} 0x0"] + cmd(CMD + 16, 23)
    s += [wr(0x2000, 0), f"readl 0x{MSG:x}", rd(0x3800), wr(0x300c, 0),
          f"readl 0x{MSG:x}", rd(0x3800)] + events() + ack(2)
    # function mask: pending; IMAN.IE off (vector unused: pending dropped)
    s += cfg_write(0, 3, 0x90, 0xc0000000) + [f"writel 0x{MSG:x} 0x0"]
    s += cmd(CMD + 32, 23) + [wr(0x2000, 0), rd(0x3800), wr(0x1020, 0x1),
                              rd(0x3800), wr(0x1020, 0x2), rd(0x3800)]
    s += cfg_write(0, 3, 0x90, 0x80000000) + [f"readl 0x{MSG:x}"] + events()
    s += ack(3)
    # a vector not in use (IMAN.IE set before MSI-X was enabled) sends
    # nothing, yet IMAN.IP is cleared as if it had
    s += cfg_write(0, 3, 0x90, 0x0) + [wr(0x1020, 0x0), wr(0x1020, 0x2)]
    s += cfg_write(0, 3, 0x90, 0x80000000) + [f"writel 0x{MSG:x} 0x0"]
    s += cmd(CMD + 48, 23) + [wr(0x2000, 0), f"readl 0x{MSG:x}",
                              rd(0x3800)] + events() + ack(4)
    # MSI-X off: INTx again
    s += cfg_write(0, 3, 0x90, 0x0) + cmd(CMD + 64, 23)
    s += [wr(0x2000, 0)] + events() + ack(5)
    return s


def bound_steps():
    # a link TRB to itself: 32 links, then the fetch gives up
    s = cmd(CMD, 6, param=CMD) + ring_setup() + [wr(0x2000, 0)] + events()
    # two TRBs: a No-Op and a link back to it, forever: 257 commands
    s += cmd(CMD, 23) + cmd(CMD + 16, 6, param=CMD)
    s += [wr(0x58, CMD | 1), wr(0x5c, 0), wr(0x2000, 0)] + events()
    s += ack(5) + [wr(0x2000, 0)] + events()
    # ERDP outside the ring: HCE; a bad ERSTSZ too
    s += [wr(0x1038, 0x100), wr(0x103c, 0), wr(0x2000, 0)] + events()
    s += [wr(0x40, 0x2), rd(0x44), wr(0x1028, 2), wr(0x1030, ERST),
          wr(0x1034, 0), rd(0x44)]
    # an ERST whose segment is too small
    s += [wr(0x40, 0x2), f"writel 0x{ERST + 8:x} 8", wr(0x1028, 1),
          wr(0x1030, ERST), wr(0x1034, 0), rd(0x44)]
    return s


def reset_steps():
    """A running controller with events and MSI-X, then a machine reset"""
    s = cmd(CMD, 23) + ring_setup() + [wr(0x2000, 0), rd(0x44)]
    s += cfg_write(0, 3, 0x90, 0x80000000) + [wr(0x300c, 0), wr(0x1020, 2)]
    s += ["outb 0xcf9 0x6"] + cfg_dump(0, 3) + place_bar(0, 3)
    return s + all_registers()


def endpoint_steps(streams):
    """Endpoints 2 and 3 configured on a slot whose output context (at 0,
    where a never-addressed slot's is) says addressed, as 7.2 allows:
    stop, reset, set dequeue (on streams: stream IDs, the stream context
    type), deconfigure, reset device, disable slot; contexts read back"""
    ep0 = (0x2 << 10 | 1 << 15) if streams else 0
    s = ["memset 0x0 0x400 0", "writel 0xc 0x10000000",
         f"memset 0x{ICTX:x} 0x440 0", f"writel 0x{ICTX + 4:x} 0xd",
         f"writel 0x{ICTX + 0x20:x} 0x18000000",
         f"writel 0x{ICTX + 0x60:x} 0x{ep0:x}",
         f"writel 0x{ICTX + 0x64:x} 0x00400026",
         f"writeq 0x{ICTX + 0x68:x} 0x{BW | 1:x}",
         f"writel 0x{ICTX + 0x80:x} 0x{ep0:x}",
         f"writel 0x{ICTX + 0x84:x} 0x02000016",
         f"writeq 0x{ICTX + 0x88:x} 0x{BW + 0x100:x}",
         # stream contexts: stream 1 primary (SCT 1), stream 2 SCT 3
         f"writeq 0x{BW + 0x10:x} 0x{0x20002 | 1 << 1:x}",
         f"writeq 0x{BW + 0x20:x} 0x{0x30000 | 3 << 1:x}"]
    a = CMD
    for ttype, slot, param, status, extra in (
            (9, 0, 0, 0, 0), (12, 1, ICTX, 0, 0),
            (12, 1, ICTX, 0, 0),                # again: re-enabled
            (16, 1, 0x40001, 1 << 16, 2 << 16),  # not stopped
            (15, 1, 0, 0, 2 << 16), (15, 1, 0, 0, 3 << 16),
            (15, 1, 0, 0, 4 << 16), (15, 1, 0, 0, 0),
            (14, 1, 0, 0, 2 << 16),             # not halted
            (16, 1, 0x50001, 1 << 16, 2 << 16),
            (16, 1, 0x60000, 2 << 16, 2 << 16),
            (16, 1, 0x70001, 9 << 16, 2 << 16),
            (16, 1, 0x80001, 1 << 16, 3 << 16),
            (17, 1, 0, 0, 0), (15, 1, 0, 0, 2 << 16),
            (12, 1, ICTX, 0, 0), (12, 1, 0, 0, 1 << 9),
            (15, 1, 0, 0, 3 << 16), (12, 1, ICTX, 0, 0),
            (10, 1, 0, 0, 0), (15, 1, 0, 0, 2 << 16)):
        s += trb(a, param, status, slot << 24 | ttype << 10 | extra | 1)
        a += 16
    s += ring_setup() + [wr(0x2000, 0), wr(0x2004, 2), wr(0x2004, 3)]
    s += events() + [f"readl 0x{o:x}" for o in range(0, 0x80, 4)]
    return s + [f"readq 0x{BW + o:x}" for o in range(0, 0x30, 8)]


def random_steps(seed):
    """Seeded random command traffic on a well-formed setup: commands of
    any type (mostly the defined ones) on any slot, contexts of random
    words, wrong cycle bits, link TRBs with and without toggle, acks at
    random places, IMAN and MSI-X toggled"""
    r = random.Random(seed)
    s = [f"memset 0x{ICTX:x} 0x440 0", f"memset 0x{OCTX:x} 0x440 0"]
    for _ in range(24):
        s.append(f"writel 0x{r.choice([ICTX, OCTX]) + 4 * r.randrange(0x110):x}"
                 f" 0x{r.choice([0, 1, 2, 3, 0x10000, 2 << 27, r.getrandbits(32)]):x}")
    s += [f"writeq 0x{DCBAA + 8 * i:x} 0x{OCTX:x}" for i in range(1, 4)]
    s += ring_setup(inte=r.random() < 0.8) + [wr(0x3000, MSG), wr(0x3008, 7),
                                              wr(0x300c, 0)]
    a, ccs, done = CMD, 1, 0
    for _ in range(12):
        for _ in range(r.randrange(1, 6)):
            if a >= CMD + 16 * 30 or r.random() < 0.05:
                tc = r.random() < 0.8
                s += cmd(a, 6, cycle=ccs, param=CMD, extra=0x2 if tc else 0)
                ccs ^= tc
                a = CMD
                continue
            ttype = r.choice([9, 9, 10, 11, 12, 13, 14, 15, 16, 17, 21, 23,
                              23, r.randrange(64)])
            slot = r.choice([0, 1, 2, 3, r.randrange(256)])
            param = r.choice([ICTX, OCTX, BW, 0, r.getrandbits(20) << 4])
            cyc = ccs if r.random() < 0.95 else ccs ^ 1
            s += cmd(a, ttype, cycle=cyc, slot=slot, param=param,
                     extra=r.choice([0, 1 << 9, r.randrange(32) << 16]))
            a += 16
        s += [wr(0x2000, r.choice([0, 0, 0, 1]))] + events()
        k = r.random()
        if k < 0.5:
            done = (done + r.randrange(1, 8)) % EVT_SIZE
            s += ack(done)
        elif k < 0.6:
            s += cfg_write(0, 3, 0x90, r.choice([0, 0x80000000, 0xc0000000]))
        elif k < 0.7:
            s += [wr(0x1020, r.choice([0, 1, 2, 3]))]
        s += [f"readl 0x{MSG:x}", f"writel 0x{MSG:x} 0x0"]
    s += [f"readl 0x{o:x}" for o in range(OCTX, OCTX + 0x60, 4)]
    return s + [f"readq 0x{BW:x}", f"readq 0x{BW + 8:x}", rd(0x44)]


def clock_steps():
    s = [rd(0x1000), "clock_step 1000000", rd(0x1000)]
    s += ring_setup() + [rd(0x1000), "clock_step 1000000", rd(0x1000),
                         "clock_step 125000", rd(0x1000)]
    s += [wr(0x40, 0x405), rd(0x40)]
    for _ in range(3):
        s += ["clock_step 1000000000", rd(0x1000)] + events()
    s += ack(1) + ["clock_step 2048000000", rd(0x1000)] + events()
    s += [wr(0x40, 0x0), "clock_step 500000000", rd(0x1000), rd(0x44),
          wr(0x40, 0x1), rd(0x1000), "clock_step 250000", rd(0x1000)]
    return s


def compare(name, machine, devices, steps, irqs=True):
    args = ["-machine", machine, "-qtest-log", "/dev/null"]
    for d in devices:
        args += ["-device", d]
    diff = compare_with_qemu72(BINARY, args, ["irq_intercept_in ioapic"] +
                               steps, irqs=irqs)
    report_comparison(report, name, diff)


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    on_root = ["qemu-xhci,id=usb,addr=3"]
    libvirt = ["pcie-root-port,port=8,chassis=1,id=pci.1,bus=pcie.0,"
               "multifunction=on,addr=0x1",
               "pcie-root-port,port=9,chassis=2,id=pci.2,bus=pcie.0,"
               "addr=0x1.0x1", "qemu-xhci,id=usb,bus=pci.1,addr=0x0"]
    compare("config/q35-root-bus", "pc-q35-7.2", on_root,
            cfg_dump(0, 3) + place_bar(0, 3) + cfg_dump(0, 3))
    compare("config/q35-root-port", "pc-q35-7.2", libvirt,
            root_port_buses() + cfg_dump(1, 0) + place_bar(1, 0) +
            cfg_dump(1, 0) + [rd(0), rd(0x440)] + cfg_dump(0, 1))
    compare("config/i440fx", "pc-i440fx-7.2", ["qemu-xhci,addr=3"],
            cfg_dump(0, 3) + place_bar(0, 3) + cfg_dump(0, 3))
    compare("config/p2-p3-streams", "pc-i440fx-7.2",
            ["qemu-xhci,addr=3,p2=2,p3=7,streams=off"],
            place_bar(0, 3) + all_registers())
    compare("config/ports-clamped", "pc-i440fx-7.2",
            ["qemu-xhci,addr=3,p2=20,p3=0"],
            place_bar(0, 3) + all_registers())
    compare("registers/reset", "pc-q35-7.2", on_root,
            place_bar(0, 3) + all_registers())
    compare("registers/writes", "pc-q35-7.2", on_root,
            place_bar(0, 3) + register_writes())
    compare("commands/intx", "pc-q35-7.2", on_root,
            place_bar(0, 3) + command_steps())
    compare("commands/intx-i440fx", "pc-i440fx-7.2", ["qemu-xhci,addr=3"],
            place_bar(0, 3) + command_steps())
    compare("commands/msix", "pc-q35-7.2", on_root,
            place_bar(0, 3) + msix_steps())
    compare("commands/bounds", "pc-q35-7.2", on_root,
            place_bar(0, 3) + bound_steps())
    compare("commands/endpoints", "pc-q35-7.2", on_root,
            place_bar(0, 3) + endpoint_steps(False))
    compare("commands/endpoints-streams", "pc-q35-7.2", on_root,
            place_bar(0, 3) + endpoint_steps(True))
    compare("commands/endpoints-no-streams", "pc-q35-7.2",
            ["qemu-xhci,id=usb,addr=3,streams=off"],
            place_bar(0, 3) + endpoint_steps(True))
    for seed in range(4):
        compare(f"commands/random-{seed}", "pc-q35-7.2", on_root,
                place_bar(0, 3) + random_steps(seed))
    # the PIT's IRQ 0 at a machine reset is reported at another step here
    compare("reset", "pc-q35-7.2", on_root, place_bar(0, 3) + reset_steps(),
            irqs=False)
    compare("mfindex", "pc-q35-7.2", on_root, place_bar(0, 3) + clock_steps())
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
