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
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable, run  # noqa: E402
import kernel_images as ki  # noqa: E402

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
    (["-nic", "user"], "NIC devices are not available in this build yet"),
    (["-s"], "-s: the gdbstub is not supported"),
    # Options QEMU 7.2 merges: a later one keeps the earlier keys
    (["-machine", "q35,kernel-irqchip=bogus", "-machine", "q35", "-accel",
      "kvm"], P + "-accel kvm: can't apply global kvm-accel.kernel-irqchip="
     "bogus: Parameter 'kernel-irqchip' does not accept value 'bogus'"),
    (["-machine", "q35,kernel-irqchip=bogus", "-machine", "q35,accel=kvm"],
     P + "can't apply global kvm-accel.kernel-irqchip=bogus"),
    (["-machine", "q35,foo=1", "-machine", "pc"],
     P + "Property 'pc-i440fx-8.1-machine.foo' not found"),
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
     P + "Property 'pc-q35-8.1-machine.x-y-z' not found"),
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
    # -action: texts of QEMU 7.2
    (["-action", "reboot=foo"], P + "-action reboot=foo: Parameter 'reboot' "
     "does not accept value 'foo'"),
    (["-action", "bogus=1"], P + "-action bogus=1: Invalid parameter "
     "'bogus'"),
    (["-action", "panic"], P + "-action panic: Parameter 'panic' does not "
     "accept value 'on'"),
    (["-action", "shutdown=pause=1"], "Parameter 'shutdown' does not accept "
     "value 'pause=1'"),
    (["-action", "watchdog=Reset"], "Parameter 'watchdog' does not accept "
     "value 'Reset'"),
    # -add-fd: texts of QEMU 7.2 (no fd is passed to these runs)
    (["-add-fd", "set=1"], P + "-add-fd set=1: fd option is required and "
     "must be non-negative"),
    (["-add-fd", "fd=-1,set=1"], P + "-add-fd fd=-1,set=1: fd option is "
     "required and must be non-negative"),
    (["-add-fd", ""], P + "-add-fd : fd option is required and must be "
     "non-negative"),
    (["-add-fd", "fd=2,set=1"], P + "-add-fd fd=2,set=1: fd cannot be a "
     "standard I/O stream"),
    (["-add-fd", "fd=0,set=1"], "fd cannot be a standard I/O stream"),
    (["-add-fd", "fd=5"], P + "-add-fd fd=5: fd is not valid or already in "
     "use"),
    (["-add-fd", "fd=55,set=1"], "fd is not valid or already in use"),
    (["-add-fd", "fd=abc,set=1"], P + "-add-fd fd=abc,set=1: Parameter "
     "'fd' expects a number"),
    (["-add-fd", "fd=3,set=x"], "Parameter 'set' expects a number"),
    (["-add-fd", "fd=10,set=1.5"], "Parameter 'set' expects a number"),
    (["-add-fd", "fd=10,set=99999999999999999999"], "Value "
     "'99999999999999999999' is too large for parameter 'set'"),
    (["-add-fd", "fd=3,set=1,foo=2"], P + "-add-fd fd=3,set=1,foo=2: "
     "Invalid parameter 'foo'"),
    (["-add-fd", "3"], "Invalid parameter '3'"),
    (["-chardev", "file,id=c,path=/dev/fdset/3"], P + "-chardev file,id=c,"
     "path=/dev/fdset/3: Could not open '/dev/fdset/3': No such file or "
     "directory"),
    (["-chardev", "null,id=c,logfile=/dev/fdset/x"], "-chardev null,id=c,"
     "logfile=/dev/fdset/x: Could not parse fdset /dev/fdset/x"),
    (["-pidfile", "/dev/fdset/4"], P + "cannot create PID file: Could not "
     "dup FD for /dev/fdset/4 flags 41: No such file or directory"),
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
    # -audio as QEMU 7.2 checks it; no sound card exists here
    (["-audio", "bogusdriver"],
     P + "-audio bogusdriver: Parameter 'driver' does not accept value "
     "'bogusdriver'"),
    (["-audio", "none,model=bogus"],
     P + "-audio none,model=bogus: Unknown sound card name `bogus'"),
    (["-audio", "model=ac97"],
     P + "-audio model=ac97: Parameter 'driver' is missing"),
    (["-audio", "none,model=ac97,foo=1"],
     P + "-audio none,model=ac97,foo=1: Parameter 'foo' is unexpected"),
    (["-audio", "none,model=ac97"],
     "sound card 'ac97' is not supported by this build"),
    (["-audiodev", "none,id=a,foo=1"],
     P + "-audiodev none,id=a,foo=1: Parameter 'foo' is unexpected"),
    # -accel kvm's properties take effect (KVM_SET_NR_MMU_PAGES, the dirty
    # ring), so the host's refusals are QEMU 7.2's
    (["-accel", "kvm,dirty-ring-size=1000"],
     P + "-accel kvm,dirty-ring-size=1000: dirty-ring-size must be a power "
     "of two."),
    (["-accel", "kvm,dirty-ring-size=131072"],
     "KVM dirty ring size 131072 too big (maximum is 65536).  Please use a "
     "smaller value."),
    (["-accel", "kvm,kvm-shadow-mem=100"],
     P + "-accel kvm,kvm-shadow-mem=100: failed to initialize kvm: Invalid "
     "argument"),
    # options whose effect is not emulated are refused, not ignored
    # (-usb on i440fx is its piix3-usb-uhci; q35's EHCI is not emulated)
    (["-machine", "q35", "-usb"],
     "usb=on: USB is not supported by this build yet"),
    (["-machine", "pc-q35-8.0,usb=on"],
     "usb=on: USB is not supported by this build yet"),
    (["-rtc", "driftfix=slew"], "driftfix=slew is not supported"),
    (["-chardev", "socket,id=m,path=/tmp/qkp-bad.sock,server=on,wait=off",
      "-mon", "chardev=m,pretty=on"],
     "'pretty' is not compatible with HMP monitors"),
    # memory-backend-ram's NUMA policy, with QEMU 7.2's texts
    (["-m", "128", "-machine", "memory-backend=m", "-object",
      "memory-backend-ram,id=m,size=128M,policy=bind"],
     P + "host-nodes must be set for policy bind"),
    (["-m", "128", "-machine", "memory-backend=m", "-object",
      "memory-backend-ram,id=m,size=128M,host-nodes=0"],
     P + "host-nodes must be empty for policy default, or you should "
     "explicitly specify a policy other than default"),
    (["-m", "128", "-machine", "memory-backend=m", "-object",
      "memory-backend-ram,id=m,size=128M,policy=bind,host-nodes=200"],
     "Invalid host-nodes value: 200"),
    (["-m", "128", "-machine", "memory-backend=m", "-object",
      "memory-backend-ram,id=m,size=128M,policy=nosuch,host-nodes=0"],
     "Parameter 'policy' does not accept value 'nosuch'"),
    # The block layer (more, against QEMU 7.2: functional/block-vs-qemu72)
    (["-drive", "file=/nonexistent/x,if=none"],
     P + "-drive file=/nonexistent/x,if=none: Could not open "
     "'/nonexistent/x': No such file or directory"),
    (["-drive", "file=/dev/null,if=bogus"],
     "-drive file=/dev/null,if=bogus: unsupported bus type 'bogus'"),
    (["-drive", "file=/dev/null,if=none,cache=bogus"],
     "invalid cache option"),
    (["-drive", "file=/dev/null,if=none,aio=bogus"], "invalid aio option"),
    (["-drive", "file=/dev/null,if=none,werror=bogus"],
     "'bogus' invalid write error action"),
    (["-drive", "file=/dev/null,if=none,rerror=enospc"],
     "'enospc' invalid read error action"),
    (["-drive", "file=/dev/null,if=none,format=vmdk"],
     "Unknown driver 'vmdk'"),
    (["-drive", "file=/dev/null,if=none,format=raw,bogus=1"],
     "Block format 'raw' does not support the option 'bogus'"),
    (["-drive", "file=/dev/null,if=none,format=raw,file.bogus=1"],
     "Block protocol 'host_device' doesn't support the option 'bogus'"),
    (["-drive", "file=/dev/null,if=none,id=x", "-drive",
      "file=/dev/null,if=none,id=x"], "Duplicate ID 'x' for drive"),
    (["-drive", "file=/dev/null,format=raw,if=virtio"],
     "if=virtio needs the device 'virtio-blk-pci', which this build does "
     "not have yet"),
    (["-drive", "file=/dev/null,format=raw,if=ide"],
     "if=ide needs the device 'ide-hd'"),
    (["-drive", "file=/dev/null,format=raw,if=scsi"],
     "machine type does not support if=scsi,bus=0,unit=0"),
    (["-drive", "file=/dev/null,format=qcow2,if=none"],
     "Image is not in qcow2 format"),
    (["-drive", "file=/dev/null,format=raw,if=none,snapshot=on"],
     "snapshot=on is not supported by this build"),
    (["-blockdev", "driver=file"], P + "-blockdev driver=file: "
     "Parameter 'filename' is missing"),
    (["-blockdev", "driver=nbd,node-name=n"],
     "Parameter 'driver' does not accept value 'nbd'"),
    (["-blockdev", "driver=file,filename=/dev/null,node-name=a"],
     "'file' driver requires '/dev/null' to be a regular file"),
    (["-blockdev", '{"driver":"raw","file":[],"node-name":"a"}'],
     "Invalid parameter type for 'file', expected: BlockdevRef"),
    (["-blockdev", '{"driver":"raw"'], "JSON parse error"),
    (["-blockdev", "driver=raw,node-name=a,file.driver=host_device,"
      "file.filename=/dev/null,offset=1k"],
     "Parameter 'offset' expects integer"),
    (["-blockdev", "driver=raw,node-name=a,file="],
     "Cannot find device='' nor node-name=''"),
]

# -kernel files: (name, file contents, a path or a function making one in
# a dir, extra args, expected stderr substring or None for a file that
# must load, as it does in QEMU 7.2), each file written to a temp dir at
# test time; "{dir}" in a path or the extra args is that dir, which also
# holds initrd-4k, initrd-65m and the FIFO initrd-fifo.  Texts are QEMU
# 7.2's (it prints some of them with "qemu: " for a prefix).
PVH_NOTE = ki.pvh_note(0x100000, True)
LOAD = (ki.PT_LOAD, 0x200, 0x100000, 3, 0x1000)
NOTE = (ki.PT_NOTE, 0x180, 0, len(PVH_NOTE), len(PVH_NOTE))
ELF_ERR = P + "Error while loading elf kernel"
MB = 0x100000
def fifo(tmp):
    path = os.path.join(tmp, "fifo")
    os.mkfifo(path)
    return path


def sparse(size):
    def make(tmp):
        path = os.path.join(tmp, "sparse")
        with open(path, "wb") as f:
            f.truncate(size)
        return path
    return make


KERNEL_CASES = [
    # Files that are no kernel: QEMU's words, except that QEMU reads a FIFO
    # forever and what is larger than guest RAM whole
    ("nonexistent", "/nonexistent/bzImage", [], P + "could not open kernel "
     "file '/nonexistent/bzImage': No such file or directory"),
    ("directory", "{dir}", [], "': Is a directory"),
    ("dev-zero", "/dev/zero", [],
     P + "could not load kernel '/dev/zero': No such file or directory"),
    ("dev-null", "/dev/null", [],
     P + "could not load kernel '/dev/null': No such file or directory"),
    ("empty", b"", [], "empty': No such file or directory"),
    ("fifo", fifo, [], "fifo': No such file or directory"),
    ("larger-than-ram", sparse(65 << 20), ["-m", "64"],
     "sparse': File too large"),
    # Shorter than the setup sectors the header claims, or than 8 KiB of
    # header: QEMU reads the header first, then refuses
    ("bzimage-0x207", ki.bzimage(size=0x207), [], P + "invalid kernel header"),
    ("bzimage-0x208", ki.bzimage(size=0x208), [], P + "invalid kernel header"),
    ("bzimage-0x236", ki.bzimage(size=0x236), [], P + "invalid kernel header"),
    ("bzimage-setup-sects-255", ki.bzimage(setup_sects=255, size=0x1000), [],
     P + "invalid kernel header"),
    ("bzimage-setup-sects-1", ki.bzimage(setup_sects=1, size=1023), [],
     P + "invalid kernel header"),
    # Neither bzImage nor multiboot nor ELF: QEMU takes it for a zImage
    ("three-bytes", b"hi\n", [], P + "invalid kernel header"),
    ("bzimage-no-payload", ki.bzimage(setup_sects=1, size=1024), [], None),
    # ELF: offsets and sizes that wrap or point past the file
    ("elf64-phoff-wrap", ki.pvh_elf(phoff=(1 << 64) - 16), [], ELF_ERR),
    ("elf32-phoff-wrap", ki.pvh_elf(is64=False, phoff=0xfffffff0), [],
     ELF_ERR),
    ("elf64-phoff-past-file", ki.pvh_elf(phoff=0x100000), [], ELF_ERR),
    ("elf64-phnum-past-file", ki.pvh_elf(phnum=0xffff), [], ELF_ERR),
    ("elf64-phnum-0", ki.pvh_elf(phnum=0), [], ELF_ERR),
    # QEMU 7.2 overflows its bounds checks on the next three (SIGSEGV); the
    # texts are those of the checks it means to make
    ("elf64-load-offset-wrap", ki.pvh_elf(segments=[
        (ki.PT_LOAD, (1 << 64) - 2, 0x100000, 3, 0x1000), NOTE]), [],
     ELF_ERR),
    ("elf64-load-filesz-past-file", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x200, 0x100000, 0x1000, 0x1000), NOTE]), [], ELF_ERR),
    # QEMU adds the segments' sizes up in an int
    ("elf64-memsz-2g", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x200, 0x100000, 3, 0x40000000),
        (ki.PT_LOAD, 0x200, 0x50000000, 3, 0x40000000), NOTE]), [],
     ELF_ERR),
    ("elf64-filesz-over-memsz", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x200, 0x100000, 0x10, 0x8), NOTE]), [], ELF_ERR),
    ("elf64-note-offset-wrap", ki.pvh_elf(segments=[
        LOAD, (ki.PT_NOTE, (1 << 64) - 8, 0, 0x20, 0x20)]), [], ELF_ERR),
    ("elf64-note-namesz-wrap", ki.pvh_elf(blobs={
        0x180: ki.elf_note_raw(0xfffffffe, 8, 18, b"Xen\0"),
        0x200: ki.HALT}), [], "without PVH ELF Note"),
    ("elf64-note-past-file", ki.pvh_elf(segments=[
        LOAD, (ki.PT_NOTE, 0x180, 0, 0x10000, 0x10000)]), [], ELF_ERR),
    ("elf-truncated-header", ki.pvh_elf()[:40], [], ELF_ERR),
    ("elf-big-endian", b"\x7fELF\x02\x02\x01" + ki.pvh_elf()[7:], [],
     ELF_ERR),
    ("elf-machine-arm", ki.pvh_elf(machine=40), [], ELF_ERR),
    ("elf-flags", ki.pvh_elf(flags=0x10004), [],
     P + "elfboot unsupported flags = 10004"),
    ("elf-no-pvh-note", ki.pvh_elf(segments=[LOAD]), [],
     P + "Error loading uncompressed kernel without PVH ELF Note"),
    # QEMU reads program headers at the struct's size, whatever
    # e_phentsize says, and at any offset
    ("elf64-phentsize-57", ki.pvh_elf(phentsize=57), [],
     "without PVH ELF Note"),
    ("elf64-phentsize-8", ki.pvh_elf(phentsize=8), [], None),
    ("elf32-phentsize-0", ki.pvh_elf(is64=False, phentsize=0), [], None),
    ("elf64-phoff-odd", ki.pvh_elf(phoff=0x41), [], None),
    ("elf64-no-pt-load", ki.pvh_elf(segments=[NOTE]), [], None),
    ("elf64-bss-offset-past-file", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x100000, 0x100000, 0, 0x1000), NOTE]), [], None),
    ("elf64-bss-offset-wrap", ki.pvh_elf(segments=[
        LOAD, (ki.PT_LOAD, (1 << 64) - 0x100, 0x200000, 0, 0x1000), NOTE]),
     [], None),
    # QEMU divides by a note segment's zero alignment (SIGFPE)
    ("elf64-note-align-0", ki.pvh_elf(segments=[
        LOAD, NOTE[:5] + (0,)]), [], None),
    # File bytes of two segments overlap (QEMU's ROM blobs); bss does not
    # count, and neither do segments that only touch
    ("elf64-overlapping-segments", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x200, 0x100000, 0x11, 0x11),
        (ki.PT_LOAD, 0x200, 0x100010, 3, 3), NOTE], size=0x300), [],
     P + "Some ROM regions are overlapping"),
    ("elf64-overlapping-segments-named", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x200, 0x100800, 3, 0x1000),
        (ki.PT_LOAD, 0x200, 0x100000, 0x900, 0x1000), NOTE],
        size=0xb00), [],
     "elf64-overlapping-segments-named ELF program header segment 1 "
     "(addresses 0x0000000000100000 - 0x0000000000100900)\n  "),
    ("elf64-segments-touch", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x200, 0x100000, 0x10, 0x10),
        (ki.PT_LOAD, 0x200, 0x100010, 3, 3), NOTE], size=0x300), [], None),
    ("elf64-data-over-bss", ki.pvh_elf(segments=[
        (ki.PT_LOAD, 0x200, 0x100000, 3, 0x1000),
        (ki.PT_LOAD, 0x200, 0x100000, 0, 0x1000), NOTE]), [], None),
    # Multiboot copies the image out of the blobs first: that fails when a
    # segment ends inside an earlier one
    ("multiboot-elf-overlapping-segments", ki.multiboot_elf(segments=[
        (ki.PT_LOAD, 0, 0x100000, 0x100, 0x100),
        (ki.PT_LOAD, 0, 0x1000f0, 0x10, 0x10)]), [],
     P + "Some ROM regions are overlapping"),
    ("multiboot-elf-segment-inside-another", ki.multiboot_elf(segments=[
        (ki.PT_LOAD, 0, 0x100000, 0x100, 0x2000),
        (ki.PT_LOAD, 0, 0x100080, 0x10, 0x10)]), [],
     P + "Error while fetching elf kernel from rom"),
    ("multiboot-elf-data-in-bss", ki.multiboot_elf(segments=[
        (ki.PT_LOAD, 0, 0x100000, 0x100, 0x2000),
        (ki.PT_LOAD, 0, 0x100800, 0x10, 0x10)]), [], None),
    # Multiboot's a.out kludge: the addresses QEMU checks, in its order
    ("multiboot-bss-below-load-end", ki.multiboot_aout(
        load_end_addr=MB + 0x80, bss_end_addr=MB + 0x7f), [],
     P + "invalid bss_end_addr address"),
    ("multiboot-bss-below-file-end", ki.multiboot_aout(
        bss_end_addr=MB + 0xff, size=0x100), [],
     P + "invalid bss_end_addr address"),
    ("multiboot-bss-at-load-end", ki.multiboot_aout(
        load_end_addr=MB + 0x80, bss_end_addr=MB + 0x80), [], None),
    ("multiboot-load-addr-above-header", ki.multiboot_aout(
        header_addr=MB - 4, load_addr=MB, load_end_addr=MB - 1), [],
     P + "invalid load_addr address"),
    ("multiboot-header-addr-before-file", ki.multiboot_aout(
        header_off=0x10, header_addr=MB + 0x20, load_addr=MB), [],
     P + "invalid header_addr address"),
    ("multiboot-load-end-below-load", ki.multiboot_aout(
        load_end_addr=MB - 1), [], P + "invalid load_end_addr address"),
    ("multiboot-load-past-file", ki.multiboot_aout(
        load_end_addr=MB + 0x200, bss_end_addr=MB + 0x200), [],
     P + "fread() failed"),
    ("multiboot-past-4g", ki.multiboot_aout(
        load_addr=0xfffff000, size=0x2000, bss_end_addr=1), [],
     P + "kernel does not fit in address space"),
    # QEMU looks for the header in the first 8 KiB less 48 bytes
    ("multiboot-header-at-8140", ki.multiboot_at(8140), [], None),
    ("multiboot-header-at-8144", ki.multiboot_at(8144), [],
     P + "invalid kernel header"),
    # -initrd, looked at before the kernel's header, as QEMU does
    ("bzimage-initrd-missing", ki.bzimage(size=0x300),
     ["-initrd", "/nonexistent/initrd"], P + "error reading initrd "
     "/nonexistent/initrd: Failed to open file \u201c/nonexistent/initrd"
     "\u201d: open() failed: No such file or directory"),
    ("bzimage-initrd-dev-zero", ki.bzimage(), ["-initrd", "/dev/zero"],
     P + "error reading initrd /dev/zero: Failed to map /dev/zero' "
     "/dev/zero': mmap() failed: Invalid argument"),
    ("bzimage-initrd-fifo", ki.bzimage(), ["-initrd", "{dir}/initrd-fifo"],
     "initrd-fifo': mmap() failed: No such device"),
    ("bzimage-initrd-too-large", ki.bzimage(),
     ["-m", "64", "-initrd", "{dir}/initrd-65m"],
     P + "initrd is too large, cannot support.(max: 66945023, "
     "need 68157440)"),
    ("bzimage-initrd-too-large-i440fx-2.0", ki.bzimage(),
     ["-machine", "pc-i440fx-2.0", "-m", "64", "-initrd",
      "{dir}/initrd-65m"],
     P + "initrd is too large, cannot support.(max: 67043327, "
     "need 68157440)"),
    ("bzimage-initrd-above-addr-max", ki.bzimage(initrd_addr_max=0x100),
     ["-initrd", "{dir}/initrd-4k"],
     P + "initrd is too large, cannot support.(max: 256, need 4096)"),
    ("bzimage-initrd-above-4g", ki.bzimage(initrd_addr_max=0x100,
                                           xloadflags=3),
     ["-initrd", "{dir}/initrd-4k"], None),
    ("bzimage-initrd-protocol-1", ki.bzimage(version=0x1ff),
     ["-initrd", "{dir}/initrd-4k"],
     P + "linux kernel too old to load a ram disk"),
    ("unknown-format-initrd", bytes(0x3000), ["-initrd", "{dir}/initrd-4k"],
     P + "linux kernel too old to load a ram disk"),
    ("bzimage-cmdline-over-cmdline-size", ki.bzimage(cmdline_size=4),
     ["-append", "hello world"], None),
    ("pvh-initrd-too-large", ki.pvh_elf(),
     ["-m", "64", "-initrd", "{dir}/initrd-65m"],
     P + "initrd is too large, cannot support.(max: 66945023, "
     "need 68157440)"),
    ("pvh-initrd", ki.pvh_elf(), ["-initrd", "{dir}/initrd-4k"], None),
    ("multiboot-initrd-missing", ki.multiboot_aout(),
     ["-initrd", "/nonexistent/initrd"],
     P + "Failed to open file '/nonexistent/initrd'"),
    ("multiboot-initrd", ki.multiboot_aout(), ["-initrd", "{dir}/initrd-4k"],
     None),
    ("multiboot-elf64", ki.multiboot_elf(is64=True), [],
     P + "Cannot load x86-64 image, give a 32bit one."),
    ("multiboot-elf-truncated", ki.multiboot_elf()[:0x90], [], ELF_ERR),
    ("multiboot-elf-no-pt-load", ki.multiboot_elf(segments=[
        (ki.PT_NOTE, 0, 0, 0x10, 0x10)]), [],
     P + "Error while fetching elf kernel from rom"),
]

# Sent on -qmp stdio to a machine whose kernel must load: exit status 0
QUIT = b'{"execute":"qmp_capabilities"}\n{"execute":"quit"}\n'

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
     "Invalid parameter type for 'model.name', expected: string"),
    (b'{"execute":"x-query-cpuid","arguments":{"cpu-index":99}}',
     "GenericError", "CPU 99 does not exist"),
    (b'{"execute":"x-query-cpuid","arguments":{"cpu-index":"0"}}',
     "GenericError", "Invalid parameter type for 'cpu-index', "
     "expected: integer"),
    (b'{"execute":"qmp_capabilities"}', "CommandNotFound",
     "Capabilities negotiation is already complete"),
    (b'garbage', "GenericError", "JSON parse error"),
    # Lexical errors are answered at once, and the case after each shows
    # that the next command is not swallowed (QEMU 7.2's texts; the byte
    # 0xFF comes back as U+FFFD)
    (b"{'bad \xff", "GenericError", "JSON parse error, stray ''bad \ufffd'"),
    (b'{\xff', "GenericError", "JSON parse error, stray '\ufffd'"),
    (b'{\x01', "GenericError", "JSON parse error, stray '\x01'"),
    (b"{'execute': 'nonexistent', 'id':'\n", "GenericError",
     "JSON parse error, stray ''\n'"),
    (b'%p', "GenericError", "JSON parse error, stray '%'"),
    (b'[0e1]', "GenericError", "JSON parse error, expected separator in list"),
    (b'{"execute":"query-status","id":"\xef\xbf\xbf"}', "GenericError",
     "JSON parse error, invalid UTF-8 sequence in string"),
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


def names_accel(args):
    return any(a in ("-accel", "-enable-kvm") or "accel=" in a or
               "kernel-irqchip" in a for a in args)


def check_cli(n, kvm):
    """Each case under the default accelerator (KVM); without /dev/kvm,
    under qtest's, which reaches the same checks; a case that names KVM
    itself and whose check comes after KVM is set up is skipped there"""
    failures = 0
    for args, want in CLI_CASES:
        n += 1
        name = "x86/bad-input/cli/" + " ".join(args)
        own = names_accel(args)
        full = ["-machine", "pc-q35-8.0", "-S", "-display", "none",
                "-nodefaults"] + ([] if kvm or own else
                                  ["-accel", "qtest"]) + args
        try:
            status, _, err = run(BINARY, full, timeout=30)
        except Exception as e:  # a hang is a failure too
            status, err = None, str(e)
        ok = status == 1 and want in err
        if not ok and not kvm and own and \
                "Could not access KVM kernel module" in err:
            # the check comes after KVM is set up, as in QEMU
            print(f"ok {n} - {name} # SKIP /dev/kvm is not usable here")
            continue
        print(f"{'ok' if ok else 'not ok'} {n} - {name}" +
              ("" if ok else f" # status={status} stderr={err.strip()!r}"))
        failures += not ok
    return n, failures


def check_kernel(n):
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.mkfifo(os.path.join(tmp, "initrd-fifo"))
        sparse(65 << 20)(tmp)
        os.rename(os.path.join(tmp, "sparse"),
                  os.path.join(tmp, "initrd-65m"))
        with open(os.path.join(tmp, "initrd-4k"), "wb") as f:
            f.write(bytes(4096))
        for name, image, extra, want in KERNEL_CASES:
            n += 1
            path = image.replace("{dir}", tmp) if isinstance(image, str) \
                else image(tmp) if callable(image) else \
                os.path.join(tmp, name)
            if isinstance(image, bytes):
                with open(path, "wb") as f:
                    f.write(image)
            full = ["-machine", "pc-q35-8.0", "-S", "-display", "none",
                    "-nodefaults", "-kernel", path] + \
                [a.replace("{dir}", tmp) for a in extra]
            try:
                if want is None:
                    p = subprocess.run([BINARY, "-qmp", "stdio"] + full,
                                       input=QUIT, capture_output=True,
                                       timeout=30)
                    status, err = p.returncode, p.stderr.decode()
                else:
                    status, _, err = run(BINARY, full, timeout=30)
            except Exception as e:  # a hang is a failure too
                status, err = None, str(e)
            ok = status == 0 if want is None else \
                status == 1 and want in err
            print(f"{'ok' if ok else 'not ok'} {n} - "
                  f"x86/bad-input/kernel/{name}" +
                  ("" if ok else f" # status={status} "
                   f"stderr={err.strip()[-300:]!r}"))
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
    # The command-line cases are refused before any accelerator is set up
    # (or name -accel kvm only to reach a check QEMU makes first): they run
    # on every host. Kernel images are loaded into a VM and QMP needs one.
    n, f1 = check_cli(0, kvm_usable())
    if not kvm_usable():
        for what in ("kernel", "qmp"):
            n += 1
            print(f"ok {n} - x86/bad-input/{what} # SKIP "
                  "/dev/kvm is not usable here")
        print(f"1..{n}")
        return 1 if f1 else 0
    n, f2 = check_kernel(n)
    n, f3 = check_qmp(n)
    print(f"1..{n}")
    return 1 if f1 + f2 + f3 else 0


if __name__ == "__main__":
    sys.exit(main())
