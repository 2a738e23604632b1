#!/usr/bin/env python3
"""The i8042 with its PS/2 keyboard and mouse compared with Debian's QEMU
7.2 (docs/devices.md, "The i8042 and its PS/2 keyboard and mouse").

Both binaries run the same machine under qtest with the I/O APIC's inputs
intercepted and answer the same accesses to ports 0x60/0x64, each answer
with the IRQ 1/12 changes before it:

  * every controller command 0x00-0xff from reset (each in its own
    session: some reset the machine), then the status and data ports;
  * the keyboard's commands: reset, echo, identify (with and without
    translation), LEDs, scancode sets (get, set 1-3, bad), typematic,
    enable/disable/defaults, make/break, unknown bytes, and replies left
    unread when the next command comes;
  * the mouse's through 0xd4: reset, defaults, stream/remote, poll, wrap
    mode, scaling, resolution, sample rate (with the IntelliMouse and
    Explorer knocks), status request, device id, unknown bytes, a full
    queue;
  * the controller's own buffer (0x20, 0xd2, 0xd3, 0xd0/0xd1), interface
    disable/enable with data waiting, the mode's interrupt bits;
  * seeded random sequences of port accesses;
  * kbd-throttle's 1 ms hold-back (clock_step, against 7.2's build with
    the qtest accelerator) and its warning without extended-state.

Machines: pc-q35-7.2, pc-i440fx-7.2, pc-i440fx-6.0 (extended-state off
from hw_compat), -global i8042.kbd-irq/mouse-irq; the info qtree blocks
of i8042, ps2-kbd and ps2-mouse and their QOM properties.

Skips (77) where QEMU 7.2 is missing.
"""

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine  # noqa: E402
from qtest_session import (ORACLE, compare_with_qemu72,  # noqa: E402
                           qemu72_available, qtest_session)

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")

MACHINES = [
    ("pc-q35-7.2", []),
    ("pc-i440fx-7.2", []),
    ("pc-i440fx-6.0", []),
    ("pc-q35-7.2", ["-global", "i8042.kbd-irq=5",
                    "-global", "i8042.mouse-irq=7"]),
    ("pc-q35-7.2", ["-global", "i8042.extended-state=off"]),
]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - ps2/{name}" +
          ("" if ok else f" # {detail}"))


def st():
    return "inb 0x64"


def rd(n=1):
    """n reads of the buffer, each with the status before it"""
    out = []
    for _ in range(n):
        out += ["inb 0x64", "inb 0x60"]
    return out + ["inb 0x64"]


def kbd(*data, reads=0):
    out = []
    for b in data:
        out.append(f"outb 0x60 {b:#x}")
        out += rd(reads)
    return out


def ctl(c, *data):
    return [f"outb 0x64 {c:#x}"] + [f"outb 0x60 {b:#x}" for b in data]


def aux(*data, reads=0):
    out = []
    for b in data:
        out += ctl(0xd4, b)
        out += rd(reads)
    return out


KBD_SEQUENCES = {
    "reset": kbd(0xff, reads=3),
    "echo-identify": kbd(0xee, reads=2) + kbd(0xf2, reads=4),
    "identify-translated": ctl(0x60, 0x47) + kbd(0xf2, reads=4) +
    ctl(0x60, 0x07) + kbd(0xf2, reads=4),
    "leds": kbd(0xed, reads=1) + kbd(0x07, reads=1) + kbd(0xed, 0x00,
                                                         reads=1),
    "scancode-sets": kbd(0xf0, 0x00, reads=2) + kbd(0xf0, 0x01, reads=1) +
    kbd(0xf0, 0x00, reads=2) + kbd(0xf0, 0x03, 0xf0, 0x00, reads=2) +
    kbd(0xf0, 0x04, reads=2) + ctl(0x60, 0x45) + kbd(0xf0, 0, reads=2) +
    kbd(0xf0, 2, 0xf0, 0, reads=2),
    "typematic-modes": kbd(0xf3, 0x20, 0xfa, 0xfc, 0x11, 0xf4, 0xf5, 0xf6,
                           reads=2),
    "unknown": kbd(0x00, 0x05, 0x01, 0xe0, 0xf7, 0xf8, 0xf9, 0xfb, 0xfd,
                   0xfe, 0xaa, reads=2),
    "unread-replies": kbd(0xff) + kbd(0xf2) + rd(4) + kbd(0xff, 0xee) +
    rd(3),
    "disabled-interface": ctl(0xad) + kbd(0xee) + rd(2) + ctl(0xad) +
    ctl(0x20) + rd(2) + ctl(0xae) + rd(1),
    "int-bits": ctl(0x60, 0x00) + kbd(0xf2) + rd(1) + ctl(0x60, 0x01) +
    rd(3) + ctl(0x60, 0x03) + aux(0xf2) + ctl(0x60, 0x01) + rd(1) +
    ctl(0x60, 0x03) + rd(2),
}

MOUSE_SEQUENCES = {
    "reset": aux(0xff, reads=4) + aux(0xe9, reads=5),
    "status-after-power-on": aux(0xe9, reads=5),
    "defaults-stream-remote": aux(0xf6, 0xea, 0xe9, reads=1) + rd(3) +
    aux(0xf0, 0xe9) + rd(5) + aux(0xe7, 0xf4, 0xe9) + rd(7) +
    aux(0xe6, 0xf5, 0xe9) + rd(6),
    "poll": aux(0xeb, reads=5) + aux(0xf3, 200, 0xf3, 100, 0xf3, 80,
                                     0xeb) + rd(10),
    "knocks": aux(0xf3, 200, 0xf3, 100, 0xf3, 80, 0xf2, reads=1) + rd(2) +
    aux(0xf3, 200, 0xf3, 200, 0xf3, 80, 0xf2, reads=1) + rd(2) +
    aux(0xf3, 200, 0xf3, 50, 0xf3, 80, 0xf2, reads=1) + aux(0xeb) +
    rd(6) + aux(0xff) + rd(4) + aux(0xf2) + rd(3),
    "resolution-rate": aux(0xe8, 3, 0xf3, 40, 0xe9) + rd(8) +
    aux(0xe8) + rd(2) + aux(0xe9) + rd(4),
    "wrap": aux(0xee, 0x12, 0xe9, 0xec, 0xe9) + rd(8) +
    aux(0xee, 0xff) + rd(5),
    "unknown": aux(0x00, 0xe5, 0xed, 0xef, 0xf1, 0xf7, 0xfe) + rd(3),
    "full-queue": aux(*([0xe9] * 6)) + rd(18) + aux(*([0xeb] * 7)) +
    rd(20),
    "kbd-and-mouse": kbd(0xf2) + aux(0xf2) + kbd(0xee) + rd(6) +
    aux(0xf2) + kbd(0xf2) + rd(6),
    "disabled-aux": ctl(0xa7) + aux(0xf2) + rd(3) + ctl(0xa7) + ctl(0xa8) +
    rd(2) + ctl(0xa7) + ctl(0xd3, 0x42) + rd(2),
}

CTRL_SEQUENCES = {
    "buffer": ctl(0x20) + rd(2) + ctl(0xd2, 0x5a) + rd(2) +
    ctl(0xd3, 0xa5) + rd(2) + ctl(0xd0) + rd(1) + ctl(0xd2, 1) +
    ctl(0xd3, 2) + ctl(0x20) + rd(3),
    "outport-a20": ctl(0xdd, 0xd0) + rd(1) + ctl(0xdf, 0xd0) + rd(1) +
    ctl(0xd1, 0xdf) + ctl(0xd0) + rd(1) + ctl(0xd1, 0x03) + ctl(0xd0) +
    rd(1),
    "tests": ctl(0xaa) + rd(1) + ctl(0xab) + rd(1) + ctl(0xa9) + rd(1) +
    ctl(0xc0) + rd(1) + ctl(0xa1) + rd(1) + ctl(0xe0) + rd(1),
    "mode-write": ctl(0x60, 0x30) + ctl(0x20) + rd(1) + kbd(0xee) + rd(1) +
    ctl(0x60, 0x00) + ctl(0xd2, 7) + rd(1) + ctl(0x60, 0x01) + rd(1),
    "buffer-and-kbd": kbd(0xff) + ctl(0x20) + rd(4) + ctl(0xd3, 9) +
    kbd(0xee) + rd(3),
}


def irq_steps(steps):
    return ["irq_intercept_in ioapic"] + steps


def i8042_lines(answer, lines):
    """An answer with only the IRQ changes of the i8042's lines (a machine
    reset also moves the PIT's IRQ 0 in 7.2: not this test's business)"""
    parts = answer.split(" | ")
    return " | ".join(p for p in parts if not p.startswith("IRQ") or
                      int(p.split()[-1]) in lines)


def compare(args, steps, lines=(1, 12)):
    """Differences between this tree's and 7.2's answers to steps"""
    mine = qtest_session(BINARY, args, steps, irqs=True)
    theirs = qtest_session(ORACLE, args, steps, irqs=True)
    mine = [i8042_lines(a, lines) for a in mine]
    theirs = [i8042_lines(a, lines) for a in theirs]
    diff = [f"{steps[i]}: ours {a!r} qemu72 {b!r}"
            for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]
    if len(mine) != len(theirs):
        diff.append(f"{len(mine)} answers, QEMU 7.2 {len(theirs)}")
    return diff


def check_sequences(machine, extra):
    tag = machine + ("" if not extra else "+" + ",".join(
        a for a in extra if a != "-global"))
    args = ["-machine", machine] + extra
    for group in (KBD_SEQUENCES, MOUSE_SEQUENCES, CTRL_SEQUENCES):
        for name, steps in group.items():
            lines = (5, 7) if "i8042.kbd-irq=5" in extra else (1, 12)
            diff = compare(args, irq_steps(steps), lines)
            kind = ("kbd" if group is KBD_SEQUENCES else
                    "mouse" if group is MOUSE_SEQUENCES else "ctrl")
            report(f"{tag}/{kind}/{name}", not diff, "; ".join(diff[:3]))


def check_all_commands(machine):
    """Each controller command byte from reset: what it leaves behind.
    0xfe and the even 0xf0-0xfe reset the machine; 7.2 answers the
    reads after it as from reset too."""
    bad = []
    for c in range(256):
        steps = irq_steps(ctl(c) + rd(2) + [st()])
        diff = compare(["-machine", machine], steps)
        if diff:
            bad.append(f"{c:#x}: {diff[0]}")
    report(f"{machine}/every-controller-command", not bad,
           "; ".join(bad[:3]))


# Bytes the random sequences favour: commands with replies and parameters
DATA_BYTES = [0xf2, 0xee, 0xf0, 0xed, 0xe9, 0xeb, 0xf3, 0xe8, 0xff, 0,
              0xee, 0xec, 0xf4, 0xf6]
CTRL_BYTES = [0x20, 0x60, 0xd2, 0xd3, 0xd4, 0xd4, 0xa7, 0xa8, 0xad, 0xae,
              0xd0, 0xaa, 0xc0]


def check_random(machine, seed, n=300):
    rnd = random.Random(seed)
    steps = []
    for _ in range(n):
        r = rnd.random()
        if r < 0.35:
            b = rnd.choice(DATA_BYTES + [rnd.randrange(256)])
            steps.append(f"outb 0x60 {b:#x}")
        elif r < 0.55:
            steps.append(f"outb 0x64 {rnd.choice(CTRL_BYTES):#x}")
        elif r < 0.85:
            steps.append("inb 0x60")
        else:
            steps.append("inb 0x64")
    diff = compare(["-machine", machine], irq_steps(steps))
    report(f"{machine}/random/seed={seed}", not diff, "; ".join(diff[:3]))


def check_throttle():
    """kbd-throttle: a keyboard byte waits 1 ms of virtual time after the
    guest read one (clock_step: 7.2's upstream build with the qtest
    accelerator); without extended-state 7.2 turns it off with a warning"""
    steps = irq_steps(kbd(0xf2) + rd(1) + ["clock_step 500000"] + rd(1) +
                      ["clock_step 600000"] + rd(2) + kbd(0xff) + rd(1) +
                      ["clock_step 2000000"] + rd(2) + ctl(0x20) + rd(1) +
                      aux(0xf2) + rd(3))
    for extra in (["-global", "i8042.kbd-throttle=on"],
                  ["-global", "i8042.kbd-throttle=on",
                   "-global", "i8042.extended-state=off"]):
        tag = ",".join(a for a in extra if a != "-global")
        diff = compare_with_qemu72(BINARY, ["-machine", "pc-q35-7.2"] + extra,
                                   steps, irqs=True)
        if diff is None:
            report(f"throttle/{tag} # SKIP no QEMU 7.2 with the qtest "
                   "accelerator", True)
        else:
            report(f"throttle/{tag}", not diff, "; ".join(diff[:3]))
    warn = []
    for binary in (BINARY, ORACLE):
        p = subprocess.run([binary, "-machine", "pc-q35-7.2", "-nodefaults",
                            "-display", "none", "-S", "-qtest", "null",
                            "-global", "i8042.kbd-throttle=on",
                            "-global", "i8042.extended-state=off",
                            "-qmp", "stdio"],
                           input='{"execute":"qmp_capabilities"}\n'
                                 '{"execute":"quit"}\n',
                           capture_output=True, text=True, timeout=60)
        warn.append([line for line in p.stderr.split("\n")
                     if "kbd-throttle" in line])
    report("throttle/warning", warn[0] == warn[1] and warn[0],
           f"ours {warn[0]} qemu72 {warn[1]}")


def qtree_blocks(binary, machine):
    with Machine(binary, ["-machine", machine, "-qtest", "null",
                          "-S"]) as vm:
        text = vm.cmd("human-monitor-command", {"command-line": "info qtree"})
        props = {}
        for path in ("ps2kbd", "ps2mouse"):
            full = None
            for d in range(40):
                p = f"/machine/unattached/device[{d}]"
                r = vm.cmd_raw("qom-get", {"path": p, "property": "type"})
                if r.get("return") == "i8042":
                    full = f"{p}/{path}"
                    break
            r = vm.cmd_raw("qom-list", {"path": full}) if full else {}
            props[path] = sorted((x["name"], x["type"])
                                 for x in r.get("return", []))
    blocks, cur = [], None
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("dev: "):
            cur = None
            if s.split()[1].rstrip(",") in ("i8042", "ps2-kbd", "ps2-mouse"):
                cur = [s]
                blocks.append(cur)
        elif cur is not None and not s.startswith(("bus:", "dev:")):
            cur.append(s)
    return blocks, props


def check_qtree():
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2"):
        a = qtree_blocks(BINARY, machine)
        b = qtree_blocks(ORACLE, machine)
        report(f"{machine}/qtree-and-qom", a == b, f"ours={a} qemu72={b}")


def main():
    if not qemu72_available(ORACLE):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    check_qtree()
    check_throttle()
    for machine, extra in MACHINES:
        check_sequences(machine, extra)
    check_all_commands("pc-q35-7.2")
    for seed in (1, 2, 3):
        check_random("pc-q35-7.2", seed)
    check_random("pc-i440fx-6.0", 4)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
