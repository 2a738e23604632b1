#!/usr/bin/env python3
"""TCP character devices, as QEMU users write them.

  * -qmp tcp:127.0.0.1:PORT,server=on,wait=off: a QMP client connects,
    negotiates, leaves, and the next client is served;
  * -chardev socket,host=...,port=...,server=on,wait=off with -mon;
  * -serial tcp:127.0.0.1:PORT (client mode): the emulator connects to a
    listener at start-up and a guest's COM1 output arrives there (needs
    /dev/kvm);
  * errors with QEMU 7.2's texts: nobody listening, no port.
"""

import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import kvm_usable, run  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
GUESTS = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                      "guest")
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - chardev/{name}" +
          ("" if ok else f" # {detail}"))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def connect(port, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def qmp_session(port):
    """Greeting, qmp_capabilities and query-status over one connection."""
    with connect(port) as s:
        f = s.makefile("rw")
        greeting = json.loads(f.readline())
        f.write('{"execute":"qmp_capabilities"}\n')
        f.flush()
        caps = json.loads(f.readline())
        f.write('{"execute":"query-status"}\n')
        f.flush()
        status = json.loads(f.readline())
    return "QMP" in greeting and caps == {"return": {}} and \
        status.get("return", {}).get("status") == "prelaunch"


def check_qmp_server(name, args, port):
    p = subprocess.Popen([BINARY, "-machine", "none", "-display", "none",
                          "-nodefaults", "-S"] + args,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    try:
        first = qmp_session(port)
        second = qmp_session(port)
        report(f"{name}/serves-clients-in-turn", first and second,
               f"first={first} second={second}")
    except (OSError, ValueError) as e:
        report(f"{name}/serves-clients-in-turn", False, str(e))
    finally:
        p.kill()
        p.wait()
        p.stderr.close()


def check_serial_client():
    if not kvm_usable():
        report("serial-tcp-client # SKIP /dev/kvm not usable", True)
        return
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    p = subprocess.Popen([BINARY, "-machine", "q35", "-accel", "kvm",
                          "-display", "none", "-nodefaults",
                          "-serial", f"tcp:127.0.0.1:{port}",
                          "-kernel", os.path.join(GUESTS, "default.elf"),
                          "-append", "exit=acpi"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    text = b""
    try:
        listener.settimeout(30)
        conn, _ = listener.accept()
        conn.settimeout(60)
        while b"GUEST-DONE" not in text:
            data = conn.recv(4096)
            if not data:
                break
            text += data
        conn.close()
        status = p.wait(timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        p.kill()
        p.wait()
        status = f"error {e}"
    finally:
        listener.close()
        p.stderr.close()
    report("serial-tcp-client/guest-output",
           b"GUEST-DONE" in text and status == 0,
           f"status={status} {text[-200:]!r}")


def main():
    port = free_port()
    check_qmp_server("qmp-tcp-shorthand",
                     ["-qmp", f"tcp:127.0.0.1:{port},server=on,wait=off"],
                     port)
    port = free_port()
    check_qmp_server("chardev-socket-host-port",
                     ["-chardev", f"socket,id=mon0,host=127.0.0.1,"
                      f"port={port},server=on,wait=off,nodelay=on",
                      "-mon", "chardev=mon0,mode=control"], port)
    check_serial_client()

    port = free_port()
    st, out, err = run(BINARY, ["-machine", "none", "-display", "none",
                                "-qmp", f"tcp:127.0.0.1:{port}"])
    report("connect-refused", st == 1 and
           f"Failed to connect to '127.0.0.1:{port}': Connection refused"
           in err, f"status={st} {err!r}")
    st, out, err = run(BINARY, ["-machine", "none", "-display", "none",
                                "-chardev", "socket,id=c,host=127.0.0.1"])
    report("no-port", st == 1 and "chardev: socket: no port given" in err,
           f"status={st} {err!r}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
