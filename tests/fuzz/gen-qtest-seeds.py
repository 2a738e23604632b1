#!/usr/bin/env python3
"""Writes the seed corpus of the qtest fuzz target (tests/fuzz/fuzz-qtest.c).

    tests/fuzz/gen-qtest-seeds.py [OUTDIR]   (default tests/fuzz/corpus/qtest)

Each seed is a short program in the target's binary encoding that touches
one device of the board the way a driver would.  The port and address
dictionaries and the operation table are read from fuzz-qtest.c itself, so
the seeds follow them if they change.  Seeds are data: the fuzzer mutates
them, and `make check` replays them (suite fuzz).
"""

import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "fuzz-qtest.c")


def c_array(text, name):
    """The numbers of the C array called name."""
    body = re.search(name + r"\[\] = \{(.*?)\n\};", text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    return [int(x.rstrip("ULul"), 0) for x in re.findall(r"0x[0-9a-fA-F]+U*L*|\d+", body)]


def c_ops(text):
    """(kind, command) of every fuzz_ops[] entry, in order."""
    body = re.search(r"fuzz_ops\[\] = \{(.*?)\n\};", text, re.S).group(1)
    return re.findall(r"\{ (OP_[A-Z_]+), (\"[a-z0-9_]+\"|NULL)", body)


class Encoder:
    def __init__(self, text):
        self.ports = c_array(text, "port_dict")
        self.mems = c_array(text, "mem_dict")
        self.ops = [(k, n.strip('"')) for k, n in c_ops(text)]
        self.out = bytearray()

    def op(self, kind, name=None):
        for i, (k, n) in enumerate(self.ops):
            if k == kind and (name is None or n == name):
                self.out.append(i)
                return
        raise KeyError((kind, name))

    def port(self, p):
        if p in self.ports:
            self.out.append(self.ports.index(p))
        else:
            self.out.append(0x80)
            self.out += struct.pack("<H", p)

    def addr(self, a):
        for i, base in enumerate(self.mems):
            if 0 <= a - base < 0x10000:
                self.out.append(i)
                self.out += struct.pack("<H", a - base)
                return
        self.out.append(0x80)
        self.out += struct.pack("<Q", a)

    # --- operations ---
    def outp(self, size, port, value):
        self.op("OP_OUT", {1: "outb", 2: "outw", 4: "outl"}[size])
        self.port(port)
        self.out += value.to_bytes(size, "little")

    def inp(self, size, port):
        self.op("OP_IN", {1: "inb", 2: "inw", 4: "inl"}[size])
        self.port(port)

    def outs(self, port, data):
        self.op("OP_OUTS")
        self.port(port)
        self.out.append(len(data))
        self.out += bytes(data)

    def write(self, size, addr, value):
        self.op("OP_WRITE", {1: "writeb", 2: "writew", 4: "writel",
                             8: "writeq"}[size])
        self.addr(addr)
        self.out += value.to_bytes(size, "little")

    def read(self, size, addr):
        self.op("OP_READ", {1: "readb", 2: "readw", 4: "readl",
                            8: "readq"}[size])
        self.addr(addr)

    def write_block(self, name, addr, data):
        self.op("OP_WRITE_BLOCK", name)
        self.addr(addr)
        self.out.append(len(data))
        self.out += bytes(data)

    def read_block(self, name, addr, n):
        self.op("OP_READ_BLOCK", name)
        self.addr(addr)
        self.out.append(n)

    def memset(self, addr, sixteens, value):
        self.op("OP_MEMSET")
        self.addr(addr)
        self.out += bytes([sixteens, value])

    def clock_step(self, ns):
        self.op("OP_CLOCK_STEP")
        self.out += struct.pack("<I", ns)

    def irq_intercept(self):
        self.op("OP_IRQ_INTERCEPT")

    def set_irq(self, num, level):
        self.op("OP_SET_IRQ")
        self.out += bytes([num, level])

    def raw(self, line):
        self.op("OP_RAW")
        data = line.encode()
        self.out.append(len(data))
        self.out += data


def seeds(text):
    def new():
        return Encoder(text)

    s = {}

    e = new()                       # RTC: every register, set the time
    for reg in list(range(0x0e)) + [0x32, 0x7f]:
        e.outp(1, 0x70, reg)
        e.inp(1, 0x71)
    e.outp(1, 0x70, 0x0b)
    e.outp(1, 0x71, 0x82)           # SET, 24h
    for reg, val in ((0, 0x59), (2, 0x59), (4, 0x23), (7, 0x31), (8, 0x12),
                     (9, 0x99), (0x32, 0x20)):
        e.outp(1, 0x70, reg)
        e.outp(1, 0x71, val)
    e.outp(1, 0x70, 0x0b)
    e.outp(1, 0x71, 0x06)           # binary, 24h, running
    e.outp(1, 0x70, 0x0c)
    e.inp(1, 0x71)
    e.inp(4, 0x70)
    s["rtc"] = e

    e = new()                       # PIT and speaker (in the kernel's PIT)
    e.outp(1, 0x43, 0x34)
    e.outp(1, 0x40, 0x9c)
    e.outp(1, 0x40, 0x2e)
    e.outp(1, 0x43, 0xb6)
    e.outp(1, 0x42, 0x33)
    e.outp(1, 0x42, 0x05)
    e.outp(1, 0x61, 0x03)
    e.inp(1, 0x61)
    e.outp(1, 0x43, 0x00)
    e.inp(1, 0x40)
    e.inp(1, 0x42)
    e.outp(1, 0x20, 0x11)           # PIC ICW1..4
    e.outs(0x21, [0x20, 0x04, 0x01, 0xff])
    e.inp(1, 0x21)
    s["pit-pic-speaker"] = e

    e = new()                       # 16550A: divisor, FIFO, loopback
    e.outp(1, 0x3fb, 0x80)
    e.outp(1, 0x3f8, 0x01)
    e.outp(1, 0x3f9, 0x00)
    e.outp(1, 0x3fb, 0x03)
    e.outp(1, 0x3fa, 0xc7)
    e.outp(1, 0x3f9, 0x0f)
    e.outp(1, 0x3fc, 0x1b)          # loopback, DTR, RTS, OUT2
    e.outs(0x3f8, b"hello, world\r\n")
    for p in (0x3fa, 0x3fd, 0x3fe, 0x3f8, 0x3f8, 0x3fd, 0x3ff):
        e.inp(1, p)
    e.outp(1, 0x3fc, 0x08)
    e.outs(0x3f8, b"out")
    e.inp(2, 0x3fe)
    e.outp(4, 0x3fc, 0x0b0b)
    e.inp(4, 0x3fd)
    s["uart"] = e

    e = new()                       # PCI: 0:0.0's header, an absent device
    for off in (0x00, 0x04, 0x08, 0x0c, 0x2c, 0x9c):
        e.outp(4, 0xcf8, 0x80000000 | off)
        e.inp(4, 0xcfc)
    e.outp(4, 0xcf8, 0x80000004)
    e.outp(2, 0xcfc, 0x0007)
    e.inp(1, 0xcfd)
    e.outp(4, 0xcf8, 0x80000800)
    e.inp(4, 0xcfc)
    e.outp(2, 0xcf8, 0x1234)
    e.inp(2, 0xcf8)
    e.outp(1, 0xcf9, 0x02)
    e.inp(1, 0xcf9)
    s["pci"] = e

    e = new()                       # ACPI PM: status, enable, timer, S3
    e.inp(2, 0x600)
    e.outp(2, 0x602, 0x0100)
    e.inp(2, 0x602)
    e.inp(2, 0x604)
    e.inp(4, 0x608)
    e.inp(1, 0x60a)
    e.outp(2, 0x600, 0xffff)
    e.outp(2, 0x604, 0x2401)        # S3 (not declared: runs on)
    e.inp(4, 0x603)
    s["acpi-pm"] = e

    e = new()                       # ACPI PM: S5 is a poweroff
    e.outp(2, 0x604, 0x2001)
    e.inp(2, 0x604)                 # never sent: the input ends
    s["acpi-poweroff"] = e

    e = new()                       # i8042: controller, keyboard, mouse
    for cmd in (0xaa, 0xab, 0xa9, 0x20, 0xa1, 0xc0, 0xd0, 0xe0):
        e.outp(1, 0x64, cmd)
        e.inp(1, 0x64)
        e.inp(1, 0x60)
    e.outp(1, 0x64, 0x60)
    e.outp(1, 0x60, 0x47)
    e.outs(0x60, [0xf2, 0xee, 0xed, 0x07, 0xf0, 0x00, 0xf4, 0x12])
    for _ in range(8):
        e.inp(1, 0x60)
    e.outp(1, 0x64, 0xd4)
    e.outp(1, 0x60, 0xf2)
    e.outp(1, 0x64, 0xd4)
    e.outp(1, 0x60, 0xe9)
    e.outp(1, 0x64, 0xd2)
    e.outp(1, 0x60, 0x55)
    for _ in range(8):
        e.inp(2, 0x60)
    s["i8042"] = e

    for name, prog in (("reset-port92", [(0x92, 0x02), (0x92, 0x01)]),
                       ("reset-cf9", [(0xcf9, 0x06)]),
                       ("reset-i8042", [(0x64, 0xfe)]),
                       ("reset-i8042-outport", [(0x64, 0xd1), (0x60, 0x00)])):
        e = new()
        e.inp(1, 0x92)
        for port, val in prog:
            e.outp(1, port, val)
        e.inp(1, 0x64)
        e.inp(1, 0x92)
        s[name] = e

    e = new()                       # pvpanic: crash loaded, then a panic
    e.inp(1, 0x505)
    e.outp(1, 0x505, 0x02)
    e.outp(1, 0x505, 0x01)
    e.inp(1, 0x505)
    s["pvpanic"] = e

    e = new()                       # isa-debug-exit ends the input
    e.inp(1, 0x501)
    e.outp(2, 0x501, 0x42)
    e.inp(1, 0x501)
    s["debug-exit"] = e

    e = new()                       # memory: RAM, holes, the 4G boundary
    e.write(8, 0x7c00, 0x1122334455667788)
    e.read(8, 0x7c00)
    e.read(2, 0x7c07)
    e.write(4, 0xfee00000, 0xdeadbeef)
    e.read(4, 0xfee00300)
    e.write_block("write", 0x9fff8, bytes(range(16)))
    e.read_block("read", 0x9fff8, 16)
    e.write_block("b64write", 0x7fffff8, b"ABCDEFGHIJKLMNOP")
    e.read_block("b64read", 0x7fffff8, 16)
    e.memset(0x100000, 4, 0xaa)
    e.read(8, 0xfffffffffffffffc)
    e.read_block("read", 0xfffffffffffffff8, 16)
    s["memory"] = e

    e = new()                       # IRQs seen by an intercepting test
    e.irq_intercept()
    e.set_irq(4, 1)
    e.set_irq(4, 0)
    e.set_irq(25, 1)
    e.outp(1, 0x3f9, 0x02)          # COM1 THRE interrupt: IRQ 4
    e.inp(1, 0x3fa)
    e.outp(1, 0x70, 0x0c)
    e.inp(1, 0x71)
    e.clock_step(0)
    e.clock_step(1000000)
    e.irq_intercept()
    s["irq-clock"] = e

    e = new()                       # the protocol's own edges
    for line in ("", "outb 0x3f8", "outb 0x10000 1", "inb -1", "read 0 0",
                 "write 0 1 0xzz", "write 0 4 0x1", "b64write 0 3 ab",
                 "clock_set 5", "clock_step -5", "irq_intercept_out ioapic x",
                 "set_irq_in ioapic foo 1 1", "module_load a b", "endianness",
                 "readq 18446744073709551616", "memset 0 0 0", "nosuch"):
        e.raw(line)
    s["protocol"] = e

    e = new()                       # sizes nothing could allocate
    for line in ("read 0 0x3fffffffffffffff", "b64read 0 0x4000001",
                 "write 0 0x4000001 0x00", "memset 0 0x100000000 0"):
        e.raw(line)
    s["block-too-big"] = e

    def cfg(e, devfn, off, size, value):
        e.outp(4, 0xcf8, 0x80000000 | devfn << 8 | (off & 0xfc))
        e.outp(size, 0xcfc + (off & 3), value)

    e = new()                       # ich9-ahci: HBA, a port, index/data
    abar = 0xfebf0000
    cfg(e, 0xfa, 0x24, 4, abar)
    cfg(e, 0xfa, 0x20, 4, 0xc041)
    cfg(e, 0xfa, 0x04, 2, 0x0007)
    cfg(e, 0xfa, 0x82, 2, 0x0071)   # MSI on, more vectors than offered
    e.read(4, abar)
    e.write(4, abar + 4, 0x2)
    for reg, val in ((0x00, 0x100000), (0x08, 0x101000), (0x14, 0xffffffff),
                     (0x18, 0x11), (0x38, 0x1), (0x2c, 0x1), (0x2c, 0x0),
                     (0x10, 0xffffffff), (0x30, 0xffffffff)):
        e.write(4, abar + 0x100 + reg, val)
        e.read(4, abar + 0x100 + reg)
    e.read(8, abar + 0x120)
    e.outp(4, 0xc050, 0x118)
    e.outp(4, 0xc054, 0x10)
    e.inp(4, 0xc054)
    e.write(4, abar + 4, 0x1)       # GHC.HR
    e.read(4, abar + 0x118)
    s["ahci"] = e

    e = new()                       # ICH9-SMB: SPD EEPROM reads, a block
    cfg(e, 0xfb, 0x20, 4, 0xc101)
    cfg(e, 0xfb, 0x04, 2, 0x0001)
    cfg(e, 0xfb, 0x40, 1, 0x01)
    for addr, cmd, prot in ((0xa1, 0x00, 0x49), (0xa0, 0x10, 0x49),
                            (0xa3, 0x02, 0x4d), (0x21, 0x00, 0x41),
                            (0xa1, 0x10, 0x55), (0xa1, 0x00, 0x59)):
        e.outp(1, 0xc100, 0xff)
        e.outp(1, 0xc104, addr)
        e.outp(1, 0xc103, cmd)
        e.outp(1, 0xc102, prot)
        e.inp(1, 0xc100)
        e.inp(1, 0xc105)
        e.inp(1, 0xc107)
    e.outp(1, 0xc100, 0x80)
    e.outp(1, 0xc102, 0x02)
    cfg(e, 0xfb, 0x40, 1, 0x0d)     # SSRESET, I2C_EN
    e.inp(1, 0xc100)
    s["smbus"] = e
    return s


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, "corpus", "qtest")
    with open(SOURCE) as f:
        text = f.read()
    os.makedirs(outdir, exist_ok=True)
    for name, enc in seeds(text).items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(bytes(enc.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
