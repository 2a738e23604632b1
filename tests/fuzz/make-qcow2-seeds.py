#!/usr/bin/env python3
"""Writes the seed corpus of the qcow2-image fuzz target with qemu-img.

    tests/fuzz/make-qcow2-seeds.py [DIR]   (default: corpus/qcow2-image)

Each seed is the target's input: 9 option bytes (see
tests/fuzz/fuzz-qcow2-image.c), then an image qemu-img made: v2 and v3,
cluster sizes 512 bytes to 64 KiB, refcount widths 1 to 64 bits, data and
compressed clusters, zero clusters, a backing file name and format, and a
few hand-broken headers.  Images are kept small (small clusters), so that
libFuzzer's mutations reach every table.  Rerunning rewrites the same
files; the fuzz-* files are inputs scripts/fuzz.sh found.
"""

import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RW, BACKING, ZEROES, DISCARD, RESIZE, FLUSH = 1, 2, 4, 8, 16, 32


def image(tmp, create_opts, size, data=None, compress=False, backing=None):
    raw = os.path.join(tmp, "src.raw")
    img = os.path.join(tmp, "img.qcow2")
    if os.path.exists(img):
        os.unlink(img)
    if data is None:
        cmd = ["qemu-img", "create", "-q", "-f", "qcow2", "-o", create_opts]
        if backing:
            cmd += ["-b", backing, "-F", "raw"]
        subprocess.run(cmd + [img, str(size)], check=True)
    else:
        with open(raw, "wb") as f:
            f.write(data)
            f.truncate(size)
        subprocess.run(["qemu-img", "convert", "-q", "-f", "raw", "-O",
                        "qcow2", "-o", create_opts] + (["-c"] if compress
                                                       else []) +
                       [raw, img], check=True)
    with open(img, "rb") as f:
        return f.read()


def pattern(n, seed):
    out = bytearray()
    x = seed
    while len(out) < n:
        x = (x * 1103515245 + 12345) & 0xffffffff
        out += bytes([x >> 16 & 0xff]) * (x % 700 + 1)
    return bytes(out[:n])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, "corpus", "qcow2-image")
    os.makedirs(out, exist_ok=True)
    seeds = {}
    with tempfile.TemporaryDirectory() as tmp:
        data = pattern(40000, 1)
        seeds["v2-512-data"] = (RW | FLUSH, image(
            tmp, "compat=0.10,cluster_size=512", 1 << 20, data))
        seeds["v3-512-rc1"] = (RW | ZEROES | DISCARD, image(
            tmp, "compat=1.1,cluster_size=512,refcount_bits=1", 1 << 20,
            data))
        seeds["v3-1k-rc64-resize"] = (RW | RESIZE | FLUSH, image(
            tmp, "compat=1.1,cluster_size=1024,refcount_bits=64", 256 << 10,
            data))
        seeds["v3-4k-rc8"] = (RW | ZEROES | FLUSH, image(
            tmp, "compat=1.1,cluster_size=4096,refcount_bits=8", 1 << 20,
            data))
        seeds["v3-4k-compressed"] = (RW | DISCARD, image(
            tmp, "compat=1.1,cluster_size=4096", 1 << 20, data,
            compress=True))
        seeds["v2-512-compressed-ro"] = (0, image(
            tmp, "compat=0.10,cluster_size=512", 256 << 10, data,
            compress=True))
        seeds["v3-512-backing"] = (RW | BACKING | ZEROES | FLUSH, image(
            tmp, "compat=1.1,cluster_size=512", 1 << 20,
            backing=os.path.join(tmp, "src.raw")))
        seeds["v3-64k-empty"] = (RW | ZEROES | DISCARD | RESIZE, image(
            tmp, "compat=1.1,cluster_size=65536", 4 << 20))
        base = seeds["v3-4k-rc8"][1]
        # Hand-broken: unknown incompatible bit, dirty, huge L1, bad
        # refcount table offset, header length beyond the cluster
        broken = {
            "incompat-unknown": (72, ">Q", 1 << 40),
            "dirty": (72, ">Q", 1),
            "l1-huge": (36, ">I", 0x7fffffff),
            "reftable-unaligned": (48, ">Q", 0x1234),
            "header-length-big": (100, ">I", 1 << 20),
        }
        for name, (off, fmt, val) in broken.items():
            b = bytearray(base)
            struct.pack_into(fmt, b, off, val)
            seeds["broken-" + name] = (RW, bytes(b))
        # Every refcount 1 as far as a 512 KiB refcount table reaches
        # (1-bit refcounts: 2^28 clusters): allocation must not scan them
        b = bytearray(image(tmp, "compat=1.1,cluster_size=512,"
                            "refcount_bits=1", 1 << 20))
        b += bytes(-len(b) % 512)
        block = len(b)
        b += b"\xff" * 512
        table = len(b)
        b += struct.pack(">Q", block) * (512 * 1024 // 8)
        struct.pack_into(">Q", b, 48, table)
        struct.pack_into(">I", b, 56, 512 * 1024 // 512)
        seeds["broken-refcounts-all-used"] = (RW, bytes(b))
    for name, (flags, img) in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes([flags]) + struct.pack("<II", 0x12345, 0x777) + img)
    print(f"{len(seeds)} seeds in {out}")


if __name__ == "__main__":
    main()
