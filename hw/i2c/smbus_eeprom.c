/*
 * smbus-eeprom: 256 bytes behind an SMBus address, as QEMU 7.2 puts eight
 * of them at 0x50-0x57 on the PC boards' SMBus for SPD data.  7.2's PC
 * boards give them no SPD contents, so they read zeros.  A write sets the
 * byte offset (the command byte) and stores the bytes after it there,
 * the offset wrapping at 256; a read returns the byte at the offset and
 * moves it on.  The contents are writable until a reset, which restores
 * them (zeros) and the offset 0, as in 7.2.
 */
#include <string.h>

#include "hw/i2c/i2c.h"
#include "hw/qdev-properties.h"

/* State ------------------------------------------------------------------ */

#define SMBUS_EEPROM_SIZE 256

typedef struct SMBusEEPROMDevice {
    SMBusDevice parent_obj;
    uint8_t data[SMBUS_EEPROM_SIZE];
    uint8_t offset;
} SMBusEEPROMDevice;

/* Register read/write ---------------------------------------------------- */

static uint8_t eeprom_receive_byte(SMBusDevice *dev)
{
    SMBusEEPROMDevice *e = (SMBusEEPROMDevice *)dev;

    return e->data[e->offset++];
}

static int eeprom_write_data(SMBusDevice *dev, uint8_t *buf, uint8_t len)
{
    SMBusEEPROMDevice *e = (SMBusEEPROMDevice *)dev;

    e->offset = buf[0];
    for (int i = 1; i < len; i++) {
        e->data[e->offset++] = buf[i];
    }
    return 0;
}

/* Reset ------------------------------------------------------------------ */

static void eeprom_reset(DeviceState *dev)
{
    SMBusEEPROMDevice *e = (SMBusEEPROMDevice *)dev;

    memset(e->data, 0, sizeof(e->data));     /* the PC's SPD: none */
    e->offset = 0;
}

/* Realize ---------------------------------------------------------------- */

static bool eeprom_realize(DeviceState *dev, Error **errp)
{
    eeprom_reset(dev);
    return true;
}

bool smbus_eeprom_init(I2CBus *bus, int count, Error **errp)
{
    for (int i = 0; i < count; i++) {
        DeviceState *dev = qdev_new(TYPE_SMBUS_EEPROM);

        qdev_prop_set_uint8(dev, "address", 0x50 + i);
        if (!qdev_realize_and_unref(dev, BUS(bus), errp)) {
            return false;
        }
    }
    return true;
}

/* Registration ------------------------------------------------------------ */

static void eeprom_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    SMBusDeviceClass *sc = (SMBusDeviceClass *)oc;

    dc->realize = eeprom_realize;
    dc->reset = eeprom_reset;
    /* its contents come from the board (7.2: init_data) */
    dc->user_creatable = false;
    sc->receive_byte = eeprom_receive_byte;
    sc->write_data = eeprom_write_data;
}

static const TypeInfo eeprom_info = {
    .name = TYPE_SMBUS_EEPROM,
    .parent = TYPE_SMBUS_DEVICE,
    .instance_size = sizeof(SMBusEEPROMDevice),
    .class_init = eeprom_class_init,
};

static void eeprom_register_types(void)
{
    type_register_static(&eeprom_info);
}
type_init(eeprom_register_types)
