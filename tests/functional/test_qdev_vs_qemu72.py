#!/usr/bin/env python3
"""The device model compared with Debian's QEMU 7.2 (docs/devices.md).

Both binaries run the same command line (-S, under KVM when /dev/kvm is
usable, else qtest) and the answers about what both have must agree:

  * info mtree: every region line of ours is QEMU's line (address, size,
    priority, kind, nesting), in the same address space; the alias
    targets' blocks too;
  * info mtree -f: every range of ours that a region (not the "io" root)
    answers is QEMU's range;
  * info qtree: each device both have prints the same lines (gpio lines,
    properties in table order);
  * -device help: each line of ours is QEMU's, under the same category;
    -device TYPE,help and device-list-properties for each shared type;
  * qom-list of /machine and of each shared device: the same properties;
  * -global on a device property (isa-serial.iobase, mc146818rtc.iobase)
    and a compat entry on one (pvpanic events, hw_compat_5_1) change what
    a guest reads, the same way in both (over qtest);
  * device_add / device_del of ISA devices: QEMU's refusals.

What QEMU has and this tree lacks (PCI devices, firmware regions, the
in-kernel irqchip's devices, ...) is listed in docs/devices.md; the few
lines of shared devices that differ on purpose are the KNOWN tables below,
each with its reason.  Skips (77) where QEMU 7.2 is missing.
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

SHARED_TYPES = ["isa-serial", "mc146818rtc", "i8042", "port92", "isa-pcspk",
                "pvpanic", "isa-debug-exit", "PIIX3", "PIIX4_PM", "ICH9-LPC",
                "fw_cfg_io", "pc-testdev", "i8257", "kvm-i8259", "kvm-pit",
                "kvm-ioapic", "kvmclock", "hpet", "piix3-ide", "ich9-ahci",
                "ICH9-SMB", "smbus-eeprom", "vmport", "vmmouse", "isa-fdc",
                "ps2-kbd", "ps2-mouse"]
# Devices the boards do not have, compared by their help and properties
# (qtree, mtree and registers: test_xhci_vs_qemu72.py, board-views)
PLUGGED_TYPES = ["qemu-xhci", "base-xhci", "pci-xhci"]
# Regions whose lines differ: the ACPI PM block (ICH9-LPC's, PIIX4_PM's)
# is mapped once PMBASE is programmed, by 7.2's firmware and here by the
# direct-boot path
KNOWN_REGIONS = {"ich9-pm", "piix4-pm", "acpi-evt", "acpi-cnt", "acpi-tmr"}
# Lines of shared devices this tree does not have
KNOWN_QTREE = {}
KNOWN_PROPS = {
    # PIIX4_PM has no GPE or hotplug blocks (nor their properties)
    "PIIX4_PM": {"acpi-cpu-hotplug[0]", "acpi-gpe0[0]", "acpi-pci-hotplug[0]",
                 "acpi-pcihp-io-base", "acpi-pcihp-io-len",
                 "acpi_disable_cmd", "acpi_enable_cmd",
                 "cpu-hotplug-legacy", "gpe0_blk", "gpe0_blk_len",
                 "pm_io_base", "sci_int"},
    # QEMU 7.2's ACPI build puts its tables in ROM regions of fw_cfg (for
    # migration); this tree has no QEMU-style ACPI blobs (docs/firmware.md)
    "fw_cfg_io": {"\\x2from@etc\\x2facpi\\x2frsdp[0]",
                  "\\x2from@etc\\x2facpi\\x2ftables[0]",
                  "\\x2from@etc\\x2ftable-loader[0]"},
    # ICH9-LPC has no GPE or hotplug blocks
    "ICH9-LPC": {"acpi-cpu-hotplug[0]", "acpi-gpe0[0]", "acpi-pci-hotplug[0]",
                 "acpi-pcihp-io-base", "acpi-pcihp-io-len"},
}
# Chipset functions: on these machine families only
CHIPSET_TYPES = {"PIIX3": "pc-i440fx", "PIIX4_PM": "pc-i440fx",
                 "ICH9-LPC": "pc-q35", "piix3-ide": "pc-i440fx",
                 "ich9-ahci": "pc-q35", "ICH9-SMB": "pc-q35",
                 "isa-fdc": "pc-i440fx"}


def on_machine(t, machine):
    return machine.startswith(CHIPSET_TYPES.get(t, "pc-"))
# Machine properties older than the device model: kernel-irqchip is the
# accelerator's in QEMU, memory-backend a link<memory-backend> there
KNOWN_MACHINE = {("kernel-irqchip", "str"), ("memory-backend", "str")}
DEVICE_ARGS = ["-serial", "null", "-device", "pvpanic",
               "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
               "-chardev", "null,id=c1",
               "-device", "isa-serial,id=s1,chardev=c1",
               "-device", "pc-testdev"]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - qdev/{name}" +
          ("" if ok else f" # {detail}"))


def accel():
    return ["-accel", "kvm"] if kvm_usable() else ["-accel", "qtest"]


def session(binary, machine, fn):
    oracle = binary == ORACLE
    args = ["-machine", machine, "-S"] + DEVICE_ARGS
    args += accel() if not oracle or kvm_usable() else ["-qtest", "null"]
    with Machine(binary, args) as m:
        return fn(m)


def hmp(m, cmd):
    return m.cmd("human-monitor-command", {"command-line": cmd})


# info mtree ------------------------------------------------------------------

def mtree_blocks(text):
    """{(header lines): [region lines]} of info mtree"""
    blocks = {}
    for chunk in text.replace("\r", "").strip().split("\n\n"):
        lines = chunk.split("\n")
        head = tuple(l for l in lines if not l.startswith(" "))
        blocks[head] = [l for l in lines if l.startswith(" ")]
    return blocks


def region_name(line):
    m = re.search(r"\): (?:alias )?([^ @]+)", line)
    return m.group(1) if m else ""


def compare_mtree(machine, ours, theirs):
    mine, qemu = mtree_blocks(ours), mtree_blocks(theirs)
    qemu_by_as = {}
    for head, lines in qemu.items():
        for h in head:
            qemu_by_as[h] = lines
    for head, lines in mine.items():
        # address spaces are grouped by root in both; ours has fewer
        key = [h for h in head if h in qemu_by_as]
        if not key:
            report(f"mtree/{machine}/{head[0]}", False, "no such block")
            continue
        want = qemu_by_as[key[0]]
        bad = [l for l in lines if region_name(l) not in KNOWN_REGIONS and
               l not in want]
        report(f"mtree/{machine}/{key[0]}", not bad, bad[:3])


def compare_flat(machine, ours, theirs):
    def ranges(text):
        out = {}
        for block in text.replace("\r", "").strip().split("\n\n"):
            ases = re.findall(r' AS "([^"]+)"', block)
            for a in ases:
                out[a] = [l for l in block.split("\n")
                          if l.startswith("  0")]
        return out
    mine, qemu = ranges(ours), ranges(theirs)
    for as_name, lines in mine.items():
        want = set(l.replace(" KVM", "") for l in qemu.get(as_name, []))
        bad = [l for l in lines
               if region_name(l) not in KNOWN_REGIONS | {"io", "pc.ram"} and
               l.replace(" KVM", "") not in want]
        report(f"mtree-f/{machine}/{as_name}", not bad, bad[:3])


# info qtree -------------------------------------------------------------------

def qtree_devices(text):
    """{type: [[lines of each device of that type], ...]}"""
    devs = {}
    cur, indent = None, 0
    for line in text.replace("\r", "").split("\n"):
        s = line.strip()
        ind = len(line) - len(line.lstrip())
        m = re.match(r'dev: ([^,]+), id "(.*)"', s)
        if m:
            cur = [f"id {m.group(2)}"]
            indent = ind
            devs.setdefault(m.group(1), []).append(cur)
            continue
        if cur is not None and (ind <= indent or s.startswith("bus:")):
            cur = None
        if cur is not None and s:
            cur.append(s)
    return devs


def compare_qtree(machine, ours, theirs):
    mine, qemu = qtree_devices(ours), qtree_devices(theirs)
    for t in filter(lambda t: on_machine(t, machine), SHARED_TYPES):
        known = KNOWN_QTREE.get(t, set())
        a = sorted([l for l in d if l not in known] for d in mine.get(t, []))
        b = sorted([l for l in d if l not in known] for d in qemu.get(t, []))
        report(f"qtree/{machine}/{t}", a == b and a, f"ours {a} qemu72 {b}")


# qom-list ---------------------------------------------------------------------

def qom_props(m, path):
    return {(p["name"], p["type"]) for p in m.cmd("qom-list", {"path": path})}


def find_paths(m, root="/machine"):
    """{type: path} of the first device of each shared type"""
    found = {}

    def walk(path):
        for p in m.cmd("qom-list", {"path": path}):
            t = p["type"]
            if not t.startswith("child<"):
                continue
            t = t[6:-1]
            child = f"{path}/{p['name']}"
            if t in SHARED_TYPES and t not in found:
                found[t] = child
            # The i8042 holds the PS/2 devices ("ps2kbd", "ps2mouse")
            if t in ("container", "isabus-bridge", "i8042") or path == root:
                walk(child)
    walk(root)
    return found


def compare_qom(machine):
    def grab(m):
        paths = find_paths(m)
        return ({"/machine": qom_props(m, "/machine")},
                {t: qom_props(m, p) for t, p in paths.items()})
    (mroot, mdev) = session(BINARY, machine, grab)
    (qroot, qdev) = session(ORACLE, machine, grab)
    extra = mroot["/machine"] - qroot["/machine"] - KNOWN_MACHINE
    report(f"qom-list/{machine}/machine", not extra, sorted(extra))
    for t in filter(lambda t: on_machine(t, machine), SHARED_TYPES):
        known = KNOWN_PROPS.get(t, set())
        a = {p for p in mdev.get(t, set()) if p[0] not in known}
        b = {p for p in qdev.get(t, set()) if p[0] not in known}
        report(f"qom-list/{machine}/{t}", a == b and a,
               f"ours-only {sorted(a - b)} qemu72-only {sorted(b - a)}")


# Introspection -------------------------------------------------------------------

def run(binary, args):
    return subprocess.run([binary] + args, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def device_help_lines(text):
    out, cat = set(), None
    for line in text.split("\n"):
        if line.endswith(" devices:"):
            cat = line
        elif line.startswith("name "):
            out.add((cat, line))
    return out


def compare_device_help():
    mine = device_help_lines(run(BINARY, ["-device", "help"]).stdout)
    qemu = device_help_lines(run(ORACLE, ["-device", "help"]).stdout)
    report("device-help/lines", mine and mine <= qemu,
           sorted(mine - qemu)[:5])
    for t in SHARED_TYPES + PLUGGED_TYPES:
        a = run(BINARY, ["-device", f"{t},help"]).stdout.split("\n")
        b = run(ORACLE, ["-device", f"{t},help"]).stdout.split("\n")
        known = KNOWN_PROPS.get(t, set())
        a = [l for l in a if l.strip().split("=")[0] not in known]
        b = [l for l in b if l.strip().split("=")[0] not in known]
        report(f"device-help/{t}", a == b, f"ours {a} qemu72 {b}")


def compare_device_list_properties():
    def grab(m):
        out = {}
        for t in SHARED_TYPES + PLUGGED_TYPES + ["isa-device",
                                                 "no-such-device"]:
            r = m.cmd_raw("device-list-properties", {"typename": t})
            if "error" in r:
                out[t] = r["error"]
            else:
                out[t] = sorted(json.dumps(p, sort_keys=True)
                                for p in r["return"]
                                if p["name"] not in
                                KNOWN_PROPS.get(t, set()))
        return out
    a = session(BINARY, "pc-q35-7.2", grab)
    b = session(ORACLE, "pc-q35-7.2", grab)
    for t in a:
        report(f"device-list-properties/{t}", a[t] == b[t],
               f"ours {a[t]} qemu72 {b[t]}")


def compare_hotplug():
    cmds = [("device_add", {"driver": "isa-serial", "id": "s2"}),
            ("device_add", {"driver": "nosuch"}),
            ("device_add", {"driver": "isa-device"}),
            ("device_add", {"driver": "serial"}),
            ("device_add", {"driver": "isa-serial", "bus": "nosuch"}),
            ("device_add", {"driver": "isa-serial", "id": "1a"}),
            ("device_del", {"id": "s1"}),
            ("device_del", {"id": "nosuch"}),
            ("device_del", {"id": "/machine/unattached"}),
            ("qom-set", {"path": "/machine/peripheral/s1",
                         "property": "iobase", "value": 1})]

    def grab(m):
        return [m.cmd_raw(c, a) for c, a in cmds]
    a = session(BINARY, "pc-q35-7.2", grab)
    b = session(ORACLE, "pc-q35-7.2", grab)
    for (c, args), x, y in zip(cmds, a, b):
        report(f"hotplug/{c}/{json.dumps(args)}", x == y,
               f"ours {x} qemu72 {y}")


# What a guest reads ---------------------------------------------------------------

def qtest(binary, args, commands):
    p = subprocess.Popen([binary, "-display", "none", "-nodefaults", "-S",
                          "-qtest", "stdio"] + args,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    out = []
    try:
        for c in commands:
            p.stdin.write(c + "\n")
            p.stdin.flush()
            line = p.stdout.readline()
            while line.startswith("IRQ"):
                line = p.stdout.readline()
            out.append(line.strip() or "EOF " + p.stderr.read()[-200:])
    finally:
        p.kill()
        p.wait()
        for f in (p.stdin, p.stdout, p.stderr):
            f.close()
    return out


GUEST_CASES = [
    # A -global moves COM1 (LSR 0x60 at base+5) and the RTC (register B)
    ("global/isa-serial.iobase",
     ["-machine", "pc-q35-7.2", "-serial", "null",
      "-global", "isa-serial.iobase=0x2e8"],
     ["inb 0x2ed", "inb 0x3fd"], ["OK 0x0060", "OK 0x00ff"]),
    ("global/mc146818rtc.iobase",
     ["-machine", "pc-i440fx-7.2", "-global", "mc146818rtc.iobase=0x72"],
     ["outb 0x72 0x0b", "inb 0x73", "outb 0x70 0x0b", "inb 0x71"],
     ["OK", "OK 0x0002", "OK", "OK 0x00ff"]),
    # hw_compat_5_1: pvpanic's events are 1 (panicked only) up to 5.1
    ("compat/pvpanic-events/pc-q35-5.1",
     ["-machine", "pc-q35-5.1", "-device", "pvpanic"], ["inb 0x505"],
     ["OK 0x0001"]),
    ("compat/pvpanic-events/pc-q35-5.2",
     ["-machine", "pc-q35-5.2", "-device", "pvpanic"], ["inb 0x505"],
     ["OK 0x0003"]),
    # ... and -global wins over the compat entry
    ("compat/pvpanic-events/pc-q35-5.1-global",
     ["-machine", "pc-q35-5.1", "-device", "pvpanic",
      "-global", "pvpanic.events=2"], ["inb 0x505"], ["OK 0x0002"]),
]


def compare_guest_reads():
    for name, args, cmds, expect in GUEST_CASES:
        a = qtest(BINARY, args, cmds)
        b = qtest(ORACLE, args, cmds)
        report(f"guest-reads/{name}", a == b == expect,
               f"ours {a} qemu72 {b} expected {expect}")


# PIIX4_PM's compat entries (and the PCI core's): its info qtree lines on
# the i440fx versions where an entry changes (hw_compat_6_2, pc_compat_5_2,
# hw_compat_2_8, hw_compat_2_3, pc_compat_2_0, pc_compat_1_7) and around
PIIX4_VERSIONS = ["7.0", "6.2", "6.0", "5.2", "2.9", "2.8", "2.4", "2.3",
                  "2.1", "2.0", "1.7", "1.4"]


def compare_piix4_compat():
    for v in PIIX4_VERSIONS:
        machine = f"pc-i440fx-{v}"
        ours = session(BINARY, machine, lambda m: hmp(m, "info qtree"))
        theirs = session(ORACLE, machine, lambda m: hmp(m, "info qtree"))
        a = qtree_devices(ours).get("PIIX4_PM")
        b = qtree_devices(theirs).get("PIIX4_PM")
        report(f"qtree/{machine}/PIIX4_PM", a == b and a,
               f"ours {a} qemu72 {b}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2"):
        def grab(m):
            return (hmp(m, "info mtree"), hmp(m, "info mtree -f"),
                    hmp(m, "info qtree"))
        ours = session(BINARY, machine, grab)
        theirs = session(ORACLE, machine, grab)
        compare_mtree(machine, ours[0], theirs[0])
        compare_flat(machine, ours[1], theirs[1])
        compare_qtree(machine, ours[2], theirs[2])
        compare_qom(machine)
    compare_piix4_compat()
    compare_device_help()
    compare_device_list_properties()
    compare_hotplug()
    compare_guest_reads()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
