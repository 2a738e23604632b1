/*
 * Cache tables: QEMU's legacy caches, the CPUID[2] descriptor table and
 * the caches of the CPU models that describe their own; and how the cache
 * leaves encode them (at the end).  The model
 * caches are what QEMU 7.2's guests read in leaves 2, 4, 0x80000005/6 and
 * 0x8000001D for these models (observed with tests/guest/cpuid.elf).
 */
#include <glib.h>

#include "target/i386/cpu-caches.h"

/*
 * QEMU's legacy caches (legacy-cache=on, and every model without its own
 * cache description), one set per leaf family as QEMU keeps them.  Leaf 2
 * has no descriptor for leaf 4's 4 MiB 16-way L2, hence its own L2.
 */
const CPUCacheInfo legacy_cache_cpuid2[CACHE__MAX] = {
    CACHE(DATA_CACHE, 1, 32 * KiB, 8, 0, 1, 1, 0, 0),
    CACHE(INSTRUCTION_CACHE, 1, 32 * KiB, 8, 0, 1, 1, 0, 0),
    CACHE(UNIFIED_CACHE, 2, 2 * MiB, 8, 0, 0, 0, 0, 0),
    CACHE(UNIFIED_CACHE, 3, 16 * MiB, 16, 1, 1, 0, 1, 1),
};
const CPUCacheInfo legacy_cache_cpuid4[CACHE__MAX] = {
    CACHE(DATA_CACHE, 1, 32 * KiB, 8, 0, 1, 1, 0, 0),
    CACHE(INSTRUCTION_CACHE, 1, 32 * KiB, 8, 0, 1, 1, 0, 0),
    CACHE(UNIFIED_CACHE, 2, 4 * MiB, 16, 0, 1, 1, 0, 0),
    CACHE(UNIFIED_CACHE, 3, 16 * MiB, 16, 1, 1, 0, 1, 1),
};
const CPUCacheInfo legacy_cache_amd[CACHE__MAX] = {
    CACHE(DATA_CACHE, 1, 64 * KiB, 2, 1, 1, 1, 0, 0),
    CACHE(INSTRUCTION_CACHE, 1, 64 * KiB, 2, 1, 1, 1, 0, 0),
    CACHE(UNIFIED_CACHE, 2, 512 * KiB, 16, 1, 0, 0, 0, 0),
    CACHE(UNIFIED_CACHE, 3, 16 * MiB, 16, 1, 1, 0, 1, 1),
};

/* CPUID[2] descriptors of 64-byte-line caches (SDM Vol. 2A, "Encoding of
 * CPUID Leaf 2 Descriptors"): descriptor, level, type, size, ways */
#define D(d, l, t, sz, w) { d, l, t, sz, w }
#define U UNIFIED_CACHE
const CPUCacheDescriptor cpuid2_descriptors[] = {
    D(0x0d, 1, DATA_CACHE, 16 * KiB, 4), D(0x2c, 1, DATA_CACHE, 32 * KiB, 8),
    D(0x60, 1, DATA_CACHE, 16 * KiB, 8),
    D(0x30, 1, INSTRUCTION_CACHE, 32 * KiB, 8),
    D(0x21, 2, U, 256 * KiB, 8), D(0x7a, 2, U, 256 * KiB, 8),
    D(0x80, 2, U, 512 * KiB, 8), D(0x7c, 2, U, 1 * MiB, 8),
    D(0x7d, 2, U, 2 * MiB, 8),   D(0x7f, 2, U, 512 * KiB, 2),
    D(0x86, 2, U, 512 * KiB, 4), D(0x87, 2, U, 1 * MiB, 8),
    D(0x22, 3, U, 512 * KiB, 4), D(0x23, 3, U, 1 * MiB, 8),
    D(0x25, 3, U, 2 * MiB, 8),   D(0x29, 3, U, 4 * MiB, 8),
    D(0x46, 3, U, 4 * MiB, 4),   D(0x47, 3, U, 8 * MiB, 8),
    D(0x4b, 3, U, 8 * MiB, 16),
    D(0x4c, 3, U, 12 * MiB, 12), D(0x4d, 3, U, 16 * MiB, 16),
    D(0xd0, 3, U, 512 * KiB, 4), D(0xd1, 3, U, 1 * MiB, 4),
    D(0xd2, 3, U, 2 * MiB, 4),   D(0xe2, 3, U, 2 * MiB, 16),
    D(0xe3, 3, U, 4 * MiB, 16),  D(0xe4, 3, U, 8 * MiB, 16),
    D(0xea, 3, U, 12 * MiB, 24), D(0xeb, 3, U, 18 * MiB, 24),
    D(0xec, 3, U, 24 * MiB, 24),
};
#undef D
#undef U
const size_t cpuid2_descriptors_count =
    sizeof(cpuid2_descriptors) / sizeof(cpuid2_descriptors[0]);

/* EPYC (Naples) and Dhyana: 64 KiB 4-way L1i, 8 MiB L3 */
static const CPUCacheInfo epyc_caches[CACHE__MAX] = {
    CACHE(DATA_CACHE, 1, 32 * KiB, 8, 1, 1, 1, 0, 0),
    CACHE(INSTRUCTION_CACHE, 1, 64 * KiB, 4, 1, 1, 1, 0, 0),
    CACHE(UNIFIED_CACHE, 2, 512 * KiB, 8, 1, 0, 0, 0, 0),
    CACHE(UNIFIED_CACHE, 3, 8 * MiB, 16, 1, 1, 0, 1, 1),
};

/* EPYC-Rome: 32 KiB 8-way L1i, 16 MiB L3 */
static const CPUCacheInfo epyc_rome_caches[CACHE__MAX] = {
    CACHE(DATA_CACHE, 1, 32 * KiB, 8, 1, 1, 1, 0, 0),
    CACHE(INSTRUCTION_CACHE, 1, 32 * KiB, 8, 1, 1, 1, 0, 0),
    CACHE(UNIFIED_CACHE, 2, 512 * KiB, 8, 1, 0, 0, 0, 0),
    CACHE(UNIFIED_CACHE, 3, 16 * MiB, 16, 1, 1, 0, 1, 1),
};

/* EPYC-Milan: as Rome with a 32 MiB L3 */
static const CPUCacheInfo epyc_milan_caches[CACHE__MAX] = {
    CACHE(DATA_CACHE, 1, 32 * KiB, 8, 1, 1, 1, 0, 0),
    CACHE(INSTRUCTION_CACHE, 1, 32 * KiB, 8, 1, 1, 1, 0, 0),
    CACHE(UNIFIED_CACHE, 2, 512 * KiB, 8, 1, 0, 0, 0, 0),
    CACHE(UNIFIED_CACHE, 3, 32 * MiB, 16, 1, 1, 0, 1, 1),
};

static const struct {
    const char *name;
    const CPUCacheInfo *caches;
} model_caches[] = {
    { "EPYC", epyc_caches },
    { "Dhyana", epyc_caches },
    { "EPYC-Rome", epyc_rome_caches },
    { "EPYC-Milan", epyc_milan_caches },
};

const CPUCacheInfo *x86_model_caches(const char *name)
{
    size_t i;

    for (i = 0; name && i < sizeof(model_caches) / sizeof(model_caches[0]);
         i++) {
        if (!__builtin_strcmp(model_caches[i].name, name)) {
            return model_caches[i].caches;
        }
    }
    return NULL;
}

/* Encodings -------------------------------------------------------- */

#define CPUID2_DESCRIPTOR_UNAVAILABLE 0xff

/* Every descriptor above is for 64-byte lines, as all of QEMU's caches */
/* When several descriptors fit, the lowest one (as QEMU picks them) */
uint32_t cpuid2_cache_descriptor(const CPUCacheInfo *c)
{
    uint32_t best = CPUID2_DESCRIPTOR_UNAVAILABLE;
    size_t i;

    for (i = 0; i < cpuid2_descriptors_count; i++) {
        if (cpuid2_descriptors[i].level == c->level &&
            cpuid2_descriptors[i].type == c->type &&
            cpuid2_descriptors[i].size == c->size &&
            cpuid2_descriptors[i].associativity == c->associativity &&
            c->line_size == 64 && cpuid2_descriptors[i].descriptor < best) {
            best = cpuid2_descriptors[i].descriptor;
        }
    }
    return best;
}

/* Deterministic cache parameters, shared by leaves 4 and 0x8000001D */
void encode_cache_common(const CPUCacheInfo *c, CPUIDRegs *r)
{
    r->eax = c->type | (c->level << 5) | (c->self_init ? 1u << 8 : 0);
    r->ebx = (c->line_size - 1) | ((c->partitions - 1) << 12) |
             ((uint32_t)(c->associativity - 1) << 22);
    r->ecx = c->sets - 1;
    r->edx = (c->no_invd_sharing ? 1u << 0 : 0) |
             (c->inclusive ? 1u << 1 : 0) |
             (c->complex_indexing ? 1u << 2 : 0);
}

void encode_cache_cpuid4(const CPUCacheInfo *c, uint32_t num_apic_ids,
                         uint32_t num_cores, CPUIDRegs *r)
{
    encode_cache_common(c, r);
    r->eax |= ((num_cores - 1) << 26) | ((num_apic_ids - 1) << 14);
}

/* APM's associativity encoding of 0x80000006 */
uint32_t amd_enc_assoc(uint32_t a)
{
    static const struct { uint8_t ways, code; } map[] = {
        { 2, 0x2 }, { 4, 0x4 }, { 8, 0x6 }, { 16, 0x8 }, { 32, 0xa },
        { 48, 0xb }, { 64, 0xc }, { 96, 0xd }, { 128, 0xe }, { 0xff, 0xf },
    };
    size_t i;

    if (a <= 1) {
        return a;
    }
    for (i = 0; i < G_N_ELEMENTS(map); i++) {
        if (map[i].ways == a) {
            return map[i].code;
        }
    }
    return 0;
}

uint32_t encode_cache_cpuid80000005(const CPUCacheInfo *c)
{
    return ((c->size / KiB) << 24) | (c->associativity << 16) |
           (c->lines_per_tag << 8) | c->line_size;
}
