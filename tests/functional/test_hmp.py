#!/usr/bin/env python3
"""The human monitor (HMP) subset, as a QEMU user drives it.

  * -monitor stdio: the banner and prompt, info status/kvm/name/cpus,
    stop and cont, unknown commands, quit (status 0).  The vCPU thread
    ids exist while -S holds the VM (as in QEMU: libvirt pins them then)
    and match query-cpus-fast;
  * -nographic's console: Ctrl-A c gives the keyboard to the monitor and
    back, Ctrl-A x quits;
  * QMP human-monitor-command: its output for the same commands equals
    QEMU 7.2's, byte for byte, where the answer does not depend on the
    build (skipped without QEMU 7.2), device_add and device_del's
    refusals included.
"""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - hmp/{name}" +
          ("" if ok else f" # {detail}"))


def feed(args, chunks, pause):
    """Runs the binary with args, writing each chunk to its stdin after the
    previous one had pause seconds; (exit status, its stdout)"""
    p = subprocess.Popen([BINARY] + args, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for c in chunks:
        p.stdin.write(c)
        p.stdin.flush()
        time.sleep(pause)
    try:
        out, _ = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
    return p.returncode, out.decode(errors="replace")


def stdio_session(commands):
    """Runs the commands on -monitor stdio; (exit status, output)."""
    return feed(["-machine", "q35", "-accel", "kvm", "-S", "-smp", "2",
                 "-name", "hmpvm", "-display", "none", "-nodefaults",
                 "-monitor", "stdio"],
                [c.encode() + b"\n" for c in commands], 0.2)


def check_stdio():
    if not kvm_usable():
        report("stdio # SKIP /dev/kvm not usable", True)
        return
    status, out = stdio_session(["info status", "info kvm", "info name",
                                 "info cpus", "cont", "info status", "stop",
                                 "info status", "foo", "quit"])
    report("stdio/banner", out.startswith("QEMU ") and
           "monitor - type 'help' for more information\r\n(qemu) " in out,
           repr(out[:120]))
    statuses = re.findall(r"VM status: ([^\r]*)\r\n", out)
    report("stdio/status-transitions",
           statuses == ["paused (prelaunch)", "running", "paused"],
           f"{statuses}")
    report("stdio/info-kvm-name", "kvm support: enabled\r\n" in out and
           "\r\nhmpvm\r\n" in out, repr(out[-400:]))
    tids = re.findall(r"[* ] CPU #(\d): thread_id=(\d+)\r\n", out)
    report("stdio/info-cpus-threads-before-start",
           [t[0] for t in tids] == ["0", "1"] and
           len({t[1] for t in tids}) == 2, f"{tids}")
    report("stdio/unknown-command", "unknown command: 'foo'\r\n" in out,
           repr(out[-300:]))
    report("stdio/quit-status-0", status == 0, f"status={status}")


def check_nographic_mux():
    if not kvm_usable():
        report("nographic # SKIP /dev/kvm not usable", True)
        return
    # Monitor, a command; back to the guest, where "info name" is just
    # input for the guest's COM1; then quit
    status, out = feed(["-machine", "q35", "-accel", "kvm", "-S", "-name",
                        "muxvm", "-nographic", "-nodefaults", "-serial",
                        "mon:stdio"],
                       [b"\x01c", b"info status\n", b"\x01c", b"info name\n",
                        b"\x01x"], 0.3)
    report("nographic/ctrl-a-c-to-monitor",
           out.startswith("QEMU ") and
           "VM status: paused (prelaunch)\r\n" in out, repr(out[:300]))
    report("nographic/ctrl-a-c-back-to-guest", "muxvm" not in out,
           repr(out[-300:]))
    report("nographic/ctrl-a-x-quits", status == 0 and
           "QEMU: Terminated" in out, f"status={status}")


def hmp_outputs(binary, commands):
    with Machine(binary, ["-machine", "q35", "-qtest", "null", "-S",
                          "-name", "cmp", "-chardev", "null,id=c1"]) as vm:
        return [vm.cmd("human-monitor-command", {"command-line": c})
                for c in commands]


def check_vs_qemu72():
    commands = ["info status", "info kvm", "info name", "stop",
                "info status", "cont", "info status", "foo", "info foo",
                "info status extra", "", "   ",
                # device_add/device_del: ISA and system devices are not
                # hot-pluggable, the boot CPU is not unpluggable
                "device_add isa-serial,id=s2,chardev=c1", "device_add bogus",
                "device_add", "device_add pvpanic,ioport=zz",
                "device_add pvpanic,help", "device_add isa-serial,id=1x",
                "device_del s2", "device_del", "help device_add",
                "help device_del", "device_del /machine/unattached/device[0]"]
    ours = hmp_outputs(BINARY, commands)
    if not os.access(ORACLE, os.X_OK):
        report("vs-qemu72 # SKIP QEMU 7.2 not found", True)
        return
    theirs = hmp_outputs(ORACLE, commands)
    for c, a, b in zip(commands, ours, theirs):
        report(f"vs-qemu72/{c.strip() or 'empty'}", a == b,
               f"ours={a!r} qemu72={b!r}")
    # Where the thread ids are the vCPUs': query-cpus-fast agrees
    if kvm_usable():
        with Machine(BINARY, ["-machine", "q35", "-accel", "kvm", "-S",
                              "-smp", "2"]) as vm:
            out = vm.cmd("human-monitor-command",
                         {"command-line": "info cpus"})
            fast = [c["thread-id"] for c in vm.cmd("query-cpus-fast")]
            tids = [int(t) for t in re.findall(r"thread_id=(\d+)", out)]
            report("info-cpus-matches-query-cpus-fast",
                   tids == fast and os.getpid() not in tids and
                   vm.proc.pid not in tids, f"{tids} {fast}")


def main():
    check_stdio()
    check_nographic_mux()
    check_vs_qemu72()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
