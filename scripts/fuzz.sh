#!/bin/sh
# Runs one fuzz target for real, with clang's libFuzzer and ASan/UBSan.
#
#   scripts/fuzz.sh TARGET SECONDS [-- LIBFUZZER-ARGS...]
#   scripts/fuzz.sh --list
#
# TARGET is a name from tests/fuzz/meson.build (qmp-json, ...).  The build
# is build-fuzz/ (configure --enable-fuzzing, made on first use).  New
# inputs go to build-fuzz/fuzz/TARGET/corpus, which starts as a copy of the
# committed seeds; crashes, leaks and timeouts to build-fuzz/fuzz/TARGET/,
# one file each, named by libFuzzer.  To keep an input as a seed (e.g. the
# reproducer of a fixed bug), copy it into tests/fuzz/corpus/TARGET: `make
# check` replays that directory.  Exit status: libFuzzer's (0: nothing
# found in SECONDS).
set -e
cd "$(dirname "$0")/.."
if [ "$1" = "--list" ]; then
    sed -n "s/^  '\([a-z0-9-]*\)': .*/\1/p" tests/fuzz/meson.build
    exit 0
fi
if [ $# -lt 2 ]; then
    echo "usage: $0 TARGET SECONDS [-- LIBFUZZER-ARGS...]  (or --list)" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2
[ "$1" = "--" ] && shift
if [ ! -d "tests/fuzz/corpus/$target" ]; then
    echo "$0: unknown target '$target' (see --list)" >&2
    exit 2
fi
scripts/install-deps.sh --fuzz
[ -f build-fuzz/build.ninja ] || ./configure --enable-fuzzing >/dev/null
ninja -C build-fuzz "tests/fuzz/fuzz-$target" >/dev/null
work="build-fuzz/fuzz/$target"
mkdir -p "$work/corpus"
cp -n "tests/fuzz/corpus/$target"/* "$work/corpus/" 2>/dev/null || true
# Leaks are findings too: a long-running monitor must not grow
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
exec "build-fuzz/tests/fuzz/fuzz-$target" -max_total_time="$seconds" \
    -artifact_prefix="$work/" -print_final_stats=1 "$@" \
    "$work/corpus" "tests/fuzz/corpus/$target"
