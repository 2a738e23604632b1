#!/usr/bin/env python3
"""Golden CPUID tables (docs/golden-cpuid.md).

    test_golden_cpuid.py compare FRESH_DIR   regenerate into FRESH_DIR with
                                             scripts/update-golden-cpuid.sh,
                                             compare with tests/data/cpuid/
    test_golden_cpuid.py determinism         the tool twice, byte-identical;
                                             and in reverse order, same tables
    test_golden_cpuid.py abi-diff A B        A -> B on the generous host:
                                             only the bits B's version adds
                                             (7.2 -> 8.0: kvm-pv-unhalt;
                                             8.0 -> 8.1: kvm-pv-tlb-flush,
                                             kvm-pv-ipi, kvm-pv-sched-yield)
    test_golden_cpuid.py emulator            the tool equals x-query-cpuid of
                                             the real emulator (needs /dev/kvm)

The tool is $CPUID_TABLE (meson sets it), the emulator $QEMU_BINARY.
"""

import difflib
import filecmp
import glob
import os
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GOLDEN = os.path.join(TOP, "tests", "data", "cpuid")
HOSTS = os.path.join(TOP, "tests", "data", "hosts")
TOOL = os.environ.get("CPUID_TABLE",
                      os.path.join(TOP, "build", "tools", "cpuid-table"))
REBASELINE = ("scripts/update-golden-cpuid.sh (review), then --write; "
              "the commit says why")
MAX_DIFFS = 3
MODELS = ["qemu64", "kvm64", "Haswell", "Skylake-Server",
          "Cascadelake-Server", "Icelake-Server", "EPYC", "EPYC-Rome",
          "EPYC-Milan", "max"]


def files_under(d):
    out = set()
    for root, _, names in os.walk(d):
        for n in names:
            out.add(os.path.relpath(os.path.join(root, n), d))
    return out


def compare(fresh):
    env = dict(os.environ, CPUID_TABLE=TOOL)
    p = subprocess.run([os.path.join(TOP, "scripts",
                                     "update-golden-cpuid.sh"), fresh],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stdout + p.stderr)
        print("FAIL: could not regenerate the tables")
        return 1
    golden, new = files_under(GOLDEN), files_under(fresh)
    missing, extra = sorted(golden - new), sorted(new - golden)
    changed = sorted(f for f in golden & new
                     if not filecmp.cmp(os.path.join(GOLDEN, f),
                                        os.path.join(fresh, f),
                                        shallow=False))
    print(f"{len(golden)} golden tables, {len(new)} fresh ones in {fresh}")
    if not (missing or extra or changed):
        print("PASS: every table equals its golden copy")
        return 0
    # Which machine types changed, per host and model
    per = {}
    for f in changed:
        host, machine, model = f.split("/")
        per.setdefault(f"{host}/{model[:-4]}", []).append(machine)
    print("Changed tables, per host/model:")
    for k in sorted(per):
        print(f"    {k} ({len(per[k])}): {' '.join(sorted(per[k]))}")
    print()
    # The same edit usually shows in many tables (every older machine
    # type, every host): print each distinct change once, with its tables.
    groups = {}
    for f in changed:
        with open(os.path.join(GOLDEN, f)) as a, \
                open(os.path.join(fresh, f)) as b:
            la, lb = a.readlines(), b.readlines()
        body = "".join(list(difflib.unified_diff(la, lb, n=1))[2:])
        # Tables that differ by the same lines are one change
        key = "".join(l for l in difflib.unified_diff(la, lb, n=0)
                      if l[0] in "+-" and l[:3] not in ("---", "+++"))
        groups.setdefault(key, [body, []])[1].append(f)
    for i, (body, fs) in enumerate(groups.values()):
        if i == MAX_DIFFS:
            print(f"... and {len(groups) - MAX_DIFFS} more distinct changes")
            break
        print(f"--- tests/data/cpuid/{fs[0]}")
        print(f"+++ {os.path.join(fresh, fs[0])}")
        sys.stdout.write(body)
        if len(fs) > 1:
            more = ", ".join(fs[1:9]) + (", ..." if len(fs) > 9 else "")
            print(f"(the same change in {len(fs) - 1} more tables: {more})")
        print()
    for f in missing[:20]:
        print(f"missing (no longer generated): tests/data/cpuid/{f}")
    for f in extra[:20]:
        print(f"new (not in tests/data/cpuid): {f}")
    print(f"\nFAIL: {len(changed)} changed, {len(missing)} missing, "
          f"{len(extra)} new tables.")
    print("If the change is intended (it changes what guests see: does the "
          "compat entry belong to an older machine type?), re-baseline and "
          "review:\n    " + REBASELINE)
    return 1


def tool_output(args):
    p = subprocess.run([TOOL] + args, capture_output=True)
    if p.returncode != 0:
        sys.stdout.write(p.stderr.decode(errors="replace"))
        raise SystemExit(f"FAIL: {' '.join([TOOL] + args)} exited with "
                         f"{p.returncode}")
    return p.stdout


def sections(data):
    """{"# machine M cpu C": text} of a multi-table output"""
    out, key = {}, None
    for line in data.decode().splitlines(keepends=True):
        if line.startswith("# machine "):
            key = line.strip()
            out[key] = ""
        else:
            out[key] += line
    return out


def determinism():
    cpus = [a for m in MODELS for a in ("--cpu", m)]
    rev = [a for m in reversed(MODELS) for a in ("--cpu", m)]
    machines = tool_output(["--accel", "qtest", "--machine", "all",
                            "--cpu", "qemu64"]).decode().split("\n")
    machines = [l.split()[2] for l in machines if l.startswith("# machine")]
    rev_machines = [a for m in reversed(machines) for a in ("--machine", m)]
    failures = 0
    for host in sorted(glob.glob(os.path.join(HOSTS, "*.host"))):
        name = os.path.basename(host)
        if name.startswith("hyperv-"):
            continue  # Hyper-V tables: tests/golden/test_golden_hyperv.py
        for mode in ([], ["--features"]):
            base = ["--host", host, "--machine", "all"] + cpus + mode
            first, second = tool_output(base), tool_output(base)
            what = f"{name} {' '.join(mode) or 'tables'}"
            if first != second:
                failures += 1
                print(f"not ok - {what}: two runs differ")
                sys.stdout.writelines(difflib.unified_diff(
                    first.decode().splitlines(True),
                    second.decode().splitlines(True), "run 1", "run 2", n=1))
                continue
            print(f"ok - {what}: two runs byte-identical "
                  f"({len(first)} bytes)")
            # One process computes many CPUs: order must not matter
            backwards = sections(tool_output(["--host", host] + rev_machines +
                                             rev + mode))
            if backwards != sections(first):
                failures += 1
                bad = [k for k in sections(first)
                       if sections(first)[k] != backwards.get(k)]
                print(f"not ok - {what}: reverse order differs: {bad[:5]}")
            else:
                print(f"ok - {what}: same tables in reverse order")
    return 1 if failures else 0


# The guest-visible bits each version of this tree adds (0x40000001.EAX)
ABI_STEPS = {
    ("pc-q35-7.2", "pc-q35-8.0"): [(7, "kvm-pv-unhalt")],
    ("pc-q35-8.0", "pc-q35-8.1"): [(9, "kvm-pv-tlb-flush"),
                                   (11, "kvm-pv-ipi"),
                                   (13, "kvm-pv-sched-yield")],
}


def abi_diff(a, b):
    argv = [os.path.join(TOP, "scripts", "machine-abi-diff"), a, b,
            "--host", os.path.join(HOSTS, "generous.host")]
    p = subprocess.run(argv, capture_output=True, text=True,
                       env=dict(os.environ, CPUID_TABLE=TOOL))
    print(p.stdout + p.stderr)
    bits = [l.split() for l in p.stdout.splitlines()
            if l.startswith("  0x")]
    msrs = [l for l in p.stdout.splitlines() if l.startswith("  MSR")]
    step = ABI_STEPS[(a, b)]
    want = [["0x40000001", "0x00", "eax", "bit", str(bit), name,
             "0", "->", "1"] for bit, name in step]
    names = ", ".join(f"{name} (bit {bit})" for bit, name in step)
    if p.returncode != 1 or bits != want or msrs:
        print(f"FAIL: expected exactly the differing guest-visible bits "
              f"0x40000001.EAX {names}, each 0 -> 1 (exit 1); got "
              f"{bits} {msrs} (exit {p.returncode})")
        return 1
    print(f"PASS: {a} -> {b}: the only guest-visible differences are "
          f"{names}")
    return 0


def emulator():
    sys.path.insert(0, os.path.join(TOP, "python"))
    from qmp_machine import Machine, kvm_usable
    binary = os.environ.get("QEMU_BINARY",
                            os.path.join(TOP, "build", "qemu-system-x86_64"))
    if not kvm_usable():
        print("SKIP: /dev/kvm not usable")
        return 77
    failures = 0
    rows = [(m, c) for m in ("pc-q35-8.1", "pc-q35-8.0", "pc-q35-7.2",
                             "pc-i440fx-8.1", "pc-i440fx-2.8",
                             "pc-q35-4.0", "pc-i440fx-1.4")
            for c in ("qemu64", "Haswell", "EPYC", "max")]
    for machine, cpu in rows:
        with Machine(binary, ["-machine", machine, "-accel", "kvm", "-cpu",
                              cpu, "-S"]) as m:
            table = m.cpuid()
        mine = "".join(
            f"0x{leaf:08x} 0x{sub:02x} eax=0x{r[0]:08x} ebx=0x{r[1]:08x} "
            f"ecx=0x{r[2]:08x} edx=0x{r[3]:08x}\n"
            for (leaf, sub), r in sorted(table.items()))
        tool = tool_output(["--host", "/dev/kvm", "--machine", machine,
                            "--cpu", cpu]).decode()
        if tool != mine:
            failures += 1
            print(f"not ok - {machine} {cpu}: cpuid-table differs from "
                  f"x-query-cpuid")
            sys.stdout.writelines(difflib.unified_diff(
                mine.splitlines(True), tool.splitlines(True),
                "emulator x-query-cpuid", "cpuid-table --host /dev/kvm", n=1))
        else:
            print(f"ok - {machine} {cpu}: cpuid-table == x-query-cpuid")
    return 1 if failures else 0


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    mode = sys.argv[1]
    if mode == "compare":
        return compare(sys.argv[2])
    if mode == "determinism":
        return determinism()
    if mode == "abi-diff":
        return abi_diff(sys.argv[2], sys.argv[3])
    if mode == "emulator":
        return emulator()
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
