#!/usr/bin/env python3
"""Differential test against Debian's QEMU 7.2 (issues 2 and 3).

Part 1, realized vCPUs: for every machine type both trees have and the CPU
models of the foundation, start this binary and QEMU 7.2 with the same
command line under -accel kvm, paused, and compare the realized vCPU's
feature-words, filtered-features, level, xlevel and xlevel2.
Part 2, every model: one process per machine type and binary answers
query-cpu-definitions (every field) and query-cpu-model-expansion for every
CPU model (static: every named feature, family, model, stepping, model-id,
vendor, min-level, min-xlevel; full: level, xlevel, xlevel2).
This tree's own types are compared with QEMU's pc-*-7.2 and may differ
only in the KVM PV bits their versions add, for named models, where the
host offers them (QEMU 7.2's `max` on this host says which it offers):
pc-*-8.0 in kvm-pv-unhalt (bit 7) alone, pc-*-8.1 also in
kvm-pv-tlb-flush, kvm-pv-ipi and kvm-pv-sched-yield (bits 9, 11, 13).
Each must also actually differ there.

The models include both vendors' paths whatever the host: under KVM a
named model takes the host's vendor, so `vendor=` forces the other one
(AMD's 0x80000001.EDX mirrors leaf 1's aliased bits).

Where QEMU 7.2 itself crashes (it aborts for -cpu host and max on some AMD
hosts: "failed to set MSR 0x10a"), there is nothing to compare: the pair
is reported as a TAP skip with QEMU's message, and this tree must still
start.  Skips (77) where /dev/kvm or /usr/bin/qemu-system-x86_64 (QEMU
7.2) is missing.  QEMU_72 overrides the oracle's path; DIFF_MODELS /
DIFF_MACHINES (comma-separated; models may carry properties after ':',
e.g. qemu64:vendor=AuthenticAMD) narrow the matrix; DIFF_PARTS=realized
runs only the realized-vCPU part.
"""

import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import (Machine, LaunchError, crash_message,  # noqa: E402
                         kvm_usable)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
MODELS = ["qemu64", "qemu32", "kvm64", "kvm32", "Haswell", "Haswell-noTSX",
          "Skylake-Client", "Skylake-Server", "Cascadelake-Server",
          "Icelake-Server", "EPYC", "EPYC-Rome", "host", "max", "base",
          "qemu64,vendor=AuthenticAMD", "EPYC,vendor=AuthenticAMD",
          "Skylake-Server,vendor=GenuineIntel"]
PROPS = ["level", "xlevel", "xlevel2"]
KVM_LEAF = (0x40000001, None, "EAX")
# 0x40000001.EAX bits this tree's versions add over QEMU 7.2, by version
PV_STEPS = {"8.0": {7: "kvm-pv-unhalt"},
            "8.1": {7: "kvm-pv-unhalt", 9: "kvm-pv-tlb-flush",
                    11: "kvm-pv-ipi", 13: "kvm-pv-sched-yield"}}
OURS = sorted(PV_STEPS)


def step_of(machine):
    """{bit: name} this tree's machine type adds over QEMU 7.2"""
    return PV_STEPS.get(machine.rsplit("-", 1)[-1], {})


def step_mask(machine):
    return sum(1 << b for b in step_of(machine))


def oracle_version():
    try:
        out = subprocess.run([ORACLE, "-version"], capture_output=True,
                             text=True, timeout=10).stdout
    except OSError:
        return None
    return out.split("\n")[0] if "version 7.2" in out else None


def oracle_host_kvm():
    """Which of this tree's PV bits the host's KVM offers, as QEMU 7.2 sees
    them: every one requested explicitly, minus what 7.2 filters (qemu64,
    not max: 7.2 aborts for max on some AMD hosts)"""
    bits = {b: n for v in OURS for b, n in PV_STEPS[v].items()}
    cpu = "qemu64," + ",".join(f"{n}=on" for n in bits.values())
    with Machine(ORACLE, ["-machine", "pc-q35-7.2", "-accel", "kvm", "-S",
                          "-cpu", cpu]) as vm:
        words = words_dict(vm.qom_get(vm.cpu_path(), "feature-words"))
    return words.get(KVM_LEAF, 0) & sum(1 << b for b in bits)


def machines_of(binary):
    with Machine(binary, ["-machine", "none", "-accel", "kvm", "-S"]) as vm:
        return {m["name"] for m in vm.cmd("query-machines")}


def words_dict(words):
    return {(w["cpuid-input-eax"], w.get("cpuid-input-ecx"),
             w["cpuid-register"]): w["features"] for w in words}


def observe(binary, machine, model):
    """The realized vCPU's answers, or ("error", stderr) if it won't start,
    or ("crash", message) if it died of a signal."""
    try:
        with Machine(binary, ["-machine", machine, "-accel", "kvm", "-S",
                              "-cpu", model], timeout=60) as vm:
            path = vm.cpu_path()
            r = {p: vm.qom_get(path, p) for p in PROPS}
            r["feature-words"] = words_dict(vm.qom_get(path, "feature-words"))
            r["filtered-features"] = words_dict(
                vm.qom_get(path, "filtered-features"))
            return r
    except LaunchError as e:
        crash = crash_message(e.returncode, e.stderr)
        if crash:
            return ("crash", crash)
        return ("error", e.stderr.strip())


def cpu_definitions(binary, machine):
    with Machine(binary, ["-machine", machine, "-accel", "kvm", "-S"]) as vm:
        defs = vm.cmd("query-cpu-definitions")
    for d in defs:
        d["unavailable-features"] = sorted(d["unavailable-features"])
    return {d["name"]: d for d in defs}


def compare_definitions(machine):
    """query-cpu-definitions of both, every model and field."""
    ours = cpu_definitions(BINARY, machine)
    theirs = cpu_definitions(ORACLE, machine)
    diffs = [f"models only here: {sorted(set(ours) - set(theirs))}",
             f"models only in QEMU 7.2: {sorted(set(theirs) - set(ours))}"] \
        if set(ours) != set(theirs) else []
    for name in sorted(set(ours) & set(theirs)):
        if ours[name] != theirs[name]:
            diffs.append(f"{name}: ours={ours[name]} qemu72={theirs[name]}")
    return diffs


# Full-expansion properties QEMU has and this tree does not (yet):
# lbr-fmt's default does not fit a JSON integer here, memory is a link
FULL_SKIP = {"lbr-fmt", "lbr_fmt", "memory", "realized"}
# This tree's own switches (x-hv-refuse-unsupported: which command lines
# start on a host without Hyper-V, docs/hyperv.md; no guest ABI)
FULL_OURS = {"x-kvm-auto-enable-pv-eoi", "x-kvm-auto-enable-pv-unhalt",
             "x-hv-auto-enable-ipi", "x-kvm-auto-enable-pv-tlb-flush",
             "x-kvm-auto-enable-pv-ipi", "x-kvm-auto-enable-pv-sched-yield",
             "x-hv-auto-enable-tlbflush", "x-hv-refuse-unsupported"}


def expansions(binary, machine):
    """{model: expanded properties} for every model, one process."""
    out = {}
    with Machine(binary, ["-machine", machine, "-accel", "kvm", "-S"],
                 timeout=120) as vm:
        for d in vm.cmd("query-cpu-definitions"):
            name = d["name"]
            props = vm.cmd("query-cpu-model-expansion", {
                "type": "static", "model": {"name": name}})["model"]["props"]
            full = vm.cmd("query-cpu-model-expansion", {
                "type": "full", "model": {"name": name}})["model"]["props"]
            for key, value in full.items():
                if key not in FULL_SKIP and key not in FULL_OURS:
                    props.setdefault(key, value)
            out[name] = props
    return out


def compare_expansions(ours_m, their_m, host_kvm):
    ours = expansions(BINARY, ours_m)
    theirs = expansions(ORACLE, their_m)
    # The intended differences: the step's features the host offers
    intended = {name for bit, name in step_of(ours_m).items()
                if host_kvm >> bit & 1}
    diffs = []
    if set(ours) != set(theirs):
        diffs.append(f"model sets differ: {sorted(set(ours) ^ set(theirs))}")
    for name in sorted(set(ours) & set(theirs)):
        a, b = ours[name], theirs[name]
        for key in sorted(set(a) | set(b)):
            if a.get(key) == b.get(key):
                continue
            # This tree's version's intended differences, for named models
            if key.replace("_", "-") in intended and \
                    a.get(key) is True and name not in ("base",):
                continue
            diffs.append(f"{name}.{key}: ours={a.get(key)!r} "
                         f"qemu72={b.get(key)!r}")
    return len(ours), diffs


SMP_CASES = ["4", "4,threads=2", "cores=2,maxcpus=4,cpus=2", "2,sockets=2",
             "sockets=2,cores=2", "8,cores=2", "6,threads=2,maxcpus=12",
             "3,maxcpus=6", "1,sockets=2,cores=2,maxcpus=4", "threads=2",
             "4,sockets=3", "4,dies=2,maxcpus=8"]


def topology(binary, machine, smp):
    """vCPU topology ids as query-cpus-fast reports them, and every slot
    query-hotpluggable-cpus lists (with the vCPU's qom-path where one is
    in it: device[0], [2], ... around the kvmvapic's), or the error."""
    try:
        with Machine(binary, ["-machine", machine, "-accel", "kvm", "-S",
                              "-smp", smp]) as vm:
            slots = [(c["type"], c["vcpus-count"], c["props"],
                      c.get("qom-path"))
                     for c in vm.cmd("query-hotpluggable-cpus")]
            return [c["props"] for c in vm.cmd("query-cpus-fast")], slots
    except RuntimeError as e:
        return "error: " + str(e).rsplit("qemu-system-x86_64: ", 1)[-1].strip()


def compare(ours, theirs, allowed):
    """Differences outside the allowed bits of the KVM leaf"""
    if isinstance(ours, tuple) or isinstance(theirs, tuple):
        return [] if ours == theirs else [f"ours={ours} qemu72={theirs}"]
    diffs = []
    for p in PROPS:
        if ours[p] != theirs[p]:
            diffs.append(f"{p}: ours={ours[p]:#x} qemu72={theirs[p]:#x}")
    for kind in ("feature-words", "filtered-features"):
        a, b = ours[kind], theirs[kind]
        for key in sorted(set(a) | set(b), key=str):
            va, vb = a.get(key, 0), b.get(key, 0)
            if allowed and kind == "feature-words" and key == KVM_LEAF:
                if (va ^ vb) & ~allowed:
                    diffs.append(f"{kind} {key}: ours={va:#x} qemu72={vb:#x}")
                continue
            if va != vb:
                diffs.append(f"{kind} {key}: ours={va:#x} qemu72={vb:#x}")
    return diffs


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    version = oracle_version()
    if not version:
        print(f"SKIP: QEMU 7.2 not found at {ORACLE} "
              "(apt-get install qemu-system-x86)")
        return 77
    print(f"# oracle: {version}")
    models = [m.replace(":", ",") for m in
              os.environ["DIFF_MODELS"].split(",")] \
        if os.environ.get("DIFF_MODELS") else MODELS
    common = sorted(machines_of(BINARY) & machines_of(ORACLE))
    common = [m for m in common if m.startswith("pc-")]
    if os.environ.get("DIFF_MACHINES"):
        common = os.environ["DIFF_MACHINES"].split(",")
    pairs = [(m, m, c) for m in common for c in models]
    # This tree's own types against QEMU 7.2's newest
    pairs += [(f"{fam}-{v}", f"{fam}-7.2", c) for v in OURS
              for fam in ("pc-q35", "pc-i440fx") for c in models]
    host_kvm = oracle_host_kvm()
    print(f"# this tree's KVM PV bits the host offers (QEMU 7.2 says): "
          f"{host_kvm:#010x}")

    def run_pair(pair):
        ours_m, their_m, model = pair
        return pair, observe(BINARY, ours_m, model), \
            observe(ORACLE, their_m, model)

    failures = 0
    n = 0
    oracle_crashes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for pair, ours, theirs in pool.map(run_pair, pairs):
            n += 1
            ours_m, their_m, model = pair
            name = f"x86/qemu72-diff/{ours_m}/{model}"
            if isinstance(ours, tuple) and ours[0] == "crash":
                failures += 1
                print(f"not ok {n} - {name}\n#   this tree {ours[1]}")
                continue
            if isinstance(theirs, tuple) and theirs[0] == "crash":
                # Nothing to compare; this tree must still start
                oracle_crashes.append(name)
                if isinstance(ours, tuple):
                    failures += 1
                    print(f"not ok {n} - {name}\n#   QEMU 7.2 crashed and "
                          f"this tree did not start: {ours[1]}")
                else:
                    print(f"ok {n} - {name} # SKIP QEMU 7.2 {theirs[1]}")
                continue
            allowed = step_mask(ours_m) if ours_m != their_m else 0
            diffs = compare(ours, theirs, allowed)
            if allowed and not diffs and not isinstance(ours, tuple):
                # ... and must actually differ there, for named models
                a = ours["feature-words"].get(KVM_LEAF, 0)
                b = theirs["feature-words"].get(KVM_LEAF, 0)
                host_fill = model.split(",")[0] in ("host", "max", "base")
                want = b if host_fill else b | (allowed & host_kvm)
                if a != want:
                    diffs.append(f"KVM leaf: ours={a:#x}, want {want:#x} "
                                 f"(QEMU 7.2 {b:#x} plus this version's "
                                 f"bits the host offers)")
            if diffs:
                failures += 1
                print(f"not ok {n} - {name}")
                for d in diffs[:8]:
                    print(f"#   {d}")
            else:
                print(f"ok {n} - {name}")
    if os.environ.get("DIFF_PARTS") == "realized":
        common = []
    for machine in (["none"] + common) if common else []:
        n += 1
        diffs = compare_definitions(machine)
        name = f"x86/qemu72-diff/query-cpu-definitions/{machine}"
        print(f"{'not ok' if diffs else 'ok'} {n} - {name}")
        for d in diffs[:8]:
            print(f"#   {d[:300]}")
        failures += bool(diffs)
    # -smp: sockets preferred up to 6.1, cores from 6.2 (a class field)
    for machine in ("pc-i440fx-6.1", "pc-q35-6.2") if common else ():
        for smp in SMP_CASES:
            n += 1
            a, b = topology(BINARY, machine, smp), topology(ORACLE, machine, smp)
            name = f"x86/qemu72-diff/smp/{machine}/{smp}"
            print(f"{'ok' if a == b else 'not ok'} {n} - {name}")
            if a != b:
                print(f"#   ours={a} qemu72={b}")
                failures += 1
    models_checked = 0
    for ours_m, their_m in ([(m, m) for m in common] + [
            (f"{fam}-{v}", f"{fam}-7.2") for v in OURS
            for fam in ("pc-q35", "pc-i440fx")] if common else []):
        n += 1
        count, diffs = compare_expansions(ours_m, their_m, host_kvm)
        models_checked += count
        name = f"x86/qemu72-diff/expansion/{ours_m}/every-model"
        print(f"{'not ok' if diffs else 'ok'} {n} - {name} ({count} models)")
        for d in diffs[:8]:
            print(f"#   {d[:300]}")
        failures += bool(diffs)
    print(f"# expansions compared: {models_checked} machine/model pairs")
    if oracle_crashes:
        print(f"# QEMU 7.2 crashed, nothing to compare ({len(oracle_crashes)}):"
              f" {', '.join(oracle_crashes)}")
    print(f"1..{n}")
    print(f"# {n - failures} of {n} comparisons equal")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
