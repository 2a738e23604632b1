#!/usr/bin/env python3
"""KVM layer errors end start-up with a message, never a hang (issue 15).

A vCPU thread that cannot be created (here: a pids cgroup too small for
-smp 12) must fail start-up with status 1 and the reason, where it used to
leave start-up waiting for ever for the thread.  Skips (77) without
/dev/kvm or a writable cgroup v1 pids hierarchy (root).
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
PIDS = "/sys/fs/cgroup/pids"


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    cg = os.path.join(PIDS, f"qemu-kvm-pv-test-{os.getpid()}")
    try:
        os.mkdir(cg)
    except OSError as e:
        print(f"SKIP: cannot make a pids cgroup under {PIDS}: {e}")
        return 77
    try:
        with open(os.path.join(cg, "pids.max"), "w") as f:
            f.write("6\n")
        argv = ["sh", "-c", f'echo $$ > {cg}/cgroup.procs && exec "$@"', "sh",
                BINARY, "-machine", "q35", "-accel", "kvm", "-smp", "12",
                "-nodefaults", "-display", "none", "-S"]
        # LeakSanitizer needs a thread of its own at exit, which the
        # cgroup refuses: its report would replace the emulator's last line
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get(
            "ASAN_OPTIONS", "") + ":detect_leaks=0")
        try:
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, env=env,
                               capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            print("not ok 1 - kvm/errors/vcpu-thread-create # hung")
            return 1
    finally:
        os.rmdir(cg)
    last = p.stderr.strip().splitlines()[-1:] or [""]
    ok = p.returncode == 1 and last[0].startswith(
        "qemu-system-x86_64: kvm: cannot create the thread of vCPU ")
    print(f"{'ok' if ok else 'not ok'} 1 - kvm/errors/vcpu-thread-create")
    if not ok:
        print(f"#   status {p.returncode}, last line {last[0]!r}")
    print("1..1")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
