/*
 * i82801b11-bridge: the ICH9's DMI-to-PCI bridge as QEMU 7.2 has it
 * (8086:244e rev 0x92, subtractive decode), with a bridge subsystem
 * vendor ID capability holding 0:0 (docs/devices.md, "Bridges").
 */
#include "hw/pci/pci_bridge.h"

#define I82801BA_SSVID_OFFSET 0x50

static bool i82801b11_bridge_realize(PCIDevice *d, Error **errp)
{
    pci_bridge_initfn(d, TYPE_PCI_BUS);
    if (pci_bridge_ssvid_init(d, I82801BA_SSVID_OFFSET, 0, 0, errp) < 0) {
        pci_bridge_exitfn(d);
        return false;
    }
    /* programming interface 1: subtractive decode */
    d->config[PCI_CLASS_PROG] = 0x01;
    return true;
}

static void i82801b11_bridge_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->vendor_id = 0x8086;
    pc->device_id = 0x244e;
    pc->revision = 0x92;
    pc->class_id = 0x0604;
    pc->realize = i82801b11_bridge_realize;
    pc->exit = pci_bridge_exitfn;
    dc->user_creatable = true;
    dc->hotpluggable = true;
    dc->categories = 1u << DEVICE_CATEGORY_BRIDGE;
}

static void i82801b11_register_types(void)
{
    static const TypeInfo info = {
        .name = "i82801b11-bridge",
        .parent = TYPE_PCI_BRIDGE,
        .instance_size = sizeof(PCIBridge),
        .class_size = sizeof(PCIDeviceClass),
        .class_init = i82801b11_bridge_class_init,
    };

    type_register_static(&info);
}
type_init(i82801b11_register_types)
