/*
 * The 8259A programmable interrupt controller, as QEMU 7.2's "isa-i8259"
 * behaves: two of them on the PC, the slave's INT on the master's IRQ 2.
 *
 * Ports: base+0 takes ICW1 (bit 4), OCW3 (bit 3) or OCW2, and reads IRR
 * or ISR (OCW3's read register select); base+1 takes the IMR (OCW1) or,
 * after ICW1, ICW2 (vector base), ICW3 (unless single mode) and ICW4 (if
 * ICW1 asked: auto-EOI, special fully nested), and reads the IMR.  A poll
 * command (OCW3 bit 2) makes the next read of either port acknowledge the
 * highest request and return it with bit 7 set (0: none).  The ELCR port
 * (0x4d0/0x4d1) makes inputs level-triggered, bits outside elcr_mask
 * read 0.  As in 7.2: ICW1's level-triggered bit (LTIM) is ignored, ICW3
 * is not checked (the cascade is wired), buffered mode is not modelled,
 * and initialisation keeps the ELCR and the level-triggered requests.
 * Every access is one byte (a word access is two, port by port).
 */
#include <glib.h>

#include "hw/intc/i8259.h"
#include "hw/intc/irqchip-lock.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"

/* State ------------------------------------------------------------------ */

typedef struct PICState {
    ISADevice parent_obj;
    uint8_t last_irr;       /* the input levels, for edge detection */
    uint8_t irr, imr, isr;
    uint8_t priority_add;   /* the IRQ of lowest priority, plus one */
    uint8_t irq_base;
    bool read_reg_select;   /* reads of base+0: ISR, else IRR */
    bool poll;
    bool special_mask;
    uint8_t init_state;     /* 0: ready; 1, 2, 3: ICW2, ICW3, ICW4 next */
    bool auto_eoi;
    bool rotate_on_auto_eoi;
    bool special_fully_nested_mode;
    bool init4;             /* ICW4 will come */
    bool single_mode;       /* no ICW3 */
    uint8_t elcr;
    qemu_irq int_out;
    struct PICState *slave; /* the master's, for INTA through IRQ 2 */
    MemoryRegion base_io, elcr_io;
    /* Properties, as 7.2's pic-common */
    uint32_t iobase, elcr_addr;
    uint8_t elcr_mask;
    bool master;
} PICState;

static DeviceState *board_master_pic;

/* Register read/write ---------------------------------------------------- */

/* The priority (0 = highest) of the best request in mask; 8 if none */
static int pic_priority(PICState *s, int mask)
{
    int priority = 0;

    if (!mask) {
        return 8;
    }
    while (!(mask & (1 << ((priority + s->priority_add) & 7)))) {
        priority++;
    }
    return priority;
}

/* The IRQ the controller asks the CPU for, or -1 */
static int pic_pending_irq(PICState *s)
{
    int priority = pic_priority(s, s->irr & ~s->imr);
    int in_service = s->isr;

    if (priority == 8) {
        return -1;
    }
    if (s->special_mask) {
        in_service &= ~s->imr;
    }
    /* special fully nested: the slave may interrupt its own service */
    if (s->special_fully_nested_mode && s->master) {
        in_service &= ~(1 << 2);
    }
    if (priority < pic_priority(s, in_service)) {
        return (priority + s->priority_add) & 7;
    }
    return -1;
}

static void pic_update_output(PICState *s)
{
    qemu_set_irq(s->int_out, pic_pending_irq(s) >= 0);
}

static void pic_set_input(void *opaque, int irq, int level)
{
    PICState *s = opaque;
    uint8_t mask = 1 << irq;

    irqchip_lock();
    if (s->elcr & mask) {
        /* level-triggered: the request follows the line */
        if (level) {
            s->irr |= mask;
            s->last_irr |= mask;
        } else {
            s->irr &= ~mask;
            s->last_irr &= ~mask;
        }
    } else {
        /* edge-triggered: a rising edge requests */
        if (level) {
            if (!(s->last_irr & mask)) {
                s->irr |= mask;
            }
            s->last_irr |= mask;
        } else {
            s->last_irr &= ~mask;
        }
    }
    pic_update_output(s);
    irqchip_unlock();
}

static void pic_intack(PICState *s, int irq)
{
    if (s->auto_eoi) {
        if (s->rotate_on_auto_eoi) {
            s->priority_add = (irq + 1) & 7;
        }
    } else {
        s->isr |= 1 << irq;
    }
    /* a level-triggered request stays while its line is high */
    if (!(s->elcr & (1 << irq))) {
        s->irr &= ~(1 << irq);
    }
    pic_update_output(s);
}

int pic_read_irq(DeviceState *master)
{
    PICState *s = (PICState *)master;
    int irq, irq2, intno;

    irqchip_lock();
    irq = pic_pending_irq(s);
    if (irq < 0) {
        /* spurious: IRQ 7 of the master */
        intno = s->irq_base + 7;
    } else if (irq == 2 && s->slave) {
        irq2 = pic_pending_irq(s->slave);
        if (irq2 >= 0) {
            pic_intack(s->slave, irq2);
        } else {
            irq2 = 7;           /* spurious on the slave */
        }
        intno = s->slave->irq_base + irq2;
        pic_intack(s, irq);
    } else {
        intno = s->irq_base + irq;
        pic_intack(s, irq);
    }
    irqchip_unlock();
    return intno;
}

bool pic_get_output(DeviceState *dev)
{
    bool out;

    irqchip_lock();
    out = pic_pending_irq((PICState *)dev) >= 0;
    irqchip_unlock();
    return out;
}

/* What reset and ICW1 clear (not the ELCR, not level-triggered requests) */
static void pic_init_reset(PICState *s)
{
    s->last_irr = 0;
    s->irr &= s->elcr;
    s->imr = 0;
    s->isr = 0;
    s->priority_add = 0;
    s->irq_base = 0;
    s->read_reg_select = false;
    s->poll = false;
    s->special_mask = false;
    s->init_state = 0;
    s->auto_eoi = false;
    s->rotate_on_auto_eoi = false;
    s->special_fully_nested_mode = false;
    s->init4 = false;
    s->single_mode = false;
    pic_update_output(s);
}

/* OCW2: the EOI and rotation commands (bits 7-5) */
static void pic_ocw2(PICState *s, uint8_t val)
{
    int cmd = val >> 5, priority, irq;

    switch (cmd) {
    case 0:     /* rotate in auto-EOI mode: clear */
    case 4:     /* ... set */
        s->rotate_on_auto_eoi = cmd >> 2;
        break;
    case 1:     /* non-specific EOI */
    case 5:     /* rotate on non-specific EOI */
        priority = pic_priority(s, s->isr);
        if (priority != 8) {
            irq = (priority + s->priority_add) & 7;
            s->isr &= ~(1 << irq);
            if (cmd == 5) {
                s->priority_add = (irq + 1) & 7;
            }
            pic_update_output(s);
        }
        break;
    case 3:     /* specific EOI */
        s->isr &= ~(1 << (val & 7));
        pic_update_output(s);
        break;
    case 6:     /* set priority */
        s->priority_add = (val + 1) & 7;
        pic_update_output(s);
        break;
    case 7:     /* rotate on specific EOI */
        irq = val & 7;
        s->isr &= ~(1 << irq);
        s->priority_add = (irq + 1) & 7;
        pic_update_output(s);
        break;
    default:    /* 2: no operation */
        break;
    }
}

static void pic_write_command(PICState *s, uint8_t val)
{
    if (val & 0x10) {
        /* ICW1 */
        pic_init_reset(s);
        s->init_state = 1;
        s->init4 = val & 1;
        s->single_mode = val & 2;
    } else if (val & 0x08) {
        /* OCW3 */
        if (val & 0x04) {
            s->poll = true;
        }
        if (val & 0x02) {
            s->read_reg_select = val & 1;
        }
        if (val & 0x40) {
            s->special_mask = (val >> 5) & 1;
        }
    } else {
        pic_ocw2(s, val);
    }
}

static void pic_write_data(PICState *s, uint8_t val)
{
    switch (s->init_state) {
    case 0:     /* OCW1 */
        s->imr = val;
        pic_update_output(s);
        break;
    case 1:     /* ICW2 */
        s->irq_base = val & 0xf8;
        s->init_state = s->single_mode ? (s->init4 ? 3 : 0) : 2;
        break;
    case 2:     /* ICW3 */
        s->init_state = s->init4 ? 3 : 0;
        break;
    case 3:     /* ICW4 */
        s->special_fully_nested_mode = (val >> 4) & 1;
        s->auto_eoi = (val >> 1) & 1;
        s->init_state = 0;
        break;
    }
}

static void pic_ioport_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    PICState *s = opaque;

    irqchip_lock();
    if (addr == 0) {
        pic_write_command(s, val);
    } else {
        pic_write_data(s, val);
    }
    irqchip_unlock();
}

static uint64_t pic_ioport_read(void *opaque, hwaddr addr, unsigned size)
{
    PICState *s = opaque;
    int ret;

    irqchip_lock();
    if (s->poll) {
        ret = pic_pending_irq(s);
        if (ret >= 0) {
            pic_intack(s, ret);
            ret |= 0x80;
        } else {
            ret = 0;
        }
        s->poll = false;
    } else if (addr == 0) {
        ret = s->read_reg_select ? s->isr : s->irr;
    } else {
        ret = s->imr;
    }
    irqchip_unlock();
    return ret;
}

static void elcr_ioport_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    PICState *s = opaque;

    irqchip_lock();
    s->elcr = val & s->elcr_mask;
    irqchip_unlock();
}

static uint64_t elcr_ioport_read(void *opaque, hwaddr addr, unsigned size)
{
    PICState *s = opaque;

    return s->elcr;
}

static const MemoryRegionOps pic_base_ops = {
    .read = pic_ioport_read,
    .write = pic_ioport_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static const MemoryRegionOps pic_elcr_ops = {
    .read = elcr_ioport_read,
    .write = elcr_ioport_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Reset ------------------------------------------------------------------ */

static void pic_reset(DeviceState *dev)
{
    PICState *s = (PICState *)dev;

    irqchip_lock();
    s->elcr = 0;
    pic_init_reset(s);
    irqchip_unlock();
}

/* Realize ---------------------------------------------------------------- */

static bool pic_realize(DeviceState *dev, Error **errp)
{
    PICState *s = (PICState *)dev;
    ISADevice *isa = ISA_DEVICE(dev);

    if (s->iobase > 0xfffe) {
        error_setg(errp, "isa-i8259: iobase 0x%x is out of range", s->iobase);
        return false;
    }
    memory_region_init_io(&s->base_io, OBJECT(dev), &pic_base_ops, s, "pic",
                          2);
    memory_region_init_io(&s->elcr_io, OBJECT(dev), &pic_elcr_ops, s, "elcr",
                          1);
    qdev_init_gpio_out(dev, &s->int_out, 1);
    qdev_init_gpio_in(dev, pic_set_input, 8);
    isa_register_ioport(isa, &s->base_io, s->iobase);
    /* elcr_addr -1: a PIC without ELCR */
    if (s->elcr_addr <= 0xffff) {
        isa_register_ioport(isa, &s->elcr_io, s->elcr_addr);
    }
    return true;
}

static DeviceState *pic_create(ISABus *bus, bool master, Error **errp)
{
    DeviceState *d = DEVICE(isa_new(TYPE_I8259));

    qdev_prop_set_uint32(d, "iobase", master ? 0x20 : 0xa0);
    qdev_prop_set_uint32(d, "elcr_addr", master ? 0x4d0 : 0x4d1);
    qdev_prop_set_uint8(d, "elcr_mask", master ? 0xf8 : 0xde);
    qdev_prop_set_bit(d, "master", master);
    return isa_realize_and_unref(ISA_DEVICE(d), bus, errp) ? d : NULL;
}

qemu_irq *i8259_init(ISABus *bus, qemu_irq parent_irq, Error **errp)
{
    DeviceState *master, *slave;
    qemu_irq *irqs;
    int i;

    master = pic_create(bus, true, errp);
    slave = master ? pic_create(bus, false, errp) : NULL;
    if (!slave) {
        return NULL;
    }
    qdev_connect_gpio_out(master, 0, parent_irq);
    qdev_connect_gpio_out(slave, 0, qdev_get_gpio_in(master, 2));
    ((PICState *)master)->slave = (PICState *)slave;
    irqs = g_new0(qemu_irq, ISA_NUM_IRQS);
    for (i = 0; i < 8; i++) {
        irqs[i] = qdev_get_gpio_in(master, i);
        irqs[i + 8] = qdev_get_gpio_in(slave, i);
    }
    board_master_pic = master;
    return irqs;
}

DeviceState *i8259_master(void)
{
    return board_master_pic;
}

/* Property table --------------------------------------------------------- */

static Property pic_properties[] = {
    DEFINE_PROP_UINT32("iobase", PICState, iobase, UINT32_MAX),
    DEFINE_PROP_UINT32("elcr_addr", PICState, elcr_addr, UINT32_MAX),
    DEFINE_PROP_UINT8("elcr_mask", PICState, elcr_mask, UINT8_MAX),
    DEFINE_PROP_BIT("master", PICState, master, false),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void pic_instance_finalize(Object *obj)
{
    if (board_master_pic == DEVICE(obj)) {
        board_master_pic = NULL;
    }
}

static void pic_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = pic_realize;
    dc->reset = pic_reset;
    device_class_set_props(dc, pic_properties);
    /* the board wires the cascade and the inputs */
    dc->user_creatable = false;
}

static void pic_common_class_init(ObjectClass *oc, void *data)
{
    /* the board wires the cascade and the inputs */
    DEVICE_CLASS(oc)->user_creatable = false;
}

/* 7.2's abstract parent of isa-i8259 and kvm-i8259 */
static const TypeInfo pic_common_info = {
    .name = TYPE_PIC_COMMON,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISADevice),
    .class_init = pic_common_class_init,
    .abstract = true,
};

static const TypeInfo pic_info = {
    .name = TYPE_I8259,
    .parent = TYPE_PIC_COMMON,
    .instance_size = sizeof(PICState),
    .instance_finalize = pic_instance_finalize,
    .class_init = pic_class_init,
};

static void pic_register_types(void)
{
    type_register_static(&pic_common_info);
    type_register_static(&pic_info);
}
type_init(pic_register_types)
