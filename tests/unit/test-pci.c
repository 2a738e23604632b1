/*
 * The PCI core alone (hw/pci/pci.h): configuration space masks as QEMU
 * 7.2 shows them (measured over qtest: all-ones then zeros written to
 * each byte), BAR sizing and mapping, the capability list, placement
 * (addr=, multifunction=) with QEMU's refusal texts.
 */
#include <string.h>

#include <glib.h>

#include "exec/memory.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "pci-test-dev.h"


static PCIBus *bus;
static MemoryRegion mem_space, io_space;

static void setup(void)
{
    bus = pci_test_root_bus(&mem_space, &io_space);
}

static PCIDevice *add(const char *addr, bool mf, Error **errp)
{
    DeviceState *d = qdev_new(TYPE_TEST_PCI_CAPS);

    g_assert_true(object_property_set_str(OBJECT(d), "addr", addr,
                                          &error_fatal));
    qdev_prop_set_bit(d, "multifunction", mf);
    if (!qdev_realize(d, BUS(bus), errp)) {
        object_unparent(OBJECT(d));
        return NULL;
    }
    return PCI_DEVICE(d);
}

/* len bytes at off (the host's cycle pads a short read with ones) */
static uint32_t rd(int devfn, uint32_t off, int len)
{
    uint32_t v = pci_host_config_read(bus, 0, devfn, off, len);

    return len == 4 ? v : v & ((1u << (8 * len)) - 1);
}

static void wr(int devfn, uint32_t off, uint32_t v, int len)
{
    pci_host_config_write(bus, 0, devfn, off, v, len);
}

/* What QEMU 7.2's pci-testdev at 04.0 reads back after ff, then 00 */
static void test_masks(void)
{
    PCIDevice *d = add("4", false, &error_fatal);
    int devfn = d->devfn;
    static const struct {
        uint8_t off;
        uint8_t ones, zeros;
    } cases[] = {
        { 0x00, 0x36, 0x36 }, { 0x04, 0x07, 0x00 }, { 0x05, 0x05, 0x00 },
        { 0x06, 0x10, 0x10 }, { 0x0c, 0xff, 0x00 }, { 0x0d, 0x00, 0x00 },
        { 0x10, 0x00, 0x00 }, { 0x11, 0xf0, 0x00 }, { 0x13, 0xff, 0x00 },
        { 0x14, 0x01, 0x01 }, { 0x15, 0xff, 0x00 }, { 0x2c, 0xf4, 0xf4 },
        { 0x3c, 0xff, 0x00 }, { 0x3d, 0x01, 0x01 }, { 0x40, 0x09, 0x09 },
        { 0x48, 0xff, 0x00 }, { 0x50, 0x05, 0x05 }, { 0x5c, 0xff, 0x00 },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        wr(devfn, cases[i].off, 0xff, 1);
        g_assert_cmphex(rd(devfn, cases[i].off, 1), ==, cases[i].ones);
        wr(devfn, cases[i].off, 0, 1);
        g_assert_cmphex(rd(devfn, cases[i].off, 1), ==, cases[i].zeros);
    }
    /* the capability list: 0x50 (added last) -> 0x40 -> end */
    g_assert_cmphex(rd(devfn, PCI_CAPABILITY_LIST, 1), ==, 0x50);
    g_assert_cmphex(rd(devfn, 0x51, 1), ==, 0x40);
    g_assert_cmphex(rd(devfn, 0x41, 1), ==, 0x00);
    g_assert_cmpint(pci_find_capability(d, 0x05), ==, 0x50);
    /* past the space, and absent functions: all-ones */
    g_assert_cmphex(rd(devfn, 0xfe, 4), ==, 0xffff0000u);
    g_assert_cmphex(rd(PCI_DEVFN(5, 0), 0, 4), ==, 0xffffffffu);
    object_unparent(OBJECT(d));
}

static void test_bars(void)
{
    PCIDevice *d = add("6", false, &error_fatal);
    int devfn = d->devfn;

    wr(devfn, 0x10, 0xffffffff, 4);
    g_assert_cmphex(rd(devfn, 0x10, 4), ==, 0xfffff000u);
    wr(devfn, 0x14, 0xffffffff, 4);
    g_assert_cmphex(rd(devfn, 0x14, 4), ==, 0xffffff01u);
    wr(devfn, 0x10, 0xfebf1000, 4);
    wr(devfn, 0x14, 0xc000, 4);
    g_assert_cmphex(pci_get_bar_addr(d, 0), ==, PCI_BAR_UNMAPPED);
    wr(devfn, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_IO, 2);
    g_assert_cmphex(pci_get_bar_addr(d, 0), ==, 0xfebf1000u);
    g_assert_cmphex(pci_get_bar_addr(d, 1), ==, 0xc000);
    /* 0 and a wrapping address unmap */
    wr(devfn, 0x10, 0, 4);
    g_assert_cmphex(pci_get_bar_addr(d, 0), ==, PCI_BAR_UNMAPPED);
    wr(devfn, 0x10, 0xfffff000, 4);
    g_assert_cmphex(pci_get_bar_addr(d, 0), ==, PCI_BAR_UNMAPPED);
    wr(devfn, 0x10, 0xfebf0000, 4);
    g_assert_cmphex(pci_get_bar_addr(d, 0), ==, 0xfebf0000u);
    wr(devfn, PCI_COMMAND, 0, 2);
    g_assert_cmphex(pci_get_bar_addr(d, 0), ==, PCI_BAR_UNMAPPED);
    g_assert_cmphex(pci_get_bar_addr(d, 1), ==, PCI_BAR_UNMAPPED);
    object_unparent(OBJECT(d));
}

/* QEMU 7.2's texts (pci-testdev against its i440fx board) */
static void test_placement(void)
{
    Error *err = NULL;
    PCIDevice *a, *b;

    a = add("8.1", false, &error_fatal);
    g_assert_null(add("8.0", false, &err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "PCI: 8.0 indicates single function, but 8.1 is "
                    "already populated.");
    g_clear_pointer(&err, error_free);
    object_unparent(OBJECT(a));

    a = add("9.0", false, &error_fatal);
    g_assert_null(add("9.1", false, &err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "PCI: single function device can't be populated in "
                    "function 9.1");
    g_clear_pointer(&err, error_free);
    g_assert_null(add("9", false, &err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "PCI: slot 9 function 0 not available for "
                    "test-pci-fn-caps, in use by test-pci-fn-caps,"
                    "id=(null)");
    g_clear_pointer(&err, error_free);
    object_unparent(OBJECT(a));

    a = add("a.0", true, &error_fatal);
    b = add("a.1", false, &error_fatal);
    g_assert_cmphex(rd(a->devfn, PCI_HEADER_TYPE, 1), ==, 0x80);
    g_assert_cmphex(rd(b->devfn, PCI_HEADER_TYPE, 1), ==, 0x00);
    object_unparent(OBJECT(b));
    object_unparent(OBJECT(a));
}

/* QEMU 7.2's answers to -device pci-testdev,addr=TEXT (i440fx) */
static const struct {
    const char *text;
    int devfn; /* -1: refused */
} addr_texts[] = {
    { "3", 0x18 },     { "04.0", 0x20 }, { "0x1f.2", 0xfa }, { "1f.7", 0xff },
    { "0x4", 0x20 },   { " 4", 0x20 },   { "+4", 0x20 },     { "0x1f.0x2", 0xfa },
    { "zz", -1 },      { "20", -1 },     { "0x20", -1 },     { "1f.8", -1 },
    { "-2", -1 },      { "-1", -1 },     { "255", -1 },      { "", -1 },
    { "4.8", -1 },     { "4.", -1 },     { ".1", -1 },       { "4.1 ", -1 },
};

static void test_addr_texts(void)
{
    DeviceState *d = qdev_new(TYPE_TEST_PCI_CAPS);
    Object *obj = OBJECT(d);
    Error *err = NULL;
    size_t i;

    g_assert_cmpint(object_property_get_int(obj, "addr", &error_fatal), ==,
                    -1);
    for (i = 0; i < G_N_ELEMENTS(addr_texts); i++) {
        const char *text = addr_texts[i].text;
        /* -device and -global hand over text; so does device_add */
        bool ok = object_property_parse(obj, "addr", text, &err);

        if (addr_texts[i].devfn < 0) {
            char *want = g_strdup_printf("Property 'test-pci-fn-caps.addr' "
                                         "doesn't take value '%s'", text);

            g_assert_false(ok);
            g_assert_cmpstr(error_get_pretty(err), ==, want);
            g_clear_pointer(&err, error_free);
            g_free(want);
        } else {
            g_assert_null(err);
            g_assert_true(ok);
            g_assert_cmpint(object_property_get_int(obj, "addr", &error_fatal),
                            ==, addr_texts[i].devfn);
        }
    }
    object_unref(obj);
}

/* JSON (-device '{...}'): a number is the devfn itself */
static void test_addr_json(void)
{
    DeviceState *d = qdev_new(TYPE_TEST_PCI_CAPS);
    Object *obj = OBJECT(d);
    Error *err = NULL;
    JsonNode *n;

    g_assert_true(object_property_set_int(obj, "addr", 24, &error_fatal));
    g_assert_cmpint(object_property_get_int(obj, "addr", &error_fatal), ==,
                    24);
    g_assert_true(object_property_set_int(obj, "addr", -1, &error_fatal));
    g_assert_false(object_property_set_int(obj, "addr", 256, &err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "Parameter 'addr' expects a value between -1 and 255");
    g_clear_pointer(&err, error_free);
    g_assert_false(object_property_set_int(obj, "addr", -2, &err));
    g_clear_pointer(&err, error_free);
    n = json_node_init_boolean(json_node_alloc(), true);
    g_assert_false(object_property_set(obj, "addr", n, &err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "Invalid parameter type for 'addr', expected int or str");
    g_clear_pointer(&err, error_free);
    json_node_unref(n);
    g_assert_true(object_property_set_str(obj, "addr", "04.0", &error_fatal));
    g_assert_cmpint(object_property_get_int(obj, "addr", &error_fatal), ==,
                    0x20);
    object_unref(obj);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    setup();
    g_test_add_func("/pci/config/masks", test_masks);
    g_test_add_func("/pci/config/bars", test_bars);
    g_test_add_func("/pci/placement", test_placement);
    g_test_add_func("/pci/addr/texts", test_addr_texts);
    g_test_add_func("/pci/addr/json", test_addr_json);
    return g_test_run();
}
