#!/usr/bin/env python3
"""The whole board, as tools see it, compared with Debian's QEMU 7.2.

For the machine types of issue 12's "Must show" (pc-i440fx-1.4, 2.12,
5.1, 7.2, 8.0 and pc-q35-2.4, 4.0, 6.2, 7.2, 8.0; this tree's 8.x types
against 7.2's newest, pc-*-7.2), with -nodefaults, and again with the
controllers libvirt 9.0 adds to a minimal domain, both binaries run the
same command line, paused, under KVM when /dev/kvm is usable (else the
qtest accelerator), and answer:

  * query-pci: every bus, device, BAR, bridge window and ID, as JSON;
  * info qtree: the text, line for line;
  * info mtree -f: the flat views as a set, each keyed by the address
    spaces that share it (QEMU prints them in the order of a pointer hash
    table, so the order is not compared), every range line compared;
  * what a guest reads: tests/guest/pciwalk.rom, a firmware image run from
    the reset vector (no firmware before it in either emulator), prints
    every function's 256 bytes of configuration space on bus 0, and the
    two outputs must be equal byte for byte (under KVM only: under the
    qtest accelerator no guest runs).

What this tree still lacks is the KNOWN table below, each entry with the
issue that brings it: those devices' qtree blocks, their mtree ranges (the
range is cut out of both sides, neighbouring ranges of one alias joined)
and their query-pci entries are taken out before comparing.  Whole
configurations this tree cannot start yet (a device of libvirt's set is
missing) are TAP comments with the reason, neither passes nor skips.
Skips (77) where QEMU 7.2 is missing.
"""

import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402
from qtest_session import ORACLE, qemu72_available, qtest_session  # noqa

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
PCIWALK = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                       "guest", "pciwalk.rom")

MACHINES = ["pc-i440fx-1.4", "pc-i440fx-2.12", "pc-i440fx-5.1",
            "pc-i440fx-7.2", "pc-i440fx-8.0", "pc-q35-2.4", "pc-q35-4.0",
            "pc-q35-6.2", "pc-q35-7.2", "pc-q35-8.0"]

# libvirt 9.0's devices for a minimal domain (shared/reference/
# libvirt-facts.md): q35 gets two root ports and qemu-xhci behind the
# first, i440fx piix3-usb-uhci at 01.2
LIBVIRT_Q35 = [
    '{"driver":"pcie-root-port","port":8,"chassis":1,"id":"pci.1",'
    '"bus":"pcie.0","multifunction":true,"addr":"0x1"}',
    '{"driver":"pcie-root-port","port":9,"chassis":2,"id":"pci.2",'
    '"bus":"pcie.0","addr":"0x1.0x1"}',
    '{"driver":"qemu-xhci","id":"usb","bus":"pci.1","addr":"0x0"}',
]
LIBVIRT_I440FX = [
    '{"driver":"piix3-usb-uhci","id":"usb","bus":"pci.0","addr":"0x1.0x2"}',
]

# What this tree lacks, by accelerator: qtree device types, with the
# i8042's input lines they feed; mtree region names
KNOWN = {
    "devices": {},
    "gpio": set(),
    "regions": set(),
}
# Types whose configurations are skipped until they exist: none now
NEEDS = {}

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {name}" +
          ("" if ok else f" # {detail}"))


def not_compared(name, why):
    """A configuration this tree cannot start yet: a TAP comment, neither
    a pass nor a skip (no prerequisite is missing: a device is)"""
    print(f"# {name}: not compared yet, {why}")


def views(binary, machine, accel, devices):
    args = ["-S", "-machine", machine] + accel
    for d in devices:
        args += ["-device", d]
    with Machine(binary, args) as m:
        pci = m.cmd("query-pci")
        qtree = m.cmd("human-monitor-command",
                      {"command-line": "info qtree"})
        mtree = m.cmd("human-monitor-command",
                      {"command-line": "info mtree -f"})
    return pci, qtree, mtree


# info qtree -----------------------------------------------------------------

def drop_devices(text, types, gpio):
    """The qtree without the blocks of devices of `types` and without the
    `gpio` lines"""
    out, cut = [], None
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if cut is not None:
            if indent > cut:
                continue
            cut = None
        m = re.match(r'\s*dev: ([^,]+), id', line)
        if m and m.group(1) in types:
            cut = indent
            continue
        if line.strip() in gpio:
            continue
        out.append(line)
    return out


# info mtree -f ----------------------------------------------------------------

RANGE = re.compile(r'\s*([0-9a-f]+)-([0-9a-f]+) \((prio -?\d+, [\w/-]+)\): '
                   r'(\S+)(?: @([0-9a-f]+))?(.*)$')


def flatviews(text, regions):
    """[(AS lines, range lines)] of each flat view, and {AS lines: cuts}:
    the address ranges of `regions`' lines, taken out of that view"""
    views, cuts = [], {}
    for line in text.splitlines():
        if line.startswith("FlatView #"):
            views.append(([], [], []))
            continue
        if not views or not line.strip():
            continue
        if line.startswith(" AS ") or line.startswith(" Root memory"):
            views[-1][0].append(line.strip())
            continue
        m = RANGE.match(line)
        if m and m.group(4) in regions:
            views[-1][2].append((int(m.group(1), 16), int(m.group(2), 16)))
            continue
        views[-1][1].append(line.strip())
    for ases, _, c in views:
        cuts[tuple(sorted(ases))] = c
    return [(tuple(sorted(a)), lines) for a, lines, _ in views], cuts


def cut_ranges(start, end, cuts):
    pieces = [(start, end)]
    for cs, ce in cuts:
        nxt = []
        for s, e in pieces:
            if ce < s or cs > e:
                nxt.append((s, e))
                continue
            if s < cs:
                nxt.append((s, cs - 1))
            if e > ce:
                nxt.append((ce + 1, e))
        pieces = nxt
    return pieces


def apply_cuts(views, cuts):
    """The views with `cuts` (per view) taken out and the neighbouring
    ranges of one alias that remain joined, as a sorted list"""
    result = []
    for ases, lines in views:
        parsed = []
        for line in lines:
            m = RANGE.match(line)
            if not m:
                parsed.append(line)
                continue
            start, end = int(m.group(1), 16), int(m.group(2), 16)
            off = int(m.group(5), 16) if m.group(5) else None
            for s, e in cut_ranges(start, end, cuts.get(ases, [])):
                parsed.append([s, e, m.group(3), m.group(4),
                               None if off is None else off + (s - start),
                               m.group(6)])
        joined = []
        for p in parsed:
            q = joined[-1] if joined else None
            if (isinstance(p, list) and isinstance(q, list) and
                    q[1] + 1 == p[0] and q[2:4] == p[2:4] and q[5] == p[5]
                    and q[4] is not None and p[4] == q[4] + (p[0] - q[0])):
                q[1] = p[1]
                continue
            joined.append(p)
        text = []
        for p in joined:
            if isinstance(p, str):
                text.append(p)
                continue
            at = "" if p[4] is None else f" @{p[4]:016x}"
            text.append(f"{p[0]:016x}-{p[1]:016x} ({p[2]}): {p[3]}{at}"
                        f"{p[5]}")
        result.append((ases, tuple(text)))
    return sorted(result)


# query-pci --------------------------------------------------------------------

def drop_pci(buses, ids):
    for bus in buses:
        bus["devices"] = [d for d in bus["devices"]
                          if d.get("qdev_id") not in ids]
        for d in bus["devices"]:
            if "pci_bridge" in d and "devices" in d["pci_bridge"]:
                drop_pci([{"devices": d["pci_bridge"]["devices"]}], ids)
    return buses


def pciwalk(binary, machine, devices):
    """What pciwalk.rom prints on COM1 up to PCIWALK-END (it then halts,
    so the emulator is killed), or an error line"""
    args = [binary, "-machine", machine, "-accel", "kvm", "-m", "128",
            "-display", "none", "-nodefaults", "-serial", "stdio",
            "-bios", PCIWALK]
    for d in devices:
        args += ["-device", d]
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.set_blocking(p.stdout.fileno(), False)
    out, deadline = b"", time.monotonic() + 60
    try:
        while b"PCIWALK-END" not in out and time.monotonic() < deadline:
            if p.poll() is not None:
                break
            chunk = p.stdout.read()
            if chunk:
                out += chunk
            else:
                time.sleep(0.02)
    finally:
        p.kill()
        _, err = p.communicate()
    if b"PCIWALK-END" not in out:
        return [f"no PCIWALK-END (status {p.returncode}): "
                f"{err.decode(errors='replace').strip()[-300:]}"]
    return out.decode(errors="replace").replace("\r", "").splitlines()


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i}: 7.2 {x!r} / ours {y!r}"
    return f"7.2 has {len(a)} lines, ours {len(b)}"


def compare(machine, config, accel, devices):
    theirs_machine = re.sub(r"-8\.\d$", "-7.2", machine)
    missing = [d for d in devices for t in NEEDS if f'"{t}"' in d]
    name = f"{machine}/{config}/{accel[1] if len(accel) > 1 else 'qtest'}"
    if missing:
        types = sorted({t for t in NEEDS for d in missing if f'"{t}"' in d})
        not_compared(name, f"needs {', '.join(types)}: {NEEDS[types[0]]}")
        return
    theirs = views(ORACLE, theirs_machine, accel, devices)
    ours = views(BINARY, machine, accel, devices)

    # (the userspace interrupt controllers and PIT of qtest and split
    # irqchip, pc-q35-4.0's default, are compared too)
    types = set(KNOWN["devices"])
    regions = set(KNOWN["regions"])

    report(f"{name}/query-pci", theirs[0] == ours[0],
           first_diff(json.dumps(theirs[0], indent=1).splitlines(),
                      json.dumps(ours[0], indent=1).splitlines()))
    a = drop_devices(theirs[1], types, KNOWN["gpio"])
    b = drop_devices(ours[1], types, KNOWN["gpio"])
    report(f"{name}/qtree", a == b, first_diff(a, b))
    va, cuts = flatviews(theirs[2], regions)
    vb, _ = flatviews(ours[2], set())
    fa, fb = apply_cuts(va, cuts), apply_cuts(vb, cuts)
    detail = ""
    if fa != fb:
        only_a = [v for v in fa if v not in fb]
        only_b = [v for v in fb if v not in fa]
        detail = (f"7.2's views not ours: {only_a[:1]}; "
                  f"ours not 7.2's: {only_b[:1]}")[:1500]
    report(f"{name}/mtree-f", fa == fb, detail)
    if accel[1:] == ["kvm"]:
        a = pciwalk(ORACLE, theirs_machine, devices)
        b = pciwalk(BINARY, machine, devices)
        report(f"{name}/guest-pci-config", a == b and len(a) > 2,
               first_diff(a, b))


def registers_after_reset():
    """Two registers the walker found different, read and written over
    qtest: the MCH's extended-TSEG size (0x50: the query value 0xffff
    reads back the size, none before 2.10) and ICH9-LPC's LPC_EN (0x82:
    COM1 present at machine-ready)"""
    cmds = ["outl 0xcf8 0x80000050", "inw 0xcfc", "outw 0xcfc 0xffff",
            "inw 0xcfc", "outw 0xcfc 0x1234", "inw 0xcfc",
            "outb 0xcfc 0xff", "inw 0xcfc",
            "outl 0xcf8 0x8000f880", "inl 0xcfc", "outl 0xcfc 0x00f0ffff",
            "inl 0xcfc"]
    for machine in ["pc-q35-7.2", "pc-q35-2.9", "pc-q35-2.10"]:
        for serial in [[], ["-serial", "null"]]:
            args = ["-machine", machine] + serial
            a = qtest_session(ORACLE, args, cmds)
            b = qtest_session(BINARY, args, cmds)
            report(f"{machine}/registers{'/com1' if serial else ''}",
                   a == b, f"7.2 {a} / ours {b}")


def main():
    if not qemu72_available():
        print(f"1..0 # SKIP QEMU 7.2 ({ORACLE}) is missing")
        return 77
    kvm = kvm_usable()
    accel = ["-accel", "kvm"] if kvm else ["-qtest", "null"]
    for machine in MACHINES:
        q35 = "q35" in machine
        compare(machine, "nodefaults", accel, [])
        compare(machine, "libvirt", accel,
                LIBVIRT_Q35 if q35 else LIBVIRT_I440FX)
        if q35:
            # libvirt's set without its USB controller meanwhile
            compare(machine, "libvirt-root-ports", accel, LIBVIRT_Q35[:2])
    registers_after_reset()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
