#!/bin/sh
# Installs the Debian 12 packages the build and the tests need.  Idempotent:
# apt runs only when something is missing.
# Usage: install-deps.sh [--tests | --upstream-qtest | --fuzz]...
#   --tests           everything the test suites need (--upstream-qtest too)
#   --upstream-qtest  what building upstream QEMU 7.2's qtest programs needs
set -e
pkgs="meson ninja-build pkg-config gcc libc6-dev libglib2.0-dev libjson-glib-dev python3"
# qcow2's compressed clusters
pkgs="$pkgs zlib1g-dev"
# -sandbox (optional at build time: without it only -sandbox off works)
pkgs="$pkgs libseccomp-dev"
# -netdev user
pkgs="$pkgs libslirp-dev"
tests=no upstream_qtest=no fuzz=no
for mode in "$@"; do
    case "$mode" in
    --tests) tests=yes upstream_qtest=yes ;;
    --upstream-qtest) upstream_qtest=yes ;;
    --fuzz) fuzz=yes ;;
    *) echo "install-deps.sh: unknown mode $mode" >&2; exit 2 ;;
    esac
done
if [ $upstream_qtest = yes ]; then
    # tests/upstream-qtest: apt-get source's download of the orig tarball
    # (xz), upstream's configure for x86_64-softmmu (pixman, and libfdt for
    # the microvm board it configures, zlib) with meson and ninja above
    pkgs="$pkgs qemu-system-x86 apt xz-utils libpixman-1-dev libfdt-dev"
    pkgs="$pkgs zlib1g-dev"
fi
if [ $tests = yes ]; then
    # QEMU 7.2 is the oracle of the differential tests
    pkgs="$pkgs qemu-system-x86"
    # the style suite lists the tracked files with git
    pkgs="$pkgs git"
    # tap tests: network namespaces, tap and veth devices
    pkgs="$pkgs iproute2"
    # option-effects: the KVM calls an option makes, seen with strace
    pkgs="$pkgs strace"
    # qemu-img and qemu-io are the oracles of the image format and
    # blkdebug tests
    pkgs="$pkgs qemu-utils"
    # tests/libvirt: libvirt 9.0's embedded QEMU driver, virsh, the
    # libvirt-qemu user it looks up, and the Python bindings
    pkgs="$pkgs libvirt-daemon libvirt-clients libvirt-daemon-driver-qemu"
    pkgs="$pkgs libvirt-daemon-system python3-libvirt"
fi
if [ $fuzz = yes ]; then
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
