/*
 * Declarations shared by the files of target/i386 only.
 */
#ifndef TARGET_I386_CPU_INTERNAL_H
#define TARGET_I386_CPU_INTERNAL_H

#include "target/i386/cpu.h"

/* One CPUID answer */
typedef struct CPUIDRegs {
    uint32_t eax, ebx, ecx, edx;
} CPUIDRegs;

/* Long mode: the CPU is 64-bit (8000_0001.EDX) */
#define CPUID_EXT2_LM (1u << 29)

/* 8000_0001.EDX bits AMD defines as copies of 1.EDX */
#define CPUID_EXT2_AMD_ALIASES 0x0183F3FFu

/* What KVM (as described by env->host) supports for a word, with QEMU's
 * fix-ups on top of KVM_GET_SUPPORTED_CPUID (kvm/kvm-cpu.c). */
uint64_t kvm_cpu_supported_feature_word(const X86CPUEnv *env, FeatureWord w);

/* Host/max under KVM: identity and levels from the host (kvm/kvm-cpu.c). */
void kvm_cpu_max_instance_init(X86CPU *cpu, const X86CPUEnv *env);
/* Accelerator defaults for named models under KVM (kvm/kvm-cpu.c). */
void kvm_cpu_apply_default_props(X86CPU *cpu, const X86CPUEnv *env);

/* Hyper-V expansion step under KVM (hyperv.c). */
bool x86_cpu_hyperv_expand_features(X86CPU *cpu, const X86CPUEnv *env,
                                    Error **errp);
/* Registers the hv-* properties (hyperv.c). */
void x86_cpu_hyperv_register_props(ObjectClass *oc);
bool x86_cpu_hyperv_enabled(X86CPU *cpu);

/* Every feature name (and alias) as a bool property (cpu.c) */
void x86_cpu_register_feature_props(ObjectClass *oc);

/* Model loading (cpu-class.c) */
bool x86_cpu_load_model(X86CPU *cpu, const X86CPUModel *model,
                        const X86CPUEnv *env, Error **errp);

#endif
