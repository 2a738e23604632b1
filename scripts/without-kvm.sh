#!/bin/bash
# Run a command as if this host had no usable /dev/kvm: in a private mount
# namespace a unix socket is bound over the device node, and opening it
# fails (ENXIO). Root only. Shows what tests do on a host without KVM:
#   scripts/without-kvm.sh meson test -C build bad-input
set -e
sock=$(mktemp -u "${TMPDIR:-/tmp}/without-kvm.XXXXXX")
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$sock"
trap 'rm -f "$sock"' EXIT
unshare -m bash -c 'mount --bind "$0" /dev/kvm && exec "$@"' "$sock" "$@"
