"""Drive an emulator over the qtest protocol on stdio (no guest, no KVM).

-qtest without -accel means the qtest accelerator (Debian's QEMU 7.2
refuses "-accel qtest" spelled out, but takes this form), so the same
session runs against this tree and against QEMU 7.2.
"""

import os
import socket
import subprocess
import tempfile

from qmp_machine import Machine

# QEMU 7.2, the oracle: Debian's, and an upstream 7.2.0 build with the
# qtest accelerator (Debian's has none, so no clock_step; docs/testing.md)
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
ORACLE_QTEST = os.environ.get(
    "QEMU_72_QTEST",
    os.path.join(os.environ.get("UPSTREAM_QTEST_DIR",
                                "/var/cache/qemu-kvm-pv/upstream-qtest"),
                 "ref-build", "qemu-system-x86_64"))


def qtest_session(binary, args, commands, env=None, irqs=False, running=False):
    """Answers of a -qtest stdio session, one per command ("EOF: ..."
    with the end of stderr if the emulator went away).  With irqs, each
    answer is prefixed by the "IRQ raise/lower N" lines that came before
    it, joined with " | ".  The VM is stopped (-S) unless running: the
    VM clock's timers only run while it runs, in QEMU 7.2 as here."""
    p = subprocess.Popen(
        [binary, "-display", "none", "-nodefaults"] +
        ([] if running else ["-S"]) + ["-qtest", "stdio"] + list(args),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=env)
    answers = []
    try:
        for c in commands:
            p.stdin.write(c + "\n")
            p.stdin.flush()
            line = p.stdout.readline()
            seen = []
            while line.startswith("IRQ"):
                seen.append(line.strip())
                line = p.stdout.readline()
            if not line:
                answers.append("EOF: " + p.stderr.read().strip()[-200:])
                break
            answers.append(" | ".join((seen if irqs else []) +
                                      [line.strip()]))
    finally:
        p.kill()
        p.wait()
        for f in (p.stdin, p.stdout, p.stderr):
            f.close()
    return answers


class QTestMachine:
    """qtest over a socket of ours (the emulator connects) plus QMP
    (.machine, a qmp_machine.Machine): for tests that need both.  With
    irqs, a qtest answer is prefixed by the "IRQ raise/lower N" lines
    that came before it, joined with " | "; without, they are dropped."""

    def __init__(self, binary, args, irqs=False):
        self.irqs = irqs
        self.dir = tempfile.mkdtemp(prefix="qtest-")
        path = os.path.join(self.dir, "qtest.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(1)
        self.machine = Machine(binary, ["-S", "-qtest", f"unix:{path}",
                                        "-qtest-log", "/dev/null"] +
                               list(args))
        self.sock = None

    def __enter__(self):
        self.machine.__enter__()
        self.listener.settimeout(30)
        self.sock, _ = self.listener.accept()
        self.file = self.sock.makefile("rw")
        return self

    def __exit__(self, *exc):
        if self.sock:
            self.file.close()
            self.sock.close()
        self.listener.close()
        os.unlink(os.path.join(self.dir, "qtest.sock"))
        os.rmdir(self.dir)
        self.machine.__exit__(*exc)

    def qtest(self, line):
        self.file.write(line + "\n")
        self.file.flush()
        seen = []
        while True:
            answer = self.file.readline()
            if not answer:
                return "EOF"
            if not answer.startswith("IRQ"):
                return " | ".join((seen if self.irqs else []) +
                                  [answer.strip()])
            seen.append(answer.strip())

    def hmp(self, line):
        return self.machine.cmd("human-monitor-command",
                                {"command-line": line})


def pci_cfg_write(devfn, off, size, val, bus=0):
    """qtest steps writing size bytes of val at config offset off of
    bus:devfn through 0xCF8/0xCFC"""
    addr = 0x80000000 | bus << 16 | devfn << 8 | (off & 0xfc)
    return [f"outl 0xcf8 {addr:#x}",
            f"out{ {1: 'b', 2: 'w', 4: 'l'}[size]} {0xcfc + (off & 3):#x} "
            f"{val:#x}"]


def pci_cfg_read(devfn, off, bus=0):
    """qtest steps reading the dword at config offset off of bus:devfn"""
    addr = 0x80000000 | bus << 16 | devfn << 8 | (off & 0xfc)
    return [f"outl 0xcf8 {addr:#x}", "inl 0xcfc"]


def report_comparison(report, name, diff):
    """A compare_with_qemu72() result as one TAP line through report(name,
    ok, detail): a skip where the clock moves and no 7.2 with the qtest
    accelerator exists, else ok when nothing differs (the first three
    differences as the detail)"""
    if diff is None:
        report(f"{name} # SKIP no QEMU 7.2 with the qtest accelerator "
               "(QEMU_72_QTEST)", True)
    else:
        report(name, not diff, "; ".join(diff[:3]))


def qemu72_available(binary=None):
    """Whether binary (ORACLE by default) runs and says it is QEMU 7.2"""
    try:
        version = subprocess.run([binary or ORACLE, "-version"],
                                 capture_output=True, text=True).stdout
    except OSError:
        return False
    return "version 7.2" in version


def compare_with_qemu72(binary, args, steps, irqs=False):
    """The differences between binary's and QEMU 7.2's answers to steps
    (qtest_session each): a list of "STEP: ours A qemu72 B" lines (and one
    for a different count), or None where the steps move the clock and
    there is no QEMU 7.2 with the qtest accelerator.  Steps with
    clock_step run the VM (its clock's timers only run while it does)
    against ORACLE_QTEST; the others stop it (-S) and go to ORACLE."""
    running = any(c.startswith("clock_step") for c in steps)
    oracle, extra = ORACLE, []
    if running:
        if not os.access(ORACLE_QTEST, os.X_OK):
            return None
        oracle, extra = ORACLE_QTEST, ["-accel", "qtest"]
    mine = qtest_session(binary, args, steps, irqs=irqs, running=running)
    theirs = qtest_session(oracle, list(args) + extra, steps, irqs=irqs,
                           running=running)
    diff = [f"{steps[i]}: ours {a!r} qemu72 {b!r}"
            for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]
    if len(mine) != len(theirs):
        diff.append(f"{len(mine)} answers, QEMU 7.2 {len(theirs)}")
    return diff
