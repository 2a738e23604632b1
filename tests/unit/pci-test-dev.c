/*
 * The PCI unit tests' function and host (pci-test-dev.h).
 */
#include <glib.h>

#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "pci-test-dev.h"

typedef struct TestPCI {
    PCIDevice parent_obj;
    MemoryRegion mmio, io;
} TestPCI;

static uint64_t test_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0x5a;
}

static void test_write(void *opaque, hwaddr addr, uint64_t v, unsigned size)
{
}

static const MemoryRegionOps test_ops = {
    .read = test_read,
    .write = test_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static bool test_pci_realize(PCIDevice *d, Error **errp)
{
    TestPCI *t = (TestPCI *)d;

    memory_region_init_io(&t->mmio, OBJECT(d), &test_ops, t, "t-mmio", 0x1000);
    memory_region_init_io(&t->io, OBJECT(d), &test_ops, t, "t-io", 0x100);
    pci_register_bar(d, 0, 0, &t->mmio);
    pci_register_bar(d, 1, PCI_BASE_ADDRESS_SPACE_IO, &t->io);
    d->config[PCI_INTERRUPT_PIN] = 1;
    return true;
}

static bool test_pci_caps_realize(PCIDevice *d, Error **errp)
{
    return test_pci_realize(d, errp) &&
           pci_add_capability(d, 0x09, 0, 8, errp) > 0 &&
           pci_add_capability(d, 0x05, 0x50, 12, errp) > 0;
}

static void test_pci_class_init(ObjectClass *oc, void *data)
{
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = data ? test_pci_caps_realize : test_pci_realize;
    pc->vendor_id = 0x1b36;
    pc->device_id = 0x0005;
    pc->class_id = 0x00ff;
}

static void test_register_types(void)
{
    static const TypeInfo infos[] = {
        { .name = TYPE_TEST_PCI, .parent = TYPE_PCI_DEVICE,
          .instance_size = sizeof(TestPCI), .class_init = test_pci_class_init },
        { .name = TYPE_TEST_PCI_CAPS, .parent = TYPE_PCI_DEVICE,
          .instance_size = sizeof(TestPCI), .class_init = test_pci_class_init,
          .class_data = (void *)1 },
        { .name = TYPE_TEST_HOST, .parent = TYPE_SYS_BUS_DEVICE,
          .instance_size = sizeof(SysBusDevice) },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(test_register_types)

PCIBus *pci_test_root_bus(MemoryRegion *mem, MemoryRegion *io)
{
    Object *machine = object_new(TYPE_CONTAINER);
    DeviceState *host;

    object_property_add_child(object_get_root(), "machine", machine);
    object_unref(machine);
    object_property_add_child(machine, "unattached",
                              object_new(TYPE_CONTAINER));
    object_property_add_child(machine, "peripheral",
                              object_new(TYPE_CONTAINER));
    sysbus_get_default();
    memory_region_init(mem, NULL, "t-pci", UINT64_MAX);
    memory_region_init(io, NULL, "t-pci-io", 0x10000);
    host = qdev_new(TYPE_TEST_HOST);
    g_assert_true(sysbus_realize_and_unref(SYS_BUS_DEVICE(host),
                                           &error_fatal));
    return pci_root_bus_new(host, "pci.0", mem, io, TYPE_PCI_BUS);
}
