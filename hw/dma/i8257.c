/*
 * i8257: one of the PC's two ISA DMA controllers (Intel 8237A, which QEMU
 * names after the 8257), as QEMU 7.2 has them on PIIX3 and ICH9-LPC.
 *
 * Each controller has four channels with a 16-bit base address and base
 * count written a byte at a time through the shared byte-pointer flip-flop,
 * a mode register per channel, the command, request, mask and status
 * registers, and a page register per channel.  The first controller
 * (dshift 0) answers at 0x00-0x07 (channels, "dma-chan") and 0x08-0x0f
 * (control, "dma-cont"); the second (dshift 1: each register twice, its
 * counts in 16-bit words) at 0xc0-0xcf and 0xd0-0xdf.  Page registers sit
 * at 0x81-0x83 and 0x87 (first) and 0x89-0x8b and 0x8f (second), ports
 * 1, 2, 3 and 7 of the page block giving channels 2, 3, 1 and 0.
 *
 * What a guest reads is QEMU 7.2's: an address register reads back the
 * address of the next transfer, a count register the base count minus what
 * was transferred; both low byte first, high byte next, as the flip-flop
 * says.  Reading the status register clears its terminal-count bits;
 * the request port (0x09) reads the mask; the other control ports read 0.
 * A command with a mode QEMU does not emulate (memory-to-memory, fixed
 * address, compressed timing, rotating priority, extended write, active-
 * low DREQ/DACK) is ignored.  Reset (and a master clear, 0x0d) sets the
 * masks and clears command, status and the flip-flop.
 *
 * No device of this tree transfers by DMA yet (the floppy controller has
 * no media to transfer; no Sound Blaster), so a channel never moves: its
 * current address is its base and nothing is transferred.  The floppy
 * controller releases channel 2's DREQ when a command ends, clearing a
 * software request there (i8257_dma_release_dreq), as 7.2's does.
 */
#include <glib.h>

#include "hw/dma/i8257.h"
#include "hw/qdev-properties.h"

#define I8257_CHANNELS 4

/* Command bits QEMU does not emulate: such a command is ignored */
#define CMD_NOT_SUPPORTED 0xfb  /* all but "controller disable" (0x04) */

enum { ADDR, COUNT };

/* State ------------------------------------------------------------------ */

typedef struct I8257Channel {
    uint16_t base[2];           /* ADDR, COUNT as programmed */
    int32_t now[2];             /* next address; bytes transferred */
    uint8_t mode, page, pageh;
} I8257Channel;

typedef struct I8257State {
    ISADevice parent_obj;
    /* qdev properties */
    int32_t base, page_base, pageh_base, dshift;

    GMutex lock;
    I8257Channel chan[I8257_CHANNELS];
    uint8_t command, mask, status, flip_flop;
    MemoryRegion chan_io, cont_io, page_io[2], pageh_io[2];
} I8257State;

/* The controllers by dshift: the 8-bit one serves channels 0-3 */
static I8257State *i8257_controllers[2];

/* Which channel a page register serves, by its port's low three bits */
static const int8_t page_channel[8] = { -1, 2, 3, 1, -1, -1, -1, 0 };

/* Register read/write ---------------------------------------------------- */

/* The flip-flop's state before this access (0: low byte), then toggled */
static int i8257_flip(I8257State *s)
{
    int ff = s->flip_flop;

    s->flip_flop = !ff;
    return ff;
}

static unsigned i8257_port(I8257State *s, hwaddr addr)
{
    return (addr >> s->dshift) & 0x0f;
}

static uint64_t i8257_chan_read(void *opaque, hwaddr addr, unsigned size)
{
    I8257State *s = opaque;
    unsigned port = i8257_port(s, addr);
    I8257Channel *c = &s->chan[(port >> 1) & 3];
    int32_t val;
    int ff;

    g_mutex_lock(&s->lock);
    ff = i8257_flip(s);
    if (port & 1) {
        val = (c->base[COUNT] << s->dshift) - c->now[COUNT];
    } else {
        val = c->now[ADDR] + c->now[COUNT] * ((c->mode & 0x20) ? -1 : 1);
    }
    g_mutex_unlock(&s->lock);
    return (val >> (s->dshift + (ff << 3))) & 0xff;
}

static void i8257_chan_write(void *opaque, hwaddr addr, uint64_t value,
                             unsigned size)
{
    I8257State *s = opaque;
    unsigned port = i8257_port(s, addr);
    I8257Channel *c = &s->chan[(port >> 1) & 3];
    int reg = port & 1;

    g_mutex_lock(&s->lock);
    if (i8257_flip(s)) {
        /* the high byte completes the register: the channel restarts */
        c->base[reg] = (c->base[reg] & 0xff) | ((value & 0xff) << 8);
        c->now[ADDR] = c->base[ADDR] << s->dshift;
        c->now[COUNT] = 0;
    } else {
        c->base[reg] = (c->base[reg] & 0xff00) | (value & 0xff);
    }
    g_mutex_unlock(&s->lock);
}

/* Master clear (port 0x0d) and device reset; called with the lock held */
static void i8257_master_clear(I8257State *s)
{
    s->flip_flop = 0;
    s->mask = 0xff;
    s->status = 0;
    s->command = 0;
}

static uint64_t i8257_cont_read(void *opaque, hwaddr addr, unsigned size)
{
    I8257State *s = opaque;
    uint64_t val = 0;

    g_mutex_lock(&s->lock);
    switch (i8257_port(s, addr)) {
    case 0:                     /* status: reading clears the TC bits */
        val = s->status;
        s->status &= 0xf0;
        break;
    case 1:                     /* QEMU answers the mask here */
        val = s->mask;
        break;
    }
    g_mutex_unlock(&s->lock);
    return val;
}

static void i8257_cont_write(void *opaque, hwaddr addr, uint64_t value,
                             unsigned size)
{
    I8257State *s = opaque;
    unsigned n = value & 3;

    g_mutex_lock(&s->lock);
    switch (i8257_port(s, addr)) {
    case 0:                     /* command */
        if (!value || !(value & CMD_NOT_SUPPORTED)) {
            s->command = value;
        }
        break;
    case 1:                     /* request: software DREQ of channel n */
        if (value & 4) {
            s->status |= 1u << (n + 4);
        } else {
            s->status &= ~(1u << (n + 4));
        }
        s->status &= ~(1u << n);
        break;
    case 2:                     /* single mask bit */
        if (value & 4) {
            s->mask |= 1u << n;
        } else {
            s->mask &= ~(1u << n);
        }
        break;
    case 3:                     /* mode of channel n */
        s->chan[n].mode = value;
        break;
    case 4:                     /* clear the byte-pointer flip-flop */
        s->flip_flop = 0;
        break;
    case 5:                     /* master clear */
        i8257_master_clear(s);
        break;
    case 6:                     /* clear all masks */
        s->mask = 0;
        break;
    case 7:                     /* write all masks */
        s->mask = value;
        break;
    }
    g_mutex_unlock(&s->lock);
}

/* A page register; port is the absolute port number */
static uint8_t *i8257_page_reg(I8257State *s, unsigned port, bool high)
{
    int n = page_channel[port & 7];

    if (n < 0) {
        return NULL;
    }
    return high ? &s->chan[n].pageh : &s->chan[n].page;
}

static uint64_t i8257_page_read_common(I8257State *s, unsigned port,
                                       bool high)
{
    uint8_t *reg, val;

    g_mutex_lock(&s->lock);
    reg = i8257_page_reg(s, port, high);
    val = reg ? *reg : 0;
    g_mutex_unlock(&s->lock);
    return val;
}

static void i8257_page_write_common(I8257State *s, unsigned port,
                                    uint64_t value, bool high)
{
    uint8_t *reg;

    g_mutex_lock(&s->lock);
    reg = i8257_page_reg(s, port, high);
    if (reg) {
        *reg = value;
    }
    g_mutex_unlock(&s->lock);
}

/*
 * The page blocks are two regions each (ports 1-3 and 7 of the block);
 * the region's offset is added to where it sits.
 */
static unsigned i8257_page_port(I8257State *s, hwaddr addr, bool second,
                                bool high)
{
    return (high ? s->pageh_base : s->page_base) + (second ? 7 : 1) + addr;
}

#define I8257_PAGE_OPS(name, second, high)                                  \
static uint64_t name##_read(void *opaque, hwaddr addr, unsigned size)       \
{                                                                           \
    I8257State *s = opaque;                                                 \
                                                                            \
    return i8257_page_read_common(s, i8257_page_port(s, addr, second,       \
                                                     high), high);          \
}                                                                           \
static void name##_write(void *opaque, hwaddr addr, uint64_t value,         \
                         unsigned size)                                     \
{                                                                           \
    I8257State *s = opaque;                                                 \
                                                                            \
    i8257_page_write_common(s, i8257_page_port(s, addr, second, high),      \
                            value, high);                                   \
}                                                                           \
static const MemoryRegionOps name##_ops = {                                 \
    .read = name##_read,                                                    \
    .write = name##_write,                                                  \
    .impl.min_access_size = 1,                                              \
    .impl.max_access_size = 1,                                              \
    .endianness = DEVICE_LITTLE_ENDIAN,                                     \
};

I8257_PAGE_OPS(i8257_page_lo, false, false)
I8257_PAGE_OPS(i8257_page_hi, true, false)
I8257_PAGE_OPS(i8257_pageh_lo, false, true)
I8257_PAGE_OPS(i8257_pageh_hi, true, true)

static const MemoryRegionOps i8257_chan_ops = {
    .read = i8257_chan_read,
    .write = i8257_chan_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static const MemoryRegionOps i8257_cont_ops = {
    .read = i8257_cont_read,
    .write = i8257_cont_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Reset ------------------------------------------------------------------ */

static void i8257_reset(DeviceState *dev)
{
    I8257State *s = (I8257State *)dev;

    g_mutex_lock(&s->lock);
    i8257_master_clear(s);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void i8257_initfn(Object *obj)
{
    g_mutex_init(&((I8257State *)obj)->lock);
}

static void i8257_finalize(Object *obj)
{
    g_mutex_clear(&((I8257State *)obj)->lock);
}

static void i8257_add_pages(I8257State *s, MemoryRegion *mr,
                            const MemoryRegionOps *lo,
                            const MemoryRegionOps *hi, int32_t base,
                            const char *name)
{
    ISADevice *isa = ISA_DEVICE(s);

    memory_region_init_io(&mr[0], OBJECT(s), lo, s, name, 3);
    isa_register_ioport(isa, &mr[0], base + 1);
    memory_region_init_io(&mr[1], OBJECT(s), hi, s, name, 1);
    isa_register_ioport(isa, &mr[1], base + 7);
}

static bool i8257_realize(DeviceState *dev, Error **errp)
{
    I8257State *s = (I8257State *)dev;
    ISADevice *isa = ISA_DEVICE(dev);

    if (s->dshift < 0 || s->dshift > 1 || s->base < 0 ||
        s->base + (16 << s->dshift) > 0x10000 || s->page_base < 0 ||
        s->page_base > 0xfff8 || s->pageh_base > 0xfff8) {
        error_setg(errp, "i8257: base 0x%x, page-base 0x%x, pageh-base "
                   "0x%x or dshift %d is out of range", s->base,
                   s->page_base, s->pageh_base, s->dshift);
        return false;
    }
    memory_region_init_io(&s->chan_io, OBJECT(dev), &i8257_chan_ops, s,
                          "dma-chan", 8 << s->dshift);
    isa_register_ioport(isa, &s->chan_io, s->base);
    i8257_add_pages(s, s->page_io, &i8257_page_lo_ops, &i8257_page_hi_ops,
                    s->page_base, "dma-page");
    if (s->pageh_base >= 0) {
        i8257_add_pages(s, s->pageh_io, &i8257_pageh_lo_ops,
                        &i8257_pageh_hi_ops, s->pageh_base, "dma-pageh");
    }
    memory_region_init_io(&s->cont_io, OBJECT(dev), &i8257_cont_ops, s,
                          "dma-cont", 8 << s->dshift);
    isa_register_ioport(isa, &s->cont_io, s->base + (8 << s->dshift));
    if (s->dshift == 0 || s->dshift == 1) {
        i8257_controllers[s->dshift] = s;
    }
    return true;
}

bool i8257_dma_channel_present(unsigned nchan)
{
    return nchan < 8 && i8257_controllers[nchan >> 2];
}

void i8257_dma_release_dreq(unsigned nchan)
{
    I8257State *s = nchan < 8 ? i8257_controllers[nchan >> 2] : NULL;

    if (!s) {
        return;
    }
    g_mutex_lock(&s->lock);
    s->status &= ~(1u << ((nchan & 3) + 4));
    g_mutex_unlock(&s->lock);
}

bool i8257_dma_init(ISABus *bus, Error **errp)
{
    static const struct {
        int32_t base, page_base, dshift;
    } ctl[2] = { { 0x00, 0x80, 0 }, { 0xc0, 0x88, 1 } };

    for (int i = 0; i < 2; i++) {
        DeviceState *d = DEVICE(isa_new(TYPE_I8257));

        qdev_prop_set_int32(d, "base", ctl[i].base);
        qdev_prop_set_int32(d, "page-base", ctl[i].page_base);
        qdev_prop_set_int32(d, "pageh-base", -1);
        qdev_prop_set_int32(d, "dshift", ctl[i].dshift);
        if (!isa_realize_and_unref(ISA_DEVICE(d), bus, errp)) {
            return false;
        }
    }
    return true;
}

/* Property table --------------------------------------------------------- */

static Property i8257_properties[] = {
    DEFINE_PROP_INT32("base", I8257State, base, 0x00),
    DEFINE_PROP_INT32("page-base", I8257State, page_base, 0x80),
    DEFINE_PROP_INT32("pageh-base", I8257State, pageh_base, 0x480),
    DEFINE_PROP_INT32("dshift", I8257State, dshift, 0),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void i8257_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = i8257_realize;
    dc->reset = i8257_reset;
    device_class_set_props(dc, i8257_properties);
    /* the chipset makes both; the ISA bus knows them as its DMA */
    dc->user_creatable = false;
}

static const TypeInfo i8257_info = {
    .name = TYPE_I8257,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(I8257State),
    .instance_init = i8257_initfn,
    .instance_finalize = i8257_finalize,
    .class_init = i8257_class_init,
};

static void i8257_register_types(void)
{
    type_register_static(&i8257_info);
}
type_init(i8257_register_types)
