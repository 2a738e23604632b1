#!/usr/bin/env python3
"""-netdev, -nic, -net and netdev_add/netdev_del against QEMU 7.2.

Bad input: each row is a command line and the error line QEMU 7.2 prints
for it (recorded with Debian's 7.2); this binary must exit with status 1
and print the same line.  Where QEMU 7.2 is installed every row is also
run through it, so the table cannot drift from the oracle.  Rows this
build refuses on purpose (no NIC devices, no scripts, no bridge helper,
no multiqueue) have texts of their own and are not compared.

QMP: netdev_add/netdev_del requests whose replies must equal 7.2's, the
schema's Netdev union (the `type` values libvirt probes), and QEMU's
"netdev ... has no peer" warning.  No netdev here opens a socket outside
127.0.0.1: user netdevs are created but no guest talks through them.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
QEMU72 = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
BASE = ["-machine", "none", "-nodefaults", "-display", "none", "-S"]
LONG = "a" * 256

# (option, argument, QEMU 7.2's error line without "qemu-system-x86_64: ")
SAME_AS_72 = [
    ("-netdev", "user", "-netdev user: Parameter 'id' is missing"),
    ("-netdev", "bogus", "-netdev bogus: Parameter 'id' is missing"),
    ("-netdev", "id=n", "-netdev id=n: Parameter 'type' is missing"),
    ("-netdev", "bogus,id=n",
     "-netdev bogus,id=n: Parameter 'type' does not accept value 'bogus'"),
    ("-netdev", "user,id=1n",
     "-netdev user,id=1n: Parameter 'id' expects an identifier"),
    ("-netdev", "none,id=n", "-netdev none,id=n: network backend 'none' is "
     "not compiled into this binary"),
    ("-netdev", "nic,id=n", "-netdev nic,id=n: network backend 'nic' is not "
     "compiled into this binary"),
    ("-netdev", "user,id=n,foo=bar",
     "-netdev user,id=n,foo=bar: Invalid parameter 'foo'"),
    ("-netdev", "user,id=n,vlan=1",
     "-netdev user,id=n,vlan=1: Invalid parameter 'vlan'"),
    ("-netdev", "user,id=n,ipv4=maybe",
     "-netdev user,id=n,ipv4=maybe: Parameter 'ipv4' expects 'on' or 'off'"),
    ("-netdev", "user,id=n,restrict=",
     "-netdev user,id=n,restrict=: Parameter 'restrict' expects 'on' or "
     "'off'"),
    ("-netdev", "user,id=n,ipv6-prefixlen=x", "-netdev user,id=n,"
     "ipv6-prefixlen=x: Parameter 'ipv6-prefixlen' expects an int64 value"),
    ("-netdev", "tap,id=t,vhost=maybe",
     "-netdev tap,id=t,vhost=maybe: Parameter 'vhost' expects 'on' or 'off'"),
    ("-netdev", "tap,id=t,sndbuf=abc",
     "-netdev tap,id=t,sndbuf=abc: Parameter 'sndbuf' expects a size value"),
    ("-netdev", "tap,id=t,sndbuf=-1",
     "-netdev tap,id=t,sndbuf=-1: Parameter 'sndbuf' expects a size value"),
    ("-netdev", "tap,id=t,queues=x",
     "-netdev tap,id=t,queues=x: Parameter 'queues' expects a uint64 value"),
    ("-netdev", "tap,id=t,queues=-1",
     "-netdev tap,id=t,queues=-1: Parameter 'queues' expects a uint64 value"),
    ("-netdev", "tap,id=t,queues=99999999999", "-netdev tap,id=t,"
     "queues=99999999999: Parameter 'queues' expects uint32_t"),
    ("-netdev", "tap,id=t,poll-us=x",
     "-netdev tap,id=t,poll-us=x: Parameter 'poll-us' expects a uint64 value"),
    ("-netdev", '{"type":"user"}',
     "-netdev {\"type\":\"user\"}: Parameter 'id' is missing"),
    ("-netdev", '{"id":"n"}', "-netdev {\"id\":\"n\"}: Parameter 'type' is "
     "missing"),
    ("-netdev", '{"type":"bogus","id":"n"}', "-netdev {\"type\":\"bogus\","
     "\"id\":\"n\"}: Parameter 'type' does not accept value 'bogus'"),
    ("-netdev", '{"type":"user","id":"n","restrict":"yes"}',
     "-netdev {\"type\":\"user\",\"id\":\"n\",\"restrict\":\"yes\"}: Invalid "
     "parameter type for 'restrict', expected: boolean"),
    ("-netdev", '{"type":"user","id":"n","hostfwd":"x"}',
     "-netdev {\"type\":\"user\",\"id\":\"n\",\"hostfwd\":\"x\"}: Invalid "
     "parameter type for 'hostfwd', expected: array"),
    # user: addresses
    ("-netdev", "user,id=n,net=10.0.2.0/33", "-netdev user,id=n,"
     "net=10.0.2.0/33: Invalid netmask provided (must be in range 4-32)"),
    ("-netdev", "user,id=n,net=10.0.2.0/3", "-netdev user,id=n,"
     "net=10.0.2.0/3: Invalid netmask provided (must be in range 4-32)"),
    ("-netdev", "user,id=n,net=300.0.0.0",
     "-netdev user,id=n,net=300.0.0.0: Failed to parse netmask"),
    ("-netdev", "user,id=n,net=/24",
     "-netdev user,id=n,net=/24: Failed to parse netmask"),
    ("-netdev", "user,id=n,net=10.0.2.0/24x", "-netdev user,id=n,"
     "net=10.0.2.0/24x: Failed to parse netmask (trailing chars)"),
    ("-netdev", "user,id=n,net=10.0.0.0/255.255.255.255", "-netdev user,"
     "id=n,net=10.0.0.0/255.255.255.255: DNS must be different from host"),
    ("-netdev", "user,id=n,host=10.0.3.2",
     "-netdev user,id=n,host=10.0.3.2: Host doesn't belong to network"),
    ("-netdev", "user,id=n,host=abc",
     "-netdev user,id=n,host=abc: Failed to parse host"),
    ("-netdev", "user,id=n,host=10.0.2.3",
     "-netdev user,id=n,host=10.0.2.3: DNS must be different from host"),
    ("-netdev", "user,id=n,host=10.0.2.15", "-netdev user,id=n,"
     "host=10.0.2.15: DHCP must be different from host and DNS"),
    ("-netdev", "user,id=n,dhcpstart=10.0.3.15", "-netdev user,id=n,"
     "dhcpstart=10.0.3.15: DHCP doesn't belong to network"),
    ("-netdev", "user,id=n,dhcpstart=10.0.2.2", "-netdev user,id=n,"
     "dhcpstart=10.0.2.2: DHCP must be different from host and DNS"),
    ("-netdev", "user,id=n,dhcpstart=x", "-netdev user,id=n,dhcpstart=x: "
     "Failed to parse DHCP start address"),
    ("-netdev", "user,id=n,dns=10.0.2.2",
     "-netdev user,id=n,dns=10.0.2.2: DNS must be different from host"),
    ("-netdev", "user,id=n,dns=x", "-netdev user,id=n,dns=x: Failed to "
     "parse DNS"),
    ("-netdev", "user,id=n,restrict=on,dns=10.0.3.3", "-netdev user,id=n,"
     "restrict=on,dns=10.0.3.3: DNS doesn't belong to network"),
    ("-netdev", "user,id=n,net=10.0.5.0/24,dns=10.0.5.2", "-netdev user,"
     "id=n,net=10.0.5.0/24,dns=10.0.5.2: DNS must be different from host"),
    ("-netdev", "user,id=n,ipv4=off,ipv6=off",
     "-netdev user,id=n,ipv4=off,ipv6=off: IPv4 and IPv6 disabled"),
    ("-netdev", "user,id=n,ipv6=on,net=10.0.5.0/24", "-netdev user,id=n,"
     "ipv6=on,net=10.0.5.0/24: IPv4 disabled but netmask/host/dns provided"),
    ("-netdev", "user,id=n,ipv4=off,dns=10.0.2.3", "-netdev user,id=n,"
     "ipv4=off,dns=10.0.2.3: IPv4 disabled but netmask/host/dns provided"),
    ("-netdev", "user,id=n,ipv4=on,ipv6-prefix=fec0::", "-netdev user,id=n,"
     "ipv4=on,ipv6-prefix=fec0::: IPv6 disabled but prefix/host6/dns6 "
     "provided"),
    ("-netdev", "user,id=n,ipv6-prefix=zz",
     "-netdev user,id=n,ipv6-prefix=zz: Failed to parse IPv6 prefix"),
    ("-netdev", "user,id=n,ipv6-prefixlen=200", "-netdev user,id=n,"
     "ipv6-prefixlen=200: Invalid IPv6 prefix provided (IPv6 prefix length "
     "must be between 0 and 126)"),
    ("-netdev", "user,id=n,ipv6-host=fec1::2", "-netdev user,id=n,"
     "ipv6-host=fec1::2: IPv6 Host doesn't belong to network"),
    ("-netdev", "user,id=n,ipv6-dns=zz",
     "-netdev user,id=n,ipv6-dns=zz: Failed to parse IPv6 DNS"),
    ("-netdev", "user,id=n,domainname=", "-netdev user,id=n,domainname=: "
     "'domainname' parameter cannot be empty"),
    ("-netdev", "user,id=n,domainname=" + LONG, "-netdev user,id=n,"
     "domainname=" + LONG + ": 'domainname' parameter cannot exceed 255 "
     "bytes"),
    ("-netdev", "user,id=n,hostname=" + LONG, "-netdev user,id=n,hostname=" +
     LONG + ": 'vhostname' parameter cannot exceed 255 bytes"),
    ("-netdev", "user,id=n,smb=/tmp,smbserver=x", "-netdev user,id=n,"
     "smb=/tmp,smbserver=x: Failed to parse SMB address"),
    # user: forwarding rules
    ("-netdev", "user,id=n,hostfwd=foo", "-netdev user,id=n,hostfwd=foo: "
     "Invalid host forwarding rule 'foo' (No : separators)"),
    ("-netdev", "user,id=n,hostfwd=sctp::5555-:22", "-netdev user,id=n,"
     "hostfwd=sctp::5555-:22: Invalid host forwarding rule 'sctp::5555-:22' "
     "(Bad protocol name)"),
    ("-netdev", "user,id=n,hostfwd=tcp:", "-netdev user,id=n,hostfwd=tcp:: "
     "Invalid host forwarding rule 'tcp:' (Missing : separator)"),
    ("-netdev", "user,id=n,hostfwd=tcp::", "-netdev user,id=n,hostfwd=tcp::: "
     "Invalid host forwarding rule 'tcp::' (Bad host port separator)"),
    ("-netdev", "user,id=n,hostfwd=tcp::x-:22", "-netdev user,id=n,"
     "hostfwd=tcp::x-:22: Invalid host forwarding rule 'tcp::x-:22' (Bad "
     "host port)"),
    ("-netdev", "user,id=n,hostfwd=tcp::65536-:22", "-netdev user,id=n,"
     "hostfwd=tcp::65536-:22: Invalid host forwarding rule 'tcp::65536-:22' "
     "(Bad host port)"),
    ("-netdev", "user,id=n,hostfwd=tcp:localhost:1-:2", "-netdev user,id=n,"
     "hostfwd=tcp:localhost:1-:2: Invalid host forwarding rule "
     "'tcp:localhost:1-:2' (Bad host address)"),
    ("-netdev", "user,id=n,hostfwd=tcp:bad:x", "-netdev user,id=n,"
     "hostfwd=tcp:bad:x: Invalid host forwarding rule 'tcp:bad:x' (Bad host "
     "address)"),
    ("-netdev", "user,id=n,hostfwd=tcp::1-", "-netdev user,id=n,"
     "hostfwd=tcp::1-: Invalid host forwarding rule 'tcp::1-' (Missing guest "
     "address)"),
    ("-netdev", "user,id=n,hostfwd=tcp::1-bad:5", "-netdev user,id=n,"
     "hostfwd=tcp::1-bad:5: Invalid host forwarding rule 'tcp::1-bad:5' (Bad "
     "guest address)"),
    ("-netdev", "user,id=n,hostfwd=tcp::1-:0", "-netdev user,id=n,"
     "hostfwd=tcp::1-:0: Invalid host forwarding rule 'tcp::1-:0' (Bad guest "
     "port)"),
    ("-netdev", "user,id=n,hostfwd=tcp::1-:22x", "-netdev user,id=n,"
     "hostfwd=tcp::1-:22x: Invalid host forwarding rule 'tcp::1-:22x' (Bad "
     "guest port)"),
    ("-netdev", "user,id=n,hostfwd=tcp:127.0.0.1:45721-:22,hostfwd=tcp:"
     "127.0.0.1:45721-:23", "-netdev user,id=n,hostfwd=tcp:127.0.0.1:45721-"
     ":22,hostfwd=tcp:127.0.0.1:45721-:23: Could not set up host forwarding "
     "rule 'tcp:127.0.0.1:45721-:22'"),
    ("-netdev", "user,id=n,guestfwd=foo", "-netdev user,id=n,guestfwd=foo: "
     "Invalid guest forwarding rule 'foo'"),
    # QEMU sets guestfwd rules up before hostfwd ones, the last one first
    ("-netdev", "user,id=n,hostfwd=foo,guestfwd=foo", "-netdev user,id=n,"
     "hostfwd=foo,guestfwd=foo: Invalid guest forwarding rule 'foo'"),
    ("-netdev", "user,id=n,hostfwd=tcp::1-:2,hostfwd=foo,hostfwd=bar",
     "-netdev user,id=n,hostfwd=tcp::1-:2,hostfwd=foo,hostfwd=bar: Invalid "
     "host forwarding rule 'bar' (No : separators)"),
    ("-netdev", "user,id=n,guestfwd=udp:10.0.2.100:80-cmd:cat", "-netdev "
     "user,id=n,guestfwd=udp:10.0.2.100:80-cmd:cat: Invalid guest forwarding "
     "rule 'udp:10.0.2.100:80-cmd:cat'"),
    ("-netdev", "user,id=n,guestfwd=tcp:10.0.2.100:0-cmd:cat", "-netdev "
     "user,id=n,guestfwd=tcp:10.0.2.100:0-cmd:cat: Invalid guest forwarding "
     "rule 'tcp:10.0.2.100:0-cmd:cat'"),
    ("-netdev", "user,id=n,guestfwd=tcp:10.0.2.100:80", "-netdev user,id=n,"
     "guestfwd=tcp:10.0.2.100:80: Invalid guest forwarding rule "
     "'tcp:10.0.2.100:80'"),
    ("-netdev", "user,id=n,guestfwd=tcp:10.0.3.100:80-cmd:cat", "-netdev "
     "user,id=n,guestfwd=tcp:10.0.3.100:80-cmd:cat: Conflicting/invalid "
     "host:port in guest forwarding rule 'tcp:10.0.3.100:80-cmd:cat'"),
    ("-netdev", "user,id=n,guestfwd=tcp:10.0.2.2:80-cmd:cat", "-netdev user,"
     "id=n,guestfwd=tcp:10.0.2.2:80-cmd:cat: Conflicting/invalid host:port "
     "in guest forwarding rule 'tcp:10.0.2.2:80-cmd:cat'"),
    ("-netdev", "user,id=n,guestfwd=tcp:10.0.2.100:80-chardev:nochr",
     "-netdev user,id=n,guestfwd=tcp:10.0.2.100:80-chardev:nochr: Could not "
     "open guest forwarding device 'guestfwd.tcp.80'"),
    # tap: what fails before any interface is opened
    ("-netdev", "tap,id=t,fd=abc",
     "-netdev tap,id=t,fd=abc: Invalid file descriptor number 'abc'"),
    ("-netdev", "tap,id=t,fd=99", "-netdev tap,id=t,fd=99: t: Can't use "
     "file descriptor 99: Bad file descriptor"),
    ("-netdev", "tap,id=t,fd=0", "-netdev tap,id=t,fd=0: Unable to query "
     "TUNGETIFF on FD 0: Inappropriate ioctl for device"),
    ("-netdev", "tap,id=t,fd=3,ifname=x", "-netdev tap,id=t,fd=3,ifname=x: "
     "ifname=, script=, downscript=, vnet_hdr=, helper=, queues=, fds=, and "
     "vhostfds= are invalid with fd="),
    ("-netdev", "tap,id=t,fd=3,script=no", "-netdev tap,id=t,fd=3,script=no: "
     "ifname=, script=, downscript=, vnet_hdr=, helper=, queues=, fds=, and "
     "vhostfds= are invalid with fd="),
    ("-netdev", "tap,id=t,fds=99", "-netdev tap,id=t,fds=99: t: Can't use "
     "file descriptor 99: Bad file descriptor"),
    ("-netdev", "tap,id=t,ifname=x,script=no,downscript=no,vhostfds=5:6",
     "-netdev tap,id=t,ifname=x,script=no,downscript=no,vhostfds=5:6: "
     "vhostfds= is invalid if fds= wasn't specified"),
    # -nic and -net: what is checked before the NIC
    ("-nic", "bogus", "-nic bogus: Parameter 'type' does not accept value "
     "'bogus'"),
    ("-nic", "user,mac=zz", "-nic user,mac=zz: invalid syntax for ethernet "
     "address"),
    ("-nic", "user,foo=bar", "-nic user,foo=bar: Invalid parameter 'foo'"),
    ("-net", "bogus", "-net bogus: Parameter 'type' does not accept value "
     "'bogus'"),
]

# This build's own refusals (the reason is in docs/network.md)
OWN = [
    ("-nic", "user", "-nic user: NIC devices are not available in this "
     "build yet: -nic needs a NIC (model e1000); use -netdev for the "
     "backend"),
    ("-nic", "user,model=virtio-net-pci,mac=52:54:00:12:34:56",
     "needs a NIC (model virtio-net-pci)"),
    ("-net", "nic", "-net nic: -net nic is not supported by this build (it "
     "needs QEMU's hubs and NIC devices): use -netdev"),
    ("-net", "user", "-net user: -net user is not supported by this build"),
    ("-netdev", "tap,id=t,ifname=qkx0", "-netdev tap,id=t,ifname=qkx0: "
     "network script /etc/qemu-ifup: running network scripts is not "
     "supported by this build (use script=no,downscript=no)"),
    ("-netdev", "tap,id=t,script=no,downscript=/etc/qemu-ifdown",
     "network script /etc/qemu-ifdown: running network scripts"),
    ("-netdev", "tap,id=t,helper=/usr/lib/qemu/qemu-bridge-helper",
     "helper= is not supported by this build (it runs QEMU's bridge "
     "helper)"),
    ("-netdev", "tap,id=t,ifname=x,script=no,downscript=no,queues=2",
     "queues=2: multiqueue tap is not supported by this build (one queue "
     "only)"),
    ("-netdev", "tap,id=t,fds=3:4", "fds=3:4: multiqueue tap is not "
     "supported by this build (one queue only)"),
    ("-netdev", "user,id=n,smb=/tmp", "-netdev user,id=n,smb=/tmp: "),
]

# QMP requests whose replies equal QEMU 7.2's, in order, on one monitor
QMP_SAME = [
    ("netdev_add", {"type": "user", "id": "n1"}),
    ("netdev_add", {"type": "user", "id": "n1"}),
    ("netdev_add", {"type": "user"}),
    ("netdev_add", {"id": "x"}),
    ("netdev_add", {"type": "bogus", "id": "x"}),
    ("netdev_add", {"type": "user", "id": "x", "foo": 1}),
    ("netdev_add", {"type": "user", "id": "x", "restrict": "on"}),
    ("netdev_add", {"type": "user", "id": "1x"}),
    ("netdev_add", {"type": "none", "id": "x"}),
    ("netdev_add", {"type": "nic", "id": "x"}),
    ("netdev_add", {"type": "user", "id": "x2", "hostfwd": [{"str": "bad"}]}),
    ("netdev_add", {"type": "user", "id": "x3", "hostfwd": [{"s": "bad"}]}),
    ("netdev_add", {"type": "user", "id": "x4", "net": "10.0.2.0/40"}),
    ("netdev_add", {"type": "tap", "id": "t1", "fd": "abc"}),
    ("netdev_add", {"type": "tap", "id": "t1", "fd": 3}),
    ("netdev_add", {"type": "user", "id": "n5", "restrict": True,
                    "ipv6": False, "dnssearch": [{"str": "example.org"}],
                    "domainname": "example.org", "hostname": "guest"}),
    ("netdev_del", {"id": "n1"}),
    ("netdev_del", {"id": "n1"}),
    ("netdev_del", {}),
    ("netdev_del", {"id": "n5", "x": 1}),
    ("netdev_del", {"id": "n5"}),
]

results = []


def ok(cond, name, detail=""):
    results.append(cond)
    print(f"{'ok' if cond else 'not ok'} {len(results)} - {name}"
          + (f" # {detail}" if detail and not cond else ""))
    if not cond and detail:
        for line in str(detail).splitlines():
            print(f"#   {line}")


def run(binary, args, timeout=20):
    p = subprocess.run([binary] + BASE + args, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=timeout)
    return p.returncode, p.stderr.decode(errors="replace")


def have_72():
    return os.access(QEMU72, os.X_OK)


# Two options, QEMU 7.2's first error line
SAME_AS_72_MULTI = [
    (["-netdev", "user,id=a", "-netdev", "user,id=a"],
     "-netdev user,id=a: Duplicate ID 'a' for netdev"),
    (["-netdev", "user,id=a", "-netdev", '{"type":"user","id":"a"}'],
     "-netdev user,id=a: Duplicate ID 'a'"),
]


def cli_cases():
    for args, want in SAME_AS_72_MULTI:
        for binary, who in [(BINARY, "")] + ([(QEMU72, "/qemu72")]
                                             if have_72() else []):
            rc, err = run(binary, args)
            line = "qemu-system-x86_64: " + want
            ok(rc == 1 and err.splitlines()[:1] == [line],
               f"netdev/cli/{' '.join(args)}{who}",
               f"status {rc}, stderr: {err.strip()}")
    for opt, arg, want in SAME_AS_72:
        name = f"netdev/cli/{opt}/{arg[:40]}"
        rc, err = run(BINARY, [opt, arg])
        line = "qemu-system-x86_64: " + want
        ok(rc == 1 and line in err.splitlines(), name,
           f"status {rc}, stderr: {err.strip()}")
        if have_72():
            rc72, err72 = run(QEMU72, [opt, arg])
            ok(rc72 == 1 and line in err72.splitlines(), name + "/qemu72",
               f"QEMU 7.2: status {rc72}, stderr: {err72.strip()}")
    for opt, arg, want in OWN:
        rc, err = run(BINARY, [opt, arg])
        ok(rc == 1 and want in err, f"netdev/cli-own/{opt}/{arg[:40]}",
           f"status {rc}, stderr: {err.strip()}")


def qmp_replies(binary):
    replies = []
    with Machine(binary, BASE) as m:
        for name, args in QMP_SAME:
            r = m.cmd_raw(name, args)
            replies.append(r.get("error", {"return": r.get("return")}))
    return replies


def qmp_cases():
    ours = qmp_replies(BINARY)
    if have_72():
        theirs = qmp_replies(QEMU72)
        for (name, args), a, b in zip(QMP_SAME, ours, theirs):
            ok(a == b, f"netdev/qmp/{name}/{json.dumps(args)[:50]}",
               f"this build: {a}\nQEMU 7.2: {b}")
    else:
        print("# SKIP QEMU 7.2 not installed: QMP replies not compared")
    # Whatever 7.2 says, a deleted netdev is gone and a new one may take
    # its id
    with Machine(BINARY, BASE) as m:
        m.cmd("netdev_add", {"type": "user", "id": "again"})
        m.cmd("netdev_del", {"id": "again"})
        r = m.cmd_raw("netdev_add", {"type": "user", "id": "again"})
        ok(r.get("return") == {}, "netdev/qmp/re-add-after-del", r)


def schema_cases():
    with Machine(BINARY, BASE) as m:
        schema = {e["name"]: e for e in m.cmd("query-qmp-schema")}
    add = schema["netdev_add"]
    arg = schema[add["arg-type"]]
    ok(arg["meta-type"] == "object" and arg.get("tag") == "type",
       "netdev/schema/netdev_add-is-the-Netdev-union", arg)
    members = {m["name"]: m for m in arg["members"]}
    enum = schema.get(members.get("type", {}).get("type"), {})
    ok(enum.get("values") == ["none", "nic", "user", "tap"],
       "netdev/schema/types", enum.get("values"))
    # libvirt writes -netdev as JSON only where netdev_add takes "dgram"
    ok("dgram" not in enum.get("values", []),
       "netdev/schema/no-dgram-so-libvirt-uses-key-value")
    cases = {v["case"]: schema[v["type"]] for v in arg["variants"]}
    user = {m["name"] for m in cases["user"]["members"]}
    ok({"hostfwd", "guestfwd", "restrict", "net", "dnssearch"} <= user,
       "netdev/schema/user-members", sorted(user))
    tap = {m["name"] for m in cases["tap"]["members"]}
    ok({"fd", "fds", "ifname", "vhost", "vhostfd", "vnet_hdr"} <= tap,
       "netdev/schema/tap-members", sorted(tap))


def peer_warning_cases():
    qmp_in = ('{"execute":"qmp_capabilities"}\n'
              '{"execute":"query-status"}\n{"execute":"quit"}\n')
    for binary, who in [(BINARY, "")] + ([(QEMU72, "/qemu72")]
                                         if have_72() else []):
        p = subprocess.run([binary] + BASE + ["-qmp", "stdio", "-netdev",
                                              "user,id=lonely"],
                           input=qmp_in, capture_output=True, text=True,
                           timeout=20)
        ok(p.returncode == 0 and "qemu-system-x86_64: warning: netdev lonely "
           "has no peer" in p.stderr.splitlines(),
           "netdev/no-peer-warning" + who, p.stderr)
    out = subprocess.run([BINARY, "-netdev", "help"], capture_output=True,
                         text=True).stdout
    ok(out.startswith("Available netdev backend types:\nuser\ntap"),
       "netdev/help", out)


def hmp_text(binary):
    with Machine(binary, BASE) as m:
        m.cmd("netdev_add", {"type": "user", "id": "x4",
                             "net": "10.0.5.0/24", "restrict": True})
        m.cmd("netdev_add", {"type": "user", "id": "n5", "hostfwd": [
            {"str": "tcp:127.0.0.1:%d-:22" % (45800 + os.getpid() % 100)}]})
        net = m.cmd("human-monitor-command",
                    {"command-line": "info network"})
        usernet = m.cmd("human-monitor-command",
                        {"command-line": "info usernet"})
    # the FD column is the host's fd number: not comparable
    usernet = "\n".join(line[:20] + line[24:] if "HOST_FORWARD" in line
                         else line for line in usernet.split("\n"))
    return net, usernet


def hmp_cases():
    net, usernet = hmp_text(BINARY)
    ok(net == "x4: index=0,type=user,net=10.0.5.0,restrict=on\r\n"
       "n5: index=0,type=user,net=10.0.2.0,restrict=off\r\n",
       "netdev/hmp/info-network", repr(net))
    ok("TCP[HOST_FORWARD]" in usernet and "Hub -1 (n5):" in usernet,
       "netdev/hmp/info-usernet", repr(usernet))
    if have_72():
        net72, usernet72 = hmp_text(QEMU72)
        ok(net == net72, "netdev/hmp/info-network/qemu72",
           f"this build: {net!r}\nQEMU 7.2: {net72!r}")
        ok(usernet == usernet72, "netdev/hmp/info-usernet/qemu72",
           f"this build: {usernet!r}\nQEMU 7.2: {usernet72!r}")


def main():
    hmp_cases()
    cli_cases()
    qmp_cases()
    schema_cases()
    peer_warning_cases()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
