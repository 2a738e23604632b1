#!/bin/sh
# The main job: build, then show which KVM PV features a vCPU gets on
# pc-q35-8.1, pc-q35-8.0 and pc-q35-7.2 side by side (read through QMP from
# the real binary, and from inside a guest).
set -e
cd "$(dirname "$0")/.."
scripts/install-deps.sh
[ -f build/build.ninja ] || ./configure >/dev/null
ninja -C build >/dev/null
exec python3 scripts/pv-features.py "$@"
