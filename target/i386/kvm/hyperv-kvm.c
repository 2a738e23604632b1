/*
 * Hyper-V under KVM: the per-vCPU capabilities QEMU 7.2 turns on before
 * the vCPU gets its CPUID (VP_INDEX, SynIC, enlightened VMCS, enforced
 * Hyper-V CPUID).  Texts are QEMU 7.2's.
 *
 * Feature support itself is decided at expansion (target/i386/hyperv.c):
 * a feature the host lacks never gets this far.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/kvm.h>

#include "target/i386/cpu.h"
#include "target/i386/hyperv.h"

#define HV_X64_MSR_VP_INDEX 0x40000002
#define HV_EVMCS_VERSION_MIN 1  /* the range this tree offers: v1 .. v1 */
#define HV_EVMCS_VERSION_MAX 1

static bool hv_feat(X86CPU *cpu, HypervFeat f)
{
    return cpu->hyperv_features & (1ULL << f);
}

static int vcpu_enable_cap(int vcpu_fd, uint32_t cap, uint64_t arg0)
{
    struct kvm_enable_cap c = { .cap = cap, .args[0] = arg0 };

    return ioctl(vcpu_fd, KVM_ENABLE_CAP, &c) < 0 ? -errno : 0;
}

/* QEMU's VP index is the CPU index; KVM must let us set it */
static bool hv_set_vp_index(int vm_fd, int vcpu_fd, X86CPU *cpu, Error **errp)
{
    struct {
        struct kvm_msrs hdr;
        struct kvm_msr_entry e;
    } msrs;

    if (ioctl(vm_fd, KVM_CHECK_EXTENSION, KVM_CAP_HYPERV_VP_INDEX) <= 0) {
        error_setg(errp, "kernel doesn't allow setting HyperV VP_INDEX");
        return false;
    }
    memset(&msrs, 0, sizeof(msrs));
    msrs.hdr.nmsrs = 1;
    msrs.e.index = HV_X64_MSR_VP_INDEX;
    msrs.e.data = cpu->cpu_index;
    if (ioctl(vcpu_fd, KVM_SET_MSRS, &msrs) != 1) {
        error_setg(errp, "kvm: failed to set HyperV VP_INDEX to %d",
                   cpu->cpu_index);
        return false;
    }
    return true;
}

static bool hv_enable_evmcs(int vcpu_fd, Error **errp)
{
    uint16_t version = HV_EVMCS_VERSION_MAX << 8 | HV_EVMCS_VERSION_MIN;
    int min, max;

    /* KVM writes the range it supports back into version */
    if (vcpu_enable_cap(vcpu_fd, KVM_CAP_HYPERV_ENLIGHTENED_VMCS,
                        (uintptr_t)&version) < 0) {
        error_setg(errp, "Hyper-V %s is not supported by kernel",
                   hyperv_features[HYPERV_FEAT_EVMCS].desc);
        return false;
    }
    min = version & 0xff;
    max = version >> 8;
    if (min > HV_EVMCS_VERSION_MIN || max < HV_EVMCS_VERSION_MAX) {
        error_setg(errp, "eVMCS version range [%d..%d] is not supported by "
                   "kernel (supported: [%d..%d])", HV_EVMCS_VERSION_MIN,
                   HV_EVMCS_VERSION_MAX, min, max);
        return false;
    }
    return true;
}

bool hyperv_kvm_init_vcpu(int vm_fd, int vcpu_fd, X86CPU *cpu,
                          const X86CPUEnv *env, Error **errp)
{
    int ret;

    if (!x86_cpu_hyperv_leaves_on(cpu, env)) {
        return true;
    }
    if (hv_feat(cpu, HYPERV_FEAT_VPINDEX) &&
        !hv_set_vp_index(vm_fd, vcpu_fd, cpu, errp)) {
        return false;
    }
    if (hv_feat(cpu, HYPERV_FEAT_SYNIC)) {
        /* SYNIC2 keeps the message/event pages across SCONTROL writes */
        ret = vcpu_enable_cap(vcpu_fd,
                              cpu->hyperv_synic_kvm_only
                                  ? KVM_CAP_HYPERV_SYNIC
                                  : KVM_CAP_HYPERV_SYNIC2, 0);
        if (ret < 0) {
            error_setg(errp, "failed to turn on HyperV SynIC in KVM: %s",
                       strerror(-ret));
            return false;
        }
    }
    if (hv_feat(cpu, HYPERV_FEAT_EVMCS) && !hv_enable_evmcs(vcpu_fd, errp)) {
        return false;
    }
    if (cpu->hyperv_enforce_cpuid) {
        /* KVM then refuses Hyper-V MSRs and hypercalls CPUID withholds */
        ret = vcpu_enable_cap(vcpu_fd, KVM_CAP_HYPERV_ENFORCE_CPUID, 1);
        if (ret < 0) {
            error_setg(errp, "failed to enable KVM_CAP_HYPERV_ENFORCE_CPUID: "
                       "%s", strerror(-ret));
            return false;
        }
    }
    return true;
}
