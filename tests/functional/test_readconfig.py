#!/usr/bin/env python3
"""-readconfig, query-memdev and the rng objects compared with QEMU 7.2.

Each case writes a config file, starts both binaries with -readconfig
(plus the case's options) and compares: the exit status and stderr of
those that fail (QEMU's "FILE:LINE: " locations, unknown groups, lines
before any group, keys without a quoted value, bad keys and values, a
missing file), and for those that start query-memdev, the children of
/objects, query-cpus-fast's vCPU indexes, HMP info numa and qom-get of an
rng-random object's file.  Then object-add of rng-builtin/rng-random
(and one whose file does not exist) over QMP on both.  Skips (77) where
QEMU 7.2 is missing.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, LaunchError, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
results = []

NONE = ["-machine", "none"]
CASES = [
    ("memory", NONE, '[memory]\n  size = "200"\n'),
    ("rng-builtin", NONE, '[object]\nqom-type = "rng-builtin"\n'
                          'id = "rng0"\n'),
    ("rng-random", NONE, '# a comment\n\n[object]\n  qom-type = "rng-random"\n'
                         '  id = "rr"\n'),
    ("rng-random-missing", NONE, '[object]\n  qom-type = "rng-random"\n'
                                 '  id = "rr"\n  filename = "/nonexistent"\n'),
    ("machine-smp", [], '[machine]\n  type = "pc-q35-7.2"\n[smp-opts]\n'
                        '  cpus = "2"\n  maxcpus = "4"\n'),
    ("numa", ["-machine", "pc-q35-7.2"],
     '[object]\n  qom-type = "memory-backend-ram"\n  id = "m0"\n'
     '  size = "128M"\n[numa]\n  type = "node"\n  memdev = "m0"\n'),
    ("object-id-in-header", NONE, '[object "s0"]\n  qom-type = "secret"\n'
                                  '  data = "x"\n'),
    ("unknown-group-last", NONE, '[memory]\n  size = "200"\n[foo]\n'),
    ("two-groups", NONE, '[memory]\n  size = "200"\n[memory]\n'
                         '  size = "300"\n'),
    ("unknown-group", NONE, '[foo]\n  a = "1"\n'),
    ("no-group", NONE, 'junk\n'),
    ("unquoted", NONE, '[memory]\n  size = 200\n'),
    ("no-equals", NONE, '[memory]\nsize 200\n'),
    ("bad-key", NONE, '[memory]\n  bogus = "1"\n'),
    ("bad-size", NONE, '[memory]\n size = "20x"\n'),
    ("bad-object", NONE, '[object]\n  qom-type = "nope"\n  id = "x"\n'),
    ("smp-none", NONE, '[smp-opts]\n cpus = "2"\n'),
]


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - readconfig/{name}" +
          ("" if ok else f" # {detail}"))


def accel(binary):
    if kvm_usable():
        return ["-accel", "kvm"]
    return ["-accel", "tcg"] if binary == ORACLE else ["-accel", "qtest"]


def clean(text):
    return [l for l in text.splitlines()
            if "host doesn't support" not in l and "recommended" not in l]


def observe(binary, path, extra):
    argv = ["-nodefaults", "-display", "none", "-S", "-readconfig", path] + \
        extra + accel(binary)
    try:
        with Machine(binary, argv) as vm:
            out = {"memdev": sorted(vm.cmd("query-memdev"),
                                    key=lambda m: m["id"]),
                   "objects": sorted((p["name"], p["type"]) for p in
                                     vm.cmd("qom-list",
                                            {"path": "/objects"})),
                   "cpus": [c["cpu-index"] for c in
                            vm.cmd("query-cpus-fast")],
                   "numa": vm.cmd("human-monitor-command",
                                  {"command-line": "info numa"})}
            r = vm.cmd_raw("qom-get", {"path": "/objects/rr",
                                       "property": "filename"})
            out["rr"] = r.get("return", r.get("error", {}).get("class"))
            return out
    except LaunchError as e:
        return {"status": e.returncode,
                "stderr": clean(e.stderr.replace(path, "CFG"))}


def check_files():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "qemu.cfg")
        for name, extra, text in CASES:
            with open(path, "w") as f:
                f.write(text)
            ours = observe(BINARY, path, extra)
            theirs = observe(ORACLE, path, extra)
            for k in sorted(set(ours) | set(theirs)):
                report(f"{name}/{k}", ours.get(k) == theirs.get(k),
                       f"ours {ours.get(k)!r}, QEMU 7.2 {theirs.get(k)!r}")
        missing = os.path.join(d, "absent.cfg")
        ours = observe(BINARY, missing, NONE)
        theirs = observe(ORACLE, missing, NONE)
        report("missing-file", ours == theirs, f"ours {ours}, 7.2 {theirs}")


RNG_STEPS = [
    {"qom-type": "rng-builtin", "id": "b0"},
    {"qom-type": "rng-random", "id": "r0"},
    {"qom-type": "rng-random", "id": "r1", "filename": "/nonexistent"},
    {"qom-type": "rng-random", "id": "r2", "filename": "/dev/zero"},
    {"qom-type": "rng-builtin", "id": "b1", "filename": "/dev/zero"},
]


def rng_session(binary):
    out = []
    with Machine(binary, NONE + ["-nodefaults", "-display", "none", "-S"] +
                 accel(binary)) as vm:
        for a in RNG_STEPS:
            r = vm.cmd_raw("object-add", a)
            out.append((f"object-add {a}", r.get("return", r.get("error"))))
        out.append(("objects", sorted((p["name"], p["type"]) for p in
                                      vm.cmd("qom-list",
                                             {"path": "/objects"}))))
        out.append(("r2 filename", vm.cmd("qom-get", {
            "path": "/objects/r2", "property": "filename"})))
        for t in ("rng-builtin", "rng-random"):
            out.append((f"props {t}", sorted(
                p["name"] for p in vm.cmd("qom-list-properties",
                                          {"typename": t}))))
    return out


def check_rng():
    for (what, o), (_, t) in zip(rng_session(BINARY), rng_session(ORACLE)):
        report(f"rng/{what}", o == t, f"ours {o!r}, QEMU 7.2 {t!r}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 not found")
        return 77
    check_files()
    check_rng()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
