#!/bin/sh
# Installs the Debian 12 packages the build and the tests need.  Idempotent:
# apt runs only when something is missing.
# Usage: install-deps.sh [--tests | --fuzz]
set -e
pkgs="meson ninja-build pkg-config gcc libc6-dev libglib2.0-dev libjson-glib-dev python3"
# qcow2's compressed clusters
pkgs="$pkgs zlib1g-dev"
# -sandbox (optional at build time: without it only -sandbox off works)
pkgs="$pkgs libseccomp-dev"
if [ "$1" = "--tests" ]; then
    # QEMU 7.2 is the oracle of the differential tests
    pkgs="$pkgs qemu-system-x86"
    # the style suite lists the tracked files with git
    pkgs="$pkgs git"
    # qemu-img is the oracle of the image format tests
    pkgs="$pkgs qemu-utils"
    # tests/libvirt: libvirt 9.0's embedded QEMU driver, virsh, the
    # libvirt-qemu user it looks up, and the Python bindings
    pkgs="$pkgs libvirt-daemon libvirt-clients libvirt-daemon-driver-qemu"
    pkgs="$pkgs libvirt-daemon-system python3-libvirt"
fi
if [ "$1" = "--fuzz" ]; then
    # scripts/fuzz.sh: clang with libFuzzer and the sanitizer runtimes
    pkgs="$pkgs clang libclang-rt-14-dev"
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
