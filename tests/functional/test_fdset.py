#!/usr/bin/env python3
"""File descriptors passed in, compared with Debian's QEMU 7.2 (issue 14).

Both binaries get the same fds and the same steps:

- -add-fd (the fds inherited, as libvirt passes them), then QMP add-fd,
  remove-fd, query-fdsets, getfd and closefd with fds sent over the QMP
  socket (SCM_RIGHTS): every reply must be equal, fd numbers aside (each
  process numbers its fds itself; they are compared by order of first
  appearance);
- remove-fd while stopped (7.2 closes nothing then) and while running,
  and the sets left after the last QMP client leaves a running VM;
- a chardev file and a chardev logfile= written through /dev/fdset/N: the
  guest's serial output must land in the files passed in;
- -pidfile through an fd set (this tree only: QEMU 7.2 loops for ever
  there) and the errors of /dev/fdset/N names (no such set, no fd of the
  access mode, not a number) for chardev file, logfile and pidfile.

Malformed -add-fd options are rows of functional/bad-input.  Skips (77)
without QEMU 7.2; the guest part skips without /dev/kvm.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.environ.get("GUEST_DIR", os.path.join(
    os.path.dirname(os.path.abspath(BINARY)), "tests", "guest"))
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - fdset/{name}" +
          ("" if ok else f" # {detail}"))


class Files:
    """Three files open read-only, write-only and read-write, at fds 10,
    11 and 12 of this process (inherited by the emulator)."""

    def __init__(self, d):
        self.paths = [os.path.join(d, n) for n in ("ro", "wo", "rw")]
        for p in self.paths:
            open(p, "w").close()
        modes = (os.O_RDONLY, os.O_WRONLY, os.O_RDWR)
        self.fds = []
        for n, (p, m) in enumerate(zip(self.paths, modes)):
            fd = os.open(p, m)
            os.dup2(fd, 10 + n, inheritable=True)
            os.close(fd)
            self.fds.append(10 + n)

    def close(self):
        for fd in self.fds:
            os.close(fd)


class Numbering:
    """Replaces fd numbers in replies by their order of appearance."""

    def __init__(self):
        self.names = {}

    def fd(self, n):
        return self.names.setdefault(n, f"fd#{len(self.names)}")

    def norm(self, value):
        if isinstance(value, dict):
            return {k: (self.fd(v) if k == "fd" and isinstance(v, int)
                        else self.norm(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [self.norm(v) for v in value]
        return value


def qmp_steps(binary, d):
    """The transcript of the QMP steps (normalised replies)."""
    files = Files(d)
    ro, wo, rw = files.fds
    num = Numbering()
    out = []
    args = ["-machine", "none", "-S",
            "-add-fd", f"fd={ro},set=2,opaque=ro",
            "-add-fd", f"fd={wo},set=2",
            "-add-fd", f"fd={rw},set=5"]
    try:
        with Machine(binary, args, pass_fds=files.fds) as vm:
            def step(name, a=None, fds=None):
                reply = vm.cmd_fds(name, a, fds) if fds else \
                    vm.cmd_raw(name, a)
                reply = reply.get("return", reply.get("error"))
                out.append((name, num.norm(a), num.norm(reply)))
                return reply

            def fd_of(set_id, index):
                for s in step("query-fdsets"):
                    if s["fdset-id"] == set_id:
                        return s["fds"][index]["fd"]
                return -1

            extra = os.open(files.paths[2], os.O_RDWR)
            wfd = os.open(files.paths[1], os.O_WRONLY)
            step("query-fdsets")
            step("add-fd", {}, [extra])
            step("add-fd", {"fdset-id": 2, "opaque": "hello"}, [extra])
            step("add-fd", {"fdset-id": 2})
            step("add-fd", {"fdset-id": -1}, [extra])
            step("add-fd", {"fdset-id": 7}, [extra, wfd])
            step("add-fd", {"fdset-id": 1}, [extra])
            step("add-fd", {}, [extra])
            step("query-fdsets")
            step("remove-fd", {"fdset-id": 2, "fd": 999})
            step("remove-fd", {"fdset-id": 77})
            step("remove-fd", {"fdset-id": 77, "fd": 999})
            # stopped: marked, nothing closed (QEMU 7.2)
            step("remove-fd", {"fdset-id": 5})
            step("remove-fd", {"fdset-id": 2, "fd": fd_of(2, 1)})
            step("query-fdsets")
            step("cont")
            step("query-fdsets")
            # running: closed at once
            step("remove-fd", {"fdset-id": 2, "fd": fd_of(2, 0)})
            step("remove-fd", {"fdset-id": 0})
            step("query-fdsets")
            step("getfd", {"fdname": "foo"})
            step("getfd", {"fdname": "foo"}, [wfd])
            step("getfd", {"fdname": "foo"}, [extra])
            step("getfd", {"fdname": "1bar"}, [wfd])
            step("closefd", {"fdname": "nope"})
            step("closefd", {"fdname": "foo"})
            step("closefd", {"fdname": "foo"})
            # an fd sent with a command that takes none waits for the next
            step("query-status", None, [wfd])
            step("getfd", {"fdname": "later"})
            step("closefd", {"fdname": "later"})
            os.close(extra)
            os.close(wfd)
            # the last client leaves a running VM: sets without dups go
            vm.sock.close()
            vm.sock = None
            vm.buf = b""
            out.append(("reconnect", None, None))
        return out
    finally:
        files.close()


def after_reconnect(binary, d):
    """query-fdsets of a running VM whose only client left and came back."""
    files = Files(d)
    num = Numbering()
    args = ["-machine", "none", "-add-fd", f"fd={files.fds[2]},set=3",
            "-add-fd", f"fd={files.fds[1]},set=4",
            "-chardev", "file,id=c,path=/dev/fdset/4"]
    try:
        vm = Machine(binary, args, pass_fds=files.fds, server=True)
        with vm:
            first = num.norm(vm.cmd("query-fdsets"))
            vm.sock.close()
            vm.sock, vm.buf = None, b""
            # time for the monitor to see the client go (a loaded host
            # needs more than a blink; the answer depends on it)
            time.sleep(2)
            vm._connect(None)
            vm.greeting = vm._read_message()
            vm.cmd("qmp_capabilities")
            return first, num.norm(vm.cmd("query-fdsets"))
    finally:
        files.close()


def start_error(binary, args, fds):
    """The last stderr line of a start-up that should fail, or a note."""
    try:
        p = subprocess.run([binary, "-machine", "none", "-S", "-display",
                            "none", "-nodefaults"] + args, pass_fds=fds,
                           stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        return "started"
    lines = p.stderr.decode(errors="replace").strip().splitlines()
    return (p.returncode, lines[-1] if lines else "")


ERRORS = [
    ("chardev-file/no-set", ["-chardev", "file,id=c,path=/dev/fdset/3"]),
    ("chardev-file/not-a-number",
     ["-chardev", "file,id=c,path=/dev/fdset/abc"]),
    ("chardev-file/empty", ["-chardev", "file,id=c,path=/dev/fdset/"]),
    ("logfile/not-a-number", ["-chardev", "null,id=c,logfile=/dev/fdset/x"]),
    ("chardev-file/read-only-fd",
     ["-add-fd", "fd=10,set=2", "-chardev", "file,id=c,path=/dev/fdset/2"]),
    ("chardev-file/read-write-fd",
     ["-add-fd", "fd=12,set=2", "-chardev", "file,id=c,path=/dev/fdset/2"]),
    ("logfile/read-only-fd", ["-add-fd", "fd=10,set=2", "-chardev",
                              "null,id=c,logfile=/dev/fdset/2"]),
    ("logfile/no-set", ["-chardev", "null,id=c,logfile=/dev/fdset/4"]),
    ("logfile/not-creatable", ["-chardev", "null,id=c,logfile=/nonexistent"
                               "-dir/x"]),
    ("pidfile/no-set", ["-pidfile", "/dev/fdset/4"]),
    ("pidfile/read-write-fd", ["-add-fd", "fd=12,set=2", "-pidfile",
                               "/dev/fdset/2"]),
    ("log-D/fdset-not-special", ["-add-fd", "fd=11,set=2", "-D",
                                 "/dev/fdset/2"]),
]


def errors(d):
    for name, args in ERRORS:
        files = Files(d)
        try:
            ours = start_error(BINARY, args, files.fds)
            theirs = start_error(ORACLE, args, files.fds)
        finally:
            files.close()
        report("error/" + name, ours == theirs and ours != "started",
               f"ours={ours} qemu72={theirs}")


def pidfile(d):
    files = Files(d)
    try:
        with Machine(BINARY, ["-machine", "none", "-S", "-add-fd",
                              f"fd={files.fds[1]},set=2", "-pidfile",
                              "/dev/fdset/2"], pass_fds=files.fds) as vm:
            with open(files.paths[1]) as f:
                text = f.read()
            report("pidfile", text == f"{vm.proc.pid}\n", repr(text))
    finally:
        files.close()


def serial_output(binary, d):
    """(serial file, log file) text of the default guest with its serial
    on a chardev file and a logfile, both through fd sets."""
    files = Files(d)
    log = os.path.join(d, "log")
    open(log, "w").close()
    logfd = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(logfd, 13, inheritable=True)
    os.close(logfd)
    args = ["-machine", "pc-i440fx-7.2,accel=kvm", "-m", "128",
            "-add-fd", "fd=11,set=1", "-add-fd", "fd=13,set=2,opaque=log",
            "-chardev", "file,id=s0,path=/dev/fdset/1,"
                        "logfile=/dev/fdset/2,logappend=on",
            "-serial", "chardev:s0",
            "-kernel", os.path.join(GUEST, "default.elf")]
    try:
        with Machine(binary, args, pass_fds=files.fds + [13]) as vm:
            vm.wait_event("SHUTDOWN", timeout=120)
    finally:
        files.close()
        os.close(13)
    with open(files.paths[1], errors="replace") as f:
        serial = f.read()
    with open(log, errors="replace") as f:
        logged = f.read()
    return serial, logged


def guest_part(d):
    if not kvm_usable() or not os.path.exists(os.path.join(GUEST,
                                                           "default.elf")):
        report("serial-through-fdset # SKIP /dev/kvm or the test guest "
               "missing", True)
        return
    ours = serial_output(BINARY, d)
    theirs = serial_output(ORACLE, d)
    # the banner and CPU lines name the emulator; the markers do not
    marks = [re.search(r"GUEST-DONE", t) is not None for t in ours + theirs]
    report("serial-through-fdset", all(marks) and ours[0] == ours[1] and
           theirs[0] == theirs[1], f"ours={[t[-80:] for t in ours]} "
           f"qemu72={[t[-80:] for t in theirs]}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 missing")
        return 77
    with tempfile.TemporaryDirectory() as d:
        ours, theirs = qmp_steps(BINARY, d), qmp_steps(ORACLE, d)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            report(f"qmp/{i:02d}-{a[0]}", a == b, f"ours={a} qemu72={b}")
        report("qmp/steps", len(ours) == len(theirs),
               f"ours={len(ours)} qemu72={len(theirs)}")
        a, b = after_reconnect(BINARY, d), after_reconnect(ORACLE, d)
        report("last-client-leaves-running-vm", a == b, f"ours={a} "
               f"qemu72={b}")
        errors(d)
        pidfile(d)
        guest_part(d)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
