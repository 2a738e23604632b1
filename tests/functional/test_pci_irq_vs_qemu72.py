#!/usr/bin/env python3
"""PCI interrupt routing compared with Debian's QEMU 7.2 (docs/devices.md,
"PCI interrupt routing").

Both binaries run the same machine under qtest with the IOAPIC's inputs
intercepted, so every answer carries the GSI lines raised and lowered
before it; every answer must be the same.  The interrupt source is a
pci-bridge's SHPC (msi=off): enabling its interrupts and issuing a command
asserts INTA, clearing the command-detected status deasserts it.

  * pc-i440fx-7.2: bridges in slots 5 and 6; PIIX3's PIRQ route control
    (0x60-0x63) set, changed while lines are asserted (7.2 re-drives only
    the new IRQ), turned off, shared by two PIRQs; INTx disable; a reset
    through 0xcf9 while asserted;
  * pc-q35-7.2: bridges in slots 5 and 28 (behind D28IR); the PIRQ[A-H]
    route registers; the root complex register block mapped at RCBA and
    D28IR rewritten (moving slot 28's INTA between PIRQs); reads of the
    block (GCS, the DnnIR defaults, accesses at its end); SCI_IRQ_SEL
    written with every value;
  * on both, a seeded random sequence of these operations.

Skips (77) where QEMU 7.2 is missing.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qtest_session import qtest_session  # noqa: E402
from qtest_session import pci_cfg_read as cfgr  # noqa: E402
from qtest_session import pci_cfg_write as cfgw  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - pci-irq/{name}" +
          ("" if ok else f" # {detail}"))


def bar(slot):
    return 0xfe000000 + slot * 0x10000


def bridge_setup(slot):
    """BAR 0 (the SHPC registers) placed and decoded; interrupts on"""
    d = slot << 3
    return (cfgw(d, 0x10, 4, bar(slot)) + cfgw(d, 0x14, 4, 0) +
            cfgw(d, 0x04, 2, 0x2) + [f"writel {bar(slot) + 0x20:#x} 0x0"])


def assert_intx(slot):
    return [f"writel {bar(slot) + 0x14:#x} 0x48"]


def deassert_intx(slot):
    return [f"writel {bar(slot) + 0x20:#x} 0x10000"]


def intx_disable(slot, on):
    return cfgw(slot << 3, 0x04, 2, 0x402 if on else 0x2)


PIIX3 = 1 << 3
LPC = 0x1f << 3
RCBA = 0xfed1c000


def devices(slots):
    args = []
    for i, slot in enumerate(slots):
        args += ["-device", f"pci-bridge,id=b{i},chassis_nr={i + 1},"
                            f"addr={slot:#x},msi=off"]
    return args


def normalized(cmds, answers):
    """GSI 0 and 2 left out: after a reset QEMU 7.2's userspace PIT (it
    has one under qtest, this tree has KVM's only) raises its output.  A
    reset through 0xcf9 happens in 7.2's main loop after the write is
    answered, here during it: the lines it moves count with the next
    answer"""
    out, carry = [], []
    for cmd, a in zip(cmds, answers):
        parts = carry + [p for p in a.split(" | ")
                         if p not in ("IRQ raise 0", "IRQ lower 0",
                                      "IRQ raise 2", "IRQ lower 2")]
        carry = []
        if cmd.startswith("outb 0xcf9"):
            carry, parts = parts[:-1], parts[-1:]
        out.append(" | ".join(parts))
    return out


def compare(name, machine, slots, cmds):
    args = ["-machine", machine] + devices(slots)
    cmds = ["irq_intercept_in ioapic"] + cmds
    a = normalized(cmds, qtest_session(ORACLE, args, cmds, irqs=True))
    b = normalized(cmds, qtest_session(BINARY, args, cmds, irqs=True))
    diff = next((f"{cmds[i]!r}: QEMU 7.2 {x!r}, here {y!r}"
                 for i, (x, y) in enumerate(zip(a, b)) if x != y),
                f"{len(a)} vs {len(b)} answers")
    raised = sum("IRQ raise" in x for x in a)
    report(name, a == b and raised > 0, diff if a != b else
           "QEMU 7.2 raised no line: the case tests nothing")


def i440fx_cases():
    m = "pc-i440fx-7.2"
    slots = [5, 6]
    setup = bridge_setup(5) + bridge_setup(6)
    compare("i440fx/routes", m, slots, setup +
            cfgw(PIIX3, 0x60, 4, 0x03050b0a) + assert_intx(5) +
            assert_intx(6) + deassert_intx(5) + deassert_intx(6))
    compare("i440fx/route-change-while-asserted", m, slots, setup +
            cfgw(PIIX3, 0x60, 4, 0x03050b0a) + assert_intx(5) +
            cfgw(PIIX3, 0x60, 1, 0x0b) + cfgw(PIIX3, 0x60, 1, 0x80) +
            deassert_intx(5) + cfgw(PIIX3, 0x60, 1, 0x0a) + assert_intx(5) +
            cfgw(PIIX3, 0x60, 4, 0x80808080) + deassert_intx(5))
    compare("i440fx/shared-irq", m, slots, setup +
            cfgw(PIIX3, 0x60, 4, 0x80800a0a) + assert_intx(5) +
            assert_intx(6) + deassert_intx(5) + deassert_intx(6))
    compare("i440fx/intx-disable-and-reset", m, slots, setup +
            cfgw(PIIX3, 0x60, 4, 0x0b0b0a0a) + assert_intx(5) +
            intx_disable(5, True) + intx_disable(5, False) +
            ["outb 0xcf9 0x6"] + cfgr(PIIX3, 0x60) + bridge_setup(5) +
            cfgw(PIIX3, 0x60, 4, 0x0b0b0a0a) + assert_intx(5))


def q35_cases():
    m = "pc-q35-7.2"
    slots = [5, 0x1c]
    setup = bridge_setup(5) + bridge_setup(0x1c)
    rcrb_on = cfgw(LPC, 0xf0, 4, RCBA | 1)
    compare("q35/pirq-routes", m, slots, setup +
            cfgw(LPC, 0x60, 4, 0x0b0a0905) + cfgw(LPC, 0x68, 4, 0x0a0b0503) +
            assert_intx(5) + assert_intx(0x1c) + deassert_intx(5) +
            deassert_intx(0x1c))
    compare("q35/d28ir", m, slots, setup + rcrb_on +
            cfgw(LPC, 0x60, 4, 0x0b0a0905) + assert_intx(0x1c) +
            [f"writew {RCBA + 0x3146:#x} 0x3212"] + deassert_intx(0x1c) +
            assert_intx(0x1c) + [f"writew {RCBA + 0x3146:#x} 0x0"] +
            deassert_intx(0x1c) + assert_intx(0x1c) + deassert_intx(0x1c))
    reads = [f"read{w} {RCBA + off:#x}" for off in
             (0x3140, 0x3142, 0x3144, 0x3146, 0x3148, 0x314c, 0x3150,
              0x3410, 0x3ffe, 0x3fff, 0x0) for w in "bwl"]
    compare("q35/rcrb", m, slots, rcrb_on + reads +
            [f"writel {RCBA + 0x3ffe:#x} 0x12345678",
             f"readl {RCBA + 0x3ffc:#x}", f"writeq {RCBA + 0x100:#x} "
             "0x1122334455667788", f"readq {RCBA + 0x100:#x}"] +
            cfgw(LPC, 0xf0, 4, RCBA) + [f"readl {RCBA + 0x3410:#x}"] +
            cfgw(LPC, 0xf0, 4, RCBA | 1) + [f"readl {RCBA + 0x100:#x}",
                                             "outb 0xcf9 0x6"] +
            rcrb_on + [f"readl {RCBA + 0x100:#x}"] + setup +
            cfgw(LPC, 0x68, 4, 0x05050505) + assert_intx(5))
    compare("q35/sci-irq-sel", m, slots, setup +
            [x for v in range(8) for x in cfgw(LPC, 0x44, 1, v) +
             cfgr(LPC, 0x44)] + assert_intx(5))


def random_case(machine, seed):
    rng = random.Random(seed)
    slots = [5, 6] if "i440fx" in machine else [5, 0x1c]
    cmds = bridge_setup(slots[0]) + bridge_setup(slots[1])
    if "q35" in machine:
        cmds += cfgw(LPC, 0xf0, 4, RCBA | 1)
    for _ in range(300):
        op = rng.randrange(7)
        slot = rng.choice(slots)
        if op == 0:
            cmds += assert_intx(slot)
        elif op == 1:
            cmds += deassert_intx(slot)
        elif op == 2:
            cmds += intx_disable(slot, rng.random() < 0.5)
        elif op == 3 and "i440fx" in machine:
            cmds += cfgw(PIIX3, 0x60 + rng.randrange(4), 1,
                         rng.choice([0x80, 3, 5, 9, 10, 11, 15, 0x8b]))
        elif op == 3:
            cmds += cfgw(LPC, rng.choice([0x60, 0x68]) + rng.randrange(4), 1,
                         rng.choice([0x80, 3, 5, 9, 10, 11, 15, 0x8b]))
        elif op == 4 and "q35" in machine:
            cmds += [f"writew {RCBA + 0x3146:#x} {rng.randrange(0x10000):#x}"]
        elif op == 5 and "q35" in machine:
            cmds += cfgw(LPC, 0x44, 1, rng.randrange(8))
        else:
            cmds += cfgr(slot << 3, 0x04)
    compare(f"{machine}/random-{seed}", machine, slots, cmds)


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"1..0 # SKIP QEMU 7.2 not found at {ORACLE}")
        return 77
    i440fx_cases()
    q35_cases()
    for machine in ("pc-i440fx-7.2", "pc-q35-7.2"):
        for seed in (1, 2, 3, 4):
            random_case(machine, seed)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
