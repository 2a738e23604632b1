/*
 * pv-msr guest: writes each KVM paravirtual MSR with a valid value and
 * reports, per MSR, whether the host accepted it or raised #GP:
 *   MSR pv-eoi 0x4b564d04 accepted
 *   MSR steal-time 0x4b564d03 gp
 * (followed by cpuid=<feature>:on|off, the gating KVM CPUID bit),
 * then disables whatever it enabled, prints the KVM CPUID bits and
 * PV-MSR-DONE.  With kvm-pv-enforce-cpuid=on the host refuses the MSRs whose
 * CPUID feature bit the machine type withheld.
 *
 * With `hypercalls` on the command line it also makes the KVM hypercalls
 * that the PV features without an MSR are (harmless forms: a kick and a
 * directed yield to itself, a send-IPI to nobody) and prints
 *   HC send-ipi 10 ret=0 cpuid=kvm-pv-ipi:on
 *   HC sched-yield 11 ret=-1000 cpuid=kvm-pv-sched-yield:off
 * With kvm-pv-enforce-cpuid=on KVM answers -KVM_ENOSYS (-1000) to a
 * hypercall whose CPUID bit is off.  Only where vmcall returns: on PVM
 * hosts it never does, so the test leaves the word out there.
 */
#include "lib.h"

const char guest_name[] = "pv-msr";

#define KVM_MSR_ENABLED 1
#define KVM_ASYNC_PF_DELIVERY_AS_INT (1u << 3)
#define KVM_FEATURE_ASYNC_PF_INT 14

/* Guest memory the host may write into (one page each). */
static u8 wall_clock_page[4096] __attribute__((aligned(4096)));
static u8 system_time_page[4096] __attribute__((aligned(4096)));
static u8 async_pf_page[4096] __attribute__((aligned(4096)));
static u8 steal_time_page[4096] __attribute__((aligned(4096)));
static u8 pv_eoi_page[4096] __attribute__((aligned(4096)));

#define KVM_HC_KICK_CPU 5
#define KVM_HC_SEND_IPI 10
#define KVM_HC_SCHED_YIELD 11
#define KVM_FEATURE_PV_UNHALT 7
#define KVM_FEATURE_PV_SEND_IPI 11
#define KVM_FEATURE_PV_SCHED_YIELD 13
#define KVM_ENOSYS 1000

/* KVM's hypercall ABI: number in EAX, arguments EBX, ECX, EDX, ESI */
static s32 kvm_hypercall(bool amd, u32 nr, u32 a0, u32 a1, u32 a2, u32 a3)
{
    u32 ret = nr;

    if (amd) {
        __asm__ volatile("vmmcall" : "+a"(ret)
                         : "b"(a0), "c"(a1), "d"(a2), "S"(a3) : "memory");
    } else {
        __asm__ volatile("vmcall" : "+a"(ret)
                         : "b"(a0), "c"(a1), "d"(a2), "S"(a3) : "memory");
    }
    return (s32)ret;
}

static const char *kvm_feature_name(int bit)
{
    for (int k = 0; k < kvm_feature_count; k++) {
        if (kvm_feature_names[k].bit == bit) {
            return kvm_feature_names[k].name;
        }
    }
    return "?";
}

/* Returns the number of mismatches between the outcome and the CPUID bit */
static int probe_hypercalls(u32 features)
{
    struct cpuid_regs v = cpuid(0);
    bool amd = v.ebx == 0x68747541; /* "Auth"enticAMD */
    u32 apic_id = cpuid(1).ebx >> 24;
    const struct {
        const char *name;
        u32 nr, a0, a1, a2, a3;
        int feature_bit;
    } calls[] = {
        /* Kick (PV unhalt): a0 flags, a1 the APIC id to wake */
        { "kick-cpu", KVM_HC_KICK_CPU, 0, apic_id, 0, 0,
          KVM_FEATURE_PV_UNHALT },
        /* Send-IPI: empty bitmap, fixed delivery, vector 0: nobody */
        { "send-ipi", KVM_HC_SEND_IPI, 0, 0, 0, 0, KVM_FEATURE_PV_SEND_IPI },
        /* Directed yield to a running vCPU (itself): no yield */
        { "sched-yield", KVM_HC_SCHED_YIELD, apic_id, 0, 0, 0,
          KVM_FEATURE_PV_SCHED_YIELD },
    };
    int mismatches = 0;

    for (unsigned i = 0; i < ARRAY_SIZE(calls); i++) {
        bool on = features & (1u << calls[i].feature_bit);
        s32 ret = kvm_hypercall(amd, calls[i].nr, calls[i].a0, calls[i].a1,
                                calls[i].a2, calls[i].a3);

        printf("HC %s %u ret=%d cpuid=%s:%s\n", calls[i].name, calls[i].nr,
               ret, kvm_feature_name(calls[i].feature_bit), on ? "on" : "off");
        if ((ret != -KVM_ENOSYS) != on) {
            mismatches++;
        }
    }
    printf("HC-DONE mismatches=%d\n", mismatches);
    return mismatches;
}

struct pv_msr {
    const char *name;
    u32 msr;
    u32 value;
    bool disable;       /* write 0 afterwards */
    int feature_bit;  /* KVM CPUID bit that gates it */
};

int guest_main(void)
{
    u32 base = kvm_cpuid_base();
    u32 features = base ? cpuid(base + 1).eax : 0;
    u32 apf = (u32)async_pf_page | KVM_MSR_ENABLED;
    if (features & (1u << KVM_FEATURE_ASYNC_PF_INT)) {
        apf |= KVM_ASYNC_PF_DELIVERY_AS_INT; /* as Linux does */
    }
    const struct pv_msr msrs[] = {
        { "wall-clock", 0x11, (u32)wall_clock_page, false, 0 },
        { "system-time", 0x12, (u32)system_time_page | 1, true, 0 },
        { "wall-clock-new", 0x4b564d00, (u32)wall_clock_page, false, 3 },
        { "system-time-new", 0x4b564d01, (u32)system_time_page | 1, true, 3 },
        { "async-pf-int", 0x4b564d06, 0xf3, false, 14 },
        { "async-pf-en", 0x4b564d02, apf, true, 4 },
        { "steal-time", 0x4b564d03, (u32)steal_time_page | KVM_MSR_ENABLED, true,
          5 },
        { "pv-eoi", 0x4b564d04, (u32)pv_eoi_page | KVM_MSR_ENABLED, true, 6 },
        { "poll-control", 0x4b564d05, 1, false, 12 },
    };
    int accepted = 0, mismatches = 0;

    printf("PV-MSR kvm-base=0x%08x kvm-eax=0x%08x\n", base, features);
    for (unsigned i = 0; i < ARRAY_SIZE(msrs); i++) {
        const struct pv_msr *m = &msrs[i];
        int gp = wrmsr_safe(m->msr, m->value, 0);
        const char *fname = kvm_feature_name(m->feature_bit);
        printf("MSR %s 0x%08x %s cpuid=%s:%s\n", m->name, m->msr, gp ? "gp" : "accepted",
               fname, features & (1u << m->feature_bit) ? "on" : "off");
        if (!gp != !!(features & (1u << m->feature_bit))) {
            mismatches++;
        }
        if (!gp) {
            accepted++;
            if (m->disable) {
                wrmsr_safe(m->msr, 0, 0);
            }
        }
    }
    /* mismatches: accepted with the CPUID bit clear, or #GP with it set */
    printf("PV-MSR accepted=%d of %u mismatches=%d\n", accepted, (unsigned)ARRAY_SIZE(msrs),
           mismatches);
    print_kvm_features("");
    if (cmdline_has("hypercalls")) {
        probe_hypercalls(features);
    }
    printf("PV-MSR-DONE\n");
    return 0;
}
