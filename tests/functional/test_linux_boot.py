#!/usr/bin/env python3
"""Linux guests (issue 4, must-show 3).

1. Debian's 6.1 kernel, entered through its PVH note (vmlinux), prints its
   banner and the exact command line given with -append.  Runs here: on
   this PVM host the kernel's ring-0 code is emulated, and the banner comes
   after about 12 s.
2. A full boot to an initramfs /init (2 vCPUs), checked for the kernel's
   messages for each PV feature the machine types manage: "PV spinlocks
   enabled" (kvm-pv-unhalt) on pc-q35-8.1 and 8.0, "KVM setup pv remote TLB
   flush", "setup PV IPIs" and "setup PV sched yield" (kvm-pv-tlb-flush,
   -ipi, -sched-yield) on pc-q35-8.1 only, none of them on pc-q35-7.2;
   each only where the host's KVM offers the feature.  The texts are Linux
   6.1's (strings of Debian's vmlinux).  Needs a host with VMX or SVM;
   skipped elsewhere, saying why.

The kernel comes from Debian's linux-image package (scripts/
fetch-linux-kernel.sh into the build directory); LINUX_DIR overrides.
"""

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import host_kvm_pv_features, kvm_usable  # noqa: E402

TOP = os.path.join(os.path.dirname(__file__), "..", "..")
BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
LINUX_DIR = os.environ.get("LINUX_DIR", os.path.join(
    os.path.dirname(os.path.abspath(BINARY)), "linux"))


def host_has_vmx_or_svm():
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read().split()
    except OSError:
        return False
    return "vmx" in flags or "svm" in flags


def fetch_kernel():
    script = os.path.join(TOP, "scripts", "fetch-linux-kernel.sh")
    p = subprocess.run([script, LINUX_DIR], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip() or p.stdout.strip()
    return LINUX_DIR, None


def boot_until(args, patterns, timeout):
    """Runs the emulator with the serial port in a file until every pattern
    appeared (True), the process ended, or the time ran out."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "serial.log")
        proc = subprocess.Popen([BINARY, "-display", "none", "-nodefaults",
                                 "-serial", f"file:{log}"] + args,
                                stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        text = ""
        try:
            while time.monotonic() < deadline:
                try:
                    with open(log, errors="replace") as f:
                        text = f.read()
                except OSError:
                    text = ""
                if all(p in text for p in patterns):
                    return "ok", text, ""
                if proc.poll() is not None:
                    break
                time.sleep(0.2)
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
            err = proc.stderr.read().decode(errors="replace")
        status = "exited" if proc.returncode not in (None, 0, -15) else \
            "timeout"
        if not text:
            status += "/no-output"
        return status, text, err


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    kdir, why = fetch_kernel()
    if not kdir:
        print(f"SKIP: could not fetch Debian's kernel: {why}")
        return 77
    results = []
    marker = "qemu-kvm-pv-test=pvh,42 quiet=no"
    cmdline = f"console=ttyS0 earlyprintk=serial,ttyS0,115200 {marker}"
    status, text, err = boot_until(
        ["-machine", "pc-q35-8.1", "-accel", "kvm", "-cpu", "qemu64",
         "-m", "512", "-kernel", os.path.join(kdir, "vmlinux"),
         "-append", cmdline],
        ["Linux version", f"Command line: {cmdline}"], timeout=300)
    ok = status == "ok"
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} 1 - linux/pvh/banner-and-cmdline"
          + ("" if ok else f" # {status}: {text[-300:]!r} {err[-300:]!r}"))

    n = 1
    # Linux 6.1's message per feature (arch/x86/kernel/kvm.c), its bit
    messages = {"kvm-guest: PV spinlocks enabled": 7,
                "kvm-guest: KVM setup pv remote TLB flush": 9,
                "kvm-guest: setup PV IPIs": 11,
                "kvm-guest: setup PV sched yield": 13}
    steps = {"pc-q35-8.1": {7, 9, 11, 13}, "pc-q35-8.0": {7},
             "pc-q35-7.2": set()}
    for machine, bits in steps.items():
        n += 1
        name = f"linux/full-boot/{machine}/pv-messages"
        if not host_has_vmx_or_svm():
            print(f"ok {n} - {name} # SKIP this host's KVM has no VMX/SVM "
                  "(PVM): a stock kernel cannot finish booting here")
            continue
        initrd = os.path.join(kdir, "initrd.gz")
        if not os.path.exists(initrd):
            subprocess.run([os.path.join(TOP, "scripts", "make-initramfs.py"),
                            initrd], check=True)
        status, text, err = boot_until(
            ["-machine", machine, "-accel", "kvm", "-cpu", "qemu64",
             "-smp", "2", "-m", "512", "-kernel",
             os.path.join(kdir, "vmlinuz"), "-initrd", initrd,
             "-append", "console=ttyS0 panic=-1"],
            ["GUEST-INIT-REACHED"], timeout=300)
        host = host_kvm_pv_features()
        want = {m for m, b in messages.items() if b in bits and host >> b & 1}
        seen = {m for m in messages if m in text}
        ok = status == "ok" and seen == want
        results.append(ok)
        print(f"{'ok' if ok else 'not ok'} {n} - {name}" +
              ("" if ok else f" # {status}: seen {sorted(seen)} want "
               f"{sorted(want)} {text[-400:]!r}"))
    print(f"1..{n}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
