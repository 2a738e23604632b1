#!/usr/bin/env python3
"""QMP out-of-band requests ("exec-oob") compared with Debian's QEMU 7.2.

The same request lines go to both binaries' QMP on stdio, before and
after a qmp_capabilities that enables "oob": exec-oob before it (an
unexpected member), then for an ordinary command, an unknown one,
qmp_capabilities itself, with execute beside it, as a non-string, with
bad arguments and an extra member.  Every reply must be 7.2's, matched
by id (7.2 answers out-of-band requests, and the errors of malformed
ones, from its I/O thread ahead of queued in-band commands, so the order
differs by timing); no command of either runs out of band (7.2's only
such commands are its postcopy-recovery ones).  A second session that negotiates without "oob"
must keep refusing exec-oob.  Skips (77) where QEMU 7.2 is missing.
"""

import json
import os
import subprocess
import sys
import time

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

WITH_OOB = [
    {"exec-oob": "query-status", "id": 0},
    {"execute": "qmp_capabilities", "arguments": {"enable": ["oob"]}},
    {"exec-oob": "query-status", "id": 1},
    {"exec-oob": "nosuch", "id": 2},
    {"exec-oob": "query-status", "execute": "query-status", "id": 3},
    {"execute": "query-status", "id": 4},
    {"exec-oob": 5, "id": 5},
    {"exec-oob": "query-status", "arguments": {}, "id": 6},
    {"exec-oob": "qmp_capabilities", "id": 7},
    {"exec-oob": "query-status", "id": 8, "foo": 1},
    {"exec-oob": "query-status", "arguments": 5, "id": 9},
    {"execute": "qmp_capabilities", "id": 10},
    {"id": 11},
]
WITHOUT_OOB = [
    {"execute": "qmp_capabilities"},
    {"exec-oob": "query-status", "id": 1},
    {"exec-oob": "query-status", "execute": "query-status", "id": 2},
]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - qmp-oob/{name}" +
          ("" if ok else f" # {detail}"))


def replies(binary, requests):
    """One reply per request (the greeting and events left out)"""
    p = subprocess.Popen([binary, "-machine", "none", "-nodefaults",
                          "-display", "none", "-S", "-qmp", "stdio"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    try:
        p.stdin.write("".join(json.dumps(r) + "\n"
                              for r in requests).encode())
        p.stdin.flush()
        out = []
        deadline = time.monotonic() + 30
        while len(out) < len(requests) and time.monotonic() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            if "QMP" not in msg and "event" not in msg:
                out.append(msg)
        return out
    finally:
        p.kill()
        p.wait()


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 not found")
        return 77
    for name, reqs in (("oob-enabled", WITH_OOB),
                       ("oob-not-enabled", WITHOUT_OOB)):
        ours, theirs = replies(BINARY, reqs), replies(ORACLE, reqs)
        report(f"{name}/count", len(ours) == len(reqs) == len(theirs),
               f"{len(ours)} and {len(theirs)} replies to {len(reqs)}")
        by_id_a = {json.dumps(r.get("id")): r for r in ours}
        by_id_b = {json.dumps(r.get("id")): r for r in theirs}
        for req in reqs:
            key = json.dumps(req.get("id"))
            a, b = by_id_a.get(key), by_id_b.get(key)
            report(f"{name}/id={key}", a == b and a is not None,
                   f"request {req}: ours {a}, QEMU 7.2 {b}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
