#!/usr/bin/env python3
"""Command line and QMP basics: -version, -help, `help` for -machine, -cpu
and -accel, the machine type names of design §1, query-machines and
query-cpu-definitions as a -machine none probe sees them."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import (Machine, host_kvm_pv_features,  # noqa: E402
                         kvm_usable, run)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")

I440FX = ["1.4", "1.5", "1.6", "1.7"] + [f"2.{i}" for i in range(13)] + \
    ["3.0", "3.1", "4.0", "4.1", "4.2", "5.0", "5.1", "5.2", "6.0", "6.1",
     "6.2", "7.0", "7.1", "7.2", "8.0", "8.1"]
Q35 = [f"2.{i}" for i in range(4, 13)] + \
    ["3.0", "3.1", "4.0", "4.0.1", "4.1", "4.2", "5.0", "5.1", "5.2", "6.0",
     "6.1", "6.2", "7.0", "7.1", "7.2", "8.0", "8.1"]
MACHINES = [f"pc-i440fx-{v}" for v in I440FX] + [f"pc-q35-{v}" for v in Q35] \
    + ["none"]
AUTO_ENABLE_SWITCHES = [
    "x-kvm-auto-enable-pv-eoi", "x-kvm-auto-enable-pv-unhalt",
    "x-hv-auto-enable-ipi", "x-kvm-auto-enable-pv-tlb-flush",
    "x-kvm-auto-enable-pv-ipi", "x-kvm-auto-enable-pv-sched-yield",
    "x-hv-auto-enable-tlbflush"]
MODELS = ["qemu64", "qemu32", "kvm64", "kvm32", "Haswell", "Haswell-noTSX",
          "Skylake-Client", "Skylake-Server", "Cascadelake-Server",
          "Icelake-Server", "EPYC", "EPYC-Rome", "host", "max", "base"]

# Answers that end the process: (args, exit status, start of stdout,
# substring of stderr).  In QEMU 7.2's order, help for -machine, -accel,
# -smp and -boot is answered as the option is parsed, -cpu and -device help
# after the whole command line and the -d and -D checks.
EXIT_CASES = [
    (["-machine", "help", "-m", "x"], 0, "Supported machines are:", ""),
    (["-machine", "pc", "-machine", "help"], 0,
     "pc-i440fx-8.1-machine options:", ""),
    (["-machine", "help", "-machine", "pc"], 0, "Supported machines are:", ""),
    (["-machine", "q35", "-machine", "help,type=pc"], 0,
     "pc-i440fx-8.1-machine options:", ""),
    (["-machine", "nosuch,help"], 0, "Supported machines are:", ""),
    (["-accel", "help", "-m", "x"], 0,
     "Accelerators supported in QEMU binary:", ""),
    (["-accel", "kvm-shadow-mem=1"], 0,
     "Accelerators supported in QEMU binary:", ""),
    (["-accel", "help,foo"], 0, "Accelerators supported in QEMU binary:",
     "-accel help,foo: warning: short-form boolean option 'foo' deprecated"),
    (["-cpu", "help", "-machine", "nosuch"], 0, "Available CPUs:", ""),
    (["-cpu", "nosuch", "-cpu", "help"], 0, "Available CPUs:", ""),
    (["-device", "help", "-cpu", "help"], 0, "Available CPUs:", ""),
    (["-device", "pvpanic,help", "-device", "help"], 0, "pvpanic options:",
     ""),
    (["-device", "pvpanic,ioport=x,help"], 0, "pvpanic options:", ""),
    # The bridges open the listing, as in QEMU 7.2 (no blank line before
    # the first category)
    (["-device", "help", "-smp", "2,sockets=3"], 0,
     'Controller/Bridge/Hub devices:\nname "i82801b11-bridge", bus PCI\n',
     ""),
    (["-device", "nosuch,help"], 0, "",
     "-device nosuch,help: Device 'nosuch' not found"),
    (["-smp", "help"], 0, "smp-opts options:\n  clusters=<num>", ""),
    (["-boot", "help"], 0, "boot-opts options:\n  menu=<bool (on/off)>", ""),
    (["-display", "help"], 0, "Available display backend types:", ""),
    # -d: an unknown item prints the list, exit 1, after the parse errors
    (["-d", "17E"], 1, "Log items (comma separated):\nout_asm ", ""),
    (["-d", "nosuchitem"], 1, "Log items (comma separated):", ""),
    (["-d", "guest_errors,"], 1, "Log items (comma separated):", ""),
    (["-d", "help"], 1, "Log items (comma separated):", ""),
    (["-cpu", "help", "-d", "bogus"], 1, "Log items (comma separated):", ""),
    (["-d", "trace:foo,bogus"], 1, "Log items",
     "warning: trace event 'foo' does not exist"),
    (["-machine", "help", "-d", "bogus"], 0, "Supported machines are:", ""),
]

# Command lines that must start (-S), with QMP checks: (args, name, check)
START_CASES = [
    (["-machine", "q35,usb=maybe,usb=off"], "repeated-key-last-wins",
     lambda vm: vm.qom_get("/machine", "usb") is False),
    (["-machine", "q35,graphics=off", "-machine", "hpet=off"],
     "machine-merges",
     lambda vm: vm.qom_get("/machine", "graphics") is False and
     vm.qom_get("/machine", "hpet") is False),
    (["-machine", "q35", "-usb", "-machine", "usb=off"],
     "shorthand-in-order", lambda vm: vm.qom_get("/machine", "usb") is False),
    (["-machine", "q35,kernel_irqchip=split"], "underscore-key",
     lambda vm: True),
    (["-smp", "2,cpus=3"], "smp-repeated-key",
     lambda vm: len(vm.cmd("query-cpus-fast")) == 3),
    (["-smp", "sockets=2", "-smp", "cores=2"], "smp-merges",
     lambda vm: len(vm.cmd("query-cpus-fast")) == 4),
    (["-smp", "010"], "smp-octal",
     lambda vm: len(vm.cmd("query-cpus-fast")) == 8),
    (["-cpu", "qemu64,level=5,level=7"], "cpu-repeated-key",
     lambda vm: vm.qom_get("/machine/unattached/device[0]", "level") == 7),
    # tsc-freq, the legacy name, takes a metric size
    (["-accel", "qtest", "-cpu", "qemu64,tsc-freq=1.5G"], "cpu-tsc-freq",
     lambda vm: vm.qom_get("/machine/unattached/device[0]",
                           "tsc-frequency") == 1500000000),
    (["-accel", "kvm", "-accel", "kvm,kernel-irqchip=bogus"],
     "second-accel-not-tried", lambda vm: True),
    (["-rtc", "base=bogus", "-rtc", "base=utc"], "rtc-merges",
     lambda vm: True),
    (["-display", "gtk", "-display", "none"], "display-last-wins",
     lambda vm: True),
    (["-object", "iothread,id=i,poll-max-ns=x,poll-max-ns=1"],
     "object-repeated-key", lambda vm: True),
    (["-boot", "order=z,order=c"], "boot-repeated-key", lambda vm: True),
    (["-mon", "chardev=c,mode=readline", "-chardev", "null,id=c"],
     "chardevs-before-monitors", lambda vm: True),
    (["-chardev", "null,id=c,id=d", "-mon", "c"], "chardev-first-id",
     lambda vm: True),
    (["-overcommit", "mem-lock=on", "-overcommit", "cpu-pm=off"],
     "overcommit-last-wins", lambda vm: proc_status(vm, "VmLck") == 0),
    # every -sandbox that is on adds its seccomp filter (2: filter mode)
    (["-sandbox", "on", "-sandbox", "off"], "sandbox-each-applies",
     lambda vm: proc_status(vm, "Seccomp") == 2),
]

# stderr of a started machine: (args, name, substring or None for empty)
START_STDERR_CASES = [
    (["-global", "nosuchdriver.prop=1"], "global-invalid-class",
     "qemu-system-x86_64: warning: global nosuchdriver.prop has invalid "
     "class name\n"),
    (["-global", "kvm-accel.foo=1"], "global-not-a-device",
     "warning: global kvm-accel.foo has invalid class name"),
    (["-global", "kvm-pit.lost_tick_policy=delay", "-global",
      "pvpanic.nosuch=1"], "global-known-device", None),
    (["-machine", "q35,accel=nosuch:kvm"], "accel-falls-back",
     "qemu-system-x86_64: invalid accelerator nosuch\n"
     "qemu-system-x86_64: falling back to KVM\n"),
    (["-m", "0x100"], "hex-size-suffix", "qemu-system-x86_64: warning: Using "
     "a multiplier suffix on hex numbers is deprecated: 0x100M\n"),
    (["-name", "vm,debug-threads"], "short-form-warning",
     "-name vm,debug-threads: warning: short-form boolean option "
     "'debug-threads' deprecated\nPlease use debug-threads=on instead\n"),
]

def proc_status(vm, field):
    """A number of the emulator's /proc status: VmLck (mem-lock), Seccomp"""
    with open(f"/proc/{vm.proc.pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


results = []


def check(name, ok, detail=""):
    results.append(ok)
    n = len(results)
    print(f"{'ok' if ok else 'not ok'} {n} - cli/{name}" +
          ("" if ok else f" # {detail}"))


def main():
    st, out, err = run(BINARY, ["-version"])
    check("version", st == 0 and out.startswith("QEMU emulator version 8.1.0"),
          out)
    st, out, err = run(BINARY, ["-help"])
    check("help", st == 0 and "-machine" in out and "-cpu" in out, out[:200])

    st, out, err = run(BINARY, ["-machine", "help"])
    lines = out.splitlines()
    names = {l.split()[0] for l in lines[1:] if l.strip()}
    check("machine-help/status", st == 0 and
          lines[0] == "Supported machines are:", out[:200])
    missing = [m for m in MACHINES if m not in names]
    check("machine-help/every-type", not missing, f"missing {missing}")
    check("machine-help/aliases",
          any(l.startswith("pc ") and "alias of pc-i440fx-8.1" in l
              for l in lines) and
          any(l.startswith("q35 ") and "alias of pc-q35-8.1" in l
              for l in lines), out[:300])
    check("machine-help/default",
          any(l.startswith("pc-i440fx-8.1 ") and "(default)" in l
              for l in lines), out[:300])
    check("machine-help/8.0-lost-alias",
          not any("alias of pc-i440fx-8.0" in l or "alias of pc-q35-8.0" in l
                  or (l.startswith("pc-i440fx-8.0 ") and "(default)" in l)
                  for l in lines), out[:300])

    # -machine <type>,help lists the board's options as QEMU 7.2 names and
    # types them; nothing is built, status 0
    st, out, err = run(BINARY, ["-machine", "q35,help"])
    lines = out.splitlines()
    opts = {l.split()[0] for l in lines[1:] if l.startswith("  ")}
    want = {"max-ram-below-4g=<size>", "x-oem-id=<string>", "smm=<OnOffAuto>",
            "hpet=<bool>", "i8042=<bool>", "kernel=<string>",
            "acpi=<OnOffAuto>", "smbios-entry-point-type=<str>"}
    check("machine-options-help", st == 0 and lines and
          lines[0] == "pc-q35-8.1-machine options:" and want <= opts,
          f"status={st} missing={sorted(want - opts)} {out[:200]!r}")
    st, out, err = run(BINARY, ["-machine", "none,help"])
    check("machine-options-help/none-has-no-board-options",
          st == 0 and "kernel=<string>" in out and "hpet=" not in out,
          out[:300])

    st, out, err = run(BINARY, ["-cpu", "help"])
    listed = {l.split()[1] for l in out.splitlines()
              if l.startswith("x86 ")}
    missing = [m for m in MODELS if m not in listed]
    check("cpu-help", st == 0 and not missing, f"missing {missing}")
    check("cpu-help/flags", "kvm-pv-unhalt" in out and "sse4.1" in out)

    st, out, err = run(BINARY, ["-accel", "help"])
    check("accel-help", st == 0 and "kvm" in out.split() and
          "qtest" in out.split(), out)

    for args, status, out_start, err_part in EXIT_CASES:
        try:
            st, out, err = run(BINARY, ["-display", "none", "-nodefaults"] +
                               args, timeout=30)
        except Exception as e:  # a hang is a failure too
            st, out, err = None, "", str(e)
        check("exit/" + " ".join(args),
              st == status and out.startswith(out_start) and err_part in err,
              f"status={st} stdout={out[:120]!r} stderr={err[:200]!r}")

    if not kvm_usable():
        print("# /dev/kvm not usable: QMP probe checks skipped")
    else:
        for args, name, ok in START_CASES:
            try:
                with Machine(BINARY, ["-S"] + args) as vm:
                    check("start/" + name, ok(vm), vm.stderr()[:200])
            except Exception as e:
                check("start/" + name, False, str(e)[:300])
        for args, name, want in START_STDERR_CASES:
            try:
                with Machine(BINARY, ["-S"] + args) as vm:
                    vm.cmd("query-status")
                    err = "".join(l + "\n" for l in vm.stderr().splitlines()
                                  if "requested feature" not in l)
                    ok = (want in err) if want else not err
                    check("stderr/" + name, ok, repr(err[:300]))
            except Exception as e:
                check("stderr/" + name, False, str(e)[:300])
        with Machine(BINARY, ["-machine", "none", "-accel", "kvm", "-S"]) as vm:
            machines = {m["name"]: m for m in vm.cmd("query-machines")}
            check("query-machines/every-type",
                  all(m in machines for m in MACHINES))
            check("query-machines/default",
                  machines["pc-i440fx-8.1"].get("is-default") is True and
                  machines["pc-i440fx-8.1"].get("alias") == "pc" and
                  machines["pc-q35-8.1"].get("alias") == "q35")
            check("query-machines/deprecated-1.x",
                  machines["pc-i440fx-1.4"]["deprecated"] and
                  not machines["pc-i440fx-2.0"]["deprecated"])
            defs = {d["name"]: d for d in vm.cmd("query-cpu-definitions")}
            check("query-cpu-definitions/models",
                  all(m in defs for m in MODELS))
            check("query-cpu-definitions/alias-of",
                  defs["Haswell-noTSX"].get("alias-of") == "Haswell-v2" and
                  defs["Haswell"].get("typename") == "Haswell-x86_64-cpu")
            check("query-cpus-fast/none-machine",
                  vm.cmd("query-cpus-fast") == [])
            check("query-kvm", vm.cmd("query-kvm") ==
                  {"enabled": True, "present": True})
            check("query-status", vm.cmd("query-status")["status"] ==
                  "prelaunch")
            ver = vm.cmd("query-version")
            check("query-version", ver["qemu"] ==
                  {"major": 8, "minor": 1, "micro": 0} and "package" in ver)
            check("greeting", vm.greeting["QMP"]["version"] == ver)
        # QEMU's shorthands: -enable-kvm is -machine accel=kvm, -no-hpet is
        # hpet=off, -usb is usb=on (taken back here: q35's EHCI does not
        # exist, bad-input checks that usb=on is refused); "none" for
        # devices this build lacks
        with Machine(BINARY, ["-machine", "q35", "-enable-kvm", "-S",
                              "-no-hpet", "-usb", "-machine", "usb=off",
                              "-vga", "none",
                              "-monitor", "none", "-net", "none",
                              "-d", "guest_errors"]) as vm:
            check("shorthands/enable-kvm-no-hpet-usb",
                  vm.cmd("query-kvm")["enabled"] and
                  vm.qom_get("/machine", "hpet") is False and
                  vm.qom_get("/machine", "usb") is False)
        with Machine(BINARY, ["-machine", "q35", "-accel", "kvm", "-S",
                              "-name", "guest=demo", "-smp", "2"]) as vm:
            cpus = vm.cmd("query-cpus-fast")
            # QEMU 7.2's: the first vCPU's APIC makes the kvmvapic, [1]
            check("query-cpus-fast/paths",
                  [c["qom-path"] for c in cpus] ==
                  ["/machine/unattached/device[0]",
                   "/machine/unattached/device[2]"])
            check("query-name", vm.cmd("query-name") == {"name": "demo"})
            check("qom-get/type", vm.qom_get(cpus[0]["qom-path"], "type") ==
                  "qemu64-x86_64-cpu")
            listed = {p["name"] for p in vm.cmd(
                "qom-list", {"path": cpus[0]["qom-path"]})}
            check("qom-list/cpu", {"kvm-pv-unhalt", "feature-words",
                                   *AUTO_ENABLE_SWITCHES} <= listed)
            exp = vm.cmd("query-cpu-model-expansion",
                         {"type": "full", "model": {"name": "Haswell"}})
            props = exp["model"]["props"]
            host = host_kvm_pv_features()
            # q35 is 8.1: every switch on, every feature the host offers
            check("expansion/full", exp["model"]["name"] == "Haswell" and
                  all(props[s] is True for s in AUTO_ENABLE_SWITCHES) and
                  all(props[f] is bool(host >> b & 1) for f, b in
                      (("kvm-pv-unhalt", 7), ("kvm-pv-tlb-flush", 9),
                       ("kvm-pv-ipi", 11), ("kvm-pv-sched-yield", 13))),
                  props)
            exp = vm.cmd("query-cpu-model-expansion",
                         {"type": "static", "model": {"name": "Haswell"}})
            check("expansion/static", exp["model"]["name"] == "base" and
                  exp["model"]["props"]["avx2"] is True)
            vm.cmd("stop")
            vm.cmd("cont")
            check("events/resume", vm.wait_event("RESUME")["event"] == "RESUME")
            vm.cmd("stop")
            check("events/stop", vm.wait_event("STOP")["event"] == "STOP")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
