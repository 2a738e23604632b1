/*
 * Reset control register (0xcf9), as QEMU 7.2's PIIX3 and ICH9-LPC have
 * it: writing bit 2 (RST_CPU) resets the system (Linux's reboot=pci, and
 * the FADT's RESET_REG) and leaves the register as it was; any other
 * write stores the owner's bits — SYS_RST (bit 1) on PIIX3, SYS_RST and
 * FULL_RST (bit 3) on ICH9 — which read back until the next reset.
 */
#include "hw/isa/reset-control.h"
#include "sysemu/runstate.h"

static uint64_t reset_control_read(void *opaque, hwaddr addr, unsigned size)
{
    ResetControl *rc = opaque;
    uint8_t v;

    g_mutex_lock(&rc->lock);
    v = rc->value;
    g_mutex_unlock(&rc->lock);
    return v;
}

static void reset_control_write(void *opaque, hwaddr addr, uint64_t value,
                                unsigned size)
{
    ResetControl *rc = opaque;

    if (value & RESET_CONTROL_RST_CPU) {
        qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
        return;
    }
    g_mutex_lock(&rc->lock);
    rc->value = value & rc->keep;
    g_mutex_unlock(&rc->lock);
}

static const MemoryRegionOps reset_control_ops = {
    .read = reset_control_read,
    .write = reset_control_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

void reset_control_init(ResetControl *rc, Object *owner, const char *name,
                        uint8_t keep, MemoryRegion *io_space)
{
    g_mutex_init(&rc->lock);
    rc->value = 0;
    rc->keep = keep;
    memory_region_init_io(&rc->io, owner, &reset_control_ops, rc, name, 1);
    memory_region_add_subregion_overlap(io_space, RESET_CONTROL_IOPORT,
                                        &rc->io, 1);
}

void reset_control_destroy(ResetControl *rc, MemoryRegion *io_space)
{
    memory_region_del_subregion(io_space, &rc->io);
    g_mutex_clear(&rc->lock);
}

void reset_control_reset(ResetControl *rc)
{
    g_mutex_lock(&rc->lock);
    rc->value = 0;
    g_mutex_unlock(&rc->lock);
}
