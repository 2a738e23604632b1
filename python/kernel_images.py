"""Hand-built kernel images for the -kernel loader's tests.

Small files in the three formats hw/i386/x86-boot.c loads: a Linux bzImage
(setup header, 64-bit boot protocol), ELF32/ELF64 with a Xen PVH entry note,
and multiboot v1 (a.out kludge or ELF).  Every field is a parameter, so a
test can build the valid image and then the one broken field it is about.
Used by tests/fuzz/make-loader-seeds.py (the fuzz seeds) and by
tests/functional/test_bad_input.py (the error texts through the binary).
"""

import struct

MULTIBOOT_MAGIC = 0x1BADB002
MULTIBOOT_AOUT_KLUDGE = 1 << 16
XEN_ELFNOTE_PHYS32_ENTRY = 18
PT_LOAD = 1
PT_NOTE = 4
EM_386 = 3
EM_X86_64 = 62

# A guest that halts at once: hlt; jmp .-1
HALT = b"\xf4\xeb\xfd"


def put(buf, off, data):
    """Writes data at off, growing buf as needed."""
    if len(buf) < off + len(data):
        buf.extend(bytes(off + len(data) - len(buf)))
    buf[off:off + len(data)] = data


def bzimage(setup_sects=4, version=0x020f, loadflags=0x01, xloadflags=0x1,
            cmdline_size=2047, initrd_addr_max=0x7fffffff, header_end=0x26c,
            kernel=HALT, size=None):
    """A bzImage: the setup sectors with the header, then the kernel.

    size truncates (or pads) the file after it is built.
    """
    setup = bytearray((max(setup_sects, 1) + 1) * 512)
    setup[0x1f1] = setup_sects
    put(setup, 0x1fe, b"\x55\xaa")
    # The jump over the header gives the header's end (boot protocol 2.00)
    put(setup, 0x200, bytes([0xeb, (header_end - 0x202) & 0xff]))
    put(setup, 0x202, b"HdrS")
    put(setup, 0x206, struct.pack("<H", version))
    setup[0x211] = loadflags
    put(setup, 0x22c, struct.pack("<I", initrd_addr_max))
    put(setup, 0x236, struct.pack("<H", xloadflags))
    put(setup, 0x238, struct.pack("<I", cmdline_size))
    data = bytes(setup) + kernel
    if size is not None:
        data = data[:size] + bytes(max(0, size - len(data)))
    return data


def elf_note(name, ntype, desc, align=4):
    """One ELF note, name and desc padded to align."""
    def pad(b):
        return b + bytes(-len(b) % align)
    return struct.pack("<III", len(name), len(desc), ntype) + pad(name) + \
        pad(desc)


def elf_note_raw(namesz, descsz, ntype, rest):
    """A note header with any sizes, followed by rest."""
    return struct.pack("<III", namesz, descsz, ntype) + rest


def pvh_note(entry, is64=False):
    return elf_note(b"Xen\0", XEN_ELFNOTE_PHYS32_ENTRY,
                    struct.pack("<Q" if is64 else "<I", entry))


def elf(is64=True, machine=None, entry=0x100000, segments=(), blobs=None,
        phoff=None, phentsize=None, phnum=None, flags=0, size=None,
        raw_phdrs=None, ph_at=None):
    """An ELF executable.

    segments: (p_type, p_offset, p_paddr, p_filesz, p_memsz[, p_align]);
    blobs: {file offset: bytes}.  phoff, phentsize and phnum override what
    the segments imply; raw_phdrs replaces the program header bytes.  The
    program headers are written at ph_at (default: phoff, or right after
    the ELF header when phoff is no offset in a small file).
    """
    ehsize = 64 if is64 else 52
    real_phentsize = 56 if is64 else 32
    if machine is None:
        machine = EM_X86_64 if is64 else EM_386
    if phoff is None:
        phoff = ehsize
    if ph_at is None:
        ph_at = phoff if phoff < 0x100000 else ehsize
    if phentsize is None:
        phentsize = real_phentsize
    if phnum is None:
        phnum = len(segments)
    buf = bytearray(ehsize)
    ident = b"\x7fELF" + bytes([2 if is64 else 1, 1, 1]) + bytes(9)
    if is64:
        hdr = struct.pack("<HHIQQQIHHHHHH", 2, machine, 1, entry, phoff, 0,
                          flags, ehsize, phentsize, phnum, 0, 0, 0)
    else:
        hdr = struct.pack("<HHIIIIIHHHHHH", 2, machine, 1, entry, phoff, 0,
                          flags, ehsize, phentsize, phnum, 0, 0, 0)
    put(buf, 0, ident + hdr)
    if raw_phdrs is not None:
        put(buf, ph_at, raw_phdrs)
    else:
        for i, seg in enumerate(segments):
            ptype, off, paddr, filesz, memsz = seg[:5]
            align = seg[5] if len(seg) > 5 else 4
            if is64:
                ph = struct.pack("<IIQQQQQQ", ptype, 7, off, paddr, paddr,
                                 filesz, memsz, align)
            else:
                ph = struct.pack("<IIIIIIII", ptype, off, paddr, paddr,
                                 filesz, memsz, 7, align)
            put(buf, ph_at + i * max(phentsize, len(ph)), ph)
    for off, data in (blobs or {}).items():
        put(buf, off, data)
    data = bytes(buf)
    if size is not None:
        data = data[:size] + bytes(max(0, size - len(data)))
    return data


def pvh_elf(is64=True, entry=0x100000, **kw):
    """A valid PVH kernel: one PT_LOAD of code at 1 MiB, one PT_NOTE."""
    note = pvh_note(entry, is64)
    code = 0x200
    segs = [(PT_LOAD, code, 0x100000, len(HALT), 0x1000),
            (PT_NOTE, 0x180, 0, len(note), len(note))]
    blobs = {0x180: note, code: HALT}
    segs = kw.pop("segments", segs)
    blobs = kw.pop("blobs", blobs)
    return elf(is64=is64, entry=entry, segments=segs, blobs=blobs, **kw)


def multiboot_header(flags=0, addrs=None):
    """The multiboot header; addrs = (header_addr, load_addr, load_end_addr,
    bss_end_addr, entry_addr) with the a.out kludge flag."""
    hdr = struct.pack("<III", MULTIBOOT_MAGIC, flags,
                      -(MULTIBOOT_MAGIC + flags) & 0xffffffff)
    if addrs is not None:
        hdr += struct.pack("<5I", *addrs)
    return hdr


def multiboot_aout(header_off=0, load_addr=0x100000, header_addr=None,
                   load_end_addr=0, bss_end_addr=0, entry=None, size=0x100,
                   flags=MULTIBOOT_AOUT_KLUDGE):
    """A multiboot kernel loaded by the a.out kludge's addresses.

    The file from offset header_off - (header_addr - load_addr) is the
    image; by default it starts at the file's first byte.
    """
    if header_addr is None:
        header_addr = load_addr + header_off
    if entry is None:
        entry = load_addr + header_off + 32
    buf = bytearray(size)
    put(buf, header_off,
        multiboot_header(flags, (header_addr, load_addr, load_end_addr,
                                 bss_end_addr, entry)))
    put(buf, header_off + 32, HALT)
    return bytes(buf[:size])


def multiboot_at(off):
    """A multiboot kernel whose header is at file offset off, loaded whole
    at 1 MiB; a zImage's setup_sects of 255 says it is no zImage."""
    buf = bytearray(off + 0x100)
    buf[0x1f1] = 0xff
    put(buf, off, multiboot_header(MULTIBOOT_AOUT_KLUDGE,
                                   (0x100000 + off, 0x100000, 0, 0,
                                    0x100000 + off + 32)))
    put(buf, off + 32, HALT)
    return bytes(buf)


def multiboot_elf(is64=False, **kw):
    """A multiboot kernel whose ELF program headers say where it goes: the
    file's first 0x100 bytes (headers, multiboot header at 0x80, code at
    0xa0) at 1 MiB, plus 0x1000 bytes of bss."""
    blobs = {0x80: multiboot_header(0), 0xa0: HALT}
    segs = [(PT_LOAD, 0, 0x100000, 0x100, 0x1100)]
    segs = kw.pop("segments", segs)
    blobs = kw.pop("blobs", blobs)
    return elf(is64=is64, entry=0x1000a0, segments=segs, blobs=blobs,
               size=kw.pop("size", 0x100), **kw)
