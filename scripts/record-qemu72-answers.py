#!/usr/bin/env python3
"""Records QEMU 7.2's answers on this host, once, as the independent oracle
of the golden CPUID tables (docs/golden-cpuid.md, "Checked against QEMU
7.2").

    scripts/record-qemu72-answers.py HOST [--jobs N]

HOST names a recorded host file, tests/data/hosts/HOST.host, which must
describe this machine's KVM (the live KVM is read with `cpuid-table
--record-host` and compared with it, identity and name lines aside): the
answers are only valid for the host they were recorded on.  For every
machine type and model of the golden tables, QEMU 7.2 (Debian's
/usr/bin/qemu-system-x86_64, or QEMU_72) is run twice with `-accel kvm
-smp 1` and the machine's default irqchip:

* paused, over QMP: the realized vCPU's feature-words, level, xlevel,
  xlevel2;
* booting the cpuid test guest (tests/guest/cpuid.c), which prints every
  leaf the vCPU enumerates.  QEMU 7.2 boots it through qboot
  (/usr/share/qemu/qboot.rom): 0.6 s instead of 12 s through SeaBIOS on
  a PVM host, and the firmware does not change what CPUID returns.

Written to tests/data/qemu72/HOST/<machine>/<model>.txt:

    level 0x0000000d
    fw 0x00000007 0x00 ebx 0x00000000
    guest 0x00000001 0x00 eax=0x... ebx=0x... ecx=0x... edx=0x...

Takes ~8 minutes for 570 pairs with 2 jobs.  Needs /dev/kvm, QEMU 7.2,
a build (build/) for the guest and the tool.
"""

import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "python"))
from qmp_machine import Machine  # noqa: E402

ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
QBOOT = "/usr/share/qemu/qboot.rom"
TOOL = os.path.join(TOP, "build", "tools", "cpuid-table")
GUEST = os.path.join(TOP, "build", "tests", "guest", "cpuid.elf")
REGS = {"EAX": "eax", "EBX": "ebx", "ECX": "ecx", "EDX": "edx"}


def golden_models():
    """The models of scripts/update-golden-cpuid.sh"""
    text = open(os.path.join(TOP, "scripts", "update-golden-cpuid.sh")).read()
    m = re.search(r'^models="([^"]*)"', text, re.M)
    return m.group(1).split()


def machines():
    with Machine(ORACLE, ["-machine", "none", "-accel", "kvm", "-S"]) as vm:
        names = {m["name"] for m in vm.cmd("query-machines")}
    ours = os.listdir(os.path.join(TOP, "tests", "data", "cpuid",
                                   "generous"))
    return sorted(n for n in names if n in ours)


def same_host(host):
    """True if tests/data/hosts/HOST.host describes this machine's KVM."""
    def per_cpu_masked(line):
        # The APIC id of the CPU the recording ran on (leaf 1 EBX[31:24],
        # leaves 0xB/0x1F EDX) differs from one recording to the next
        f = line.split()
        if f[0] == "cpuid" and int(f[1], 16) == 1:
            f[5] = f"0x{int(f[5], 16) & 0x00ffffff:08x}"
        elif f[0] == "cpuid" and int(f[1], 16) in (0xb, 0x1f):
            f[7] = "-"
        return " ".join(f)

    def significant(path):
        return [per_cpu_masked(l) for l in open(path).read().splitlines()
                if not l.startswith(("#", "name ", "host-model-id"))]
    with tempfile.TemporaryDirectory() as tmp:
        live = os.path.join(tmp, "live.host")
        subprocess.run([TOOL, "--record-host", live], check=True)
        return significant(live) == significant(
            os.path.join(TOP, "tests", "data", "hosts", host + ".host"))


def qmp_answers(machine, model):
    with Machine(ORACLE, ["-machine", machine, "-accel", "kvm", "-S",
                          "-cpu", model], timeout=60) as vm:
        path = vm.cpu_path()
        lines = [f"{p} 0x{vm.qom_get(path, p):08x}"
                 for p in ("level", "xlevel", "xlevel2")]
        for w in sorted(vm.qom_get(path, "feature-words"),
                        key=lambda w: (w["cpuid-input-eax"],
                                       w.get("cpuid-input-ecx", -1),
                                       w["cpuid-register"])):
            sub = w.get("cpuid-input-ecx")
            lines.append(f"fw 0x{w['cpuid-input-eax']:08x} " +
                         ("-   " if sub is None else f"0x{sub:02x}") +
                         f" {REGS[w['cpuid-register']]} "
                         f"0x{w['features']:08x}")
    return lines


def guest_answers(machine, model):
    argv = [ORACLE, "-machine", f"{machine},accel=kvm", "-cpu", model,
            "-m", "128", "-smp", "1", "-nodefaults", "-display", "none",
            "-serial", "stdio", "-bios", QBOOT, "-device",
            "isa-debug-exit,iobase=0xf4,iosize=0x04", "-no-reboot",
            "-kernel", GUEST]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=120)
    out = p.stdout.decode(errors="replace")
    if "CPUID-DONE" not in out:
        raise RuntimeError(f"{machine} {model}: guest failed: {out[-300:]!r}"
                           f" {p.stderr.decode(errors='replace')[-300:]!r}")
    return ["guest " + l[len("CPUID "):] for l in out.splitlines()
            if l.startswith("CPUID 0x")]


def record(host, machine, model):
    lines = qmp_answers(machine, model) + guest_answers(machine, model)
    d = os.path.join(TOP, "tests", "data", "qemu72", host, machine)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, model + ".txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--jobs")]
    jobs = 2
    for a in sys.argv[1:]:
        if a.startswith("--jobs="):
            jobs = int(a.split("=", 1)[1])
    if len(args) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    host = args[0]
    if not same_host(host):
        print(f"{sys.argv[0]}: this machine's KVM is not "
              f"tests/data/hosts/{host}.host: QEMU 7.2's answers here "
              "would not be that host's", file=sys.stderr)
        return 1
    pairs = [(m, c) for m in machines() for c in golden_models()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for i, _ in enumerate(pool.map(lambda p: record(host, *p), pairs)):
            if i % 50 == 0:
                print(f"{i}/{len(pairs)}", flush=True)
    print(f"{len(pairs)} answers in tests/data/qemu72/{host}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
