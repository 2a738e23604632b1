/*
 * pc-testdev: QEMU's ISA test device for test guests (kvm-unit-tests)
 * and qtest, as QEMU 7.2 has it.  No properties; its ports and memory are
 * fixed:
 *
 *   0xe0-0xe3    pc-testdev-ioport       four bytes of scratch data
 *   0xe4-0xe7    pc-testdev-flush-page   a write of a guest-physical
 *                                        address makes KVM drop that RAM
 *                                        page's mapping; reads 0
 *   0xe8-0xeb    pc-testdev-ioport-byte  the same four bytes, a byte at a
 *                                        time (the split/combine checks)
 *   0x2000-0x2017 pc-testdev-irq-line    a byte written at offset n sets
 *                                        ISA IRQ n to (byte != 0); reads 0
 *   0xff000000-0xff00ffff pc-testdev-iomem  64 KiB of scratch memory in
 *                                        the ISA memory space
 */
#ifndef HW_MISC_PC_TESTDEV_H
#define HW_MISC_PC_TESTDEV_H

#define TYPE_PC_TESTDEV "pc-testdev"

#endif
