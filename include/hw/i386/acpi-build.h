/*
 * ACPI tables of the PC boards, written into guest RAM for direct kernel
 * boot (there is no firmware to build them).
 *
 * Everything lives in one fixed block of low RAM, ACPI_BUILD_BASE ..
 * ACPI_BUILD_BASE + ACPI_BUILD_SIZE - 1 (0xE0000-0xEFFFF), inside the
 * legacy BIOS area that the e820 map reports as reserved: the RSDP first
 * (16-byte aligned, where a guest scanning 0xE0000-0xFFFFF finds it), then
 * FACS, DSDT, FADT, MADT, (with -numa) SRAT, SLIT, HMAT, XSDT and RSDT.
 * The tables:
 *   RSDP  revision 2 (ACPI 2.0+), RSDT and XSDT addresses, both checksums
 *   XSDT/RSDT  -> FADT, MADT, then as QEMU 7.2 with -numa: SRAT, SLIT
 *         (with -numa dist), HMAT (with -machine hmat=on; hw/acpi/hmat.h)
 *   FADT  revision 5.1: PM block of hw/acpi/pm.h, SCI_INT 9, 32-bit PM
 *         timer, fixed-feature power button, reset register = i8042
 *         (port 0x64, value 0xFE), no SMI_CMD (always in ACPI mode)
 *   FACS  (required when the FADT is not hardware-reduced)
 *   MADT  local APIC at 0xFEE00000, PCAT_COMPAT; one enabled Local APIC
 *         entry per vCPU (processor UID = vCPU index, APIC ID = the vCPU's
 *         APIC ID; Local x2APIC entries above 254), I/O APIC id 0 at
 *         0xFEC00000 with GSI base 0, overrides IRQ0 -> GSI2 and IRQ9
 *         level/active-high, LINT1 NMI on every processor
 *   DSDT  \_S5_ = {ACPI_PM_SLP_TYP_S5, ACPI_PM_SLP_TYP_S5}; \_SB.PCI0
 *         (PNP0A08 + _CID PNP0A03 on q35, PNP0A03 on i440fx); \_SB.COM1
 *         (PNP0501, 0x3F8-0x3FF, IRQ 4)
 */
#ifndef HW_I386_ACPI_BUILD_H
#define HW_I386_ACPI_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/boards.h"
#include "qapi/error.h"

#define ACPI_BUILD_BASE         0xE0000ULL
#define ACPI_BUILD_SIZE         0x10000ULL
#define ACPI_BUILD_RSDP_ADDR    ACPI_BUILD_BASE

/* False for -no-acpi / -machine acpi=off */
bool acpi_enabled(MachineState *ms);

/*
 * Writes the tables for ms (board family, vCPUs) into guest RAM and sets
 * *rsdp_addr to the RSDP's guest address (for PVH's start info and the
 * bzImage boot_params.acpi_rsdp_addr).  With ACPI off, writes nothing,
 * sets *rsdp_addr to 0 and returns true.  False with *errp set if RAM
 * does not cover the block or the tables do not fit.
 */
bool acpi_build_tables(MachineState *ms, uint64_t *rsdp_addr, Error **errp);

/* The guest-physical range the tables occupy, for the e820 map */
void acpi_build_e820_reserved(uint64_t *start, uint64_t *len);

#endif
