/*
 * pcie-pci-bridge: QEMU 7.2's PCIe-to-PCI bridge (1b36:000e) with the
 * SHPC in BAR 0, a PCIe capability of type PCI bridge, power management,
 * AER and MSI (docs/devices.md, "Bridges").
 */
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/pci/shpc.h"
#include "hw/qdev-properties.h"

typedef struct PCIEPCIBridge {
    PCIBridge parent_obj;

    MemoryRegion shpc_bar;              /* "shpc-bar" */
    SHPCDevice shpc;
    int msi;                            /* OnOffAuto */
} PCIEPCIBridge;

#define PCIE_PCI_BRIDGE(obj) ((PCIEPCIBridge *)(obj))

static void pcie_pci_bridge_write_config(PCIDevice *d, uint32_t addr,
                                         uint32_t val, int len)
{
    pci_bridge_write_config(d, addr, val, len);
    shpc_cap_write_config(&PCIE_PCI_BRIDGE(d)->shpc, addr, val, len);
}

static void pcie_pci_bridge_reset(DeviceState *qdev)
{
    pci_bridge_reset(qdev);
    pci_lock();
    /* 7.2 leaves the PCIe capability's controls as they were */
    msi_reset(PCI_DEVICE(qdev));
    shpc_reset(&PCIE_PCI_BRIDGE(qdev)->shpc);
    pci_unlock();
}

static bool pcie_pci_bridge_realize(PCIDevice *d, Error **errp)
{
    PCIEPCIBridge *b = PCIE_PCI_BRIDGE(d);
    int pos;

    pci_bridge_initfn(d, TYPE_PCI_BUS);
    d->config[PCI_INTERRUPT_PIN] = 1;
    memory_region_init(&b->shpc_bar, OBJECT(d), "shpc-bar", shpc_bar_size());
    if (shpc_init(&b->shpc, d, PCI_BRIDGE(d)->sec_bus, &b->shpc_bar,
                  errp) < 0) {
        goto fail;
    }
    if (pcie_cap_init(d, 0, PCI_EXP_TYPE_PCI_BRIDGE, 0, errp) < 0) {
        goto fail_shpc;
    }
    pos = pci_add_capability(d, PCI_CAP_ID_PM, 0, 8, errp);
    if (pos < 0) {
        goto fail_shpc;
    }
    pci_set_word(d->config + pos + 2, 0x3);     /* PMC: version 1.2 */
    pcie_cap_arifwd_init(d);
    pcie_cap_deverr_init(d);
    if (d->config_size > PCI_CONFIG_SPACE_SIZE) {
        pcie_aer_init(d, 0x100, 0);
    }
    if (b->msi != ON_OFF_AUTO_OFF && msi_init(d, 0, 1, true, true, errp) < 0) {
        goto fail_shpc;
    }
    pci_register_bar(d, 0, PCI_BASE_ADDRESS_MEM_TYPE_64, &b->shpc_bar);
    return true;

fail_shpc:
    shpc_cleanup(&b->shpc, &b->shpc_bar);
fail:
    pci_bridge_exitfn(d);
    return false;
}

static void pcie_pci_bridge_exit(PCIDevice *d)
{
    shpc_cleanup(&PCIE_PCI_BRIDGE(d)->shpc, &PCIE_PCI_BRIDGE(d)->shpc_bar);
    pci_bridge_exitfn(d);
}

static Property pcie_pci_bridge_props[] = {
    DEFINE_PROP_ON_OFF_AUTO("msi", PCIEPCIBridge, msi, ON_OFF_AUTO_AUTO),
    DEFINE_PROP_END_OF_LIST(),
};

static void pcie_pci_bridge_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->is_express = true;
    pc->vendor_id = 0x1b36;
    pc->device_id = 0x000e;
    pc->class_id = 0x0604;
    pc->realize = pcie_pci_bridge_realize;
    pc->exit = pcie_pci_bridge_exit;
    pc->config_write = pcie_pci_bridge_write_config;
    dc->reset = pcie_pci_bridge_reset;
    dc->user_creatable = true;
    dc->hotpluggable = true;
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
    device_class_set_props(dc, pcie_pci_bridge_props);
}

static void pcie_pci_bridge_register_types(void)
{
    static const TypeInfo info = {
        .name = "pcie-pci-bridge",
        .parent = TYPE_PCI_BRIDGE,
        .instance_size = sizeof(PCIEPCIBridge),
        .class_size = sizeof(PCIDeviceClass),
        .class_init = pcie_pci_bridge_class_init,
    };

    type_register_static(&info);
}
type_init(pcie_pci_bridge_register_types)
