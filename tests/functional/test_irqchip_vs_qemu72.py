#!/usr/bin/env python3
"""The userspace PICs, IOAPIC and PIT compared with QEMU 7.2
(hw/intc/i8259.c, hw/intc/ioapic.c, hw/timer/i8254.c).

Both binaries run the same machine under the qtest accelerator with the
IOAPIC's inputs intercepted, so every answer carries the GSI lines raised
and lowered before it; every answer must be the same.  Steps that move the
clock go to the upstream 7.2 build with the qtest accelerator
(ORACLE_QTEST), the others to Debian's.  Interrupt sources without a
guest: the i8042's "write output buffer" commands (IRQ 1 and 12), the
RTC's periodic interrupt (IRQ 8), the PIT's channel 0 (IRQ 0) and
set_irq_in on the IOAPIC.

  * pic/...: reset values, initialisation (ICW1-4), IMR, IRR/ISR reads,
    poll mode, EOIs (non-specific, specific, rotating), priorities,
    special mask, auto-EOI, the cascade on IRQ 2, the ELCR and its masks;
  * ioapic/...: ID, version, arbitration, every redirection entry and its
    read-only bits, access sizes, edge and level inputs, remote IRR and
    the EOI register, masking, ExtINT (acknowledges the PIC), version 0x11;
  * pit/...: every mode on channel 0 and IRQ 0 over clock_step, counter
    latch, read-back (count and status), access modes, BCD, channel 2
    through port 0x61 (gate and OUT);
  * random/...: seeded random sequences of all of it;
  * qtree/... and mtree/...: these devices' lines of info qtree and info
    mtree -f on pc-q35-7.2 and pc-i440fx-7.2 under qtest, and pc-q35-4.0
    under KVM (split irqchip; skipped without /dev/kvm).

Skips (77) where QEMU 7.2 is missing.
"""

import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import (ORACLE, compare_with_qemu72,  # noqa: E402
                           qemu72_available)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
IOAPIC = 0xfec00000

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - irqchip/{name}" +
          ("" if ok else f" # {detail}"))


# Port helpers -------------------------------------------------------------

def o(port, val):
    return f"outb {port:#x} {val:#x}"


def i(port):
    return f"inb {port:#x}"


def pic_regs():
    """IRR, ISR and IMR of both PICs, and the ELCRs (OCW3 selects)"""
    s = []
    for base in (0x20, 0xa0):
        s += [o(base, 0x0a), i(base), o(base, 0x0b), i(base), i(base + 1)]
    return s + [i(0x4d0), i(0x4d1)]


def pic_init(base, vector, icw3, icw4=0x01, icw1=0x11):
    return [o(base, icw1), o(base + 1, vector), o(base + 1, icw3),
            o(base + 1, icw4)]


def linux_pics():
    return (pic_init(0x20, 0x30, 0x04) + pic_init(0xa0, 0x38, 0x02) +
            [o(0x21, 0x00), o(0xa1, 0x00)])


# The i8042's IRQ 1 and 12: output buffer written by command, read by 0x60
def kbd_irq():
    return [o(0x64, 0xd2), o(0x60, 0x55)]


def mouse_irq():
    return [o(0x64, 0xd3), o(0x60, 0x66)]


def i8042_ack():
    return [i(0x60)]


# COM1's THRE interrupt (IRQ 4; the machine gets -serial null)
def serial_irq(on):
    return [o(0x3f9, 0x02 if on else 0x00)]


def i8042_enable_irqs():
    # command byte: both interrupts on, translation on
    return [o(0x64, 0x60), o(0x60, 0x47)]


# IOAPIC helpers -----------------------------------------------------------

def ioregsel(reg):
    return f"writel {IOAPIC:#x} {reg:#x}"


def iowin_w(reg, val):
    return [ioregsel(reg), f"writel {IOAPIC + 0x10:#x} {val:#x}"]


def iowin_r(reg):
    return [ioregsel(reg), f"readl {IOAPIC + 0x10:#x}"]


def rte_w(pin, lo, hi=0):
    return iowin_w(0x11 + 2 * pin, hi) + iowin_w(0x10 + 2 * pin, lo)


def rte_r(pin):
    return iowin_r(0x10 + 2 * pin) + iowin_r(0x11 + 2 * pin)


def eoi(vector):
    return f"writel {IOAPIC + 0x40:#x} {vector:#x}"


def setin(pin, level):
    return f"set_irq_in ioapic unnamed-gpio-in {pin} {level}"


LEVEL, MASKED = 1 << 15, 1 << 16
FREE_PINS = [p for p in range(24) if p not in (0, 1, 2, 4, 8, 12)]


# Scripted cases -------------------------------------------------------------

def pic_cases():
    c = []
    c.append(("pic/reset", pic_regs() + [i(0x21), i(0xa1)]))
    c.append(("pic/elcr-masks",
              [o(0x4d0, 0xff), o(0x4d1, 0xff)] + pic_regs() +
              [o(0x4d0, 0x00), o(0x4d1, 0x00), "outw 0x4d0 0xa5a5"] +
              pic_regs()))
    c.append(("pic/init-and-imr",
              linux_pics() + pic_regs() + [o(0x21, 0xb5), o(0xa1, 0x5b)] +
              pic_regs() +
              # single mode, no ICW4; then ICW1 without ICW4 (cascade)
              [o(0x20, 0x13), o(0x21, 0x48), o(0x21, 0xff)] + pic_regs() +
              [o(0x20, 0x10), o(0x21, 0x08), o(0x21, 0x04), o(0x21, 0xaa)]
              + pic_regs() + ["inw 0x20", "outw 0x20 0xff0b", "inw 0x20"]))
    base = linux_pics() + i8042_enable_irqs()
    c.append(("pic/edge-irq1-eoi",
              base + kbd_irq() + pic_regs() + i8042_ack() + pic_regs() +
              kbd_irq() + pic_regs() + [o(0x20, 0x0c), i(0x20)] +
              pic_regs() + i8042_ack() + [o(0x20, 0x20)] + pic_regs()))
    c.append(("pic/cascade-irq12",
              base + mouse_irq() + pic_regs() +
              [o(0xa0, 0x0c), i(0xa0), o(0x20, 0x0c), i(0x20)] +
              pic_regs() + i8042_ack() + [o(0xa0, 0x64), o(0x20, 0x62)] +
              pic_regs()))
    c.append(("pic/poll-and-specific-eoi",
              base + kbd_irq() + serial_irq(True) + pic_regs() +
              [o(0x20, 0x0c), i(0x21), o(0x20, 0x0c), i(0x20),
               o(0x20, 0x0c), i(0x20)] + pic_regs() +
              [o(0x20, 0x61), o(0x20, 0x60 | 4)] + pic_regs() +
              i8042_ack() + serial_irq(False) + pic_regs()))
    c.append(("pic/rotation-and-priority",
              base + [o(0x20, 0xc4), o(0x20, 0x0c), i(0x20)] + kbd_irq() +
              pic_regs() + [o(0x20, 0x0c), i(0x20), o(0x20, 0xa0)] +
              pic_regs() + [o(0x20, 0xe1), o(0x20, 0xc7)] + i8042_ack() +
              kbd_irq() + [o(0x20, 0x0c), i(0x20), o(0x20, 0x20)] +
              pic_regs()))
    c.append(("pic/imr-masks-and-special-mask",
              base + [o(0x21, 0x02)] + kbd_irq() + pic_regs() +
              [o(0x20, 0x0c), i(0x20), o(0x21, 0x00), o(0x20, 0x0c),
               i(0x20), o(0x21, 0x02), o(0x20, 0x68)] + pic_regs() +
              serial_irq(True) +
              [o(0x20, 0x0c), i(0x20), o(0x20, 0x48), o(0x20, 0x0c),
               i(0x20)] + pic_regs() + i8042_ack() + serial_irq(False)))
    c.append(("pic/auto-eoi",
              pic_init(0x20, 0x30, 0x04, icw4=0x03) +
              pic_init(0xa0, 0x38, 0x02, icw4=0x13) +
              i8042_enable_irqs() + [o(0x20, 0x80)] + kbd_irq() +
              [o(0x20, 0x0c), i(0x20)] + pic_regs() + i8042_ack() +
              mouse_irq() + [o(0x20, 0x0c), i(0x20), o(0xa0, 0x0c),
                             i(0xa0)] + pic_regs() + [o(0x20, 0x00)] +
              i8042_ack()))
    c.append(("pic/level-elcr",
              base + [o(0x4d1, 0x10)] + mouse_irq() + pic_regs() +
              [o(0xa0, 0x0c), i(0xa0), o(0x20, 0x0c), i(0x20)] +
              pic_regs() + [o(0xa0, 0x20), o(0x20, 0x20)] + pic_regs() +
              i8042_ack() + pic_regs() +
              # ICW1 keeps a level request and the ELCR
              mouse_irq() + [o(0xa0, 0x11)] + pic_regs() + i8042_ack()))
    c.append(("pic/rtc-irq8",
              base + ["outb 0x70 0xb", "outb 0x71 0x02", "outb 0x70 0xc",
                      "inb 0x71"] + pic_regs()))
    return c


def ioapic_cases():
    c = []
    regs = []
    for reg in list(range(0, 4)) + list(range(0x10, 0x40)) + [0x40, 0xff]:
        regs += iowin_r(reg)
    c.append(("ioapic/reset-registers", regs))
    c.append(("ioapic/id-and-readonly",
              iowin_w(0, 0xffffffff) + iowin_r(0) + iowin_r(2) +
              iowin_w(1, 0) + iowin_r(1) + iowin_w(2, 0) + iowin_r(2) +
              iowin_w(0, 0x05000000) + iowin_r(0) + iowin_r(2)))
    s = []
    for pin in range(24):
        s += rte_w(pin, 0xfffff000 | pin, 0xffff0000 | pin) + rte_r(pin)
    c.append(("ioapic/entries-rw", s))
    c.append(("ioapic/access-sizes",
              [f"writeb {IOAPIC:#x} 0x12", f"readb {IOAPIC:#x}",
               f"readw {IOAPIC:#x}", f"readl {IOAPIC:#x}",
               f"readb {IOAPIC + 0x10:#x}", f"readw {IOAPIC + 0x10:#x}",
               f"readl {IOAPIC + 0x10:#x}", f"readq {IOAPIC:#x}",
               f"writew {IOAPIC + 0x10:#x} 0x1234",
               f"readl {IOAPIC + 0x10:#x}",
               f"writel {IOAPIC + 0x110:#x} 0x4321",
               f"readl {IOAPIC + 0x210:#x}", f"readl {IOAPIC + 0x20:#x}",
               f"readl {IOAPIC + 0x40:#x}", f"readl {IOAPIC + 0x11:#x}",
               f"writeq {IOAPIC:#x} 0x1300000013",
               f"readl {IOAPIC:#x}", f"readl {IOAPIC + 0xffc:#x}"]))
    s = ["irq_intercept_in ioapic"]
    s += rte_w(5, 0x31) + [setin(5, 1)] + rte_r(5) + [setin(5, 0)]
    s += rte_w(6, 0x32 | LEVEL) + [setin(6, 1)] + rte_r(6) + [eoi(0x32)]
    s += rte_r(6) + [setin(6, 0), eoi(0x32)] + rte_r(6)
    # masked: an edge is lost, a level waits
    s += rte_w(7, 0x33 | MASKED) + [setin(7, 1), setin(7, 0)] + rte_r(7)
    s += rte_w(7, 0x33) + rte_r(7)
    s += rte_w(8, 0x34 | LEVEL | MASKED) + [setin(8, 1)] + rte_r(8)
    s += rte_w(8, 0x34 | LEVEL) + rte_r(8) + [eoi(0x34)] + rte_r(8)
    s += [eoi(0x134)] + rte_r(8) + [setin(8, 0), eoi(0x34)] + rte_r(8)
    # switching a level entry to edge drops its remote IRR (Linux's trick)
    s += rte_w(9, 0x35 | LEVEL) + [setin(9, 1)] + rte_r(9)
    s += rte_w(9, 0x35 | MASKED) + rte_r(9) + rte_w(9, 0x35 | LEVEL)
    s += rte_r(9) + [setin(9, 0)]
    # input 0 is pin 2
    s += rte_w(2, 0x36 | LEVEL) + [setin(0, 1)] + rte_r(2) + rte_r(0)
    s += [setin(0, 0), eoi(0x36)] + rte_r(2)
    s += ["writew 0xfec00040 0x35", "readl 0xfec00010"]
    c.append(("ioapic/edge-level-eoi", s))
    s = linux_pics() + i8042_enable_irqs() + kbd_irq() + pic_regs()
    s += rte_w(3, 0x700) + [setin(3, 1), setin(3, 0)] + pic_regs()
    s += rte_w(4, 0x700 | LEVEL) + [setin(4, 1)] + pic_regs() + rte_r(4)
    # 7.2 acknowledges for a masked ExtINT entry too, when it looks at it
    s += serial_irq(True) + rte_w(10, 0x700 | LEVEL | MASKED)
    s += [setin(10, 1)] + pic_regs() + rte_r(10) + serial_irq(False)
    c.append(("ioapic/extint-acknowledges-pic", s + i8042_ack()))
    return c


def pit_status(ch):
    return [o(0x43, 0xe0 | 2 << ch), i(0x40 + ch)]


def pit_cases():
    c = []
    s = ["irq_intercept_in ioapic"] + [i(0x40), i(0x41), i(0x42), i(0x43)]
    s += pit_status(0) + pit_status(1) + pit_status(2) + [i(0x61)]
    s += ["clock_step 1000000", i(0x40), i(0x40), "clock_step"]
    c.append(("pit/reset", s))
    for mode in range(6):
        s = ["irq_intercept_in ioapic", o(0x43, 0x30 | mode << 1),
             o(0x40, 0x34), o(0x40, 0x12)] + pit_status(0)
        for step in (1000, 3000000, 1000000, 2000000, 5000000):
            s += [f"clock_step {step}", o(0x43, 0x00), i(0x40), i(0x40)]
            s += pit_status(0)
        s += ["clock_step", "clock_step", "clock_step", o(0x43, 0xc2),
              i(0x40), i(0x40), i(0x40)]
        c.append((f"pit/mode{mode}", s))
    s = ["irq_intercept_in ioapic", o(0x43, 0x14), o(0x40, 0x80),
         "clock_step 20000", i(0x40), o(0x43, 0x24), o(0x40, 0x02),
         "clock_step 20000", i(0x40), o(0x43, 0x35), o(0x40, 0x99),
         o(0x40, 0x99)] + pit_status(0) + [
        "clock_step 40000", i(0x40), i(0x40), o(0x43, 0x00), o(0x43, 0x00),
        "clock_step 40000", i(0x40), i(0x40),
        o(0x43, 0xd2), o(0x43, 0xc2), i(0x40), i(0x40), i(0x40),
        o(0x43, 0xfe), "inw 0x40", "inl 0x40", o(0x43, 0x3e),
        "outw 0x40 0x0100", "clock_step 100000", "inw 0x40"]
    c.append(("pit/latch-readback-access", s))
    s = ["irq_intercept_in ioapic", i(0x61), o(0x43, 0xb0), o(0x42, 0x00),
         o(0x42, 0x10), i(0x61), "clock_step 1000", i(0x61), o(0x61, 0x01),
         i(0x61), "clock_step 2000000", i(0x61), i(0x42), i(0x42),
         o(0x43, 0xb6), o(0x42, 0x40), o(0x42, 0x00), "clock_step 10000",
         i(0x61), o(0x61, 0x00), "clock_step 10000", i(0x61),
         o(0x61, 0x03), "clock_step 7000", i(0x61), i(0x61)] + \
        pit_status(2)
    c.append(("pit/channel2-port61", s))
    s = ["irq_intercept_in ioapic", o(0x43, 0x34), o(0x40, 0x00),
         o(0x40, 0x10), "clock_step 5000000",
         # the HPET's legacy mode takes IRQ 0; leaving it gives it back
         "writel 0xfed00010 0x3", "clock_step 5000000",
         "writel 0xfed00010 0x0", "clock_step 5000000", i(0x40)]
    c.append(("pit/hpet-legacy", s))
    return c


# Random sequences -------------------------------------------------------------

def random_steps(rng, n):
    s = ["irq_intercept_in ioapic"] + linux_pics() + i8042_enable_irqs()
    pending = False
    for _ in range(n):
        k = rng.randrange(14)
        if k == 0:
            s += [o(rng.choice((0x20, 0xa0)), rng.choice(
                (0x20, 0x60 | rng.randrange(8), 0xa0, 0xc0 | rng.randrange(8),
                 0xe0 | rng.randrange(8), 0x0a, 0x0b, 0x0c, 0x68, 0x48,
                 0x80, 0x00)))]
        elif k == 1:
            s += [o(rng.choice((0x21, 0xa1)), rng.randrange(256))]
        elif k == 2:
            s += [i(rng.choice((0x20, 0x21, 0xa0, 0xa1, 0x4d0, 0x4d1)))]
        elif k == 3:
            # IRQ 12 stays edge-triggered: 7.2's i8042 sets both of its
            # lines again on every change, this tree's only the one that
            # changes (a level IRQ 12 would show it)
            port = rng.choice((0x4d0, 0x4d1))
            s += [o(port, rng.randrange(256) & (0xef if port == 0x4d1
                                               else 0xff))]
        elif k == 4:
            # one i8042 byte at a time (its queue is not what is tested)
            s += i8042_ack() if pending else rng.choice((kbd_irq,
                                                          mouse_irq))()
            pending = not pending
            s += serial_irq(rng.getrandbits(1))
        elif k == 5:
            pin = rng.randrange(24)
            lo = (rng.randrange(0x20, 0x100) | rng.randrange(8) << 8 |
                  rng.getrandbits(1) << 11 | rng.getrandbits(1) << 13 |
                  rng.getrandbits(1) << 15 | rng.getrandbits(1) << 16)
            s += rte_w(pin, lo, rng.getrandbits(32))
        elif k == 6:
            s += rte_r(rng.randrange(24))
        elif k == 7:
            # not the board's lines (whose devices set them again)
            s += [setin(rng.choice(FREE_PINS), rng.getrandbits(1))]
        elif k == 8:
            s += [eoi(rng.randrange(0x20, 0x100))]
        elif k == 9:
            ch = rng.randrange(3)
            s += [o(0x43, ch << 6 | rng.randrange(1, 4) << 4 |
                    rng.randrange(6) << 1 | rng.getrandbits(1)),
                  o(0x40 + ch, rng.randrange(256)),
                  o(0x40 + ch, rng.randrange(256))]
        elif k == 10:
            s += [o(0x43, rng.choice((0x00, 0x40, 0x80, 0xc2, 0xe2, 0xd2,
                                      0xee, 0xce)))]
        elif k == 11:
            s += [i(rng.choice((0x40, 0x41, 0x42, 0x61)))]
        elif k == 12:
            s += [o(0x61, rng.randrange(4))]
        else:
            s += [f"clock_step {rng.choice((1, 100, 5000, 100000, 3000000))}"]
    return s + pic_regs() + [x for p in range(24) for x in rte_r(p)]


# qtree and mtree -----------------------------------------------------------

def hmp_lines(binary, args, command):
    p = subprocess.run(
        [binary, "-nodefaults", "-S", "-display", "none", "-qmp", "stdio"] +
        args, input='{"execute":"qmp_capabilities"}\n'
        '{"execute":"human-monitor-command","arguments":'
        f'{{"command-line":"{command}"}}}}\n{{"execute":"quit"}}\n',
        capture_output=True, text=True, timeout=60)
    for line in p.stdout.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if isinstance(d.get("return"), str):
            return d["return"].splitlines()
    return [f"no answer: {p.stderr[-200:]}"]


IRQCHIP_DEVS = ("isa-i8259", "isa-pit", "ioapic", "kvm-i8259", "kvm-pit",
                "kvm-ioapic")


def qtree_blocks(lines):
    """The blocks of the interrupt controllers and the PIT, in order"""
    out, keep, indent = [], False, 0
    for line in lines:
        stripped = line.lstrip()
        depth = len(line) - len(stripped)
        if stripped.startswith("dev: "):
            keep = stripped[5:].split(",")[0] in IRQCHIP_DEVS
            indent = depth
        elif keep and depth <= indent:
            keep = False
        if keep:
            out.append(line)
    return out


def mtree_lines(lines):
    """The regions of these devices, once each (7.2 has one more address
    space with the memory map, cpu-smm-0, which this tree lacks)"""
    return sorted(set(mtree_regions(lines)))


def mtree_regions(lines):
    names = ("): pic", "): elcr", "): pit", "): ioapic", "): apic-msi",
             "): kvm-pic", "): kvm-elcr", "): kvm-pit", "): kvm-ioapic",
             "): kvm-apic-msi")
    return [x for x in lines if x.rstrip().endswith(names) or
            any(x.rstrip().endswith(n) for n in names)]


def board_cases():
    cases = [("pc-q35-7.2", ["-machine", "pc-q35-7.2", "-qtest", "null"]),
             ("pc-i440fx-7.2", ["-machine", "pc-i440fx-7.2", "-qtest",
                                "null"])]
    if os.access("/dev/kvm", os.R_OK | os.W_OK):
        cases.append(("pc-q35-4.0-kvm", ["-machine", "pc-q35-4.0",
                                         "-accel", "kvm"]))
        cases.append(("pc-q35-7.2-kvm-split",
                      ["-machine", "pc-q35-7.2,kernel-irqchip=split",
                       "-accel", "kvm"]))
    else:
        report("qtree/pc-q35-4.0-kvm # SKIP no /dev/kvm", True)
    for name, args in cases:
        for what, pick in (("info qtree", qtree_blocks),
                           ("info mtree -f", mtree_lines)):
            ours = pick(hmp_lines(BINARY, args, what))
            theirs = pick(hmp_lines(ORACLE, args, what))
            diff = [f"ours {a!r} qemu72 {b!r}" for a, b in zip(ours, theirs)
                    if a != b]
            if len(ours) != len(theirs):
                diff.append(f"{len(ours)} lines, QEMU 7.2 {len(theirs)}")
            report(f"{what.split()[1]}/{name}", not diff and bool(ours),
                   "; ".join(diff[:4]))


def main():
    if not qemu72_available():
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    machines = ("pc-q35-7.2", "pc-i440fx-7.2")
    cases = pic_cases() + ioapic_cases() + pit_cases()
    cases.append(("ioapic/version-0x11",
                  ["irq_intercept_in ioapic"] + iowin_r(1) +
                  rte_w(6, 0x32 | LEVEL) + [setin(6, 1), eoi(0x32)] +
                  rte_r(6)))
    for name, steps in cases:
        for machine in machines:
            args = ["-machine", machine, "-serial", "null"]
            if name == "ioapic/version-0x11":
                args += ["-global", "ioapic.version=0x11"]
            if not any(s.startswith("irq_intercept") for s in steps):
                steps = ["irq_intercept_in ioapic"] + steps
            diff = compare_with_qemu72(BINARY, args, steps, irqs=True)
            if diff is None:
                report(f"{name}/{machine} # SKIP no QEMU 7.2 with the qtest "
                       "accelerator", True)
                continue
            report(f"{name}/{machine}", not diff, "; ".join(diff[:4]))
    for seed in range(int(os.environ.get("IRQCHIP_SEEDS", "12"))):
        rng = random.Random(seed)
        machine = machines[seed % 2]
        steps = random_steps(rng, 150)
        diff = compare_with_qemu72(BINARY, ["-machine", machine, "-serial",
                                            "null"], steps, irqs=True)
        if diff is None:
            report(f"random/{seed} # SKIP no QEMU 7.2 with qtest", True)
            continue
        report(f"random/{seed}/{machine}", not diff, "; ".join(diff[:4]))
    board_cases()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
