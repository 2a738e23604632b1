/*
 * cpuid guest: prints every CPUID leaf and subleaf the vCPU enumerates,
 * one line each:
 *   CPUID 0x00000001 0x00 eax=0x... ebx=0x... ecx=0x... edx=0x...
 * then the KVM feature summary and CPUID-DONE.  With `all-cpus` every vCPU
 * prints the same, each line prefixed with "cpu N: ".
 */
#include "lib.h"

const char guest_name[] = "cpuid";

static const char *prefix_for(int cpu, char *buf, size_t size)
{
    if (cpu < 0) {
        buf[0] = 0;
    } else {
        snprintf(buf, size, "cpu %d: ", cpu);
    }
    return buf;
}

static void leaf(const char *pfx, u32 l, u32 sub)
{
    struct cpuid_regs r = cpuid2(l, sub);
    printf("%sCPUID 0x%08x 0x%02x eax=0x%08x ebx=0x%08x ecx=0x%08x edx=0x%08x\n",
           pfx, l, sub, r.eax, r.ebx, r.ecx, r.edx);
}

/* Subleaves 0.. up to and including the first whose `done` test holds. */
static void until(const char *pfx, u32 l, u32 reg, u32 mask)
{
    for (u32 sub = 0; sub < 64; sub++) {
        struct cpuid_regs r = cpuid2(l, sub);
        u32 v = reg == 0 ? r.eax : reg == 2 ? r.ecx : r.ebx;
        leaf(pfx, l, sub);
        if (!(v & mask)) {
            break;
        }
    }
}

static void range(const char *pfx, u32 first, u32 max)
{
    for (u32 sub = 0; sub <= max && sub < 64; sub++) {
        leaf(pfx, first, sub);
    }
}

static void basic_leaf(const char *pfx, u32 l)
{
    struct cpuid_regs r;
    switch (l) {
    case 4:     /* deterministic cache parameters: until type 0 */
        until(pfx, l, 0, 0x1f);
        break;
    case 7:     /* subleaf count in 7.0 EAX */
    case 0x14:  /* processor trace */
    case 0x17:  /* SoC vendor */
    case 0x18:  /* TLB parameters */
    case 0x1d:  /* tile info */
    case 0x20:  /* HRESET */
        range(pfx, l, cpuid2(l, 0).eax);
        break;
    case 0xb:   /* topology: until level type 0 */
    case 0x1f:
        until(pfx, l, 2, 0xff00);
        break;
    case 0xd: { /* XSAVE: 0, 1 and each component of XCR0 | IA32_XSS */
        struct cpuid_regs s0 = cpuid2(l, 0), s1 = cpuid2(l, 1);
        u64 mask = ((u64)(s0.edx | s1.edx) << 32) | s0.eax | s1.ecx;
        leaf(pfx, l, 0);
        leaf(pfx, l, 1);
        for (u32 sub = 2; sub < 64; sub++) {
            if (mask & (1ull << sub)) {
                leaf(pfx, l, sub);
            }
        }
        break;
    }
    case 0xf:   /* RDT monitoring: 0 and resource 1 */
        leaf(pfx, l, 0);
        if (cpuid2(l, 0).edx & 2) {
            leaf(pfx, l, 1);
        }
        break;
    case 0x10:  /* RDT allocation: 0 and each resource id in EBX */
        r = cpuid2(l, 0);
        leaf(pfx, l, 0);
        for (u32 sub = 1; sub < 32; sub++) {
            if (r.ebx & (1u << sub)) {
                leaf(pfx, l, sub);
            }
        }
        break;
    case 0x12:  /* SGX: 0, 1, then EPC sections until type 0 */
        if (cpuid2(7, 0).ebx & (1u << 2)) {
            leaf(pfx, l, 0);
            leaf(pfx, l, 1);
            for (u32 sub = 2; sub < 64; sub++) {
                leaf(pfx, l, sub);
                if (!(cpuid2(l, sub).eax & 0xf)) {
                    break;
                }
            }
        } else {
            leaf(pfx, l, 0);
        }
        break;
    default:
        leaf(pfx, l, 0);
        break;
    }
}

static void dump(int cpu)
{
    char pfx[16];
    prefix_for(cpu, pfx, sizeof(pfx));

    u32 max = cpuid(0).eax;
    if (max > 0xff) {
        max = 0xff;
    }
    for (u32 l = 0; l <= max; l++) {
        basic_leaf(pfx, l);
    }

    /* hypervisor range; the Hyper-V range is followed by KVM's at +0x100 */
    u32 hmax = cpuid(0x40000000).eax;
    leaf(pfx, 0x40000000, 0);
    if (hmax > 0x40000000 && hmax <= 0x400000ff) {
        for (u32 l = 0x40000001; l <= hmax; l++) {
            leaf(pfx, l, 0);
        }
        if (cpuid(0x40000001).eax == 0x31237648) { /* "Hv#1" */
            u32 kmax = cpuid(0x40000100).eax;
            leaf(pfx, 0x40000100, 0);
            if (kmax > 0x40000100 && kmax <= 0x400001ff) {
                for (u32 l = 0x40000101; l <= kmax; l++) {
                    leaf(pfx, l, 0);
                }
            }
        }
    }

    u32 emax = cpuid(0x80000000).eax;
    if (emax >= 0x80000000 && emax <= 0x800000ff) {
        for (u32 l = 0x80000000; l <= emax; l++) {
            if (l == 0x8000001d) { /* AMD cache topology: until type 0 */
                until(pfx, l, 0, 0x1f);
            } else if (l == 0x80000020) { /* AMD PQoS: 0 and each resource */
                struct cpuid_regs r = cpuid(l);
                leaf(pfx, l, 0);
                for (u32 sub = 1; sub < 32; sub++) {
                    if (r.ebx & (1u << sub)) {
                        leaf(pfx, l, sub);
                    }
                }
            } else {
                leaf(pfx, l, 0);
            }
        }
    }

    u32 cmax = cpuid(0xc0000000).eax;
    if (cmax >= 0xc0000000 && cmax <= 0xc00000ff) {
        for (u32 l = 0xc0000000; l <= cmax; l++) {
            leaf(pfx, l, 0);
        }
    }
    print_kvm_features(pfx);
}

static void ap_dump(int cpu)
{
    spin_lock(&print_lock);
    dump(cpu);
    spin_unlock(&print_lock);
}

int guest_main(void)
{
    if (!cmdline_has("all-cpus")) {
        dump(-1);
        printf("CPUID-DONE\n");
        return 0;
    }
    int expected = smp_expected_cpus();
    spin_lock(&print_lock);
    dump(cpu_index_of_apic(cpu_apic_id()));
    spin_unlock(&print_lock);
    int got = smp_run_aps(ap_dump, expected);
    spin_lock(&print_lock);
    if (expected > 0 && got < expected) {
        printf("CPUID-TIMEOUT expected=%d got=%d\n", expected, got);
        return 1;
    }
    printf("CPUID-DONE cpus=%d\n", got);
    return 0;
}
