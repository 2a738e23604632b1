#!/usr/bin/env python3
"""Benchmark 2, exit cost: the bench-exits guest times COUNT iterations of
`access; dec; jnz` with the TSC (port 0x80, an unclaimed port, a write and
a read of an unmapped address, and the same loop with a nop); the bare
KVM_RUN loop (build/bench/kvm-run-loop) runs the same three instructions
with a host that does nothing but KVM_RUN again.  TSC -> time: the host's
TSC rate measured by kvm-run-loop (rdtsc against CLOCK_MONOTONIC), checked
against the guest's MARK lines timed on arrival."""

import os
import re
import subprocess
import sys

from benchlib import (BUILD, SerialVM, emulators, guest, mmm, ratio, save_json,
                      save_md, stats, table, loadavg)

COUNT = int(os.environ.get("COUNT", "100000"))
REPS = int(os.environ.get("REPS", "3"))
LOOP = os.path.join(BUILD, "bench", "kvm-run-loop")


def bare(mode):
    out = subprocess.run([LOOP, mode, str(COUNT), str(REPS)], capture_output=True,
                         text=True, check=True, timeout=600).stdout
    ns = [float(x) for x in re.findall(r"ns_per_exit=([\d.]+)", out)]
    khz = float(re.search(r"tsc_khz=([\d.]+)", out).group(1))
    return [x / 1e3 for x in ns], khz


def guest_run(binary):
    vm = SerialVM(binary, ["-machine", "q35", "-accel", "kvm", "-cpu", "qemu64", "-m", "512"],
                  guest("bench-exits"), f"exit=acpi count={COUNT} reps={REPS}")
    phases = {}
    marks = []
    try:
        while True:
            text, t = vm.line(600)
            if text.startswith("MARK "):
                marks.append((int(text.split()[1]), t))
            m = re.match(r"EXITS (\w+) rep=\d+ count=(\d+) cycles=(\d+)", text)
            if m:
                phases.setdefault(m.group(1), []).append(int(m.group(3)) / int(m.group(2)))
            if text.startswith("EXITS-DONE"):
                break
        vm.wait_exit(60)
    finally:
        vm.close()
    guest_khz = (marks[-1][0] - marks[0][0]) / (marks[-1][1] - marks[0][1]) / 1e3
    return phases, guest_khz


def main():
    res = {"count": COUNT, "reps": REPS}
    # The bare loop runs before and after the guests (the host's load drifts).
    res["bare_pio"], khz = bare("pio")
    res["bare_mmio"], _ = bare("mmio")
    res["tsc_khz"] = khz
    cycles = {}
    for label, binary in emulators():
        cycles[label], res[label + "_guest_tsc_khz"] = guest_run(binary)
    more_pio, khz2 = bare("pio")
    more_mmio, _ = bare("mmio")
    res["bare_pio"] += more_pio
    res["bare_mmio"] += more_mmio
    khz = res["tsc_khz"] = (khz + khz2) / 2
    for label, _ in emulators():
        res[label] = {k: [c / khz * 1e3 for c in v] for k, v in cycles[label].items()}  # µs
        print(label, {k: stats(v)[1] for k, v in res[label].items()}, file=sys.stderr)
    save_json("exits", res)

    med = lambda xs: stats(xs)[1] if xs else None
    bp, bm = med(res["bare_pio"]), med(res["bare_mmio"])
    names = {"null": "loop only (nop; dec; jnz), no exit", "pio80": "outb port 0x80",
             "pio": "outb unclaimed port 0x2e0", "mmio": "write unmapped 0xe0001000",
             "mmior": "read unmapped 0xe0001000"}
    rows = [["bare KVM_RUN loop", "outb port 0x80", mmm(res["bare_pio"], 2), "1.00", "", ""],
            ["bare KVM_RUN loop", "write unmapped", mmm(res["bare_mmio"], 2), "1.00", "", ""]]
    for label, _ in emulators():
        r = res[label]
        for k in ("null", "pio80", "pio", "mmio", "mmior"):
            base = None if k == "null" else (bp if k.startswith("pio") else bm)
            q = res.get("qemu72", {}).get(k)
            rows.append(["this tree q35" if label == "tree" else "QEMU 7.2 q35", names[k],
                         mmm(r[k], 2), ratio(med(r[k]), base) if base else "",
                         ratio(med(r[k]), med(q)) if q else "n/a",
                         f"{(med(r[k]) / base - 1) * 100:+.0f} %" if base else ""])
    md = [f"### Exit cost (µs per loop iteration, min / median / max of {REPS} x {COUNT}; bare loop: {REPS} before and {REPS} after the guests)", "",
          table(["who", "loop body", "µs / iteration", "vs bare loop", "vs QEMU 7.2", "over bare"], rows), "",
          f"TSC {khz/1e3:.1f} MHz (host, rdtsc vs CLOCK_MONOTONIC); the guests' MARK lines give "
          + ", ".join(f"{label} {res[label + '_guest_tsc_khz']/1e3:.1f} MHz" for label, _ in emulators())
          + ". Every figure includes the loop's `dec; jnz`, which this host emulates like all ring-0 "
          f"guest code (the `null` row). Load average at the end: {loadavg()}."]
    save_md("exits", "\n".join(md))


if __name__ == "__main__":
    main()
