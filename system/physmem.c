/*
 * Accesses through address spaces (see include/exec/memory.h), and the
 * machine's RAM block.
 *
 * An access is looked up in the address space's current flat view.  RAM
 * is copied directly, up to the end of its range (ROM only when read;
 * RAM seen through a read-only alias is written, as in QEMU 7.2).
 * Anything else goes to the region as QEMU 7.2 sends it: the whole rest
 * of the access, cut to the largest power of two the region's
 * valid.max_access_size (4 when unset) and the offset's alignment allow,
 * then on to whatever region holds the next byte.  The region's own ops
 * may split or widen that again (impl sizes).  Unassigned addresses and
 * accesses a region does not accept read as 0 and drop writes.
 */
#include <string.h>

#include <glib.h>

#include "exec/memory.h"
#include "sysemu/hostmem.h"
#include "qemu/rcu.h"

/* One region's ops ----------------------------------------------------------- */

static bool memory_region_access_valid(MemoryRegion *mr, hwaddr addr,
                                       unsigned size, bool is_write)
{
    const MemoryRegionOps *ops = mr->ops;

    if (!ops) {
        return false;   /* ROM written, or nothing to call */
    }
    if (ops->valid.accepts &&
        !ops->valid.accepts(mr->opaque, addr, size, is_write)) {
        return false;
    }
    if (!ops->valid.unaligned && (addr & (size - 1))) {
        return false;
    }
    if (!ops->valid.max_access_size) {
        return true;    /* QEMU: 0 means every size is valid */
    }
    return size <= ops->valid.max_access_size &&
           size >= MAX(ops->valid.min_access_size, 1u);
}

static uint64_t size_mask(unsigned size)
{
    return size >= 8 ? UINT64_MAX : (1ULL << (size * 8)) - 1;
}

/*
 * Calls the ops in impl-sized pieces: an access smaller than
 * impl.min_access_size is widened, a larger one split at successive
 * offsets, little-endian.
 */
static void access_with_adjusted_size(MemoryRegion *mr, hwaddr addr,
                                      uint64_t *value, unsigned size,
                                      bool is_write)
{
    const MemoryRegionOps *ops = mr->ops;
    unsigned min = ops->impl.min_access_size ? ops->impl.min_access_size : 1;
    unsigned max = ops->impl.max_access_size ? ops->impl.max_access_size : 4;
    unsigned access = MAX(MIN(size, max), min);
    uint64_t mask = size_mask(access);
    unsigned i;

    for (i = 0; i < size; i += access) {
        if (is_write) {
            ops->write(mr->opaque, addr + i, (*value >> (i * 8)) & mask,
                       access);
        } else {
            uint64_t v = ops->read(mr->opaque, addr + i, access) & mask;

            *value |= i < 8 ? v << (i * 8) : 0;
        }
    }
}

MemTxResult memory_region_dispatch_read(MemoryRegion *mr, hwaddr addr,
                                        uint64_t *pval, unsigned size)
{
    while (mr->alias) {
        addr += mr->alias_offset;
        mr = mr->alias;
    }
    *pval = 0;
    if (!memory_region_access_valid(mr, addr, size, false)) {
        return MEMTX_DECODE_ERROR;
    }
    if (mr->ops->read) {
        access_with_adjusted_size(mr, addr, pval, size, false);
    }
    *pval &= size_mask(size);
    return MEMTX_OK;
}

MemTxResult memory_region_dispatch_write(MemoryRegion *mr, hwaddr addr,
                                         uint64_t val, unsigned size)
{
    while (mr->alias) {
        addr += mr->alias_offset;
        mr = mr->alias;
    }
    if (!memory_region_access_valid(mr, addr, size, true)) {
        return MEMTX_DECODE_ERROR;
    }
    if (mr->ops->write) {
        val &= size_mask(size);
        access_with_adjusted_size(mr, addr, &val, size, true);
    }
    return MEMTX_OK;
}

/* Address spaces ---------------------------------------------------------------- */

/* The size of the next access to mr at addr: QEMU's memory_access_size */
static unsigned memory_access_size(MemoryRegion *mr, hwaddr len, hwaddr addr)
{
    unsigned max = mr->ops && mr->ops->valid.max_access_size
                       ? mr->ops->valid.max_access_size : 4;
    unsigned l;

    if (!mr->ops || !mr->ops->impl.unaligned) {
        hwaddr align = addr & -addr;

        if (align && align < max) {
            max = align;
        }
    }
    l = len > max ? max : (unsigned)len;
    /* A power of two */
    while (l & (l - 1)) {
        l &= l - 1;
    }
    return l;
}

static MemTxResult flatview_rw(FlatView *fv, hwaddr addr, uint8_t *buf,
                               hwaddr len, bool is_write)
{
    MemTxResult result = MEMTX_OK;

    while (len) {
        const FlatRange *r = flatview_lookup(fv, addr);
        hwaddr l = len;

        if (!r) {
            /*
             * Unassigned, as QEMU's catch-all region: pieces of at most 4
             * bytes and the address's alignment, reading 0
             */
            hwaddr align = addr & -addr;

            l = MIN(l, 4);
            if (align && align < l) {
                l = align;
            }
            while (l & (l - 1)) {
                l &= l - 1;
            }
            if (!is_write) {
                memset(buf, 0, l);
            }
            result |= MEMTX_DECODE_ERROR;
        } else {
            MemoryRegion *mr = r->mr;
            hwaddr off = addr - r->start + r->offset_in_region;

            /*
             * QEMU 7.2 writes RAM that is read-only only through an alias
             * (PAM's read-only segments): its accesses look at the RAM
             * region itself.  So do qtest's writes and a vCPU's write to
             * a KVM read-only slot, which exits here as MMIO.
             */
            if (mr->ram && (!is_write || !mr->readonly)) {
                Int128 avail = (Int128)r->start + r->size - addr;

                if (avail < l) {
                    l = (hwaddr)avail;
                }
                if (is_write) {
                    memcpy(mr->ram_ptr + off, buf, l);
                } else {
                    memcpy(buf, mr->ram_ptr + off, l);
                }
            } else if (mr->ram) {
                /*
                 * A write to ROM is dropped, to the end of the ROM, and
                 * fails as 7.2's does (its ROM answers writes as
                 * unassigned memory): a device's DMA sees the error
                 */
                Int128 avail = (Int128)r->start + r->size - addr;

                if (avail < l) {
                    l = (hwaddr)avail;
                }
                result |= MEMTX_DECODE_ERROR;
            } else {
                uint64_t v = 0;
                unsigned i;

                l = memory_access_size(mr, l, off);
                if (is_write) {
                    for (i = 0; i < l; i++) {
                        v |= (uint64_t)buf[i] << (8 * i);
                    }
                    result |= memory_region_dispatch_write(mr, off, v, l);
                } else {
                    result |= memory_region_dispatch_read(mr, off, &v, l);
                    for (i = 0; i < l; i++) {
                        buf[i] = v >> (8 * i);
                    }
                }
            }
        }
        len -= l;
        buf += l;
        addr += l;
    }
    return result;
}

MemTxResult address_space_rw(AddressSpace *as, hwaddr addr, MemTxAttrs attrs,
                             void *buf, hwaddr len, bool is_write)
{
    MemTxResult r;

    rcu_read_lock();
    r = flatview_rw(address_space_to_flatview(as), addr, buf, len, is_write);
    rcu_read_unlock();
    return r;
}

MemTxResult address_space_read(AddressSpace *as, hwaddr addr,
                               MemTxAttrs attrs, void *buf, hwaddr len)
{
    return address_space_rw(as, addr, attrs, buf, len, false);
}

MemTxResult address_space_write(AddressSpace *as, hwaddr addr,
                                MemTxAttrs attrs, const void *buf,
                                hwaddr len)
{
    return address_space_rw(as, addr, attrs, (void *)buf, len, true);
}

MemTxResult address_space_set(AddressSpace *as, hwaddr addr, uint8_t c,
                              hwaddr len, MemTxAttrs attrs)
{
    uint8_t chunk[4096];
    MemTxResult r = MEMTX_OK;

    memset(chunk, c, sizeof(chunk));
    while (len) {
        hwaddr l = MIN(len, sizeof(chunk));

        r |= address_space_write(as, addr, attrs, chunk, l);
        addr += l;
        len -= l;
    }
    return r;
}

static uint64_t ld_le(AddressSpace *as, hwaddr addr, unsigned size)
{
    uint8_t b[8];
    uint64_t v = 0;
    unsigned i;

    address_space_read(as, addr, MEMTXATTRS_UNSPECIFIED, b, size);
    for (i = 0; i < size; i++) {
        v |= (uint64_t)b[i] << (8 * i);
    }
    return v;
}

static void st_le(AddressSpace *as, hwaddr addr, uint64_t v, unsigned size)
{
    uint8_t b[8];
    unsigned i;

    for (i = 0; i < size; i++) {
        b[i] = v >> (8 * i);
    }
    address_space_write(as, addr, MEMTXATTRS_UNSPECIFIED, b, size);
}

uint8_t ldub_phys(AddressSpace *as, hwaddr addr)
{
    return ld_le(as, addr, 1);
}

uint16_t lduw_le_phys(AddressSpace *as, hwaddr addr)
{
    return ld_le(as, addr, 2);
}

uint32_t ldl_le_phys(AddressSpace *as, hwaddr addr)
{
    return ld_le(as, addr, 4);
}

uint64_t ldq_le_phys(AddressSpace *as, hwaddr addr)
{
    return ld_le(as, addr, 8);
}

void stb_phys(AddressSpace *as, hwaddr addr, uint8_t val)
{
    st_le(as, addr, val, 1);
}

void stw_le_phys(AddressSpace *as, hwaddr addr, uint16_t val)
{
    st_le(as, addr, val, 2);
}

void stl_le_phys(AddressSpace *as, hwaddr addr, uint32_t val)
{
    st_le(as, addr, val, 4);
}

void stq_le_phys(AddressSpace *as, hwaddr addr, uint64_t val)
{
    st_le(as, addr, val, 8);
}

/* Ports, as an in/out instruction reaches them */

uint32_t cpu_inb(uint16_t port)
{
    return ld_le(&address_space_io, port, 1);
}

uint32_t cpu_inw(uint16_t port)
{
    return ld_le(&address_space_io, port, 2);
}

uint32_t cpu_inl(uint16_t port)
{
    return ld_le(&address_space_io, port, 4);
}

void cpu_outb(uint16_t port, uint8_t value)
{
    st_le(&address_space_io, port, value, 1);
}

void cpu_outw(uint16_t port, uint16_t value)
{
    st_le(&address_space_io, port, value, 2);
}

void cpu_outl(uint16_t port, uint32_t value)
{
    st_le(&address_space_io, port, value, 4);
}

/* Guest-physical helpers over "memory" */

void cpu_physical_memory_read(hwaddr addr, void *buf, uint64_t len)
{
    address_space_read(&address_space_memory, addr, MEMTXATTRS_UNSPECIFIED,
                       buf, len);
}

void cpu_physical_memory_write(hwaddr addr, const void *buf, uint64_t len)
{
    address_space_write(&address_space_memory, addr, MEMTXATTRS_UNSPECIFIED,
                        buf, len);
}

void cpu_physical_memory_set(hwaddr addr, uint8_t value, uint64_t len)
{
    address_space_set(&address_space_memory, addr, value, len,
                      MEMTXATTRS_UNSPECIFIED);
}

void *memory_guest_ptr(hwaddr addr, uint64_t len)
{
    const FlatRange *r;
    void *p = NULL;

    rcu_read_lock();
    r = flatview_lookup(address_space_to_flatview(&address_space_memory),
                        addr);
    if (r && r->mr->ram && !r->readonly &&
        (Int128)addr + len <= (Int128)r->start + r->size) {
        p = r->mr->ram_ptr + (addr - r->start) + r->offset_in_region;
    }
    rcu_read_unlock();
    /* RAM stays mapped for the machine's life: the pointer outlives rcu */
    return p;
}

/* The machine's RAM ------------------------------------------------------------ */

static MemoryRegion *ram_mr;
static uint64_t below_4g_limit = PC_BELOW_4G_MAX;

void memory_set_below_4g_limit(uint64_t limit)
{
    below_4g_limit = MIN(limit, PC_ABOVE_4G_BASE);
}

uint64_t memory_below_4g(void)
{
    return MIN(memory_ram_size(), below_4g_limit);
}

MemoryRegion *memory_ram_region(void)
{
    return ram_mr;
}

uint64_t memory_ram_size(void)
{
    return ram_mr ? memory_region_size(ram_mr) : 0;
}

static void *memory_ram_alloc_named(Object *owner, const char *name,
                                    uint64_t size, Error **errp)
{
    MemoryRegion *mr;

    if (ram_mr) {
        if (size != memory_ram_size()) {
            error_setg(errp, "guest memory '%s' already allocated with a "
                       "different size", memory_region_name(ram_mr));
            return NULL;
        }
        return ram_mr->ram_ptr;
    }
    mr = g_new0(MemoryRegion, 1);
    if (!memory_region_init_ram(mr, owner, name, size, errp)) {
        g_free(mr);
        return NULL;
    }
    ram_mr = mr;
    return mr->ram_ptr;
}

static MemoryRegion ram_below_4g, ram_above_4g;

void memory_map_pc_ram(void)
{
    uint64_t below = memory_below_4g();
    uint64_t above = memory_ram_size() - below;

    if (ram_below_4g.name) {
        return;
    }
    memory_region_transaction_begin();
    memory_region_init_alias(&ram_below_4g, NULL, "ram-below-4g", ram_mr, 0,
                             below);
    memory_region_add_subregion(get_system_memory(), 0, &ram_below_4g);
    if (above) {
        memory_region_init_alias(&ram_above_4g, NULL, "ram-above-4g", ram_mr,
                                 below, above);
        memory_region_add_subregion(get_system_memory(), PC_ABOVE_4G_BASE,
                                    &ram_above_4g);
    }
    memory_region_transaction_commit();
}

void *memory_ram_alloc(uint64_t size, Error **errp)
{
    void *p = memory_ram_alloc_named(NULL, "pc.ram", size, errp);

    if (p) {
        memory_map_pc_ram();
    }
    return p;
}

bool memory_machine_init_ram(Object *owner, const char *name, uint64_t size,
                             Error **errp)
{
    return memory_ram_alloc_named(owner, name, size, errp) != NULL;
}

bool memory_machine_init_ram_parts(const char *name, const MemoryRamPart *parts,
                                   unsigned n, Error **errp)
{
    MemoryRegion *c = g_new0(MemoryRegion, 1);
    uint64_t size = 0, off = 0;
    unsigned i;

    for (i = 0; i < n; i++) {
        size += parts[i].size;
    }
    memory_region_init(c, NULL, name, size);
    for (i = 0; i < n; i++) {
        MemoryRegion *mr = g_new0(MemoryRegion, 1);
        void *p = host_mem_map(parts[i].name, parts[i].size, parts[i].backing,
                               errp);

        if (!p) {
            g_free(mr);
            return false;
        }
        memory_region_init_ram_ptr(mr, parts[i].owner, parts[i].name,
                                   parts[i].size, p);
        memory_region_add_subregion(c, off, mr);
        off += parts[i].size;
    }
    ram_mr = c;
    return true;
}
