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
 * Address Device fails as 7.2's does with none attached; Configure
 * Endpoint still enables endpoints on a slot whose output context says
 * addressed, as 7.2's does, and the endpoint commands work on those
 * (stop, set dequeue, streams' contexts); nothing transfers.
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

/* Endpoints --------------------------------------------------------------- */

#define EP_STATE_MASK 0x7u
#define EP_DISABLED 0
#define EP_RUNNING 1
#define EP_HALTED 2
#define EP_STOPPED 3

/* The endpoint's state (and its ring's dequeue) into its output context */
static void xhci_set_ep_state(XHCIState *s, XHCIEPContext *ep,
                              XHCIStreamContext *sctx, uint32_t state)
{
    XHCIRing *ring = NULL;
    uint32_t ctx[5], ctx2[2];

    xhci_dma_read_u32s(s, ep->pctx, ctx, 5);
    ctx[0] = (ctx[0] & ~EP_STATE_MASK) | state;
    if (ep->nr_pstreams) {
        if (sctx) {
            ring = &sctx->ring;
            xhci_dma_read_u32s(s, sctx->pctx, ctx2, 2);
            ctx2[0] = (ctx2[0] & 0xe) | (uint32_t)ring->dequeue | ring->ccs;
            ctx2[1] = ring->dequeue >> 32;
            xhci_dma_write_u32s(s, sctx->pctx, ctx2, 2);
        }
    } else {
        ring = &ep->ring;
    }
    if (ring) {
        ctx[2] = (uint32_t)ring->dequeue | ring->ccs;
        ctx[3] = ring->dequeue >> 32;
    }
    xhci_dma_write_u32s(s, ep->pctx, ctx, 5);
    ep->state = state;
}

static void xhci_reset_streams(XHCIEPContext *ep)
{
    unsigned i;

    for (i = 0; i < ep->nr_pstreams; i++) {
        ep->pstreams[i].sct = -1;
    }
}

static unsigned xhci_disable_ep(XHCIState *s, unsigned slotid, unsigned epid)
{
    XHCIEPContext *ep = s->slots[slotid - 1].eps[epid - 1];

    if (!ep) {
        return CC_SUCCESS;
    }
    g_free(ep->pstreams);
    ep->pstreams = NULL;
    ep->nr_pstreams = 0;
    /* a controller reset (DCBAAP already 0) leaves guest memory alone */
    if (s->dcbaap_low || s->dcbaap_high) {
        xhci_set_ep_state(s, ep, NULL, EP_DISABLED);
    }
    g_free(ep);
    s->slots[slotid - 1].eps[epid - 1] = NULL;
    return CC_SUCCESS;
}

/* ctx: the input endpoint context, returned with the state running */
static unsigned xhci_enable_ep(XHCIState *s, unsigned slotid, unsigned epid,
                               uint64_t pctx, uint32_t *ctx)
{
    uint64_t dequeue = xhci_addr64(ctx[2] & ~0xfu, ctx[3]);
    XHCIEPContext *ep;
    unsigned i;

    xhci_disable_ep(s, slotid, epid);
    ep = g_new0(XHCIEPContext, 1);
    s->slots[slotid - 1].eps[epid - 1] = ep;
    ep->pctx = pctx;
    ep->max_pstreams = (ctx[0] >> 10) & (s->streams ? 7 : 0);
    ep->lsa = (ctx[0] >> 15) & 1;
    if (ep->max_pstreams) {
        ep->nr_pstreams = 2u << ep->max_pstreams;
        ep->pstreams = g_new0(XHCIStreamContext, ep->nr_pstreams);
        for (i = 0; i < ep->nr_pstreams; i++) {
            ep->pstreams[i].pctx = dequeue + i * 16;
            ep->pstreams[i].sct = -1;
        }
    } else {
        ep->ring.dequeue = dequeue;
        ep->ring.ccs = ctx[2] & 1;
    }
    ep->state = EP_RUNNING;
    ctx[0] = (ctx[0] & ~EP_STATE_MASK) | EP_RUNNING;
    return CC_SUCCESS;
}

static XHCIEPContext *xhci_get_ep(XHCIState *s, unsigned slotid,
                                  unsigned epid, unsigned *cc)
{
    if (epid < 1 || epid > 31) {
        *cc = CC_TRB_ERROR;
        return NULL;
    }
    if (!s->slots[slotid - 1].eps[epid - 1]) {
        *cc = CC_EP_NOT_ENABLED_ERROR;
        return NULL;
    }
    return s->slots[slotid - 1].eps[epid - 1];
}

static unsigned xhci_stop_ep(XHCIState *s, unsigned slotid, unsigned epid)
{
    unsigned cc;
    XHCIEPContext *ep = xhci_get_ep(s, slotid, epid, &cc);

    if (!ep) {
        return cc;
    }
    xhci_set_ep_state(s, ep, NULL, EP_STOPPED);
    xhci_reset_streams(ep);
    return CC_SUCCESS;
}

/* Only a halted endpoint resets, and none halts without transfers */
static unsigned xhci_reset_ep(XHCIState *s, unsigned slotid, unsigned epid)
{
    unsigned cc;
    XHCIEPContext *ep = xhci_get_ep(s, slotid, epid, &cc);

    if (!ep) {
        return cc;
    }
    if (ep->state != EP_HALTED) {
        return CC_CONTEXT_STATE_ERROR;
    }
    /* no device is attached to the slot */
    return CC_USB_TRANSACTION_ERROR;
}

static XHCIStreamContext *xhci_find_stream(XHCIState *s, XHCIEPContext *ep,
                                           unsigned streamid, unsigned *cc)
{
    XHCIStreamContext *sctx;
    uint32_t ctx[2];

    /*
     * 7.2 asserts a stream ID; a guest's 0 ends QEMU there, and is an
     * invalid stream ID here
     */
    if (!ep->lsa || streamid == 0) {
        *cc = ep->lsa ? CC_INVALID_STREAM_ID_ERROR
                      : CC_INVALID_STREAM_TYPE_ERROR;
        return NULL;
    }
    if (streamid >= ep->nr_pstreams) {
        *cc = CC_INVALID_STREAM_ID_ERROR;
        return NULL;
    }
    sctx = &ep->pstreams[streamid];
    if (sctx->sct == -1) {
        xhci_dma_read_u32s(s, sctx->pctx, ctx, 2);
        if (((ctx[0] >> 1) & 7) != 1) {
            *cc = CC_INVALID_STREAM_TYPE_ERROR;
            return NULL;
        }
        sctx->sct = 1;
        sctx->ring.dequeue = xhci_addr64(ctx[0] & ~0xfu, ctx[1]);
        sctx->ring.ccs = true;
    }
    return sctx;
}

static unsigned xhci_set_ep_dequeue(XHCIState *s, unsigned slotid,
                                    unsigned epid, unsigned streamid,
                                    uint64_t dequeue)
{
    XHCIStreamContext *sctx = NULL;
    XHCIRing *ring;
    unsigned cc;
    XHCIEPContext *ep = xhci_get_ep(s, slotid, epid, &cc);

    if (!ep) {
        return cc;
    }
    if (ep->state != EP_STOPPED) {
        return CC_CONTEXT_STATE_ERROR;
    }
    if (ep->nr_pstreams) {
        sctx = xhci_find_stream(s, ep, streamid, &cc);
        if (!sctx) {
            return cc;
        }
        ring = &sctx->ring;
    } else {
        ring = &ep->ring;
    }
    ring->dequeue = dequeue & ~0xfull;
    ring->ccs = dequeue & 1;
    xhci_set_ep_state(s, ep, sctx, EP_STOPPED);
    return CC_SUCCESS;
}

/* Slots ------------------------------------------------------------------- */

static unsigned xhci_enable_slot(XHCIState *s, unsigned slotid)
{
    s->slots[slotid - 1].enabled = true;
    s->slots[slotid - 1].uport = NULL;
    memset(s->slots[slotid - 1].eps, 0, sizeof(s->slots[slotid - 1].eps));
    return CC_SUCCESS;
}

unsigned xhci_disable_slot(XHCIState *s, unsigned slotid)
{
    XHCISlot *slot = &s->slots[slotid - 1];
    unsigned i;

    for (i = 1; i <= 31; i++) {
        xhci_disable_ep(s, slotid, i);
    }
    /* the output context stays: 7.2 keeps it for the next Address */
    slot->enabled = slot->addressed = false;
    slot->uport = NULL;
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
    uint32_t ictl[2], islot_ctx[4], slot_ctx[4], ep_ctx[5];
    unsigned i, res;

    if (dc) {
        for (i = 2; i <= 31; i++) {
            xhci_disable_ep(s, slotid, i);
        }
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
     * A slot addressed to a device gets here, and (as in 7.2) one whose
     * output context merely says so; with no device, no streams are
     * allocated on it
     */
    for (i = 2; i <= 31; i++) {
        if (ictl[0] & (1u << i)) {
            xhci_disable_ep(s, slotid, i);
        }
        if (ictl[1] & (1u << i)) {
            xhci_dma_read_u32s(s, ictx + 32 + 32 * i, ep_ctx, 5);
            xhci_disable_ep(s, slotid, i);
            res = xhci_enable_ep(s, slotid, i, octx + 32 * i, ep_ctx);
            if (res != CC_SUCCESS) {
                return res;
            }
            xhci_dma_write_u32s(s, octx + 32 * i, ep_ctx, 5);
        }
    }
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

static unsigned trb_epid(const XHCITRB *t)
{
    return (t->control >> 16) & 0x1f;
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
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_stop_ep(s, slotid, trb_epid(&t));
            }
            break;
        case CR_RESET_ENDPOINT:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_reset_ep(s, slotid, trb_epid(&t));
            }
            break;
        case CR_SET_TR_DEQUEUE:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                ev.ccode = xhci_set_ep_dequeue(s, slotid, trb_epid(&t),
                                               t.status >> 16, t.parameter);
            }
            break;
        case CR_RESET_DEVICE:
            if ((slotid = xhci_get_slot(s, &ev, &t))) {
                for (i = 2; i <= 31; i++) {
                    xhci_disable_ep(s, slotid, i);
                }
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
