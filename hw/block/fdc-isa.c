/*
 * isa-fdc: the PC's floppy disk controller on the ISA bus (QEMU 7.2's
 * hw/block/fdc-isa.c face): ports iobase+1..+5 and iobase+7 as two "fdc"
 * regions (port iobase itself, the status register A, is not decoded),
 * byte registers of 7.2's portio kind: a 2-byte access is two byte
 * accesses (the second all-ones past the region), a 4-byte one reads
 * all-ones and writes nothing.  IRQ `irq` (6), DMA channel `dma` (2; -1
 * for none), and a "floppy-bus" for drives.  fdtypeA/fdtypeB apply to
 * drives with media, which this tree does not have yet (refused with
 * -drive if=floppy and -device floppy): both slots are empty, so the CMOS
 * reports no drive, as 7.2 does without -drive if=floppy.  The pc-i440fx
 * machines make one; -device isa-fdc adds one elsewhere (q35).
 */
#include <stddef.h>

#include "hw/block/fdc.h"
#include "hw/dma/i8257.h"
#include "hw/qdev-properties.h"

/* State ------------------------------------------------------------------ */

typedef struct ISAFDCState {
    ISADevice parent_obj;
    uint32_t iobase, irq, dma;
    int fdtype[FDC_MAX_DRIVES];
    int fallback;
    int32_t bootindex[FDC_MAX_DRIVES];
    MemoryRegion io_main, io_dir;
    FDCtrl ctrl;
} ISAFDCState;

/* Register read/write ---------------------------------------------------- */

/* Registers first..first+len-1 of one region, byte by byte */
static uint64_t isa_fdc_read_regs(FDCtrl *c, unsigned first, unsigned len,
                                  hwaddr addr, unsigned size)
{
    uint64_t v;

    if (size == 1) {
        return fdctrl_read(c, first + addr);
    }
    if (size != 2) {
        return size >= 8 ? UINT64_MAX : (1ULL << (size * 8)) - 1;
    }
    v = fdctrl_read(c, first + addr);
    return v | (addr + 1 < len ? fdctrl_read(c, first + addr + 1) << 8
                               : 0xff00);
}

static void isa_fdc_write_regs(FDCtrl *c, unsigned first, unsigned len,
                               hwaddr addr, uint64_t value, unsigned size)
{
    if (size == 1 || size == 2) {
        fdctrl_write(c, first + addr, value & 0xff);
    }
    if (size == 2 && addr + 1 < len) {
        fdctrl_write(c, first + addr + 1, (value >> 8) & 0xff);
    }
}

static uint64_t isa_fdc_main_read(void *opaque, hwaddr addr, unsigned size)
{
    return isa_fdc_read_regs(opaque, 1, 5, addr, size);
}

static void isa_fdc_main_write(void *opaque, hwaddr addr, uint64_t value,
                               unsigned size)
{
    isa_fdc_write_regs(opaque, 1, 5, addr, value, size);
}

static uint64_t isa_fdc_dir_read(void *opaque, hwaddr addr, unsigned size)
{
    return isa_fdc_read_regs(opaque, 7, 1, addr, size);
}

static void isa_fdc_dir_write(void *opaque, hwaddr addr, uint64_t value,
                              unsigned size)
{
    isa_fdc_write_regs(opaque, 7, 1, addr, value, size);
}

static const MemoryRegionOps isa_fdc_main_ops = {
    .read = isa_fdc_main_read,
    .write = isa_fdc_main_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.unaligned = true,
    .impl.unaligned = true,
    .impl.max_access_size = 4,
};

static const MemoryRegionOps isa_fdc_dir_ops = {
    .read = isa_fdc_dir_read,
    .write = isa_fdc_dir_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.unaligned = true,
    .impl.unaligned = true,
    .impl.max_access_size = 4,
};

/* Reset ------------------------------------------------------------------- */

static void isa_fdc_reset(DeviceState *dev)
{
    fdctrl_reset(&((ISAFDCState *)dev)->ctrl, false);
}

/* Realize ---------------------------------------------------------------- */

static bool isa_fdc_realize(DeviceState *dev, Error **errp)
{
    ISAFDCState *s = (ISAFDCState *)dev;
    ISADevice *isa = ISA_DEVICE(dev);
    int dma = (int32_t)s->dma;

    if (dma != -1 && !i8257_dma_channel_present(dma)) {
        error_setg(errp, "ISA controller does not support DMA");
        return false;
    }
    if (s->fallback == FLOPPY_DRIVE_TYPE_AUTO) {
        error_setg(errp, "Cannot choose a fallback FDrive type of 'auto'");
        return false;
    }
    memory_region_init_io(&s->io_main, OBJECT(dev), &isa_fdc_main_ops,
                          &s->ctrl, "fdc", 5);
    isa_register_ioport(isa, &s->io_main, s->iobase + 1);
    memory_region_init_io(&s->io_dir, OBJECT(dev), &isa_fdc_dir_ops,
                          &s->ctrl, "fdc", 1);
    isa_register_ioport(isa, &s->io_dir, s->iobase + 7);
    fdctrl_init(&s->ctrl, isa_get_irq(isa, s->irq), dma);
    s->ctrl.fallback = s->fallback;
    qbus_new(TYPE_FLOPPY_BUS, dev, NULL);
    return true;
}

FloppyDriveType isa_fdc_get_drive_type(ISADevice *fdc, int i)
{
    return ((ISAFDCState *)fdc)->ctrl.drives[i].drive;
}

/* Property table --------------------------------------------------------- */

static Property isa_fdc_properties[] = {
    DEFINE_PROP_UINT32("iobase", ISAFDCState, iobase, 0x3f0),
    DEFINE_PROP_UINT32("irq", ISAFDCState, irq, 6),
    DEFINE_PROP_UINT32("dma", ISAFDCState, dma, 2),
    DEFINE_PROP_SIGNED("fdtypeA", ISAFDCState, fdtype[0],
                       FLOPPY_DRIVE_TYPE_AUTO, qdev_prop_fdc_drive_type, int),
    DEFINE_PROP_SIGNED("fdtypeB", ISAFDCState, fdtype[1],
                       FLOPPY_DRIVE_TYPE_AUTO, qdev_prop_fdc_drive_type, int),
    DEFINE_PROP_SIGNED("fallback", ISAFDCState, fallback,
                       FLOPPY_DRIVE_TYPE_288, qdev_prop_fdc_drive_type, int),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void isa_fdc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->desc = "virtual floppy controller";
    dc->realize = isa_fdc_realize;
    dc->reset = isa_fdc_reset;
    device_class_set_props(dc, isa_fdc_properties);
    /* Boot order of drives A and B: no drives here, kept for -device */
    object_class_property_add_field(oc, "bootindexA", PROP_KIND_INT32,
                                    offsetof(ISAFDCState, bootindex[0]), "-1",
                                    NULL);
    object_class_property_add_field(oc, "bootindexB", PROP_KIND_INT32,
                                    offsetof(ISAFDCState, bootindex[1]), "-1",
                                    NULL);
    dc->categories = 1u << DEVICE_CATEGORY_STORAGE;
}

static const TypeInfo isa_fdc_info = {
    .name = TYPE_ISA_FDC,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISAFDCState),
    .class_init = isa_fdc_class_init,
};

static const TypeInfo floppy_bus_info = {
    .name = TYPE_FLOPPY_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(BusState),
};

static void isa_fdc_register_types(void)
{
    type_register_static(&floppy_bus_info);
    type_register_static(&isa_fdc_info);
}
type_init(isa_fdc_register_types)
