#!/usr/bin/env python3
"""PCI and PCIe bridges compared with Debian's QEMU 7.2 (docs/devices.md,
"Bridges").

Both binaries run the same command lines under qtest (-S: no firmware):
libvirt's q35 set (three pcie-root-ports in one multifunction slot, a
pcie-pci-bridge behind the first and a pci-bridge behind that), a
pci-bridge chain on i440fx, a DMI-to-PCI bridge with a pci-bridge behind
it on q35.  For each, with the same qtest commands on both:

  * the bus numbers are programmed as firmware does (depth first), then
    every function of buses 0..N is found through CONFIG_ADDRESS and its
    256 bytes compared, and on q35 its 4 KiB through MMCONFIG;
  * the write masks of every bridge: all-ones then zeros written to each
    byte (each read back), 256 bytes through CONFIG_DATA, on q35 the
    4 KiB of the PCIe ones through MMCONFIG;
  * windows: I/O, memory and prefetchable base/limit and the command
    register programmed, then the bridges' regions of "info mtree" (and
    its -f flat view lines of them), query-pci (the devices behind a
    bridge nested in its pci_bridge) and HMP info pci;
  * info qtree of each bridge with what hangs below it;
  * the BARs (SHPC registers, MSI-X table and PBA) mapped through the
    windows: every register, SHPC commands, the SHPC capability's window,
    then a seeded stream of accesses of every size at any offset;
  * a seeded stream of configuration writes of every size to the
    bridges, read back (the registers' side effects);
  * -device T,help and device-list-properties of each bridge type;
  * configuration space and info qtree of the bridges on machine types
    around each compat entry that touches them;
  * QEMU's refusals for bad bridge options, as their first error line.

Skips (77) where QEMU 7.2 is missing.
"""

import os
import random
import re
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine  # noqa: E402
from qtest_session import qtest_session  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

# name: (machine, -device lines, bridges as (bus, devfn, secondary,
# subordinate) in firmware's depth-first order, PCIe bridges' (bus, devfn))
CASES = {
    "q35-libvirt": (
        "pc-q35-7.2",
        ["pcie-root-port,port=16,chassis=1,id=pci.1,bus=pcie.0,"
         "multifunction=on,addr=0x2",
         "pcie-root-port,port=17,chassis=2,id=pci.2,bus=pcie.0,"
         "addr=0x2.0x1",
         "pcie-root-port,port=18,chassis=3,id=pci.3,bus=pcie.0,"
         "addr=0x2.0x2",
         "pcie-pci-bridge,id=pci.4,bus=pci.1,addr=0x0",
         "pci-bridge,chassis_nr=5,id=pci.5,bus=pci.4,addr=0x1"],
        [(0, 0x10, 1, 3), (1, 0x00, 2, 3), (2, 0x08, 3, 3),
         (0, 0x11, 4, 4), (0, 0x12, 5, 5)],
        [(0, 0x10), (0, 0x11), (0, 0x12), (1, 0x00)],
    ),
    # libvirt 9's JSON form of the same (docs: libvirt-facts)
    "q35-libvirt-json": (
        "pc-q35-7.2",
        ['{"driver":"pcie-root-port","port":8,"chassis":1,"id":"pci.1",'
         '"bus":"pcie.0","multifunction":true,"addr":"0x1"}',
         '{"driver":"pcie-root-port","port":9,"chassis":2,"id":"pci.2",'
         '"bus":"pcie.0","addr":"0x1.0x1"}',
         '{"driver":"pcie-pci-bridge","id":"pci.3","bus":"pci.1",'
         '"addr":"0x0"}',
         '{"driver":"pci-bridge","chassis_nr":4,"id":"pci.4",'
         '"bus":"pci.3","addr":"0x1"}'],
        [(0, 0x08, 1, 3), (1, 0x00, 2, 3), (2, 0x08, 3, 3), (0, 0x09, 4, 4)],
        [(0, 0x08), (0, 0x09), (1, 0x00)],
    ),
    "i440fx-pci-bridge": (
        "pc-i440fx-7.2",
        ["pci-bridge,chassis_nr=1,id=pci.1,bus=pci.0,addr=0x3",
         "pci-bridge,chassis_nr=2,id=pci.2,bus=pci.1,addr=0x1",
         "pci-bridge,chassis_nr=3,id=pci.3,bus=pci.0,addr=0x4,shpc=off"],
        [(0, 0x18, 1, 2), (1, 0x08, 2, 2), (0, 0x20, 3, 3)],
        [],
    ),
    # PCIe bridges on a conventional bus (7.2 takes them; 256 bytes seen)
    "i440fx-pcie-bridges": (
        "pc-i440fx-7.2",
        ["pcie-root-port,id=rp,chassis=1,slot=1,bus=pci.0,addr=0x5",
         "pcie-pci-bridge,id=pb,bus=rp,addr=0x0"],
        [(0, 0x28, 1, 2), (1, 0x00, 2, 2)],
        [],
    ),
    "q35-dmi-to-pci": (
        "pc-q35-7.2",
        ["i82801b11-bridge,id=pci.1,bus=pcie.0,addr=0x1e",
         "pci-bridge,chassis_nr=2,id=pci.2,bus=pci.1,addr=0x0,msi=off"],
        [(0, 0xf0, 1, 2), (1, 0x00, 2, 2)],
        [],
    ),
}

# Chipset functions this tree does not have yet (as in pci-vs-qemu72):
# none since piix3-ide, ICH9's AHCI and SMBus came
KNOWN_MISSING = {
    "pc-i440fx-7.2": set(),
    "pc-q35-7.2": set(),
}

BRIDGE_TYPES = ("pcie-root-port", "pci-bridge", "i82801b11-bridge",
                "pcie-pci-bridge")
MMCFG = 0xb0000000

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - bridges/{name}" +
          ("" if ok else f" # {detail}"))


def json_diff(a, b, path=""):
    """Where two JSON values first differ, and how"""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'QEMU 7.2' if k in a else 'ours'}"
            d = json_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return ""
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = json_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return "" if len(a) == len(b) else f"{path}: {len(a)} vs {len(b)}"
    return "" if a == b else f"{path}: QEMU 7.2 {a!r}, here {b!r}"


def drop_known_missing(machine, reply):
    """query-pci without the functions this tree does not have yet"""
    missing = KNOWN_MISSING[machine]
    for bus in reply:
        bus["devices"] = [d for d in bus["devices"]
                          if (d["bus"], d["slot"] << 3 | d["function"])
                          not in missing]
    return reply


def drop_missing_text(machine, text):
    """info pci without the blocks of those functions"""
    blocks = re.split(r"(?=  Bus +\d+, device)", text)
    keep = []
    for block in blocks:
        head = re.match(r"  Bus +(\d+), device +(\d+), function (\d+)",
                        block)
        if head and (int(head[1]), int(head[2]) << 3 | int(head[3])) in \
                KNOWN_MISSING[machine]:
            continue
        keep.append(block)
    return "".join(keep)


def first_diff(cmds, a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"{cmds[i] if i < len(cmds) else '?'}: QEMU 7.2 {x!r}, " \
                   f"here {y!r}"
    return f"{len(a)} vs {len(b)} answers" if len(a) != len(b) else ""


def devargs(devices):
    args = []
    for d in devices:
        args += ["-device", d]
    return args


def cfg(bus, devfn, off):
    return 0x80000000 | bus << 16 | devfn << 8 | (off & 0xfc)


def cfg_write(bus, devfn, off, size, value):
    return ["outl 0xcf8 0x%x" % cfg(bus, devfn, off),
            "out%s 0x%x 0x%x" % ({1: "b", 2: "w", 4: "l"}[size],
                                 0xcfc + (off & 3), value)]


def mmcfg_enable(machine):
    if "q35" not in machine:
        return []
    return ["outl 0xcf8 0x80000060", "outl 0xcfc 0x%x" % (MMCFG | 1)]


def program_buses(bridges):
    cmds = []
    for bus, devfn, sec, sub in bridges:
        cmds += cfg_write(bus, devfn, 0x18, 4, bus | sec << 8 | sub << 16)
    return cmds


def session(binary, case, cmds):
    machine, devices, _, _ = CASES[case]
    return qtest_session(binary, ["-machine", machine, "-qtest-log",
                                  "/dev/null"] + devargs(devices), cmds)


def scan_cmds(nbuses):
    cmds = []
    for bus in range(nbuses):
        for devfn in range(256):
            cmds += ["outl 0xcf8 0x%x" % cfg(bus, devfn, 0), "inl 0xcfc"]
    return cmds


def config_space(case):
    """Functions present behind the programmed buses, 256 bytes each"""
    machine, _, bridges, _ = CASES[case]
    nbuses = max(b[3] for b in bridges) + 1
    setup = mmcfg_enable(machine) + program_buses(bridges)
    scan = scan_cmds(nbuses)
    a = session(ORACLE, case, setup + scan)[len(setup):]
    b = session(BINARY, case, setup + scan)[len(setup):]

    def present(answers):
        return [divmod(i // 2, 256) for i in range(0, len(answers), 2)
                if int(answers[i + 1].split()[1], 16) != 0xffffffff]

    theirs, ours = present(a), present(b)
    missing = set(theirs) - set(ours)
    report(f"{case}/functions", missing == KNOWN_MISSING[machine] and
           set(ours) <= set(theirs), f"QEMU 7.2 {theirs}, here {ours}")
    found = [f for f in theirs if f in ours]
    dump = []
    for bus, devfn in found:
        for off in range(0, 256, 4):
            dump += ["outl 0xcf8 0x%x" % cfg(bus, devfn, off), "inl 0xcfc"]
        if "q35" in machine:
            base = MMCFG + (bus << 20) + (devfn << 12)
            dump += ["readl 0x%x" % (base + off)
                     for off in range(0, 4096, 4)]
    a = session(ORACLE, case, setup + dump)[len(setup):]
    b = session(BINARY, case, setup + dump)[len(setup):]
    per = len(dump) // max(len(found), 1)
    for i, (bus, devfn) in enumerate(found):
        sl = slice(i * per, (i + 1) * per)
        report(f"{case}/config/{bus:02x}:{devfn >> 3:02x}.{devfn & 7}",
               a[sl] == b[sl], first_diff(dump[sl], a[sl], b[sl]))
    return found


def write_masks(case):
    """All-ones then zeros to every byte of every bridge, read back"""
    machine, _, bridges, pcie = CASES[case]
    setup = mmcfg_enable(machine) + program_buses(bridges)
    for bus, devfn, _, _ in bridges:
        cmds = []
        for off in range(256):
            if bus == 0 and off in (0x19, 0x1a) or off == 0x3e:
                # the bus numbers and bus reset of a bridge on the path:
                # changing them moves what the next commands reach
                continue
            sel = "outl 0xcf8 0x%x" % cfg(bus, devfn, off)
            port = 0xcfc + (off & 3)
            cmds += [sel, "outb 0x%x 0xff" % port, sel, "inb 0x%x" % port,
                     sel, "outb 0x%x 0x0" % port, sel, "inb 0x%x" % port]
        if (bus, devfn) in pcie:
            base = MMCFG + (bus << 20) + (devfn << 12)
            for off in range(256, 4096):
                a = base + off
                cmds += ["writeb 0x%x 0xff" % a, "readb 0x%x" % a,
                         "writeb 0x%x 0x0" % a, "readb 0x%x" % a]
        a = session(ORACLE, case, setup + cmds)[len(setup):]
        b = session(BINARY, case, setup + cmds)[len(setup):]
        report(f"{case}/write-masks/{bus:02x}:{devfn >> 3:02x}.{devfn & 7}",
               a == b, first_diff(cmds, a, b))


def windows(bridges):
    """I/O, memory and prefetchable windows for each bridge, then decode"""
    cmds = []
    for i, (bus, devfn, _, _) in enumerate(bridges):
        io = 0x10 + i * 0x10
        mem = 0xfe00 + i * 0x20
        pref = 0x8000 + i * 0x100
        cmds += cfg_write(bus, devfn, 0x1c, 2, io | io << 8)
        cmds += cfg_write(bus, devfn, 0x20, 4, mem | (mem + 0x10) << 16)
        cmds += cfg_write(bus, devfn, 0x24, 4,
                          (pref | 1) | (pref + 0xf0 | 1) << 16)
        cmds += cfg_write(bus, devfn, 0x28, 4, i)      # above 4 GiB
        cmds += cfg_write(bus, devfn, 0x2c, 4, i)
        cmds += cfg_write(bus, devfn, 0x04, 2, 0x7)
    # BAR 0 of the first bridge inside its parent's memory window
    bus, devfn, _, _ = bridges[0]
    cmds += cfg_write(bus, devfn, 0x10, 4, 0xfe000000)
    cmds += cfg_write(bus, devfn, 0x14, 4, 0)
    # VGA forwarding on the last one
    bus, devfn, _, _ = bridges[-1]
    cmds += cfg_write(bus, devfn, 0x3e, 2, 0x08)
    return cmds


class QtestMachine(Machine):
    """A Machine with a qtest socket besides QMP"""

    def __init__(self, binary, args):
        self.qdir = tempfile.mkdtemp(prefix="qtest-")
        self.qpath = os.path.join(self.qdir, "qtest.sock")
        self.qlistener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.qlistener.bind(self.qpath)
        self.qlistener.listen(1)
        super().__init__(binary, ["-qtest", "unix:" + self.qpath,
                                  "-qtest-log", "/dev/null"] + args)
        self.qsock = None

    def qtest(self, cmds):
        if not self.qsock:
            self.qlistener.settimeout(30)
            self.qsock, _ = self.qlistener.accept()
            self.qfile = self.qsock.makefile("rw")
        out = []
        for c in cmds:
            self.qfile.write(c + "\n")
            self.qfile.flush()
            line = self.qfile.readline()
            while line.startswith("IRQ"):
                line = self.qfile.readline()
            out.append(line.strip())
        return out

    def shutdown(self):
        if self.qsock:
            self.qfile.close()
            self.qsock.close()
        self.qlistener.close()
        super().shutdown()


def hmp(m, line):
    return m.cmd("human-monitor-command", {"command-line": line})


def qtree_bridges(text):
    """The blocks of info qtree from each bridge's "dev:" line down"""
    lines = text.splitlines()
    blocks = {}
    for i, line in enumerate(lines):
        head = re.match(r"( *)dev: ([\w-]+), id \"([^\"]*)\"", line)
        if not head or head[2] not in BRIDGE_TYPES:
            continue
        indent = len(head[1])
        block = [line]
        for nxt in lines[i + 1:]:
            if len(nxt) - len(nxt.lstrip()) <= indent:
                break
            block.append(nxt)
        blocks[head[3]] = block
    return blocks


def mtree_lines(text):
    """The bridges' regions in info mtree: the lines naming them in the
    memory and I/O address spaces and in the memory-region sections that
    show alias targets, each with its section's header.  Other address
    spaces (7.2's bus-master and SMM ones, which this tree does not have
    yet) and "memory-region: system" (7.2 prints it for its SMM alias)
    are left out."""
    keep = re.compile(r"pci_bridge|shpc|msix|-msix")
    out, header = [], None
    for line in text.splitlines():
        if re.match(r"(address-space|memory-region): ", line):
            header = line
            if header in ("address-space: memory", "address-space: I/O") or \
                    (header.startswith("memory-region: ") and
                     header != "memory-region: system"):
                out.append(header)
            else:
                header = None
        elif header and keep.search(line):
            out.append(line.rstrip())
    # sections with a line of ours, in a stable order (7.2 prints address
    # spaces in hash-table order)
    sections, cur = [], None
    for line in out:
        if re.match(r"(address-space|memory-region): ", line):
            cur = [line]
            sections.append(cur)
        else:
            cur.append(line)
    return sorted("\n".join(sec) for sec in sections if len(sec) > 1)


def flat_lines(text):
    """The bridges' ranges in the flat views of memory and I/O"""
    keep = re.compile(r"pci_bridge|shpc|msix|-msix")
    out, take = [], False
    for line in text.splitlines():
        if line.startswith("FlatView"):
            take = False
        elif line.startswith(" AS "):
            if re.match(r' AS "(memory|I/O)"', line):
                take = True
        elif take and keep.search(line):
            out.append(line.rstrip())
    return out


def observe(binary, case):
    machine, devices, bridges, _ = CASES[case]
    args = ["-machine", machine, "-S"] + devargs(devices)
    seen = {}
    with QtestMachine(binary, args) as m:
        seen["qtree"] = qtree_bridges(hmp(m, "info qtree"))
        seen["mtree-reset"] = mtree_lines(hmp(m, "info mtree"))
        seen["query-pci-reset"] = m.cmd("query-pci")
        m.qtest(mmcfg_enable(machine) + program_buses(bridges))
        seen["query-pci-buses"] = m.cmd("query-pci")
        seen["info-pci-buses"] = hmp(m, "info pci")
        m.qtest(windows(bridges))
        seen["query-pci-windows"] = m.cmd("query-pci")
        seen["info-pci-windows"] = hmp(m, "info pci")
        seen["mtree-windows"] = mtree_lines(hmp(m, "info mtree"))
        seen["mtree-flat"] = flat_lines(hmp(m, "info mtree -f"))
        m.cmd("system_reset")
        seen["query-pci-after-reset"] = m.cmd("query-pci")
        seen["mtree-after-reset"] = mtree_lines(hmp(m, "info mtree"))
    return seen


def compare_monitor(case):
    a = observe(ORACLE, case)
    b = observe(BINARY, case)
    for key in a:
        if key == "qtree":
            for bid in sorted(set(a[key]) | set(b[key])):
                x, y = a[key].get(bid, []), b[key].get(bid, [])
                report(f"{case}/qtree/{bid}", x == y,
                       first_diff(x, x, y) or f"{x} vs {y}")
        elif key.startswith("query-pci"):
            machine = CASES[case][0]
            x = drop_known_missing(machine, a[key])
            y = drop_known_missing(machine, b[key])
            report(f"{case}/{key}", x == y, json_diff(x, y))
        elif key.startswith("info-pci"):
            machine = CASES[case][0]
            x = drop_missing_text(machine, a[key]).split("\r\n")
            y = drop_missing_text(machine, b[key]).split("\r\n")
            report(f"{case}/{key}", x == y, first_diff(x, x, y))
        else:
            report(f"{case}/{key}", a[key] == b[key],
                   first_diff(a[key], a[key], b[key]) or
                   f"{len(a[key])} vs {len(b[key])} lines")


def bar_registers(case):
    """The bridges' BARs (SHPC register file, MSI-X table and PBA) mapped
    and driven: every register read at each size, SHPC commands, the SHPC
    capability's dword window, then a seeded stream of writes and reads
    of every size at any offset; every answer compared"""
    machine, _, bridges, _ = CASES[case]
    rng = random.Random(case)
    setup = mmcfg_enable(machine) + program_buses(bridges)
    cmds = []
    bars = []
    for i, (bus, devfn, _, _) in enumerate(bridges):
        # the windows of the bridges on the path, wide open
        cmds += cfg_write(bus, devfn, 0x20, 4, 0xfeb0 | 0xfeff << 16)
        cmds += cfg_write(bus, devfn, 0x04, 2, 0x6)
    for i, (bus, devfn, _, _) in enumerate(bridges):
        addr = 0xfeb00000 + i * 0x10000
        cmds += cfg_write(bus, devfn, 0x10, 4, addr)
        cmds += cfg_write(bus, devfn, 0x14, 4, 0)
        bars.append(addr)
    cmds += ["%s 0x%x" % (op, bar + off) for bar in bars
             for off in range(0, 0x100, 4)
             for op in ("readl", "readw", "readb")]
    for bar in bars:
        # SHPC: command target and code (slot state, LEDs), bus speed,
        # power/enable all slots, an invalid one; interrupt disables
        for code, target in ((0x01 | 0x4, 1), (0x02 | 0x4 | 0x10, 2),
                             (0x03 | 0xc, 1), (0x40, 0), (0x41, 0),
                             (0x48, 0), (0x49, 0), (0x4a, 0), (0x3f, 31),
                             (0x02, 0)):
            cmds += ["writeb 0x%x 0x%x" % (bar + 0x15, target),
                     "writeb 0x%x 0x%x" % (bar + 0x14, code),
                     "readl 0x%x" % (bar + 0x14), "readl 0x%x" % (bar + 0x18),
                     "readl 0x%x" % (bar + 0x20), "readl 0x%x" % (bar + 0x24),
                     "readl 0x%x" % (bar + 0x28)]
        cmds += ["writel 0x%x 0xffffffff" % (bar + 0x20),
                 "readl 0x%x" % (bar + 0x20), "readl 0x%x" % (bar + 0x18)]
    for bus, devfn, _, _ in bridges:
        # the SHPC capability's window (0x40: select, 0x44: data)
        for sel in (0, 3, 5, 9, 0x27, 0xff):
            cmds += cfg_write(bus, devfn, 0x42, 1, sel)
            cmds += ["inl 0xcfc"]
            cmds += cfg_write(bus, devfn, 0x44, 4, 0x5a5a5a5a)
            cmds += ["inl 0xcfc"]
    for _ in range(600):
        bar = rng.choice(bars)
        off = rng.randrange(0x1000) if rng.random() < 0.3 \
            else rng.randrange(0x100)
        size = rng.choice((1, 2, 4, 8))
        op = {1: "b", 2: "w", 4: "l", 8: "q"}[size]
        if rng.random() < 0.5:
            cmds.append("write%s 0x%x 0x%x" % (op, bar + off,
                                                rng.getrandbits(8 * size)))
        cmds.append("read%s 0x%x" % (op, bar + off))
    a = session(ORACLE, case, setup + cmds)[len(setup):]
    b = session(BINARY, case, setup + cmds)[len(setup):]
    report(f"{case}/bar-registers", a == b, first_diff(cmds, a, b))


# Compat entries (hw_compat_3_1: root ports' link and ACS; 2_9/2_8:
# pci-bridge's SHPC; 2_8: extended capability init; 2_3: DLLLA; pc
# 6.0/1.7: the PM function's ACPI hot-plug, so presence in the slot)
VERSIONS = ["pc-i440fx-1.7", "pc-i440fx-2.0", "pc-i440fx-2.3",
            "pc-i440fx-2.8", "pc-i440fx-2.9", "pc-i440fx-3.1",
            "pc-i440fx-4.0", "pc-q35-2.4", "pc-q35-2.8", "pc-q35-2.9",
            "pc-q35-3.1", "pc-q35-4.0", "pc-q35-6.0", "pc-q35-6.1"]
VERSION_DEVICES = ["pcie-root-port,id=rp,chassis=1,slot=1,addr=0x3",
                   "pcie-pci-bridge,id=ppb,bus=rp",
                   "pci-bridge,id=pb,chassis_nr=3,addr=0x4"]


def versions():
    """Each bridge's configuration space and qtree across machine types"""
    for machine in VERSIONS:
        bridges = [(0, 0x18, 1, 2), (1, 0x00, 2, 2), (0, 0x20, 3, 3)]
        setup = mmcfg_enable(machine) + program_buses(bridges)
        dump = []
        for bus, devfn, _, _ in bridges:
            if "q35" in machine:
                base = MMCFG + (bus << 20) + (devfn << 12)
                dump += ["readl 0x%x" % (base + off)
                         for off in range(0, 4096, 4)]
            else:
                for off in range(0, 256, 4):
                    dump += ["outl 0xcf8 0x%x" % cfg(bus, devfn, off),
                             "inl 0xcfc"]
        args = ["-machine", machine, "-qtest-log", "/dev/null"] + \
            devargs(VERSION_DEVICES)
        a = qtest_session(ORACLE, args, setup + dump)[len(setup):]
        b = qtest_session(BINARY, args, setup + dump)[len(setup):]
        report(f"versions/{machine}/config", a == b, first_diff(dump, a, b))
        trees = []
        for binary in (ORACLE, BINARY):
            with QtestMachine(binary, ["-machine", machine, "-S"] +
                              devargs(VERSION_DEVICES)) as m:
                trees.append(qtree_bridges(hmp(m, "info qtree")))
        report(f"versions/{machine}/qtree", trees[0] == trees[1],
               json_diff(trees[0], trees[1]))


def msi_delivery():
    """A pcie-root-port's hot-plug interrupt as an MSI-X message into RAM:
    a Slot Control write completes a command (Command Completed), which
    with HPIE and CCIE on sends vector 0 — or nothing while the port's
    Bus Master Enable is clear"""
    machine = "pc-q35-7.2"
    dev = ["pcie-root-port,id=rp,chassis=1,slot=1,addr=0x3"]
    devfn = 3 << 3
    for bme in (True, False):
        cmds = (cfg_write(0, devfn, 0x10, 4, 0xfebf0000) +
                cfg_write(0, devfn, 0x4, 2, 0x6 if bme else 0x2))
        # entry 0 of the table (BAR 0): address, data, unmasked; enable
        cmds += ["writel 0xfebf0000 0x100000", "writel 0xfebf0004 0x0",
                 "writel 0xfebf0008 0x4242", "writel 0xfebf000c 0x0"]
        cmds += cfg_write(0, devfn, 0x4a, 2, 0x8000)
        # Slot Control (PCIe capability at 0x54): HPIE | CCIE
        cmds += cfg_write(0, devfn, 0x54 + 0x18, 2, 0x30)
        cmds += ["outl 0xcf8 0x%x" % cfg(0, devfn, 0x54 + 0x18),
                 "inl 0xcfc", "readl 0x100000"]
        a = qtest_session(ORACLE, ["-machine", machine] + devargs(dev), cmds)
        b = qtest_session(BINARY, ["-machine", machine] + devargs(dev), cmds)
        report(f"msi-delivery/msix/bme={int(bme)}",
               a == b and "4242" in a[-1] if bme else a == b,
               first_diff(cmds, a, b) or f"last answers {a[-1]} {b[-1]}")


def config_garbage(case, seed=""):
    """A seeded stream of configuration writes of every size to every
    bridge (bus numbers left alone), each followed by reads, and at the
    end every function's 256 bytes again: the side effects (MSI's queue
    size, the SHPC window, slot control, bridge control, windows) alike"""
    machine, _, bridges, pcie = CASES[case]
    rng = random.Random("garbage-" + seed + case)
    setup = mmcfg_enable(machine) + program_buses(bridges)
    cmds = []
    for _ in range(1500):
        bus, devfn, _, _ = rng.choice(bridges)
        size = rng.choice((1, 2, 4))
        off = rng.randrange(0, 256, size)
        if off in range(0x18, 0x1c) or off in (0x3c, 0x3e, 0x3f) and \
                rng.random() < 0.9:
            continue        # keep the routing (and mostly no bus reset)
        v = rng.getrandbits(8 * size)
        if (bus, devfn) in pcie and rng.random() < 0.3:
            a = MMCFG + (bus << 20) + (devfn << 12) + \
                rng.randrange(0, 4096, size)
            op = {1: "b", 2: "w", 4: "l"}[size]
            cmds += ["write%s 0x%x 0x%x" % (op, a, v), "read%s 0x%x" % (op, a)]
            continue
        cmds += cfg_write(bus, devfn, off, size, v)
        cmds += ["in%s 0x%x" % ({1: "b", 2: "w", 4: "l"}[size],
                                0xcfc + (off & 3))]
    for bus, devfn, _, _ in bridges:
        for off in range(0, 256, 4):
            cmds += ["outl 0xcf8 0x%x" % cfg(bus, devfn, off), "inl 0xcfc"]
    a = session(ORACLE, case, setup + cmds)[len(setup):]
    b = session(BINARY, case, setup + cmds)[len(setup):]
    report(f"{case}/config-garbage{seed}", a == b, first_diff(cmds, a, b))


TYPES = ["pcie-root-port", "pci-bridge", "pci-bridge-seat",
         "i82801b11-bridge", "pcie-pci-bridge"]


def type_info(binary):
    """-device T,help and device-list-properties of each type"""
    seen = {}
    with QtestMachine(binary, ["-machine", "pc-q35-7.2", "-S"]) as m:
        for t in TYPES:
            props = m.cmd("device-list-properties", {"typename": t})
            seen[t] = sorted(props, key=lambda p: p["name"])
    return seen


def help_text(binary, t):
    return subprocess.run([binary, "-device", t + ",help"],
                          capture_output=True, text=True).stdout


def types():
    a = type_info(ORACLE)
    b = type_info(BINARY)
    for t in TYPES:
        x, y = help_text(ORACLE, t), help_text(BINARY, t)
        report(f"help/{t}", x == y, first_diff(x.splitlines(),
                                                x.splitlines(),
                                                y.splitlines()))
        # this tree's JSON has no unsigned 64-bit numbers: a size's
        # all-ones default reads -1 here (docs/devices.md)
        for p in a[t]:
            if p.get("default-value") == 18446744073709551615:
                p["default-value"] = -1
        report(f"device-list-properties/{t}", a[t] == b[t],
               json_diff(a[t], b[t]))


# QEMU's refusals: the first line of stderr, program name left out
BAD = [
    ["-machine", "q35", "-device", "pci-bridge,id=b"],
    ["-machine", "q35", "-device", "pci-bridge,id=b,chassis_nr=0"],
    ["-machine", "q35", "-device", "pcie-root-port,id=a,chassis=1,slot=1",
     "-device", "pcie-root-port,id=b,chassis=1,slot=1"],
    ["-machine", "q35", "-device",
     "pcie-root-port,id=a,chassis=1,slot=1,aer_log_max=200"],
    ["-machine", "q35", "-device", "pcie-root-port,id=a,x-speed=3"],
    ["-machine", "q35", "-device", "pcie-root-port,id=a,x-width=64"],
    ["-machine", "q35", "-device", "pcie-root-port,id=a,bus=nope"],
    ["-machine", "q35", "-device", "pcie-root-port,id=a,io-reserve=zz"],
    ["-machine", "q35", "-device",
     "pcie-root-port,id=a,pref32-reserve=1M,pref64-reserve=1M"],
    ["-machine", "q35", "-device",
     "pcie-root-port,id=a,mem-reserve=8G"],
    ["-machine", "pc", "-device", "pci-bridge,id=a,chassis_nr=1,msi=maybe"],
    ["-machine", "pc", "-device", "pci-bridge,id=a,chassis_nr=1",
     "-device", "pci-bridge,id=b,chassis_nr=2,bus=a,addr=0x20"],
    ["-machine", "none", "-device", "pcie-root-port"],
    ["-machine", "q35", "-device", "pci-bridge,chassis_nr=1,bus=isa.0"],
    ["-machine", "q35", "-device", "pcie-root-port,id=r",
     "-device", "isa-serial,bus=r"],
    ["-machine", "q35", "-device", "pcie-root-port,id=r,chassis=1",
     "-device", "pci-bridge,chassis_nr=2,bus=r,addr=0x0",
     "-device", "pci-bridge,chassis_nr=3,bus=r,addr=0x0"],
]


def refusal(binary, args):
    try:
        run = subprocess.run([binary, "-display", "none", "-nodefaults",
                              "-S", "-qtest", "stdio", "-qtest-log",
                              "/dev/null"] + args, input="",
                             capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        return "started"
    first = run.stderr.strip().splitlines()
    return re.sub(r"^[^:]*qemu-system-x86_64: ", "", first[-1]) \
        if first else f"exit {run.returncode}"


def refusals():
    for args in BAD:
        a = refusal(ORACLE, args)
        b = refusal(BINARY, args)
        report("refused/" + " ".join(args[1:]), a == b,
               f"QEMU 7.2 {a!r}, here {b!r}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"1..0 # SKIP QEMU 7.2 not found at {ORACLE}")
        return 77
    for case in CASES:
        config_space(case)
        write_masks(case)
        compare_monitor(case)
        bar_registers(case)
        config_garbage(case)
        config_garbage(case, "-b")
    types()
    versions()
    refusals()
    msi_delivery()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
