#!/usr/bin/env python3
"""Bad input (issue 2, must-show 4): malformed command lines and QMP input.

Each command line must end with exit status 1 (not a signal) and one clear
error line naming what was wrong; each malformed QMP input must get a QMP
error of the right class while the connection and the emulator live on.
Texts are QEMU 7.2's where QEMU has one.
"""

import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable, run  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
P = "qemu-system-x86_64: "

# (extra args, expected stderr substring); run with -machine pc-q35-8.0 -S
CLI_CASES = [
    (["-foo"], P + "-foo: invalid option"),
    (["-m"], P + "-m: requires an argument"),
    (["-cpu"], P + "-cpu: requires an argument"),
    (["-name"], P + "-name: requires an argument"),
    (["bogus"], P + "bogus: invalid option"),
    (["-machine", "nosuch"], P + "unsupported machine type"),
    (["-M", "pc-q35-9.9"], P + "unsupported machine type"),
    (["-machine", "pc-q35-8.0,foo=bar"],
     "Property 'pc-q35-8.0-machine.foo' not found"),
    (["-machine", "pc-q35-8.0,kernel-irqchip=maybe"],
     "Parameter 'kernel-irqchip' does not accept value 'maybe'"),
    (["-machine", "pc-q35-8.0,usb=maybe"],
     "Parameter 'usb' expects 'on' or 'off'"),
    (["-machine", "pc-q35-8.0,usb=on,usb=maybe"],
     "Parameter 'usb' expects 'on' or 'off'"),
    (["-cpu", "nosuch"], P + "unable to find CPU model 'nosuch'"),
    (["-cpu", "qemu64,+foo"], "Property 'qemu64-x86_64-cpu.foo' not found"),
    (["-cpu", "qemu64,-foo"], "Property 'qemu64-x86_64-cpu.foo' not found"),
    (["-cpu", "qemu64,foo=on"],
     "can't apply global qemu64-x86_64-cpu.foo=on: "
     "Property 'qemu64-x86_64-cpu.foo' not found"),
    (["-cpu", "qemu64,hle=maybe"],
     "can't apply global qemu64-x86_64-cpu.hle=maybe: "
     "Parameter 'hle' expects 'on' or 'off'"),
    (["-cpu", "qemu64,family=300"],
     "Property .family doesn't take value 300 (minimum: 0, maximum: 270)"),
    (["-cpu", "qemu64,model=256"],
     "Property .model doesn't take value 256 (minimum: 0, maximum: 255)"),
    (["-cpu", "qemu64,stepping=16"],
     "Property .stepping doesn't take value 16 (minimum: 0, maximum: 15)"),
    (["-cpu", "qemu64,vendor=abc"],
     "Property '.vendor' doesn't take value 'abc'"),
    (["-cpu", "qemu64,level=abc"], "Parameter 'level' expects uint64"),
    # parsed as a uint64 ("-1" wraps), then range-checked for the field
    (["-cpu", "qemu64,level=-1"], "Parameter 'level' expects uint32_t"),
    (["-cpu", "qemu64,min-level=4294967296"],
     "Parameter 'min-level' expects uint32_t"),
    (["-cpu", "qemu64,host-phys-bits-limit=0x1ff"],
     "Parameter 'host-phys-bits-limit' expects uint8_t"),
    (["-cpu", "qemu64,host-phys-bits-limit=18446744073709551616"],
     "Parameter 'host-phys-bits-limit' expects uint64"),
    (["-cpu", "qemu64,node-id=x"], "Parameter 'node-id' expects int64"),
    (["-cpu", "qemu64,node-id=3000000000"],
     "Parameter 'node-id' expects int32_t"),
    (["-cpu", "qemu64,tsc-frequency=-5"],
     "Property .tsc-frequency doesn't take value -5 "
     "(minimum: 0, maximum: 9223372036854775807)"),
    (["-cpu", "qemu64,x-kvm-auto-enable-pv-unhalt=sometimes"],
     "Parameter 'x-kvm-auto-enable-pv-unhalt' expects 'on' or 'off'"),
    (["-global", "Haswell-x86_64-cpu.foo=on", "-cpu", "Haswell"],
     "can't apply global Haswell-x86_64-cpu.foo=on: "
     "Property 'Haswell-x86_64-cpu.foo' not found"),
    (["-global", "x86_64-cpu.x-kvm-auto-enable-pv-eoi=2"],
     "Parameter 'x-kvm-auto-enable-pv-eoi' expects 'on' or 'off'"),
    (["-global", "foo"], "-global foo: Invalid parameter 'foo'"),
    (["-global", ".p=v"], "-global .p=v: Invalid parameter '.p'"),
    (["-smp", "foo"], "Parameter 'smp.cpus' expects integer"),
    (["-smp", "4,sockets=3"],
     "Invalid CPU topology: product of the hierarchy must match maxcpus: "
     "sockets (3) * dies (1) * cores (1) * threads (1) != maxcpus (4)"),
    (["-smp", "300"], "Invalid SMP CPUs 300. The max CPUs supported by "
     "machine 'pc-q35-8.0' is 288"),
    (["-smp", "2,maxcpus=1"], "Invalid CPU topology: maxcpus must be equal "
     "to or greater than smp"),
    (["-m", "foo"], "-m foo: Parameter 'size' expects a non-negative number "
     "below 2^64"),
    (["-m", "-5"], "Parameter 'size' expects a non-negative number"),
    (["-accel", "tcg"], "TCG is not supported by this build"),
    (["-accel", "nosuch"], "invalid accelerator nosuch"),
    (["-accel", "kvm,foo=bar"], P + "-accel kvm,foo=bar: "
     "Property 'kvm-accel.foo' not found"),
    (["-accel", "kvm,help"], "Property 'kvm-accel.help' not found"),
    (["-accel", "kvm,kernel-irqchip=maybe"],
     "Parameter 'kernel-irqchip' does not accept value 'maybe'"),
    (["-accel", "kvm,dirty-ring-size=0x100000000"],
     "Parameter 'dirty-ring-size' expects uint32_t"),
    (["-accel", "kvm,notify-vmexit=x"],
     "Parameter 'notify-vmexit' does not accept value 'x'"),
    (["-display", "gtk"], "Display 'gtk' is not available"),
    (["-chardev", "socket,id=x"], "Unable to parse FD number"),
    (["-chardev", "nosuch,id=x"], "'nosuch' is not a valid char driver name"),
    (["-chardev", "null"], "Parameter 'id' is missing"),
    (["-chardev", "socket,id=c,path=/nonexistent/dir/s"],
     "Failed to connect to '/nonexistent/dir/s'"),
    (["-mon", "chardev=nosuch,mode=control"], 'chardev "nosuch" not found'),
    (["-qmp", "tcp:1"], "-qmp tcp:1: parse error: tcp:1"),
    (["-uuid", "not-a-uuid"],
     "-uuid not-a-uuid: failed to parse UUID string: wrong format"),
    (["-smp", "2,foo=1"], P + "Parameter 'smp.foo' is unexpected"),
    (["-name", "vm,bar=1"], "-name vm,bar=1: Invalid parameter 'bar'"),
    (["-msg", "timestamp=maybe"],
     "Parameter 'timestamp' expects 'on' or 'off'"),
    (["-m", "128,foo=1"], "-m 128,foo=1: Invalid parameter 'foo'"),
    (["-m", "size=128,slots=2"], P + "slots specified but no max-size"),
    (["-m", "128,maxmem=64M"], "invalid value of maxmem: maximum memory "
     "size (0x4000000) must be at least the initial memory size "
     "(0x8000000)"),
    (["-display", "none,foo=1"], "Parameter 'foo' is unexpected"),
    (["-enable-kvm", "-accel", "kvm"],
     P + "The -accel and \"-machine accel=\" options are incompatible"),
    (["-machine", "pc,accel=kvm", "-accel", "kvm"],
     "options are incompatible"),
    (["-object", "nosuch,id=x"],
     "Parameter 'qom-type' does not accept value 'nosuch'"),
    (["-object", "secret,id=s1,data=x,foo=1"], "Invalid parameter 'foo'"),
    (["-object", "memory-backend-ram,id=m,size=1x"],
     "Parameter 'size' expects a size value"),
    (["-object", "iothread,id=i,poll-max-ns=x"],
     "Parameter 'poll-max-ns' expects an int64 value"),
    (["-append", "x"], P + "-append only allowed with -kernel option"),
    (["-initrd", "/x"], P + "-initrd only allowed with -kernel option"),
    # Devices this build does not have: "none" only, and saying why
    (["-vga", "std"], "-vga std: display devices are not supported"),
    (["-monitor", "bogus:1"],
     "-monitor bogus:1: 'bogus:1' is not a valid char driver"),
    (["-nic", "user"], "network devices are not supported"),
    (["-s"], "-s: the gdbstub is not supported"),
    # Options QEMU 7.2 merges: a later one keeps the earlier keys
    (["-machine", "q35,kernel-irqchip=bogus", "-machine", "q35", "-accel",
      "kvm"], P + "-accel kvm: can't apply global kvm-accel.kernel-irqchip="
     "bogus: Parameter 'kernel-irqchip' does not accept value 'bogus'"),
    (["-machine", "q35,kernel-irqchip=bogus", "-machine", "q35,accel=kvm"],
     P + "can't apply global kvm-accel.kernel-irqchip=bogus"),
    (["-machine", "q35,foo=1", "-machine", "pc"],
     P + "Property 'pc-i440fx-8.0-machine.foo' not found"),
    (["-smp", "cpus=2,foo=1", "-smp", "2"],
     P + "Parameter 'smp.foo' is unexpected"),
    (["-smp", "2,sockets=3", "-smp", "2"], "Invalid CPU topology: product "
     "of the hierarchy must match maxcpus: sockets (3) * dies (1) * cores "
     "(0) * threads (1) != maxcpus (2)"),
    (["-m", "128,slots=2", "-m", "256"], P + "slots specified but no "
     "max-size"),
    (["-m", "128,maxmem=1G", "-m", "2G"], P + "invalid value of maxmem: "
     "maximum memory size (0x40000000) must be at least the initial memory "
     "size (0x80000000)"),
    (["-rtc", "clock=bogus", "-rtc", "base=utc"],
     P + "invalid option value 'bogus'"),
    (["-boot", "order=c,menu=bogus", "-boot", "order=c"],
     P + "Parameter 'boot.menu' expects 'on' or 'off'"),
    (["-sandbox", "bogus", "-sandbox", "off"],
     P + "-sandbox bogus: Parameter 'enable' expects 'on' or 'off'"),
    # A repeated key: the last counts, but QEMU checks each where it types
    # the key as it parses (-m, -msg, -overcommit, -sandbox)
    (["-m", "size=x,size=128"], P + "-m size=x,size=128: Parameter 'size' "
     "expects a non-negative number below 2^64"),
    (["-msg", "timestamp=bogus,timestamp=on"], P + "-msg timestamp=bogus,"
     "timestamp=on: Parameter 'timestamp' expects 'on' or 'off'"),
    (["-overcommit", "mem-lock=bogus,mem-lock=off"],
     "Parameter 'mem-lock' expects 'on' or 'off'"),
    (["-sandbox", "bogus,enable=on"],
     "-sandbox bogus,enable=on: Parameter 'enable' expects 'on' or 'off'"),
    (["-smp", "2,sockets=2,sockets=3"], "sockets (3) * dies (1) * cores (0)"),
    # keyval (-machine, -smp, -boot): no short forms, no ",," in the implied
    # value, keys checked
    (["-machine", "q35,usb"],
     P + "-machine q35,usb: Expected '=' after parameter 'usb'"),
    (["-machine", "q35,,usb=on"], P + "-machine q35,,usb=on: Invalid "
     "parameter ''"),
    (["-machine", "q35,1x=1"], P + "-machine q35,1x=1: Invalid parameter "
     "'1x'"),
    (["-machine", "q35,usb=on,usb.x=on"],
     "Parameters 'usb.*' used inconsistently"),
    (["-machine", "q35,usb.x=on"], P + "Parameters 'usb.*' are unexpected"),
    (["-machine", "q35,x-y_z=1"],
     P + "Property 'pc-q35-8.0-machine.x-y-z' not found"),
    (["-machine", "q35,x" + "a" * 127 + "=1"], "' is too long"),
    (["-smp", "2,cores"], "-smp 2,cores: Expected '=' after parameter "
     "'cores'"),
    (["-smp", "4,cores=2,threads=4"], "sockets (0) * dies (1) * cores (2) * "
     "threads (4) != maxcpus (4)"),
    (["-smp", "2,clusters=2"],
     P + "clusters not supported by this machine's CPU topology"),
    (["-smp", "2,maxcpus=-1"], P + "Invalid SMP CPUs -1. The max CPUs "
     "supported by machine 'pc-q35-8.0' is 288"),
    (["-smp", "sockets=65536,cores=65536,threads=2"], P + "Invalid SMP CPUs "
     "0. The min CPUs supported by machine 'pc-q35-8.0' is 1"),
    # QEMU 7.2 dies of SIGFPE on this one; a clean error here
    (["-smp", "4,sockets=65536,dies=65536"], "Invalid CPU topology"),
    # QemuOpts: short boolean forms warn
    (["-m", "128,foo"], P + "-m 128,foo: warning: short-form boolean option "
     "'foo' deprecated\nPlease use foo=on instead\n" + P + "-m 128,foo: "
     "Invalid parameter 'foo'"),
    (["-global", "nosuch.p"], "Please use such.p=off instead\n" + P +
     "-global nosuch.p: Invalid parameter 'such.p'"),
    (["-global", "driver=nosuch,property=p"], P + "-global driver=nosuch,"
     "property=p: options 'driver', 'property', and 'value' are required"),
    (["-m", "16E"], P + "-m 16E: Value '16E' is out of range for parameter "
     "'size'"),
    (["-m", "1.5"], "Parameter 'size' expects a non-negative number"),
    (["-m", "18446744073709551615"],
     P + "Parameter 'memory.size' expects size"),
    (["-m", "128,slots=18446744073709551616,maxmem=1G"], "Value "
     "'18446744073709551616' is too large for parameter 'slots'"),
    (["-m", "128,slots=-1,maxmem=1G"],
     P + "unsupported amount of memory slots: 18446744073709551615"),
    (["-machine", "none", "-no-acpi"],
     P + "Property 'none-machine.acpi' not found"),
    (["-object", "nosuch"], "-object nosuch: Parameter 'qom-type' does not "
     "accept value 'nosuch'"),
    (["-object", "secret,id=s,data=x", "-object", "secret,id=s,data=y"],
     "-object secret,id=s,data=y: Duplicate ID 's' for object"),
    (["-display", "nosuch"],
     "-display nosuch: Parameter 'type' does not accept value 'nosuch'"),
    (["-display", "none,gl=on"], P + "OpenGL is not supported by the "
     "display"),
    (["-cpu", "qemu64,tsc-freq=x"], P + "bad numerical value x"),
    # phys-bits, checked at realize (the host width warned about first)
    (["-accel", "kvm", "-cpu", "qemu64,phys-bits=60"],
     P + "phys-bits should be between 32 and 52  (but is 60)"),
    (["-accel", "kvm", "-cpu", "qemu64,phys-bits=31"], "(but is 31)"),
    (["-accel", "kvm", "-cpu", "qemu64,host-phys-bits=on,"
      "host-phys-bits-limit=20"], "(but is 20)"),
    (["-accel", "kvm", "-cpu", "qemu32,phys-bits=36"],
     P + "phys-bits is not user-configurable in 32 bit"),
    # -boot devices, ranges; -machine accel=; -D; -d tid
    (["-boot", "maybe"], P + "Invalid boot device 'y'"),
    (["-boot", "-1"], P + "Invalid boot device '-'"),
    (["-boot", "order=cc"], P + "Boot device 'c' was given twice"),
    (["-boot", "c,,d"], P + "-boot c,,d: Invalid parameter ''"),
    (["-boot", "order=p"], P + "Invalid boot device for PC: 'p'"),
    (["-boot", "once=e"], P + "Invalid boot device for PC: 'e'"),
    (["-boot", "foo=1"], P + "Parameter 'boot.foo' is unexpected"),
    (["-boot", "splash-time=x"],
     P + "Parameter 'boot.splash-time' expects integer"),
    (["-boot", "menu=on,splash-time=70000"], P + "splash-time is invalid,"
     "it should be a value between 0 and 65535"),
    (["-boot", "reboot-timeout=-2"], P + "reboot timeout is invalid,it "
     "should be a value between -1 and 65535"),
    (["-machine", "q35,accel="], P + "no accelerator found"),
    (["-machine", "q35,accel=nosuch:nosuch2"], P + "invalid accelerator "
     "nosuch\n" + P + "invalid accelerator nosuch2\n"),
    (["-accel", "nosuch"], P + "-accel nosuch: invalid accelerator nosuch"),
    (["-D", "/nonexistent-dir/x.log"], P + "Error opening logfile "
     "/nonexistent-dir/x.log: No such file or directory"),
    (["-d", "tid"], P + "Filename template with '%d' required for 'tid'"),
    # Errors of parsing and of the first checks win over a help request
    (["-cpu", "help", "-m", "x"], P + "-m x: Parameter 'size' expects"),
    (["-m", "x", "-machine", "help"], P + "-m x: Parameter 'size' expects"),
    (["-accel", "help", "-object"], P + "-object: requires an argument"),
    (["-machine", "help", "-foo"], P + "-foo: invalid option"),
    (["-device", "help", "-append", "x"],
     P + "-append only allowed with -kernel option"),
    (["-cpu", "help", "-D", "/nonexistent-dir/x.log"],
     "Error opening logfile"),
    (["-cpu", "help", "-cpu", "nosuch"],
     P + "unable to find CPU model 'nosuch'"),
    # -chardev values are typed, each occurrence checked; ids: the first
    (["-chardev", "socket,id=c,path=/nonexistent/s,server=bogus,server=on,"
      "wait=off"], "Parameter 'server' expects 'on' or 'off'"),
    (["-chardev", "null,id=c,reconnect=x"],
     "-chardev null,id=c,reconnect=x: Parameter 'reconnect' expects a "
     "number"),
    (["-chardev", "null,id=c,id=d", "-mon", "d"],
     P + '-mon d: chardev "d" not found'),
    (["-device", "pvpanic,id=1a,id=b"], "-device pvpanic,id=1a,id=b: "
     "Parameter 'id' expects an identifier"),
    (["-device", "pvpanic,ioport=-1"],
     "-device pvpanic,ioport=-1: Parameter 'ioport' expects uint16_t"),
    (["-device", "pvpanic,events=-1"], "Parameter 'events' expects uint8_t"),
    # QEMU checks host support before dependencies: this host has no
    # Hyper-V, so the missing hv-vpindex is not what is reported
    (["-cpu", "host", "-accel", "kvm", "-cpu", "host,hv-ipi=on"],
     "Hyper-V paravirtualized IPI (hv-ipi) is not supported by kernel"),
    (["-cpu", "qemu64,hv-relaxed=on", "-accel", "kvm"],
     "Hyper-V relaxed timing (hv-relaxed) is not supported by kernel"),
    (["-cpu", "qemu64,kvm-pv-unhalt=on,enforce", "-accel", "kvm",
      "-machine", "pc-q35-8.0,kernel-irqchip=off"],
     "Host doesn't support requested features"),
]

# Bytes sent after negotiation, expected error class and desc substring
QMP_CASES = [
    (b'{"execute":"nosuch"}', "CommandNotFound",
     "The command nosuch has not been found"),
    (b'[]', "GenericError", "QMP input must be a JSON object"),
    (b'1', "GenericError", "QMP input must be a JSON object"),
    (b'"str"', "GenericError", "QMP input must be a JSON object"),
    (b'{"foo":1}', "GenericError", "QMP input member 'foo' is unexpected"),
    (b'{}', "GenericError", "QMP input lacks member 'execute'"),
    (b'{"execute":1}', "GenericError",
     "QMP input member 'execute' must be a string"),
    (b'{"execute":null}', "GenericError",
     "QMP input member 'execute' must be a string"),
    (b'{"execute":"query-status","arguments":[]}', "GenericError",
     "QMP input member 'arguments' must be an object"),
    (b'{"execute":"query-status","bar":1}', "GenericError",
     "QMP input member 'bar' is unexpected"),
    (b'{"execute":"query-status","arguments":{"x":1}}', "GenericError",
     "Parameter 'x' is unexpected"),
    (b'{"execute":"qom-get"}', "GenericError", "Parameter 'path' is missing"),
    (b'{"execute":"qom-get","arguments":{"path":"/machine"}}', "GenericError",
     "Parameter 'property' is missing"),
    (b'{"execute":"qom-get","arguments":{"path":"/nosuch","property":"x"}}',
     "DeviceNotFound", "Device '/nosuch' not found"),
    (b'{"execute":"qom-get","arguments":{"path":"/machine","property":"no"}}',
     "GenericError", "Property 'pc-q35-8.0-machine.no' not found"),
    (b'{"execute":"qom-list","arguments":{"path":5}}', "GenericError",
     "Invalid parameter type for 'path', expected: string"),
    (b'{"execute":"qom-list","arguments":{"path":"relative"}}',
     "DeviceNotFound", "Device 'relative' not found"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"foo",'
     b'"model":{"name":"qemu64"}}}', "GenericError",
     "Parameter 'type' does not accept value 'foo'"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full"}}',
     "GenericError", "Parameter 'model' is missing"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"model":{}}}',
     "GenericError", "Parameter 'type' is missing"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full",'
     b'"model":{"name":"nosuch"}}}', "GenericError",
     "CPU model 'nosuch' not found"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full",'
     b'"model":{"name":"qemu64","props":{"nosuch":true}}}}', "GenericError",
     "Property 'qemu64-x86_64-cpu.nosuch' not found"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full",'
     b'"model":{"name":"qemu64","props":{"pni":1}}}}', "GenericError",
     "Invalid parameter type for 'pni', expected: boolean"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full",'
     b'"model":{"name":"qemu64","props":{"level":1.5}}}}', "GenericError",
     "Parameter 'level' expects uint64"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full",'
     b'"model":{"name":"qemu64","props":{"host-phys-bits-limit":-1}}}}',
     "GenericError", "Parameter 'host-phys-bits-limit' expects uint8_t"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full",'
     b'"model":{"name":"qemu64","props":{"node-id":3000000000}}}}',
     "GenericError", "Parameter 'node-id' expects int32_t"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"full",'
     b'"model":{"name":"qemu64","props":{"tsc-frequency":-5}}}}',
     "GenericError", "Property .tsc-frequency doesn't take value -5"),
    (b'{"execute":"query-cpu-model-expansion","arguments":{"type":"static",'
     b'"model":{"name":7}}}', "GenericError",
     "Invalid parameter type for 'name', expected: string"),
    (b'{"execute":"x-query-cpuid","arguments":{"cpu-index":99}}',
     "GenericError", "CPU 99 does not exist"),
    (b'{"execute":"x-query-cpuid","arguments":{"cpu-index":"0"}}',
     "GenericError", "Invalid parameter type for 'cpu-index', "
     "expected: integer"),
    (b'{"execute":"qmp_capabilities"}', "CommandNotFound",
     "Capabilities negotiation is already complete"),
    (b'garbage', "GenericError", "JSON parse error"),
    (b'{"execute":"query-status"', None, None),   # completed by the next
    (b'}', None, "complete"),
    (b'{"execute": "query-status", "id": {"a": [1, 2]}}', None, "id"),
    (b'{"execute":"qom-list-types","arguments":{"abstract":"yes"}}',
     "GenericError", "Invalid parameter type for 'abstract', "
     "expected: boolean"),
    (b'[' * 5000 + b']' * 5000, "GenericError",
     "JSON nesting depth limit exceeded"),
    (b'{"execute":"\\u0000"}', "CommandNotFound", "has not been found"),
]


def check_cli(n):
    failures = 0
    for args, want in CLI_CASES:
        n += 1
        full = ["-machine", "pc-q35-8.0", "-S", "-display", "none",
                "-nodefaults"] + args
        try:
            status, _, err = run(BINARY, full, timeout=30)
        except Exception as e:  # a hang is a failure too
            status, err = None, str(e)
        ok = status == 1 and want in err
        name = "x86/bad-input/cli/" + " ".join(args)
        print(f"{'ok' if ok else 'not ok'} {n} - {name}" +
              ("" if ok else f" # status={status} stderr={err.strip()!r}"))
        failures += not ok
    return n, failures


def check_qmp(n):
    failures = 0
    with Machine(BINARY, ["-machine", "pc-q35-8.0", "-accel", "kvm", "-S",
                          "-cpu", "qemu64"], server=True) as vm:
        for data, cls, desc in QMP_CASES:
            n += 1
            vm.send_raw(data + b"\r\n")
            name = f"x86/bad-input/qmp/{data[:50]!r}"
            if cls is None and desc is None:
                n -= 1
                continue
            reply = vm.recv()
            if cls is None:
                ok = "return" in reply and (desc != "id" or
                                            reply.get("id") == {"a": [1, 2]})
            else:
                err = reply.get("error", {})
                ok = err.get("class") == cls and desc in err.get("desc", "")
            print(f"{'ok' if ok else 'not ok'} {n} - {name}" +
                  ("" if ok else f" # reply={reply}"))
            failures += not ok
        # Still alive and answering
        n += 1
        ok = vm.cmd("query-status")["status"] == "prelaunch"
        print(f"{'ok' if ok else 'not ok'} {n} - x86/bad-input/qmp/alive")
        failures += not ok
        # A client that vanishes mid-command does not take the emulator down
        n += 1
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        vm.sock.close()
        s.connect(vm.sock_path)
        s.recv(4096)
        s.sendall(b'{"execute":"qmp_capabilities"}\r\n{"execute":"query-')
        s.close()
        time.sleep(0.2)
        ok = vm.proc.poll() is None
        vm.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        vm.sock.connect(vm.sock_path)
        vm.buf = b""
        vm._read_message()
        vm.cmd("qmp_capabilities")
        ok = ok and vm.cmd("query-status")["status"] == "prelaunch"
        print(f"{'ok' if ok else 'not ok'} {n} - "
              "x86/bad-input/qmp/client-vanishes")
        failures += not ok
    code = vm.exitcode
    n += 1
    ok = code == 0
    print(f"{'ok' if ok else 'not ok'} {n} - x86/bad-input/qmp/quit-status"
          + ("" if ok else f" # exit {code}"))
    failures += not ok
    return n, failures


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable here")
        return 77
    n, f1 = check_cli(0)
    n, f2 = check_qmp(n)
    print(f"1..{n}")
    return 1 if f1 + f2 else 0


if __name__ == "__main__":
    sys.exit(main())
