/*
 * PAM: the Programmable Attribute Map of the i440FX and Q35 host bridges,
 * which steers each segment of 0xC0000-0xFFFFF between the PCI/ISA space
 * (the firmware ROM, option ROM space) and the RAM under it.
 *
 * Seven registers (i440FX 0x59-0x5f, Q35 MCH 0x90-0x96) hold two 2-bit
 * attributes each, bit 0 read-enable and bit 1 write-enable: PAM0's high
 * nibble is the 64 KiB segment 0xF0000-0xFFFFF (its low nibble is
 * reserved), then each nibble from PAM1's low one a 16 KiB segment from
 * 0xC0000 up to 0xEFFFF.
 *
 * QEMU 7.2 gives each segment four aliases at priority 1 over system
 * memory and enables the one the attribute selects, as its qtest and
 * info mtree show:
 *   0 disabled:   "pam-pci" onto the PCI space (where nothing is mapped
 *                 there, the RAM below shows through, reads and writes);
 *   1 read-only:  "pam-rom" onto RAM, read-only: under KVM a read-only
 *                 slot; a write that exits as MMIO is handled as 7.2 does
 *                 (system/physmem.c);
 *   2 write-only: "pam-pci" onto RAM, read and written (7.2 does not
 *                 split the directions);
 *   3 read/write: "pam-ram" onto RAM.
 */
#ifndef HW_PCI_HOST_PAM_H
#define HW_PCI_HOST_PAM_H

#include <stdint.h>

#include "exec/memory.h"

#define PAM_REGS 7
#define PAM_SEGMENTS 13         /* 0xF0000 first, then 0xC0000.. 0xEC000 */

typedef struct PAMSegment {
    MemoryRegion alias[4];      /* by attribute */
    unsigned attr;
} PAMSegment;

typedef struct PAMState {
    PAMSegment seg[PAM_SEGMENTS];
    bool ready;
} PAMState;

/*
 * Creates the segments (owned by owner) over system_memory: aliases of
 * ram (the machine's RAM block, identity-mapped below 1 MiB) and of
 * pci_space, all disabled but for attribute 0
 */
void pam_init(PAMState *pam, Object *owner, MemoryRegion *system_memory,
              MemoryRegion *ram, MemoryRegion *pci_space);
/* Applies the seven PAM bytes (config + first register) */
void pam_update(PAMState *pam, const uint8_t *regs);

#endif
