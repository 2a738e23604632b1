#!/usr/bin/env python3
"""Benchmark 3, footprint: each emulator boots the bench-boot guest with
`idle` (-m 512, 1 vCPU), which prints BOOT-IDLE and halts; one second
later VmRSS, RssAnon/RssFile and Threads come from /proc/PID/status and
the guest RAM's resident part from /proc/PID/smaps (mappings of 512 MiB or
more).  Beyond guest RAM = VmRSS - guest RAM Rss.  REPS (3) runs."""

import os
import subprocess
import sys
import time

from benchlib import (SerialVM, emulators, guest, mmm, ratio, save_json, save_md,
                      stats, table, proc_status, smaps_guest_ram, loadavg)

REPS = int(os.environ.get("REPS", "3"))
MEM_MB = 512


def machines(label):
    return ["q35", "pc"] if label == "tree" else ["q35", "pc", "microvm"]


def one(binary, machine):
    args = ["-machine", machine, "-accel", "kvm", "-cpu", "qemu64", "-m", str(MEM_MB)]
    vm = SerialVM(binary, args, guest("bench-boot"), "idle")
    try:
        vm.wait_for("BOOT-IDLE", 120)
        time.sleep(1.0)
        st = proc_status(vm.proc.pid)
        ram, total = smaps_guest_ram(vm.proc.pid, MEM_MB * 1024)
    finally:
        vm.close()
    return {"rss": st["VmRSS"] / 1024, "anon": st.get("RssAnon", 0) / 1024,
            "file": st.get("RssFile", 0) / 1024, "ram": ram / 1024,
            "beyond": (st["VmRSS"] - ram) / 1024, "threads": st["Threads"],
            "vmsize": st["VmSize"] / 1024}


def binsize(path):
    size = os.path.getsize(path)
    libs = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    nlibs = sum(1 for ln in libs.splitlines() if "=>" in ln)
    return size, nlibs


def main():
    res = {}
    for label, binary in emulators():
        for m in machines(label):
            runs = [one(binary, m) for _ in range(REPS)]
            res[f"{label}/{m}"] = {k: [r[k] for r in runs] for k in runs[0]}
            print(label, m, runs[-1], file=sys.stderr)
        res[label + "/binary"] = binsize(binary)
    save_json("footprint", res)
    ref = res.get("qemu72/q35")
    med = lambda xs: stats(xs)[1]
    rows = []
    for key, r in res.items():
        if key.endswith("/binary"):
            continue
        label, m = key.split("/")
        rows.append(["this tree" if label == "tree" else "QEMU 7.2", m,
                     mmm(r["beyond"]), ratio(med(r["beyond"]), med(ref["beyond"])) if ref else "n/a",
                     mmm(r["rss"]), mmm(r["ram"]), mmm(r["anon"]), mmm(r["file"]),
                     f"{med(r['threads']):.0f}", f"{med(r['vmsize']):.0f}"])
    brows = []
    for label, binary in emulators():
        size, nlibs = res[label + "/binary"]
        brows.append([binary, f"{size / 2**20:.2f} MiB",
                      ratio(size, res["qemu72/binary"][0]) if "qemu72/binary" in res else "n/a",
                      str(nlibs)])
    md = [f"### Footprint (MiB, min / median / max of {REPS}; idle guest, -m {MEM_MB}, 1 vCPU)", "",
          table(["emulator", "machine", "RSS beyond guest RAM", "ratio to QEMU q35", "VmRSS",
                 "guest RAM resident", "RssAnon", "RssFile", "threads", "VmSize"], rows), "",
          table(["binary", "size", "ratio", "shared libraries (ldd)"], brows), "",
          "Guest RAM resident is what the guest (and, for QEMU, SeaBIOS/qboot and its option ROMs) "
          "touched; QEMU's RssFile is mostly its 18 MiB binary and libraries. "
          f"Load average at the end: {loadavg()}."]
    save_md("footprint", "\n".join(md))


if __name__ == "__main__":
    main()
