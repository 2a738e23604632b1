/*
 * The PIIX4/ICH9 SMBus host controller (include/hw/i2c/pm_smbus.h): the
 * register model and its 64-byte "pm-smbus" I/O region.  No file
 * descriptors: tests/unit/test-pm-smbus.c drives it with EEPROMs on its
 * bus.
 */
#include "hw/i2c/pm_smbus.h"

/* Registers */
enum {
    SMB_HSTSTS = 0x00,
    SMB_HSTCNT = 0x02,
    SMB_HSTCMD = 0x03,
    SMB_HSTADD = 0x04,
    SMB_HSTDAT0 = 0x05,
    SMB_HSTDAT1 = 0x06,
    SMB_BLKDAT = 0x07,
    SMB_AUXCTL = 0x0d,
};

/* HST_STS */
#define STS_HOST_BUSY 0x01
#define STS_INTR 0x02
#define STS_DEV_ERR 0x04
#define STS_FAILED 0x10
#define STS_BYTE_DONE 0x80
/* HST_CNT */
#define CTL_INTREN 0x01
#define CTL_KILL 0x02
#define CTL_LAST_BYTE 0x20
#define CTL_START 0x40
#define CTL_READ_MASK 0x1f
/* AUX_CTL */
#define AUX_BLK 0x02
#define AUX_MASK 0x03

enum {
    PROT_QUICK,
    PROT_BYTE,
    PROT_BYTE_DATA,
    PROT_WORD_DATA,
    PROT_PROC_CALL,
    PROT_BLOCK_DATA,
    PROT_I2C_BLOCK_READ,
};

static unsigned smb_protocol(PMSMBus *s)
{
    return (s->smb_ctl >> 2) & 7;
}

/* Transactions ---------------------------------------------------------- */

/* An I2C block read: the offset in D1, then bytes one by one (the R/W
 * bit is ignored, as Linux's i2c-i801 may leave it either way) */
static bool smb_start_i2c_block_read(PMSMBus *s, uint8_t addr)
{
    if (i2c_start_transfer(s->smbus, addr, false) ||
        i2c_send(s->smbus, s->smb_data1) ||
        i2c_start_transfer(s->smbus, addr, true)) {
        return false;
    }
    s->in_i2c_block_read = true;
    s->smb_blkdata = i2c_recv(s->smbus);
    s->op_done = false;
    s->smb_stat |= STS_HOST_BUSY | STS_BYTE_DONE;
    return true;
}

/* A block transfer; false: DEV_ERR */
static bool smb_block(PMSMBus *s, bool read, uint8_t addr)
{
    int ret;

    if (read) {
        ret = smbus_read_block(s->smbus, addr, s->smb_cmd, s->smb_data,
                               sizeof(s->smb_data), !s->i2c_enable,
                               !s->i2c_enable);
        if (ret < 0) {
            return false;
        }
        s->smb_index = 0;
        s->op_done = false;
        if (s->smb_auxctl & AUX_BLK) {
            s->smb_stat |= STS_INTR;
        } else {
            s->smb_blkdata = s->smb_data[0];
            s->smb_stat |= STS_HOST_BUSY | STS_BYTE_DONE;
        }
        s->smb_data0 = ret;
        return true;
    }
    if (!(s->smb_auxctl & AUX_BLK)) {
        /* byte by byte: the first byte now, the rest per BYTE_DONE */
        s->op_done = false;
        s->smb_stat |= STS_HOST_BUSY | STS_BYTE_DONE;
        s->smb_data[0] = s->smb_blkdata;
        s->smb_index = 0;
        return true;
    }
    /* the buffer holds the whole block: D0 bytes must have been written */
    if (s->smb_index != s->smb_data0) {
        s->smb_index = 0;
        return false;
    }
    s->smb_index = 0;
    if (smbus_write_block(s->smbus, addr, s->smb_cmd, s->smb_data,
                          s->smb_data0, !s->i2c_enable) < 0) {
        return false;
    }
    s->op_done = true;
    s->smb_stat |= STS_INTR;
    s->smb_stat &= ~STS_HOST_BUSY;
    return true;
}

static void smb_transaction(PMSMBus *s)
{
    bool read = s->smb_addr & 1;
    uint8_t addr = s->smb_addr >> 1;
    I2CBus *bus = s->smbus;
    int ret;

    if (s->smb_stat & STS_DEV_ERR) {
        goto error;
    }
    switch (smb_protocol(s)) {
    case PROT_QUICK:
        ret = smbus_quick_command(bus, addr, read);
        break;
    case PROT_BYTE:
        ret = read ? smbus_receive_byte(bus, addr)
                   : smbus_send_byte(bus, addr, s->smb_cmd);
        if (read && ret >= 0) {
            s->smb_data0 = ret;
        }
        break;
    case PROT_BYTE_DATA:
        ret = read ? smbus_read_byte(bus, addr, s->smb_cmd)
                   : smbus_write_byte(bus, addr, s->smb_cmd, s->smb_data0);
        if (read && ret >= 0) {
            s->smb_data0 = ret;
        }
        break;
    case PROT_WORD_DATA:
        ret = read ? smbus_read_word(bus, addr, s->smb_cmd)
                   : smbus_write_word(bus, addr, s->smb_cmd,
                                      s->smb_data1 << 8 | s->smb_data0);
        if (read && ret >= 0) {
            s->smb_data1 = ret >> 8;
            s->smb_data0 = ret;
        }
        break;
    case PROT_I2C_BLOCK_READ:
        if (!smb_start_i2c_block_read(s, addr)) {
            goto error;
        }
        return;
    case PROT_BLOCK_DATA:
        if (!smb_block(s, read, addr)) {
            goto error;
        }
        return;
    default:
        goto error;
    }
    if (ret < 0) {
        goto error;
    }
    s->smb_stat |= STS_INTR;
    return;
error:
    s->smb_stat |= STS_DEV_ERR;
}

static void smb_transaction_start(PMSMBus *s)
{
    if (s->smb_ctl & CTL_INTREN) {
        smb_transaction(s);
        s->start_transaction_on_status_read = false;
    } else {
        /* 7.2 defers it to the next status read (AMIBIOS waits for BUSY) */
        s->smb_stat |= STS_HOST_BUSY;
        s->start_transaction_on_status_read = true;
    }
}

bool pm_smbus_irq_level(PMSMBus *s)
{
    return (s->smb_stat & ~STS_HOST_BUSY) && (s->smb_ctl & CTL_INTREN);
}

static bool smb_byte_by_byte(PMSMBus *s)
{
    if (s->op_done) {
        return false;
    }
    return s->in_i2c_block_read || !(s->smb_auxctl & AUX_BLK);
}

/* BYTE_DONE cleared during a byte-by-byte block: the next byte */
static void smb_next_byte(PMSMBus *s)
{
    bool read = (s->smb_addr & 1) || s->in_i2c_block_read;

    if (++s->smb_index >= PM_SMBUS_MAX_MSG_SIZE) {
        s->smb_index = 0;
    }
    if (!read && s->smb_index == s->smb_data0) {
        /* the last byte written: send the block */
        if (smb_protocol(s) == PROT_I2C_BLOCK_READ ||
            smbus_write_block(s->smbus, s->smb_addr >> 1, s->smb_cmd,
                              s->smb_data, s->smb_data0,
                              !s->i2c_enable) < 0) {
            s->smb_stat |= STS_DEV_ERR;
            return;
        }
        s->op_done = true;
        s->smb_stat |= STS_INTR;
        s->smb_stat &= ~STS_HOST_BUSY;
    } else if (!read) {
        s->smb_data[s->smb_index] = s->smb_blkdata;
        s->smb_stat |= STS_BYTE_DONE;
    } else if (s->smb_ctl & CTL_LAST_BYTE) {
        s->op_done = true;
        if (s->in_i2c_block_read) {
            s->in_i2c_block_read = false;
            s->smb_blkdata = i2c_recv(s->smbus);
            i2c_nack(s->smbus);
            i2c_end_transfer(s->smbus);
        } else {
            s->smb_blkdata = s->smb_data[s->smb_index];
        }
        s->smb_index = 0;
        s->smb_stat |= STS_INTR;
        s->smb_stat &= ~STS_HOST_BUSY;
    } else {
        s->smb_blkdata = s->in_i2c_block_read ? i2c_recv(s->smbus)
                                              : s->smb_data[s->smb_index];
        s->smb_stat |= STS_BYTE_DONE;
    }
}

/* Register read/write ---------------------------------------------------- */

void pm_smbus_writeb(PMSMBus *s, unsigned addr, uint8_t val)
{
    bool byte_done;

    switch (addr) {
    case SMB_HSTSTS:
        byte_done = s->smb_stat & val & STS_BYTE_DONE;
        s->smb_stat &= ~(val & ~STS_HOST_BUSY);
        if (byte_done && smb_byte_by_byte(s)) {
            smb_next_byte(s);
        }
        break;
    case SMB_HSTCNT:
        s->smb_ctl = val & ~CTL_START;      /* START reads 0 */
        if (val & CTL_START) {
            if (!s->op_done) {
                /* a new start abandons the transfer under way */
                s->smb_index = 0;
                s->op_done = true;
                if (s->in_i2c_block_read) {
                    s->in_i2c_block_read = false;
                    i2c_end_transfer(s->smbus);
                }
            }
            smb_transaction_start(s);
        }
        if (s->smb_ctl & CTL_KILL) {
            s->op_done = true;
            s->smb_index = 0;
            s->smb_stat |= STS_FAILED;
            s->smb_stat &= ~STS_HOST_BUSY;
        }
        break;
    case SMB_HSTCMD:
        s->smb_cmd = val;
        break;
    case SMB_HSTADD:
        s->smb_addr = val;
        break;
    case SMB_HSTDAT0:
        s->smb_data0 = val;
        break;
    case SMB_HSTDAT1:
        s->smb_data1 = val;
        break;
    case SMB_BLKDAT:
        if (s->smb_index >= PM_SMBUS_MAX_MSG_SIZE) {
            s->smb_index = 0;
        }
        if (s->smb_auxctl & AUX_BLK) {
            s->smb_data[s->smb_index++] = val;
        } else {
            s->smb_blkdata = val;
        }
        break;
    case SMB_AUXCTL:
        s->smb_auxctl = val & AUX_MASK;
        break;
    }
}

uint8_t pm_smbus_readb(PMSMBus *s, unsigned addr)
{
    uint8_t val = 0;

    switch (addr) {
    case SMB_HSTSTS:
        val = s->smb_stat;
        if (s->start_transaction_on_status_read) {
            /* this read still shows BUSY; the transaction runs now */
            s->start_transaction_on_status_read = false;
            s->smb_stat &= ~STS_HOST_BUSY;
            smb_transaction(s);
        }
        break;
    case SMB_HSTCNT:
        val = s->smb_ctl & CTL_READ_MASK;
        break;
    case SMB_HSTCMD:
        val = s->smb_cmd;
        break;
    case SMB_HSTADD:
        val = s->smb_addr;
        break;
    case SMB_HSTDAT0:
        val = s->smb_data0;
        break;
    case SMB_HSTDAT1:
        val = s->smb_data1;
        break;
    case SMB_BLKDAT:
        if ((s->smb_auxctl & AUX_BLK) && !s->in_i2c_block_read) {
            if (s->smb_index >= PM_SMBUS_MAX_MSG_SIZE) {
                s->smb_index = 0;
            }
            val = s->smb_data[s->smb_index++];
            if (!s->op_done && s->smb_index == s->smb_data0) {
                s->op_done = true;
                s->smb_index = 0;
                s->smb_stat &= ~STS_HOST_BUSY;
            }
        } else {
            val = s->smb_blkdata;
        }
        break;
    case SMB_AUXCTL:
        val = s->smb_auxctl;
        break;
    }
    return val;
}

void pm_smbus_reset(PMSMBus *s)
{
    s->op_done = true;
    s->smb_index = 0;
    s->smb_stat = 0;
}

static uint64_t pm_smbus_io_read(void *opaque, hwaddr addr, unsigned size)
{
    PMSMBus *s = opaque;
    uint8_t v;
    bool level;

    g_mutex_lock(&s->lock);
    v = pm_smbus_readb(s, addr);
    level = pm_smbus_irq_level(s);
    g_mutex_unlock(&s->lock);
    /* outside the lock: the PCI lock is taken before it elsewhere */
    if (s->set_irq) {
        s->set_irq(s, level);
    }
    return v;
}

static void pm_smbus_io_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    PMSMBus *s = opaque;
    bool level;

    g_mutex_lock(&s->lock);
    pm_smbus_writeb(s, addr, val);
    level = pm_smbus_irq_level(s);
    g_mutex_unlock(&s->lock);
    if (s->set_irq) {
        s->set_irq(s, level);
    }
}

static const MemoryRegionOps pm_smbus_ops = {
    .read = pm_smbus_io_read,
    .write = pm_smbus_io_write,
    .valid.min_access_size = 1,
    .valid.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

void pm_smbus_init(DeviceState *parent, PMSMBus *smb, bool force_aux_blk)
{
    g_mutex_init(&smb->lock);
    smb->op_done = true;
    smb->smbus = i2c_bus_new(parent, "i2c");
    if (force_aux_blk) {
        smb->smb_auxctl |= AUX_BLK;
    }
    memory_region_init_io(&smb->io, OBJECT(parent), &pm_smbus_ops, smb,
                          "pm-smbus", 64);
}
