/*
 * qemu-xhci: QEMU 7.2's xHCI controller on PCI or PCIe (1b36:000d rev 01,
 * class 0c0330, subsystem 1af4:1100), the core ("base-xhci",
 * hw/usb/hcd-xhci.c) as its "xhci-core" child with the core's properties
 * (p2, p3, streams, host) aliased, and the USB bus ("ID.0") its own.
 *
 * Configuration space as 7.2 builds it: BAR0 the 16 KiB register block
 * ("xhci", 64-bit memory) with the MSI-X table (16 vectors) at 0x3000
 * and the PBA at 0x3800 inside it; the MSI-X capability at 0x90, then on
 * a PCIe bus the PCIe capability at 0xa0 (an endpoint, or an integrated
 * one on a root bus); no MSI capability (qemu-xhci has MSI off); cache
 * line size 0x10, interrupt pin A, 0x60 (SBRN) 0x30.
 *
 * Interrupts: interrupter n's vector n by MSI-X while enabled and the
 * interrupter's IMAN.IE made it "used" (a vector not in use sends
 * nothing, and losing its use clears its pending bit, as 7.2's MSI-X
 * vector accounting does); else interrupter 0 drives INTx as a level.
 */
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/usb/xhci.h"

#define OFF_MSIX_TABLE 0x3000
#define OFF_MSIX_PBA 0x3800

typedef struct XHCIPciState {
    PCIDevice parent_obj;
    XHCIState xhci;
} XHCIPciState;

static PCIDevice *xhci_pci_dev(XHCIState *xhci)
{
    return PCI_DEVICE(xhci->host);
}

/* IMAN.IE changed: vector n is in use while it is set (MSI-X enabled) */
static void xhci_pci_intr_update(XHCIState *xhci, int n, bool enable)
{
    PCIDevice *d = xhci_pci_dev(xhci);

    if (!msix_enabled(d) || enable == xhci->intr[n].msix_used) {
        return;
    }
    xhci->intr[n].msix_used = enable;
    if (!enable) {
        msix_clear_pending(d, n);
    }
}

static bool xhci_pci_intr_raise(XHCIState *xhci, int n, bool level)
{
    PCIDevice *d = xhci_pci_dev(xhci);
    bool msix = msix_enabled(d), msi = msi_enabled(d);

    if (n == 0 && !msix && !msi) {
        pci_set_irq(d, level);
    }
    if (msix && level) {
        if (xhci->intr[n].msix_used) {
            msix_notify(d, n);
        }
        return true;
    }
    if (msi && level) {
        msi_notify(d, n);
        return true;
    }
    return false;
}

static void xhci_pci_reset(DeviceState *dev)
{
    XHCIPciState *s = (XHCIPciState *)dev;

    pci_device_reset_config(PCI_DEVICE(dev));
    msix_reset(PCI_DEVICE(dev));
    g_mutex_lock(&s->xhci.lock);
    xhci_reset(&s->xhci);
    g_mutex_unlock(&s->xhci.lock);
}

static bool xhci_pci_realize(PCIDevice *d, Error **errp)
{
    XHCIPciState *s = (XHCIPciState *)d;
    BusState *bus = DEVICE(d)->parent_bus;

    d->config[PCI_CLASS_PROG] = 0x30;       /* xHCI */
    d->config[PCI_INTERRUPT_PIN] = 1;
    d->config[PCI_CACHE_LINE_SIZE] = 0x10;
    d->config[0x60] = 0x30;                 /* SBRN: USB 3.0 */

    s->xhci.host = OBJECT(d);
    s->xhci.as = pci_get_address_space(d);
    s->xhci.intr_update = xhci_pci_intr_update;
    s->xhci.intr_raise = xhci_pci_intr_raise;
    if (!qdev_realize(DEVICE(&s->xhci), NULL, errp)) {
        return false;
    }
    pci_register_bar(d, 0, PCI_BASE_ADDRESS_MEM_TYPE_64, &s->xhci.mem);
    if (object_dynamic_cast(OBJECT(bus), TYPE_PCIE_BUS) &&
        pcie_endpoint_cap_init(d, 0xa0, errp) < 0) {
        return false;
    }
    return msix_init(d, s->xhci.numintrs, &s->xhci.mem, 0, OFF_MSIX_TABLE,
                     &s->xhci.mem, 0, OFF_MSIX_PBA, 0x90, errp) >= 0;
}

static void xhci_pci_exit(PCIDevice *d)
{
    XHCIPciState *s = (XHCIPciState *)d;

    msix_uninit(d);
    qdev_unrealize(DEVICE(&s->xhci));
}

static void xhci_pci_instance_init(Object *obj)
{
    XHCIPciState *s = (XHCIPciState *)obj;

    object_initialize_child(obj, "xhci-core", &s->xhci, sizeof(s->xhci),
                            TYPE_XHCI);
    object_property_add_alias(obj, "streams", OBJECT(&s->xhci), "streams");
    object_property_add_alias(obj, "p2", OBJECT(&s->xhci), "p2");
    object_property_add_alias(obj, "p3", OBJECT(&s->xhci), "p3");
    object_property_add_alias(obj, "host", OBJECT(&s->xhci), "host");
}

static void qemu_xhci_instance_init(Object *obj)
{
    XHCIPciState *s = (XHCIPciState *)obj;

    s->xhci.numintrs = XHCI_MAXINTRS;
    s->xhci.numslots = XHCI_MAXSLOTS;
    s->xhci.ss_first = true;
}

static void xhci_pci_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = xhci_pci_realize;
    pc->exit = xhci_pci_exit;
    pc->class_id = 0x0c03;          /* USB */
    /* PCIe on a PCIe bus (4 KiB of configuration space), else PCI */
    pc->is_express = true;
    dc->reset = xhci_pci_reset;
    dc->categories = 1u << DEVICE_CATEGORY_USB;
}

static void qemu_xhci_class_init(ObjectClass *oc, void *data)
{
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->vendor_id = 0x1b36;         /* Red Hat */
    pc->device_id = 0x000d;
    pc->revision = 0x01;
}

/* 7.2's abstract "pci-xhci" holds what qemu-xhci and nec-usb-xhci share */
static const TypeInfo xhci_pci_info = {
    .name = TYPE_XHCI_PCI,
    .parent = TYPE_PCI_DEVICE,
    .abstract = true,
    .instance_size = sizeof(XHCIPciState),
    .instance_init = xhci_pci_instance_init,
    .class_init = xhci_pci_class_init,
};

static const TypeInfo qemu_xhci_info = {
    .name = TYPE_QEMU_XHCI,
    .parent = TYPE_XHCI_PCI,
    .instance_init = qemu_xhci_instance_init,
    .class_init = qemu_xhci_class_init,
};

static void qemu_xhci_register_types(void)
{
    type_register_static(&xhci_pci_info);
    type_register_static(&qemu_xhci_info);
}
type_init(qemu_xhci_register_types)
