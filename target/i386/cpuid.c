/*
 * The CPUID a vCPU gets: the leaves QEMU 7.2 computes for an expanded and
 * filtered X86CPU, and the table it hands to KVM_SET_CPUID2.
 *
 * cpuid_leaf() answers one (leaf, subleaf) from the CPU's state the way
 * QEMU 7.2's CPUID code does; x86_cpu_build_cpuid_table() walks the ranges
 * as QEMU's KVM vCPU set-up does (same subleaf loops, same terminating
 * entries, all-zero plain leaves left out since KVM answers zeros for them
 * anyway) and adds the hypervisor leaves; x86_cpu_cpuid() then looks a
 * query up in that table with KVM's rules, so it is what a guest reads.
 *
 * Not modelled (no guest-visible effect for the configurations this tree
 * supports, or state that lives elsewhere):
 *  - guest-controlled bits: OSXSAVE (CR4), OSPKE, and KVM's run-time update
 *    of CPUID[0xD].EBX to the size for the guest's current XCR0;
 *  - host-cache-info=on (cache leaves passed through from the host);
 *  - vmware-cpuid-freq's leaf 0x40000010: needs invtsc and a known TSC
 *    frequency, which this tree does not track yet;
 *  - SGX EPC sections (0x12 subleaf >= 2) and SEV (0x8000001F).
 */
#include <string.h>

#include "target/i386/cpu.h"
#include "target/i386/cpu-caches.h"
#include "target/i386/cpu-internal.h"
#include "target/i386/hyperv.h"

#define KVM_MAX_CPUID_ENTRIES 100

/* Bits the leaves below look at (SDM / APM numbering) */
#define CPUID_PSE36 (1u << 17)
#define CPUID_HT (1u << 28)
#define CPUID_EXT_PDCM (1u << 15)
#define CPUID_EXT_XSAVE (1u << 26)
#define CPUID_EXT3_CMP_LEG (1u << 1)
#define CPUID_EXT3_SVM (1u << 2)
#define CPUID_7_0_EBX_SGX (1u << 2)
#define CPUID_7_0_EBX_INTEL_PT (1u << 25)
#define CPUID_7_0_ECX_LA57 (1u << 16)
#define CPUID_7_0_EDX_ARCH_LBR (1u << 19)
#define CPUID_7_0_EDX_AMX_TILE (1u << 24)
#define CPUID_XSAVE_XSAVES (1u << 3)
#define CPUID_14_0_ECX_LIP (1u << 31)
/* 0x80000001.EDX bits AMD defines as copies of 1.EDX */

/* MONITOR/MWAIT: QEMU always reports interrupt break-event support */
#define CPUID_MWAIT_EMX (1u << 0)
#define CPUID_MWAIT_IBE (1u << 1)

/* Topology level types of leaves 0xB / 0x1F (ECX[15:8]) */
#define CPUID_TOPO_LEVEL_INVALID (0u << 8)
#define CPUID_TOPO_LEVEL_SMT (1u << 8)
#define CPUID_TOPO_LEVEL_CORE (2u << 8)
#define CPUID_TOPO_LEVEL_DIE (5u << 8)

/* Intel PT: the minimal capability set QEMU exposes (leaf 0x14) */
#define INTEL_PT_MAX_SUBLEAF 0x1
#define INTEL_PT_MINIMAL_EBX 0xf
#define INTEL_PT_MINIMAL_ECX 0x7
#define INTEL_PT_ADDR_RANGES_NUM 0x2
#define INTEL_PT_MTC_BITMAP (0x0249u << 16)
#define INTEL_PT_CYCLE_BITMAP 0x1fff
#define INTEL_PT_PSB_BITMAP (0x003fu << 16)

/* AMX palette 1 as on Sapphire Rapids (leaves 0x1D/0x1E) */
#define AMX_TILE_MAX_SUBLEAF 0x1
#define AMX_TOTAL_TILE_BYTES 0x2000
#define AMX_BYTES_PER_TILE 0x400
#define AMX_BYTES_PER_ROW 0x40
#define AMX_TILE_MAX_NAMES 0x8
#define AMX_TILE_MAX_ROWS 0x10
#define AMX_TMUL_MAX_K 0x10
#define AMX_TMUL_MAX_N 0x40

/* Legacy TLB geometry QEMU reports in 0x80000005/6 */
#define L1_TLB_ASSOC 1
#define L1_TLB_ENTRIES 255
#define L2_TLB_4K_ASSOC 4
#define L2_TLB_4K_ENTRIES 512

/* XSAVE state components ------------------------------------------------- */

/*
 * Size, standard (non-compacted) offset and ECX flags of each component
 * past the legacy region.  Under KVM QEMU takes offset and flags from the
 * host's leaf 0xD instead; these are the values of Intel CPUs.
 */
static const struct {
    uint8_t bit;
    uint32_t size;
    uint32_t offset;
    uint32_t ecx;
} xsave_areas[] = {
    { 2, 0x100, 0x240, 0 },   /* YMM_Hi128 */
    { 3, 0x40, 0x3c0, 0 },    /* BNDREGS */
    { 4, 0x40, 0x400, 0 },    /* BNDCSR */
    { 5, 0x40, 0x440, 0 },    /* opmask */
    { 6, 0x200, 0x480, 0 },   /* ZMM_Hi256 */
    { 7, 0x400, 0x680, 0 },   /* Hi16_ZMM */
    { 9, 0x8, 0xa80, 0 },     /* PKRU */
    { 15, 0x328, 0, 0 },      /* Arch LBR (supervisor: no offset) */
    { 17, 0x40, 0xac0, 0x2 }, /* XTILECFG */
    { 18, 0x2000, 0xb00, 0x6 }, /* XTILEDATA */
};

/* x87 + SSE + XSAVE header */
#define XSAVE_LEGACY_SIZE 576
/* ECX bits QEMU passes on: 64-byte alignment, XFD support */
#define XSAVE_ECX_MASK 0x6

/* The CPU as the leaves see it ------------------------------------------ */

typedef struct CPUIDCtx {
    X86CPU *cpu;
    const X86CPUEnv *env;
    bool kvm;
    uint32_t vendor[3];     /* EBX, EDX, ECX of leaf 0 */
    bool is_intel, is_amd;
    uint32_t version;       /* leaf 1 EAX */
    uint32_t apic_id;
    uint32_t threads, cores, dies;
    uint32_t smt_width, core_width, die_width;
    uint32_t phys_bits;
    uint32_t func7_max;
    const CPUCacheInfo *cache2, *cache4, *cache_amd;
    uint32_t model_id[12];
} CPUIDCtx;

static uint32_t f32(const CPUIDCtx *c, FeatureWord w)
{
    return (uint32_t)c->cpu->features[w];
}

static uint32_t apicid_bitwidth_for_count(uint32_t count)
{
    return count > 1 ? 32 - __builtin_clz(count - 1) : 0;
}

static uint32_t apicid_core_offset(const CPUIDCtx *c)
{
    return c->smt_width;
}

static uint32_t apicid_die_offset(const CPUIDCtx *c)
{
    return c->smt_width + c->core_width;
}

static uint32_t apicid_pkg_offset(const CPUIDCtx *c)
{
    return apicid_die_offset(c) + c->die_width;
}

/* Leaf 1 EAX: extended family/model as the SDM describes, for any family */
static uint32_t x86_cpu_version(const X86CPU *cpu)
{
    uint32_t v = cpu->stepping & 0xf;

    if (cpu->family > 0x0f) {
        v |= 0xf00 | ((cpu->family - 0x0f) << 20);
    } else {
        v |= cpu->family << 8;
    }
    v |= ((cpu->model & 0xf) << 4) | ((cpu->model >> 4) << 16);
    return v;
}

static void pack_string(uint32_t *words, size_t nwords, const char *s)
{
    size_t len = s ? strlen(s) : 0, i;

    memset(words, 0, nwords * 4);
    for (i = 0; i < nwords * 4 && i < len; i++) {
        words[i / 4] |= (uint32_t)(uint8_t)s[i] << (8 * (i % 4));
    }
}

/*
 * Physical address bits, settled at realize in QEMU: the host's width with
 * host-phys-bits (capped by host-phys-bits-limit), else phys-bits, else 40
 * (TCG's value, also the default for named models under KVM).  Without
 * long mode the width follows PSE36.
 */
uint32_t x86_cpu_host_phys_bits(const X86CPUEnv *env)
{
    if (host_caps_cpuid_reg(env->host, 0x80000000, 0, R_EAX) >= 0x80000008) {
        return host_caps_cpuid_reg(env->host, 0x80000008, 0, R_EAX) & 0xff;
    }
    return 36;
}

static uint32_t x86_cpu_phys_bits(const X86CPU *cpu, const X86CPUEnv *env)
{
    uint32_t bits = cpu->phys_bits;

    if (!(cpu->features[FEAT_8000_0001_EDX] & CPUID_EXT2_LM)) {
        return (cpu->features[FEAT_1_EDX] & CPUID_PSE36) ? 36 : 32;
    }
    if (env->accel == X86_ACCEL_KVM && cpu->host_phys_bits && env->host) {
        bits = x86_cpu_host_phys_bits(env);
        if (cpu->host_phys_bits_limit && bits > cpu->host_phys_bits_limit) {
            bits = cpu->host_phys_bits_limit;
        }
    }
    return bits ? bits : 40;
}

static void cpuid_ctx_init(CPUIDCtx *c, X86CPU *cpu, const X86CPUEnv *env)
{
    const X86CPUModel *model;
    const CPUCacheInfo *caches;

    memset(c, 0, sizeof(*c));
    c->cpu = cpu;
    c->env = env;
    c->kvm = env->accel == X86_ACCEL_KVM;
    pack_string(c->vendor, 3, cpu->vendor);
    /* Leaf 0 orders the vendor string EBX, EDX, ECX */
    c->is_intel = cpu->vendor && !strcmp(cpu->vendor, "GenuineIntel");
    c->is_amd = cpu->vendor && !strcmp(cpu->vendor, "AuthenticAMD");
    c->version = x86_cpu_version(cpu);
    /* An unplaced CPU (unit tests) is the first one */
    c->apic_id = cpu->apic_id == UINT32_MAX ? 0 : cpu->apic_id;
    c->threads = MAX(cpu->nr_threads, 1);
    c->cores = MAX(cpu->nr_cores, 1);
    c->dies = MAX(cpu->nr_dies, 1);
    c->smt_width = apicid_bitwidth_for_count(c->threads);
    c->core_width = apicid_bitwidth_for_count(c->cores);
    c->die_width = apicid_bitwidth_for_count(c->dies);
    c->phys_bits = x86_cpu_phys_bits(cpu, env);
    c->func7_max = cpu->level_func7;
    /* Models with their own caches use them in every cache leaf, unless
     * legacy-cache=on (machine types up to 2.12) */
    model = X86_CPU_GET_CLASS(cpu)->model;
    caches = model && !cpu->legacy_cache
                 ? x86_model_caches(model->cpudef->cache_info)
                 : NULL;
    c->cache2 = caches ? caches : legacy_cache_cpuid2;
    c->cache4 = caches ? caches : legacy_cache_cpuid4;
    c->cache_amd = caches ? caches : legacy_cache_amd;
    pack_string(c->model_id, 12, cpu->model_id);
}

/* What KVM supports for a leaf (leaves QEMU passes through from KVM) */
static void host_leaf(const CPUIDCtx *c, uint32_t fn, uint32_t idx,
                      CPUIDRegs *r)
{
    const X86HostCPUIDEntry *e =
        c->env->host ? host_caps_find(c->env->host, fn, idx) : NULL;

    if (e) {
        r->eax = e->eax;
        r->ebx = e->ebx;
        r->ecx = e->ecx;
        r->edx = e->edx;
    }
}

static uint64_t xcr0_components(const CPUIDCtx *c)
{
    return f32(c, FEAT_XSAVE_XCR0_LO) |
           ((uint64_t)f32(c, FEAT_XSAVE_XCR0_HI) << 32);
}

static uint64_t xss_components(const CPUIDCtx *c)
{
    return f32(c, FEAT_XSAVE_XSS_LO) |
           ((uint64_t)f32(c, FEAT_XSAVE_XSS_HI) << 32);
}

static void xsave_area(const CPUIDCtx *c, int i, uint32_t *size,
                       uint32_t *offset, uint32_t *ecx)
{
    size_t k;

    *size = *offset = *ecx = 0;
    for (k = 0; k < G_N_ELEMENTS(xsave_areas); k++) {
        if (xsave_areas[k].bit == i) {
            *size = xsave_areas[k].size;
            *offset = xsave_areas[k].offset;
            *ecx = xsave_areas[k].ecx;
        }
    }
    if (c->kvm && c->env->host && *size) {
        const X86HostCPUIDEntry *e = host_caps_find(c->env->host, 0xd, i);

        if (e && e->eax == *size) {
            *offset = e->ebx;
            *ecx = e->ecx;
        }
    }
}

static uint32_t xsave_area_size(const CPUIDCtx *c, uint64_t mask,
                                bool compacted)
{
    uint32_t ret = XSAVE_LEGACY_SIZE, size, offset, ecx;
    int i;

    for (i = 2; i < 64; i++) {
        if (!(mask & (1ULL << i))) {
            continue;
        }
        xsave_area(c, i, &size, &offset, &ecx);
        if (!size) {
            continue;
        }
        offset = compacted ? ret : offset;
        ret = MAX(ret, offset + size);
    }
    return ret;
}

/* One leaf, as QEMU 7.2 computes it ------------------------------------- */

static void cpuid_leaf_xsave(const CPUIDCtx *c, uint32_t count, CPUIDRegs *r)
{
    X86CPU *cpu = c->cpu;
    bool arch_lbr = c->kvm && cpu->pmu &&
                    (f32(c, FEAT_7_0_EDX) & CPUID_7_0_EDX_ARCH_LBR);

    if (!(f32(c, FEAT_1_ECX) & CPUID_EXT_XSAVE)) {
        return;
    }
    if (count == 0) {
        r->eax = f32(c, FEAT_XSAVE_XCR0_LO);
        r->edx = f32(c, FEAT_XSAVE_XCR0_HI);
        r->ecx = xsave_area_size(c, xcr0_components(c), false);
        /*
         * QEMU reports the full size in EBX under KVM (old kernels never
         * updated it); elsewhere the size for the reset XCR0 (x87 only).
         */
        r->ebx = c->kvm ? r->ecx : XSAVE_LEGACY_SIZE;
    } else if (count == 1) {
        r->eax = f32(c, FEAT_XSAVE);
        r->ebx = xsave_area_size(c, xcr0_components(c) | xss_components(c),
                                 true);
        r->ecx = f32(c, FEAT_XSAVE_XSS_LO);
        r->edx = f32(c, FEAT_XSAVE_XSS_HI);
        if (arch_lbr && (r->eax & CPUID_XSAVE_XSAVES)) {
            r->ecx |= 1u << 15;
        } else {
            r->ecx &= ~(1u << 15);
        }
    } else if (count == 0xf && arch_lbr) {
        host_leaf(c, 0xd, count, r);
    } else if (count < 64) {
        uint32_t size, offset, ecx;

        xsave_area(c, count, &size, &offset, &ecx);
        if (!size) {
            return;
        }
        if (xcr0_components(c) & (1ULL << count)) {
            r->eax = size;
            r->ebx = offset;
            r->ecx = ecx & XSAVE_ECX_MASK;
        } else if (xss_components(c) & (1ULL << count)) {
            r->eax = size;
            r->ecx = 1;
        }
    }
}

/* Leaves 0xB and 0x1F: x2APIC topology, 0x1F with the die level */
static void cpuid_leaf_topology(const CPUIDCtx *c, uint32_t count,
                                bool with_dies, CPUIDRegs *r)
{
    uint32_t levels[3][3] = {
        { apicid_core_offset(c), c->threads, CPUID_TOPO_LEVEL_SMT },
        { with_dies ? apicid_die_offset(c) : apicid_pkg_offset(c),
          c->cores * c->threads, CPUID_TOPO_LEVEL_CORE },
        { apicid_pkg_offset(c), c->dies * c->cores * c->threads,
          CPUID_TOPO_LEVEL_DIE },
    };
    uint32_t nlevels = with_dies ? 3 : 2;

    r->ecx = count & 0xff;
    r->edx = c->apic_id;
    if (count < nlevels) {
        r->eax = levels[count][0];
        r->ebx = levels[count][1] & 0xffff;
        r->ecx |= levels[count][2];
    } else {
        r->ecx |= CPUID_TOPO_LEVEL_INVALID;
    }
}

static void cpuid_leaf_sgx(const CPUIDCtx *c, uint32_t count, CPUIDRegs *r)
{
    if (!c->kvm || !(f32(c, FEAT_7_0_EBX) & CPUID_7_0_EBX_SGX) || count > 1) {
        /* No EPC sections: this tree has no sgx-epc memory devices */
        return;
    }
    /* QEMU can only restrict what KVM offers here */
    host_leaf(c, 0x12, count, r);
    if (count == 0) {
        r->eax &= f32(c, FEAT_SGX_12_0_EAX);
        r->ebx &= f32(c, FEAT_SGX_12_0_EBX);
    } else {
        r->eax &= f32(c, FEAT_SGX_12_1_EAX);
        r->ebx = 0;
        r->ecx &= f32(c, FEAT_XSAVE_XCR0_LO);
        r->edx &= f32(c, FEAT_XSAVE_XCR0_HI);
        /* x87 and SSE are always allowed */
        r->ecx |= 0x3;
        /* PROVISIONKEY needs sgx_provision access, never granted here */
        r->eax &= ~(1u << 4);
    }
}

static void cpuid_leaf_basic(const CPUIDCtx *c, uint32_t index,
                             uint32_t count, CPUIDRegs *r)
{
    X86CPU *cpu = c->cpu;
    uint32_t threads_per_socket = c->cores * c->threads;

    switch (index) {
    case 0:
        r->eax = cpu->level;
        r->ebx = c->vendor[0];
        r->edx = c->vendor[1];
        r->ecx = c->vendor[2];
        break;
    case 1:
        r->eax = c->version;
        /* CLFLUSH line size in quadwords: Linux wants it */
        r->ebx = (c->apic_id << 24) | (8 << 8);
        r->ecx = f32(c, FEAT_1_ECX);
        r->edx = f32(c, FEAT_1_EDX);
        if (threads_per_socket > 1) {
            r->ebx |= threads_per_socket << 16;
            r->edx |= CPUID_HT;
        }
        if (!cpu->pmu) {
            r->ecx &= ~CPUID_EXT_PDCM;
        }
        break;
    case 2:
        /* Intel-only leaf: x-vendor-cpuid-only hides it from AMD guests */
        if (cpu->vendor_cpuid_only && c->is_amd) {
            break;
        }
        r->eax = 1; /* one call of leaf 2 gives everything */
        r->ecx = cpu->l3_cache ? cpuid2_cache_descriptor(&c->cache2[CACHE_L3])
                               : 0;
        r->edx = (cpuid2_cache_descriptor(&c->cache2[CACHE_L1D]) << 16) |
                 (cpuid2_cache_descriptor(&c->cache2[CACHE_L1I]) << 8) |
                 cpuid2_cache_descriptor(&c->cache2[CACHE_L2]);
        break;
    case 4:
        if (cpu->vendor_cpuid_only && c->is_amd) {
            break;
        }
        switch (count) {
        case 0:
        case 1:
            encode_cache_cpuid4(&c->cache4[count], 1, c->cores, r);
            break;
        case 2:
            encode_cache_cpuid4(&c->cache4[CACHE_L2], c->threads, c->cores, r);
            break;
        case 3:
            if (cpu->l3_cache) {
                encode_cache_cpuid4(&c->cache4[CACHE_L3],
                                    1u << apicid_die_offset(c), c->cores, r);
            }
            break;
        }
        break;
    case 5:
        /* Interrupts always break MWAIT, even if the host can't say so */
        r->ecx = CPUID_MWAIT_EMX | CPUID_MWAIT_IBE;
        break;
    case 6:
        r->eax = f32(c, FEAT_6_EAX);
        break;
    case 7:
        if (count == 0) {
            r->eax = c->func7_max;
            r->ebx = f32(c, FEAT_7_0_EBX);
            r->ecx = f32(c, FEAT_7_0_ECX);
            r->edx = f32(c, FEAT_7_0_EDX);
        } else if (count == 1) {
            r->eax = f32(c, FEAT_7_1_EAX);
        }
        break;
    case 0xa:
        /* KVM's virtual PMU: its description comes from KVM itself */
        if (c->kvm && cpu->pmu) {
            host_leaf(c, 0xa, 0, r);
        }
        break;
    case 0xb:
        if (cpu->enable_cpuid_0xb) {
            cpuid_leaf_topology(c, count, false, r);
        }
        break;
    case 0xd:
        cpuid_leaf_xsave(c, count, r);
        break;
    case 0x12:
        cpuid_leaf_sgx(c, count, r);
        break;
    case 0x14:
        if (!c->kvm || !(f32(c, FEAT_7_0_EBX) & CPUID_7_0_EBX_INTEL_PT)) {
            break;
        }
        if (count == 0) {
            r->eax = INTEL_PT_MAX_SUBLEAF;
            r->ebx = INTEL_PT_MINIMAL_EBX;
            r->ecx = INTEL_PT_MINIMAL_ECX |
                     (f32(c, FEAT_14_0_ECX) & CPUID_14_0_ECX_LIP);
        } else if (count == 1) {
            r->eax = INTEL_PT_MTC_BITMAP | INTEL_PT_ADDR_RANGES_NUM;
            r->ebx = INTEL_PT_PSB_BITMAP | INTEL_PT_CYCLE_BITMAP;
        }
        break;
    case 0x1c:
        /* Arch LBR: KVM's description, without EDX */
        if (c->kvm && cpu->pmu &&
            (f32(c, FEAT_7_0_EDX) & CPUID_7_0_EDX_ARCH_LBR)) {
            host_leaf(c, 0x1c, 0, r);
            r->edx = 0;
        }
        break;
    case 0x1d:
        if (!(f32(c, FEAT_7_0_EDX) & CPUID_7_0_EDX_AMX_TILE)) {
            break;
        }
        if (count == 0) {
            r->eax = AMX_TILE_MAX_SUBLEAF;
        } else if (count == 1) {
            r->eax = AMX_TOTAL_TILE_BYTES | (AMX_BYTES_PER_TILE << 16);
            r->ebx = AMX_BYTES_PER_ROW | (AMX_TILE_MAX_NAMES << 16);
            r->ecx = AMX_TILE_MAX_ROWS;
        }
        break;
    case 0x1e:
        if ((f32(c, FEAT_7_0_EDX) & CPUID_7_0_EDX_AMX_TILE) && count == 0) {
            r->ebx = AMX_TMUL_MAX_K | (AMX_TMUL_MAX_N << 8);
        }
        break;
    case 0x1f:
        if (c->dies > 1) {
            cpuid_leaf_topology(c, count, true, r);
        }
        break;
    }
}

static void cpuid_leaf_ext(const CPUIDCtx *c, uint32_t index, uint32_t count,
                           CPUIDRegs *r)
{
    X86CPU *cpu = c->cpu;
    uint32_t threads_per_socket = c->cores * c->threads;
    const CPUCacheInfo *amd = c->cache_amd;

    switch (index) {
    case 0x80000000:
        r->eax = cpu->xlevel;
        r->ebx = c->vendor[0];
        r->edx = c->vendor[1];
        r->ecx = c->vendor[2];
        break;
    case 0x80000001:
        r->eax = c->version;
        r->ecx = f32(c, FEAT_8000_0001_ECX);
        /* On AMD, realize has already mirrored leaf 1's aliased bits */
        r->edx = f32(c, FEAT_8000_0001_EDX);
        /*
         * Linux ignores the multi-thread information when CmpLegacy is set,
         * so QEMU leaves it off for Intel.
         */
        if (threads_per_socket > 1 && !c->is_intel) {
            r->ecx |= CPUID_EXT3_CMP_LEG;
        }
        break;
    case 0x80000002:
    case 0x80000003:
    case 0x80000004:
        memcpy(r, &c->model_id[(index - 0x80000002) * 4], sizeof(*r));
        break;
    case 0x80000005:
        r->eax = (L1_TLB_ASSOC << 24) | (L1_TLB_ENTRIES << 16) |
                 (L1_TLB_ASSOC << 8) | L1_TLB_ENTRIES;
        r->ebx = r->eax;
        r->ecx = encode_cache_cpuid80000005(&amd[CACHE_L1D]);
        r->edx = encode_cache_cpuid80000005(&amd[CACHE_L1I]);
        break;
    case 0x80000006:
        /* No 2M/4M L2 TLB */
        r->ebx = (amd_enc_assoc(L2_TLB_4K_ASSOC) << 28) |
                 (L2_TLB_4K_ENTRIES << 16) |
                 (amd_enc_assoc(L2_TLB_4K_ASSOC) << 12) | L2_TLB_4K_ENTRIES;
        r->ecx = ((amd[CACHE_L2].size / KiB) << 16) |
                 (amd_enc_assoc(amd[CACHE_L2].associativity) << 12) |
                 (amd[CACHE_L2].lines_per_tag << 8) | amd[CACHE_L2].line_size;
        if (cpu->l3_cache) {
            r->edx = ((amd[CACHE_L3].size / (512 * KiB)) << 18) |
                     (amd_enc_assoc(amd[CACHE_L3].associativity) << 12) |
                     (amd[CACHE_L3].lines_per_tag << 8) |
                     amd[CACHE_L3].line_size;
        }
        break;
    case 0x80000007:
        r->edx = f32(c, FEAT_8000_0007_EDX);
        break;
    case 0x80000008:
        r->eax = c->phys_bits;
        if (f32(c, FEAT_8000_0001_EDX) & CPUID_EXT2_LM) {
            r->eax |= (f32(c, FEAT_7_0_ECX) & CPUID_7_0_ECX_LA57 ? 57 : 48)
                      << 8;
        }
        r->ebx = f32(c, FEAT_8000_0008_EBX);
        /* Not vendor-gated in QEMU 7.2, though only AMD defines it */
        if (threads_per_socket > 1) {
            r->ecx = (apicid_pkg_offset(c) << 12) | (threads_per_socket - 1);
        }
        break;
    case 0x8000000a:
        if (f32(c, FEAT_8000_0001_ECX) & CPUID_EXT3_SVM) {
            r->eax = 1;    /* SVM revision */
            r->ebx = 0x10; /* number of ASIDs */
            r->edx = f32(c, FEAT_SVM);
        }
        break;
    case 0x8000001d:
        /* Gated by xlevel only, as in QEMU: topoext=off keeps these */
        if (count < CACHE__MAX) {
            const CPUCacheInfo *ci = &amd[count];

            encode_cache_common(ci, r);
            /* L3 is shared by the die; L1/L2 by the core's threads */
            r->eax |= (ci->level == 3 ? c->cores * c->threads - 1
                                      : c->threads - 1) << 14;
        }
        break;
    case 0x8000001e: {
        uint32_t core_id = (c->apic_id >> apicid_core_offset(c)) &
                           ((1u << c->core_width) - 1);

        if (core_id <= 255) {
            r->eax = c->apic_id;
            r->ebx = ((c->threads - 1) << 8) | (core_id & 0xff);
            r->ecx = ((c->dies - 1) << 8) |
                     ((c->apic_id >> apicid_die_offset(c)) & 0xff);
        }
        break;
    }
    }
}

static void cpuid_leaf(const CPUIDCtx *c, uint32_t index, uint32_t count,
                       CPUIDRegs *r)
{
    X86CPU *cpu = c->cpu;
    uint32_t limit;

    memset(r, 0, sizeof(*r));
    if (index >= 0xc0000000) {
        limit = cpu->xlevel2;
    } else if (index >= 0x80000000) {
        limit = cpu->xlevel;
    } else if (index >= 0x40000000) {
        limit = 0x40000001;
    } else {
        limit = cpu->level;
    }
    /* Intel: an invalid leaf answers as the highest basic leaf */
    if (index > limit) {
        index = cpu->level;
    }

    if (index < 0x40000000) {
        cpuid_leaf_basic(c, index, count, r);
    } else if (index < 0x80000000) {
        /* Hypervisor leaves come from the accelerator, not from here */
    } else if (index < 0xc0000000) {
        cpuid_leaf_ext(c, index, count, r);
    } else if (index == 0xc0000000) {
        r->eax = cpu->xlevel2;
    } else if (index == 0xc0000001) {
        /* Centaur/VIA */
        r->eax = c->version;
        r->edx = f32(c, FEAT_C000_0001_EDX);
    }
}

/* The table --------------------------------------------------------------- */

static bool table_add(GArray *t, uint32_t fn, uint32_t idx, bool indexed,
                      const CPUIDRegs *r)
{
    X86CPUIDEntry e;

    /* Zeroed padding: tables are compared and dumped byte-wise */
    memset(&e, 0, sizeof(e));
    e.function = fn;
    e.index = idx;
    e.significant_index = indexed;
    e.eax = r->eax;
    e.ebx = r->ebx;
    e.ecx = r->ecx;
    e.edx = r->edx;
    if (t->len >= KVM_MAX_CPUID_ENTRIES) {
        /* QEMU aborts here; a bounded table is the useful answer for us */
        return false;
    }
    g_array_append_val(t, e);
    return true;
}

/* Subleaf walks of QEMU's KVM set-up; the terminating entry is kept */
static void table_add_basic(GArray *t, const CPUIDCtx *c)
{
    CPUIDRegs r;
    uint32_t limit, i, j;

    cpuid_leaf(c, 0, 0, &r);
    limit = r.eax;
    /* Nothing is defined past 0x1F: the rest would be all-zero, omitted */
    limit = MIN(limit, 0xff);
    for (i = 0; i <= limit; i++) {
        switch (i) {
        case 0x1f:
            if (c->dies < 2) {
                break;
            }
            /* fall through */
        case 4:
        case 0xb:
        case 0xd:
            for (j = 0; j < 64; j++) {
                cpuid_leaf(c, i, j, &r);
                if (i == 0xd && r.eax == 0) {
                    continue;
                }
                table_add(t, i, j, true, &r);
                if ((i == 4 && r.eax == 0) ||
                    ((i == 0xb || i == 0x1f) && !(r.ecx & 0xff00))) {
                    break;
                }
            }
            break;
        case 0x12:
            for (j = 0; j < 64; j++) {
                cpuid_leaf(c, i, j, &r);
                table_add(t, i, j, true, &r);
                if (j > 1 && (r.eax & 0xf) != 1) {
                    break;
                }
            }
            break;
        case 7:
        case 0x14:
        case 0x1d:
        case 0x1e: {
            uint32_t times;

            cpuid_leaf(c, i, 0, &r);
            table_add(t, i, 0, true, &r);
            times = MIN(r.eax, 63);
            for (j = 1; j <= times; j++) {
                cpuid_leaf(c, i, j, &r);
                table_add(t, i, j, true, &r);
            }
            break;
        }
        default:
            /* Leaf 2 needs one call (EAX[7:0] = 1): one plain entry */
            cpuid_leaf(c, i, 0, &r);
            if (r.eax || r.ebx || r.ecx || r.edx) {
                table_add(t, i, 0, false, &r);
            }
            break;
        }
        if (t->len >= KVM_MAX_CPUID_ENTRIES) {
            return;
        }
    }
}

static void table_add_extended(GArray *t, const CPUIDCtx *c)
{
    CPUIDRegs r;
    uint64_t i, limit;
    uint32_t j;

    cpuid_leaf(c, 0x80000000, 0, &r);
    /* Nothing is defined past 0x8000001E: all-zero leaves are omitted */
    limit = MIN(r.eax, 0x800000ff);
    for (i = 0x80000000; i <= limit && t->len < KVM_MAX_CPUID_ENTRIES; i++) {
        if (i == 0x8000001d) {
            for (j = 0; j < 64; j++) {
                cpuid_leaf(c, i, j, &r);
                table_add(t, i, j, true, &r);
                if (r.eax == 0) {
                    break;
                }
            }
            continue;
        }
        cpuid_leaf(c, i, 0, &r);
        if (r.eax || r.ebx || r.ecx || r.edx) {
            table_add(t, i, 0, false, &r);
        }
    }

    /* Centaur leaves: every one in range, zero or not */
    if (c->cpu->xlevel2 > 0) {
        cpuid_leaf(c, 0xc0000000, 0, &r);
        limit = r.eax;
        for (i = 0xc0000000; i <= limit && t->len < KVM_MAX_CPUID_ENTRIES;
             i++) {
            cpuid_leaf(c, i, 0, &r);
            table_add(t, i, 0, false, &r);
        }
    }
}

static gint cpuid_entry_cmp(gconstpointer a, gconstpointer b)
{
    const X86CPUIDEntry *x = a, *y = b;

    if (x->function != y->function) {
        return x->function < y->function ? -1 : 1;
    }
    return x->index < y->index ? -1 : x->index > y->index;
}

GArray *x86_cpu_build_cpuid_table(X86CPU *cpu, const X86CPUEnv *env)
{
    GArray *t = g_array_new(FALSE, TRUE, sizeof(X86CPUIDEntry));
    uint32_t kvm_base = 0x40000000;
    CPUIDCtx c;

    cpuid_ctx_init(&c, cpu, env);

    if (x86_cpu_hyperv_leaves_on(cpu, env)) {
        x86_cpu_hyperv_add_leaves(t, cpu, env);
        /* KVM's leaves move past Hyper-V's so both can be found */
        kvm_base = 0x40000100;
    }
    if (env->accel == X86_ACCEL_KVM && cpu->expose_kvm) {
        uint32_t sig[3];
        CPUIDRegs r;

        /* "KVMKVMKVM\0\0\0" in EBX, ECX, EDX */
        pack_string(sig, 3, "KVMKVMKVM");
        r = (CPUIDRegs){ kvm_base + 1, sig[0], sig[1], sig[2] };
        table_add(t, kvm_base, 0, false, &r);
        r = (CPUIDRegs){
            .eax = f32(&c, FEAT_KVM),
            .edx = f32(&c, FEAT_KVM_HINTS),
        };
        table_add(t, kvm_base + 1, 0, false, &r);
    }

    table_add_basic(t, &c);
    table_add_extended(t, &c);
    g_array_sort(t, cpuid_entry_cmp);
    return t;
}

/* KVM's lookup: a significant index must match, any other entry does */
static const X86CPUIDEntry *table_find(GArray *t, uint32_t fn, uint32_t idx)
{
    guint i;

    for (i = 0; i < t->len; i++) {
        const X86CPUIDEntry *e = &g_array_index(t, X86CPUIDEntry, i);

        if (e->function == fn && (!e->significant_index || e->index == idx)) {
            return e;
        }
    }
    return NULL;
}

/*
 * A missing entry reads as zeros when its leaf is in range.  Out of range,
 * KVM answers with the highest basic leaf (keeping the subleaf) unless the
 * guest's vendor is AMD or Hygon, whose CPUs answer zeros.
 */
void x86_cpu_cpuid(X86CPU *cpu, const X86CPUEnv *env, uint32_t index,
                   uint32_t count, uint32_t *eax, uint32_t *ebx, uint32_t *ecx,
                   uint32_t *edx)
{
    GArray *t = x86_cpu_build_cpuid_table(cpu, env);
    const X86CPUIDEntry *e = table_find(t, index, count);
    const X86CPUIDEntry *basic = table_find(t, 0, 0);
    CPUIDRegs r = { 0 };

    if (!e && basic) {
        char vendor[13];
        const X86CPUIDEntry *class;
        uint32_t words[3] = { basic->ebx, basic->edx, basic->ecx };

        memcpy(vendor, words, 12);
        vendor[12] = 0;
        if (index >= 0x40000000 && index <= 0x4fffffff) {
            class = table_find(t, index & 0xffffff00, 0);
        } else if (index >= 0xc0000000) {
            class = table_find(t, 0xc0000000, 0);
        } else {
            class = table_find(t, index & 0x80000000, 0);
        }
        if (strcmp(vendor, "AuthenticAMD") && strcmp(vendor, "HygonGenuine") &&
            !(class && index <= class->eax)) {
            index = basic->eax;
            e = table_find(t, index, count);
        }
    }
    if (e) {
        r = (CPUIDRegs){ e->eax, e->ebx, e->ecx, e->edx };
    } else if (index == 0xb || index == 0x1f) {
        /* Undefined topology subleaves still echo CL and the x2APIC id */
        const X86CPUIDEntry *e1 = table_find(t, index, 1);

        if (e1) {
            r.ecx = count & 0xff;
            r.edx = e1->edx;
        }
    }
    *eax = r.eax;
    *ebx = r.ebx;
    *ecx = r.ecx;
    *edx = r.edx;
    g_array_free(t, TRUE);
}
