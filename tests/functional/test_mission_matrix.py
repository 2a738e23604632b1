#!/usr/bin/env python3
"""The mission matrix (issues 2 and 11) against the real binary.

Under -accel kvm, for each row: start the emulator paused, read CPUID
0x40000001.EAX through x-query-cpuid and the kvm-pv-* properties through
qom-get, and compare both with the expectation: the features the machine
type's defaults, the model and the command line ask for, minus those this
host's KVM does not offer (read from /dev/kvm with KVM_GET_SUPPORTED_CPUID,
not from the emulator), which stay off silently.

  pc-*-8.1: kvm-pv-eoi, -unhalt, -tlb-flush, -ipi, -sched-yield (bits 6, 7,
            9, 11, 13)
  pc-*-8.0: kvm-pv-eoi, -unhalt
  7.2 and older: kvm-pv-eoi (QEMU 7.2's ABI)
  host, max: everything the host offers, on every machine type

Then the same for recorded hosts (tests/data/hosts/*.host) through
build/tools/cpuid-table, the emulator's own expansion code: on a host
without the 8.1 features they stay off, and silently.  Skips (77) without
/dev/kvm.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import (Machine, host_kvm_pv_features,  # noqa: E402
                         kvm_usable)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
TOOL = os.environ.get("CPUID_TABLE", os.path.join(
    os.path.dirname(os.path.abspath(BINARY)), "tools", "cpuid-table"))
HOSTS = os.path.join(os.path.dirname(__file__), "..", "data", "hosts")

BITS = {"eoi": 6, "unhalt": 7, "tlb": 9, "ipi": 11, "yield": 13}
PROP = {"eoi": "kvm-pv-eoi", "unhalt": "kvm-pv-unhalt",
        "tlb": "kvm-pv-tlb-flush", "ipi": "kvm-pv-ipi",
        "yield": "kvm-pv-sched-yield"}
SWITCH = {f: "x-kvm-auto-enable-" + PROP[f][len("kvm-"):] for f in PROP}
ALL = frozenset(BITS)
DEFAULTS = {"8.1": ALL, "8.0": frozenset({"eoi", "unhalt"}),
            "old": frozenset({"eoi"})}

V81 = ["pc-q35-8.1", "pc-i440fx-8.1", "q35", "pc"]
V80 = ["pc-q35-8.0", "pc-i440fx-8.0"]
OLD = ["pc-q35-7.2", "pc-i440fx-7.2", "pc-i440fx-2.10", "pc-q35-2.4",
       "pc-i440fx-1.4"]
MODELS = ["qemu64", "kvm64", "Haswell", "Skylake-Server", "EPYC", "max",
          "host"]


def defaults(machine):
    if machine in V81:
        return DEFAULTS["8.1"]
    return DEFAULTS["8.0"] if machine in V80 else DEFAULTS["old"]


def edit(base, on=(), off=()):
    return frozenset(base) - frozenset(off) | frozenset(on)


# (name, machine, -cpu, extra args, features asked for)
ROWS = []
for m in V81 + V80 + OLD:
    for c in MODELS:
        ROWS.append((f"{m}/{c}", m, c, [],
                     ALL if c in ("host", "max") else defaults(m)))
for f in ("tlb", "ipi", "yield", "unhalt", "eoi"):
    p = PROP[f]
    ROWS += [
        # the user wins both ways, on every version
        (f"user/8.1/{f}=off", "pc-q35-8.1", f"qemu64,{p}=off", [],
         edit(ALL, off=[f])),
        (f"user/8.1/-{f}", "pc-i440fx-8.1", f"qemu64,-{p}", [],
         edit(ALL, off=[f])),
        (f"user/8.1/max,-{f}", "pc-q35-8.1", f"max,-{p}", [],
         edit(ALL, off=[f])),
        (f"user/8.0/{f}=on", "pc-q35-8.0", f"qemu64,{p}=on", [],
         edit(DEFAULTS["8.0"], on=[f])),
        (f"user/8.0/+{f}", "pc-i440fx-8.0", f"qemu64,+{p}", [],
         edit(DEFAULTS["8.0"], on=[f])),
        (f"user/8.0/{f}=off", "pc-q35-8.0", f"qemu64,{p}=off", [],
         edit(DEFAULTS["8.0"], off=[f])),
        (f"user/7.2/{f}=on", "pc-q35-7.2", f"qemu64,{p}=on", [],
         edit(DEFAULTS["old"], on=[f])),
        (f"user/7.2/+{f}", "pc-i440fx-7.2", f"qemu64,+{p}", [],
         edit(DEFAULTS["old"], on=[f])),
        # ... and so does the switch, through -global
        (f"global/8.1/auto-{f}=off", "pc-q35-8.1", "qemu64",
         ["-global", f"x86_64-cpu.{SWITCH[f]}=off"], edit(ALL, off=[f])),
        (f"global/8.0/auto-{f}=on", "pc-q35-8.0", "qemu64",
         ["-global", f"x86_64-cpu.{SWITCH[f]}=on"],
         edit(DEFAULTS["8.0"], on=[f])),
        (f"global/7.2/auto-{f}=on", "pc-q35-7.2", "qemu64",
         ["-global", f"x86_64-cpu.{SWITCH[f]}=on"],
         edit(DEFAULTS["old"], on=[f])),
    ]
ROWS += [
    ("global/7.2/auto-eoi=off", "pc-q35-7.2", "qemu64",
     ["-global", "x86_64-cpu.x-kvm-auto-enable-pv-eoi=off"], frozenset()),
    ("user/8.1/all-three-off", "pc-q35-8.1",
     "Haswell,kvm-pv-tlb-flush=off,kvm-pv-ipi=off,kvm-pv-sched-yield=off",
     [], DEFAULTS["8.0"]),
    ("user/7.2/all-three-on", "pc-q35-7.2",
     "Haswell,kvm-pv-tlb-flush=on,kvm-pv-ipi=on,kvm-pv-sched-yield=on", [],
     edit(DEFAULTS["old"], on=["tlb", "ipi", "yield"])),
    # No in-kernel irqchip: PV unhalt (QEMU hides it), send-IPI and
    # sched-yield (KVM's LAPIC map serves them) are not auto-enabled
    ("irqchip-off/8.1", "pc-q35-8.1,kernel-irqchip=off", "qemu64", [],
     frozenset({"eoi", "tlb"})),
    ("irqchip-split/8.1", "pc-q35-8.1,kernel-irqchip=split", "qemu64", [],
     ALL),
]


def check_row(machine, cpu, extra, asked, host):
    want = {f for f in asked if host >> BITS[f] & 1}
    if "kernel-irqchip=off" in machine:
        want.discard("unhalt")
    with Machine(BINARY, ["-machine", machine, "-accel", "kvm", "-S",
                          "-cpu", cpu] + extra) as vm:
        eax = vm.cpuid()[(0x40000001, 0)][0]
        path = vm.cpu_path()
        props = {f for f in BITS if vm.qom_get(path, PROP[f])}
        err = vm.stderr()
    bits = {f for f, b in BITS.items() if eax >> b & 1}
    # Filtering warns only for what the user asked for explicitly
    explicit = {f for f in BITS if PROP[f] in cpu}
    quiet = all(PROP[f] not in err for f in BITS if f not in explicit)
    ok = bits == want and props == want and quiet
    return ok, (f"eax=0x{eax:08x} cpuid={sorted(bits)} qom={sorted(props)} "
                f"want={sorted(want)} stderr={err.strip()!r}")


def check_kvm_off():
    with Machine(BINARY, ["-machine", "pc-q35-8.1", "-accel", "kvm", "-S",
                          "-cpu", "qemu64,kvm=off"]) as vm:
        leaves = [k for k in vm.cpuid() if 0x40000000 <= k[0] < 0x50000000]
        return not leaves, f"hypervisor leaves present: {leaves}"


def check_qtest():
    with Machine(BINARY, ["-machine", "pc-q35-8.1", "-accel", "qtest", "-S",
                          "-cpu", "Skylake-Server,kvm-pv-unhalt=on"]) as vm:
        path = vm.cpu_path()
        words = vm.qom_get(path, "feature-words")
        filtered = vm.qom_get(path, "filtered-features")
        kvm = [w["features"] for w in words
               if w["cpuid-input-eax"] == 0x40000001 and
               w["cpuid-register"] == "EAX"]
        ok = kvm == [0] and all(w["features"] == 0 for w in filtered)
        return ok, f"kvm word={kvm} filtered={[w for w in filtered if w['features']]}"


def recorded_host_kvm(hostfile):
    for line in open(hostfile):
        f = line.split()
        if f[:4] == ["cpuid", "0x40000001", "0x0", "0x0"]:
            return int(f[4], 16)
    return 0


# Recorded hosts: (host file, machine, -cpu, features asked for)
RECORDED = [(h, m, c, ALL if c == "max" else defaults(m))
            for h in ("no-pv-tlb-ipi-yield", "no-pv-unhalt", "this-pvm")
            for m in ("pc-q35-8.1", "pc-i440fx-8.1", "pc-q35-8.0",
                      "pc-q35-7.2")
            for c in ("qemu64", "Haswell", "max")]


def check_recorded(host, machine, cpu, asked):
    hostfile = os.path.join(HOSTS, f"{host}.host")
    offered = recorded_host_kvm(hostfile)
    want = {f for f in asked if offered >> BITS[f] & 1}
    p = subprocess.run([TOOL, "--host", hostfile, "--machine", machine,
                        "--cpu", cpu], capture_output=True, text=True)
    eax = None
    for line in p.stdout.splitlines():
        f = line.split()
        if f[:2] == ["0x40000001", "0x00"]:
            eax = int(f[2].split("=")[1], 16)
    bits = {f for f, b in BITS.items() if eax is not None and eax >> b & 1}
    quiet = "kvm-pv" not in p.stderr
    ok = p.returncode == 0 and bits == want and quiet
    return ok, (f"status={p.returncode} eax={eax} got={sorted(bits)} "
                f"want={sorted(want)} stderr={p.stderr.strip()[-300:]!r}")


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    if not os.access(TOOL, os.X_OK):
        print(f"Bail out! {TOOL} is not built")
        return 1
    host = host_kvm_pv_features()
    print(f"# this host's KVM offers 0x40000001.EAX = 0x{host:08x}: "
          + ", ".join(f"{PROP[f]} {'yes' if host >> b & 1 else 'no'}"
                      for f, b in BITS.items()))
    failures = 0
    n = 0

    def report(name, ok, detail):
        nonlocal n, failures
        n += 1
        print(f"{'ok' if ok else 'not ok'} {n} - x86/mission/{name}"
              + ("" if ok else f" # {detail}"))
        failures += not ok

    for row in ROWS:
        report(row[0], *check_row(*row[1:], host))
    for name, fn in (("kvm=off", check_kvm_off), ("qtest", check_qtest)):
        report(name, *fn())
    for h, m, c, asked in RECORDED:
        report(f"recorded/{h}/{m}/{c}", *check_recorded(h, m, c, asked))
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
