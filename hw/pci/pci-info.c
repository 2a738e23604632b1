/*
 * QMP query-pci and HMP info pci (docs/devices.md, "PCI"): what each
 * function of each PCI bus is, as QEMU 7.2 reports it.  The reply is read
 * from the functions' configuration space (IDs, class, interrupt pin and
 * line) and from the core's BAR state (where a BAR is mapped: -1 until
 * the guest enables decoding), so it tells what the guest has programmed.
 */
#include <json-glib/json-glib.h>

#include "hw/pci/pci_bridge.h"
#include "monitor/hmp.h"
#include "monitor/qmp-commands.h"

/* QEMU 7.2's names of class codes; classes not listed have no "desc" */
static const struct {
    uint16_t class;
    const char *desc;
} pci_class_names[] = {
    { 0x0001, "VGA controller" },
    { 0x0100, "SCSI controller" },
    { 0x0101, "IDE controller" },
    { 0x0102, "Floppy controller" },
    { 0x0103, "IPI controller" },
    { 0x0104, "RAID controller" },
    { 0x0106, "SATA controller" },
    { 0x0107, "SAS controller" },
    { 0x0180, "Storage controller" },
    { 0x0200, "Ethernet controller" },
    { 0x0201, "Token Ring controller" },
    { 0x0202, "FDDI controller" },
    { 0x0203, "ATM controller" },
    { 0x0280, "Network controller" },
    { 0x0300, "VGA controller" },
    { 0x0301, "XGA controller" },
    { 0x0302, "3D controller" },
    { 0x0380, "Display controller" },
    { 0x0400, "Video controller" },
    { 0x0401, "Audio controller" },
    { 0x0402, "Phone" },
    { 0x0403, "Audio controller" },
    { 0x0480, "Multimedia controller" },
    { 0x0500, "RAM controller" },
    { 0x0501, "Flash controller" },
    { 0x0580, "Memory controller" },
    { 0x0600, "Host bridge" },
    { 0x0601, "ISA bridge" },
    { 0x0602, "EISA bridge" },
    { 0x0603, "MC bridge" },
    { 0x0604, "PCI bridge" },
    { 0x0605, "PCMCIA bridge" },
    { 0x0606, "NUBUS bridge" },
    { 0x0607, "CARDBUS bridge" },
    { 0x0608, "RACEWAY bridge" },
    { 0x0680, "Bridge" },
    { 0x0700, "Serial port" },
    { 0x0701, "Parallel port" },
    { 0x0800, "Interrupt controller" },
    { 0x0801, "DMA controller" },
    { 0x0802, "Timer" },
    { 0x0803, "RTC" },
    { 0x0900, "Keyboard" },
    { 0x0901, "Pen" },
    { 0x0902, "Mouse" },
    { 0x0a00, "Dock station" },
    { 0x0b00, "i386 cpu" },
    { 0x0c00, "Firewire controller" },
    { 0x0c01, "Access bus controller" },
    { 0x0c02, "SSA controller" },
    { 0x0c03, "USB controller" },
    { 0x0c04, "Fibre channel controller" },
    { 0x0c05, "SMBus" },
};

const char *pci_class_desc(uint16_t class)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(pci_class_names); i++) {
        if (pci_class_names[i].class == class) {
            return pci_class_names[i].desc;
        }
    }
    return NULL;
}

/* One BAR (or the ROM, bar 6) as PciMemoryRegion */
static JsonObject *pci_region_info(const PCIIORegion *r, int bar)
{
    JsonObject *o = json_object_new();

    json_object_set_int_member(o, "bar", bar);
    if (r->type & PCI_BASE_ADDRESS_SPACE_IO) {
        json_object_set_string_member(o, "type", "io");
    } else {
        json_object_set_string_member(o, "type", "memory");
    }
    /* PCI_BAR_UNMAPPED is all-ones: -1 as QEMU's int64 */
    json_object_set_int_member(o, "address", (int64_t)r->addr);
    json_object_set_int_member(o, "size", (int64_t)r->size);
    if (!(r->type & PCI_BASE_ADDRESS_SPACE_IO)) {
        json_object_set_boolean_member(o, "prefetch",
                                       r->type & PCI_BASE_ADDRESS_MEM_PREFETCH);
        json_object_set_boolean_member(o, "mem_type_64",
                                       r->type & PCI_BASE_ADDRESS_MEM_TYPE_64);
    }
    return o;
}

static JsonArray *pci_devices_info(PCIBus *bus, int bus_num);

static JsonObject *pci_range_info(uint64_t base, uint64_t limit)
{
    JsonObject *o = json_object_new();

    json_object_set_int_member(o, "base", base);
    json_object_set_int_member(o, "limit", limit);
    return o;
}

/*
 * A bridge's PciBridgeInfo: its bus numbers and windows as the registers
 * say; its devices only once the guest gave it a secondary bus number
 * that leads to its bus (QEMU 7.2's rule)
 */
static JsonObject *pci_bridge_info(PCIDevice *dev, PCIBus *bus)
{
    JsonObject *o = json_object_new();
    JsonObject *b = json_object_new();
    uint8_t sec = dev->config[PCI_SECONDARY_BUS];

    json_object_set_int_member(b, "number", dev->config[PCI_PRIMARY_BUS]);
    json_object_set_int_member(b, "secondary", sec);
    json_object_set_int_member(b, "subordinate",
                               dev->config[PCI_SUBORDINATE_BUS]);
    json_object_set_object_member(b, "io_range", pci_range_info(
        pci_bridge_get_base(dev, PCI_BASE_ADDRESS_SPACE_IO),
        pci_bridge_get_limit(dev, PCI_BASE_ADDRESS_SPACE_IO)));
    json_object_set_object_member(b, "memory_range", pci_range_info(
        pci_bridge_get_base(dev, 0), pci_bridge_get_limit(dev, 0)));
    json_object_set_object_member(b, "prefetchable_range", pci_range_info(
        pci_bridge_get_base(dev, PCI_BASE_ADDRESS_MEM_PREFETCH),
        pci_bridge_get_limit(dev, PCI_BASE_ADDRESS_MEM_PREFETCH)));
    json_object_set_object_member(o, "bus", b);
    if (sec) {
        PCIBus *child = pci_find_bus_nr(bus, sec);

        if (child) {
            json_object_set_array_member(o, "devices",
                                         pci_devices_info(child, sec));
        }
    }
    return o;
}

/* One function as PciDeviceInfo; called with the PCI lock held */
static JsonObject *pci_device_info(PCIBus *bus, PCIDevice *dev, int bus_num)
{
    JsonObject *o = json_object_new();
    JsonObject *cls = json_object_new();
    JsonObject *id = json_object_new();
    JsonArray *regions = json_array_new();
    uint16_t class = pci_get_word(dev->config + PCI_CLASS_DEVICE);
    const char *desc = pci_class_desc(class);
    uint8_t pin = dev->config[PCI_INTERRUPT_PIN];
    int i;

    json_object_set_int_member(o, "bus", bus_num);
    json_object_set_int_member(o, "slot", PCI_SLOT(dev->devfn));
    json_object_set_int_member(o, "function", PCI_FUNC(dev->devfn));
    if (desc) {
        json_object_set_string_member(cls, "desc", desc);
    }
    json_object_set_int_member(cls, "class", class);
    json_object_set_object_member(o, "class_info", cls);
    json_object_set_int_member(id, "device",
                               pci_get_word(dev->config + PCI_DEVICE_ID));
    json_object_set_int_member(id, "vendor",
                               pci_get_word(dev->config + PCI_VENDOR_ID));
    if (!PCI_DEVICE_GET_CLASS(dev)->is_bridge) {
        /* a type 0 header's; a type 1 header has none */
        json_object_set_int_member(id, "subsystem",
                                   pci_get_word(dev->config +
                                                PCI_SUBSYSTEM_ID));
        json_object_set_int_member(id, "subsystem-vendor",
                                   pci_get_word(dev->config +
                                                PCI_SUBSYSTEM_VENDOR_ID));
    }
    json_object_set_object_member(o, "id", id);
    if (pin) {
        json_object_set_int_member(o, "irq",
                                   dev->config[PCI_INTERRUPT_LINE]);
    }
    json_object_set_int_member(o, "irq_pin", pin);
    json_object_set_string_member(o, "qdev_id",
                                  dev->qdev.id ? dev->qdev.id : "");
    if (PCI_DEVICE_GET_CLASS(dev)->is_bridge) {
        json_object_set_object_member(o, "pci_bridge",
                                      pci_bridge_info(dev, bus));
    }
    for (i = 0; i < PCI_NUM_REGIONS; i++) {
        if (dev->io_regions[i].size) {
            json_array_add_object_element(regions,
                pci_region_info(&dev->io_regions[i], i));
        }
    }
    json_object_set_array_member(o, "regions", regions);
    return o;
}

static JsonArray *pci_devices_info(PCIBus *bus, int bus_num)
{
    JsonArray *devs = json_array_new();
    int devfn;

    for (devfn = 0; devfn < 256; devfn++) {
        if (bus->devices[devfn]) {
            json_array_add_object_element(devs,
                pci_device_info(bus, bus->devices[devfn], bus_num));
        }
    }
    return devs;
}

JsonNode *qmp_query_pci(Error **errp)
{
    GPtrArray *buses = pci_all_buses();
    JsonArray *arr = json_array_new();
    guint i;

    pci_lock();
    for (i = 0; i < buses->len; i++) {
        PCIBus *bus = g_ptr_array_index(buses, i);
        JsonObject *o;
        JsonArray *devs;

        /* Buses behind bridges are reported inside their bridge */
        if (!pci_bus_is_root(bus)) {
            continue;
        }
        o = json_object_new();
        devs = pci_devices_info(bus, bus->bus_num);
        json_object_set_int_member(o, "bus", bus->bus_num);
        json_object_set_array_member(o, "devices", devs);
        json_array_add_object_element(arr, o);
    }
    pci_unlock();
    return json_node_init_array(json_node_alloc(), arr);
}

/* HMP ------------------------------------------------------------------------ */

static void hmp_pci_device(GString *out, JsonObject *d)
{
    JsonObject *cls = json_object_get_object_member(d, "class_info");
    JsonObject *id = json_object_get_object_member(d, "id");
    JsonArray *regions = json_object_get_array_member(d, "regions");
    guint i;

    g_string_append_printf(out, "  Bus %2" G_GINT64_FORMAT ", device %3"
                           G_GINT64_FORMAT ", function %" G_GINT64_FORMAT
                           ":\r\n",
                           json_object_get_int_member(d, "bus"),
                           json_object_get_int_member(d, "slot"),
                           json_object_get_int_member(d, "function"));
    if (json_object_has_member(cls, "desc")) {
        g_string_append_printf(out, "    %s",
                               json_object_get_string_member(cls, "desc"));
    } else {
        g_string_append_printf(out, "    Class %04" G_GINT64_FORMAT,
                               json_object_get_int_member(cls, "class"));
    }
    g_string_append_printf(out, ": PCI device %04x:%04x\r\n",
                           (unsigned)json_object_get_int_member(id, "vendor"),
                           (unsigned)json_object_get_int_member(id, "device"));
    if (json_object_has_member(id, "subsystem-vendor")) {
        g_string_append_printf(out, "      PCI subsystem %04x:%04x\r\n",
            (unsigned)json_object_get_int_member(id, "subsystem-vendor"),
            (unsigned)json_object_get_int_member(id, "subsystem"));
    }
    if (json_object_has_member(d, "irq")) {
        g_string_append_printf(out, "      IRQ %" G_GINT64_FORMAT
                               ", pin %c\r\n",
                               json_object_get_int_member(d, "irq"),
                               (char)('A' + json_object_get_int_member(
                                          d, "irq_pin") - 1));
    }
    if (json_object_has_member(d, "pci_bridge")) {
        JsonObject *b = json_object_get_object_member(
            json_object_get_object_member(d, "pci_bridge"), "bus");
        JsonObject *io = json_object_get_object_member(b, "io_range");
        JsonObject *mem = json_object_get_object_member(b, "memory_range");
        JsonObject *pref = json_object_get_object_member(
            b, "prefetchable_range");

        g_string_append_printf(out, "      BUS %" G_GINT64_FORMAT ".\r\n",
                               json_object_get_int_member(b, "number"));
        g_string_append_printf(out, "      secondary bus %" G_GINT64_FORMAT
                               ".\r\n",
                               json_object_get_int_member(b, "secondary"));
        g_string_append_printf(out, "      subordinate bus %" G_GINT64_FORMAT
                               ".\r\n",
                               json_object_get_int_member(b, "subordinate"));
        g_string_append_printf(out, "      IO range [0x%04" G_GINT64_MODIFIER
                               "x, 0x%04" G_GINT64_MODIFIER "x]\r\n",
                               json_object_get_int_member(io, "base"),
                               json_object_get_int_member(io, "limit"));
        g_string_append_printf(out, "      memory range [0x%08"
                               G_GINT64_MODIFIER "x, 0x%08" G_GINT64_MODIFIER
                               "x]\r\n",
                               json_object_get_int_member(mem, "base"),
                               json_object_get_int_member(mem, "limit"));
        g_string_append_printf(out, "      prefetchable memory range [0x%08"
                               G_GINT64_MODIFIER "x, 0x%08" G_GINT64_MODIFIER
                               "x]\r\n",
                               json_object_get_int_member(pref, "base"),
                               json_object_get_int_member(pref, "limit"));
    }
    for (i = 0; i < json_array_get_length(regions); i++) {
        JsonObject *r = json_array_get_object_element(regions, i);
        uint64_t addr = json_object_get_int_member(r, "address");
        uint64_t size = json_object_get_int_member(r, "size");
        int64_t bar = json_object_get_int_member(r, "bar");

        if (!strcmp(json_object_get_string_member(r, "type"), "io")) {
            g_string_append_printf(out, "      BAR%" G_GINT64_FORMAT
                                   ": I/O at 0x%04" G_GINT64_MODIFIER "x"
                                   " [0x%04" G_GINT64_MODIFIER "x].\r\n",
                                   bar, addr, addr + size - 1);
        } else {
            g_string_append_printf(out, "      BAR%" G_GINT64_FORMAT
                                   ": %s bit%s memory at 0x%08"
                                   G_GINT64_MODIFIER "x [0x%08"
                                   G_GINT64_MODIFIER "x].\r\n", bar,
                                   json_object_get_boolean_member(
                                       r, "mem_type_64") ? "64" : "32",
                                   json_object_get_boolean_member(
                                       r, "prefetch") ? " prefetchable" : "",
                                   addr, addr + size - 1);
        }
    }
    g_string_append_printf(out, "      id \"%s\"\r\n",
                           json_object_get_string_member(d, "qdev_id"));
    if (json_object_has_member(d, "pci_bridge")) {
        JsonObject *b = json_object_get_object_member(d, "pci_bridge");

        if (json_object_has_member(b, "devices")) {
            JsonArray *devs = json_object_get_array_member(b, "devices");

            for (i = 0; i < json_array_get_length(devs); i++) {
                hmp_pci_device(out, json_array_get_object_element(devs, i));
            }
        }
    }
}

void hmp_info_pci(GString *out, JsonArray *buses)
{
    guint i, j;

    for (i = 0; i < json_array_get_length(buses); i++) {
        JsonArray *devs = json_object_get_array_member(
            json_array_get_object_element(buses, i), "devices");

        for (j = 0; j < json_array_get_length(devs); j++) {
            hmp_pci_device(out, json_array_get_object_element(devs, j));
        }
    }
}
