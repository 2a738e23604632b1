#!/usr/bin/env python3
"""Generate target/i386/cpu-models.c from observations of QEMU 7.2.

The table of x86 CPU models is not typed in by hand: this script starts
QEMU 7.2 (by default /usr/bin/qemu-system-x86_64), asks it over QMP for
every versioned CPU model ("Haswell-v1", "Haswell-v2", ...), reconstructs
each model's definition (version 1 data plus the property changes of every
later version) and writes the C table.  The C file is committed, so the
build never needs QEMU.

What is observed and how:

  * query-cpu-definitions gives the model names, the "-vN" versions, the
    aliases ("Haswell-noTSX" -> "Haswell-v2") and the deprecation flags.
  * query-cpu-model-expansion type=full under -accel tcg gives every
    feature and property of a version after expansion.  TCG applies one
    accelerator default, vme=off; the real vme bit of a model is read from
    the same expansion under -accel kvm (KVM's own defaults touch other
    bits, never vme).
  * The minimum CPUID levels of a definition (min-level, min-xlevel,
    min-xlevel2) are raised by expansion; the unraised values are read from
    an expansion with full-cpuid-auto-level=off.
  * Expansion drops features whose prerequisite is off (vmx-* without vmx,
    MSR bits without arch-capabilities, ...).  The prerequisite pairs are
    learnt from the "base" model and every version is probed once with all
    of its missing prerequisites on, to find such hidden bits.
  * The note of a version ("[no TSX]" ...) comes from "-cpu help", whose
    description is the version's model-id followed by " [note]".

Everything is verified before the file is written: the cumulative
application of the version props is simulated in Python and compared with
every observed expansion (TCG and KVM), QEMU itself is asked to expand
"<model>-v1" plus the cumulative props and must answer exactly what it
answers for "<model>-vN", the "base" model plus the v1 data must expand
like "<model>-v1", and the static expansion of a few models is compared
with the full one.

Usage:
  python3 scripts/gen-cpu-models.py \\
      [--qemu /usr/bin/qemu-system-x86_64] \\
      [--output target/i386/cpu-models.c] \\
      [--definitions tests/data/qemu72/cpu-definitions.json] [--check]

--check compares with the existing files instead of writing them.
Python 3 standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
import qmp_machine  # noqa: E402

MACHINE = "pc-q35-7.2"
SCALARS = ("vendor", "family", "model", "stepping", "model-id")
LEVELS = ("min-level", "min-xlevel", "min-xlevel2")
STRING_PROPS = ("vendor", "model-id")
# QEMU sets this bit for every model when it loads one; so does our loader.
FORCED_ON = ("hypervisor",)
# The one property TCG applies to every CPU it creates.
TCG_DEFAULTS = {"vme": False}
# What KVM applies to every CPU (observed: the TCG and KVM expansions of
# every model differ exactly by these, by their consequences through
# feature dependencies, and by the vendor, which KVM takes from the host).
KVM_DEFAULTS = {
    "kvmclock": True, "kvm-nopiodelay": True, "kvm-asyncpf": True,
    "kvm-steal-time": True, "kvm-pv-eoi": True, "kvmclock-stable-bit": True,
    "x2apic": True, "kvm-msi-ext-dest-id": False, "acpi": False,
    "monitor": False, "svm": False,
}
# Models whose static expansion is compared with the full one.
STATIC_CHECK = ("Haswell-v1", "EPYC-Rome-v2", "Icelake-Server-v6",
                "qemu64-v1", "Snowridge-v4")


class QMPError(Exception):
    pass


class QEMU:
    """One QEMU process with a QMP socket (python/qmp_machine.py)."""

    def __init__(self, binary, accel):
        self.vm = qmp_machine.Machine(
            binary, ["-machine", MACHINE, "-accel", accel, "-S"],
            timeout=120)
        try:
            self.vm.launch()
        except (RuntimeError, OSError, ValueError) as e:
            self.vm.shutdown()
            raise QMPError("QEMU (-accel %s) did not start: %s"
                           % (accel, e))
        self.version = self.vm.greeting["QMP"]["version"]["qemu"]

    def cmd(self, name, **arguments):
        try:
            return self.vm.cmd(name, arguments or None)
        except qmp_machine.QMPError as e:
            raise QMPError("%s: %s" % (name, e.desc))
        except (OSError, EOFError, TimeoutError) as e:
            raise QMPError("%s: %s" % (name, e))

    def expand(self, name, props=None, kind="full"):
        model = {"name": name}
        if props:
            model["props"] = props
        return self.cmd("query-cpu-model-expansion", type=kind,
                        model=model)["model"]

    def close(self):
        self.vm.shutdown()


def fail(msg):
    sys.exit("gen-cpu-models: " + msg)


def cpu_help(binary):
    """(descriptions of "-cpu help", canonical feature names)"""
    out = subprocess.run([binary, "-cpu", "help"], check=True,
                         stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         universal_newlines=True).stdout
    desc = {}
    flags = set()
    in_flags = False
    for line in out.splitlines():
        if line.startswith("Recognized CPUID flags"):
            in_flags = True
        elif in_flags:
            flags.update(line.split())
        else:
            m = re.match(r"^x86 (\S+)\s*(.*)$", line)
            if m:
                desc[m.group(1)] = m.group(2).rstrip()
    if not flags or not desc:
        fail("could not parse -cpu help")
    return desc, sorted(flags)


def split_version(name):
    m = re.match(r"^(.+)-v([0-9]+)$", name)
    if not m:
        return None
    return m.group(1), int(m.group(2))


def learn_dependencies(qemu, flags):
    """{prerequisite: [features dropped when it is off]} from "base"."""
    all_on = {f: True for f in flags}
    ref = qemu.expand("base", all_on)["props"]
    deps = {}
    for f in flags:
        props = dict(all_on)
        props[f] = False
        got = qemu.expand("base", props)["props"]
        dropped = [g for g in flags if g != f and ref[g] and not got[g]]
        if dropped:
            deps[f] = dropped
    return deps


def apply_dependencies(feats, deps):
    """Expansion's dependency step on a {feature: bool} dict."""
    feats = dict(feats)
    changed = True
    while changed:
        changed = False
        for src, dropped in deps.items():
            if not feats[src]:
                for d in dropped:
                    if feats[d]:
                        feats[d] = False
                        changed = True
    return feats


def typed(prop, value):
    """A prop string as the QMP value of that property."""
    if prop in STRING_PROPS:
        return value
    if value in ("on", "off"):
        return value == "on"
    return int(value, 0)


def prop_string(prop, value):
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def diff_props(prev, cur, flags):
    out = []
    for p in SCALARS + LEVELS:
        if prev[p] != cur[p]:
            out.append((p, prop_string(p, cur[p])))
    for f in flags:
        if prev["features"][f] != cur["features"][f]:
            out.append((f, prop_string(f, cur["features"][f])))
    return out


def apply_props(state, props, flags):
    state = {k: (dict(v) if isinstance(v, dict) else v)
             for k, v in state.items()}
    for p, v in props:
        if p in flags:
            state["features"][p] = typed(p, v)
        elif p in SCALARS + LEVELS:
            state[p] = typed(p, v)
        else:
            fail("unknown prop %s" % p)
    return state


def observe(binary):
    desc, flags = cpu_help(binary)
    flagset = set(flags)

    tcg = QEMU(binary, "tcg")
    try:
        defs = tcg.cmd("query-cpu-definitions")
        versioned = {}
        for d in defs:
            sv = split_version(d["name"])
            if sv:
                versioned.setdefault(sv[0], {})[sv[1]] = d
        aliases = {}
        for d in defs:
            target = d.get("alias-of")
            if target and split_version(d["name"]) is None:
                base = split_version(target)
                if base is None:
                    fail("alias %s of unversioned %s" % (d["name"], target))
                if d["name"] != base[0]:
                    aliases[target] = d["name"]
        deps = learn_dependencies(tcg, flags)
        obs = {}
        for fam, vers in versioned.items():
            for v in vers:
                name = "%s-v%d" % (fam, v)
                full = tcg.expand(name)["props"]
                raw_levels = tcg.expand(
                    name, {"full-cpuid-auto-level": False})["props"]
                # Hidden bits: turn on every missing prerequisite.
                missing = {s: True for s in deps if not full[s]}
                hidden = []
                if missing:
                    probe = tcg.expand(name, missing)["props"]
                    hidden = [f for f in flags if probe[f] and not full[f]
                              and f not in missing]
                    # A prerequisite that itself depends on another one
                    # (vmx-ept on vmx-secondary-ctls on vmx) was forced on
                    # above: probe it with only the others on.
                    for s in sorted(missing):
                        if not any(s in dl for dl in deps.values()):
                            continue
                        rest = dict(missing)
                        del rest[s]
                        if tcg.expand(name, rest)["props"][s]:
                            hidden.append(s)
                    hidden = [f for f in flags if f in hidden]
                obs[name] = {"tcg": full, "levels": raw_levels,
                             "hidden": hidden}
        for name in STATIC_CHECK:
            if name not in obs:
                continue
            st = tcg.expand(name, kind="static")
            if st["name"] != "base":
                fail("static expansion of %s is based on %s"
                     % (name, st["name"]))
            full = obs[name]["tcg"]
            on = sorted(k for k, v in st["props"].items()
                        if k in flagset and v)
            full_on = sorted(f for f in flags if full[f])
            if on != full_on:
                fail("static and full expansions of %s differ" % name)
            for p in SCALARS:
                if st["props"][p] != full[p]:
                    fail("static %s of %s differs" % (p, name))
        tcg_version = tcg.version
    finally:
        tcg.close()

    kvm = QEMU(binary, "kvm")
    try:
        kvm_defs = kvm.cmd("query-cpu-definitions")
        for name in obs:
            obs[name]["kvm"] = kvm.expand(name)["props"]
        kvm_version = kvm.version
    finally:
        kvm.close()

    return {"desc": desc, "flags": flags, "defs": defs, "kvm_defs": kvm_defs,
            "versioned": versioned, "aliases": aliases, "deps": deps,
            "obs": obs, "version": tcg_version, "kvm_version": kvm_version}


def raw_state(o, flags):
    """The definition of one version, as reconstructed from observations."""
    full = o["tcg"]
    feats = {f: bool(full[f]) for f in flags}
    for f in TCG_DEFAULTS:
        feats[f] = bool(o["kvm"][f])
    for f in o["hidden"]:
        feats[f] = True
    st = {"features": feats}
    for p in SCALARS:
        st[p] = full[p]
    for p in LEVELS:
        st[p] = o["levels"][p]
    return st


def build(data):
    flags = data["flags"]
    desc = data["desc"]
    models = []
    for fam in sorted(data["versioned"], key=lambda s: (s.lower(), s)):
        vers = data["versioned"][fam]
        nums = sorted(vers)
        if nums != list(range(1, len(nums) + 1)):
            fail("%s: versions %s are not 1..N" % (fam, nums))
        states = [raw_state(data["obs"]["%s-v%d" % (fam, v)], flags)
                  for v in nums]
        v1 = data["obs"][fam + "-v1"]["tcg"]
        versions = []
        for i, v in enumerate(nums):
            name = "%s-v%d" % (fam, v)
            props = None if i == 0 else diff_props(states[i - 1], states[i],
                                                   flags)
            d = desc.get(name)
            if d is None:
                fail("%s missing from -cpu help" % name)
            mid = states[i]["model-id"]
            note = None
            if d != mid:
                prefix = mid + " [" if mid else "["
                if not (d.startswith(prefix) and d.endswith("]")):
                    fail("%s: description %r vs model-id %r" % (name, d, mid))
                note = d[len(prefix):-1]
            versions.append({"version": v, "alias": data["aliases"].get(name),
                             "props": props, "note": note})
        deprecated = any(vers[v].get("deprecated") for v in nums)
        for d in data["defs"]:
            if d["name"] == fam and d.get("deprecated"):
                deprecated = True
        st = states[0]
        models.append({
            "name": fam, "state": st, "states": states,
            "features": [f for f in flags
                         if st["features"][f] and f not in FORCED_ON],
            "cache_info": fam if v1["legacy-cache"] is False else None,
            "versions": versions, "deprecated": deprecated,
        })
    return models


def verify(models, data, binary):
    """Round trip: the table reproduces every observed expansion."""
    flags = data["flags"]
    deps = data["deps"]
    for m in models:
        for f in FORCED_ON:
            if not m["state"]["features"][f]:
                fail("%s: %s is not on" % (m["name"], f))
        # Python: v1 data + cumulative props == each version.
        st = {"features": {f: f in m["features"] for f in flags}}
        for f in FORCED_ON:
            st["features"][f] = True
        for p in SCALARS + LEVELS:
            st[p] = m["state"][p]
        for i, ver in enumerate(m["versions"]):
            name = "%s-v%d" % (m["name"], ver["version"])
            if ver["props"]:
                st = apply_props(st, ver["props"], flags)
            if st != m["states"][i]:
                fail("%s: props do not rebuild the version" % name)
            o = data["obs"][name]
            # Simulated TCG expansion.
            feats = dict(st["features"])
            feats.update(TCG_DEFAULTS)
            feats = apply_dependencies(feats, deps)
            for f in flags:
                if feats[f] != o["tcg"][f]:
                    fail("%s: TCG %s: table %s, QEMU %s"
                         % (name, f, feats[f], o["tcg"][f]))
            for p in SCALARS:
                if st[p] != o["tcg"][p]:
                    fail("%s: %s differs" % (name, p))
            for p in LEVELS:
                if st[p] > o["tcg"][p]:
                    fail("%s: %s above the expanded value" % (name, p))
            # Simulated KVM expansion (vendor comes from the host).
            feats = dict(st["features"])
            feats.update(KVM_DEFAULTS)
            feats = apply_dependencies(feats, deps)
            for f in flags:
                if feats[f] != o["kvm"][f]:
                    fail("%s: KVM %s: table %s, QEMU %s"
                         % (name, f, feats[f], o["kvm"][f]))
            for p in ("family", "model", "stepping", "model-id"):
                if st[p] != o["kvm"][p]:
                    fail("%s: KVM %s differs" % (name, p))

    # QEMU, for every version N (state = v1 data + props of v2..vN):
    #  - "base" + state expands like "<model>-vN" (features, identity,
    #    levels), also with every dependency prerequisite turned on, which
    #    shows the bits expansion hides (vmx-* of models without vmx);
    #  - "<model>-v1" + cumulative props expands exactly like "<model>-vN".
    sources = {s: True for s in deps}
    keys = flags + list(SCALARS) + ["level", "xlevel", "xlevel2"] \
        + list(LEVELS)
    qemu = QEMU(binary, "tcg")
    checks = 0
    try:
        for m in models:
            name1 = m["name"] + "-v1"
            cumulative = {}
            st = {"features": {f: f in m["features"] or f in FORCED_ON
                               for f in flags}}
            for p in SCALARS + LEVELS:
                st[p] = m["state"][p]
            for ver in m["versions"]:
                name = "%s-v%d" % (m["name"], ver["version"])
                if ver["props"]:
                    st = apply_props(st, ver["props"], flags)
                props = {f: True for f in flags if st["features"][f]}
                for p in SCALARS + LEVELS:
                    props[p] = st[p]
                got = qemu.expand("base", props)["props"]
                want = data["obs"][name]["tcg"]
                for k in keys:
                    w = st["features"][k] if k in TCG_DEFAULTS else want[k]
                    if got[k] != w:
                        fail("base + %s data: %s is %r, QEMU's has %r"
                             % (name, k, got[k], w))
                props.update(sources)
                got = qemu.expand("base", props)["props"]
                want = qemu.expand(name, sources)["props"]
                for k in flags:
                    w = st["features"][k] if k in TCG_DEFAULTS else want[k]
                    if got[k] != w:
                        fail("base + %s data + prerequisites: %s is %r, "
                             "QEMU's has %r" % (name, k, got[k], w))
                checks += 2
                if not ver["props"]:
                    continue
                for p, v in ver["props"]:
                    cumulative[p] = typed(p, v)
                got = qemu.expand(name1, cumulative)["props"]
                want = data["obs"][name]["tcg"]
                if got != want:
                    bad = sorted(k for k in set(got) | set(want)
                                 if got.get(k) != want.get(k))
                    fail("%s + props differs from %s in %s"
                         % (name1, name, bad))
                checks += 1
    finally:
        qemu.close()
    return checks


def c_string(s):
    out = []
    for ch in s:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            fail("unexpected character in %r" % s)
    return '"' + "".join(out) + '"'


def ident(name):
    s = re.sub(r"[^0-9a-zA-Z]+", "_", name).lower()
    return "cpu_" + s


def feature_literals(features, indent, width=92):
    """Adjacent literals, each at most about 8 names and `width` columns."""
    lines = []
    cur = []
    for f in features:
        trial = cur + [f]
        text = " ".join(trial) + " "
        if cur and (len(trial) > 8 or len(indent) + len(text) + 2 > width):
            lines.append(cur)
            cur = [f]
        else:
            cur = trial
    if cur:
        lines.append(cur)
    out = []
    for i, chunk in enumerate(lines):
        text = " ".join(chunk)
        if i < len(lines) - 1:
            text += " "
        out.append(indent + c_string(text))
    return out


def render(models, data):
    script = "scripts/gen-cpu-models.py"
    nversions = sum(len(m["versions"]) for m in models)
    L = []
    L.append("/*")
    L.append(" * x86 CPU models of QEMU 7.2: %d models, %d versions."
             % (len(models), nversions))
    L.append(" *")
    L.append(" * GENERATED FILE, do not edit.  Generated by %s from" % script)
    L.append(" * observations of QEMU %(major)d.%(minor)d.%(micro)d"
             " (query-cpu-definitions and" % data["version"])
    L.append(" * query-cpu-model-expansion on machine %s); see the script for"
             % MACHINE)
    L.append(" * what is observed and how the result is verified.  To"
             " regenerate, with")
    L.append(" * QEMU 7.2 installed and /dev/kvm usable:")
    L.append(" *")
    L.append(" *     python3 %s --output target/i386/cpu-models.c \\" % script)
    L.append(" *         --definitions tests/data/qemu72/cpu-definitions.json")
    L.append(" *")
    L.append(" * Per model: .level/.xlevel/.xlevel2 are the definition's"
             " minimum CPUID")
    L.append(" * levels (expansion raises them from the features), .features"
             " the bits of")
    L.append(" * version 1 by canonical name, and .versions the property"
             " changes of every")
    L.append(" * later version, each relative to the previous one.  The"
             " \"hypervisor\" bit")
    L.append(" * is on in every QEMU model (QEMU forces it when it loads a"
             " model, and so")
    L.append(" * does our loader), so it is left out of .features.")
    L.append(" * .cache_info names the model's own cache description (the"
             " models whose")
    L.append(" * legacy-cache is off); NULL means the legacy cache leaves.")
    L.append(" */")
    L.append("")
    L.append("#include <stddef.h>")
    L.append("")
    L.append('#include "target/i386/cpu.h"')
    L.append("")
    for m in models:
        base = ident(m["name"])
        for ver in m["versions"][1:]:
            L.append("static const PropValue %s_v%d_props[] = {"
                     % (base, ver["version"]))
            for p, v in ver["props"]:
                L.append("    { %s, %s }," % (c_string(p), c_string(v)))
            L.append("    { NULL, NULL },")
            L.append("};")
            L.append("")
        L.append("static const X86CPUVersionDefinition %s_versions[] = {"
                 % base)
        for ver in m["versions"]:
            fields = [".version = %d" % ver["version"]]
            if ver["alias"]:
                fields.append(".alias = %s" % c_string(ver["alias"]))
            if ver["props"] is not None:
                fields.append(".props = %s_v%d_props"
                              % (base, ver["version"]))
            if ver["note"]:
                fields.append(".note = %s" % c_string(ver["note"]))
            one = "    { " + ", ".join(fields) + " },"
            if len(one) <= 100:
                L.append(one)
            else:
                L.append("    {")
                for fl in fields:
                    L.append("        " + fl + ",")
                L.append("    },")
        L.append("    { 0 },")
        L.append("};")
        L.append("")
    L.append("const X86CPUDefinition builtin_x86_defs[] = {")
    for m in models:
        st = m["state"]
        L.append("    {")
        L.append("        .name = %s," % c_string(m["name"]))
        L.append("        .level = 0x%x," % st["min-level"])
        L.append("        .xlevel = 0x%x," % st["min-xlevel"])
        L.append("        .xlevel2 = 0x%x," % st["min-xlevel2"])
        L.append("        .vendor = %s," % c_string(st["vendor"]))
        L.append("        .family = %d," % st["family"])
        L.append("        .model = %d," % st["model"])
        L.append("        .stepping = %d," % st["stepping"])
        if m["features"]:
            L.append("        .features =")
            lits = feature_literals(m["features"], " " * 12)
            lits[-1] += ","
            L.extend(lits)
        else:
            L.append('        .features = "",')
        L.append("        .model_id = %s," % c_string(st["model-id"]))
        L.append("        .cache_info = %s,"
                 % (c_string(m["cache_info"]) if m["cache_info"] else "NULL"))
        L.append("        .versions = %s_versions," % ident(m["name"]))
        if m["deprecated"]:
            L.append("        .deprecation_note = %s,"
                     % c_string("deprecated in QEMU 7.2"))
        L.append("    },")
    L.append("};")
    L.append("")
    L.append("const size_t builtin_x86_defs_count =")
    L.append("    sizeof(builtin_x86_defs) / sizeof(builtin_x86_defs[0]);")
    return "\n".join(L) + "\n"


def host_cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def render_definitions(data):
    doc = {
        "qemu-version": data["kvm_version"],
        "machine": MACHINE,
        "accel": "kvm",
        "host-cpu": host_cpu_name(),
        "definitions": data["kvm_defs"],
    }
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def write_or_check(path, text, check):
    if check:
        try:
            with open(path) as f:
                old = f.read()
        except OSError:
            old = None
        if old != text:
            print("%s: differs from what QEMU answers now" % path)
            return False
        print("%s: up to date" % path)
        return True
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    print("wrote %s" % path)
    return True


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qemu", default="/usr/bin/qemu-system-x86_64")
    ap.add_argument("--output",
                    default=os.path.join(root, "target/i386/cpu-models.c"))
    ap.add_argument("--definitions", default=os.path.join(
        root, "tests/data/qemu72/cpu-definitions.json"))
    ap.add_argument("--check", action="store_true",
                    help="compare with the existing files, write nothing")
    args = ap.parse_args()

    data = observe(args.qemu)
    if not data["version"]["major"] == 7 or data["version"]["minor"] != 2:
        fail("QEMU %(major)d.%(minor)d.%(micro)d is not 7.2" % data["version"])
    models = build(data)
    checks = verify(models, data, args.qemu)
    nversions = sum(len(m["versions"]) for m in models)
    print("%d models, %d versions; round trip verified (%d QEMU checks)"
          % (len(models), nversions, checks))
    for m in models:
        if m["cache_info"]:
            print("  own cache description: %s" % m["name"])
        if m["deprecated"]:
            print("  deprecated: %s" % m["name"])
        for ver in m["versions"]:
            o = data["obs"]["%s-v%d" % (m["name"], ver["version"])]
            if o["hidden"]:
                print("  %s-v%d: bits hidden by dependencies: %s"
                      % (m["name"], ver["version"], " ".join(o["hidden"])))
    ok = write_or_check(args.output, render(models, data), args.check)
    ok = write_or_check(args.definitions, render_definitions(data),
                        args.check) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
