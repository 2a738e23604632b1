#!/usr/bin/env python3
"""Builds a tiny initramfs for the Linux boot tests: Debian's static
busybox (apt-get download busybox-static, not installed) and an /init that
prints GUEST-INIT-REACHED and the kernel's PV spinlock line, then powers
off.  Usage: make-initramfs.py OUT.cpio.gz"""

import glob
import gzip
import io
import os
import subprocess
import sys
import tempfile

INIT = b"""#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs dev /dev 2>/dev/null
echo GUEST-INIT-REACHED
/bin/busybox dmesg | /bin/busybox grep -i "spinlock" || true
/bin/busybox poweroff -f
"""


def cpio_entry(out, name, mode, data=b"", ino=[1]):
    ino[0] += 1
    namez = name.encode() + b"\0"
    hdr = "070701" + "".join(f"{v:08x}" for v in (
        ino[0], mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(namez), 0))
    out.write(hdr.encode() + namez)
    out.write(b"\0" * ((4 - (110 + len(namez)) % 4) % 4))
    out.write(data)
    out.write(b"\0" * ((4 - len(data) % 4) % 4))


def main():
    out_path = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["apt-get", "download", "busybox-static"], cwd=d,
                       check=True, capture_output=True)
        deb = glob.glob(os.path.join(d, "*.deb"))[0]
        subprocess.run(["dpkg-deb", "-x", deb, os.path.join(d, "x")],
                       check=True)
        busybox = open(os.path.join(d, "x", "bin", "busybox"), "rb").read()
    buf = io.BytesIO()
    cpio_entry(buf, "bin", 0o040755)
    cpio_entry(buf, "bin/busybox", 0o100755, busybox)
    cpio_entry(buf, "init", 0o100755, INIT)
    cpio_entry(buf, "TRAILER!!!", 0)
    with gzip.open(out_path, "wb") as f:
        f.write(buf.getvalue())


if __name__ == "__main__":
    main()
