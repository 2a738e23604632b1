/*
 * Guest RAM and the port I/O space (see include/exec/memory.h).
 *
 * The RAM block is anonymous memory mapped once; accelerators map the
 * same block into the guest, so qtest and device models see what the
 * vCPUs see.  Ports live in a sorted array of ranges searched by binary
 * search; an access is routed by its first port.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <glib.h>

#include "exec/memory.h"
#include "sysemu/hostmem.h"

static uint8_t *ram;
static uint64_t ram_size;
static uint64_t below_4g_limit = PC_BELOW_4G_MAX;

void memory_set_below_4g_limit(uint64_t limit)
{
    below_4g_limit = MIN(limit, PC_ABOVE_4G_BASE);
}

uint64_t memory_below_4g(void)
{
    return MIN(ram_size, below_4g_limit);
}

void *memory_ram_alloc(uint64_t size, Error **errp)
{
    void *p;

    if (ram) {
        if (size != ram_size) {
            error_setg(errp, "guest memory 'pc.ram' already allocated with "
                       "a different size");
            return NULL;
        }
        return ram;
    }
    if (!size) {
        error_setg(errp, "cannot set up guest memory 'pc.ram': size is 0");
        return NULL;
    }
    p = host_mem_map(size, host_mem_ram_backing(), errp);
    if (!p) {
        return NULL;
    }
    ram = p;
    ram_size = size;
    return ram;
}

void *memory_ram_ptr(void)
{
    return ram;
}

uint64_t memory_ram_size(void)
{
    return ram_size;
}

/*
 * The RAM that holds guest address addr: sets *avail to the bytes of RAM
 * from addr to the end of its region and returns the host address, or
 * returns NULL and sets *avail to the bytes until the next RAM region
 * (UINT64_MAX when none follows).
 */
static uint8_t *ram_lookup(hwaddr addr, uint64_t *avail)
{
    uint64_t below = memory_below_4g();
    uint64_t above = ram_size - below;

    if (addr < below) {
        *avail = below - addr;
        return ram + addr;
    }
    if (addr < PC_ABOVE_4G_BASE) {
        *avail = PC_ABOVE_4G_BASE - addr;
        return NULL;
    }
    if (addr - PC_ABOVE_4G_BASE < above) {
        *avail = above - (addr - PC_ABOVE_4G_BASE);
        return ram + below + (addr - PC_ABOVE_4G_BASE);
    }
    *avail = UINT64_MAX;
    return NULL;
}

void *memory_guest_ptr(hwaddr addr, uint64_t len)
{
    uint64_t avail;
    uint8_t *p = ram ? ram_lookup(addr, &avail) : NULL;

    return p && len <= avail ? p : NULL;
}

/*
 * Walks addr..addr+len-1 in pieces that are either all RAM or all
 * unmapped; an access past 2^64 - 1 wraps around to 0, as in QEMU.
 */
typedef void MemoryChunkFunc(uint8_t *host, uint64_t off, uint64_t n,
                             void *opaque);

static void memory_walk(hwaddr addr, uint64_t len, MemoryChunkFunc *fn,
                        void *opaque)
{
    uint64_t off = 0;

    while (off < len) {
        uint64_t avail = UINT64_MAX;
        uint64_t to_top = -(addr + off);    /* 0: 2^64 bytes */
        uint8_t *host = ram ? ram_lookup(addr + off, &avail) : NULL;
        uint64_t n = MIN(len - off, avail);

        if (to_top && n > to_top) {
            n = to_top;
        }

        fn(host, off, n, opaque);
        off += n;
    }
}

static void chunk_read(uint8_t *host, uint64_t off, uint64_t n, void *opaque)
{
    uint8_t *buf = opaque;

    if (host) {
        memcpy(buf + off, host, n);
    } else {
        /* QEMU's unassigned memory reads as zeros */
        memset(buf + off, 0, n);
    }
}

static void chunk_write(uint8_t *host, uint64_t off, uint64_t n, void *opaque)
{
    const uint8_t *buf = opaque;

    if (host) {
        memcpy(host, buf + off, n);
    }
}

static void chunk_set(uint8_t *host, uint64_t off, uint64_t n, void *opaque)
{
    if (host) {
        memset(host, *(uint8_t *)opaque, n);
    }
}

void cpu_physical_memory_read(hwaddr addr, void *buf, uint64_t len)
{
    memory_walk(addr, len, chunk_read, buf);
}

void cpu_physical_memory_write(hwaddr addr, const void *buf, uint64_t len)
{
    memory_walk(addr, len, chunk_write, (void *)buf);
}

void cpu_physical_memory_set(hwaddr addr, uint8_t value, uint64_t len)
{
    memory_walk(addr, len, chunk_set, &value);
}

/* Port I/O ------------------------------------------------------------------ */

typedef struct IOPortRange {
    uint32_t base, len;
    IOPortReadFunc *read_fn;
    IOPortWriteFunc *write_fn;
    void *opaque;
} IOPortRange;

static GArray *ioports; /* IOPortRange, sorted by base, not overlapping */

/* Index of the first range that ends after port (may not contain it) */
static guint ioport_find(uint32_t port)
{
    guint lo = 0, hi = ioports ? ioports->len : 0;

    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        IOPortRange *r = &g_array_index(ioports, IOPortRange, mid);

        if (r->base + r->len <= port) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static IOPortRange *ioport_lookup(uint16_t port)
{
    guint i = ioport_find(port);
    IOPortRange *r;

    if (!ioports || i >= ioports->len) {
        return NULL;
    }
    r = &g_array_index(ioports, IOPortRange, i);
    return port >= r->base ? r : NULL;
}

bool ioport_register(uint16_t base, uint32_t len, IOPortReadFunc *read_fn,
                     IOPortWriteFunc *write_fn, void *opaque)
{
    IOPortRange r = {
        .base = base, .len = len, .read_fn = read_fn, .write_fn = write_fn,
        .opaque = opaque,
    };
    guint i;

    if (!len || (uint32_t)base + len > 0x10000) {
        return false;
    }
    if (!ioports) {
        ioports = g_array_new(FALSE, FALSE, sizeof(IOPortRange));
    }
    i = ioport_find(base);
    if (i < ioports->len &&
        g_array_index(ioports, IOPortRange, i).base < r.base + r.len) {
        return false;
    }
    g_array_insert_val(ioports, i, r);
    return true;
}

void ioport_unregister(uint16_t base)
{
    IOPortRange *r = ioport_lookup(base);

    if (r && r->base == base) {
        g_array_remove_index(ioports, r - (IOPortRange *)ioports->data);
    }
}

static uint32_t size_mask(unsigned size)
{
    return size >= 4 ? 0xffffffffu : (1u << (size * 8)) - 1;
}

uint32_t ioport_read(uint16_t port, unsigned size)
{
    IOPortRange *r = ioport_lookup(port);

    if (!r || !r->read_fn) {
        return size_mask(size);
    }
    return r->read_fn(r->opaque, port - r->base, size) & size_mask(size);
}

void ioport_write(uint16_t port, unsigned size, uint32_t value)
{
    IOPortRange *r = ioport_lookup(port);

    if (r && r->write_fn) {
        r->write_fn(r->opaque, port - r->base, size, value & size_mask(size));
    }
}

/* The PC's POST diagnostic port: firmware writes progress codes here */
static uint8_t post_code;

static uint32_t post_port_read(void *opaque, uint16_t offset, unsigned size)
{
    return 0xffffffffu;
}

static void post_port_write(void *opaque, uint16_t offset, unsigned size,
                            uint32_t value)
{
    post_code = value;
}

bool memory_machine_init(uint64_t size, Error **errp)
{
    if (!memory_ram_alloc(size, errp)) {
        return false;
    }
    ioport_unregister(0x80);
    ioport_register(0x80, 1, post_port_read, post_port_write, &post_code);
    return true;
}
