#!/usr/bin/env python3
"""Options that must do what QEMU 7.2 does, observed from outside (issue 15).

Each case runs this tree and Debian's QEMU 7.2 with the same options and
compares what can be seen without trusting either's own report:

* guest RAM's mapping in /proc/PID/smaps (VmFlags: sh shared, mg KSM
  mergeable, dd out of core dumps, hg huge pages, dc not forked, ac
  accounted) and numa_maps (the NUMA policy), for -machine mem-merge= and
  dump-guest-core=, and memory-backend-ram share/merge/dump/policy/
  host-nodes; prealloc=on by the mapping's Rss;
* -rtc base=utc|localtime|DATE and clock=host|rt|vm: the RTC registers
  read over qtest, under a time zone set for the test;
* -overcommit cpu-pm=on: the vCPU's feature words (QMP) and the KVM leaf
  a guest reads (KVM itself withdraws PV unhalt when HLT stays in the
  guest);
* -mon pretty=on: the replies, byte for byte;
* -name process= and debug-threads=: the names of the process and of its
  threads in /proc;
* -accel kvm,kvm-shadow-mem=: the KVM_SET_NR_MMU_PAGES call (strace).

Without QEMU 7.2 the comparisons cannot run (skip, 77); the cases needing
KVM skip one by one without /dev/kvm.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402
from qtest_session import qemu72_available, qtest_session  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "cpuid.elf")
RAM_MB = 256

n = failures = 0


def report(name, ok, detail=""):
    global n, failures
    n += 1
    failures += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - options/{name}" +
          ("" if ok else f" # {detail}"), flush=True)


def skip(name, why):
    global n
    n += 1
    print(f"ok {n} - options/{name} # SKIP {why}", flush=True)


# RAM mapping ----------------------------------------------------------------

def ram_mapping(binary, args):
    """(VmFlags set, NUMA policy, Rss kB) of the guest RAM mapping, read
    once start-up is over (the QMP greeting)"""
    try:
        with Machine(binary, ["-machine", "pc-q35-7.2", "-accel", "kvm",
                              "-m", str(RAM_MB), "-S"] + args) as vm:
            found = scan_smaps(vm.proc.pid)
            if not found:
                return "no RAM mapping"
            start, flags, rss = found
            policy = "?"
            with open(f"/proc/{vm.proc.pid}/numa_maps") as f:
                for line in f:
                    if int(line.split()[0], 16) == start:
                        policy = line.split()[1]
            return flags, policy, rss
    except RuntimeError as e:
        return str(e)[-200:]


def scan_smaps(pid):
    cur = None
    rss = 0
    try:
        text = open(f"/proc/{pid}/smaps").read()
    except OSError:
        return None
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) ", line)
        if m:
            lo, hi = int(m.group(1), 16), int(m.group(2), 16)
            # guest RAM plus QEMU's alignment slack; sanitizer shadow
            # regions are terabytes and must not be taken for it
            size = hi - lo
            cur = lo if RAM_MB << 20 <= size < RAM_MB << 21 else None
        elif cur is not None and line.startswith("VmFlags:") and \
                {"nr", "dd", "nh"} <= set(line.split()[1:]):
            # ASan's allocator regions (reserved, not dumped, no huge
            # pages) can have the guest RAM's size; neither QEMU nor this
            # tree maps guest RAM that way
            cur = None
        elif cur is not None and line.startswith("Rss:"):
            rss = int(line.split()[1])
        elif cur is not None and line.startswith("VmFlags:"):
            return cur, frozenset(line.split()[1:]), rss
    return None


BACKEND = ["-machine", "memory-backend=m", "-object",
           f"memory-backend-ram,id=m,size={RAM_MB}M"]
RAM_CASES = [
    ("default", []),
    ("mem-merge=off", ["-machine", "mem-merge=off"]),
    ("dump-guest-core=off", ["-machine", "dump-guest-core=off"]),
    ("backend", BACKEND),
    ("backend,share=on", BACKEND[:-1] + [BACKEND[-1] + ",share=on"]),
    ("backend,merge=off,dump=off",
     BACKEND[:-1] + [BACKEND[-1] + ",merge=off,dump=off"]),
    ("backend follows mem-merge=off",
     BACKEND + ["-machine", "mem-merge=off"]),
    ("backend,policy=bind", BACKEND[:-1] +
     [BACKEND[-1] + ",policy=bind,host-nodes=0"]),
    ("backend,policy=preferred", BACKEND[:-1] +
     [BACKEND[-1] + ",policy=preferred,host-nodes=0"]),
    ("backend,policy=interleave", BACKEND[:-1] +
     [BACKEND[-1] + ",policy=interleave,host-nodes=0"]),
    ("backend,merge=on with mem-merge=off", BACKEND[:-1] +
     [BACKEND[-1] + ",merge=on"] + ["-machine", "mem-merge=off"]),
    ("backend,dump=on with dump-guest-core=off", BACKEND[:-1] +
     [BACKEND[-1] + ",dump=on"] + ["-machine", "dump-guest-core=off"]),
    # KSM would merge the zeroed pages back: no merging here
    ("backend,prealloc=on", BACKEND[:-1] + [BACKEND[-1] + ",prealloc=on"] +
     ["-machine", "mem-merge=off"]),
]


def check_ram():
    for name, args in RAM_CASES:
        if not kvm_usable():
            skip(f"ram/{name}", "/dev/kvm is not usable here")
            continue
        ours, theirs = ram_mapping(BINARY, args), ram_mapping(ORACLE, args)
        if isinstance(ours, str) or isinstance(theirs, str):
            report(f"ram/{name}", False, f"ours {ours} qemu72 {theirs}")
            continue
        ok = ours[0] == theirs[0] and ours[1] == theirs[1]
        if "prealloc" in name:
            # every page faulted in before the guest runs
            ok = ok and ours[2] >= RAM_MB * 1024 and \
                theirs[2] >= RAM_MB * 1024
        report(f"ram/{name}", ok,
               f"ours {sorted(ours[0])} {ours[1]} rss={ours[2]} | qemu72 "
               f"{sorted(theirs[0])} {theirs[1]} rss={theirs[2]}")


# RTC ---------------------------------------------------------------------------

RTC_REGS = [0x09, 0x08, 0x07, 0x04, 0x02]   # year, month, day, hour, minute
RTC_CASES = ["base=utc", "base=localtime", "base=2006-06-17T16:01:21",
             "base=2006-06-17", "base=localtime,clock=rt",
             "base=2006-06-17T16:01:21,clock=vm", "clock=host"]


def rtc_read(binary, rtc):
    cmds = []
    for r in RTC_REGS:
        cmds += [f"outb 0x70 {r:#x}", "inb 0x71"]
    env = dict(os.environ, TZ="XYZ-5:30")   # local time is UTC+5:30
    out = qtest_session(binary, ["-machine", "pc-q35-7.2", "-rtc", rtc],
                        cmds, env=env)
    return out[1::2]


def check_rtc():
    for rtc in RTC_CASES:
        # a minute may turn between the two reads: try again then
        for _ in range(3):
            a, b = rtc_read(BINARY, rtc), rtc_read(ORACLE, rtc)
            if a == b:
                break
        report(f"rtc/{rtc}", a == b, f"ours {a} qemu72 {b}")


# cpu-pm --------------------------------------------------------------------------

def feature_words(binary, cpu, extra):
    with Machine(binary, ["-machine", "pc-q35-7.2", "-accel", "kvm", "-S",
                          "-cpu", cpu] + extra) as vm:
        fw = vm.qom_get(vm.cpu_path(), "feature-words")
    return {(w["cpuid-input-eax"], w.get("cpuid-input-ecx"),
             w["cpuid-register"]): w["features"] for w in fw}


def guest_kvm_leaf(binary, cpu, extra):
    argv = [binary, "-machine", "pc-q35-7.2,accel=kvm", "-cpu", cpu, "-m",
            "128", "-nodefaults", "-display", "none", "-serial", "stdio",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-no-reboot", "-kernel", GUEST] + extra
    if binary == ORACLE and os.path.exists("/usr/share/qemu/qboot.rom"):
        argv += ["-bios", "/usr/share/qemu/qboot.rom"]   # 0.5 s, not 12
    out = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                         timeout=120).stdout.decode(errors="replace")
    m = re.search(r"CPUID 0x40000001 0x00 eax=(0x[0-9a-f]+)", out)
    return m.group(1) if m else "no answer"


def check_cpu_pm():
    pm = ["-overcommit", "cpu-pm=on"]
    for cpu in ("host", "max", "qemu64"):
        if not kvm_usable():
            skip(f"cpu-pm/{cpu}", "/dev/kvm is not usable here")
            continue
        a, b = feature_words(BINARY, cpu, pm), feature_words(ORACLE, cpu, pm)
        report(f"cpu-pm/{cpu}/feature-words", a == b,
               str({hex(k[0]): (hex(a.get(k, 0)), hex(b.get(k, 0)))
                    for k in set(a) | set(b) if a.get(k) != b.get(k)}))
    for cpu in ("host", "qemu64"):
        if not kvm_usable() or not os.path.exists(GUEST):
            skip(f"cpu-pm/{cpu}/guest", "/dev/kvm is not usable here")
            continue
        a, b = guest_kvm_leaf(BINARY, cpu, pm), guest_kvm_leaf(ORACLE, cpu, pm)
        report(f"cpu-pm/{cpu}/guest-kvm-leaf", a == b and a != "no answer",
               f"ours {a} qemu72 {b}")


# -name process= and debug-threads= ----------------------------------------------------

def thread_names(binary, name):
    """(the process's name, the set of its threads' names)"""
    with Machine(binary, ["-machine", "pc-q35-7.2", "-accel", "kvm", "-S",
                          "-smp", "2", "-object", "iothread,id=io1",
                          "-name", name]) as vm:
        pid = vm.proc.pid
        main = open(f"/proc/{pid}/comm").read().strip()
        names = {open(f"/proc/{pid}/task/{t}/comm").read().strip()
                 for t in os.listdir(f"/proc/{pid}/task")}
    return main, names


def check_thread_names():
    for name in ("guest=g", "guest=g,debug-threads=on",
                 "guest=g,process=myproc"):
        if not kvm_usable():
            skip(f"name/{name}", "/dev/kvm is not usable here")
            continue
        a, b = thread_names(BINARY, name), thread_names(ORACLE, name)
        # Not compared: QEMU's RCU thread ("call_rcu" once named; started
        # before the options are read, it keeps the binary's name under
        # process=); the monitor I/O thread ("IO mon_iothread" with
        # debug-threads=on) is
        extra = {"call_rcu", "qemu-system-x86"}
        a_names, b_names = a[1] - extra, b[1] - extra
        report(f"name/{name}", a[0] == b[0] and a_names == b_names,
               f"ours {a} qemu72 {b}")


# -accel kvm,... ------------------------------------------------------------------------

def kvm_ioctls(binary, accel):
    """The KVM_SET_NR_MMU_PAGES and dirty-ring calls strace sees at start-up"""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "strace")
        p = subprocess.Popen(
            ["strace", "-f", "-e", "trace=ioctl", "-o", log, binary,
             "-machine", "pc-q35-7.2", "-accel", accel, "-nodefaults",
             "-display", "none", "-S", "-qmp", f"unix:{d}/q,server=on,"
             "wait=off"], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        # the socket exists before the accelerator is set up; the
        # greeting comes once start-up is over
        for _ in range(200):
            if os.path.exists(f"{d}/q"):
                try:
                    with socket.socket(socket.AF_UNIX) as s:
                        s.settimeout(20)
                        s.connect(f"{d}/q")
                        s.recv(4096)
                    break
                except OSError:
                    pass
            time.sleep(0.1)
        # the whole group: killing strace alone leaves the emulator running
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        text = open(log).read()
    return sorted(set(re.findall(r"KVM_SET_NR_MMU_PAGES, 0x[0-9a-f]+\) = \d+",
                                 text)))


def check_accel_props():
    for accel in ("kvm,kvm-shadow-mem=1048576", "kvm,kvm-shadow-mem=16777216"):
        if not kvm_usable():
            skip(f"accel/{accel}", "/dev/kvm is not usable here")
            continue
        a, b = kvm_ioctls(BINARY, accel), kvm_ioctls(ORACLE, accel)
        report(f"accel/{accel}", a == b and len(a) == 1,
               f"ours {a} qemu72 {b}")


# -mon pretty=on --------------------------------------------------------------------

PRETTY_COMMANDS = [
    {"execute": "qmp_capabilities"},
    {"execute": "query-status", "id": [1, {"a": []}, []]},
    {"execute": "nosuch", "id": "x"},
    {"execute": "query-name"},
    {"execute": "query-target"},
    {"execute": "query-cpus-fast"},
]


def pretty_session(binary):
    with tempfile.TemporaryDirectory() as d:
        sock = os.path.join(d, "m.sock")
        p = subprocess.Popen(
            [binary, "-machine", "pc-q35-7.2", "-accel", "kvm", "-nodefaults",
             "-display", "none", "-S", "-chardev",
             f"socket,id=m,path={sock},server=on,wait=off",
             "-mon", "chardev=m,mode=control,pretty=on"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        try:
            s = socket.socket(socket.AF_UNIX)
            for _ in range(200):
                try:
                    s.connect(sock)
                    break
                except OSError:
                    time.sleep(0.05)
            s.settimeout(10)
            f = s.makefile("rb")
            read_message(f)                       # greeting (version differs)
            out = b""
            for c in PRETTY_COMMANDS:
                s.sendall(json.dumps(c).encode() + b"\n")
                out += read_message(f)
            s.close()
            return out
        finally:
            p.kill()
            p.wait()


def read_message(f):
    """One pretty message: up to a line that is a lone closing brace"""
    out = b""
    while True:
        line = f.readline()
        if not line:
            return out
        out += line
        if line == b"}\r\n":
            return out


def check_pretty():
    if not kvm_usable():
        skip("mon-pretty", "/dev/kvm is not usable here")
        return
    a, b = pretty_session(BINARY), pretty_session(ORACLE)
    # qom paths and thread ids are each process's own
    a = re.sub(rb'"thread-id": \d+', b'"thread-id": N', a)
    b = re.sub(rb'"thread-id": \d+', b'"thread-id": N', b)
    report("mon-pretty", a == b and len(a) > 200, f"ours {a[:300]!r} "
           f"qemu72 {b[:300]!r}")


def main():
    if not qemu72_available(ORACLE):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    check_pretty()
    check_thread_names()
    check_accel_props()
    check_rtc()
    check_ram()
    check_cpu_pm()
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
