/*
 * pv-msr guest: writes each KVM paravirtual MSR with a valid value and
 * reports, per MSR, whether the host accepted it or raised #GP:
 *   MSR pv-eoi 0x4b564d04 accepted
 *   MSR steal-time 0x4b564d03 gp
 * (followed by cpuid=<feature>:on|off, the gating KVM CPUID bit),
 * then disables whatever it enabled, prints the KVM CPUID bits and
 * PV-MSR-DONE.  With kvm-pv-enforce-cpuid=on the host refuses the MSRs whose
 * CPUID feature bit the machine type withheld.
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
        const char *fname = "?";
        for (int k = 0; k < kvm_feature_count; k++) {
            if (kvm_feature_names[k].bit == m->feature_bit) {
                fname = kvm_feature_names[k].name;
            }
        }
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
    printf("PV-MSR-DONE\n");
    return 0;
}
