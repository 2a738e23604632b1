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
must keep refusing exec-oob.

Overtaking (both binaries, over a unix socket and over stdio): an in-band
blockdev-add whose file is a FIFO nobody writes blocks the main thread in
open(); an out-of-band migrate-pause sent after it (and after a quick
in-band query-name) must be answered while it blocks, nothing else may
be; once a writer opens the FIFO, the in-band replies follow in the order
they were sent, a malformed in-band request's error included.  A session
without "oob" gets every reply in order.  Skips (77) where QEMU 7.2 is
missing.
"""

import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
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


class Session:
    """QMP over a unix socket (or stdio); replies and events apart"""

    def __init__(self, binary, tmp, transport):
        self.tmp = tmp
        args = [binary, "-machine", "none", "-nodefaults", "-display",
                "none", "-S"]
        if transport == "unix":
            path = os.path.join(tmp, "qmp.sock")
            srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            srv.bind(path)
            srv.listen(1)
            srv.settimeout(20)
            self.p = subprocess.Popen(args + ["-chardev",
                                              f"socket,id=q,path={path}",
                                              "-mon", "chardev=q,mode=control"],
                                      stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
            self.sock, _ = srv.accept()
            srv.close()
            self.rfd = self.sock.fileno()
            self.write = self.sock.sendall
        else:
            self.p = subprocess.Popen(args + ["-qmp", "stdio"],
                                      stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL)
            self.sock = None
            self.rfd = self.p.stdout.fileno()
            self.write = lambda b: os.write(self.p.stdin.fileno(), b)
        self.buf = b""
        self.recv(10)  # greeting

    def send(self, req):
        self.write((json.dumps(req) + "\n").encode())

    def recv(self, timeout):
        """The next non-event message, or None after timeout seconds"""
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if line.strip():
                    msg = json.loads(line)
                    if "event" not in msg:
                        return msg
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.rfd], [], [], left)[0]:
                return None
            data = os.read(self.rfd, 65536)
            if not data:
                return None
            self.buf += data

    def close(self):
        self.p.kill()
        self.p.wait()
        if self.sock:
            self.sock.close()


def blocking_add(fifo, ident):
    """An in-band blockdev-add that blocks in open() until a writer comes
    (read-only: a FIFO opened O_RDWR would not block)"""
    return {"execute": "blockdev-add", "id": ident,
            "arguments": {"driver": "file", "node-name": ident,
                          "filename": fifo, "read-only": True}}


def unblock(fifo):
    """Opens the FIFO for writing (in a thread: that open waits for the
    reader) and closes it"""
    t = threading.Thread(target=lambda: os.close(os.open(fifo, os.O_WRONLY)),
                         daemon=True)
    t.start()
    return t


def overtaking(binary, transport, oob):
    """What one binary answers, as a list of (step, reply) with the FIFO's
    path replaced; None for a step that got nothing"""
    tmp = tempfile.mkdtemp(prefix="qmp-oob-")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    s = Session(binary, tmp, transport)
    out = []

    def got(step, msg):
        text = json.dumps(msg).replace(fifo, "FIFO")
        out.append((step, json.loads(text) if msg is not None else None))

    try:
        caps = {"enable": ["oob"]} if oob else {}
        s.send({"execute": "qmp_capabilities", "arguments": caps})
        got("capabilities", s.recv(10))
        s.send(blocking_add(fifo, "ib-blocks-1"))
        s.send({"execute": "query-name", "id": "ib-quick-1"})
        s.send({"exec-oob": "migrate-pause", "id": "oob-1"})
        if oob:
            got("while blocked: first", s.recv(10))
        # nothing (else) may come while the main thread blocks
        got("while blocked: nothing", s.recv(1))
        t = unblock(fifo)
        for i in range(2 if oob else 3):
            got(f"after unblocking: {i}", s.recv(10))
        t.join(5)
        # a malformed in-band request fails in band, after the blocked one
        s.send(blocking_add(fifo, "blocks-2"))
        s.send({"id": "err-2"})
        got("malformed while blocked: nothing", s.recv(1))
        t = unblock(fifo)
        got("malformed: first", s.recv(10))
        got("malformed: second", s.recv(10))
        got("in the end: nothing", s.recv(0.5))
        t.join(5)
    finally:
        s.close()
        os.unlink(fifo)
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    return out


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
    for transport in ("unix", "stdio"):
        for oob in (True, False):
            name = f"overtake/{transport}/{'oob' if oob else 'no-oob'}"
            ours = overtaking(BINARY, transport, oob)
            theirs = overtaking(ORACLE, transport, oob)
            report(f"{name}/steps", len(ours) == len(theirs),
                   f"ours {ours}, QEMU 7.2 {theirs}")
            for (step, a), (_, b) in zip(ours, theirs):
                report(f"{name}/{step}", a == b,
                       f"ours {a}, QEMU 7.2 {b}")
            if oob:
                first = dict(ours).get("while blocked: first") or {}
                report(f"{name}/oob-reply-overtakes",
                       first.get("id") == "oob-1",
                       f"first reply while blocked: {first}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
