#!/usr/bin/env python3
"""The ACPI hotplug register blocks compared with QEMU 7.2 (docs/devices.md,
"ACPI GPE0 and CPU hotplug").

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
    event's data);
  * on pc-i440fx-7.2, pc-q35-7.2 and older types (pc-i440fx-2.0,
    pc-q35-5.2);

and `info mtree -f` under KVM shows the acpi-gpe0 and acpi-cpu-hotplug
regions where 7.2 has them (skipped without /dev/kvm).

Not compared (not built yet): the PCI hotplug block (acpi-pci-hotplug).
Skips (77) where QEMU 7.2 is missing.
"""

import os
import re
import sys

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
    s = reads(b, 32)
    # legacy plug: the bitmap, GPE0 bit 2, the SCI once enabled
    s += [cpu_add(1), f"inb 0x{g:x}", f"inb 0x{b:x}"]
    s += [f"outb 0x{g + half:x} 0x04", f"inb 0x{g:x}",
          f"outb 0x{g:x} 0x04", f"inb 0x{g:x}"]
    s += [cpu_add(2), f"inb 0x{g:x}", f"inb 0x{b:x}", f"outb 0x{g:x} 0x04"]
    # writes other than 0 at byte 0 change nothing
    s += [f"outb 0x{b:x} 0x01", f"outb 0x{b + 1:x} 0x00", f"inb 0x{b:x}"]
    # the OSPM's switch
    s += [f"outb 0x{b:x} 0x00"] + reads(b, 16) + modern_dump(b)
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
          f"inl 0x{b + 8:x}", "events:ACPI_DEVICE_OST"]
    # commands past the last, a selector past the last vCPU
    s += [f"outb 0x{b + 5:x} 7", f"inl 0x{b + 8:x}", f"outl 0x{b:x} 9",
          f"outb 0x{b + 4:x} 2", f"outb 0x{b + 5:x} 0"] + reads(b, 12)
    s += [f"outl 0x{b:x} 0", f"outb 0x{b + 5:x} 0", f"inl 0x{b + 8:x}"]
    return s


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
                      if re.search(r"acpi-(gpe0|cpu-hotplug)", ln)}
    return sorted(lines)


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    for machine, c in MACHINES:
        compare(f"gpe0/{machine}", machine, c["setup"] + gpe_steps(c))
        compare(f"cpu/{machine}", machine, c["setup"] + cpu_steps(c))
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
