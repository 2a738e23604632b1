/*
 * pc-testdev (include/hw/misc/pc-testdev.h).  The layout and what each
 * region answers to odd widths and offsets were read from QEMU 7.2's
 * answers over qtest; functional/pc-testdev compares them.  Where 7.2
 * aborts (a write to irq-line offsets 16-23, ISA IRQs that do not exist)
 * the write is ignored here.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "hw/isa/isa.h"
#include "hw/misc/pc-testdev.h"
#include "hw/qdev-properties.h"

#define PC_TESTDEV_IOPORT 0xe0
#define PC_TESTDEV_FLUSH_PAGE 0xe4
#define PC_TESTDEV_IOPORT_BYTE 0xe8
#define PC_TESTDEV_IRQ_LINE 0x2000
#define PC_TESTDEV_IRQ_LINES 24
#define PC_TESTDEV_IOMEM 0xff000000ULL
#define PC_TESTDEV_IOMEM_SIZE 0x10000

/* State ------------------------------------------------------------------ */

typedef struct PCTestdevState {
    ISADevice parent_obj;
    GMutex lock;
    uint8_t ioport_data[4];
    uint8_t *iomem_data;
    MemoryRegion ioport, flush_page, ioport_byte, irq_line, iomem;
} PCTestdevState;

/* Register read/write ---------------------------------------------------- */

/* Little-endian bytes of a buffer, as wide as the access */
static uint64_t testdev_load(PCTestdevState *s, const uint8_t *buf,
                             hwaddr addr, unsigned size, hwaddr len)
{
    uint64_t v = 0;
    unsigned i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < size && addr + i < len; i++) {
        v |= (uint64_t)buf[addr + i] << (i * 8);
    }
    g_mutex_unlock(&s->lock);
    return v;
}

static void testdev_store(PCTestdevState *s, uint8_t *buf, hwaddr addr,
                          uint64_t v, unsigned size, hwaddr len)
{
    unsigned i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < size && addr + i < len; i++) {
        buf[addr + i] = v >> (i * 8);
    }
    g_mutex_unlock(&s->lock);
}

static uint64_t testdev_ioport_read(void *opaque, hwaddr addr, unsigned size)
{
    PCTestdevState *s = opaque;

    return testdev_load(s, s->ioport_data, addr, size, 4);
}

static void testdev_ioport_write(void *opaque, hwaddr addr, uint64_t value,
                                 unsigned size)
{
    PCTestdevState *s = opaque;

    testdev_store(s, s->ioport_data, addr, value, size, 4);
}

static uint64_t testdev_read_zero(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
}

/*
 * Test guests write a page's address to make KVM fault it in again.  Any
 * change of the host page's protection drops the guest's mapping of it
 * (KVM follows the kernel's MMU notifiers); QEMU makes the page
 * inaccessible for a moment, which would crash an emulator thread
 * touching it then (DMA, the other vCPUs), so here it becomes executable
 * and then not, readable and writable throughout.  Anything but RAM, or
 * a host that refuses executable anonymous memory, is left alone.
 */
static void testdev_flush_page_write(void *opaque, hwaddr addr,
                                     uint64_t value, unsigned size)
{
    long page_size = sysconf(_SC_PAGESIZE);
    hwaddr page = value & ~(hwaddr)(page_size - 1);
    void *p = memory_guest_ptr(page, page_size);

    if (p && !mprotect(p, page_size, PROT_READ | PROT_WRITE | PROT_EXEC)) {
        mprotect(p, page_size, PROT_READ | PROT_WRITE);
    }
}

static void testdev_irq_line_write(void *opaque, hwaddr addr, uint64_t value,
                                   unsigned size)
{
    qemu_irq irq = isa_get_irq(ISA_DEVICE(opaque), addr);

    if (irq) {
        qemu_set_irq(irq, value != 0);
    }
}

static uint64_t testdev_iomem_read(void *opaque, hwaddr addr, unsigned size)
{
    PCTestdevState *s = opaque;

    return testdev_load(s, s->iomem_data, addr, size, PC_TESTDEV_IOMEM_SIZE);
}

static void testdev_iomem_write(void *opaque, hwaddr addr, uint64_t value,
                                unsigned size)
{
    PCTestdevState *s = opaque;

    testdev_store(s, s->iomem_data, addr, value, size,
                  PC_TESTDEV_IOMEM_SIZE);
}

static const MemoryRegionOps testdev_ioport_ops = {
    .read = testdev_ioport_read,
    .write = testdev_ioport_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* The same bytes, the memory core splitting every access into bytes */
static const MemoryRegionOps testdev_ioport_byte_ops = {
    .read = testdev_ioport_read,
    .write = testdev_ioport_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static const MemoryRegionOps testdev_flush_page_ops = {
    .read = testdev_read_zero,
    .write = testdev_flush_page_write,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* A wider write sets one line per byte (7.2: outw 0x2008 0x100 raises 9) */
static const MemoryRegionOps testdev_irq_line_ops = {
    .read = testdev_read_zero,
    .write = testdev_irq_line_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static const MemoryRegionOps testdev_iomem_ops = {
    .read = testdev_iomem_read,
    .write = testdev_iomem_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Realize ---------------------------------------------------------------- */

static void testdev_init(Object *obj)
{
    g_mutex_init(&((PCTestdevState *)obj)->lock);
}

static bool testdev_realize(DeviceState *dev, Error **errp)
{
    PCTestdevState *s = (PCTestdevState *)dev;
    ISADevice *isa = ISA_DEVICE(dev);

    s->iomem_data = g_malloc0(PC_TESTDEV_IOMEM_SIZE);
    memory_region_init_io(&s->ioport, OBJECT(dev), &testdev_ioport_ops, s,
                          "pc-testdev-ioport", 4);
    memory_region_init_io(&s->flush_page, OBJECT(dev),
                          &testdev_flush_page_ops, s,
                          "pc-testdev-flush-page", 4);
    memory_region_init_io(&s->ioport_byte, OBJECT(dev),
                          &testdev_ioport_byte_ops, s,
                          "pc-testdev-ioport-byte", 4);
    memory_region_init_io(&s->irq_line, OBJECT(dev), &testdev_irq_line_ops,
                          s, "pc-testdev-irq-line", PC_TESTDEV_IRQ_LINES);
    memory_region_init_io(&s->iomem, OBJECT(dev), &testdev_iomem_ops, s,
                          "pc-testdev-iomem", PC_TESTDEV_IOMEM_SIZE);
    isa_register_ioport(isa, &s->ioport, PC_TESTDEV_IOPORT);
    isa_register_ioport(isa, &s->flush_page, PC_TESTDEV_FLUSH_PAGE);
    isa_register_ioport(isa, &s->ioport_byte, PC_TESTDEV_IOPORT_BYTE);
    isa_register_ioport(isa, &s->irq_line, PC_TESTDEV_IRQ_LINE);
    memory_region_add_subregion(isa_address_space(isa), PC_TESTDEV_IOMEM,
                                &s->iomem);
    return true;
}

static void testdev_finalize(Object *obj)
{
    PCTestdevState *s = (PCTestdevState *)obj;

    g_free(s->iomem_data);
    g_mutex_clear(&s->lock);
}

/* Registration ------------------------------------------------------------ */

static void testdev_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = testdev_realize;
    dc->categories = 1u << DEVICE_CATEGORY_MISC;
}

static const TypeInfo testdev_info = {
    .name = TYPE_PC_TESTDEV,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(PCTestdevState),
    .instance_init = testdev_init,
    .instance_finalize = testdev_finalize,
    .class_init = testdev_class_init,
};

static void testdev_register_types(void)
{
    type_register_static(&testdev_info);
}
type_init(testdev_register_types)
