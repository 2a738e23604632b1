/*
 * Guest RAM on the host (include/sysemu/hostmem.h).  As QEMU 7.2 maps it,
 * checked from outside through /proc/PID/smaps and numa_maps
 * (tests/functional/test_option_effects.py): not forked (dc), backed by
 * transparent huge pages where the host allows (hg), shareable with KSM
 * when merge is on (mg), out of core dumps when dump is off (dd), shared
 * (sh) when share is on, under the NUMA policy asked for.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <glib.h>

#include "sysemu/hostmem.h"

/* The kernel's NUMA policy modes and flags (linux/mempolicy.h) */
#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_BIND 2
#define MPOL_INTERLEAVE 3
#define MPOL_MF_STRICT (1 << 0)
#define MPOL_MF_MOVE (1 << 1)

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static HostMemBacking ram_backing;
static bool ram_backing_set;

void host_mem_backing_init(HostMemBacking *b, bool merge, bool dump)
{
    memset(b, 0, sizeof(*b));
    b->reserve = true;
    b->merge = merge;
    b->dump = dump;
}

void host_mem_set_ram_backing(const HostMemBacking *b)
{
    ram_backing = *b;
    ram_backing_set = true;
}

const HostMemBacking *host_mem_ram_backing(void)
{
    if (!ram_backing_set) {
        host_mem_backing_init(&ram_backing, true, true);
        ram_backing_set = true;
    }
    return &ram_backing;
}

static bool host_mem_bind(void *p, uint64_t size, const HostMemBacking *b,
                          Error **errp)
{
    static const int modes[] = {
        [HOST_MEM_POLICY_DEFAULT] = MPOL_DEFAULT,
        [HOST_MEM_POLICY_PREFERRED] = MPOL_PREFERRED,
        [HOST_MEM_POLICY_BIND] = MPOL_BIND,
        [HOST_MEM_POLICY_INTERLEAVE] = MPOL_INTERLEAVE,
    };
    bool any = false;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(b->host_nodes); i++) {
        any |= b->host_nodes[i] != 0;
    }
    if (any && b->policy == HOST_MEM_POLICY_DEFAULT) {
        error_setg(errp, "host-nodes must be empty for policy default, or "
                   "you should explicitly specify a policy other than "
                   "default");
        return false;
    }
    if (!any && b->policy != HOST_MEM_POLICY_DEFAULT) {
        static const char *const names[] = {
            "default", "preferred", "bind", "interleave",
        };

        error_setg(errp, "host-nodes must be set for policy %s",
                   names[b->policy]);
        return false;
    }
    if (!any) {
        return true;
    }
    /* The kernel takes one bit more than the highest node (maxnode) */
    if (syscall(SYS_mbind, p, size, modes[b->policy], b->host_nodes,
                HOST_MEM_MAX_NODES + 1,
                b->policy == HOST_MEM_POLICY_BIND ? MPOL_MF_STRICT : 0) < 0) {
        error_setg(errp, "cannot bind memory to host NUMA nodes: %s",
                   strerror(errno));
        return false;
    }
    return true;
}

/* Faults every page in, as QEMU's prealloc does, before the guest runs */
static bool host_mem_prealloc(void *p, uint64_t size, Error **errp)
{
    long page = sysconf(_SC_PAGESIZE);
    uint64_t off;

    if (madvise(p, size, MADV_POPULATE_WRITE) == 0) {
        return true;
    }
    if (errno != EINVAL) {
        error_setg(errp, "os_mem_prealloc: preallocating memory failed: %s",
                   strerror(errno));
        return false;
    }
    /* Kernels before 5.14: touch each page */
    for (off = 0; off < size; off += page) {
        volatile uint8_t *b = (uint8_t *)p + off;
        *b = *b;
    }
    return true;
}

void *host_mem_map(const char *name, uint64_t size, const HostMemBacking *b,
                   Error **errp)
{
    int flags = MAP_ANONYMOUS | (b->share ? MAP_SHARED : MAP_PRIVATE) |
                (b->reserve ? 0 : MAP_NORESERVE);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);

    if (p == MAP_FAILED) {
        error_setg(errp, "cannot set up guest memory '%s': %s", name,
                   strerror(errno));
        return NULL;
    }
    /*
     * Advice as QEMU gives it; the kernel may refuse some (no THP, no
     * KSM), which changes nothing the guest sees
     */
    madvise(p, size, MADV_DONTFORK);
    madvise(p, size, MADV_HUGEPAGE);
    madvise(p, size, b->merge ? MADV_MERGEABLE : MADV_UNMERGEABLE);
    if (!b->dump) {
        madvise(p, size, MADV_DONTDUMP);
    }
    if (!host_mem_bind(p, size, b, errp) ||
        (b->prealloc && !host_mem_prealloc(p, size, errp))) {
        munmap(p, size);
        return NULL;
    }
    return p;
}
