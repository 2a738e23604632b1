/*
 * ICH9-LPC, function 0 of device 31 on the q35 boards (00:1f.0;
 * 8086:2918 rev 02, class 0601, multifunction): the LPC/ISA bridge,
 * parent of the machine's ISA bus, and the ACPI PM block (include/hw/
 * acpi/pm-block.h, region "ich9-pm", 128 bytes) at PMBASE (0x40, bits
 * 15:7), decoded while ACPI_CNTL (0x44) bit 7 (ACPI_EN) is set — so not
 * at all until firmware (or the direct-boot path, hw/i386/pc-devices.c)
 * programs it, as in QEMU 7.2.  Its 24 "gsi" outputs are the board's
 * GSIs; PCI interrupts and the SCI reach them as hw/isa/ich9-irq.c
 * says (PIRQ[A-H], SCI_IRQ_SEL, the root complex register block).  disable_s3, disable_s4 and s4_val
 * are the sleep states the DSDT declares and PM1a_CNT decodes (libvirt's
 * <pm> element sets them with -global ICH9-LPC.disable_s3=1); as in
 * QEMU 7.2 they are properties of the object, not qdev properties, so
 * info qtree does not show them.
 *
 * Configuration values and write masks are QEMU 7.2's (measured over
 * qtest): PMBASE reads 0x01 (bits 7, 2:0 and 15:8 writable), PIRQ[A-H]
 * routing 0x60-0x63/0x68-0x6b read 0x80, every other byte past the
 * header 0 and writable; GEN_PMCON_1's SMI_LOCK (0xa0 bit 4) stays set
 * until reset once written.
 *
 * Realize makes, as 7.2's does, the APM ports (0xb2/0xb3, hw/isa/apm.c:
 * ACPI_ENABLE 0x02 and ACPI_DISABLE 0x03 written to APMC set and clear
 * SCI_EN unless the PM block is ACPI-only, i.e. the machine has no SMM
 * and smm-compat is off), the reset control register at 0xcf9 (hw/isa/
 * reset-control.c; SYS_RST and FULL_RST stored) and the two i8257 DMA
 * controllers on its ISA bus.
 *
 * SMI_EN/SMI_STS ("acpi-smi") are 7.2's registers; an APM command other
 * than ACPI enable/disable raises no SMI (there is no SMM here).
 *
 * The TCO watchdog is hw/acpi/ich9-tco.c's.
 *
 * PCI hotplug (hw/acpi/pcihp.c) with acpi-pci-hotplug-with-bridge-support
 * (from pc-q35-6.1): "acpi-pci-hotplug" at 0xcc0, the LPC the hot-plug
 * handler of the root bus until the first reset (7.2 has no root bus
 * hotplug on q35) and of the coldplugged bridges' and root ports' buses.
 *
 * GPE0 ("acpi-gpe0", 16 bytes at PMBASE + 0x20 in the PM block, hw/acpi/
 * pm-block.c) and the CPU hotplug block at 0xcd8 (hw/acpi/cpu-hotplug.c;
 * cpu-hotplug-legacy switches it): vCPUs plugged set GPE0 bit 2, the SCI
 * follows.
 *
 * Not yet: memory hotplug (memory-hotplug-support is accepted and changes
 * nothing).
 */
#include <stddef.h>
#include <string.h>

#include "hw/acpi/cpu-hotplug.h"
#include "hw/acpi/ich9-tco.h"
#include "hw/acpi/pcihp.h"
#include "hw/acpi/pm-block.h"
#include "hw/dma/i8257.h"
#include "hw/isa/apm.h"
#include "hw/isa/ich9-irq.h"
#include "hw/isa/isa.h"
#include "hw/isa/reset-control.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/southbridge/ich9.h"
#include "sysemu/device.h"

/* State ------------------------------------------------------------------ */

#define ICH9_LPC_SCI_GSI 9
#define ICH9_PM_GPE0_OFFSET 0x20
#define ICH9_PM_GPE0_LEN 0x10
#define ICH9_APM_ACPI_ENABLE 0x02
#define ICH9_APM_ACPI_DISABLE 0x03
/* RST_CNT keeps SYS_RST (bit 1) and FULL_RST (bit 3) */
#define ICH9_RST_CNT_KEEP 0x0a

typedef struct ICH9LPCState {
    PCIDevice parent_obj;
    AcpiPMBlock block;
    AcpiCpuHotplug cpuhp;       /* its legacy is cpu-hotplug-legacy */
    AcpiPciHpState pcihp;
    APMState apm;
    ResetControl rst_cnt;
    qemu_irq gsi[ICH9_LPC_NUM_GSI];
    ICH9Irq irq;                /* PIRQ routing, SCI, RCRB (ich9-irq.c) */
    MemoryRegion smi_io;        /* "acpi-smi": SMI_EN, SMI_STS */
    ICH9TCO tco;                /* "sm-tco" (hw/acpi/ich9-tco.c) */
    uint32_t smi_en, smi_en_wmask;
    bool smm_enabled;
    /* qdev properties */
    bool noreboot, smm_compat;
    bool smi_broadcast, smi_cpu_hotplug, smi_cpu_hotunplug;
    /* object properties (QEMU 7.2's ich9_pm_add_properties) */
    AcpiSleepStates states;     /* disable_s3, disable_s4, s4_val */
    uint8_t acpi_enable_cmd, acpi_disable_cmd, sci_int;
    uint32_t pm_io_base, gpe0_blk, gpe0_blk_len;
    uint64_t smi_negotiated_features;
    bool hotplug_with_bridge, memory_hotplug;
    bool enable_tco, keep_pci_slot_hpc;
} ICH9LPCState;

/* Register read/write ---------------------------------------------------- */

/* A write of APMC (0xb2); SMI_EN, which would let others raise an SMI, is
 * not modelled */
static void ich9_lpc_apm_ctrl_changed(uint32_t value, void *opaque)
{
    ICH9LPCState *s = opaque;

    acpi_pm_state_cnt_update(&s->block.pm, value == ICH9_APM_ACPI_ENABLE,
                             value == ICH9_APM_ACPI_DISABLE);
}

/*
 * SMI_EN (PMBASE + 0x30) and SMI_STS (+0x34), dword accesses only, as
 * 7.2: SMI_EN keeps what is written except GBL_SMI_EN (bit 0) once
 * GEN_PMCON_1's SMI_LOCK is set; SMI_STS reads 0 (nothing here raises an
 * SMI: no SMM).  Reset: 0, or APMC_EN (bit 5) without SMM, which tells
 * firmware SMM is set up already, as 7.2 does.
 */
#define ICH9_SMI_EN_APMC_EN 0x20

static uint64_t ich9_smi_read(void *opaque, hwaddr addr, unsigned size)
{
    ICH9LPCState *s = opaque;

    return addr == 0 ? s->smi_en : 0;
}

static void ich9_smi_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    ICH9LPCState *s = opaque;

    if (addr == 0) {
        if (s->tco.cnt1 & ICH9_TCO_LOCK) {
            /* TCO_LOCK keeps TCO_EN as it is */
            val = (val & ~ICH9_SMI_EN_TCO_EN) |
                  (s->smi_en & ICH9_SMI_EN_TCO_EN);
        }
        s->smi_en = (s->smi_en & ~s->smi_en_wmask) | (val & s->smi_en_wmask);
    }
}

/* The TCO's second timeout acts unless the noreboot strap or GCS says no */
static bool ich9_lpc_may_reboot(void *opaque)
{
    ICH9LPCState *s = opaque;

    return !s->noreboot &&
           !(s->irq.chip_config[ICH9_CC_GCS] & ICH9_CC_GCS_NO_REBOOT);
}

static const MemoryRegionOps ich9_smi_ops = {
    .read = ich9_smi_read,
    .write = ich9_smi_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

/* PMBASE and ACPI_CNTL place the block; called with the PCI lock held */
static void ich9_lpc_update_pm(ICH9LPCState *s)
{
    PCIDevice *d = &s->parent_obj;
    uint32_t base = pci_get_long(d->config + ICH9_LPC_PMBASE) & 0xff80;
    bool on = d->config[ICH9_LPC_ACPI_CTRL] & ICH9_LPC_ACPI_CTRL_ACPI_EN;

    /* pm_io_base and gpe0_blk say where the block is, 0 while disabled */
    s->pm_io_base = on ? base : 0;
    s->gpe0_blk = s->pm_io_base + ICH9_PM_GPE0_OFFSET;
    memory_region_transaction_begin();
    memory_region_set_address(&s->block.io, base);
    memory_region_set_enabled(&s->block.io,
                              d->config[ICH9_LPC_ACPI_CTRL] &
                                  ICH9_LPC_ACPI_CTRL_ACPI_EN);
    memory_region_transaction_commit();
}

static bool ich9_lpc_range_hit(uint32_t addr, int len, uint32_t reg,
                               int reg_len)
{
    return addr < reg + reg_len && addr + len > reg;
}

static void ich9_lpc_write_config(PCIDevice *d, uint32_t addr, uint32_t val,
                                  int len)
{
    ICH9LPCState *s = (ICH9LPCState *)d;
    uint8_t smi_lock = d->config[ICH9_LPC_GEN_PMCON_1] &
                       ICH9_LPC_GEN_PMCON_1_SMI_LOCK;
    uint32_t rcba = pci_get_long(d->config + ICH9_LPC_RCBA);

    pci_default_write_config(d, addr, val, len);
    d->config[ICH9_LPC_GEN_PMCON_1] |= smi_lock;
    if (d->config[ICH9_LPC_GEN_PMCON_1] & ICH9_LPC_GEN_PMCON_1_SMI_LOCK) {
        s->smi_en_wmask &= ~1u;
    }
    if (ich9_lpc_range_hit(addr, len, ICH9_LPC_PMBASE, 4) ||
        ich9_lpc_range_hit(addr, len, ICH9_LPC_ACPI_CTRL, 1)) {
        ich9_lpc_update_pm(s);
        ich9_irq_acpi_ctrl_written(&s->irq);
    }
    if (ich9_lpc_range_hit(addr, len, ICH9_LPC_RCBA, 4)) {
        ich9_irq_rcba_written(&s->irq, rcba);
    }
}

/* Reset ------------------------------------------------------------------ */

static void ich9_lpc_reset(DeviceState *dev)
{
    ICH9LPCState *s = (ICH9LPCState *)dev;
    PCIDevice *d = &s->parent_obj;
    uint32_t rcba = pci_get_long(d->config + ICH9_LPC_RCBA);

    DEVICE_CLASS(object_class_get_parent(OBJECT_GET_CLASS(dev)))->reset(dev);
    pci_lock();
    /*
     * The registers 7.2 resets; the rest of the device-specific space
     * (writable, as on every 7.2 device) keeps what was written, and
     * LPC_EN what the machine-ready hook set
     */
    pci_set_byte(d->config + ICH9_LPC_ACPI_CTRL, 0);
    pci_set_long(d->config + ICH9_LPC_RCBA, 0);
    pci_set_long(d->config + ICH9_LPC_PMBASE, 0x01);  /* I/O space */
    pci_set_long(d->config + ICH9_LPC_PIRQA_ROUT, 0x80808080);
    pci_set_long(d->config + ICH9_LPC_PIRQE_ROUT, 0x80808080);
    ich9_lpc_update_pm(s);
    ich9_irq_reset(&s->irq, rcba);
    pci_unlock();
    acpi_pm_block_reset(&s->block);
    s->smi_en = s->smm_enabled ? 0 : ICH9_SMI_EN_APMC_EN;
    s->smi_en_wmask = ~0u;
    reset_control_reset(&s->rst_cnt);
    if (s->pcihp.realized) {
        acpi_pcihp_reset(&s->pcihp, true);
    }
}

void ich9_lpc_set_smm_enabled(PCIDevice *lpc, bool on)
{
    ICH9LPCState *s = (ICH9LPCState *)lpc;

    s->block.pm.acpi_only = !s->smm_compat && !on;
    s->smm_enabled = on;
}

/* Whether a region other than the I/O space's own answers at port */
static bool ich9_lpc_io_present(uint16_t port)
{
    FlatView *fv = address_space_get_flatview(&address_space_io);
    const FlatRange *fr = flatview_lookup(fv, port);
    bool present = fr && fr->mr != get_system_io();

    flatview_unref(fv);
    return present;
}

void ich9_lpc_machine_ready(PCIDevice *lpc)
{
    static const uint16_t ports[] = { 0x3f8, 0x2f8, 0x378, 0x3f2 };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(ports); i++) {
        if (ich9_lpc_io_present(ports[i])) {
            lpc->config[ICH9_LPC_EN] |= 1u << i;
        }
    }
}

/* Realize ---------------------------------------------------------------- */

static void ich9_lpc_initfn(Object *obj)
{
    ICH9LPCState *s = (ICH9LPCState *)obj;

    s->states.s4_val = ACPI_PM_S4_VAL_DEFAULT;
    s->acpi_enable_cmd = 0x02;
    s->acpi_disable_cmd = 0x03;
    s->sci_int = ICH9_LPC_SCI_GSI;
    s->gpe0_blk = 0x20;         /* PMBASE + 0x20 in 7.2, before firmware */
    s->gpe0_blk_len = 0x10;
    s->hotplug_with_bridge = true;
    s->memory_hotplug = true;
    s->cpuhp.legacy = true;
    s->enable_tco = true;
    s->keep_pci_slot_hpc = true;
}

static void ich9_lpc_exit(PCIDevice *d);

static bool ich9_lpc_realize(PCIDevice *d, Error **errp)
{
    ICH9LPCState *s = (ICH9LPCState *)d;
    ISABus *isa;

    /* PMBASE: bits 15:7 hold the base; 7.2 also keeps bits 2:0 written */
    pci_set_long(d->wmask + ICH9_LPC_PMBASE, 0xff87);
    /* at realize, as in 7.2, so -device ICH9-LPC,help does not list them */
    qdev_init_gpio_out_named(DEVICE(d), s->gsi, "gsi", ICH9_LPC_NUM_GSI);
    /* 7.2's ISA memory on q35 is the system's, not PCI memory (i440fx) */
    isa = isa_bus_new(DEVICE(d), get_system_memory(), get_system_io(), errp);
    if (!isa) {
        return false;
    }
    apm_init(&s->apm, OBJECT(d), get_system_io(), ich9_lpc_apm_ctrl_changed,
             s);
    reset_control_init(&s->rst_cnt, OBJECT(d), "lpc-reset-control",
                       ICH9_RST_CNT_KEEP, get_system_io());
    ich9_irq_init(&s->irq, d, s->gsi);
    if (!i8257_dma_init(isa, errp) ||
        !acpi_pm_block_realize(&s->block, OBJECT(d), "ich9-pm",
                               ICH9_PM_SIZE, &s->irq.sci_in,
                               &s->states, errp)) {
        ich9_irq_cleanup(&s->irq);
        reset_control_destroy(&s->rst_cnt, get_system_io());
        apm_destroy(&s->apm, get_system_io());
        return false;
    }
    memory_region_init_io(&s->smi_io, OBJECT(d), &ich9_smi_ops, s,
                          "acpi-smi", 8);
    memory_region_add_subregion(&s->block.io, 0x30, &s->smi_io);
    ich9_tco_init(&s->tco, OBJECT(d), &s->block.io, ich9_lpc_may_reboot, s);
    /* ACPI-only until the board says the machine has SMM */
    s->block.pm.acpi_only = true;
    acpi_pm_block_add_gpe(&s->block, OBJECT(d), &s->block.io,
                          ICH9_PM_GPE0_OFFSET, ICH9_PM_GPE0_LEN);
    if (!acpi_cpu_hotplug_realize(&s->cpuhp, OBJECT(d), &s->block,
                                  get_system_io(), ICH9_CPU_HOTPLUG_IO_BASE,
                                  errp)) {
        ich9_lpc_exit(d);
        return false;
    }
    if (s->hotplug_with_bridge) {
        if (!acpi_pcihp_realize(&s->pcihp, OBJECT(d), &s->block,
                                PCI_BUS(d->qdev.parent_bus), true,
                                ICH9_PCIHP_IO_BASE, errp)) {
            ich9_lpc_exit(d);
            return false;
        }
        acpi_pcihp_own_bus(OBJECT(d), PCI_BUS(d->qdev.parent_bus));
    }
    return true;
}

static void ich9_lpc_exit(PCIDevice *d)
{
    ICH9LPCState *s = (ICH9LPCState *)d;

    ich9_tco_cleanup(&s->tco, &s->block.io);
    acpi_cpu_hotplug_unrealize(&s->cpuhp);
    acpi_pcihp_unrealize(&s->pcihp);
    acpi_pm_block_unrealize(&s->block);
    ich9_irq_cleanup(&s->irq);
    reset_control_destroy(&s->rst_cnt, get_system_io());
    apm_destroy(&s->apm, get_system_io());
}

/* Property table --------------------------------------------------------- */

static Property ich9_lpc_properties[] = {
    DEFINE_PROP_BOOL("noreboot", ICH9LPCState, noreboot, true),
    DEFINE_PROP_BOOL("smm-compat", ICH9LPCState, smm_compat, false),
    DEFINE_PROP_UNSIGNED("x-smi-broadcast", ICH9LPCState, smi_broadcast,
                         true, qdev_prop_bit, bool),
    DEFINE_PROP_UNSIGNED("x-smi-cpu-hotplug", ICH9LPCState, smi_cpu_hotplug,
                         true, qdev_prop_bit, bool),
    DEFINE_PROP_UNSIGNED("x-smi-cpu-hotunplug", ICH9LPCState,
                         smi_cpu_hotunplug, true, qdev_prop_bit, bool),
    DEFINE_PROP_END_OF_LIST(),
};

/* The object properties, which info qtree does not list */
static const struct {
    const char *name;
    PropKind kind;
    size_t offset;
} ich9_lpc_object_props[] = {
    { "acpi-pci-hotplug-with-bridge-support", PROP_KIND_BOOL,
      offsetof(ICH9LPCState, hotplug_with_bridge) },
    { "acpi_disable_cmd", PROP_KIND_UINT8,
      offsetof(ICH9LPCState, acpi_disable_cmd) },
    { "acpi_enable_cmd", PROP_KIND_UINT8,
      offsetof(ICH9LPCState, acpi_enable_cmd) },
    /* not a field: switches the interface (acpi_cpu_hotplug_set_legacy) */
    { "cpu-hotplug-legacy", PROP_KIND_BOOL, offsetof(ICH9LPCState, cpuhp) },
    { "disable_s3", PROP_KIND_UINT8,
      offsetof(ICH9LPCState, states.disable_s3) },
    { "disable_s4", PROP_KIND_UINT8,
      offsetof(ICH9LPCState, states.disable_s4) },
    { "enable_tco", PROP_KIND_BOOL, offsetof(ICH9LPCState, enable_tco) },
    { "gpe0_blk", PROP_KIND_UINT32, offsetof(ICH9LPCState, gpe0_blk) },
    { "gpe0_blk_len", PROP_KIND_UINT32,
      offsetof(ICH9LPCState, gpe0_blk_len) },
    { "memory-hotplug-support", PROP_KIND_BOOL,
      offsetof(ICH9LPCState, memory_hotplug) },
    { "pm_io_base", PROP_KIND_UINT32, offsetof(ICH9LPCState, pm_io_base) },
    { "s4_val", PROP_KIND_UINT8, offsetof(ICH9LPCState, states.s4_val) },
    { "sci_int", PROP_KIND_UINT8, offsetof(ICH9LPCState, sci_int) },
    { "x-keep-pci-slot-hpc", PROP_KIND_BOOL,
      offsetof(ICH9LPCState, keep_pci_slot_hpc) },
    { "x-smi-negotiated-features", PROP_KIND_UINT64,
      offsetof(ICH9LPCState, smi_negotiated_features) },
};

/* Registration ------------------------------------------------------------ */

static void ich9_lpc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);
    size_t i;

    pc->realize = ich9_lpc_realize;
    pc->exit = ich9_lpc_exit;
    pc->config_write = ich9_lpc_write_config;
    pc->vendor_id = 0x8086;
    pc->device_id = 0x2918;
    pc->revision = 0x02;
    pc->class_id = 0x0601;      /* ISA bridge */
    dc->reset = ich9_lpc_reset;
    dc->desc = "ICH9 LPC bridge";
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    /* part of the chipset: the board wires it */
    dc->user_creatable = false;
    device_class_set_props(dc, ich9_lpc_properties);
    for (i = 0; i < G_N_ELEMENTS(ich9_lpc_object_props); i++) {
        if (!strcmp(ich9_lpc_object_props[i].name, "cpu-hotplug-legacy")) {
            acpi_cpu_hotplug_class_add_legacy_prop(
                oc, ich9_lpc_object_props[i].offset);
            continue;
        }
        object_class_property_add_field(oc, ich9_lpc_object_props[i].name,
                                        ich9_lpc_object_props[i].kind,
                                        ich9_lpc_object_props[i].offset,
                                        NULL, NULL);
    }
}

static const TypeInfo ich9_lpc_info = {
    .name = TYPE_ICH9_LPC_DEVICE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(ICH9LPCState),
    .instance_init = ich9_lpc_initfn,
    .class_init = ich9_lpc_class_init,
};

static void ich9_lpc_register_types(void)
{
    type_register_static(&ich9_lpc_info);
}
type_init(ich9_lpc_register_types)
