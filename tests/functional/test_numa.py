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
    through qboot);
  * HMAT (-machine hmat=on): initiator=, hmat-lb and hmat-cache on the
    command line (each of 7.2's refusals, in its order, and the initiator
    checks made once the vCPUs have nodes) and through set-numa-node under
    --preconfig; the hmat property (qom-get, qom-list-properties, absent
    from -machine help as in 7.2); and the SRAT, SLIT and HMAT the guest
    finds for several layouts (initiators, memory-only nodes, latencies
    and bandwidths of several hierarchies and data types, 7.2's base
    arithmetic at its edges, three cache levels) equal 7.2's bytes.
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
    ("hmat-lb-bad-type", RAM + ["-numa", "node,memdev=ram", "-numa",
                                "hmat-lb,initiator=x"]),
    ("hmat-cache", RAM + ["-numa", "node,memdev=ram", "-numa",
                          "hmat-cache,node-id=0,size=1K,level=1,"
                          "associativity=direct,policy=none,line=8"]),
    ("initiator-bad-memdev", RAM + ["-numa",
                                    "node,memdev=nope,initiator=0"]),
    ("default-nodeid", M64 + ["-numa", "node,memdev=m0,nodeid=1", "-numa",
                              "node,memdev=m1"]),
    ("type-before-key", RAM + ["-numa", "node,memdev=ram,foo=1,nodeid=x"]),
    ("dist-src-missing", RAM + ["-numa", "node,memdev=ram", "-numa",
                                "dist,dst=x"]),
    ("cpu-key-order", RAM + ["-numa", "node,memdev=ram", "-numa",
                             "cpu,foo=1,core-id=x"]),
]

# -machine hmat=on; two 64M nodes, two sockets
HM = ["-machine", "hmat=on", "-m", "128", "-smp", "2,sockets=2"] + M64
N2 = ["-numa", "node,memdev=m0", "-numa", "node,memdev=m1"]
# node 0 has both vCPUs, node 1 is memory only with node 0 as initiator
N2I = ["-numa", "node,memdev=m0,cpus=0-1", "-numa",
       "node,memdev=m1,initiator=0"]


def lb(spec):
    """-numa hmat-lb, hierarchy=memory unless spec says otherwise"""
    if "hierarchy=" not in spec:
        spec += ",hierarchy=memory"
    return ["-numa", "hmat-lb," + spec]


def cache(spec):
    return ["-numa", "hmat-cache," + spec]


LAT00 = lb("initiator=0,target=0,data-type=access-latency,latency=10")
BW00 = lb("initiator=0,target=0,data-type=access-bandwidth,bandwidth=1G")
L1 = "node-id=0,size=10K,level=1,associativity=direct,policy=write-back," \
    "line=8"
HMAT_CASES = [
    ("hmat/ok", HM + N2I + LAT00 + BW00 + cache(L1)),
    ("hmat/off-value", ["-machine", "hmat=off"] + RAM +
     ["-numa", "node,memdev=ram,initiator=0"]),
    ("hmat/bool-yes", ["-machine", "hmat=yes"] + RAM +
     ["-numa", "node,memdev=ram,initiator=0"]),
    ("hmat/bool-bad", ["-machine", "hmat=maybe"]),
    ("initiator/too-big", HM + ["-numa", "node,memdev=m0,initiator=200",
                                "-numa", "node,memdev=m1"]),
    ("initiator/not-itself", HM + ["-numa", "node,memdev=m0,initiator=1",
                                   "-numa", "node,memdev=m1"]),
    ("initiator/default-mapping", HM + ["-numa", "node,memdev=m0", "-numa",
                                        "node,memdev=m1,initiator=0"]),
    ("initiator/cpus", HM + ["-numa", "node,memdev=m0,cpus=0", "-numa",
                             "node,memdev=m1,initiator=0,cpus=1"]),
    ("initiator/numa-cpu", HM + ["-numa", "node,memdev=m0", "-numa",
                                 "node,memdev=m1,initiator=0", "-numa",
                                 "cpu,node-id=1,socket-id=1"]),
    ("initiator/missing-node", HM + ["-numa", "node,memdev=m0,cpus=0-1",
                                     "-numa", "node,memdev=m1,initiator=5"]),
    ("initiator/no-cpus", HM + ["-numa", "node,memdev=m0,cpus=0-1", "-numa",
                                "node,memdev=m1", "-numa",
                                "node,initiator=1"]),
    ("initiator/memory-only", HM + N2I),
    ("lb/missing", HM + N2 + ["-numa", "hmat-lb,initiator=0,target=1"]),
    ("lb/nothing", HM + N2 + ["-numa", "hmat-lb,foo=1"]),
    ("lb/bad-hierarchy", HM + N2 + lb("initiator=0,target=1,hierarchy=x,"
                                      "data-type=access-latency")),
    ("lb/bad-data-type", HM + N2 + lb("initiator=0,target=1,data-type=x")),
    ("lb/bad-latency", HM + N2 + lb("initiator=0,target=1,"
                                    "data-type=access-latency,latency=x")),
    ("lb/negative-latency", HM + N2 + lb("initiator=0,target=1,data-type="
                                         "access-latency,latency=-1")),
    ("lb/bad-bandwidth", HM + N2 + lb("initiator=0,target=1,data-type="
                                      "access-bandwidth,bandwidth=x")),
    ("lb/big-initiator", HM + N2 + lb("initiator=70000,target=1,data-type="
                                      "access-latency,latency=5")),
    ("lb/unknown-key", HM + N2 + lb("initiator=0,target=1,data-type="
                                    "access-latency,latency=5,foo=1")),
    ("lb/initiator-range", HM + N2 + lb("initiator=3,target=1,data-type="
                                        "access-latency,latency=5")),
    ("lb/initiator-count", HM + N2 + lb("initiator=2,target=1,data-type="
                                        "access-latency,latency=5")),
    ("lb/target-range", HM + N2I + lb("initiator=0,target=3,data-type="
                                      "access-latency,latency=5")),
    ("lb/not-initiator", HM + N2I + lb("initiator=1,target=0,data-type="
                                       "access-latency,latency=5")),
    ("lb/target-hole", HM + ["-numa", "node,memdev=m0,cpus=0-1", "-numa",
                             "node,memdev=m1,nodeid=2"] +
     lb("initiator=0,target=1,data-type=access-latency,latency=5")),
    ("lb/no-latency", HM + N2I + lb("initiator=0,target=1,"
                                    "data-type=read-latency")),
    ("lb/bandwidth-for-latency", HM + N2I + lb(
        "initiator=0,target=1,data-type=write-latency,latency=5,"
        "bandwidth=1M")),
    ("lb/no-bandwidth", HM + N2I + lb("initiator=0,target=1,"
                                      "data-type=read-bandwidth")),
    ("lb/latency-for-bandwidth", HM + N2I + lb(
        "initiator=0,target=1,data-type=write-bandwidth,bandwidth=1M,"
        "latency=1")),
    ("lb/unaligned", HM + N2I + lb("initiator=0,target=1,data-type="
                                   "access-bandwidth,bandwidth=1048575")),
    ("lb/duplicate-latency", HM + N2I + LAT00 + lb(
        "initiator=0,target=0,data-type=access-latency,latency=20")),
    ("lb/duplicate-bandwidth", HM + N2I + BW00 + BW00),
    ("lb/latency-range", HM + N2I + lb(
        "initiator=0,target=0,data-type=access-latency,latency=1") + lb(
        "initiator=0,target=1,data-type=access-latency,latency=65535")),
    ("lb/bandwidth-range", HM + N2I + lb(
        "initiator=0,target=0,data-type=access-bandwidth,bandwidth=1M") + lb(
        "initiator=0,target=1,data-type=access-bandwidth,bandwidth=128G")),
    ("lb/disabled-type-first", ["-machine", "hmat=off"] + RAM + [
        "-numa", "node,memdev=ram"] + lb("initiator=x")),
    ("cache/no-lb", HM + N2I + cache(L1)),
    ("cache/latency-only", HM + N2I + LAT00 + cache(L1)),
    ("cache/zero-bandwidth", HM + N2I + LAT00 + lb(
        "initiator=0,target=0,data-type=access-bandwidth,bandwidth=0") +
     cache(L1)),
    ("cache/missing", HM + N2I + cache("node-id=0")),
    ("cache/node-range", HM + N2I + LAT00 + BW00 + cache(
        L1.replace("node-id=0", "node-id=2"))),
    ("cache/level-0", HM + N2I + LAT00 + BW00 + cache(
        L1.replace("level=1", "level=0"))),
    ("cache/level-4", HM + N2I + LAT00 + BW00 + cache(
        L1.replace("level=1", "level=4"))),
    ("cache/level-300", HM + N2I + cache(L1.replace("level=1", "level=300"))),
    ("cache/line-range", HM + N2I + cache(L1.replace("line=8", "line=70000"))),
    ("cache/bad-associativity", HM + N2I + cache(
        L1.replace("direct", "x"))),
    ("cache/bad-policy", HM + N2I + cache(L1.replace("write-back", "x"))),
    ("cache/duplicate", HM + N2I + LAT00 + BW00 + cache(L1) + cache(L1)),
    ("cache/level-2-first", HM + N2I + LAT00 + BW00 + cache(
        L1.replace("level=1", "level=2"))),
    ("cache/level-2-smaller", HM + N2I + LAT00 + BW00 + cache(L1) + cache(
        L1.replace("level=1", "level=2").replace("10K", "5K"))),
    ("cache/three-levels", HM + N2I + LAT00 + BW00 + cache(L1) + cache(
        L1.replace("level=1", "level=2").replace("10K", "20K")) + cache(
        L1.replace("level=1", "level=3").replace("10K", "1M"))),
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
                           ("pc-i440fx-2.12", OLD_CASES),
                           ("pc-i440fx-7.2", HMAT_CASES)):
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


def lb_args(initiator, target, data_type, **value):
    return dict({"type": "hmat-lb", "initiator": initiator,
                 "target": target, "hierarchy": "memory",
                 "data-type": data_type}, **value)


def cache_args(node, size, level, **extra):
    return dict({"type": "hmat-cache", "node-id": node, "size": size,
                 "level": level, "associativity": "direct",
                 "policy": "write-back", "line": 8}, **extra)


# After -machine hmat=on and M64: every refusal of 7.2's QMP visitor and
# checks, then a configuration that must be taken (and 7.2's stderr line
# for an initiator id out of range, which is no QMP error)
HMAT_PRECONFIG_STEPS = [
    {"type": "node", "nodeid": 0, "memdev": "m0", "initiator": 200},
    {"type": "node", "nodeid": 0, "memdev": "m0", "initiator": "x"},
    {"type": "node", "nodeid": 0, "memdev": "m0", "cpus": [0, 1]},
    {"type": "node", "nodeid": 1, "memdev": "m1", "initiator": 0},
    {"type": "hmat-lb"},
    {"type": "hmat-lb", "initiator": "0"},
    {"type": "hmat-lb", "initiator": -1},
    {"type": "hmat-lb", "initiator": 70000},
    lb_args(0, 1, "access-latency", hierarchy=5),
    lb_args(0, 1, "access-latency", hierarchy="bogus"),
    lb_args(0, 1, "bogus"),
    lb_args(0, 1, "access-latency"),
    lb_args(0, 1, "access-latency", latency=1.5),
    lb_args(0, 1, "access-latency", bandwidth="5"),
    lb_args(0, 1, "access-latency", latency=5, foo=1),
    lb_args(0, 1, "access-latency", latency=5, bandwidth=1048576),
    lb_args(0, 1, "access-bandwidth", bandwidth=1048576, latency=1),
    lb_args(0, 1, "access-bandwidth"),
    lb_args(0, 1, "access-bandwidth", bandwidth=1048577),
    lb_args(1, 0, "access-latency", latency=5),
    lb_args(2, 0, "access-latency", latency=5),
    lb_args(0, 2, "access-latency", latency=5),
    # A negative uint64 is taken as its two's complement
    lb_args(0, 1, "access-latency", latency=-5),
    lb_args(0, 0, "access-latency", latency=100),
    lb_args(0, 1, "access-latency", latency=10000000),
    lb_args(0, 1, "access-bandwidth", bandwidth=1048576),
    lb_args(0, 1, "access-bandwidth", bandwidth=1048576),
    lb_args(0, 0, "access-bandwidth", bandwidth=137438953472),
    {"type": "hmat-cache"},
    cache_args(5000000000, 1, 1),
    cache_args(0, -1, 1),
    cache_args(0, 1, 1, policy="bogus"),
    cache_args(0, 1, 1, associativity=2),
    cache_args(0, 1, 1, line=80000),
    cache_args(1, 1000, 1),
    cache_args(0, 1000, 1),
    cache_args(0, 1000, 1, policy="none"),
    cache_args(0, 500, 2),
    cache_args(0, 3000, 3, associativity="complex", policy="write-through"),
    cache_args(0, 2000, 2, associativity="none", line=64),
    cache_args(0, 1500, 3),
    cache_args(0, 3000, 3, associativity="complex", policy="write-through"),
    cache_args(1, 1, 0),
]


def preconfig(binary, steps=None, args=()):
    out = []
    argv = ["-machine", "pc-q35-7.2", "-nodefaults", "-display", "none",
            "--preconfig", "-smp", "2,sockets=2"] + list(args or RAM) + \
        accel(binary)
    with Machine(binary, argv) as vm:
        for a in steps or PRECONFIG_STEPS:
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
        vm.cmd("quit")
        vm.proc.wait(timeout=10)
        out.append(("stderr", clean_stderr(vm.stderr())))
    return out


def check_preconfig():
    for name, steps, args in (
            ("preconfig", PRECONFIG_STEPS, RAM),
            ("preconfig-hmat", HMAT_PRECONFIG_STEPS,
             ["-machine", "hmat=on", "-m", "128"] + M64)):
        ours = preconfig(BINARY, steps, args)
        theirs = preconfig(ORACLE, steps, args)
        report(f"{name}/steps", len(ours) == len(theirs),
               f"ours {len(ours)}, QEMU 7.2 {len(theirs)}")
        for (what, o), (_, t) in zip(ours, theirs):
            report(f"{name}/{what}", o == t, f"ours {o!r}, QEMU 7.2 {t!r}")


def hmat_property(binary):
    """qom-get/qom-set of hmat, its qom-list-properties entry, and the
    -machine help lines that name it (none, in 7.2)"""
    out = {}
    argv = ["-machine", "pc-q35-7.2", "-nodefaults", "-display", "none",
            "-S"] + accel(binary)
    with Machine(binary, argv) as vm:
        out["get"] = vm.cmd_raw("qom-get", {"path": "/machine",
                                            "property": "hmat"})
        out["set"] = vm.cmd_raw("qom-set", {"path": "/machine",
                                            "property": "hmat",
                                            "value": True})
        out["get-after-set"] = vm.cmd_raw("qom-get", {"path": "/machine",
                                                      "property": "hmat"})
        out["set-bad"] = vm.cmd_raw("qom-set", {"path": "/machine",
                                                "property": "hmat",
                                                "value": "x"})
        out["list"] = [p for p in vm.cmd("qom-list", {"path": "/machine"})
                       if p["name"] == "hmat"]
        out["list-properties"] = [
            p for p in vm.cmd("qom-list-properties",
                              {"typename": "pc-q35-7.2-machine"})
            if p["name"] == "hmat"]
    for m in ("pc-q35-7.2", "pc-i440fx-7.2"):
        p = subprocess.run([binary, "-machine", m + ",help"],
                           capture_output=True, text=True, timeout=30)
        out[f"help {m}"] = [l for l in p.stdout.splitlines() if "hmat" in l]
    p = subprocess.run([binary, "-machine", "none,hmat=on", "-display",
                        "none", "-nodefaults"], capture_output=True,
                       text=True, timeout=30)
    out["none"] = (p.returncode, p.stderr)
    return out


def check_hmat_property():
    ours, theirs = hmat_property(BINARY), hmat_property(ORACLE)
    for k in theirs:
        report(f"hmat-property/{k}", ours.get(k) == theirs[k],
               f"ours {ours.get(k)!r}, QEMU 7.2 {theirs[k]!r}")


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
    ("hmat-two-nodes",
     HM + ["-smp", "4,sockets=2,cores=2", "-numa",
           "node,memdev=m0,cpus=0-1", "-numa", "node,memdev=m1,initiator=0",
           "-numa", "cpu,node-id=0,socket-id=1"] +
     lb("initiator=0,target=0,data-type=access-latency,latency=10") +
     lb("initiator=0,target=1,data-type=access-latency,latency=20") +
     lb("initiator=0,target=0,data-type=access-bandwidth,bandwidth=200M") +
     lb("initiator=0,target=1,data-type=access-bandwidth,bandwidth=100M") +
     cache(L1)),
    # Two initiators and a memory-only node, four hierarchy/type pairs: a
    # latency base of 10^7 ns (past 32 bits in ps), bases that move as
    # entries come, a 0 entry, bandwidths 2^20..2^35; caches on two nodes
    ("hmat-three-nodes",
     ["-machine", "hmat=on", "-m", "192", "-smp", "4,sockets=4"] + M64 +
     ["-object", "memory-backend-ram,id=m2,size=64M",
      "-numa", "node,memdev=m0,cpus=0-1", "-numa", "node,memdev=m1,cpus=2-3",
      "-numa", "node,memdev=m2,initiator=1",
      "-numa", "dist,src=0,dst=1,val=21", "-numa", "dist,src=0,dst=2,val=31",
      "-numa", "dist,src=1,dst=2,val=15"] +
     [a for i in (0, 1) for t in (0, 1, 2) for a in lb(
         f"initiator={i},target={t},data-type=access-latency,"
         f"latency={(10 + 10 * i + 5 * t) * 1000000}")] +
     lb("initiator=1,target=2,hierarchy=first-level,data-type=read-latency,"
        "latency=500") +
     lb("initiator=0,target=2,hierarchy=first-level,data-type=read-latency,"
        "latency=5") +
     lb("initiator=1,target=1,hierarchy=first-level,data-type=read-latency,"
        "latency=0") +
     lb("initiator=0,target=0,hierarchy=first-level,data-type=read-latency,"
        "latency=1230") +
     [a for i in (0, 1) for t in (0, 1, 2) for a in lb(
         f"initiator={i},target={t},data-type=write-bandwidth,"
         f"bandwidth={1 << (20 + 3 * t + 6 * i)}")] +
     lb("initiator=1,target=2,hierarchy=third-level,"
        "data-type=access-bandwidth,bandwidth=3G") +
     cache("node-id=2,size=64K,level=1,associativity=none,policy=none,"
           "line=0") +
     cache("node-id=2,size=2M,level=2,associativity=complex,"
           "policy=write-through,line=128") +
     cache("node-id=2,size=32M,level=3,associativity=direct,"
           "policy=write-back,line=64") +
     cache("node-id=0,size=1K,level=1,associativity=direct,"
           "policy=write-back,line=16")),
    # Initiators after a memory-only node: a row is the initiator's place
    # in the initiator list (Debian's 7.2.22; 7.2.0 wrote past its matrix)
    ("hmat-initiators-after-memory-node",
     ["-machine", "hmat=on", "-m", "192", "-smp", "2,sockets=2"] + M64 +
     ["-object", "memory-backend-ram,id=m2,size=64M",
      "-numa", "node,memdev=m0,initiator=2", "-numa", "node,memdev=m1,cpus=0",
      "-numa", "node,memdev=m2,cpus=1"] +
     [a for i in (1, 2) for t in (0, 1, 2) for a in lb(
         f"initiator={i},target={t},data-type=access-latency,"
         f"latency={10 * i + t + 1}")] +
     [a for i in (2, 1) for t in (2, 0) for a in lb(
         f"initiator={i},target={t},data-type=read-bandwidth,"
         f"bandwidth={i * 64 + t}M")]),
    # No hmat-lb, a node with neither vCPUs nor initiator; then zeros only
    # (7.2's bases stay UINT64_MAX ns and 1 byte/s)
    ("hmat-bare", HM + ["-numa", "node,memdev=m0,cpus=0-1", "-numa",
                        "node,memdev=m1"]),
    ("hmat-zeros", HM + N2I +
     lb("initiator=0,target=1,data-type=write-latency,latency=0") +
     lb("initiator=0,target=1,data-type=read-bandwidth,bandwidth=0")),
]


def guest_tables(binary, args, firmware=()):
    argv = [binary, "-machine", "pc-q35-7.2,accel=kvm", "-nodefaults",
            "-display", "none", "-serial", "stdio", "-device",
            "isa-debug-exit,iobase=0xf4,iosize=0x04", "-no-reboot",
            "-kernel", GUEST, "-append",
            "exit=debug dump-tables=SRAT,SLIT,HMAT"] \
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
        hmat = "hmat=on" in args
        report(f"guest/{name}/srat-slit-hmat-as-qemu72",
               ours == theirs and ours is not None and len(ours) == 3 and
               "SRAT rev=1" in ours[0] and
               ("HMAT rev=2" in ours[2]) == hmat and
               ("HMAT absent" in ours[2]) != hmat,
               f"ours {ours}, QEMU 7.2 {theirs}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 not found")
        return 77
    check_cli()
    check_preconfig()
    check_hmat_property()
    if kvm_usable() and os.path.exists(GUEST):
        check_guest()
    else:
        report("guest # SKIP /dev/kvm not usable", True)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
