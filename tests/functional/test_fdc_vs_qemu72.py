#!/usr/bin/env python3
"""The floppy disk controller compared with Debian's QEMU 7.2 (docs/
devices.md, "The floppy disk controller").

Both binaries run the same machine under qtest with IRQs intercepted and
answer the same accesses, each answer with the IRQ 6 changes before it:

  * every port 0x3f0-0x3f7 read at power-on, in each width;
  * a driver's probe: DOR reset, the four SENSE INTERRUPT STATUS, VERSION,
    PART ID, DUMPREG, CONFIGURE, LOCK/UNLOCK, PERPENDICULAR MODE, SPECIFY
    (DMA on and off), SENSE DRIVE STATUS, RECALIBRATE, SEEK and the
    relative seeks, SAVE/RESTORE, DRIVE SPECIFICATION, FORMAT TRACK,
    READ/WRITE/VERIFY/SCAN/READ TRACK/READ DELETED on the empty drives,
    READ ID (answered after 20 ms of virtual time: clock_step), DSR
    software reset and power-down, CCR, TDR, reads and writes out of turn;
  * seeded random sequences: random command bytes with their parameter
    counts, random register accesses of every width, reads of results;
  * the CMOS floppy bytes (0x10, 0x14);

on pc-i440fx-7.2 (its own isa-fdc), pc-i440fx-2.5 (fallback 144 from
hw_compat_2_5), and pc-q35-7.2 with -device isa-fdc (and with dma=-1,
irq=5).  `info qtree`'s isa-fdc block and `info mtree -f`'s fdc lines are
compared too, and -device isa-fdc,fallback=auto must fail as in 7.2.

Skips (77) where QEMU 7.2 is missing.
"""

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import (QTestMachine, qemu72_available,  # noqa: E402
                           qtest_session)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
# clock_step needs 7.2 with the qtest accelerator (an upstream build)
ORACLE_QTEST = os.environ.get(
    "QEMU_72_QTEST",
    "/var/cache/qemu-kvm-pv/upstream-qtest/ref-build/qemu-system-x86_64")

MACHINES = [
    ("pc-i440fx-7.2", []),
    ("pc-i440fx-2.5", []),
    ("pc-q35-7.2", ["-device", "isa-fdc"]),
    ("pc-q35-7.2", ["-device", "isa-fdc,dma=1,irq=5"]),
    ("pc-i440fx-7.2", ["-global", "isa-fdc.fdtypeA=144",
                       "-global", "isa-fdc.fdtypeB=none"]),
]
# command byte -> parameter count (7.2's table, for the random sequences)
PARAMS = {0x06: 8, 0x46: 8, 0xc6: 8, 0x05: 8, 0x45: 8, 0x0f: 2, 0x08: 0,
          0x07: 1, 0x0d: 5, 0x4d: 5, 0x02: 8, 0x4e: 17, 0x2e: 0, 0x0c: 8,
          0x11: 8, 0x16: 8, 0x19: 8, 0x1d: 8, 0x09: 8, 0x0a: 1, 0x4a: 1,
          0x03: 2, 0x04: 1, 0x12: 1, 0x13: 3, 0x17: 2, 0x33: 1, 0x8e: 5,
          0x8f: 2, 0xcd: 10, 0xcf: 2, 0x14: 0, 0x94: 0, 0x0e: 0, 0x10: 0,
          0x18: 0, 0x85: 8, 0x00: 0, 0x01: 0, 0xff: 0, 0x3f: 0}

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - fdc/{name}" +
          ("" if ok else f" # {detail}"))


def cmd(*data):
    return [f"outb 0x3f5 {b:#x}" for b in data]


def results_read(n):
    out = []
    for _ in range(n):
        out += ["inb 0x3f4", "inb 0x3f5"]
    return out + ["inb 0x3f4"]


def power_on_steps():
    s = []
    for port in range(0x3ef, 0x3f9):
        s += [f"inb {port:#x}", f"inw {port:#x}", f"inl {port:#x}"]
    return s


def probe_steps():
    s = ["inb 0x3f4", "outb 0x3f2 0x00", "inb 0x3f4", "outb 0x3f5 0x10",
         "inb 0x3f4", "outb 0x3f2 0x0c", "inb 0x3f4"]
    for _ in range(5):
        s += cmd(0x08) + results_read(2)
    s += cmd(0x10) + results_read(1)            # VERSION
    s += cmd(0x18) + results_read(1)            # PART ID
    s += cmd(0x0e) + results_read(10)           # DUMPREG
    s += cmd(0x13, 0x00, 0x57, 0x05) + results_read(1)  # CONFIGURE
    s += cmd(0x94) + results_read(1) + cmd(0x14) + results_read(1)
    s += cmd(0x12, 0x83) + cmd(0x0e) + results_read(10)
    s += cmd(0x03, 0xaf, 0x03) + cmd(0x0e) + results_read(10)  # SPECIFY
    s += cmd(0x03, 0xaf, 0x02) + cmd(0x0e) + results_read(10)
    s += cmd(0x04, 0x05) + results_read(1) + cmd(0x04, 0x00) + \
        results_read(1)
    s += cmd(0x07, 0x00) + ["inb 0x3f4"] + cmd(0x08) + results_read(2)
    s += cmd(0x0f, 0x00, 0x05) + cmd(0x08) + results_read(2)
    s += cmd(0x0f, 0x01, 0x00) + cmd(0x08) + results_read(2)
    s += cmd(0xcf, 0x00, 0x03) + cmd(0x08) + results_read(2)
    s += cmd(0x8f, 0x00, 0x03) + cmd(0x08) + results_read(2)
    s += cmd(0x2e) + results_read(15)           # SAVE
    s += cmd(0x4e, *range(1, 18)) + cmd(0x0e) + results_read(10)
    s += cmd(0x0f, 0x00, 0x00) + cmd(0x08) + results_read(2)
    s += cmd(0x8e, 0x01, 0x02, 0x03, 0x04, 0xc0) + results_read(4)
    s += cmd(0x8e, 0x01, 0x02, 0x03, 0x04, 0x80) + ["inb 0x3f4"]
    s += cmd(0x4d, 0x00, 0x02, 0x12, 0x54, 0xf6) + results_read(7)
    for op in (0x06, 0xe6, 0x45, 0x16, 0x11, 0x19, 0x1d, 0x02, 0x0c, 0x09):
        s += cmd(op, 0x00, 0x00, 0x00, 0x01, 0x02, 0x12, 0x1b, 0xff) + \
            ["inb 0x3f4"] + results_read(7)
    s += cmd(0x46, 0x01, 0x00, 0x00, 0x00, 0x02, 0x12, 0x1b, 0xff) + \
        results_read(7)
    s += cmd(0xcd, *range(10)) + results_read(1)
    s += cmd(0x0a, 0x00) + ["inb 0x3f4", "clock_step 10000000",
                            "inb 0x3f4", "clock_step 20000000"] + \
        results_read(7)
    s += ["outb 0x3f7 0x00"] + cmd(0x4a, 0x04) + \
        ["clock_step 30000000"] + results_read(7)
    s += ["outb 0x3f3 0xff", "inb 0x3f3", "outb 0x3f2 0x1c", "inb 0x3f1",
          "inb 0x3f2", "inb 0x3f7", "outb 0x3f2 0x2d", "inb 0x3f1",
          "inb 0x3f2"]
    s += cmd(0x0e) + results_read(10)
    s += ["outb 0x3f4 0x80", "inb 0x3f4"] + cmd(0x08) + results_read(2)
    s += ["outb 0x3f4 0x42", "inb 0x3f4", "inb 0x3f4"]
    s += ["outb 0x3f2 0x08", "outb 0x3f5 0x10", "outb 0x3f4 0x80",
          "outb 0x3f7 0x01", "outb 0x3f3 0x04", "inb 0x3f4", "inb 0x3f2",
          "outb 0x3f2 0x0c"] + results_read(3)
    s += ["inb 0x3f5", "outb 0x3f5 0x08", "outb 0x3f5 0x08", "inw 0x3f4",
          "inw 0x3f5", "outw 0x3f4 0x1008", "inw 0x3f4", "inl 0x3f4",
          "outl 0x3f4 0x10", "inw 0x3f3", "outw 0x3f2 0x0c1c",
          "inb 0x3f2", "inb 0x3f3", "inw 0x3f7", "outw 0x3f7 0xff02"]
    s += results_read(4)
    # a DMA software request on channel 2 is released by a command's end
    s += ["outb 0x09 0x06", "inb 0x08"] + cmd(0x06, 0, 0, 0, 1, 2, 18, 27,
                                               255) + ["inb 0x08"]
    return s


def random_steps(seed, n=1500):
    rng = random.Random(seed)
    s = []
    ops = list(PARAMS)
    while len(s) < n:
        r = rng.random()
        if r < 0.45:
            op = rng.choice(ops)
            s += cmd(op, *[rng.choice([0, 1, 2, 4, 0x12, 0x80, 0xc0,
                                       rng.randrange(256)])
                           for _ in range(PARAMS[op])])
            s += results_read(rng.randrange(0, 16))
        elif r < 0.55:
            s.append(f"clock_step {rng.choice([1000000, 25000000])}")
        else:
            port = rng.randrange(0x3f0, 0x3f8)
            w = rng.choice("bbbbwl")
            if rng.random() < 0.5:
                s.append(f"in{w} {port:#x}")
            else:
                v = rng.choice([0x00, 0x04, 0x08, 0x0c, 0x1c, 0x80, 0x42,
                                rng.randrange(256)])
                s.append(f"out{w} {port:#x} {v:#x}")
    return s


def cmos_steps():
    return ["outb 0x70 0x10", "inb 0x71", "outb 0x70 0x14", "inb 0x71"]


def only_fdc_irqs(answers, args):
    """The answers with only the controller's IRQ lines (7.2's PIT, which
    qtest machines have there, raises IRQ 0 once while the VM runs)."""
    irq = "5" if any("irq=5" in a for a in args) else "6"
    keep = (f"IRQ raise {irq}", f"IRQ lower {irq}")
    return [" | ".join(p for p in a.split(" | ")
                       if not p.startswith("IRQ") or p in keep)
            for a in answers]


def compare(name, args, steps, running=False):
    # the PIT in one-shot mode, silent (its IRQ 0 would interleave)
    full = ["outb 0x43 0x30", "outb 0x40 0x0", "outb 0x40 0x0",
            "irq_intercept_in ioapic"] + steps
    # no log on stderr: a long session would fill the pipe and block
    args = args + ["-qtest-log", "/dev/null"]
    oracle, oracle_args = ORACLE, []
    if any(c.startswith("clock_step") for c in steps):
        if not os.access(ORACLE_QTEST, os.X_OK):
            report(f"{name} # SKIP no QEMU 7.2 with the qtest accelerator "
                   "(QEMU_72_QTEST)", True)
            return
        oracle, oracle_args = ORACLE_QTEST, ["-accel", "qtest"]
    a = only_fdc_irqs(qtest_session(BINARY, args, full, irqs=True,
                                    running=running), args)
    b = only_fdc_irqs(qtest_session(oracle, args + oracle_args, full,
                                    irqs=True, running=running), args)
    bad = [f"#{i} {c}: ours {x!r} qemu72 {y!r}"
           for i, (c, x, y) in enumerate(zip(full, a, b)) if x != y]
    report(name, a == b and len(a) == len(full),
           "; ".join(bad[:3]) or f"{len(a)} vs {len(b)} answers")


def fdc_view(binary, args):
    lines, keep = [], False
    with QTestMachine(binary, args + ["-display", "none",
                                      "-nodefaults"]) as m:
        for line in m.hmp("info qtree").splitlines():
            if "dev: " in line:
                keep = "isa-fdc" in line
            if keep:
                lines.append(line.strip())
        lines += [l.strip() for l in m.hmp("info mtree -f").splitlines()
                  if l.strip().endswith(": fdc")]
    return lines


def refusal(binary, device):
    p = subprocess.run([binary, "-machine", "pc-q35-7.2", "-nodefaults",
                        "-display", "none", "-qtest", "null", "-S",
                        "-device", device], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=30)
    return p.returncode, [l for l in p.stderr.splitlines()
                          if "qemu-system" in l]


def main():
    if not qemu72_available(ORACLE):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    for i, (machine, extra) in enumerate(MACHINES):
        args = ["-machine", machine] + extra
        name = machine + ("," + ",".join(extra[1::2]) if extra else "")
        compare(f"{name}/power-on", args, power_on_steps())
        compare(f"{name}/probe", args, probe_steps(), running=True)
        compare(f"{name}/cmos", args, cmos_steps())
        for seed in range(3 if i == 0 else 1):
            compare(f"{name}/random-{seed}", args,
                    random_steps(seed * 7 + i), running=True)
        a, b = fdc_view(BINARY, args), fdc_view(ORACLE, args)
        report(f"{name}/qtree-mtree", a == b and len(a) > 3,
               f"ours {a} qemu72 {b}")
    for device in ("isa-fdc,fallback=auto", "isa-fdc,fdtypeA=bogus"):
        a, b = refusal(BINARY, device), refusal(ORACLE, device)
        report(f"device/{device}", a == b and a[0] == 1,
               f"ours {a} qemu72 {b}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
