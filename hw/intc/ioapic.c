/*
 * The I/O APIC as QEMU 7.2's "ioapic" (version 0x20 by default, 0x11
 * accepted) behaves.
 *
 * MMIO (4 KiB at 0xfec00000; the offset counts modulo 0x100): IOREGSEL
 * at 0x00 (any size), IOWIN at 0x10 (32-bit accesses only; others read 0
 * and write nothing), the EOI register at 0x40 (version 0x20 only,
 * 32-bit).  Registers through IOWIN: 0x00 ID (bits 27-24), 0x01 version
 * (version | 23 << 16, read-only), 0x02 arbitration (reads as the ID,
 * read-only), 0x10 + 2n / 0x11 + 2n redirection entry n, low / high half;
 * anything else reads 0.  An entry's delivery status and remote IRR are
 * read-only; an edge-triggered entry has no remote IRR.
 *
 * Inputs: pin n is GSI n, except that a line on input 0 (the PIT's IRQ 0)
 * requests on pin 2, as on the PC.  A level-triggered pin requests while
 * its line is high and is not delivered again until the local APIC's EOI
 * (ioapic_eoi_broadcast, or the EOI register) clears its remote IRR; an
 * edge on a masked edge-triggered pin is lost.  Delivery is the MSI write
 * of the entry's vector, trigger and delivery mode to 0xfee00000 with the
 * entry's bits 63-48 as address bits 19-4 (the destination, or an
 * interrupt-remapping index), its destination mode as address bit 2; an
 * ExtINT entry takes its vector from the master PIC's acknowledge, which
 * happens whenever a requested pin's entry is looked at (masked, or
 * awaiting EOI, as in 7.2).  After
 * 10000 successive re-deliveries at EOI the next one waits 10 ms of
 * virtual time (a level interrupt nobody handles must not stop the guest).
 */
#include <glib.h>

#include "exec/memory.h"
#include "hw/intc/i8259.h"
#include "hw/intc/ioapic.h"
#include "hw/intc/irqchip-lock.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "qemu/timer.h"
#include "sysemu/kvm.h"

#define IOAPIC_IOREGSEL 0x00
#define IOAPIC_IOWIN 0x10
#define IOAPIC_EOI 0x40

#define IOAPIC_REG_ID 0x00
#define IOAPIC_REG_VER 0x01
#define IOAPIC_REG_ARB 0x02
#define IOAPIC_REG_REDTBL_BASE 0x10

#define IOAPIC_ID_SHIFT 24
#define IOAPIC_ID_MASK 0xf
#define IOAPIC_VER_ENTRIES_SHIFT 16

#define RTE_VECTOR_MASK 0xffULL
#define RTE_DELIV_MODE_SHIFT 8
#define RTE_DEST_MODE_SHIFT 11
#define RTE_DELIV_STATUS (1ULL << 12)
#define RTE_REMOTE_IRR (1ULL << 14)
#define RTE_TRIGGER_LEVEL (1ULL << 15)
#define RTE_MASKED (1ULL << 16)
#define RTE_DEST_IDX_SHIFT 48
#define RTE_RO_BITS (RTE_REMOTE_IRR | RTE_DELIV_STATUS)

#define DM_EXTINT 7

#define MSI_ADDR_BASE 0xfee00000U
#define MSI_ADDR_DEST_MODE_SHIFT 2
#define MSI_ADDR_DEST_IDX_SHIFT 4
#define MSI_DATA_DELIVERY_MODE_SHIFT 8
#define MSI_DATA_TRIGGER_SHIFT 15

#define IOAPIC_EOI_STORM 10000
#define IOAPIC_MAX 2

/* State ------------------------------------------------------------------ */

typedef struct IOAPICState {
    SysBusDevice parent_obj;
    uint8_t id;
    uint8_t ioregsel;
    uint32_t irr;
    uint64_t ioredtbl[IOAPIC_NUM_PINS];
    uint32_t irq_eoi[IOAPIC_NUM_PINS];   /* successive EOI re-deliveries */
    QEMUTimer *delayed_service;
    uint32_t route_addr[IOAPIC_NUM_PINS];   /* split irqchip: KVM's */
    uint32_t route_data[IOAPIC_NUM_PINS];
    MemoryRegion io;
    uint8_t version;                        /* property */
} IOAPICState;

static IOAPICState *ioapics[IOAPIC_MAX];

/* Delivery --------------------------------------------------------------- */

/*
 * The vector an entry delivers: an ExtINT entry's comes from the master
 * PIC's acknowledge, which 7.2 does as soon as it looks at a requested
 * pin, masked or not, awaiting EOI or not
 */
static uint32_t ioapic_vector(uint64_t entry)
{
    DeviceState *pic = i8259_master();

    if (((entry >> RTE_DELIV_MODE_SHIFT) & 7) != DM_EXTINT) {
        return entry & RTE_VECTOR_MASK;
    }
    return pic ? pic_read_irq(pic) & 0xff : 0;
}

/* The MSI an entry sends with vector */
static void ioapic_entry_msi(uint64_t entry, uint32_t vector, uint32_t *addr,
                             uint32_t *data)
{
    uint32_t mode = (entry >> RTE_DELIV_MODE_SHIFT) & 7;

    *addr = MSI_ADDR_BASE |
            (uint32_t)((entry >> RTE_DEST_IDX_SHIFT) & 0xffff)
                << MSI_ADDR_DEST_IDX_SHIFT |
            (uint32_t)((entry >> RTE_DEST_MODE_SHIFT) & 1)
                << MSI_ADDR_DEST_MODE_SHIFT;
    *data = vector | mode << MSI_DATA_DELIVERY_MODE_SHIFT |
            (uint32_t)!!(entry & RTE_TRIGGER_LEVEL) << MSI_DATA_TRIGGER_SHIFT;
}

static void ioapic_deliver(uint64_t entry, uint32_t vector)
{
    uint32_t addr, data;

    ioapic_entry_msi(entry, vector, &addr, &data);
    stl_le_phys(&address_space_memory, addr, data);
}

/*
 * Split irqchip: KVM's MSI routes for GSI 0-23 follow the unmasked
 * entries (a masked one keeps its last route), after every register
 * write, as 7.2's ioapic_update_kvm_routes; like it, this looks at every
 * entry, so ExtINT ones acknowledge the PIC here too.
 */
static void ioapic_update_kvm_routes(IOAPICState *s)
{
    if (!kvm_irqchip_is_split()) {
        return;
    }
    for (int i = 0; i < IOAPIC_NUM_PINS; i++) {
        uint64_t entry = s->ioredtbl[i];
        uint32_t vector = ioapic_vector(entry);

        if (!(entry & RTE_MASKED)) {
            ioapic_entry_msi(entry, vector, &s->route_addr[i],
                             &s->route_data[i]);
        }
    }
    kvm_irqchip_set_ioapic_routes(s->route_addr, s->route_data,
                                  IOAPIC_NUM_PINS);
}

/* Delivers every requested pin that is unmasked (and not awaiting EOI) */
static void ioapic_service(IOAPICState *s)
{
    for (int i = 0; i < IOAPIC_NUM_PINS; i++) {
        uint32_t mask = 1u << i;
        uint64_t entry = s->ioredtbl[i];
        uint32_t vector;

        if (!(s->irr & mask)) {
            continue;
        }
        vector = ioapic_vector(entry);
        if (entry & RTE_MASKED) {
            continue;
        }
        if (!(entry & RTE_TRIGGER_LEVEL)) {
            s->irr &= ~mask;
        } else if (entry & RTE_REMOTE_IRR) {
            continue;           /* the CPU still handles the last one */
        } else {
            s->ioredtbl[i] |= RTE_REMOTE_IRR;
        }
        ioapic_deliver(entry, vector);
    }
}

static void ioapic_delayed_service(void *opaque)
{
    irqchip_lock();
    ioapic_service(opaque);
    irqchip_unlock();
}

static void ioapic_set_input(void *opaque, int pin, int level)
{
    IOAPICState *s = opaque;
    uint32_t mask;
    uint64_t entry;

    /* the PC's IRQ 0 is wired to pin 2 */
    if (pin == 0) {
        pin = 2;
    }
    mask = 1u << pin;
    irqchip_lock();
    entry = s->ioredtbl[pin];
    if (entry & RTE_TRIGGER_LEVEL) {
        if (level) {
            s->irr |= mask;
            if (!(entry & RTE_REMOTE_IRR)) {
                ioapic_service(s);
            }
        } else {
            s->irr &= ~mask;
        }
    } else if (level && !(entry & RTE_MASKED)) {
        /* the 82093AA ignores edges on a masked pin */
        s->irr |= mask;
        ioapic_service(s);
    }
    irqchip_unlock();
}

static void ioapic_eoi_one(IOAPICState *s, int vector)
{
    for (int n = 0; n < IOAPIC_NUM_PINS; n++) {
        uint64_t entry = s->ioredtbl[n];

        if ((entry & RTE_VECTOR_MASK) != (uint64_t)vector ||
            !(entry & RTE_TRIGGER_LEVEL) || !(entry & RTE_REMOTE_IRR)) {
            continue;
        }
        s->ioredtbl[n] = entry & ~RTE_REMOTE_IRR;
        if ((entry & RTE_MASKED) || !(s->irr & (1u << n))) {
            s->irq_eoi[n] = 0;
            continue;
        }
        if (++s->irq_eoi[n] >= IOAPIC_EOI_STORM) {
            /* a storm: let the guest make progress first */
            int64_t when = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                           NANOSECONDS_PER_SECOND / 100;
            int64_t pending = timer_expire_time_ns(s->delayed_service);

            s->irq_eoi[n] = 0;
            if (pending < 0 || when < pending) {
                timer_mod(s->delayed_service, when);
            }
        } else {
            ioapic_service(s);
        }
    }
}

void ioapic_eoi_broadcast(int vector)
{
    irqchip_lock();
    for (int i = 0; i < IOAPIC_MAX; i++) {
        if (ioapics[i]) {
            ioapic_eoi_one(ioapics[i], vector);
        }
    }
    irqchip_unlock();
}

/* Register read/write ---------------------------------------------------- */

static uint32_t ioapic_read_window(IOAPICState *s)
{
    int index;

    switch (s->ioregsel) {
    case IOAPIC_REG_ID:
    case IOAPIC_REG_ARB:
        return (uint32_t)s->id << IOAPIC_ID_SHIFT;
    case IOAPIC_REG_VER:
        return s->version |
               (IOAPIC_NUM_PINS - 1) << IOAPIC_VER_ENTRIES_SHIFT;
    default:
        index = (s->ioregsel - IOAPIC_REG_REDTBL_BASE) >> 1;
        if (index < 0 || index >= IOAPIC_NUM_PINS) {
            return 0;
        }
        return s->ioregsel & 1 ? s->ioredtbl[index] >> 32
                               : (uint32_t)s->ioredtbl[index];
    }
}

static uint64_t ioapic_mem_read(void *opaque, hwaddr addr, unsigned size)
{
    IOAPICState *s = opaque;
    uint32_t val = 0;

    irqchip_lock();
    switch (addr & 0xff) {
    case IOAPIC_IOREGSEL:
        val = s->ioregsel;
        break;
    case IOAPIC_IOWIN:
        if (size == 4) {
            val = ioapic_read_window(s);
        }
        break;
    }
    irqchip_unlock();
    return val;
}

static void ioapic_write_entry(IOAPICState *s, int index, uint32_t val)
{
    uint64_t *entry = &s->ioredtbl[index];
    uint64_t ro_bits = *entry & RTE_RO_BITS;

    if (s->ioregsel & 1) {
        *entry = (*entry & 0xffffffffULL) | (uint64_t)val << 32;
    } else {
        *entry = (*entry & ~0xffffffffULL) | val;
    }
    *entry = (*entry & ~RTE_RO_BITS) | ro_bits;
    s->irq_eoi[index] = 0;
    /*
     * An edge-triggered entry has no remote IRR: Linux clears a stuck one
     * by switching the entry to edge and back (its __eoi_ioapic_pin)
     */
    if (!(*entry & RTE_TRIGGER_LEVEL)) {
        *entry &= ~RTE_REMOTE_IRR;
    }
    ioapic_service(s);
}

static void ioapic_write_window(IOAPICState *s, uint32_t val)
{
    int index;

    switch (s->ioregsel) {
    case IOAPIC_REG_ID:
        s->id = (val >> IOAPIC_ID_SHIFT) & IOAPIC_ID_MASK;
        break;
    case IOAPIC_REG_VER:
    case IOAPIC_REG_ARB:
        break;
    default:
        index = (s->ioregsel - IOAPIC_REG_REDTBL_BASE) >> 1;
        if (index >= 0 && index < IOAPIC_NUM_PINS) {
            ioapic_write_entry(s, index, val);
        }
        break;
    }
}

static void ioapic_mem_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    IOAPICState *s = opaque;

    irqchip_lock();
    switch (addr & 0xff) {
    case IOAPIC_IOREGSEL:
        s->ioregsel = val;
        break;
    case IOAPIC_IOWIN:
        if (size == 4) {
            ioapic_write_window(s, val);
        }
        break;
    case IOAPIC_EOI:
        /* the EOI register came with version 0x20 */
        if (size == 4 && s->version == 0x20) {
            for (int i = 0; i < IOAPIC_MAX; i++) {
                if (ioapics[i]) {
                    ioapic_eoi_one(ioapics[i], (int)val);
                }
            }
        }
        break;
    }
    ioapic_update_kvm_routes(s);
    irqchip_unlock();
}

static const MemoryRegionOps ioapic_ops = {
    .read = ioapic_mem_read,
    .write = ioapic_mem_write,
    .endianness = DEVICE_NATIVE_ENDIAN,
};

/* Reset ------------------------------------------------------------------ */

static void ioapic_reset(DeviceState *dev)
{
    IOAPICState *s = (IOAPICState *)dev;

    irqchip_lock();
    s->id = 0;
    s->ioregsel = 0;
    s->irr = 0;
    for (int i = 0; i < IOAPIC_NUM_PINS; i++) {
        s->ioredtbl[i] = RTE_MASKED;
    }
    ioapic_update_kvm_routes(s);
    irqchip_unlock();
}

/* Realize ---------------------------------------------------------------- */

static bool ioapic_realize(DeviceState *dev, Error **errp)
{
    IOAPICState *s = (IOAPICState *)dev;
    int slot;

    if (s->version != 0x11 && s->version != 0x20) {
        error_setg(errp, "IOAPIC only supports version 0x11 or 0x20 "
                   "(default: 0x20).");
        return false;
    }
    for (slot = 0; slot < IOAPIC_MAX && ioapics[slot]; slot++) {
    }
    if (slot == IOAPIC_MAX) {
        error_setg(errp, "Only %d ioapics allowed", IOAPIC_MAX);
        return false;
    }
    memory_region_init_io(&s->io, OBJECT(dev), &ioapic_ops, s, "ioapic",
                          0x1000);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->io);
    s->delayed_service = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                      ioapic_delayed_service, s);
    qdev_init_gpio_in(dev, ioapic_set_input, IOAPIC_NUM_PINS);
    ioapics[slot] = s;
    return true;
}

static void ioapic_unrealize(DeviceState *dev)
{
    IOAPICState *s = (IOAPICState *)dev;

    for (int i = 0; i < IOAPIC_MAX; i++) {
        if (ioapics[i] == s) {
            ioapics[i] = NULL;
        }
    }
    timer_free(s->delayed_service);
    s->delayed_service = NULL;
}

/* Property table --------------------------------------------------------- */

static Property ioapic_properties[] = {
    DEFINE_PROP_UINT8("version", IOAPICState, version, 0x20),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ------------------------------------------------------------ */

static void ioapic_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = ioapic_realize;
    dc->unrealize = ioapic_unrealize;
    dc->reset = ioapic_reset;
    device_class_set_props(dc, ioapic_properties);
    dc->user_creatable = false;
}

/* 7.2's abstract parent of ioapic and kvm-ioapic */
static const TypeInfo ioapic_common_info = {
    .name = TYPE_IOAPIC_COMMON,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(SysBusDevice),
    .abstract = true,
};

static const TypeInfo ioapic_info = {
    .name = TYPE_IOAPIC,
    .parent = TYPE_IOAPIC_COMMON,
    .instance_size = sizeof(IOAPICState),
    .class_init = ioapic_class_init,
};

static void ioapic_register_types(void)
{
    type_register_static(&ioapic_common_info);
    type_register_static(&ioapic_info);
}
type_init(ioapic_register_types)
