/*
 * X86CPU: the CPU object, its properties, and feature expansion.
 *
 * Expansion (design §2) turns a CPU model plus properties into the feature
 * words a vCPU gets, as a pure function of (model, properties, accelerator,
 * host capabilities).  Order, as QEMU 7.2 plus this tree's auto-enable step:
 *   model -> +/- features -> max/host fill -> auto-enable -> dependencies
 *   -> KVM word cleared without KVM -> XSAVE components -> level auto-raise
 * and then, at realize, host filtering with check/enforce.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "target/i386/cpu.h"
#include "target/i386/cpu-internal.h"

/* Bits used by the logic below (names follow the word table) */
#define CPUID_EXT_MONITOR (1ULL << 3)
#define CPUID_EXT_XSAVE (1ULL << 26)
#define CPUID_EXT_HYPERVISOR (1ULL << 31)
#define CPUID_EXT3_SVM (1ULL << 2)
#define CPUID_7_0_EBX_SGX (1ULL << 2)
#define CPUID_7_0_EBX_INTEL_PT (1ULL << 25)

/* Features and words ------------------------------------------------------ */

static void x86_cpu_set_feature_mask(X86CPU *cpu, FeatureWord w, uint64_t mask,
                                     bool on)
{
    if (on) {
        cpu->features[w] |= mask;
    } else {
        cpu->features[w] &= ~mask;
    }
    cpu->user_features[w] |= mask;
}

static JsonNode *x86_cpu_get_bit_prop(Object *obj, ObjectProperty *prop,
                                      Error **errp)
{
    X86CPU *cpu = X86_CPU(obj);
    FeatureWord w = prop->offset;
    uint64_t mask = prop->opaque;

    return json_node_init_boolean(json_node_alloc(),
                                  (cpu->features[w] & mask) == mask);
}

static bool x86_cpu_set_bit_prop(Object *obj, ObjectProperty *prop,
                                 JsonNode *value, Error **errp)
{
    X86CPU *cpu = X86_CPU(obj);

    if (cpu->realized) {
        error_setg(errp, "Attempt to set property '%s' on device '%s' "
                   "(type '%s') after it was realized", prop->name, "",
                   object_get_typename(obj));
        return false;
    }
    if (!JSON_NODE_HOLDS_VALUE(value) ||
        json_node_get_value_type(value) != G_TYPE_BOOLEAN) {
        error_setg(errp, "Invalid parameter type for '%s', expected: boolean",
                   prop->name);
        return false;
    }
    x86_cpu_set_feature_mask(cpu, prop->offset, prop->opaque,
                             json_node_get_boolean(value));
    return true;
}

void x86_cpu_register_feature_props(ObjectClass *oc)
{
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    FeatureWord w;
    int bit, i;

    for (w = 0; w < FEATURE_WORDS; w++) {
        for (bit = 0; bit < 64; bit++) {
            const char *name = feature_word_info[w].feat_names[bit];
            ObjectProperty *prop;
            FeatureWord lw;
            uint64_t mask;

            if (!name || g_hash_table_contains(seen, name)) {
                continue;
            }
            /* kvmclock names two bits: one property owns both */
            g_assert(x86_feature_lookup(name, &lw, &mask));
            prop = object_class_property_add(oc, name, "bool",
                                             x86_cpu_get_bit_prop,
                                             x86_cpu_set_bit_prop, NULL);
            prop->kind = PROP_KIND_BOOL;
            prop->offset = lw;
            prop->opaque = mask;
            g_hash_table_add(seen, (gpointer)name);
        }
    }
    for (i = 0; feature_aliases[i].alias; i++) {
        ObjectProperty *target =
            object_class_property_find(oc, feature_aliases[i].name);
        if (target && !object_class_property_find(oc, feature_aliases[i].alias)) {
            object_class_property_add_alias(oc, feature_aliases[i].alias,
                                            target);
        }
    }
    g_hash_table_destroy(seen);
}

/* Host support ------------------------------------------------------------ */

static uint64_t x86_cpu_get_migratable_flags(FeatureWord w)
{
    const FeatureWordInfo *wi = &feature_word_info[w];
    uint64_t r = 0;
    int i;

    for (i = 0; i < 64; i++) {
        uint64_t f = 1ULL << i;

        /* Named and not known to block migration, or listed as migratable */
        if ((f & wi->migratable_flags) ||
            (wi->feat_names[i] && !(f & wi->unmigratable_flags))) {
            r |= f;
        }
    }
    return r;
}

uint64_t x86_cpu_get_supported_feature_word(FeatureWord w,
                                            const X86CPUEnv *env)
{
    if (env->accel != X86_ACCEL_KVM) {
        /* QEMU's rule for accelerators other than KVM/HVF/TCG: all */
        return ~0ULL;
    }
    return kvm_cpu_supported_feature_word(env, w);
}

static uint64_t x86_cpu_max_fill_word(X86CPU *cpu, FeatureWord w,
                                      const X86CPUEnv *env)
{
    uint64_t r = x86_cpu_get_supported_feature_word(w, env);

    if (cpu->migratable) {
        r &= x86_cpu_get_migratable_flags(w);
    }
    return r;
}

/* Expansion --------------------------------------------------------------- */

/* Marks bits as unavailable: filtered_features, cleared, warned if verbose. */
static void x86_cpu_mark_unavailable(X86CPU *cpu, FeatureWord w, uint64_t mask,
                                     const char *verbose_prefix)
{
    const FeatureWordInfo *wi = &feature_word_info[w];
    int i;

    if (!mask) {
        return;
    }
    cpu->filtered_features[w] |= mask;
    if (!cpu->force_features) {
        cpu->features[w] &= ~mask;
    }
    if (!verbose_prefix || !(cpu->check_cpuid || cpu->enforce_cpuid)) {
        return;
    }
    for (i = 0; i < 64; i++) {
        if (mask & (1ULL << i)) {
            char *desc = x86_feature_word_description(w);
            const char *name = wi->feat_names[i];
            warn_report("%s: %s%s%s [bit %d]", verbose_prefix, desc,
                        name ? "." : "", name ? name : "", i);
            g_free(desc);
        }
    }
}

static void x86_cpu_adjust_level(uint32_t *min, uint32_t value)
{
    if (*min < value) {
        *min = value;
    }
}

static void x86_cpu_adjust_feat_level(X86CPU *cpu, FeatureWord w)
{
    const FeatureWordInfo *wi = &feature_word_info[w];
    uint32_t eax = wi->cpuid.eax;

    if (wi->type != CPUID_FEATURE_WORD || !cpu->features[w]) {
        return;
    }
    switch (eax & 0xF0000000) {
    case 0x00000000:
        x86_cpu_adjust_level(&cpu->min_level, eax);
        if (eax == 7) {
            x86_cpu_adjust_level(&cpu->min_level_func7, wi->cpuid.ecx);
        }
        break;
    case 0x80000000:
        x86_cpu_adjust_level(&cpu->min_xlevel, eax);
        break;
    case 0xC0000000:
        x86_cpu_adjust_level(&cpu->min_xlevel2, eax);
        break;
    }
}

/*
 * XSAVE state components offered to the guest follow the features that
 * use them (XCR0 bits of the SDM's state-component table).
 */
static const struct {
    int component;
    FeatureWord w;
    uint64_t bits;
} xsave_components[] = {
    { 0, FEAT_1_EDX, 1ULL << 0 },     /* x87: fpu */
    { 1, FEAT_1_EDX, 1ULL << 25 },    /* SSE: sse */
    { 2, FEAT_1_ECX, 1ULL << 28 },    /* AVX: avx */
    { 3, FEAT_7_0_EBX, 1ULL << 14 },  /* BNDREGS: mpx */
    { 4, FEAT_7_0_EBX, 1ULL << 14 },  /* BNDCSR: mpx */
    { 5, FEAT_7_0_EBX, 1ULL << 16 },  /* opmask: avx512f */
    { 6, FEAT_7_0_EBX, 1ULL << 16 },  /* ZMM_Hi256 */
    { 7, FEAT_7_0_EBX, 1ULL << 16 },  /* Hi16_ZMM */
    { 9, FEAT_7_0_ECX, 1ULL << 3 },   /* PKRU: pku */
    { 15, FEAT_7_0_EDX, 1ULL << 19 }, /* Arch LBR (supervisor): arch-lbr */
    { 17, FEAT_7_0_EDX, 1ULL << 24 }, /* XTILECFG: amx-tile */
    { 18, FEAT_7_0_EDX, 1ULL << 24 }, /* XTILEDATA: amx-tile */
};

#define XSTATE_XSS_MASK (1ULL << 15)

static void x86_cpu_enable_xsave_components(X86CPU *cpu)
{
    uint64_t mask = 0;
    size_t i;

    if (!(cpu->features[FEAT_1_ECX] & CPUID_EXT_XSAVE)) {
        cpu->features[FEAT_XSAVE_XCR0_LO] = 0;
        cpu->features[FEAT_XSAVE_XCR0_HI] = 0;
        return;
    }
    for (i = 0; i < G_N_ELEMENTS(xsave_components); i++) {
        if (cpu->features[xsave_components[i].w] & xsave_components[i].bits) {
            mask |= 1ULL << xsave_components[i].component;
        }
    }
    cpu->features[FEAT_XSAVE_XCR0_LO] = mask & ~XSTATE_XSS_MASK & 0xffffffff;
    cpu->features[FEAT_XSAVE_XCR0_HI] = (mask & ~XSTATE_XSS_MASK) >> 32;
    cpu->features[FEAT_XSAVE_XSS_LO] = mask & XSTATE_XSS_MASK & 0xffffffff;
    cpu->features[FEAT_XSAVE_XSS_HI] = (mask & XSTATE_XSS_MASK) >> 32;
}

/*
 * This tree's auto-enable step (design §2): a feature whose switch is on
 * is enabled under KVM when the user did not set it either way and the host
 * supports it; otherwise it stays as it is, silently.
 *
 * needs_kernel_lapic: the host serves the feature from its in-kernel
 * LAPIC.  For PV unhalt QEMU already hides the bit from the host's support
 * without one; PV send-IPI and sched-yield find their targets in the same
 * LAPIC map (KVM_HC_SEND_IPI fails with EOPNOTSUPP without it, so a guest
 * given the bit would lose IPIs), but QEMU does not hide them, so an
 * explicit request still gets them as in QEMU, only the auto-enable holds
 * back.  PV TLB flush rides on the steal-time page and needs no LAPIC.
 */
static const struct {
    FeatureWord w;
    uint64_t mask;
    size_t switch_offset;
    bool needs_kernel_lapic;
} kvm_auto_enable[] = {
    { FEAT_KVM, 1ULL << KVM_FEATURE_PV_EOI,
      offsetof(X86CPU, kvm_auto_enable_pv_eoi), false },
    { FEAT_KVM, 1ULL << KVM_FEATURE_PV_UNHALT,
      offsetof(X86CPU, kvm_auto_enable_pv_unhalt), true },
    { FEAT_KVM, 1ULL << KVM_FEATURE_PV_TLB_FLUSH,
      offsetof(X86CPU, kvm_auto_enable_pv_tlb_flush), false },
    { FEAT_KVM, 1ULL << KVM_FEATURE_PV_SEND_IPI,
      offsetof(X86CPU, kvm_auto_enable_pv_ipi), true },
    { FEAT_KVM, 1ULL << KVM_FEATURE_PV_SCHED_YIELD,
      offsetof(X86CPU, kvm_auto_enable_pv_sched_yield), true },
};

static void x86_cpu_auto_enable_features(X86CPU *cpu, const X86CPUEnv *env)
{
    size_t i;

    /* "base" is the static model with no features: it stays empty */
    if (env->accel != X86_ACCEL_KVM || !cpu->expose_kvm ||
        X86_CPU_GET_CLASS(cpu)->static_model) {
        return;
    }
    for (i = 0; i < G_N_ELEMENTS(kvm_auto_enable); i++) {
        FeatureWord w = kvm_auto_enable[i].w;
        uint64_t mask = kvm_auto_enable[i].mask;
        bool on = *(bool *)((char *)cpu + kvm_auto_enable[i].switch_offset);

        if (kvm_auto_enable[i].needs_kernel_lapic && !env->kernel_irqchip) {
            continue;
        }
        if (on && !(cpu->user_features[w] & mask) &&
            (x86_cpu_get_supported_feature_word(w, env) & mask) == mask) {
            cpu->features[w] |= mask;
        }
    }
}

bool x86_cpu_expand_features(X86CPU *cpu, const X86CPUEnv *env, Error **errp)
{
    FeatureWord w;
    size_t i;

    g_assert(!cpu->expanded);
    cpu->expanded = true;

    for (w = 0; w < FEATURE_WORDS; w++) {
        x86_cpu_set_feature_mask(cpu, w, cpu->plus_features[w], true);
        x86_cpu_set_feature_mask(cpu, w, cpu->minus_features[w], false);
    }

    if (cpu->max_features) {
        for (w = 0; w < FEATURE_WORDS; w++) {
            /* Only bits nobody set explicitly */
            cpu->features[w] |= x86_cpu_max_fill_word(cpu, w, env) &
                                ~cpu->user_features[w] &
                                ~feature_word_info[w].no_autoenable_flags;
        }
    }

    x86_cpu_auto_enable_features(cpu, env);

    for (i = 0; i < feature_dependencies_count; i++) {
        const FeatureDep *d = &feature_dependencies[i];

        if (!(cpu->features[d->from.index] & d->from.mask)) {
            uint64_t unavailable = cpu->features[d->to.index] & d->to.mask;

            /* Only an error for dependent bits the user asked for */
            x86_cpu_mark_unavailable(
                cpu, d->to.index, unavailable & cpu->user_features[d->to.index],
                "This feature depends on other features that were not "
                "requested");
            cpu->features[d->to.index] &= ~unavailable;
        }
    }

    if (env->accel != X86_ACCEL_KVM || !cpu->expose_kvm) {
        cpu->features[FEAT_KVM] = 0;
    }

    if (!x86_cpu_hyperv_expand_features(cpu, env, errp)) {
        return false;
    }

    x86_cpu_enable_xsave_components(cpu);

    /* Leaf 7's EBX always raised the level, even on old machine types */
    x86_cpu_adjust_feat_level(cpu, FEAT_7_0_EBX);
    if (cpu->full_cpuid_auto_level) {
        static const FeatureWord auto_level_words[] = {
            FEAT_1_EDX,         FEAT_1_ECX,         FEAT_6_EAX,
            FEAT_7_0_ECX,       FEAT_7_1_EAX,       FEAT_8000_0001_EDX,
            FEAT_8000_0001_ECX, FEAT_8000_0007_EDX, FEAT_8000_0008_EBX,
            FEAT_C000_0001_EDX, FEAT_SVM,           FEAT_XSAVE,
        };

        for (i = 0; i < G_N_ELEMENTS(auto_level_words); i++) {
            x86_cpu_adjust_feat_level(cpu, auto_level_words[i]);
        }
        if (cpu->features[FEAT_7_0_EBX] & CPUID_7_0_EBX_INTEL_PT) {
            if (cpu->intel_pt_auto_level) {
                x86_cpu_adjust_level(&cpu->min_level, 0x14);
            } else if (cpu->min_level < 0x14) {
                x86_cpu_mark_unavailable(
                    cpu, FEAT_7_0_EBX, CPUID_7_0_EBX_INTEL_PT,
                    "Intel PT need CPUID leaf 0x14, please set by \"-cpu "
                    "...,intel-pt=on,min-level=0x14\"");
            }
        }
        if (cpu->nr_dies > 1) {
            x86_cpu_adjust_level(&cpu->min_level, 0x1F);
        }
        if (cpu->features[FEAT_8000_0001_ECX] & CPUID_EXT3_SVM) {
            x86_cpu_adjust_level(&cpu->min_xlevel, 0x8000000A);
        }
        if (cpu->features[FEAT_7_0_EBX] & CPUID_7_0_EBX_SGX) {
            x86_cpu_adjust_level(&cpu->min_level, 0x12);
        }
    }

    /* Levels the user did not set follow the minimums */
    if (cpu->level == UINT32_MAX) {
        cpu->level = cpu->min_level;
    }
    if (cpu->xlevel == UINT32_MAX) {
        cpu->xlevel = cpu->min_xlevel;
    }
    if (cpu->xlevel2 == UINT32_MAX) {
        cpu->xlevel2 = cpu->min_xlevel2;
    }
    if (cpu->level_func7 == UINT32_MAX) {
        cpu->level_func7 = cpu->min_level_func7;
    }
    return true;
}

bool x86_cpu_filter_features(X86CPU *cpu, const X86CPUEnv *env, bool verbose)
{
    const char *prefix = NULL;
    bool ok = true;
    FeatureWord w;

    if (verbose) {
        prefix = env->accel == X86_ACCEL_KVM
                     ? "host doesn't support requested feature"
                     : "TCG doesn't support requested feature";
    }
    for (w = 0; w < FEATURE_WORDS; w++) {
        uint64_t host = x86_cpu_get_supported_feature_word(w, env);
        uint64_t unavailable = cpu->features[w] & ~host;

        if (unavailable) {
            ok = false;
        }
        x86_cpu_mark_unavailable(cpu, w, unavailable, prefix);
    }
    return ok;
}

static bool x86_cpu_have_filtered_features(X86CPU *cpu)
{
    FeatureWord w;

    for (w = 0; w < FEATURE_WORDS; w++) {
        if (cpu->filtered_features[w]) {
            return true;
        }
    }
    return false;
}

/*
 * phys-bits as QEMU 7.2 checks it at realize: in long mode 32 to 52 (what
 * the guest's page tables can address), after host-phys-bits replaced it
 * with the host's width under KVM, which warns (once) when a given value
 * differs from the host's; without long mode it is not the user's to set.
 */
static bool x86_cpu_check_phys_bits(X86CPU *cpu, const X86CPUEnv *env,
                                    Error **errp)
{
    static bool warned;
    uint32_t bits = cpu->phys_bits;

    if (!(cpu->features[FEAT_8000_0001_EDX] & CPUID_EXT2_LM)) {
        if (bits) {
            error_setg(errp, "phys-bits is not user-configurable in 32 bit");
            return false;
        }
        return true;
    }
    if (env->accel == X86_ACCEL_KVM && env->host) {
        uint32_t host_bits = x86_cpu_host_phys_bits(env);

        if (bits && bits != host_bits && !warned) {
            warn_report("Host physical bits (%u) does not match phys-bits "
                        "property (%u)", host_bits, bits);
            warned = true;
        }
        if (cpu->host_phys_bits) {
            bits = host_bits;
            if (cpu->host_phys_bits_limit &&
                bits > cpu->host_phys_bits_limit) {
                bits = cpu->host_phys_bits_limit;
            }
        }
    }
    if (bits && (bits < 32 || bits > 52)) {
        error_setg(errp, "phys-bits should be between 32 and 52  (but is %u)",
                   bits);
        return false;
    }
    return true;
}

bool x86_cpu_realize(X86CPU *cpu, const X86CPUEnv *env, Error **errp)
{
    if (!cpu->expanded && !x86_cpu_expand_features(cpu, env, errp)) {
        return false;
    }
    x86_cpu_filter_features(cpu, env, cpu->check_cpuid || cpu->enforce_cpuid);
    if (cpu->enforce_cpuid && x86_cpu_have_filtered_features(cpu)) {
        error_setg(errp, env->accel == X86_ACCEL_KVM
                             ? "Host doesn't support requested features"
                             : "TCG doesn't support requested features");
        return false;
    }
    /*
     * AMD's 0x80000001.EDX repeats 18 bits of leaf 1's EDX.  QEMU 7.2 copies
     * them at realize, after filtering, whenever the vCPU's vendor is AMD
     * (not Hygon): so feature-words show them, filtered-features and
     * query-cpu-model-expansion do not.  Under KVM a named model takes the
     * host's vendor, so on an AMD host every model gets them.
     */
    if (cpu->vendor && !strcmp(cpu->vendor, "AuthenticAMD")) {
        cpu->features[FEAT_8000_0001_EDX] =
            (cpu->features[FEAT_8000_0001_EDX] & ~CPUID_EXT2_AMD_ALIASES) |
            (cpu->features[FEAT_1_EDX] & CPUID_EXT2_AMD_ALIASES);
    }
    /*
     * -overcommit cpu-pm=on lets the guest MWAIT on its own; QEMU 7.2 then
     * shows MONITOR to host and max CPUs, after filtering (a named model
     * asking for it is filtered as usual)
     */
    if (cpu->max_features && env->accel == X86_ACCEL_KVM && env->cpu_pm) {
        cpu->features[FEAT_1_ECX] |= CPUID_EXT_MONITOR;
    }
    if (!x86_cpu_check_phys_bits(cpu, env, errp)) {
        return false;
    }
    cpu->realized = true;
    return true;
}

/*
 * The name a filtered bit is reported under.  XSAVE components have no
 * names of their own: they stand for the feature that enabled them, so a
 * filtered PKRU component is reported as "pku" (as QEMU 7.2 does).
 */
static const char *x86_cpu_feature_name(FeatureWord w, int bit)
{
    size_t i;

    if (w == FEAT_XSAVE_XCR0_LO || w == FEAT_XSAVE_XCR0_HI) {
        int comp = w == FEAT_XSAVE_XCR0_HI ? bit + 32 : bit;

        for (i = 0; i < G_N_ELEMENTS(xsave_components); i++) {
            if (xsave_components[i].component == comp) {
                w = xsave_components[i].w;
                bit = __builtin_ctzll(xsave_components[i].bits);
                break;
            }
        }
    }
    return feature_word_info[w].feat_names[bit];
}

GPtrArray *x86_cpu_get_unavailable_features(X86CPU *cpu)
{
    GPtrArray *names = g_ptr_array_new();
    FeatureWord w;
    int i;

    for (w = 0; w < FEATURE_WORDS; w++) {
        for (i = 0; i < 64; i++) {
            const char *name = x86_cpu_feature_name(w, i);
            if ((cpu->filtered_features[w] & (1ULL << i)) && name) {
                g_ptr_array_add(names, (gpointer)name);
            }
        }
    }
    return names;
}
