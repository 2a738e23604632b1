/*
 * The PC boards' ACPI PM block (include/hw/acpi/pm-block.h): the register
 * model of hw/acpi/pm.c behind regions named and sized as QEMU's, its SCI,
 * SLP_EN as the owner's sleep states say (S5 a shutdown request, S3 a
 * suspend, s4_val a SUSPEND_DISK then shutdown).  PIIX4_PM (i440fx,
 * hw/acpi/piix4.c) and ICH9-LPC (q35, hw/isa/lpc_ich9.c) each hold one at
 * their PMBASE.
 */
#include <string.h>

#include <stddef.h>

#include "hw/acpi/pm-block.h"
#include "hw/irq.h"
#include "monitor/qmp.h"
#include "sysemu/runstate.h"

/* The block ---------------------------------------------------------------- */

/* The board's block, for the power button, wakeup and the DSDT */
static AcpiPMBlock *board_block;

static const AcpiSleepStates default_sleep_states = {
    .s4_val = ACPI_PM_S4_VAL_DEFAULT,
};

const AcpiSleepStates *acpi_pm_sleep_states(void)
{
    return board_block ? board_block->states : &default_sleep_states;
}

static void acpi_pm_block_set_sci(void *opaque, int level)
{
    AcpiPMBlock *b = opaque;

    qemu_set_irq(*b->sci, level);
}

static void acpi_pm_block_sleep(void *opaque, unsigned slp_typ)
{
    AcpiPMBlock *b = opaque;

    if (slp_typ == ACPI_PM_SLP_TYP_S5) {
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    } else if (slp_typ == ACPI_PM_SLP_TYP_S3) {
        qemu_system_suspend_request();
    } else if (slp_typ == b->states->s4_val) {
        qmp_event_send("SUSPEND_DISK", NULL);
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    }
    /* Other values are ignored, as QEMU 7.2's PM blocks ignore them */
}

/* system_wakeup of a suspended guest: WAK_STS, as QEMU's notifier */
static void acpi_pm_block_wakeup(void)
{
    if (board_block) {
        acpi_pm_state_wakeup(&board_block->pm);
    }
}

void acpi_pm_powerdown(void)
{
    if (board_block) {
        acpi_pm_state_power_button(&board_block->pm);
    }
}

/* Each region gives its offset in the block to the register model */
static AcpiPMBlock *acpi_pm_block_of(MemoryRegion *mr)
{
    return (AcpiPMBlock *)((char *)mr->container -
                           offsetof(AcpiPMBlock, io));
}

static uint64_t acpi_pm_block_read(void *opaque, hwaddr addr, unsigned size)
{
    MemoryRegion *mr = opaque;
    AcpiPMBlock *b = acpi_pm_block_of(mr);

    return acpi_pm_state_read(&b->pm, mr->addr + addr, size);
}

static void acpi_pm_block_write(void *opaque, hwaddr addr, uint64_t value,
                                unsigned size)
{
    MemoryRegion *mr = opaque;
    AcpiPMBlock *b = acpi_pm_block_of(mr);

    acpi_pm_state_write(&b->pm, mr->addr + addr, size, value);
}
static const MemoryRegionOps acpi_pm_block_ops = {
    .read = acpi_pm_block_read,
    .write = acpi_pm_block_write,
    .valid.unaligned = true,
    .impl.unaligned = true,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static uint64_t acpi_pm_block_gpe_read(void *opaque, hwaddr addr,
                                       unsigned size)
{
    AcpiPMBlock *b = opaque;

    return acpi_pm_state_gpe_readb(&b->pm, addr);
}

static void acpi_pm_block_gpe_write(void *opaque, hwaddr addr,
                                    uint64_t value, unsigned size)
{
    AcpiPMBlock *b = opaque;

    acpi_pm_state_gpe_writeb(&b->pm, addr, value);
}

static const MemoryRegionOps acpi_pm_block_gpe_ops = {
    .read = acpi_pm_block_gpe_read,
    .write = acpi_pm_block_gpe_write,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

void acpi_pm_block_add_gpe(AcpiPMBlock *b, Object *owner,
                           MemoryRegion *parent, hwaddr addr, unsigned len)
{
    acpi_pm_state_gpe_init(&b->pm, len);
    memory_region_init_io(&b->gpe_io, owner, &acpi_pm_block_gpe_ops, b,
                          "acpi-gpe0", len);
    memory_region_add_subregion(parent, addr, &b->gpe_io);
    b->gpe_parent = parent;
}

void acpi_pm_block_gpe_event(AcpiPMBlock *b, uint8_t bits)
{
    acpi_pm_state_gpe_event(&b->pm, bits);
}

static void acpi_pm_block_add(AcpiPMBlock *b, Object *owner, MemoryRegion *mr,
                              const char *name, hwaddr offset, uint64_t size)
{
    memory_region_init_io(mr, owner, &acpi_pm_block_ops, mr, name, size);
    memory_region_add_subregion(&b->io, offset, mr);
}

static void acpi_pm_block_init(AcpiPMBlock *b, Object *owner, const char *name,
                               uint64_t size, qemu_irq *sci,
                               const AcpiSleepStates *states)
{
    b->sci = sci;
    b->states = states;
    b->pm.set_sci = acpi_pm_block_set_sci;
    b->pm.sleep = acpi_pm_block_sleep;
    b->pm.opaque = b;
    acpi_pm_state_init(&b->pm);
    memory_region_transaction_begin();
    memory_region_init(&b->io, owner, name, size);
    acpi_pm_block_add(b, owner, &b->evt_io, "acpi-evt", ACPI_PM1_EVT_OFFSET,
                      ACPI_PM1_EVT_LEN);
    acpi_pm_block_add(b, owner, &b->cnt_io, "acpi-cnt", ACPI_PM1_CNT_OFFSET,
                      ACPI_PM1_CNT_LEN);
    acpi_pm_block_add(b, owner, &b->tmr_io, "acpi-tmr", ACPI_PM_TMR_OFFSET,
                      ACPI_PM_TMR_LEN);
    memory_region_transaction_commit();
}

static bool acpi_pm_block_register(AcpiPMBlock *b)
{
    if (board_block) {
        return false;
    }
    board_block = b;
    runstate_set_wakeup_hook(acpi_pm_block_wakeup);
    return true;
}

static void acpi_pm_block_unregister(AcpiPMBlock *b)
{
    if (board_block == b) {
        board_block = NULL;
    }
}

static void acpi_pm_block_destroy(AcpiPMBlock *b)
{
    if (!b->sci) {
        return;                 /* never initialized */
    }
    acpi_pm_block_unregister(b);
    /* The owner's children are finalized in any order: empty io first */
    memory_region_transaction_begin();
    memory_region_del_subregion(&b->io, &b->evt_io);
    memory_region_del_subregion(&b->io, &b->cnt_io);
    memory_region_del_subregion(&b->io, &b->tmr_io);
    if (b->gpe_parent) {
        memory_region_del_subregion(b->gpe_parent, &b->gpe_io);
        b->gpe_parent = NULL;
    }
    memory_region_transaction_commit();
    acpi_pm_state_destroy(&b->pm);
    b->sci = NULL;
}

void acpi_pm_block_reset(AcpiPMBlock *b)
{
    acpi_pm_state_reset(&b->pm);
}

bool acpi_pm_block_realize(AcpiPMBlock *b, Object *owner, const char *name,
                           uint64_t size, qemu_irq *sci,
                           const AcpiSleepStates *states, Error **errp)
{
    acpi_pm_block_init(b, owner, name, size, sci, states);
    if (!acpi_pm_block_register(b)) {
        error_setg(errp, "ACPI PM block: the board has one already");
        acpi_pm_block_destroy(b);
        return false;
    }
    memory_region_set_enabled(&b->io, false);
    memory_region_add_subregion(get_system_io(), 0, &b->io);
    return true;
}

void acpi_pm_block_unrealize(AcpiPMBlock *b)
{
    memory_region_del_subregion(get_system_io(), &b->io);
    acpi_pm_block_destroy(b);
}
