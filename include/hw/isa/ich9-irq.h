/*
 * ICH9-LPC's interrupt routing: PIRQ[A-H], the SCI's GSI and the root
 * complex register block (hw/isa/ich9-irq.c).
 */
#ifndef HW_ISA_ICH9_IRQ_H
#define HW_ISA_ICH9_IRQ_H

#include "exec/memory.h"
#include "hw/irq.h"
#include "hw/pci/pci.h"

#define ICH9_NUM_PIRQS 8
#define ICH9_CC_SIZE (16 * 1024)    /* chipset configuration registers */
#define ICH9_CC_GCS 0x3410          /* general control and status */
#define ICH9_CC_GCS_NO_REBOOT 0x20  /* set at reset: the TCO may not reboot */

typedef struct ICH9Irq {
    PCIDevice *lpc;
    qemu_irq *gsi;                  /* the LPC's 24 "gsi" outputs */
    qemu_irq sci_in;                /* the PM block drives the SCI here */
    int sci_gsi;                    /* from ACPI_CTRL's SCI_IRQ_SEL */
    int sci_level;
    uint8_t irr[32][4];             /* slot, pin -> PIRQ (0-7) */
    uint8_t chip_config[ICH9_CC_SIZE];
    MemoryRegion rcrb;              /* "lpc-rcrb-mmio" */
} ICH9Irq;

/* At realize: the root bus's lines become PIRQ[A-H] */
void ich9_irq_init(ICH9Irq *r, PCIDevice *lpc, qemu_irq *gsi);
void ich9_irq_cleanup(ICH9Irq *r);
/* After a reset of the LPC's config space (old_rcba: RCBA before it) */
void ich9_irq_reset(ICH9Irq *r, uint32_t old_rcba);
/* After config writes to ACPI_CTRL (0x44) and to RCBA (0xf0) */
void ich9_irq_acpi_ctrl_written(ICH9Irq *r);
void ich9_irq_rcba_written(ICH9Irq *r, uint32_t old);

#endif
