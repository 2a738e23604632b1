/*
 * The HPET (hw/timer/hpet.c) as QEMU 7.2 has it on the PC: a sysbus device
 * at 0xfed00000 with a 64-bit main counter at 100 MHz and 3 (up to 32)
 * comparators.
 */
#ifndef HW_TIMER_HPET_H
#define HW_TIMER_HPET_H

#include "hw/sysbus.h"

#define TYPE_HPET "hpet"

#define HPET_BASE               0xfed00000ULL
#define HPET_LEN                0x400
#define HPET_NUM_IRQ_ROUTES     32
/* Its two inputs: the PIT's and the RTC's interrupt, which it passes on
 * to IRQ 0 and IRQ 8 unless LegacyReplacementRoute is set */
#define HPET_LEGACY_PIT_INT     0
#define HPET_LEGACY_RTC_INT     1
/* Its output "" 0: the PIT's interrupt is enabled (1) or not */

/* The fw_cfg item FW_CFG_HPET (count, then eight 15-byte block entries) */
#define HPET_FW_CFG_SIZE        (1 + 8 * 15)
/*
 * Its bytes as QEMU 7.2's firmware reads them: count 0xff and no entry
 * while no HPET is realized, else the HPET's ID register and address
 */
void hpet_fw_cfg(uint8_t buf[HPET_FW_CFG_SIZE]);

#endif
