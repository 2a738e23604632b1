#!/bin/sh
# Fetches Debian 12's kernel for the Linux boot tests, without installing
# it: apt-get download + dpkg-deb -x into DIR, then extracts the
# uncompressed vmlinux (which has a PVH entry note) from the bzImage.
# Usage: fetch-linux-kernel.sh DIR   -> DIR/vmlinuz, DIR/vmlinux
set -e
dir=${1:?usage: $0 DIR}
mkdir -p "$dir"
cd "$dir"
if [ -f vmlinux ] && [ -f vmlinuz ]; then
    exit 0
fi
pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' |
      cut -d' ' -f1 | sort -V | tail -n 1)
if [ -z "$pkg" ]; then
    apt-get update -qq >/dev/null 2>&1 || true
    pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' |
          cut -d' ' -f1 | sort -V | tail -n 1)
fi
[ -n "$pkg" ] || { echo "no linux-image-6.1.0-*-amd64 package found" >&2; exit 1; }
rm -f ./*.deb
apt-get download "$pkg" >/dev/null 2>&1
dpkg-deb --fsys-tarfile ./*.deb | tar -x ./boot/
cp boot/vmlinuz-* vmlinuz
python3 - <<'PY'
import lzma
data = open("vmlinuz", "rb").read()
start = data.find(b"\xfd7zXZ\x00")
if start < 0:
    raise SystemExit("no xz payload in vmlinuz")
out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[start:])
open("vmlinux", "wb").write(out)
PY
rm -rf ./*.deb boot
echo "$pkg" > VERSION
