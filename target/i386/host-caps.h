/*
 * What a host's KVM offers a vCPU: the answer of KVM_GET_SUPPORTED_CPUID,
 * the feature MSRs (KVM_GET_MSR_FEATURE_INDEX_LIST + KVM_GET_MSRS) and the
 * capabilities expansion depends on.
 *
 * Real hosts are read in target/i386/kvm/kvm-cpu.c; tests and the golden
 * table tool load recorded or synthetic hosts from text files
 * (tests/data/hosts/NAME.host), whose format host-caps.c documents.
 */
#ifndef TARGET_I386_HOST_CAPS_H
#define TARGET_I386_HOST_CAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "qapi/error.h"

typedef struct X86HostCPUIDEntry {
    uint32_t function, index;
    uint32_t flags;           /* KVM_CPUID_FLAG_SIGNIFCANT_INDEX = 1 */
    uint32_t eax, ebx, ecx, edx;
} X86HostCPUIDEntry;

typedef struct X86HostMSR {
    uint32_t index;
    uint64_t value;
} X86HostMSR;

typedef struct X86HostCaps {
    GArray *cpuid;            /* X86HostCPUIDEntry */
    GArray *msrs;             /* X86HostMSR: feature MSRs KVM reports */
    bool tsc_deadline;        /* KVM_CAP_TSC_DEADLINE_TIMER */
    /* Hyper-V: KVM_CAP_HYPERV level (0 = none) and related caps */
    int hyperv;
    bool hyperv_cpuid;        /* KVM_CAP_HYPERV_CPUID */
    bool hyperv_send_ipi;     /* KVM_CAP_HYPERV_SEND_IPI */
    GArray *hv_cpuid;         /* X86HostCPUIDEntry: KVM_GET_SUPPORTED_HV_CPUID */
    /* The host CPU itself (the CPUID instruction, not KVM's answer):
     * host and max take their identity from it. */
    char host_vendor[13];
    uint32_t host_family, host_model, host_stepping;
    char host_model_id[49];
    char *name;               /* where it came from, for messages */
} X86HostCaps;

X86HostCaps *host_caps_new(void);
void host_caps_free(X86HostCaps *caps);
/* Raw register of a supported leaf (0 if the leaf is absent). */
uint32_t host_caps_cpuid_reg(const X86HostCaps *caps, uint32_t function,
                             uint32_t index, int reg /* CPUIDReg */);
const X86HostCPUIDEntry *host_caps_find(const X86HostCaps *caps,
                                        uint32_t function, uint32_t index);
bool host_caps_get_msr(const X86HostCaps *caps, uint32_t index,
                       uint64_t *value);
void host_caps_add_cpuid(X86HostCaps *caps, const X86HostCPUIDEntry *e);
void host_caps_set_msr(X86HostCaps *caps, uint32_t index, uint64_t value);

/* Reads the real host through /dev/kvm (target/i386/kvm/kvm-cpu.c). */
X86HostCaps *kvm_host_caps_read(int kvm_fd, Error **errp);

X86HostCaps *host_caps_load(const char *path, Error **errp);
bool host_caps_save(const X86HostCaps *caps, const char *path, Error **errp);
char *host_caps_to_string(const X86HostCaps *caps);
X86HostCaps *host_caps_parse(const char *text, const char *name,
                             Error **errp);

#endif
