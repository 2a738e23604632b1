/*
 * The "IDE" bus (include/hw/ide/ide-bus.h): one per channel of an IDE or
 * AHCI controller, holding the channel's register model; its "ide" port
 * regions answer as QEMU 7.2's port lists (ide_portio_list and
 * ide_portio2_list there: the taskfile bytes, the data register as a word
 * and a dword, the alternate status / device control byte).
 */
#include "hw/ide/ide-bus.h"

/*
 * The software reset runs on the main loop's next turn, before it reads
 * more input, as 7.2's bottom half (a high-priority idle source)
 */
static gboolean ide_bus_srst_cb(gpointer opaque)
{
    IDEBus *bus = opaque;

    g_mutex_lock(bus->lock);
    if (bus->srst_pending) {
        bus->srst_pending = false;
        ide_channel_run_srst(&bus->ch);
    }
    g_mutex_unlock(bus->lock);
    /* the controller (which holds the lock) and its bus may go now */
    object_unref(OBJECT(BUS(bus)->parent));
    object_unref(OBJECT(bus));
    return G_SOURCE_REMOVE;
}

/* Called with the controller's lock held */
static void ide_bus_schedule_srst(void *opaque)
{
    IDEBus *bus = opaque;

    if (!bus->srst_pending) {
        bus->srst_pending = true;
        object_ref(OBJECT(bus));
        object_ref(OBJECT(BUS(bus)->parent));
        g_idle_add_full(G_PRIORITY_HIGH, ide_bus_srst_cb, bus, NULL);
    }
}

/* The command block: 8 ports --------------------------------------------- */

static uint64_t ide_cmd_read(void *opaque, hwaddr addr, unsigned size)
{
    IDEBus *bus = opaque;
    uint64_t v;

    g_mutex_lock(bus->lock);
    if (size == 1 || (addr == 0 && size <= 4 && size != 3)) {
        v = addr == 0 && size > 1 ? ide_channel_read_data(&bus->ch, size)
                                  : ide_channel_read(&bus->ch, addr);
    } else if (size == 2) {
        v = ide_channel_read(&bus->ch, addr);
        v |= addr + 1 < 8 ? (uint64_t)ide_channel_read(&bus->ch, addr + 1) << 8
                          : 0xff00;
    } else {
        v = size >= 8 ? UINT64_MAX : (1ULL << (size * 8)) - 1;
    }
    g_mutex_unlock(bus->lock);
    return v;
}

static void ide_cmd_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    IDEBus *bus = opaque;

    g_mutex_lock(bus->lock);
    if (addr == 0 && (size == 2 || size == 4)) {
        ide_channel_write_data(&bus->ch, val, size);
    } else if (size == 1 && addr < 8) {
        ide_channel_write(&bus->ch, addr, val);
    } else if (size == 2 && addr < 8) {
        ide_channel_write(&bus->ch, addr, val);
        if (addr + 1 < 8) {
            ide_channel_write(&bus->ch, addr + 1, val >> 8);
        }
    }
    g_mutex_unlock(bus->lock);
}

static const MemoryRegionOps ide_cmd_ops = {
    .read = ide_cmd_read,
    .write = ide_cmd_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.unaligned = true,
    .impl.unaligned = true,
    .impl.max_access_size = 4,
};

/* Alternate status / device control: 1 port ----------------------------- */

static uint64_t ide_ctl_read(void *opaque, hwaddr addr, unsigned size)
{
    IDEBus *bus = opaque;
    uint64_t v;

    if (addr != 0 || size > 2) {
        return size >= 8 ? UINT64_MAX : (1ULL << (size * 8)) - 1;
    }
    g_mutex_lock(bus->lock);
    v = ide_channel_read_alt_status(&bus->ch);
    g_mutex_unlock(bus->lock);
    return size == 2 ? v | 0xff00 : v;
}

static void ide_ctl_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    IDEBus *bus = opaque;

    if (addr != 0 || size > 2) {
        return;
    }
    g_mutex_lock(bus->lock);
    ide_channel_write_devctl(&bus->ch, val);
    g_mutex_unlock(bus->lock);
}

static const MemoryRegionOps ide_ctl_ops = {
    .read = ide_ctl_read,
    .write = ide_ctl_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.unaligned = true,
    .impl.unaligned = true,
    .impl.max_access_size = 4,
};

/* The bus --------------------------------------------------------------- */

IDEBus *ide_bus_new(DeviceState *parent, GMutex *lock,
                    void (*set_irq)(void *, int), void *opaque)
{
    IDEBus *bus = IDE_BUS(qbus_new(TYPE_IDE_BUS, parent, NULL));

    bus->lock = lock;
    ide_channel_init(&bus->ch, set_irq, opaque, ide_bus_schedule_srst, bus);
    return bus;
}

void ide_bus_map_ports(IDEBus *bus, MemoryRegion *io, uint16_t iobase,
                       uint16_t iobase2)
{
    /* 7.2's port lists have no owner: the regions are the machine's */
    memory_region_init_io(&bus->cmd_io, NULL, &ide_cmd_ops, bus, "ide", 8);
    memory_region_init_io(&bus->ctl_io, NULL, &ide_ctl_ops, bus, "ide", 1);
    memory_region_add_subregion(io, iobase, &bus->cmd_io);
    memory_region_add_subregion(io, iobase2, &bus->ctl_io);
}

void ide_bus_unmap_ports(IDEBus *bus)
{
    if (bus->cmd_io.container) {
        memory_region_del_subregion(bus->cmd_io.container, &bus->cmd_io);
    }
    if (bus->ctl_io.container) {
        memory_region_del_subregion(bus->ctl_io.container, &bus->ctl_io);
    }
}

static const TypeInfo ide_bus_info = {
    .name = TYPE_IDE_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(IDEBus),
};

static void ide_bus_register_types(void)
{
    type_register_static(&ide_bus_info);
}
type_init(ide_bus_register_types)
