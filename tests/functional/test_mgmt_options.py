#!/usr/bin/env python3
"""Options a management layer passes (libvirt's probe and guest command
lines): -daemonize with -pidfile, -chardev pty and query-chardev, -object
(secret, memory-backend-ram with memory-backend=), -sandbox as a seccomp
filter, and the probe-only QMP commands."""

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - mgmt/{name}" +
          ("" if ok else f" # {str(detail)[:800]}"), flush=True)
    return ok


class Qmp:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        # The socket file exists from bind(); connect() is refused until
        # listen()
        end = time.time() + 10
        while True:
            try:
                self.s.connect(path)
                break
            except ConnectionRefusedError:
                if time.time() > end:
                    raise
                time.sleep(0.02)
        self.f = self.s.makefile("rwb")
        self.greeting = self.f.readline()
        self.cmd("qmp_capabilities")

    def cmd(self, name, args=None):
        msg = {"execute": name}
        if args is not None:
            msg["arguments"] = args
        self.f.write(json.dumps(msg).encode() + b"\r\n")
        self.f.flush()
        while True:
            line = self.f.readline()
            r = json.loads(line)
            if "return" in r or "error" in r:
                return r

    def close(self):
        self.s.close()


def run(args, timeout=10):
    return subprocess.run([BINARY] + args, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def main():
    tmp = tempfile.mkdtemp(prefix="mgmt-")
    mon = os.path.join(tmp, "qmp.monitor")
    pidf = os.path.join(tmp, "qmp.pid")

    # libvirt's probe command line
    t = time.time()
    r = run(["-S", "-no-user-config", "-nodefaults", "-nographic",
             "-machine", "none,accel=kvm:tcg", "-qmp",
             f"unix:{mon},server=on,wait=off", "-pidfile", pidf,
             "-daemonize"])
    check("daemonize/parent-exits-0", r.returncode == 0, r.stderr)
    check("daemonize/socket-and-pidfile-before-exit",
          os.path.exists(mon) and os.path.exists(pidf))
    pid = int(open(pidf).read().strip())
    fds = {os.readlink(f"/proc/{pid}/fd/{n}") for n in "012"}
    check("daemonize/stdio-detached", fds == {"/dev/null"}, fds)
    check("daemonize/new-session", os.getsid(pid) == pid)
    q = Qmp(mon)
    check("qmp/crlf", q.greeting.endswith(b"\r\n"))
    r2 = run(["-machine", "none", "-display", "none", "-pidfile", pidf])
    check("pidfile/locked", r2.returncode == 1 and
          "Cannot lock pid file" in r2.stderr, r2.stderr)
    # An array for what libvirt always asks about (libvirt 9.0 crashes on an
    # error for memory-backend-file); QEMU's error for an unknown type
    for typename in ("memory-backend-file", "none-machine"):
        r = q.cmd("qom-list-properties", {"typename": typename})
        check(f"qom-list-properties/{typename}",
              isinstance(r.get("return"), list), r)
    r = q.cmd("qom-list-properties", {"typename": "no-such-type"})
    check("qom-list-properties/no-such-type",
          r.get("error") == {"class": "DeviceNotFound",
                             "desc": "Class 'no-such-type' not found"}, r)
    r = q.cmd("device-list-properties", {"typename": "virtio-blk-pci"})
    check("device-list-properties/not-found",
          r.get("error", {}).get("class") == "DeviceNotFound", r)
    r = q.cmd("device-list-properties", {"typename": "isa-serial"})
    check("device-list-properties/isa-serial",
          any(p["name"] == "chardev" for p in r.get("return", [])), r)
    r = q.cmd("query-qmp-schema")
    names = {e["name"]: e for e in r.get("return", [])}
    check("schema/json-cli-hotplug", "json-cli-hotplug" in
          names.get("device_add", {}).get("features", []), r)
    types = set(t["name"] for t in q.cmd("qom-list-types")["return"])
    check("qom-list-types/devices", {"isa-serial", "memory-backend-ram",
                                     "secret"} <= types)
    # libvirt's USB controllers are (docs/devices.md, "USB")
    check("qom-list-types/usb-controllers",
          {"qemu-xhci", "piix3-usb-uhci", "piix4-usb-uhci"} <= types, types)
    # libvirt's PCI controllers are (docs/devices.md, "Bridges")
    check("qom-list-types/bridges",
          {"pcie-root-port", "pci-bridge", "i82801b11-bridge",
           "pcie-pci-bridge"} <= types, types)
    r = q.cmd("migrate-set-capabilities",
              {"capabilities": [{"capability": "events", "state": True}]})
    caps = q.cmd("query-migrate-capabilities")["return"]
    check("migrate-capabilities/events", "return" in r and
          {"capability": "events", "state": True} in caps, caps)
    opts = q.cmd("query-command-line-options")["return"]
    has_sandbox = any(o["option"] == "sandbox" for o in opts)
    q.cmd("quit")
    q.close()
    end = time.time() + 5
    while os.path.exists(pidf) and time.time() < end:
        time.sleep(0.05)
    check("pidfile/removed-at-exit", not os.path.exists(pidf))

    # a guest command line as libvirt writes it
    key = os.path.join(tmp, "master-key.aes")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    mon2 = os.path.join(tmp, "monitor.sock")
    argv = ["-name", "guest=t,debug-threads=on", "-S", "-object",
            json.dumps({"qom-type": "secret", "id": "masterKey0",
                        "format": "raw", "file": key}),
            "-machine", "pc-q35-8.0,usb=off,dump-guest-core=off,"
            "memory-backend=pc.ram", "-accel", "kvm", "-cpu", "qemu64",
            "-m", "128", "-object",
            '{"qom-type":"memory-backend-ram","id":"pc.ram",'
            '"size":134217728}', "-overcommit", "mem-lock=off",
            "-smp", "2,sockets=2,cores=1,threads=1", "-display", "none",
            "-no-user-config", "-nodefaults", "-chardev",
            f"socket,id=charmonitor,path={mon2},server=on,wait=off",
            "-mon", "chardev=charmonitor,id=monitor,mode=control",
            "-rtc", "base=utc", "-no-shutdown", "-boot", "strict=on",
            "-chardev", "pty,id=charserial0", "-device",
            '{"driver":"isa-serial","chardev":"charserial0","id":"serial0",'
            '"index":0}', "-audiodev", '{"id":"audio1","driver":"none"}',
            "-msg", "timestamp=on"]
    if has_sandbox:
        argv += ["-sandbox", "on,obsolete=deny,elevateprivileges=deny,"
                 "spawn=deny,resourcecontrol=deny"]
    p = subprocess.Popen([BINARY] + argv, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    try:
        end = time.time() + 10
        while not os.path.exists(mon2) and p.poll() is None and \
                time.time() < end:
            time.sleep(0.05)
        if not check("guest-argv/starts", p.poll() is None,
                     p.stderr.read() if p.poll() is not None else ""):
            return finish()
        q = Qmp(mon2)
        chardevs = q.cmd("query-chardev")["return"]
        ser = [c for c in chardevs if c["label"] == "charserial0"]
        check("pty/query-chardev", ser and
              re.match(r"pty:/dev/pts/\d+$", ser[0]["filename"]), chardevs)
        periph = q.cmd("qom-list", {"path": "/machine/peripheral"})
        check("qom-list/peripheral", any(
            c["name"] == "serial0" for c in periph.get("return", [])), periph)
        if has_sandbox:
            status = open(f"/proc/{p.pid}/status").read()
            check("sandbox/seccomp-filter",
                  re.search(r"^Seccomp:\s+2$", status, re.M), status[-300:])
        q.cmd("quit")
        q.close()
        p.wait(timeout=10)
        err = p.stderr.read()
        check("pty/announced", re.search(
            r"char device redirected to /dev/pts/\d+ \(label charserial0\)",
            err), err)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()

    # the backend's size must be -m
    r = run(["-machine", "pc-q35-8.0,memory-backend=pc.ram", "-m", "256",
             "-object", "memory-backend-ram,id=pc.ram,size=128M",
             "-display", "none", "-nodefaults", "-S", "-accel", "qtest"])
    check("memory-backend/size-mismatch", r.returncode == 1 and
          "does not match the size of the memory backend" in r.stderr,
          r.stderr)
    r = run(["-machine", "none", "-display", "none", "-object",
             "secret,id=s0,file=/nonexistent"])
    check("secret/missing-file", r.returncode == 1 and
          "Unable to read" in r.stderr, r.stderr)
    return finish()


def finish():
    print(f"1..{len(results)}")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
