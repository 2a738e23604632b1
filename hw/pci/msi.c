/*
 * Message signalled interrupts (include/hw/pci/pci.h): the capability's
 * layout and write masks as QEMU 7.2 gives them (message control at +2:
 * vectors offered in bits 3:1, enabled in 6:4, 64-bit 0x80, per-vector
 * masking 0x100; address, upper address if 64-bit, data, then mask and
 * pending bits with masking).  While MSI is enabled a write that asks
 * for more vectors than offered is cut back to the number offered, and
 * INTx is deasserted, as in 7.2.  A message to the APIC's window
 * (0xfee00000, 1 MiB) goes to KVM's in-kernel irqchip, as 7.2's
 * kvm-apic-msi region sends it.
 */
#include "hw/pci/pci.h"
#include "sysemu/kvm.h"

#define MSI_FLAGS 2
#define  MSI_FLAGS_ENABLE 0x0001
#define  MSI_FLAGS_QMASK 0x000e
#define  MSI_FLAGS_QSIZE 0x0070
#define  MSI_FLAGS_64BIT 0x0080
#define  MSI_FLAGS_MASKBIT 0x0100
#define MSI_ADDRESS_LO 4

static uint16_t msi_flags(const PCIDevice *dev)
{
    return pci_get_word(dev->config + dev->msi_cap + MSI_FLAGS);
}

static unsigned msi_data_off(const PCIDevice *dev)
{
    return dev->msi_cap + (msi_flags(dev) & MSI_FLAGS_64BIT ? 12 : 8);
}

static uint8_t msi_cap_size(uint16_t flags)
{
    uint8_t size = flags & MSI_FLAGS_64BIT ? 0x0e : 0x0a;

    return flags & MSI_FLAGS_MASKBIT ? size + 0x0a : size;
}

int msi_init(PCIDevice *dev, uint8_t offset, unsigned nr_vectors,
             bool msi64bit, bool per_vector_mask, Error **errp)
{
    uint16_t flags = (uint16_t)(__builtin_ctz(nr_vectors) << 1);
    int off;

    g_assert(nr_vectors && nr_vectors <= 32 &&
             !(nr_vectors & (nr_vectors - 1)));
    flags |= msi64bit ? MSI_FLAGS_64BIT : 0;
    flags |= per_vector_mask ? MSI_FLAGS_MASKBIT : 0;
    off = pci_add_capability(dev, PCI_CAP_ID_MSI, offset,
                             msi_cap_size(flags), errp);
    if (off < 0) {
        return -1;
    }
    dev->msi_cap = off;
    pci_set_word(dev->config + off + MSI_FLAGS, flags);
    pci_set_word(dev->wmask + off + MSI_FLAGS,
                 MSI_FLAGS_QSIZE | MSI_FLAGS_ENABLE);
    pci_set_long(dev->wmask + off + MSI_ADDRESS_LO, 0xfffffffc);
    if (msi64bit) {
        pci_set_long(dev->wmask + off + MSI_ADDRESS_LO + 4, 0xffffffff);
    }
    pci_set_word(dev->wmask + msi_data_off(dev), 0xffff);
    if (per_vector_mask) {
        pci_set_long(dev->wmask + msi_data_off(dev) + 4,
                     0xffffffffu >> (32 - nr_vectors));
    }
    return 0;
}

bool msi_enabled(const PCIDevice *dev)
{
    return dev->msi_cap && (msi_flags(dev) & MSI_FLAGS_ENABLE);
}

void msi_notify(PCIDevice *dev, unsigned vector)
{
    uint16_t flags = msi_flags(dev);
    unsigned nr = 1u << ((flags & MSI_FLAGS_QSIZE) >> 4);
    uint64_t addr = pci_get_long(dev->config + dev->msi_cap + MSI_ADDRESS_LO);
    uint16_t data = pci_get_word(dev->config + msi_data_off(dev));

    if (flags & MSI_FLAGS_64BIT) {
        addr |= (uint64_t)pci_get_long(dev->config + dev->msi_cap +
                                       MSI_ADDRESS_LO + 4) << 32;
    }
    if (vector >= nr) {
        return;
    }
    /* the low bits of data name the vector among those enabled */
    data = (data & ~(nr - 1)) | vector;
    /* the APIC's MSI window becomes KVM's MSI; elsewhere a plain write */
    if (kvm_enabled() && addr >= 0xfee00000 && addr < 0xfef00000) {
        kvm_send_msi(addr, data);
        return;
    }
    stl_le_phys(&address_space_memory, addr, data);
}

void msi_write_config(PCIDevice *dev, uint32_t addr, uint32_t val, int len)
{
    uint16_t flags;
    unsigned max, asked;

    if (!dev->msi_cap || addr >= dev->msi_cap + msi_cap_size(msi_flags(dev))
        || addr + len <= dev->msi_cap || !msi_enabled(dev)) {
        return;
    }
    if (dev->irq_level) {
        pci_set_irq(dev, 0);
    }
    flags = msi_flags(dev);
    max = (flags & MSI_FLAGS_QMASK) >> 1;
    asked = (flags & MSI_FLAGS_QSIZE) >> 4;
    if (asked > max) {
        flags = (flags & ~MSI_FLAGS_QSIZE) | (max << 4);
        pci_set_word(dev->config + dev->msi_cap + MSI_FLAGS, flags);
    }
}
