#!/usr/bin/env python3
"""The HPET compared with Debian's QEMU 7.2 (docs/devices.md, "HPET").

Both binaries run the same machine under qtest (running where the clock
moves: the VM clock's timers only run while the VM does, -S would stop
them in both; else -S) with the
RTC on the VM clock and the IOAPIC's inputs intercepted, so every interrupt the HPET raises or lowers is reported as
"IRQ raise/lower N" before the answer that follows it, and qtest's clock
(the VM clock the HPET counts on) moves only by clock_step.  The same
accesses must get the same answers and the same interrupts, in order:

  * every register of the block at power-on (and with -global
    hpet.timers=5 / 40, hpet.msi=on, and the intcap compat entry of
    pc-i440fx-1.7);
  * the main counter: enabled, stepped, disabled, written, re-enabled;
  * one-shot and periodic timers (SETVAL, the period), edge and level
    triggered, the status register's write-1-to-clear, routes;
  * 32-bit timers and the counter's wrap;
  * LegacyReplacementRoute: timers 0 and 1 on IRQ 0 and 8, the RTC's own
    periodic interrupt passed on outside that mode only;
  * FSB delivery (hpet.msi=on): the message lands in guest memory;
  * long seeded random sequences of register writes, reads and clock
    steps;

on pc-q35-7.2 and pc-i440fx-7.2; and hpet=off leaves nothing at
0xfed00000.

Debian's QEMU 7.2 has no qtest accelerator, so no clock_step: the cases
that move the clock run against an upstream QEMU 7.2.0 build with it
($QEMU_72_QTEST, by default ref-build/ in the upstream-qtest scratch
folder, docs/testing.md) and are skipped where there is none; the others
run against Debian's.  Skips (77) where QEMU 7.2 is missing.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import (ORACLE, compare_with_qemu72,  # noqa: E402
                           report_comparison)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")

BASE = 0xfed00000
CFG, STATUS, COUNTER = 0x10, 0x20, 0xf0
ENABLE, LEGACY = 1, 2
TN_LEVEL, TN_ENABLE, TN_PERIODIC, TN_SETVAL, TN_32BIT = 2, 4, 8, 0x40, 0x100
TN_FSB = 0x4000

PIT_QUIET = ["outb 0x43 0x30", "outb 0x40 0x0", "outb 0x40 0x0"]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - hpet/{name}" +
          ("" if ok else f" # {detail}"))


def w(off, v):
    return f"writel 0x{BASE + off:x} 0x{v & 0xffffffff:x}"


def r(off):
    return f"readl 0x{BASE + off:x}"


def tn(n, reg=0):
    return 0x100 + 0x20 * n + reg


def all_registers():
    return [r(off) for off in range(0, 0x400, 4)]


def counter_steps():
    s = [r(COUNTER), w(CFG, ENABLE), "clock_step 1000", r(COUNTER),
         r(COUNTER + 4), "clock_step 12345678", r(COUNTER), r(CFG),
         w(CFG, 0), r(COUNTER), "clock_step 1000", r(COUNTER),
         w(COUNTER, 0xfffffff0), w(COUNTER + 4, 0x12), r(COUNTER),
         r(COUNTER + 4), w(CFG, ENABLE), "clock_step 500", r(COUNTER),
         r(COUNTER + 4), w(COUNTER, 0), r(COUNTER), "clock_step 10",
         r(COUNTER), w(CFG, 0)]
    # sizes other than 32 bits are not accesses of the block
    s += ["readb 0x%x" % BASE, "readw 0x%x" % BASE, "readq 0x%x" % BASE,
          "writeq 0x%x 0x3" % (BASE + CFG), r(CFG)]
    return s


def oneshot_steps(route):
    s = [w(CFG, 0), w(COUNTER, 0), w(COUNTER + 4, 0),
         w(tn(0), (route << 9) | TN_ENABLE), w(tn(0, 8), 5000),
         w(tn(0, 12), 0), w(CFG, ENABLE), "clock_step 40000", r(STATUS),
         "clock_step 20000", r(tn(0, 8)), r(COUNTER)]
    # level-triggered: status set until written 1
    s += [w(tn(0), (route << 9) | TN_ENABLE | TN_LEVEL),
          w(tn(0, 8), 20000), "clock_step 200000", r(STATUS),
          w(STATUS, 0), r(STATUS), w(STATUS, 1), r(STATUS),
          w(tn(0), 0), r(STATUS), w(CFG, 0)]
    return s


def periodic_steps(n, route):
    s = [w(CFG, 0), w(COUNTER, 0), w(COUNTER + 4, 0),
         w(tn(n), (route << 9) | TN_ENABLE | TN_PERIODIC | TN_SETVAL),
         w(tn(n, 8), 1000), w(tn(n, 8), 1000), r(tn(n)), r(tn(n, 8)),
         w(CFG, ENABLE)]
    for _ in range(5):
        s += ["clock_step 7000", r(tn(n, 8)), r(COUNTER)]
    # a new period without SETVAL; then disabled and enabled again
    s += [w(tn(n, 8), 3000), "clock_step 70000", r(tn(n, 8)),
          w(tn(n), (route << 9) | TN_PERIODIC), "clock_step 70000",
          w(tn(n), (route << 9) | TN_PERIODIC | TN_ENABLE | TN_LEVEL),
          "clock_step 70000", r(STATUS), w(STATUS, 0xffffffff), r(STATUS),
          w(tn(n), 0), w(CFG, 0)]
    return s


def wrap_steps():
    s = [w(CFG, 0), w(COUNTER, 0xffff0000), w(COUNTER + 4, 0),
         w(tn(1), (9 << 9) | TN_ENABLE | TN_32BIT), w(tn(1, 8), 0x100),
         r(tn(1, 8)), r(tn(1, 12)), w(CFG, ENABLE)]
    for _ in range(6):
        s += ["clock_step 300000", r(COUNTER), r(COUNTER + 4), r(STATUS)]
    s += [w(tn(2), (10 << 9) | TN_ENABLE | TN_PERIODIC | TN_SETVAL |
                TN_32BIT),
          w(tn(2, 8), 0xfffffff0), w(tn(2, 8), 0x80000010),
          "clock_step 999999", r(tn(2, 8)), r(tn(2, 12)), w(tn(2), 0),
          w(tn(1), 0), w(CFG, 0)]
    return s


def legacy_steps():
    # the RTC's periodic interrupt (register A rate 6: 1024 Hz, PIE)
    s = ["outb 0x70 0xa", "outb 0x71 0x26", "outb 0x70 0xb",
         "outb 0x71 0x42", "clock_step 2000000", "outb 0x70 0xc",
         "inb 0x71", "clock_step 2000000", "outb 0x70 0xc", "inb 0x71"]
    s += [w(COUNTER, 0), w(tn(0), TN_ENABLE | TN_PERIODIC | TN_SETVAL),
          w(tn(0, 8), 5000), w(tn(0, 8), 5000),
          w(tn(1), TN_ENABLE | TN_LEVEL), w(tn(1, 8), 8000),
          w(CFG, ENABLE | LEGACY), "clock_step 30000", r(STATUS),
          "clock_step 2000000", "outb 0x70 0xc", "inb 0x71", r(STATUS),
          w(STATUS, 2), "clock_step 2000000", "outb 0x70 0xc", "inb 0x71",
          w(CFG, ENABLE), "clock_step 2000000", "outb 0x70 0xc",
          "inb 0x71", w(CFG, 0), "outb 0x70 0xb", "outb 0x71 0x02"]
    return s


def fsb_steps():
    return [r(tn(0)), r(tn(0, 4)), w(tn(0, 0x10), 0x1234abcd),
            w(tn(0, 0x14), 0x00100000), r(tn(0, 0x10)), r(tn(0, 0x14)),
            w(COUNTER, 0), w(tn(0), TN_ENABLE | TN_FSB),
            w(tn(0, 8), 100), w(CFG, ENABLE), "clock_step 5000",
            "readl 0x100000", r(STATUS), w(tn(0), 0), w(CFG, 0)]


def random_steps(seed, n):
    """Writes that keep QEMU 7.2 out of its endless (a 32-bit periodic
    timer with a period of 2^32) and very long (a period of a few ticks
    far behind the counter) catch-up loops: comparator high halves 0,
    counters and comparators near each other"""
    rnd = random.Random(seed)
    regs = [CFG, STATUS, COUNTER, COUNTER + 4, 0, 4, 0x14]
    for t in range(4):
        regs += [tn(t), tn(t, 4), tn(t, 8), tn(t, 12)]
    s = []
    for _ in range(n):
        x = rnd.random()
        if x < 0.15:
            s.append(f"clock_step {rnd.choice([1, 10, 999, 5000, 123457])}")
        elif x < 0.55:
            s.append(r(rnd.choice(regs)))
        else:
            off = rnd.choice(regs)
            if off in (tn(0), tn(1), tn(2), tn(3)):
                v = rnd.getrandbits(16) & ~TN_FSB
            elif off in [COUNTER + 4] + [tn(t, 12) for t in range(4)]:
                v = 0
            elif off == CFG:
                v = rnd.getrandbits(2)
            else:
                v = rnd.choice([rnd.getrandbits(12), rnd.getrandbits(16),
                                1000 + rnd.getrandbits(8)])
            s.append(w(off, v))
    return s + all_registers()


def compare(name, args, steps):
    args = args + ["-rtc", "clock=vm", "-qtest-log", "/dev/null"]
    # QEMU 7.2 has a PIT under qtest (this tree: only KVM's), whose OUT
    # is IRQ 0 outside legacy mode: channel 0 in mode 0 holds it low for
    # 55 ms, longer than any case here runs
    steps = PIT_QUIET + ["irq_intercept_in ioapic"] + steps
    diff = compare_with_qemu72(BINARY, args, steps, irqs=True)
    report_comparison(report, name, diff)


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    for machine, route in (("pc-q35-7.2", 16), ("pc-i440fx-7.2", 2)):
        args = ["-machine", machine]
        compare(f"{machine}/registers", args, all_registers())
        compare(f"{machine}/counter", args, counter_steps())
        compare(f"{machine}/one-shot", args, oneshot_steps(route))
        compare(f"{machine}/one-shot-route-23", args, oneshot_steps(23))
        compare(f"{machine}/periodic", args, periodic_steps(0, route))
        compare(f"{machine}/periodic-timer2", args, periodic_steps(2, 20))
        compare(f"{machine}/wrap-32bit", args, wrap_steps())
        compare(f"{machine}/legacy", args, legacy_steps())
        compare(f"{machine}/msi", args + ["-global", "hpet.msi=on"],
                fsb_steps())
    for extra in (["-global", "hpet.timers=5"],
                  ["-global", "hpet.timers=40"],
                  ["-global", "hpet.timers=1"]):
        compare(f"pc-q35-7.2/{extra[1]}", ["-machine", "pc-q35-7.2"] + extra,
                all_registers() + periodic_steps(4, 17))
    compare("pc-i440fx-1.7/registers", ["-machine", "pc-i440fx-1.7"],
            all_registers())
    compare("pc-q35-7.2,hpet=off", ["-machine", "pc-q35-7.2,hpet=off"],
            all_registers()[:16])
    for seed in range(4):
        machine = ("pc-q35-7.2", "pc-i440fx-7.2")[seed % 2]
        compare(f"{machine}/random/{seed}", ["-machine", machine],
                random_steps(seed, 1200))
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
