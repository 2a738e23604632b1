/*
 * pci-bridge and pci-bridge-seat: QEMU 7.2's standard PCI-to-PCI bridge
 * (1b36:0001, 1b36:000a) with its SHPC hot-plug controller in BAR 0,
 * the slot ID capability (chassis_nr), MSI and QEMU's resource reserve
 * capability (docs/devices.md, "Bridges").
 */
#include "hw/pci/msi.h"
#include "hw/pci/pci_bridge.h"
#include "hw/pci/shpc.h"
#include "hw/qdev-properties.h"

#define PCI_SID_ESR_FIC 0x20            /* first in chassis */

typedef struct PCIBridgeDev {
    PCIBridge parent_obj;

    MemoryRegion bar;                   /* "shpc-bar" */
    SHPCDevice shpc;
    uint8_t chassis_nr;
    int msi;                            /* OnOffAuto */
    bool shpc_on;
    PCIResReserve res;
} PCIBridgeDev;

#define PCI_BRIDGE_DEV(obj) ((PCIBridgeDev *)(obj))

/* The slot ID capability ------------------------------------------------------ */

static int slotid_cap_init(PCIDevice *dev, uint8_t chassis, Error **errp)
{
    int pos;

    if (!chassis) {
        error_setg(errp, "Bridge chassis not specified. Each bridge is "
                   "required to be assigned a unique chassis id > 0.");
        return -1;
    }
    pos = pci_add_capability(dev, PCI_CAP_ID_SLOTID, 0, 4, errp);
    if (pos < 0) {
        return -1;
    }
    dev->config[pos + 2] = PCI_SID_ESR_FIC;     /* no expansion slots */
    dev->config[pos + 3] = chassis;
    dev->wmask[pos + 3] = 0xff;
    return pos;
}

/* The device ---------------------------------------------------------------- */

static void pci_bridge_dev_write_config(PCIDevice *d, uint32_t addr,
                                        uint32_t val, int len)
{
    PCIBridgeDev *bd = PCI_BRIDGE_DEV(d);

    pci_bridge_write_config(d, addr, val, len);
    if (bd->shpc_on) {
        shpc_cap_write_config(&bd->shpc, addr, val, len);
    }
}

static void pci_bridge_dev_reset(DeviceState *qdev)
{
    PCIBridgeDev *bd = PCI_BRIDGE_DEV(qdev);

    pci_bridge_reset(qdev);
    pci_lock();
    msi_reset(PCI_DEVICE(qdev));
    if (bd->shpc_on) {
        shpc_reset(&bd->shpc);
    }
    pci_unlock();
}

static bool pci_bridge_dev_realize(PCIDevice *d, Error **errp)
{
    PCIBridgeDev *bd = PCI_BRIDGE_DEV(d);
    PCIBridge *br = PCI_BRIDGE(d);

    pci_bridge_initfn(d, TYPE_PCI_BUS);
    if (bd->shpc_on) {
        d->config[PCI_INTERRUPT_PIN] = 1;
        memory_region_init(&bd->bar, OBJECT(d), "shpc-bar", shpc_bar_size());
        if (shpc_init(&bd->shpc, d, br->sec_bus, &bd->bar, errp) < 0) {
            goto fail;
        }
    } else {
        bd->msi = ON_OFF_AUTO_OFF;      /* MSI serves the SHPC only */
    }
    if (slotid_cap_init(d, bd->chassis_nr, errp) < 0) {
        goto fail_shpc;
    }
    if (bd->msi != ON_OFF_AUTO_OFF && msi_init(d, 0, 1, true, true, errp) < 0) {
        goto fail_shpc;
    }
    if (!pci_bridge_qemu_reserve_cap_init(d, &bd->res, errp)) {
        goto fail_shpc;
    }
    if (bd->shpc_on) {
        pci_register_bar(d, 0, PCI_BASE_ADDRESS_MEM_TYPE_64, &bd->bar);
    }
    return true;

fail_shpc:
    if (bd->shpc_on) {
        shpc_cleanup(&bd->shpc, &bd->bar);
    }
fail:
    pci_bridge_exitfn(d);
    return false;
}

static void pci_bridge_dev_exit(PCIDevice *d)
{
    PCIBridgeDev *bd = PCI_BRIDGE_DEV(d);

    if (bd->shpc_on) {
        shpc_cleanup(&bd->shpc, &bd->bar);
    }
    pci_bridge_exitfn(d);
}

static Property pci_bridge_dev_props[] = {
    DEFINE_PROP_UINT8("chassis_nr", PCIBridgeDev, chassis_nr, 0),
    DEFINE_PROP_ON_OFF_AUTO("msi", PCIBridgeDev, msi, ON_OFF_AUTO_AUTO),
    DEFINE_PROP_UNSIGNED("shpc", PCIBridgeDev, shpc_on, true,
                         qdev_prop_bit, bool),
    DEFINE_PROP_UNSIGNED("bus-reserve", PCIBridgeDev, res.bus, UINT32_MAX,
                         qdev_prop_uint32, uint32_t),
    DEFINE_PROP_SIZE("io-reserve", PCIBridgeDev, res.io, UINT64_MAX),
    DEFINE_PROP_SIZE("mem-reserve", PCIBridgeDev, res.mem_non_pref,
                     UINT64_MAX),
    DEFINE_PROP_SIZE("pref32-reserve", PCIBridgeDev, res.mem_pref_32,
                     UINT64_MAX),
    DEFINE_PROP_SIZE("pref64-reserve", PCIBridgeDev, res.mem_pref_64,
                     UINT64_MAX),
    DEFINE_PROP_END_OF_LIST(),
};

static void pci_bridge_dev_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = pci_bridge_dev_realize;
    pc->exit = pci_bridge_dev_exit;
    pc->config_write = pci_bridge_dev_write_config;
    pc->vendor_id = 0x1b36;             /* Red Hat */
    pc->device_id = 0x0001;
    pc->class_id = 0x0604;
    dc->desc = "Standard PCI Bridge";
    dc->reset = pci_bridge_dev_reset;
    dc->user_creatable = true;
    dc->hotpluggable = true;
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    device_class_set_props(dc, pci_bridge_dev_props);
}

static void pci_bridge_seat_class_init(ObjectClass *oc, void *data)
{
    PCI_DEVICE_CLASS(oc)->device_id = 0x000a;
    DEVICE_CLASS(oc)->desc = "Standard PCI Bridge (multiseat)";
}

static void pci_bridge_dev_register_types(void)
{
    static const TypeInfo infos[] = {
        {
            .name = "pci-bridge",
            .parent = TYPE_PCI_BRIDGE,
            .instance_size = sizeof(PCIBridgeDev),
            .class_size = sizeof(PCIDeviceClass),
            .class_init = pci_bridge_dev_class_init,
        },
        {
            .name = "pci-bridge-seat",
            .parent = "pci-bridge",
            .instance_size = sizeof(PCIBridgeDev),
            .class_size = sizeof(PCIDeviceClass),
            .class_init = pci_bridge_seat_class_init,
        },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(pci_bridge_dev_register_types)
