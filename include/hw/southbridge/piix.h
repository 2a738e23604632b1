/*
 * The PIIX3/PIIX4 functions of the i440fx boards: PIIX3 (the ISA bridge,
 * 00:01.0, hw/isa/piix3.c) and PIIX4_PM (power management, 00:01.3,
 * hw/acpi/piix4.c).
 */
#ifndef HW_SOUTHBRIDGE_PIIX_H
#define HW_SOUTHBRIDGE_PIIX_H

#include "hw/pci/pci.h"

#define TYPE_PIIX3_DEVICE "PIIX3"
#define TYPE_PIIX4_PM "PIIX4_PM"
#define TYPE_PIIX3_IDE "piix3-ide"

/* PIIX4_PM's configuration registers */
#define PIIX4_PM_PMBASE         0x40    /* I/O base, bits 15:6; bit 0 reads 1 */
#define PIIX4_PM_PMREGMISC      0x80    /* bit 0: the PM block decodes */
#define PIIX4_PM_SMBBA          0x90    /* SMBus I/O base */
#define PIIX4_PM_SMBHSTCFG      0xd2    /* SMBus host configuration */

#endif
