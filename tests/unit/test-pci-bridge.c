/*
 * PCI-to-PCI bridges alone (hw/pci/pci_bridge.c): configuration cycles
 * routed by the bus number registers, the windows as flat views of the
 * root bus's spaces, INTx swizzling — on a test root bus with
 * i82801b11-bridges (no BARs of their own) and a test function with a
 * memory and an I/O BAR behind them.  The rules are QEMU 7.2's
 * (functional/bridges-vs-qemu72 compares the same against 7.2 itself).
 */
#include <glib.h>

#include "exec/memory.h"
#include "flat-text.h"
#include "hw/pci/pci_bridge.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "pci-test-dev.h"

#define BRIDGE "i82801b11-bridge"

static PCIBus *root;
static MemoryRegion mem_space, io_space;
static AddressSpace mem_as, io_as;
static int irq_level[4];

static void set_irq(void *opaque, int line, int level)
{
    irq_level[line] = level;
}

static int map_irq(PCIDevice *d, int pin)
{
    return (PCI_SLOT(d->devfn) + pin) % 4;
}

static void setup(void)
{
    root = pci_test_root_bus(&mem_space, &io_space);
    address_space_init(&mem_as, &mem_space, "t-mem");
    address_space_init(&io_as, &io_space, "t-io");
    pci_bus_irqs(root, set_irq, map_irq, NULL, 4);
}

static PCIDevice *add(const char *type, const char *id, PCIBus *bus,
                      const char *addr)
{
    DeviceState *d = qdev_new(type);

    d->id = g_strdup(id);
    g_assert_true(object_property_set_str(OBJECT(d), "addr", addr,
                                          &error_fatal));
    g_assert_true(qdev_realize(d, BUS(bus), &error_fatal));
    return PCI_DEVICE(d);
}

static uint32_t rd(int bus, int devfn, uint32_t off, int len)
{
    uint32_t v = pci_host_config_read(root, bus, devfn, off, len);

    return len == 4 ? v : v & ((1u << (8 * len)) - 1);
}

static void wr(int bus, int devfn, uint32_t off, uint32_t v, int len)
{
    pci_host_config_write(root, bus, devfn, off, v, len);
}

/*
 * The board: 00:05.0 bridge "b1" -> 00.0 bridge "b2" -> 03.0 test
 * function; 00:06.0 bridge "b3" -> 01.0 test function
 */
static PCIDevice *b1, *b2, *b3, *f1, *f2;

static void build(void)
{
    b1 = add(BRIDGE, "b1", root, "5");
    b2 = add(BRIDGE, "b2", PCI_BRIDGE(b1)->sec_bus, "0");
    f1 = add(TYPE_TEST_PCI, "f1", PCI_BRIDGE(b2)->sec_bus, "3");
    b3 = add(BRIDGE, "b3", root, "6");
    f2 = add(TYPE_TEST_PCI, "f2", PCI_BRIDGE(b3)->sec_bus, "1");
}

static void teardown(void)
{
    qdev_unparent(DEVICE(f2));
    qdev_unparent(DEVICE(b3));
    qdev_unparent(DEVICE(f1));
    qdev_unparent(DEVICE(b2));
    qdev_unparent(DEVICE(b1));
}

/* Bus numbers as firmware writes them: primary | secondary | subordinate */
static void number(int bus, PCIDevice *br, int pri, int sec, int sub)
{
    wr(bus, br->devfn, PCI_PRIMARY_BUS, pri | sec << 8 | sub << 16, 4);
}

/* bus:devfn -> which function answers (NULL: all-ones) */
static const struct {
    const char *name;
    int b1_sec, b1_sub, b2_sec, b2_sub, b3_sec, b3_sub;
    uint16_t b1_ctl;
    int bus, devfn;
    PCIDevice **want;
} routes[] = {
    { "unnumbered", 0, 0, 0, 0, 0, 0, 0, 1, 0x18, NULL },
    { "unnumbered-bus0-is-root", 0, 0, 0, 0, 0, 0, 0, 0, 0x28, &b1 },
    { "first-level", 1, 2, 0, 0, 3, 3, 0, 1, 0x00, &b2 },
    { "second-level-unnumbered", 1, 2, 0, 0, 3, 3, 0, 2, 0x18, NULL },
    { "second-level", 1, 2, 2, 2, 3, 3, 0, 2, 0x18, &f1 },
    { "sibling", 1, 2, 2, 2, 3, 3, 0, 3, 0x08, &f2 },
    { "out-of-range", 1, 2, 2, 2, 3, 3, 0, 4, 0x08, NULL },
    { "subordinate-too-low", 1, 1, 2, 2, 3, 3, 0, 2, 0x18, NULL },
    { "bus-reset-blocks", 1, 2, 2, 2, 3, 3, PCI_BRIDGE_CTL_BUS_RESET, 2,
      0x18, NULL },
    { "empty-slot", 1, 2, 2, 2, 3, 3, 0, 2, 0x20, NULL },
};

static void test_route(gconstpointer data)
{
    const typeof(routes[0]) *r = data;
    uint32_t want;

    build();
    number(0, b1, 0, r->b1_sec, r->b1_sub);
    number(0, b3, 0, r->b3_sec, r->b3_sub);
    if (r->b1_sec) {
        number(r->b1_sec, b2, r->b1_sec, r->b2_sec, r->b2_sub);
    }
    wr(0, b1->devfn, PCI_BRIDGE_CONTROL, r->b1_ctl, 2);
    want = r->want ? pci_get_long((*r->want)->config) : 0xffffffff;
    g_assert_cmphex(rd(r->bus, r->devfn, 0, 4), ==, want);
    teardown();
}

/* Windows of b3 with f2's BARs at 0xfe000000 (memory) and 0x2000 (I/O) */
static const struct {
    const char *name;
    uint16_t cmd;
    uint8_t io_base, io_limit;
    uint16_t mem_base, mem_limit;
    const char *mem, *io;               /* flat views of the root spaces */
} windows[] = {
    { "closed", 0x3, 0x20, 0x10, 0xfe10, 0xfe00, "", "" },
    { "decode-off", 0x0, 0x20, 0x20, 0xfe00, 0xfe00, "", "" },
    { "open",
      0x3, 0x20, 0x20, 0xfe00, 0xfe00,
      "fe000000-fe000fff t-mmio",
      "2000-20ff t-io" },
    { "memory-only",
      0x2, 0x20, 0x20, 0xfe00, 0xfe00, "fe000000-fe000fff t-mmio", "" },
    { "window-cuts-bar",
      0x3, 0x10, 0x10, 0xfd00, 0xfdf0, "", "" },
    { "wide",
      0x3, 0x00, 0xf0, 0xfc00, 0xfeff,
      "fe000000-fe000fff t-mmio", "2000-20ff t-io" },
};

static void test_window(gconstpointer data)
{
    const typeof(windows[0]) *w = data;
    char *flat;

    build();
    number(0, b3, 0, 3, 3);
    wr(3, f2->devfn, 0x10, 0xfe000000, 4);
    wr(3, f2->devfn, 0x14, 0x2000, 4);
    wr(3, f2->devfn, PCI_COMMAND, 0x3, 2);
    wr(0, b3->devfn, PCI_IO_BASE, w->io_base | w->io_limit << 8, 2);
    wr(0, b3->devfn, PCI_MEMORY_BASE,
       w->mem_base | (uint32_t)w->mem_limit << 16, 4);
    wr(0, b3->devfn, PCI_COMMAND, w->cmd, 2);
    flat = flat_text(&mem_as);
    g_assert_cmpstr(flat, ==, w->mem);
    g_free(flat);
    flat = flat_text(&io_as);
    g_assert_cmpstr(flat, ==, w->io);
    g_free(flat);
    teardown();
}

/* The prefetchable window is 64-bit; limits end at granule boundaries */
static void test_window_registers(void)
{
    build();
    wr(0, b3->devfn, PCI_PREF_MEMORY_BASE, 0xfff1fff1, 4);
    wr(0, b3->devfn, PCI_PREF_BASE_UPPER32, 0x1, 4);
    wr(0, b3->devfn, PCI_PREF_LIMIT_UPPER32, 0x2, 4);
    g_assert_cmphex(pci_bridge_get_base(b3, PCI_BASE_ADDRESS_MEM_PREFETCH),
                    ==, 0x1fff00000ull);
    g_assert_cmphex(pci_bridge_get_limit(b3, PCI_BASE_ADDRESS_MEM_PREFETCH),
                    ==, 0x2ffffffffull);
    wr(0, b3->devfn, PCI_IO_BASE, 0xffff, 2);
    g_assert_cmphex(rd(0, b3->devfn, PCI_IO_BASE, 2), ==, 0xf0f0);
    g_assert_cmphex(pci_bridge_get_limit(b3, PCI_BASE_ADDRESS_SPACE_IO), ==,
                    0xffff);
    /* the secondary bus is named by the bridge's id */
    g_assert_cmpstr(BUS(PCI_BRIDGE(b3)->sec_bus)->name, ==, "b3");
    teardown();
}

/* INTA of 01.0 behind the bridge at 00:06.0: (1 + 0) then (6 + 1) % 4 */
static void test_swizzle(void)
{
    build();
    number(0, b3, 0, 3, 3);
    pci_set_irq(f2, 1);
    g_assert_cmpint(irq_level[3], ==, 1);
    pci_set_irq(f2, 0);
    g_assert_cmpint(irq_level[3], ==, 0);
    /* INTA of 03.0 two bridges down: 3, then (0 + 3), then (5 + 3) % 4 */
    pci_set_irq(f1, 1);
    g_assert_cmpint(irq_level[0], ==, 1);
    pci_set_irq(f1, 0);
    teardown();
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    setup();
    for (i = 0; i < G_N_ELEMENTS(routes); i++) {
        char *path = g_strdup_printf("/pci-bridge/route/%s", routes[i].name);

        g_test_add_data_func(path, &routes[i], test_route);
        g_free(path);
    }
    for (i = 0; i < G_N_ELEMENTS(windows); i++) {
        char *path = g_strdup_printf("/pci-bridge/window/%s",
                                     windows[i].name);

        g_test_add_data_func(path, &windows[i], test_window);
        g_free(path);
    }
    g_test_add_func("/pci-bridge/window-registers", test_window_registers);
    g_test_add_func("/pci-bridge/swizzle", test_swizzle);
    return g_test_run();
}
