#!/usr/bin/env python3
"""What a guest reads, here and under QEMU 7.2 (design §1's guest-ABI rule).

The cpuid test guest boots under this binary and under Debian's QEMU 7.2
with the same machine type, CPU model and -smp, and every CPUID leaf and
subleaf it prints must be equal: cache leaves, topology, the KVM leaves,
and on PVM hosts the leaves the host hands through.  This tree's pc-*-8.0
and pc-*-8.1 are compared with QEMU 7.2's pc-*-7.2: 8.0 may differ only in
kvm-pv-unhalt (0x40000001.EAX bit 7), 8.1 also in kvm-pv-tlb-flush,
kvm-pv-ipi and kvm-pv-sched-yield (bits 9, 11, 13), and only where this
host's KVM offers them (KVM_GET_SUPPORTED_CPUID).  The default guest also times PIT channel 2
through port 0x61 (gate, OUT before and after the count) and polls the
RTC's update-ended and periodic flags (the RTC's timers on the main loop,
under KVM) under both, on q35 resets ich9-ahci and takes the MSI an
empty port's D2H FIS raises into its LAPIC's IRR (KVM_SIGNAL_MSI), and
the chaos guest reads and writes random addresses where neither board has
RAM or a device (the PCI hole): what it reads there (its "CHAOS mem"
lines) must be the same too.
Explicit vendor= cases take the other vendor's path whatever the host.
QEMU 7.2 boots the cpuid guest through qboot (see QBOOT below).
Where QEMU 7.2 crashes (it aborts for -cpu host and max on some AMD hosts)
the case is a TAP skip with QEMU's message, and this tree's guest must
still run.  Skips (77) without /dev/kvm or QEMU 7.2.  QEMU_72 overrides
the oracle; GUEST_CPUS (comma-separated, properties after ':') keeps only
the cases of those -cpu values and drops the board cases (port 0x61,
unassigned memory).
"""

import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import (crash_message, host_kvm_pv_features,  # noqa: E402
                         kvm_usable)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "cpuid.elf")

# (our machine, QEMU's machine, -cpu, -smp)
CASES = [(m, m, c, 1) for m in ("pc-q35-7.2", "pc-i440fx-7.2")
         for c in ("qemu64", "kvm64", "Haswell", "Skylake-Server",
                   "Icelake-Server", "EPYC", "EPYC-Rome", "EPYC-Milan",
                   "Dhyana", "host", "max")]
CASES += [(m, m, c, 1) for m in ("pc-i440fx-2.4", "pc-q35-2.11", "pc-q35-4.0")
          for c in ("qemu64", "Haswell", "EPYC")]
CASES += [("pc-q35-7.2", "pc-q35-7.2", "qemu64", 2),
          ("pc-i440fx-6.1", "pc-i440fx-6.1", "EPYC", 4),
          ("pc-q35-8.0", "pc-q35-7.2", "qemu64", 2),
          ("pc-q35-8.0", "pc-q35-7.2", "EPYC-Rome", 1),
          ("pc-i440fx-8.0", "pc-i440fx-7.2", "host", 1),
          ("pc-q35-8.1", "pc-q35-7.2", "qemu64", 2),
          ("pc-i440fx-8.1", "pc-i440fx-7.2", "Haswell", 1),
          ("pc-q35-8.1", "pc-q35-7.2", "host", 1),
          ("pc-q35-7.2", "pc-q35-7.2", "qemu64,vendor=AuthenticAMD", 1),
          ("pc-q35-7.2", "pc-q35-7.2", "EPYC,vendor=AuthenticAMD", 4),
          ("pc-i440fx-7.2", "pc-i440fx-7.2", "Haswell,vendor=GenuineIntel",
           2),
          # Hyper-V leaves as 7.2's; without Hyper-V in the host's KVM,
          # 7.2 drops the request silently (no dependencies here, so the
          # case holds on hosts with Hyper-V too)
          ("pc-q35-7.2", "pc-q35-7.2",
           "qemu64,hv-relaxed=on,hv-crash=on,hv-reset=on", 1)]
# 0x40000001.EAX bits this tree's versions add for named models
PV_STEPS = {"8.0": 1 << 7, "8.1": (1 << 7) | (1 << 9) | (1 << 11) | (1 << 13)}
# QEMU 7.2 boots the guest through firmware; on a PVM host SeaBIOS takes
# 12 s of emulation per boot, qboot 0.5 s.  CPUID does not depend on the
# firmware, so qboot runs every case but these, which keep SeaBIOS (the
# default) as the check that it does not.
QBOOT = "/usr/share/qemu/qboot.rom"
# A SeaBIOS boot with 4 vCPUs takes ~30 s of emulation on an idle 2-core
# PVM host; on a loaded one (CI with the ASan build beside it) over 120 s
BOOT_TIMEOUT = 400
SEABIOS_CASES = {("pc-q35-7.2", "pc-q35-7.2", "Skylake-Server", 1),
                 ("pc-i440fx-6.1", "pc-i440fx-6.1", "EPYC", 4)}


def guest_cpuid(binary, machine, cpu, smp, firmware=()):
    argv = [binary, "-machine", f"{machine},accel=kvm", "-cpu", cpu,
            "-m", "128", "-smp", str(smp), "-nodefaults", "-display", "none",
            "-serial", "stdio", "-device",
            "isa-debug-exit,iobase=0xf4,iosize=0x04", "-no-reboot",
            "-kernel", GUEST, "-append", f"all-cpus cpus={smp}"] + \
        list(firmware)
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=BOOT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    out = p.stdout.decode(errors="replace")
    crash = crash_message(p.returncode, p.stderr.decode(errors="replace"))
    if crash:
        return None, ("crash", crash)
    if "CPUID-DONE" not in out:
        return None, f"status {p.returncode}: {out[-200:]!r}"
    table = {}
    pat = re.compile(r"(cpu \d+: )?CPUID (0x[0-9a-f]+) (0x[0-9a-f]+) "
                     r"eax=(0x[0-9a-f]+) ebx=(0x[0-9a-f]+) "
                     r"ecx=(0x[0-9a-f]+) edx=(0x[0-9a-f]+)")
    for m in pat.finditer(out):
        key = (m.group(1) or "", int(m.group(2), 16), int(m.group(3), 16))
        table[key] = tuple(int(x, 16) for x in m.groups()[3:])
    return table, None


def guest_pit_ch2(binary, machine, option="pit-ch2", line="PIT-CH2"):
    """The default guest's PIT-CH2 line (or another option's), or an
    error"""
    argv = [binary, "-machine", f"{machine},accel=kvm", "-m", "128",
            "-nodefaults", "-display", "none", "-serial", "stdio",
            "-kernel", os.path.join(os.path.dirname(GUEST), "default.elf"),
            "-append", f"exit=acpi {option}"]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=BOOT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout"
    out = p.stdout.decode(errors="replace")
    m = re.search(line + r" [^\r\n]*", out)
    return m.group(0) if m else f"status {p.returncode}: {out[-200:]!r}"


def guest_chaos_mem(binary, machine):
    """The chaos guest's lines about unassigned memory, or an error."""
    argv = [binary, "-machine", f"{machine},accel=kvm", "-m", "256",
            "-nodefaults", "-display", "none", "-serial", "stdio",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", os.path.join(os.path.dirname(GUEST), "chaos.elf"),
            "-append", "exit=acpi"]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=180)
    except subprocess.TimeoutExpired:
        return "timeout"
    out = p.stdout.decode(errors="replace")
    if "CHAOS-DONE" not in out:
        return f"status {p.returncode}: {out[-200:]!r}"
    return [l for l in out.splitlines() if l.startswith("CHAOS mem")]


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    try:
        version = subprocess.run([ORACLE, "-version"], capture_output=True,
                                 text=True).stdout
    except OSError:
        version = ""
    if "version 7.2" not in version:
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    if not os.path.exists(GUEST):
        print(f"Bail out! {GUEST} not built (meson builds it with this test)")
        return 1

    def run(case):
        ours_m, their_m, cpu, smp = case
        firmware = () if case in SEABIOS_CASES or not \
            os.path.exists(QBOOT) else ("-bios", QBOOT)
        return case, guest_cpuid(BINARY, ours_m, cpu, smp), \
            guest_cpuid(ORACLE, their_m, cpu, smp, firmware)

    cases = CASES
    if os.environ.get("GUEST_CPUS"):
        cpus = [c.replace(":", ",") for c in
                os.environ["GUEST_CPUS"].split(",")]
        cases = [c for c in CASES if c[2] in cpus]
    failures = n = 0
    oracle_crashes = []
    host_pv = host_kvm_pv_features()
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        for case, (a, aerr), (b, berr) in pool.map(run, cases):
            n += 1
            ours_m, their_m, cpu, smp = case
            name = f"x86/guest-vs-qemu72/{ours_m}/{cpu}/smp{smp}"
            diffs = []
            if isinstance(berr, tuple) and not aerr:
                # QEMU 7.2 crashed: nothing to compare, ours ran
                oracle_crashes.append(name)
                print(f"ok {n} - {name} # SKIP QEMU 7.2 {berr[1]}")
                continue
            if isinstance(berr, tuple):
                berr = f"crashed, {berr[1]}"
            if isinstance(aerr, tuple):
                aerr = f"crashed, {aerr[1]}"
            if aerr or berr:
                diffs.append(f"ours: {aerr} qemu72: {berr}")
            else:
                for key in sorted(set(a) | set(b)):
                    va, vb = a.get(key), b.get(key)
                    if va == vb:
                        continue
                    # This version's bits, where the host offers them
                    step = PV_STEPS.get(ours_m.rsplit("-", 1)[-1], 0) \
                        if ours_m != their_m else 0
                    if step and key[1] == 0x40000001 and va and vb and \
                            va[1:] == vb[1:] and \
                            (va[0] ^ vb[0]) == step & host_pv & ~vb[0]:
                        continue
                    diffs.append(f"{key[0]}leaf {key[1]:#x}.{key[2]:#x}: ours "
                                 f"{[hex(x) for x in va or ()]} qemu72 "
                                 f"{[hex(x) for x in vb or ()]}")
            print(f"{'not ok' if diffs else 'ok'} {n} - {name}")
            for d in diffs[:6]:
                print(f"#   {d}")
            failures += bool(diffs)
    board_machines = () if cases is not CASES else ("pc-q35-7.2",
                                                     "pc-i440fx-7.2")
    for machine in board_machines:
        n += 1
        a, b = guest_pit_ch2(BINARY, machine), guest_pit_ch2(ORACLE, machine)
        ok = a == b and a.startswith("PIT-CH2")
        print(f"{'ok' if ok else 'not ok'} {n} - "
              f"x86/guest-vs-qemu72/{machine}/port-0x61-pit-ch2")
        if not ok:
            print(f"#   ours: {a!r} qemu72: {b!r}")
        failures += not ok
    for machine in board_machines:
        n += 1
        a = guest_pit_ch2(BINARY, machine, "rtc", "RTC")
        b = guest_pit_ch2(ORACLE, machine, "rtc", "RTC")
        ok = a == b and a.startswith("RTC")
        print(f"{'ok' if ok else 'not ok'} {n} - "
              f"x86/guest-vs-qemu72/{machine}/rtc-poll")
        if not ok:
            print(f"#   ours: {a!r} qemu72: {b!r}")
        failures += not ok
    # ich9-ahci's MSI from an empty port's D2H FIS, into the LAPIC's IRR
    for machine in [m for m in board_machines if "q35" in m]:
        n += 1
        a = guest_pit_ch2(BINARY, machine, "ahci-msi", "AHCI-MSI")
        b = guest_pit_ch2(ORACLE, machine, "ahci-msi", "AHCI-MSI")
        ok = a == b and "irr=yes" in a
        print(f"{'ok' if ok else 'not ok'} {n} - "
              f"x86/guest-vs-qemu72/{machine}/ahci-msi")
        if not ok:
            print(f"#   ours: {a!r} qemu72: {b!r}")
        failures += not ok
    for machine in board_machines:
        n += 1
        a = guest_chaos_mem(BINARY, machine)
        b = guest_chaos_mem(ORACLE, machine)
        ok = a == b and isinstance(a, list) and len(a) >= 2
        print(f"{'ok' if ok else 'not ok'} {n} - "
              f"x86/guest-vs-qemu72/{machine}/unassigned-memory")
        if not ok:
            print(f"#   ours: {a}\n#   qemu72: {b}")
        failures += not ok
    if oracle_crashes:
        print(f"# QEMU 7.2 crashed, nothing to compare ({len(oracle_crashes)}):"
              f" {', '.join(oracle_crashes)}")
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
