/*
 * Hyper-V enlightenments: hv-* properties, dependencies and the expansion
 * step under KVM, including this tree's hv-ipi auto-enable (design §2).
 */
#include <string.h>

#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"
#include "target/i386/hyperv.h"

#define HV_LEAF3 0x40000003
#define HV_LEAF4 0x40000004
#define HV_LEAFA 0x4000000A
#define BIT(n) (1u << (n))
#define FEAT(f) (1ULL << HYPERV_FEAT_##f)

/* CPUID bits per the Hyper-V TLFS; dependencies as QEMU 7.2 checks them */
const HypervFeatureDef hyperv_features[HYPERV_FEAT__MAX] = {
    [HYPERV_FEAT_RELAXED] = { "hv-relaxed", "relaxed timing",
        { { HV_LEAF4, R_EAX, BIT(5) } } },
    [HYPERV_FEAT_VAPIC] = { "hv-vapic", "virtual APIC",
        { { HV_LEAF3, R_EAX, BIT(4) } } },
    [HYPERV_FEAT_TIME] = { "hv-time", "clocksources",
        { { HV_LEAF3, R_EAX, BIT(1) | BIT(9) } } },
    [HYPERV_FEAT_CRASH] = { "hv-crash", "crash MSRs",
        { { HV_LEAF3, R_EDX, BIT(10) } } },
    [HYPERV_FEAT_RESET] = { "hv-reset", "reset MSR",
        { { HV_LEAF3, R_EAX, BIT(7) } } },
    [HYPERV_FEAT_VPINDEX] = { "hv-vpindex", "VP_INDEX MSR",
        { { HV_LEAF3, R_EAX, BIT(6) } } },
    [HYPERV_FEAT_RUNTIME] = { "hv-runtime", "VP_RUNTIME MSR",
        { { HV_LEAF3, R_EAX, BIT(0) } } },
    [HYPERV_FEAT_SYNIC] = { "hv-synic", "synthetic interrupt controller",
        { { HV_LEAF3, R_EAX, BIT(2) } } },
    [HYPERV_FEAT_STIMER] = { "hv-stimer", "synthetic timers",
        { { HV_LEAF3, R_EAX, BIT(3) } }, FEAT(SYNIC) | FEAT(TIME) },
    [HYPERV_FEAT_FREQUENCIES] = { "hv-frequencies", "frequency MSRs",
        { { HV_LEAF3, R_EAX, BIT(11) }, { HV_LEAF3, R_EDX, BIT(8) } } },
    [HYPERV_FEAT_REENLIGHTENMENT] = { "hv-reenlightenment",
        "reenlightenment MSRs", { { HV_LEAF3, R_EAX, BIT(13) } } },
    [HYPERV_FEAT_TLBFLUSH] = { "hv-tlbflush", "paravirtualized TLB flush",
        { { HV_LEAF4, R_EAX, BIT(2) | BIT(11) } }, FEAT(VPINDEX) },
    [HYPERV_FEAT_EVMCS] = { "hv-evmcs", "enlightened VMCS",
        { { HV_LEAF4, R_EAX, BIT(14) } }, FEAT(VAPIC) },
    [HYPERV_FEAT_IPI] = { "hv-ipi", "paravirtualized IPI",
        { { HV_LEAF4, R_EAX, BIT(10) | BIT(11) } }, FEAT(VPINDEX) },
    [HYPERV_FEAT_STIMER_DIRECT] = { "hv-stimer-direct",
        "direct mode synthetic timers", { { HV_LEAF3, R_EDX, BIT(19) } },
        FEAT(STIMER) },
    [HYPERV_FEAT_AVIC] = { "hv-avic", "AVIC/APICv support",
        { { HV_LEAF4, R_EAX, BIT(9) } } },
    [HYPERV_FEAT_MSR_BITMAP] = { "hv-emsr-bitmap", "enlightened MSR-Bitmap",
        { { HV_LEAFA, R_EAX, BIT(19) } } },
    [HYPERV_FEAT_XMM_INPUT] = { "hv-xmm-input", "XMM fast hypercall input",
        { { HV_LEAF3, R_EDX, BIT(4) } } },
    [HYPERV_FEAT_TLBFLUSH_EXT] = { "hv-tlbflush-ext",
        "Extended gva ranges for TLB flush hypercalls",
        { { HV_LEAF3, R_EDX, BIT(14) } }, FEAT(TLBFLUSH) },
    [HYPERV_FEAT_TLBFLUSH_DIRECT] = { "hv-tlbflush-direct",
        "direct TLB flush", { { HV_LEAFA, R_EAX, BIT(17) } }, FEAT(VAPIC) },
    [HYPERV_FEAT_SYNDBG] = { "hv-syndbg",
        "Enlightened synthetic kernel debugger interface",
        { { HV_LEAF3, R_EDX, BIT(11) } }, FEAT(SYNIC) | FEAT(RELAXED) },
};

static JsonNode *hv_get_bit(Object *obj, ObjectProperty *prop, Error **errp)
{
    return json_node_init_boolean(
        json_node_alloc(), !!(X86_CPU(obj)->hyperv_features & prop->opaque));
}

static bool hv_set_bit(Object *obj, ObjectProperty *prop, JsonNode *value,
                       Error **errp)
{
    X86CPU *cpu = X86_CPU(obj);

    if (!JSON_NODE_HOLDS_VALUE(value) ||
        json_node_get_value_type(value) != G_TYPE_BOOLEAN) {
        error_setg(errp, "Invalid parameter type for '%s', expected: boolean",
                   prop->name);
        return false;
    }
    if (json_node_get_boolean(value)) {
        cpu->hyperv_features |= prop->opaque;
    } else {
        cpu->hyperv_features &= ~prop->opaque;
    }
    cpu->hyperv_user_features |= prop->opaque;
    return true;
}

#define HV_FIELD(name, kind, field, def)                                     \
    object_class_property_add_field(oc, name, kind, offsetof(X86CPU, field), \
                                    def, NULL)

void x86_cpu_hyperv_register_props(ObjectClass *oc)
{
    ObjectProperty *p;
    int i;

    for (i = 0; i < HYPERV_FEAT__MAX; i++) {
        p = object_class_property_add(oc, hyperv_features[i].name, "bool",
                                      hv_get_bit, hv_set_bit, NULL);
        p->kind = PROP_KIND_BOOL;
        p->opaque = 1ULL << i;
        if (i == HYPERV_FEAT_AVIC) {
            object_class_property_add_alias(oc, "hv-apicv", p);
        }
    }
    HV_FIELD("hv-spinlocks", PROP_KIND_UINT32, hyperv_spinlock_attempts,
             "4294967295");
    /* Unset reads ""; the Hyper-V leaves then say "Microsoft Hv" */
    HV_FIELD("hv-vendor-id", PROP_KIND_STRING, hyperv_vendor, NULL);
    HV_FIELD("hv-version-id-build", PROP_KIND_UINT32, hyperv_ver_id_build,
             "0x3839");
    HV_FIELD("hv-version-id-major", PROP_KIND_UINT32, hyperv_ver_id_major,
             "0x000A");
    HV_FIELD("hv-version-id-minor", PROP_KIND_UINT32, hyperv_ver_id_minor,
             "0x0000");
    HV_FIELD("hv-version-id-spack", PROP_KIND_UINT32, hyperv_ver_id_sp, "0");
    HV_FIELD("hv-version-id-sbranch", PROP_KIND_UINT32, hyperv_ver_id_sb, "0");
    HV_FIELD("hv-version-id-snumber", PROP_KIND_UINT32, hyperv_ver_id_sn, "0");
    HV_FIELD("x-hv-max-vps", PROP_KIND_INT32, hyperv_max_vps, "-1");
    HV_FIELD("x-hv-synic-kvm-only", PROP_KIND_BOOL, hyperv_synic_kvm_only,
             "off");
    HV_FIELD("hv-passthrough", PROP_KIND_BOOL, hyperv_passthrough, "off");
    HV_FIELD("hv-enforce-cpuid", PROP_KIND_BOOL, hyperv_enforce_cpuid, "off");
    HV_FIELD("hv-no-nonarch-coresharing", PROP_KIND_ONOFFAUTO,
             hyperv_no_nonarch_cs, "off");
}

bool x86_cpu_hyperv_enabled(X86CPU *cpu)
{
    return cpu->hyperv_spinlock_attempts != HYPERV_SPINLOCK_NEVER_NOTIFY ||
           cpu->hyperv_features || cpu->hyperv_passthrough;
}

/* Host support for one feature: every CPUID bit it needs is offered. */
static bool hyperv_host_supports(const X86HostCaps *host, HypervFeat f)
{
    const HypervFeatureDef *def = &hyperv_features[f];
    int i;

    if (!host || host->hyperv <= 0) {
        return false;
    }
    for (i = 0; i < 2 && def->flags[i].bits; i++) {
        uint32_t v = 0;
        guint j;

        for (j = 0; host->hv_cpuid && j < host->hv_cpuid->len; j++) {
            const X86HostCPUIDEntry *e =
                &g_array_index(host->hv_cpuid, X86HostCPUIDEntry, j);
            if (e->function == def->flags[i].leaf) {
                v = def->flags[i].reg == R_EAX   ? e->eax
                    : def->flags[i].reg == R_EBX ? e->ebx
                    : def->flags[i].reg == R_ECX ? e->ecx
                                                 : e->edx;
            }
        }
        /* Without KVM_CAP_HYPERV_CPUID, IPI support is KVM_CAP_HYPERV_SEND_IPI */
        if (!host->hyperv_cpuid && f == HYPERV_FEAT_IPI) {
            v = host->hyperv_send_ipi ? def->flags[i].bits : 0;
        }
        if ((v & def->flags[i].bits) != def->flags[i].bits) {
            return false;
        }
    }
    return true;
}

bool x86_cpu_hyperv_expand_features(X86CPU *cpu, const X86CPUEnv *env,
                                    Error **errp)
{
    int i, j;

    if (env->accel != X86_ACCEL_KVM || !x86_cpu_hyperv_enabled(cpu)) {
        return true;
    }
    if (cpu->hyperv_passthrough) {
        for (i = 0; i < HYPERV_FEAT__MAX; i++) {
            if (!(cpu->hyperv_user_features & (1ULL << i)) &&
                hyperv_host_supports(env->host, i)) {
                cpu->hyperv_features |= 1ULL << i;
            }
        }
    }
    /*
     * This tree's auto-enable: hv-ipi when VP_INDEX is on, the user did not
     * set hv-ipi either way, and the host can do it; silently off otherwise.
     */
    if (cpu->hv_auto_enable_ipi &&
        (cpu->hyperv_features & FEAT(VPINDEX)) &&
        !(cpu->hyperv_user_features & FEAT(IPI)) &&
        hyperv_host_supports(env->host, HYPERV_FEAT_IPI)) {
        cpu->hyperv_features |= FEAT(IPI);
    }
    for (i = 0; i < HYPERV_FEAT__MAX; i++) {
        const HypervFeatureDef *def = &hyperv_features[i];

        if (!(cpu->hyperv_features & (1ULL << i))) {
            continue;
        }
        /* A missing dependency is reported before missing host support */
        for (j = 0; j < HYPERV_FEAT__MAX; j++) {
            if ((def->dependencies & (1ULL << j)) &&
                !(cpu->hyperv_features & (1ULL << j))) {
                error_setg(errp, "Hyper-V %s (%s) requires Hyper-V %s (%s)",
                           def->desc, def->name, hyperv_features[j].desc,
                           hyperv_features[j].name);
                return false;
            }
        }
        if (!hyperv_host_supports(env->host, i)) {
            error_setg(errp, "Hyper-V %s (%s) is not supported by kernel",
                       def->desc, def->name);
            return false;
        }
    }
    return true;
}
