"""Shared helpers of the benchmarks in bench/ (standard library only).

Emulators: this tree's build/qemu-system-x86_64 ("tree") and Debian's QEMU
7.2 /usr/bin/qemu-system-x86_64 ("qemu72", skipped when missing).  Each
guest's COM1 goes to a unix socket the harness listens on, so the harness
sees every byte the moment the emulator writes it and can send commands.
"""

import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))
TREE = os.path.join(BUILD, "qemu-system-x86_64")
QEMU72 = os.environ.get("QEMU72", "/usr/bin/qemu-system-x86_64")
GUESTS = os.path.join(BUILD, "tests", "guest")
OUT = os.environ.get("BENCH_OUT", os.path.join(TOP, "bench", "out"))

sys.path.insert(0, os.path.join(TOP, "python"))


def guest(name):
    return os.path.join(GUESTS, name + ".elf")


def have_qemu72():
    if not os.access(QEMU72, os.X_OK):
        return False
    try:
        out = subprocess.run([QEMU72, "--version"], capture_output=True,
                             text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "version 7.2" in out


def emulators():
    """[(label, binary)]: this tree, then QEMU 7.2 when present."""
    e = [("tree", TREE)]
    if have_qemu72():
        e.append(("qemu72", QEMU72))
    return e


def stats(xs):
    xs = sorted(xs)
    return xs[0], statistics.median(xs), xs[-1]


def fmt(v, nd=1):
    if v is None:
        return "n/a"
    if isinstance(v, str):
        return v
    return f"{v:.{nd}f}"


def mmm(xs, nd=1):
    """'min / median / max' of a list."""
    if not xs:
        return "n/a"
    lo, med, hi = stats(xs)
    return f"{fmt(lo, nd)} / {fmt(med, nd)} / {fmt(hi, nd)}"


def ratio(a, b, nd=2):
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.{nd}f}"


def table(headers, rows):
    out = ["| " + " | ".join(headers) + " |",
           "|" + "|".join("---" for _ in headers) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


SAMPLES = {}


def _sample(argv):
    """Remembers one command line per (binary, arguments minus paths)."""
    key = " ".join(a for a in argv if not a.startswith(("socket,", "/tmp")))
    SAMPLES.setdefault(key, " ".join(argv))


def save_json(name, data):
    os.makedirs(OUT, exist_ok=True)
    data = dict(data, _argv=list(SAMPLES.values())[:8])
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(data, f, indent=1)


def save_md(name, text):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".md"), "w") as f:
        f.write(text.rstrip() + "\n")
    print(text)


class SerialVM:
    """An emulator process whose COM1 is a unix socket we listen on.

    t0 is time.monotonic() just before exec.  Lines read with line() carry
    the monotonic time their newline arrived.
    """

    def __init__(self, binary, args, kernel=None, append=None, tag="vm"):
        self.dir = tempfile.mkdtemp(prefix="bench-")
        self.path = os.path.join(self.dir, "ser.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        argv = [binary, "-display", "none", "-nodefaults", "-no-reboot",
                "-chardev", f"socket,id=ser0,path={self.path}",
                "-serial", "chardev:ser0"] + list(args)
        if kernel:
            argv += ["-kernel", kernel]
        if append is not None:
            argv += ["-append", append]
        self.argv = argv
        _sample(argv)
        self.errf = open(os.path.join(self.dir, "stderr"), "wb")
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL,
                                     stderr=self.errf)
        self.conn = None
        self.buf = b""
        self.t_first = None
        self._t_last = None
        self.log = []

    def _accept(self, timeout):
        if self.conn:
            return
        self.listener.settimeout(timeout)
        self.conn, _ = self.listener.accept()
        self.conn.settimeout(None)

    def _recv(self, deadline):
        self._accept(max(0.1, deadline - time.monotonic()))
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("guest output timed out: " + self.stderr())
        self.conn.settimeout(left)
        try:
            d = self.conn.recv(65536)
        except socket.timeout:
            raise TimeoutError("guest output timed out: " + self.stderr())
        now = time.monotonic()
        if d and self.t_first is None:
            self.t_first = now
        self._t_last = now
        return d, now

    def first_byte(self, timeout=60):
        deadline = time.monotonic() + timeout
        while self.t_first is None:
            d, _ = self._recv(deadline)
            if not d:
                raise EOFError("no output: " + self.stderr())
            self.buf += d
        return self.t_first - self.t0

    def line(self, timeout=60):
        """(text, arrival time) of the next line; EOFError at the end."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            d, now = self._recv(deadline)
            if not d:
                raise EOFError("guest closed: " + self.stderr())
            self.buf += d
        ln, self.buf = self.buf.split(b"\n", 1)
        text = ln.decode(errors="replace").strip()
        self.log.append(text)
        return text, self._t_last

    def wait_for(self, prefix, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            text, t = self.line(max(0.1, deadline - time.monotonic()))
            if text.startswith(prefix):
                return text, t

    def send(self, data):
        self.conn.sendall(data)

    def wait_exit(self, timeout=60):
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        return rc, time.monotonic() - self.t0

    def stderr(self):
        try:
            with open(os.path.join(self.dir, "stderr"), "rb") as f:
                return f.read().decode(errors="replace")[-500:]
        except OSError:
            return ""

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def close(self):
        self.kill()
        for s in (self.conn, self.listener):
            if s:
                s.close()
        self.errf.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass


class QMPVM:
    """An emulator whose QMP monitor connects to a unix socket we listen on
    (-chardev socket,path=... -mon chardev=...,mode=control), so the greeting
    is seen the moment it is written.  greeting_s: exec -> greeting."""

    def __init__(self, binary, args, timeout=60):
        self.dir = tempfile.mkdtemp(prefix="bench-qmp-")
        self.path = os.path.join(self.dir, "qmp.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.argv = [binary, "-display", "none", "-nodefaults",
                     "-chardev", f"socket,id=mon0,path={self.path}",
                     "-mon", "chardev=mon0,mode=control"] + list(args)
        _sample(self.argv)
        self.errf = open(os.path.join(self.dir, "stderr"), "wb")
        self.timeout = timeout
        self.buf = b""
        t0 = time.monotonic()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL,
                                     stderr=self.errf)
        self.listener.settimeout(timeout)
        try:
            self.conn, _ = self.listener.accept()
        except socket.timeout:
            self.close()
            raise TimeoutError("no QMP connection: " + self.stderr())
        self.conn.settimeout(timeout)
        self.greeting = self._msg()
        self.greeting_s = time.monotonic() - t0
        self.cmd("qmp_capabilities")

    def _msg(self):
        while b"\n" not in self.buf:
            d = self.conn.recv(1 << 20)
            if not d:
                raise EOFError("QMP closed: " + self.stderr())
            self.buf += d
        ln, self.buf = self.buf.split(b"\n", 1)
        return json.loads(ln)

    def cmd(self, name, args=None):
        m = {"execute": name}
        if args is not None:
            m["arguments"] = args
        self.conn.sendall(json.dumps(m).encode() + b"\n")
        while True:
            r = self._msg()
            if "event" in r:
                continue
            if "error" in r:
                raise RuntimeError(f"{name}: {r['error']}")
            return r.get("return")

    @property
    def pid(self):
        return self.proc.pid

    def stderr(self):
        try:
            with open(os.path.join(self.dir, "stderr"), "rb") as f:
                return f.read().decode(errors="replace")[-500:]
        except OSError:
            return ""

    def close(self):
        if self.proc.poll() is None:
            try:
                self.conn.sendall(b'{"execute":"quit"}\n')
                self.proc.wait(5)
            except (OSError, AttributeError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for s in (getattr(self, "conn", None), self.listener):
            if s:
                s.close()
        self.errf.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass


def proc_status(pid):
    """VmRSS etc. (kB) and Threads from /proc/PID/status."""
    d = {}
    with open(f"/proc/{pid}/status") as f:
        for ln in f:
            k, _, v = ln.partition(":")
            v = v.split()
            if v and v[0].isdigit():
                d[k] = int(v[0])
    return d


def smaps_guest_ram(pid, ram_kb):
    """(rss_kb of mappings at least ram_kb big: the guest RAM, total Rss)."""
    big = 0
    total = 0
    size = 0
    with open(f"/proc/{pid}/smaps") as f:
        for ln in f:
            if ln.startswith("Size:"):
                size = int(ln.split()[1])
            elif ln.startswith("Rss:"):
                rss = int(ln.split()[1])
                total += rss
                if size >= ram_kb:
                    big += rss
    return big, total


def host_info():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for ln in f:
            if ln.startswith("model name"):
                cpu = ln.split(":", 1)[1].strip()
                break
    flags = open("/proc/cpuinfo").read()
    virt = "vmx" if " vmx" in flags else "svm" if " svm" in flags else "none"
    mods = sorted(m for m in os.listdir("/sys/module") if m.startswith("kvm"))
    return {
        "cpu": cpu,
        "ncpu": os.cpu_count(),
        "kernel": os.uname().release,
        "kvm_modules": mods,
        "virt_flag": virt,
        "mem_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
    }


def loadavg():
    return open("/proc/loadavg").read().split()[0]
