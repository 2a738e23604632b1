/*
 * query-pci and info pci (hw/pci/pci-info.c) over a test bus: a function
 * with an I/O BAR, a 32-bit memory BAR, a 64-bit prefetchable one and an
 * interrupt pin, before and after the "guest" programs its BARs, command
 * register and interrupt line through configuration cycles.  The line
 * layouts are QEMU 7.2's (observed with its virtio-net-pci: "BAR0: I/O at
 * 0xffffffffffffffff [0x001e].", "BAR4: 64 bit prefetchable memory at
 * ...").  functional/pci-vs-qemu72 compares the board's functions with
 * QEMU 7.2 itself.
 */
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "exec/memory.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "monitor/hmp.h"
#include "monitor/qmp-commands.h"

#define TYPE_TEST_PCI "test-pci-info-dev"
#define TYPE_TEST_HOST "test-pci-info-host"

typedef struct TestPCI {
    PCIDevice parent_obj;
    MemoryRegion io, mmio, pref;
} TestPCI;

static uint64_t test_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
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

    memory_region_init_io(&t->io, OBJECT(d), &test_ops, t, "t-io", 0x20);
    memory_region_init_io(&t->mmio, OBJECT(d), &test_ops, t, "t-mmio",
                          0x1000);
    memory_region_init_io(&t->pref, OBJECT(d), &test_ops, t, "t-pref",
                          0x4000);
    pci_register_bar(d, 0, PCI_BASE_ADDRESS_SPACE_IO, &t->io);
    pci_register_bar(d, 1, 0, &t->mmio);
    pci_register_bar(d, 4, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &t->pref);
    d->config[PCI_INTERRUPT_PIN] = 1;
    return true;
}

static void test_pci_class_init(ObjectClass *oc, void *data)
{
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = test_pci_realize;
    pc->vendor_id = 0x1af4;
    pc->device_id = 0x1000;
    pc->subsystem_vendor_id = 0x1af4;
    pc->subsystem_id = 0x0001;
    pc->class_id = 0x0200;
}

static void test_register_types(void)
{
    static const TypeInfo infos[] = {
        { .name = TYPE_TEST_PCI, .parent = TYPE_PCI_DEVICE,
          .instance_size = sizeof(TestPCI), .class_init = test_pci_class_init },
        { .name = TYPE_TEST_HOST, .parent = TYPE_SYS_BUS_DEVICE,
          .instance_size = sizeof(SysBusDevice) },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(test_register_types)

static PCIBus *bus;
static MemoryRegion mem_space, io_space;

static void setup(void)
{
    Object *machine = object_new(TYPE_CONTAINER);
    const char *names[] = { "unattached", "peripheral", "peripheral-anon" };
    DeviceState *host, *d;
    size_t i;

    object_property_add_child(object_get_root(), "machine", machine);
    object_unref(machine);
    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        Object *c = object_new(TYPE_CONTAINER);

        object_property_add_child(machine, names[i], c);
        object_unref(c);
    }
    sysbus_get_default();
    memory_region_init(&mem_space, NULL, "t-pci", UINT64_MAX);
    memory_region_init(&io_space, NULL, "t-pci-io", 0x10000);
    host = qdev_new(TYPE_TEST_HOST);
    g_assert_true(sysbus_realize_and_unref(SYS_BUS_DEVICE(host),
                                           &error_fatal));
    bus = pci_root_bus_new(host, "pci.0", &mem_space, &io_space,
                           TYPE_PCI_BUS);
    d = qdev_new(TYPE_TEST_PCI);
    qdev_prop_set_int32(d, "addr", PCI_DEVFN(3, 0));
    g_assert_true(qdev_set_id(d, "n1", &error_fatal));
    g_assert_true(qdev_realize_and_unref(d, BUS(bus), &error_fatal));
}

static JsonObject *query_function(JsonNode **keep)
{
    JsonNode *n = qmp_query_pci(&error_fatal);
    JsonArray *buses = json_node_get_array(n);
    JsonObject *b0;
    JsonArray *devs;

    g_assert_cmpuint(json_array_get_length(buses), ==, 1);
    b0 = json_array_get_object_element(buses, 0);
    g_assert_cmpint(json_object_get_int_member(b0, "bus"), ==, 0);
    devs = json_object_get_array_member(b0, "devices");
    g_assert_cmpuint(json_array_get_length(devs), ==, 1);
    *keep = n;
    return json_array_get_object_element(devs, 0);
}

static char *info_pci(void)
{
    JsonNode *n = qmp_query_pci(&error_fatal);
    GString *out = g_string_new(NULL);

    hmp_info_pci(out, json_node_get_array(n));
    json_node_unref(n);
    return g_string_free(out, FALSE);
}

static void check_region(JsonObject *r, int bar, const char *type,
                         int64_t addr, int64_t size)
{
    g_assert_cmpint(json_object_get_int_member(r, "bar"), ==, bar);
    g_assert_cmpstr(json_object_get_string_member(r, "type"), ==, type);
    g_assert_cmpint(json_object_get_int_member(r, "address"), ==, addr);
    g_assert_cmpint(json_object_get_int_member(r, "size"), ==, size);
}

static void test_unprogrammed(void)
{
    JsonNode *keep;
    JsonObject *d = query_function(&keep);
    JsonObject *cls = json_object_get_object_member(d, "class_info");
    JsonObject *id = json_object_get_object_member(d, "id");
    JsonArray *regions = json_object_get_array_member(d, "regions");
    JsonObject *r;
    char *text;

    g_assert_cmpint(json_object_get_int_member(d, "slot"), ==, 3);
    g_assert_cmpint(json_object_get_int_member(d, "function"), ==, 0);
    g_assert_cmpstr(json_object_get_string_member(cls, "desc"), ==,
                    "Ethernet controller");
    g_assert_cmpint(json_object_get_int_member(cls, "class"), ==, 0x0200);
    g_assert_cmpint(json_object_get_int_member(id, "vendor"), ==, 0x1af4);
    g_assert_cmpint(json_object_get_int_member(id, "device"), ==, 0x1000);
    g_assert_cmpint(json_object_get_int_member(id, "subsystem-vendor"), ==,
                    0x1af4);
    g_assert_cmpint(json_object_get_int_member(id, "subsystem"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(d, "irq_pin"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(d, "irq"), ==, 0);
    g_assert_cmpstr(json_object_get_string_member(d, "qdev_id"), ==, "n1");
    g_assert_false(json_object_has_member(d, "pci_bridge"));

    g_assert_cmpuint(json_array_get_length(regions), ==, 3);
    r = json_array_get_object_element(regions, 0);
    check_region(r, 0, "io", -1, 0x20);
    g_assert_false(json_object_has_member(r, "prefetch"));
    g_assert_false(json_object_has_member(r, "mem_type_64"));
    r = json_array_get_object_element(regions, 1);
    check_region(r, 1, "memory", -1, 0x1000);
    g_assert_false(json_object_get_boolean_member(r, "prefetch"));
    g_assert_false(json_object_get_boolean_member(r, "mem_type_64"));
    r = json_array_get_object_element(regions, 2);
    check_region(r, 4, "memory", -1, 0x4000);
    g_assert_true(json_object_get_boolean_member(r, "prefetch"));
    g_assert_true(json_object_get_boolean_member(r, "mem_type_64"));
    json_node_unref(keep);

    text = info_pci();
    g_assert_cmpstr(text, ==,
        "  Bus  0, device   3, function 0:\r\n"
        "    Ethernet controller: PCI device 1af4:1000\r\n"
        "      PCI subsystem 1af4:0001\r\n"
        "      IRQ 0, pin A\r\n"
        "      BAR0: I/O at 0xffffffffffffffff [0x001e].\r\n"
        "      BAR1: 32 bit memory at 0xffffffffffffffff [0x00000ffe].\r\n"
        "      BAR4: 64 bit prefetchable memory at 0xffffffffffffffff "
        "[0x00003ffe].\r\n"
        "      id \"n1\"\r\n");
    g_free(text);
}

static void cfg_write(uint32_t off, uint32_t v, int len)
{
    pci_host_config_write(bus, 0, PCI_DEVFN(3, 0), off, v, len);
}

static void test_programmed(void)
{
    JsonNode *keep;
    JsonObject *d;
    JsonArray *regions;
    char *text;

    /* As firmware does: BARs, then decoding on, then the line */
    cfg_write(PCI_BASE_ADDRESS_0, 0xc040, 4);
    cfg_write(PCI_BASE_ADDRESS_0 + 4, 0xfebd1000, 4);
    cfg_write(PCI_BASE_ADDRESS_0 + 16, 0x00004000, 4);
    cfg_write(PCI_BASE_ADDRESS_0 + 20, 0x00000008, 4);
    cfg_write(PCI_INTERRUPT_LINE, 11, 1);
    cfg_write(PCI_COMMAND, PCI_COMMAND_IO | PCI_COMMAND_MEMORY, 2);

    d = query_function(&keep);
    regions = json_object_get_array_member(d, "regions");
    check_region(json_array_get_object_element(regions, 0), 0, "io",
                 0xc040, 0x20);
    check_region(json_array_get_object_element(regions, 1), 1, "memory",
                 0xfebd1000, 0x1000);
    check_region(json_array_get_object_element(regions, 2), 4, "memory",
                 0x800004000, 0x4000);
    g_assert_cmpint(json_object_get_int_member(d, "irq"), ==, 11);
    json_node_unref(keep);

    text = info_pci();
    g_assert_nonnull(strstr(text, "      IRQ 11, pin A\r\n"
        "      BAR0: I/O at 0xc040 [0xc05f].\r\n"
        "      BAR1: 32 bit memory at 0xfebd1000 [0xfebd1fff].\r\n"
        "      BAR4: 64 bit prefetchable memory at 0x800004000 "
        "[0x800007fff].\r\n"));
    g_free(text);

    /* Decoding off again: unmapped, as QEMU reports it */
    cfg_write(PCI_COMMAND, 0, 2);
    d = query_function(&keep);
    regions = json_object_get_array_member(d, "regions");
    check_region(json_array_get_object_element(regions, 0), 0, "io", -1,
                 0x20);
    check_region(json_array_get_object_element(regions, 2), 4, "memory", -1,
                 0x4000);
    json_node_unref(keep);
}

static void test_class_names(void)
{
    /* The names QEMU 7.2 gave for its devices' classes (query-pci) */
    g_assert_cmpstr(pci_class_desc(0x0600), ==, "Host bridge");
    g_assert_cmpstr(pci_class_desc(0x0601), ==, "ISA bridge");
    g_assert_cmpstr(pci_class_desc(0x0101), ==, "IDE controller");
    g_assert_cmpstr(pci_class_desc(0x0106), ==, "SATA controller");
    g_assert_cmpstr(pci_class_desc(0x0680), ==, "Bridge");
    g_assert_cmpstr(pci_class_desc(0x0c03), ==, "USB controller");
    g_assert_cmpstr(pci_class_desc(0x0c05), ==, "SMBus");
    g_assert_cmpstr(pci_class_desc(0x0604), ==, "PCI bridge");
    /* ...and the ones it leaves without: virtio-serial, -balloon, nvme */
    g_assert_null(pci_class_desc(0x0780));
    g_assert_null(pci_class_desc(0x00ff));
    g_assert_null(pci_class_desc(0x0108));
    g_assert_null(pci_class_desc(0x0880));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    setup();
    g_test_add_func("/pci-info/class-names", test_class_names);
    g_test_add_func("/pci-info/unprogrammed", test_unprogrammed);
    g_test_add_func("/pci-info/programmed", test_programmed);
    return g_test_run();
}
