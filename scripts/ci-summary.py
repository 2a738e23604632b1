#!/usr/bin/env python3
"""The end of .ci/run: what was skipped and why, then the summary line.

    scripts/ci-summary.py TESTLOG.json...

Reads meson's test logs and prints a table of every skip — whole tests
(status 77, reason from their "SKIP: ..." line) and TAP subtests ("ok N -
name # SKIP reason") — then `N passed, N failed, N skipped` over the
tests.  A skip is only acceptable for a documented missing prerequisite
(docs/testing.md, "Skips"): a skip whose reason matches none of REASONS
below is counted as a failure, so a test cannot quietly stop testing.
Exit status 1 if anything failed, a log is missing, or a skip is unknown.
"""

import json
import re
import sys

# (pattern on the reason, the prerequisite it names); docs/testing.md
REASONS = [
    (r"/dev/kvm", "no usable /dev/kvm"),
    (r"VMX/SVM", "no VMX/SVM: a PVM host (stock Linux cannot boot, a "
                 "guest's vmcall never returns)"),
    (r"QEMU 7\.2", "no QEMU 7.2 to compare with, or it crashed"),
    (r"offers Hyper-V", "the host's KVM has Hyper-V (a no-Hyper-V test)"),
    (r"delivers int3", "the host's KVM delivers int3 (a PVM-only case)"),
    (r"network namespace", "no network namespace of the test's own (needs "
                           "root/CAP_NET_ADMIN) or no /dev/net/tun: the tap "
                           "tests"),
]


def classify(reason):
    for pattern, what in REASONS:
        if re.search(pattern, reason):
            return what
    return None


def main(logs):
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    skips = []  # (test, reason, known)
    status = 0
    for log in logs:
        try:
            f = open(log)
        except OSError as e:
            print(f"ci-summary: {e}", file=sys.stderr)
            counts["failed"] += 1
            status = 1
            continue
        with f:
            for line in f:
                r = json.loads(line)
                name = r["name"].split(":", 1)[-1].strip()
                out = r.get("stdout") or ""
                if r["result"] in ("OK", "EXPECTEDFAIL"):
                    counts["passed"] += 1
                elif r["result"] == "SKIP":
                    counts["skipped"] += 1
                    m = re.search(r"^(?:1\.\.0 # )?SKIP:? *(.*)$", out, re.M)
                    skips.append((name, m.group(1) if m else "(no reason "
                                  "given)"))
                else:
                    counts["failed"] += 1
                for m in re.finditer(r"^ok \d+ - (\S+) # SKIP *(.*)$", out,
                                     re.M):
                    skips.append((f"{name}: {m.group(1)}", m.group(2)))
    unknown = 0
    if skips:
        print(f"Skipped ({len(skips)}):")
        width = min(max(len(t) for t, _ in skips), 60)
        for test, reason in skips:
            what = classify(reason)
            mark = "" if what else "   <-- not a documented prerequisite"
            unknown += what is None
            print(f"  {test:<{width}}  {reason[:100]}{mark}")
    if unknown:
        print(f"{unknown} skip(s) for undocumented reasons count as failures "
              "(docs/testing.md, Skips)")
        counts["failed"] += unknown
        status = 1
    if counts["failed"]:
        status = 1
    print(f"{counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
