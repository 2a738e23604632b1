#!/usr/bin/env python3
"""Writes the synthetic hosts generous.host and generous-amd.host.

generous.host: a Sapphire-Rapids-like Intel host whose KVM offers every
CPUID and feature-MSR bit that any named CPU model of this tree uses (so no
model loses a feature to filtering).  generous-amd.host (--amd): an
EPYC-Milan-like AMD host (family 0x19 model 1) whose KVM offers every bit
the AMD-vendor models use (EPYC*, Opteron*, phenom, athlon, qemu64/qemu32,
Dhyana), with AMD's leaf layout: no leaf 4, the L1/L2/L3 leaves
0x80000005/6, cache topology 0x8000001D, 0x8000001E, the SVM leaf
0x8000000A and 0x80000001.EDX repeating leaf 1's aliased bits, as AMD
hardware reports them.  Intel-only models lose their Intel-only features
on it, as on a real AMD host.  Both offer the KVM PV leaf 0x40000001.EAX =
0x01007efb and Hyper-V capabilities.

Run once, from the top of the tree after a build; the output is committed:

    tests/data/hosts/make-generous.py build/tools/cpuid-table \\
        > tests/data/hosts/generous.host
    tests/data/hosts/make-generous.py --amd build/tools/cpuid-table \\
        > tests/data/hosts/generous-amd.host

The feature bits come from the tool itself: every named model (all
versions, from `qemu-system-x86_64 -cpu help`) is expanded under
-accel qtest, where nothing is filtered, and the "on" bits are OR-ed per
feature word.  VMX capability MSRs are left out: no model has `vmx`, so
their vmx-* bits are dropped by dependency anyway.  The rest (identity,
cache and topology leaves, XSAVE layout) is written out below by hand.
"""

import os
import subprocess
import sys

AMD = "--amd" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--amd"]
TOOL = ARGS[0] if ARGS else "build/tools/cpuid-table"
EMULATOR = os.path.join(os.path.dirname(os.path.dirname(TOOL)),
                        "qemu-system-x86_64")

KVM_PV_EAX = 0x01007efb
REGS = {"eax": 0, "ebx": 1, "ecx": 2, "edx": 3}


def models():
    out = subprocess.run([EMULATOR, "-cpu", "help"], capture_output=True,
                         text=True, check=True).stdout
    names = [l.split()[1] for l in out.splitlines() if l.startswith("x86 ")]
    return [n for n in names if n not in ("host", "max", "base")]


AMD_VENDORS = ("AuthenticAMD", "HygonGenuine")
# Leaf 1 EDX bits that AMD repeats in 0x80000001.EDX
AMD_ALIASES = 0x0183F3FF


def feature_union(amd_only):
    """OR of the "on" bits of every model (of the AMD-vendor ones only)."""
    argv = [TOOL, "--accel", "qtest", "--machine", "pc-q35-8.0", "--features"]
    for m in models():
        argv += ["--cpu", m]
    out = subprocess.run(argv, capture_output=True, text=True,
                         check=True).stdout
    cpuid, msr = {}, {}
    # One section per model, opened by "# machine M cpu C"; its vendor
    # line comes before its feature lines
    use = True
    for line in out.splitlines():
        f = line.split()
        if f[0] == "#":
            use = not amd_only
            continue
        if f[:2] == ["prop", "vendor"]:
            use = not amd_only or f[2] in AMD_VENDORS
            continue
        if not use:
            continue
        if f[0] == "cpuid" and f[-1] == "on":
            leaf, sub = int(f[1], 16), 0 if f[2] == "-" else int(f[2], 16)
            key = (leaf, sub, REGS[f[3]])
            cpuid[key] = cpuid.get(key, 0) | (1 << int(f[4]))
        elif f[0] == "msr" and f[-1] == "on":
            idx = int(f[1], 16)
            if not 0x480 <= idx <= 0x491:
                msr[idx] = msr.get(idx, 0) | (1 << int(f[2]))
    return cpuid, msr


def brand_words(s):
    b = s.encode().ljust(48, b"\0")
    return [int.from_bytes(b[i:i + 4], "little") for i in range(0, 48, 4)]


def intel_leaves():
    """The per-leaf values by hand: (leaf, subleaf, flags): [eax..edx]"""
    sig = [0x756e6547, 0x6c65746e, 0x49656e69]  # "GenuineIntel" in EBX ECX EDX
    t = {}
    t[(0x0, 0, 0)] = [0x20] + sig
    t[(0x1, 0, 0)] = [0x000806f8, 0x00000800, 0, 0]
    t[(0x2, 0, 0)] = [0x00feff01, 0x000000f0, 0, 0]
    # Deterministic caches: L1d 48K, L1i 32K, L2 2M, L3 105M
    t[(0x4, 0, 1)] = [0x00000121, 0x02c0003f, 0x0000003f, 0]
    t[(0x4, 1, 1)] = [0x00000122, 0x01c0003f, 0x0000003f, 0]
    t[(0x4, 2, 1)] = [0x00000143, 0x03c0003f, 0x000007ff, 0]
    t[(0x4, 3, 1)] = [0x00000163, 0x0380003f, 0x0001ffff, 0x00000004]
    t[(0x4, 4, 1)] = [0, 0, 0, 0]
    t[(0x6, 0, 0)] = [0x00000004, 0, 0, 0]
    t[(0x7, 0, 1)] = [0x00000002, 0, 0, 0]
    t[(0x7, 1, 1)] = [0, 0, 0, 0]
    t[(0x7, 2, 1)] = [0, 0, 0, 0]
    t[(0xb, 0, 1)] = [0, 0, 0x00000100, 0]
    t[(0xb, 1, 1)] = [0, 0, 0x00000201, 0]
    # XSAVE: x87, SSE, AVX, MPX (Skylake models), opmask, ZMM_Hi256,
    # Hi16_ZMM, PKRU at the standard offsets.  No AMX: no model has it.
    t[(0xd, 0, 1)] = [0x000002ff, 0x00000a88, 0x00000a88, 0]
    t[(0xd, 1, 1)] = [0, 0, 0, 0]
    for comp, size, off in ((2, 0x100, 0x240), (3, 0x40, 0x3c0),
                            (4, 0x40, 0x400), (5, 0x40, 0x440),
                            (6, 0x200, 0x480), (7, 0x400, 0x680),
                            (9, 0x8, 0xa80)):
        t[(0xd, comp, 1)] = [size, off, 0, 0]
    t[(0x1f, 0, 1)] = [0, 0, 0x00000100, 0]
    t[(0x1f, 1, 1)] = [0, 0, 0x00000201, 0]
    t[(0x40000000, 0, 0)] = [0x40000001, 0x4b4d564b, 0x564b4d56, 0x4d]
    t[(0x40000001, 0, 0)] = [KVM_PV_EAX, 0, 0, 0]
    t[(0x80000000, 0, 0)] = [0x80000008, 0, 0, 0]
    t[(0x80000001, 0, 0)] = [0, 0, 0, 0]
    brand = brand_words("Intel(R) Xeon(R) Platinum 8480+")
    for i in range(3):
        t[(0x80000002 + i, 0, 0)] = brand[4 * i:4 * i + 4]
    t[(0x80000006, 0, 0)] = [0, 0, 0x08007040, 0]
    t[(0x80000007, 0, 0)] = [0, 0, 0, 0x00000100]
    t[(0x80000008, 0, 0)] = [0x0000392e, 0, 0, 0]
    return t, [
        "# Synthetic host: written by tests/data/hosts/make-generous.py",
        "name generous: synthetic Sapphire-Rapids-like Intel host offering "
        "every feature bit the CPU models use",
        "host-vendor GenuineIntel",
        "host-fms 6 143 8",
        "host-model-id Intel(R) Xeon(R) Platinum 8480+",
    ]


def amd_leaves():
    """An EPYC-Milan-like host, AMD's layout: (leaf, subleaf, flags)"""
    sig = [0x68747541, 0x444d4163, 0x69746e65]  # "AuthenticAMD": EBX ECX EDX
    fms = 0x00a00f11                             # family 0x19 model 1 step 1
    t = {}
    t[(0x0, 0, 0)] = [0x10] + sig
    t[(0x1, 0, 0)] = [fms, 0x00000800, 0, 0]
    t[(0x6, 0, 0)] = [0x00000004, 0, 0, 0]
    t[(0x7, 0, 1)] = [0, 0, 0, 0]
    t[(0xb, 0, 1)] = [0x00000001, 0x00000002, 0x00000100, 0]
    t[(0xb, 1, 1)] = [0x00000007, 0x00000080, 0x00000201, 0]
    # XSAVE: x87, SSE, AVX, PKRU (at AMD's offset 0x980)
    t[(0xd, 0, 1)] = [0x00000207, 0x00000988, 0x00000988, 0]
    t[(0xd, 1, 1)] = [0, 0, 0, 0]
    t[(0xd, 2, 1)] = [0x100, 0x240, 0, 0]
    t[(0xd, 9, 1)] = [0x8, 0x980, 0, 0]
    t[(0x40000000, 0, 0)] = [0x40000001, 0x4b4d564b, 0x564b4d56, 0x4d]
    t[(0x40000001, 0, 0)] = [KVM_PV_EAX, 0, 0, 0]
    t[(0x80000000, 0, 0)] = [0x80000021] + sig
    t[(0x80000001, 0, 0)] = [fms, 0x20000000, 0, 0]
    brand = brand_words("AMD EPYC 7763 64-Core Processor")
    for i in range(3):
        t[(0x80000002 + i, 0, 0)] = brand[4 * i:4 * i + 4]
    # L1d/L1i 32K 8-way; L2 512K 8-way; L3 32M 16-way, 64-byte lines
    t[(0x80000005, 0, 0)] = [0xff40ff40, 0xff40ff40, 0x20080140, 0x20080140]
    t[(0x80000006, 0, 0)] = [0x48002200, 0x68004200, 0x02006140, 0x01009140]
    t[(0x80000007, 0, 0)] = [0, 0, 0, 0x00000100]
    t[(0x80000008, 0, 0)] = [0x00003030, 0, 0x0000107f, 0]
    t[(0x8000000a, 0, 0)] = [0x00000001, 0x00008000, 0, 0]
    for sub, v in enumerate(([0x00004121, 0x01c0003f, 0x0000003f, 0],
                             [0x00004122, 0x01c0003f, 0x0000003f, 0],
                             [0x00004143, 0x01c0003f, 0x000003ff, 0x2],
                             [0x0003c163, 0x03c0003f, 0x00007fff, 0x1],
                             [0, 0, 0, 0])):
        t[(0x8000001d, sub, 1)] = v
    t[(0x8000001e, 0, 0)] = [0, 0x00000100, 0, 0]
    t[(0x8000001f, 0, 0)] = [0, 0, 0, 0]
    t[(0x80000021, 0, 0)] = [0, 0, 0, 0]
    return t, [
        "# Synthetic host: written by tests/data/hosts/make-generous.py --amd",
        "name generous-amd: synthetic EPYC-Milan-like AMD host offering "
        "every feature bit the AMD CPU models use",
        "host-vendor AuthenticAMD",
        "host-fms 25 1 1",
        "host-model-id AMD EPYC 7763 64-Core Processor",
    ]


def main():
    feat, msr = feature_union(AMD)
    t, lines = amd_leaves() if AMD else intel_leaves()
    # Every feature bit the models use; leaves KVM lists without a
    # significant index (flags 0) take the bits of subleaf 0.
    for (leaf, sub, reg), bits in feat.items():
        key = next((k for k in t if k[0] == leaf and k[1] == sub), None)
        if key is None:
            key = (leaf, sub, 1 if leaf in (0x7, 0xd, 0x14, 0x12) else 0)
            t[key] = [0, 0, 0, 0]
        t[key][reg] |= bits
    if AMD:
        # AMD hardware repeats these leaf 1 bits in 0x80000001.EDX, and
        # KVM reports what the hardware has
        t[(0x80000001, 0, 0)][3] |= t[(0x1, 0, 0)][3] & AMD_ALIASES
    lines += [
        "tsc-deadline on",
        "hyperv 1",
        "hyperv-cpuid on",
        "hyperv-send-ipi on",
    ]
    for (leaf, sub, flags) in sorted(t, key=lambda k: (k[0] >= 0x40000000 and
                                                      k[0] < 0x80000000,
                                                      k[0], k[1])):
        v = t[(leaf, sub, flags)]
        lines.append(f"cpuid 0x{leaf:08x} 0x{sub:x} 0x{flags:x} " +
                     " ".join(f"0x{x:08x}" for x in v))
    hv = [(0x40000000, [0x4000000a, 0x7263694d, 0x666f736f, 0x76482074]),
          (0x40000001, [0x31237648, 0, 0, 0]),
          (0x40000003, [0x00007fff, 0x00003bff, 0, 0x000bfffe]),
          (0x40000004, [0x00000e2c, 0, 0, 0]),
          (0x40000005, [0xffffffff, 0, 0, 0])]
    for leaf, v in hv:
        lines.append(f"hv-cpuid 0x{leaf:08x} 0x0 " +
                     " ".join(f"0x{x:08x}" for x in v))
    msr.setdefault(0x10a, 0)
    for idx in sorted(msr):
        lines.append(f"msr 0x{idx:x} 0x{msr[idx]:x}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
