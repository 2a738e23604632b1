#!/usr/bin/env python3
"""The chipset's storage and SMBus functions compared with Debian's QEMU 7.2
(docs/devices.md, "Storage and SMBus functions").

Both binaries run the same scenario over qtest (a socket of ours) with QMP
beside it, -nodefaults -S, no drives; every answer must be the same:

  * piix3-ide (pc-i440fx-7.2): the taskfile, status, alternate status and
    data registers of both channels at every width and offset, writes to
    them, commands to the empty master and slave (the IRQ 14/15 lines
    they raise), nIEN, SRST, SMART on the empty master (its data through
    the data register); the BMDMA registers once BAR4 is mapped;
  * ich9-ahci (pc-q35-7.2): every HBA and port register before and after
    writes and GHC.HR, the port engines (ST, FRE) with bus mastering off
    and on and with bad buffer addresses, SCTL's port reset, the
    index/data pair at every offset;
  * the SMBus controllers (PIIX4_PM's at 0xb100 on i440fx, ICH9-SMB's in
    BAR4 on q35): every register, then quick, receive-byte, byte-data and
    word-data reads and a send-byte to every address 0x00-0x7f (the SPD
    EEPROMs at 0x50-0x57, errors elsewhere), EEPROM writes read back,
    block transfers both ways, I2C block read, KILL, the deferred start
    without INTREN, HOSTC on ICH9;
  * HMP info pci once their BARs are mapped;
  * the regions of info mtree and info mtree -f once the BARs are mapped
    ("ide", "piix-bmdma-container", "piix-bmdma", "bmdma", "ahci",
    "ahci-idp", "pm-smbus"), and what is left with smbus=off,sata=off;
  * a machine reset (0xcf9) in the middle.

Skips (77) where QEMU 7.2 is missing.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import QTestMachine  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

REGIONS = ("ide", "piix-bmdma-container", "piix-bmdma", "bmdma", "ahci",
           "ahci-idp", "pm-smbus")

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - storage/{name}" +
          ("" if ok else f" # {detail}"))


def region_lines(text):
    """info mtree's lines of REGIONS, with the address space they are in
    (a flat view by its address spaces: both print views in hash order;
    "memory-region:" blocks, 7.2's alias targets, and its SMM address
    space, which this tree lacks (docs/devices.md), are left out)"""
    out, head = [], ""
    for line in text.replace("\r", "").split("\n"):
        if line.startswith(("address-space:", "memory-region:")):
            head = line
            continue
        if line.startswith("FlatView"):
            head = ""
            continue
        if line.startswith(" AS "):
            head += line
            continue
        name = line.split("): ")[-1].split(" ")[0] if "): " in line else ""
        if name in REGIONS and not head.startswith("memory-region:") and \
                "cpu-smm" not in head:
            out.append(f"{head} {line}")
    return sorted(out)


def run(binary, args, steps):
    out = []
    with QTestMachine(binary, args, irqs=True) as s:
        for step in steps:
            if step == "mtree":
                out += region_lines(s.hmp("info mtree"))
                out += region_lines(s.hmp("info mtree -f"))
            elif step.startswith("hmp "):
                out.append(s.hmp(step[4:]).replace("\r", ""))
            elif step.startswith("qom-tree "):
                out.append(str(sorted(
                    p["name"] for p in s.machine.cmd(
                        "qom-list", {"path": step.split()[1]}))))
            else:
                out.append(s.qtest(step))
    return out


def compare(name, args, steps):
    a = run(ORACLE, args, steps)
    b = run(BINARY, args, steps)
    bad = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
    detail = ""
    if bad:
        i, x, y = bad[0]
        step = steps[i] if i < len(steps) else "(mtree)"
        detail = (f"{len(bad)} differ; first at {i} ({step!r}): QEMU 7.2 "
                  f"{x!r}, here {y!r}")
    elif len(a) != len(b):
        detail = f"{len(a)} answers vs {len(b)}"
    report(name, not bad and len(a) == len(b), detail)


def cfg(devfn, off, width, val):
    return [f"outl 0xcf8 {0x80000000 | devfn << 8 | (off & 0xfc):#x}",
            f"out{width} {0xcfc + (off & 3):#x} {val:#x}"]


# piix3-ide ------------------------------------------------------------------

IDE_DEVFN = 0x09
BM = 0xc000
IDE_MAP = (["irq_intercept_in ioapic"] + cfg(IDE_DEVFN, 0x20, "l", BM | 1) +
           cfg(IDE_DEVFN, 0x04, "w", 0x5))
IDE_PORTS = ((0x1f0, 8), (0x3f6, 1), (0x170, 8), (0x376, 1))


def ide_reads():
    """Every offset and width, and the port after each block (0x3f7 is
    the floppy controller's)"""
    out = []
    for base, n in IDE_PORTS:
        for off in range(n + (n > 1)):
            out += [f"in{w} {base + off:#x}" for w in "bwl"]
    return out


def ide_channel(base, ctl):
    s = [f"outb {base + r:#x} {0x11 * r:#x}" for r in range(1, 7)]
    s += [f"inb {base + r:#x}" for r in range(8)] + [f"inb {ctl:#x}"]
    # commands: the empty slave ignores them, the empty master ends each
    # with an interrupt; reading status lowers it
    s += [f"outb {base + 6:#x} 0xb0", f"outb {base + 7:#x} 0xec",
          f"outb {base + 6:#x} 0xa0"]
    for cmd in (0x00, 0x08, 0x20, 0x90, 0xa1, 0xc8, 0xe7, 0xec, 0xef, 0xff):
        s += [f"outb {base + 7:#x} {cmd:#x}", f"inb {BM + 2 + (base == 0x170) * 8:#x}",
              f"inb {ctl:#x}", f"inb {base + 7:#x}"]
    # nIEN masks the interrupt, HOB is cleared by any write
    s += [f"outb {ctl:#x} 0x02", f"outb {base + 7:#x} 0xec",
          f"outb {ctl:#x} 0x82", f"inb {base + 2:#x}",
          f"outb {ctl:#x} 0x00", f"outb {base + 7:#x} 0xec"]
    # SRST: busy, then the diagnostic's interrupt a moment later
    s += [f"outb {ctl:#x} 0x04", f"inb {ctl:#x}", f"outb {ctl:#x} 0x00",
          f"inb {base + 7:#x}", f"outb {base + 7:#x} 0x90",
          f"inb {base + 1:#x}"]
    # wide writes
    s += [f"outw {base + 2:#x} 0x1234", f"outl {base:#x} 0x12345678",
          f"outw {base + 7:#x} 0x00ec", f"outw {ctl:#x} 0x0004",
          f"inb {ctl:#x}", f"outb {ctl:#x} 0"]
    return s


def smart(base, feature, sector=0):
    """A SMART command (its key in the cylinder registers)"""
    return [f"outb {base + 1:#x} {feature:#x}", f"outb {base + 3:#x} {sector:#x}",
            f"outb {base + 4:#x} 0x4f", f"outb {base + 5:#x} 0xc2",
            f"outb {base + 7:#x} 0xb0"]


def ide_smart(base, ctl):
    """SMART runs on the empty master in 7.2, its data readable"""
    words = [f"inw {base:#x}"] * 256
    s = smart(base, 0xd0) + words[:4]           # not enabled: aborted
    s += smart(base, 0xd8) + smart(base, 0xd0) + words
    s += smart(base, 0xd1) + [f"inl {base:#x}"] * 128 + [f"inw {base:#x}"]
    # a command during DRQ is ignored, as are register writes
    s += smart(base, 0xd0) + [f"outb {base + 7:#x} 0xec"] + words[:3] + \
        [f"inb {base:#x}"] * 250 + [f"inl {base:#x}"] * 2 + words[:2]
    s += smart(base, 0xd4, 1) + smart(base, 0xd4, 2) + smart(base, 0xd4, 7)
    s += smart(base, 0xd5, 6) + words + smart(base, 0xd5, 1) + words
    s += smart(base, 0xd5, 3) + words[:2]
    s += smart(base, 0xd2, 0) + smart(base, 0xd0) + words
    s += smart(base, 0xd2, 5) + smart(base, 0xda) + smart(base, 0xdb)
    # SRST ends a transfer
    s += smart(base, 0xd0) + words[:5] + [f"outb {ctl:#x} 0x04",
                                          f"outb {ctl:#x} 0x00"] + words[:3]
    s += smart(base, 0xd9) + smart(base, 0xd0) + words[:3]
    return s


def bmdma_steps():
    s = [f"in{w} {BM + o:#x}" for o in range(17) for w in "bwl"]
    for ch in (0, 8):
        b = BM + ch
        s += [f"outb {b:#x} {v:#x}" for v in (0xff, 0x00, 0x01, 0x09, 0x08)]
        s += [f"inb {b:#x}", f"inb {b + 2:#x}", f"outb {b + 2:#x} 0xff",
              f"inb {b + 2:#x}", f"outb {b:#x} 0x01", f"inb {b + 2:#x}",
              f"outb {b:#x} 0x00", f"inb {b + 2:#x}",
              f"outl {b + 4:#x} 0x12345677", f"inl {b + 4:#x}",
              f"outw {b + 6:#x} 0xabcd", f"inl {b + 4:#x}",
              f"outb {b + 5:#x} 0xff", f"inl {b + 4:#x}",
              f"inw {b + 5:#x}", f"inl {b + 5:#x}",
              f"outw {b + 5:#x} 0x1111", f"inl {b + 4:#x}",
              f"outw {b:#x} 0xffff", f"outl {b:#x} 0xffffffff",
              f"inb {b:#x}", f"inb {b + 1:#x}", f"inb {b + 3:#x}"]
    return s


def ide_scenarios():
    m = ["-machine", "pc-i440fx-7.2"]
    compare("piix3-ide/reads", m, IDE_MAP + ide_reads())
    compare("piix3-ide/primary", m,
            IDE_MAP + ide_channel(0x1f0, 0x3f6) + ide_reads())
    compare("piix3-ide/secondary", m,
            IDE_MAP + ide_channel(0x170, 0x376) + ide_reads())
    compare("piix3-ide/bmdma", m, IDE_MAP + bmdma_steps())
    compare("piix3-ide/smart-primary", m, IDE_MAP + ide_smart(0x1f0, 0x3f6))
    compare("piix3-ide/smart-secondary", m,
            IDE_MAP + ide_smart(0x170, 0x376) + ["outb 0x176 0xb0"] +
            ide_smart(0x170, 0x376)[:40])
    compare("piix3-ide/mtree", m, ["mtree"] + IDE_MAP + ["mtree"])
    compare("piix3-ide/info-pci", m, IDE_MAP + ["hmp info pci"])
    # a machine reset clears BMDMA, the BAR and the taskfile state (no
    # IRQ interception: 7.2's PIT, which this tree lacks, raises IRQ 0)
    compare("piix3-ide/reset", m,
            IDE_MAP[1:] + ["outb 0xc000 0x09", "outb 0xc002 0x60",
                       "outl 0xc004 0x1000", "outb 0x1f7 0xec",
                       "outb 0xcf9 0x06", "inb 0xc000"] +
            IDE_MAP[1:] + ["inb 0xc000", "inb 0xc002", "inl 0xc004",
                       "inb 0x1f7", "outb 0x1f7 0xec", "inb 0xc002"])


# ich9-ahci ---------------------------------------------------------------------

AHCI_DEVFN = 0xfa
ABAR = 0xfebf0000
IDP = 0xc040
AHCI_MAP = (cfg(AHCI_DEVFN, 0x24, "l", ABAR) +
            cfg(AHCI_DEVFN, 0x20, "l", IDP | 1) +
            cfg(AHCI_DEVFN, 0x04, "w", 0x3))


def port(n, reg):
    return ABAR + 0x100 + n * 0x80 + reg


def hba_dump():
    s = [f"readl {ABAR + o:#x}" for o in range(0, 0x100, 4)]
    s += [f"readl {port(n, r):#x}" for n in range(7) for r in range(0, 0x80, 4)]
    return s


def ahci_writes():
    s = []
    for n in range(6):
        for r, v in ((0x00, 0x12345678), (0x04, 0x9abcdef0),
                     (0x08, 0x11111100), (0x0c, 0x22), (0x10, 0xffffffff),
                     (0x14, 0xffffffff), (0x1c, 0xff), (0x20, 0xff),
                     (0x24, 0), (0x28, 0xff), (0x2c, 0x301),
                     (0x30, 0xffffffff), (0x34, 0x5), (0x38, 0x3),
                     (0x3c, 0xff), (0x70, 0xff)):
            s += [f"writel {port(n, r):#x} {v:#x}", f"readl {port(n, r):#x}"]
        # SCTL.DET 1 -> 0 resets the port
        s += [f"writel {port(n, 0x2c):#x} 0x300"] + \
             [f"readl {port(n, r):#x}" for r in range(0, 0x40, 4)]
    s += [f"writel {ABAR + o:#x} 0xffffffff" for o in (0x00, 0x08, 0x0c,
                                                       0x10, 0x24, 0x28)]
    s += [f"writel {ABAR + 4:#x} 0x2", f"readl {ABAR + 4:#x}",
          f"writeb {ABAR + 4:#x} 0x00", f"readl {ABAR + 4:#x}",
          f"writel {ABAR + 5:#x} 0x1", f"readl {ABAR + 4:#x}",
          f"readb {ABAR + 1:#x}", f"readw {ABAR + 2:#x}",
          f"readw {ABAR + 3:#x}", f"readq {ABAR:#x}",
          f"readq {ABAR + 4:#x}", f"readl {ABAR + 1:#x}"]
    # GHC.HR
    s += [f"writel {ABAR + 4:#x} 0xffffffff"] + hba_dump()
    return s


def ahci_engines():
    s = []
    for cmd in (0x3, 0x7):          # bus mastering off, then on
        s += cfg(AHCI_DEVFN, 0x04, "w", cmd) + [f"writel {ABAR + 4:#x} 0x1"]
        for n in range(6):
            s += [f"writel {port(n, 0):#x} {0x100000 + n * 0x1000:#x}",
                  f"writel {port(n, 8):#x} {0x200000 + n * 0x1000:#x}"]
        s += [f"writel {port(0, 0x18):#x} 0x1", f"readl {port(0, 0x18):#x}",
              f"writel {port(0, 0x18):#x} 0x11", f"readl {port(0, 0x18):#x}",
              f"writel {port(1, 0x18):#x} 0x10", f"readl {port(1, 0x18):#x}",
              f"writel {port(0, 0x18):#x} 0x0", f"readl {port(0, 0x18):#x}",
              f"writel {port(1, 0x18):#x} 0x10", f"readl {port(1, 0x18):#x}",
              # past the end of RAM, in the PCI hole, in ROM
              f"writel {port(2, 0):#x} 0x7ffffc00",
              f"writel {port(2, 0x18):#x} 0x1", f"readl {port(2, 0x18):#x}",
              f"writel {port(3, 0):#x} 0xfffffc00",
              f"writel {port(3, 0x18):#x} 0x1", f"readl {port(3, 0x18):#x}",
              f"writel {port(4, 0):#x} 0x7fffe00",
              f"writel {port(4, 0x18):#x} 0x1", f"readl {port(4, 0x18):#x}",
              f"writel {port(5, 0x18):#x} 0x1", f"readl {port(5, 0x18):#x}",
              f"writel {port(5, 0x18):#x} 0xf0000017",
              f"readl {port(5, 0x18):#x}", f"writel {ABAR + 4:#x} 0x1"]
        s += [f"readl {port(n, 0x18):#x}" for n in range(6)]
        s += [f"writel {port(n, 0x18):#x} 0x11" for n in range(6)]
        s += [f"readl {port(n, 0x18):#x}" for n in range(6)]
        # the D2H FIS 7.2 "receives" from an empty port; the interrupt
        # it raises once enabled (the PCI status bit, INTx)
        # (only its 20 bytes: 7.2 writes its bounce buffer back when an
        # engine that had it stops, uninitialized bytes included)
        s += [f"read{w} {0x200040 + n * 0x1000 + o:#x}" for n in range(6)
              for w, o in (("q", 0), ("q", 8), ("l", 16))]
        s += [f"writel {port(0, 0x14):#x} 0x1", f"writel {ABAR + 4:#x} 0x2",
              f"readl {ABAR + 8:#x}"] + \
            [f"outl 0xcf8 {0x8000fa04:#x}", "inl 0xcfc"] + \
            [f"writel {port(0, 0x10):#x} 0x1", f"readl {ABAR + 8:#x}",
             "inl 0xcfc", f"writel {ABAR + 4:#x} 0x0"]
        # commands issued to a running engine without a drive stay issued
        s += [f"writel {port(n, 0x38):#x} 0x5" for n in range(6)]
        s += [f"readl {port(n, r):#x}" for n in range(6)
              for r in (0x10, 0x20, 0x24, 0x38)] + [f"readl {ABAR + 8:#x}"]
        s += [f"writel {port(n, 0x18):#x} 0x0" for n in range(6)]
        s += [f"readl {port(n, 0x18):#x}" for n in range(6)]
    return s


def ahci_idp():
    s = [f"in{w} {IDP + o:#x}" for o in range(0, 33) for w in "bwl"]
    s += [f"outl {IDP + 0x10:#x} 0x0", f"inl {IDP + 0x14:#x}",
          f"outl {IDP + 0x10:#x} 0x4", f"inl {IDP + 0x14:#x}",
          f"inw {IDP + 0x14:#x}", f"inb {IDP + 0x15:#x}",
          f"outl {IDP + 0x10:#x} 0xffffffff", f"inl {IDP + 0x10:#x}",
          f"outl {IDP + 0x10:#x} 0x104", f"outl {IDP + 0x14:#x} 0xffffffff",
          f"inl {IDP + 0x14:#x}", f"outl {IDP + 0x10:#x} 0x118",
          f"outl {IDP + 0x14:#x} 0x6", f"inl {IDP + 0x14:#x}",
          f"outw {IDP + 0x10:#x} 0x4", f"inl {IDP + 0x10:#x}",
          f"outl {IDP + 0x10:#x} 0x4", f"outl {IDP + 0x14:#x} 0x1",
          f"readl {ABAR + 4:#x}"]
    return s


def ahci_scenarios():
    m = ["-machine", "pc-q35-7.2"]
    compare("ich9-ahci/registers", m, AHCI_MAP + hba_dump())
    compare("ich9-ahci/writes-and-reset", m, AHCI_MAP + ahci_writes())
    compare("ich9-ahci/engines", m, AHCI_MAP + ahci_engines())
    compare("ich9-ahci/index-data", m, AHCI_MAP + ahci_idp())
    compare("ich9-ahci/mtree", m, ["mtree"] + AHCI_MAP + ["mtree"])
    compare("ich9-ahci/info-pci", m,
            AHCI_MAP + cfg(AHCI_DEVFN, 0x3c, "b", 0x0b) + ["hmp info pci"] +
            cfg(AHCI_DEVFN, 0x82, "w", 0x1) + ["hmp info pci"])
    # MSI: enabling it, asking for more vectors than offered
    compare("ich9-ahci/msi", m,
            cfg(AHCI_DEVFN, 0x82, "w", 0x71) +
            [f"outl 0xcf8 {0x8000fa80:#x}", "inl 0xcfc"] +
            cfg(AHCI_DEVFN, 0x82, "w", 0x70) +
            [f"outl 0xcf8 {0x8000fa80:#x}", "inl 0xcfc"])
    compare("ich9-ahci/reset", m,
            AHCI_MAP + [f"writel {port(0, 0):#x} 0x100000",
                        f"writel {port(0, 0x18):#x} 0x11",
                        f"writel {ABAR + 4:#x} 0x2", "outb 0xcf9 0x06",
                        f"readl {ABAR:#x}"] + AHCI_MAP + hba_dump())


# SMBus --------------------------------------------------------------------------

SMB_Q35 = 0xc100
SMB_Q35_MAP = (cfg(0xfb, 0x20, "l", SMB_Q35 | 1) + cfg(0xfb, 0x04, "w", 1) +
               cfg(0xfb, 0x40, "b", 1))


def smb_all_addresses(base):
    def w(o, v):
        return f"outb {base + o:#x} {v:#x}"

    def r(o):
        return f"inb {base + o:#x}"
    s = [r(o) for o in range(0x40)] + [f"inw {base:#x}", f"inl {base:#x}"]
    for addr in range(0x80):
        for prot, rd, cmd in ((0, 1, 0), (0, 0, 0), (1, 1, 0), (2, 1, 3),
                              (3, 1, 5), (1, 0, 7)):
            s += [w(0, 0xff), w(4, addr << 1 | rd), w(3, cmd), w(5, 0x11),
                  w(6, 0x22), w(2, 0x41 | prot << 2), r(0), r(5), r(6),
                  r(2)]
    return s


def smb_transfers(base):
    def w(o, v):
        return f"outb {base + o:#x} {v:#x}"

    def r(o):
        return f"inb {base + o:#x}"
    return [
        # deferred start (no INTREN): runs at the next status read
        w(0, 0xff), w(4, 0xa0), w(3, 0x10), w(5, 0x5a), w(2, 0x48), r(0),
        r(0), w(0, 0xff), w(4, 0xa1), w(3, 0x10), w(2, 0x48), r(0), r(0),
        r(5),
        # word write, read back
        w(0, 0xff), w(4, 0xa0), w(3, 0x20), w(5, 0x34), w(6, 0x12),
        w(2, 0x4d), r(0), w(0, 0xff), w(4, 0xa1), w(2, 0x4d), r(0), r(5),
        r(6),
        # block read through the buffer
        w(0, 0xff), w(0xd, 2), r(0xd), w(4, 0xa1), w(3, 0x10), w(2, 0x55),
        r(0), r(5)] + [r(7)] * 34 + [r(0),
        # block read byte by byte
        w(0, 0xff), w(0xd, 0), w(4, 0xa1), w(3, 0x10), w(2, 0x55), r(0),
        r(7), w(0, 0x80), r(0), r(7), w(2, 0x75), w(0, 0x80), r(0), r(7),
        # block write through the buffer, read back
        w(0, 0xff), w(0xd, 2), w(5, 3), w(7, 1), w(7, 2), w(7, 3),
        w(4, 0xa2), w(3, 0x40), w(2, 0x55), r(0), w(0, 0xff), w(4, 0xa3),
        w(3, 0x40), w(2, 0x49), r(0), r(5), w(2, 0x4d), r(0), r(5), r(6),
        # block write byte by byte
        w(0, 0xff), w(0xd, 0), w(5, 2), w(7, 9), w(4, 0xa4), w(3, 0x60),
        w(2, 0x55), r(0), w(7, 8), w(0, 0x80), r(0), w(0, 0x80), r(0),
        w(0, 0xff), w(4, 0xa5), w(3, 0x60), w(2, 0x4d), r(0), r(5), r(6),
        # I2C block read
        w(0, 0xff), w(6, 0x40), w(4, 0xa1), w(2, 0x59), r(0), r(7),
        w(0, 0x80), r(0), r(7), w(2, 0x39), w(0, 0x80), r(0), r(7),
        w(0, 0xff), r(0),
        # KILL; a reserved protocol; DEV_ERR blocks the next transaction
        w(2, 0x02), r(0), r(2), w(0, 0xff), w(2, 0x51), r(0), w(2, 0x5d),
        r(0), w(4, 0xa1), w(2, 0x49), r(0), w(0, 0xff), w(2, 0x49), r(0),
        # a broadcast write reaches every EEPROM; a broadcast read
        w(0, 0xff), w(4, 0x00), w(3, 0x01), w(5, 0x77), w(2, 0x49), r(0),
        w(0, 0xff), w(4, 0xaf), w(3, 0x01), w(2, 0x49), r(0), r(5),
        w(0, 0xff), w(4, 0x01), w(2, 0x49), r(0), r(5),
        f"inw {base + 5:#x}", f"outw {base + 5:#x} 0x1234", r(5), r(6)]


def smbus_scenarios():
    i440fx = ["-machine", "pc-i440fx-7.2"]
    q35 = ["-machine", "pc-q35-7.2"]
    compare("pm-smbus/i440fx/addresses", i440fx, smb_all_addresses(0xb100))
    compare("pm-smbus/i440fx/transfers", i440fx, smb_transfers(0xb100))
    compare("ICH9-SMB/info-pci", q35, SMB_Q35_MAP + ["hmp info pci"])
    compare("ICH9-SMB/addresses", q35,
            SMB_Q35_MAP + smb_all_addresses(SMB_Q35))
    compare("ICH9-SMB/transfers", q35, SMB_Q35_MAP + smb_transfers(SMB_Q35))
    # PIIX4_PM: SMBBA and SMBHSTCFG move and switch the controller
    compare("pm-smbus/i440fx/placement", i440fx,
            ["mtree", "inb 0xb104"] + cfg(0x0b, 0xd2, "b", 0) +
            ["inb 0xb104", "mtree"] + cfg(0x0b, 0x90, "l", 0xc001) +
            cfg(0x0b, 0xd2, "b", 1) + ["outb 0xc004 0xa1", "inb 0xc004",
                                       "mtree"])
    # ICH9-SMB: decodes from the start; HOSTC's HST_EN, SSRESET, I2C_EN;
    # the EEPROMs' contents survive until a machine reset
    steps = (cfg(0xfb, 0x20, "l", SMB_Q35 | 1) + cfg(0xfb, 0x04, "w", 1) +
             ["mtree", f"inb {SMB_Q35 + 0xd:#x}",
              f"outb {SMB_Q35 + 4:#x} 0xa0", f"outb {SMB_Q35 + 3:#x} 0x7",
              f"outb {SMB_Q35 + 5:#x} 0x99", f"outb {SMB_Q35 + 2:#x} 0x49",
              f"inb {SMB_Q35:#x}"] + cfg(0xfb, 0x40, "b", 0) +
             ["mtree", f"inb {SMB_Q35:#x}"] + cfg(0xfb, 0x40, "b", 0x9) +
             [f"inb {SMB_Q35:#x}", "outl 0xcf8 0x8000fb40", "inl 0xcfc"] +
             cfg(0xfb, 0x40, "b", 0x5) +
             [f"outb {SMB_Q35:#x} 0xff", f"outb {SMB_Q35 + 0xd:#x} 0x2",
              f"outb {SMB_Q35 + 4:#x} 0xa1", f"outb {SMB_Q35 + 3:#x} 0x7",
              f"outb {SMB_Q35 + 2:#x} 0x55", f"inb {SMB_Q35:#x}",
              f"inb {SMB_Q35 + 5:#x}", f"inb {SMB_Q35 + 7:#x}",
              f"inb {SMB_Q35 + 7:#x}", "outb 0xcf9 0x06"] + SMB_Q35_MAP +
             [f"outb {SMB_Q35:#x} 0xff", f"inb {SMB_Q35:#x}",
              f"outb {SMB_Q35 + 4:#x} 0xa1", f"outb {SMB_Q35 + 3:#x} 0x7",
              f"outb {SMB_Q35 + 2:#x} 0x49", f"inb {SMB_Q35:#x}",
              f"inb {SMB_Q35 + 5:#x}", f"inb {SMB_Q35 + 0xd:#x}"])
    compare("ICH9-SMB/hostc-and-reset", q35, steps)
    # its interrupt (INTREN and a status bit) in the PCI status register
    st = ["outl 0xcf8 0x8000fb04", "inl 0xcfc"]
    compare("ICH9-SMB/interrupt", q35,
            SMB_Q35_MAP + [f"outb {SMB_Q35 + 4:#x} 0xa1",
                           f"outb {SMB_Q35 + 2:#x} 0x49"] + st +
            [f"outb {SMB_Q35:#x} 0x02"] + st +
            [f"outb {SMB_Q35 + 2:#x} 0x49"] + st +
            [f"outb {SMB_Q35 + 2:#x} 0x08"] + st +
            [f"outb {SMB_Q35 + 2:#x} 0x09"] + st +
            cfg(0xfb, 0x04, "w", 0x401) + st +
            [f"outb {SMB_Q35:#x} 0xff"] + st)


def absent_scenarios():
    """smbus=off, sata=off: nothing at 1f.2/1f.3, no regions"""
    steps = ([f"outl 0xcf8 {0x80000000 | d << 8:#x}" for d in (0xfa,)] +
             ["inl 0xcfc", "outl 0xcf8 0x8000fb00", "inl 0xcfc"] +
             SMB_Q35_MAP + AHCI_MAP + ["mtree", "qom-tree /machine/unattached"])
    compare("q35/smbus-off-sata-off",
            ["-machine", "pc-q35-7.2,smbus=off,sata=off"], steps[:-1])
    compare("q35/smbus-off", ["-machine", "pc-q35-7.2,smbus=off"],
            steps[:-1])
    compare("q35/sata-off", ["-machine", "pc-q35-7.2,sata=off"], steps[:-1])


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    ide_scenarios()
    ahci_scenarios()
    smbus_scenarios()
    absent_scenarios()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
