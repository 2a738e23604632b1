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
