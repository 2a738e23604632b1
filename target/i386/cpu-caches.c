/*
 * Cache tables (data): QEMU's legacy caches, the CPUID[2] descriptor table
 * and the caches of the CPU models that describe their own.  The model
 * caches are what QEMU 7.2's guests read in leaves 2, 4, 0x80000005/6 and
 * 0x8000001D for these models (observed with tests/guest/cpuid.elf).
 */
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

