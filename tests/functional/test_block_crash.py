#!/usr/bin/env python3
"""Data safety of the block layer under SIGKILL (docs/block.md).

For each image kind (raw; qcow2 v3 64 KiB clusters; qcow2 v2 4 KiB
clusters; qcow2 v3 512-byte clusters over a raw backing file, so that
every partial write copies from the backing file), repeatedly: a child
(tests/functional/blk-io writer) writes random data at random offsets
through the block layer -- allocating writes, partial clusters, writes of
zeroes -- flushes every few writes and logs what each flush covered; it
is killed with SIGKILL at a random moment.  Then:

  * `qemu-img check` finds no corruption.  Leaked clusters are accepted:
    a crash between a cluster's refcount update and the L2 entry that
    uses it leaks the cluster, exactly as QEMU without lazy refcounts
    does (qemu-img check exit status 3, "leaked clusters");
  * every byte a flushed write put there reads back, through
    `qemu-img convert -O raw` and through this code (blk-io dump), and
    both read the same bytes everywhere; bytes written after the last
    flush may hold old or new data;
  * the next round reopens the crashed image and goes on.

BLOCK_CRASH_ITERATIONS (default 8) rounds per image kind; the bench
script (bench/block-crash.sh) runs many more.  Needs qemu-img
(qemu-utils), nothing else.
"""

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BLK_IO = os.environ.get("BLK_IO", "build/tests/functional/blk-io")
ITERATIONS = int(os.environ.get("BLOCK_CRASH_ITERATIONS", "8"))
SIZE = 32 << 20
SEED = int(os.environ.get("BLOCK_CRASH_SEED", str(random.randrange(1 << 30))))

n = failures = 0


def report(name, ok, detail=""):
    global n, failures
    n += 1
    failures += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - block-crash/{name}" +
          ("" if ok else f" # {detail}"), flush=True)


def pattern(wid, length):
    d = hashlib.sha256(str(wid).encode()).digest()
    return (d * (length // 32 + 1))[:length]


class Intervals:
    """Disjoint sorted [a, b) ranges: the bytes whose content is unknown"""

    def __init__(self):
        self.r = []

    def add(self, a, b):
        out, na, nb = [], a, b
        for x, y in self.r:
            if y < na or x > nb:
                out.append((x, y))
            else:
                na, nb = min(na, x), max(nb, y)
        out.append((na, nb))
        self.r = sorted(out)

    def remove(self, a, b):
        out = []
        for x, y in self.r:
            if y <= a or x >= b:
                out.append((x, y))
                continue
            if x < a:
                out.append((x, a))
            if y > b:
                out.append((b, y))
        self.r = out

    def known(self, size):
        pos = 0
        for x, y in self.r:
            if x > pos:
                yield pos, x
            pos = max(pos, y)
        if pos < size:
            yield pos, size


def parse_log(path):
    """Flushed writes in order, then those after the last flush"""
    flushed, pending = [], []
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines = lines[:-1]          # a record torn by the kill
    for line in lines:
        if line == "F":
            flushed += pending
            pending = []
        elif line[:1] in ("W", "Z"):
            kind, wid, off, length = line.split()
            pending.append((kind, int(wid), int(off), int(length)))
    return flushed, pending


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def one_kind(tmp, name, fmt, create, expected):
    img = os.path.join(tmp, f"{name}.img")
    if fmt == "raw":
        with open(img, "wb") as f:
            f.truncate(SIZE)
    else:
        r = run("qemu-img", "create", "-q", "-f", "qcow2", "-o", create, img,
                str(SIZE))
        if r.returncode:
            report(f"{name}/create", False, r.stderr)
            return
    opts = (f"driver={fmt},node-name=disk,file.driver=file,"
            f"file.filename={img}")
    unknown = Intervals()
    rng = random.Random(SEED ^ hash(name) & 0xffffffff)
    leaks = writes = 0
    for it in range(ITERATIONS):
        log = os.path.join(tmp, f"{name}.log{it}")
        child = subprocess.Popen([BLK_IO, "writer", opts, log,
                                  str(rng.randrange(1 << 31))],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        line = child.stdout.readline()
        if line.strip() != "ready":
            child.kill()
            report(f"{name}/{it}/start", False, child.stderr.read())
            return
        time.sleep(rng.uniform(0.02, 0.5))
        alive = child.poll() is None
        child.kill()
        child.wait()
        if not alive:
            report(f"{name}/{it}/writer", False, child.stderr.read())
            return
        child.stdout.close()
        child.stderr.close()
        flushed, pending = parse_log(log)
        writes += len(flushed)
        for kind, wid, off, length in flushed:
            data = bytes(length) if kind == "Z" else pattern(wid, length)
            expected[off:off + length] = data
            unknown.remove(off, off + length)
        for kind, wid, off, length in pending:
            unknown.add(off, off + length)
        detail = ""
        ok = True
        if fmt == "qcow2":
            r = run("qemu-img", "check", img)
            if r.returncode not in (0, 3):
                ok, detail = False, f"qemu-img check {r.returncode}: " \
                                    f"{r.stdout[-500:]}{r.stderr[-300:]}"
            leaks = 0
            for l in r.stdout.splitlines():
                if "leaked clusters were found" in l:
                    leaks = int(l.split()[0])
        theirs = os.path.join(tmp, "theirs.raw")
        ours = os.path.join(tmp, "ours.raw")
        r = run("qemu-img", "convert", "-f", fmt, "-O", "raw", img, theirs)
        r2 = run(BLK_IO, "dump", opts + ",read-only=on", ours)
        if ok and (r.returncode or r2.returncode):
            ok, detail = False, f"read back: {r.stderr} {r2.stderr}"
        if ok:
            with open(theirs, "rb") as f:
                got = f.read()
            with open(ours, "rb") as f:
                got_ours = f.read()
            if got != got_ours:
                ok, detail = False, "qemu-img and this code read different " \
                                    "bytes"
            for a, b in unknown.known(SIZE):
                if ok and got[a:b] != expected[a:b]:
                    first = next(i for i in range(a, b)
                                 if got[i] != expected[i])
                    ok, detail = False, f"flushed data lost at {first:#x}"
        report(f"{name}/{it} ({len(flushed)} flushed, {len(pending)} after "
               f"the last flush)", ok, detail)
        os.unlink(log)
        if not ok:
            shutil.copy(img, f"/tmp/block-crash-{name}-{SEED}.img")
            return
    print(f"# {name}: {ITERATIONS} kills, {writes} flushed writes checked, "
          f"{leaks} leaked clusters after the last kill (accepted)", flush=True)


def main():
    if not shutil.which("qemu-img"):
        print("not ok 1 - qemu-img missing (scripts/install-deps.sh --tests "
              "installs qemu-utils)")
        return 1
    print(f"# seed {SEED} (BLOCK_CRASH_SEED to repeat)")
    with tempfile.TemporaryDirectory(prefix="block-crash-") as tmp:
        base = os.path.join(tmp, "base.raw")
        base_data = bytearray(random.Random(SEED).randbytes(SIZE))
        with open(base, "wb") as f:
            f.write(base_data)
        kinds = [
            ("raw", "raw", None, bytearray(SIZE)),
            ("qcow2-v3-64k", "qcow2", "compat=1.1,cluster_size=65536",
             bytearray(SIZE)),
            ("qcow2-v2-4k", "qcow2", "compat=0.10,cluster_size=4096",
             bytearray(SIZE)),
            ("qcow2-v3-512-backing", "qcow2",
             f"compat=1.1,cluster_size=512,backing_file={base},"
             f"backing_fmt=raw", base_data),
        ]
        for name, fmt, create, expected in kinds:
            one_kind(tmp, name, fmt, create, expected)
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
