/*
 * MSI and MSI-X capabilities (include/hw/pci/msi.h): layouts, write
 * masks and the MSI-X table as QEMU 7.2 has them.
 */
#include "exec/memory.h"
#include "hw/pci/msi.h"

/*
 * A message: its data written to its address through the device's bus
 * master address space — so not at all while its command register's Bus
 * Master Enable is clear (a bridge's bit does not gate what is behind
 * it), as in 7.2.  Under KVM the APIC's window (0xfee00000) is
 * kvm-apic-msi, which hands it to KVM's irqchip (hw/i386/kvm-irqchip.c),
 * as 7.2's does.
 */
static void msi_send_message(PCIDevice *dev, uint64_t addr, uint32_t data)
{
    stl_le_phys(pci_get_address_space(dev), addr, data);
}

/* MSI ------------------------------------------------------------------------- */

static int msi_size(uint16_t flags)
{
    int size = flags & PCI_MSI_FLAGS_64BIT ? 0x0e : 0x0a;

    return flags & PCI_MSI_FLAGS_MASKBIT ? size + 0x0a : size;
}

int msi_init(PCIDevice *dev, uint8_t offset, unsigned nr_vectors,
             bool msi64bit, bool per_vector_mask, Error **errp)
{
    unsigned log2 = 0;
    uint16_t flags;
    int pos, data;

    while ((1u << log2) < nr_vectors) {
        log2++;
    }
    flags = log2 << 1;
    if (msi64bit) {
        flags |= PCI_MSI_FLAGS_64BIT;
    }
    if (per_vector_mask) {
        flags |= PCI_MSI_FLAGS_MASKBIT;
    }
    pos = pci_add_capability(dev, PCI_CAP_ID_MSI, offset, msi_size(flags),
                             errp);
    if (pos < 0) {
        return -1;
    }
    dev->msi_cap = pos;
    pci_set_word(dev->config + pos + PCI_MSI_FLAGS, flags);
    pci_set_word(dev->wmask + pos + PCI_MSI_FLAGS,
                 PCI_MSI_FLAGS_QSIZE | PCI_MSI_FLAGS_ENABLE);
    pci_set_long(dev->wmask + pos + 4, 0xfffffffc);   /* address */
    data = pos + 8;
    if (msi64bit) {
        pci_set_long(dev->wmask + pos + 8, 0xffffffff);
        data = pos + 12;
    }
    pci_set_word(dev->wmask + data, 0xffff);
    if (per_vector_mask) {
        /* mask bits after the data word, pending bits (read-only) next */
        pci_set_long(dev->wmask + data + 4,
                     0xffffffffu >> (32 - nr_vectors));
    }
    return pos;
}

void msi_write_config(PCIDevice *dev, uint32_t addr, uint32_t val, int len)
{
    uint8_t *f;
    uint16_t flags;
    unsigned max, asked;

    if (!dev->msi_cap) {
        return;
    }
    f = dev->config + dev->msi_cap + PCI_MSI_FLAGS;
    flags = pci_get_word(f);
    if (addr >= dev->msi_cap + (unsigned)msi_size(flags) ||
        addr + len <= dev->msi_cap || !(flags & PCI_MSI_FLAGS_ENABLE)) {
        return;
    }
    /* enabled: INTx is off, and the queue size no more than offered */
    pci_set_irq(dev, 0);
    max = (flags & PCI_MSI_FLAGS_QMASK) >> 1;
    asked = (flags & PCI_MSI_FLAGS_QSIZE) >> 4;
    if (asked > max) {
        pci_set_word(f, (flags & ~PCI_MSI_FLAGS_QSIZE) | max << 4);
    }
}

bool msi_enabled(const PCIDevice *dev)
{
    return dev->msi_cap && (pci_get_word(dev->config + dev->msi_cap +
                                         PCI_MSI_FLAGS) &
                            PCI_MSI_FLAGS_ENABLE);
}

void msi_notify(PCIDevice *dev, unsigned vector)
{
    const uint8_t *c = dev->config + dev->msi_cap;
    uint16_t flags = pci_get_word(c + PCI_MSI_FLAGS);
    unsigned nr = 1u << ((flags & PCI_MSI_FLAGS_QSIZE) >> 4);
    uint64_t addr = pci_get_long(c + 4);
    unsigned data_off = flags & PCI_MSI_FLAGS_64BIT ? 12 : 8;
    uint16_t data = pci_get_word(c + data_off);

    if (!dev->msi_cap || vector >= nr) {
        return;
    }
    if (flags & PCI_MSI_FLAGS_64BIT) {
        addr |= (uint64_t)pci_get_long(c + 8) << 32;
    }
    /* the low bits of data name the vector among those enabled */
    data = (data & ~(nr - 1)) | vector;
    msi_send_message(dev, addr, data);
}

void msi_reset(PCIDevice *dev)
{
    uint8_t *f;

    if (!dev->msi_cap) {
        return;
    }
    f = dev->config + dev->msi_cap;
    pci_set_word(f + PCI_MSI_FLAGS, pci_get_word(f + PCI_MSI_FLAGS) &
                 ~(PCI_MSI_FLAGS_QSIZE | PCI_MSI_FLAGS_ENABLE));
    /* address, data and mask bits back to 0 */
    memset(f + 4, 0, msi_size(pci_get_word(f + PCI_MSI_FLAGS)) - 4);
}

/* MSI-X ------------------------------------------------------------------------ */

static uint64_t msix_table_read(void *opaque, hwaddr addr, unsigned size)
{
    PCIDevice *dev = opaque;

    if (addr + 4 > dev->msix_entries * (uint64_t)PCI_MSIX_ENTRY_SIZE) {
        return 0;
    }
    return pci_get_long(dev->msix_table + addr);
}

static bool msix_vector_masked(PCIDevice *dev, unsigned vector,
                               bool function_masked)
{
    return function_masked ||
           (dev->msix_table[vector * PCI_MSIX_ENTRY_SIZE +
                            PCI_MSIX_ENTRY_VECTOR_CTRL] & 1);
}

static bool msix_pending(PCIDevice *dev, unsigned vector)
{
    return dev->msix_pba[vector / 8] & (1 << (vector % 8));
}

static void msix_set_pending(PCIDevice *dev, unsigned vector, bool on)
{
    if (on) {
        dev->msix_pba[vector / 8] |= 1 << (vector % 8);
    } else {
        dev->msix_pba[vector / 8] &= ~(1 << (vector % 8));
    }
}

void msix_notify(PCIDevice *dev, unsigned vector)
{
    const uint8_t *e;

    if (!dev->msix_cap || vector >= dev->msix_entries) {
        return;
    }
    if (msix_vector_masked(dev, vector, dev->msix_function_masked)) {
        msix_set_pending(dev, vector, true);
        return;
    }
    e = dev->msix_table + vector * PCI_MSIX_ENTRY_SIZE;
    msi_send_message(dev, pci_get_long(e) |
                     (uint64_t)pci_get_long(e + 4) << 32,
                     pci_get_long(e + 8));
}

/* A vector unmasked with its bit pending fires (and clears) it */
static void msix_mask_update(PCIDevice *dev, unsigned vector, bool was)
{
    if (!msix_vector_masked(dev, vector, dev->msix_function_masked) && was &&
        msix_pending(dev, vector)) {
        msix_set_pending(dev, vector, false);
        msix_notify(dev, vector);
    }
}

static void msix_table_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    PCIDevice *dev = opaque;
    unsigned vector = addr / PCI_MSIX_ENTRY_SIZE;
    bool was;

    if (addr + 4 > dev->msix_entries * (uint64_t)PCI_MSIX_ENTRY_SIZE) {
        return;
    }
    pci_lock();
    was = msix_vector_masked(dev, vector, dev->msix_function_masked);
    pci_set_long(dev->msix_table + addr, val);
    msix_mask_update(dev, vector, was);
    pci_unlock();
}

bool msix_enabled(PCIDevice *dev)
{
    return dev->msix_cap && (dev->config[dev->msix_cap + PCI_MSIX_FLAGS + 1] &
                             (PCI_MSIX_FLAGS_ENABLE >> 8));
}

static void msix_update_function_masked(PCIDevice *dev)
{
    dev->msix_function_masked =
        !msix_enabled(dev) ||
        (dev->config[dev->msix_cap + PCI_MSIX_FLAGS + 1] &
         (PCI_MSIX_FLAGS_MASKALL >> 8));
}

void msix_write_config(PCIDevice *dev, uint32_t addr, uint32_t val, int len)
{
    uint32_t pos = dev->msix_cap + PCI_MSIX_FLAGS + 1;
    bool was;
    unsigned v;

    if (!dev->msix_cap || addr > pos || addr + len <= pos) {
        return;
    }
    was = dev->msix_function_masked;
    msix_update_function_masked(dev);
    if (!msix_enabled(dev)) {
        return;
    }
    pci_set_irq(dev, 0);
    if (dev->msix_function_masked == was) {
        return;
    }
    for (v = 0; v < dev->msix_entries; v++) {
        msix_mask_update(dev, v, msix_vector_masked(dev, v, was));
    }
}

static uint64_t msix_pba_read(void *opaque, hwaddr addr, unsigned size)
{
    PCIDevice *dev = opaque;
    unsigned pba_size = (dev->msix_entries + 63) / 64 * 8;

    return addr + 4 <= pba_size ? pci_get_long(dev->msix_pba + addr) : 0;
}

static void msix_pba_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    /* pending bits are the device's */
}

/* 7.2's: dword accesses (a qword is two), nothing smaller */
static const MemoryRegionOps msix_table_ops = {
    .read = msix_table_read,
    .write = msix_table_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

static const MemoryRegionOps msix_pba_ops = {
    .read = msix_pba_read,
    .write = msix_pba_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

static void msix_mask_all(PCIDevice *dev)
{
    unsigned i;

    memset(dev->msix_table, 0, dev->msix_entries * PCI_MSIX_ENTRY_SIZE);
    for (i = 0; i < dev->msix_entries; i++) {
        dev->msix_table[i * PCI_MSIX_ENTRY_SIZE +
                        PCI_MSIX_ENTRY_VECTOR_CTRL] = 1;
    }
}

int msix_init(PCIDevice *dev, unsigned nentries, MemoryRegion *table_bar,
              int table_bar_nr, uint32_t table_offset, MemoryRegion *pba_bar,
              int pba_bar_nr, uint32_t pba_offset, uint8_t cap_pos,
              Error **errp)
{
    unsigned table_size = nentries * PCI_MSIX_ENTRY_SIZE;
    unsigned pba_size = (nentries + 63) / 64 * 8;
    int pos;

    g_assert(nentries >= 1 && nentries <= 2048);
    g_assert(!((table_offset | pba_offset) & 7));
    pos = pci_add_capability(dev, PCI_CAP_ID_MSIX, cap_pos, 12, errp);
    if (pos < 0) {
        return -1;
    }
    dev->msix_cap = pos;
    dev->msix_entries = nentries;
    pci_set_word(dev->config + pos + PCI_MSIX_FLAGS, nentries - 1);
    pci_set_long(dev->config + pos + 4, table_offset | table_bar_nr);
    pci_set_long(dev->config + pos + 8, pba_offset | pba_bar_nr);
    dev->wmask[pos + PCI_MSIX_FLAGS + 1] =
        (PCI_MSIX_FLAGS_MASKALL | PCI_MSIX_FLAGS_ENABLE) >> 8;
    dev->msix_table = g_malloc0(table_size);
    dev->msix_pba = g_malloc0(pba_size);
    dev->msix_function_masked = true;
    msix_mask_all(dev);

    memory_region_init_io(&dev->msix_table_mmio, OBJECT(dev), &msix_table_ops,
                          dev, "msix-table", table_size);
    memory_region_add_subregion(table_bar, table_offset,
                                &dev->msix_table_mmio);
    memory_region_init_io(&dev->msix_pba_mmio, OBJECT(dev), &msix_pba_ops,
                          dev, "msix-pba", pba_size);
    memory_region_add_subregion(pba_bar, pba_offset, &dev->msix_pba_mmio);
    dev->msix_table_bar = table_bar;
    dev->msix_pba_bar = pba_bar;
    return pos;
}

int msix_init_exclusive_bar(PCIDevice *dev, unsigned nentries, int bar,
                            Error **errp)
{
    char *name;
    int pos;

    g_assert(nentries >= 1 && nentries <= 128);
    name = g_strdup_printf("%s-msix", object_get_typename(OBJECT(dev)));
    memory_region_init(&dev->msix_exclusive_bar, OBJECT(dev), name, 0x1000);
    g_free(name);
    /* table at 0, PBA at 2 KiB */
    pos = msix_init(dev, nentries, &dev->msix_exclusive_bar, bar, 0,
                    &dev->msix_exclusive_bar, bar, 0x800, 0, errp);
    if (pos < 0) {
        return -1;
    }
    pci_register_bar(dev, bar, 0, &dev->msix_exclusive_bar);
    return pos;
}

void msix_uninit(PCIDevice *dev)
{
    if (!dev->msix_table) {
        return;
    }
    memory_region_del_subregion(dev->msix_table_bar, &dev->msix_table_mmio);
    memory_region_del_subregion(dev->msix_pba_bar, &dev->msix_pba_mmio);
    object_unparent(OBJECT(&dev->msix_table_mmio));
    object_unparent(OBJECT(&dev->msix_pba_mmio));
    g_free(dev->msix_table);
    g_free(dev->msix_pba);
    dev->msix_table = dev->msix_pba = NULL;
}

void msix_uninit_exclusive_bar(PCIDevice *dev)
{
    msix_uninit(dev);
}

void msix_clear_pending(PCIDevice *dev, unsigned vector)
{
    if (dev->msix_cap && vector < dev->msix_entries) {
        msix_set_pending(dev, vector, false);
    }
}

void msix_reset(PCIDevice *dev)
{
    if (!dev->msix_cap) {
        return;
    }
    dev->config[dev->msix_cap + PCI_MSIX_FLAGS + 1] &=
        ~dev->wmask[dev->msix_cap + PCI_MSIX_FLAGS + 1];
    memset(dev->msix_pba, 0, (dev->msix_entries + 63) / 64 * 8);
    msix_mask_all(dev);
    msix_update_function_masked(dev);
}
