#!/usr/bin/env python3
"""The mission matrix (issue 2, must-show 1) against the real binary.

Under -accel kvm, for each row: start the emulator paused, read CPUID
0x40000001.EAX through x-query-cpuid and the kvm-pv-* properties through
qom-get, and compare both with the expectation.  Skips (77) without /dev/kvm.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
PV_EOI = 1 << 6
PV_UNHALT = 1 << 7

NEW = ["pc-q35-8.0", "pc-i440fx-8.0", "q35", "pc"]
OLD = ["pc-q35-7.2", "pc-i440fx-2.10", "pc-q35-2.4", "pc-i440fx-1.4"]
MODELS = ["qemu64", "kvm64", "Haswell", "Skylake-Server", "EPYC", "max",
          "host"]

# (name, machine, -cpu, extra args, unhalt expected, eoi expected)
ROWS = []
for m in NEW:
    for c in MODELS:
        ROWS.append((f"{m}/{c}", m, c, [], True, True))
for m in OLD:
    for c in MODELS:
        ROWS.append((f"{m}/{c}", m, c, [], c in ("host", "max"), True))
ROWS += [
    ("user/8.0/unhalt=off", "pc-q35-8.0", "qemu64,kvm-pv-unhalt=off", [],
     False, True),
    ("user/8.0/-unhalt", "pc-q35-8.0", "qemu64,-kvm-pv-unhalt", [],
     False, True),
    ("user/7.2/unhalt=on", "pc-q35-7.2", "qemu64,kvm-pv-unhalt=on", [],
     True, True),
    ("user/7.2/+unhalt", "pc-q35-7.2", "qemu64,+kvm-pv-unhalt", [],
     True, True),
    ("global/7.2/auto-unhalt=on", "pc-q35-7.2", "qemu64",
     ["-global", "x86_64-cpu.x-kvm-auto-enable-pv-unhalt=on"], True, True),
    ("global/8.0/auto-unhalt=off", "pc-q35-8.0", "qemu64",
     ["-global", "x86_64-cpu.x-kvm-auto-enable-pv-unhalt=off"], False, True),
    ("user/8.0/eoi=off", "pc-q35-8.0", "qemu64,kvm-pv-eoi=off", [],
     True, False),
    ("user/8.0/-eoi", "pc-q35-8.0", "qemu64,-kvm-pv-eoi", [], True, False),
    ("user/7.2/eoi=on", "pc-q35-7.2", "qemu64,kvm-pv-eoi=on", [],
     False, True),
    ("user/7.2/+eoi", "pc-q35-7.2", "qemu64,+kvm-pv-eoi", [], False, True),
    ("global/7.2/auto-eoi=on", "pc-q35-7.2", "qemu64",
     ["-global", "x86_64-cpu.x-kvm-auto-enable-pv-eoi=on"], False, True),
    ("global/8.0/auto-eoi=off", "pc-q35-8.0", "qemu64",
     ["-global", "x86_64-cpu.x-kvm-auto-enable-pv-eoi=off"], True, False),
    ("global/7.2/auto-eoi=off", "pc-q35-7.2", "qemu64",
     ["-global", "x86_64-cpu.x-kvm-auto-enable-pv-eoi=off"], False, False),
]


def check_row(name, machine, cpu, extra, unhalt, eoi):
    with Machine(BINARY, ["-machine", machine, "-accel", "kvm", "-S",
                          "-cpu", cpu] + extra) as vm:
        table = vm.cpuid()
        eax = table[(0x40000001, 0)][0]
        path = vm.cpu_path()
        got = {
            "cpuid-unhalt": bool(eax & PV_UNHALT),
            "cpuid-eoi": bool(eax & PV_EOI),
            "prop-unhalt": vm.qom_get(path, "kvm-pv-unhalt"),
            "prop-eoi": vm.qom_get(path, "kvm-pv-eoi"),
        }
        want = {"cpuid-unhalt": unhalt, "cpuid-eoi": eoi,
                "prop-unhalt": unhalt, "prop-eoi": eoi}
        return got == want, f"eax=0x{eax:08x} got={got} want={want}"


def check_kvm_off():
    with Machine(BINARY, ["-machine", "pc-q35-8.0", "-accel", "kvm", "-S",
                          "-cpu", "qemu64,kvm=off"]) as vm:
        leaves = [k for k in vm.cpuid() if 0x40000000 <= k[0] < 0x50000000]
        return not leaves, f"hypervisor leaves present: {leaves}"


def check_qtest():
    with Machine(BINARY, ["-machine", "pc-q35-8.0", "-accel", "qtest", "-S",
                          "-cpu", "Skylake-Server,kvm-pv-unhalt=on"]) as vm:
        path = vm.cpu_path()
        words = vm.qom_get(path, "feature-words")
        filtered = vm.qom_get(path, "filtered-features")
        kvm = [w["features"] for w in words
               if w["cpuid-input-eax"] == 0x40000001 and
               w["cpuid-register"] == "EAX"]
        ok = kvm == [0] and all(w["features"] == 0 for w in filtered)
        return ok, f"kvm word={kvm} filtered={[w for w in filtered if w['features']]}"


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    failures = 0
    n = 0
    for row in ROWS:
        n += 1
        ok, detail = check_row(*row)
        print(f"{'ok' if ok else 'not ok'} {n} - x86/mission/{row[0]}"
              + ("" if ok else f" # {detail}"))
        failures += not ok
    for name, fn in (("kvm=off", check_kvm_off), ("qtest", check_qtest)):
        n += 1
        ok, detail = fn()
        print(f"{'ok' if ok else 'not ok'} {n} - x86/mission/{name}"
              + ("" if ok else f" # {detail}"))
        failures += not ok
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
