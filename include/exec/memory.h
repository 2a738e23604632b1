/*
 * Guest physical memory and the port I/O space.
 *
 * RAM is one block, allocated once for the machine (-m) and shared by
 * everything that touches guest memory: KVM registers it as its memory
 * slots, the qtest server and device models read and write it here.
 * The PC layout: the first memory_below_4g() bytes at guest address 0 (at
 * most PC_BELOW_4G_MAX unless the board says otherwise), the rest from
 * 4 GiB up.  Addresses without RAM behave as QEMU 7.2's unassigned
 * memory: reads give zeros, writes are ignored; an access wraps around
 * the top of the address space.
 *
 * Port I/O: devices register ranges of ports with read/write callbacks;
 * KVM exits and qtest's in/out commands come through ioport_read() and
 * ioport_write().  Unclaimed ports read all-ones and ignore writes.
 */
#ifndef EXEC_MEMORY_H
#define EXEC_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

typedef uint64_t hwaddr;

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
 * Allocates the machine's RAM (size bytes) the first time; later calls
 * with the same size return the same block.  NULL with *errp set if the
 * memory cannot be had or a different size was asked for before.
 */
void *memory_ram_alloc(uint64_t size, Error **errp);
/* The RAM block (host address of guest address 0), NULL before alloc */
void *memory_ram_ptr(void);
uint64_t memory_ram_size(void);
/* The host address of guest RAM at addr..addr+len-1, NULL if not all RAM */
void *memory_guest_ptr(hwaddr addr, uint64_t len);

/* Guest-physical copies; unmapped bytes read 0, writes to them vanish */
void cpu_physical_memory_read(hwaddr addr, void *buf, uint64_t len);
void cpu_physical_memory_write(hwaddr addr, const void *buf, uint64_t len);
void cpu_physical_memory_set(hwaddr addr, uint8_t value, uint64_t len);

/*
 * Port I/O.  Callbacks get the offset of the port within the registered
 * range and the access size (1, 2 or 4); reads return the value in the
 * low size bytes.  A NULL read callback reads all-ones, a NULL write
 * callback ignores writes.
 */
typedef uint32_t IOPortReadFunc(void *opaque, uint16_t offset,
                                unsigned size);
typedef void IOPortWriteFunc(void *opaque, uint16_t offset, unsigned size,
                             uint32_t value);

/* Claims ports base..base+len-1; false if any of them is claimed already */
bool ioport_register(uint16_t base, uint32_t len, IOPortReadFunc *read_fn,
                     IOPortWriteFunc *write_fn, void *opaque);
/* Releases the range registered at base (for tests and hot-unplug) */
void ioport_unregister(uint16_t base);
uint32_t ioport_read(uint16_t port, unsigned size);
void ioport_write(uint16_t port, unsigned size, uint32_t value);

/*
 * Start-up: allocates the machine's RAM and claims the ports every PC has
 * without a device model (the POST diagnostic port 0x80: writes are
 * accepted and dropped, reads give 0xff).
 */
bool memory_machine_init(uint64_t ram_size, Error **errp);

#endif
