#!/usr/bin/env python3
"""Hyper-V on this host (issue 5): its KVM has no Hyper-V (KVM_CAP_HYPERV
is 0), so an explicit hv-* feature request fails at start-up with exit
status 1 and QEMU 7.2's "Hyper-V %s is not supported by kernel" text, while
the same models without hv-* (and hv-* switched off, or only the value
properties) still start.  pc-q35-8.1's hv-tlbflush auto-enable changes
nothing here: no Hyper-V leaves appear by themselves (KVM's signature stays
at 0x40000000, hv-tlbflush and hv-ipi read off), and explicit requests fail
as on 8.0.  Skips (77) without /dev/kvm or on a host whose KVM does offer
Hyper-V (the recorded-host tests cover those).
"""

import fcntl
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import (Machine, crash_message, kvm_usable,  # noqa: E402
                         run)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
P = "qemu-system-x86_64: "
KVM_CHECK_EXTENSION = 0xAE03
KVM_CAP_HYPERV = 44


def nope(desc):
    return f"{P}Hyper-V {desc} is not supported by kernel\n"


# -cpu option (on pc-q35-8.0 unless given) -> exact stderr
FAILS = [
    ("host,hv-relaxed=on", nope("relaxed timing (hv-relaxed)")),
    ("host,hv-vpindex=on", nope("VP_INDEX MSR (hv-vpindex)")),
    # Support is checked before dependencies, as in QEMU
    ("host,hv-ipi=on", nope("paravirtualized IPI (hv-ipi)")),
    ("host,hv-ipi=on,hv-vpindex=on", nope("VP_INDEX MSR (hv-vpindex)")),
    ("host,hv-vapic=on,hv-spinlocks=0x1fff", nope("virtual APIC (hv-vapic)")),
    ("host,hv-synic=on", nope("synthetic interrupt controller (hv-synic)")),
    ("host,hv-time=on", nope("clocksources (hv-time)")),
    ("host,hv-apicv=on", nope("AVIC/APICv support (hv-avic/hv-apicv)")),
    ("qemu64,hv-tlbflush=on", nope("paravirtualized TLB flush (hv-tlbflush)")),
    ("Skylake-Server,hv-evmcs=on", nope("enlightened VMCS (hv-evmcs)")),
    ("max,hv-stimer-direct=on",
     nope("direct mode synthetic timers (hv-stimer-direct)")),
    ("host,hv-relaxed=on,hv-vpindex=on", nope("relaxed timing (hv-relaxed)")),
]
# Machine types up to 7.2 behave as QEMU 7.2 on this host: each of these
# -cpu values runs under both (pc-q35-7.2 and pc-i440fx-5.1); the exit status
# and stderr must be equal, except where 7.2 aborts (it writes the MSRs of
# hv-vapic, hv-time, hv-synic and hv-reenlightenment anyway), where this
# tree refuses with its usual text.  What starts has no Hyper-V leaves.
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
LIKE_7_2 = ["host,hv-relaxed=on", "host,hv-vpindex=on", "host,hv-ipi=on",
            "qemu64,hv-relaxed=on,hv-vpindex=on,hv-ipi=on",
            "qemu64,hv-stimer=on", "host,hv-crash=on,hv-reset=on",
            "host,hv-runtime=on,hv-frequencies=on,hv-tlbflush=on",
            "Skylake-Server,hv-evmcs=on", "max,hv-stimer-direct=on",
            "host,hv-apicv=on", "host,hv-syndbg=on", "qemu64,hv-xmm-input=on",
            "host,hv-tlbflush-ext=on,hv-tlbflush-direct=on",
            "host,hv-emsr-bitmap=on", "host,hv-passthrough=on",
            "host,hv-relaxed=on,hv-enforce-cpuid=on",
            "host,hv-vapic=on", "host,hv-time=on", "host,hv-synic=on",
            "host,hv-reenlightenment=on", "host,hv-vapic=on,hv-vpindex=on"]
LIKE_7_2_MACHINES = ["pc-q35-7.2", "pc-i440fx-5.1"]
# 8.1: the lines 8.1's hv-tlbflush auto-enable would act on fail as before
FAILS_8_1 = [
    ("host,hv-vpindex=on", nope("VP_INDEX MSR (hv-vpindex)")),
    ("host,hv-tlbflush=on", nope("paravirtualized TLB flush (hv-tlbflush)")),
    ("host,hv-tlbflush=on,hv-vpindex=on", nope("VP_INDEX MSR (hv-vpindex)")),
    ("qemu64,hv-tlbflush-ext=on",
     nope("Extended gva ranges for TLB flush hypercalls (hv-tlbflush-ext)")),
    ("host,hv-ipi=on", nope("paravirtualized IPI (hv-ipi)")),
]

# These start: no hv-* feature bit is requested
STARTS = ["host", "qemu64", "Skylake-Server", "max", "host,hv-ipi=off",
          "host,hv-vpindex=off,hv-relaxed=off", "host,hv-spinlocks=0x1fff",
          "host,hv-passthrough=on", "host,hv-vendor-id=KVMKVMKVM",
          "host,hv-version-id-build=0x1bbc", "host,x-hv-max-vps=8",
          "host,hv-tlbflush=off", "qemu64,hv-tlbflush=off,hv-vpindex=off"]
START_MACHINES = ["pc-q35-8.1", "pc-q35-8.0"]
KVM_SIGNATURE = (0x4b4d564b, 0x564b4d56, 0x4d)


def host_has_hyperv():
    fd = os.open("/dev/kvm", os.O_RDWR)
    try:
        return fcntl.ioctl(fd, KVM_CHECK_EXTENSION, KVM_CAP_HYPERV) > 0
    finally:
        os.close(fd)


def starts_without_hyperv(machine, cpu, auto_off=True):
    """Starts, and nothing Hyper-V appeared by itself (no Hyper-V leaves;
    with auto_off, hv-tlbflush and hv-ipi read off)"""
    m = Machine(BINARY, ["-accel", "kvm", "-machine", machine, "-cpu", cpu,
                         "-S"])
    try:
        with m:
            status = m.cmd("query-status")["status"]
            sig = m.cpuid().get((0x40000000, 0), (0, 0, 0, 0))[1:]
            path = m.cpu_path()
            hv = {p: m.qom_get(path, p) for p in ("hv-tlbflush", "hv-ipi")}
    except Exception as e:  # noqa: BLE001 - reported as a failure
        return False, f"{e}: {m.stderr()}"
    ok = status == "prelaunch" and sig == KVM_SIGNATURE and \
        not (auto_off and any(hv.values()))
    return ok, f"status {status} 0x40000000 {[hex(x) for x in sig]} {hv}"


def start_status(binary, machine, cpu):
    """(exit status, stderr) of a start that quits at once"""
    argv = ["-accel", "kvm", "-machine", machine, "-cpu", cpu,
            "-display", "none", "-nodefaults", "-S", "-qmp", "stdio"]
    status, _, err = run(binary, argv, timeout=60,
                         input=b'{"execute":"qmp_capabilities"}\n'
                               b'{"execute":"quit"}\n')
    return status, err


def like_qemu72(machine, cpu):
    ours, theirs = start_status(BINARY, machine, cpu), \
        start_status(ORACLE, machine, cpu)
    if crash_message(*theirs):
        ok = ours[0] == 1 and ours[1].endswith(
            "is not supported by kernel\n")
    else:
        ok = ours == theirs
    if ok and ours[0] == 0:
        ok, why = starts_without_hyperv(machine, cpu, auto_off=False)
        if not ok:
            return False, why
    return ok, f"ours {ours} qemu72 {theirs}"


def main():
    if not kvm_usable():
        print("1..0 # SKIP no /dev/kvm")
        return 77
    if host_has_hyperv():
        print("1..0 # SKIP this host's KVM offers Hyper-V")
        return 77
    cases = [("pc-q35-8.0", c, e) for c, e in FAILS] + \
            [("pc-q35-8.1", c, e) for c, e in FAILS_8_1]
    total = len(cases) + len(STARTS) * len(START_MACHINES) + \
        len(LIKE_7_2) * len(LIKE_7_2_MACHINES)
    print(f"1..{total}")
    n = failures = 0
    for machine in LIKE_7_2_MACHINES:
        for cpu in LIKE_7_2:
            n += 1
            name = f"x86/hyperv/like-7.2/{machine}/{cpu}"
            if not os.path.exists(ORACLE):
                print(f"ok {n} - {name} # SKIP no QEMU 7.2 at {ORACLE}")
                continue
            ok, why = like_qemu72(machine, cpu)
            failures += not ok
            print(f"{'ok' if ok else 'not ok'} {n} - {name}" +
                  ("" if ok else f" # {why}"))
    for machine, cpu, expected in cases:
        n += 1
        status, _, err = run(BINARY, ["-accel", "kvm", "-machine", machine,
                                      "-cpu", cpu, "-display", "none",
                                      "-nodefaults", "-S"], timeout=30)
        ok = status == 1 and err == expected
        failures += not ok
        print(f"{'ok' if ok else 'not ok'} {n} - x86/hyperv/fails/{machine}/"
              f"{cpu}" + ("" if ok else f" # status={status} stderr={err!r}"))
    for machine in START_MACHINES:
        for cpu in STARTS:
            n += 1
            ok, why = starts_without_hyperv(machine, cpu)
            failures += not ok
            print(f"{'ok' if ok else 'not ok'} {n} - x86/hyperv/starts/"
                  f"{machine}/{cpu}" + ("" if ok else f" # {why}"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
