/*
 * ICH9's LPC function of the q35 boards (00:1f.0, hw/isa/lpc_ich9.c): the
 * ISA bridge, parent of the machine's ISA bus, holding the ACPI PM block.
 */
#ifndef HW_SOUTHBRIDGE_ICH9_H
#define HW_SOUTHBRIDGE_ICH9_H

#include "hw/pci/pci.h"

#define TYPE_ICH9_LPC_DEVICE "ICH9-LPC"
#define TYPE_ICH9_SMB_DEVICE "ICH9-SMB"
#define TYPE_ICH9_AHCI "ich9-ahci"

#define ICH9_LPC_DEV            0x1f
#define ICH9_LPC_FUNC           0
#define ICH9_LPC_NUM_GSI        24      /* its "gsi" outputs */

/* ICH9-LPC's configuration registers */
#define ICH9_LPC_PMBASE         0x40    /* I/O base, bits 15:7; bit 0 I/O */
#define ICH9_LPC_ACPI_CTRL      0x44    /* bit 7: the PM block decodes */
#define ICH9_LPC_ACPI_CTRL_ACPI_EN 0x80
#define ICH9_LPC_PIRQA_ROUT     0x60    /* PIRQ[A-D] routing, 0x80: off */
#define ICH9_LPC_PIRQE_ROUT     0x68    /* PIRQ[E-H] routing */
#define ICH9_LPC_EN             0x82    /* LPC I/F enables: COM1, COM2, LPT, FDD */
#define ICH9_LPC_RCBA           0xf0    /* root complex base, bit 0 on */
#define ICH9_LPC_GEN_PMCON_1    0xa0    /* bit 4 (SMI_LOCK) stays set */
#define ICH9_LPC_GEN_PMCON_1_SMI_LOCK 0x10

#define ICH9_PM_SIZE            0x80    /* "ich9-pm" */

/* SMBus, 00:1f.3 */
#define ICH9_SMB_DEV            0x1f
#define ICH9_SMB_FUNC           3
#define ICH9_SMB_HOSTC          0x40    /* host configuration */
#define ICH9_SMB_HOSTC_HST_EN   0x01    /* the controller decodes */
#define ICH9_SMB_HOSTC_I2C_EN   0x04    /* block transfers without count */
#define ICH9_SMB_HOSTC_SSRESET  0x08    /* resets the transaction state */

/* SATA (AHCI), 00:1f.2 */
#define ICH9_SATA1_DEV          0x1f
#define ICH9_SATA1_FUNC         2

/*
 * The board tells the realized ICH9-LPC whether the machine has SMM (as
 * 7.2's ich9_lpc_pm_init): without it (and without smm-compat) the PM
 * block is ACPI-only, SCI_EN set from reset
 */
void ich9_lpc_set_smm_enabled(PCIDevice *lpc, bool on);
/*
 * Once the machine is complete (-device included), as 7.2's machine-ready
 * notifier: LPC_EN (0x82) has a bit set for each legacy device whose I/O
 * port then answers (COM1 0x3f8, COM2 0x2f8, LPT 0x378, floppy 0x3f2)
 */
void ich9_lpc_machine_ready(PCIDevice *lpc);

#endif
