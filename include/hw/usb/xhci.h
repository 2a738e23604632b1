/*
 * The xHCI host controller (hw/usb/hcd-xhci.c) as QEMU 7.2 builds it: a
 * bus-less core device ("base-xhci") that holds the registers, the rings
 * and the USB bus, inside a transport that maps its 16 KiB register block
 * and delivers its interrupts (qemu-xhci, hw/usb/hcd-xhci-pci.c, the
 * core as its "xhci-core" child with the core's properties aliased).
 *
 * The register block ("xhci"): capabilities at 0, operational at 0x40
 * with each port's four registers at 0x440 + 0x10 * n ("usb3 port #N"
 * first, then "usb2 port #N", superspeed-first as qemu-xhci has it),
 * runtime at 0x1000 (MFINDEX, then 16 interrupters of 0x20 bytes),
 * doorbells at 0x2000 (65 of them).  The transport may add its own
 * regions to it (qemu-xhci's MSI-X table at 0x3000, PBA at 0x3800).
 */
#ifndef HW_USB_XHCI_H
#define HW_USB_XHCI_H

#include <glib.h>

#include "exec/memory.h"
#include "hw/usb/usb.h"
#include "qemu/timer.h"

#define TYPE_XHCI "base-xhci"
#define TYPE_XHCI_PCI "pci-xhci"
#define TYPE_QEMU_XHCI "qemu-xhci"

#define XHCI_MAXPORTS_2 15
#define XHCI_MAXPORTS_3 15
#define XHCI_MAXPORTS (XHCI_MAXPORTS_2 + XHCI_MAXPORTS_3)
#define XHCI_MAXSLOTS 64
#define XHCI_MAXINTRS 16
#define XHCI_LEN_REGS 0x4000

typedef struct XHCIState XHCIState;

typedef struct XHCIPort {
    XHCIState *xhci;
    uint32_t portsc;
    uint32_t portnr;            /* 1-based, as PORTSC's place says */
    USBPort *uport;             /* the bus's root port it shares */
    uint32_t speedmask;
    char name[20];
    MemoryRegion mem;
} XHCIPort;

typedef struct XHCIRing {
    uint64_t dequeue;
    bool ccs;
} XHCIRing;

/* A primary stream's context (7.2 reads it on first use: sct -1 until) */
typedef struct XHCIStreamContext {
    uint64_t pctx;
    int sct;
    XHCIRing ring;
} XHCIStreamContext;

/* An enabled endpoint: its output context and transfer ring or streams */
typedef struct XHCIEPContext {
    uint64_t pctx;
    uint32_t state;             /* EP_RUNNING, EP_STOPPED, ... */
    XHCIRing ring;
    unsigned max_pstreams, nr_pstreams;
    bool lsa;
    XHCIStreamContext *pstreams;
} XHCIEPContext;

typedef struct XHCISlot {
    bool enabled, addressed;
    uint64_t ctx;               /* the output device context */
    USBPort *uport;
    XHCIEPContext *eps[31];     /* by endpoint ID - 1 */
} XHCISlot;

typedef struct XHCIInterrupter {
    uint32_t iman, imod, erstsz;
    uint32_t erstba_low, erstba_high;
    uint32_t erdp_low, erdp_high;
    bool msix_used;             /* the transport's vector is in use */
    bool er_pcs;                /* the producer cycle state */
    uint64_t er_start;          /* the event ring segment, from the ERST */
    uint32_t er_size;           /* in TRBs, 0: none */
    uint32_t er_ep_idx;         /* the enqueue index */
} XHCIInterrupter;

struct XHCIState {
    DeviceState parent_obj;
    /* Serializes the registers, the rings and the timer */
    GMutex lock;

    USBBus *bus;
    AddressSpace *as;           /* where the rings are: the host's DMA */
    MemoryRegion mem, mem_cap, mem_oper, mem_runtime, mem_doorbell;

    /* Properties, and what the transport sets before realize */
    uint32_t numports_2, numports_3;
    uint32_t numintrs, numslots;
    bool streams;
    bool ss_first;              /* USB 3 ports numbered first */
    Object *host;               /* link: the device the bus hangs off */
    /* Interrupter n's IMAN.IE changed (MSI-X vector use) */
    void (*intr_update)(XHCIState *s, int n, bool enable);
    /* Raise (or, for INTx, set to level) interrupter n's interrupt; true
     * if a message went out (IMAN.IP is then cleared, as 7.2 does) */
    bool (*intr_raise)(XHCIState *s, int n, bool level);

    /* Operational registers */
    uint32_t usbcmd, usbsts, dnctrl;
    uint32_t crcr_low, crcr_high;
    uint32_t dcbaap_low, dcbaap_high;
    uint32_t config;

    uint32_t numports;
    USBPort uports[XHCI_MAXPORTS_2];
    XHCIPort ports[XHCI_MAXPORTS];
    XHCISlot slots[XHCI_MAXSLOTS];

    /* Runtime registers */
    int64_t mfindex_start;
    QEMUTimer *mfwrap_timer;
    XHCIInterrupter intr[XHCI_MAXINTRS];

    XHCIRing cmd_ring;
};

#define XHCI(obj) ((XHCIState *)object_dynamic_cast(OBJECT(obj), TYPE_XHCI))

/* The controller's reset (HCRST and a machine reset of its transport) */
void xhci_reset(XHCIState *s);

#endif
