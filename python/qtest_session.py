"""Drive an emulator over the qtest protocol on stdio (no guest, no KVM).

-qtest without -accel means the qtest accelerator (Debian's QEMU 7.2
refuses "-accel qtest" spelled out, but takes this form), so the same
session runs against this tree and against QEMU 7.2.
"""

import subprocess


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
