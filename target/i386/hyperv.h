/*
 * Hyper-V enlightenments: the hv-* properties and their CPUID bits.
 */
#ifndef TARGET_I386_HYPERV_H
#define TARGET_I386_HYPERV_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

/* Index of each hv-* feature in X86CPU.hyperv_features (this tree's order) */
typedef enum HypervFeat {
    HYPERV_FEAT_RELAXED,
    HYPERV_FEAT_VAPIC,
    HYPERV_FEAT_TIME,
    HYPERV_FEAT_CRASH,
    HYPERV_FEAT_RESET,
    HYPERV_FEAT_VPINDEX,
    HYPERV_FEAT_RUNTIME,
    HYPERV_FEAT_SYNIC,
    HYPERV_FEAT_STIMER,
    HYPERV_FEAT_FREQUENCIES,
    HYPERV_FEAT_REENLIGHTENMENT,
    HYPERV_FEAT_TLBFLUSH,
    HYPERV_FEAT_EVMCS,
    HYPERV_FEAT_IPI,
    HYPERV_FEAT_STIMER_DIRECT,
    HYPERV_FEAT_AVIC,
    HYPERV_FEAT_MSR_BITMAP,
    HYPERV_FEAT_XMM_INPUT,
    HYPERV_FEAT_TLBFLUSH_EXT,
    HYPERV_FEAT_TLBFLUSH_DIRECT,
    HYPERV_FEAT_SYNDBG,
    HYPERV_FEAT__MAX,
} HypervFeat;

#define HYPERV_SPINLOCK_NEVER_NOTIFY 0xFFFFFFFF

/* One CPUID bit group a feature sets: leaf 0x400000<leaf>, register */
typedef struct HypervCPUIDBits {
    uint32_t leaf;   /* 0x40000003, 0x40000004, 0x4000000A */
    int reg;         /* CPUIDReg */
    uint32_t bits;
} HypervCPUIDBits;

typedef struct HypervFeatureDef {
    const char *name;        /* property */
    const char *desc;        /* for error messages */
    HypervCPUIDBits flags[2];
    uint64_t dependencies;   /* 1 << HypervFeat */
} HypervFeatureDef;

extern const HypervFeatureDef hyperv_features[HYPERV_FEAT__MAX];

/*
 * x86_cpu_hyperv_host_supports(): KVM offers every CPUID bit of f.
 * x86_cpu_hyperv_leaves_on(): the vCPU gets the Hyper-V leaves (KVM with
 * KVM_CAP_HYPERV, some hv-* on); x86_cpu_hyperv_add_leaves() appends
 * 0x40000000..0x40000005 (..0x4000000A with nested features) as QEMU 7.2
 * fills them.  The expansion step is in cpu-internal.h.
 */
struct X86CPU;
struct X86CPUEnv;
struct X86HostCaps;
bool x86_cpu_hyperv_host_supports(const struct X86HostCaps *host,
                                  HypervFeat f);
bool x86_cpu_hyperv_leaves_on(struct X86CPU *cpu,
                              const struct X86CPUEnv *env);
void x86_cpu_hyperv_add_leaves(GArray *t, struct X86CPU *cpu,
                               const struct X86CPUEnv *env);

/*
 * Under KVM, before the vCPU gets its CPUID: sets VP_INDEX and enables
 * SynIC, enlightened VMCS and Hyper-V CPUID enforcement as the enabled
 * features ask (target/i386/kvm/hyperv-kvm.c).  False with QEMU's text.
 */
struct Error;
bool hyperv_kvm_init_vcpu(int vm_fd, int vcpu_fd, struct X86CPU *cpu,
                          const struct X86CPUEnv *env, struct Error **errp);

#endif
