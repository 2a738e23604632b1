#!/usr/bin/env python3
"""The block layer against Debian's QEMU 7.2 (docs/block.md).

1. Command line: -drive and -blockdev lines that QEMU 7.2 refuses are
   refused by this binary with the same text (the "-drive ...:" prefix,
   hints included); lines this build refuses where QEMU accepts them say
   why (a device it does not have yet, io_uring, snapshot=on, ...).
2. Image locks: for each drive configuration, the bytes this binary locks
   in /proc/locks are the ones QEMU 7.2 locks; a second process -- ours or
   QEMU 7.2 -- opening an image the other holds is refused, or not, with
   7.2's text; file.locking=off opts out.
3. QMP: query-block, query-named-block-nodes (flat or not) and
   query-blockstats (backends and nodes), and a blockdev-add / blockdev-del
   / block_resize session including its errors, answer as QEMU 7.2 does
   (automatic node names "#blockNNN" compared without their number,
   timings left out).

QEMU 7.2 runs with -accel tcg (no /dev/kvm needed), this binary with
-accel qtest.  Skips (77) without QEMU 7.2; needs qemu-img.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
OURS_ACCEL = ["-accel", "qtest"]
THEIRS_ACCEL = ["-accel", "tcg"]

n = failures = 0


def report(name, ok, detail=""):
    global n, failures
    n += 1
    failures += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - block/{name}" +
          ("" if ok else f" # {detail}"), flush=True)


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(77)


class Images:
    """q.qcow2 (64 MiB), top.qcow2 over it, r.raw (1 MiB), fresh each time"""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="block-diff-")

    def path(self, name):
        return os.path.join(self.dir, name)

    def reset(self):
        for f in os.listdir(self.dir):
            os.unlink(self.path(f))
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2",
                        self.path("q.qcow2"), "64M"], check=True)
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-b",
                        self.path("q.qcow2"), "-F", "qcow2",
                        self.path("top.qcow2")], check=True)
        with open(self.path("r.raw"), "wb") as f:
            f.truncate(1 << 20)

    def sub(self, args):
        return [a.replace("@", self.dir + "/") for a in args]


def start_args(machine, accel, args):
    return [ "-machine", machine] + accel + ["-S", "-display", "none",
                                             "-nodefaults"] + args


def run_cli(binary, accel, machine, args, timeout=4):
    """stderr and status of a start that should fail (None if it lives)"""
    try:
        r = subprocess.run([binary] + start_args(machine, accel, args),
                           capture_output=True, text=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    return r.returncode, r.stderr


# 1. Command line ----------------------------------------------------------

# Refused by both, same text; "@" is the image directory
CLI_SAME = [
    ["-drive", "file=@nonexistent,if=none"],
    ["-drive", "file=@r.raw,if=foo"],
    ["-drive", "file=@r.raw,if=none,cache=bogus"],
    ["-drive", "file=@r.raw,if=none,aio=bogus"],
    ["-drive", "file=@r.raw,if=none,format=bogus"],
    ["-drive", "file=@r.raw,if=none,werror=bogus"],
    ["-drive", "file=@r.raw,if=none,rerror=enospc"],
    ["-drive", "file=@r.raw,if=none,media=foo"],
    ["-drive", "file=@r.raw,if=none,discard=foo"],
    ["-drive", "file=@r.raw,if=none,detect-zeroes=foo"],
    ["-drive", "file=@r.raw,if=none,id=a", "-drive",
     "file=@q.qcow2,if=none,id=a"],
    ["-drive", "file=@r.raw,if=none,bogus=1"],
    ["-drive", "file=@r.raw,if=none,readonly=maybe"],
    ["-drive", "file=@r.raw,if=none,aio=native"],
    ["-drive", "file=@q.qcow2,format=raw,if=none,node-name=#x"],
    ["-drive", "file=@q.qcow2,if=none,node-name=n1", "-drive",
     "file=@r.raw,if=none,node-name=n1,format=raw"],
    ["-drive", "file=@q.qcow2,if=none,file.locking=bogus"],
    ["-drive", "file=@q.qcow2,if=none,file.locking=off,file.bogus=1"],
    ["-drive", "file=@q.qcow2,if=none,format=qcow2,lazy-refcounts=maybe"],
    ["-drive", "if=none,format=qcow2"],
    ["-drive", "file=@r.raw,if=none,id=a#b,format=raw"],
    ["-drive", "file=@r.raw,if=ide,format=raw"],
    ["-drive", "file=@r.raw,if=mtd,format=raw"],
    ["-blockdev", "driver=file"],
    ["-blockdev", "driver=file,filename=@r.raw"],
    ["-blockdev", "filename=@r.raw,node-name=a"],
    ["-blockdev", "driver=foo,node-name=a"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=a,aio-max-batch=x"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=a,read-only=x"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=a,cache.direct=x"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=a,cache=x"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=a,bogus=1"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=a,locking=x"],
    ["-blockdev", "driver=raw,node-name=a,file.driver=file,"
                  "file.filename=@r.raw,offset=x"],
    ["-blockdev", "driver=raw,node-name=a,file.driver=file,"
                  "file.filename=@r.raw,offset=-5"],
    ["-blockdev", "driver=raw,node-name=a,file.driver=file,"
                  "file.filename=@r.raw,offset=2000000"],
    ["-blockdev", "driver=raw,node-name=a,file="],
    ["-blockdev", '{"driver":"file","filename":5,"node-name":"a"}'],
    ["-blockdev", '{"driver":"file","filename":"@r.raw","node-name":"a",'
                  '"read-only":"on"}'],
    ["-blockdev", '{"driver":"raw","file":{"driver":"file","filename":'
                  '"@r.raw","bogus":1},"node-name":"a"}'],
    ["-blockdev", '{"driver":"raw","file":[],"node-name":"a"}'],
    ["-blockdev", "driver=qcow2,node-name=a,file.driver=file,"
                  "file.filename=@q.qcow2,backing.driver=file"],
    ["-blockdev", "driver=qcow2,node-name=a,file.driver=file,"
                  "file.filename=@q.qcow2,encrypt.format=aes"],
    ["-blockdev", "driver=qcow2,node-name=a,file.driver=file,"
                  "file.filename=@r.raw"],
    ["-blockdev", "driver=file,filename=@nonexistent/x,node-name=a"],
    ["-blockdev", "driver=host_device,filename=@r.raw,node-name=a"],
    ["-blockdev", "driver=file,filename=/dev/null,node-name=a"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=a", "-blockdev",
     "driver=file,filename=@r.raw,node-name=a"],
]

# Accepted by QEMU 7.2, refused here: (args, text)
CLI_OURS = [
    (["-drive", "file=@r.raw,format=raw,if=virtio"],
     "if=virtio needs the device 'virtio-blk-pci', which this build does "
     "not have yet"),
    (["-drive", "file=@r.raw,format=raw,if=none,aio=io_uring"],
     "aio=io_uring was specified, but is not supported in this build."),
    (["-drive", "file=@r.raw,format=raw,if=none,snapshot=on"],
     "snapshot=on is not supported by this build"),
    (["-blockdev", "driver=qcow2,node-name=a,lazy-refcounts=on,"
                   "file.driver=file,file.filename=@q.qcow2"],
     "qcow2: lazy-refcounts=on is not supported by this build"),
]


def test_cli(img):
    for args in CLI_SAME:
        img.reset()
        a = img.sub(args)
        theirs = run_cli(ORACLE, THEIRS_ACCEL, "none", a)
        ours = run_cli(BINARY, OURS_ACCEL, "none", a)
        name = "cli/" + " ".join(args)[:90]
        if theirs is None or theirs[0] == 0:
            report(name, False, "QEMU 7.2 accepts it: not a refusal case")
            continue
        report(name, ours is not None and ours[0] == 1 and
               ours[1] == theirs[1],
               f"ours {ours!r} qemu72 {theirs[1]!r}")
    for args, text in CLI_OURS:
        img.reset()
        a = img.sub(args)
        ours = run_cli(BINARY, OURS_ACCEL, "q35", a)
        report("cli/ours/" + " ".join(args)[:80],
               ours is not None and ours[0] == 1 and text in ours[1] and
               ours[1].count("\n") == 1, f"{ours!r}")


# 2. Image locks -------------------------------------------------------------

LOCK_CONFIGS = [
    ["-drive", "file=@q.qcow2,if=none,id=d0"],
    ["-drive", "file=@q.qcow2,if=none,id=d0,readonly=on"],
    ["-drive", "file=@r.raw,format=raw,if=none,id=d0"],
    ["-drive", "file=@top.qcow2,if=none,id=d0"],
    ["-drive", "file=@q.qcow2,if=none,id=d0,file.locking=off"],
    ["-blockdev", "driver=file,filename=@top.qcow2,node-name=f0",
     "-blockdev", "driver=qcow2,file=f0,node-name=q0"],
    ["-blockdev", '{"driver":"file","filename":"@q.qcow2","node-name":'
                  '"libvirt-1-storage","auto-read-only":true,'
                  '"discard":"unmap"}',
     "-blockdev", '{"node-name":"libvirt-1-format","read-only":false,'
                  '"driver":"qcow2","file":"libvirt-1-storage"}'],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=f0",
     "-blockdev", "driver=raw,file=f0,node-name=r0"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=f0",
     "-blockdev", "driver=raw,file=f0,node-name=r0,offset=512"],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=f0",
     "-blockdev", "driver=raw,file=f0,node-name=r1,offset=512,size=1024",
     "-blockdev", "driver=qcow2,file.driver=file,file.filename=@top.qcow2,"
                  "node-name=q0,backing=r1"],
    ["-drive", "file=@q.qcow2,if=none,id=d0,readonly=on,force-share=on"],
]


def locks_of(img):
    inodes = {os.stat(img.path(f)).st_ino: f for f in os.listdir(img.dir)}
    out = []
    with open("/proc/locks") as f:
        for line in f:
            p = line.split()
            ino = int(p[5].split(":")[2])
            if ino in inodes:
                out.append((inodes[ino], p[1], p[3], p[6], p[7]))
    return sorted(out)


def test_locks(img):
    for args in LOCK_CONFIGS:
        img.reset()
        a = img.sub(args)
        with Machine(ORACLE, ["-machine", "none"] + THEIRS_ACCEL + a):
            theirs = locks_of(img)
        with Machine(BINARY, ["-machine", "none"] + OURS_ACCEL + a):
            ours = locks_of(img)
        report("locks/" + " ".join(args)[:90], ours == theirs,
               f"ours {ours} qemu72 {theirs}")


# (holder, second opener): the second's result must be what it is when
# QEMU 7.2 is both
CONTENTION = [
    ("file=@q.qcow2,if=none", "file=@q.qcow2,if=none"),
    ("file=@q.qcow2,if=none", "file=@q.qcow2,if=none,readonly=on"),
    ("file=@q.qcow2,if=none,readonly=on", "file=@q.qcow2,if=none"),
    ("file=@q.qcow2,if=none,readonly=on", "file=@q.qcow2,if=none,"
                                          "readonly=on"),
    ("file=@q.qcow2,if=none", "file=@q.qcow2,if=none,file.locking=off"),
    ("file=@q.qcow2,if=none", "file=@top.qcow2,if=none"),
    ("file=@r.raw,format=raw,if=none", "file=@r.raw,format=raw,if=none"),
]


def second_open(binary, accel, drive):
    r = run_cli(binary, accel, "none", ["-drive", drive], timeout=3)
    return "accepted" if r is None else r[1]


def test_contention(img):
    pairs = [("qemu72", ORACLE, THEIRS_ACCEL), ("ours", BINARY, OURS_ACCEL)]
    for hold, second in CONTENTION:
        hold, second = img.sub([hold, second])
        img.reset()
        results = {}
        for hname, hbin, hacc in pairs:
            with Machine(hbin, ["-machine", "none"] + hacc +
                         ["-drive", hold]):
                for sname, sbin, sacc in pairs:
                    results[(hname, sname)] = second_open(sbin, sacc, second)
        want = results[("qemu72", "qemu72")]
        for key, got in results.items():
            if key == ("qemu72", "qemu72"):
                continue
            label = (f"lock-contention/{key[0]} holds {hold.split('/')[-1]}, "
                     f"{key[1]} opens {second.split('/')[-1]}")
            report(label, got == want, f"got {got!r} want {want!r}")


# 3. QMP ----------------------------------------------------------------------

def normalize(reply):
    text = re.sub(r"#block\d+", "#block", json.dumps(reply))
    obj = json.loads(text)

    def scrub(o):
        if isinstance(o, dict):
            for k in list(o):
                if k.endswith("_total_time_ns") or k == "idle_time_ns":
                    del o[k]
                else:
                    scrub(o[k])
        elif isinstance(o, list):
            for x in o:
                scrub(x)
    scrub(obj)
    return obj


QUERIES = [("query-block", None), ("query-named-block-nodes", None),
           ("query-named-block-nodes", {"flat": True}),
           ("query-blockstats", None),
           ("query-blockstats", {"query-nodes": True})]

QMP_CONFIGS = [
    ["-drive", "file=@q.qcow2,if=none,id=d0"],
    ["-blockdev", "driver=file,filename=@top.qcow2,node-name=f0",
     "-blockdev", "driver=qcow2,file=f0,node-name=q0"],
    ["-drive", "file=@r.raw,format=raw,if=none,id=d0,readonly=on",
     "-drive", "if=none,id=empty", "-drive",
     "file=@q.qcow2,if=none,cache=none,id=d2,node-name=nn,discard=unmap,"
     "detect-zeroes=unmap,werror=stop,rerror=ignore"],
    ["-drive", "file=@r.raw,format=raw,if=none,cache=writethrough",
     "-drive", "file=@top.qcow2,if=none,cache=unsafe"],
    # as libvirt 9.0 writes them: backing chains by node name
    ["-blockdev", '{"driver":"file","filename":"@q.qcow2","node-name":'
                  '"libvirt-2-storage","auto-read-only":true,'
                  '"discard":"unmap"}',
     "-blockdev", '{"node-name":"libvirt-2-format","read-only":true,'
                  '"driver":"qcow2","file":"libvirt-2-storage",'
                  '"backing":null}',
     "-blockdev", '{"driver":"file","filename":"@top.qcow2","node-name":'
                  '"libvirt-1-storage","auto-read-only":true,'
                  '"discard":"unmap","cache":{"direct":true,'
                  '"no-flush":false}}',
     "-blockdev", '{"node-name":"libvirt-1-format","read-only":false,'
                  '"discard":"unmap","cache":{"direct":true,'
                  '"no-flush":false},"driver":"qcow2","file":'
                  '"libvirt-1-storage","backing":"libvirt-2-format"}'],
    ["-blockdev", "driver=file,filename=@r.raw,node-name=f0",
     "-blockdev", "driver=raw,file=f0,node-name=r1,offset=512,size=1024",
     "-blockdev", "driver=qcow2,file.driver=file,file.filename=@top.qcow2,"
                  "node-name=q0,backing=r1"],
]

B = "blockdev-add"
SESSION = [
    (B, {"driver": "file", "filename": "@r.raw"}),
    (B, {"driver": "file", "filename": "@r.raw", "node-name": "f0"}),
    (B, {"driver": "file", "filename": "@r.raw", "node-name": "f0"}),
    (B, {"driver": "file", "filename": "@r.raw", "node-name": "d0"}),
    (B, {"driver": "file", "filename": "@r.raw", "node-name": "#x"}),
    (B, {"driver": "file", "filename": "@r.raw", "node-name": "a" * 40}),
    (B, {"driver": "file", "filename": "@nonexist", "node-name": "f1"}),
    (B, {"driver": "raw", "file": "nonode", "node-name": "f1"}),
    (B, {"driver": "raw", "file": 5, "node-name": "f1"}),
    (B, {"driver": "raw", "file": {"driver": "file"}, "node-name": "f1"}),
    (B, {"driver": "qcow2", "file": "f0", "node-name": "q1"}),
    (B, {"driver": "raw", "file": "f0", "node-name": "r1"}),
    (B, {"driver": "raw", "file": "f0", "node-name": "r2"}),
    (B, {"driver": "raw", "file": "f0", "node-name": "r3", "offset": 512,
         "size": 1000}),
    (B, {"driver": "raw", "file": "f0", "node-name": "r4",
         "offset": 2000000}),
    (B, {"driver": "raw", "file": "f0", "node-name": "r5", "offset": -1}),
    (B, {"driver": "qcow2", "file": {"driver": "file",
                                     "filename": "@top.qcow2"},
         "node-name": "q2", "backing": None}),
    (B, {"driver": "file", "filename": "@r.raw", "node-name": "f5",
         "aio": "native"}),
    (B, {"driver": "file", "filename": "@r.raw", "node-name": "f6",
         "cache": {"direct": True}, "aio": "native"}),
    (B, {"driver": "raw", "file": "f0", "node-name": "r9",
         "detect-zeroes": "unmap"}),
    ("query-named-block-nodes", {"flat": True}),
    ("blockdev-del", {"node-name": "nope"}),
    ("blockdev-del", {"node-name": "f0"}),
    ("blockdev-del", {"node-name": "d0"}),
    ("blockdev-del", {"node-name": "r1"}),
    ("blockdev-del", {"node-name": "r1"}),
    ("block_resize", {"size": 1}),
    ("block_resize", {"device": "nope", "size": 1}),
    ("block_resize", {"node-name": "nope", "size": 1}),
    ("block_resize", {"device": "d0", "size": -1}),
    ("block_resize", {"device": "d0", "size": 1000}),
    ("block_resize", {"device": "d0", "size": 128 << 20}),
    ("block_resize", {"device": "d1", "size": 2 << 20}),
    ("block_resize", {"node-name": "r2", "size": 2 << 20}),
    ("query-block", None),
    ("query-named-block-nodes", None),
]
SESSION_ARGS = ["-drive", "file=@q.qcow2,if=none,id=d0",
                "-drive", "file=@r.raw,format=raw,if=none,id=d1,readonly=on"]


def sub_json(img, obj):
    return json.loads(json.dumps(obj).replace('"@', f'"{img.dir}/'))


def replies(binary, accel, img, args, cmds):
    img.reset()
    out = []
    with Machine(binary, ["-machine", "none"] + accel + img.sub(args)) as vm:
        for cmd, a in cmds:
            out.append(normalize(vm.cmd_raw(cmd, sub_json(img, a))))
    return out


def test_qmp(img):
    for args in QMP_CONFIGS:
        theirs = replies(ORACLE, THEIRS_ACCEL, img, args, QUERIES)
        ours = replies(BINARY, OURS_ACCEL, img, args, QUERIES)
        for (cmd, a), t, o in zip(QUERIES, theirs, ours):
            report(f"qmp/{cmd} {json.dumps(a)} with {' '.join(args)[:60]}",
                   o == t, f"\n# ours   {json.dumps(o)}\n"
                           f"# qemu72 {json.dumps(t)}")
    theirs = replies(ORACLE, THEIRS_ACCEL, img, SESSION_ARGS, SESSION)
    ours = replies(BINARY, OURS_ACCEL, img, SESSION_ARGS, SESSION)
    for (cmd, a), t, o in zip(SESSION, theirs, ours):
        report(f"qmp-session/{cmd} {json.dumps(a)[:70]}", o == t,
               f"\n# ours   {json.dumps(o)}\n# qemu72 {json.dumps(t)}")


def main():
    if not os.path.exists(ORACLE):
        skip("QEMU 7.2 is not installed (/usr/bin/qemu-system-x86_64)")
    if not shutil.which("qemu-img"):
        print("not ok 1 - qemu-img missing (scripts/install-deps.sh --tests "
              "installs qemu-utils)")
        return 1
    img = Images()
    try:
        test_cli(img)
        test_locks(img)
        test_contention(img)
        test_qmp(img)
    finally:
        shutil.rmtree(img.dir, ignore_errors=True)
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
