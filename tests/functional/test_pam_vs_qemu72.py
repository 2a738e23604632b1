#!/usr/bin/env python3
"""The host bridges' memory steering compared with Debian's QEMU 7.2.

Both binaries run the same command line under the qtest accelerator (no
guest, no KVM), driven over a qtest socket and QMP at once, and every
answer of a scenario must be the same: config-space reads of the PAM,
SMRAM, ESMRAMC and F_SMBASE registers, guest-physical reads and writes
through the segments they steer, and, at the points a scenario asks, the
steering regions of info mtree ("memory" address space: pam-*, smram-*,
tseg-/smbase-blackhole, pc.rom, isa-bios, pc.bios) and the ranges of
info mtree -f that answer in 0-1 MiB or belong to those regions.

  * i440FX (0x59-0x5f) and Q35 MCH (0x90-0x96) PAM: reset values, each
    segment through disabled / read-only / write-only / read-write with
    writes in each state, byte, word and dword config writes, a machine
    reset; pc-i440fx-1.7 for its 128 KiB default firmware;
  * i440FX SMRAM (0x72): a plain byte, D_OPEN;
  * Q35 SMRAM (0x9d), ESMRAMC (0x9e): write masks, D_LCK, the TSEG sizes
    (1, 2, 8 MiB, extended-tseg-mbytes from -global and from pc-q35-2.9's
    compat entry), H_SMRAME, system_reset;
  * Q35 F_SMBASE (0x9c): the query/lock negotiation, its black hole at
    0x30000, reset; pc-q35-4.2, where smbase-smram is off;
  * extended-tseg-mbytes: a TSEG larger than RAM, and values past 0xfff,
    which stop start-up (status and message compared).

Skips (77) where QEMU 7.2 is missing.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import QTestMachine  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

STEERING = {"pam-pci", "pam-rom", "pam-ram", "smram-region",
            "smram-open-high", "tseg-blackhole", "smbase-blackhole",
            "pc.rom", "isa-bios", "pc.bios"}

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - pam/{name}" +
          ("" if ok else f" # {detail}"))


def cfg_addr(off):
    return 0x80000000 | (off & 0xfc)


def run_step(s, step):
    """One step of a scenario: its answers, as strings"""
    op, *args = step.split()
    if op in ("cfgb", "cfgw", "cfgl"):
        off, val = int(args[0], 0), int(args[1], 0)
        width = {"cfgb": "b", "cfgw": "w", "cfgl": "l"}[op]
        s.qtest(f"outl 0xcf8 {cfg_addr(off):#x}")
        return [s.qtest(f"out{width} {0xcfc + (off & 3):#x} {val:#x}")]
    if op == "rcfg":
        off, n = int(args[0], 0), int(args[1], 0) if len(args) > 1 else 1
        out = []
        for o in range(off, off + n):
            s.qtest(f"outl 0xcf8 {cfg_addr(o):#x}")
            out.append(s.qtest(f"inb {0xcfc + (o & 3):#x}"))
        return out
    if op == "qmp":
        r = s.machine.cmd_raw(args[0])
        return ["error" if "error" in r else "ok"]
    if op == "mtree":
        return steering_tree(s.hmp("info mtree")) + \
            steering_flat(s.hmp("info mtree -f"))
    return [s.qtest(step)]


def steering_tree(text):
    """The steering regions' lines of the "memory" address space"""
    out, inside = [], False
    for line in text.replace("\r", "").split("\n"):
        if line.startswith("address-space: "):
            inside = line == "address-space: memory"
            continue
        if not line.strip():
            inside = False
        m = re.search(r"\): (?:alias )?([^ @]+)", line)
        if inside and m and m.group(1) in STEERING:
            out.append(line.strip())
    return sorted(out)


def steering_flat(text):
    """Ranges of the "memory" view below 1 MiB or of steering regions"""
    for block in text.replace("\r", "").split("\n\n"):
        if ' AS "memory"' not in block:
            continue
        out = []
        for line in block.split("\n"):
            m = re.match(r"\s+([0-9a-f]{16})-[0-9a-f]{16} \(prio -?\d+, "
                         r"\w+\): ([^ ]+)", line)
            if m and (int(m.group(1), 16) < 0x100000 or
                      m.group(2) in STEERING):
                out.append(line.strip().replace(" KVM", ""))
        return out
    return ["no memory view"]


def answers(binary, args, steps):
    with QTestMachine(binary, args) as s:
        out = []
        for step in steps:
            for a in run_step(s, step):
                out.append(f"{step}: {a}")
        return out


# Scenarios ---------------------------------------------------------------------

I440FX_PAM, MCH_PAM = 0x59, 0x90
# (start, PAM nibble): nibble 1 is PAM0's high one
SEGMENTS = [(0xf0000, 1)] + [(0xc0000 + 0x4000 * i, 2 + i)
                             for i in range(12)]


def pam_byte_steps(base, nibble, attr, current):
    """cfgb steps setting one nibble, given the register values so far"""
    reg = base + nibble // 2
    shift = 4 * (nibble & 1)
    current[reg] = (current.get(reg, 0) & ~(0xf << shift)) | (attr << shift)
    return [f"cfgb {reg:#x} {current[reg]:#x}"]


def segment_sweep(base, size_probe=0x10):
    """Every segment through every attribute, written in each"""
    steps, regs = [], {}
    for start, nibble in SEGMENTS:
        a = start + size_probe
        for attr, val in ((3, 0x11), (1, 0x22), (3, None), (2, 0x33),
                          (3, None), (0, 0x44), (3, None), (0, None)):
            steps += pam_byte_steps(base, nibble, attr, regs)
            steps.append(f"readb {a:#x}")
            if val is not None:
                steps += [f"writeb {a:#x} {val:#x}", f"readb {a:#x}"]
        steps.append(f"read {start:#x} 0x20")
    return steps


def wide_steps(base):
    """Word and dword config writes over the PAM block, then reset"""
    first = base & ~3
    return ["writeb 0xc4000 0x5a", "writeb 0xf8000 0x6b",
            f"cfgl {first:#x} 0x33333333", f"rcfg {base:#x} 7",
            "readb 0xc4000", "readb 0xf8000", "mtree",
            f"cfgw {base + 1:#x} 0x1111", f"rcfg {base:#x} 7", "mtree",
            "writeb 0xc4000 0x77", "readb 0xc4000",
            "qmp system_reset", f"rcfg {base:#x} 7", "readb 0xc4000",
            "readb 0xf8000", "mtree"]


RESET_READS = ["rcfg 0x59 7", "rcfg 0x72", "rcfg 0x90 7", "rcfg 0x9c 3",
               "readb 0xc0000", "readb 0xdffff", "readb 0xe0000",
               "readb 0xeffff", "read 0xffff0 0x10", "read 0xa0000 0x10",
               "mtree"]

I440FX_SMRAM = ["rcfg 0x72"] + \
    [f"cfgb 0x72 {v:#x}" for v in (0x00, 0xff, 0x40, 0x48, 0x10, 0x50)] + \
    ["rcfg 0x72", "mtree", "cfgb 0x72 0x0a", "rcfg 0x72", "mtree"]


def smram_steps():
    steps = ["rcfg 0x9d 2"]
    for v in (0x00, 0x48, 0x40, 0x08, 0x20, 0x60):
        steps += [f"cfgb 0x9d {v:#x}", "rcfg 0x9d 2", "mtree"]
    for v in (0x00, 0xff, 0x01, 0x87, 0x86, 0x40, 0x38, 0x81):
        steps += [f"cfgb 0x9e {v:#x}", "rcfg 0x9d 2"]
    steps += ["mtree", "cfgb 0x9d 0x48", "rcfg 0x9d 2", "mtree",
              "cfgb 0x9d 0x78", "rcfg 0x9d 2", "mtree"]
    for v in (0x00, 0x40, 0x68, 0x7f):
        steps += [f"cfgb 0x9d {v:#x}", "rcfg 0x9d 2"]
    steps += ["cfgb 0x9e 0x00", "rcfg 0x9d 2",
              "qmp system_reset", "rcfg 0x9d 2", "mtree",
              "cfgb 0x9d 0x40", "rcfg 0x9d 2"]
    return steps


def tseg_steps(sz_bits, mem_mb=128):
    """TSEG of one size: T_EN with and without G_SMRAME, then locked"""
    top = mem_mb << 20
    probe = []
    for mb in (1, 2, 8, 16):
        probe += [f"readb {top - (mb << 20) - 1:#x}",
                  f"readb {top - (mb << 20):#x}"]
    steps = [f"cfgb 0x9e {0x38 | sz_bits << 1 | 1:#x}", "rcfg 0x9e"] + \
        probe + ["mtree", f"writeb {top - 1:#x} 0x01",
                 f"readb {top - 1:#x}"]
    steps += ["cfgb 0x9d 0x2a", "cfgb 0x9d 0x3a", "rcfg 0x9d 2"] + probe
    steps += [f"cfgb 0x9e {0x38 | sz_bits << 1:#x}", "rcfg 0x9e"] + probe
    steps += ["qmp system_reset", "rcfg 0x9d 2"] + probe + ["mtree"]
    return steps


def smbase_steps():
    steps = ["rcfg 0x9c", "writeb 0x30000 0x32", "readb 0x30000"]
    for v in (0x01, 0x02, 0x03, 0x80, 0xfe):
        steps += [f"cfgb 0x9c {v:#x}", "rcfg 0x9c"]
    steps += ["cfgb 0x9c 0xff", "rcfg 0x9c", "readb 0x30000", "mtree"]
    for v in (0x00, 0x01, 0xfd, 0x80):
        steps += [f"cfgb 0x9c {v:#x}", "rcfg 0x9c"]
    steps += ["cfgb 0x9c 0x02", "rcfg 0x9c", "readb 0x30000",
              "writeb 0x30000 0x55", "readb 0x30000", "readb 0x2ffff",
              "readb 0x50000", "read 0x4fff0 0x20", "mtree"]
    for v in (0x00, 0xff, 0x01):
        steps += [f"cfgb 0x9c {v:#x}", "rcfg 0x9c"]
    steps += ["qmp system_reset", "rcfg 0x9c", "readb 0x30000", "mtree",
              "cfgb 0x9c 0xff", "cfgb 0x9c 0x03", "rcfg 0x9c",
              "readb 0x30000"]
    return steps


SCENARIOS = [
    ("i440fx/reset", "pc-i440fx-7.2", [], RESET_READS),
    ("i440fx/segments", "pc-i440fx-7.2", [],
     segment_sweep(I440FX_PAM) + ["mtree"]),
    ("i440fx/wide-config", "pc-i440fx-7.2", [], wide_steps(I440FX_PAM)),
    ("i440fx/smram", "pc-i440fx-7.2", [], I440FX_SMRAM),
    ("i440fx-1.7/reset", "pc-i440fx-1.7", [], RESET_READS),
    ("i440fx-1.7/segments", "pc-i440fx-1.7", [],
     segment_sweep(I440FX_PAM, 0x3ff0)),
    ("q35/reset", "pc-q35-7.2", [], RESET_READS),
    ("q35/segments", "pc-q35-7.2", [], segment_sweep(MCH_PAM) + ["mtree"]),
    ("q35/wide-config", "pc-q35-7.2", [], wide_steps(MCH_PAM)),
    ("q35/smram", "pc-q35-7.2", [], smram_steps()),
    ("q35/tseg-1mb", "pc-q35-7.2", ["-m", "128"], tseg_steps(0)),
    ("q35/tseg-2mb", "pc-q35-7.2", ["-m", "128"], tseg_steps(1)),
    ("q35/tseg-8mb", "pc-q35-7.2", ["-m", "128"], tseg_steps(2)),
    ("q35/tseg-ext-default", "pc-q35-7.2", ["-m", "128"], tseg_steps(3)),
    ("q35/tseg-ext-4mb", "pc-q35-7.2",
     ["-m", "128", "-global", "mch.extended-tseg-mbytes=4"], tseg_steps(3)),
    ("q35-2.9/tseg-ext", "pc-q35-2.9", ["-m", "128"], tseg_steps(3)),
    ("q35-2.10/tseg-ext", "pc-q35-2.10", ["-m", "128"], tseg_steps(3)),
    ("q35/tseg-3g", "pc-q35-7.2", ["-m", "3072"], tseg_steps(2, 2048)),
    # TSEG larger than the RAM below 4 GiB: the black hole wraps
    ("q35/tseg-beyond-ram", "pc-q35-7.2",
     ["-m", "16", "-global", "mch.extended-tseg-mbytes=64"],
     ["cfgb 0x9e 0x3f", "cfgb 0x9d 0x08", "readb 0x0", "readb 0xfffff0",
      "writeb 0x100 0x12", "readb 0x100", "mtree"]),
    ("q35/tseg-ext-max", "pc-q35-7.2",
     ["-global", "mch.extended-tseg-mbytes=4095"],
     ["cfgb 0x9e 0x3f", "cfgb 0x9d 0x08", "readb 0x100", "mtree"]),
    ("q35/smbase", "pc-q35-7.2", [], smbase_steps()),
    ("q35-5.0/smbase", "pc-q35-5.0", [], smbase_steps()),
    ("q35-4.2/smbase", "pc-q35-4.2", [], smbase_steps()),
    ("q35/smbase-off", "pc-q35-7.2", ["-global", "mch.smbase-smram=off"],
     smbase_steps()),
]


def start_error(binary, args):
    p = subprocess.run([binary, "-display", "none", "-nodefaults", "-S",
                        "-qtest", "null", "-qtest-log", "/dev/null"] + args,
                       stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stderr.strip()


def compare_start_errors():
    """extended-tseg-mbytes past 7.2's 0xfff refuses to start"""
    for value in ("4096", "65535"):
        args = ["-machine", "pc-q35-7.2", "-global",
                f"mch.extended-tseg-mbytes={value}"]
        mine, theirs = start_error(BINARY, args), start_error(ORACLE, args)
        report(f"q35/extended-tseg-mbytes={value}/start",
               mine == theirs and mine[0] == 1,
               f"ours {mine} qemu72 {theirs}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    compare_start_errors()
    for name, machine, extra, steps in SCENARIOS:
        args = ["-machine", machine] + extra
        mine = answers(BINARY, args, steps)
        theirs = answers(ORACLE, args, steps)
        diff = [f"step {i}: ours {a!r} qemu72 {b!r}"
                for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]
        if len(mine) != len(theirs):
            diff.append(f"{len(mine)} answers, QEMU 7.2 {len(theirs)}")
        report(name, not diff, "; ".join(diff[:3]))
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
