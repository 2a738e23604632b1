#!/usr/bin/env python3
"""Benchmark 5, guest side: K = 1, 2, 3 VMs of 2 vCPUs at once on this host
(overcommit when 2K vCPUs > host CPUs), each running the bench-ipi guest.
The harness drives every VM over COM1 in lockstep: one command byte starts
the same test in all VMs, a second byte DUR seconds later stops it, so all
VMs measure the same wall-clock window.  Tests: IPI round trip to self, to
one target, broadcast (all-excluding-self: with 2 vCPUs that is one
target again, through the shorthand), and a two-vCPU token hand-off whose
waiters spin or halt (sti; hlt, woken by a LAPIC IPI from the releaser).
Figure per VM and window: DUR / count (µs per round trip or hand-off).
Variants: this tree pc-q35-8.1 (its defaults: kvm-pv-unhalt, -tlb-flush,
-ipi, -sched-yield on), pc-q35-8.0 (kvm-pv-unhalt on) and pc-q35-7.2, and
QEMU 7.2 pc-q35-7.2; all -cpu qemu64.  The guest uses the LAPIC only, never
a hypercall, so the PV features are offered but not used: the table of PV
paths says, per variant, which are offered and why they are not measured
(on PVM hosts a vmcall never returns)."""

import os
import re
import sys
import time

from benchlib import (SerialVM, emulators, guest, mmm, ratio, save_json, save_md,
                      stats, table, loadavg, TREE, QEMU72, have_qemu72)
from qmp_machine import kvm_feature_names  # noqa: E402 (benchlib sets the path)

DUR = float(os.environ.get("DUR", "1.5"))
WINDOWS = int(os.environ.get("WINDOWS", "2"))
KS = [int(x) for x in os.environ.get("KS", "1 2 3").split()]
TESTS = [("s", "IPI self"), ("o", "IPI one target"), ("b", "IPI broadcast"),
         ("l", "hand-off, spin"), ("h", "hand-off, halt + IPI wake")]


def variants():
    v = [("tree-8.1", "this tree pc-q35-8.1", TREE, "pc-q35-8.1"),
         ("tree-8.0", "this tree pc-q35-8.0", TREE, "pc-q35-8.0"),
         ("tree-7.2", "this tree pc-q35-7.2", TREE, "pc-q35-7.2")]
    if have_qemu72():
        v.append(("qemu72", "QEMU 7.2 pc-q35-7.2", QEMU72, "pc-q35-7.2"))
    return v


def run_k(binary, machine, k):
    vms = []
    res = {t: [] for t, _ in TESTS}
    eax = None
    try:
        for _ in range(k):
            vms.append(SerialVM(binary, ["-machine", machine, "-accel", "kvm", "-cpu", "qemu64",
                                         "-m", "256", "-smp", "2",
                                         "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"],
                                guest("bench-ipi"), "exit=debug"))
        for vm in vms:
            text, _ = vm.wait_for("IPI-READY", 180)
            eax = re.search(r"kvm-eax=(0x[0-9a-f]+)", text).group(1)
        for w in range(WINDOWS):
            for t, _ in TESTS:
                for vm in vms:
                    vm.send(t.encode())
                t0 = time.monotonic()
                time.sleep(DUR)
                for vm in vms:
                    vm.send(b"x")
                dur = time.monotonic() - t0
                for vm in vms:
                    text, _ = vm.wait_for("RESULT", 60)
                    n = int(re.search(r"count=(\d+)", text).group(1))
                    res[t].append(dur / n * 1e6 if n else None)
        for vm in vms:
            vm.send(b"q")
        for vm in vms:
            vm.wait_exit(30)
    finally:
        for vm in vms:
            vm.close()
    return res, eax


def main():
    out = {}
    for key, name, binary, machine in variants():
        for k in KS:
            r, eax = run_k(binary, machine, k)
            out[f"{key}/{k}"] = {"res": r, "kvm_eax": eax}
            print(key, k, eax, {t: stats([x for x in v if x])[1] for t, v in r.items()}, file=sys.stderr)
    save_json("guestside", out)

    med = lambda xs: stats([x for x in xs if x is not None])[1]
    rows = []
    for t, tname in TESTS:
        for key, name, _, _ in variants():
            row = [tname, name]
            for k in KS:
                xs = [x for x in out[f"{key}/{k}"]["res"][t] if x is not None]
                q = out.get(f"qemu72/{k}")
                row.append(mmm(xs, 1) if xs else "no progress")
                row.append(ratio(med(xs), med(q["res"][t])) if q and xs else "n/a")
            rows.append(row)
    hdr = ["test", "variant"]
    for k in KS:
        hdr += [f"K={k} µs", "ratio"]
    pvm = os.path.isdir("/sys/module/kvm_pvm")
    hypercall = ("cannot run here: vmcall never returns under PVM" if pvm else
                 "not measured: this guest uses the LAPIC only (section 6 uses Linux)")
    # (feature, what would measure it, why not here)
    paths = [("kvm-pv-unhalt", "PV kick (KVM_HC_KICK_CPU) hand-off", hypercall),
             ("kvm-pv-ipi", "PV send-IPI (KVM_HC_SEND_IPI)", hypercall),
             ("kvm-pv-sched-yield", "directed yield (KVM_HC_SCHED_YIELD)", hypercall),
             ("kvm-pv-tlb-flush", "PV TLB flush (steal-time flag)",
              "not measured: this guest has no paging, so no remote TLB flush "
              "(section 6's allocbench is the workload)")]
    pv = []
    for key, name, _, _ in variants():
        eax = int(out[f"{key}/{KS[0]}"]["kvm_eax"], 16)
        on = kvm_feature_names(eax)
        pv.append([name, f"0x{eax:08x}"] +
                  [why if f in on else "not offered" for f, _, why in paths])
    md = [f"### IPI and lock hand-off under overcommit (µs per round trip / hand-off; min / median / max "
          f"over the K VMs x {WINDOWS} windows of {DUR} s; ratio = median / QEMU 7.2 median at the same K)", "",
          table(hdr, rows), "",
          "PV paths, as the guests saw them (CPUID 0x40000001 EAX) and whether they can be measured here:", "",
          table(["variant", "KVM EAX"] + [f"{what} ({f})" for f, what, _ in paths], pv), "",
          "Each VM: -smp 2 -m 256 -cpu qemu64, guest build/tests/guest/bench-ipi.elf; K VMs run at once on "
          f"{os.cpu_count()} host CPUs (2K vCPUs). All guest code here runs in ring 0 and is emulated by "
          "PVM (~5 M instructions/s), so these figures compare the variants with each other in this run, "
          "not with hardware KVM. The halting hand-off is what a PV spinlock's kick would do, with a LAPIC "
          f"IPI instead of the hypercall. Load average at the end: {loadavg()}."]
    save_md("guestside", "\n".join(md))


if __name__ == "__main__":
    main()
