#!/usr/bin/env python3
"""Writes the seed corpus of the net-frames fuzz target.

    tests/fuzz/gen-net-seeds.py tests/fuzz/corpus/net-frames

Each seed is a sequence of frames (16-bit big-endian length, bytes) that
a guest at 10.0.2.15 (MAC 52:54:00:12:34:56) could send to -netdev user,
plus frames slirp's side could send the guest's stack: ARP, DHCP, ICMP,
UDP, TCP handshakes and their broken variants.  Only slirp's own
addresses (10.0.2.2, .3) and the guest's are used.
"""

import os
import struct
import sys

GUEST_MAC = bytes.fromhex("525400123456")
SLIRP_MAC = bytes.fromhex("525500000202")
BCAST = b"\xff" * 6
GUEST = bytes([10, 0, 2, 15])
HOST = bytes([10, 0, 2, 2])
DNS = bytes([10, 0, 2, 3])
ZERO = bytes(4)
ALL = b"\xff" * 4


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def eth(dst, src, typ, payload):
    return dst + src + struct.pack("!H", typ) + payload


def ipv4(src, dst, proto, payload, flags=0x4000, ihl=5, opts=b""):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, 4 * ihl + len(payload),
                      1, flags, 64, proto, 0, src, dst) + opts
    hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
    return hdr + payload


def udp(src, dst, sport, dport, data):
    seg = struct.pack("!HHHH", sport, dport, 8 + len(data), 0) + data
    ph = src + dst + struct.pack("!BBH", 0, 17, len(seg))
    return seg[:6] + struct.pack("!H", csum(ph + seg) or 0xffff) + seg[8:]


def tcp(src, dst, sport, dport, seq, ack, flags, data=b"", opts=b""):
    off = (20 + len(opts)) // 4
    seg = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, off << 4, flags,
                      8192, 0, 0) + opts + data
    ph = src + dst + struct.pack("!BBH", 0, 6, len(seg))
    return seg[:16] + struct.pack("!H", csum(ph + seg)) + seg[18:]


def icmp_echo(ident, data):
    msg = struct.pack("!BBHHH", 8, 0, 0, ident, 1) + data
    return msg[:2] + struct.pack("!H", csum(msg)) + msg[4:]


def arp(op, smac, sip, tmac, tip):
    return struct.pack("!HHBBH", 1, 0x0800, 6, 4, op) + smac + sip + tmac + tip


def dhcp(op, msgtype, xid, yiaddr=ZERO, opts=b""):
    m = struct.pack("!BBBBIHH", op, 1, 6, 0, xid, 0, 0x8000)
    m += ZERO + yiaddr + ZERO + ZERO + GUEST_MAC + bytes(10) + bytes(192)
    m += struct.pack("!I", 0x63825363) + bytes([53, 1, msgtype]) + opts
    return m + b"\xff"


def frames(*fs):
    return b"".join(struct.pack("!H", len(f)) + f for f in fs)


def guest_ip(dst, proto, payload, **kw):
    return eth(SLIRP_MAC, GUEST_MAC, 0x0800, ipv4(GUEST, dst, proto, payload,
                                                  **kw))


def to_guest(proto, payload, src=HOST):
    return eth(GUEST_MAC, SLIRP_MAC, 0x0800, ipv4(src, GUEST, proto, payload))


def seeds():
    arp_req = eth(BCAST, GUEST_MAC, 0x0806,
                  arp(1, GUEST_MAC, GUEST, bytes(6), HOST))
    discover = eth(BCAST, GUEST_MAC, 0x0800,
                   ipv4(ZERO, ALL, 17, udp(ZERO, ALL, 68, 67,
                                           dhcp(1, 1, 0x12345678))))
    request = eth(BCAST, GUEST_MAC, 0x0800,
                  ipv4(ZERO, ALL, 17, udp(ZERO, ALL, 68, 67, dhcp(
                      1, 3, 0x12345678,
                      opts=bytes([50, 4]) + GUEST + bytes([54, 4]) + HOST))))
    offer_opts = (bytes([1, 4, 255, 255, 255, 0, 3, 4]) + HOST +
                  bytes([6, 4]) + DNS + bytes([54, 4]) + HOST +
                  bytes([51, 4, 0, 1, 81, 128]))
    offer = eth(BCAST, SLIRP_MAC, 0x0800,
                ipv4(HOST, ALL, 17, udp(HOST, ALL, 67, 68,
                                        dhcp(2, 2, 0x12345678, GUEST,
                                             offer_opts))))
    bad_opts = eth(BCAST, SLIRP_MAC, 0x0800,
                   ipv4(HOST, ALL, 17, udp(HOST, ALL, 67, 68,
                                           dhcp(2, 2, 0x12345678, GUEST,
                                                bytes([1, 200, 3])))))
    syn = guest_ip(HOST, 6, tcp(GUEST, HOST, 40000, 8080, 1000, 0, 0x02,
                                opts=bytes([2, 4, 5, 0xb4])))
    syn_in = to_guest(6, tcp(HOST, GUEST, 51000, 80, 5000, 0, 0x02,
                             opts=bytes([2, 4, 5, 0xb4, 1, 1, 0])))
    ack_in = to_guest(6, tcp(HOST, GUEST, 51000, 80, 5001, 1, 0x10))
    data_in = to_guest(6, tcp(HOST, GUEST, 51000, 80, 5001, 1, 0x18,
                              b"GET / HTTP/1.0\r\n\r\n"))
    fin_in = to_guest(6, tcp(HOST, GUEST, 51000, 80, 5019, 1, 0x11))
    rst_in = to_guest(6, tcp(HOST, GUEST, 51000, 80, 5001, 0, 0x04))
    ping = guest_ip(HOST, 1, icmp_echo(7, b"abcdefgh" * 4))
    ping_in = to_guest(1, icmp_echo(9, b"ping" * 8))
    dns_q = guest_ip(DNS, 17, udp(GUEST, DNS, 5353, 53,
                                  b"\x12\x34\x01\x00\x00\x01" + bytes(6) +
                                  b"\x07example\x03com\x00\x00\x01\x00\x01"))
    frag = guest_ip(HOST, 17, udp(GUEST, HOST, 1, 2, b"x" * 40),
                    flags=0x2000)
    ip_opts = guest_ip(HOST, 1, icmp_echo(1, b"o"), ihl=6, opts=b"\x01" * 4)
    ipv6 = eth(SLIRP_MAC, GUEST_MAC, 0x86dd,
               bytes([0x60, 0, 0, 0, 0, 8, 17, 64]) + bytes(32) + bytes(8))
    yield "arp-request", frames(arp_req)
    yield "dhcp-discover-request", frames(discover, request)
    yield "dhcp-offer-to-stack", frames(offer)
    yield "dhcp-bad-option-length", frames(bad_opts)
    yield "tcp-syn-to-host", frames(arp_req, syn)
    yield "tcp-passive-open-data-fin", frames(syn_in, ack_in, data_in,
                                              fin_in)
    yield "tcp-rst", frames(syn_in, rst_in)
    yield "icmp-echo-both-ways", frames(ping, ping_in)
    yield "udp-dns-query", frames(dns_q)
    yield "ip-fragment-and-options", frames(frag, ip_opts)
    yield "ipv6-udp", frames(ipv6)
    yield "truncated", frames(syn[:30], ping[:20], arp_req[:16], b"",
                              discover[:300])
    yield "runt-and-jumbo", frames(b"\x01", bytes(9000))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fuzz/corpus/net-frames"
    os.makedirs(out, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
