/*
 * The SMBus host controller of the PIIX4 and ICH9 ("pm-smbus", 64 bytes
 * of I/O; hw/i2c/pm_smbus.c): its register model, with the "i2c" bus it
 * masters.  PIIX4_PM maps it at SMBBA, ICH9-SMB in its BAR4.
 *
 * Registers (byte accesses only; QEMU 7.2's behaviour): 0x00 HST_STS
 * (write 1 to clear; BYTE_DONE's clear steps a byte-by-byte block
 * transfer), 0x02 HST_CNT (INTREN, KILL, protocol in bits 4:2, LAST_BYTE;
 * START runs the transaction, at once with INTREN, else on the next
 * status read as 7.2 does for AMIBIOS; reads back bits 4:0), 0x03
 * HST_CMD, 0x04 XMIT_SLVA (address << 1 | read), 0x05/0x06 HST_D0/D1,
 * 0x07 HOST_BLOCK_DB (the 32-byte block buffer with AUX_BLK, else one
 * byte), 0x0d AUX_CTL (bits 1:0).  Protocols: quick, byte, byte data,
 * word data, block (byte by byte or through the buffer), I2C block read;
 * 4 and 7 (process call, reserved) fail with DEV_ERR, as does any
 * transaction while DEV_ERR is set.  A device that does not answer sets
 * DEV_ERR; success sets INTR.
 */
#ifndef HW_I2C_PM_SMBUS_H
#define HW_I2C_PM_SMBUS_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/memory.h"
#include "hw/i2c/i2c.h"

#define PM_SMBUS_MAX_MSG_SIZE 32

typedef struct PMSMBus {
    I2CBus *smbus;
    MemoryRegion io;
    GMutex lock;

    uint8_t smb_stat, smb_ctl, smb_cmd, smb_addr, smb_data0, smb_data1;
    uint8_t smb_data[PM_SMBUS_MAX_MSG_SIZE];
    uint32_t smb_index;
    uint8_t smb_auxctl, smb_blkdata;
    bool i2c_enable, op_done, in_i2c_block_read;
    bool start_transaction_on_status_read;

    /* The interrupt (ICH9-SMB's INTx; PIIX4_PM has none): NULL, or called
     * after every access, outside the lock, with the level 7.2 computes */
    void (*set_irq)(struct PMSMBus *s, bool level);
    void *opaque;
} PMSMBus;

/*
 * Makes the "i2c" bus on parent and the "pm-smbus" region (owned by
 * parent); force_aux_blk: AUX_CTL starts with the block buffer on (PIIX4)
 */
void pm_smbus_init(DeviceState *parent, PMSMBus *smb, bool force_aux_blk);
/* ICH9's SSRESET: the transaction state, not the data registers */
void pm_smbus_reset(PMSMBus *smb);
uint8_t pm_smbus_readb(PMSMBus *s, unsigned addr);
void pm_smbus_writeb(PMSMBus *s, unsigned addr, uint8_t val);
/* The interrupt's level: a status bit besides BUSY, with INTREN */
bool pm_smbus_irq_level(PMSMBus *s);

#endif
