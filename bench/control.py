#!/usr/bin/env python3
"""Benchmark 4, control plane: QMP round trip (query-status, N=1000 on a
-S machine), the whole machine-type x CPU-model query-cpu-model-expansion
matrix (type full; every machine type both emulators know, every CPU model
each one lists; one process per machine type, started with -S), and -smp
1/8/64/255 on q35: exec -> first query-status reply (vCPUs created),
`cont` -> reply, RSS and threads after one idle second, memory per vCPU."""

import os
import sys
import time

from benchlib import (QMPVM, emulators, guest, mmm, ratio, save_json, save_md,
                      stats, table, proc_status, loadavg)

N_RT = int(os.environ.get("QMP_N", "1000"))
SMP = [int(x) for x in os.environ.get("SMP_LIST", "1 8 64 255").split()]
REPS = int(os.environ.get("REPS", "3"))
BASE = ["-S", "-accel", "kvm", "-cpu", "qemu64", "-m", "512"]


def roundtrip(binary):
    vm = QMPVM(binary, BASE + ["-machine", "q35"])
    try:
        lat = []
        for _ in range(N_RT):
            t = time.perf_counter()
            vm.cmd("query-status")
            lat.append((time.perf_counter() - t) * 1e6)
    finally:
        vm.close()
    return lat


def machine_names(binary):
    vm = QMPVM(binary, BASE + ["-machine", "q35"])
    try:
        ms = vm.cmd("query-machines")
    finally:
        vm.close()
    names = set()
    for m in ms:
        names.add(m["name"])
    return names


def matrix(binary, machines):
    t0 = time.monotonic()
    per = []
    n = 0
    for m in machines:
        vm = QMPVM(binary, BASE + ["-machine", m])
        try:
            models = [c["name"] for c in vm.cmd("query-cpu-definitions")]
            for c in models:
                t = time.perf_counter()
                vm.cmd("query-cpu-model-expansion", {"type": "full", "model": {"name": c}})
                per.append((time.perf_counter() - t) * 1e3)
                n += 1
        finally:
            vm.close()
    return time.monotonic() - t0, n, per


def smp_one(binary, n):
    t0 = time.monotonic()
    vm = QMPVM(binary, BASE + ["-machine", "q35", "-smp", str(n),
                               "-kernel", guest("bench-boot"), "-append", "idle"])
    try:
        vm.cmd("query-status")
        created = time.monotonic() - t0
        t = time.monotonic()
        vm.cmd("cont")
        started = time.monotonic() - t
        cpus = len(vm.cmd("query-cpus-fast"))
        time.sleep(1.0)
        st = proc_status(vm.pid)
    finally:
        vm.close()
    if cpus != n:
        raise RuntimeError(f"{binary}: -smp {n} gave {cpus} CPUs")
    return created * 1e3, started * 1e3, st["VmRSS"] / 1024, st["Threads"]


def main():
    res = {"rt": {}, "matrix": {}, "smp": {}}
    emus = emulators()
    for label, binary in emus:
        res["rt"][label] = roundtrip(binary)
    common = None
    for label, binary in emus:
        names = machine_names(binary)
        common = names if common is None else common & names
    common.discard("none")
    machines = sorted(common)
    res["machines"] = machines
    for label, binary in emus:
        total, n, per = matrix(binary, machines)
        res["matrix"][label] = {"total_s": total, "queries": n, "per_ms": per}
        print(label, "matrix", total, n, file=sys.stderr)
    for label, binary in emus:
        for n in SMP:
            runs = [smp_one(binary, n) for _ in range(REPS)]
            res["smp"][f"{label}/{n}"] = runs
            print(label, n, runs, file=sys.stderr)
    save_json("control", res)

    med = lambda xs: stats(xs)[1]
    q = "qemu72" in res["rt"]
    rows = [["this tree" if l == "tree" else "QEMU 7.2", mmm(res["rt"][l], 0),
             ratio(med(res["rt"][l]), med(res["rt"]["qemu72"])) if q else "n/a"]
            for l, _ in emus]
    mrows = []
    for l, _ in emus:
        m = res["matrix"][l]
        mrows.append(["this tree" if l == "tree" else "QEMU 7.2", str(len(machines)),
                      str(m["queries"]), f"{m['total_s']:.2f}",
                      ratio(m["total_s"], res["matrix"]["qemu72"]["total_s"]) if q else "n/a",
                      mmm(m["per_ms"], 2)])
    srows = []
    for l, _ in emus:
        one = res["smp"][f"{l}/{SMP[0]}"]
        rss1 = med([r[2] for r in one])
        for n in SMP:
            runs = res["smp"][f"{l}/{n}"]
            rss = med([r[2] for r in runs])
            per = f"{(rss - rss1) * 1024 / (n - SMP[0]):.0f}" if n != SMP[0] else ""
            qr = res["smp"].get(f"qemu72/{n}")
            srows.append(["this tree" if l == "tree" else "QEMU 7.2", str(n),
                          mmm([r[0] for r in runs]),
                          ratio(med([r[0] for r in runs]), med([r[0] for r in qr])) if qr else "n/a",
                          mmm([r[1] for r in runs]), mmm([r[2] for r in runs]),
                          per, f"{med([r[3] for r in runs]):.0f}"])
    md = [f"### QMP round trip (query-status, µs, min / median / max of {N_RT})", "",
          table(["emulator", "µs", "median ratio to QEMU 7.2"], rows), "",
          "### query-cpu-model-expansion matrix (type full, every CPU model each emulator lists, "
          "one -S process per machine type, launches included)", "",
          table(["emulator", "machine types", "queries", "total s", "ratio", "ms per query min / median / max"], mrows), "",
          f"Machine types: the {len(machines)} names both emulators list (\"none\" excluded).", "",
          f"### vCPU scaling (q35, -m 512, bench-boot idle guest; min / median / max of {REPS})", "",
          table(["emulator", "-smp", "exec -> first query-status reply ms (vCPUs created)", "ratio",
                 "cont -> reply ms", "VmRSS MiB 1 s after cont", "KiB per extra vCPU", "threads"], srows), "",
          f"Load average at the end: {loadavg()}."]
    save_md("control", "\n".join(md))


if __name__ == "__main__":
    main()
