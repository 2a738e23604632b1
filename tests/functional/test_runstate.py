#!/usr/bin/env python3
"""Run states and their events compared with Debian's QEMU 7.2 (issue 14).

The default test guest runs under both binaries with the same command
line and the same QMP steps; the replies (query-status, cont's refusal)
and the whole sequence of STOP, RESUME, RESET, SHUTDOWN and GUEST_PANICKED
events, with their members, must be equal.  Scenarios:

  reboot   -no-shutdown, the guest powers off (ACPI), then cont (refused),
           stop, and twice system_reset + cont, the guest powering off
           again each time (what `virsh reboot` twice does)
  running  a guest that waits: cont while running, stop twice, cont,
           system_reset while running, quit
  panic    -no-shutdown and pvpanic: the guest panics; stop, cont (7.2
           runs a panicked guest again), system_reset while running,
           another panic, system_reset from guest-panicked, cont
  s3       the guest enters \_S3_ (SUSPEND); stop, system_wakeup
           (WAKEUP; the guest starts again), the guest suspends again
  s4       -no-shutdown, the guest enters \_S4_ (SUSPEND_DISK, SHUTDOWN);
           system_wakeup (refused: not suspended)
  actions  -action and QMP set-action (what libvirt sends at start):
           -no-reboot -no-shutdown with a guest reset (SHUTDOWN
           guest-reset, paused), set-action reboot=shutdown before cont,
           panic=none (the guest runs on), panic=pause, panic=exit-failure
           (and the process's exit status), quit under shutdown=pause
  sleep states set as libvirt's <pm> sets them: -global
           PIIX4_PM.disable_s3=1 / disable_s4=1 drop \_S3_ / \_S4_ from
           the DSDT, so the guest finds no package and powers off instead
           (SHUTDOWN, no SUSPEND); PIIX4_PM.s4_val=3 makes \_S4_ {3, 3}
           and PM1a_CNT take SLP_TYP 3 as S4 (SUSPEND_DISK); the same on
           pc-q35-7.2 with ICH9-LPC's properties (and a plain S3 there)

QEMU 7.2 boots through qboot (Debian's qemu-system-data), which takes a
second where SeaBIOS takes over ten on this kind of host, except where
the guest sleeps in S3: waking needs SeaBIOS's resume path.  SeaBIOS
resets the machine once more on its own after a system_reset (a RESET
with reason guest-reset); this tree starts the kernel directly, so those
RESET events are left out of the comparison.  Asynchronous events are waited for before the next step, so
the sequences do not depend on timing.  Skips (77) without /dev/kvm or
QEMU 7.2.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import LaunchError, Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
QBOOT = "/usr/share/qemu/qboot.rom"
GUEST = os.environ.get("GUEST_DIR", os.path.join(
    os.path.dirname(os.path.abspath(BINARY)), "tests", "guest"))
BASE = ["-machine", "pc-i440fx-7.2,accel=kvm", "-m", "128",
        "-serial", "null", "-kernel", os.path.join(GUEST, "default.elf")]
WATCHED = {"STOP", "RESUME", "RESET", "SHUTDOWN", "GUEST_PANICKED",
           "SUSPEND", "WAKEUP", "SUSPEND_DISK"}
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - runstate/{name}" +
          ("" if ok else f" # {detail}"))


class Session:
    """One machine; steps append to .replies, events to .events."""

    def __init__(self, vm):
        self.vm = vm
        self.replies = []
        self.events = []

    def _take_events(self, count=None):
        """Moves the first count (default: all) events read so far."""
        taken = self.vm.events[:count] if count else list(self.vm.events)
        del self.vm.events[:len(taken)]
        for ev in taken:
            data = ev.get("data")
            if ev["event"] not in WATCHED or (
                    ev["event"] == "RESET" and data and
                    data.get("reason") == "guest-reset"):
                continue
            self.events.append((ev["event"], data))

    def cmd(self, name, args=None):
        reply = self.vm.cmd_raw(name, args)
        self.replies.append((name, reply.get("return", reply.get("error"))))
        self._take_events()

    def status(self):
        self.cmd("query-status")

    def wait(self, *names):
        """Waits for these events, in order (180 s each, the Machine's
        timeout per read)."""
        for name in names:
            while True:
                found = [i for i, ev in enumerate(self.vm.events)
                         if ev["event"] == name]
                if found:
                    self._take_events(found[0] + 1)
                    break
                msg = self.vm._read_message()
                if "event" in msg:
                    self.vm.events.append(msg)


def cmd_then(s, name, event):
    """A command, then its event unless it came with the reply"""
    n = len(s.events)
    s.cmd(name)
    if not any(ev == event for ev, _ in s.events[n:]):
        s.wait(event)


def reboot(s):
    s.wait("SHUTDOWN", "STOP")
    s.status()
    s.cmd("cont")
    s.cmd("stop")
    s.status()
    for _ in range(2):
        s.cmd("system_reset")
        s.status()
        s.cmd("cont")
        s.wait("SHUTDOWN", "STOP")
        s.status()


def running(s):
    s.status()
    s.cmd("cont")
    s.cmd("stop")
    s.cmd("stop")
    s.status()
    s.cmd("cont")
    s.status()
    s.cmd("system_reset")
    s.status()
    s.cmd("quit")


def panic(s):
    s.wait("GUEST_PANICKED", "STOP")
    s.status()
    s.cmd("stop")
    s.cmd("cont")
    s.status()
    s.cmd("system_reset")
    s.wait("GUEST_PANICKED", "STOP")
    s.status()
    s.cmd("system_reset")
    s.status()
    s.cmd("cont")
    s.wait("GUEST_PANICKED", "STOP")
    s.status()


def s3(s):
    s.wait("SUSPEND")
    s.status()
    s.cmd("stop")
    s.status()
    n = len(s.events)
    cmd_then(s, "system_wakeup", "WAKEUP")
    # the guest starts again and suspends again (no query in between: the
    # answer would race with that; s4 checks system_wakeup's refusal)
    if ("SUSPEND", None) not in s.events[n:]:
        s.wait("SUSPEND")
    s.status()
    s.cmd("quit")


def powers_off(s):
    s.wait("SHUTDOWN", "STOP")
    s.status()


def s4(s):
    s.wait("SUSPEND_DISK", "SHUTDOWN", "STOP")
    s.status()
    s.cmd("system_wakeup")


def reset_paused(s):
    s.wait("SHUTDOWN", "STOP")
    s.status()
    s.cmd("cont")
    s.cmd("quit")


def set_action_then_reset(s):
    s.cmd("set-action", {"reboot": "shutdown", "shutdown": "pause"})
    s.cmd("set-action", {"panic": "bogus"})
    s.cmd("cont")
    reset_paused(s)


def panic_none(s):
    s.wait("GUEST_PANICKED")
    s.status()
    s.cmd("quit")


def panic_pause(s):
    s.wait("GUEST_PANICKED", "STOP")
    s.status()
    s.cmd("quit")


def panic_exit(s):
    s.wait("GUEST_PANICKED", "SHUTDOWN")


def quit_paused(s):
    s.wait("SHUTDOWN", "STOP")
    s.cmd("quit")


# A scenario's own -machine replaces BASE's
Q35 = ["-machine", "pc-q35-7.2,accel=kvm"]

SCENARIOS = [
    ("reboot-twice", ["-no-shutdown"], reboot),
    ("stop-cont-reset-running", ["-append", "exit=acpi wait-powerbtn"],
     running),
    ("panic-reset", ["-no-shutdown", "-device", "pvpanic", "-append",
                     "exit=panic"], panic),
    # the DSDT's \_S3_ and \_S4_ entered through PM1a_CNT
    ("s3-suspend-wakeup", ["-append", "exit=acpi sleep=3"], s3),
    ("s4-suspend-disk", ["-no-shutdown", "-append", "exit=acpi sleep=4"], s4),
    # -action and set-action
    ("no-reboot-no-shutdown", ["-no-reboot", "-no-shutdown", "-append",
                               "exit=reset"], reset_paused),
    ("set-action-reboot", ["-S", "-append", "exit=reset"],
     set_action_then_reset),
    ("action-panic-none", ["-action", "panic=none", "-device", "pvpanic",
                           "-append", "exit=panic"], panic_none),
    ("action-panic-pause", ["-action", "panic=pause", "-device", "pvpanic",
                            "-append", "exit=panic"], panic_pause),
    ("action-panic-exit-failure", ["-action", "panic=exit-failure",
                                   "-device", "pvpanic", "-append",
                                   "exit=panic"], panic_exit),
    ("action-shutdown-pause-quit", ["-action", "shutdown=pause", "-append",
                                    "exit=acpi"], quit_paused),
    ("s3-disabled", ["-no-shutdown", "-global", "PIIX4_PM.disable_s3=1",
                     "-append", "exit=acpi sleep=3"], powers_off),
    ("s4-disabled", ["-no-shutdown", "-global", "PIIX4_PM.disable_s4=1",
                     "-append", "exit=acpi sleep=4"], powers_off),
    ("s4-val-3", ["-no-shutdown", "-global", "PIIX4_PM.s4_val=3",
                  "-append", "exit=acpi sleep=4"], s4),
    # the same on q35, where ICH9-LPC holds the PM block and the properties
    ("q35/s3-suspend-wakeup", Q35 + ["-append", "exit=acpi sleep=3"], s3),
    ("q35/s3-disabled", Q35 + ["-no-shutdown", "-global",
                               "ICH9-LPC.disable_s3=1", "-append",
                               "exit=acpi sleep=3"], powers_off),
    ("q35/s4-disabled", Q35 + ["-no-shutdown", "-global",
                               "ICH9-LPC.disable_s4=1", "-append",
                               "exit=acpi sleep=4"], powers_off),
    ("q35/s4-val-3", Q35 + ["-no-shutdown", "-global", "ICH9-LPC.s4_val=3",
                            "-append", "exit=acpi sleep=4"], s4),
]


def session(binary, args, steps):
    try:
        base = BASE[2:] if "-machine" in args else BASE
        # SeaBIOS under 7.2 (the S3 cases) takes over a minute on a loaded
        # PVM host before the guest's first event
        with Machine(binary, base + args, timeout=180) as vm:
            s = Session(vm)
            steps(s)
        # how the process ended counts too (exit-failure: 1)
        s.replies.append(("exit status", vm.exitcode))
        return s.replies, s.events
    except (LaunchError, OSError, EOFError, TimeoutError) as e:
        return "failed", str(e)[-300:]


def main():
    if not kvm_usable() or not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP /dev/kvm or QEMU 7.2 missing")
        return 77
    for name, args, steps in SCENARIOS:
        ours = session(BINARY, args, steps)
        fast = (["-bios", QBOOT] if os.access(QBOOT, os.R_OK) and
                "sleep=3" not in " ".join(args) else [])
        theirs = session(ORACLE, fast + args, steps)
        report(name + "/replies", ours[0] == theirs[0] and
               ours[0] != "failed", f"ours={ours} qemu72={theirs}")
        report(name + "/events", ours[1] == theirs[1] and
               ours[0] != "failed", f"ours={ours[1]} qemu72={theirs[1]}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
