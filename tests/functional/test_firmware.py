#!/usr/bin/env python3
"""-bios and -L compared with Debian's QEMU 7.2 (docs/firmware.md, "-bios").

Under qtest (no guest runs), both binaries map the same images and a
guest's view of them is read the same way: the image's last bytes below
4 GiB, the reset vector at 0xFFFFFFF0, its last 128 KiB (or all of a
smaller one) at 0xE0000-0xFFFFF and RAM below that, a write to the ROM
(dropped).  Images: a 64 KiB and a 256 KiB one with a pattern in every
64-byte line, and Debian's qboot.rom found by name on the default path.
The error cases compare status and stderr: a missing file, a size that is
not a multiple of 64 KiB, an empty file, a directory; -L DIR puts DIR
first on the search path.  Skips (77) where QEMU 7.2 is missing.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import qtest_session  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
QBOOT = "/usr/share/qemu/qboot.rom"
MACHINES = ["pc-i440fx-7.2", "pc-q35-7.2"]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - firmware/{name}" +
          ("" if ok else f" # {detail}"))


def image(size):
    out = bytearray()
    for off in range(0, size, 64):
        line = b"%08x" % off
        out += (line * 8)[:64]
    return bytes(out)


def reads(size):
    top = 1 << 32
    addrs = [top - size, top - 16, top - 4, 0xffff0, 0xf0000, 0xe0000,
             0xdfffc, 0xc0000]
    cmds = ["readl 0x%x" % a for a in addrs]
    cmds += ["writel 0xf0000 0x12345678", "readl 0xf0000",
             "writel 0x%x 0x12345678" % (top - size), "readl 0x%x" %
             (top - size), "read 0xfffffff0 0x10"]
    return cmds


def run_start(binary, args):
    p = subprocess.run([binary, "-display", "none", "-nodefaults", "-S",
                        "-qtest", "stdio", "-qtest-log", "/dev/null"] + args,
                       input="", capture_output=True, text=True, timeout=60)
    return p.returncode, p.stderr.strip()


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, size in (("img64k.rom", 0x10000), ("img256k.rom", 0x40000),
                           ("odd.rom", 0x10000 + 512), ("empty.rom", 0)):
            paths[name] = os.path.join(tmp, name)
            with open(paths[name], "wb") as f:
                f.write(image(size) if size % 0x10000 == 0 else b"x" * size)
        cases = [
            ("64k", ["-bios", paths["img64k.rom"]], 0x10000),
            ("256k", ["-bios", paths["img256k.rom"]], 0x40000),
            ("L-dir", ["-L", tmp, "-bios", "img256k.rom"], 0x40000),
        ]
        if os.path.exists(QBOOT):     # Debian's qemu-system-data has it
            cases.append(("qboot-by-name", ["-bios", "qboot.rom"], 0x10000))
        for machine in MACHINES:
            for name, args, size in cases:
                a = ["-machine", machine, "-m", "512"] + args
                mine = qtest_session(BINARY, a + ["-qtest-log", "/dev/null"],
                                     reads(size))
                theirs = qtest_session(ORACLE, a + ["-qtest-log", "/dev/null"],
                                       reads(size))
                report(f"{machine}/{name}", mine == theirs and
                       all(x.startswith("OK") for x in mine),
                       f"{mine} != QEMU 7.2's {theirs}")
            errors = [
                ("missing", ["-bios", os.path.join(tmp, "nonexistent.rom")]),
                ("missing-by-name", ["-bios", "no-such-firmware.rom"]),
                ("odd-size", ["-bios", paths["odd.rom"]]),
                ("empty", ["-bios", paths["empty.rom"]]),
                ("directory", ["-bios", tmp]),
            ]
            for name, args in errors:
                a = ["-machine", machine] + args
                mine = run_start(BINARY, a)
                theirs = run_start(ORACLE, a)
                report(f"{machine}/error/{name}", mine == theirs and
                       mine[0] == 1, f"{mine} != QEMU 7.2's {theirs}")
        mine = subprocess.run([BINARY, "-L", "help"], capture_output=True,
                              text=True, timeout=30)
        report("L-help", mine.returncode == 0 and
               "/usr/share/qemu" in mine.stdout.splitlines() and
               "/usr/share/seabios" in mine.stdout.splitlines(),
               mine.stdout + mine.stderr)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
