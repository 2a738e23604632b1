#!/usr/bin/env python3
"""The ACPI hotplug register blocks compared with QEMU 7.2 (docs/devices.md,
"ACPI hotplug").

Both binaries run the same machine under qtest (-S, -smp 1,maxcpus=4) with
the IOAPIC's inputs intercepted, so every change of the SCI (GSI 9) shows
as "IRQ raise/lower 9" before the answer that follows it.  The same steps
must get the same answers:

  * GPE0 (PIIX4 at 0xafe0, 4 bytes; ICH9 at PMBASE + 0x20, 16 bytes, with
    PMBASE programmed): every byte, 8/16/32-bit reads, enable writes,
    write-1-to-clear status;
  * the legacy CPU hotplug bitmap (0xaf00 / 0xcd8, 32 bytes) and, after the
    OSPM's switch (a 0 written to its byte 0), the modern block: selector,
    flags, command, data, for each possible vCPU and past them;
  * device_add of vCPUs over QMP, in legacy and modern mode: the bitmap or
    insert event, GPE0 bit 2 and the SCI, the next-event and CPU-id
    commands, clearing the event, _OST writes (and the ACPI_DEVICE_OST
    event's data, query-acpi-ospm-status);
  * GPE0 and CPU hotplug on pc-i440fx-7.2, pc-q35-7.2 and older types
    (pc-i440fx-2.0, pc-q35-5.2);
  * the PCI hotplug block (acpi-pci-hotplug at 0xae00 / 0xcc0): every
    register for several selectors, device_add/device_del of a pci-bridge
    on the root bus and behind coldplugged bridges and root ports (PCIU,
    PCID, GPE0 bit 1, the SCI, acpi-index through PCIAIDX, ejects, the
    DEVICE_DELETED that follows), with acpi-root-pci-hotplug=off, with
    both it and bridge support off, on pc-i440fx-1.7 (no bridge support:
    legacy PIIX), and where 7.2 refuses device_add;

the PM device's ACPI properties (pm_io_base, gpe0_blk, ...; qom-list of
its ACPI properties and regions) before and after PMBASE is programmed;
and `info mtree -f` under KVM shows the acpi-gpe0, acpi-cpu-hotplug and
acpi-pci-hotplug regions where 7.2 has them (skipped without /dev/kvm).
Skips (77) where QEMU 7.2 is missing.
"""

import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine  # noqa: E402
from qtest_session import QTestMachine  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - acpi-hotplug/{name}" +
          ("" if ok else f" # {detail}"))


# The chipsets -----------------------------------------------------------------

PIIX = {"gpe": 0xafe0, "gpe_len": 4, "cpuhp": 0xaf00, "setup": []}


def ich9_cfg(off, val):
    return [f"outl 0xcf8 0x{0x80000000 | (31 << 11) | off:x}",
            f"outl 0xcfc 0x{val:x}"]


# PMBASE 0x600 and ACPI_EN, as firmware programs them
ICH9 = {"gpe": 0x620, "gpe_len": 16, "cpuhp": 0xcd8,
        "setup": ich9_cfg(0x40, 0x601) + ich9_cfg(0x44, 0x80)}


def reads(port, n):
    """8/16/32-bit reads at each byte of the block, within it (past the
    end of ICH9's GPE0 lies its SMI_EN, not modelled here yet)"""
    out = []
    for i in range(n):
        out += [f"in{c} 0x{port + i:x}" for c, size in
                (("b", 1), ("w", 2), ("l", 4)) if i + size <= n]
    return out


def gpe_steps(c):
    g, n = c["gpe"], c["gpe_len"]
    half = n // 2
    s = reads(g, n)
    s += [f"outl 0x{g + half:x} 0xffffffff"] + reads(g, n)
    s += [f"outb 0x{g + n - 1:x} 0x5a", f"outw 0x{g + half:x} 0x0403"]
    s += reads(g, n)
    # status is write-1-to-clear and set by nobody here: stays 0
    s += [f"outl 0x{g:x} 0xffffffff"] + reads(g, half)
    s += [f"outb 0x{g + half:x} 0x00"] + reads(g, n)
    return s


def cpu_add(n):
    """device_add of the n-th possible vCPU (by topology ids, which
    query-hotpluggable-cpus gives: cores on 7.2 types, sockets on older)"""
    return f"qmp:device_add {n}"


def modern_dump(base, count=5):
    s = []
    for i in range(count):
        s += [f"outl 0x{base:x} 0x{i:x}"] + reads(base, 12)
    return s


def cpu_steps(c):
    g, b = c["gpe"], c["cpuhp"]
    half = c["gpe_len"] // 2
    s = reads(b, 32) + ["pm:cpu-hotplug-legacy",
                        qmp("query-acpi-ospm-status")]
    # legacy plug: the bitmap, GPE0 bit 2, the SCI once enabled
    s += [cpu_add(1), f"inb 0x{g:x}", f"inb 0x{b:x}"]
    s += [f"outb 0x{g + half:x} 0x04", f"inb 0x{g:x}",
          f"outb 0x{g:x} 0x04", f"inb 0x{g:x}"]
    s += [cpu_add(2), f"inb 0x{g:x}", f"inb 0x{b:x}", f"outb 0x{g:x} 0x04"]
    # writes other than 0 at byte 0 change nothing
    s += [f"outb 0x{b:x} 0x01", f"outb 0x{b + 1:x} 0x00", f"inb 0x{b:x}"]
    # the OSPM's switch
    s += [f"outb 0x{b:x} 0x00"] + reads(b, 16) + modern_dump(b)
    s += ["pm:cpu-hotplug-legacy", "pm:cpu-hotplug-legacy=false",
          "pm:acpi-pcihp-io-base", "pm:acpi-pcihp-io-len"]
    s += [cpu_add(3), f"inb 0x{g:x}"] + modern_dump(b)
    # next vCPU with an event, from selector 0
    s += [f"outl 0x{b:x} 0", f"outb 0x{b + 5:x} 0", f"inl 0x{b + 8:x}",
          f"inb 0x{b + 4:x}"]
    # the CPU id command, then clear the insert event
    s += [f"outb 0x{b + 5:x} 3", f"inl 0x{b + 8:x}", f"inl 0x{b:x}",
          f"outb 0x{b + 4:x} 2", f"inb 0x{b + 4:x}"]
    s += [f"outb 0x{g:x} 0x04", f"inb 0x{g:x}"]
    # firmware remove and remove-event bits; boot vCPU and empty slot
    for sel in (0, 1, 3):
        s += [f"outl 0x{b:x} {sel}", f"outb 0x{b + 4:x} 0x10",
              f"inb 0x{b + 4:x}", f"outb 0x{b + 4:x} 0x04",
              f"inb 0x{b + 4:x}"]
    # _OST: event then status (ACPI_DEVICE_OST)
    s += [f"outl 0x{b:x} 3", f"outb 0x{b + 5:x} 1", f"outl 0x{b + 8:x} 3",
          f"outb 0x{b + 5:x} 2", f"outl 0x{b + 8:x} 0x81",
          f"inl 0x{b + 8:x}", "events:ACPI_DEVICE_OST",
          qmp("query-acpi-ospm-status")]
    # commands past the last, a selector past the last vCPU
    s += [f"outb 0x{b + 5:x} 7", f"inl 0x{b + 8:x}", f"outl 0x{b:x} 9",
          f"outb 0x{b + 4:x} 2", f"outb 0x{b + 5:x} 0"] + reads(b, 12)
    s += [f"outl 0x{b:x} 0", f"outb 0x{b + 5:x} 0", f"inl 0x{b + 8:x}"]
    return s


def pcihp_regs(base, sels=(0,)):
    """Every register of the bus each selector names, 32-bit (and the
    narrower accesses the block refuses)"""
    s = []
    for sel in sels:
        s += [f"outl 0x{base + 0x10:x} {sel}"]
        s += [f"inl 0x{base + off:x}" for off in range(0, 0x18, 4)]
    s += [f"inb 0x{base + 0xc:x}", f"inw 0x{base + 0xc:x}",
          f"inb 0x{base + 0x10:x}", f"inl 0x{base + 0x2:x}",
          f"inl 0x{base + 0x18:x}"]
    return s


def qmp(cmd, **args):
    return "qmp:" + json.dumps({"execute": cmd, "arguments": args})


def cfg_read(bus, dev, off=0):
    return [f"outl 0xcf8 0x{0x80000000 | bus << 16 | dev << 11 | off:x}",
            "inl 0xcfc"]


def pcihp_steps(base, gpe, gpe_len, bus=None, sel=0, legacy=False):
    """device_add/device_del of a pci-bridge in slot 5 of bus (root: None)
    that selector sel names, and what the registers say"""
    half = gpe_len // 2
    where = {"bus": bus} if bus else {}
    s = [f"outl 0x{base + 0x10:x} {sel}"]
    s += [f"outb 0x{gpe + half:x} 0x02",
          qmp("device_add", driver="pci-bridge", id="hb", chassis_nr=9,
              addr="5", **{"acpi-index": 7}, **where),
          f"inb 0x{gpe:x}", f"inl 0x{base:x}", f"inl 0x{base:x}",
          f"inl 0x{base + 0xc:x}", f"outb 0x{gpe:x} 0x02"]
    s += [f"outl 0x{base + 0x14:x} 0x20", f"inl 0x{base + 0x14:x}",
          f"inl 0x{base + 0x14:x}", f"outl 0x{base + 0x14:x} 0x40",
          f"inl 0x{base + 0x14:x}"]
    s += [qmp("device_del", id="hb"), f"inb 0x{gpe:x}",
          f"inl 0x{base + 4:x}", qmp("device_del", id="hb"),
          qmp("qom-get", path="/machine/peripheral/hb",
              property="hotpluggable")]
    # an eject of an empty slot, of a slot of the chipset, then the bridge
    s += [f"outl 0x{base + 8:x} 0x100", f"outl 0x{base + 8:x} 0x2",
          f"inl 0x{base + 4:x}", f"outl 0x{base + 8:x} 0x20",
          "deleted:hb", f"inl 0x{base + 4:x}",
          f"inl 0x{base:x}", f"outb 0x{gpe:x} 0x02", f"inb 0x{gpe:x}"]
    if not bus:
        s += cfg_read(0, 5)
    # an eject with no request takes a hotplugged device too
    s += [qmp("device_add", driver="pci-bridge", id="hb2", chassis_nr=10,
              addr="6", **where), f"outl 0x{base + 8:x} 0x40",
          "deleted:hb2"]
    return s


PCI_CASES = [
    # name, machine, extra args, steps
    ("pc-i440fx-7.2", "pc-i440fx-7.2",
     ["-device", "pci-bridge,id=cb,chassis_nr=1,addr=3"],
     pcihp_regs(0xae00, (0, 1, 2, 255, 256, 0x80000001)) +
     pcihp_steps(0xae00, 0xafe0, 4) +
     pcihp_steps(0xae00, 0xafe0, 4, bus="cb", sel=1) +
     [qmp("qom-get", path="/machine/peripheral/cb",
          property="hotpluggable")]),
    ("pc-i440fx-7.2/root-off", "pc-i440fx-7.2",
     ["-global", "PIIX4_PM.acpi-root-pci-hotplug=off",
      "-device", "pci-bridge,id=cb,chassis_nr=1,addr=3"],
     pcihp_regs(0xae00, (0, 1)) +
     [qmp("device_add", driver="pci-bridge", id="x", chassis_nr=5)] +
     pcihp_steps(0xae00, 0xafe0, 4, bus="cb", sel=0)),
    ("pc-i440fx-7.2/all-off", "pc-i440fx-7.2",
     ["-global", "PIIX4_PM.acpi-root-pci-hotplug=off",
      "-global", "PIIX4_PM.acpi-pci-hotplug-with-bridge-support=off"],
     pcihp_regs(0xae00) +
     [qmp("device_add", driver="pci-bridge", id="x", chassis_nr=5)]),
    ("pc-i440fx-1.7", "pc-i440fx-1.7",
     ["-device", "pci-bridge,id=cb,chassis_nr=1,addr=3"],
     pcihp_regs(0xae00, (0, 1)) + pcihp_steps(0xae00, 0xafe0, 4)),
    ("pc-q35-7.2", "pc-q35-7.2",
     ["-device", "pcie-root-port,id=rp1,chassis=1,slot=1,addr=4",
      "-device", "pcie-root-port,id=rp2,chassis=2,slot=2,addr=5,"
      "hotplug=off",
      "-device", "pcie-pci-bridge,id=pb,bus=rp1"],
     ICH9["setup"] + pcihp_regs(0xcc0, (0, 1, 2)) +
     [qmp("device_add", driver="pci-bridge", id="x", chassis_nr=5),
      qmp("device_add", driver="pci-bridge", id="y", chassis_nr=6,
          bus="rp2")] +
     pcihp_steps(0xcc0, 0x620, 16, bus="pb", sel=1)),
    # what 7.2 refuses at device_add (and what it takes) on the root bus
    ("pc-i440fx-7.2/refusals", "pc-i440fx-7.2", [],
     [qmp("device_add", **a) for a in (
         {"driver": "piix3-ide"},
         {"driver": "pci-bridge", "chassis_nr": 1, "addr": "1.5"},
         {"driver": "pci-bridge", "chassis_nr": 7, "addr": "9.3"},
         {"driver": "pci-bridge", "chassis_nr": 8, "addr": "9.0"},
         {"driver": "pci-bridge", "chassis_nr": 1, "addr": "1"},
         {"driver": "pci-bridge", "chassis_nr": 2, "acpi-index": 20000},
         {"driver": "pci-bridge", "chassis_nr": 3, "acpi-index": 5,
          "id": "a"},
         {"driver": "pci-bridge", "chassis_nr": 4, "acpi-index": 5},
         {"driver": "i82801b11-bridge"}, {"driver": "pcie-pci-bridge"})] +
     ["inl 0xae00", "inl 0xae0c"]),
    # into an empty root port: its power controller goes on
    ("pc-q35-7.2/root-port", "pc-q35-7.2",
     ["-device", "pcie-root-port,id=rp3,chassis=3,slot=3,addr=6"],
     ICH9["setup"] + pcihp_regs(0xcc0, (0, 1)) +
     [x for off in range(0x40, 0x80, 4) for x in cfg_read(0, 6, off)] +
     [qmp("device_add", driver="pci-bridge", id="hb", chassis_nr=9,
          bus="rp3"), "inl 0xcc0"] +
     [x for off in range(0x40, 0x80, 4) for x in cfg_read(0, 6, off)] +
     cfg_read(1, 0) + [qmp("device_del", id="hb"), "inl 0xcc4",
                       "outl 0xcc8 1", "deleted:hb"] + cfg_read(1, 0) +
     [x for off in range(0x40, 0x80, 4) for x in cfg_read(0, 6, off)]),
]


# Running ----------------------------------------------------------------------

def possible_cpus(m):
    """(type, props) of each possible vCPU, in topology order"""
    q = m.cmd("query-hotpluggable-cpus")
    key = ("socket-id", "die-id", "core-id", "thread-id")
    q.sort(key=lambda e: tuple(e["props"].get(k, 0) for k in key))
    return [(e["type"], e["props"]) for e in q]


def run_step(s, step, cpus):
    if step.startswith("qmp:device_add "):
        n = int(step.split()[1])
        ctype, props = cpus[n]
        args = dict(props, driver=ctype, id=f"cpu{n}")
        args.pop("node-id", None)
        r = s.machine.cmd_raw("device_add", args)
        # the answer, and the interrupts the plug raised
        err = r.get('error', {}).get('desc')
        return f"{err or 'ok'} | " + s.qtest("outb 0x80 0")
    if step.startswith("qmp:{"):
        req = json.loads(step[4:])
        r = s.machine.cmd_raw(req["execute"], req.get("arguments"))
        err = r.get("error", {}).get("desc")
        out = err or json.dumps(r.get("return"), sort_keys=True)
        return f"{out} | " + s.qtest("outb 0x80 0")
    if step.startswith("pm:"):
        # qom-get/qom-set on the PM device (its path found by type)
        kids = s.machine.cmd("qom-list", {"path": "/machine/unattached"})
        path = next("/machine/unattached/" + k["name"] for k in kids
                    if k["type"] in ("child<PIIX4_PM>", "child<ICH9-LPC>"))
        if step == "pm:?":
            # the ACPI blocks' properties and regions (7.2 lists in hash
            # order; the PM device's other children are not this test's,
            # nor ICH9's SMI_EN, acpi-smi, not modelled yet)
            return repr(sorted(
                (p["name"], p["type"]) for p in
                s.machine.cmd("qom-list", {"path": path})
                if re.search(r"acpi|gpe|hotplug|pcihp|pm_io|sci_int",
                             p["name"]) and p["name"] != "acpi-smi[0]"))
        prop, _, val = step[3:].partition("=")
        if val:
            r = s.machine.cmd_raw("qom-set", {"path": path, "property": prop,
                                              "value": json.loads(val)})
        else:
            r = s.machine.cmd_raw("qom-get", {"path": path, "property": prop})
        return repr(r.get("return", r.get("error", {}).get("desc")))
    if step.startswith("deleted:"):
        # 7.2 sends DEVICE_DELETED when the device is finalized, after an
        # RCU grace period: wait for it rather than expect it at a step
        dev = step.split(":", 1)[1]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            s.machine.cmd("query-status")
            for e in s.machine.events:
                if (e.get("event") == "DEVICE_DELETED" and
                        e.get("data", {}).get("device") == dev):
                    s.machine.events.remove(e)
                    return repr(e["data"])
            time.sleep(0.05)
        return "no DEVICE_DELETED"
    if step.startswith("events:"):
        s.qtest("outb 0x80 0")
        name = step.split(":", 1)[1]
        s.machine.cmd("query-status")
        ev = [e.get("data") for e in s.machine.events
              if e.get("event") == name]
        s.machine.events.clear()
        return repr(ev)
    return s.qtest(step)


def answers(binary, args, steps):
    with QTestMachine(binary, args, irqs=True) as s:
        cpus = possible_cpus(s.machine)
        s.qtest("irq_intercept_in ioapic")
        return [f"{st}: {run_step(s, st, cpus)}" for st in steps]


def compare(name, machine, steps, extra=()):
    args = ["-machine", machine, "-smp", "1,maxcpus=4"] + list(extra)
    mine = answers(BINARY, args, steps)
    theirs = answers(ORACLE, args, steps)
    diff = [f"ours {a!r} qemu72 {b!r}"
            for a, b in zip(mine, theirs) if a != b]
    if len(mine) != len(theirs):
        diff.append(f"{len(mine)} answers, QEMU 7.2 {len(theirs)}")
    report(name, not diff, "; ".join(diff[:3]))


MACHINES = [("pc-i440fx-7.2", PIIX), ("pc-q35-7.2", ICH9),
            ("pc-i440fx-2.0", PIIX), ("pc-q35-5.2", ICH9)]


def mtree_acpi(binary, machine):
    with Machine(binary, ["-accel", "kvm", "-S", "-display", "none",
                          "-nodefaults", "-machine", machine,
                          "-smp", "1,maxcpus=4"]) as m:
        out = m.cmd("human-monitor-command",
                    {"command-line": "info mtree -f"})
    io = out.split("FlatView")
    lines = set()
    for view in io:
        if "Root memory region: io" in view:
            lines |= {ln.strip() for ln in view.splitlines()
                      if re.search(r"acpi-(gpe0|cpu-hotplug|pci-hot)", ln)}
    return sorted(lines)


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    for machine, c in MACHINES:
        compare(f"gpe0/{machine}", machine, c["setup"] + gpe_steps(c))
        compare(f"cpu/{machine}", machine, c["setup"] + cpu_steps(c))
        # the switch through the property instead
        compare(f"cpu-qom-switch/{machine}", machine,
                c["setup"] + ["pm:cpu-hotplug-legacy=false",
                              "pm:cpu-hotplug-legacy", cpu_add(1),
                              f"inb 0x{c['gpe']:x}"] +
                modern_dump(c["cpuhp"]) + reads(c["cpuhp"], 32))
    # the PM device's ACPI properties, before and after PMBASE is set
    props = ["pm:" + p for p in ("pm_io_base", "gpe0_blk", "gpe0_blk_len",
                                 "sci_int", "acpi_enable_cmd",
                                 "acpi_disable_cmd")] + ["pm:?"]
    compare("pm-props/pc-i440fx-7.2", "pc-i440fx-7.2",
            props + ["outl 0xcf8 0x80000b40", "outl 0xcfc 0x701",
                     "outl 0xcf8 0x80000b80", "outl 0xcfc 0x1"] + props)
    compare("pm-props/pc-q35-7.2", "pc-q35-7.2", props + ICH9["setup"] + props)
    for name, machine, extra, steps in PCI_CASES:
        compare(f"pci/{name}", machine, steps, extra)
    if os.access("/dev/kvm", os.R_OK | os.W_OK):
        for machine in ("pc-i440fx-7.2", "pc-q35-7.2"):
            mine = mtree_acpi(BINARY, machine)
            theirs = mtree_acpi(ORACLE, machine)
            report(f"mtree/{machine}", mine == theirs and mine,
                   f"ours {mine} qemu72 {theirs}")
    else:
        print("# mtree: no /dev/kvm, skipped")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
