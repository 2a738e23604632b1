#!/usr/bin/env python3
"""ICH9's TCO watchdog compared with QEMU 7.2 (docs/devices.md, "TCO
watchdog").

Both binaries run pc-q35-7.2 under qtest with the PM block placed at
0x600 as firmware places it (TCO at 0x660) and answer the same accesses:

  * every register at power-on, with 8-, 16- and 32-bit reads at every
    offset; writes of all-ones and patterns to each, read back;
  * TCO_LOCK (TCO1_CNT bit 12) keeping itself and SMI_EN's TCO_EN;
  * a machine reset (0xcf9) leaving the registers as they were;
  * the timer, its clock stepped: TCO_RLD counting down in 0.6 s ticks,
    reloads, TCO_TMR_HLT, the first timeout (TCO_TIMEOUT) and the second
    (SECOND_TO_STS, BOOT_STS) with the noreboot pin strap on (7.2's
    default: nothing happens), off (the machine resets: PMBASE reads its
    reset value again), off with GCS's NO_REBOOT set in the root complex
    register block, and off with -action watchdog=none.

Debian's QEMU 7.2 has no qtest accelerator, so no clock_step: the cases
that move the clock run against an upstream QEMU 7.2.0 build with it
($QEMU_72_QTEST, docs/testing.md) and skip where there is none; the
others against Debian's.  Skips (77) where QEMU 7.2 is missing.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import (ORACLE, compare_with_qemu72,  # noqa: E402
                           report_comparison)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")

TCO = 0x660
TICK = 600000000
PM = ["outl 0xcf8 0x8000f840", "outl 0xcfc 0x601",
      "outl 0xcf8 0x8000f844", "outb 0xcfc 0x80"]
RCBA = 0xfed1c000

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - tco/{name}" +
          ("" if ok else f" # {detail}"))


def reads():
    return [f"in{w} 0x{TCO + o:x}" for o in range(0x14) for w in "bwl"]


def register_steps():
    s = PM + reads()
    for off in range(0, 0x14, 2):
        for v in (0xffff, 0x5a5a, 0x0):
            s += [f"outw 0x{TCO + off:x} 0x{v:x}", f"inw 0x{TCO + off:x}",
                  f"inl 0x{TCO + (off & ~3):x}"]
    for off in range(0x14):
        s += [f"outb 0x{TCO + off:x} 0xa5", f"inb 0x{TCO + off:x}"]
    s += [f"outl 0x{TCO + 0x10:x} 0x12345678"] + reads()
    return s


def lock_steps():
    return PM + ["outl 0x630 0x2000", "inl 0x630",
                 f"outw 0x{TCO + 8:x} 0x1800", f"inw 0x{TCO + 8:x}",
                 f"outw 0x{TCO + 8:x} 0x0800", f"inw 0x{TCO + 8:x}",
                 "outl 0x630 0x0", "inl 0x630", "outl 0x630 0xffffffff",
                 "inl 0x630", "outb 0xcf9 0x6"] + PM + \
        ["inl 0x630", f"inw 0x{TCO + 8:x}", "outl 0x630 0x0", "inl 0x630"]


def reset_steps():
    return PM + [f"outw 0x{TCO + 0x12:x} 0x33", f"outb 0x{TCO + 0xc:x} 0x7",
                 f"outw 0x{TCO + 8:x} 0x0800", "outb 0xcf9 0x6"] + PM + \
        reads()


def timer_steps():
    s = PM + [f"outw 0x{TCO + 0x12:x} 0x5", f"outw 0x{TCO + 8:x} 0x0",
              f"inw 0x{TCO:x}"]
    for _ in range(4):
        s += [f"clock_step {TICK}", f"inw 0x{TCO:x}", f"inw 0x{TCO + 4:x}"]
    s += [f"outw 0x{TCO:x} 0x1", f"inw 0x{TCO:x}",
          f"clock_step {TICK * 2 + 1000}", f"inw 0x{TCO:x}",
          f"outw 0x{TCO + 8:x} 0x0800", f"inw 0x{TCO:x}",
          f"clock_step {TICK * 10}", f"inw 0x{TCO:x}",
          f"outw 0x{TCO + 0x12:x} 0x1", f"outw 0x{TCO + 8:x} 0x0",
          f"inw 0x{TCO:x}", f"clock_step {TICK * 3}", f"inw 0x{TCO:x}"]
    return s


def timeout_steps(gcs_clear=False):
    s = PM
    if gcs_clear:
        s += ["outl 0xcf8 0x8000f8f0", f"outl 0xcfc 0x{RCBA | 1:x}",
              f"readl 0x{RCBA + 0x3410:x}", f"writel 0x{RCBA + 0x3410:x} 0x0"]
    s += [f"outw 0x{TCO + 0x12:x} 0x2", f"outw 0x{TCO + 8:x} 0x0"]
    for _ in range(6):
        s += [f"clock_step {TICK}", f"inw 0x{TCO:x}", f"inw 0x{TCO + 4:x}",
              f"inw 0x{TCO + 6:x}", "outl 0xcf8 0x8000f840", "inl 0xcfc"]
    s += [f"outw 0x{TCO + 4:x} 0x8", f"outw 0x{TCO + 6:x} 0x6",
          f"inw 0x{TCO + 4:x}", f"inw 0x{TCO + 6:x}"]
    return s


def compare(name, args, steps):
    args = ["-machine", "pc-q35-7.2", "-qtest-log", "/dev/null"] + args
    diff = compare_with_qemu72(BINARY, args, steps)
    report_comparison(report, name, diff)


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    compare("registers", [], register_steps())
    compare("lock", [], lock_steps())
    compare("kept-over-reset", [], reset_steps())
    compare("timer", [], timer_steps())
    compare("timeouts/noreboot", [], timeout_steps())
    no_strap = ["-global", "ICH9-LPC.noreboot=false"]
    compare("timeouts/gcs-no-reboot", no_strap, timeout_steps())
    compare("timeouts/reboot", no_strap, timeout_steps(gcs_clear=True))
    compare("timeouts/action-none", no_strap + ["-action", "watchdog=none"],
            timeout_steps(gcs_clear=True))
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
