/*
 * The xHCI core, "base-xhci" (include/hw/usb/xhci.h), with QEMU 7.2's
 * register model and command handling.
 *
 * Capabilities: CAPLENGTH 0x40 with HCIVERSION 1.0; HCSPARAMS1 ports <<
 * 24 | interrupters << 8 | slots; HCSPARAMS2 0xf (ERST max 2^15), 3 zero;
 * HCCPARAMS1 0x00080001 (64-bit, extended capabilities at 0x20) with
 * MaxPSASize 7 while streams are on; DBOFF 0x2000, RTSOFF 0x1000; two
 * Supported Protocol capabilities, USB 2.0 at 0x20 and USB 3.0 at 0x30,
 * each naming its ports' range.  Nothing else reads other than 0.
 *
 * Operational: USBCMD (R/S, HCRST, INTE, HSEE, LHCRST, CSS, CRS, EWE, EU3S
 * kept), USBSTS (HCH while stopped, EINT/HSE/PCD/SRE write 1 to clear;
 * CNR never set, HCE once a DMA access failed), PAGESIZE 4 KiB, DNCTRL,
 * CRCR (reads back without CS/CA/CRR's neighbours, CRR while the ring
 * runs; writing the high half starts the ring there, or stops it with
 * a Command Ring Stopped completion), DCBAAP, CONFIG.  Ports: PORTSC with
 * PP, link state, the change bits (write 1 to clear) and the writable
 * wake bits; an empty port reads PP | RxDetect | CSC after reset, and
 * resetting it (PR or WPR) changes nothing, as in 7.2.
 *
 * Runtime: MFINDEX counts 125 us microframes of the virtual clock since
 * the controller was last started (or reset); interrupter n's IMAN (IP
 * write 1 to clear, IE), IMOD, ERSTSZ, ERSTBA (writing its high half
 * reads the one segment the ERST may have), ERDP (EHB write 1 to clear).
 *
 * Doorbell 0 runs the command ring (hw/usb/hcd-xhci-ring.c); slot
 * doorbells kick endpoints, and none is enabled without a USB device.
 */
#include <stdio.h>
#include <string.h>

#include "hcd-xhci-internal.h"
#include "hw/qdev-properties.h"

/* MFINDEX and its wrap event ------------------------------------------- */

static uint32_t xhci_mfindex(XHCIState *s)
{
    return (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->mfindex_start) /
           125000;
}

static void xhci_mfwrap_update(XHCIState *s)
{
    int64_t now;

    if ((s->usbcmd & (USBCMD_RS | USBCMD_EWE)) ==
        (USBCMD_RS | USBCMD_EWE)) {
        now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        timer_mod(s->mfwrap_timer, now + (int64_t)(0x4000 -
                  (xhci_mfindex(s) & 0x3fff)) * 125000);
    } else {
        timer_del(s->mfwrap_timer);
    }
}

static void xhci_mfwrap_timer(void *opaque)
{
    XHCIState *s = opaque;
    XHCIEvent wrap = { ER_MFINDEX_WRAP, CC_SUCCESS };

    g_mutex_lock(&s->lock);
    xhci_event(s, &wrap, 0);
    xhci_mfwrap_update(s);
    g_mutex_unlock(&s->lock);
}

/* Ports ------------------------------------------------------------------ */

static bool xhci_port_have_device(XHCIPort *port)
{
    return port->uport->dev &&
           ((1u << port->uport->dev->speed) & port->speedmask);
}

static void xhci_port_notify(XHCIPort *port, uint32_t bits)
{
    XHCIEvent ev = { ER_PORT_STATUS_CHANGE, CC_SUCCESS,
                     (uint64_t)port->portnr << 24 };

    if ((port->portsc & bits) == bits) {
        return;
    }
    port->portsc |= bits;
    if (xhci_running(port->xhci)) {
        xhci_event(port->xhci, &ev, 0);
    }
}

static void xhci_port_update(XHCIPort *port, bool is_detach)
{
    uint32_t pls = PLS_RX_DETECT;

    port->portsc = PORTSC_PP;
    if (!is_detach && xhci_port_have_device(port)) {
        port->portsc |= PORTSC_CCS;
        switch (port->uport->dev->speed) {
        case USB_SPEED_LOW:
            port->portsc |= PORTSC_SPEED_LOW;
            pls = PLS_POLLING;
            break;
        case USB_SPEED_FULL:
            port->portsc |= PORTSC_SPEED_FULL;
            pls = PLS_POLLING;
            break;
        case USB_SPEED_HIGH:
            port->portsc |= PORTSC_SPEED_HIGH;
            pls = PLS_POLLING;
            break;
        case USB_SPEED_SUPER:
            port->portsc |= PORTSC_SPEED_SUPER | PORTSC_PED;
            pls = PLS_U0;
            break;
        }
    }
    port->portsc = (port->portsc & ~(PORTSC_PLS_MASK << PORTSC_PLS_SHIFT)) |
                   pls << PORTSC_PLS_SHIFT;
    xhci_port_notify(port, PORTSC_CSC);
}

/* A port reset: an empty port ignores it, as 7.2 */
static void xhci_port_reset(XHCIPort *port, bool warm)
{
    if (!xhci_port_have_device(port)) {
        return;
    }
    if (warm && port->uport->dev->speed == USB_SPEED_SUPER) {
        port->portsc |= PORTSC_WRC;
    }
    port->portsc &= ~(PORTSC_PLS_MASK << PORTSC_PLS_SHIFT | PORTSC_PR);
    port->portsc |= PORTSC_PED | PLS_U0 << PORTSC_PLS_SHIFT;
    xhci_port_notify(port, PORTSC_PRC);
}

/* The XHCIPort a USB port's device is on, by its speed */
static XHCIPort *xhci_lookup_port(XHCIState *s, USBPort *uport)
{
    unsigned index;

    if (!uport->dev) {
        return NULL;
    }
    if (uport->dev->speed == USB_SPEED_SUPER) {
        index = uport->index + (s->ss_first ? 0 : s->numports_2);
    } else {
        index = uport->index + (s->ss_first ? s->numports_3 : 0);
    }
    return &s->ports[index];
}

static void xhci_attach(USBPort *uport)
{
    XHCIState *s = uport->opaque;
    XHCIPort *port;

    g_mutex_lock(&s->lock);
    port = xhci_lookup_port(s, uport);
    if (port) {
        xhci_port_update(port, false);
    }
    g_mutex_unlock(&s->lock);
}

static void xhci_detach(USBPort *uport)
{
    XHCIState *s = uport->opaque;
    XHCIPort *port;
    unsigned i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < s->numslots; i++) {
        if (s->slots[i].uport == uport) {
            s->slots[i].uport = NULL;
        }
    }
    port = xhci_lookup_port(s, uport);
    if (port) {
        xhci_port_update(port, true);
    }
    g_mutex_unlock(&s->lock);
}

static const USBPortOps xhci_uport_ops = {
    .attach = xhci_attach,
    .detach = xhci_detach,
};

/* Register reads and writes (lock held by the wrappers) --------------- */

static uint32_t xhci_cap_read_locked(XHCIState *s, hwaddr reg)
{
    uint32_t first2 = s->ss_first ? s->numports_3 + 1 : 1;
    uint32_t first3 = s->ss_first ? 1 : s->numports_2 + 1;

    switch (reg) {
    case 0x00:
        return 0x01000000 | LEN_CAP;
    case 0x04:
        return (s->numports_2 + s->numports_3) << 24 | s->numintrs << 8 |
               s->numslots;
    case 0x08:
        return 0x0000000f;
    case 0x10:
        return 0x00080001 | (s->streams ? 7u << 12 : 0);
    case 0x14:
        return OFF_DOORBELL;
    case 0x18:
        return OFF_RUNTIME;
    case 0x20:
        return 0x02000402;          /* USB 2.0, next capability at +0x10 */
    case 0x24:
    case 0x34:
        return 0x20425355;          /* "USB " */
    case 0x28:
        return s->numports_2 << 8 | first2;
    case 0x30:
        return 0x03000002;          /* USB 3.0, the last capability */
    case 0x38:
        return s->numports_3 << 8 | first3;
    default:
        return 0;
    }
}

static uint32_t xhci_oper_read_locked(XHCIState *s, hwaddr reg)
{
    switch (reg) {
    case 0x00:
        return s->usbcmd;
    case 0x04:
        return s->usbsts;
    case 0x08:
        return 1;                   /* 4 KiB pages */
    case 0x14:
        return s->dnctrl;
    case 0x18:
        return s->crcr_low & ~0xeu;
    case 0x1c:
        return s->crcr_high;
    case 0x30:
        return s->dcbaap_low;
    case 0x34:
        return s->dcbaap_high;
    case 0x38:
        return s->config;
    default:
        return 0;
    }
}

static void xhci_oper_write_locked(XHCIState *s, hwaddr reg, uint32_t val)
{
    switch (reg) {
    case 0x00:
        if ((val & USBCMD_RS) && !(s->usbcmd & USBCMD_RS)) {
            s->usbsts &= ~USBSTS_HCH;
            s->mfindex_start = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        } else if (!(val & USBCMD_RS) && (s->usbcmd & USBCMD_RS)) {
            s->usbsts |= USBSTS_HCH;
            s->crcr_low &= ~CRCR_CRR;
        }
        if (val & USBCMD_CSS) {
            s->usbsts &= ~USBSTS_SRE;
        }
        if (val & USBCMD_CRS) {
            s->usbsts |= USBSTS_SRE;
        }
        s->usbcmd = val & 0xc0f;
        xhci_mfwrap_update(s);
        if (val & USBCMD_HCRST) {
            xhci_reset(s);
        }
        xhci_intr_update(s, 0);
        break;
    case 0x04:
        s->usbsts &= ~(val & (USBSTS_HSE | USBSTS_EINT | USBSTS_PCD |
                              USBSTS_SRE));
        xhci_intr_update(s, 0);
        break;
    case 0x14:
        s->dnctrl = val & 0xffff;
        break;
    case 0x18:
        s->crcr_low = (val & 0xffffffcfu) | (s->crcr_low & CRCR_CRR);
        break;
    case 0x1c:
        s->crcr_high = val;
        if ((s->crcr_low & (CRCR_CA | CRCR_CS)) &&
            (s->crcr_low & CRCR_CRR)) {
            XHCIEvent ev = { ER_COMMAND_COMPLETE, CC_COMMAND_RING_STOPPED };

            s->crcr_low &= ~CRCR_CRR;
            xhci_event(s, &ev, 0);
        } else {
            s->cmd_ring.dequeue = xhci_addr64(s->crcr_low & ~0x3fu, val);
            s->cmd_ring.ccs = true;
        }
        s->crcr_low &= ~(CRCR_CA | CRCR_CS);
        break;
    case 0x30:
        s->dcbaap_low = val & 0xffffffc0u;
        break;
    case 0x34:
        s->dcbaap_high = val;
        break;
    case 0x38:
        s->config = val & 0xff;
        break;
    }
}

static uint32_t xhci_runtime_read_locked(XHCIState *s, hwaddr reg)
{
    XHCIInterrupter *intr;

    if (reg < 0x20) {
        return reg == 0 ? xhci_mfindex(s) & 0x3fff : 0;
    }
    intr = &s->intr[(reg - 0x20) / 0x20];
    switch (reg & 0x1f) {
    case 0x00:
        return intr->iman;
    case 0x04:
        return intr->imod;
    case 0x08:
        return intr->erstsz;
    case 0x10:
        return intr->erstba_low;
    case 0x14:
        return intr->erstba_high;
    case 0x18:
        return intr->erdp_low;
    case 0x1c:
        return intr->erdp_high;
    default:
        return 0;
    }
}

static void xhci_runtime_write_locked(XHCIState *s, hwaddr reg, uint32_t val)
{
    XHCIInterrupter *intr;
    int v;

    if (reg < 0x20) {
        return;
    }
    v = (reg - 0x20) / 0x20;
    intr = &s->intr[v];
    switch (reg & 0x1f) {
    case 0x00:
        if (val & IMAN_IP) {
            intr->iman &= ~IMAN_IP;
        }
        intr->iman = (intr->iman & ~IMAN_IE) | (val & IMAN_IE);
        xhci_intr_update(s, v);
        break;
    case 0x04:
        intr->imod = val;
        break;
    case 0x08:
        intr->erstsz = val & 0xffff;
        break;
    case 0x10:
        intr->erstba_low = val & 0xffffffc0u;
        break;
    case 0x14:
        intr->erstba_high = val;
        xhci_er_reset(s, v);
        break;
    case 0x18:
        intr->erdp_low = (val & ~ERDP_EHB) |
                         ((val & ERDP_EHB) ? 0 : intr->erdp_low & ERDP_EHB);
        if (val & ERDP_EHB) {
            uint64_t erdp = xhci_addr64(intr->erdp_low, intr->erdp_high);

            /* events still waiting past the new dequeue raise it again */
            if (erdp >= intr->er_start &&
                erdp < intr->er_start + TRB_SIZE * (uint64_t)intr->er_size &&
                (erdp - intr->er_start) / TRB_SIZE != intr->er_ep_idx) {
                xhci_intr_raise(s, v);
            }
        }
        break;
    case 0x1c:
        intr->erdp_high = val;
        break;
    }
}

static void xhci_port_write_locked(XHCIPort *port, hwaddr reg, uint32_t val)
{
    uint32_t portsc, notify = 0;

    if (reg != 0) {
        return;
    }
    if (val & PORTSC_WPR) {
        xhci_port_reset(port, true);
        return;
    }
    if (val & PORTSC_PR) {
        xhci_port_reset(port, false);
        return;
    }
    portsc = port->portsc;
    portsc &= ~(val & (PORTSC_CSC | PORTSC_PEC | PORTSC_WRC | PORTSC_OCC |
                       PORTSC_PRC | PORTSC_PLC | PORTSC_CEC));
    if (val & PORTSC_LWS) {
        uint32_t old_pls = (port->portsc >> PORTSC_PLS_SHIFT) &
                           PORTSC_PLS_MASK;
        uint32_t new_pls = (val >> PORTSC_PLS_SHIFT) & PORTSC_PLS_MASK;
        bool take = (new_pls == PLS_U0 && old_pls != PLS_U0) ||
                    (new_pls == PLS_U3 && old_pls < PLS_U3);

        if (take) {
            portsc = (portsc & ~(PORTSC_PLS_MASK << PORTSC_PLS_SHIFT)) |
                     new_pls << PORTSC_PLS_SHIFT;
            if (new_pls == PLS_U0) {
                notify = PORTSC_PLC;
            }
        }
    }
    portsc &= ~(PORTSC_PP | PORTSC_WCE | PORTSC_WDE | PORTSC_WOE);
    portsc |= val & (PORTSC_PP | PORTSC_WCE | PORTSC_WDE | PORTSC_WOE);
    port->portsc = portsc;
    if (notify) {
        xhci_port_notify(port, notify);
    }
}

static void xhci_doorbell_write_locked(XHCIState *s, hwaddr reg,
                                       uint32_t val)
{
    if (!xhci_running(s)) {
        return;
    }
    /* slot doorbells kick endpoints, and none is ever enabled here */
    if (reg == 0 && val == 0) {
        xhci_process_commands(s);
    }
}

/* MMIO ------------------------------------------------------------------- */

static uint64_t xhci_cap_read(void *opaque, hwaddr addr, unsigned size)
{
    XHCIState *s = opaque;
    uint32_t v;

    g_mutex_lock(&s->lock);
    v = xhci_cap_read_locked(s, addr);
    g_mutex_unlock(&s->lock);
    return v;
}

static void xhci_cap_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
}

static uint64_t xhci_oper_read(void *opaque, hwaddr addr, unsigned size)
{
    XHCIState *s = opaque;
    uint32_t v;

    g_mutex_lock(&s->lock);
    v = xhci_oper_read_locked(s, addr);
    g_mutex_unlock(&s->lock);
    return v;
}

static void xhci_oper_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    XHCIState *s = opaque;

    g_mutex_lock(&s->lock);
    xhci_oper_write_locked(s, addr, val);
    g_mutex_unlock(&s->lock);
}

static uint64_t xhci_runtime_read(void *opaque, hwaddr addr, unsigned size)
{
    XHCIState *s = opaque;
    uint32_t v;

    g_mutex_lock(&s->lock);
    v = xhci_runtime_read_locked(s, addr);
    g_mutex_unlock(&s->lock);
    return v;
}

static void xhci_runtime_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    XHCIState *s = opaque;

    g_mutex_lock(&s->lock);
    xhci_runtime_write_locked(s, addr, val);
    g_mutex_unlock(&s->lock);
}

static uint64_t xhci_port_read(void *opaque, hwaddr addr, unsigned size)
{
    XHCIPort *port = opaque;
    uint32_t v;

    g_mutex_lock(&port->xhci->lock);
    v = addr == 0 ? port->portsc : 0;
    g_mutex_unlock(&port->xhci->lock);
    return v;
}

static void xhci_port_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    XHCIPort *port = opaque;

    g_mutex_lock(&port->xhci->lock);
    xhci_port_write_locked(port, addr, val);
    g_mutex_unlock(&port->xhci->lock);
}

static uint64_t xhci_doorbell_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
}

static void xhci_doorbell_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    XHCIState *s = opaque;

    g_mutex_lock(&s->lock);
    xhci_doorbell_write_locked(s, addr >> 2, val);
    g_mutex_unlock(&s->lock);
}

/* Access sizes as 7.2's: capabilities by any size, the rest by dwords
 * (operational and runtime qwords as two) */
static const MemoryRegionOps xhci_cap_ops = {
    .read = xhci_cap_read,
    .write = xhci_cap_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

static const MemoryRegionOps xhci_oper_ops = {
    .read = xhci_oper_read,
    .write = xhci_oper_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
};

static const MemoryRegionOps xhci_port_ops = {
    .read = xhci_port_read,
    .write = xhci_port_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

static const MemoryRegionOps xhci_runtime_ops = {
    .read = xhci_runtime_read,
    .write = xhci_runtime_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
};

static const MemoryRegionOps xhci_doorbell_ops = {
    .read = xhci_doorbell_read,
    .write = xhci_doorbell_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

/* Reset ------------------------------------------------------------------ */

void xhci_reset(XHCIState *s)
{
    unsigned i;

    s->usbcmd = 0;
    s->usbsts = USBSTS_HCH;
    s->dnctrl = 0;
    s->crcr_low = s->crcr_high = 0;
    s->dcbaap_low = s->dcbaap_high = 0;
    s->config = 0;
    for (i = 0; i < s->numslots; i++) {
        xhci_disable_slot(s, i + 1);
    }
    for (i = 0; i < s->numports; i++) {
        xhci_port_update(&s->ports[i], false);
    }
    for (i = 0; i < s->numintrs; i++) {
        XHCIInterrupter *intr = &s->intr[i];

        /* msix_used stays: 7.2 keeps the vector in use over a reset */
        intr->iman = intr->imod = intr->erstsz = 0;
        intr->erstba_low = intr->erstba_high = 0;
        intr->erdp_low = intr->erdp_high = 0;
        intr->er_ep_idx = 0;
        intr->er_pcs = true;
    }
    s->mfindex_start = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    xhci_mfwrap_update(s);
}

/* Realize ---------------------------------------------------------------- */

static void xhci_init_ports(XHCIState *s)
{
    unsigned i, n = MAX(s->numports_2, s->numports_3);

    s->numports = s->numports_2 + s->numports_3;
    s->bus = usb_bus_new(DEVICE(s->host));
    for (i = 0; i < n; i++) {
        int speedmask = 0;
        XHCIPort *port;

        if (i < s->numports_2) {
            port = &s->ports[i + (s->ss_first ? s->numports_3 : 0)];
            port->portnr = i + 1 + (s->ss_first ? s->numports_3 : 0);
            port->uport = &s->uports[i];
            port->speedmask = USB_SPEED_MASK_LOW | USB_SPEED_MASK_FULL |
                              USB_SPEED_MASK_HIGH;
            snprintf(port->name, sizeof(port->name), "usb2 port #%u", i + 1);
            speedmask |= port->speedmask;
        }
        if (i < s->numports_3) {
            port = &s->ports[i + (s->ss_first ? 0 : s->numports_2)];
            port->portnr = i + 1 + (s->ss_first ? 0 : s->numports_2);
            port->uport = &s->uports[i];
            port->speedmask = USB_SPEED_MASK_SUPER;
            snprintf(port->name, sizeof(port->name), "usb3 port #%u", i + 1);
            speedmask |= port->speedmask;
        }
        usb_register_port(s->bus, &s->uports[i], s, i, &xhci_uport_ops,
                          speedmask);
    }
}

static bool xhci_realize(DeviceState *dev, Error **errp)
{
    XHCIState *s = XHCI(dev);
    unsigned i;

    if (!s->host || !object_dynamic_cast(s->host, TYPE_DEVICE)) {
        error_setg(errp, "base-xhci needs its host device");
        return false;
    }
    /* out-of-range values clamped as 7.2 does, not refused */
    s->numintrs = MIN(MAX(s->numintrs, 1), XHCI_MAXINTRS);
    while (s->numintrs & (s->numintrs - 1)) {
        s->numintrs++;
    }
    s->numslots = MIN(MAX(s->numslots, 1), XHCI_MAXSLOTS);
    s->numports_2 = MIN(s->numports_2, XHCI_MAXPORTS_2);
    s->numports_3 = MIN(s->numports_3, XHCI_MAXPORTS_3);
    s->usbsts = USBSTS_HCH;
    xhci_init_ports(s);
    s->mfwrap_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, xhci_mfwrap_timer, s);

    memory_region_init(&s->mem, OBJECT(dev), "xhci", XHCI_LEN_REGS);
    memory_region_init_io(&s->mem_cap, OBJECT(dev), &xhci_cap_ops, s,
                          "capabilities", LEN_CAP);
    memory_region_init_io(&s->mem_oper, OBJECT(dev), &xhci_oper_ops, s,
                          "operational", 0x400);
    memory_region_init_io(&s->mem_runtime, OBJECT(dev), &xhci_runtime_ops, s,
                          "runtime", LEN_RUNTIME);
    memory_region_init_io(&s->mem_doorbell, OBJECT(dev), &xhci_doorbell_ops,
                          s, "doorbell", LEN_DOORBELL);
    memory_region_add_subregion(&s->mem, 0, &s->mem_cap);
    memory_region_add_subregion(&s->mem, OFF_OPER, &s->mem_oper);
    memory_region_add_subregion(&s->mem, OFF_RUNTIME, &s->mem_runtime);
    memory_region_add_subregion(&s->mem, OFF_DOORBELL, &s->mem_doorbell);
    for (i = 0; i < s->numports; i++) {
        XHCIPort *port = &s->ports[i];

        port->xhci = s;
        memory_region_init_io(&port->mem, OBJECT(dev), &xhci_port_ops, port,
                              port->name, 0x10);
        memory_region_add_subregion(&s->mem, OFF_OPER + 0x400 + 0x10 * i,
                                    &port->mem);
    }
    return true;
}

static void xhci_unrealize(DeviceState *dev)
{
    XHCIState *s = XHCI(dev);
    unsigned i;

    g_mutex_lock(&s->lock);
    for (i = 0; i < s->numslots; i++) {
        xhci_disable_slot(s, i + 1);
    }
    g_mutex_unlock(&s->lock);
    timer_free(s->mfwrap_timer);
    s->mfwrap_timer = NULL;
    memory_region_del_subregion(&s->mem, &s->mem_cap);
    memory_region_del_subregion(&s->mem, &s->mem_oper);
    memory_region_del_subregion(&s->mem, &s->mem_runtime);
    memory_region_del_subregion(&s->mem, &s->mem_doorbell);
    for (i = 0; i < s->numports; i++) {
        memory_region_del_subregion(&s->mem, &s->ports[i].mem);
    }
    for (i = 0; i < s->numports_2 || i < s->numports_3; i++) {
        usb_unregister_port(s->bus, &s->uports[i]);
    }
}

static void xhci_instance_init(Object *obj)
{
    XHCIState *s = XHCI(obj);

    g_mutex_init(&s->lock);
    object_property_add_link(obj, "host", TYPE_DEVICE, &s->host);
}

static void xhci_instance_finalize(Object *obj)
{
    g_mutex_clear(&XHCI(obj)->lock);
}

/* Properties ------------------------------------------------------------- */

static Property xhci_properties[] = {
    DEFINE_PROP_BIT("streams", XHCIState, streams, true),
    DEFINE_PROP_UINT32("p2", XHCIState, numports_2, 4),
    DEFINE_PROP_UINT32("p3", XHCIState, numports_3, 4),
    DEFINE_PROP_END_OF_LIST(),
};

/* Registration ----------------------------------------------------------- */

static void xhci_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = xhci_realize;
    dc->unrealize = xhci_unrealize;
    device_class_set_props(dc, xhci_properties);
    /* only inside its transport (qemu-xhci) */
    dc->user_creatable = false;
}

static const TypeInfo xhci_info = {
    .name = TYPE_XHCI,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(XHCIState),
    .instance_init = xhci_instance_init,
    .instance_finalize = xhci_instance_finalize,
    .class_init = xhci_class_init,
};

static void xhci_register_types(void)
{
    type_register_static(&xhci_info);
}
type_init(xhci_register_types)
