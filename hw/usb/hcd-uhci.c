/*
 * piix3-usb-uhci and piix4-usb-uhci: the UHCI USB 1.1 host controller of
 * the PIIX3 and PIIX4 southbridges (8086:7020 and 8086:7112, revision 1,
 * class 0c0300 prog-if 0, interrupt pin D, serial bus release 0x10 at
 * config 0x60), in QEMU 7.2's shape: abstract parent "pci-uhci-usb",
 * properties bandwidth (bytes a frame may carry) and maxframes (how far
 * the frame counter may lag behind the clock before frames are skipped),
 * a USB bus ("ID.0") with two root ports for full- and low-speed devices,
 * and the registers in BAR4 (32 bytes of I/O, "uhci"):
 *
 *   0x00 USBCMD    0x02 USBSTS (write 1 to clear)   0x04 USBINTR
 *   0x06 FRNUM (written only while halted)   0x08/0x0a FLBASEADD
 *   0x0c SOFMOD    0x10 PORTSC1    0x12 PORTSC2
 *
 * The registers are 16 bits wide as QEMU 7.2 decodes them: a byte access
 * reaches the 16-bit register at its own offset (so a byte at an odd
 * offset below 0x10 reads the "no register" value 0xff7f's low byte, and
 * one at 0x11 or 0x13 a port), a 32-bit access two registers.
 *
 * While USBCMD's Run bit is set, a timer on the VM clock runs one frame
 * per millisecond: the frame list entry for FRNUM, then the queue heads
 * and transfer descriptors it links, read from guest memory through the
 * function's bus master address space.  A walk ends after 256 links, at a
 * queue head seen twice in the frame with no transfer done since, or once
 * the frame's bandwidth is used, so a looping schedule cannot hang the
 * emulator.  QEMU 7.2's answers, which a guest's driver sees:
 *
 *   - an inactive TD is skipped (its interrupt-on-complete bit still
 *     counts for USBINT at the end of the frame);
 *   - a TD with a PID other than SETUP, IN or OUT stops the controller:
 *     host controller process error (always interrupts), Run cleared,
 *     HCHalted at the next tick;
 *   - a TD to an address no enabled port has a device at fails with a
 *     timeout: status bit 18 set, error counter (27-28) and Active
 *     cleared, USBSTS's error interrupt bit set; the queue head's element
 *     link stays where it was.
 *
 * No USB device type exists yet (include/hw/usb/usb.h), so every TD takes
 * the last answer; attach/detach keep the port status bits as 7.2 does
 * for when one does.
 */
#include <string.h>

#include "exec/memory.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/usb/usb.h"
#include "qemu/timer.h"
#include "sysemu/device.h"

/* State ------------------------------------------------------------------ */

#define TYPE_UHCI "pci-uhci-usb"

#define UHCI_PORTS 2
#define UHCI_FRAME_NS (NANOSECONDS_PER_SECOND / 1000)
#define UHCI_FRAME_MAX_LINKS 256
#define UHCI_MAX_FRAMES_PER_TICK 16
#define UHCI_MAX_QHS 128

#define UHCI_CMD_RS (1 << 0)
#define UHCI_CMD_HCRESET (1 << 1)
#define UHCI_CMD_GRESET (1 << 2)
#define UHCI_CMD_EGSM (1 << 3)
#define UHCI_CMD_FGR (1 << 4)

#define UHCI_STS_USBINT (1 << 0)
#define UHCI_STS_USBERR (1 << 1)
#define UHCI_STS_RD (1 << 2)
#define UHCI_STS_HSERR (1 << 3)
#define UHCI_STS_HCPERR (1 << 4)
#define UHCI_STS_HCHALTED (1 << 5)

#define UHCI_INTR_TIMEOUT_CRC (1 << 0)
#define UHCI_INTR_RESUME (1 << 1)
#define UHCI_INTR_IOC (1 << 2)
#define UHCI_INTR_SPD (1 << 3)

#define UHCI_PORT_CCS (1 << 0)
#define UHCI_PORT_CSC (1 << 1)
#define UHCI_PORT_EN (1 << 2)
#define UHCI_PORT_ENC (1 << 3)
#define UHCI_PORT_RD (1 << 6)
#define UHCI_PORT_ALWAYS1 (1 << 7)
#define UHCI_PORT_LSDA (1 << 8)
#define UHCI_PORT_RESET (1 << 9)
#define UHCI_PORT_SUSPEND (1 << 12)
/* Status the guest cannot write (CSC and ENC it clears by writing 1) */
#define UHCI_PORT_READ_ONLY 0x1bb
#define UHCI_PORT_WRITE_CLEAR (UHCI_PORT_CSC | UHCI_PORT_ENC)

#define TD_CTRL_TIMEOUT (1u << 18)
#define TD_CTRL_ACTIVE (1u << 23)
#define TD_CTRL_IOC (1u << 24)
#define TD_CTRL_ERROR_SHIFT 27

#define USB_TOKEN_SETUP 0x2d
#define USB_TOKEN_IN 0x69
#define USB_TOKEN_OUT 0xe1

#define LINK_TERMINATE (1u << 0)
#define LINK_QH (1u << 1)

/* Config space: serial bus release number, and the clock register */
#define UHCI_SBRN 0x60
#define UHCI_USB_RELEASE_1 0x10
#define UHCI_USBCLK 0x6a

/* What a TD's processing says about the rest of the frame */
typedef enum UHCITDResult {
    UHCI_TD_NEXT_QH,            /* on to the queue head's successor */
    UHCI_TD_STOP_FRAME,
} UHCITDResult;

typedef struct UHCIPort {
    USBPort port;
    uint16_t ctrl;
} UHCIPort;

typedef struct UHCIState {
    PCIDevice parent_obj;
    GMutex lock;
    MemoryRegion io_bar;
    USBBus *bus;
    UHCIPort ports[UHCI_PORTS];

    uint16_t cmd, status, intr, frnum;
    uint32_t fl_base_addr;
    uint8_t sof_timing;
    /* USBINT's causes: bit 0 interrupt on complete, bit 1 short packet */
    uint8_t status2;
    uint32_t pending_int_mask;  /* causes raised by the frames of a tick */
    QEMUTimer *frame_timer;
    int64_t expire_time;        /* the end of the frame the timer runs next */
    uint32_t frame_bytes;

    /* Properties */
    uint32_t frame_bandwidth;
    uint32_t maxframes;
} UHCIState;

typedef struct UHCITD {
    uint32_t link, ctrl, token, buffer;
} UHCITD;

#define UHCI(obj) ((UHCIState *)(obj))

/* Interrupt line, resume ---------------------------------------------------- */

static void uhci_update_irq(UHCIState *s)
{
    int level = ((s->status2 & 1) && (s->intr & UHCI_INTR_IOC)) ||
                ((s->status2 & 2) && (s->intr & UHCI_INTR_SPD)) ||
                ((s->status & UHCI_STS_USBERR) &&
                 (s->intr & UHCI_INTR_TIMEOUT_CRC)) ||
                ((s->status & UHCI_STS_RD) && (s->intr & UHCI_INTR_RESUME)) ||
                (s->status & (UHCI_STS_HSERR | UHCI_STS_HCPERR));

    pci_set_irq(PCI_DEVICE(s), level);
}

/* A resume while globally suspended: Force Global Resume, Resume Detect */
static void uhci_resume(UHCIState *s)
{
    if (s->cmd & UHCI_CMD_EGSM) {
        s->cmd |= UHCI_CMD_FGR;
        s->status |= UHCI_STS_RD;
        uhci_update_irq(s);
    }
}

/* Reset ------------------------------------------------------------------ */

static void uhci_port_attach_locked(UHCIState *s, UHCIPort *port);
static void uhci_port_detach_locked(UHCIState *s, UHCIPort *port);

/*
 * HCRESET, GRESET and the machine reset alike (7.2 keeps FRNUM and the
 * frame timer: a pending tick finds Run clear and halts)
 */
static void uhci_reset_locked(UHCIState *s)
{
    PCIDevice *d = PCI_DEVICE(s);
    int i;

    pci_lock();
    d->config[UHCI_USBCLK] = 0x01;
    d->config[UHCI_USBCLK + 1] = 0x00;
    pci_unlock();
    s->cmd = 0;
    s->status = UHCI_STS_HCHALTED;
    s->status2 = 0;
    s->intr = 0;
    s->fl_base_addr = 0;
    s->sof_timing = 64;
    for (i = 0; i < UHCI_PORTS; i++) {
        UHCIPort *port = &s->ports[i];

        port->ctrl = UHCI_PORT_ALWAYS1;
        if (port->port.dev) {
            /* a port reset: the device leaves and comes back */
            uhci_port_detach_locked(s, port);
            uhci_port_attach_locked(s, port);
        }
    }
    uhci_update_irq(s);
}

static void uhci_device_reset(DeviceState *dev)
{
    UHCIState *s = UHCI(dev);

    pci_device_reset_config(PCI_DEVICE(dev));
    g_mutex_lock(&s->lock);
    uhci_reset_locked(s);
    g_mutex_unlock(&s->lock);
}

/* Register read/write ---------------------------------------------------- */

static UHCIPort *uhci_port_at(UHCIState *s, hwaddr addr)
{
    unsigned n = (addr >> 1) & 7;    /* 0x11 and 0x13 decode as ports too */

    return n < UHCI_PORTS ? &s->ports[n] : NULL;
}

static void uhci_cmd_write(UHCIState *s, uint16_t val)
{
    if ((val & UHCI_CMD_RS) && !(s->cmd & UHCI_CMD_RS)) {
        s->expire_time = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                         UHCI_FRAME_NS;
        if (s->frame_timer) {       /* NULL: being unplugged */
            timer_mod(s->frame_timer, s->expire_time);
        }
        s->status &= ~UHCI_STS_HCHALTED;
    } else if (!(val & UHCI_CMD_RS)) {
        s->status |= UHCI_STS_HCHALTED;
    }
    if (val & (UHCI_CMD_GRESET | UHCI_CMD_HCRESET)) {
        /* GRESET also resets the devices, which the port reset below does */
        uhci_reset_locked(s);
        return;
    }
    s->cmd = val;
    if ((val & UHCI_CMD_EGSM) &&
        ((s->ports[0].ctrl & UHCI_PORT_RD) ||
         (s->ports[1].ctrl & UHCI_PORT_RD))) {
        uhci_resume(s);
    }
}

static void uhci_portsc_write(UHCIPort *port, uint16_t val)
{
    port->ctrl &= UHCI_PORT_READ_ONLY;
    if (!(port->ctrl & UHCI_PORT_CCS)) {
        val &= ~UHCI_PORT_EN;       /* nothing to enable */
    }
    port->ctrl |= val & ~UHCI_PORT_READ_ONLY;
    port->ctrl &= ~(val & UHCI_PORT_WRITE_CLEAR);
}

static void uhci_io_write(void *opaque, hwaddr addr, uint64_t data,
                          unsigned size)
{
    UHCIState *s = opaque;
    uint16_t val = data;
    UHCIPort *port;

    g_mutex_lock(&s->lock);
    switch (addr) {
    case 0x00:
        uhci_cmd_write(s, val);
        break;
    case 0x02:
        s->status &= ~val;
        /* USBINT's causes go with it */
        if (val & UHCI_STS_USBINT) {
            s->status2 = 0;
        }
        uhci_update_irq(s);
        break;
    case 0x04:
        s->intr = val;
        uhci_update_irq(s);
        break;
    case 0x06:
        if (s->status & UHCI_STS_HCHALTED) {
            s->frnum = val & 0x7ff;
        }
        break;
    case 0x08:
        s->fl_base_addr = (s->fl_base_addr & 0xffff0000) | (val & ~0xfff);
        break;
    case 0x0a:
        s->fl_base_addr = (s->fl_base_addr & 0x0000ffff) |
                          ((uint32_t)val << 16);
        break;
    case 0x0c:
        s->sof_timing = val & 0xff;
        break;
    case 0x10 ... 0x1f:
        port = uhci_port_at(s, addr);
        if (port) {
            uhci_portsc_write(port, val);
        }
        break;
    }
    g_mutex_unlock(&s->lock);
}

static uint64_t uhci_io_read(void *opaque, hwaddr addr, unsigned size)
{
    UHCIState *s = opaque;
    uint16_t val = 0xff7f;      /* a disabled port's, anywhere unused */
    UHCIPort *port;

    g_mutex_lock(&s->lock);
    switch (addr) {
    case 0x00:
        val = s->cmd;
        break;
    case 0x02:
        val = s->status;
        break;
    case 0x04:
        val = s->intr;
        break;
    case 0x06:
        val = s->frnum;
        break;
    case 0x08:
        val = s->fl_base_addr & 0xffff;
        break;
    case 0x0a:
        val = s->fl_base_addr >> 16;
        break;
    case 0x0c:
        val = s->sof_timing;
        break;
    case 0x10 ... 0x1f:
        port = uhci_port_at(s, addr);
        if (port) {
            val = port->ctrl;
        }
        break;
    }
    g_mutex_unlock(&s->lock);
    return val;
}

static const MemoryRegionOps uhci_io_ops = {
    .read = uhci_io_read,
    .write = uhci_io_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 2,
    .impl.max_access_size = 2,
};

/* Root ports --------------------------------------------------------------- */

static void uhci_port_attach_locked(UHCIState *s, UHCIPort *port)
{
    port->ctrl |= UHCI_PORT_CCS | UHCI_PORT_CSC;
    if (port->port.dev->speed == USB_SPEED_LOW) {
        port->ctrl |= UHCI_PORT_LSDA;
    } else {
        port->ctrl &= ~UHCI_PORT_LSDA;
    }
    uhci_resume(s);
}

static void uhci_port_detach_locked(UHCIState *s, UHCIPort *port)
{
    if (port->ctrl & UHCI_PORT_CCS) {
        port->ctrl &= ~UHCI_PORT_CCS;
        port->ctrl |= UHCI_PORT_CSC;
    }
    if (port->ctrl & UHCI_PORT_EN) {
        port->ctrl &= ~UHCI_PORT_EN;
        port->ctrl |= UHCI_PORT_ENC;
    }
    uhci_resume(s);
}

static void uhci_attach(USBPort *p)
{
    UHCIState *s = p->opaque;

    g_mutex_lock(&s->lock);
    uhci_port_attach_locked(s, &s->ports[p->index]);
    g_mutex_unlock(&s->lock);
}

static void uhci_detach(USBPort *p)
{
    UHCIState *s = p->opaque;

    g_mutex_lock(&s->lock);
    uhci_port_detach_locked(s, &s->ports[p->index]);
    g_mutex_unlock(&s->lock);
}

/* A suspended port's device signals resume */
static void uhci_wakeup(USBPort *p)
{
    UHCIState *s = p->opaque;
    UHCIPort *port = &s->ports[p->index];

    g_mutex_lock(&s->lock);
    if ((port->ctrl & UHCI_PORT_SUSPEND) && !(port->ctrl & UHCI_PORT_RD)) {
        port->ctrl |= UHCI_PORT_RD;
        uhci_resume(s);
    }
    g_mutex_unlock(&s->lock);
}

static const USBPortOps uhci_port_ops = {
    .attach = uhci_attach,
    .detach = uhci_detach,
    .wakeup = uhci_wakeup,
};

/* The schedule ------------------------------------------------------------ */

static uint32_t uhci_dma_ldl(UHCIState *s, uint32_t addr)
{
    return ldl_le_phys(pci_get_address_space(PCI_DEVICE(s)), addr);
}

static void uhci_read_td(UHCIState *s, UHCITD *td, uint32_t link)
{
    uint8_t buf[16];

    address_space_read(pci_get_address_space(PCI_DEVICE(s)), link & ~0xfu,
                       MEMTXATTRS_UNSPECIFIED, buf, sizeof(buf));
    td->link = pci_get_long(buf);
    td->ctrl = pci_get_long(buf + 4);
    td->token = pci_get_long(buf + 8);
    td->buffer = pci_get_long(buf + 12);
}

/* A transaction that found no device: timeout, the TD retired */
static UHCITDResult uhci_td_no_device(UHCIState *s, UHCITD *td,
                                      uint32_t *int_mask)
{
    td->ctrl |= TD_CTRL_TIMEOUT;
    td->ctrl &= ~(3u << TD_CTRL_ERROR_SHIFT);
    td->ctrl &= ~TD_CTRL_ACTIVE;
    s->status |= UHCI_STS_USBERR;
    if (td->ctrl & TD_CTRL_IOC) {
        *int_mask |= 1;
    }
    uhci_update_irq(s);
    return UHCI_TD_NEXT_QH;
}

static UHCITDResult uhci_handle_td(UHCIState *s, UHCITD *td,
                                   uint32_t *int_mask)
{
    uint8_t pid = td->token & 0xff;

    if (!(td->ctrl & TD_CTRL_ACTIVE)) {
        /* an inactive TD still interrupts on complete when fetched */
        if (td->ctrl & TD_CTRL_IOC) {
            *int_mask |= 1;
        }
        return UHCI_TD_NEXT_QH;
    }
    if (pid != USB_TOKEN_OUT && pid != USB_TOKEN_SETUP &&
        pid != USB_TOKEN_IN) {
        s->status |= UHCI_STS_HCPERR;
        s->cmd &= ~UHCI_CMD_RS;
        uhci_update_irq(s);
        return UHCI_TD_STOP_FRAME;
    }
    /*
     * The device the token's address names, on an enabled port: USB
     * devices have no address or packet handling yet (hw/usb/usb.h), so
     * none answers, as in 7.2 with nothing plugged in
     */
    return uhci_td_no_device(s, td, int_mask);
}

/* Queue heads met in this frame: true if seen before or no room left */
static bool uhci_qh_seen(uint32_t *seen, int *count, uint32_t link)
{
    int i;

    for (i = 0; i < *count; i++) {
        if (seen[i] == link) {
            return true;
        }
    }
    if (*count >= UHCI_MAX_QHS) {
        return true;
    }
    seen[(*count)++] = link;
    return false;
}

static void uhci_process_frame(UHCIState *s)
{
    uint32_t seen[UHCI_MAX_QHS];
    uint32_t link, curr_qh = 0, qh_link = 0, int_mask = 0;
    uint32_t td_count = 0;      /* transfers done since the last loop */
    int count = 0, n;
    UHCITD td;

    link = uhci_dma_ldl(s, s->fl_base_addr + ((s->frnum & 0x3ff) << 2));
    for (n = UHCI_FRAME_MAX_LINKS; !(link & LINK_TERMINATE) && n; n--) {
        uint32_t old_ctrl;

        if (s->frame_bytes >= s->frame_bandwidth) {
            break;
        }
        if (link & LINK_QH) {
            uint32_t element;

            if (uhci_qh_seen(seen, &count, link)) {
                /* a loop is fine while it moves data; idle, stop */
                if (td_count == 0) {
                    break;
                }
                td_count = 0;
                count = 0;
                uhci_qh_seen(seen, &count, link);
            }
            qh_link = uhci_dma_ldl(s, link & ~0xfu);
            element = uhci_dma_ldl(s, (link & ~0xfu) + 4);
            if (element & LINK_TERMINATE) {
                curr_qh = 0;
                link = qh_link;
            } else {
                curr_qh = link;
                link = element;
            }
            continue;
        }
        uhci_read_td(s, &td, link);
        old_ctrl = td.ctrl;
        if (uhci_handle_td(s, &td, &int_mask) == UHCI_TD_STOP_FRAME) {
            break;
        }
        if (td.ctrl != old_ctrl) {
            stl_le_phys(pci_get_address_space(PCI_DEVICE(s)),
                        (link & ~0xfu) + 4, td.ctrl);
        }
        link = curr_qh ? qh_link : td.link;
    }
    s->pending_int_mask |= int_mask;
}

static void uhci_frame_timer(void *opaque)
{
    UHCIState *s = opaque;
    int64_t now, last_run;
    int64_t frames, i;

    g_mutex_lock(&s->lock);
    if (!(s->cmd & UHCI_CMD_RS)) {
        timer_del(s->frame_timer);
        s->status |= UHCI_STS_HCHALTED;
        g_mutex_unlock(&s->lock);
        return;
    }
    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    last_run = s->expire_time - UHCI_FRAME_NS;
    frames = (now - last_run) / UHCI_FRAME_NS;
    if (frames > s->maxframes) {
        int64_t skipped = frames - s->maxframes;

        s->expire_time += skipped * UHCI_FRAME_NS;
        s->frnum = (s->frnum + skipped) & 0x7ff;
        frames -= skipped;
    }
    if (frames > UHCI_MAX_FRAMES_PER_TICK) {
        frames = UHCI_MAX_FRAMES_PER_TICK;
    }
    for (i = 0; i < frames; i++) {
        s->frame_bytes = 0;
        uhci_process_frame(s);
        /* FRNUM names the frame being run: the guest looks one back */
        s->frnum = (s->frnum + 1) & 0x7ff;
        s->expire_time += UHCI_FRAME_NS;
    }
    if (s->pending_int_mask) {
        s->status2 |= s->pending_int_mask;
        s->status |= UHCI_STS_USBINT;
        uhci_update_irq(s);
    }
    s->pending_int_mask = 0;
    timer_mod(s->frame_timer, now + UHCI_FRAME_NS);
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static bool uhci_realize(PCIDevice *dev, Error **errp)
{
    UHCIState *s = UHCI(dev);
    int i;

    dev->config[PCI_CLASS_PROG] = 0x00;
    dev->config[UHCI_SBRN] = UHCI_USB_RELEASE_1;
    dev->config[PCI_INTERRUPT_PIN] = 4;     /* INTD# */
    s->bus = usb_bus_new(DEVICE(dev));
    for (i = 0; i < UHCI_PORTS; i++) {
        usb_register_port(s->bus, &s->ports[i].port, s, i, &uhci_port_ops,
                          USB_SPEED_MASK_LOW | USB_SPEED_MASK_FULL);
    }
    s->frame_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, uhci_frame_timer, s);
    memory_region_init_io(&s->io_bar, OBJECT(dev), &uhci_io_ops, s, "uhci",
                          0x20);
    pci_register_bar(dev, 4, PCI_BASE_ADDRESS_SPACE_IO, &s->io_bar);
    return true;
}

static void uhci_exit(PCIDevice *dev)
{
    UHCIState *s = UHCI(dev);
    int i;

    /* a vCPU may still be in the registers until the BAR is gone */
    g_mutex_lock(&s->lock);
    timer_free(s->frame_timer);
    s->frame_timer = NULL;
    g_mutex_unlock(&s->lock);
    for (i = 0; i < UHCI_PORTS; i++) {
        usb_unregister_port(s->bus, &s->ports[i].port);
    }
}

static void uhci_instance_init(Object *obj)
{
    g_mutex_init(&UHCI(obj)->lock);
}

static void uhci_instance_finalize(Object *obj)
{
    g_mutex_clear(&UHCI(obj)->lock);
}

/* Properties and registration ---------------------------------------------- */

static Property uhci_properties[] = {
    DEFINE_PROP_UINT32("bandwidth", UHCIState, frame_bandwidth, 1280),
    DEFINE_PROP_UINT32("maxframes", UHCIState, maxframes, 128),
    DEFINE_PROP_END_OF_LIST(),
};

static void uhci_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = uhci_realize;
    pc->exit = uhci_exit;
    pc->class_id = 0x0c03;      /* USB controller */
    pc->vendor_id = 0x8086;
    pc->revision = 0x01;
    dc->reset = uhci_device_reset;
    dc->categories = 1u << DEVICE_CATEGORY_USB;
    dc->user_creatable = true;
    dc->hotpluggable = true;
    device_class_set_props(dc, uhci_properties);
}

static void uhci_piix3_class_init(ObjectClass *oc, void *data)
{
    PCI_DEVICE_CLASS(oc)->device_id = 0x7020;   /* 82371SB function 2 */
}

static void uhci_piix4_class_init(ObjectClass *oc, void *data)
{
    PCI_DEVICE_CLASS(oc)->device_id = 0x7112;   /* 82371AB function 2 */
}

static void uhci_register_types(void)
{
    static const TypeInfo infos[] = {
        {
            .name = TYPE_UHCI,
            .parent = TYPE_PCI_DEVICE,
            .abstract = true,
            .instance_size = sizeof(UHCIState),
            .instance_init = uhci_instance_init,
            .instance_finalize = uhci_instance_finalize,
            .class_size = sizeof(PCIDeviceClass),
            .class_init = uhci_class_init,
        },
        {
            .name = "piix3-usb-uhci",
            .parent = TYPE_UHCI,
            .class_init = uhci_piix3_class_init,
        },
        {
            .name = "piix4-usb-uhci",
            .parent = TYPE_UHCI,
            .class_init = uhci_piix4_class_init,
        },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(infos); i++) {
        type_register_static(&infos[i]);
    }
}
type_init(uhci_register_types)
