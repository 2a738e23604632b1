#!/usr/bin/env python3
"""fw_cfg compared with Debian's QEMU 7.2 (docs/firmware.md).

Both binaries run pc-i440fx-7.2 and pc-q35-7.2 under qtest (-S: no
firmware has run) with the same options, and a guest's view of fw_cfg is
read the same way in both:

  * every fixed item (0x00-0x18) and x86's (0x8000-0x8004) through the
    ports (outw 0x510, inb 0x511), 64 bytes each (a read past an item's
    end gives zeros, so this also compares lengths up to 64);
  * the file directory (0x19), then every file both have, whole, through
    the ports and again through DMA (a FWCfgDmaAccess in RAM, its address
    written big-endian to 0x514/0x518), with the control word written back;
  * the DMA edge cases, one row each: a destination that is not memory, a
    length past the item's end, skip then read, an unknown key, a write to
    a read-only item, to an unknown key, past a writable item's end, no
    operation bit, a descriptor that is not in memory, an address that
    wraps; each row's result must equal 7.2's and the expected value
    written in the row;
  * accesses of other widths and offsets on 0x510-0x51b;
  * q35's SMI feature negotiation (etc/smi/*).

Files and items QEMU 7.2 has that this tree cannot fill truthfully yet are
KNOWN_MISSING / KNOWN_DIFFERENT below, each with its reason.  Skips (77)
where QEMU 7.2 is missing.
"""

import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import qtest_session  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

MACHINES = ["pc-i440fx-7.2", "pc-q35-7.2"]
OPTION_SETS = [
    ["-m", "512", "-smp", "2",
     "-uuid", "01234567-89ab-cdef-0123-456789abcdef"],
    ["-m", "3G", "-smp", "1,maxcpus=4",
     "-boot", "menu=on,splash-time=12,reboot-timeout=15"],
    ["-m", "128", "-cpu", "Haswell", "-machine", "acpi=off"],
    # cores=3 takes 2 bits of the APIC ID: MAX_CPUS (the APIC ID limit)
    # is 7 for 6 possible vCPUs, and the NUMA item grows with it
    ["-m", "256", "-smp", "2,sockets=2,cores=3,maxcpus=6"],
    # NUMA: the node count, each APIC ID's node, each node's memory
    ["-m", "192", "-smp", "2,sockets=2,maxcpus=4",
     "-object", "memory-backend-ram,id=m0,size=128M",
     "-object", "memory-backend-ram,id=m1,size=64M",
     "-numa", "node,memdev=m0", "-numa", "node,memdev=m1,cpus=1",
     "-numa", "node", "-numa", "dist,src=0,dst=1,val=30",
     "-numa", "dist,src=0,dst=2,val=40", "-numa", "dist,src=1,dst=2,val=50"],
]

# Built by QEMU 7.2's ACPI/SMBIOS generators and option ROMs, which this
# tree does not have (its ACPI tables are the direct loader's own)
KNOWN_MISSING = {
    "etc/acpi/rsdp": "no QEMU-style ACPI table blobs with a table-loader",
    "etc/acpi/tables": "no QEMU-style ACPI table blobs with a table-loader",
    "etc/table-loader": "no QEMU-style ACPI table blobs with a table-loader",
    "etc/tpm/log": "comes with 7.2's ACPI build (no TPM here)",
    "etc/smbios/smbios-anchor": "no SMBIOS tables yet",
    "etc/smbios/smbios-tables": "no SMBIOS tables yet",
    "genroms/kvmvapic.bin": "no kvmvapic option ROM",
}
# Items whose bytes differ on purpose
KNOWN_DIFFERENT = {
}

DESC = 0x1000           # the FWCfgDmaAccess
BUF = 0x2000            # DMA data
UNASSIGNED = 0xe0000000 # in the PCI hole of every machine here (-m <= 3G)

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - fwcfg/{name}" +
          ("" if ok else f" # {detail}"))


def session(binary, machine, opts, commands):
    return qtest_session(binary, ["-machine", machine, "-qtest-log",
                                  "/dev/null"] + opts, commands)


def port_read_cmds(key, n):
    return ["outw 0x510 0x%x" % key] + ["inb 0x511"] * n


def bytes_of(answers):
    return bytes(int(a.split()[1], 16) & 0xff for a in answers)


def swap32(v):
    return struct.unpack("<I", struct.pack(">I", v))[0]


def dma_cmds(control, length, address, desc=DESC, prefill=None):
    """Commands for one transfer; the last answer is the control word."""
    cmds = []
    if prefill is not None:
        cmds.append("write 0x%x 0x%x 0x%s" % (BUF, len(prefill),
                                              prefill.hex()))
    d = struct.pack(">IIQ", control, length, address)
    cmds += ["write 0x%x 0x10 0x%s" % (desc, d.hex()),
             "outl 0x514 0x%x" % swap32(desc >> 32),
             "outl 0x518 0x%x" % swap32(desc & 0xffffffff),
             "read 0x%x 0x4" % DESC]
    return cmds


def hexdata(answer):
    return bytes.fromhex(answer.split()[1][2:])


def directory(binary, machine, opts):
    a = session(binary, machine, opts, port_read_cmds(0x19, 4))
    count = struct.unpack(">I", bytes_of(a[1:5]))[0]
    a = session(binary, machine, opts, port_read_cmds(0x19, 4 + 64 * count))
    d = bytes_of(a[1:])
    files = {}
    for i in range(count):
        e = d[4 + 64 * i: 4 + 64 * (i + 1)]
        size, sel = struct.unpack(">IH", e[:6])
        files[e[8:].rstrip(b"\0").decode()] = (size, sel)
    return files


def read_files(binary, machine, opts, files):
    """Each file through the ports and through DMA: {name: (port, dma,
    control)}"""
    cmds = []
    for name, (size, sel) in sorted(files.items()):
        cmds += port_read_cmds(sel, size)
        cmds += dma_cmds(sel << 16 | 0x08 | 0x02, size, BUF)
        if size:
            cmds.append("read 0x%x 0x%x" % (BUF, size))
    a = session(binary, machine, opts, cmds)
    out, i = {}, 0
    for name, (size, sel) in sorted(files.items()):
        port = bytes_of(a[i + 1: i + 1 + size])
        i += 1 + size + 4
        ctl = a[i - 1]
        dma = hexdata(a[i]) if size else b""
        i += 1 if size else 0
        out[name] = (port, dma, ctl)
    return out


def compare_items(machine, opts, tag):
    keys = list(range(0x00, 0x19)) + list(range(0x8000, 0x8005))
    cmds = []
    for k in keys:
        cmds += port_read_cmds(k, 64)
    got = {}
    for b in (BINARY, ORACLE):
        a = session(b, machine, opts, cmds)
        got[b] = {k: bytes_of(a[i * 65 + 1: i * 65 + 65])
                  for i, k in enumerate(keys)}
    for k in keys:
        mine, theirs = got[BINARY][k], got[ORACLE][k]
        if k in KNOWN_DIFFERENT:
            # Known: what this tree gives instead is all zeros
            report(f"{tag}/item/{k:#x}", mine == bytes(64),
                   f"{KNOWN_DIFFERENT[k]}, but reads {mine.hex()}")
            continue
        report(f"{tag}/item/{k:#x}", mine == theirs,
               f"{mine.rstrip(bytes(1)).hex()} != QEMU 7.2's "
               f"{theirs.rstrip(bytes(1)).hex()}")


def compare_files(machine, opts, tag):
    mine_dir = directory(BINARY, machine, opts)
    their_dir = directory(ORACLE, machine, opts)
    for name in sorted(set(mine_dir) | set(their_dir)):
        if name not in mine_dir:
            report(f"{tag}/file/{name}", name in KNOWN_MISSING,
                   "QEMU 7.2 has it, this tree not")
        elif name not in their_dir:
            report(f"{tag}/file/{name}", False, "QEMU 7.2 has no such file")
    common = {n: mine_dir[n] for n in mine_dir if n in their_dir}
    mine = read_files(BINARY, machine, opts, common)
    theirs = read_files(ORACLE, machine, opts,
                        {n: their_dir[n] for n in common})
    for name in sorted(common):
        m, t = mine[name], theirs[name]
        report(f"{tag}/file/{name}/size", mine_dir[name][0] ==
               their_dir[name][0], f"{mine_dir[name][0]} != "
               f"{their_dir[name][0]}")
        report(f"{tag}/file/{name}/port", m[0] == t[0],
               f"{m[0].hex()} != QEMU 7.2's {t[0].hex()}")
        report(f"{tag}/file/{name}/dma", m[1] == t[1] == t[0] and
               m[2] == t[2] == "OK 0x00000000",
               f"{m[1].hex()} {m[2]} != QEMU 7.2's {t[1].hex()} {t[2]}")


# DMA edge cases: (name, commands builder(files), expected control word,
# expected data at BUF or None).  The key 0x00 is the signature "QEMU".
SEL, READ, SKIP, SELECT, WRITE, ERROR = 0, 0x02, 0x04, 0x08, 0x10, 0x01


def ctl(key, bits):
    return key << 16 | SELECT | bits


DMA_CASES = [
    ("read", lambda f: dma_cmds(ctl(0, READ), 4, BUF), 0, b"QEMU"),
    ("read-past-end", lambda f: dma_cmds(ctl(0, READ), 8, BUF,
                                         prefill=b"\xaa" * 8),
     0, b"QEMU\0\0\0\0"),
    ("skip-then-read", lambda f: dma_cmds(ctl(0, SKIP), 2, BUF) +
     dma_cmds(READ, 2, BUF, prefill=b"\xaa" * 4), 0, b"MU\xaa\xaa"),
    ("read-unknown-key", lambda f: dma_cmds(ctl(0x3fff, READ), 4, BUF,
                                            prefill=b"\xaa" * 4),
     0, b"\0\0\0\0"),
    ("read-to-unassigned", lambda f: dma_cmds(ctl(0, READ), 4, UNASSIGNED),
     ERROR, None),
    ("read-wraps", lambda f: dma_cmds(ctl(0, READ), 16,
                                      0xfffffffffffffff8), ERROR, None),
    ("write-read-only", lambda f: dma_cmds(ctl(0, WRITE), 4, BUF,
                                           prefill=b"ABCD"), ERROR, None),
    ("write-read-only-then-read", lambda f: dma_cmds(ctl(0, WRITE), 4, BUF,
                                                     prefill=b"ABCD") +
     dma_cmds(ctl(0, READ), 4, BUF), 0, b"QEMU"),
    ("write-unknown-key", lambda f: dma_cmds(ctl(0x3fff, WRITE), 4, BUF),
     ERROR, None),
    ("no-operation", lambda f: dma_cmds(ctl(0, 0), 4, BUF,
                                        prefill=b"\xaa" * 4),
     0, b"\xaa" * 4),
    ("select-only-then-port", lambda f: dma_cmds(ctl(1, 0), 0, 0) +
     ["inb 0x511"], None, None),
    ("descriptor-unassigned", lambda f: dma_cmds(ctl(0, READ), 4, BUF,
                                                 desc=UNASSIGNED) +
     ["read 0x%x 0x4" % BUF], None, None),
    ("huge-length-unknown-key", lambda f: dma_cmds(ctl(0x3fff, READ),
                                                   0xffffffff, UNASSIGNED),
     ERROR, None),
]

# q35 only: the SMI negotiation through its files
SMI_CASES = [
    ("smi-valid", [b"\x07" + bytes(7)], 1),
    ("smi-unsupported", [b"\x08" + bytes(7)], 0),
    ("smi-hotplug-without-broadcast", [b"\x02" + bytes(7)], 0),
    ("smi-unplug-without-hotplug", [b"\x05" + bytes(7)], 0),
    ("smi-locked-after-ok", [b"\x01" + bytes(7), b"\x08" + bytes(7)], 1),
]


def dma_case_answers(binary, machine, build):
    return session(binary, machine, ["-m", "512"], build(None))


def compare_dma(machine):
    for name, build, want_ctl, want_data in DMA_CASES:
        cmds = build(None)
        if want_data is not None:
            cmds = cmds + ["read 0x%x 0x%x" % (BUF, len(want_data))]
        mine = session(BINARY, machine, ["-m", "512"], cmds)
        theirs = session(ORACLE, machine, ["-m", "512"], cmds)
        ok = mine == theirs
        detail = f"{mine[-3:]} != QEMU 7.2's {theirs[-3:]}"
        if ok and want_data is not None:
            ok = hexdata(mine[-1]) == want_data
            detail = f"data {mine[-1]}, wanted {want_data.hex()}"
            ctl_answer = mine[-2]
        else:
            ctl_answer = mine[-1]
        if ok and want_ctl is not None:
            ok = ctl_answer == "OK 0x%08x" % want_ctl
            detail = f"control {ctl_answer}, wanted {want_ctl:#x}"
        report(f"{machine}/dma/{name}", ok, detail)


def compare_smi(machine):
    files = directory(BINARY, machine, ["-m", "512"])
    req = files["etc/smi/requested-features"][1]
    ok_sel = files["etc/smi/features-ok"][1]
    their = directory(ORACLE, machine, ["-m", "512"])
    for name, writes, want in SMI_CASES:
        out = {}
        for b, f in ((BINARY, (req, ok_sel)),
                     (ORACLE, (their["etc/smi/requested-features"][1],
                               their["etc/smi/features-ok"][1]))):
            cmds = []
            for w in writes:
                cmds += dma_cmds(ctl(f[0], WRITE), 8, BUF, prefill=w)
                cmds += ["outw 0x510 0x%x" % f[1], "inb 0x511"]
            out[b] = session(b, machine, ["-m", "512"], cmds)
        mine, theirs = out[BINARY], out[ORACLE]
        ok = (mine == theirs and
              int(mine[-1].split()[1], 16) == want)
        report(f"{machine}/{name}", ok,
               f"{mine[-1]} (QEMU 7.2: {theirs[-1]}), wanted {want}")


PORT_CASES = [
    "inb 0x510", "inw 0x510", "inl 0x510", "inw 0x511", "inb 0x512",
    "inb 0x514", "inb 0x517", "inw 0x514", "inw 0x516", "inl 0x514",
    "inl 0x518", "inb 0x51b", "inb 0x51c", "inw 0x515", "inl 0x516",
]


def compare_ports(machine):
    for c in PORT_CASES:
        # Selected: the signature; a wrong-width write must not select
        cmds = ["outw 0x510 0x0", "inb 0x511", c, "inb 0x511"]
        mine = session(BINARY, machine, [], cmds)
        theirs = session(ORACLE, machine, [], cmds)
        report(f"{machine}/port/{c.replace(' ', '-')}", mine == theirs,
               f"{mine} != QEMU 7.2's {theirs}")
    for c in ["outb 0x510 0x1", "outb 0x511 0x1", "outl 0x510 0x1",
              "outw 0x511 0x1", "outb 0x514 0x1", "outw 0x514 0x1"]:
        cmds = ["outw 0x510 0x0", "inb 0x511", c, "inb 0x511", "inb 0x511"]
        mine = session(BINARY, machine, [], cmds)
        theirs = session(ORACLE, machine, [], cmds)
        report(f"{machine}/port/{c.replace(' ', '-')}", mine == theirs,
               f"{mine} != QEMU 7.2's {theirs}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    for machine in MACHINES:
        for i, opts in enumerate(OPTION_SETS):
            tag = f"{machine}/opts{i}"
            compare_items(machine, opts, tag)
            compare_files(machine, opts, tag)
        compare_dma(machine)
        compare_ports(machine)
        if "q35" in machine:
            compare_smi(machine)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
