#!/usr/bin/env python3
"""The southbridges' legacy ports compared with Debian's QEMU 7.2
(docs/devices.md, "i8257, APM and the reset control register").

Both binaries run the same machine under qtest (-S: no firmware has run)
and answer the same port accesses; every answer must be the same:

  * the two i8257 DMA controllers (0x00-0x0f, 0xc0-0xdf, the page
    registers 0x80-0x8f): every port read at power-on; each channel's
    address and count registers written and read back through the
    flip-flop (clears of it, byte and word accesses); mask, mode, request,
    command (supported and not) and status; a master clear; then a long
    seeded random sequence of accesses to all of these ports;
  * APM (0xb2/0xb3): read back; ACPI enable/disable written to APMC, with
    the PM block placed as firmware places it, show in PM1_CNT's SCI_EN
    (qtest machines have SMM, so they start in legacy mode in both;
    smm=off machines are ACPI-only: SCI_EN set from reset and fixed; on
    q35 with smm=off only the ACPI commands are written: any other value
    crashes QEMU 7.2 under qtest, here it raises no SMI);
  * ICH9's SMI_EN and SMI_STS (every access size, SMI_LOCK, a reset);
  * the reset control register at 0xcf9: what a write keeps (SYS_RST on
    PIIX3; SYS_RST and FULL_RST on ICH9), byte/word/dword accesses beside
    CONFIG_ADDRESS.

on pc-i440fx-7.2 and pc-q35-7.2, and both with smm=off.

Under KVM (where /dev/kvm works) the in-kernel irqchip's devices too:
kvm-pit's lost_tick_policy (discard starts, slew and a bad value are
refused with 7.2's texts), and with pit=off / pic=off no kvm-pit / no
kvm-i8259 in either (qom-list-types aside, info qtree).

Skips (77) where QEMU 7.2 is missing.
"""

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402
from qtest_session import qtest_session  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

MACHINES = [("pc-i440fx-7.2", ""), ("pc-q35-7.2", ""),
            ("pc-i440fx-7.2", ",smm=off"), ("pc-q35-7.2", ",smm=off")]
DMA_PORTS = list(range(0x00, 0x10)) + list(range(0x80, 0x90)) + \
    list(range(0xc0, 0xe0))

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - isa/{name}" +
          ("" if ok else f" # {detail}"))


def reads(ports, width="b"):
    return [f"in{width} 0x{p:x}" for p in ports]


def dma_steps():
    s = reads(DMA_PORTS)
    # each channel of both controllers: address then count, low then high
    for base, shift in ((0x00, 0), (0xc0, 1)):
        clear_ff = base + ((8 + 4) << shift)
        for ch in range(4):
            for reg in range(2):
                port = base + ((ch * 2 + reg) << shift)
                v = 0x1234 + ch * 0x1111 + reg * 0x0f0f
                s += [f"outb 0x{clear_ff:x} 0x0", f"outb 0x{port:x} "
                      f"0x{v & 0xff:x}", f"outb 0x{port:x} 0x{v >> 8:x}",
                      f"inb 0x{port:x}", f"inb 0x{port:x}",
                      f"inw 0x{port:x}", f"inl 0x{port:x}",
                      f"outw 0x{port:x} 0xbeef", f"inb 0x{port:x}",
                      f"inb 0x{port:x}"]
        cont = base + (8 << shift)
        for reg in range(8):
            s += reads([cont + (reg << shift)])
        for cmd in (0x04, 0x00, 0x10, 0x01, 0x80):
            s += [f"outb 0x{cont:x} 0x{cmd:x}"]
        s += [f"outb 0x{cont + (2 << shift):x} 0x1",      # unmask channel 1
              f"outb 0x{cont + (2 << shift):x} 0x6",      # mask channel 2
              f"inb 0x{cont + (1 << shift):x}",
              f"outb 0x{cont + (3 << shift):x} 0x56",     # mode, channel 2
              f"outb 0x{cont + (1 << shift):x} 0x7",      # request 3
              f"outb 0x{cont + (1 << shift):x} 0x5",      # request 1
              f"inb 0x{cont:x}", f"inb 0x{cont:x}",
              f"outb 0x{cont + (6 << shift):x} 0x0",      # clear masks
              f"inb 0x{cont + (1 << shift):x}",
              f"outb 0x{cont + (7 << shift):x} 0xa",      # write masks
              f"inb 0x{cont + (1 << shift):x}",
              f"outb 0x{cont + (5 << shift):x} 0x0",      # master clear
              f"inb 0x{cont + (1 << shift):x}", f"inb 0x{cont:x}"]
    for p in range(0x80, 0x90):
        s += [f"outb 0x{p:x} 0x{(p * 7) & 0xff:x}"]
    s += reads(range(0x80, 0x90)) + reads(range(0x80, 0x90, 2), "w")
    return s + reads(DMA_PORTS)


def dma_random_steps(seed, n):
    rnd = random.Random(seed)
    s = []
    for _ in range(n):
        port = rnd.choice(DMA_PORTS)
        if port == 0x80:        # the POST port is not the DMA's
            continue
        width = rnd.choice("bbbbw")
        if width == "w" and port & 1:
            width = "b"
        if rnd.random() < 0.5:
            s.append(f"in{width} 0x{port:x}")
        else:
            v = rnd.randrange(0x10000 if width == "w" else 0x100)
            s.append(f"out{width} 0x{port:x} 0x{v:x}")
    return s + reads(DMA_PORTS)


def firmware_pm(machine):
    """The PM block at 0x600, enabled, as firmware places it"""
    if "q35" in machine:
        return ["outl 0xcf8 0x8000f840", "outl 0xcfc 0x601",
                "outl 0xcf8 0x8000f844", "outb 0xcfc 0x80"]
    return ["outl 0xcf8 0x80000b40", "outl 0xcfc 0x601",
            "outl 0xcf8 0x80000b80", "outb 0xcfc 0x1"]


def apm_steps(machine, extra):
    q35 = "q35" in machine
    on, off = (0x02, 0x03) if q35 else (0xf1, 0xf0)
    # QEMU 7.2 ends (SIGSEGV) on any other APMC value on q35 without SMM:
    # its SMI goes to the current vCPU, which qtest does not have
    other = not (q35 and "smm=off" in extra)
    s = reads([0xb2, 0xb3]) + ["inw 0xb2"]
    s += ["outb 0xb3 0x5a", f"outb 0xb2 0x{0x42 if other else on:x}"]
    s += reads([0xb2, 0xb3])
    s += [f"outw 0xb2 0x{0x1234 if other else 0x1200 | off:x}"]
    s += reads([0xb2, 0xb3])
    s += firmware_pm(machine) + ["inw 0x604"]
    values = [on, off, on, 0xf1 if q35 else 0x02, off, 0x00, on]
    for v in values if other else [on, off, on, off, on]:
        s += [f"outb 0xb2 0x{v:x}", "inw 0x604", "inb 0xb2"]
    s += ["outw 0x604 0x0", "inw 0x604", "outw 0x604 0x1", "inw 0x604"]
    return s


def smi_steps(machine):
    """ICH9's SMI_EN/SMI_STS (PMBASE + 0x30/0x34): every access size,
    writes, SMI_LOCK (GEN_PMCON_1 bit 4) freezing GBL_SMI_EN, a reset"""
    s = firmware_pm(machine)
    regs = [f"in{w} 0x{0x630 + o:x}" for o in range(8) for w in "bwl"]
    s += regs
    for v in (0xffffffff, 0x0, 0x21, 0x12345678):
        s += [f"outl 0x630 0x{v:x}", "inl 0x630", f"outl 0x634 0x{v:x}",
              "inl 0x634", f"outw 0x630 0x{v & 0xffff:x}", "inl 0x630",
              f"outb 0x631 0x{v & 0xff:x}", "inl 0x630"]
    s += ["outl 0x630 0x1", "outl 0xcf8 0x8000f8a0", "outb 0xcfc 0x10",
          "outl 0x630 0x0", "inl 0x630", "outl 0x630 0x20", "inl 0x630",
          "outl 0xcf8 0x8000f8a0", "outb 0xcfc 0x0", "outl 0x630 0x0",
          "inl 0x630", "outb 0xcf9 0x6"] + firmware_pm(machine) + \
        ["inl 0x630", "outl 0x630 0x0", "inl 0x630"]
    return s


def reset_control_steps():
    s = ["inb 0xcf9"]
    for v in (0x02, 0x08, 0x0a, 0xff & ~0x04, 0x01, 0xf0, 0x00, 0x0b):
        s += [f"outb 0xcf9 0x{v:x}", "inb 0xcf9"]
    # CONFIG_ADDRESS beside it: only dword accesses are the PCI host's
    s += ["outl 0xcf8 0x80000000", "inb 0xcf9", "inw 0xcf8", "inl 0xcf8",
          "outw 0xcf8 0x0a0a", "inb 0xcf9", "inl 0xcf8"]
    return s


def compare(name, args, steps):
    args = args + ["-qtest-log", "/dev/null"]
    mine = qtest_session(BINARY, args, steps)
    theirs = qtest_session(ORACLE, args, steps)
    diff = [f"{steps[i]}: ours {a!r} qemu72 {b!r}"
            for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]
    if len(mine) != len(theirs):
        diff.append(f"{len(mine)} answers, QEMU 7.2 {len(theirs)}")
    report(name, not diff, "; ".join(diff[:3]))


def start_error(binary, args):
    p = subprocess.run([binary, "-display", "none", "-nodefaults", "-S",
                        "-accel", "kvm", "-qmp", "null"] + args,
                       stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=60)
    err = [line for line in p.stderr.splitlines()
           if "host doesn't support requested feature" not in line]
    return p.returncode, err


def qtree_types(binary, args):
    with Machine(binary, ["-S", "-nodefaults", "-accel", "kvm"] + args) as m:
        text = m.cmd("human-monitor-command", {"command-line": "info qtree"})
    return sorted(line.split()[1].rstrip(",")
                  for line in text.splitlines()
                  if line.strip().startswith("dev: kvm"))


def compare_kvm_devices():
    for policy in ("slew", "bogus"):
        args = ["-machine", "pc-q35-7.2", "-global",
                f"kvm-pit.lost_tick_policy={policy}"]
        mine, theirs = start_error(BINARY, args), start_error(ORACLE, args)
        report(f"kvm-pit/lost_tick_policy={policy}",
               mine == theirs and mine[0] == 1,
               f"ours {mine} qemu72 {theirs}")
    for machine in ("pc-q35-7.2", "pc-i440fx-7.2"):
        for extra in ("", ",pit=off", ",pic=off"):
            args = ["-machine", machine + extra, "-global",
                    "kvm-pit.lost_tick_policy=discard"]
            mine, theirs = qtree_types(BINARY, args), qtree_types(ORACLE,
                                                                  args)
            report(f"{machine}{extra}/kvm-devices", mine == theirs,
                   f"ours {mine} qemu72 {theirs}")
    # up to 5.1 kvmclock only where the vCPU has the feature
    for machine in ("pc-i440fx-5.1", "pc-q35-5.1", "pc-q35-5.2"):
        for cpu in ("qemu64", "qemu64,-kvmclock"):
            args = ["-machine", machine, "-cpu", cpu]
            mine, theirs = qtree_types(BINARY, args), qtree_types(ORACLE,
                                                                  args)
            report(f"{machine}/-cpu {cpu}/kvm-devices", mine == theirs,
                   f"ours {mine} qemu72 {theirs}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    for machine, extra in MACHINES:
        args = ["-machine", machine + extra]
        tag = machine + extra
        compare(f"{tag}/dma", args, dma_steps())
        compare(f"{tag}/apm", args, apm_steps(machine, extra))
        compare(f"{tag}/reset-control", args, reset_control_steps())
        if "q35" in machine:
            compare(f"{tag}/smi-en", args, smi_steps(machine))
    for seed in range(3):
        compare(f"pc-q35-7.2/dma-random/{seed}",
                ["-machine", "pc-q35-7.2"], dma_random_steps(seed, 1500))
    compare("pc-i440fx-7.2/dma-random/3", ["-machine", "pc-i440fx-7.2"],
            dma_random_steps(3, 1500))
    if kvm_usable():
        compare_kvm_devices()
    else:
        print("# no usable /dev/kvm: the in-kernel irqchip's devices are "
              "not compared")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
