#!/bin/sh
# Installs the Debian 12 packages the build and the tests need.  Idempotent:
# apt runs only when something is missing.  Usage: install-deps.sh [--tests]
set -e
pkgs="meson ninja-build pkg-config gcc libc6-dev libglib2.0-dev libjson-glib-dev python3"
if [ "$1" = "--tests" ]; then
    # QEMU 7.2 is the oracle of the differential tests
    pkgs="$pkgs qemu-system-x86"
fi
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
