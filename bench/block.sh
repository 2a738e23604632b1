#!/bin/sh
# The block layer's data-safety run and throughput, beyond `make check`.
#
#   bench/block.sh [ITERATIONS]     (default 200 kills per image kind)
#
# 1. tests/functional/test_block_crash.py with ITERATIONS rounds of
#    write-flush-SIGKILL per image kind (raw, qcow2 v3/v2, qcow2 over a
#    backing file), each checked with qemu-img check and byte comparison.
# 2. Sequential write+flush and read throughput through the block layer
#    (blk-io bench: 256 MiB in 1 MiB and 64 KiB requests) for raw, qcow2
#    freshly allocating, and qcow2 rewriting allocated clusters; host page
#    cache included (cache=writeback), so it measures this code's overhead
#    rather than the disk.
# Needs build/ (ninja -C build) and qemu-img.
set -e
cd "$(dirname "$0")/.."
iterations=${1:-200}
blk_io=build/tests/functional/blk-io
ninja -C build tests/functional/blk-io >/dev/null
echo "== crash safety: $iterations kills per image kind"
BLOCK_CRASH_ITERATIONS=$iterations BLK_IO=$blk_io \
    python3 tests/functional/test_block_crash.py | grep -v '^ok'
tmp=$(mktemp -d /tmp/block-bench-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "== throughput (MB/s), 256 MiB sequential"
for bs in 1048576 65536; do
    truncate -s 256M "$tmp/a.raw"
    printf "raw         bs=%-8s " "$bs"
    $blk_io bench "driver=raw,node-name=d,file.driver=file,file.filename=$tmp/a.raw" 256 $bs
    rm -f "$tmp/a.qcow2"
    qemu-img create -q -f qcow2 "$tmp/a.qcow2" 256M
    opts="driver=qcow2,node-name=d,file.driver=file,file.filename=$tmp/a.qcow2"
    printf "qcow2 alloc bs=%-8s " "$bs"
    $blk_io bench "$opts" 256 $bs
    printf "qcow2 rewrt bs=%-8s " "$bs"
    $blk_io bench "$opts" 256 $bs
    rm -f "$tmp/a.raw" "$tmp/a.qcow2"
done
