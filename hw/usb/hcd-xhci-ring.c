/*
 * The xHCI core's DMA, event rings, interrupts and command ring
 * (hw/usb/hcd-xhci-internal.h), as QEMU 7.2 has them.
 *
 * Event rings: one segment per interrupter (ERSTSZ 1, 16..4096 TRBs, as
 * 7.2 takes it); an event with one free entry left becomes an Event Ring
 * Full error, a full ring drops it; an ERDP outside the ring, a bad
 * segment or a failed DMA access sets HCE.  Commands (doorbell 0 while
 * running): up to 257 per ring, each fetch following at most 32 link
 * TRBs, so a looping ring ends.  With no USB devices (none exist yet)
 * Address Device fails as 7.2's does with none attached, and endpoint
 * commands find no endpoint enabled.
 */
#include <stdio.h>
#include <string.h>

#include "hcd-xhci-internal.h"

/* DMA ------------------------------------------------------------------ */

/* A failed DMA access stops nothing but sets HCE, as 7.2's does */
void xhci_die(XHCIState *s)
{
    s->usbsts |= USBSTS_HCE;
}

/* Reads dwords; on failure they read all-ones and the controller dies */
static void xhci_dma_read_u32s(XHCIState *s, uint64_t addr, uint32_t *buf,
                               size_t n)
{
    size_t i;

    if (address_space_read(s->as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                           n * 4) != MEMTX_OK) {
        memset(buf, 0xff, n * 4);
        xhci_die(s);
        return;
    }
    for (i = 0; i < n; i++) {
        buf[i] = GUINT32_FROM_LE(buf[i]);
    }
}

static void xhci_dma_write_u32s(XHCIState *s, uint64_t addr,
                                const uint32_t *buf, size_t n)
{
    uint32_t tmp[5];
    size_t i;

    g_assert(n <= G_N_ELEMENTS(tmp));
    for (i = 0; i < n; i++) {
        tmp[i] = GUINT32_TO_LE(buf[i]);
    }
    if (address_space_write(s->as, addr, MEMTXATTRS_UNSPECIFIED, tmp,
                            n * 4) != MEMTX_OK) {
        xhci_die(s);
    }
}

/* Interrupts and events ------------------------------------------------ */

/* IMAN.IE or USBCMD.INTE changed: INTx follows interrupter 0's state */
void xhci_intr_update(XHCIState *s, int v)
{
    if (v == 0) {
        bool level = (s->intr[0].iman & IMAN_IP) &&
                     (s->intr[0].iman & IMAN_IE) &&
                     (s->usbcmd & USBCMD_INTE);

        if (s->intr_raise && s->intr_raise(s, 0, level)) {
            s->intr[0].iman &= ~IMAN_IP;
        }
    }
    if (s->intr_update) {
        s->intr_update(s, v, s->intr[v].iman & IMAN_IE);
    }
}

/* An event went to interrupter v's ring: one interrupt until EHB clears */
void xhci_intr_raise(XHCIState *s, int v)
{
    XHCIInterrupter *intr = &s->intr[v];
    bool pending = intr->erdp_low & ERDP_EHB;

    intr->erdp_low |= ERDP_EHB;
    intr->iman |= IMAN_IP;
    s->usbsts |= USBSTS_EINT;
    if (pending || !(intr->iman & IMAN_IE) || !(s->usbcmd & USBCMD_INTE)) {
        return;
    }
    if (s->intr_raise && s->intr_raise(s, v, true)) {
        intr->iman &= ~IMAN_IP;
    }
}

static void xhci_write_event(XHCIState *s, const XHCIEvent *ev, int v)
{
    XHCIInterrupter *intr = &s->intr[v];
    uint32_t trb[4];

    trb[0] = (uint32_t)ev->ptr;
    trb[1] = ev->ptr >> 32;
    trb[2] = ev->length | ev->ccode << 24;
    trb[3] = (uint32_t)ev->slotid << 24 | (uint32_t)ev->epid << 16 |
             ev->flags | ev->type << TRB_TYPE_SHIFT |
             (intr->er_pcs ? TRB_C : 0);
    xhci_dma_write_u32s(s, intr->er_start + TRB_SIZE * (uint64_t)
                        intr->er_ep_idx, trb, 4);
    if (++intr->er_ep_idx >= intr->er_size) {
        intr->er_ep_idx = 0;
        intr->er_pcs = !intr->er_pcs;
    }
}

/*
 * Queues an event: a ring with one free entry left gets an Event Ring
 * Full error instead, a full one drops it; either way the interrupter
 * is raised.  An ERDP outside the ring kills the controller.
 */
void xhci_event(XHCIState *s, const XHCIEvent *ev, int v)
{
    XHCIInterrupter *intr;
    uint64_t erdp;
    uint32_t dp_idx;

    if (v >= (int)s->numintrs) {
        return;
    }
    intr = &s->intr[v];
    erdp = xhci_addr64(intr->erdp_low, intr->erdp_high);
    if (erdp < intr->er_start ||
        erdp >= intr->er_start + TRB_SIZE * (uint64_t)intr->er_size) {
        xhci_die(s);
        return;
    }
    dp_idx = (erdp - intr->er_start) / TRB_SIZE;
    if ((intr->er_ep_idx + 2) % intr->er_size == dp_idx) {
        XHCIEvent full = { ER_HOST_CONTROLLER, CC_EVENT_RING_FULL_ERROR };

        xhci_write_event(s, &full, v);
    } else if ((intr->er_ep_idx + 1) % intr->er_size != dp_idx) {
        xhci_write_event(s, ev, v);
    }
    xhci_intr_raise(s, v);
}

/* ERSTBA's high half written: the one segment the table may hold */
void xhci_er_reset(XHCIState *s, int v)
{
    XHCIInterrupter *intr = &s->intr[v];
    uint64_t erstba = xhci_addr64(intr->erstba_low, intr->erstba_high);
    uint32_t seg[4];

    if (intr->erstsz == 0 || erstba == 0) {
        intr->er_start = 0;
        intr->er_size = 0;
        return;
    }
    if (intr->erstsz != 1) {
        xhci_die(s);
        return;
    }
    if (address_space_read(s->as, erstba, MEMTXATTRS_UNSPECIFIED, seg,
                           sizeof(seg)) != MEMTX_OK) {
        xhci_die(s);
        return;
    }
    seg[2] = GUINT32_FROM_LE(seg[2]);
    if (seg[2] < 16 || seg[2] > 4096) {
        xhci_die(s);
        return;
    }
    intr->er_start = xhci_addr64(GUINT32_FROM_LE(seg[0]),
                                 GUINT32_FROM_LE(seg[1]));
    intr->er_size = seg[2];
    intr->er_ep_idx = 0;
    intr->er_pcs = true;
}

/* The command ring ----------------------------------------------------- */

/*
 * The next TRB of the ring that the controller owns (its cycle bit the
 * ring's), following link TRBs (at most TRB_LINK_LIMIT); its type, or 0
 */
static unsigned xhci_ring_fetch(XHCIState *s, XHCIRing *ring, XHCITRB *trb,
                                uint64_t *addr)
{
    unsigned links = 0;

    for (;;) {
        uint32_t raw[4];

        if (address_space_read(s->as, ring->dequeue, MEMTXATTRS_UNSPECIFIED,
                               raw, sizeof(raw)) != MEMTX_OK) {
            return 0;
        }
        trb->parameter = xhci_addr64(GUINT32_FROM_LE(raw[0]),
                                     GUINT32_FROM_LE(raw[1]));
        trb->status = GUINT32_FROM_LE(raw[2]);
        trb->control = GUINT32_FROM_LE(raw[3]);
        if ((trb->control & TRB_C) != ring->ccs) {
            return 0;
        }
        if (trb_type(trb) != TR_LINK) {
            *addr = ring->dequeue;
            ring->dequeue += TRB_SIZE;
            return trb_type(trb);
        }
        if (++links > TRB_LINK_LIMIT) {
            return 0;
        }
        ring->dequeue = trb->parameter;
        if (trb->control & TRB_LK_TC) {
            ring->ccs = !ring->ccs;
        }
    }
}

static unsigned xhci_enable_slot(XHCIState *s, unsigned slotid)
{
    s->slots[slotid - 1].enabled = true;
    s->slots[slotid - 1].uport = NULL;
    return CC_SUCCESS;
}

unsigned xhci_disable_slot(XHCIState *s, unsigned slotid)
{
    XHCISlot *slot = &s->slots[slotid - 1];

    slot->enabled = slot->addressed = false;
    slot->uport = NULL;
    slot->ctx = 0;
    return CC_SUCCESS;
}

/* The root port (and hub ports) a slot context's route names, if in use */
static USBPort *xhci_lookup_uport(XHCIState *s, const uint32_t *slot_ctx)
{
    unsigned port = (slot_ctx[1] >> 16) & 0xff;
    char path[32];
    int pos, i;
    guint j;

    if (port < 1 || port > s->numports) {
        return NULL;
    }
    pos = snprintf(path, sizeof(path), "%d",
                   s->ports[port - 1].uport->index + 1);
    for (i = 0; i < 5; i++) {
        port = (slot_ctx[0] >> (4 * i)) & 0x0f;
        if (!port) {
            break;
        }
        pos += snprintf(path + pos, sizeof(path) - pos, ".%u", port);
    }
    for (j = 0; j < s->bus->ports->len; j++) {
        USBPort *p = g_ptr_array_index(s->bus->ports, j);

        if (p->dev && !strcmp(p->path, path)) {
            return p;
        }
    }
    return NULL;
}

static unsigned xhci_address_slot(XHCIState *s, unsigned slotid,
                                  uint64_t ictx)
{
    uint32_t ictl[2], slot_ctx[4], ep0_ctx[5];
    USBPort *uport;

    xhci_dma_read_u32s(s, ictx, ictl, 2);
    if (ictl[0] != 0 || ictl[1] != 3) {
        return CC_TRB_ERROR;
    }
    xhci_dma_read_u32s(s, ictx + 32, slot_ctx, 4);
    xhci_dma_read_u32s(s, ictx + 64, ep0_ctx, 5);
    uport = xhci_lookup_uport(s, slot_ctx);
    if (!uport) {
        return CC_TRB_ERROR;
    }
    /* a device is attached: no USB device can be yet (no transfers) */
    return CC_USB_TRANSACTION_ERROR;
}

/* Rewrites the slot context's state at the slot's output context */
static void xhci_set_slot_state(XHCIState *s, unsigned slotid,
                                unsigned state)
{
    uint64_t octx = s->slots[slotid - 1].ctx;
    uint32_t slot_ctx[4];

    xhci_dma_read_u32s(s, octx, slot_ctx, 4);
    slot_ctx[3] &= ~(SLOT_STATE_MASK << SLOT_STATE_SHIFT);
    slot_ctx[3] |= state << SLOT_STATE_SHIFT;
    xhci_dma_write_u32s(s, octx, slot_ctx, 4);
}

static unsigned xhci_configure_slot(XHCIState *s, unsigned slotid,
                                    uint64_t ictx, bool dc)
{
    uint64_t octx = s->slots[slotid - 1].ctx;
    uint32_t ictl[2], islot_ctx[4], slot_ctx[4];

    if (dc) {
        xhci_set_slot_state(s, slotid, SLOT_ADDRESSED);
        return CC_SUCCESS;
    }
    xhci_dma_read_u32s(s, ictx, ictl, 2);
    if ((ictl[0] & 3) != 0 || (ictl[1] & 3) != 1) {
        return CC_TRB_ERROR;
    }
    xhci_dma_read_u32s(s, ictx + 32, islot_ctx, 4);
    xhci_dma_read_u32s(s, octx, slot_ctx, 4);
    if (((slot_ctx[3] >> SLOT_STATE_SHIFT) & SLOT_STATE_MASK) <
        SLOT_ADDRESSED) {
        return CC_CONTEXT_STATE_ERROR;
    }
    /*
     * Only a slot addressed to a device gets here in 7.2; with none, a
     * guest's stale context does: its endpoints are not enabled (none
     * are modelled), the slot's state and entries are taken as 7.2 does
     */
    slot_ctx[3] &= ~(SLOT_STATE_MASK << SLOT_STATE_SHIFT);
    slot_ctx[3] |= SLOT_CONFIGURED << SLOT_STATE_SHIFT;
    slot_ctx[0] = (slot_ctx[0] & ~SLOT_ENTRIES_MASK) |
                  (islot_ctx[0] & SLOT_ENTRIES_MASK);
    xhci_dma_write_u32s(s, octx, slot_ctx, 4);
    return CC_SUCCESS;
}

static unsigned xhci_evaluate_slot(XHCIState *s, unsigned slotid,
                                   uint64_t ictx)
{
    uint64_t octx = s->slots[slotid - 1].ctx;
    uint32_t ictl[2], islot_ctx[4], slot_ctx[4], iep0_ctx[5], ep0_ctx[5];

    xhci_dma_read_u32s(s, ictx, ictl, 2);
    if (ictl[0] != 0 || (ictl[1] & ~3u)) {
        return CC_TRB_ERROR;
    }
    if (ictl[1] & 1) {
        xhci_dma_read_u32s(s, ictx + 32, islot_ctx, 4);
        xhci_dma_read_u32s(s, octx, slot_ctx, 4);
        /* max exit latency and the interrupter target */
        slot_ctx[1] = (slot_ctx[1] & ~0xffffu) | (islot_ctx[1] & 0xffff);
        slot_ctx[2] = (slot_ctx[2] & ~(TRB_INTR_MASK << TRB_INTR_SHIFT)) |
                      (islot_ctx[2] & (TRB_INTR_MASK << TRB_INTR_SHIFT));
        xhci_dma_write_u32s(s, octx, slot_ctx, 4);
    }
    if (ictl[1] & 2) {
        xhci_dma_read_u32s(s, ictx + 64, iep0_ctx, 5);
        xhci_dma_read_u32s(s, octx + 32, ep0_ctx, 5);
        /* max packet size */
        ep0_ctx[1] = (ep0_ctx[1] & 0xffff) | (iep0_ctx[1] & 0xffff0000u);
        xhci_dma_write_u32s(s, octx + 32, ep0_ctx, 5);
    }
    return CC_SUCCESS;
}

/* 80% for every port, as 7.2 reports it */
static unsigned xhci_get_port_bandwidth(XHCIState *s, uint64_t ctx)
{
    uint8_t bw[XHCI_MAXPORTS + 1];

    bw[0] = 0;
    memset(bw + 1, 80, s->numports);
    if (address_space_write(s->as, ctx, MEMTXATTRS_UNSPECIFIED, bw,
                            s->numports + 1) != MEMTX_OK) {
        return CC_TRB_ERROR;
    }
    return CC_SUCCESS;
}

/* The command's slot if valid and enabled, else 0 with the error code */
static unsigned xhci_get_slot(XHCIState *s, XHCIEvent *ev, const XHCITRB *t)
{
    unsigned slotid = t->control >> 24;

    if (slotid < 1 || slotid > s->numslots) {
        ev->ccode = CC_TRB_ERROR;
        return 0;
    }
    if (!s->slots[slotid - 1].enabled) {
        ev->ccode = CC_SLOT_NOT_ENABLED_ERROR;
        return 0;
    }
    return slotid;
}

static unsigned xhci_endpoint_command(const XHCITRB *t)
{
    unsigned epid = (t->control >> 16) & 0x1f;

    /* no endpoint is ever enabled without a device */
    return epid < 1 ? CC_TRB_ERROR : CC_EP_NOT_ENABLED_ERROR;
}

void xhci_process_commands(XHCIState *s)
{
    XHCIEvent ev = { ER_COMMAND_COMPLETE, CC_SUCCESS };
    unsigned type, slotid = 0, count = 0, i;
    XHCITRB t;
    uint64_t addr;

    if (!xhci_running(s)) {
        return;
    }
    s->crcr_low |= CRCR_CRR;
    while ((type = xhci_ring_fetch(s, &s->cmd_ring, &t, &addr))) {
        ev.ptr = addr;
        switch (type) {
        case CR_ENABLE_SLOT:
            for (i = 0; i < s->numslots && s->slots[i].enabled; i++) {
            }
            if (i >= s->numslots) {
                ev.ccode = CC_NO_SLOTS_ERROR;
            } else {
                slotid = i + 1;
                ev.ccode = xhci_enable_slot(s, slotid);
            }
            break;
        case CR_DISABLE_SLOT:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_disable_slot(s, slotid);
            }
            break;
        case CR_ADDRESS_DEVICE:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_address_slot(s, slotid, t.parameter);
            }
            break;
        case CR_CONFIGURE_ENDPOINT:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_configure_slot(s, slotid, t.parameter,
                                               t.control & TRB_CR_DC);
            }
            break;
        case CR_EVALUATE_CONTEXT:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_evaluate_slot(s, slotid, t.parameter);
            }
            break;
        case CR_STOP_ENDPOINT:
        case CR_RESET_ENDPOINT:
        case CR_SET_TR_DEQUEUE:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_endpoint_command(&t);
            }
            break;
        case CR_RESET_DEVICE:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                xhci_set_slot_state(s, slotid, SLOT_DEFAULT);
                ev.ccode = CC_SUCCESS;
            }
            break;
        case CR_GET_PORT_BANDWIDTH:
            ev.ccode = xhci_get_port_bandwidth(s, t.parameter);
            break;
        case CR_NOOP:
            ev.ccode = CC_SUCCESS;
            break;
        default:
            /* NEC's vendor commands too: qemu-xhci is no NEC part */
            ev.ccode = CC_TRB_ERROR;
            break;
        }
        /* 7.2 names the last slot a command touched, even on error */
        ev.slotid = slotid;
        xhci_event(s, &ev, 0);
        if (count++ > COMMAND_LIMIT) {
            return;
        }
    }
}
