/*
 * The PAM segments of the PC host bridges (see include/hw/pci-host/pam.h).
 */
#include "hw/pci-host/pam.h"

#define PAM_BIOS_BASE 0xf0000
#define PAM_BIOS_SIZE 0x10000
#define PAM_EXP_BASE 0xc0000
#define PAM_EXP_SIZE 0x4000

static const char *const pam_alias_names[4] = {
    "pam-pci", "pam-rom", "pam-pci", "pam-ram",
};

static void pam_segment_init(PAMSegment *s, Object *owner,
                             MemoryRegion *system_memory, MemoryRegion *ram,
                             MemoryRegion *pci_space, hwaddr start,
                             uint64_t size)
{
    unsigned a;

    for (a = 0; a < 4; a++) {
        memory_region_init_alias(&s->alias[a], owner, pam_alias_names[a],
                                 a ? ram : pci_space, start, size);
        if (a == 1) {
            memory_region_set_readonly(&s->alias[a], true);
        }
        memory_region_set_enabled(&s->alias[a], a == 0);
        memory_region_add_subregion_overlap(system_memory, start,
                                            &s->alias[a], 1);
    }
    s->attr = 0;
}

void pam_init(PAMState *pam, Object *owner, MemoryRegion *system_memory,
              MemoryRegion *ram, MemoryRegion *pci_space)
{
    unsigned i;

    memory_region_transaction_begin();
    pam_segment_init(&pam->seg[0], owner, system_memory, ram, pci_space,
                     PAM_BIOS_BASE, PAM_BIOS_SIZE);
    for (i = 1; i < PAM_SEGMENTS; i++) {
        pam_segment_init(&pam->seg[i], owner, system_memory, ram, pci_space,
                         PAM_EXP_BASE + (i - 1) * PAM_EXP_SIZE,
                         PAM_EXP_SIZE);
    }
    pam->ready = true;
    memory_region_transaction_commit();
}

void pam_update(PAMState *pam, const uint8_t *regs)
{
    unsigned i;

    if (!pam->ready) {
        return;
    }
    memory_region_transaction_begin();
    for (i = 0; i < PAM_SEGMENTS; i++) {
        /* segment i is nibble i + 1: PAM0's low nibble is reserved */
        unsigned nibble = i + 1;
        unsigned attr = (regs[nibble / 2] >> (4 * (nibble & 1))) & 3;
        PAMSegment *s = &pam->seg[i];

        if (attr != s->attr) {
            memory_region_set_enabled(&s->alias[s->attr], false);
            memory_region_set_enabled(&s->alias[attr], true);
            s->attr = attr;
        }
    }
    memory_region_transaction_commit();
}
