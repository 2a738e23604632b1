#!/usr/bin/env python3
"""Check target/i386/feature-words.c against QEMU 7.2 run as an oracle.

The table is read by compiling feature-words.c with a small dumper in a
temporary directory.  QEMU is driven over QMP (-qmp stdio) and checked for:

  names     canonical names == feature props of static expansion of base/max
  aliases   every alias is a CPU property and sets the bit of its target
  warnings  -cpu base,<every feature>=on: each "doesn't support requested
            feature: DESC.NAME [bit N]" warning gives word description and
            bit of NAME (MSR words included); TCG and KVM
  models    for every model of query-cpu-definitions and each accelerator:
            feature-words | filtered-features == bits of the names static
            expansion reports true (CPUID words only)
  deps      expansion of base with everything on but one feature: what
            else turns off must be what feature_dependencies predicts

Usage: scripts/qemu72-check-feature-words.py [--qemu PATH] [--accel tcg,kvm]
           [--models N] [--jobs N] [--skip-models]
Exit status 0 when no mismatch was found.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

SRC_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Properties static expansion reports that are not feature bits
NON_FEATURE_PROPS = {
    "min-level", "min-xlevel", "min-xlevel2", "family", "model", "stepping",
    "model-id", "vendor", "level", "xlevel", "xlevel2",
    "lmce",     # a CPU option (MCG_CAP.LMCE_P), not a feature word bit
}

# Words with bits QEMU sets although they carry no name
UNNAMED_OK = {
    (0x80000001, None, "EDX"),   # AMD copies of CPUID[1].EDX bits
    (0xD, 0, "EAX"), (0xD, 0, "EDX"),   # XCR0 components
    (0xD, 1, "ECX"), (0xD, 1, "EDX"),   # XSS components
}

DUMPER = r"""
#include <stdio.h>
#include <glib.h>
#include "target/i386/cpu.h"

int main(int argc, char **argv)
{
    for (int w = 0; w < FEATURE_WORDS; w++) {
        const FeatureWordInfo *f = &feature_word_info[w];
        char *d = x86_feature_word_description(w);
        int first = 1;

        printf("{\"kind\":\"word\",\"w\":%d,\"desc\":\"%s\",", w, d);
        if (f->type == CPUID_FEATURE_WORD) {
            printf("\"type\":\"cpuid\",\"eax\":%u,\"ecx\":%d,\"reg\":\"%s\",",
                   f->cpuid.eax, f->cpuid.needs_ecx ? (int)f->cpuid.ecx : -1,
                   x86_cpuid_reg_name(f->cpuid.reg));
        } else {
            printf("\"type\":\"msr\",\"index\":%u,", f->msr.index);
        }
        printf("\"names\":{");
        for (int b = 0; b < 64; b++) {
            if (f->feat_names[b]) {
                printf("%s\"%d\":\"%s\"", first ? "" : ",", b,
                       f->feat_names[b]);
                first = 0;
            }
        }
        printf("}}\n");
        g_free(d);
    }
    for (const FeatureAlias *a = feature_aliases; a->alias; a++) {
        printf("{\"kind\":\"alias\",\"alias\":\"%s\",\"name\":\"%s\"}\n",
               a->alias, a->name);
    }
    for (size_t i = 0; i < feature_dependencies_count; i++) {
        const FeatureDep *d = &feature_dependencies[i];
        printf("{\"kind\":\"dep\",\"fw\":%d,\"fm\":\"%llu\",\"tw\":%d,"
               "\"tm\":\"%llu\"}\n", d->from.index,
               (unsigned long long)d->from.mask, d->to.index,
               (unsigned long long)d->to.mask);
    }
    /* lookups: argv names, answered one per line */
    for (int i = 1; i < argc; i++) {
        FeatureWord w = 0;
        uint64_t m = 0;
        bool ok = x86_feature_lookup(argv[i], &w, &m);

        printf("{\"kind\":\"lookup\",\"name\":\"%s\",\"ok\":%s,"
               "\"w\":%d,\"mask\":\"%llu\"}\n", argv[i],
               ok ? "true" : "false", w, (unsigned long long)m);
    }
    return 0;
}
"""


class Table:
    """The C table as Python data."""

    def __init__(self, lines):
        self.words = []
        self.aliases = {}
        self.deps = []
        for line in lines:
            rec = json.loads(line)
            if rec["kind"] == "word":
                rec["names"] = {int(b): n for b, n in rec["names"].items()}
                self.words.append(rec)
            elif rec["kind"] == "alias":
                self.aliases[rec["alias"]] = rec["name"]
            else:
                self.deps.append((rec["fw"], int(rec["fm"]),
                                  rec["tw"], int(rec["tm"])))
        # name -> (word, mask); duplicate names in a word merge their bits
        self.bits = {}
        for w in self.words:
            for b, n in w["names"].items():
                word, mask = self.bits.get(n, (w["w"], 0))
                if word != w["w"]:
                    raise SystemExit("name %s in two words" % n)
                self.bits[n] = (word, mask | (1 << b))

    def cpuid_key(self, w):
        rec = self.words[w]
        if rec["type"] != "cpuid":
            return None
        return (rec["eax"], None if rec["ecx"] < 0 else rec["ecx"],
                rec["reg"])


def load_table():
    with tempfile.TemporaryDirectory() as tmp:
        main_c = os.path.join(tmp, "dump.c")
        exe = os.path.join(tmp, "dump")
        with open(main_c, "w") as f:
            f.write(DUMPER)
        pc = subprocess.run(["pkg-config", "--cflags", "--libs",
                             "glib-2.0", "json-glib-1.0"], check=True,
                            capture_output=True, text=True).stdout.split()
        subprocess.run(["gcc", "-std=gnu11", "-Wno-comment", "-I" + SRC_ROOT,
                        "-I" + os.path.join(SRC_ROOT, "include"),
                        os.path.join(SRC_ROOT, "target/i386/feature-words.c"),
                        main_c, "-o", exe] + pc, check=True)
        out = subprocess.run([exe], check=True, capture_output=True,
                             text=True).stdout
        t = Table(out.splitlines())
        # ask x86_feature_lookup about every name, alias and '_' spelling
        probes = sorted(set(t.bits) | set(t.aliases) |
                        {n.replace("-", "_") for n in t.bits} |
                        {"no-such-feature"})
        out = subprocess.run([exe] + probes, check=True,
                             capture_output=True, text=True).stdout
    t.lookups = {}
    for line in out.splitlines():
        rec = json.loads(line)
        if rec["kind"] == "lookup":
            t.lookups[rec["name"]] = (rec["ok"], rec["w"], int(rec["mask"]))
    return t


def check_lookup(t, rep):
    """x86_feature_lookup agrees with the table for every spelling."""
    for name, (ok, w, mask) in sorted(t.lookups.items()):
        canon = t.aliases.get(name, name)
        if canon not in t.bits:
            canon = t.aliases.get(canon.replace("_", "-"),
                                  canon.replace("_", "-"))
        want = t.bits.get(canon)
        got = (w, mask) if ok else None
        if got != want:
            rep.bad("x86_feature_lookup(%s) = %s, want %s"
                    % (name, got, want))
    print("lookup: %d spellings checked" % len(t.lookups))


class QEMU:
    """One QEMU process spoken to over QMP on stdio."""

    def __init__(self, qemu, accel, cpu=None):
        self.errfile = tempfile.TemporaryFile(mode="w+")
        args = [qemu, "-machine", "pc-q35-7.2", "-accel", accel, "-S",
                "-nodefaults", "-display", "none", "-qmp", "stdio"]
        if cpu:
            args += ["-cpu", cpu]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=self.errfile, text=True)
        greeting = self.proc.stdout.readline()
        if not greeting:
            self.proc.wait()
            raise RuntimeError("QEMU failed: " + self.stderr().strip())
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("QEMU went away: " + self.stderr())
            resp = json.loads(line)
            if "return" in resp:
                return resp["return"]
            if "error" in resp:
                raise RuntimeError("%s: %s" % (name, resp["error"]["desc"]))

    def stderr(self):
        self.errfile.seek(0)
        return self.errfile.read()

    def close(self):
        try:
            self.cmd("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.wait()
        err = self.stderr()
        self.errfile.close()
        return err

    def static_props(self, model, props=None):
        m = {"name": model}
        if props:
            m["props"] = props
        r = self.cmd("query-cpu-model-expansion", type="static", model=m)
        return r["model"]["props"]


class Report:
    def __init__(self):
        self.mismatches = 0

    def bad(self, what):
        self.mismatches += 1
        print("MISMATCH: " + what)


def check_names(t, qemu, accels, rep):
    canon = set(t.bits)
    seen = set()
    for accel in accels:
        q = QEMU(qemu, accel)
        for model in ("base", "max"):
            props = q.static_props(model)
            names = {p for p in props if p not in NON_FEATURE_PROPS}
            seen |= names
            for n in sorted(names - canon):
                rep.bad("%s/%s: QEMU feature %s missing from table"
                        % (accel, model, n))
            for n in sorted(canon - names):
                rep.bad("%s/%s: table name %s not a QEMU feature"
                        % (accel, model, n))
            other = {p for p in props if p in NON_FEATURE_PROPS}
            print("names %s/%s: %d features (+ %s)"
                  % (accel, model, len(names), " ".join(sorted(other))))
        # aliases: the property exists and sets the target's bit
        plist = q.cmd("device-list-properties", typename="base-x86_64-cpu")
        ptypes = {p["name"]: p["type"] for p in plist}
        # everything on but the alias must equal everything on but target
        all_on = {n: True for n in t.bits}
        for alias, target in sorted(t.aliases.items()):
            if ptypes.get(alias) != "bool":
                rep.bad("alias %s is not a bool CPU property" % alias)
                continue
            # (QMP applies props in hash order: leave the target out)
            rest = {n: v for n, v in all_on.items() if n != target}
            via_alias = q.static_props("base", dict(rest, **{alias: False}))
            via_name = q.static_props("base", dict(rest, **{target: False}))
            if via_alias != via_name or via_alias[target] is not False:
                rep.bad("alias %s does not act as %s" % (alias, target))
        other = sorted(n for n, ty in ptypes.items() if ty == "bool" and
                       n not in canon and n not in t.aliases)
        print("bool CPU properties that are neither names nor aliases "
              "(not feature bits): " + " ".join(other))
        q.close()
    print("names: %d canonical names, %d aliases checked"
          % (len(canon), len(t.aliases)))


WARN_RE = re.compile(r"doesn't support requested feature: "
                     r"(CPUID\.[0-9A-F]+H:E[A-D]X|MSR\([0-9A-F]+H\))"
                     r"(?:\.(\S+))? \[bit (\d+)\]")


def check_warnings(t, qemu, accels, rep):
    """Every feature on: filtered bits are warned with description+bit."""
    verified = set()
    descs = set()
    cpu = "base," + ",".join("%s=on" % n for n in sorted(t.bits))
    for accel in accels:
        q = QEMU(qemu, accel, cpu)
        err = q.close()
        for m in WARN_RE.finditer(err):
            desc, name, bit = m.group(1), m.group(2), int(m.group(3))
            descs.add(desc)
            if name is None:
                continue
            if name not in t.bits:
                rep.bad("warning names unknown feature %s" % name)
                continue
            w, mask = t.bits[name]
            if t.words[w]["desc"] != desc or not mask >> bit & 1:
                rep.bad("%s: QEMU %s bit %d, table %s mask %#x"
                        % (name, desc, bit, t.words[w]["desc"], mask))
            else:
                verified.add(name)
    print("warnings: descriptions seen: " + " ".join(sorted(descs)))
    for w in t.words:
        if w["names"] and w["desc"] not in descs:
            print("warnings: description %s never seen" % w["desc"])
    print("warnings: %d names verified by description+bit"
          % len(verified))
    return verified


def check_one_model(t, qemu, accel, model):
    """Returns (mismatch lines, number of bits compared, names true)."""
    out = []
    q = QEMU(qemu, accel, model)
    try:
        fw = q.cmd("qom-get", path="/machine/unattached/device[0]",
                   property="feature-words")
        ff = q.cmd("qom-get", path="/machine/unattached/device[0]",
                   property="filtered-features")
        props = q.static_props(model)
    finally:
        q.close()
    actual = {}
    for rec in fw + ff:
        key = (rec["cpuid-input-eax"], rec.get("cpuid-input-ecx"),
               rec["cpuid-register"])
        actual[key] = actual.get(key, 0) | rec["features"]
    expected = {}
    true_names = set()
    for name, val in props.items():
        if name in NON_FEATURE_PROPS or val is not True:
            continue
        if name not in t.bits:
            out.append("%s/%s: unknown feature %s" % (accel, model, name))
            continue
        w, mask = t.bits[name]
        key = t.cpuid_key(w)
        if key is None:
            continue
        true_names.add(name)
        expected[key] = expected.get(key, 0) | mask
    compared = 0
    for w in t.words:
        key = t.cpuid_key(w["w"])
        if key is None:
            continue
        if key not in actual:
            out.append("%s/%s: QEMU has no word %s" % (accel, model, key))
            continue
        named = 0
        for b in w["names"]:
            named |= 1 << b
        got, want = actual[key] & named, expected.get(key, 0)
        compared += bin(named).count("1")
        if got != want:
            out.append("%s/%s: %s named bits QEMU %#x table %#x"
                       % (accel, model, w["desc"], got, want))
        extra = actual[key] & ~named
        if extra and key not in UNNAMED_OK:
            out.append("%s/%s: %s unnamed bits set %#x"
                       % (accel, model, w["desc"], extra))
    return out, compared, true_names


def check_models(t, qemu, accels, rep, limit, jobs):
    q = QEMU(qemu, "tcg")
    models = sorted(d["name"] for d in q.cmd("query-cpu-definitions"))
    q.close()
    if limit:
        models = models[:limit]
    # "host" needs KVM
    jobs_list = [(a, m) for a in accels for m in models
                 if a == "kvm" or m != "host"]
    total_bits = 0
    names_true = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(check_one_model, t, qemu, a, m): (a, m)
                for a, m in jobs_list}
        for fut in concurrent.futures.as_completed(futs):
            a, m = futs[fut]
            try:
                out, n, names = fut.result()
            except RuntimeError as e:
                rep.bad("%s/%s: %s" % (a, m, e))
                continue
            for line in out:
                rep.bad(line)
            total_bits += n
            names_true |= names
    print("models: %d runs (%d models, %s), %d word bits compared"
          % (len(jobs_list), len(models), ",".join(accels), total_bits))
    return names_true


def check_deps(t, qemu, accel, rep):
    """base with all on but X: QEMU's drops vs feature_dependencies."""
    q = QEMU(qemu, accel)
    all_on = {n: True for n in t.bits}
    names = sorted(t.bits)

    def off_set(props):
        return {k for k, v in q.static_props("base", props).items()
                if v is False and k not in NON_FEATURE_PROPS}

    # what is off with everything on (e.g. the KVM word under TCG)
    baseline = off_set(all_on)
    if baseline:
        print("deps/%s: off even with everything on: %s"
              % (accel, " ".join(sorted(baseline))))
    checked_edges = 0
    for off in names:
        got = off_set(dict(all_on, **{off: False})) - baseline - {off}
        # simulate the table: one pass in order, as QEMU does
        feats = {}
        for n in names:
            w, mask = t.bits[n]
            feats[w] = feats.get(w, 0) | mask
        w0, m0 = t.bits[off]
        feats[w0] &= ~m0
        for fw, fm, tw, tm in t.deps:
            if feats.get(fw, 0) & fm != fm:
                feats[tw] = feats.get(tw, 0) & ~tm
        want = {n for n in names if n != off and n not in baseline and
                feats[t.bits[n][0]] & t.bits[n][1] != t.bits[n][1]}
        checked_edges += len(got)
        if got != want:
            rep.bad("deps/%s: %s off drops QEMU %s, table %s"
                    % (accel, off, sorted(got - want), sorted(want - got)))
    q.close()
    print("deps/%s: %d features switched off, %d dropped bits seen"
          % (accel, len(names), checked_edges))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qemu", default="/usr/bin/qemu-system-x86_64")
    ap.add_argument("--accel", default=None,
                    help="comma list (default: tcg, plus kvm if usable)")
    ap.add_argument("--models", type=int, default=0,
                    help="check only the first N models")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--skip-models", action="store_true")
    args = ap.parse_args()

    if args.accel:
        accels = args.accel.split(",")
    else:
        accels = ["tcg"]
        if os.access("/dev/kvm", os.R_OK | os.W_OK):
            accels.append("kvm")

    t = load_table()
    rep = Report()
    check_lookup(t, rep)
    check_names(t, args.qemu, accels, rep)
    verified = check_warnings(t, args.qemu, accels, rep)
    for accel in accels:
        check_deps(t, args.qemu, accel, rep)
    if not args.skip_models:
        verified |= check_models(t, args.qemu, accels, rep, args.models,
                                 args.jobs)
    unverified = sorted(set(t.bits) - verified)
    print("bit positions verified for %d of %d names; unverified: %s"
          % (len(t.bits) - len(unverified), len(t.bits),
             " ".join(unverified) or "none"))
    print("%d mismatches" % rep.mismatches)
    return 1 if rep.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
