#!/usr/bin/env python3
"""-device pvpanic compared with Debian's QEMU 7.2, driven over qtest.

Both binaries run the same command line with -qtest on a socket (no guest
and no KVM needed) and a QMP monitor: the port reads the supported events,
a write of 1 (panicked) gives QEMU's events and run state with and
without -no-shutdown, a write of 2 (crash kernel loaded) its event; bad
properties give its errors.  Then, under KVM, the default test guest
panics through the port (exit=panic) under both binaries, found there by
scanning nothing but its own command line, and the QMP events and exit
status must be the same.  Skips (77) without QEMU 7.2.
"""

import os
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable, run  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - pvpanic/{name}" +
          ("" if ok else f" # {detail}"))


def session(binary, device, extra, writes, port=0x505):
    """(port value, [(event, data)], final status or None if it ended,
    exit status)"""
    d = tempfile.mkdtemp(prefix="pvpanic-")
    path = os.path.join(d, "qtest.sock")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen(1)
    listener.settimeout(30)
    vm = Machine(binary, ["-machine", "pc-q35-7.2", "-device", device,
                          "-qtest", "unix:" + path] + extra)
    try:
        vm.launch()
        conn, _ = listener.accept()
        f = conn.makefile("rw")

        def qtest(cmd):
            f.write(cmd + "\n")
            f.flush()
            return f.readline().strip()

        value = qtest(f"inb {port:#x}")
        for w in writes:
            qtest(f"outb {port:#x} {w:#x}")
        events, status = [], None
        try:
            status = vm.cmd("query-status")["status"]
        except (OSError, EOFError, RuntimeError):
            pass
        try:
            # What arrived, through the end of the connection if it ended
            vm.timeout = 1
            while True:
                msg = vm._read_message()
                if "event" in msg:
                    vm.events.append(msg)
        except (OSError, EOFError, ValueError):
            pass
        events = [(e["event"], e.get("data")) for e in vm.events]
        code = vm.proc.wait(timeout=10) if status is None else None
        conn.close()
        return value, events, status, code
    finally:
        vm.shutdown()
        listener.close()
        os.unlink(path)
        os.rmdir(d)


GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "default.elf")


def guest_session(binary, extra):
    """A real guest panics: ([(event, data)] in order, the run state if
    the process stayed, its exit status if it ended)"""
    vm = Machine(binary, ["-machine", "pc-q35-7.2", "-accel", "kvm",
                          "-device", "pvpanic", "-kernel", GUEST,
                          "-append", "exit=panic", "-S"] + extra)
    try:
        vm.launch()
        vm.cmd("cont")
        events, status, code = [], None, None
        # 7.2 boots the guest through SeaBIOS: over a minute on a loaded
        # PVM host
        vm.timeout = 240
        try:
            while True:
                msg = vm._read_message()
                if "event" not in msg or msg["event"] == "RESUME":
                    continue
                events.append((msg["event"], msg.get("data")))
                if "-no-shutdown" in extra and msg["event"] == "STOP":
                    status = vm.cmd("query-status")["status"]
                    break
        except (OSError, EOFError, ValueError):
            code = vm.proc.wait(timeout=10)
        return events, status, code
    finally:
        vm.shutdown()


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    cases = [
        ("default/panicked", "pvpanic", [], [1], 0x505),
        ("no-shutdown/panicked", "pvpanic", ["-no-shutdown"], [1], 0x505),
        ("crash-loaded", "pvpanic", [], [2], 0x505),
        ("events=1/read", "pvpanic,events=1", [], [], 0x505),
        ("ioport=0x700", "pvpanic,ioport=0x700", [], [1], 0x700),
    ]
    for name, device, extra, writes, port in cases:
        a = session(BINARY, device, extra, writes, port)
        b = session(ORACLE, device, extra, writes, port)
        report(name, a == b and a[0].startswith("OK"),
               f"ours={a} qemu72={b}")
    for device in ("pvpanic,ioport=0x10000", "pvpanic,events=256",
                   "pvpanic,foo=1"):
        args = ["-machine", "pc-q35-7.2", "-display", "none", "-nodefaults",
                "-S", "-qtest", "null", "-device", device]
        a = run(BINARY, args)
        b = run(ORACLE, args)
        report(f"error/{device}", a[0] == b[0] == 1 and
               a[2].strip().splitlines()[-1] ==
               b[2].strip().splitlines()[-1], f"ours={a} qemu72={b}")
    if kvm_usable() and os.path.exists(GUEST):
        for extra in ([], ["-no-shutdown"]):
            a = guest_session(BINARY, extra)
            b = guest_session(ORACLE, extra)
            report(f"guest-panics{''.join(extra) or '/default'}",
                   a == b and a[0][:1] and
                   a[0][0][0] == "GUEST_PANICKED",
                   f"ours={a} qemu72={b}")
    else:
        report("guest-panics # SKIP /dev/kvm or the test guest missing", True)
    args = ["-machine", "pc-q35-7.2", "-display", "none", "-nodefaults",
            "-S", "-qtest", "null", "-device", "pvpanic", "-device",
            "pvpanic"]
    a, b = run(BINARY, args), run(ORACLE, args)
    report("error/two-devices", a[0] == b[0] == 1 and
           a[2].strip().splitlines()[-1] == b[2].strip().splitlines()[-1],
           f"ours={a} qemu72={b}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
