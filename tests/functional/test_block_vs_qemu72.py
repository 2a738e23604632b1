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
4. null-co, null-aio and blkdebug over QMP: adds (inline rules and
   config files), their errors, the queries, blockdev-del, as QEMU 7.2;
   what this build refuses where 7.2 accepts says why; a blkdebug config
   that is a FIFO holds blockdev-add until its writer closes it, in both.
5. Requests: blkdebug's rules fail reads, writes, zero writes, discards
   and flushes with their errno, and null-co reads leave the buffer or
   zero it, as qemu-io (QEMU 7.2's) sees them: blk-io io against qemu-io.

QEMU 7.2 runs with -accel tcg (no /dev/kvm needed), this binary with
-accel qtest.  Skips (77) without QEMU 7.2; needs qemu-img and qemu-io.
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
    ["-drive", "file=null-co://x,if=none,format=raw"],
    ["-drive", "file=null-aio:,if=none,format=raw"],
    ["-blockdev", "driver=null-co,node-name=a,filename=null-co://"],
    ["-blockdev", "driver=null-co,node-name=a,size=1M"],
    ["-blockdev", "driver=null-co,node-name=a,latency-ns=-1"],
    ["-blockdev", "driver=null-co,node-name=a,latency-ns=x"],
    ["-blockdev", "driver=null-aio,node-name=a,read-zeroes=maybe"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "max-transfer=99999999999"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "align=x"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "inject-error.1.event=read_aio"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "inject-error.0.event=read_aio,inject-error.0.errno=x"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "inject-error.x.event=read_aio"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "set-state.0.event=read_aio"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "take-child-perms.0=write,take-child-perms.1=bogus"],
    ["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                  "config=@nonexistent"],
    ["-blockdev", "driver=blkdebug,node-name=a,image=nope"],
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
    (["-drive", "file=null-aio://,if=none,format=raw,file.size=4096"],
     "-drive file.size= for null-aio is not supported by this build"),
    (["-drive", "driver=null-co,if=none"],
     "-drive driver= is not supported by this build"),
    (["-drive", "file=blkdebug::null-co://,if=none,format=raw"],
     "A blkdebug: filename is not supported by this build"),
    (["-blockdev", "driver=blkdebug,node-name=a,image.driver=null-co,"
                   "inject-error.0.event=l2_load"],
     "blkdebug event 'l2_load' is never raised by this build's block "
     "layer"),
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
    ["-drive", "file=null-co://,if=none,id=d0", "-drive",
     "file=null-aio://,if=none,format=raw,id=d1,readonly=on"],
    ["-blockdev", "driver=null-aio,node-name=n0,size=4096,read-zeroes=on",
     "-blockdev", "driver=blkdebug,node-name=b0,image=n0,"
                  "inject-error.0.event=read_aio,inject-error.0.once=on,"
                  "inject-error.1.event=pwritev,inject-error.1.state=2,"
                  "set-state.0.event=none,set-state.0.new_state=2",
     "-blockdev", "driver=raw,node-name=r0,file=b0"],
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


# 4. null-co and blkdebug --------------------------------------------------

# Config files for blkdebug, written into the image directory
CONFIGS = {
    "rules.cfg": '[inject-error]\nevent = "read_aio"\nerrno = "28"\n'
                 'once = "on"\n\n# comment\n[set-state]\n'
                 'event = "write_aio"\nnew_state = "2"\n\n'
                 '[inject-error "e1"]\nevent = "write_aio"\n'
                 'state = "2"\nsector = "8"\niotype = "write"\n',
    "empty.cfg": "",
    "group.cfg": '[bogus]\nevent = "read_aio"\n',
    "event.cfg": '[inject-error]\nevent = "nosuch"\n',
    "noevent.cfg": '[inject-error]\nerrno = "5"\n',
    "number.cfg": '[inject-error]\nevent = "read_aio"\nerrno = "x"\n',
    "bool.cfg": '[inject-error]\nevent = "read_aio"\nonce = "maybe"\n',
    "key.cfg": '[set-state]\nevent = "read_aio"\nbogus = "1"\n',
    "nogroup.cfg": 'event = "read_aio"\n',
    "parse.cfg": '[inject-error]\n   \n',
    "iotype.cfg": '[inject-error]\nevent = "read_aio"\niotype = "x"\n',
    "dupid.cfg": '[inject-error "a"]\nevent = "read_aio"\n'
                 '[inject-error "a"]\nevent = "write_aio"\n',
    "badid.cfg": '[inject-error "1a"]\nevent = "read_aio"\n',
    "l2.cfg": '[inject-error]\nevent = "l2_load"\n',
}


def write_configs(img):
    for name, text in CONFIGS.items():
        with open(img.path(name), "w") as f:
            f.write(text)


def null(**kw):
    return dict({"driver": "null-co"}, **kw)


def dbg(name, **kw):
    return dict({"driver": "blkdebug", "node-name": name,
                 "image": null()}, **kw)


NULL_SESSION = [
    (B, null(**{"node-name": "n0"})),
    (B, null(**{"node-name": "n1", "size": 1000})),
    (B, null(**{"node-name": "n2", "latency-ns": 1000})),
    (B, null(**{"node-name": "n3", "read-zeroes": True})),
    (B, {"driver": "null-aio", "node-name": "n4", "size": 4096,
         "read-zeroes": False}),
    (B, null(**{"node-name": "n5", "latency-ns": -1})),
    (B, null(**{"node-name": "n5", "latency-ns": 1.5})),
    (B, null(**{"node-name": "n5", "size": "x"})),
    (B, null(**{"node-name": "n5", "size": (1 << 63) - 1})),
    (B, null(**{"node-name": "n5", "filename": "null-co://"})),
    (B, null(**{"node-name": "n5", "bogus": 1})),
    (B, {"driver": "raw", "node-name": "r0", "file": null(size=1 << 20)}),
    (B, {"driver": "qcow2", "node-name": "q0",
         "file": null(**{"read-zeroes": True})}),
    (B, dbg("b0", image="n0")),
    (B, dbg("b1", image=null(**{"read-zeroes": True}))),
    (B, dbg("b2", config="@rules.cfg")),
    (B, dbg("b3", config="@empty.cfg", **{"take-child-perms": ["write"]})),
    (B, dbg("b4", **{"inject-error": [{"event": "read_aio", "errno": 5,
                                      "sector": 3, "once": True}],
                     "set-state": [{"event": "flush_to_os",
                                    "new_state": 2, "state": 1}]})),
    (B, dbg("b5", config="@rules.cfg", align=0)),
    (B, {"driver": "raw", "node-name": "r1", "file": "b1"}),
    (B, {"driver": "raw", "node-name": "r2", "file": dbg("b6")}),
    (B, dbg("b7", config="@nonexistent")),
    (B, dbg("b7", config="@nonexistent", image="nope")),
    (B, dbg("b7", image="nope")),
    (B, {"driver": "blkdebug", "node-name": "b7"}),
    (B, dbg("b7", align=3)),
    (B, dbg("b7", align=-1)),
    (B, dbg("b7", align=1 << 31)),
    (B, dbg("b7", **{"max-transfer": 1 << 32})),
    (B, dbg("b7", **{"max-discard": -5, "opt-write-zero": -1})),
    (B, dbg("b7", align=4096, **{"max-transfer": 1000})),
    (B, dbg("b7", **{"max-write-zero": 1000, "opt-write-zero": 512})),
    (B, dbg("b7", **{"inject-error": [{"event": "bogus"}]})),
    (B, dbg("b7", **{"inject-error": [{"errno": 5}]})),
    (B, dbg("b7", **{"set-state": [{"event": "read_aio"}]})),
    (B, dbg("b7", **{"inject-error": [{"event": "read_aio", "x": 1}]})),
    (B, dbg("b7", **{"take-child-perms": ["bogus"]})),
] + [(B, dbg("b7", config="@" + c)) for c in CONFIGS
     if c not in ("rules.cfg", "empty.cfg", "l2.cfg")] + [
    ("query-named-block-nodes", None),
    ("query-named-block-nodes", {"flat": True}),
    ("query-blockstats", {"query-nodes": True}),
    ("blockdev-del", {"node-name": "n0"}),
    ("blockdev-del", {"node-name": "b1"}),
    ("blockdev-del", {"node-name": "b0"}),
    ("blockdev-del", {"node-name": "n0"}),
    ("blockdev-del", {"node-name": "r2"}),
    ("blockdev-del", {"node-name": "b6"}),
    ("query-named-block-nodes", {"flat": True}),
]

# Accepted by QEMU 7.2 (or, size=-1, fatal to it), refused here
NULL_OURS = [
    (null(**{"node-name": "x", "size": -1}),
     "Parameter 'size' expects a non-negative number below 2^64"),
    (dbg("x", align=4096), "blkdebug: align is not supported by this build"),
    (dbg("x", **{"max-transfer": 512}),
     "blkdebug: max-transfer is not supported by this build"),
    (dbg("x", **{"inject-error": [{"event": "l2_load"}]}),
     "blkdebug event 'l2_load' is never raised by this build's block layer"),
    (dbg("x", config="@l2.cfg"),
     "blkdebug event 'l2_load' is never raised by this build's block layer"),
    (dbg("x", **{"inject-error": [{"event": "read_aio",
                                   "iotype": "block-status"}]}),
     "blkdebug iotype 'block-status' is not supported by this build"),
    (dbg("x", **{"inject-error": [{"event": "read_aio", "errno": -2}]}),
     "blkdebug errno -2 is not supported by this build"),
]


def fifo_add(binary, accel, img):
    """blockdev-add with a FIFO config: (answered before the FIFO was
    opened for writing, the answer after it was closed, the node's file)"""
    fifo = img.path("fifo")
    os.mkfifo(fifo)
    try:
        with Machine(binary, ["-machine", "none"] + accel) as vm:
            vm.send_raw(json.dumps({
                "execute": B, "arguments": dbg("f0", config=fifo, image=null(
                    **{"read-zeroes": True}))}).encode() + b"\r\n")
            try:
                early = vm._read_message(timeout=1.0)
            except TimeoutError:
                early = None
            with open(fifo, "w") as f:
                f.write('[inject-error]\nevent = "read_aio"\n')
            late = early or vm._read_message(timeout=10)
            nodes = vm.cmd("query-named-block-nodes", {"flat": True})
            return (early is not None, late,
                    [n["file"].replace(img.dir, "@") for n in nodes])
    finally:
        os.unlink(fifo)


def test_null_blkdebug(img):
    def run(binary, accel):
        img.reset()
        write_configs(img)
        out = []
        with Machine(binary, ["-machine", "none"] + accel) as vm:
            for cmd, a in NULL_SESSION:
                r = normalize(vm.cmd_raw(cmd, sub_json(img, a)))
                out.append(json.loads(json.dumps(r).replace(img.dir, "@")))
        return out

    theirs = run(ORACLE, THEIRS_ACCEL)
    ours = run(BINARY, OURS_ACCEL)
    for (cmd, a), t, o in zip(NULL_SESSION, theirs, ours):
        report(f"null-blkdebug/{cmd} {json.dumps(a)[:80]}", o == t,
               f"\n# ours   {json.dumps(o)}\n# qemu72 {json.dumps(t)}")
    img.reset()
    write_configs(img)
    with Machine(BINARY, ["-machine", "none"] + OURS_ACCEL) as vm:
        for a, text in NULL_OURS:
            r = vm.cmd_raw(B, sub_json(img, a))
            desc = r.get("error", {}).get("desc", "")
            report(f"null-blkdebug/ours/{json.dumps(a)[:80]}",
                   desc.startswith(text), f"{r!r}")
    theirs = fifo_add(ORACLE, THEIRS_ACCEL, img)
    ours = fifo_add(BINARY, OURS_ACCEL, img)
    report("null-blkdebug/config FIFO holds blockdev-add until closed",
           ours == theirs and not theirs[0], f"ours {ours} qemu72 {theirs}")


# 5. Requests through blkdebug and null-co, against qemu-io ------------------

IO_CASES = [
    # (options, config file text or None, requests)
    ("driver=null-co", None, ["read 0 512", "write 0 512", "read 0 512"]),
    ("driver=null-co,read-zeroes=on", None, ["read 0 512"]),
    ("driver=null-aio,size=4096", None, ["read 0 512", "flush"]),
    ("driver=raw,file.driver=blkdebug,file.config=@cfg,"
     "file.image.driver=null-co",
     CONFIGS["rules.cfg"] + '[inject-error]\nevent = "write_aio"\n'
     'state = "2"\nerrno = "5"\n',
     ["read 0 512", "read 0 512", "write 0 512", "write 4096 512",
      "write 0 512", "read 0 512"]),
    ("driver=raw,file.driver=blkdebug,file.config=@cfg,"
     "file.image.driver=null-co",
     '[set-state]\nevent = "flush_to_os"\nnew_state = "2"\n'
     '[inject-error]\nevent = "flush_to_disk"\nstate = "2"\n'
     'iotype = "flush"\nerrno = "30"\n',
     ["flush", "write 0 512", "read 0 512", "flush"]),
    ("driver=blkdebug,config=@cfg,image.driver=null-co",
     '[inject-error]\nevent = "read_aio"\n', ["read 0 512"]),
    ("driver=blkdebug,config=@cfg,image.driver=null-co",
     '[inject-error]\nevent = "none"\nerrno = "1"\n',
     ["flush", "read 0 512", "write 0 512"]),
    ("driver=blkdebug,config=@cfg,image.driver=null-co",
     '[inject-error]\nevent = "pwritev"\niotype = "write"\nerrno = "13"\n',
     ["read 0 512", "write 0 512", "write 512 512", "zero 0 4096"]),
    ("driver=blkdebug,config=@cfg,image.driver=null-co",
     '[inject-error]\nevent = "pwritev_zero"\nerrno = "27"\nonce = "on"\n',
     ["write 0 512", "zero 0 4096", "zero 0 4096"]),
    ("driver=blkdebug,discard=unmap,config=@cfg,image.driver=null-co",
     '[inject-error]\nevent = "none"\niotype = "discard"\nerrno = "95"\n',
     ["discard 0 4096", "write 0 512"]),
    ("driver=raw,file.driver=blkdebug,file.config=@cfg,"
     "file.image.driver=null-co",
     '[inject-error]\nevent = "flush_to_disk"\niotype = "flush"\n'
     'errno = "30"\nonce = "on"\n',
     ["flush", "write 0 512", "flush"]),
    ("driver=raw,file.driver=blkdebug,file.config=@cfg,"
     "file.image.driver=null-co",
     '[inject-error]\nevent = "flush_to_disk"\niotype = "flush"\n'
     'errno = "30"\n', ["write 0 512", "flush", "write 0 512"]),
    ("driver=raw,file.driver=blkdebug,file.config=@cfg,"
     "file.image.driver=null-co",
     '[set-state]\nevent = "read_aio"\nnew_state = "3"\n'
     '[set-state]\nevent = "read_aio"\nstate = "3"\nnew_state = "4"\n'
     '[inject-error]\nevent = "read_aio"\nstate = "4"\nerrno = "12"\n',
     ["read 0 512", "read 0 512", "read 0 512", "read 0 512"]),
]

# qcow2 over blkdebug over q.qcow2: the data reads and writes raise
# read_aio / write_aio on blkdebug
QCOW2_DBG = ("driver=qcow2,file.driver=blkdebug,file.config=@cfg,"
             "file.image.driver=file,file.image.filename=@q.qcow2")
IO_CASES += [
    (QCOW2_DBG, '[inject-error]\nevent = "write_aio"\nerrno = "28"\n',
     ["read 0 512", "write 0 512", "write 65536 512", "read 0 512"]),
    (QCOW2_DBG, '[inject-error]\nevent = "read_aio"\nerrno = "5"\n'
     'once = "on"\n',
     ["read 0 512", "write 0 512", "write 65536 512", "read 0 512",
      "read 0 512"]),
]

QEMU_IO_CMD = {"read": "read -v", "write": "write -P 0xab", "zero": "write -z",
               "discard": "discard", "flush": "flush"}


def qemu_io(opts, cmds, fresh):
    """qemu-io's output and exit status for cmds (blk-io io's), on fresh
    images (fresh() makes them)"""
    fresh()
    args = ["qemu-io", "--image-opts", opts]
    for c in cmds:
        name, *rest = c.split()
        args += ["-c", " ".join([QEMU_IO_CMD[name]] + rest)]
    r = subprocess.run(args, capture_output=True, text=True, timeout=30)
    # qemu-io's own warnings (a failed cache flush at exit) interleave
    return [l for l in r.stdout.splitlines()
            if not l.startswith("qemu-io: ")], r.returncode


def qemu_io_results(opts, cmds, fresh):
    """qemu-io's answers to cmds, in blk-io io's form.  qemu-io prints
    nothing for a flush, failed or not, only its exit status says: a
    flush is "flush ok" or "flush failed" (no errno) when the commands
    before it all succeeded, else "flush unknown"."""
    lines, _ = qemu_io(opts, cmds, fresh)
    out = []
    for i, c in enumerate(cmds):
        name = c.split()[0]
        shown = "write" if name == "zero" else name
        if name == "flush":
            before, after = qemu_io(opts, cmds[:i], fresh)[1], \
                qemu_io(opts, cmds[:i + 1], fresh)[1]
            out.append("flush unknown" if before else
                       "flush failed" if after else "flush ok")
            continue
        if lines and lines[0].startswith(f"{shown} failed: "):
            out.append(lines.pop(0))
            continue
        data = []
        while lines and re.match(r"[0-9a-f]{8}:", lines[0]):
            data += lines.pop(0).split(":", 1)[1].split()[:16]
        lines = lines[2:]           # "read/wrote N/N bytes", the speed
        if name == "read":
            kinds = set(data)
            out.append("read ok " + (kinds.pop() if len(kinds) == 1 and
                                     kinds <= {"ab", "00"} else "mixed"))
        else:
            out.append(f"{shown} ok")
    return out


def test_io(img):
    blk_io = os.environ.get("BLK_IO", "build/tests/functional/blk-io")
    for opts, cfg, cmds in IO_CASES:
        def fresh():
            img.reset()
            if cfg is not None:
                with open(img.path("cfg"), "w") as f:
                    f.write(cfg)

        o = opts.replace("@", img.dir + "/")
        theirs = qemu_io_results(o, cmds, fresh)
        fresh()
        r = subprocess.run([blk_io, "io", o] + cmds, capture_output=True,
                           text=True, timeout=30)
        ours = r.stdout.splitlines() if r.returncode == 0 else [r.stderr]
        ours = ["flush failed" if o.startswith("flush failed") else o
                for o in ours]
        ours = ["flush unknown" if t == "flush unknown" else o
                for o, t in zip(ours, theirs)] + ours[len(theirs):]
        report(f"io/{opts[:60]} {cfg!r:.40} {cmds}", ours == theirs,
               f"\n# ours   {ours}\n# qemu72 {theirs}")


def main():
    if not os.path.exists(ORACLE):
        skip("QEMU 7.2 is not installed (/usr/bin/qemu-system-x86_64)")
    if not shutil.which("qemu-img") or not shutil.which("qemu-io"):
        print("not ok 1 - qemu-img or qemu-io missing "
              "(scripts/install-deps.sh --tests installs qemu-utils)")
        return 1
    img = Images()
    try:
        test_cli(img)
        test_locks(img)
        test_contention(img)
        test_qmp(img)
        test_null_blkdebug(img)
        test_io(img)
    finally:
        shutil.rmtree(img.dir, ignore_errors=True)
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
