#!/usr/bin/env python3
"""PAM under KVM: the pam test guest (tests/guest/pam.c) on both boards.

The guest switches three segments (0xF0000, 0xD0000, 0xE4000) through
the four PAM attributes from inside a vCPU, writing and reading in each,
so every switch moves KVM memory slots (a read-only slot for read-only
segments and for the firmware ROM).  Checked:

  * with the segment routed to PCI, the 16 bytes the guest reads at
    0xFFFF0 and 0xE4020 are the machine's firmware file's bytes there
    (SeaBIOS's bios-256k.bin, the image's last 128 KiB at 0xE0000), and
    0xD0000 reads as pc.rom (zeros, writes dropped);
  * every line the guest prints equals QEMU 7.2's for the same command
    line (7.2 boots the guest through SeaBIOS, the same file; its
    read-only segments take writes that exit as MMIO, and so do ours).

Skips (77) without /dev/kvm; the comparison with 7.2 is a TAP skip where
QEMU 7.2 is missing.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import crash_message, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "pam.elf")
FIRMWARE = "/usr/share/seabios/bios-256k.bin"
# SeaBIOS under 7.2 on a PVM host takes ~12 s of emulation before the guest
TIMEOUT = 400
MACHINES = ["pc-i440fx-7.2", "pc-q35-7.2"]

results = []


def report(name, ok, detail="", skip=None):
    results.append(ok or skip is not None)
    if skip is not None:
        print(f"ok {len(results)} - pam-kvm/{name} # SKIP {skip}")
        return
    print(f"{'ok' if ok else 'not ok'} {len(results)} - pam-kvm/{name}" +
          ("" if ok else f" # {detail}"))


def run_guest(binary, machine):
    argv = [binary, "-machine", f"{machine},accel=kvm", "-m", "128",
            "-nodefaults", "-display", "none", "-serial", "stdio",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-no-reboot", "-kernel", GUEST, "-append", "exit=debug"]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    out = p.stdout.decode(errors="replace")
    crash = crash_message(p.returncode, p.stderr.decode(errors="replace"))
    if crash:
        return None, crash
    if "PAM-DONE" not in out or p.returncode != 1:
        return None, f"status {p.returncode}: {out[-300:]!r}"
    return [l.strip() for l in out.splitlines() if l.startswith("PAM")], \
        None


def rom_bytes(lines):
    """{segment: bytes} of the PAM-ROM lines"""
    out = {}
    for l in lines:
        m = re.match(r"PAM-ROM seg=(0x[0-9a-f]+) off=(0x[0-9a-f]+) "
                     r"bytes=([0-9a-f]+)", l)
        if m:
            out[int(m.group(1), 16)] = (int(m.group(2), 16),
                                        bytes.fromhex(m.group(3)))
    return out


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    if not os.path.exists(GUEST):
        print(f"Bail out! {GUEST} not built (meson builds it with this test)")
        return 1
    with open(FIRMWARE, "rb") as f:
        image = f.read()
    isa = image[-0x20000:]          # what shows at 0xE0000-0xFFFFF
    have_oracle = os.access(ORACLE, os.X_OK)
    for machine in MACHINES:
        mine, err = run_guest(BINARY, machine)
        report(f"{machine}/runs", mine is not None, err)
        if mine is None:
            continue
        roms = rom_bytes(mine)
        for seg in (0xf0000, 0xe4000):
            off, got = roms.get(seg, (0, b""))
            addr = seg + off
            want = isa[addr - 0xe0000:addr - 0xe0000 + 16]
            report(f"{machine}/rom-{seg:#x}", got == want,
                   f"read {got.hex()} where {FIRMWARE} has {want.hex()}")
        off, got = roms.get(0xd0000, (0, b""))
        report(f"{machine}/pc.rom-0xd0000", got == bytes(16), got.hex())
        if not have_oracle:
            report(f"{machine}/vs-qemu72", False,
                   skip=f"QEMU 7.2 not found at {ORACLE}")
            continue
        theirs, err = run_guest(ORACLE, machine)
        if theirs is None:
            report(f"{machine}/vs-qemu72", False, f"QEMU 7.2: {err}")
            continue
        diff = [f"ours {a!r} qemu72 {b!r}" for a, b in zip(mine, theirs)
                if a != b]
        if len(mine) != len(theirs):
            diff.append(f"{len(mine)} lines, QEMU 7.2 {len(theirs)}")
        report(f"{machine}/vs-qemu72", not diff, "; ".join(diff[:2]))
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
