#!/usr/bin/env python3
"""The golden CPUID tables of recorded real hosts, checked against QEMU 7.2.

The golden tables (tests/data/cpuid/) are computed by the code under test;
this test holds them against an independent oracle: QEMU 7.2's answers on
the same host, recorded once by scripts/record-qemu72-answers.py into
tests/data/qemu72/HOST/<machine>/<model>.txt.  For every recorded pair:

* level, xlevel, xlevel2 (QMP) equal the golden table's leaf 0, 0x80000000
  and 0xC0000000 EAX;
* every feature word 7.2 reports over QMP (feature-words) equals the
  golden table's register for that leaf/subleaf (the XSAVE words only
  where xsave survived filtering: QEMU has no leaf 0xD otherwise);
* every register QEMU 7.2's cpuid guest read equals the golden table's
  (a leaf the table lacks reads as zeros) — except the registers a PVM
  host's KVM answers from the host CPU whatever the table says (leaf 1
  ECX/EDX, leaf 7, leaf 0xD: README, x-query-cpuid), which the feature
  words cover instead.

Runs without /dev/kvm or QEMU 7.2: everything it needs is in tests/data.
Hosts without recorded answers (the synthetic ones, and real hosts not at
hand when the answers were recorded) are listed, not checked.
"""

import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GOLDEN = os.path.join(TOP, "tests", "data", "cpuid")
ANSWERS = os.path.join(TOP, "tests", "data", "qemu72")
REG = {"eax": 0, "ebx": 1, "ecx": 2, "edx": 3}
# (leaf, register index or None for all): answered from the host CPU on PVM
PVM_HOST = {(1, 2), (1, 3), (7, None), (0xd, None)}
LINE = re.compile(r"(0x[0-9a-f]+) (0x[0-9a-f]+) eax=(0x[0-9a-f]+) "
                  r"ebx=(0x[0-9a-f]+) ecx=(0x[0-9a-f]+) edx=(0x[0-9a-f]+)")


def parse_table(lines):
    t = {}
    for line in lines:
        m = LINE.match(line)
        if m:
            v = [int(x, 16) for x in m.groups()]
            t[(v[0], v[1])] = v[2:]
    return t


def pvm_host_reg(leaf, reg):
    return (leaf, reg) in PVM_HOST or (leaf, None) in PVM_HOST


def check_pair(golden_path, answer_path):
    golden = parse_table(open(golden_path).read().splitlines())
    text = open(answer_path).read().splitlines()
    guest = parse_table(l[len("guest "):] for l in text
                        if l.startswith("guest "))
    diffs = []
    counts = {"guest": 0, "fw": 0}

    def g(leaf, sub):
        return golden.get((leaf, sub), [0, 0, 0, 0])

    # QEMU keeps the XSAVE words (XCR0 components) when the host filters
    # xsave itself, but then has no leaf 0xD: those words are in no table
    xsave = any(l.split()[1:4] == ["0x00000001", "-", "ecx"] and
                int(l.split()[4], 16) & (1 << 26)
                for l in text if l.startswith("fw "))
    for line in text:
        f = line.split()
        if f[0] == "fw" and int(f[1], 16) == 0xd and not xsave:
            continue
        if f[0] in ("level", "xlevel", "xlevel2"):
            leaf = {"level": 0, "xlevel": 0x80000000,
                    "xlevel2": 0xC0000000}[f[0]]
            want = int(f[1], 16)
            if (leaf, 0) in golden or want:
                counts["fw"] += 1
                if g(leaf, 0)[0] != want:
                    diffs.append(f"{f[0]}: golden 0x{g(leaf, 0)[0]:x} "
                                 f"qemu72 0x{want:x}")
        elif f[0] == "fw":
            leaf = int(f[1], 16)
            sub = 0 if f[2] == "-" else int(f[2], 16)
            want = int(f[4], 16)
            counts["fw"] += 1
            have = g(leaf, sub)[REG[f[3]]]
            if have != want:
                diffs.append(f"feature word 0x{leaf:x}.{sub} {f[3]}: golden "
                             f"0x{have:08x} qemu72 0x{want:08x}")
    for (leaf, sub), regs in sorted(guest.items()):
        for r in range(4):
            if pvm_host_reg(leaf, r):
                continue
            counts["guest"] += 1
            if g(leaf, sub)[r] != regs[r]:
                diffs.append(f"guest 0x{leaf:x}.{sub} "
                             f"{'abcd'[r]}x: golden 0x{g(leaf, sub)[r]:08x} "
                             f"qemu72 0x{regs[r]:08x}")
    # A golden leaf 7.2's guest did not enumerate would be unchecked, unless
    # it is all zeros (SGX's subleaves without SGX: reads as absent)
    for (leaf, sub), regs in golden.items():
        if (leaf, sub) not in guest and not pvm_host_reg(leaf, None) and \
                any(regs):
            diffs.append(f"golden leaf 0x{leaf:x}.{sub} not seen by 7.2's "
                         "guest")
    return diffs, counts


def main():
    hosts = sorted(os.listdir(GOLDEN))
    recorded = sorted(h for h in os.listdir(ANSWERS)
                      if os.path.isdir(os.path.join(ANSWERS, h)))
    n = failures = 0
    totals = {"guest": 0, "fw": 0}
    for host in recorded:
        for machine in sorted(os.listdir(os.path.join(ANSWERS, host))):
            for f in sorted(os.listdir(os.path.join(ANSWERS, host, machine))):
                model = f[:-len(".txt")]
                n += 1
                name = f"golden-vs-qemu72/{host}/{machine}/{model}"
                golden = os.path.join(GOLDEN, host, machine, f)
                if not os.path.exists(golden):
                    print(f"not ok {n} - {name} # no golden table")
                    failures += 1
                    continue
                diffs, counts = check_pair(
                    golden, os.path.join(ANSWERS, host, machine, f))
                for k in totals:
                    totals[k] += counts[k]
                print(f"{'not ok' if diffs else 'ok'} {n} - {name}")
                for d in diffs[:6]:
                    print(f"#   {d}")
                failures += bool(diffs)
    unchecked = [h for h in hosts if h not in recorded]
    print(f"# registers compared: {totals['guest']} as 7.2's guest read "
          f"them, {totals['fw']} with 7.2's feature words and levels")
    print(f"# hosts without QEMU 7.2 answers (not checked here): "
          f"{', '.join(unchecked)}")
    if not n:
        print("Bail out! no recorded QEMU 7.2 answers in tests/data/qemu72")
        return 1
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
