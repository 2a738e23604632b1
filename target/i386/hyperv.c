/*
 * Hyper-V enlightenments: hv-* properties, dependencies and the expansion
 * step under KVM, including this tree's hv-ipi and hv-tlbflush auto-enable
 * (design §2).
 */
#include <string.h>

#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"
#include "target/i386/hyperv.h"

#define HV_LEAF(n) (0x40000000u + (n))
#define HV_LEAF3 HV_LEAF(3)
#define HV_LEAF4 HV_LEAF(4)
#define HV_LEAFA HV_LEAF(0xa)
#define HV_INTERFACE_HV1 0x31237648 /* "Hv#1" */
#define HV_HYPERCALL_AVAILABLE (1u << 5)
#define HV_POST_MESSAGES (1u << 4)
#define HV_SIGNAL_EVENTS (1u << 5)
#define HV_CPU_DYNAMIC_PARTITIONING (1u << 3)
#define HV_APIC_ACCESS_RECOMMENDED (1u << 3)
#define HV_NO_NONARCH_CORESHARING (1u << 18)
#define HV_EVMCS_DEFAULT_VERSION 0x0101 /* eVMCS v1 .. v1 */
#define BIT(n) (1u << (n))
#define FEAT(f) (1ULL << HYPERV_FEAT_##f)

/*
 * CPUID bits per the Hyper-V TLFS; dependencies as QEMU 7.2 checks them.
 * desc is QEMU 7.2's text, property name included, for its messages.
 */
#define HV_DEF(f, prop, text, l0, r0, b0, l1, r1, b1, deps)                 \
    [HYPERV_FEAT_##f] = { prop, text, { { l0, r0, b0 }, { l1, r1, b1 } },   \
                          deps }

const HypervFeatureDef hyperv_features[HYPERV_FEAT__MAX] = {
    HV_DEF(RELAXED, "hv-relaxed", "relaxed timing (hv-relaxed)",
           HV_LEAF4, R_EAX, BIT(5), 0, 0, 0, 0),
    HV_DEF(VAPIC, "hv-vapic", "virtual APIC (hv-vapic)",
           HV_LEAF3, R_EAX, BIT(4), 0, 0, 0, 0),
    HV_DEF(TIME, "hv-time", "clocksources (hv-time)",
           HV_LEAF3, R_EAX, BIT(1) | BIT(9), 0, 0, 0, 0),
    HV_DEF(CRASH, "hv-crash", "crash MSRs (hv-crash)",
           HV_LEAF3, R_EDX, BIT(10), 0, 0, 0, 0),
    HV_DEF(RESET, "hv-reset", "reset MSR (hv-reset)",
           HV_LEAF3, R_EAX, BIT(7), 0, 0, 0, 0),
    HV_DEF(VPINDEX, "hv-vpindex", "VP_INDEX MSR (hv-vpindex)",
           HV_LEAF3, R_EAX, BIT(6), 0, 0, 0, 0),
    HV_DEF(RUNTIME, "hv-runtime", "VP_RUNTIME MSR (hv-runtime)",
           HV_LEAF3, R_EAX, BIT(0), 0, 0, 0, 0),
    HV_DEF(SYNIC, "hv-synic", "synthetic interrupt controller (hv-synic)",
           HV_LEAF3, R_EAX, BIT(2), 0, 0, 0, 0),
    HV_DEF(STIMER, "hv-stimer", "synthetic timers (hv-stimer)",
           HV_LEAF3, R_EAX, BIT(3), 0, 0, 0, FEAT(SYNIC) | FEAT(TIME)),
    HV_DEF(FREQUENCIES, "hv-frequencies", "frequency MSRs (hv-frequencies)",
           HV_LEAF3, R_EAX, BIT(11), HV_LEAF3, R_EDX, BIT(8), 0),
    HV_DEF(REENLIGHTENMENT, "hv-reenlightenment",
           "reenlightenment MSRs (hv-reenlightenment)",
           HV_LEAF3, R_EAX, BIT(13), 0, 0, 0, 0),
    HV_DEF(TLBFLUSH, "hv-tlbflush", "paravirtualized TLB flush (hv-tlbflush)",
           HV_LEAF4, R_EAX, BIT(2) | BIT(11), 0, 0, 0, FEAT(VPINDEX)),
    HV_DEF(EVMCS, "hv-evmcs", "enlightened VMCS (hv-evmcs)",
           HV_LEAF4, R_EAX, BIT(14), 0, 0, 0, FEAT(VAPIC)),
    HV_DEF(IPI, "hv-ipi", "paravirtualized IPI (hv-ipi)",
           HV_LEAF4, R_EAX, BIT(10) | BIT(11), 0, 0, 0, FEAT(VPINDEX)),
    HV_DEF(STIMER_DIRECT, "hv-stimer-direct",
           "direct mode synthetic timers (hv-stimer-direct)",
           HV_LEAF3, R_EDX, BIT(19), 0, 0, 0, FEAT(STIMER)),
    HV_DEF(AVIC, "hv-avic", "AVIC/APICv support (hv-avic/hv-apicv)",
           HV_LEAF4, R_EAX, BIT(9), 0, 0, 0, 0),
    HV_DEF(MSR_BITMAP, "hv-emsr-bitmap",
           "enlightened MSR-Bitmap (hv-emsr-bitmap)",
           HV_LEAFA, R_EAX, BIT(19), 0, 0, 0, 0),
    HV_DEF(XMM_INPUT, "hv-xmm-input", "XMM fast hypercall input (hv-xmm-input)",
           HV_LEAF3, R_EDX, BIT(4), 0, 0, 0, 0),
    HV_DEF(TLBFLUSH_EXT, "hv-tlbflush-ext",
           "Extended gva ranges for TLB flush hypercalls (hv-tlbflush-ext)",
           HV_LEAF3, R_EDX, BIT(14), 0, 0, 0, FEAT(TLBFLUSH)),
    HV_DEF(TLBFLUSH_DIRECT, "hv-tlbflush-direct",
           "direct TLB flush (hv-tlbflush-direct)",
           HV_LEAFA, R_EAX, BIT(17), 0, 0, 0, FEAT(VAPIC)),
    HV_DEF(SYNDBG, "hv-syndbg",
           "Enable synthetic kernel debugger channel (hv-syndbg)",
           HV_LEAF3, R_EDX, BIT(11), 0, 0, 0, FEAT(SYNIC) | FEAT(RELAXED)),
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
    /* QEMU 7.2's types: major and minor uint16, sbranch uint8 */
    HV_FIELD("hv-version-id-major", PROP_KIND_UINT16, hyperv_ver_id_major,
             "0x000A");
    HV_FIELD("hv-version-id-minor", PROP_KIND_UINT16, hyperv_ver_id_minor,
             "0x0000");
    HV_FIELD("hv-version-id-spack", PROP_KIND_UINT32, hyperv_ver_id_sp, "0");
    HV_FIELD("hv-version-id-sbranch", PROP_KIND_UINT8, hyperv_ver_id_sb, "0");
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

/* A register of a leaf of KVM_GET_SUPPORTED_HV_CPUID (0 if absent) */
static uint32_t hv_host_reg(const X86HostCaps *host, uint32_t leaf, int reg)
{
    guint j;

    for (j = 0; host && host->hv_cpuid && j < host->hv_cpuid->len; j++) {
        const X86HostCPUIDEntry *e =
            &g_array_index(host->hv_cpuid, X86HostCPUIDEntry, j);

        if (e->function == leaf) {
            return reg == R_EAX   ? e->eax
                   : reg == R_EBX ? e->ebx
                   : reg == R_ECX ? e->ecx
                                  : e->edx;
        }
    }
    return 0;
}

/*
 * Host support for one feature: every CPUID bit it needs is offered.  Hosts
 * without KVM_CAP_HYPERV_CPUID list in hv-cpuid what QEMU synthesises from
 * the older capabilities; IPI support is then KVM_CAP_HYPERV_SEND_IPI.
 */
bool x86_cpu_hyperv_host_supports(const X86HostCaps *host, HypervFeat f)
{
    const HypervFeatureDef *def = &hyperv_features[f];
    int i;

    if (!host || host->hyperv <= 0) {
        return false;
    }
    for (i = 0; i < 2 && def->flags[i].bits; i++) {
        uint32_t v = hv_host_reg(host, def->flags[i].leaf, def->flags[i].reg);

        if (!host->hyperv_cpuid && f == HYPERV_FEAT_IPI) {
            v = host->hyperv_send_ipi ? def->flags[i].bits : 0;
        }
        if ((v & def->flags[i].bits) != def->flags[i].bits) {
            return false;
        }
    }
    return true;
}

/* The leaf words QEMU sets up at realize: vendor, "Hv#1", limits */
static void hv_set_default_ids(X86CPU *cpu)
{
    const char *vendor = cpu->hyperv_vendor && cpu->hyperv_vendor[0]
                             ? cpu->hyperv_vendor
                             : "Microsoft Hv";
    size_t i, len = strlen(vendor);

    /* Longer vendor ids are cut to the 12 bytes the leaf holds */
    memset(cpu->hyperv_vendor_id, 0, sizeof(cpu->hyperv_vendor_id));
    for (i = 0; i < 12 && i < len; i++) {
        cpu->hyperv_vendor_id[i / 4] |= (uint32_t)(uint8_t)vendor[i]
                                        << (8 * (i % 4));
    }
    memset(cpu->hyperv_interface_id, 0, sizeof(cpu->hyperv_interface_id));
    cpu->hyperv_interface_id[0] = HV_INTERFACE_HV1;
    cpu->hyperv_limits[0] = 64;
    cpu->hyperv_limits[1] = 0;
    cpu->hyperv_limits[2] = 0;
}

/*
 * hv-passthrough: the host's identity, version, limits and spinlock count,
 * and every known feature it supports except those passthrough skips
 * (hv-syndbg) and those the user turned off.
 */
static void hv_passthrough(X86CPU *cpu, const X86HostCaps *host)
{
    static const int regs[4] = { R_EAX, R_EBX, R_ECX, R_EDX };
    uint32_t v;
    int i;

    for (i = 0; i < 3; i++) {
        cpu->hyperv_vendor_id[i] = hv_host_reg(host, HV_LEAF(0), regs[i + 1]);
    }
    g_free(cpu->hyperv_vendor);
    cpu->hyperv_vendor = g_strndup((const char *)cpu->hyperv_vendor_id, 12);
    for (i = 0; i < 4; i++) {
        cpu->hyperv_interface_id[i] = hv_host_reg(host, HV_LEAF(1), regs[i]);
    }
    cpu->hyperv_ver_id_build = hv_host_reg(host, HV_LEAF(2), R_EAX);
    v = hv_host_reg(host, HV_LEAF(2), R_EBX);
    cpu->hyperv_ver_id_major = v >> 16;
    cpu->hyperv_ver_id_minor = v & 0xffff;
    cpu->hyperv_ver_id_sp = hv_host_reg(host, HV_LEAF(2), R_ECX);
    v = hv_host_reg(host, HV_LEAF(2), R_EDX);
    cpu->hyperv_ver_id_sb = v >> 24;
    cpu->hyperv_ver_id_sn = v & 0xffffff;
    cpu->hyperv_max_vps = (int32_t)hv_host_reg(host, HV_LEAF(5), R_EAX);
    for (i = 0; i < 3; i++) {
        cpu->hyperv_limits[i] = hv_host_reg(host, HV_LEAF(5), regs[i + 1]);
    }
    cpu->hyperv_spinlock_attempts = hv_host_reg(host, HV_LEAF(4), R_EBX);
    for (i = 0; i < HYPERV_FEAT__MAX; i++) {
        if (i != HYPERV_FEAT_SYNDBG &&
            !(cpu->hyperv_user_features & (1ULL << i)) &&
            x86_cpu_hyperv_host_supports(host, i)) {
            cpu->hyperv_features |= 1ULL << i;
        }
    }
}

/*
 * This tree's auto-enable (docs/hyperv.md): each feature with its switch.
 * A feature is turned on only when every Hyper-V feature it depends on is
 * already on, so an auto-enabled feature never fails the checks below.
 */
static const struct {
    HypervFeat feat;
    size_t switch_offset;
} hv_auto_enable[] = {
    { HYPERV_FEAT_IPI, offsetof(X86CPU, hv_auto_enable_ipi) },
    { HYPERV_FEAT_TLBFLUSH, offsetof(X86CPU, hv_auto_enable_tlbflush) },
};

static void hv_auto_enable_features(X86CPU *cpu, const X86HostCaps *host)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(hv_auto_enable); i++) {
        HypervFeat f = hv_auto_enable[i].feat;
        uint64_t deps = hyperv_features[f].dependencies;
        bool on = *(bool *)((char *)cpu + hv_auto_enable[i].switch_offset);

        if (on && (cpu->hyperv_features & deps) == deps &&
            !(cpu->hyperv_user_features & (1ULL << f)) &&
            x86_cpu_hyperv_host_supports(host, f)) {
            cpu->hyperv_features |= 1ULL << f;
        }
    }
}

static bool hv_error_requires(HypervFeat f, HypervFeat dep, Error **errp)
{
    error_setg(errp, "Hyper-V %s requires Hyper-V %s", hyperv_features[f].desc,
               hyperv_features[dep].desc);
    return false;
}

/*
 * Machine types up to 7.2 on a host whose KVM has no Hyper-V at all: as
 * QEMU 7.2, the vCPU starts without Hyper-V (no leaves; the properties
 * still read as set) and no dependency is checked; only hv-vpindex fails,
 * with 7.2's text.  Where 7.2 aborts instead (it sets the feature's MSRs
 * anyway: hv-vapic, hv-time, hv-synic, hv-reenlightenment) this tree
 * refuses with its usual text.
 */
static bool hv_drop_unsupported(X86CPU *cpu, Error **errp)
{
    static const HypervFeat aborts_in_7_2[] = {
        HYPERV_FEAT_VAPIC, HYPERV_FEAT_TIME, HYPERV_FEAT_SYNIC,
        HYPERV_FEAT_REENLIGHTENMENT,
    };
    size_t i;

    if (cpu->hyperv_features & FEAT(VPINDEX)) {
        error_setg(errp, "kernel doesn't allow setting HyperV VP_INDEX");
        return false;
    }
    for (i = 0; i < G_N_ELEMENTS(aborts_in_7_2); i++) {
        HypervFeat f = aborts_in_7_2[i];

        if (cpu->hyperv_features & (1ULL << f)) {
            error_setg(errp, "Hyper-V %s is not supported by kernel",
                       hyperv_features[f].desc);
            return false;
        }
    }
    return true;
}

bool x86_cpu_hyperv_expand_features(X86CPU *cpu, const X86CPUEnv *env,
                                    Error **errp)
{
    const X86HostCaps *host = env->host;
    int i, j;

    hv_set_default_ids(cpu);
    if (env->accel != X86_ACCEL_KVM || !x86_cpu_hyperv_enabled(cpu)) {
        return true;
    }
    if (cpu->hyperv_passthrough && host && host->hyperv > 0) {
        hv_passthrough(cpu, host);
    }
    /*
     * This tree's auto-enable: hv-ipi and hv-tlbflush when VP_INDEX is on,
     * the user did not set the feature either way, and the host can do it;
     * silently off otherwise.
     */
    hv_auto_enable_features(cpu, host);
    if (host && host->hyperv <= 0 && !cpu->hv_refuse_unsupported) {
        return hv_drop_unsupported(cpu, errp);
    }
    /*
     * QEMU's order: feature by feature, host support first, then the
     * dependencies; hv-passthrough skips the check.  Without KVM_CAP_HYPERV
     * nothing is supported: this tree refuses the request from 8.0 on
     * (docs/hyperv.md).
     */
    for (i = 0; !cpu->hyperv_passthrough && i < HYPERV_FEAT__MAX; i++) {
        const HypervFeatureDef *def = &hyperv_features[i];

        if (!(cpu->hyperv_features & (1ULL << i))) {
            continue;
        }
        if (!x86_cpu_hyperv_host_supports(host, i)) {
            error_setg(errp, "Hyper-V %s is not supported by kernel",
                       def->desc);
            return false;
        }
        for (j = 0; j < HYPERV_FEAT__MAX; j++) {
            if ((def->dependencies & (1ULL << j)) &&
                !(cpu->hyperv_features & (1ULL << j))) {
                return hv_error_requires(i, j, errp);
            }
        }
    }
    /* SynIC needs VP_INDEX unless it is the KVM-only SynIC of <= 3.0 */
    if ((cpu->hyperv_features & FEAT(SYNIC)) && !cpu->hyperv_synic_kvm_only &&
        !(cpu->hyperv_features & FEAT(VPINDEX))) {
        return hv_error_requires(HYPERV_FEAT_SYNIC, HYPERV_FEAT_VPINDEX, errp);
    }
    return true;
}

/* The Hyper-V leaves ------------------------------------------------------ */

bool x86_cpu_hyperv_leaves_on(X86CPU *cpu, const X86CPUEnv *env)
{
    return env->accel == X86_ACCEL_KVM && env->host && env->host->hyperv > 0 &&
           x86_cpu_hyperv_enabled(cpu);
}

/* One register of a leaf: the bits of every enabled feature */
static uint32_t hv_build_leaf(X86CPU *cpu, uint32_t leaf, int reg)
{
    uint32_t r = 0;
    int i, j;

    for (i = 0; i < HYPERV_FEAT__MAX; i++) {
        if (!(cpu->hyperv_features & (1ULL << i))) {
            continue;
        }
        for (j = 0; j < 2; j++) {
            const HypervCPUIDBits *b = &hyperv_features[i].flags[j];

            if (b->bits && b->leaf == leaf && b->reg == reg) {
                r |= b->bits;
            }
        }
    }
    /* The nested leaf also carries the supported eVMCS version range */
    if (leaf == HV_LEAF(0xa) && reg == R_EAX &&
        (cpu->hyperv_features & FEAT(EVMCS))) {
        r |= HV_EVMCS_DEFAULT_VERSION;
    }
    return r;
}

static void hv_add(GArray *t, uint32_t fn, uint32_t eax, uint32_t ebx,
                   uint32_t ecx, uint32_t edx)
{
    X86CPUIDEntry e;

    /* Zeroed padding: tables are compared and dumped byte-wise */
    memset(&e, 0, sizeof(e));
    e.function = fn;
    e.eax = eax;
    e.ebx = ebx;
    e.ecx = ecx;
    e.edx = edx;
    g_array_append_val(t, e);
}

void x86_cpu_hyperv_add_leaves(GArray *t, X86CPU *cpu, const X86CPUEnv *env)
{
    uint64_t f = cpu->hyperv_features;
    uint32_t nested_eax = hv_build_leaf(cpu, HV_LEAF(0xa), R_EAX);
    uint32_t eax, ebx, fn;

    hv_add(t, HV_LEAF(0), nested_eax ? HV_LEAF(0xa) : HV_LEAF(5),
           cpu->hyperv_vendor_id[0], cpu->hyperv_vendor_id[1],
           cpu->hyperv_vendor_id[2]);
    hv_add(t, HV_LEAF(1), cpu->hyperv_interface_id[0],
           cpu->hyperv_interface_id[1], cpu->hyperv_interface_id[2],
           cpu->hyperv_interface_id[3]);
    hv_add(t, HV_LEAF(2), cpu->hyperv_ver_id_build,
           (uint32_t)cpu->hyperv_ver_id_major << 16 | cpu->hyperv_ver_id_minor,
           cpu->hyperv_ver_id_sp,
           (uint32_t)cpu->hyperv_ver_id_sb << 24 |
               (cpu->hyperv_ver_id_sn & 0xffffff));

    /* The hypercall page is needed by every enlightenment */
    ebx = hv_build_leaf(cpu, HV_LEAF(3), R_EBX);
    /* SynIC users (VMBus) need the message and event hypercalls */
    if ((f & FEAT(SYNIC)) && !cpu->hyperv_synic_kvm_only) {
        ebx |= HV_POST_MESSAGES | HV_SIGNAL_EVENTS;
    }
    hv_add(t, HV_LEAF(3),
           hv_build_leaf(cpu, HV_LEAF(3), R_EAX) | HV_HYPERCALL_AVAILABLE, ebx,
           hv_build_leaf(cpu, HV_LEAF(3), R_ECX),
           hv_build_leaf(cpu, HV_LEAF(3), R_EDX) |
               HV_CPU_DYNAMIC_PARTITIONING); /* Windows CPU hotplug */

    eax = hv_build_leaf(cpu, HV_LEAF(4), R_EAX);
    if ((f & FEAT(VAPIC)) && !(f & FEAT(AVIC))) {
        eax |= HV_APIC_ACCESS_RECOMMENDED;
    }
    if (cpu->hyperv_no_nonarch_cs == ON_OFF_AUTO_ON) {
        eax |= HV_NO_NONARCH_CORESHARING;
    } else if (cpu->hyperv_no_nonarch_cs == ON_OFF_AUTO_AUTO) {
        eax |= hv_host_reg(env->host, HV_LEAF(4), R_EAX) &
               HV_NO_NONARCH_CORESHARING;
    }
    hv_add(t, HV_LEAF(4), eax, cpu->hyperv_spinlock_attempts, 0, 0);

    hv_add(t, HV_LEAF(5), (uint32_t)cpu->hyperv_max_vps, cpu->hyperv_limits[0],
           cpu->hyperv_limits[1], cpu->hyperv_limits[2]);

    if (nested_eax) {
        for (fn = HV_LEAF(6); fn < HV_LEAF(0xa); fn++) {
            hv_add(t, fn, 0, 0, 0, 0);
        }
        hv_add(t, HV_LEAF(0xa), nested_eax, 0, 0, 0);
    }
}
