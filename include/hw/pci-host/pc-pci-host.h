/*
 * PCI configuration mechanism #1 (0xcf8 address, 0xcfc-0xcff data) with
 * the board's host bridge at 00:00.0; every other function reads
 * all-ones.  0xcf9 is the reset control register of the PIIX3/ICH9.
 */
#ifndef HW_PCI_HOST_PC_PCI_HOST_H
#define HW_PCI_HOST_PC_PCI_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/pci/pci.h"
#include "qapi/error.h"

typedef enum PCHostBridgeKind {
    PC_HOST_I440FX,     /* 8086:1237 rev 02 */
    PC_HOST_Q35_MCH,    /* 8086:29c0 */
} PCHostBridgeKind;

/*
 * The host bridge devices, QEMU's type names (sysbus devices at
 * /machine/q35 and /machine/i440fx); the PCI work replaces them with the
 * real q35-pcihost/mch and i440FX-pcihost/i440FX
 */
#define TYPE_Q35_HOST_DEVICE "q35-pcihost"
#define TYPE_I440FX_PCI_HOST_BRIDGE "i440FX-pcihost"
#define TYPE_I440FX_PCI_DEVICE "i440FX"
#define TYPE_MCH_PCI_DEVICE "mch"

/* The root bus (pci.0 / pcie.0) of a realized q35-/i440FX-pcihost */
PCIBus *pc_pci_host_bus(DeviceState *host);

#endif
