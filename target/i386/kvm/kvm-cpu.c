/*
 * The host side of x86 CPU expansion under KVM: reading what the host's
 * KVM supports, QEMU's fix-ups on top of KVM_GET_SUPPORTED_CPUID, the
 * accelerator's defaults for named models, and host/max identity.
 */
#include <cpuid.h>
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/kvm.h>

#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"

#define CPUID_EXT_X2APIC (1u << 21)
#define CPUID_EXT_TSC_DEADLINE_TIMER (1u << 24)
#define CPUID_EXT_HYPERVISOR (1u << 31)
#define CPUID_6_EAX_ARAT (1u << 2)
#define CPUID_7_0_EDX_ARCH_CAPABILITIES (1u << 29)
#define CPUID_EXT3_TOPOEXT (1u << 22)
#define KVM_FEATURE_MSI_EXT_DEST_ID 15
#define KVM_HINTS_REALTIME 0
#define MSR_IA32_ARCH_CAPABILITIES 0x10a

static uint32_t host_reg(const X86CPUEnv *env, uint32_t function,
                         uint32_t index, CPUIDReg reg)
{
    return host_caps_cpuid_reg(env->host, function, index, reg);
}

/* KVM_GET_SUPPORTED_CPUID plus what QEMU 7.2 knows KVM can do anyway. */
static uint32_t kvm_supported_cpuid(const X86CPUEnv *env, uint32_t function,
                                    uint32_t index, CPUIDReg reg)
{
    uint32_t ret = host_reg(env, function, index, reg);
    uint64_t unused;

    if (function == 1 && reg == R_ECX) {
        /* KVM reports neither; tsc-deadline needs the in-kernel LAPIC */
        ret |= CPUID_EXT_HYPERVISOR;
        if (env->kernel_irqchip && env->host->tsc_deadline) {
            ret |= CPUID_EXT_TSC_DEADLINE_TIMER;
        }
        /* x2apic can't be enabled without the in-kernel irqchip */
        if (!env->kernel_irqchip) {
            ret &= ~CPUID_EXT_X2APIC;
        }
    } else if (function == 6 && reg == R_EAX) {
        /* The APIC timer is emulated, so it always runs */
        ret |= CPUID_6_EAX_ARAT;
    } else if (function == 7 && index == 0 && reg == R_EDX) {
        /* Some kernels claim ARCH_CAPABILITIES without the MSR */
        if (!host_caps_get_msr(env->host, MSR_IA32_ARCH_CAPABILITIES,
                               &unused)) {
            ret &= ~CPUID_7_0_EDX_ARCH_CAPABILITIES;
        }
    } else if (function == 0x80000001 && reg == R_ECX) {
        ret |= CPUID_EXT3_TOPOEXT;
    } else if (function == 0x80000001 && reg == R_EDX) {
        /* On Intel, KVM answers per Intel's spec: add AMD's aliases */
        ret |= kvm_supported_cpuid(env, 1, 0, R_EDX) & CPUID_EXT2_AMD_ALIASES;
    } else if (function == 0x40000001 && reg == R_EAX) {
        /* PV unhalt kicks vCPUs through the in-kernel LAPIC */
        if (!env->kernel_irqchip) {
            ret &= ~(1u << KVM_FEATURE_PV_UNHALT);
        }
        if (env->split_irqchip) {
            ret |= 1u << KVM_FEATURE_MSI_EXT_DEST_ID;
        }
    } else if (function == 0x40000001 && reg == R_EDX) {
        ret |= 1u << KVM_HINTS_REALTIME;
    }
    return ret;
}

static uint64_t kvm_supported_msr_feature(const X86CPUEnv *env, uint32_t index)
{
    uint64_t value;

    if (!host_caps_get_msr(env->host, index, &value)) {
        return 0;
    }
    switch (index) {
    case 0x48b: /* PROCBASED_CTLS2 */
    case 0x48d: /* TRUE_PINBASED_CTLS */
    case 0x48e: /* TRUE_PROCBASED_CTLS */
    case 0x48f: /* TRUE_EXIT_CTLS */
    case 0x490: /* TRUE_ENTRY_CTLS */
        /* Bits that may be one but need not be */
        return (value >> 32) & ~(value & 0xffffffffULL);
    default:
        return value;
    }
}

uint64_t kvm_cpu_supported_feature_word(const X86CPUEnv *env, FeatureWord w)
{
    const FeatureWordInfo *wi = &feature_word_info[w];

    g_assert(env->host);
    if (wi->type == CPUID_FEATURE_WORD) {
        return kvm_supported_cpuid(env, wi->cpuid.eax,
                                   wi->cpuid.needs_ecx ? wi->cpuid.ecx : 0,
                                   wi->cpuid.reg);
    }
    return kvm_supported_msr_feature(env, wi->msr.index);
}

/*
 * KVM defaults for named models, applied as property writes so they count
 * as set by the user (max/host and auto-enable leave them alone).
 * kvm-pv-eoi, on in QEMU 7.2's table, is this tree's auto-enable instead.
 */
void kvm_cpu_apply_default_props(X86CPU *cpu, const X86CPUEnv *env)
{
    const PropValue defaults[] = {
        { "kvmclock", "on" },
        { "kvm-nopiodelay", "on" },
        { "kvm-asyncpf", "on" },
        { "kvm-steal-time", "on" },
        { "kvmclock-stable-bit", "on" },
        { "x2apic", env->legacy_kvm_x2apic_default ? NULL
                    : env->kernel_irqchip          ? "on"
                                                   : "off" },
        { "kvm-msi-ext-dest-id", env->split_irqchip ? "on" : "off" },
        { "acpi", "off" },
        { "monitor", "off" },
        { "svm", env->legacy_kvm_svm_default ? NULL : "off" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(defaults); i++) {
        if (defaults[i].value) {
            object_property_parse(OBJECT(cpu), defaults[i].prop,
                                  defaults[i].value, &error_fatal);
        }
    }
}

void kvm_cpu_max_instance_init(X86CPU *cpu, const X86CPUEnv *env)
{
    const X86HostCaps *host = env->host;
    Object *obj = OBJECT(cpu);

    object_property_set_bool(obj, "host-phys-bits", true, &error_fatal);
    if (host->host_vendor[0]) {
        object_property_set_str(obj, "vendor", host->host_vendor, &error_fatal);
        object_property_set_int(obj, "family", host->host_family, &error_fatal);
        object_property_set_int(obj, "model", host->host_model, &error_fatal);
        object_property_set_int(obj, "stepping", host->host_stepping,
                                &error_fatal);
        object_property_set_str(obj, "model-id", host->host_model_id,
                                &error_fatal);
    }
    cpu->min_level = host_reg(env, 0, 0, R_EAX);
    cpu->min_xlevel = host_reg(env, 0x80000000, 0, R_EAX);
    cpu->min_xlevel2 = host_reg(env, 0xC0000000, 0, R_EAX);
}

/* Reading the real host ---------------------------------------------------- */

static void host_identity(X86HostCaps *caps)
{
    unsigned int eax, ebx, ecx, edx, i;
    uint32_t words[12];
    uint32_t family, model;

    __cpuid(0, eax, ebx, ecx, edx);
    memcpy(caps->host_vendor, &ebx, 4);
    memcpy(caps->host_vendor + 4, &edx, 4);
    memcpy(caps->host_vendor + 8, &ecx, 4);
    caps->host_vendor[12] = 0;

    __cpuid(1, eax, ebx, ecx, edx);
    family = (eax >> 8) & 0xf;
    model = (eax >> 4) & 0xf;
    if (family == 0xf) {
        family += (eax >> 20) & 0xff;
    }
    if (family == 0x6 || family >= 0xf) {
        model |= ((eax >> 16) & 0xf) << 4;
    }
    caps->host_family = family;
    caps->host_model = model;
    caps->host_stepping = eax & 0xf;

    for (i = 0; i < 3; i++) {
        __cpuid(0x80000002 + i, words[i * 4], words[i * 4 + 1],
                words[i * 4 + 2], words[i * 4 + 3]);
    }
    memcpy(caps->host_model_id, words, 48);
    caps->host_model_id[48] = 0;
}

static struct kvm_cpuid2 *kvm_get_cpuid2(int fd, unsigned long req,
                                         Error **errp)
{
    int nent = 64;

    for (;;) {
        struct kvm_cpuid2 *c =
            g_malloc0(sizeof(*c) + nent * sizeof(struct kvm_cpuid_entry2));
        c->nent = nent;
        if (ioctl(fd, req, c) == 0) {
            return c;
        }
        g_free(c);
        if (errno != E2BIG || nent > 4096) {
            error_setg(errp, "KVM_GET_SUPPORTED_CPUID failed: %s",
                       strerror(errno));
            return NULL;
        }
        nent *= 2;
    }
}

static void host_read_msr_features(int kvm_fd, X86HostCaps *caps)
{
    struct kvm_msr_list probe = { .nmsrs = 0 }, *list;
    guint i;

    if (ioctl(kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_GET_MSR_FEATURES) <= 0) {
        return;
    }
    if (ioctl(kvm_fd, KVM_GET_MSR_FEATURE_INDEX_LIST, &probe) < 0 &&
        errno != E2BIG) {
        return;
    }
    list = g_malloc0(sizeof(*list) + probe.nmsrs * sizeof(uint32_t));
    list->nmsrs = probe.nmsrs;
    if (ioctl(kvm_fd, KVM_GET_MSR_FEATURE_INDEX_LIST, list) < 0) {
        g_free(list);
        return;
    }
    for (i = 0; i < list->nmsrs; i++) {
        struct {
            struct kvm_msrs hdr;
            struct kvm_msr_entry e;
        } msrs = { .hdr.nmsrs = 1, .e.index = list->indices[i] };

        if (ioctl(kvm_fd, KVM_GET_MSRS, &msrs) == 1) {
            host_caps_set_msr(caps, msrs.e.index, msrs.e.data);
        }
    }
    g_free(list);
}

X86HostCaps *kvm_host_caps_read(int kvm_fd, Error **errp)
{
    X86HostCaps *caps;
    struct kvm_cpuid2 *c;
    guint i;

    c = kvm_get_cpuid2(kvm_fd, KVM_GET_SUPPORTED_CPUID, errp);
    if (!c) {
        return NULL;
    }
    caps = host_caps_new();
    caps->name = g_strdup("this host's KVM");
    for (i = 0; i < c->nent; i++) {
        X86HostCPUIDEntry e = {
            .function = c->entries[i].function,
            .index = c->entries[i].index,
            .flags = c->entries[i].flags,
            .eax = c->entries[i].eax,
            .ebx = c->entries[i].ebx,
            .ecx = c->entries[i].ecx,
            .edx = c->entries[i].edx,
        };
        host_caps_add_cpuid(caps, &e);
    }
    g_free(c);

    host_read_msr_features(kvm_fd, caps);
    host_identity(caps);
    caps->tsc_deadline =
        ioctl(kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_TSC_DEADLINE_TIMER) > 0;
    caps->hyperv = ioctl(kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_HYPERV);
    if (caps->hyperv < 0) {
        caps->hyperv = 0;
    }
    caps->hyperv_send_ipi =
        ioctl(kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_HYPERV_SEND_IPI) > 0;
    caps->hyperv_cpuid =
        ioctl(kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_SYS_HYPERV_CPUID) > 0;
    if (caps->hyperv_cpuid) {
        Error *err = NULL;
        c = kvm_get_cpuid2(kvm_fd, KVM_GET_SUPPORTED_HV_CPUID, &err);
        if (c) {
            for (i = 0; i < c->nent; i++) {
                X86HostCPUIDEntry e = {
                    .function = c->entries[i].function,
                    .index = c->entries[i].index,
                    .eax = c->entries[i].eax,
                    .ebx = c->entries[i].ebx,
                    .ecx = c->entries[i].ecx,
                    .edx = c->entries[i].edx,
                };
                g_array_append_val(caps->hv_cpuid, e);
            }
            g_free(c);
        } else {
            error_free(err);
        }
    }
    return caps;
}
