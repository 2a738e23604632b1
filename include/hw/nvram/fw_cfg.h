/*
 * fw_cfg, QEMU's firmware configuration interface, as QEMU 7.2 gives it on
 * the PC (type fw_cfg_io, /machine/fw_cfg): a 16-bit selector at 0x510, a
 * data byte at 0x511, the DMA address register at 0x514 (docs/firmware.md).
 *
 * Items are numbered by a 16-bit key: 0x0000-0x001f fixed items, then the
 * named files from 0x0020 (one per slot, x-file-slots of them); bit 15
 * selects the architecture's own items (0x8000-: x86's).  The board adds
 * items while it is built; the guest reads them.
 */
#ifndef HW_NVRAM_FW_CFG_H
#define HW_NVRAM_FW_CFG_H

#include <stdint.h>

#include "exec/memory.h"
#include "hw/sysbus.h"

#define TYPE_FW_CFG "fw_cfg"
#define TYPE_FW_CFG_IO "fw_cfg_io"

/* Item keys (QEMU's docs/specs/fw_cfg.rst) */
#define FW_CFG_SIGNATURE        0x00
#define FW_CFG_ID               0x01
#define FW_CFG_UUID             0x02
#define FW_CFG_RAM_SIZE         0x03
#define FW_CFG_NOGRAPHIC        0x04
#define FW_CFG_NB_CPUS          0x05
#define FW_CFG_MACHINE_ID       0x06
#define FW_CFG_KERNEL_ADDR      0x07
#define FW_CFG_KERNEL_SIZE      0x08
#define FW_CFG_KERNEL_CMDLINE   0x09
#define FW_CFG_INITRD_ADDR      0x0a
#define FW_CFG_INITRD_SIZE      0x0b
#define FW_CFG_BOOT_DEVICE      0x0c
#define FW_CFG_NUMA             0x0d
#define FW_CFG_BOOT_MENU        0x0e
#define FW_CFG_MAX_CPUS         0x0f
#define FW_CFG_KERNEL_ENTRY     0x10
#define FW_CFG_KERNEL_DATA      0x11
#define FW_CFG_INITRD_DATA      0x12
#define FW_CFG_CMDLINE_ADDR     0x13
#define FW_CFG_CMDLINE_SIZE     0x14
#define FW_CFG_CMDLINE_DATA     0x15
#define FW_CFG_SETUP_ADDR       0x16
#define FW_CFG_SETUP_SIZE       0x17
#define FW_CFG_SETUP_DATA       0x18
#define FW_CFG_FILE_DIR         0x19
#define FW_CFG_FILE_FIRST       0x20
#define FW_CFG_WRITE_CHANNEL    0x4000
#define FW_CFG_ARCH_LOCAL       0x8000
#define FW_CFG_ENTRY_MASK       0x3fff
#define FW_CFG_INVALID          0xffff

/* x86's own items */
#define FW_CFG_ACPI_TABLES      (FW_CFG_ARCH_LOCAL + 0)
#define FW_CFG_SMBIOS_ENTRIES   (FW_CFG_ARCH_LOCAL + 1)
#define FW_CFG_IRQ0_OVERRIDE    (FW_CFG_ARCH_LOCAL + 2)
#define FW_CFG_E820_TABLE       (FW_CFG_ARCH_LOCAL + 3)
#define FW_CFG_HPET             (FW_CFG_ARCH_LOCAL + 4)

/* FW_CFG_ID's feature bits */
#define FW_CFG_VERSION          0x01
#define FW_CFG_VERSION_DMA      0x02

/* FWCfgDmaAccess.control (big-endian in guest memory) */
#define FW_CFG_DMA_CTL_ERROR    0x01
#define FW_CFG_DMA_CTL_READ     0x02
#define FW_CFG_DMA_CTL_SKIP     0x04
#define FW_CFG_DMA_CTL_SELECT   0x08
#define FW_CFG_DMA_CTL_WRITE    0x10

#define FW_CFG_DMA_SIGNATURE    0x51454d5520434647ULL   /* "QEMU CFG" */
#define FW_CFG_MAX_FILE_PATH    56
#define FW_CFG_FILE_SLOTS_MIN   0x10

#ifndef QEMU_PACKED
#define QEMU_PACKED __attribute__((packed))
#endif

#define FW_CFG_IO_BASE          0x510
#define FW_CFG_DMA_IO_BASE      0x514

typedef struct FWCfgState FWCfgState;

/* Called under the device's lock when the guest selects the item */
typedef void FWCfgSelectCallback(void *opaque);
/* Called after a DMA write of len bytes at offset into the item */
typedef void FWCfgWriteCallback(void *opaque, uint32_t offset, uint32_t len);

/*
 * Creates, realizes and places fw_cfg_io at /machine/fw_cfg with its ports
 * (dma_as: the address space DMA reaches, normally address_space_memory)
 */
FWCfgState *fw_cfg_init_io_dma(uint32_t iobase, uint32_t dma_iobase,
                               AddressSpace *dma_as, Error **errp);
/* The machine's fw_cfg, or NULL */
FWCfgState *fw_cfg_find(void);

/*
 * Items.  The data is copied; a key given twice is replaced.  An item is
 * read-only unless added with fw_cfg_add_file_callback(..., false).
 */
void fw_cfg_add_bytes(FWCfgState *s, uint16_t key, const void *data,
                      size_t len);
void fw_cfg_add_string(FWCfgState *s, uint16_t key, const char *value);
void fw_cfg_add_i16(FWCfgState *s, uint16_t key, uint16_t value);
void fw_cfg_add_i32(FWCfgState *s, uint16_t key, uint32_t value);
void fw_cfg_add_i64(FWCfgState *s, uint16_t key, uint64_t value);

/*
 * Named files, kept sorted by name as QEMU 7.2 keeps them for current
 * machine types (a file's key is 0x20 + its place in the directory).
 * data is the device's own copy: callers that want to see guest writes
 * use fw_cfg_file_data().  False with QEMU's text when the name is taken
 * or the slots are full.
 */
bool fw_cfg_add_file(FWCfgState *s, const char *name, const void *data,
                     size_t len, Error **errp);
bool fw_cfg_add_file_callback(FWCfgState *s, const char *name,
                              FWCfgSelectCallback *select_cb,
                              FWCfgWriteCallback *write_cb, void *opaque,
                              const void *data, size_t len, bool read_only,
                              Error **errp);
/* The bytes of a file (the device's copy, which guest writes change) */
uint8_t *fw_cfg_file_data(FWCfgState *s, const char *name, size_t *len);

#endif
