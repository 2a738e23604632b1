#!/usr/bin/env python3
"""Benchmark 1, start-up: exec -> QMP greeting (-S, no guest), and with the
bench-boot guest exec -> first byte on COM1 and exec -> process exit (the
guest powers off at once: ACPI S5 on pc/q35, isa-debug-exit on microvm,
which has no ACPI PM block the guests know).  REPS (5) runs each."""

import os
import sys

from benchlib import (QMPVM, SerialVM, emulators, guest, mmm, ratio, save_json,
                      save_md, stats, table, loadavg)

REPS = int(os.environ.get("REPS", "5"))
MEM = "512"


def machines(label):
    return ["q35", "pc"] if label == "tree" else ["q35", "pc", "microvm"]


def one_boot(binary, machine):
    if machine == "microvm":
        args = ["-machine", "microvm", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
        append = "exit=debug"
        ok_rc = (1,)  # isa-debug-exit with 0: (0 << 1) | 1
    else:
        args = ["-machine", machine]
        append = "exit=acpi"
        ok_rc = (0,)
    args += ["-accel", "kvm", "-cpu", "qemu64", "-m", MEM]
    vm = SerialVM(binary, args, guest("bench-boot"), append)
    try:
        first = vm.first_byte(120)
        vm.wait_for("BOOT-OK", 60)
        rc, total = vm.wait_exit(60)
    finally:
        vm.close()
    if rc not in ok_rc:
        raise RuntimeError(f"{binary} {machine}: exit status {rc}")
    return first, total


def one_greeting(binary, machine):
    vm = QMPVM(binary, ["-S", "-machine", machine, "-accel", "kvm",
                        "-cpu", "qemu64", "-m", MEM])
    try:
        return vm.greeting_s
    finally:
        vm.close()


def main():
    res = {}
    for label, binary in emulators():
        for m in machines(label):
            key = f"{label}/{m}"
            r = {"qmp": [], "first": [], "exit": []}
            for i in range(REPS):
                r["qmp"].append(one_greeting(binary, m) * 1e3)
                f, t = one_boot(binary, m)
                r["first"].append(f * 1e3)
                r["exit"].append(t * 1e3)
            res[key] = r
            print(key, {k: stats(v)[1] for k, v in r.items()}, file=sys.stderr)
    save_json("startup", res)

    ref = res.get("qemu72/q35")
    rows = []
    for key, r in res.items():
        label, m = key.split("/")
        name = "this tree" if label == "tree" else "QEMU 7.2"
        row = [name, m]
        for k in ("qmp", "first", "exit"):
            row.append(mmm(r[k]))
            row.append(ratio(stats(r[k])[1], stats(ref[k])[1]) if ref else "n/a (no QEMU 7.2)")
        rows.append(row)
    md = [f"### Start-up (ms, min / median / max of {REPS}; ratio = median / QEMU 7.2 q35 median)",
          "",
          table(["emulator", "machine", "exec->QMP greeting", "ratio",
                 "exec->first UART byte", "ratio", "exec->exit", "ratio"], rows),
          "",
          f"Guest: build/tests/guest/bench-boot.elf (multiboot ELF32, {MEM} MiB, -cpu qemu64, 1 vCPU); "
          "QEMU's pc/q35 run SeaBIOS (emulated instruction by instruction under PVM) and boot the "
          "guest through its multiboot option ROM, microvm runs qboot; this tree loads the ELF itself. "
          f"QMP greeting: -S, no kernel. Load average at the end: {loadavg()}."]
    save_md("startup", "\n".join(md))


if __name__ == "__main__":
    main()
