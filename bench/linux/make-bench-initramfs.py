#!/usr/bin/env python3
"""Initramfs for bench/linux-overcommit.sh: Debian's static busybox
(apt-get download busybox-static, not installed), msgbench and allocbench
(built here, statically linked) and an /init that runs the workload named
on the kernel command line, prints its result line and the kernel's PV
lines, then powers off.

  bench=msg    msgbench  (msg_args=G,L,F    default 4,2000,20)
  bench=alloc  allocbench (alloc_args=T,S   default 4,10)
  reps=N       run the workload N times (default 3)

Usage: make-bench-initramfs.py OUT.cpio.gz"""

import glob
import gzip
import importlib.util
import io
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

# cpio writer of the project's own initramfs script
spec = importlib.util.spec_from_file_location("mkinitramfs", os.path.join(TOP, "scripts", "make-initramfs.py"))
mk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mk)

INIT = b"""#!/bin/busybox sh
B=/bin/busybox
$B mkdir -p /proc /sys /dev /tmp
$B mount -t proc proc /proc
$B mount -t sysfs sys /sys
$B mount -t devtmpfs dev /dev 2>/dev/null
echo GUEST-INIT-REACHED
$B dmesg | $B grep -iE "kvm-guest|PV spinlocks|pv tlb|kvm: using" 
bench=msg; reps=3; msg_args=4,2000,20; alloc_args=4,10
for w in $($B cat /proc/cmdline); do
  case "$w" in
    bench=*|reps=*|msg_args=*|alloc_args=*) eval "$w";;
  esac
done
i=0
while [ $i -lt $reps ]; do
  case "$bench" in
    msg) /bin/msgbench $(echo $msg_args | $B tr , ' ');;
    alloc) /bin/allocbench $(echo $alloc_args | $B tr , ' ');;
  esac
  i=$((i+1))
done
echo BENCH-DONE
$B poweroff -f
"""


def build(src, out, extra=()):
    subprocess.run(["gcc", "-O2", "-static", "-Wall", *extra, "-o", out, os.path.join(HERE, src)],
                   check=True)
    return open(out, "rb").read()


def main():
    out_path = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        msg = build("msgbench.c", os.path.join(d, "msgbench"))
        alloc = build("allocbench.c", os.path.join(d, "allocbench"), ["-pthread"])
        subprocess.run(["apt-get", "download", "busybox-static"], cwd=d, check=True,
                       capture_output=True)
        deb = glob.glob(os.path.join(d, "*.deb"))[0]
        subprocess.run(["dpkg-deb", "-x", deb, os.path.join(d, "x")], check=True)
        busybox = open(os.path.join(d, "x", "bin", "busybox"), "rb").read()
    buf = io.BytesIO()
    mk.cpio_entry(buf, "bin", 0o040755)
    mk.cpio_entry(buf, "bin/busybox", 0o100755, busybox)
    mk.cpio_entry(buf, "bin/msgbench", 0o100755, msg)
    mk.cpio_entry(buf, "bin/allocbench", 0o100755, alloc)
    mk.cpio_entry(buf, "init", 0o100755, INIT)
    mk.cpio_entry(buf, "TRAILER!!!", 0)
    with gzip.open(out_path, "wb") as f:
        f.write(buf.getvalue())


if __name__ == "__main__":
    main()
