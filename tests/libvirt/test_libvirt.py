#!/usr/bin/env python3
"""libvirt 9.0 (Debian 12) as a real client of this emulator.

No daemon: libvirt's QEMU driver runs embedded in this process (python3-
libvirt, URI qemu:///embed?root=DIR) and in virsh (same URI), with its own
root directory, so nothing outside a temporary directory changes and
nothing is left running.  The driver's qemu.conf there says user=root
(this host's /dev/kvm is root-only) and stdio_handler=file (no virtlogd).

1. virsh domcapabilities --emulatorbin: kvm, every CPU model, every machine
   type (one domcapabilities per -machine help entry); domxml-to-native of
   sample domains gives command lines this binary starts (-S, then quit).
2. Domains with the cpuid test guest (2 vCPUs, pty serial, USB off): the
   KVM PV features the guest reports for pc-q35-8.1 / 8.0 / 7.2 with and
   without <pvspinlock>, <apic eoi>, <kvm><pv-ipi> (libvirt 9.0 passes
   only kvm-pv-ipi=off: state='on' leaves the machine type's default), and
   for the 8.1 features libvirt has no element for, a -global through
   <qemu:commandline>; a start also means libvirt's read-back of the
   requested features (qom-get of each vCPU property) passed.  The
   expectations are masked by what this host's KVM offers
   (KVM_GET_SUPPORTED_CPUID, python/qmp_machine.py).
3. Lifecycle: suspend/resume (STOP/RESUME), shutdown (system_powerdown: the
   guest, started with wait-powerbtn, polls PM1a_STS and powers off via
   ACPI S5, so the domain ends with reason "shutdown"), destroy.
4. <hyperv mode='custom'><ipi state='on'/> and <tlbflush state='on'/>
   fail to start with the emulator's "not supported by kernel" error,
   reported by libvirt (this host's KVM has no Hyper-V).
5. <pm><suspend-to-mem enabled='no'/><suspend-to-disk enabled='no'/></pm>
   on pc-i440fx-7.2 and pc-q35-7.2: libvirt finds disable_s3/disable_s4
   on PIIX4_PM / ICH9-LPC (device-list-properties), passes -global
   PIIX4_PM.disable_s3=1 (ICH9-LPC.disable_s3=1) and disable_s4=1, and the
   default test guest finds no \_S3_ / \_S4_ in the DSDT.

Installs libvirt-daemon, libvirt-clients, libvirt-daemon-driver-qemu,
libvirt-daemon-system (the libvirt-qemu user the driver looks up) and
python3-libvirt with apt-get when missing; skips (77) when not root or
when they cannot be installed.
"""

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

PKGS = ["libvirt-daemon", "libvirt-clients", "libvirt-daemon-driver-qemu",
        "libvirt-daemon-system", "python3-libvirt"]
SYSTEM_PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
BINARY = os.path.abspath(os.environ.get(
    "QEMU_BINARY", os.path.join(TOP, "build", "qemu-system-x86_64")))
GUEST = os.path.join(os.path.dirname(BINARY), "tests", "guest", "cpuid.elf")

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - libvirt/{name}" +
          ("" if ok else f" # {str(detail)[:1500]}"), flush=True)
    return ok


def skip(reason):
    print(f"1..0 # SKIP {reason}")
    sys.exit(77)


def missing_packages():
    out = []
    for p in PKGS:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p],
                           capture_output=True, text=True)
        if "install ok installed" not in r.stdout:
            out.append(p)
    return out


def ensure_libvirt():
    if os.geteuid() != 0:
        skip("needs root (installs libvirt, runs the embedded QEMU driver "
             "as root because /dev/kvm is root-only here)")
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        skip("/dev/kvm is not usable")
    missing = missing_packages()
    if missing:
        print(f"# installing {' '.join(missing)}", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        r = subprocess.run(["apt-get", "install", "-y", "-qq",
                            "--no-install-recommends"] + missing,
                           env=env, capture_output=True, text=True)
        if r.returncode:
            subprocess.run(["apt-get", "update", "-qq"], env=env,
                           capture_output=True)
            r = subprocess.run(["apt-get", "install", "-y", "-qq",
                                "--no-install-recommends"] + missing,
                               env=env, capture_output=True, text=True)
        if r.returncode:
            skip("cannot install %s (no network or apt?): %s" %
                 (" ".join(missing), r.stderr.strip()[-300:]))
    try:
        import libvirt  # noqa: F401
    except ImportError:
        # python3-libvirt is Debian's python; meson may run another one
        if os.path.exists(SYSTEM_PYTHON) and \
                os.path.realpath(sys.executable) != \
                os.path.realpath(SYSTEM_PYTHON):
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        skip("python3-libvirt is not importable")


# Domains -------------------------------------------------------------------

QEMU_NS = "http://libvirt.org/schemas/domain/qemu/1.0"


def domain_xml(name, machine, features="", cmdline="exit=acpi all-cpus",
               usb=False, serial=True, kernel=None, on_poweroff="destroy",
               extra="", devices="", qemu_args=()):
    """qemu_args: extra emulator arguments (<qemu:commandline>)"""
    ns = f" xmlns:qemu='{QEMU_NS}'" if qemu_args else ""
    args = "".join(f"<qemu:arg value='{a}'/>" for a in qemu_args)
    if args:
        extra += f"\n  <qemu:commandline>{args}</qemu:commandline>"
    return f"""<domain type='kvm'{ns}>
  <name>{name}</name>
  <memory unit='MiB'>128</memory>
  <vcpu>2</vcpu>{extra}
  <os>
    <type arch='x86_64' machine='{machine}'>hvm</type>
    <kernel>{kernel or GUEST}</kernel>
    <cmdline>{cmdline}</cmdline>
  </os>
  <features><acpi/>{features}</features>
  <on_poweroff>{on_poweroff}</on_poweroff>
  <devices>
    <emulator>{BINARY}</emulator>
    {'' if usb else "<controller type='usb' model='none'/>"}
    {"<serial type='pty'/>" if serial else ''}
    <memballoon model='none'/>{devices}
  </devices>
</domain>
"""


class Embed:
    """The embedded QEMU driver in a private root directory."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="libvirt-embed-")
        os.makedirs(os.path.join(self.root, "etc"))
        with open(os.path.join(self.root, "etc", "qemu.conf"), "w") as f:
            f.write('user = "root"\ngroup = "root"\n'
                    'stdio_handler = "file"\n')
        self.uri = f"qemu:///embed?root={self.root}"
        self.conn = None

    def virsh(self, *args, timeout=120):
        return subprocess.run(["virsh", "-q", "-c", self.uri] + list(args),
                              capture_output=True, text=True,
                              timeout=timeout, cwd=self.root)

    def open(self):
        import libvirt
        libvirt.virEventRegisterDefaultImpl()

        def loop():
            while True:
                libvirt.virEventRunDefaultImpl()
        threading.Thread(target=loop, daemon=True).start()
        self.conn = libvirt.open(self.uri)

    def log(self, name):
        p = os.path.join(self.root, "log", "qemu", f"{name}.log")
        try:
            with open(p, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def close(self):
        if self.conn:
            for d in self.conn.listAllDomains():
                try:
                    d.destroy()
                except Exception:
                    pass
            self.conn.close()
            self.conn = None
        shutil.rmtree(self.root, ignore_errors=True)


def read_pty_until(dom, patterns, timeout=20.0):
    """Serial output of the domain's pty up to the first of patterns."""
    xml = dom.XMLDesc(0)
    m = re.search(r"<source path='(/dev/pts/\d+)'", xml)
    if not m:
        return ""
    fd = os.open(m.group(1), os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    buf = b""
    end = time.time() + timeout
    try:
        while time.time() < end and \
                not any(p.encode() in buf for p in patterns):
            try:
                data = os.read(fd, 65536)
                if not data:
                    break
                buf += data
            except BlockingIOError:
                time.sleep(0.05)
            except OSError:
                break
    finally:
        os.close(fd)
    return buf.decode(errors="replace")


def pv_features(out, cpu=0):
    for line in out.splitlines():
        m = re.match(rf"cpu {cpu}: KVM-PV-FEATURES(.*)", line.strip())
        if m:
            return set(m.group(1).split())
    return None


def wait_state(dom, want, timeout=15.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            if dom.state()[0] == want:
                return True
        except Exception:
            return False
        time.sleep(0.1)
    return False


# 1. Probe, domcapabilities, domxml-to-native -------------------------------

def machine_names():
    r = subprocess.run([BINARY, "-machine", "help"], capture_output=True,
                       text=True)
    return [line.split()[0] for line in r.stdout.splitlines()[1:]
            if line.strip() and line.split()[0] != "none"]


def cpu_models():
    r = subprocess.run([BINARY, "-cpu", "help"], capture_output=True,
                       text=True)
    names = []
    for line in r.stdout.splitlines():
        m = re.match(r"x86 (\S+)", line.strip())
        if m and m.group(1) not in ("host", "max", "base"):
            names.append(m.group(1))
    return names


def test_domcapabilities(emb):
    t = time.time()
    r = emb.virsh("domcapabilities", "--emulatorbin", BINARY, "--arch",
                  "x86_64", "--virttype", "kvm")
    check("domcapabilities/status", r.returncode == 0,
          r.stderr + emb.log("none"))
    out = r.stdout
    print(f"# cold probe + domcapabilities: {time.time() - t:.1f} s")
    check("domcapabilities/kvm", "<domain>kvm</domain>" in out, out[:300])
    check("domcapabilities/path", f"<path>{BINARY}</path>" in out, out[:300])
    listed = set(re.findall(r"<model usable='[^']*'[^>]*>([^<]+)</model>",
                            out))
    # libvirt shows the models its own CPU map knows (no -vN versions)
    cpu_map = "/usr/share/libvirt/cpu_map"
    known = {f[4:-4] for f in os.listdir(cpu_map)
             if f.startswith("x86_") and f.endswith(".xml")}
    want = [m for m in cpu_models() if m in known]
    missing = [m for m in want if m not in listed]
    check("domcapabilities/cpu-models", want and not missing,
          f"missing {missing}")
    check("domcapabilities/host-passthrough",
          "<mode name='host-passthrough' supported='yes'>" in out, out[:200])
    check("domcapabilities/isa-serial-pty", "<value>pty</value>" in out)

    # every machine type: one virsh, one domcapabilities per name
    names = machine_names()
    cmds = " ; ".join(f"domcapabilities --emulatorbin {BINARY} --arch x86_64 "
                      f"--virttype kvm --machine {n}" for n in names)
    r = emb.virsh(cmds)
    got = re.findall(r"<machine>([^<]+)</machine>", r.stdout)
    bad = [n for n, g in zip(names, got)
           if g != n and not (n in ("pc", "q35") and g.endswith("-8.1"))]
    check("domcapabilities/every-machine",
          r.returncode == 0 and len(got) == len(names) and not bad,
          f"{len(names)} names, {len(got)} answers, bad {bad} {r.stderr}")


def run_native_argv(argv_line, workdir):
    """Runs a domxml-to-native command line with -S and quits through the
    monitor socket libvirt named; returns (ok, detail)."""
    words = shlex.split(argv_line)
    while words and "=" in words[0] and not words[0].startswith("/"):
        words.pop(0)
    mon = None
    for i, w in enumerate(words):
        m = re.match(r"socket,id=charmonitor,path=([^,]+)", w)
        if m:
            mon = os.path.join(workdir, "monitor.sock")
            words[i] = w.replace(m.group(1), mon)
        m = re.search(r'"file":"([^"]+master-key.aes)"', w)
        if m:
            key = os.path.join(workdir, "master-key.aes")
            with open(key, "wb") as f:
                f.write(os.urandom(32))
            words[i] = w.replace(m.group(1), key)
    if words[0] != BINARY or mon is None:
        return False, f"unexpected argv {words[:3]}"
    p = subprocess.Popen(words, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        end = time.time() + 10
        while not os.path.exists(mon) and p.poll() is None and \
                time.time() < end:
            time.sleep(0.05)
        if p.poll() is not None:
            return False, p.stderr.read()
        # The file exists from bind(); connect() is refused until listen()
        s = socket.socket(socket.AF_UNIX)
        while True:
            try:
                s.connect(mon)
                break
            except ConnectionRefusedError:
                if time.time() > end or p.poll() is not None:
                    raise
                time.sleep(0.02)
        f = s.makefile("rwb")
        f.readline()
        replies = []
        for c in ("qmp_capabilities", "query-status", "quit"):
            f.write(json.dumps({"execute": c}).encode() + b"\r\n")
            f.flush()
            while True:
                r = json.loads(f.readline())
                if "return" in r or "error" in r:
                    replies.append(r)
                    break
        st = p.wait(timeout=10)
        ok = st == 0 and replies[1].get("return", {}).get("status") == \
            "prelaunch"
        return ok, f"status {st} replies {replies} {p.stderr.read()}"
    except Exception as e:  # noqa: BLE001
        # An emulator that exited while we talked to it says why
        why = ""
        try:
            p.wait(timeout=5)
            why = p.stderr.read()
        except subprocess.TimeoutExpired:
            pass
        return False, f"{e!r} {why}"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_domxml_to_native(emb, tmp):
    samples = {
        "q35-usb-off": domain_xml("n1", "pc-q35-8.0"),
        "q35-usb": domain_xml("n2", "q35", usb=True),
        "i440fx-usb": domain_xml("n3", "pc-i440fx-7.2", usb=True),
        "q35-pv": domain_xml("n4", "pc-q35-7.2",
                             "<pvspinlock state='on'/><apic eoi='off'/>"),
        "no-serial": domain_xml("n5", "pc-q35-8.0", serial=False),
        # libvirt's PCI controllers (docs/devices.md, "Bridges")
        "q35-pci-controllers": domain_xml(
            "n6", "pc-q35-7.2", devices="""
    <controller type='pci' model='pcie-root'/>
    <controller type='pci' model='pcie-root-port'/>
    <controller type='pci' model='pcie-root-port'/>
    <controller type='pci' model='pcie-to-pci-bridge'/>
    <controller type='pci' model='dmi-to-pci-bridge'/>
    <controller type='pci' model='pci-bridge'/>"""),
        "i440fx-pci-bridge": domain_xml(
            "n7", "pc-i440fx-7.2", devices="""
    <controller type='pci' model='pci-root'/>
    <controller type='pci' model='pci-bridge'/>
    <controller type='pci' model='pci-bridge'/>"""),
    }
    for name, xml in samples.items():
        path = os.path.join(tmp, f"{name}.xml")
        with open(path, "w") as f:
            f.write(xml)
        r = emb.virsh("domxml-to-native", "qemu-argv", path)
        if not check(f"domxml-to-native/{name}", r.returncode == 0,
                     r.stderr):
            continue
        argv = r.stdout.strip()
        if name == "q35-pv":
            check("domxml-to-native/q35-pv/cpu",
                  "kvm-pv-eoi=off" in argv and "kvm-pv-unhalt=on" in argv,
                  argv)
        if name == "q35-usb":
            # qemu-xhci is a type here (docs/devices.md, "USB"): libvirt
            # writes it behind its first root port, and the domain runs
            check(f"domxml-to-native/{name}/qemu-xhci",
                  '"driver":"qemu-xhci"' in argv, argv)
        if name == "i440fx-usb":
            # piix3-usb-uhci is a type: libvirt writes i440fx's USB
            # controller as that device at 01.2, not as -usb
            check(f"domxml-to-native/{name}/piix3-usb-uhci",
                  '"driver":"piix3-usb-uhci"' in argv and
                  not re.search(r"(^| )-usb( |$)", argv), argv)
        wanted = {"q35-pci-controllers": ("pcie-root-port", "pcie-pci-bridge",
                                          "i82801b11-bridge", "pci-bridge"),
                  "i440fx-pci-bridge": ("pci-bridge",)}.get(name, ())
        for d in wanted:
            # the bridges are types here: libvirt writes them
            check(f"domxml-to-native/{name}/{d}",
                  f'"driver":"{d}"' in argv, argv)
        work = tempfile.mkdtemp(dir=tmp)
        ok, detail = run_native_argv(argv, work)
        check(f"domxml-to-native/{name}/runs", ok, detail + "\n" + argv)


# 2. PV features ------------------------------------------------------------

def start_and_read(emb, name, machine, features="", cmdline=None,
                   on_poweroff="destroy", qemu_args=()):
    import libvirt
    xml = domain_xml(name, machine, features,
                     cmdline or "exit=acpi all-cpus wait-powerbtn",
                     on_poweroff=on_poweroff, qemu_args=qemu_args)
    try:
        dom = emb.conn.createXML(xml, 0)
    except libvirt.libvirtError as e:
        return None, str(e) + "\n" + emb.log(name)[-2000:]
    out = read_pty_until(dom, ["WAIT-POWER-BUTTON", "CPUID-TIMEOUT",
                               "EXCEPTION", "EXIT code="])
    return dom, out


# The PV features the machine types manage, and their defaults
PV = ["kvm-pv-eoi", "kvm-pv-unhalt", "kvm-pv-tlb-flush", "kvm-pv-ipi",
      "kvm-pv-sched-yield"]
PV_BITS = {"kvm-pv-eoi": 6, "kvm-pv-unhalt": 7, "kvm-pv-tlb-flush": 9,
           "kvm-pv-ipi": 11, "kvm-pv-sched-yield": 13}
V81 = set(PV)
V80 = {"kvm-pv-eoi", "kvm-pv-unhalt"}
V72 = {"kvm-pv-eoi"}


def host_pv_offered():
    sys.path.insert(0, os.path.join(TOP, "python"))
    from qmp_machine import host_kvm_pv_features
    eax = host_kvm_pv_features()
    return {f for f, b in PV_BITS.items() if eax >> b & 1}


def test_pv_features(emb):
    offered = host_pv_offered()
    print(f"# this host's KVM offers: {sorted(offered)}")
    cases = [
        # name, machine, <features> XML, features on, argv the XML must
        # add (None: the XML adds no kvm-pv-* at all), <qemu:commandline>
        ("q35-81", "pc-q35-8.1", "", V81, None),
        ("q35-80", "pc-q35-8.0", "", V80, None),
        ("q35-72", "pc-q35-7.2", "", V72, None),
        ("q35-72-pvspin-on", "pc-q35-7.2", "<pvspinlock state='on'/>",
         V72 | {"kvm-pv-unhalt"}, "kvm-pv-unhalt=on"),
        ("q35-80-pvspin-off", "pc-q35-8.0", "<pvspinlock state='off'/>",
         V72, "kvm-pv-unhalt=off"),
        ("q35-81-pvspin-off", "pc-q35-8.1", "<pvspinlock state='off'/>",
         V81 - {"kvm-pv-unhalt"}, "kvm-pv-unhalt=off"),
        ("q35-80-eoi-off", "pc-q35-8.0", "<apic eoi='off'/>",
         V80 - {"kvm-pv-eoi"}, "kvm-pv-eoi=off"),
        ("q35-72-eoi-off", "pc-q35-7.2", "<apic eoi='off'/>", set(),
         "kvm-pv-eoi=off"),
        ("q35-72-eoi-on", "pc-q35-7.2", "<apic eoi='on'/>", V72,
         "kvm-pv-eoi=on"),
        # libvirt's element for kvm-pv-ipi; it passes only the "off"
        ("q35-81-pvipi-off", "pc-q35-8.1", "<kvm><pv-ipi state='off'/></kvm>",
         V81 - {"kvm-pv-ipi"}, "kvm-pv-ipi=off"),
        ("q35-80-pvipi-on", "pc-q35-8.0", "<kvm><pv-ipi state='on'/></kvm>",
         V80, None),
        ("q35-81-pvipi-on", "pc-q35-8.1", "<kvm><pv-ipi state='on'/></kvm>",
         V81, None),
        ("i440fx-81", "pc-i440fx-8.1", "", V81, None),
        ("pc-alias", "pc", "", V81, None),
    ]
    for name, machine, feat, on, argv in cases:
        run_pv_case(emb, name, machine, feat, on & offered, argv)
    # No element for PV TLB flush and sched-yield: the machine type's
    # switch, through the emulator's command line
    run_pv_case(emb, "q35-81-global-yield-off", "pc-q35-8.1", "",
                (V81 - {"kvm-pv-sched-yield"}) & offered,
                "x86_64-cpu.x-kvm-auto-enable-pv-sched-yield=off",
                qemu_args=("-global", "x86_64-cpu."
                           "x-kvm-auto-enable-pv-sched-yield=off"))


def run_pv_case(emb, name, machine, feat, on, argv, qemu_args=()):
    dom, out = start_and_read(emb, name, machine, feat, qemu_args=qemu_args)
    if not check(f"pv/{name}/starts", dom is not None, out):
        return
    f0, f1 = pv_features(out, 0), pv_features(out, 1)
    seen = f0 & set(PV) if f0 is not None else None
    check(f"pv/{name}/guest-sees-" + (",".join(
          p[len("kvm-pv-"):] for p in PV if p in on) or "none"),
          seen == on and f0 == f1, f"seen={seen} want={on} {out[-1500:]}")
    log = emb.log(name)
    # The command line libvirt logged, one argument per continued line
    words = log.replace("\\\n", " ").split()
    cpu = words[len(words) - 1 - words[::-1].index("-cpu") + 1] \
        if "-cpu" in words else ""
    if argv:
        check(f"pv/{name}/argv", argv in log.replace("\\\n", " "),
              log[-1500:])
    else:
        check(f"pv/{name}/argv-silent", cpu and "kvm-pv" not in cpu,
              f"-cpu {cpu!r}: {log[-1500:]}")
    try:
        dom.destroy()
    except Exception:  # noqa: BLE001
        pass


# 3. Lifecycle --------------------------------------------------------------

def test_lifecycle(emb):
    import libvirt
    dom, out = start_and_read(emb, "life", "pc-q35-8.0")
    if not check("lifecycle/starts", dom is not None and
                 "WAIT-POWER-BUTTON" in out, out[-1500:]):
        return
    dom.suspend()
    check("lifecycle/suspend", wait_state(dom, libvirt.VIR_DOMAIN_PAUSED),
          dom.state())
    dom.resume()
    check("lifecycle/resume", wait_state(dom, libvirt.VIR_DOMAIN_RUNNING),
          dom.state())
    # shutdown: ACPI power button, the guest powers off by itself
    dom.shutdown()
    gone = wait_state(dom, libvirt.VIR_DOMAIN_SHUTOFF, 20) or \
        not emb.conn.listAllDomains()
    log = emb.log("life")
    check("lifecycle/shutdown", gone and "reason=shutdown" in log,
          log[-1500:])

    dom, out = start_and_read(emb, "life2", "pc-q35-8.0")
    if not check("lifecycle/restart", dom is not None, out):
        return
    dom.destroy()
    log = emb.log("life2")
    check("lifecycle/destroy", not any(d.name() == "life2" for d in
                                       emb.conn.listAllDomains()) and
          "reason=destroyed" in log, log[-1500:])


def test_iothreads(emb):
    """<iothreads>: libvirt writes -object iothread and reads the threads'
    ids back with query-iothreads (to pin them).  The same domain answers
    virsh qemu-monitor-command --hmp and pins a vCPU thread."""
    import libvirt
    import libvirt_qemu
    xml = domain_xml("iothr", "pc-q35-8.0",
                     cmdline="exit=acpi all-cpus wait-powerbtn",
                     extra="\n  <iothreads>2</iothreads>")
    try:
        dom = emb.conn.createXML(xml, 0)
    except libvirt.libvirtError as e:
        check("iothreads/starts", False, str(e) + emb.log("iothr")[-1500:])
        return
    info = dom.ioThreadInfo()
    log = emb.log("iothr")
    check("iothreads/two-threads-reported",
          sorted(i[0] for i in info) == [1, 2] and
          "iothread,id=iothread1" in log.replace('"', "").replace(":", "="),
          f"{info} {log[-800:]}")
    try:
        hmp = libvirt_qemu.qemuMonitorCommand(dom, "info status", 1)
    except libvirt.libvirtError as e:
        hmp = str(e)
    check("hmp/qemu-monitor-command", hmp == "VM status: running\r\n",
          repr(hmp))
    # The thread ids libvirt pins are the vCPUs' own threads: pinning
    # vCPU 0 to host CPU 0 restricts that thread and not the main thread
    if os.cpu_count() and os.cpu_count() > 1:
        reply = json.loads(libvirt_qemu.qemuMonitorCommand(
            dom, '{"execute":"query-cpus-fast"}', 0))
        tid = reply["return"][0]["thread-id"]
        ok = dom.pinVcpu(0, (True,)) == 0
        with open(f"/proc/{tid}/status") as f:
            tgid = int(re.search(r"Tgid:\s+(\d+)", f.read()).group(1))
        check("vcpu-pin/thread-affinity",
              ok and tid != tgid and os.sched_getaffinity(tid) == {0} and
              os.sched_getaffinity(tgid) != {0},
              f"tid={tid} main={tgid} {os.sched_getaffinity(tid)}")
    dom.destroy()


def test_panic(emb):
    """<panic model='isa'/>: the guest reports a panic through pvpanic and
    libvirt's <on_crash>destroy</on_crash> ends the domain as crashed."""
    import libvirt
    xml = domain_xml("panic", "pc-q35-8.0", cmdline="exit=panic",
                     devices="\n    <panic model='isa'>"
                             "<address type='isa' iobase='0x505'/></panic>")
    xml = xml.replace("</on_poweroff>",
                      "</on_poweroff>\n  <on_crash>destroy</on_crash>")
    events = []

    def on_event(conn, dom, event, detail, opaque):
        events.append((event, detail))

    cb = emb.conn.domainEventRegisterAny(
        None, libvirt.VIR_DOMAIN_EVENT_ID_LIFECYCLE, on_event, None)
    try:
        dom = emb.conn.createXML(xml, 0)
    except libvirt.libvirtError as e:
        emb.conn.domainEventDeregisterAny(cb)
        check("panic/starts", False, str(e) + emb.log("panic")[-1500:])
        return
    end = time.time() + 30
    while time.time() < end and not any(
            e == (libvirt.VIR_DOMAIN_EVENT_STOPPED,
                  libvirt.VIR_DOMAIN_EVENT_STOPPED_CRASHED) for e in events):
        time.sleep(0.1)
    emb.conn.domainEventDeregisterAny(cb)
    log = emb.log("panic")
    check("panic/argv", "pvpanic" in log, log[-800:])
    check("panic/crashed-and-destroyed",
          (libvirt.VIR_DOMAIN_EVENT_CRASHED,
           libvirt.VIR_DOMAIN_EVENT_CRASHED_PANICKED) in events and
          not any(d.name() == "panic" for d in emb.conn.listAllDomains()),
          f"events={events} {log[-800:]}")


def test_guest_powerbutton_output(emb):
    """The guest's own reaction to the power button: its serial output,
    read by a thread blocked in poll() on the pty (a pty drops unread
    output once the emulator exits), and libvirt's SHUTDOWN event with the
    "guest" detail (QMP SHUTDOWN with guest=true)."""
    import libvirt
    import select
    events = []

    def on_event(conn, dom, event, detail, opaque):
        events.append((dom.name(), event, detail))
    cb = emb.conn.domainEventRegisterAny(
        None, libvirt.VIR_DOMAIN_EVENT_ID_LIFECYCLE, on_event, None)
    dom, out = start_and_read(emb, "pwr", "pc-q35-8.0")
    if not check("powerbutton/starts", dom is not None and
                 "WAIT-POWER-BUTTON" in out, out):
        return
    pty = re.search(r"<source path='(/dev/pts/\d+)'",
                    dom.XMLDesc(0)).group(1)
    fd = os.open(pty, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    buf = []

    def reader():
        end = time.time() + 20
        while time.time() < end:
            select.select([fd], [], [], 0.5)
            try:
                data = os.read(fd, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not data:
                return
            buf.append(data)
            if b"EXIT code=" in b"".join(buf):
                return
    t = threading.Thread(target=reader)
    t.start()
    dom.shutdown()
    t.join()
    os.close(fd)
    out = b"".join(buf).decode(errors="replace")
    check("powerbutton/guest-reacts", "POWER-BUTTON" in out, out[-500:])
    end = time.time() + 10
    while time.time() < end and not any(e[1] == libvirt.VIR_DOMAIN_EVENT_STOPPED
                                        for e in events):
        time.sleep(0.1)
    check("powerbutton/shutdown-event-from-guest",
          ("pwr", libvirt.VIR_DOMAIN_EVENT_SHUTDOWN,
           libvirt.VIR_DOMAIN_EVENT_SHUTDOWN_GUEST) in events and
          ("pwr", libvirt.VIR_DOMAIN_EVENT_STOPPED,
           libvirt.VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN) in events, events)
    emb.conn.domainEventDeregisterAny(cb)


# 4. Hyper-V ----------------------------------------------------------------

def test_hyperv(emb):
    import libvirt
    cases = [
        # name, machine, <hyperv> content, argv, the feature QEMU names
        ("hv", "pc-q35-8.0", "<ipi state='on'/>", "hv-ipi=on", "hv-ipi"),
        ("hv-tlb", "pc-q35-8.1", "<tlbflush state='on'/>", "hv-tlbflush=on",
         "hv-tlbflush"),
        ("hv-tlb-vpindex", "pc-q35-8.1",
         "<vpindex state='on'/><tlbflush state='on'/>",
         "hv-vpindex=on,hv-tlbflush=on", "hv-vpindex"),
        ("hv-tlb-80", "pc-q35-8.0", "<tlbflush state='on'/>",
         "hv-tlbflush=on", "hv-tlbflush"),
    ]
    for name, machine, hv, argv, feature in cases:
        xml = domain_xml(name, machine,
                         f"<hyperv mode='custom'>{hv}</hyperv>")
        what = f"hyperv/{name}/{machine}"
        try:
            dom = emb.conn.createXML(xml, 0)
            dom.destroy()
            check(f"{what}/refused", False, "the domain started")
        except libvirt.libvirtError as e:
            msg = str(e)
            check(f"{what}/refused", "not supported by kernel" in msg and
                  f"({feature})" in msg, msg)
        check(f"{what}/argv", argv in emb.log(name), emb.log(name))


def test_pm(emb):
    import libvirt
    default_guest = os.path.join(os.path.dirname(GUEST), "default.elf")
    pm = ("\n  <pm><suspend-to-mem enabled='no'/>"
          "<suspend-to-disk enabled='no'/></pm>")
    for machine, driver, tag in (("pc-i440fx-7.2", "PIIX4_PM", ""),
                                 ("pc-q35-7.2", "ICH9-LPC", "q35-")):
        for state in ("3", "4"):
            name = f"pm-{tag}s{state}"
            xml = domain_xml(name, machine, kernel=default_guest,
                             cmdline=f"exit=acpi sleep={state} "
                                     "wait-powerbtn",
                             extra=pm)
            try:
                dom = emb.conn.createXML(xml, 0)
            except libvirt.libvirtError as e:
                check(f"pm/{name}/starts", False, str(e))
                continue
            out = read_pty_until(dom, ["WAIT-POWER-BUTTON", "EXCEPTION",
                                       "EXIT code="])
            dom.destroy()
            log = emb.log(name)
            check(f"pm/{name}/starts", True)
            check(f"pm/{name}/argv",
                  f"-global {driver}.disable_s3=1" in log and
                  f"-global {driver}.disable_s4=1" in log, log[-1500:])
            check(f"pm/{name}/no-package-in-dsdt",
                  f"ACPI no _S{state}_ package in the DSDT" in out,
                  out[-1500:])


def main():
    ensure_libvirt()
    if not os.path.exists(GUEST):
        print(f"Bail out! {GUEST} is not built (meson builds it with this "
              "test)")
        sys.exit(1)
    tmp = tempfile.mkdtemp(prefix="libvirt-test-")
    emb = Embed()
    t0 = time.time()
    try:
        test_domcapabilities(emb)
        test_domxml_to_native(emb, tmp)
        emb.open()
        test_pv_features(emb)
        test_lifecycle(emb)
        test_iothreads(emb)
        test_panic(emb)
        test_guest_powerbutton_output(emb)
        test_hyperv(emb)
        test_pm(emb)
    finally:
        emb.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"# {time.time() - t0:.1f} s")
    print(f"1..{len(results)}")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
