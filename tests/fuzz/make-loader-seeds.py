#!/usr/bin/env python3
"""Writes the seed corpus of the kernel-loader fuzz target.

    tests/fuzz/make-loader-seeds.py [DIR]   (default: corpus/kernel-loader)

Each seed is the target's input: an options byte, a 32-bit initrd size,
then a kernel file built by python/kernel_images.py -- valid kernels of
each format, near misses, and the reproducer of every loader bug fixed so
far (named after what it broke), so that `make check` replays them all.
Rerunning the script rewrites the same files; the fuzz-* files are inputs
scripts/fuzz.sh found, kept as it wrote them.
"""

import os
import struct
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(TOP, "python"))
from kernel_images import (HALT, PT_LOAD, PT_NOTE, bzimage,  # noqa: E402
                           elf, elf_note_raw, multiboot_aout,
                           multiboot_at, multiboot_elf, multiboot_header,
                           pvh_elf, pvh_note)

# The options byte (see tests/fuzz/fuzz-kernel-loader.c)
INITRD = 1            # an initrd of the given size
INITRD_UNREADABLE = 2
CMDLINE_SHORT = 1 << 2
CMDLINE_4K = 2 << 2
CMDLINE_70K = 3 << 2


def seed(kernel, opts=0, initrd_size=0):
    return bytes([opts]) + struct.pack("<I", initrd_size) + kernel


def both_entries():
    """An ELF32 with a multiboot header and a PVH note, as tests/guest."""
    note = pvh_note(0x100090)
    return elf(is64=False, entry=0x100080,
               segments=[(PT_LOAD, 0, 0x100000, 0x100, 0x1100),
                         (PT_NOTE, 0xa0, 0, len(note), len(note))],
               blobs={0x60: multiboot_header(3), 0x80: HALT, 0x90: HALT,
                      0xa0: note}, size=0x100)


SEEDS = {
    # Valid kernels of each format
    "bzimage": seed(bzimage()),
    "bzimage-initrd": seed(bzimage(), INITRD | CMDLINE_SHORT, 4096),
    "bzimage-cmdline-4k": seed(bzimage(), CMDLINE_4K),
    "bzimage-cmdline-70k": seed(bzimage(), CMDLINE_70K),
    "pvh64": seed(pvh_elf()),
    "pvh32": seed(pvh_elf(is64=False)),
    "pvh64-initrd": seed(pvh_elf(), INITRD | CMDLINE_SHORT, 10000),
    "multiboot-aout": seed(multiboot_aout()),
    "multiboot-aout-bss": seed(multiboot_aout(load_end_addr=0x100080,
                                              bss_end_addr=0x102000)),
    "multiboot-aout-initrd": seed(multiboot_aout(), INITRD, 4096),
    "multiboot-elf": seed(multiboot_elf()),
    "multiboot-elf-initrd": seed(multiboot_elf(), INITRD | CMDLINE_SHORT,
                                 5000),
    "multiboot-and-pvh": seed(both_entries()),
    # Near misses
    "empty": seed(b""),
    "not-a-kernel": seed(bytes(range(256)) * 4),
    "bzimage-protocol-2.02": seed(bzimage(version=0x0202)),
    "bzimage-no-xlf-kernel-64": seed(bzimage(xloadflags=0)),
    "bzimage-initrd-unreadable": seed(bzimage(), INITRD_UNREADABLE),
    "bzimage-initrd-too-large": seed(bzimage(), INITRD, 40 << 20),
    "pvh-no-note": seed(pvh_elf(segments=[(PT_LOAD, 0x200, 0x100000, 3,
                                           0x1000)])),
    "pvh-beyond-ram": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x7ffff000, 3, 0x2000),
        (PT_NOTE, 0x180, 0, 20, 20)])),
    "multiboot-elf64": seed(multiboot_elf(is64=True)),
    "multiboot-aout-beyond-ram": seed(multiboot_aout(load_addr=0x7ffff000)),
    # Reproducers of fixed bugs
    "bzimage-initrd-above-addr-max": seed(bzimage(initrd_addr_max=0x100),
                                          INITRD, 4096),
    "bzimage-initrd-above-4g": seed(bzimage(initrd_addr_max=0x100,
                                            xloadflags=3), INITRD, 4096),
    "bzimage-initrd-protocol-1": seed(bzimage(version=0x1ff), INITRD, 4096),
    "pvh-initrd-too-large": seed(pvh_elf(), INITRD, 40 << 20),
    "pvh-initrd-unreadable": seed(pvh_elf(), INITRD_UNREADABLE),
    "multiboot-initrd-unreadable": seed(multiboot_aout(), INITRD_UNREADABLE),
    "multiboot-initrd-over-kernel": seed(multiboot_aout(
        load_addr=0x1000000, bss_end_addr=0x2000000), INITRD, 1 << 20),
    # (a) "HdrS" in a file shorter than the setup header: read past its end
    "bug-bzimage-0x208": seed(bzimage(size=0x208)),
    "bug-bzimage-0x236": seed(bzimage(size=0x236)),
    # (b) offsets near 2^64 wrapped the bounds checks: reads before the file
    "bug-elf64-phoff-wrap": seed(pvh_elf(phoff=(1 << 64) - 16)),
    "bug-elf64-note-offset-wrap": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x100000, 3, 0x1000),
        (PT_NOTE, (1 << 64) - 8, 0, 0x20, 0x20)])),
    # (f) program headers at odd offsets: misaligned struct loads (UBSan)
    "bug-elf64-phoff-odd": seed(pvh_elf(phoff=0x41)),
    "bug-elf64-phentsize-57": seed(pvh_elf(phentsize=57)),
    # (e) segments whose file bytes overlap were loaded
    "bug-elf64-overlapping-segments": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x100000, 0x11, 0x11),
        (PT_LOAD, 0x200, 0x100010, 3, 3), (PT_NOTE, 0x180, 0, 20, 20)],
        size=0x300)),
    "bug-multiboot-elf-overlapping-segments": seed(multiboot_elf(segments=[
        (PT_LOAD, 0, 0x100000, 0x100, 0x100),
        (PT_LOAD, 0, 0x1000f0, 0x10, 0x10)])),
    "bug-multiboot-elf-segment-inside-another": seed(multiboot_elf(segments=[
        (PT_LOAD, 0, 0x100000, 0x100, 0x2000),
        (PT_LOAD, 0, 0x100080, 0x10, 0x10)])),
    "elf64-data-over-bss": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x100000, 3, 0x1000),
        (PT_LOAD, 0x200, 0x100000, 0, 0x1000), (PT_NOTE, 0x180, 0, 20, 20)])),
    "elf64-memsz-2g": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x100000, 3, 0x40000000),
        (PT_LOAD, 0x200, 0x50000000, 3, 0x40000000),
        (PT_NOTE, 0x180, 0, 20, 20)])),
    "elf64-memsz-2-63": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x100000, 3, 1 << 63),
        (PT_LOAD, 0x200, 0x50000000, 3, 1 << 63),
        (PT_NOTE, 0x180, 0, 20, 20)])),
    # (d) a multiboot bss_end_addr below load_end_addr was taken
    "bug-multiboot-bss-below-load-end": seed(multiboot_aout(
        load_end_addr=0x100080, bss_end_addr=0x10007f)),
    "multiboot-past-4g": seed(multiboot_aout(load_addr=0xffffff00,
                                             size=0x200)),
    "multiboot-load-past-file": seed(multiboot_aout(load_end_addr=0x100200)),
    "multiboot-header-at-8140": seed(multiboot_at(8140)),
    # Found by the fuzzer: a bss-only segment's offset near 2^64 made a
    # pointer past the file wrap (UBSan), though no byte was read there
    "bug-elf64-bss-offset-wrap": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x100000, 3, 0x1000),
        (PT_LOAD, (1 << 64) - 0x100, 0x200000, 0, 0x1000),
        (PT_NOTE, 0x180, 0, 20, 20)])),
    # What crashes QEMU 7.2 itself
    "elf64-load-offset-wrap": seed(pvh_elf(segments=[
        (PT_LOAD, (1 << 64) - 2, 0x100000, 3, 0x1000),
        (PT_NOTE, 0x180, 0, 20, 20)])),
    "elf64-note-namesz-wrap": seed(pvh_elf(blobs={
        0x180: elf_note_raw(0xfffffffe, 8, 18, b"Xen\0"), 0x200: HALT})),
    "elf64-note-align-0": seed(pvh_elf(segments=[
        (PT_LOAD, 0x200, 0x100000, 3, 0x1000),
        (PT_NOTE, 0x180, 0, 20, 20, 0)])),
    "elf64-phentsize-8": seed(pvh_elf(phentsize=8)),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        TOP, "tests", "fuzz", "corpus", "kernel-loader")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
