#!/usr/bin/env python3
"""The vmport (VMware backdoor, port 0x5658) and the vmmouse compared with
Debian's QEMU 7.2 (docs/devices.md, "vmport and vmmouse").

Under qtest every access of each width beside the vmport (0x5654-0x565b)
is compared on pc-i440fx-7.2 and pc-q35-7.2 with vmport=auto/on/off and
i8042=off; accesses that reach the vmport answer all-ones and writes do
nothing here, as 7.2's source says for qtest, where the 7.2 binaries
crash (the test checks that they still do: when 7.2 answers, compare); the devices in
`info qtree` (with their properties, -global and compat entries applied)
and the port in `info mtree -f`; `-device vmport` and `-device vmmouse`
refused with 7.2's texts.

Under KVM (where /dev/kvm works) the vmport guest (tests/guest/vmport.c)
calls every command with chosen and with random registers and prints
every general register after each call: the lines must be equal, and so
must the complaints 7.2's vmmouse prints on stdout (compared apart: they
interleave with the serial console differently).  Machines: 7.2 (both
boards), pc-i440fx-5.0 (hw_compat_5_0's old vmport), with -uuid, x2apic on
and off, and -global vmport.* settings.

Skips (77) where QEMU 7.2 is missing.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import kvm_usable  # noqa: E402
from qtest_session import (QTestMachine, qemu72_available,  # noqa: E402
                           qtest_session)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "vmport.elf")

QTEST_MACHINES = ["pc-i440fx-7.2", "pc-q35-7.2", "pc-i440fx-7.2,vmport=on",
                  "pc-q35-7.2,vmport=off", "pc-i440fx-7.2,i8042=off",
                  "pc-i440fx-5.0"]
QTEST_EXTRA = [[], ["-global", "vmport.vmware-vmx-version=9",
                    "-global", "vmport.x-cmds-v2=off"]]
UUID = "01234567-89ab-cdef-0011-223344556677"
GUEST_CASES = [
    ("pc-q35-7.2", ["-cpu", "max"], "seed=1"),
    ("pc-i440fx-7.2", ["-uuid", UUID, "-cpu", "Haswell,+x2apic"],
     "seed=2 random=400"),
    ("pc-i440fx-7.2", ["-cpu", "Haswell,-x2apic"], "seed=3"),
    ("pc-i440fx-5.0", ["-uuid", UUID], "seed=4 random=400"),
    ("pc-q35-7.2", ["-global", "vmport.vmware-vmx-type=4",
                    "-global", "vmport.vmware-vmx-version=7",
                    "-global", "vmport.x-read-set-eax=off"], "seed=5"),
    ("pc-q35-7.2", ["-global", "vmport.x-signal-unsupported-cmd=off",
                    "-global", "vmport.x-report-vmx-type=off",
                    "-global", "vmport.x-cmds-v2=off"], "seed=6"),
]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - vmport/{name}" +
          ("" if ok else f" # {detail}"))


def reaches_vmport(port, size):
    """Whether an access reaches 0x5658: the I/O core splits an access at
    the alignment of its port, in 7.2 as here (inl 0x5656 is two inw)."""
    while size:
        if port == 0x5658:
            return True
        step = min(size, 4, port & -port)
        port, size = port + step, size - step
    return False


def port_steps():
    """Accesses beside the vmport (QEMU 7.2 crashes on any access that
    reaches it under qtest: see vmport_steps)."""
    s = []
    for port in range(0x5654, 0x565c):
        for w, size in (("b", 1), ("w", 2), ("l", 4)):
            if reaches_vmport(port, size):
                continue
            s.append(f"in{w} 0x{port:x}")
            s.append(f"out{w} 0x{port:x} 0x{port & 0xff:x}")
    return s


def vmport_steps():
    """Accesses that reach the vmport: all-ones here, as 7.2's source
    says under qtest (vmport_ioport_read returns -1 when qtest_enabled()),
    but the 7.2 binaries crash first (SIGSEGV: it casts the NULL
    current_cpu before that test); writes are ignored."""
    s = []
    for w, v in (("b", "0x68"), ("w", "0x5868"), ("l", "0x564d5868")):
        s += [f"in{w} 0x5658", f"out{w} 0x5658 {v}"]
    s += ["inl 0x5656", "inw 0x5657", "inl 0x5655"]
    return s, ["OK 0x00ff", "OK", "OK 0xffff", "OK", "OK 0xffffffff", "OK",
               "OK 0xffffffff", "OK 0xffff", "OK 0xffffffff"]


def device_lines(text):
    """The vmport/vmmouse/i8042 entries of info qtree, with properties,
    and the mtree lines of the port."""
    out, keep = [], False
    for line in text.splitlines():
        m = re.match(r"(\s*)dev: (\S+),", line)
        if m:
            keep = m.group(2) in ("vmport", "vmmouse")
        elif keep and not re.match(r"\s{12}", line):
            keep = False
        if keep or "vmport" in line:
            out.append(line.strip())
    return out


def qtest_cases():
    steps = port_steps()
    for machine in QTEST_MACHINES:
        for extra in QTEST_EXTRA:
            args = ["-machine", machine] + extra
            name = machine + (",globals" if extra else "")
            a = qtest_session(BINARY, args, steps)
            b = qtest_session(ORACLE, args, steps)
            bad = [f"{c}: ours {x} qemu72 {y}" for c, x, y in
                   zip(steps, a, b) if x != y]
            report(f"qtest/{name}/ports", a == b and len(a) == len(steps),
                   "; ".join(bad[:4]) or f"{len(a)} vs {len(b)} answers")
            if "vmport=off" in machine or "i8042=off" in machine:
                continue
            vsteps, want = vmport_steps()
            a = qtest_session(BINARY, args, vsteps)
            b = qtest_session(ORACLE, args, vsteps[:1])
            report(f"qtest/{name}/vmport-port", a == want and
                   b[0].startswith("EOF"), f"ours {a} qemu72 {b} (7.2 "
                   "answered: compare with it instead)")
            views = []
            for binary in (BINARY, ORACLE):
                with QTestMachine(binary, args + ["-display", "none",
                                                  "-nodefaults"]) as m:
                    views.append(device_lines(m.hmp("info qtree")) +
                                 device_lines(m.hmp("info mtree -f")))
            report(f"qtest/{name}/qtree-mtree", views[0] == views[1],
                   f"ours {views[0]} qemu72 {views[1]}")


def refusal(binary, device):
    p = subprocess.run([binary, "-machine", "pc-i440fx-7.2", "-nodefaults",
                        "-display", "none", "-qtest", "null", "-S",
                        "-device", device], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=30)
    lines = [l for l in p.stderr.splitlines() if "qemu-system" in l]
    return p.returncode, lines


def refusal_cases():
    for device in ("vmport", "vmmouse", "vmmouse,i8042=/nonexistent",
                   "vmmouse,i8042=/machine/i440fx"):
        a, b = refusal(BINARY, device), refusal(ORACLE, device)
        report(f"device/{device}", a == b and a[0] == 1, f"ours {a} "
               f"qemu72 {b}")


def guest_run(binary, machine, extra, append):
    argv = [binary, "-machine", f"{machine},accel=kvm", "-m", "256",
            "-nodefaults", "-display", "none", "-serial", "stdio",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", GUEST, "-append", append] + extra
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout", []
    out = p.stdout.decode(errors="replace")
    complaints = re.findall(r"vmmouse: [^\n]*\n", out)
    out = re.sub(r"vmmouse: [^\n]*\n", "", out)
    if "VMPORT-DONE" not in out:
        return f"status {p.returncode}: {out[-300:]!r}", complaints
    return [l for l in out.splitlines() if l.startswith("VMPORT ")], \
        complaints


def guest_cases():
    for machine, extra, append in GUEST_CASES:
        name = f"kvm/{machine}/{append.split()[0]}"
        a, ac = guest_run(BINARY, machine, extra, append)
        b, bc = guest_run(ORACLE, machine, extra, append)
        ok = isinstance(a, list) and a == b and len(a) > 100
        detail = f"ours {a!r:.300} qemu72 {b!r:.300}"
        if isinstance(a, list) and isinstance(b, list):
            diff = [f"ours {x} / qemu72 {y}" for x, y in zip(a, b) if x != y]
            detail = f"{len(a)} vs {len(b)} lines; " + "; ".join(diff[:3])
        report(name + "/registers", ok, detail)
        report(name + "/vmmouse-complaints", ac == bc and len(ac) > 0,
               f"ours {ac[:4]} qemu72 {bc[:4]}")


def main():
    if not qemu72_available(ORACLE):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    qtest_cases()
    refusal_cases()
    if not kvm_usable():
        print("# /dev/kvm is not usable here: guest cases skipped")
    elif not os.path.exists(GUEST):
        print(f"Bail out! {GUEST} not built (meson builds it with this test)")
        return 1
    else:
        guest_cases()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
