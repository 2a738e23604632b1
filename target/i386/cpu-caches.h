/*
 * Cache descriptions the CPUID cache leaves (2, 4, 0x80000005/6,
 * 0x8000001D) are encoded from: QEMU's legacy caches and the caches of the
 * models that have their own (cpu-caches.c).
 */
#ifndef TARGET_I386_CPU_CACHES_H
#define TARGET_I386_CPU_CACHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/i386/cpu-internal.h"

typedef enum CacheType {
    DATA_CACHE = 1,
    INSTRUCTION_CACHE = 2,
    UNIFIED_CACHE = 3,
} CacheType;

typedef struct CPUCacheInfo {
    CacheType type;
    uint8_t level;
    uint32_t size;
    uint16_t line_size;
    uint8_t associativity;
    uint8_t partitions;
    uint32_t sets;
    uint8_t lines_per_tag;
    bool self_init, no_invd_sharing, inclusive, complex_indexing;
} CPUCacheInfo;

enum { CACHE_L1D, CACHE_L1I, CACHE_L2, CACHE_L3, CACHE__MAX };

#define KiB 1024u
#define MiB (1024u * 1024u)

/* A 64-byte-line, one-partition cache; flags: self-init, no-INVD-sharing,
 * inclusive, complex indexing */
#define CACHE(t, lvl, sz, ways, lpt, si, nis, incl, cx)                      \
    { t, lvl, sz, 64, ways, 1, (sz) / 64 / (ways), lpt, si, nis, incl, cx }


extern const CPUCacheInfo legacy_cache_cpuid2[CACHE__MAX];
extern const CPUCacheInfo legacy_cache_cpuid4[CACHE__MAX];
extern const CPUCacheInfo legacy_cache_amd[CACHE__MAX];

typedef struct CPUCacheDescriptor {
    uint8_t descriptor;
    uint8_t level;
    CacheType type;
    uint32_t size;
    uint8_t associativity;
} CPUCacheDescriptor;
extern const CPUCacheDescriptor cpuid2_descriptors[];
extern const size_t cpuid2_descriptors_count;

/* A model's own caches by the name its definition gives, or NULL */
const CPUCacheInfo *x86_model_caches(const char *name);

/* Leaf 2's one-byte descriptor for a cache, or 0xff if none fits */
uint32_t cpuid2_cache_descriptor(const CPUCacheInfo *c);
/* Deterministic cache parameters, shared by leaves 4 and 0x8000001D */
void encode_cache_common(const CPUCacheInfo *c, CPUIDRegs *r);
/* Leaf 4: the above plus the cores/APIC ids sharing the cache */
void encode_cache_cpuid4(const CPUCacheInfo *c, uint32_t num_apic_ids,
                         uint32_t num_cores, CPUIDRegs *r);
/* APM's associativity encoding of 0x80000006 */
uint32_t amd_enc_assoc(uint32_t ways);
/* One L1 cache as 0x80000005.ECX/EDX encodes it */
uint32_t encode_cache_cpuid80000005(const CPUCacheInfo *c);

#endif
