/*
 * ICH9-SMB, function 3 of device 31 on the q35 boards (00:1f.3; 8086:2930
 * rev 02, class 0c05, multifunction; QEMU 7.2's values): the SMBus host
 * controller (include/hw/i2c/pm_smbus.h) in BAR4 (64 bytes of I/O), its
 * "i2c" bus with the board's SPD EEPROMs, its interrupt on INTA.
 *
 * HOSTC (0x40): HST_EN decodes the registers (as in 7.2 they decode
 * from the start, until the first write to HOSTC says otherwise), I2C_EN
 * makes block transfers plain I2C (no command and count bytes), SSRESET
 * resets the transaction state and clears itself.  The machine property
 * smbus=off leaves the function out, as in 7.2.  A machine reset, as in
 * 7.2, leaves the controller's registers as they were.
 */
#include "hw/i2c/pm_smbus.h"
#include "hw/pci/pci.h"
#include "hw/southbridge/ich9.h"

/* State ------------------------------------------------------------------ */

typedef struct ICH9SMBState {
    PCIDevice parent_obj;
    bool irq_enabled;
    PMSMBus smb;
} ICH9SMBState;

/* Register read/write ---------------------------------------------------- */

/* Called with the PCI lock held */
static void ich9_smb_write_config(PCIDevice *d, uint32_t addr, uint32_t val,
                                  int len)
{
    ICH9SMBState *s = (ICH9SMBState *)d;
    uint8_t hostc;

    pci_default_write_config(d, addr, val, len);
    if (addr > ICH9_SMB_HOSTC || addr + len <= ICH9_SMB_HOSTC) {
        return;
    }
    hostc = d->config[ICH9_SMB_HOSTC];
    memory_region_set_enabled(&s->smb.io, hostc & ICH9_SMB_HOSTC_HST_EN);
    g_mutex_lock(&s->smb.lock);
    s->smb.i2c_enable = hostc & ICH9_SMB_HOSTC_I2C_EN;
    if (hostc & ICH9_SMB_HOSTC_SSRESET) {
        pm_smbus_reset(&s->smb);
        d->config[ICH9_SMB_HOSTC] &= ~ICH9_SMB_HOSTC_SSRESET;
    }
    g_mutex_unlock(&s->smb.lock);
}

static void ich9_smb_set_irq(PMSMBus *smb, bool level)
{
    ICH9SMBState *s = smb->opaque;

    if (level != s->irq_enabled) {
        s->irq_enabled = level;
        pci_set_irq(&s->parent_obj, level);
    }
}

/* Realize ---------------------------------------------------------------- */

static bool ich9_smb_realize(PCIDevice *d, Error **errp)
{
    ICH9SMBState *s = (ICH9SMBState *)d;

    d->config[PCI_INTERRUPT_PIN] = 1;
    d->config[ICH9_SMB_HOSTC] = 0;
    pm_smbus_init(DEVICE(d), &s->smb, false);
    s->smb.set_irq = ich9_smb_set_irq;
    s->smb.opaque = s;
    pci_register_bar(d, 4, PCI_BASE_ADDRESS_SPACE_IO, &s->smb.io);
    return true;
}

/* Registration ------------------------------------------------------------ */

static void ich9_smb_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(oc);

    pc->realize = ich9_smb_realize;
    pc->config_write = ich9_smb_write_config;
    pc->vendor_id = 0x8086;
    pc->device_id = 0x2930;
    pc->revision = 0x02;
    pc->class_id = 0x0c05;      /* SMBus */
    dc->desc = "ICH9 SMBUS Bridge";
    /* part of the chipset: the board wires it */
    dc->user_creatable = false;
}

static const TypeInfo ich9_smb_info = {
    .name = TYPE_ICH9_SMB_DEVICE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(ICH9SMBState),
    .class_init = ich9_smb_class_init,
};

static void ich9_smb_register_types(void)
{
    type_register_static(&ich9_smb_info);
}
type_init(ich9_smb_register_types)
