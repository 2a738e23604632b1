/*
 * The PC boards' ACPI PM block as a device of its own ("pc-acpi-pm", a
 * board device on the main system bus): the register model of
 * hw/acpi/pm.c at ACPI_PM_BASE, its SCI on ISA IRQ 9, S5 as a shutdown
 * request.  In QEMU these registers belong to ICH9-LPC (q35) and PIIX4_PM
 * (i440fx); the regions have their names and sizes ("ich9-pm", 128 bytes,
 * or "piix4-pm", 64, with acpi-evt, acpi-cnt and acpi-tmr), so that info
 * mtree matches once firmware has enabled them there.
 */
#include <string.h>

#include "hw/acpi/pm.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "monitor/qmp.h"
#include "sysemu/runstate.h"

/* State ------------------------------------------------------------------ */

typedef struct PCAcpiPMState {
    SysBusDevice parent_obj;
    AcpiPMState pm;
    MemoryRegion io, evt_io, cnt_io, tmr_io;
    qemu_irq sci;
    bool ich9;              /* property x-ich9: ICH9's block, not PIIX4's */
} PCAcpiPMState;

/* The board's one PM block, for the power button */
static PCAcpiPMState *pc_acpi_pm;

/* Register read/write ---------------------------------------------------- */

static void pc_acpi_pm_set_sci(void *opaque, int level)
{
    PCAcpiPMState *s = opaque;

    qemu_set_irq(s->sci, level);
}

/* The board's values; the PM device's properties set them */
static AcpiSleepStates sleep_states = {
    .s4_val = ACPI_PM_S4_VAL_DEFAULT,
};

AcpiSleepStates *acpi_pm_sleep_states(void)
{
    return &sleep_states;
}

static void pc_acpi_pm_sleep(void *opaque, unsigned slp_typ)
{
    if (slp_typ == ACPI_PM_SLP_TYP_S5) {
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    } else if (slp_typ == ACPI_PM_SLP_TYP_S3) {
        qemu_system_suspend_request();
    } else if (slp_typ == sleep_states.s4_val) {
        qmp_event_send("SUSPEND_DISK", NULL);
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    }
    /* Other values are ignored, as QEMU 7.2's PM blocks ignore them */
}

/* system_wakeup of a suspended guest: WAK_STS, as QEMU's notifier */
static void pc_acpi_pm_wakeup(void)
{
    if (pc_acpi_pm) {
        acpi_pm_state_wakeup(&pc_acpi_pm->pm);
    }
}

/* Each region gives its offset in the block to the register model */
static uint64_t pc_acpi_pm_read(void *opaque, hwaddr addr, unsigned size)
{
    MemoryRegion *mr = opaque;
    PCAcpiPMState *s = (PCAcpiPMState *)mr->owner;

    return acpi_pm_state_read(&s->pm, mr->addr + addr, size);
}

static void pc_acpi_pm_write(void *opaque, hwaddr addr, uint64_t value,
                             unsigned size)
{
    MemoryRegion *mr = opaque;
    PCAcpiPMState *s = (PCAcpiPMState *)mr->owner;

    acpi_pm_state_write(&s->pm, mr->addr + addr, size, value);
}

static const MemoryRegionOps pc_acpi_pm_ops = {
    .read = pc_acpi_pm_read,
    .write = pc_acpi_pm_write,
    .valid.unaligned = true,
    .impl.unaligned = true,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

void acpi_pm_powerdown(void)
{
    if (pc_acpi_pm) {
        acpi_pm_state_power_button(&pc_acpi_pm->pm);
    }
}

/* Reset ------------------------------------------------------------------ */

static void pc_acpi_pm_reset(DeviceState *dev)
{
    acpi_pm_state_reset(&((PCAcpiPMState *)dev)->pm);
}

/* Realize ---------------------------------------------------------------- */

static void pc_acpi_pm_initfn(Object *obj)
{
    PCAcpiPMState *s = (PCAcpiPMState *)obj;

    s->pm.set_sci = pc_acpi_pm_set_sci;
    s->pm.sleep = pc_acpi_pm_sleep;
    s->pm.opaque = s;
    acpi_pm_state_init(&s->pm);
    qdev_init_gpio_out_named(DEVICE(obj), &s->sci, "sci", 1);
}

static void pc_acpi_pm_add(PCAcpiPMState *s, MemoryRegion *mr,
                           const char *name, hwaddr offset, uint64_t size)
{
    memory_region_init_io(mr, OBJECT(s), &pc_acpi_pm_ops, mr, name, size);
    memory_region_add_subregion(&s->io, offset, mr);
}

static bool pc_acpi_pm_realize(DeviceState *dev, Error **errp)
{
    PCAcpiPMState *s = (PCAcpiPMState *)dev;

    if (pc_acpi_pm) {
        error_setg(errp, "ACPI PM block: ports 0x%x-0x%x are already in use",
                   ACPI_PM_BASE, ACPI_PM_BASE + ACPI_PM_IO_LEN - 1);
        return false;
    }
    memory_region_transaction_begin();
    memory_region_init(&s->io, OBJECT(dev), s->ich9 ? "ich9-pm" : "piix4-pm",
                       s->ich9 ? 0x80 : 0x40);
    pc_acpi_pm_add(s, &s->evt_io, "acpi-evt", ACPI_PM1_EVT_OFFSET,
                   ACPI_PM1_EVT_LEN);
    pc_acpi_pm_add(s, &s->cnt_io, "acpi-cnt", ACPI_PM1_CNT_OFFSET,
                   ACPI_PM1_CNT_LEN);
    pc_acpi_pm_add(s, &s->tmr_io, "acpi-tmr", ACPI_PM_TMR_OFFSET,
                   ACPI_PM_TMR_LEN);
    sysbus_add_io(SYS_BUS_DEVICE(dev), ACPI_PM_BASE, &s->io);
    memory_region_transaction_commit();
    pc_acpi_pm = s;
    runstate_set_wakeup_hook(pc_acpi_pm_wakeup);
    return true;
}

static void pc_acpi_pm_finalize(Object *obj)
{
    if (pc_acpi_pm == (PCAcpiPMState *)obj) {
        pc_acpi_pm = NULL;
    }
    acpi_pm_state_destroy(&((PCAcpiPMState *)obj)->pm);
}

/* Property table --------------------------------------------------------- */

static Property pc_acpi_pm_properties[] = {
    DEFINE_PROP_BOOL("x-ich9", PCAcpiPMState, ich9, false),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void pc_acpi_pm_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = pc_acpi_pm_realize;
    dc->reset = pc_acpi_pm_reset;
    device_class_set_props(dc, pc_acpi_pm_properties);
}

static const TypeInfo pc_acpi_pm_info = {
    .name = TYPE_PC_ACPI_PM,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(PCAcpiPMState),
    .instance_init = pc_acpi_pm_initfn,
    .instance_finalize = pc_acpi_pm_finalize,
    .class_init = pc_acpi_pm_class_init,
};

static void pc_acpi_pm_register_types(void)
{
    type_register_static(&pc_acpi_pm_info);
}
type_init(pc_acpi_pm_register_types)
