#!/usr/bin/env python3
"""vCPUs plugged with device_add and -device, compared with QEMU 7.2.

  * QMP: for several machine types and -smp topologies (cores=3 and
    dies=2, whose APIC IDs are not the vCPU indexes), both binaries get
    the same device_add/device_del sequence: ids, apic-id, a taken slot,
    ids out of range or missing, a mismatch between apic-id and an id, the
    wrong CPU type, device_del of the boot CPU, of a plugged vCPU (with
    and without ACPI).  Every reply, query-hotpluggable-cpus,
    query-cpus-fast (without thread ids), HMP info hotpluggable-cpus and
    info cpus (thread ids masked), qom-get of the plugged vCPUs' ids and
    the names under /machine/peripheral-anon must equal 7.2's (the
    vCPUs' /machine/unattached/device[N] too: the kvmvapic takes the N
    after the first vCPU's in both);
  * under KVM, this tree alone: a vCPU plugged while the VM runs and one
    while it is paused each get their own thread (a task of the process,
    reported by query-cpus-fast), x-query-cpuid finds them by cpu-index,
    and both survive system_reset;
  * under KVM, the guest's view: the smp test guest started with a vCPU
    given by -device in a cores=3 topology brings up every enabled vCPU
    of the MADT; the APIC IDs it finds (the MADT's and CPUID's) equal
    7.2's for the same command line (7.2 boots it through qboot).
Skips (77) where QEMU 7.2 is missing; the KVM parts skip without KVM.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, crash_message, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "smp.elf")
QBOOT = "/usr/share/qemu/qboot.rom"
CPU = "qemu64-x86_64-cpu"
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - cpu-hotplug/{name}" +
          ("" if ok else f" # {detail}"))


def accel(binary):
    if kvm_usable():
        return ["-accel", "kvm"]
    return ["-accel", "tcg"] if binary == ORACLE else ["-accel", "qtest"]


def ids(s, d, c, t):
    r = {"socket-id": s, "core-id": c, "thread-id": t}
    if d is not None:
        r["die-id"] = d
    return r


# (name, machine options, -smp, steps).  A step: (command, arguments).
CASES = [
    ("q35-1x3x2", "pc-q35-7.2", "1,sockets=1,cores=3,threads=2,maxcpus=6", [
        ("device_add", {"driver": CPU, "id": "c1", **ids(0, None, 1, 1)}),
        ("device_add", {"driver": CPU, "id": "c2", **ids(0, None, 1, 1)}),
        ("device_add", {"driver": CPU, **ids(0, None, 5, 0)}),
        ("device_add", {"driver": CPU, **ids(1, None, 0, 0)}),
        ("device_add", {"driver": CPU, "core-id": 0, "thread-id": 0}),
        ("device_add", {"driver": CPU, "socket-id": 0, "thread-id": 0}),
        ("device_add", {"driver": CPU, "socket-id": 0, "core-id": 0}),
        ("device_add", {"driver": CPU, **ids(0, None, 0, 0)}),
        ("device_add", {"driver": CPU, "apic-id": 2}),
        ("device_add", {"driver": CPU, "apic-id": 3, **ids(0, None, 0, 0)}),
        ("device_add", {"driver": CPU, "apic-id": 7}),
        ("device_add", {"driver": CPU, "apic-id": 100}),
        ("device_add", {"driver": CPU, "apic-id": 4, "core-id": 1}),
        ("device_add", {"driver": "Haswell-x86_64-cpu", **ids(0, None, 2, 0)}),
        ("device_add", {"driver": CPU, **ids(0, 0, 2, 0)}),
        ("device_add", {"driver": CPU, **ids(0, 1, 2, 1)}),
        ("device_add", {"driver": CPU, "pmu": True, **ids(0, None, 2, 1)}),
        ("device_del", {"id": "c1"}),
        ("device_del", {"id": "/machine/unattached/device[0]"}),
        ("device_del", {"id": "nope"}),
    ]),
    ("i440fx-2sockets", "pc-i440fx-7.2", "1,sockets=2,cores=3,maxcpus=6", [
        ("device_add", {"driver": CPU, "id": "c4", **ids(1, None, 1, 0)}),
        ("device_add", {"driver": CPU, "apic-id": 3}),
        ("device_add", {"driver": CPU, "apic-id": 6}),
        ("device_add", {"driver": CPU, "id": "c2", **ids(0, None, 2, 0)}),
        ("device_del", {"id": "c4"}),
    ]),
    ("q35-dies", "pc-q35-7.2", "2,sockets=1,dies=2,cores=3,maxcpus=6", [
        ("device_add", {"driver": CPU, **ids(0, None, 1, 0)}),
        ("device_add", {"driver": CPU, "id": "d1", **ids(0, 1, 2, 0)}),
        ("device_add", {"driver": CPU, **ids(0, 2, 0, 0)}),
        ("device_add", {"driver": CPU, "apic-id": 5, "die-id": 0}),
    ]),
    ("i440fx-acpi-off", "pc-i440fx-7.2,acpi=off", "1,maxcpus=2", [
        ("device_add", {"driver": CPU, "id": "c1", **ids(0, None, 1, 0)}),
        ("device_del", {"id": "c1"}),
        ("device_del", {"id": "/machine/unattached/device[0]"}),
    ]),
    ("old-machine", "pc-i440fx-2.12", "1,maxcpus=3", [
        ("device_add", {"driver": CPU, "id": "c2", **ids(2, None, 0, 0)}),
        ("device_add", {"driver": CPU, **ids(1, None, 0, 0)}),
    ]),
]


def mask_threads(text):
    return re.sub(r"thread_id=\d+", "thread_id=N", text)


def run_case(binary, machine, smp, steps):
    out = []
    args = ["-machine", machine, "-smp", smp, "-nodefaults", "-display",
            "none", "-S"] + accel(binary)
    with Machine(binary, args) as vm:
        for name, a in steps:
            r = vm.cmd_raw(name, a)
            out.append((f"{name} {a}", r.get("return", r.get("error"))))
        hp = vm.cmd("query-hotpluggable-cpus")
        out.append(("query-hotpluggable-cpus", hp))
        fast = vm.cmd("query-cpus-fast")
        for c in fast:
            c.pop("thread-id")
        out.append(("query-cpus-fast", fast))
        for cmd in ("info hotpluggable-cpus", "info cpus"):
            out.append((cmd, mask_threads(vm.cmd(
                "human-monitor-command", {"command-line": cmd}))))
        for c in hp:
            if "qom-path" not in c:
                continue
            for p in ("apic-id", "socket-id", "core-id", "thread-id",
                      "die-id", "hotplugged", "hotpluggable", "parent_bus"):
                r = vm.cmd_raw("qom-get", {"path": c["qom-path"],
                                           "property": p})
                out.append((f"qom-get {c['qom-path']} {p}",
                            r.get("return", r.get("error"))))
        anon = vm.cmd("qom-list", {"path": "/machine/peripheral-anon"})
        out.append(("peripheral-anon", sorted(p["name"] for p in anon)))
    return out


def check_qmp():
    for name, machine, smp, steps in CASES:
        ours = run_case(BINARY, machine, smp, steps)
        theirs = run_case(ORACLE, machine, smp, steps)
        for i, ((what, o), (_, t)) in enumerate(zip(ours, theirs)):
            report(f"{name}/{i:02d}", o == t,
                   f"{what}: ours {o!r}, QEMU 7.2 {t!r}")


def tasks(pid):
    return set(int(t) for t in os.listdir(f"/proc/{pid}/task"))


def check_kvm_threads():
    args = ["-machine", "q35", "-smp", "1,maxcpus=4", "-nodefaults",
            "-display", "none", "-accel", "kvm"]
    with Machine(BINARY, args) as vm:
        pid = vm.proc.pid
        vm.cmd("device_add", {"driver": CPU, "id": "run", **ids(0, None, 2, 0)})
        vm.cmd("stop")
        vm.cmd("device_add", {"driver": CPU, "id": "paused",
                              **ids(0, None, 1, 0)})
        fast = vm.cmd("query-cpus-fast")
        tids = [c["thread-id"] for c in fast]
        report("kvm/threads", len(set(tids)) == 3 and pid not in tids and
               set(tids) <= tasks(pid), f"{fast}, tasks {tasks(pid)}")
        report("kvm/order", [c["cpu-index"] for c in fast] == [0, 2, 1],
               f"{fast}")
        # x-query-cpuid finds a vCPU by cpu-index: its CPUID's APIC ID
        leaf1 = [e for e in vm.cmd("x-query-cpuid", {"cpu-index": 2})
                 if e["leaf"] == 1]
        missing = vm.cmd_raw("x-query-cpuid", {"cpu-index": 3})
        report("kvm/x-query-cpuid-by-index",
               leaf1 and leaf1[0]["ebx"] >> 24 == 2 and "error" in missing,
               f"{leaf1}, {missing}")
        vm.cmd("cont")
        vm.cmd("system_reset")
        after = vm.cmd("query-cpus-fast")
        report("kvm/after-reset",
               [c["thread-id"] for c in after] == tids and
               vm.cmd("query-status")["status"] == "running", f"{after}")


def smp_guest(binary, firmware=()):
    argv = [binary, "-machine", "pc-q35-7.2,accel=kvm", "-m", "128",
            "-smp", "2,sockets=2,cores=3,maxcpus=6",
            "-device", f"{CPU},socket-id=1,core-id=2,thread-id=0",
            "-nodefaults", "-display", "none", "-serial", "stdio",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-no-reboot", "-kernel", GUEST] + list(firmware)
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    out = p.stdout.decode(errors="replace")
    crash = crash_message(p.returncode, p.stderr.decode(errors="replace"))
    if crash or "SMP-DONE" not in out:
        return None, f"status {p.returncode}: {crash or out[-300:]!r}"
    return (sorted(re.findall(r"cpu (\d+) apic-id (\d+)", out)),
            re.search(r"SMP-DONE cpus=(\d+)", out).group(1)), None


def check_guest():
    if not os.path.exists(GUEST):
        report("guest # SKIP smp.elf not built", True)
        return
    ours, why = smp_guest(BINARY)
    theirs, why72 = smp_guest(ORACLE, ("-bios", QBOOT)
                              if os.path.exists(QBOOT) else ())
    report("guest/ours-ran", ours is not None, why)
    report("guest/qemu72-ran", theirs is not None, why72)
    report("guest/apic-ids-as-qemu72", ours == theirs and
           ours is not None and ours[1] == "3",
           f"ours {ours}, QEMU 7.2 {theirs}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 not found")
        return 77
    check_qmp()
    if kvm_usable():
        check_kvm_threads()
        check_guest()
    else:
        report("kvm # SKIP /dev/kvm not usable", True)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
