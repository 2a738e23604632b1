/*
 * The ACPI PM register block as the PC chipsets hold it: the register
 * model of hw/acpi/pm.h behind a container region ("piix4-pm", 64 bytes,
 * or "ich9-pm", 128) with acpi-evt, acpi-cnt and acpi-tmr, its SCI as a
 * line, and SLP_EN acting on the owner's AcpiSleepStates (hw/acpi/
 * pm-block.c).  PIIX4_PM and ICH9-LPC embed one; the one the board
 * registers answers the power button, system_wakeup and the DSDT's sleep
 * states.
 */
#ifndef HW_ACPI_PM_BLOCK_H
#define HW_ACPI_PM_BLOCK_H

#include "exec/memory.h"
#include "hw/acpi/pm.h"
#include "hw/irq.h"

typedef struct AcpiPMBlock {
    AcpiPMState pm;
    MemoryRegion io, evt_io, cnt_io, tmr_io;
    MemoryRegion gpe_io;                /* "acpi-gpe0" */
    MemoryRegion *gpe_parent;           /* NULL: no GPE0 block yet */
    qemu_irq *sci;                      /* the owner's SCI output */
    const AcpiSleepStates *states;      /* the owner's properties */
} AcpiPMBlock;

void acpi_pm_block_reset(AcpiPMBlock *b);
/*
 * What PIIX4_PM and ICH9-LPC realize: the regions (owned by owner), the
 * block registered as the board's one, which the power button,
 * system_wakeup and acpi_pm_sleep_states() go to (else "the board has
 * one already"), and io in the I/O space, disabled until the owner's
 * PMBASE places and enables it
 */
bool acpi_pm_block_realize(AcpiPMBlock *b, Object *owner, const char *name,
                           uint64_t size, qemu_irq *sci,
                           const AcpiSleepStates *states, Error **errp);
/*
 * The GPE0 block, "acpi-gpe0" of len bytes at addr in parent (the I/O
 * space on PIIX4, the PM container on ICH9): byte registers, accesses of
 * up to 4 bytes split into them, as QEMU 7.2's
 */
void acpi_pm_block_add_gpe(AcpiPMBlock *b, Object *owner,
                           MemoryRegion *parent, hwaddr addr, unsigned len);
/* A hotplug event of the owner: bits in GPE0 status, the SCI follows */
void acpi_pm_block_gpe_event(AcpiPMBlock *b, uint8_t bits);
/* Its reverse, for the owner's exit */
void acpi_pm_block_unrealize(AcpiPMBlock *b);

#endif
