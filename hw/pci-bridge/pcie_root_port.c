/*
 * pcie-root-port: QEMU 7.2's generic PCIe root port (1b36:000c) and the
 * abstract types it derives from, pcie-port (port number, AER log) and
 * pcie-slot (chassis/slot, hot-plug capable slot), and
 * pcie-root-port-base (power controller, ACS) — docs/devices.md,
 * "Bridges".  Capabilities as 7.2 lays them out: SSVID at 0x40, MSI-X
 * (one vector, BAR 0), PCIe at 0x54, AER at 0x100, ACS at 0x148.
 *
 * The slot reports presence and link state of what -device puts behind
 * it; hot-plug itself (device_add into the slot, the attention button
 * sequence) is not modelled: the secondary bus has no hot-plug handler,
 * so device_add there is refused.
 */
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"

#define RP_SSVID_OFFSET 0x40
#define RP_EXP_OFFSET 0x54
#define RP_AER_OFFSET 0x100
#define RP_ACS_OFFSET (RP_AER_OFFSET + PCI_ERR_SIZEOF)
#define RP_AER_LOG_MAX_LIMIT 128

typedef struct GenPCIERootPort {
    PCIESlot parent_obj;

    bool migrate_msix;
    PCIResReserve res;
} GenPCIERootPort;

#define GEN_PCIE_ROOT_PORT(obj) ((GenPCIERootPort *)(obj))

/*
 * The AER root error command (QEMU 7.2 has AER on a root port even on a
 * conventional bus, where only its first 256 bytes can be reached: 0)
 */
static uint32_t rp_aer_root_command(PCIDevice *d)
{
    return d->aer_cap ? pci_get_long(d->config + d->aer_cap + 0x2c) : 0;
}

static void rp_write_config(PCIDevice *d, uint32_t addr, uint32_t val,
                            int len)
{
    uint16_t old_sta = pci_get_word(d->config + d->exp_cap + PCI_EXP_SLTSTA);
    uint32_t old_cmd = rp_aer_root_command(d), cmd;

    pci_bridge_write_config(d, addr, val, len);
    pcie_cap_slot_write_config(d, old_sta, addr, val, len);
    /*
     * 7.2's AER root part then sets INTx to whether an error reporting
     * enable was just turned on (no errors are ever pending), so a
     * hot-plug event's INTx never outlives the write that raised it
     */
    cmd = rp_aer_root_command(d);
    if (!msix_enabled(d) && !msi_enabled(d)) {
        pci_set_irq(d, !!(cmd & ~old_cmd));
    }
}

static void rp_reset(DeviceState *qdev)
{
    PCIDevice *d = PCI_DEVICE(qdev);

    pci_lock();
    pcie_cap_reset(d);
    pcie_cap_slot_reset(d);
    pcie_acs_reset(d);
    pcie_aer_root_reset(d);
    msix_reset(d);
    pci_unlock();
    pci_bridge_reset(qdev);
    pci_lock();
    /* a root port forwards nothing until firmware opens its windows */
    pci_bridge_disable_base_limit(d);
    pci_unlock();
}

/*
 * Whether the board's ACPI PCI hot-plug owns the slot's bus: in QEMU 7.2
 * the PM function with acpi-pci-hotplug-with-bridge-support on (ICH9-LPC
 * on q35 from pc-q35-6.1, PIIX4_PM on i440fx from pc-i440fx-2.0) is the
 * hot-plug handler of the bridges' buses, so the slot's own plug callback
 * never runs and coldplugged devices set no presence
 */
static bool rp_acpi_hotplug(PCIDevice *d)
{
    static const struct {
        int devfn;
        const char *type;
    } pm[] = {
        { PCI_DEVFN(0x1f, 0), "ICH9-LPC" },
        { PCI_DEVFN(0x01, 3), "PIIX4_PM" },
    };
    PCIBus *bus = PCI_BUS(DEVICE(d)->parent_bus);
    size_t i;

    while (!pci_bus_is_root(bus)) {
        bus = PCI_BUS(DEVICE(bus->parent_dev)->parent_bus);
    }
    for (i = 0; i < G_N_ELEMENTS(pm); i++) {
        PCIDevice *f = bus->devices[pm[i].devfn];

        if (f && object_dynamic_cast(OBJECT(f), pm[i].type)) {
            return object_property_get_bool(
                OBJECT(f), "acpi-pci-hotplug-with-bridge-support", NULL);
        }
    }
    return false;
}

/* What -device puts behind the slot is present, its link up */
static void rp_child_plugged(PCIDevice *d, PCIDevice *child)
{
    if (!rp_acpi_hotplug(d)) {
        pcie_cap_slot_coldplug(d, child);
    }
}

/* The link status a guest reads is the one of what is in the slot */
static uint32_t rp_read_config(PCIDevice *d, uint32_t addr, int len)
{
    uint32_t lnksta = d->exp_cap + PCI_EXP_LNKSTA;

    if (addr < lnksta + 2 && addr + len > lnksta) {
        pcie_sync_bridge_lnk(d);
    }
    return pci_default_read_config(d, addr, len);
}

static bool rp_realize(PCIDevice *d, Error **errp)
{
    PCIESlot *s = PCIE_SLOT(d);
    PCIEPort *p = PCIE_PORT(d);
    GenPCIERootPort *grp = GEN_PCIE_ROOT_PORT(d);

    if (p->aer_log_max > RP_AER_LOG_MAX_LIMIT) {
        error_setg(errp, "Invalid aer_log_max %d. The max number of aer log "
                   "is %d", p->aer_log_max, RP_AER_LOG_MAX_LIMIT);
        return false;
    }
    pci_bridge_initfn(d, TYPE_PCIE_BUS);
    pcie_port_init_reg(d);
    if (pci_bridge_ssvid_init(d, RP_SSVID_OFFSET, 0x1b36, 0, errp) < 0 ||
        msix_init_exclusive_bar(d, 1, 0, errp) < 0 ||
        pcie_cap_init(d, RP_EXP_OFFSET, PCI_EXP_TYPE_ROOT_PORT, p->port,
                      errp) < 0) {
        goto fail;
    }
    d->config[PCI_INTERRUPT_PIN] = 1;
    pcie_cap_arifwd_init(d);
    pcie_cap_deverr_init(d);
    pcie_cap_slot_init(d, s);
    pcie_cap_root_init(d);
    if (!pcie_chassis_add_slot(s, errp)) {
        goto fail;
    }
    if (d->config_size > PCI_CONFIG_SPACE_SIZE) {
        pcie_aer_init(d, RP_AER_OFFSET, p->aer_log_max);
        pcie_aer_root_init(d);
        if (!s->disable_acs) {
            pcie_acs_init(d, RP_ACS_OFFSET);
        }
    }
    if (grp->res.io == UINT64_MAX && s->hotplug && !s->native_hotplug) {
        /* ACPI hot-plug: 7.2 asks firmware for a 4 KiB I/O window */
        grp->res.io = 4096;
    }
    if (!pci_bridge_qemu_reserve_cap_init(d, &grp->res, errp)) {
        pcie_chassis_del_slot(s);
        goto fail;
    }
    if (!grp->res.io) {
        /* io-reserve=0: no I/O window at all */
        pci_set_word(d->wmask + PCI_COMMAND,
                     pci_get_word(d->wmask + PCI_COMMAND) & ~PCI_COMMAND_IO);
        d->wmask[PCI_IO_BASE] = 0;
        d->wmask[PCI_IO_LIMIT] = 0;
    }
    return true;

fail:
    msix_uninit_exclusive_bar(d);
    pci_bridge_exitfn(d);
    return false;
}

static void rp_exit(PCIDevice *d)
{
    pcie_chassis_del_slot(PCIE_SLOT(d));
    msix_uninit_exclusive_bar(d);
    pci_bridge_exitfn(d);
}

/* Properties, type by type (info qtree prints the most derived first) --- */

static Property pcie_port_props[] = {
    DEFINE_PROP_UINT8("port", PCIEPort, port, 0),
    DEFINE_PROP_UINT16("aer_log_max", PCIEPort, aer_log_max, 8),
    DEFINE_PROP_END_OF_LIST(),
};

static Property pcie_slot_props[] = {
    DEFINE_PROP_UINT8("chassis", PCIESlot, chassis, 0),
    DEFINE_PROP_UINT16("slot", PCIESlot, slot, 0),
    DEFINE_PROP_BOOL("hotplug", PCIESlot, hotplug, true),
    DEFINE_PROP_BOOL("x-native-hotplug", PCIESlot, native_hotplug, true),
    DEFINE_PROP_END_OF_LIST(),
};

static Property rp_base_props[] = {
    DEFINE_PROP_UNSIGNED("power_controller_present", PCIESlot,
                         power_controller_present, true, qdev_prop_bit, bool),
    DEFINE_PROP_BOOL("disable-acs", PCIESlot, disable_acs, false),
    DEFINE_PROP_END_OF_LIST(),
};

static Property gen_rp_props[] = {
    DEFINE_PROP_BOOL("x-migrate-msix", GenPCIERootPort, migrate_msix, true),
    DEFINE_PROP_UNSIGNED("bus-reserve", GenPCIERootPort, res.bus, UINT32_MAX,
                         qdev_prop_uint32, uint32_t),
    DEFINE_PROP_SIZE("io-reserve", GenPCIERootPort, res.io, UINT64_MAX),
    DEFINE_PROP_SIZE("mem-reserve", GenPCIERootPort, res.mem_non_pref,
                     UINT64_MAX),
    DEFINE_PROP_SIZE("pref32-reserve", GenPCIERootPort, res.mem_pref_32,
                     UINT64_MAX),
    DEFINE_PROP_SIZE("pref64-reserve", GenPCIERootPort, res.mem_pref_64,
                     UINT64_MAX),
    DEFINE_PROP_SIGNED("x-speed", PCIESlot, speed, PCIE_LINK_SPEED_16,
                       qdev_prop_pcie_link_speed, int),
    DEFINE_PROP_SIGNED("x-width", PCIESlot, width, PCIE_LINK_WIDTH_32,
                       qdev_prop_pcie_link_width, int),
    DEFINE_PROP_END_OF_LIST(),
};

static void pcie_port_class_init(ObjectClass *oc, void *data)
{
    PCI_DEVICE_CLASS(oc)->is_express = true;
    device_class_set_props(DEVICE_CLASS(oc), pcie_port_props);
}

static void pcie_slot_class_init(ObjectClass *oc, void *data)
{
    device_class_set_props(DEVICE_CLASS(oc), pcie_slot_props);
}

static void rp_base_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->class_id = 0x0604;
    pc->realize = rp_realize;
    pc->exit = rp_exit;
    pc->config_write = rp_write_config;
    pc->config_read = rp_read_config;
    pc->child_plugged = rp_child_plugged;
    dc->reset = rp_reset;
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    device_class_set_props(dc, rp_base_props);
}

static void gen_rp_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->vendor_id = 0x1b36;
    pc->device_id = 0x000c;
    dc->desc = "PCI Express Root Port";
    dc->user_creatable = true;
    dc->hotpluggable = true;
    device_class_set_props(dc, gen_rp_props);
}

static void pcie_root_port_register_types(void)
{
    static const TypeInfo infos[] = {
        {
            .name = TYPE_PCIE_PORT,
            .parent = TYPE_PCI_BRIDGE,
            .abstract = true,
            .instance_size = sizeof(PCIEPort),
            .class_size = sizeof(PCIDeviceClass),
            .class_init = pcie_port_class_init,
        },
        {
            .name = TYPE_PCIE_SLOT,
            .parent = TYPE_PCIE_PORT,
            .abstract = true,
            .instance_size = sizeof(PCIESlot),
            .class_size = sizeof(PCIDeviceClass),
            .class_init = pcie_slot_class_init,
        },
        {
            .name = "pcie-root-port-base",
            .parent = TYPE_PCIE_SLOT,
            .abstract = true,
            .instance_size = sizeof(PCIESlot),
            .class_size = sizeof(PCIDeviceClass),
            .class_init = rp_base_class_init,
        },
        {
            .name = "pcie-root-port",
            .parent = "pcie-root-port-base",
            .instance_size = sizeof(GenPCIERootPort),
            .class_size = sizeof(PCIDeviceClass),
            .class_init = gen_rp_class_init,
        },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(pcie_root_port_register_types)
