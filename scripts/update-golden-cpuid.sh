#!/bin/sh
# Regenerates the golden CPUID tables (docs/golden-cpuid.md).
#
#   scripts/update-golden-cpuid.sh            show what a re-baseline changes
#   scripts/update-golden-cpuid.sh --write    re-baseline tests/data/cpuid/
#   scripts/update-golden-cpuid.sh DIR        write the tables to DIR instead
#
# Layout: DIR/<host>/<machine>/<model>.txt, for every recorded host
# (tests/data/hosts/*.host but hyperv-*), every pc-* machine type and the
# models below.
# DIR is replaced as a whole, so tables of removed machine types or models
# disappear too.  After a re-baseline, review with `git diff --stat
# tests/data/cpuid/` and `git diff tests/data/cpuid/`.
#
# The tool is $CPUID_TABLE, else build/tools/cpuid-table.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tool=${CPUID_TABLE:-$top/build/tools/cpuid-table}
golden=$top/tests/data/cpuid
. "$top/scripts/golden-gate.sh"
golden_gate_args "$@"
models="qemu64 kvm64 Haswell Skylake-Server Cascadelake-Server Icelake-Server
EPYC EPYC-Rome EPYC-Milan max"

if [ ! -x "$tool" ]; then
    echo "$0: $tool not found: build first (ninja -C build)" >&2
    exit 1
fi

tmp=$(mktemp -d "${out%/}.new.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

cpu_args=
for m in $models; do
    cpu_args="$cpu_args --cpu $m"
done

for hostfile in "$top"/tests/data/hosts/*.host; do
    host=$(basename "$hostfile" .host)
    # Hyper-V hosts have tables of their own (update-golden-hyperv.sh)
    case $host in hyperv-*) continue ;; esac
    # Filtered-feature warnings are expected (a host lacks what a model
    # asks for); they are shown only when the tool fails.
    # shellcheck disable=SC2086
    if ! "$tool" --host "$hostfile" --machine all $cpu_args \
            --outdir "$tmp/$host" 2>"$tmp/stderr"; then
        cat "$tmp/stderr" >&2
        echo "$0: cpuid-table failed for host $host" >&2
        exit 1
    fi
done
rm -f "$tmp/stderr"

status=0
golden_gate_finish || status=$?
trap - EXIT INT TERM
rm -rf "$tmp"
exit $status
