"""Launch qemu-system-x86_64 and talk QMP to it over a unix socket.

Used by the functional tests, the main-job script and the benchmarks.  Only
the standard library: tests must run on a fresh Debian 12.
"""

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time


class QMPError(Exception):
    """An {"error": ...} reply: .cls is the QMP error class."""

    def __init__(self, cls, desc):
        super().__init__(f"{cls}: {desc}")
        self.cls = cls
        self.desc = desc


class LaunchError(RuntimeError):
    """The emulator exited before its QMP monitor answered."""

    def __init__(self, returncode, stderr):
        super().__init__(f"emulator exited with {returncode}: {stderr}")
        self.returncode = returncode
        self.stderr = stderr


def crash_message(returncode, stderr):
    """'killed by signal N: <last stderr lines>' for a process that died
    of a signal it did not ask for (an assertion's abort, a segfault),
    else None.  A differential test reports an oracle that crashes as
    nothing to compare, not as a difference."""
    if returncode is None or returncode >= 0:
        return None
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    return f"killed by signal {-returncode}: " + " / ".join(lines[-2:])


class Machine:
    """One emulator process with a QMP monitor.

    Machine(binary, args) listens on a unix socket SOCK, starts `binary
    -display none -nodefaults -qmp unix:SOCK <args>` and lets the emulator
    connect; use as a context manager so the process is always reaped.

    The emulator is the client on purpose.  With `-qmp unix:SOCK,server=on`
    a client that connects while QEMU 7.2 is still setting its monitor up
    is sometimes greeted twice and its first command lost (seen about once
    in 600 launches on a loaded machine).  server=True keeps that mode for
    tests that must reconnect to the emulator's own socket.
    """

    def __init__(self, binary, args=(), timeout=30.0, env=None,
                 server=False, pass_fds=()):
        self.binary = binary
        self.pass_fds = tuple(pass_fds)
        self.args = list(args)
        self.timeout = timeout
        self.dir = tempfile.mkdtemp(prefix="qmp-")
        self.sock_path = os.path.join(self.dir, "qmp.sock")
        self.proc = None
        self.sock = None
        self.buf = b""
        self.events = []
        self.greeting = None
        self.env = env
        self.server = server
        self.stderr_path = os.path.join(self.dir, "stderr")

    def __enter__(self):
        try:
            self.launch()
        except BaseException:
            self.shutdown()
            raise
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def launch(self):
        listener = None
        if self.server:
            qmp = f"unix:{self.sock_path},server=on,wait=off"
        else:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(self.sock_path)
            listener.listen(1)
            qmp = f"unix:{self.sock_path}"
        argv = [self.binary, "-display", "none", "-nodefaults",
                "-qmp", qmp] + self.args
        self.stderr_file = open(self.stderr_path, "wb")
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL,
                                         stderr=self.stderr_file,
                                         env=self.env,
                                         pass_fds=self.pass_fds)
            self._connect(listener)
        finally:
            if listener is not None:
                listener.close()
        try:
            self.greeting = self._read_message()
            self.cmd("qmp_capabilities")
        except (OSError, EOFError) as e:
            # It connected (or listened), then gave up on its command line:
            # report that
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                raise e
            raise LaunchError(self.proc.returncode, self.stderr()) from e

    def _connect(self, listener):
        deadline = time.monotonic() + self.timeout
        while True:
            if self.proc.poll() is not None:
                raise LaunchError(self.proc.returncode, self.stderr())
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for the QMP socket")
            if listener is not None:
                r, _, _ = select.select([listener], [], [], 0.05)
                if r:
                    self.sock, _ = listener.accept()
                    return
                continue
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.sock_path)
                self.sock = s
                return
            except OSError:
                s.close()
                time.sleep(0.01)

    def stderr(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def _read_line(self, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from QMP")
            r, _, _ = select.select([self.sock], [], [], left)
            if not r:
                continue
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("QMP connection closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def _read_message(self, timeout=None):
        return json.loads(self._read_line(timeout))

    def send_raw(self, data):
        """Sends bytes as they are (for malformed-input tests)."""
        self.sock.sendall(data)

    def recv(self):
        """Next non-event message."""
        while True:
            msg = self._read_message()
            if "event" in msg:
                self.events.append(msg)
                continue
            return msg

    def cmd_raw(self, name, args=None, **extra):
        msg = {"execute": name}
        if args is not None:
            msg["arguments"] = args
        msg.update(extra)
        self.sock.sendall(json.dumps(msg).encode() + b"\r\n")
        return self.recv()

    def cmd_fds(self, name, args, fds):
        """Sends a command with fds attached (SCM_RIGHTS, as libvirt
        passes them); returns the reply."""
        msg = {"execute": name}
        if args is not None:
            msg["arguments"] = args
        data = json.dumps(msg).encode() + b"\r\n"
        sent = socket.send_fds(self.sock, [data], list(fds))
        if sent < len(data):
            self.sock.sendall(data[sent:])
        return self.recv()

    def cmd(self, name, args=None):
        reply = self.cmd_raw(name, args)
        if "error" in reply:
            raise QMPError(reply["error"]["class"], reply["error"]["desc"])
        if "return" not in reply:
            raise RuntimeError(f"unexpected QMP reply to {name}: {reply}")
        return reply["return"]

    def wait_event(self, name, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, ev in enumerate(self.events):
                if ev["event"] == name:
                    return self.events.pop(i)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {name} event")
            # the whole wait may be longer than one read's timeout
            try:
                msg = self._read_message(left)
            except TimeoutError:
                raise TimeoutError(f"no {name} event") from None
            if "event" in msg:
                self.events.append(msg)

    def cpu_path(self, index=0):
        return self.cmd("query-cpus-fast")[index]["qom-path"]

    def qom_get(self, path, prop):
        return self.cmd("qom-get", {"path": path, "property": prop})

    def cpuid(self, cpu_index=0):
        """{(leaf, subleaf): (eax, ebx, ecx, edx)} from x-query-cpuid."""
        table = self.cmd("x-query-cpuid", {"cpu-index": cpu_index})
        return {(e["leaf"], e["subleaf"]):
                (e["eax"], e["ebx"], e["ecx"], e["edx"]) for e in table}

    def shutdown(self):
        if self.proc is None:
            shutil.rmtree(self.dir, ignore_errors=True)
            return
        try:
            if self.sock is not None and self.proc.poll() is None:
                try:
                    self.cmd_raw("quit")
                except (OSError, EOFError, TimeoutError, ValueError):
                    pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        finally:
            if self.sock is not None:
                self.sock.close()
            self.stderr_file.close()
            self.exitcode = self.proc.returncode
            self.proc = None
            shutil.rmtree(self.dir, ignore_errors=True)


def run(binary, args, timeout=30, input=None):
    """Runs the binary to completion, input (bytes) on its stdin if given:
    (exit status, stdout, stderr)."""
    p = subprocess.run([binary] + list(args), input=input,
                       stdin=None if input is not None else subprocess.DEVNULL,
                       capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def kvm_usable():
    """True if /dev/kvm can be opened read-write."""
    try:
        fd = os.open("/dev/kvm", os.O_RDWR)
    except OSError:
        return False
    os.close(fd)
    return True


# Bits of CPUID 0x40000001.EAX (Linux's kvm_para.h numbering)
KVM_FEATURES = {
    0: "kvmclock", 1: "kvm-nopiodelay", 2: "kvm-mmu", 3: "kvmclock2",
    4: "kvm-asyncpf", 5: "kvm-steal-time", 6: "kvm-pv-eoi",
    7: "kvm-pv-unhalt", 9: "kvm-pv-tlb-flush", 10: "kvm-asyncpf-vmexit",
    11: "kvm-pv-ipi", 12: "kvm-poll-control", 13: "kvm-pv-sched-yield",
    14: "kvm-asyncpf-int", 15: "kvm-msi-ext-dest-id",
    24: "kvmclock-stable-bit",
}


def kvm_feature_names(eax):
    return [name for bit, name in sorted(KVM_FEATURES.items())
            if eax & (1 << bit)]


# _IOWR(KVMIO, 0x05, struct kvm_cpuid2): the 8-byte header
KVM_GET_SUPPORTED_CPUID = 0xC008AE05
KVM_CPUID_ENTRY2_SIZE = 40   # function, index, flags, eax..edx, padding[3]


def host_kvm_cpuid(function, index=0):
    """(eax, ebx, ecx, edx) of a leaf as this host's KVM offers it
    (KVM_GET_SUPPORTED_CPUID, straight from /dev/kvm: no emulator code
    involved), or None if KVM lists no such leaf."""
    import fcntl
    import struct
    nent = 256
    buf = bytearray(struct.pack("II", nent, 0) +
                    bytes(nent * KVM_CPUID_ENTRY2_SIZE))
    fd = os.open("/dev/kvm", os.O_RDWR)
    try:
        fcntl.ioctl(fd, KVM_GET_SUPPORTED_CPUID, buf)
    finally:
        os.close(fd)
    n = struct.unpack_from("I", buf, 0)[0]
    for i in range(n):
        fn, idx, _flags, *regs = struct.unpack_from(
            "7I", buf, 8 + i * KVM_CPUID_ENTRY2_SIZE)
        if fn == function and idx == index:
            return tuple(regs)
    return None


def host_kvm_pv_features():
    """0x40000001.EAX as this host's KVM offers it: which KVM PV features
    an auto-enable can turn on here (kvm-pv-unhalt also needs the
    in-kernel irqchip, every test here uses it)."""
    regs = host_kvm_cpuid(0x40000001)
    return regs[0] if regs else 0
