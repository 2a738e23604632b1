/*
 * x86 feature words: every CPUID and MSR feature word of QEMU 7.2 with its
 * bit names, plus the name aliases, the dependencies between bits and the
 * lookup helpers built on them.  This is a data file; cpu.c has the logic.
 *
 * Names are QEMU 7.2's exactly, duplicates included: "kvmclock" names bits
 * 0 and 3 of the KVM word and "vmx-invept-single-context" bits 25 and 41 of
 * the EPT/VPID capabilities; a lookup of such a name yields both bits.
 */
#include <string.h>
#include <glib.h>

#include "target/i386/cpu.h"

#define BIT64(n) (1ULL << (n))

/*
 * XCR0 components QEMU 7.2 lets a migratable max/host CPU take from the
 * host (the AMX tile components 17/18 are not in the list in 7.2).
 */
#define XCR0_MIGRATABLE \
    (BIT64(0) /* x87 */ | BIT64(1) /* SSE */ | BIT64(2) /* YMM */ | \
     BIT64(3) /* BNDREGS */ | BIT64(4) /* BNDCSR */ | \
     BIT64(5) /* opmask */ | BIT64(6) /* ZMM_Hi256 */ | \
     BIT64(7) /* Hi16_ZMM */ | BIT64(9) /* PKRU */)

#define CPUID_WORD(leaf, reg_) \
    .type = CPUID_FEATURE_WORD, \
    .cpuid = { .eax = (leaf), .reg = (reg_) }
#define CPUID_SUBLEAF_WORD(leaf, subleaf, reg_) \
    .type = CPUID_FEATURE_WORD, \
    .cpuid = { .eax = (leaf), .needs_ecx = true, .ecx = (subleaf), \
               .reg = (reg_) }
#define MSR_WORD(idx) \
    .type = MSR_FEATURE_WORD, \
    .msr = { .index = (idx) }

const FeatureWordInfo feature_word_info[FEATURE_WORDS] = {
    [FEAT_1_EDX] = {
        CPUID_WORD(0x1, R_EDX),
        .feat_names = {
            [0] = "fpu", [1] = "vme", [2] = "de", [3] = "pse",
            [4] = "tsc", [5] = "msr", [6] = "pae", [7] = "mce",
            [8] = "cx8", [9] = "apic", [11] = "sep",
            [12] = "mtrr", [13] = "pge", [14] = "mca", [15] = "cmov",
            [16] = "pat", [17] = "pse36", [18] = "pn", [19] = "clflush",
            [21] = "ds", [22] = "acpi", [23] = "mmx",
            [24] = "fxsr", [25] = "sse", [26] = "sse2", [27] = "ss",
            [28] = "ht", [29] = "tm", [30] = "ia64", [31] = "pbe",
        },
    },
    [FEAT_1_ECX] = {
        CPUID_WORD(0x1, R_ECX),
        .feat_names = {
            [0] = "pni", [1] = "pclmulqdq", [2] = "dtes64", [3] = "monitor",
            [4] = "ds-cpl", [5] = "vmx", [6] = "smx", [7] = "est",
            [8] = "tm2", [9] = "ssse3", [10] = "cid",
            [12] = "fma", [13] = "cx16", [14] = "xtpr", [15] = "pdcm",
            [17] = "pcid", [18] = "dca", [19] = "sse4.1",
            [20] = "sse4.2", [21] = "x2apic", [22] = "movbe",
            [23] = "popcnt",
            [24] = "tsc-deadline", [25] = "aes", [26] = "xsave",
            [28] = "avx", [29] = "f16c", [30] = "rdrand",
            [31] = "hypervisor",
        },
    },
    [FEAT_7_0_EBX] = {
        CPUID_SUBLEAF_WORD(0x7, 0, R_EBX),
        .feat_names = {
            [0] = "fsgsbase", [1] = "tsc-adjust", [2] = "sgx", [3] = "bmi1",
            [4] = "hle", [5] = "avx2", [7] = "smep",
            [8] = "bmi2", [9] = "erms", [10] = "invpcid", [11] = "rtm",
            [14] = "mpx",
            [16] = "avx512f", [17] = "avx512dq", [18] = "rdseed",
            [19] = "adx",
            [20] = "smap", [21] = "avx512ifma", [22] = "pcommit",
            [23] = "clflushopt",
            [24] = "clwb", [25] = "intel-pt", [26] = "avx512pf",
            [27] = "avx512er",
            [28] = "avx512cd", [29] = "sha-ni", [30] = "avx512bw",
            [31] = "avx512vl",
        },
    },
    [FEAT_7_0_ECX] = {
        CPUID_SUBLEAF_WORD(0x7, 0, R_ECX),
        .feat_names = {
            [1] = "avx512vbmi", [2] = "umip", [3] = "pku",
            [5] = "waitpkg", [6] = "avx512vbmi2",
            [8] = "gfni", [9] = "vaes", [10] = "vpclmulqdq",
            [11] = "avx512vnni",
            [12] = "avx512bitalg", [14] = "avx512-vpopcntdq",
            [16] = "la57",
            [22] = "rdpid",
            [24] = "bus-lock-detect", [25] = "cldemote", [27] = "movdiri",
            [28] = "movdir64b", [30] = "sgxlc", [31] = "pks",
        },
    },
    [FEAT_7_0_EDX] = {
        CPUID_SUBLEAF_WORD(0x7, 0, R_EDX),
        .feat_names = {
            [2] = "avx512-4vnniw", [3] = "avx512-4fmaps",
            [4] = "fsrm",
            [8] = "avx512-vp2intersect", [10] = "md-clear",
            [14] = "serialize",
            [16] = "tsx-ldtrk", [19] = "arch-lbr",
            [22] = "amx-bf16", [23] = "avx512-fp16",
            [24] = "amx-tile", [25] = "amx-int8", [26] = "spec-ctrl",
            [27] = "stibp",
            [29] = "arch-capabilities", [30] = "core-capability",
            [31] = "ssbd",
        },
    },
    [FEAT_7_1_EAX] = {
        CPUID_SUBLEAF_WORD(0x7, 1, R_EAX),
        .feat_names = {
            [4] = "avx-vnni", [5] = "avx512-bf16",
        },
    },
    [FEAT_8000_0001_EDX] = {
        /* Bits that mirror CPUID[1].EDX on AMD are left unnamed. */
        CPUID_WORD(0x80000001, R_EDX),
        .feat_names = {
            [11] = "syscall",
            [20] = "nx", [22] = "mmxext",
            [25] = "fxsr-opt", [26] = "pdpe1gb", [27] = "rdtscp",
            [29] = "lm", [30] = "3dnowext", [31] = "3dnow",
        },
    },
    [FEAT_8000_0001_ECX] = {
        CPUID_WORD(0x80000001, R_ECX),
        .feat_names = {
            [0] = "lahf-lm", [1] = "cmp-legacy", [2] = "svm",
            [3] = "extapic",
            [4] = "cr8legacy", [5] = "abm", [6] = "sse4a",
            [7] = "misalignsse",
            [8] = "3dnowprefetch", [9] = "osvw", [10] = "ibs", [11] = "xop",
            [12] = "skinit", [13] = "wdt", [15] = "lwp",
            [16] = "fma4", [17] = "tce", [19] = "nodeid-msr",
            [21] = "tbm", [22] = "topoext", [23] = "perfctr-core",
            [24] = "perfctr-nb",
        },
        /* Needs a consistent cache topology: never enabled blindly */
        .no_autoenable_flags = BIT64(22), /* topoext */
    },
    [FEAT_8000_0007_EDX] = {
        CPUID_WORD(0x80000007, R_EDX),
        .feat_names = {
            [8] = "invtsc",
        },
        .unmigratable_flags = BIT64(8), /* invtsc */
    },
    [FEAT_8000_0008_EBX] = {
        CPUID_WORD(0x80000008, R_EBX),
        .feat_names = {
            [0] = "clzero", [2] = "xsaveerptr",
            [9] = "wbnoinvd",
            [12] = "ibpb", [14] = "ibrs", [15] = "amd-stibp",
            [24] = "amd-ssbd", [25] = "virt-ssbd", [26] = "amd-no-ssb",
        },
    },
    [FEAT_C000_0001_EDX] = {
        CPUID_WORD(0xC0000001, R_EDX),
        .feat_names = {
            [2] = "xstore", [3] = "xstore-en",
            [6] = "xcrypt", [7] = "xcrypt-en",
            [8] = "ace2", [9] = "ace2-en", [10] = "phe", [11] = "phe-en",
            [12] = "pmm", [13] = "pmm-en",
        },
    },
    [FEAT_KVM] = {
        CPUID_WORD(0x40000001, R_EAX),
        .feat_names = {
            [0] = "kvmclock", [1] = "kvm-nopiodelay", [2] = "kvm-mmu",
            [3] = "kvmclock",
            [4] = "kvm-asyncpf", [5] = "kvm-steal-time", [6] = "kvm-pv-eoi",
            [7] = "kvm-pv-unhalt",
            [9] = "kvm-pv-tlb-flush", [11] = "kvm-pv-ipi",
            [12] = "kvm-poll-control", [13] = "kvm-pv-sched-yield",
            [14] = "kvm-asyncpf-int", [15] = "kvm-msi-ext-dest-id",
            [24] = "kvmclock-stable-bit",
        },
    },
    [FEAT_KVM_HINTS] = {
        CPUID_WORD(0x40000001, R_EDX),
        .feat_names = {
            [0] = "kvm-hint-dedicated",
        },
        /* Hints describe the host; max/host never set them on their own */
        .no_autoenable_flags = ~0U,
    },
    [FEAT_SVM] = {
        CPUID_WORD(0x8000000A, R_EDX),
        .feat_names = {
            [0] = "npt", [1] = "lbrv", [2] = "svm-lock", [3] = "nrip-save",
            [4] = "tsc-scale", [5] = "vmcb-clean", [6] = "flushbyasid",
            [7] = "decodeassists",
            [10] = "pause-filter",
            [12] = "pfthreshold", [13] = "avic", [15] = "v-vmsave-vmload",
            [16] = "vgif",
            [28] = "svme-addr-chk",
        },
    },
    [FEAT_XSAVE] = {
        CPUID_SUBLEAF_WORD(0xD, 1, R_EAX),
        .feat_names = {
            [0] = "xsaveopt", [1] = "xsavec", [2] = "xgetbv1",
            [3] = "xsaves",
            [4] = "xfd",
        },
    },
    [FEAT_6_EAX] = {
        CPUID_WORD(0x6, R_EAX),
        .feat_names = {
            [2] = "arat",
        },
    },
    [FEAT_XSAVE_XCR0_LO] = {
        CPUID_SUBLEAF_WORD(0xD, 0, R_EAX),
        .migratable_flags = XCR0_MIGRATABLE,
    },
    [FEAT_XSAVE_XCR0_HI] = {
        CPUID_SUBLEAF_WORD(0xD, 0, R_EDX),
    },
    [FEAT_ARCH_CAPABILITIES] = {
        MSR_WORD(0x10A),
        .feat_names = {
            [0] = "rdctl-no", [1] = "ibrs-all", [2] = "rsba",
            [3] = "skip-l1dfl-vmentry",
            [4] = "ssb-no", [5] = "mds-no", [6] = "pschange-mc-no",
            [7] = "tsx-ctrl",
            [8] = "taa-no",
        },
    },
    [FEAT_CORE_CAPABILITY] = {
        MSR_WORD(0xCF),
        .feat_names = {
            [5] = "split-lock-detect",
        },
    },
    [FEAT_PERF_CAPABILITIES] = {
        MSR_WORD(0x345),
        .feat_names = {
            [13] = "full-width-write",
        },
    },
    [FEAT_VMX_PROCBASED_CTLS] = {
        MSR_WORD(0x48E), /* IA32_VMX_TRUE_PROCBASED_CTLS */
        .feat_names = {
            [2] = "vmx-vintr-pending", [3] = "vmx-tsc-offset",
            [7] = "vmx-hlt-exit",
            [9] = "vmx-invlpg-exit", [10] = "vmx-mwait-exit",
            [11] = "vmx-rdpmc-exit",
            [12] = "vmx-rdtsc-exit", [15] = "vmx-cr3-load-noexit",
            [16] = "vmx-cr3-store-noexit", [19] = "vmx-cr8-load-exit",
            [20] = "vmx-cr8-store-exit", [21] = "vmx-flexpriority",
            [22] = "vmx-vnmi-pending", [23] = "vmx-movdr-exit",
            [24] = "vmx-io-exit", [25] = "vmx-io-bitmap", [27] = "vmx-mtf",
            [28] = "vmx-msr-bitmap", [29] = "vmx-monitor-exit",
            [30] = "vmx-pause-exit", [31] = "vmx-secondary-ctls",
        },
    },
    [FEAT_VMX_SECONDARY_CTLS] = {
        MSR_WORD(0x48B), /* IA32_VMX_PROCBASED_CTLS2 */
        .feat_names = {
            [0] = "vmx-apicv-xapic", [1] = "vmx-ept", [2] = "vmx-desc-exit",
            [3] = "vmx-rdtscp-exit",
            [4] = "vmx-apicv-x2apic", [5] = "vmx-vpid",
            [6] = "vmx-wbinvd-exit", [7] = "vmx-unrestricted-guest",
            [8] = "vmx-apicv-register", [9] = "vmx-apicv-vid",
            [10] = "vmx-ple", [11] = "vmx-rdrand-exit",
            [12] = "vmx-invpcid-exit", [13] = "vmx-vmfunc",
            [14] = "vmx-shadow-vmcs", [15] = "vmx-encls-exit",
            [16] = "vmx-rdseed-exit", [17] = "vmx-pml",
            [20] = "vmx-xsaves",
            [25] = "vmx-tsc-scaling",
        },
    },
    [FEAT_VMX_PINBASED_CTLS] = {
        MSR_WORD(0x48D), /* IA32_VMX_TRUE_PINBASED_CTLS */
        .feat_names = {
            [0] = "vmx-intr-exit", [3] = "vmx-nmi-exit",
            [5] = "vmx-vnmi", [6] = "vmx-preemption-timer",
            [7] = "vmx-posted-intr",
        },
    },
    [FEAT_VMX_EXIT_CTLS] = {
        MSR_WORD(0x48F), /* IA32_VMX_TRUE_EXIT_CTLS */
        .feat_names = {
            [2] = "vmx-exit-nosave-debugctl",
            [12] = "vmx-exit-load-perf-global-ctrl",
            [15] = "vmx-exit-ack-intr",
            [18] = "vmx-exit-save-pat", [19] = "vmx-exit-load-pat",
            [20] = "vmx-exit-save-efer", [21] = "vmx-exit-load-efer",
            [22] = "vmx-exit-save-preemption-timer",
            [23] = "vmx-exit-clear-bndcfgs",
            [25] = "vmx-exit-clear-rtit-ctl",
            [29] = "vmx-exit-load-pkrs",
        },
    },
    [FEAT_VMX_ENTRY_CTLS] = {
        MSR_WORD(0x490), /* IA32_VMX_TRUE_ENTRY_CTLS */
        .feat_names = {
            [2] = "vmx-entry-noload-debugctl",
            [9] = "vmx-entry-ia32e-mode",
            [13] = "vmx-entry-load-perf-global-ctrl",
            [14] = "vmx-entry-load-pat", [15] = "vmx-entry-load-efer",
            [16] = "vmx-entry-load-bndcfgs",
            [18] = "vmx-entry-load-rtit-ctl",
            [22] = "vmx-entry-load-pkrs",
        },
    },
    [FEAT_VMX_MISC] = {
        MSR_WORD(0x485),
        .feat_names = {
            [5] = "vmx-store-lma", [6] = "vmx-activity-hlt",
            [7] = "vmx-activity-shutdown",
            [8] = "vmx-activity-wait-sipi",
            [29] = "vmx-vmwrite-vmexit-fields",
            [30] = "vmx-zero-len-inject",
        },
    },
    [FEAT_VMX_EPT_VPID_CAPS] = {
        MSR_WORD(0x48C),
        .feat_names = {
            [0] = "vmx-ept-execonly",
            [6] = "vmx-page-walk-4", [7] = "vmx-page-walk-5",
            [16] = "vmx-ept-2mb", [17] = "vmx-ept-1gb",
            [20] = "vmx-invept", [21] = "vmx-eptad",
            [22] = "vmx-ept-advanced-exitinfo",
            [25] = "vmx-invept-single-context",
            [26] = "vmx-invept-all-context",
            [32] = "vmx-invvpid",
            [40] = "vmx-invvpid-single-addr",
            /* QEMU 7.2 reuses the INVEPT name for this INVVPID bit */
            [41] = "vmx-invept-single-context",
            [42] = "vmx-invvpid-all-context",
            [43] = "vmx-invept-single-context-noglobals",
        },
    },
    [FEAT_VMX_BASIC] = {
        MSR_WORD(0x480),
        .feat_names = {
            [54] = "vmx-ins-outs", [55] = "vmx-true-ctls",
        },
        /* Dual-monitor treatment: the MSEG revision can't be set */
        .no_autoenable_flags = BIT64(49),
    },
    [FEAT_VMX_VMFUNC] = {
        MSR_WORD(0x491),
        .feat_names = {
            [0] = "vmx-eptp-switching",
        },
    },
    [FEAT_14_0_ECX] = {
        CPUID_SUBLEAF_WORD(0x14, 0, R_ECX),
        .feat_names = {
            [31] = "intel-pt-lip",
        },
    },
    [FEAT_SGX_12_0_EAX] = {
        CPUID_SUBLEAF_WORD(0x12, 0, R_EAX),
        .feat_names = {
            [0] = "sgx1", [1] = "sgx2",
        },
    },
    [FEAT_SGX_12_0_EBX] = {
        CPUID_SUBLEAF_WORD(0x12, 0, R_EBX),
        .feat_names = {
            [0] = "sgx-exinfo",
        },
    },
    [FEAT_SGX_12_1_EAX] = {
        CPUID_SUBLEAF_WORD(0x12, 1, R_EAX),
        .feat_names = {
            [1] = "sgx-debug", [2] = "sgx-mode64",
            [4] = "sgx-provisionkey", [5] = "sgx-tokenkey",
            [7] = "sgx-kss",
        },
    },
    [FEAT_XSAVE_XSS_LO] = {
        CPUID_SUBLEAF_WORD(0xD, 1, R_ECX),
    },
    [FEAT_XSAVE_XSS_HI] = {
        CPUID_SUBLEAF_WORD(0xD, 1, R_EDX),
    },
};

const FeatureAlias feature_aliases[] = {
    { "sse3", "pni" },
    { "pclmuldq", "pclmulqdq" },
    { "sse4-1", "sse4.1" },
    { "sse4-2", "sse4.2" },
    { "xd", "nx" },
    { "ffxsr", "fxsr-opt" },
    { "i64", "lm" },
    { "ds_cpl", "ds-cpl" },
    { "tsc_adjust", "tsc-adjust" },
    { "fxsr_opt", "fxsr-opt" },
    { "lahf_lm", "lahf-lm" },
    { "cmp_legacy", "cmp-legacy" },
    { "nodeid_msr", "nodeid-msr" },
    { "perfctr_core", "perfctr-core" },
    { "perfctr_nb", "perfctr-nb" },
    { "kvm_nopiodelay", "kvm-nopiodelay" },
    { "kvm_mmu", "kvm-mmu" },
    { "kvm_asyncpf", "kvm-asyncpf" },
    { "kvm_asyncpf_int", "kvm-asyncpf-int" },
    { "kvm_steal_time", "kvm-steal-time" },
    { "kvm_pv_eoi", "kvm-pv-eoi" },
    { "kvm_pv_unhalt", "kvm-pv-unhalt" },
    { "kvm_poll_control", "kvm-poll-control" },
    { "svm_lock", "svm-lock" },
    { "nrip_save", "nrip-save" },
    { "tsc_scale", "tsc-scale" },
    { "vmcb_clean", "vmcb-clean" },
    { "pause_filter", "pause-filter" },
    { "sse4_1", "sse4.1" },
    { "sse4_2", "sse4.2" },
    { NULL, NULL },
};

/* When the "from" bits are not all set, the "to" bits are cleared. */
const FeatureDep feature_dependencies[] = {
    {
        .from = { FEAT_7_0_EDX, BIT64(29) /* arch-capabilities */ },
        .to = { FEAT_ARCH_CAPABILITIES, ~0ULL },
    },
    {
        .from = { FEAT_7_0_EDX, BIT64(30) /* core-capability */ },
        .to = { FEAT_CORE_CAPABILITY, ~0ULL },
    },
    {
        .from = { FEAT_1_ECX, BIT64(15) /* pdcm */ },
        .to = { FEAT_PERF_CAPABILITIES, ~0ULL },
    },
    {
        .from = { FEAT_1_ECX, BIT64(5) /* vmx */ },
        .to = { FEAT_VMX_PROCBASED_CTLS, ~0ULL },
    },
    {
        .from = { FEAT_1_ECX, BIT64(5) /* vmx */ },
        .to = { FEAT_VMX_PINBASED_CTLS, ~0ULL },
    },
    {
        .from = { FEAT_1_ECX, BIT64(5) /* vmx */ },
        .to = { FEAT_VMX_EXIT_CTLS, ~0ULL },
    },
    {
        .from = { FEAT_1_ECX, BIT64(5) /* vmx */ },
        .to = { FEAT_VMX_ENTRY_CTLS, ~0ULL },
    },
    {
        .from = { FEAT_1_ECX, BIT64(5) /* vmx */ },
        .to = { FEAT_VMX_MISC, ~0ULL },
    },
    {
        .from = { FEAT_1_ECX, BIT64(5) /* vmx */ },
        .to = { FEAT_VMX_BASIC, ~0ULL },
    },
    {
        .from = { FEAT_8000_0001_EDX, BIT64(29) /* lm */ },
        .to = { FEAT_VMX_ENTRY_CTLS, BIT64(9) /* vmx-entry-ia32e-mode */ },
    },
    {
        .from = { FEAT_VMX_PROCBASED_CTLS, BIT64(31) /* vmx-secondary-ctls */ },
        .to = { FEAT_VMX_SECONDARY_CTLS, ~0ULL },
    },
    {
        .from = { FEAT_XSAVE, BIT64(3) /* xsaves */ },
        .to = { FEAT_VMX_SECONDARY_CTLS, BIT64(20) /* vmx-xsaves */ },
    },
    {
        .from = { FEAT_1_ECX, BIT64(30) /* rdrand */ },
        .to = { FEAT_VMX_SECONDARY_CTLS, BIT64(11) /* vmx-rdrand-exit */ },
    },
    {
        .from = { FEAT_7_0_EBX, BIT64(10) /* invpcid */ },
        .to = { FEAT_VMX_SECONDARY_CTLS, BIT64(12) /* vmx-invpcid-exit */ },
    },
    {
        .from = { FEAT_7_0_EBX, BIT64(14) /* mpx */ },
        .to = { FEAT_VMX_EXIT_CTLS, BIT64(23) /* vmx-exit-clear-bndcfgs */ },
    },
    {
        .from = { FEAT_7_0_EBX, BIT64(14) /* mpx */ },
        .to = { FEAT_VMX_ENTRY_CTLS, BIT64(16) /* vmx-entry-load-bndcfgs */ },
    },
    {
        .from = { FEAT_7_0_EBX, BIT64(18) /* rdseed */ },
        .to = { FEAT_VMX_SECONDARY_CTLS, BIT64(16) /* vmx-rdseed-exit */ },
    },
    {
        .from = { FEAT_8000_0001_EDX, BIT64(27) /* rdtscp */ },
        .to = { FEAT_VMX_SECONDARY_CTLS, BIT64(3) /* vmx-rdtscp-exit */ },
    },
    {
        .from = { FEAT_VMX_SECONDARY_CTLS, BIT64(1) /* vmx-ept */ },
        .to = { FEAT_VMX_EPT_VPID_CAPS, 0xffffffffULL /* EPT half */ },
    },
    {
        .from = { FEAT_VMX_SECONDARY_CTLS, BIT64(1) /* vmx-ept */ },
        .to = { FEAT_VMX_SECONDARY_CTLS,
                BIT64(7) /* vmx-unrestricted-guest */ },
    },
    {
        .from = { FEAT_VMX_SECONDARY_CTLS, BIT64(5) /* vmx-vpid */ },
        .to = { FEAT_VMX_EPT_VPID_CAPS, 0xffffffffULL << 32 /* VPID half */ },
    },
    {
        .from = { FEAT_VMX_SECONDARY_CTLS, BIT64(13) /* vmx-vmfunc */ },
        .to = { FEAT_VMX_VMFUNC, ~0ULL },
    },
    {
        .from = { FEAT_8000_0001_ECX, BIT64(2) /* svm */ },
        .to = { FEAT_SVM, ~0ULL },
    },
    {
        .from = { FEAT_7_0_EBX, BIT64(25) /* intel-pt */ },
        .to = { FEAT_14_0_ECX, ~0ULL },
    },
};

const size_t feature_dependencies_count = G_N_ELEMENTS(feature_dependencies);

typedef struct FeatureBits {
    FeatureWord w;
    uint64_t mask;
} FeatureBits;

static GHashTable *feature_name_table;

/* name -> FeatureBits; a name used twice in one word gets both bits. */
static GHashTable *feature_names(void)
{
    if (feature_name_table) {
        return feature_name_table;
    }
    feature_name_table = g_hash_table_new_full(g_str_hash, g_str_equal,
                                               NULL, g_free);
    for (int w = 0; w < FEATURE_WORDS; w++) {
        for (int bit = 0; bit < 64; bit++) {
            const char *name = feature_word_info[w].feat_names[bit];
            FeatureBits *fb;

            if (!name) {
                continue;
            }
            fb = g_hash_table_lookup(feature_name_table, name);
            if (fb) {
                g_assert(fb->w == (FeatureWord)w);
                fb->mask |= BIT64(bit);
                continue;
            }
            fb = g_new0(FeatureBits, 1);
            fb->w = w;
            fb->mask = BIT64(bit);
            g_hash_table_insert(feature_name_table, (gpointer)name, fb);
        }
    }
    for (const FeatureAlias *a = feature_aliases; a->alias; a++) {
        FeatureBits *fb = g_hash_table_lookup(feature_name_table, a->name);

        g_assert(fb);
        g_hash_table_insert(feature_name_table, (gpointer)a->alias,
                            g_memdup2(fb, sizeof(*fb)));
    }
    return feature_name_table;
}

bool x86_feature_lookup(const char *name, FeatureWord *w, uint64_t *mask)
{
    GHashTable *names = feature_names();
    FeatureBits *fb = g_hash_table_lookup(names, name);

    if (!fb && strchr(name, '_')) {
        /* The -cpu parser turns '_' into '-' before looking a name up */
        g_autofree char *dashed = g_strdup(name);

        g_strdelimit(dashed, "_", '-');
        fb = g_hash_table_lookup(names, dashed);
    }
    if (!fb) {
        return false;
    }
    if (w) {
        *w = fb->w;
    }
    if (mask) {
        *mask = fb->mask;
    }
    return true;
}

const char *x86_cpuid_reg_name(CPUIDReg reg)
{
    switch (reg) {
    case R_EAX:
        return "EAX";
    case R_ECX:
        return "ECX";
    case R_EDX:
        return "EDX";
    case R_EBX:
        return "EBX";
    }
    return NULL;
}

char *x86_feature_word_description(FeatureWord w)
{
    const FeatureWordInfo *f = &feature_word_info[w];

    switch (f->type) {
    case CPUID_FEATURE_WORD:
        /* The subleaf is not part of the description */
        return g_strdup_printf("CPUID.%02XH:%s", f->cpuid.eax,
                               x86_cpuid_reg_name(f->cpuid.reg));
    case MSR_FEATURE_WORD:
        return g_strdup_printf("MSR(%02XH)", f->msr.index);
    }
    g_assert_not_reached();
}
