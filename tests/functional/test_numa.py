#!/usr/bin/env python3
"""-numa and set-numa-node compared with QEMU 7.2.

  * command lines: nodes with memory backends, cpus= lists and ranges,
    -numa cpu by socket/core ids, dist, the default socket round-robin,
    partial mappings (7.2's two warnings), and the malformed and
    inconsistent forms (bad types and values, missing nodes, memory that
    does not add up, mem= on a new machine type and on an old one, ...).
    The exit status and stderr must equal 7.2's; for those that start,
    HMP info numa, query-cpus-fast and query-hotpluggable-cpus too (qom
    paths and thread ids aside);
  * --preconfig: set-numa-node (nodes, cpus by socket), its refusals, then
    x-exit-preconfig and the vCPUs' nodes, and set-numa-node refused after;
  * the guest's view, under KVM: the default test guest prints the SRAT
    and SLIT it finds; for two NUMA layouts (one with a 1 MiB node that
    ends inside the 640K-1M hole, one node without memory, a hot-pluggable
    vCPU slot) the bytes must equal what 7.2 gives the same guest (booted
    through qboot).
Skips (77) where QEMU 7.2 is missing; the guest part without KVM.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, LaunchError, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "default.elf")
QBOOT = "/usr/share/qemu/qboot.rom"
results = []

RAM = ["-object", "memory-backend-ram,id=ram,size=128M"]
M64 = ["-object", "memory-backend-ram,id=m0,size=64M",
       "-object", "memory-backend-ram,id=m1,size=64M"]
CASES = [
    ("sockets-round-robin", RAM + ["-smp", "8,sockets=8", "-numa",
                                   "node,memdev=ram", "-numa", "node"]),
    ("explicit", RAM + ["-smp", "8", "-numa", "node,nodeid=0,memdev=ram,"
                        "cpus=0-3", "-numa", "node,nodeid=1,cpus=4-7"]),
    ("partial", RAM + ["-smp", "8", "-numa", "node,nodeid=0,memdev=ram,"
                       "cpus=0-1", "-numa", "node,nodeid=1,cpus=4-5"]),
    ("partial-sockets", ["-m", "192", "-smp", "2,sockets=2,maxcpus=4",
                         "-object", "memory-backend-ram,id=m0,size=128M",
                         "-object", "memory-backend-ram,id=m1,size=64M",
                         "-numa", "node,memdev=m0", "-numa",
                         "node,memdev=m1,cpus=1", "-numa", "node"]),
    ("two-memdevs", M64 + ["-smp", "2,maxcpus=4", "-numa",
                           "node,memdev=m0,cpus=0,cpus=2", "-numa",
                           "node,memdev=m1,cpus=1,cpus=3"]),
    ("numa-cpu", RAM + ["-smp", "8,sockets=2,cores=2,threads=2", "-numa",
                        "node,nodeid=0,memdev=ram", "-numa", "node,nodeid=1",
                        "-numa", "cpu,node-id=1,socket-id=0", "-numa",
                        "cpu,node-id=0,socket-id=1,core-id=0", "-numa",
                        "cpu,node-id=0,socket-id=1,core-id=1,thread-id=0",
                        "-numa",
                        "cpu,node-id=1,socket-id=1,core-id=1,thread-id=1"]),
    ("dies", RAM + ["-smp", "2,dies=2,maxcpus=4", "-numa", "node,memdev=ram",
                    "-numa", "node", "-numa",
                    "cpu,node-id=1,die-id=1"]),
    ("dist", RAM + ["-smp", "2", "-numa", "node,memdev=ram", "-numa", "node",
                    "-numa", "dist,src=0,dst=1,val=20"]),
    ("no-memory", ["-smp", "2", "-numa", "node", "-numa", "node"]),
    ("memory-sum", RAM + ["-smp", "2", "-numa", "node,memdev=ram", "-numa",
                          "node,memdev=ram"]),
    ("mem-new-type", ["-m", "256", "-numa", "node,mem=128M", "-numa",
                      "node,mem=128M"]),
    ("node-missing", RAM + ["-numa", "node,memdev=ram,nodeid=3"]),
    ("cpu-index", RAM + ["-smp", "2", "-numa", "node,memdev=ram,cpus=5"]),
    ("cpu-range", RAM + ["-smp", "4", "-numa", "node,memdev=ram,cpus=1-300"]),
    ("bad-range", RAM + ["-numa", "node,memdev=ram,cpus=1-0"]),
    ("bad-memdev", RAM + ["-numa", "node,memdev=nope"]),
    ("duplicate", RAM + ["-numa", "node,memdev=ram", "-numa",
                         "node,nodeid=0"]),
    ("twice-assigned", RAM + ["-smp", "4", "-numa",
                              "node,memdev=ram,cpus=3,nodeid=0", "-numa",
                              "node,nodeid=1,cpus=3"]),
    ("dist-small", RAM + ["-numa", "node,memdev=ram", "-numa", "node",
                          "-numa", "dist,src=0,dst=1,val=5"]),
    ("dist-local", RAM + ["-numa", "node,memdev=ram", "-numa", "node",
                          "-numa", "dist,src=0,dst=0,val=20"]),
    ("dist-no-node", RAM + ["-numa", "node,memdev=ram", "-numa",
                            "dist,src=0,dst=5,val=20"]),
    ("dist-no-val", RAM + ["-numa", "node,memdev=ram", "-numa",
                           "dist,src=0,dst=1"]),
    ("dist-big", RAM + ["-numa", "node,memdev=ram", "-numa",
                        "dist,src=0,dst=1,val=300"]),
    ("cpu-no-node", RAM + ["-numa", "node,memdev=ram", "-numa",
                           "cpu,node-id=1,socket-id=0"]),
    ("cpu-bad-id", RAM + ["-numa", "node,memdev=ram", "-numa",
                          "cpu,node-id=x"]),
    ("bad-type", RAM + ["-numa", "bogus"]),
    ("bad-key", RAM + ["-numa", "node,memdev=ram,foo=1"]),
    ("bad-nodeid", RAM + ["-numa", "node,nodeid=abc"]),
    ("big-nodeid", RAM + ["-numa", "node,nodeid=70000"]),
    ("max-nodes", RAM + ["-numa", "node,nodeid=300"]),
    ("mem-and-memdev", RAM + ["-numa", "node,memdev=ram,mem=128M"]),
    ("bad-mem", RAM + ["-numa", "node,mem=abc"]),
    ("initiator", RAM + ["-numa", "node,memdev=ram,initiator=0"]),
    ("hmat-lb", RAM + ["-numa", "node,memdev=ram", "-numa",
                       "hmat-lb,initiator=0,target=0,hierarchy=memory,"
                       "data-type=access-latency,latency=5"]),
]
OLD_CASES = [
    ("old-mem", ["-smp", "2", "-numa", "node,mem=128M"]),
    ("old-mem-hole", ["-m", "128", "-numa", "node,mem=64M,nodeid=1"]),
]


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - numa/{name}" +
          ("" if ok else f" # {detail}"))


def accel(binary):
    if kvm_usable():
        return ["-accel", "kvm"]
    return ["-accel", "tcg"] if binary == ORACLE else ["-accel", "qtest"]


def clean_stderr(text):
    # This host's CPUID filtering and KVM's vCPU-count advice differ by
    # build and host; NUMA's own lines are what is compared
    return [l for l in text.splitlines()
            if "host doesn't support" not in l and "recommended" not in l]


def observe(binary, machine, args):
    argv = ["-machine", machine, "-nodefaults", "-display", "none", "-S"] + \
        args + accel(binary)
    try:
        with Machine(binary, argv) as vm:
            out = {"info numa": vm.cmd("human-monitor-command",
                                       {"command-line": "info numa"})}
            fast = vm.cmd("query-cpus-fast")
            out["cpus"] = [(c["cpu-index"], c["props"]) for c in fast]
            out["slots"] = [c["props"] for c in
                            vm.cmd("query-hotpluggable-cpus")]
            vm.cmd("quit")
            vm.proc.wait(timeout=10)
            out["stderr"] = clean_stderr(vm.stderr())
            return out
    except LaunchError as e:
        return {"status": e.returncode, "stderr": clean_stderr(e.stderr)}


def check_cli():
    for machine, cases in (("pc-q35-7.2", CASES),
                           ("pc-i440fx-2.12", OLD_CASES)):
        for name, args in cases:
            ours = observe(BINARY, machine, args)
            theirs = observe(ORACLE, machine, args)
            for k in sorted(set(ours) | set(theirs)):
                report(f"{name}/{k}", ours.get(k) == theirs.get(k),
                       f"ours {ours.get(k)!r}, QEMU 7.2 {theirs.get(k)!r}")


PRECONFIG_STEPS = [
    {"type": "node", "nodeid": 0, "memdev": "ram"},
    {"type": "node", "nodeid": 1},
    {"type": "node", "nodeid": 1},
    {"type": "cpu", "node-id": 0, "socket-id": 1},
    {"type": "cpu", "node-id": 1, "socket-id": 0},
    {"type": "cpu", "node-id": 5, "socket-id": 0},
    {"type": "dist", "src": 0, "dst": 1, "val": 30},
    {"type": "dist", "src": 0, "dst": 1, "val": 3},
    {"type": "node", "nodeid": "x"},
    {"type": "hmat-cache", "node-id": 0, "size": 10, "level": 1,
     "associativity": "direct", "policy": "write-back", "line": 8},
    {"type": "bogus"},
]


def preconfig(binary):
    out = []
    argv = ["-machine", "pc-q35-7.2", "-nodefaults", "-display", "none",
            "--preconfig", "-smp", "2,sockets=2"] + RAM + accel(binary)
    with Machine(binary, argv) as vm:
        for a in PRECONFIG_STEPS:
            r = vm.cmd_raw("set-numa-node", a)
            out.append((f"set-numa-node {a}", r.get("return", r.get("error"))))
        out.append(("exit", vm.cmd_raw("x-exit-preconfig")))
        vm.wait_event("RESUME", timeout=10)
        out.append(("slots", [c["props"] for c in
                              vm.cmd("query-hotpluggable-cpus")]))
        out.append(("info numa", vm.cmd("human-monitor-command",
                                         {"command-line": "info numa"})))
        r = vm.cmd_raw("set-numa-node", {"type": "node", "nodeid": 2})
        out.append(("after", r.get("return", r.get("error"))))
    return out


def check_preconfig():
    for (what, o), (_, t) in zip(preconfig(BINARY), preconfig(ORACLE)):
        report(f"preconfig/{what}", o == t, f"ours {o!r}, QEMU 7.2 {t!r}")


GUEST_LAYOUTS = [
    ("two-nodes-dist", M64 + ["-m", "128", "-smp", "4,sockets=2,cores=2",
                              "-numa", "node,memdev=m0,cpus=0-1", "-numa",
                              "node,memdev=m1,cpus=2-3", "-numa",
                              "dist,src=0,dst=1,val=21"]),
    ("hole-and-empty-node",
     ["-object", "memory-backend-ram,id=m0,size=1M", "-object",
      "memory-backend-ram,id=m1,size=127M", "-m", "128", "-smp",
      "2,maxcpus=3", "-numa", "node,memdev=m0", "-numa", "node,memdev=m1",
      "-numa", "node", "-numa", "cpu,node-id=2,socket-id=0,core-id=2"]),
]


def guest_tables(binary, args, firmware=()):
    argv = [binary, "-machine", "pc-q35-7.2,accel=kvm", "-nodefaults",
            "-display", "none", "-serial", "stdio", "-device",
            "isa-debug-exit,iobase=0xf4,iosize=0x04", "-no-reboot",
            "-kernel", GUEST, "-append", "exit=debug dump-tables=SRAT,SLIT"] \
        + args + list(firmware)
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None
    return re.findall(r"ACPI-TABLE .*", p.stdout.decode(errors="replace"))


def check_guest():
    for name, args in GUEST_LAYOUTS:
        ours = guest_tables(BINARY, args)
        theirs = guest_tables(ORACLE, args, ("-bios", QBOOT)
                              if os.path.exists(QBOOT) else ())
        report(f"guest/{name}/srat-slit-as-qemu72",
               ours == theirs and ours is not None and len(ours) == 2 and
               "SRAT rev=1" in ours[0], f"ours {ours}, QEMU 7.2 {theirs}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 not found")
        return 77
    check_cli()
    check_preconfig()
    if kvm_usable() and os.path.exists(GUEST):
        check_guest()
    else:
        report("guest # SKIP /dev/kvm not usable", True)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
