#!/bin/sh
# Regenerates the golden Hyper-V leaf tables (docs/hyperv.md).
#
#   scripts/update-golden-hyperv.sh           show what a re-baseline changes
#   scripts/update-golden-hyperv.sh --write   re-baseline tests/data/hyperv/
#   scripts/update-golden-hyperv.sh DIR       write the tables to DIR instead
#
# Layout: DIR/<host>/<case>.txt for every Hyper-V host
# (tests/data/hosts/hyperv-*.host) and every case below.  A table holds the
# hypervisor leaves (0x40000000..0x400001FF: Hyper-V's and KVM's, moved to
# 0x40000100 when Hyper-V is on) of vCPU 0; when the CPU can't be created
# it holds the error line instead ("error: TEXT").  Review a re-baseline
# with `git diff tests/data/hyperv/`.
#
# The tool is $CPUID_TABLE, else build/tools/cpuid-table.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tool=${CPUID_TABLE:-$top/build/tools/cpuid-table}
golden=$top/tests/data/hyperv
. "$top/scripts/golden-gate.sh"
golden_gate_args "$@"

# The enlightenments libvirt users typically enable for Windows guests
# (issue 5's list); hv-stimer needs hv-time, which libvirt adds for its
# hypervclock timer: "windows" has it, "windows-no-time" shows the error.
# "windows-no-tlbflush" leaves hv-tlbflush and hv-ipi to the machine type:
# 8.1 auto-enables both, 8.0 hv-ipi only, 7.2 neither.
base=hv-relaxed=on,hv-vapic=on,hv-spinlocks=0x1fff,hv-vpindex=on
base=$base,hv-runtime=on,hv-synic=on,hv-stimer=on,hv-reset=on
base=$base,hv-frequencies=on,hv-reenlightenment=on
list=$base,hv-tlbflush=on
win_noipi=$list,hv-time=on
win=$win_noipi,hv-ipi=on
win_notlb=$base,hv-time=on

# case machine cpu
cases="
windows-8.1 pc-q35-8.1 host,$win
windows-no-tlbflush-8.1 pc-q35-8.1 host,$win_notlb
windows-no-tlbflush-8.0 pc-q35-8.0 host,$win_notlb
windows-no-tlbflush-7.2 pc-q35-7.2 host,$win_notlb
windows-tlbflush-off-8.1 pc-q35-8.1 host,$win_notlb,hv-tlbflush=off
windows-no-tlbflush-i440fx-8.1 pc-i440fx-8.1 host,$win_notlb
vpindex-only-8.1 pc-q35-8.1 host,hv-vpindex=on
vpindex-only-8.0 pc-q35-8.0 host,hv-vpindex=on
passthrough-8.1 pc-q35-8.1 host,hv-passthrough=on
minimal-8.1 pc-q35-8.1 host,hv-relaxed=on,hv-vapic=on,hv-spinlocks=0x1fff
none-8.1 pc-q35-8.1 host
windows-8.0 pc-q35-8.0 host,$win
windows-no-time-8.0 pc-q35-8.0 host,$list,hv-ipi=on
windows-7.2 pc-q35-7.2 host,$win
windows-6.0 pc-q35-6.0 host,$win
windows-2.10 pc-i440fx-2.10 host,$win
windows-no-ipi-8.0 pc-q35-8.0 host,$win_noipi
windows-no-ipi-7.2 pc-q35-7.2 host,$win_noipi
windows-ipi-off-8.0 pc-q35-8.0 host,$win_noipi,hv-ipi=off
windows-evmcs-8.0 pc-q35-8.0 host,$win,hv-evmcs=on,hv-tlbflush-direct=on
passthrough-8.0 pc-q35-8.0 host,hv-passthrough=on
passthrough-7.2 pc-q35-7.2 host,hv-passthrough=on
minimal-8.0 pc-q35-8.0 host,hv-relaxed=on,hv-vapic=on,hv-spinlocks=0x1fff
minimal-7.2 pc-q35-7.2 host,hv-relaxed=on,hv-vapic=on,hv-spinlocks=0x1fff
spinlocks-only-8.0 pc-q35-8.0 host,hv-spinlocks=0x1fff
none-8.0 pc-q35-8.0 host
"

if [ ! -x "$tool" ]; then
    echo "$0: $tool not found: build first (ninja -C build)" >&2
    exit 1
fi

tmp=$(mktemp -d "${out%/}.new.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

for hostfile in "$top"/tests/data/hosts/hyperv-*.host; do
    host=$(basename "$hostfile" .host)
    mkdir -p "$tmp/$host"
    echo "$cases" | while read -r name machine cpu; do
        [ -n "$name" ] || continue
        f="$tmp/$host/$name.txt"
        {
            echo "# machine $machine cpu $cpu"
            if "$tool" --host "$hostfile" --machine "$machine" --cpu "$cpu" \
                    >"$tmp/stdout" 2>"$tmp/stderr"; then
                grep '^0x40000[01][0-9a-f][0-9a-f] ' "$tmp/stdout" || true
            else
                sed 's/^cpuid-table: /error: /' "$tmp/stderr"
            fi
        } >"$f"
    done
done
rm -f "$tmp/stdout" "$tmp/stderr"

status=0
golden_gate_finish || status=$?
trap - EXIT INT TERM
rm -rf "$tmp"
exit $status
