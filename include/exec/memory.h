/*
 * The memory API, in QEMU's shape: a tree of MemoryRegions rendered into
 * flat views of AddressSpaces, through which every access goes.
 *
 * Regions.  A MemoryRegion is a QOM object ("memory-region"), usually a
 * member of its owner's state and a child of the owner in the composition
 * tree ("rtc[0]"; regions without an owner go to /machine/unattached).
 * Kinds: a container (subregions only), RAM, ROM (RAM the guest cannot
 * write), I/O (callbacks, MemoryRegionOps) and aliases (a window onto
 * part of another region, at an offset).  Subregions have an address in
 * their container and a priority; they may overlap: where they do, the
 * higher priority wins, and among equals the one added last.  Whatever no
 * subregion covers belongs to the container itself if it is I/O or RAM
 * (the "io" root answers every unclaimed port), and to nobody otherwise.
 * Disabled regions, with all they contain, are left out.
 *
 * Changes.  Every change (add, remove, enable, move, resize an alias) is
 * part of a transaction; nested begin/commit pairs make one transaction,
 * and the outermost commit renders each address space's flat view again,
 * tells its listeners (KVM's memory slots follow the RAM and ROM of
 * "memory") and publishes the view.  Commits may happen on any thread:
 * the tree is guarded by one recursive lock, readers never take it.
 *
 * Accesses.  address_space_rw() and friends look the address up in the
 * current flat view (binary search, under rcu_read_lock()) as QEMU 7.2
 * does: RAM is copied up to the end of its range; an I/O region receives
 * the whole remaining access (clipped only by its valid.max_access_size,
 * 4 when unset, and by the address's alignment), which its ops may split
 * further into impl-sized calls (impl.min/max_access_size) at successive
 * offsets, little-endian.  Unassigned memory reads as zeros and ignores
 * writes; an access the region's valid constraints refuse does the same.
 */
#ifndef EXEC_MEMORY_H
#define EXEC_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"
#include "qom/object.h"

typedef uint64_t hwaddr;
/* Region sizes reach 2^64 (the "system" container) */
typedef unsigned __int128 Int128;

#define TYPE_MEMORY_REGION "memory-region"

typedef struct MemoryRegion MemoryRegion;
typedef struct AddressSpace AddressSpace;
typedef struct FlatView FlatView;
typedef struct MemoryListener MemoryListener;

typedef enum MemTxResult {
    MEMTX_OK = 0,
    MEMTX_ERROR = 1u << 0,
    MEMTX_DECODE_ERROR = 1u << 1,
} MemTxResult;

typedef struct MemTxAttrs {
    unsigned unspecified : 1;
} MemTxAttrs;
#define MEMTXATTRS_UNSPECIFIED ((MemTxAttrs){ .unspecified = 1 })

/* Only little-endian devices exist on the PC; NATIVE means little here */
enum device_endian {
    DEVICE_NATIVE_ENDIAN,
    DEVICE_LITTLE_ENDIAN,
};

typedef struct MemoryRegionOps {
    /* addr is the offset in the region; size 1, 2, 4 or 8 */
    uint64_t (*read)(void *opaque, hwaddr addr, unsigned size);
    void (*write)(void *opaque, hwaddr addr, uint64_t data, unsigned size);
    enum device_endian endianness;
    /* What the guest may do; anything else reads 0 and writes nothing */
    struct {
        unsigned min_access_size;   /* 0: 1 */
        unsigned max_access_size;   /* 0: any size up to 4 */
        bool unaligned;
        bool (*accepts)(void *opaque, hwaddr addr, unsigned size,
                        bool is_write);
    } valid;
    /* What the callbacks handle; other sizes are split or widened */
    struct {
        unsigned min_access_size;   /* 0: 1 */
        unsigned max_access_size;   /* 0: 4 */
        bool unaligned;
    } impl;
} MemoryRegionOps;

struct MemoryRegion {
    Object parent_obj;

    /* private: use the functions below */
    bool ram;                   /* RAM or ROM: ram_ptr holds the bytes */
    bool readonly;              /* ROM, or memory_region_set_readonly */
    bool enabled;
    bool terminates;            /* RAM or I/O: answers where not covered */
    bool ram_mapped;            /* ram_ptr is our own mapping */
    const MemoryRegionOps *ops;
    void *opaque;
    Object *owner;
    char *name;
    MemoryRegion *container;
    Int128 size;
    hwaddr addr;
    int priority;
    MemoryRegion *alias;
    hwaddr alias_offset;
    uint8_t *ram_ptr;
    GPtrArray *subregions;      /* priority descending, newest first */
};

/*
 * Creation.  name may be NULL (no QOM child); size UINT64_MAX means the
 * whole 2^64 space.  owner NULL: the region lives for the machine's life.
 */
void memory_region_init(MemoryRegion *mr, Object *owner, const char *name,
                        uint64_t size);
void memory_region_init_io(MemoryRegion *mr, Object *owner,
                           const MemoryRegionOps *ops, void *opaque,
                           const char *name, uint64_t size);
/* Anonymous host memory (MAP_NORESERVE), zero-filled */
bool memory_region_init_ram(MemoryRegion *mr, Object *owner,
                            const char *name, uint64_t size, Error **errp);
bool memory_region_init_rom(MemoryRegion *mr, Object *owner,
                            const char *name, uint64_t size, Error **errp);
/* RAM over host memory the caller owns and keeps mapped */
void memory_region_init_ram_ptr(MemoryRegion *mr, Object *owner,
                                const char *name, uint64_t size, void *ptr);
void memory_region_init_alias(MemoryRegion *mr, Object *owner,
                              const char *name, MemoryRegion *orig,
                              hwaddr offset, uint64_t size);

/* The tree */
void memory_region_add_subregion(MemoryRegion *mr, hwaddr offset,
                                 MemoryRegion *subregion);
void memory_region_add_subregion_overlap(MemoryRegion *mr, hwaddr offset,
                                         MemoryRegion *subregion,
                                         int priority);
void memory_region_del_subregion(MemoryRegion *mr, MemoryRegion *subregion);
void memory_region_set_enabled(MemoryRegion *mr, bool enabled);
void memory_region_set_address(MemoryRegion *mr, hwaddr addr);
void memory_region_set_alias_offset(MemoryRegion *mr, hwaddr offset);
void memory_region_set_readonly(MemoryRegion *mr, bool readonly);

const char *memory_region_name(const MemoryRegion *mr);
uint64_t memory_region_size(const MemoryRegion *mr);
bool memory_region_is_ram(const MemoryRegion *mr);
bool memory_region_is_rom(const MemoryRegion *mr);
void *memory_region_get_ram_ptr(MemoryRegion *mr);
Object *memory_region_owner(const MemoryRegion *mr);

void memory_region_transaction_begin(void);
void memory_region_transaction_commit(void);

/* The two address spaces every machine has, and their roots */
MemoryRegion *get_system_memory(void);  /* "system", 2^64, container */
MemoryRegion *get_system_io(void);      /* "io", 64 KiB, reads all-ones */
extern AddressSpace address_space_memory;   /* "memory" */
extern AddressSpace address_space_io;       /* "I/O" */

struct AddressSpace {
    char *name;
    MemoryRegion *root;
    FlatView *current_map;      /* rcu */
    GPtrArray *listeners;       /* MemoryListener* */
    bool initialized;
};

/* A bus master's view (later: per PCI device); root is referenced */
void address_space_init(AddressSpace *as, MemoryRegion *root,
                        const char *name);
void address_space_destroy(AddressSpace *as);

MemTxResult address_space_rw(AddressSpace *as, hwaddr addr, MemTxAttrs attrs,
                             void *buf, hwaddr len, bool is_write);
MemTxResult address_space_read(AddressSpace *as, hwaddr addr,
                               MemTxAttrs attrs, void *buf, hwaddr len);
MemTxResult address_space_write(AddressSpace *as, hwaddr addr,
                                MemTxAttrs attrs, const void *buf,
                                hwaddr len);
/* Sets len bytes to c */
MemTxResult address_space_set(AddressSpace *as, hwaddr addr, uint8_t c,
                              hwaddr len, MemTxAttrs attrs);

/* Little-endian loads and stores for device models (DMA) */
uint8_t ldub_phys(AddressSpace *as, hwaddr addr);
uint16_t lduw_le_phys(AddressSpace *as, hwaddr addr);
uint32_t ldl_le_phys(AddressSpace *as, hwaddr addr);
uint64_t ldq_le_phys(AddressSpace *as, hwaddr addr);
void stb_phys(AddressSpace *as, hwaddr addr, uint8_t val);
void stw_le_phys(AddressSpace *as, hwaddr addr, uint16_t val);
void stl_le_phys(AddressSpace *as, hwaddr addr, uint32_t val);
void stq_le_phys(AddressSpace *as, hwaddr addr, uint64_t val);

/* One region's dispatch, valid/impl rules applied (tests, aliases) */
MemTxResult memory_region_dispatch_read(MemoryRegion *mr, hwaddr addr,
                                        uint64_t *pval, unsigned size);
MemTxResult memory_region_dispatch_write(MemoryRegion *mr, hwaddr addr,
                                         uint64_t val, unsigned size);

/*
 * Flat views.  A FlatView is immutable once published; hold it with
 * rcu_read_lock() (address_space_to_flatview) or take a reference.
 */
typedef struct FlatRange {
    MemoryRegion *mr;           /* the terminating region (not an alias) */
    hwaddr offset_in_region;
    hwaddr start;
    Int128 size;
    bool readonly;
} FlatRange;

struct FlatView {
    int ref;
    MemoryRegion *root;         /* NULL: nothing is mapped */
    FlatRange *ranges;
    unsigned nr, nr_allocated;
};

FlatView *address_space_to_flatview(AddressSpace *as);  /* under rcu */
FlatView *address_space_get_flatview(AddressSpace *as); /* referenced */
void flatview_ref(FlatView *fv);
void flatview_unref(FlatView *fv);
/* The range holding addr, or NULL */
const FlatRange *flatview_lookup(const FlatView *fv, hwaddr addr);
/* Renders a tree from scratch (tests; commits use the same function) */
FlatView *generate_memory_topology(MemoryRegion *mr);

/*
 * Listeners see every new flat view of their address space, called with
 * the memory lock held, old view first (NULL at the first one).
 */
struct MemoryListener {
    void (*commit)(MemoryListener *l, AddressSpace *as, FlatView *old_fv,
                   FlatView *new_fv);
};
void memory_listener_register(MemoryListener *l, AddressSpace *as);
void memory_listener_unregister(MemoryListener *l, AddressSpace *as);

/* Every address space in creation order (for info mtree) */
GPtrArray *address_space_list(void);
/* Takes/releases the lock that guards the region tree */
void memory_tree_lock(void);
void memory_tree_unlock(void);

/* HMP info mtree [-f] [-o] [-D]: QEMU 7.2's layout */
void mtree_info(GString *out, bool flatview);
char *mtree_info_text(bool flatview, bool owner, bool disabled);
/* Whether an accelerator maps [start, start+size) of as (KVM slots) */
typedef bool MemoryAccelHasMemory(AddressSpace *as, hwaddr start,
                                  hwaddr size);
void memory_set_accel_has_memory(const char *name, MemoryAccelHasMemory *fn);

/*
 * The PC machine's RAM (hw/i386/pc.c builds the regions): one block
 * "pc.ram" (or "ram" for none), mapped in pieces below and above 4 GiB.
 */

/* RAM below the PCI hole by default; the rest of RAM starts at 4 GiB */
#define PC_BELOW_4G_MAX 0x80000000ULL
#define PC_ABOVE_4G_BASE 0x100000000ULL

/*
 * How much RAM the board maps below 4 GiB (at most 4 GiB); call before
 * RAM is allocated.  memory_below_4g() is the resulting size of the low
 * region: min(RAM size, that limit).
 */
void memory_set_below_4g_limit(uint64_t limit);
uint64_t memory_below_4g(void);
/*
 * The machine's RAM block, allocated on first use (size bytes, "pc.ram")
 * and mapped as on a PC (memory_map_pc_ram); later calls with the same
 * size return the same block.  NULL with *errp set if the memory cannot
 * be had or a different size was asked for.  (Tests and fuzz targets; the
 * emulator allocates with memory_machine_init_ram.)
 */
void *memory_ram_alloc(uint64_t size, Error **errp);
/*
 * Maps the RAM block as QEMU 7.2's PC does: "ram-below-4g" (the first
 * memory_below_4g() bytes) at 0, "ram-above-4g" (the rest) at 4 GiB, both
 * aliases of the block.  Once; later calls do nothing.
 */
void memory_map_pc_ram(void);
/* Its region ("pc.ram"), NULL before memory_ram_alloc */
MemoryRegion *memory_ram_region(void);
uint64_t memory_ram_size(void);
/*
 * The host address of guest RAM at addr..addr+len-1 in the "memory"
 * address space, NULL unless it is all one RAM range
 */
void *memory_guest_ptr(hwaddr addr, uint64_t len);

/* Guest-physical copies through "memory" (unassigned: 0s, dropped) */
void cpu_physical_memory_read(hwaddr addr, void *buf, uint64_t len);
void cpu_physical_memory_write(hwaddr addr, const void *buf, uint64_t len);
void cpu_physical_memory_set(hwaddr addr, uint8_t value, uint64_t len);

/* Port I/O through "I/O", as a vCPU's in/out instruction does it */
uint32_t cpu_inb(uint16_t port);
uint32_t cpu_inw(uint16_t port);
uint32_t cpu_inl(uint16_t port);
void cpu_outb(uint16_t port, uint8_t value);
void cpu_outw(uint16_t port, uint16_t value);
void cpu_outl(uint16_t port, uint32_t value);

/*
 * Start-up: allocates the machine's RAM block, a RAM region named name
 * ("pc.ram"; "ram" for none) owned by owner (its memory backend object),
 * not yet mapped anywhere: the board maps it (pc_memory_init).
 */
bool memory_machine_init_ram(Object *owner, const char *name, uint64_t size,
                             Error **errp);

/*
 * The same with NUMA memory backends: a container named name holding one
 * RAM region per part (named and owned by its backend, mapped with its
 * backing), one after the other, as QEMU 7.2 builds "pc.ram" from -numa
 * node,memdev=
 */
typedef struct MemoryRamPart {
    Object *owner;
    const char *name;
    uint64_t size;
    const struct HostMemBacking *backing;
} MemoryRamPart;
bool memory_machine_init_ram_parts(const char *name, const MemoryRamPart *parts,
                                   unsigned n, Error **errp);

#endif
