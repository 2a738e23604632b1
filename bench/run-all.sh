#!/bin/bash
# Runs every benchmark of bench/ and writes bench/RESULTS.md and the PNG
# plots (gnuplot, Debian package gnuplot-nox, installed if missing).
# Needs /dev/kvm; QEMU 7.2 (/usr/bin/qemu-system-x86_64) is optional.
# Not a test: nothing here is part of `make check`.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export BENCH_OUT=${BENCH_OUT:-$top/bench/out}
if ! command -v gnuplot >/dev/null; then
    apt-get install -y -q gnuplot-nox >/dev/null || { apt-get update -q && apt-get install -y -q gnuplot-nox; }
fi
[ -f build/build.ninja ] || ./configure
ninja -C build >/dev/null
ninja -C build bench/kvm-run-loop tests/guest/bench-boot.elf tests/guest/bench-exits.elf \
    tests/guest/bench-ipi.elf >/dev/null
rm -rf "$BENCH_OUT"
mkdir -p "$BENCH_OUT"
start=$(date +%s)
load_start=$(cut -d' ' -f1 /proc/loadavg)
steps=""
step() {
    local name=$1; shift
    local t0; t0=$(date +%s)
    echo "== $name: $*" >&2
    "$@" || echo "== $name exited with $?" >&2
    steps="$steps \"$name\": $(( $(date +%s) - t0 )),"
}
step startup python3 bench/startup.py
step exits python3 bench/exits.py
step footprint python3 bench/footprint.py
step control python3 bench/control.py
step guestside python3 bench/guestside.py
step linux-overcommit bench/linux-overcommit.sh
cat > "$BENCH_OUT/timing.json" <<EOT
{"date": "$(date -u '+%Y-%m-%d %H:%M UTC')", "total_s": $(( $(date +%s) - start )),
 "load_start": "$load_start", "load_end": "$(cut -d' ' -f1 /proc/loadavg)",
 "steps": {${steps%,}}}
EOT
python3 bench/plot.py
python3 bench/report.py > bench/RESULTS.md
echo "bench/RESULTS.md written ($(( $(date +%s) - start )) s)" >&2
