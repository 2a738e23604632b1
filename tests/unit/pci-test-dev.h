/*
 * A PCI function and a host for the PCI unit tests (pci-test-dev.c):
 * TYPE_TEST_PCI has a 4 KiB memory BAR 0 and a 256-byte I/O BAR 1 (both
 * read 0x5a), INTA, 1b36:0005 class 00ff; TYPE_TEST_PCI_CAPS is the same
 * with a vendor capability (0x09, 8 bytes, first free place) and an MSI
 * one (12 bytes at 0x50).
 */
#ifndef TESTS_UNIT_PCI_TEST_DEV_H
#define TESTS_UNIT_PCI_TEST_DEV_H

#include "exec/memory.h"
#include "hw/pci/pci.h"

#define TYPE_TEST_PCI "test-pci-fn"
#define TYPE_TEST_PCI_CAPS "test-pci-fn-caps"
#define TYPE_TEST_HOST "test-pci-host"

/*
 * /machine with its unattached and peripheral containers, a test host on
 * the system bus and its root bus "pci.0" over mem and io (initialized
 * here as "t-pci" and "t-pci-io")
 */
PCIBus *pci_test_root_bus(MemoryRegion *mem, MemoryRegion *io);

#endif
