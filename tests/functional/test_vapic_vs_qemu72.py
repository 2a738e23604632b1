#!/usr/bin/env python3
"""The local APICs' devices and kvmvapic compared with Debian's QEMU 7.2
(docs/devices.md, "The local APICs and kvmvapic").

  * where they are: for vapic on and off (-global kvm-apic.vapic,
    apic-common.vapic, apic.vapic), -cpu without the APIC feature, with
    one and two vCPUs, under KVM and qtest: whether info qtree lists
    kvmvapic (last on the system bus), whether info mtree -f maps its
    port, the vapic property of each vCPU's "lapic", qom-list of the lapic
    and of the kvmvapic and the /machine/unattached index it takes;
  * -device help for kvmvapic, kvm-apic, apic, device-list-properties,
    and -device refusing them;
  * over qtest, every read and write of each width at 0x7b-0x80 (a write
    without a vCPU does nothing, as in 7.2);
  * under KVM, the vapic guest (tests/guest/vapic.c): the reads and a
    report from a block whose size byte is 0 must print what 7.2's guest
    prints (part=compare); the whole sequence (reports that patch the
    polls of 1- and 2-block ROMs, standby, a failed report) is checked on
    this tree alone against what 7.2's source does without its option
    ROM (7.2 has the ROM's report before the guest runs, and aborts on
    that sequence).

Skips (77) where QEMU 7.2 is missing.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402
from qtest_session import (ORACLE, qemu72_available,  # noqa: E402
                           qtest_session)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "vapic.elf")

PLACE_CASES = [
    [],
    ["-global", "kvm-apic.vapic=off"],
    ["-global", "apic-common.vapic=off"],
    ["-global", "apic.vapic=off"],
    ["-cpu", "qemu64,-apic"],
    ["-cpu", "qemu64,-apic", "-smp", "2"],
    ["-smp", "2"],
]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - vapic/{name}" +
          ("" if ok else f" # {detail}"))


def accels():
    return [["-accel", "kvm"], ["-qtest", "null"]] if kvm_usable() else \
        [["-qtest", "null"]]


def place(binary, machine, accel, extra):
    with Machine(binary, ["-machine", machine, "-S"] + accel + extra) as vm:
        def hmp(c):
            return vm.cmd("human-monitor-command", {"command-line": c})
        # 7.2's userspace I/O APIC under qtest is not modelled here
        devs = [line.split()[1].rstrip(",")
                for line in hmp("info qtree").split("\n")
                if line.startswith("  dev: ") and "dev: ioapic," not in line]
        mtree = [line.strip() for line in hmp("info mtree -f").split("\n")
                 if "kvmvapic" in line]
        out = {"sysbus": devs, "mtree": sorted(set(mtree))}
        for i in range(4):
            path = f"/machine/unattached/device[{i}]"
            t = vm.cmd_raw("qom-get", {"path": path, "property": "type"})
            out[path] = t.get("return")
            r = vm.cmd_raw("qom-list", {"path": path + "/lapic"})
            if "return" in r:
                # qtest's apic has apic-msi: 7.2's userspace APIC model
                out[path + "/lapic"] = sorted(
                    (p["name"], p["type"]) for p in r["return"]
                    if p["name"] != "apic-msi[0]")
                out[path + "/lapic.vapic"] = vm.cmd(
                    "qom-get", {"path": path + "/lapic", "property": "vapic"})
            if out[path] == "kvmvapic":
                out[path + "/props"] = sorted(
                    (p["name"], p["type"])
                    for p in vm.cmd("qom-list", {"path": path}))
    return out


def check_places():
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2"):
        for accel in accels():
            for extra in PLACE_CASES:
                a = place(BINARY, machine, accel, extra)
                b = place(ORACLE, machine, accel, extra)
                diff = [f"{k}: ours {a.get(k)!r} qemu72 {b.get(k)!r}"
                        for k in sorted(set(a) | set(b))
                        if a.get(k) != b.get(k)]
                report(f"place/{machine}/{accel[1]}/{' '.join(extra)}",
                       not diff, "; ".join(diff[:3]))


def run(binary, args):
    return subprocess.run([binary] + args, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def check_help():
    for t in ("kvmvapic", "kvm-apic", "apic", "apic-common"):
        a = run(BINARY, ["-device", f"{t},help"])
        b = run(ORACLE, ["-device", f"{t},help"])
        report(f"device-help/{t}", (a.stdout, a.stderr) == (b.stdout,
                                                           b.stderr),
               f"ours {a.stdout!r} {a.stderr!r} qemu72 {b.stdout!r} "
               f"{b.stderr!r}")
    for t in ("kvmvapic", "kvm-apic", "apic"):
        args = ["-machine", "pc-q35-7.2", "-nodefaults", "-display",
                "none", "-qtest", "null", "-device", t]
        # (this tree's qtest log goes to stderr: its lines are left out)
        a, b = [(p.returncode, [line for line in p.stderr.split("\n")
                                if not line.startswith("[")])
                for p in (run(BINARY, args), run(ORACLE, args))]
        report(f"device-refused/{t}", a == b, f"ours {a} qemu72 {b}")
    for binary in (BINARY, ORACLE):
        with Machine(binary, ["-machine", "pc-q35-7.2", "-S", "-qtest",
                              "null"]) as vm:
            got = [vm.cmd_raw("device-list-properties", {"typename": t})
                   for t in ("kvmvapic", "kvm-apic", "apic")]
        if binary == BINARY:
            ours = got
    report("device-list-properties", ours == got,
           f"ours {ours} qemu72 {got}")
    help_lines = [[line for line in run(b, ["-device", "help"]).stdout
                   .split("\n") if "apic" in line]
                  for b in (BINARY, ORACLE)]
    report("device-help/list", help_lines[0] == help_lines[1],
           f"ours {help_lines[0]} qemu72 {help_lines[1]}")


def check_ports():
    steps = []
    for port in range(0x7b, 0x81):
        steps += [f"inb {port:#x}", f"inw {port:#x}", f"inl {port:#x}"]
    steps += ["outw 0x7e 0x100", "outb 0x7e 0x1", "outl 0x7e 0x12345678",
              "outw 0x7d 0xffff", "inl 0x7e", "inw 0x7e"]
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2",
                    "pc-q35-7.2 -global apic-common.vapic=off"):
        args = ["-machine"] + machine.split()
        a = qtest_session(BINARY, args, steps)
        b = qtest_session(ORACLE, args, steps)
        diff = [f"{s}: ours {x} qemu72 {y}" for s, x, y in zip(steps, a, b)
                if x != y]
        report(f"ports/{machine}", a == b and len(a) == len(steps),
               "; ".join(diff[:3]))


def guest_run(binary, machine, append):
    argv = [binary, "-machine", f"{machine},accel=kvm", "-m", "256",
            "-nodefaults", "-display", "none", "-serial", "stdio",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", GUEST, "-append", append]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout"
    out = p.stdout.decode(errors="replace")
    if "VAPIC-DONE" not in out:
        return f"status {p.returncode}: {out[-300:]!r}"
    return [line for line in out.splitlines() if line.startswith("VAPIC")]


OUTL = "b80100000090e77e"
VMCALL = "b8010000000f01c1"
VMMCALL = "b8010000000f01d9"


def expected_rom(step, n, size, patched_size):
    """What the guest prints for fake ROM n (size blocks of 512 bytes) when
    a report has patched its first patched_size blocks: outl polls that
    lie wholly before the ROM's last 8 bytes turn into VMCALL (the
    in-kernel irqchip's poll)"""
    scanned = patched_size * 512 - 8
    lines = []
    for off, pat in ((0x40, OUTL), (0x80, VMCALL), (0xc0, VMMCALL),
                     (0x240, OUTL)):
        got = VMCALL if pat == OUTL and off < scanned else pat
        lines.append(f"VAPIC step={step} rom={n} off={off:#x} bytes={got}")
    if size:
        lines.append(f"VAPIC step={step} rom={n} tail={OUTL}")
    return lines


def expected_full():
    return (["VAPIC read b=0xff w=0xffff l=0xffffffff",
             "VAPIC read b7f=0xff w7d=0xffff"] +
            expected_rom("size-0", 0, 0, 0) +
            expected_rom("sized-1", 1, 1, 1) +
            expected_rom("sized-1-again", 1, 1, 1) +
            expected_rom("other-block", 2, 2, 0) +       # standby: ROM 1
            expected_rom("other-block-first", 1, 1, 1) +
            expected_rom("after-reset-first-rom-size-0", 2, 2, 0) +
            expected_rom("two-blocks", 2, 2, 2) +
            expected_rom("outl", 3, 1, 0) +
            ["VAPIC-DONE"])


def check_guest():
    if not kvm_usable():
        report("guest # SKIP /dev/kvm not usable", True)
        return
    if not os.path.exists(GUEST):
        report("guest", False, f"{GUEST} not built")
        return
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2"):
        a = guest_run(BINARY, machine, "part=compare")
        b = guest_run(ORACLE, machine, "part=compare")
        report(f"guest/{machine}/compare", isinstance(a, list) and a == b,
               f"ours {a!r:.300} qemu72 {b!r:.300}")
        a = guest_run(BINARY, machine, "")
        exp = expected_full()
        diff = [f"ours {x} / expected {y}" for x, y in zip(a, exp) if x != y] \
            if isinstance(a, list) else [repr(a)]
        report(f"guest/{machine}/reports", a == exp, "; ".join(diff[:3]))


def main():
    if not qemu72_available(ORACLE):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    check_places()
    check_help()
    check_ports()
    check_guest()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
