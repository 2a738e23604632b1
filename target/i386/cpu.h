/*
 * x86 CPU: feature words, CPU model definitions, the X86CPU object and
 * feature expansion.
 *
 * Tables live in feature-words.c (every CPUID/MSR feature word and its bit
 * names) and cpu-models.c (every CPU model of QEMU 7.2).  cpu.c holds the
 * logic: properties, expansion, filtering and the CPUID table a vCPU gets.
 */
#ifndef TARGET_I386_CPU_H
#define TARGET_I386_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/memory.h"
#include "hw/qdev-core.h"
#include "qom/object.h"
#include "target/i386/host-caps.h"

/* Feature words, in QEMU 7.2's order (the order of feature-words output) */
typedef enum FeatureWord {
    FEAT_1_EDX,         /* CPUID[1].EDX */
    FEAT_1_ECX,         /* CPUID[1].ECX */
    FEAT_7_0_EBX,       /* CPUID[EAX=7,ECX=0].EBX */
    FEAT_7_0_ECX,       /* CPUID[EAX=7,ECX=0].ECX */
    FEAT_7_0_EDX,       /* CPUID[EAX=7,ECX=0].EDX */
    FEAT_7_1_EAX,       /* CPUID[EAX=7,ECX=1].EAX */
    FEAT_8000_0001_EDX, /* CPUID[8000_0001].EDX */
    FEAT_8000_0001_ECX, /* CPUID[8000_0001].ECX */
    FEAT_8000_0007_EDX, /* CPUID[8000_0007].EDX */
    FEAT_8000_0008_EBX, /* CPUID[8000_0008].EBX */
    FEAT_C000_0001_EDX, /* CPUID[C000_0001].EDX */
    FEAT_KVM,           /* CPUID[4000_0001].EAX (KVM_CPUID_FEATURES) */
    FEAT_KVM_HINTS,     /* CPUID[4000_0001].EDX */
    FEAT_SVM,           /* CPUID[8000_000A].EDX */
    FEAT_XSAVE,         /* CPUID[EAX=0xd,ECX=1].EAX */
    FEAT_6_EAX,         /* CPUID[6].EAX */
    FEAT_XSAVE_XCR0_LO, /* CPUID[EAX=0xd,ECX=0].EAX */
    FEAT_XSAVE_XCR0_HI, /* CPUID[EAX=0xd,ECX=0].EDX */
    FEAT_ARCH_CAPABILITIES,
    FEAT_CORE_CAPABILITY,
    FEAT_PERF_CAPABILITIES,
    FEAT_VMX_PROCBASED_CTLS,
    FEAT_VMX_SECONDARY_CTLS,
    FEAT_VMX_PINBASED_CTLS,
    FEAT_VMX_EXIT_CTLS,
    FEAT_VMX_ENTRY_CTLS,
    FEAT_VMX_MISC,
    FEAT_VMX_EPT_VPID_CAPS,
    FEAT_VMX_BASIC,
    FEAT_VMX_VMFUNC,
    FEAT_14_0_ECX,
    FEAT_SGX_12_0_EAX,  /* CPUID[EAX=0x12,ECX=0].EAX (SGX) */
    FEAT_SGX_12_0_EBX,  /* CPUID[EAX=0x12,ECX=0].EBX (SGX MISCSELECT[31:0]) */
    FEAT_SGX_12_1_EAX,  /* CPUID[EAX=0x12,ECX=1].EAX (SGX ATTRIBUTES[31:0]) */
    FEAT_XSAVE_XSS_LO,  /* CPUID[EAX=0xd,ECX=1].ECX */
    FEAT_XSAVE_XSS_HI,  /* CPUID[EAX=0xd,ECX=1].EDX */
    FEATURE_WORDS,
} FeatureWord;

typedef uint64_t FeatureWordArray[FEATURE_WORDS];

typedef enum CPUIDReg { R_EAX, R_ECX, R_EDX, R_EBX } CPUIDReg;

typedef enum FeatureWordType {
    CPUID_FEATURE_WORD,
    MSR_FEATURE_WORD,
} FeatureWordType;

typedef struct FeatureWordInfo {
    FeatureWordType type;
    /* Bit names; NULL for bits QEMU leaves unnamed. */
    const char *feat_names[64];
    union {
        struct {
            uint32_t eax;    /* CPUID leaf */
            bool needs_ecx;  /* the word is per subleaf */
            uint32_t ecx;    /* subleaf, if needs_ecx */
            CPUIDReg reg;
        } cpuid;
        struct {
            uint32_t index;  /* MSR number */
        } msr;
    };
    /* Bits max/host never turn on by themselves. */
    uint64_t no_autoenable_flags;
    /* Bits that block migration when on (not in migratable max/host). */
    uint64_t unmigratable_flags;
    /* Bits whose migratability is unknown: only with migratable=off. */
    uint64_t migratable_flags;
} FeatureWordInfo;

extern const FeatureWordInfo feature_word_info[FEATURE_WORDS];

/*
 * Other names a feature property answers to (QEMU's aliases such as
 * "sse4_1" for "sse4.1").  Terminated by {NULL, NULL}.
 */
typedef struct FeatureAlias {
    const char *alias;
    const char *name;
} FeatureAlias;
extern const FeatureAlias feature_aliases[];

/* One bit dropped when another is off (expansion step "dependencies"). */
typedef struct FeatureMask {
    FeatureWord index;
    uint64_t mask;
} FeatureMask;
typedef struct FeatureDep {
    FeatureMask from, to;
} FeatureDep;
extern const FeatureDep feature_dependencies[];
extern const size_t feature_dependencies_count;

/* Finds a feature by canonical name or alias ("sse4_1", "sse4-1" too). */
bool x86_feature_lookup(const char *name, FeatureWord *w, uint64_t *mask);
/* "CPUID.01H:ECX" / "MSR(10AH)" style description of a word, for warnings */
char *x86_feature_word_description(FeatureWord w);
const char *x86_cpuid_reg_name(CPUIDReg reg);

/* CPU model definitions (cpu-models.c) ---------------------------------- */

/* A property write: versions and compat data are lists of these. */
typedef struct PropValue {
    const char *prop;
    const char *value;
} PropValue;

typedef struct X86CPUVersionDefinition {
    int version;
    const char *alias;        /* e.g. "Haswell-noTSX" for Haswell-v2 */
    const PropValue *props;   /* applied on top of the previous versions */
    const char *note;         /* model-id note shown by -cpu help */
} X86CPUVersionDefinition;

typedef struct X86CPUDefinition {
    const char *name;
    uint32_t level;           /* minimum level, raised by expansion */
    uint32_t xlevel;
    uint32_t xlevel2;
    const char *vendor;       /* "GenuineIntel", "AuthenticAMD", ... */
    int family, model, stepping;
    /* Space-separated feature names (canonical, as in the word table) */
    const char *features;
    const char *model_id;
    /* Named cache description, or NULL for the legacy cache leaves */
    const char *cache_info;
    /* Versions 1..N; v1 has no props.  NULL means one version only. */
    const X86CPUVersionDefinition *versions;
    const char *deprecation_note;
} X86CPUDefinition;

extern const X86CPUDefinition builtin_x86_defs[];
extern const size_t builtin_x86_defs_count;

/* X86CPU ------------------------------------------------------------------ */

#define TYPE_X86_CPU "x86_64-cpu"
#define X86_CPU_TYPE_SUFFIX "-" TYPE_X86_CPU
#define X86_CPU_TYPE_NAME(name) (name X86_CPU_TYPE_SUFFIX)

/* A model as registered: one per definition version plus the alias type. */
typedef struct X86CPUModel {
    const X86CPUDefinition *cpudef;
    int version;              /* CPU_VERSION_AUTO for the unversioned alias */
    const char *alias_of_versioned; /* for "-vN" aliases like Haswell-noTSX */
    bool is_alias;            /* the unversioned name (resolves per machine) */
} X86CPUModel;

#define CPU_VERSION_LATEST -1
#define CPU_VERSION_AUTO -2
#define CPU_VERSION_LEGACY 0

typedef struct X86CPUClass {
    DeviceClass parent_class;
    const X86CPUModel *model; /* NULL for base, host, max */
    bool host_cpuid_required; /* host */
    bool max_features;        /* host and max */
    bool static_model;        /* base */
    bool migration_safe;
    int ordering;
    const char *model_description;
} X86CPUClass;

/* KVM leaf bits the auto-enable properties manage (kvm_para.h numbering) */
#define KVM_FEATURE_PV_EOI 6
#define KVM_FEATURE_PV_UNHALT 7
#define KVM_FEATURE_PV_TLB_FLUSH 9
#define KVM_FEATURE_PV_SEND_IPI 11
#define KVM_FEATURE_PV_SCHED_YIELD 13

typedef struct X86CPU {
    DeviceState parent_obj;

    FeatureWordArray features;
    /* Bits written after the model loaded: by the accelerator's defaults,
     * compat entries, -global, -cpu k=v or +/-feat.  Auto-enable and max
     * fill never touch these. */
    FeatureWordArray user_features;
    FeatureWordArray plus_features;
    FeatureWordArray minus_features;
    FeatureWordArray filtered_features;

    uint32_t level, xlevel, xlevel2;          /* UINT32_MAX = automatic */
    uint32_t min_level, min_xlevel, min_xlevel2;
    uint32_t level_func7, min_level_func7;    /* CPUID[7].EAX: subleaves */
    uint32_t family, model, stepping;
    char *vendor;
    char *model_id;

    bool check_cpuid;
    bool enforce_cpuid;
    bool expose_kvm;
    bool migratable;
    bool max_features;
    bool full_cpuid_auto_level;
    bool intel_pt_auto_level;
    bool l3_cache;
    bool legacy_cache;
    bool enable_cpuid_0xb;
    bool vmware_cpuid_freq;
    bool expose_tcg;
    bool migrate_smi_count;
    bool vendor_cpuid_only;
    bool fill_mtrr_mask;
    bool kvm_no_smi_migration;
    bool cache_info_passthrough;
    bool kvm_pv_enforce_cpuid;
    bool pmu;
    bool lmce;
    bool host_phys_bits;
    uint32_t phys_bits;
    uint8_t host_phys_bits_limit;
    bool force_features;
    bool start_powered_off;
    int64_t tsc_frequency;
    uint64_t ucode_rev;
    int32_t socket_id, die_id, core_id, thread_id, node_id;

    /* This tree's auto-enable switches (design §2) */
    bool kvm_auto_enable_pv_eoi;
    bool kvm_auto_enable_pv_unhalt;
    bool kvm_auto_enable_pv_tlb_flush;
    bool kvm_auto_enable_pv_ipi;
    bool kvm_auto_enable_pv_sched_yield;
    bool hv_auto_enable_ipi;
    bool hv_auto_enable_tlbflush;
    /*
     * Off (pc_compat_7_2): hv-* the host's KVM lacks entirely (no
     * KVM_CAP_HYPERV) are dropped as QEMU 7.2 drops them
     */
    bool hv_refuse_unsupported;

    /* Hyper-V (hv-* bits, see hyperv.h) */
    uint64_t hyperv_features;
    uint64_t hyperv_user_features;
    uint32_t hyperv_spinlock_attempts;
    char *hyperv_vendor;
    uint32_t hyperv_ver_id_build;
    uint16_t hyperv_ver_id_major, hyperv_ver_id_minor;
    uint32_t hyperv_ver_id_sp, hyperv_ver_id_sn;
    uint8_t hyperv_ver_id_sb;
    int32_t hyperv_max_vps;
    /* Leaf words set at expansion (hv-passthrough: the host's) */
    uint32_t hyperv_vendor_id[3];
    uint32_t hyperv_interface_id[4];
    uint32_t hyperv_limits[3];
    bool hyperv_synic_kvm_only;
    bool hyperv_passthrough;
    bool hyperv_enforce_cpuid;
    int hyperv_no_nonarch_cs; /* OnOffAuto */

    /* Topology and identity, set by the machine before realize */
    uint32_t apic_id;
    int cpu_index;
    /* "cpu-memory-N": the vCPU's view of memory (the system's) */
    AddressSpace as;
    uint32_t nr_dies, nr_cores, nr_threads;

    /* Set by x86_cpu_parse_featurestr: mixing +f and f=v warns */
    bool expanded;
    bool realized;
} X86CPU;

#define X86_CPU(obj) ((X86CPU *)(obj))
#define X86_CPU_GET_CLASS(obj) ((X86CPUClass *)OBJECT_GET_CLASS(obj))
#define X86_CPU_CLASS(oc) ((X86CPUClass *)(oc))

/* Accelerator a CPU is expanded for */
typedef enum X86Accel {
    X86_ACCEL_QTEST, /* nothing filtered, no KVM word (QEMU's "other") */
    X86_ACCEL_KVM,
} X86Accel;

/*
 * The environment expansion depends on: the accelerator and, for KVM,
 * what the host supports.  Tests build this with fake hosts.
 */
typedef struct X86CPUEnv {
    X86Accel accel;
    const X86HostCaps *host; /* required for KVM */
    bool kernel_irqchip;     /* in-kernel LAPIC: kvm-pv-unhalt needs it */
    bool split_irqchip;      /* kernel-irqchip=split */
    /*
     * Machine types up to 2.1 (svm) and 1.7 (x2apic) predate these KVM
     * defaults for named models: the model's own value stays.
     */
    bool legacy_kvm_svm_default;
    bool legacy_kvm_x2apic_default;
    bool cpu_pm;             /* -overcommit cpu-pm=on */
} X86CPUEnv;

/* Model name <-> type name */
char *x86_cpu_type_name(const char *model_name);
char *x86_cpu_class_get_model_name(X86CPUClass *cc);
/* Resolves "Haswell" (+ machine default version) to its class. */
ObjectClass *x86_cpu_class_by_name(const char *model_name);
/* Machine's default CPU version for unversioned names. */
void x86_cpu_set_default_version(int version);
int x86_cpu_get_default_version(void);
/* The versioned model an unversioned name resolves to, or NULL. */
char *x86_cpu_class_get_alias_of(X86CPUClass *cc);

/*
 * The -cpu option, "model[,+feat][,-feat][,feat=val]...", parsed once:
 * k=v become global properties for the model's type (QEMU registers them
 * after every -global, so they win), +/- features are kept as names and
 * applied at expansion, over any k=v.  Mixing "+f" and later "f=v" warns
 * ("Ambiguous CPU model string").
 */
typedef struct X86CPUOptions {
    char *model;
    char *typename;
    GPtrArray *props; /* GlobalProperty*, driver = typename */
    GPtrArray *plus;  /* char* */
    GPtrArray *minus; /* char* */
} X86CPUOptions;

X86CPUOptions *x86_cpu_parse_option(const char *cpu_option, Error **errp);
void x86_cpu_options_free(X86CPUOptions *opts);

/*
 * Creates the CPU and applies, in order: model, accelerator defaults,
 * compat entries, -global, then the -cpu properties (opts may be NULL).
 * The result is ready for x86_cpu_expand_features.
 */
X86CPU *x86_cpu_new(ObjectClass *oc, const X86CPUEnv *env,
                    const GPtrArray *compat_props,
                    const GPtrArray *global_props, const X86CPUOptions *opts,
                    Error **errp);

/* Expansion steps a..h of design §2 (no filtering).  Pure. */
bool x86_cpu_expand_features(X86CPU *cpu, const X86CPUEnv *env, Error **errp);
/* Host filtering; returns true if nothing requested was missing. */
bool x86_cpu_filter_features(X86CPU *cpu, const X86CPUEnv *env, bool verbose);
/* Expand + filter + check/enforce, as at vCPU realize. */
bool x86_cpu_realize(X86CPU *cpu, const X86CPUEnv *env, Error **errp);
/* The host's physical address width as CPUID 0x80000008 reports it */
uint32_t x86_cpu_host_phys_bits(const X86CPUEnv *env);

/* What the host offers for a word under env (all ones for qtest). */
uint64_t x86_cpu_get_supported_feature_word(FeatureWord w,
                                            const X86CPUEnv *env);

/* The CPUID table a vCPU gets (design §2): computed after realize. */
typedef struct X86CPUIDEntry {
    uint32_t function, index;
    bool significant_index;
    uint32_t eax, ebx, ecx, edx;
} X86CPUIDEntry;
GArray *x86_cpu_build_cpuid_table(X86CPU *cpu, const X86CPUEnv *env);
/* One CPUID query against a realized CPU, as the guest would see it. */
void x86_cpu_cpuid(X86CPU *cpu, const X86CPUEnv *env, uint32_t index,
                   uint32_t count, uint32_t *eax, uint32_t *ebx, uint32_t *ecx,
                   uint32_t *edx);

/* -cpu help */
void x86_cpu_list(void);
/* Names of filtered features ("unavailable-features") */
GPtrArray *x86_cpu_get_unavailable_features(X86CPU *cpu);

#endif
