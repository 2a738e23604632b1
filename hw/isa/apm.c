/*
 * APM control (APMC, 0xb2) and status (APMS, 0xb3), as QEMU 7.2's: both
 * are plain bytes that read back what was written, a write of APMC is
 * handed to the owner (which enables or disables ACPI mode, or raises an
 * SMI), and neither changes on reset.  Every access is a byte access; a
 * wider one is split.
 */
#include "hw/isa/apm.h"

static uint64_t apm_read(void *opaque, hwaddr addr, unsigned size)
{
    APMState *apm = opaque;
    uint8_t v;

    g_mutex_lock(&apm->lock);
    v = (addr & 1) ? apm->apms : apm->apmc;
    g_mutex_unlock(&apm->lock);
    return v;
}

static void apm_write(void *opaque, hwaddr addr, uint64_t value,
                      unsigned size)
{
    APMState *apm = opaque;

    g_mutex_lock(&apm->lock);
    if (addr & 1) {
        apm->apms = value;
    } else {
        apm->apmc = value;
    }
    g_mutex_unlock(&apm->lock);
    if (!(addr & 1) && apm->callback) {
        apm->callback(value & 0xff, apm->opaque);
    }
}

static const MemoryRegionOps apm_ops = {
    .read = apm_read,
    .write = apm_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

void apm_init(APMState *apm, Object *owner, MemoryRegion *io_space,
              APMCtrlChanged *callback, void *opaque)
{
    g_mutex_init(&apm->lock);
    apm->callback = callback;
    apm->opaque = opaque;
    memory_region_init_io(&apm->io, owner, &apm_ops, apm, "apm-io", 2);
    memory_region_add_subregion(io_space, APM_CNT_IOPORT, &apm->io);
}

void apm_destroy(APMState *apm, MemoryRegion *io_space)
{
    memory_region_del_subregion(io_space, &apm->io);
    g_mutex_clear(&apm->lock);
}
