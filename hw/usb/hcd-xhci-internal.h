/*
 * What the xHCI core's two files share (hw/usb/hcd-xhci.c: registers,
 * ports, reset and realize; hw/usb/hcd-xhci-ring.c: DMA, events,
 * interrupts and the command ring): register bits, TRB types and
 * completion codes as the xHCI 1.0 specification numbers them.
 */
#ifndef HW_USB_HCD_XHCI_INTERNAL_H
#define HW_USB_HCD_XHCI_INTERNAL_H

#include "hw/usb/xhci.h"

#define TRB_LINK_LIMIT 32
#define COMMAND_LIMIT 256

#define LEN_CAP 0x40
#define OFF_OPER LEN_CAP
#define OFF_RUNTIME 0x1000
#define OFF_DOORBELL 0x2000
#define LEN_RUNTIME ((XHCI_MAXINTRS + 1) * 0x20)
#define LEN_DOORBELL ((XHCI_MAXSLOTS + 1) * 0x20)

#define USBCMD_RS (1u << 0)
#define USBCMD_HCRST (1u << 1)
#define USBCMD_INTE (1u << 2)
#define USBCMD_CSS (1u << 8)
#define USBCMD_CRS (1u << 9)
#define USBCMD_EWE (1u << 10)

#define USBSTS_HCH (1u << 0)
#define USBSTS_HSE (1u << 2)
#define USBSTS_EINT (1u << 3)
#define USBSTS_PCD (1u << 4)
#define USBSTS_SRE (1u << 10)
#define USBSTS_HCE (1u << 12)

#define PORTSC_CCS (1u << 0)
#define PORTSC_PED (1u << 1)
#define PORTSC_PR (1u << 4)
#define PORTSC_PLS_SHIFT 5
#define PORTSC_PLS_MASK 0xfu
#define PORTSC_PP (1u << 9)
#define PORTSC_SPEED_FULL (1u << 10)
#define PORTSC_SPEED_LOW (2u << 10)
#define PORTSC_SPEED_HIGH (3u << 10)
#define PORTSC_SPEED_SUPER (4u << 10)
#define PORTSC_LWS (1u << 16)
#define PORTSC_CSC (1u << 17)
#define PORTSC_PEC (1u << 18)
#define PORTSC_WRC (1u << 19)
#define PORTSC_OCC (1u << 20)
#define PORTSC_PRC (1u << 21)
#define PORTSC_PLC (1u << 22)
#define PORTSC_CEC (1u << 23)
#define PORTSC_WCE (1u << 25)
#define PORTSC_WDE (1u << 26)
#define PORTSC_WOE (1u << 27)
#define PORTSC_WPR (1u << 31)

#define PLS_U0 0
#define PLS_U3 3
#define PLS_RX_DETECT 5
#define PLS_POLLING 7
#define PLS_RESUME 15

#define CRCR_CRR (1u << 3)
#define CRCR_CS (1u << 1)
#define CRCR_CA (1u << 2)

#define IMAN_IP (1u << 0)
#define IMAN_IE (1u << 1)
#define ERDP_EHB (1u << 3)

#define TRB_SIZE 16
#define TRB_C (1u << 0)
#define TRB_TYPE_SHIFT 10
#define TRB_LK_TC (1u << 1)
#define TRB_CR_BSR (1u << 9)
#define TRB_CR_DC (1u << 9)

#define SLOT_STATE_SHIFT 27
#define SLOT_STATE_MASK 0x1fu
#define SLOT_DEFAULT 1
#define SLOT_ADDRESSED 2
#define SLOT_CONFIGURED 3
#define SLOT_ENTRIES_MASK (0x1fu << 27)
#define TRB_INTR_SHIFT 22
#define TRB_INTR_MASK 0x3ffu

/* TRB types and completion codes (xHCI 1.0 tables 131 and 130) */
enum {
    TR_LINK = 6,
    CR_ENABLE_SLOT = 9,
    CR_DISABLE_SLOT,
    CR_ADDRESS_DEVICE,
    CR_CONFIGURE_ENDPOINT,
    CR_EVALUATE_CONTEXT,
    CR_RESET_ENDPOINT,
    CR_STOP_ENDPOINT,
    CR_SET_TR_DEQUEUE,
    CR_RESET_DEVICE,
    CR_GET_PORT_BANDWIDTH = 21,
    CR_NOOP = 23,
    ER_COMMAND_COMPLETE = 33,
    ER_PORT_STATUS_CHANGE,
    ER_HOST_CONTROLLER = 37,
    ER_MFINDEX_WRAP = 39,
};

enum {
    CC_SUCCESS = 1,
    CC_USB_TRANSACTION_ERROR = 4,
    CC_TRB_ERROR = 5,
    CC_NO_SLOTS_ERROR = 9,
    CC_SLOT_NOT_ENABLED_ERROR = 11,
    CC_EP_NOT_ENABLED_ERROR = 12,
    CC_INVALID_STREAM_TYPE_ERROR = 10,
    CC_CONTEXT_STATE_ERROR = 19,
    CC_INVALID_STREAM_ID_ERROR = 34,
    CC_EVENT_RING_FULL_ERROR = 21,
    CC_COMMAND_RING_STOPPED = 24,
};

typedef struct XHCITRB {
    uint64_t parameter;
    uint32_t status, control;
} XHCITRB;

typedef struct XHCIEvent {
    unsigned type, ccode;
    uint64_t ptr;
    uint32_t length, flags;
    uint8_t slotid, epid;
} XHCIEvent;

static inline unsigned trb_type(const XHCITRB *t)
{
    return (t->control >> TRB_TYPE_SHIFT) & 0x3f;
}

static inline uint64_t xhci_addr64(uint32_t low, uint32_t high)
{
    return low | (uint64_t)high << 32;
}

static inline bool xhci_running(XHCIState *s)
{
    return !(s->usbsts & USBSTS_HCH);
}

/* The controller's error state (HCE), as 7.2 sets it on a failed DMA */
void xhci_die(XHCIState *s);
/* Queues an event on interrupter v's ring and raises the interrupter */
void xhci_event(XHCIState *s, const XHCIEvent *ev, int v);
/* IMAN.IE or USBCMD.INTE changed: the interrupt lines follow */
void xhci_intr_update(XHCIState *s, int v);
/* An event is waiting on interrupter v: one interrupt until EHB clears */
void xhci_intr_raise(XHCIState *s, int v);
/* ERSTBA's high half written: the segment the ERST names */
void xhci_er_reset(XHCIState *s, int v);
/* Doorbell 0: the commands the ring holds */
void xhci_process_commands(XHCIState *s);
unsigned xhci_disable_slot(XHCIState *s, unsigned slotid);

#endif
