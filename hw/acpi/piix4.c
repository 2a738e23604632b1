/*
 * PIIX4_PM, function 3 of the PIIX (00:01.3 on the i440fx boards;
 * 8086:7113 rev 03, class 0680): the ACPI PM block (include/hw/acpi/
 * pm-block.h, region "piix4-pm", 64 bytes) at PMBASE (0x40, bits 15:6),
 * decoded while PMREGMISC (0x80) bit 0 is set — so not at all until
 * firmware (or the direct-boot path, hw/i386/pc-devices.c) programs it,
 * as in QEMU 7.2.  Its SCI is its unnamed GPIO output (the board
 * connects it to GSI 9).  disable_s3, disable_s4 and s4_val are the
 * sleep states the DSDT declares and PM1a_CNT decodes (libvirt's <pm>
 * element sets them with -global PIIX4_PM.disable_s3=1).
 *
 * Configuration values are QEMU 7.2's (measured over qtest): PMBASE
 * reads 0x01, 0x5f = 0x10, 0x63 = 0x60, 0x67 says which of COM1/COM2
 * have a backend, SMBBA (0x90) = smb_io_base | 1, SMBHSTCFG (0xd2) =
 * 0x09; 0x5b = 0x02 without SMM.
 *
 * The SMBus host controller (include/hw/i2c/pm_smbus.h, "pm-smbus", 64
 * bytes) sits at SMBBA & 0xffc0 while SMBHSTCFG bit 0 is set — from
 * realize on, at smb_io_base, as in 7.2 —, with its "i2c" bus (the board
 * puts the SPD EEPROMs there); it has no interrupt, and AUX_CTL starts
 * with the block buffer on.  A reset leaves it as it was (7.2's too).
 *
 * APM (0xb2/0xb3, hw/isa/apm.c): ACPI_ENABLE (0xf1) and ACPI_DISABLE
 * (0xf0) written to APMC set and clear SCI_EN unless the block is
 * ACPI-only (no SMM and no smm-compat: SCI_EN set from reset, as in
 * QEMU 7.2); any other value raises smi-irq while 0x5b bit 1 is set
 * (the board connects smi-irq to nothing yet: no SMM here).
 *
 * GPE0 ("acpi-gpe0", 4 bytes at 0xafe0, hw/acpi/pm-block.c) and the CPU
 * hotplug block at 0xaf00 (hw/acpi/cpu-hotplug.c, with the instance
 * property cpu-hotplug-legacy that 7.2 adds at realize): vCPUs plugged
 * set GPE0 bit 2, the SCI follows.
 *
 * PCI hotplug (hw/acpi/pcihp.c, "acpi-pci-hotplug" at 0xae00 unless both
 * acpi-pci-hotplug-with-bridge-support and acpi-root-pci-hotplug are
 * off): PIIX4_PM is the hot-plug handler of the root bus from realize on
 * (until the first reset if acpi-root-pci-hotplug is off) and, with
 * bridge support, of the coldplugged bridges' buses.
 *
 * Not yet: memory hotplug (memory-hotplug-support is accepted and changes
 * nothing: this tree has no memory hotplug).
 */
#include <string.h>

#include "hw/acpi/cpu-hotplug.h"
#include "hw/acpi/pcihp.h"
#include "hw/acpi/pm-block.h"
#include "hw/char/serial.h"
#include "hw/i2c/pm_smbus.h"
#include "hw/isa/apm.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/southbridge/piix.h"
#include "sysemu/device.h"

/* State ------------------------------------------------------------------ */

typedef struct PIIX4PMState {
    PCIDevice parent_obj;
    AcpiPMBlock block;
    AcpiCpuHotplug cpuhp;
    AcpiPciHpState pcihp;
    PMSMBus smb;
    APMState apm;
    qemu_irq sci, smi_irq;
    uint32_t io_base;           /* PMBASE's address bits */
    /* properties */
    uint32_t smb_io_base;
    AcpiSleepStates states;     /* disable_s3, disable_s4, s4_val */
    bool hotplug_with_bridge, root_hotplug, memory_hotplug;
    bool smm_compat, smm_enabled, not_migrate_acpi_index;
} PIIX4PMState;

/* Register read/write ---------------------------------------------------- */

#define PIIX4_GPE0_BASE 0xafe0
#define PIIX4_GPE0_LEN 4
#define PIIX4_ACPI_ENABLE 0xf1
#define PIIX4_ACPI_DISABLE 0xf0

/* A write of APMC (0xb2) */
static void piix4_pm_apm_ctrl_changed(uint32_t value, void *opaque)
{
    PIIX4PMState *s = opaque;
    bool smi;

    if (value == PIIX4_ACPI_ENABLE || value == PIIX4_ACPI_DISABLE) {
        acpi_pm_state_cnt_update(&s->block.pm, value == PIIX4_ACPI_ENABLE,
                                 value == PIIX4_ACPI_DISABLE);
        return;
    }
    pci_lock();
    smi = s->parent_obj.config[0x5b] & 0x02;
    pci_unlock();
    if (smi) {
        qemu_irq_raise(s->smi_irq);
    }
}

/* PMBASE and PMREGMISC place the block; called with the PCI lock held */
static void piix4_pm_update_io(PIIX4PMState *s)
{
    PCIDevice *d = &s->parent_obj;
    uint32_t base = pci_get_long(d->config + PIIX4_PM_PMBASE) & 0xffc0;

    s->io_base = base;          /* pm_io_base, enabled or not (7.2's) */

    memory_region_transaction_begin();
    memory_region_set_address(&s->block.io, base);
    memory_region_set_enabled(&s->block.io,
                              d->config[PIIX4_PM_PMREGMISC] & 1);
    memory_region_transaction_commit();
}

/* SMBBA and SMBHSTCFG place the SMBus controller (PCI lock held) */
static void piix4_pm_update_smbus(PIIX4PMState *s)
{
    PCIDevice *d = &s->parent_obj;

    memory_region_transaction_begin();
    memory_region_set_enabled(&s->smb.io, d->config[PIIX4_PM_SMBHSTCFG] & 1);
    memory_region_set_address(&s->smb.io,
                              pci_get_long(d->config + PIIX4_PM_SMBBA) &
                                  0xffc0);
    memory_region_transaction_commit();
}

static bool piix4_pm_range_hit(uint32_t addr, int len, uint32_t reg,
                               int reg_len)
{
    return addr < reg + reg_len && addr + len > reg;
}

static void piix4_pm_write_config(PCIDevice *d, uint32_t addr, uint32_t val,
                                  int len)
{
    pci_default_write_config(d, addr, val, len);
    if (piix4_pm_range_hit(addr, len, PIIX4_PM_PMBASE, 4) ||
        piix4_pm_range_hit(addr, len, PIIX4_PM_PMREGMISC, 1)) {
        piix4_pm_update_io((PIIX4PMState *)d);
    }
    if (piix4_pm_range_hit(addr, len, PIIX4_PM_SMBBA, 4) ||
        piix4_pm_range_hit(addr, len, PIIX4_PM_SMBHSTCFG, 1)) {
        piix4_pm_update_smbus((PIIX4PMState *)d);
    }
}

/* Reset ------------------------------------------------------------------ */

static void piix4_pm_reset(DeviceState *dev)
{
    PIIX4PMState *s = (PIIX4PMState *)dev;
    PCIDevice *d = &s->parent_obj;

    DEVICE_CLASS(object_class_get_parent(OBJECT_GET_CLASS(dev)))->reset(dev);
    pci_lock();
    d->config[0x58] = d->config[0x59] = d->config[0x5a] = 0;
    /* SMM "already initialized" for firmware when there is no SMM */
    d->config[0x5b] = s->smm_enabled ? 0 : 0x02;
    pci_set_long(d->config + PIIX4_PM_PMBASE, 0x01);  /* I/O space */
    d->config[PIIX4_PM_PMREGMISC] = 0;
    piix4_pm_update_io(s);
    pci_unlock();
    acpi_pm_block_reset(&s->block);
    if (s->pcihp.realized) {
        acpi_pcihp_reset(&s->pcihp, !s->root_hotplug);
    } else {
        qbus_set_hotplug_handler(d->qdev.parent_bus, NULL, NULL);
    }
}

/* Realize ---------------------------------------------------------------- */

static void piix4_pm_initfn(Object *obj)
{
    PIIX4PMState *s = (PIIX4PMState *)obj;

    s->cpuhp.legacy = true;
    qdev_init_gpio_out(DEVICE(obj), &s->sci, 1);
    qdev_init_gpio_out_named(DEVICE(obj), &s->smi_irq, "smi-irq", 1);
}

static void piix4_pm_exit(PCIDevice *d);

static JsonNode *piix4_pm_prop_get(Object *obj, ObjectProperty *prop,
                                   Error **errp)
{
    PIIX4PMState *s = (PIIX4PMState *)obj;

    /* pm_io_base follows PMBASE; the others are constants (opaque) */
    return json_node_init_int(json_node_alloc(),
                              strcmp(prop->name, "pm_io_base") ? prop->opaque
                                                               : s->io_base);
}

/* The read-only instance properties 7.2 adds at realize, in its order */
static const struct {
    const char *name, *type;
    uint32_t value;
} piix4_pm_realize_props[] = {
    { "acpi_enable_cmd", "uint8", PIIX4_ACPI_ENABLE },
    { "acpi_disable_cmd", "uint8", PIIX4_ACPI_DISABLE },
    { "gpe0_blk", "uint32", PIIX4_GPE0_BASE },
    { "gpe0_blk_len", "uint32", PIIX4_GPE0_LEN },
    { "sci_int", "uint16", ACPI_PM_SCI_GSI },
    { "pm_io_base", "uint32", 0 },
};

static void piix4_pm_add_properties(PIIX4PMState *s)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(piix4_pm_realize_props); i++) {
        object_property_add(OBJECT(s), piix4_pm_realize_props[i].name,
                            piix4_pm_realize_props[i].type,
                            piix4_pm_prop_get, NULL)->opaque =
            piix4_pm_realize_props[i].value;
    }
}

static void piix4_pm_del_properties(PIIX4PMState *s)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(piix4_pm_realize_props); i++) {
        if (object_property_find(OBJECT(s), piix4_pm_realize_props[i].name)) {
            object_property_del(OBJECT(s), piix4_pm_realize_props[i].name);
        }
    }
}

static bool piix4_pm_realize(PCIDevice *d, Error **errp)
{
    PIIX4PMState *s = (PIIX4PMState *)d;
    uint8_t *c = d->config;

    pci_set_word(c + PCI_STATUS, 0x0280);   /* fast back-to-back, medium */
    c[PCI_INTERRUPT_PIN] = 1;
    c[0x5f] = 0x10;
    c[0x63] = 0x60;
    c[0x67] = (serial_hd_present(0) ? 0x08 : 0) |
              (serial_hd_present(1) ? 0x90 : 0);
    pci_set_word(c + PIIX4_PM_SMBBA, (s->smb_io_base & 0xffff) | 1);
    c[PIIX4_PM_SMBHSTCFG] = 0x09;           /* enabled, IRQ 9 */

    /* 7.2's order: APM, the SMBus controller, the PM block */
    apm_init(&s->apm, OBJECT(d), get_system_io(), piix4_pm_apm_ctrl_changed,
             s);
    pm_smbus_init(DEVICE(d), &s->smb, true);
    memory_region_set_enabled(&s->smb.io, c[PIIX4_PM_SMBHSTCFG] & 1);
    memory_region_add_subregion(get_system_io(), s->smb_io_base & 0xffff,
                                &s->smb.io);
    if (!acpi_pm_block_realize(&s->block, OBJECT(d), "piix4-pm", 0x40,
                               &s->sci, &s->states, errp)) {
        memory_region_del_subregion(get_system_io(), &s->smb.io);
        apm_destroy(&s->apm, get_system_io());
        return false;
    }
    s->block.pm.acpi_only = !s->smm_compat && !s->smm_enabled;
    acpi_pm_block_add_gpe(&s->block, OBJECT(d), get_system_io(),
                          PIIX4_GPE0_BASE, PIIX4_GPE0_LEN);
    if (!acpi_cpu_hotplug_realize(&s->cpuhp, OBJECT(d), &s->block,
                                  get_system_io(), PIIX4_CPU_HOTPLUG_IO_BASE,
                                  errp)) {
        piix4_pm_exit(d);
        return false;
    }
    /* 7.2's order: PCI hotplug's properties, cpu-hotplug-legacy, the PM's */
    if ((s->hotplug_with_bridge || s->root_hotplug) &&
        !acpi_pcihp_realize(&s->pcihp, OBJECT(d), &s->block,
                            PCI_BUS(d->qdev.parent_bus),
                            s->hotplug_with_bridge, PIIX4_PCIHP_IO_BASE,
                            errp)) {
        piix4_pm_exit(d);
        return false;
    }
    acpi_cpu_hotplug_add_legacy_prop(OBJECT(d), &s->cpuhp);
    piix4_pm_add_properties(s);
    acpi_pcihp_own_bus(OBJECT(d), PCI_BUS(d->qdev.parent_bus));
    return true;
}

static void piix4_pm_exit(PCIDevice *d)
{
    PIIX4PMState *s = (PIIX4PMState *)d;

    if (object_property_find(OBJECT(d), "cpu-hotplug-legacy")) {
        object_property_del(OBJECT(d), "cpu-hotplug-legacy");
    }
    piix4_pm_del_properties(s);
    acpi_cpu_hotplug_unrealize(&s->cpuhp);
    acpi_pcihp_unrealize(&s->pcihp);
    memory_region_del_subregion(get_system_io(), &s->smb.io);
    acpi_pm_block_unrealize(&s->block);
    apm_destroy(&s->apm, get_system_io());
}

/* Property table --------------------------------------------------------- */

static Property piix4_pm_properties[] = {
    DEFINE_PROP_UINT32("smb_io_base", PIIX4PMState, smb_io_base, 0),
    DEFINE_PROP_UINT8("disable_s3", PIIX4PMState, states.disable_s3, 0),
    DEFINE_PROP_UINT8("disable_s4", PIIX4PMState, states.disable_s4, 0),
    DEFINE_PROP_UINT8("s4_val", PIIX4PMState, states.s4_val,
                      ACPI_PM_S4_VAL_DEFAULT),
    DEFINE_PROP_BOOL("acpi-pci-hotplug-with-bridge-support", PIIX4PMState,
                     hotplug_with_bridge, true),
    DEFINE_PROP_BOOL("acpi-root-pci-hotplug", PIIX4PMState, root_hotplug,
                     true),
    DEFINE_PROP_BOOL("memory-hotplug-support", PIIX4PMState, memory_hotplug,
                     true),
    DEFINE_PROP_BOOL("smm-compat", PIIX4PMState, smm_compat, false),
    DEFINE_PROP_BOOL("smm-enabled", PIIX4PMState, smm_enabled, false),
    DEFINE_PROP_BOOL("x-not-migrate-acpi-index", PIIX4PMState,
                     not_migrate_acpi_index, false),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void piix4_pm_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = piix4_pm_realize;
    pc->exit = piix4_pm_exit;
    pc->config_write = piix4_pm_write_config;
    pc->vendor_id = 0x8086;
    pc->device_id = 0x7113;
    pc->revision = 0x03;
    pc->class_id = 0x0680;      /* bridge, other */
    dc->reset = piix4_pm_reset;
    dc->desc = "PM";
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    /* part of the chipset: the board wires it */
    dc->user_creatable = false;
    dc->hotpluggable = false;
    device_class_set_props(dc, piix4_pm_properties);
}

static const TypeInfo piix4_pm_info = {
    .name = TYPE_PIIX4_PM,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(PIIX4PMState),
    .instance_init = piix4_pm_initfn,
    .class_init = piix4_pm_class_init,
};

static void piix4_pm_register_types(void)
{
    type_register_static(&piix4_pm_info);
}
type_init(piix4_pm_register_types)
