#!/bin/sh
# Builds and runs every test suite (make check), installing what the tests
# need first.  Extra arguments go to meson test (e.g. --suite unit).
set -e
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests --upstream-qtest
[ -f build/build.ninja ] || ./configure >/dev/null
ninja -C build
meson test -C build --print-errorlogs "$@"
