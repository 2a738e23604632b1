#!/usr/bin/env python3
"""piix3-usb-uhci (and piix4-usb-uhci) compared with QEMU 7.2 over qtest
(hw/usb/hcd-uhci.c).

Both binaries run pc-i440fx-7.2 with libvirt's controller at 00:01.2
(-device piix3-usb-uhci,id=usb,bus=pci.0,addr=0x1.0x2), BAR4 placed at
0xc000 by configuration writes, I/O and bus mastering on, PIIX3's PIRQA-D
routed to IRQs 5, 9, 10 and 11 (01.2's pin D reaches PIRQD) and the
IOAPIC's inputs intercepted, and answer the same steps, the interrupt
lines each raises or lowers included (a case meant to interrupt fails if
QEMU 7.2 raised no line: it would test nothing):

  * every register offset read with 8-, 16- and 32-bit accesses at
    reset; patterns written to each and read back; USBSTS's bits cleared
    by writing ones; PORTSC's read-only, write-1-to-clear and enable bits
    (nothing attached: enable refused); port reset;
  * HCRESET and GRESET (the registers, config byte 0x6a, FRNUM kept);
  * the schedule, the clock stepped a frame (1 ms) at a time: a frame
    list (in guest memory) of queue heads and TDs, a SETUP/IN/OUT TD to
    a device that is not there (its status word written back, USBSTS's
    error and interrupt bits, the line with USBINTR's enables), an
    inactive TD with interrupt-on-complete, a TD with an invalid PID
    (process error, Run cleared, HCHalted at the next frame), schedules
    that loop (a TD to itself, a QH to itself, two QHs to each other):
    the emulator must go on answering;
  * Run cleared: HCHalted at once and again at the next frame after the
    guest cleared it; FRNUM written only while halted; a machine reset
    (0xcf9) while running; bandwidth=0 (no frame walks at all); bus
    mastering off (the schedule reads as zeros).

clock_step needs QEMU 7.2 with the qtest accelerator ($QEMU_72_QTEST,
docs/testing.md): those cases skip where there is none.  Skips (77) where
QEMU 7.2 is missing.
"""

import base64
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402
from qtest_session import (ORACLE, ORACLE_QTEST,  # noqa: E402
                          QTestMachine, qtest_session)
from qtest_session import pci_cfg_read as cfgr  # noqa: E402
from qtest_session import pci_cfg_write as cfgw  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")

UHCI_DEVFN = 0x0a           # 00:01.2
PIIX3_DEVFN = 0x08
IO = 0xc000
FRAME_NS = 1000000
FL = 0x100000               # frame list: 1024 links
QH = 0x101000
TD = 0x101100
LONG = 0x110000         # long chains

SETUP, IN, OUT = 0x2d, 0x69, 0xe1
ACTIVE, IOC, SPD = 1 << 23, 1 << 24, 1 << 29
CERR3 = 3 << 27
TERM, QHLINK, DEPTH = 1, 2, 4

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - uhci/{name}" +
          ("" if ok else f" # {detail}"))


SETUP_STEPS = (["irq_intercept_in ioapic"] +
               cfgw(UHCI_DEVFN, 0x20, 4, IO | 1) +
               cfgw(UHCI_DEVFN, 0x04, 2, 0x5) +
               cfgw(PIIX3_DEVFN, 0x60, 4, 0x0b0a0905))


def regs():
    """USBCMD .. PORTSC2 as 16-bit reads"""
    return [f"inw {IO + o:#x}" for o in range(0, 0x14, 2)]


def all_reads():
    s = []
    for o in range(0x20):
        s += [f"inb {IO + o:#x}", f"inw {IO + o:#x}"]
        if o <= 0x1c:
            s.append(f"inl {IO + o:#x}")
    return s


def register_steps():
    s = SETUP_STEPS + all_reads()
    for off in range(0, 0x20, 2):
        if off == 0:
            pats = (0xfff8, 0x18, 0x0)        # no Run, no resets
        else:
            pats = (0xffff, 0x5a5a, 0xa5a5, 0x0)
        for v in pats:
            s += [f"outw {IO + off:#x} {v:#x}"] + regs()
    # bytes and dwords: where they land
    for off in range(0x20):
        s += [f"outb {IO + off:#x} 0xf8", f"inw {IO + (off & ~1):#x}"]
    s += [f"outl {IO + 0x08:#x} 0x12345678"] + regs()
    s += [f"outl {IO + 0x10:#x} 0xffffffff"] + regs()
    s += [f"outl {IO + 0x04:#x} 0x00070000"] + regs()
    s += cfgr(UHCI_DEVFN, 0x60) + cfgr(UHCI_DEVFN, 0x68)
    return s


def status_steps():
    """W1C on USBSTS; USBINTR alone raises nothing"""
    return SETUP_STEPS + [
        f"outw {IO + 2:#x} 0xffff", f"inw {IO + 2:#x}",
        f"outw {IO + 4:#x} 0xf", f"inw {IO + 2:#x}",
        f"outw {IO + 2:#x} 0x20", f"inw {IO + 2:#x}",
        f"outw {IO + 4:#x} 0x0"] + regs()


def port_steps():
    s = list(SETUP_STEPS)
    for port in (0x10, 0x12):
        for v in (0x0200, 0x0000, 0x0004, 0x000a, 0x1000, 0x0040, 0xffff,
                  0x0000):
            s += [f"outw {IO + port:#x} {v:#x}", f"inw {IO + port:#x}",
                  f"inw {IO + 0x10:#x}", f"inw {IO + 0x12:#x}"]
    return s


def reset_steps(bit):
    s = SETUP_STEPS + [
        f"outw {IO + 6:#x} 0x123", f"outw {IO + 4:#x} 0xf",
        f"outl {IO + 8:#x} 0x12345000", f"outw {IO + 0xc:#x} 0x22",
        f"outw {IO + 0x10:#x} 0x1240", f"outw {IO:#x} 0x18"]
    s += cfgw(UHCI_DEVFN, 0x6a, 2, 0xffff) + cfgr(UHCI_DEVFN, 0x68)
    s += [f"outw {IO:#x} {bit:#x}"] + regs() + cfgr(UHCI_DEVFN, 0x68)
    s += cfgr(UHCI_DEVFN, 0x04) + cfgr(UHCI_DEVFN, 0x20)
    return s


# The schedule --------------------------------------------------------------

def b64write(addr, data):
    return [f"b64write {addr:#x} {len(data):#x} "
            f"{base64.b64encode(data).decode()}"]


def frame_list(link):
    return b64write(FL, struct.pack("<1024I", *([link] * 1024)))


def td(addr, link, ctrl, token, buf=0x102000):
    return b64write(addr, struct.pack("<4I", link, ctrl, token, buf))


def qh(addr, link, element):
    return b64write(addr, struct.pack("<2I", link, element))


def token(pid, dev=1, ep=0, maxlen=8):
    return ((maxlen - 1) & 0x7ff) << 21 | ep << 15 | dev << 8 | pid


def frame(n=1, watch=(TD,)):
    """n frames, then what the guest looks at"""
    s = []
    for _ in range(n):
        s += [f"clock_step {FRAME_NS}", f"inw {IO + 2:#x}",
              f"inw {IO + 6:#x}", f"inw {IO:#x}"]
        s += [f"readl {a + 4:#x}" for a in watch]
        s += [f"readl {QH + 4:#x}"]
    return s


def run(intr=0xf, fl_base=FL):
    return [f"outw {IO + 4:#x} {intr:#x}", f"outl {IO + 8:#x} {fl_base:#x}",
            f"outw {IO:#x} 0x1"]


def no_device_steps(pid, intr=0xf, ioc=True, via_qh=True):
    ctrl = CERR3 | ACTIVE | (IOC if ioc else 0) | 0x7ff
    s = list(SETUP_STEPS)
    if via_qh:
        s += frame_list(QH | QHLINK) + qh(QH, TERM, TD)
    else:
        s += frame_list(TD)
    s += td(TD, TERM, ctrl, token(pid)) + run(intr) + frame(3)
    # acknowledged: the line drops; the TD, now inactive, still has IOC
    s += [f"outw {IO + 2:#x} 0x3"] + frame(2)
    s += [f"outw {IO + 4:#x} 0x0", f"inw {IO + 2:#x}",
          f"outw {IO + 2:#x} 0xff"] + frame(1)
    return s


def td_chain_steps():
    """Three TDs in a QH, depth first: a failure moves on to the QH's
    successor without advancing its element link, so only the first is
    tried until the guest moves the link on"""
    s = SETUP_STEPS + frame_list(QH | QHLINK) + qh(QH, TERM, TD)
    s += td(TD, (TD + 0x20) | DEPTH, CERR3 | ACTIVE | 0x7ff, token(SETUP))
    s += td(TD + 0x20, (TD + 0x40) | DEPTH, CERR3 | ACTIVE | IOC,
            token(OUT, dev=5, ep=2, maxlen=64))
    s += td(TD + 0x40, TERM, CERR3 | ACTIVE | SPD, token(IN, maxlen=0x500))
    watch = (TD, TD + 0x20, TD + 0x40)
    s += run() + frame(2, watch)
    # the guest skips past the failed TD
    s += [f"writel {QH + 4:#x} {TD + 0x20:#x}"] + frame(2, watch)
    s += [f"writel {QH + 4:#x} {TD + 0x40:#x}"] + frame(2, watch)
    # no QH: TDs linked breadth first straight from the frame list
    s += frame_list(TD) + td(TD, TD + 0x20, CERR3 | ACTIVE, token(IN))
    s += td(TD + 0x20, TERM, CERR3 | ACTIVE | IOC, token(OUT))
    s += frame(2, watch)
    return s


def invalid_pid_steps():
    s = SETUP_STEPS + frame_list(QH | QHLINK) + qh(QH, TERM, TD)
    s += td(TD, TERM, CERR3 | ACTIVE | IOC, token(0x5a))
    s += run(intr=0) + frame(3)
    s += [f"outw {IO + 2:#x} 0x10", f"inw {IO + 2:#x}"]
    s += [f"outw {IO:#x} 0x1"] + frame(2)
    return s


def loop_steps(kind):
    s = list(SETUP_STEPS)
    watch = (TD,)
    if kind == "td-self":
        s += frame_list(TD) + td(TD, TD, CERR3 | IOC, token(IN))
    elif kind == "td-self-active":
        s += frame_list(TD) + td(TD, TD, CERR3 | ACTIVE | IOC, token(IN))
    elif kind == "qh-self":
        s += frame_list(QH | QHLINK) + qh(QH, QH | QHLINK, TD)
        s += td(TD, TERM, CERR3 | ACTIVE | IOC, token(SETUP))
    elif kind == "qh-pair":
        s += frame_list(QH | QHLINK) + qh(QH, (QH + 0x10) | QHLINK, TERM)
        s += qh(QH + 0x10, QH | QHLINK, TD)
        s += td(TD, QH | QHLINK, CERR3 | IOC, token(OUT))
    elif kind == "qh-chain":
        # 200 distinct QHs, past the 128 a frame remembers, then a loop;
        # a TD in the 110th and the 150th: only the first is reached
        for i in range(200):
            nxt = QH + 0x10 * ((i + 1) % 200)
            el = {110: LONG, 150: LONG + 0x20}.get(i, TERM)
            s += qh(QH + 0x10 * i, nxt | QHLINK, el)
        for a in (LONG, LONG + 0x20):
            s += td(a, TERM, CERR3 | ACTIVE | IOC, token(SETUP))
        s += frame_list(QH | QHLINK)
        watch = (LONG, LONG + 0x20)
    elif kind == "td-chain-long":
        # 300 TDs breadth first: a frame follows 256 links
        for i in range(300):
            ctrl = CERR3 | (ACTIVE if i in (250, 260) else 0)
            s += td(LONG + 0x20 * i, LONG + 0x20 * (i + 1), ctrl, token(IN))
        s += frame_list(LONG)
        watch = (LONG + 0x20 * 250, LONG + 0x20 * 260)
    s += run() + frame(3, watch)
    return s


def stop_steps():
    s = SETUP_STEPS + frame_list(TERM) + run(intr=0) + frame(2)
    s += [f"outw {IO + 6:#x} 0x100", f"inw {IO + 6:#x}",
          f"outw {IO:#x} 0x0", f"inw {IO + 2:#x}",
          f"outw {IO + 2:#x} 0x20", f"inw {IO + 2:#x}"] + frame(2)
    s += [f"outw {IO + 6:#x} 0x7fe", f"inw {IO + 6:#x}",
          f"outw {IO:#x} 0x1"] + frame(3)
    # Run off and on again before the timer saw it off
    s += [f"outw {IO:#x} 0x0", f"outw {IO:#x} 0x1", f"inw {IO + 2:#x}"]
    s += frame(2)
    # HCRESET while running
    s += [f"outw {IO:#x} 0x3"] + regs() + frame(2)
    return s


def machine_reset_steps():
    s = SETUP_STEPS + frame_list(TERM) + run() + frame(3)
    s += ["outb 0xcf9 0x6", "clock_step 100"]
    s += SETUP_STEPS[1:] + regs() + frame(2)
    return s


def bus_master_off_steps():
    s = SETUP_STEPS + frame_list(QH | QHLINK) + qh(QH, TERM, TD)
    s += td(TD, TERM, CERR3 | ACTIVE | IOC, token(SETUP))
    s += cfgw(UHCI_DEVFN, 0x04, 2, 0x1) + run() + frame(3)
    s += cfgw(UHCI_DEVFN, 0x04, 2, 0x5) + frame(2)
    return s


def normalized(steps, answers):
    """A reset through 0xcf9 happens in 7.2's main loop after the write
    is answered, here during it: the lines it moves count with the next
    answer"""
    out, carry = [], []
    for step, answer in zip(steps, answers):
        parts = carry + answer.split(" | ")
        carry = []
        if step.startswith("outb 0xcf9"):
            carry, parts = parts[:-1], parts[-1:]
        out.append(" | ".join(parts))
    return out


def compare(name, steps, device="piix3-usb-uhci", props="", irq=None):
    """irq: the line the case must see raised (QEMU 7.2 raising it shows
    the case tests something)"""
    args = ["-machine", "pc-i440fx-7.2", "-qtest-log", "/dev/null",
            "-device", f"{device},id=usb,bus=pci.0,addr=0x1.0x2{props}"]
    running = any(c.startswith("clock_step") for c in steps)
    oracle, extra = ORACLE, []
    if running:
        if not os.access(ORACLE_QTEST, os.X_OK):
            report(f"{name} # SKIP no QEMU 7.2 with the qtest accelerator "
                   "(QEMU_72_QTEST)", True)
            return
        oracle, extra = ORACLE_QTEST, ["-accel", "qtest"]
    theirs = normalized(steps, qtest_session(oracle, args + extra, steps,
                                             irqs=True, running=running))
    ours = normalized(steps, qtest_session(BINARY, args, steps, irqs=True,
                                           running=running))
    diff = [f"{steps[i]}: ours {a!r} qemu72 {b!r}"
            for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    if len(ours) != len(theirs):
        diff.append(f"{len(ours)} answers, QEMU 7.2 {len(theirs)}")
    if not diff and irq is not None and \
            not any(f"IRQ raise {irq}" in a for a in theirs):
        diff.append(f"QEMU 7.2 raised no IRQ {irq}: the case tests nothing")
    report(name, not diff, "; ".join(diff[:3]))


def hotplug(binary):
    """A controller plugged, started and ejected: the answers on the way"""
    io = 0xd000
    out = []
    with QTestMachine(binary, ["-machine", "pc-i440fx-7.2", "-nodefaults",
                               "-display", "none"]) as m:
        q = m.machine.cmd_raw
        out.append(repr(q("device_add", {"driver": "piix3-usb-uhci",
                                         "id": "hu", "addr": "5"})))
        steps = (cfgw(0x28, 0x20, 4, io | 1) + cfgw(0x28, 0x04, 2, 0x5) +
                 [f"outw {io:#x} 0x1", f"inw {io + 2:#x}"] +
                 cfgr(0x28, 0x00) + cfgr(0x28, 0x3c))
        out += [m.qtest(c) for c in steps]
        out.append(repr("return" in q("qom-list",
                                      {"path": "/machine/peripheral/hu"})))
        out.append(repr(q("device_del", {"id": "hu"})))
        out.append(m.qtest("outl 0xae08 0x20"))
        pci = m.machine.cmd("query-pci")[0]["devices"]
        out.append(repr(sorted(d["slot"] for d in pci)))
        out.append(repr("error" in q("qom-list",
                                     {"path": "/machine/peripheral/hu"})))
        out.append(m.qtest(f"inw {io + 2:#x}"))
    return out


def compare_hotplug():
    theirs, ours = hotplug(ORACLE), hotplug(BINARY)
    diff = [f"answer {i}: ours {a!r} qemu72 {b!r}"
            for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    report("hotplug", not diff and len(ours) == len(theirs),
           "; ".join(diff[:3]))


def usb_option_views(binary, machine):
    with Machine(binary, ["-S", "-machine", machine, "-nodefaults", "-usb",
                          "-accel", "kvm"]) as m:
        return (m.cmd("query-pci"),
                m.cmd("human-monitor-command",
                      {"command-line": "info qtree"}),
                sorted(p["name"] for p in
                       m.cmd("qom-list", {"path": "/machine/unattached"})))


def compare_usb_option():
    for machine in ("pc-i440fx-7.2", "pc-i440fx-1.4"):
        name = f"usb-option/{machine}"
        if not kvm_usable():
            report(f"{name} # SKIP /dev/kvm is not usable", True)
            continue
        theirs = usb_option_views(ORACLE, machine)
        ours = usb_option_views(BINARY, machine)
        what = [w for w, a, b in zip(("query-pci", "qtree", "unattached"),
                                     theirs, ours) if a != b]
        has = "piix3-usb-uhci" in ours[1]
        report(name, not what and has,
               f"differs: {what}" if what else "no piix3-usb-uhci")


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    compare("registers", register_steps())
    compare("registers/piix4", register_steps(), device="piix4-usb-uhci")
    compare("status-w1c", status_steps())
    compare("portsc", port_steps())
    compare("hcreset", reset_steps(0x2))
    compare("greset", reset_steps(0x4))
    for pid, name in ((SETUP, "setup"), (IN, "in"), (OUT, "out")):
        compare(f"no-device/{name}", no_device_steps(pid), irq=11)
    compare("no-device/no-ioc", no_device_steps(SETUP, ioc=False), irq=11)
    compare("no-device/intr-off", no_device_steps(IN, intr=0))
    compare("no-device/intr-ioc-only", no_device_steps(IN, intr=0x4),
            irq=11)
    compare("no-device/no-qh", no_device_steps(OUT, via_qh=False), irq=11)
    compare("td-chain", td_chain_steps(), irq=11)
    compare("invalid-pid", invalid_pid_steps(), irq=11)
    for kind in ("td-self", "td-self-active", "qh-self", "qh-pair"):
        compare(f"loop/{kind}", loop_steps(kind), irq=11)
    compare("loop/qh-chain", loop_steps("qh-chain"), irq=11)
    compare("loop/td-chain-long", loop_steps("td-chain-long"), irq=11)
    compare("stop-halted", stop_steps())
    compare("machine-reset", machine_reset_steps())
    compare("bandwidth-0", no_device_steps(SETUP), props=",bandwidth=0")
    compare("bus-master-off", bus_master_off_steps(), irq=11)
    compare_hotplug()
    compare_usb_option()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
