# Sourced by scripts/update-golden-*.sh: how a freshly computed set of
# golden tables in $tmp replaces the committed one in $golden.
#
#   (no argument)  show what would change, write nothing; status 1 if
#                  anything would
#   --write        replace $golden (a re-baseline: its commit says why,
#                  docs/golden-cpuid.md)
#   DIR            write the tables to DIR instead (what the tests do)
#
# golden_gate_args "$@" sets $out and $mode; golden_gate_finish installs.

golden_gate_args() {
    mode=show
    out=$golden
    case "${1:-}" in
    "") ;;
    --write) mode=write ;;
    -*) echo "$0: unknown option $1" >&2; exit 2 ;;
    *) mode=write; out=$1 ;;
    esac
}

golden_gate_finish() {
    if [ "$mode" = show ]; then
        if diff -r -q "$golden" "$tmp" >/dev/null 2>&1; then
            echo "$(find "$tmp" -name '*.txt' | wc -l) tables, all equal" \
                 "to $golden"
            return 0
        fi
        diff -r -q "$golden" "$tmp" | sed "s|$tmp|(new)|" | head -40
        diff -r -u "$golden" "$tmp" | head -200
        echo "$0: nothing written.  These tables are what guests see:" \
             "re-run with --write to re-baseline, and say why in the" \
             "commit (docs/golden-cpuid.md)." >&2
        return 1
    fi
    chmod 755 "$tmp"
    rm -rf "$out"
    mv "$tmp" "$out"
    echo "$(find "$out" -name '*.txt' | wc -l) tables in $out"
}
