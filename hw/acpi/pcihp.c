/*
 * ACPI PCI hotplug (include/hw/acpi/pcihp.h), as QEMU 7.2's PIIX4_PM and
 * ICH9-LPC have it.
 *
 * An eject the guest writes takes the device away on the main thread (a
 * write from a vCPU thread hands it over), where device_add/del run.
 */
#include <string.h>

#include "hw/acpi/pcihp.h"
#include "hw/pci/pci_bridge.h"
#include "hw/pci/pcie.h"

/* State ------------------------------------------------------------------ */

#define PCIHP_UP 0x00
#define PCIHP_DOWN 0x04
#define PCIHP_EJ 0x08
#define PCIHP_RMV 0x0c
#define PCIHP_SEL 0x10
#define PCIHP_AIDX 0x14

/* systemd's cap, which 7.2 applies */
#define PCIHP_ACPI_INDEX_MAX (16 * 1024 - 1)

static AcpiPciHpState *board_pcihp;
static bool bsel_assigned;      /* once per run, as 7.2's */

static const HotplugHandlerOps acpi_pcihp_hotplug_ops;

/* Buses ------------------------------------------------------------------ */

typedef void PCIBusFunc(PCIBus *bus, void *opaque);

/* bus, then the buses behind its bridges, newest bridge first (7.2's) */
static void pcihp_for_each_bus(PCIBus *bus, PCIBusFunc *fn, void *opaque)
{
    GPtrArray *kids = BUS(bus)->children;
    guint i;

    fn(bus, opaque);
    for (i = 0; i < kids->len; i++) {
        DeviceState *d = ((BusChild *)g_ptr_array_index(kids, i))->child;

        if (PCI_DEVICE_GET_CLASS(d)->is_bridge && PCI_BRIDGE(d)->sec_bus) {
            pcihp_for_each_bus(PCI_BRIDGE(d)->sec_bus, fn, opaque);
        }
    }
}

static JsonNode *pcihp_uint_get(Object *obj, ObjectProperty *prop,
                                Error **errp)
{
    return json_node_init_int(json_node_alloc(), prop->opaque);
}

static int pcihp_bsel(PCIBus *bus)
{
    ObjectProperty *p = object_property_find(OBJECT(bus),
                                             ACPI_PCIHP_PROP_BSEL);

    return p && p->opaque < ACPI_PCIHP_MAX_HOTPLUG_BUS ? (int)p->opaque : -1;
}

static void pcihp_set_bsel(PCIBus *bus, void *opaque)
{
    unsigned *next = opaque;
    ObjectProperty *p;

    if (qbus_is_hotpluggable(BUS(bus))) {
        p = object_property_add(OBJECT(bus), ACPI_PCIHP_PROP_BSEL, "uint32",
                                pcihp_uint_get, NULL);
        p->opaque = (*next)++;
    }
}

/*
 * The hot-pluggable bus of bsel (0: the root bus if none has it).  Walks
 * the buses through their devices[] under the PCI lock, which device_add
 * and device_del take too: a vCPU thread may ask.
 */
static PCIBus *pcihp_find_bus_in(PCIBus *bus, int bsel)
{
    PCIBus *found = pcihp_bsel(bus) == bsel ? bus : NULL;
    guint i;

    for (i = 0; !found && i < G_N_ELEMENTS(bus->devices); i++) {
        PCIDevice *d = bus->devices[i];

        if (d && PCI_DEVICE_GET_CLASS(d)->is_bridge &&
            PCI_BRIDGE(d)->sec_bus) {
            found = pcihp_find_bus_in(PCI_BRIDGE(d)->sec_bus, bsel);
        }
    }
    return found;
}

static PCIBus *pcihp_find_bus_locked(AcpiPciHpState *s, int bsel)
{
    PCIBus *bus;

    if (bsel < 0) {
        return NULL;
    }
    bus = pcihp_find_bus_in(s->root, bsel);
    if (!bsel && !bus) {
        bus = s->root;
    }
    return bus && qbus_is_hotpluggable(BUS(bus)) ? bus : NULL;
}

/* What the guest may not eject: 7.2's list */
static bool pcihp_no_hotplug(PCIDevice *d)
{
    return (PCI_DEVICE_GET_CLASS(d)->is_bridge && !DEVICE(d)->hotplugged) ||
           !DEVICE_GET_CLASS(d)->hotpluggable;
}

static int pcihp_slot(PCIDevice *d)
{
    return (d->devfn >> 3) & 0x1f;
}

/* Eject ------------------------------------------------------------------ */

/* The devices of the lowest slot in slots on bus bsel (main thread) */
static void pcihp_eject(AcpiPciHpState *s, unsigned bsel, uint32_t slots)
{
    int slot = slots ? __builtin_ctz(slots) : 32;
    PCIBus *bus;
    GPtrArray *kids;
    guint i;

    pci_lock();
    bus = pcihp_find_bus_locked(s, bsel);
    pci_unlock();
    if (!bus || slot > 31) {
        return;
    }
    g_mutex_lock(&s->lock);
    s->status[bsel].down &= ~(1u << slot);
    s->status[bsel].up &= ~(1u << slot);
    g_mutex_unlock(&s->lock);
    kids = BUS(bus)->children;
    for (i = kids->len; i-- > 0;) {
        PCIDevice *d = (PCIDevice *)((BusChild *)g_ptr_array_index(kids, i))
                           ->child;

        if (pcihp_slot(d) == slot && !pcihp_no_hotplug(d)) {
            qdev_unplug_complete(DEVICE(d));
            i = MIN(i, kids->len);
        }
    }
}

typedef struct PCIHpEject {
    AcpiPciHpState *s;
    unsigned bsel;
    uint32_t slots;
} PCIHpEject;

static gboolean pcihp_eject_cb(gpointer opaque)
{
    PCIHpEject *e = opaque;

    if (board_pcihp == e->s) {
        pcihp_eject(e->s, e->bsel, e->slots);
    }
    g_free(e);
    return G_SOURCE_REMOVE;
}

static void pcihp_eject_request(AcpiPciHpState *s, unsigned bsel,
                                uint32_t slots)
{
    PCIHpEject *e;

    if (g_main_context_is_owner(g_main_context_default())) {
        pcihp_eject(s, bsel, slots);
        return;
    }
    e = g_new(PCIHpEject, 1);
    e->s = s;
    e->bsel = bsel;
    e->slots = slots;
    g_idle_add_full(G_PRIORITY_HIGH, pcihp_eject_cb, e, NULL);
}

/* Register read/write ---------------------------------------------------- */

static uint64_t pcihp_read(void *opaque, hwaddr addr, unsigned size)
{
    AcpiPciHpState *s = opaque;
    uint32_t bsel, v = 0;

    g_mutex_lock(&s->lock);
    bsel = s->hotplug_select;
    if (bsel >= ACPI_PCIHP_MAX_HOTPLUG_BUS) {
        g_mutex_unlock(&s->lock);
        return 0;
    }
    switch (addr) {
    case PCIHP_UP:
        v = s->status[bsel].up;
        if (!s->legacy_piix) {
            s->status[bsel].up = 0;
        }
        break;
    case PCIHP_DOWN:
        v = s->status[bsel].down;
        break;
    case PCIHP_RMV:
        v = s->status[bsel].hotplug_enable;
        break;
    case PCIHP_SEL:
        v = s->hotplug_select;
        break;
    case PCIHP_AIDX:
        v = s->acpi_index;
        s->acpi_index = 0;
        break;
    default:
        break;
    }
    g_mutex_unlock(&s->lock);
    return v;
}

/*
 * PCIAIDX write: the acpi-index of the device in the slot, for the read.
 * 7.2 takes the slot's newest device; functions are made in order, so
 * that is the highest one here.
 */
static uint32_t pcihp_acpi_index_of(AcpiPciHpState *s, uint32_t bsel,
                                    uint32_t data)
{
    int slot = data ? __builtin_ctz(data) : 32;
    uint32_t index = 0;
    PCIBus *bus;
    int fn;

    pci_lock();
    bus = pcihp_find_bus_locked(s, bsel);
    for (fn = 7; bus && slot < 32 && fn >= 0; fn--) {
        PCIDevice *d = bus->devices[slot << 3 | fn];

        if (d) {
            index = d->acpi_index;
            break;
        }
    }
    pci_unlock();
    return index;
}

static void pcihp_write(void *opaque, hwaddr addr, uint64_t data,
                        unsigned size)
{
    AcpiPciHpState *s = opaque;
    uint32_t bsel, index;

    g_mutex_lock(&s->lock);
    s->acpi_index = 0;
    bsel = s->hotplug_select;
    g_mutex_unlock(&s->lock);
    switch (addr) {
    case PCIHP_AIDX:
        if (bsel < ACPI_PCIHP_MAX_HOTPLUG_BUS) {
            index = pcihp_acpi_index_of(s, bsel, data);
            g_mutex_lock(&s->lock);
            s->acpi_index = index;
            g_mutex_unlock(&s->lock);
        }
        break;
    case PCIHP_EJ:
        if (bsel < ACPI_PCIHP_MAX_HOTPLUG_BUS) {
            pcihp_eject_request(s, bsel, data);
        }
        break;
    case PCIHP_SEL:
        g_mutex_lock(&s->lock);
        s->hotplug_select = s->legacy_piix ? 0 : data;
        g_mutex_unlock(&s->lock);
        break;
    default:
        break;
    }
}

static const MemoryRegionOps pcihp_ops = {
    .read = pcihp_read,
    .write = pcihp_write,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Hot-plug handler ------------------------------------------------------- */

static bool pcihp_acpi_index_taken(PCIBus *bus, PCIDevice *self,
                                   uint32_t index)
{
    guint i;

    for (i = 0; i < G_N_ELEMENTS(bus->devices); i++) {
        PCIDevice *d = bus->devices[i];

        if (!d || d == self) {
            continue;
        }
        if (d->acpi_index == index ||
            (PCI_DEVICE_GET_CLASS(d)->is_bridge && PCI_BRIDGE(d)->sec_bus &&
             pcihp_acpi_index_taken(PCI_BRIDGE(d)->sec_bus, self, index))) {
            return true;
        }
    }
    return false;
}

/*
 * QEMU 7.2's pci_get_function_0 where a device is about to be placed, the
 * devfn as given (-1, not yet chosen, counts as slot 31): behind a PCIe
 * root or downstream port only function 0 of slot 0 counts
 */
static PCIDevice *pcihp_function_0_at(PCIBus *bus, int devfn)
{
    PCIDevice *port = bus->parent_dev;

    if (port && port->exp_cap) {
        uint8_t type = (pci_get_word(port->config + port->exp_cap +
                                     PCI_EXP_FLAGS) >> 4) & 0xf;

        if (type == PCI_EXP_TYPE_ROOT_PORT ||
            type == PCI_EXP_TYPE_DOWNSTREAM) {
            return bus->devices[0];
        }
    }
    return bus->devices[PCI_DEVFN((devfn >> 3) & 0x1f, 0)];
}

/*
 * A hot-plugged function the guest would not see: 7.2 refuses it when it
 * places the device, after the free-slot and in-use checks (left to
 * pci_place, which makes them the same way)
 */
static bool pcihp_check_function_0(PCIDevice *d, PCIBus *bus, Error **errp)
{
    PCIDevice *f0;
    int i = 0;

    if (d->devfn >= 0 && bus->devices[d->devfn]) {
        return true;
    }
    while (d->devfn < 0 && i < 256 && bus->devices[i]) {
        i += 8;
    }
    if (i >= 256) {
        return true;
    }
    f0 = pcihp_function_0_at(bus, d->devfn);
    if (f0) {
        error_setg(errp, "PCI: slot %d function 0 already occupied by %s, "
                   "new func %s cannot be exposed to guest.",
                   PCI_SLOT(f0->devfn), object_get_typename(OBJECT(f0)),
                   object_get_typename(OBJECT(d)));
        return false;
    }
    return true;
}

static bool pcihp_pre_plug(Object *handler, DeviceState *dev, Error **errp)
{
    PCIDevice *d = (PCIDevice *)dev;
    AcpiPciHpState *s = board_pcihp;
    bool taken, ok = true;

    if (dev->hotplugged && pcihp_bsel(PCI_BUS(dev->parent_bus)) < 0) {
        error_setg(errp, "Unsupported bus. Bus doesn't have property '"
                   ACPI_PCIHP_PROP_BSEL "' set");
        return false;
    }
    if (d->acpi_index > PCIHP_ACPI_INDEX_MAX) {
        error_setg(errp, "acpi-index should be less or equal to %u",
                   PCIHP_ACPI_INDEX_MAX);
        return false;
    }
    pci_lock();
    taken = d->acpi_index && s &&
            pcihp_acpi_index_taken(s->root, d, d->acpi_index);
    pci_unlock();
    if (taken) {
        error_setg(errp, "a PCI device with acpi-index = %u already exist",
                   d->acpi_index);
        return false;
    }
    if (dev->hotplugged) {
        pci_lock();
        ok = pcihp_check_function_0(d, PCI_BUS(dev->parent_bus), errp);
        pci_unlock();
    }
    return ok;
}

static bool pcihp_plug(Object *handler, DeviceState *dev, Error **errp)
{
    AcpiPciHpState *s = board_pcihp;
    PCIDevice *d = (PCIDevice *)dev;
    PCIBus *bus = PCI_BUS(dev->parent_bus);
    int bsel;

    if (!dev->hotplugged) {
        /* Coldplugged bridges' buses are ACPI's too (not legacy PIIX) */
        if (s && !s->legacy_piix && PCI_DEVICE_GET_CLASS(d)->is_bridge &&
            PCI_BRIDGE(d)->sec_bus) {
            BusState *sec = BUS(PCI_BRIDGE(d)->sec_bus);

            if (object_dynamic_cast(OBJECT(d), TYPE_PCIE_SLOT) &&
                !PCIE_SLOT(d)->hotplug) {
                qbus_set_hotplug_handler(sec, NULL, NULL);
            } else {
                qbus_set_hotplug_handler(sec, handler,
                                         &acpi_pcihp_hotplug_ops);
            }
        }
        return true;
    }
    if (!s) {
        return true;
    }
    if (bus->parent_dev &&
        object_dynamic_cast(OBJECT(bus->parent_dev), TYPE_PCIE_SLOT)) {
        pcie_cap_slot_enable_power(bus->parent_dev);
    }
    bsel = pcihp_bsel(bus);
    g_mutex_lock(&s->lock);
    s->status[bsel].up |= 1u << pcihp_slot(d);
    g_mutex_unlock(&s->lock);
    acpi_pm_block_gpe_event(s->block, ACPI_GPE_PCI_HOTPLUG);
    return true;
}

static bool pcihp_unplug_request(Object *handler, DeviceState *dev,
                                 Error **errp)
{
    AcpiPciHpState *s = board_pcihp;
    int bsel = pcihp_bsel(PCI_BUS(dev->parent_bus));

    if (bsel < 0 || !s) {
        error_setg(errp, "Unsupported bus. Bus doesn't have property '"
                   ACPI_PCIHP_PROP_BSEL "' set");
        return false;
    }
    dev->pending_deletion_event = true;
    g_mutex_lock(&s->lock);
    s->status[bsel].down |= 1u << pcihp_slot((PCIDevice *)dev);
    g_mutex_unlock(&s->lock);
    acpi_pm_block_gpe_event(s->block, ACPI_GPE_PCI_HOTPLUG);
    return true;
}

static const HotplugHandlerOps acpi_pcihp_hotplug_ops = {
    .pre_plug = pcihp_pre_plug,
    .plug = pcihp_plug,
    .unplug_request = pcihp_unplug_request,
};

void acpi_pcihp_own_bus(Object *owner, PCIBus *bus)
{
    qbus_set_hotplug_handler(BUS(bus), owner, &acpi_pcihp_hotplug_ops);
}

/* Reset ------------------------------------------------------------------ */

/* Pending ejects done; which slots' devices may go */
static void pcihp_update_bus(AcpiPciHpState *s, int bsel)
{
    PCIBus *bus;
    GPtrArray *kids;
    uint32_t enable = ~0u;
    guint i;

    while (s->status[bsel].down) {
        uint32_t down = s->status[bsel].down;

        pcihp_eject(s, bsel, down);
        if (s->status[bsel].down == down) {
            s->status[bsel].down &= down - 1;   /* no such bus: drop it */
        }
    }
    pci_lock();
    bus = pcihp_find_bus_locked(s, bsel);
    pci_unlock();
    if (bus) {
        kids = BUS(bus)->children;
        for (i = 0; i < kids->len; i++) {
            PCIDevice *d = (PCIDevice *)((BusChild *)g_ptr_array_index(
                                             kids, i))->child;

            if (pcihp_no_hotplug(d)) {
                enable &= ~(1u << pcihp_slot(d));
            }
        }
    }
    g_mutex_lock(&s->lock);
    s->status[bsel].hotplug_enable = enable;
    g_mutex_unlock(&s->lock);
}

static void pcihp_mark_bsel(PCIBus *bus, void *opaque)
{
    bool *present = opaque;
    int bsel = pcihp_bsel(bus);

    if (bsel >= 0) {
        present[bsel] = true;
    }
}

void acpi_pcihp_reset(AcpiPciHpState *s, bool root_off)
{
    bool present[ACPI_PCIHP_MAX_HOTPLUG_BUS];
    unsigned next = 0;
    int i;

    if (root_off && qbus_is_hotpluggable(BUS(s->root))) {
        qbus_set_hotplug_handler(BUS(s->root), NULL, NULL);
    }
    if (!bsel_assigned) {
        bsel_assigned = true;
        pcihp_for_each_bus(s->root, pcihp_set_bsel, &next);
    }
    /*
     * Only the numbers some bus carries (and 0, the root's fallback) need
     * a walk of the buses; every other one has no bus, so no slot is
     * held back
     */
    memset(present, 0, sizeof(present));
    present[0] = true;
    pci_lock();
    pcihp_for_each_bus(s->root, pcihp_mark_bsel, present);
    pci_unlock();
    for (i = 0; i < ACPI_PCIHP_MAX_HOTPLUG_BUS; i++) {
        if (present[i]) {
            pcihp_update_bus(s, i);
        } else {
            g_mutex_lock(&s->lock);
            s->status[i].hotplug_enable = ~0u;
            g_mutex_unlock(&s->lock);
        }
    }
}

/* Realize ---------------------------------------------------------------- */

static void pcihp_add_uint16(Object *owner, const char *name, uint16_t v)
{
    ObjectProperty *p = object_property_add(owner, name, "uint16",
                                            pcihp_uint_get, NULL);

    p->opaque = v;
}

bool acpi_pcihp_realize(AcpiPciHpState *s, Object *owner, AcpiPMBlock *block,
                        PCIBus *root, bool bridges, uint16_t io_base,
                        Error **errp)
{
    if (board_pcihp) {
        error_setg(errp, "ACPI PCI hotplug: the board has one already");
        return false;
    }
    g_mutex_init(&s->lock);
    s->owner = owner;
    s->block = block;
    s->root = root;
    s->legacy_piix = !bridges;
    s->io_base = io_base;
    s->io_len = ACPI_PCIHP_SIZE;
    memory_region_init_io(&s->io, owner, &pcihp_ops, s, "acpi-pci-hotplug",
                          ACPI_PCIHP_SIZE);
    memory_region_add_subregion(get_system_io(), io_base, &s->io);
    pcihp_add_uint16(owner, "acpi-pcihp-io-base", io_base);
    pcihp_add_uint16(owner, "acpi-pcihp-io-len", ACPI_PCIHP_SIZE);
    s->realized = true;
    board_pcihp = s;
    return true;
}

void acpi_pcihp_unrealize(AcpiPciHpState *s)
{
    if (!s->realized) {
        return;
    }
    memory_region_del_subregion(get_system_io(), &s->io);
    object_property_del(s->owner, "acpi-pcihp-io-base");
    object_property_del(s->owner, "acpi-pcihp-io-len");
    if (board_pcihp == s) {
        board_pcihp = NULL;
    }
    s->realized = false;
    g_mutex_clear(&s->lock);
}
