#!/usr/bin/env python3
"""PC board properties and RAM layout, compared with Debian's QEMU 7.2.

Both binaries run the same command line with -qtest (which, without
-accel, means the qtest accelerator: Debian's QEMU refuses "-accel qtest"
spelled out) and are driven over the qtest protocol on stdio, so no guest
and no KVM are needed:

  * RAM layout: the CMOS bytes a guest's firmware reads for the RAM below
    and above 4 GiB (0x30/0x31, 0x34/0x35, 0x5b-0x5d), for RAM sizes around
    each board's split points, with and without max-ram-below-4g;
  * i8042=off: nothing answers the keyboard controller's status port;
  * port 0x61 (PC speaker control, PIT channel 2 gate and OUT).

Then the machine properties: every board property this tree has must read
back (qom-get) as QEMU's after init, for default and user-set values.
Skips (77) where QEMU 7.2 (/usr/bin/qemu-system-x86_64) is missing.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402
from qtest_session import qtest_session  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

# (machine, -m in MiB, extra -machine options)
LAYOUTS = [
    ("pc-q35-7.2", 128, ""), ("pc-q35-7.2", 2048, ""),
    ("pc-q35-7.2", 2560, ""), ("pc-q35-7.2", 2815, ""),
    ("pc-q35-7.2", 2816, ""), ("pc-q35-7.2", 4096, ""),
    ("pc-q35-7.2", 4096, ",max-ram-below-4g=1G"),
    ("pc-q35-7.2", 2560, ",max-ram-below-4g=2G"),
    ("pc-q35-7.2", 1024, ",max-ram-below-4g=512M"),
    ("pc-q35-8.0", 2600, ""), ("pc-q35-8.1", 2600, ""),
    ("pc-i440fx-8.1", 4096, ""),
    ("pc-i440fx-7.2", 2048, ""), ("pc-i440fx-7.2", 3072, ""),
    ("pc-i440fx-7.2", 3583, ""), ("pc-i440fx-7.2", 3584, ""),
    ("pc-i440fx-7.2", 4096, ""),
    ("pc-i440fx-7.2", 4096, ",max-ram-below-4g=3584M"),
    ("pc-i440fx-7.2", 4096, ",max-ram-below-4g=1536M"),
    ("pc-i440fx-2.0", 4096, ""), ("pc-i440fx-1.7", 4096, ""),
    ("pc-i440fx-1.7", 3000, ""),
]
CMOS_RAM_BYTES = [0x30, 0x31, 0x34, 0x35, 0x5b, 0x5c, 0x5d]

# (machine, -machine options) whose properties are compared after init
PROP_CASES = [
    ("pc-q35-7.2", ""), ("pc-i440fx-7.2", ""),
    ("pc-q35-7.2", ",hpet=off,sata=off,smbus=off,i8042=off,pit=off,pic=off,"
                   "smm=off,x-oem-id=ABC,x-oem-table-id=TABLE1,"
                   "smbios-entry-point-type=64,graphics=off,"
                   "suppress-vmdesc=on,default-bus-bypass-iommu=on"),
    ("pc-i440fx-7.2", ",max-ram-below-4g=2G,vmport=off"),
    ("pc-q35-7.2", ",max-ram-below-4g=3G"),
]
PROPS = ["smm", "hpet", "sata", "smbus", "i8042", "pit", "pic", "x-oem-id",
         "x-oem-table-id", "smbios-entry-point-type", "max-ram-below-4g",
         "graphics", "suppress-vmdesc", "default-bus-bypass-iommu",
         "kernel", "initrd", "append", "usb", "acpi", "dump-guest-core",
         "mem-merge", "vmport"]
# vmport=auto reads back "on" after init in both; smm is compared under
# KVM too.

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - board/{name}" +
          ("" if ok else f" # {detail}"))


def board_session(binary, machine, mem, extra, commands):
    return qtest_session(binary, ["-machine", machine + extra,
                                  "-m", str(mem)], commands)


def cmos_commands():
    cmds = []
    for reg in CMOS_RAM_BYTES:
        cmds += [f"outb 0x70 {reg:#x}", "inb 0x71"]
    return cmds


def check_layouts():
    for machine, mem, extra in LAYOUTS:
        a = board_session(BINARY, machine, mem, extra, cmos_commands())
        # This tree's own versions: QEMU 7.2's newest board
        oracle_m = re.sub(r"-8\.\d+$", "-7.2", machine)
        b = board_session(ORACLE, oracle_m, mem, extra, cmos_commands())
        ours = a[1::2]
        theirs = b[1::2]
        report(f"ram-layout/{machine}/{mem}M{extra}",
               ours == theirs and len(ours) == len(CMOS_RAM_BYTES),
               f"ours={ours} qemu72={theirs}")


def check_i8042():
    for extra in ("", ",i8042=off"):
        cmds = ["inb 0x64"]
        a = board_session(BINARY, "pc-q35-7.2", 128, extra, cmds)
        b = board_session(ORACLE, "pc-q35-7.2", 128, extra, cmds)
        report(f"i8042{extra or '=on'}/status-port", a == b,
               f"ours={a} qemu72={b}")


def check_port61():
    """Port 0x61 without a PIT in the kernel: gate and speaker bits read
    back, the refresh bit toggles, OUT reads 1"""
    cmds = ["inb 0x61", "inb 0x61", "outb 0x61 0x3", "inb 0x61",
            "inb 0x61", "outb 0x61 0x0", "inb 0x61"]
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2"):
        a = board_session(BINARY, machine, 128, "", cmds)
        b = board_session(ORACLE, machine, 128, "", cmds)
        report(f"port-0x61/{machine}", a == b, f"ours={a} qemu72={b}")


def props_of(binary, machine, extra):
    with Machine(binary, ["-machine", machine + extra, "-qtest", "null",
                          "-S"]) as vm:
        return {p: vm.cmd_raw("qom-get", {"path": "/machine",
                                          "property": p}).get("return")
                for p in PROPS}


def check_props():
    for machine, extra in PROP_CASES:
        a = props_of(BINARY, machine, extra)
        b = props_of(ORACLE, machine, extra)
        diffs = [f"{p}: ours={a[p]!r} qemu72={b[p]!r}" for p in PROPS
                 if a[p] != b[p]]
        report(f"props/{machine}{extra[:40]}", not diffs, "; ".join(diffs))
    # smm under KVM: off up to pc-i440fx-2.3, even when asked for
    if not kvm_usable():
        report("props/smm-under-kvm # SKIP /dev/kvm not usable", True)
        return
    for machine in ("pc-i440fx-2.3", "pc-i440fx-2.3,smm=on",
                    "pc-i440fx-2.4", "pc-q35-7.2"):
        got = []
        for binary in (BINARY, ORACLE):
            with Machine(binary, ["-machine", machine, "-accel", "kvm",
                                  "-S"]) as vm:
                got.append(vm.qom_get("/machine", "smm"))
        report(f"props/smm-under-kvm/{machine}", got[0] == got[1],
               f"ours={got[0]} qemu72={got[1]}")


def check_sysbus_order():
    """info qtree's devices on the system bus, in 7.2's order (its list
    is newest first, so the order tells the order they are made)"""
    if not kvm_usable():
        report("sysbus-order # SKIP /dev/kvm not usable", True)
        return
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2", "pc-i440fx-5.1",
                    "pc-q35-6.2"):
        got = []
        for binary in (BINARY, ORACLE):
            with Machine(binary, ["-machine", machine, "-accel", "kvm",
                                  "-S"]) as vm:
                text = vm.cmd("human-monitor-command",
                              {"command-line": "info qtree"})
            devs = [l.split()[1].rstrip(",") for l in text.split("\n")
                    if l.startswith("  dev: ")]
            got.append(devs)
        report(f"sysbus-order/{machine}", got[0] == got[1] and got[0],
               f"ours={got[0]} qemu72={got[1]}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    check_layouts()
    check_i8042()
    check_port61()
    check_props()
    check_sysbus_order()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
