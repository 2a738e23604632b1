/*
 * PCI Express capabilities (hw/pci/pcie.c): the PCIe capability (v2) with
 * its slot, root and link registers, AER and ACS extended capabilities,
 * and the PCIe port types of QEMU 7.2 ("pcie-port", "pcie-slot") that
 * root ports derive from.  Layouts, reset values and write masks are
 * 7.2's (docs/devices.md, "Bridges").
 */
#ifndef HW_PCI_PCIE_H
#define HW_PCI_PCIE_H

#include "hw/pci/pci_bridge.h"

#define TYPE_PCIE_PORT "pcie-port"
#define TYPE_PCIE_SLOT "pcie-slot"

/* PCIe capability registers (offsets in the capability) */
#define PCI_EXP_FLAGS 0x02
#define  PCI_EXP_TYPE_ENDPOINT 0x0
#define  PCI_EXP_TYPE_ROOT_PORT 0x4
#define  PCI_EXP_TYPE_DOWNSTREAM 0x6
#define  PCI_EXP_TYPE_PCI_BRIDGE 0x7
#define  PCI_EXP_TYPE_RC_END 0x9
#define  PCI_EXP_FLAGS_SLOT 0x0100
#define PCI_EXP_DEVCAP 0x04
#define PCI_EXP_DEVCTL 0x08
#define PCI_EXP_DEVSTA 0x0a
#define PCI_EXP_LNKCAP 0x0c
#define PCI_EXP_LNKCTL 0x10
#define PCI_EXP_LNKSTA 0x12
#define  PCI_EXP_LNKSTA_CLS 0x000f
#define  PCI_EXP_LNKSTA_NLW 0x03f0
#define  PCI_EXP_LNKSTA_DLLLA 0x2000
#define PCI_EXP_SLTCAP 0x14
#define PCI_EXP_SLTCTL 0x18
#define  PCI_EXP_SLTCTL_ABPE 0x0001
#define  PCI_EXP_SLTCTL_PDCE 0x0008
#define  PCI_EXP_SLTCTL_CCIE 0x0010
#define  PCI_EXP_SLTCTL_HPIE 0x0020
#define  PCI_EXP_SLTCTL_AIC 0x00c0
#define  PCI_EXP_SLTCTL_AIC_OFF 0x00c0
#define  PCI_EXP_SLTCTL_PIC 0x0300
#define  PCI_EXP_SLTCTL_PIC_ON 0x0100
#define  PCI_EXP_SLTCTL_PIC_OFF 0x0300
#define  PCI_EXP_SLTCTL_PCC 0x0400
#define  PCI_EXP_SLTCTL_EIC 0x0800
#define PCI_EXP_SLTSTA 0x1a
#define  PCI_EXP_SLTSTA_PDS 0x0040
#define  PCI_EXP_SLTSTA_EIS 0x0080
#define PCI_EXP_RTCTL 0x1c
#define PCI_EXP_DEVCAP2 0x24
#define PCI_EXP_DEVCTL2 0x28
#define PCI_EXP_LNKCAP2 0x2c
#define PCI_EXP_LNKCTL2 0x30
#define PCI_EXP_VER2_SIZEOF 0x3c

#define PCI_ERR_SIZEOF 0x48
#define PCI_ACS_SIZEOF 0x08

/* x-speed (2_5/5/8/16) and x-width (1..32) as 7.2's enum indices */
typedef enum {
    PCIE_LINK_SPEED_2_5, PCIE_LINK_SPEED_5, PCIE_LINK_SPEED_8,
    PCIE_LINK_SPEED_16,
} PCIELinkSpeed;
typedef enum {
    PCIE_LINK_WIDTH_1, PCIE_LINK_WIDTH_2, PCIE_LINK_WIDTH_4,
    PCIE_LINK_WIDTH_8, PCIE_LINK_WIDTH_12, PCIE_LINK_WIDTH_16,
    PCIE_LINK_WIDTH_32,
} PCIELinkWidth;

/* pcie-port: a bridge with a PCIe port number */
typedef struct PCIEPort {
    PCIBridge parent_obj;
    uint8_t port;
    uint16_t aer_log_max;
} PCIEPort;

/* pcie-slot: a port with a slot (chassis/slot numbers, hot-plug) */
typedef struct PCIESlot {
    PCIEPort parent_obj;
    uint8_t chassis;
    uint16_t slot;
    int speed, width;           /* PCIELinkSpeed, PCIELinkWidth */
    bool hotplug, native_hotplug;
    bool power_controller_present;
    bool disable_acs;
} PCIESlot;

#define PCIE_PORT(obj) ((PCIEPort *)(obj))
#define PCIE_SLOT(obj) ((PCIESlot *)(obj))

/* The PCIe capability (v2) of a port or bridge of type, port number */
int pcie_cap_init(PCIDevice *dev, uint8_t offset, uint8_t type, uint8_t port,
                  Error **errp);
/*
 * An endpoint's PCIe capability (v2): a Root Complex Integrated Endpoint
 * on a root bus, as 7.2 makes it for Windows' sake, else an Endpoint
 */
int pcie_endpoint_cap_init(PCIDevice *dev, uint8_t offset, Error **errp);
void pcie_cap_deverr_init(PCIDevice *dev);
void pcie_cap_arifwd_init(PCIDevice *dev);
void pcie_cap_slot_init(PCIDevice *dev, PCIESlot *s);
void pcie_cap_root_init(PCIDevice *dev);
/*
 * Slot status and control's side effects (EIC toggles EIS, a control
 * write completes a command), after the write; old_sta: status before it
 */
void pcie_cap_slot_write_config(PCIDevice *dev, uint16_t old_sta,
                                uint32_t addr, uint32_t val, int len);
void pcie_cap_slot_reset(PCIDevice *dev);
/* ACPI hot-plug put a device behind the slot: its power controller on */
void pcie_cap_slot_enable_power(PCIDevice *dev);
/* Presence and link state for a device plugged behind the slot at start */
void pcie_cap_slot_coldplug(PCIDevice *port, PCIDevice *child);
void pcie_cap_reset(PCIDevice *dev);
/* A port's link status from the device in its slot (7.2 does it on read) */
void pcie_sync_bridge_lnk(PCIDevice *port);
/* PCIe ports: no 66 MHz/fast back-to-back, bridge control bits hardwired */
void pcie_port_init_reg(PCIDevice *dev);

/* AER at offset (log_max: multiple header recording), root port's part */
void pcie_aer_init(PCIDevice *dev, uint16_t offset, unsigned log_max);
void pcie_aer_root_init(PCIDevice *dev);
void pcie_aer_root_reset(PCIDevice *dev);
void pcie_acs_init(PCIDevice *dev, uint16_t offset);
void pcie_acs_reset(PCIDevice *dev);

/* A slot's chassis/slot pair, unique among the machine's slots */
bool pcie_chassis_add_slot(PCIESlot *s, Error **errp);
void pcie_chassis_del_slot(PCIESlot *s);

#endif
