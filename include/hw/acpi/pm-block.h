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
/* Its reverse, for the owner's exit */
void acpi_pm_block_unrealize(AcpiPMBlock *b);

#endif
