#!/usr/bin/env python3
"""Test guests under KVM (issue 4, must-shows 1, 2, 4 and 5; issue 11).

The guests of tests/guest/ boot in milliseconds, talk over COM1 and leave
through ACPI poweroff or isa-debug-exit.  Every case has a timeout; a
guest that hangs, prints nothing or stops on an emulation error is
reported as such, distinctly.  Skips (77) without /dev/kvm.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import (Machine, host_kvm_pv_features,  # noqa: E402
                         kvm_usable)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUESTS = os.environ.get("GUEST_DIR", os.path.join(
    os.path.dirname(os.path.abspath(BINARY)), "tests", "guest"))
# The KVM PV features the machine types' auto-enables manage (bits of
# 0x40000001.EAX), and what each version turns on for a named model
PV = {"kvm-pv-eoi": 6, "kvm-pv-unhalt": 7, "kvm-pv-tlb-flush": 9,
      "kvm-pv-ipi": 11, "kvm-pv-sched-yield": 13}
PV_MASK = sum(1 << b for b in PV.values())
V81 = set(PV)
V80 = {"kvm-pv-eoi", "kvm-pv-unhalt"}
V72 = {"kvm-pv-eoi"}
HOST_PV = 0   # what this host's KVM offers, read in main()


def pv_bits(features):
    """0x40000001.EAX bits a guest must see: asked for and offered"""
    return sum(1 << PV[f] for f in features) & HOST_PV
DEBUG_EXIT = ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - guests/{name}" +
          ("" if ok else f" # {detail}"))


def guest(name):
    return os.path.join(GUESTS, f"{name}.elf")


def run_guest(elf, args, timeout=60):
    """Runs to completion: (exit status or 'timeout', serial text, stderr)."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "serial.log")
        argv = [BINARY, "-display", "none", "-nodefaults", "-serial",
                f"file:{log}", "-kernel", elf] + args
        try:
            p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=timeout)
            status, err = p.returncode, p.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired as e:
            status = "timeout"
            err = (e.stderr or b"").decode(errors="replace")
        text = open(log, errors="replace").read() if os.path.exists(log) \
            else ""
    return status, text, err


def parse_cpuid(text, prefix=""):
    """{(leaf, subleaf): (eax, ebx, ecx, edx)} from the cpuid guest."""
    table = {}
    pat = re.compile(re.escape(prefix) + r"CPUID (0x[0-9a-f]+) (0x[0-9a-f]+)"
                     r" eax=(0x[0-9a-f]+) ebx=(0x[0-9a-f]+)"
                     r" ecx=(0x[0-9a-f]+) edx=(0x[0-9a-f]+)")
    for m in pat.finditer(text):
        v = [int(x, 16) for x in m.groups()]
        table[(v[0], v[1])] = tuple(v[2:])
    return table


def host_is_pvm():
    return os.path.isdir("/sys/module/kvm_pvm")


# PVM (this project's CI hosts) hands the guest the host's own feature
# leaves, whatever KVM_SET_CPUID2 said; QEMU 7.2's guests see the same.
PVM_HOST_LEAVES = {(1, 0): (0, 0, 0xffffffff, 0xffffffff), (7, 0): None}


def pvm_host_mask(key):
    if key[0] == 0xd:           # every XSAVE subleaf
        return (0xffffffff,) * 4
    if key in PVM_HOST_LEAVES:
        return PVM_HOST_LEAVES[key] or (0xffffffff,) * 4
    return None

# Bits the CPU itself sets at run time, not part of the CPUID table:
# leaf 1 ECX OSXSAVE (27), leaf 7 ECX OSPKE (4), leaf 0xD EBX (size of the
# enabled XSAVE state).
DYNAMIC = {(1, 0): (0, 0, 1 << 27, 0), (7, 0): (0, 0, 1 << 4, 0),
           (0xd, 0): (0, 0xffffffff, 0, 0), (0xd, 1): (0, 0xffffffff, 0, 0)}


def cpuid_case(machine, cpu, pv, smp=2):
    """Boots the cpuid guest paused, reads every vCPU's x-query-cpuid,
    runs it, and compares what each vCPU printed with it."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "serial.log")
        with Machine(BINARY, ["-machine", machine, "-accel", "kvm", "-S",
                              "-cpu", cpu, "-smp", str(smp), "-m", "128",
                              "-serial", f"file:{log}",
                              "-kernel", guest("cpuid"),
                              "-append", f"all-cpus cpus={smp} exit=acpi"]
                     ) as vm:
            tables = []
            for i in range(smp):
                t = {}
                for e in vm.cmd("x-query-cpuid", {"cpu-index": i}):
                    t[(e["leaf"], e["subleaf"])] = (e["eax"], e["ebx"],
                                                    e["ecx"], e["edx"])
                tables.append(t)
            vm.cmd("cont")
            vm.wait_event("SHUTDOWN", timeout=60)
        text = open(log, errors="replace").read()
    name = f"cpuid/{machine}/{cpu}"
    if "CPUID-DONE" not in text:
        report(name, False, f"no CPUID-DONE: {text[-300:]!r}")
        return
    problems = []
    for i in range(smp):
        seen = parse_cpuid(text, f"cpu {i}: ")
        if not seen:
            problems.append(f"cpu {i} printed no leaves")
            continue
        eax = seen.get((0x40000001, 0), (0,))[0]
        if eax & PV_MASK != pv_bits(pv):
            problems.append(f"cpu {i}: 0x40000001.eax=0x{eax:08x}, PV bits "
                            f"want 0x{pv_bits(pv):08x}")
        for key, regs in seen.items():
            mask = DYNAMIC.get(key, (0, 0, 0, 0))
            pvm = pvm_host_mask(key) if host_is_pvm() else None
            if pvm:
                mask = tuple(a | b for a, b in zip(mask, pvm))
            want = tables[i].get(key, (0, 0, 0, 0))
            if any((a & ~m) != (b & ~m) for a, b, m in zip(regs, want, mask)):
                problems.append(f"cpu {i} leaf {key[0]:#x}.{key[1]:#x}: guest "
                                f"{[hex(x) for x in regs]} x-query-cpuid "
                                f"{[hex(x) for x in want]}")
    report(name, not problems, "; ".join(problems[:4]))


def hypercall_cases():
    """PV unhalt, send-IPI and sched-yield are hypercalls (KVM_HC_KICK_CPU,
    KVM_HC_SEND_IPI, KVM_HC_SCHED_YIELD): with kvm-pv-enforce-cpuid=on KVM
    refuses each one whose CPUID bit the machine type withheld.  Only on
    VMX/SVM hosts: under PVM a guest's vmcall never returns."""
    cases = [("pc-q35-8.1", "", V81), ("pc-q35-8.0", "", V80),
             ("pc-q35-7.2", "", V72),
             ("pc-q35-8.1", ",kvm-pv-ipi=off", V81 - {"kvm-pv-ipi"})]
    for machine, extra, pv in cases:
        name = f"pv-hypercalls/{machine}{extra}"
        if host_is_pvm():
            report(f"{name} # SKIP needs VMX/SVM: under this host's PVM KVM "
                   "a guest's vmcall never returns", True)
            continue
        status, text, err = run_guest(guest("pv-msr"), [
            "-machine", machine, "-accel", "kvm", "-m", "128",
            "-cpu", "qemu64,kvm-pv-enforce-cpuid=on" + extra,
            "-append", "exit=acpi hypercalls"])
        got = {m.group(1): int(m.group(2)) for m in re.finditer(
            r"HC (\S+) \d+ ret=(-?\d+)", text)}
        want = {"kick-cpu": "kvm-pv-unhalt", "send-ipi": "kvm-pv-ipi",
                "sched-yield": "kvm-pv-sched-yield"}
        ok = status == 0 and "HC-DONE mismatches=0" in text and \
            set(got) == set(want) and \
            all((got[c] != -1000) == bool(pv_bits({f}) and f in pv)
                for c, f in want.items())
        report(name, ok, f"status={status} {got} {text[-300:]!r}")


def nmi_case(binary, mode, extra=()):
    """inject-nmi while the guest waits for one: (serial text, reply)"""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "serial.log")
        with Machine(binary, ["-machine", "pc-q35-7.2", "-accel", "kvm",
                              "-m", "128", "-serial", f"file:{log}",
                              "-device",
                              "isa-debug-exit,iobase=0xf4,iosize=0x04",
                              "-kernel", guest("default"),
                              "-append", mode] + list(extra)) as vm:
            deadline = time.monotonic() + 120
            reply = None
            while time.monotonic() < deadline:
                text = open(log, errors="replace").read()
                if reply is None and "WAIT-NMI READY" in text:
                    reply = vm.cmd_raw("inject-nmi")
                if "GUEST-DONE" in text or vm.proc.poll() is not None:
                    break
                time.sleep(0.05)
        return open(log, errors="replace").read(), reply


def check_inject_nmi():
    """QMP inject-nmi reaches a running guest once through LINT1, and not
    while LINT1 is masked (its reset state), as in QEMU 7.2"""
    qboot = "/usr/share/qemu/qboot.rom"
    pick = re.compile(r"NMI count=\d+|WAIT-NMI \w+")
    for mode, want in (("wait-nmi=lint1", "GOT"), ("wait-nmi", "TIMEOUT")):
        text, reply = nmi_case(BINARY, mode)
        report(f"inject-nmi/{mode}", reply == {"return": {}} and
               f"WAIT-NMI {want}" in text and
               ("NMI count=1" in text) == (want == "GOT"),
               f"{reply} {text[-200:]!r}")
        if os.access(ORACLE, os.X_OK) and os.path.exists(qboot):
            theirs, reply72 = nmi_case(ORACLE, mode, ["-bios", qboot])
            report(f"inject-nmi/{mode}/as-qemu72", pick.findall(text) ==
                   pick.findall(theirs) and reply == reply72,
                   f"ours {pick.findall(text)} {reply}, QEMU 7.2 "
                   f"{pick.findall(theirs)} {reply72}")


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    if not os.path.exists(guest("cpuid")):
        # meson builds them with this test: missing is a build failure
        print(f"Bail out! test guests not built in {GUESTS}")
        return 1

    global HOST_PV
    HOST_PV = host_kvm_pv_features()
    print(f"# this host's KVM offers 0x40000001.EAX = 0x{HOST_PV:08x}")

    # Must-show 1: what the guest reads, per machine type, both vCPUs
    for machine, want in (("pc-q35-8.1", V81), ("pc-q35-8.0", V80),
                          ("pc-q35-7.2", V72), ("pc-i440fx-8.1", V81),
                          ("pc-i440fx-8.0", V80), ("pc-i440fx-7.2", V72)):
        cpuid_case(machine, "qemu64", want)
    cpuid_case("pc-q35-7.2", "qemu64,kvm-pv-unhalt=on", V72 | {"kvm-pv-unhalt"})
    cpuid_case("pc-q35-8.0", "qemu64,kvm-pv-unhalt=off", V72)
    cpuid_case("pc-q35-8.0", "Haswell", V80)
    cpuid_case("pc-q35-8.1", "Haswell", V81)
    cpuid_case("pc-q35-8.1", "qemu64,kvm-pv-ipi=off,-kvm-pv-tlb-flush",
               V81 - {"kvm-pv-ipi", "kvm-pv-tlb-flush"})
    cpuid_case("pc-q35-8.0", "qemu64,kvm-pv-sched-yield=on,+kvm-pv-ipi",
               V80 | {"kvm-pv-sched-yield", "kvm-pv-ipi"})
    cpuid_case("pc-i440fx-7.2", "qemu64,kvm-pv-tlb-flush=on",
               V72 | {"kvm-pv-tlb-flush"})

    # Every AP brought up with INIT/SIPI; each vCPU reports its KVM leaf
    for machine, smp, want in (("pc-q35-8.1", 4, V81), ("pc-q35-8.0", 4, V80),
                               ("pc-i440fx-7.2", 3, V72)):
        status, text, _ = run_guest(guest("smp"), [
            "-machine", machine, "-accel", "kvm", "-m", "128",
            "-smp", str(smp), "-cpu", "qemu64", "-append", "exit=acpi"])
        cpus = re.findall(r"cpu (\d+) apic-id (\d+) kvm-eax=(0x[0-9a-f]+)",
                          text)
        ok = status == 0 and f"SMP-DONE cpus={smp}" in text and \
            sorted(int(c[1]) for c in cpus) == list(range(smp)) and \
            all(int(c[2], 16) & PV_MASK == pv_bits(want) for c in cpus)
        report(f"smp/{machine}/{smp}-cpus", ok,
               f"status={status} {text[-300:]!r}")

    # Must-show 2: the PV MSRs from inside, with kvm-pv-enforce-cpuid,
    # and the PV features the guest finds (its KVM-PV-FEATURES line)
    for machine, extra, want, pv in (
            ("pc-q35-8.1", "", "accepted", V81),
            ("pc-i440fx-8.1", "", "accepted", V81),
            ("pc-q35-8.0", "", "accepted", V80),
            ("pc-q35-8.0", ",x-kvm-auto-enable-pv-eoi=off", "gp",
             V80 - {"kvm-pv-eoi"}),
            ("pc-q35-7.2", "", "accepted", V72)):
        status, text, err = run_guest(guest("pv-msr"), [
            "-machine", machine, "-accel", "kvm", "-m", "128",
            "-cpu", "qemu64,kvm-pv-enforce-cpuid=on" + extra,
            "-append", "exit=acpi"])
        m = re.search(r"MSR pv-eoi 0x4b564d04 (\w+)", text)
        seen = re.search(r"KVM-PV-FEATURES(.*)", text)
        seen = set(seen.group(1).split()) & set(PV) if seen else None
        expect = {f for f in pv if pv_bits({f})}
        ok = status == 0 and "PV-MSR-DONE" in text and m and \
            m.group(1) == want and "mismatches=0" in text and seen == expect
        report(f"pv-msr/{machine}{extra}/pv-eoi-{want}", ok,
               f"status={status} features={seen} want={expect} "
               f"{text[-300:]!r}")
    hypercall_cases()
    check_inject_nmi()

    # Must-show 4: exit paths, each distinct
    status, text, _ = run_guest(guest("default"), [
        "-machine", "q35", "-accel", "kvm", "-append", "exit=acpi"])
    report("exit/acpi-poweroff-is-0", status == 0 and "GUEST-DONE" in text,
           f"status={status}")
    # isa-debug-exit: the guest writes 0 (pass) -> status (0 << 1) | 1
    for port in (0xf4, 0x501):
        status, text, _ = run_guest(guest("default"), [
            "-machine", "q35", "-accel", "kvm",
            "-device", f"isa-debug-exit,iobase={port:#x},iosize=0x04",
            "-append", f"exit=debug exit-port={port:#x}"])
        report(f"exit/isa-debug-exit-{port:#x}", status == 1 and
               "GUEST-DONE" in text, f"status={status} {text[-200:]!r}")
    # As QEMU: isa-debug-exit ends the process even with -no-shutdown, and
    # a QMP client sees the connection close with no SHUTDOWN event
    with Machine(BINARY, ["-machine", "q35", "-accel", "kvm", "-S",
                          "-no-shutdown", "-device",
                          "isa-debug-exit,iobase=0xf4,iosize=0x04",
                          "-kernel", guest("default"),
                          "-append", "exit=debug"]) as vm:
        vm.cmd("cont")
        closed = False
        try:
            while True:
                vm.recv()
        except EOFError:
            closed = True
        except TimeoutError:
            pass
        try:
            status = vm.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            status = None
        events = [e["event"] for e in vm.events]
    report("exit/isa-debug-exit-ignores-no-shutdown",
           closed and status == 1 and "SHUTDOWN" not in events,
           f"closed={closed} status={status} events={events}")
    status, text, _ = run_guest(guest("triple"), [
        "-machine", "q35", "-accel", "kvm", "-no-reboot"])
    report("exit/triple-fault-no-reboot-is-0",
           status == 0 and "TRIPLE-START" in text, f"status={status}")
    # Without -no-reboot a triple fault resets: the guest starts again
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "serial.log")
        with Machine(BINARY, ["-machine", "q35", "-accel", "kvm",
                              "-serial", f"file:{log}",
                              "-kernel", guest("triple")]) as vm:
            ev = vm.wait_event("RESET", timeout=30)
            vm.wait_event("RESET", timeout=30)
            alive = vm.cmd("query-status")["status"] == "running"
        text = open(log, errors="replace").read()
    report("exit/triple-fault-resets",
           alive and ev["data"]["reason"] == "guest-reset" and
           text.count("TRIPLE-START") >= 2, f"{ev} {text[-200:]!r}")
    # An instruction this host's KVM cannot emulate: internal-error, no hang
    with Machine(BINARY, ["-machine", "q35", "-accel", "kvm",
                          "-kernel", guest("triple"),
                          "-append", "fault=int3"]) as vm:
        deadline = time.monotonic() + 30
        status = None
        while time.monotonic() < deadline:
            status = vm.cmd("query-status")["status"]
            if status != "running":
                break
            time.sleep(0.1)
        stderr = vm.stderr()
        resets = [e for e in vm.events if e["event"] == "RESET"]
    if status == "internal-error":
        report("exit/emulation-failure-is-internal-error",
               "KVM internal error" in stderr, stderr[-200:])
    elif resets and all(e["data"]["reason"] == "guest-reset"
                        for e in resets):
        # KVM on VMX/SVM delivers int3: #GP, #DF, triple fault, reset loop
        report("exit/emulation-failure-is-internal-error # SKIP this host's "
               f"KVM delivers int3 ({len(resets)} triple-fault resets)", True)
    else:
        # Neither an error nor a reset loop: a vCPU stuck somewhere
        report("exit/emulation-failure-is-internal-error", False,
               f"status {status} after 30 s, no internal error and no "
               f"guest reset; {stderr[-200:]!r}")

    # Must-show 5: a guest poking random ports and holes
    status, text, err = run_guest(guest("chaos"), [
        "-machine", "q35", "-accel", "kvm", "-m", "256",
        "-append", "exit=acpi"] + DEBUG_EXIT, timeout=120)
    report("chaos/emulator-survives", status == 0 and "CHAOS-DONE" in text,
           f"status={status} {text[-200:]!r} {err[-200:]!r}")

    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
