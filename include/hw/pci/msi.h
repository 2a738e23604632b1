/*
 * MSI and MSI-X capabilities (hw/pci/msi.c), with QEMU 7.2's layouts and
 * write masks; a message is a write of its data to its address, which
 * under KVM the APIC's window hands to the in-kernel irqchip.
 */
#ifndef HW_PCI_MSI_H
#define HW_PCI_MSI_H

#include "hw/pci/pci.h"

#define PCI_MSI_FLAGS 2
#define  PCI_MSI_FLAGS_ENABLE 0x0001
#define  PCI_MSI_FLAGS_QMASK 0x000e
#define  PCI_MSI_FLAGS_QSIZE 0x0070
#define  PCI_MSI_FLAGS_64BIT 0x0080
#define  PCI_MSI_FLAGS_MASKBIT 0x0100

#define PCI_MSIX_FLAGS 2
#define  PCI_MSIX_FLAGS_MASKALL 0x4000
#define  PCI_MSIX_FLAGS_ENABLE 0x8000
#define PCI_MSIX_ENTRY_SIZE 16
#define PCI_MSIX_ENTRY_VECTOR_CTRL 12

/* MSI with nr_vectors (a power of two up to 32); 64-bit and per-vector
 * masking as asked.  The capability's offset, or -1 */
int msi_init(PCIDevice *dev, uint8_t offset, unsigned nr_vectors,
             bool msi64bit, bool per_vector_mask, Error **errp);
/*
 * After a write to the capability while MSI is enabled: INTx deasserted,
 * QSIZE no more than the capability offers (7.2 corrects it then only)
 */
void msi_write_config(PCIDevice *dev, uint32_t addr, uint32_t val, int len);

/*
 * MSI-X with its table and PBA in a BAR of their own ("NAME-msix":
 * 4 KiB, table at 0, PBA at 2 KiB, as 7.2 lays it out up to 128 vectors)
 */
int msix_init_exclusive_bar(PCIDevice *dev, unsigned nentries, int bar,
                            Error **errp);
void msix_uninit_exclusive_bar(PCIDevice *dev);
/*
 * MSI-X with nentries vectors, the table at table_offset of table_bar (BAR
 * number table_bar_nr) and the PBA at pba_offset of pba_bar, as regions
 * "msix-table" and "msix-pba" added to those; cap_pos 0 for the first
 * free offset.  The capability's offset, or -1
 */
int msix_init(PCIDevice *dev, unsigned nentries, MemoryRegion *table_bar,
              int table_bar_nr, uint32_t table_offset, MemoryRegion *pba_bar,
              int pba_bar_nr, uint32_t pba_offset, uint8_t cap_pos,
              Error **errp);
void msix_uninit(PCIDevice *dev);
/* A vector the device stopped using loses its pending bit (7.2's unuse) */
void msix_clear_pending(PCIDevice *dev, unsigned vector);
bool msi_enabled(const PCIDevice *dev);
/* Sends vector's message (its data, with the vector in the low bits of
 * those enabled, written to its address) */
void msi_notify(PCIDevice *dev, unsigned vector);
bool msix_enabled(PCIDevice *dev);
/*
 * Signals vector: a masked one is left pending in the PBA (7.2's); an
 * unmasked one sends its table entry's message
 */
void msix_notify(PCIDevice *dev, unsigned vector);
/* The MSI-X enable and function mask bits changed (INTx goes off) */
void msix_write_config(PCIDevice *dev, uint32_t addr, uint32_t val, int len);

/* A machine reset: vectors masked, MSI-X disabled */
void msix_reset(PCIDevice *dev);
void msi_reset(PCIDevice *dev);

#endif
