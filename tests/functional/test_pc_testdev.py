#!/usr/bin/env python3
"""-device pc-testdev compared with Debian's QEMU 7.2, driven over qtest.

Both binaries run the same command line (-qtest stdio, no guest and no
KVM needed) on an i440fx and a q35 machine, and each case's qtest
transcript, with the IRQ lines the IOAPIC reports, must be the same:
the scratch ports at 0xe0 and 0xe8 at every width and offset (accesses
that run past a region's end included), the flush-page port, the ISA IRQ
lines at 0x2000, and the scratch memory at 0xff000000 and its edges.
Its layout in info mtree, info qtree and its help are in qdev-vs-qemu72.
Where 7.2 aborts (a write to IRQ lines 16-23) this tree must live on.
Skips (77) without QEMU 7.2.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import qtest_session  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
MACHINES = ["pc-i440fx-7.2", "pc-q35-7.2"]


def widths(port, n=4):
    """Reads of every width at every offset of an n-byte port window"""
    return [f"in{w} {port + i:#x}" for i in range(n + 1) for w in "bwl"]


CASES = [
    ("ioport/reset-value", widths(0xe0) + widths(0xe8)),
    ("ioport/outl", ["outl 0xe0 0x87654321"] + widths(0xe0) + widths(0xe8)),
    ("ioport/outw-outb", ["outl 0xe0 0x87654321", "outw 0xe2 0x8866",
                          "outb 0xe1 0x43", "outw 0xe1 0xaabb"] +
     widths(0xe0)),
    ("ioport/unaligned-past-end", ["outl 0xe1 0x11223344", "inl 0xe0",
                                   "outl 0xe3 0x55667788", "inl 0xe0",
                                   "inl 0xe4"]),
    ("ioport-byte/writes", ["outl 0xe8 0x87654321", "outw 0xea 0x8866",
                            "outb 0xe9 0x43", "outw 0xe9 0x5566",
                            "outl 0xea 0x99887766"] + widths(0xe0) +
     widths(0xe8)),
    ("flush-page/ram", ["writel 0x1000 0xdeadbeef", "outl 0xe4 0x1000",
                        "readl 0x1000", "outl 0xe4 0x1234", "readl 0x1000",
                        "outl 0xe4 0xff000000", "outb 0xe4 0x10",
                        "outw 0xe6 0x1"] + widths(0xe4)),
    ("irq-line/bytes", ["irq_intercept_in ioapic", "outb 0x2004 1",
                        "outb 0x2004 0", "outb 0x2000 1", "outb 0x2000 0",
                        "outb 0x2008 7", "inb 0x2008", "inl 0x2008",
                        "outw 0x2008 0x0100", "outw 0x2008 0x0001",
                        "outl 0x200a 0x01010101", "outl 0x200c 0",
                        "outb 0x2001 1", "outb 0x200f 1", "outb 0x200f 0"]),
    ("iomem/widths", ["writeq 0xff000000 0x8877665544332211",
                      "writeq 0xff000008 0xffeeddccbbaa9900",
                      "readb 0xff000003", "readw 0xff000001",
                      "readw 0xff000003", "readl 0xff000001",
                      "readl 0xff000002", "readq 0xff000001",
                      "readq 0xff000004", "writew 0xff000001 0x1234",
                      "writel 0xff000003 0xdeadbeef", "readq 0xff000000",
                      "read 0xff000000 0x10", "write 0xff000100 4 0x01020304",
                      "b64read 0xff000100 8", "memset 0xff000200 3 0x5a",
                      "readq 0xff000200"]),
    ("iomem/edges", ["writeq 0xff00fffc 0x8877665544332211",
                     "readq 0xff00fff8", "readl 0xff010000",
                     "readq 0xfefffffc", "writel 0xfefffffe 0xa1b2c3d4",
                     "readl 0xff000000", "readq 0xff00ffff"]),
]


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    n = failures = 0
    for machine in MACHINES:
        args = ["-machine", machine, "-device", "pc-testdev"]
        for name, commands in CASES:
            ours = qtest_session(BINARY, args, commands, irqs=True)
            theirs = qtest_session(ORACLE, args, commands, irqs=True)
            diff = [f"{c}: ours {a!r} qemu72 {b!r}"
                    for c, a, b in zip(commands, ours, theirs) if a != b]
            ok = ours == theirs and len(ours) == len(commands)
            n += 1
            failures += not ok
            print(f"{'ok' if ok else 'not ok'} {n} - pc-testdev/{machine}/"
                  f"{name}" + ("" if ok else f" # {diff[:3] or ours[-1:]}"))
    # 7.2 aborts on a write to an IRQ line beyond 15; this tree ignores it
    commands = ["irq_intercept_in ioapic", "outb 0x2010 1",
                "outl 0x2014 0x01010101", "outw 0x200f 0x0101", "inb 0x2010"]
    ours = qtest_session(BINARY, ["-machine", MACHINES[0], "-device",
                                  "pc-testdev"], commands, irqs=True)
    ok = ours == ["OK", "OK", "OK", "IRQ raise 15 | OK", "OK 0x0000"]
    n += 1
    failures += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - pc-testdev/irq-line/"
          f"beyond-15-ignored" + ("" if ok else f" # {ours}"))
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
