/*
 * SMBus devices over I2C (include/hw/i2c/i2c.h): the byte protocol a
 * device sees, as QEMU 7.2's smbus-device does it.  Bytes written are
 * collected (at most SMBUS_DATA_MAX_LEN) and handed to write_data at the
 * stop, or at a repeated start that turns the transfer round to read;
 * a transfer without data is a quick command; a read is receive_byte per
 * byte.  A start or NACK where the protocol has none leaves the device
 * "confused" until the stop (7.2 also prints "smbus: error: ..." then;
 * the guest sees the same bytes either way).
 */
#include "hw/i2c/i2c.h"

enum {
    SMBUS_IDLE,
    SMBUS_WRITE_DATA,
    SMBUS_READ_DATA,
    SMBUS_DONE,
    SMBUS_CONFUSED = -1,
};

static void smbus_do_write(SMBusDevice *dev)
{
    SMBusDeviceClass *sc = SMBUS_DEVICE_GET_CLASS(dev);

    if (sc->write_data) {
        sc->write_data(dev, dev->data_buf, dev->data_len);
    }
}

static int smbus_event(I2CSlave *s, enum i2c_event event)
{
    SMBusDevice *dev = SMBUS_DEVICE(s);
    SMBusDeviceClass *sc = SMBUS_DEVICE_GET_CLASS(dev);

    switch (event) {
    case I2C_START_SEND:
        dev->mode = dev->mode == SMBUS_IDLE ? SMBUS_WRITE_DATA
                                            : SMBUS_CONFUSED;
        break;
    case I2C_START_RECV:
        if (dev->mode == SMBUS_IDLE) {
            dev->mode = SMBUS_READ_DATA;
        } else if (dev->mode == SMBUS_WRITE_DATA && dev->data_len) {
            smbus_do_write(dev);
            dev->mode = SMBUS_READ_DATA;
        } else {
            dev->mode = SMBUS_CONFUSED;
        }
        break;
    case I2C_FINISH:
        if (!dev->data_len) {
            if ((dev->mode == SMBUS_WRITE_DATA ||
                 dev->mode == SMBUS_READ_DATA) && sc->quick_cmd) {
                sc->quick_cmd(dev, dev->mode == SMBUS_READ_DATA);
            }
        } else if (dev->mode == SMBUS_WRITE_DATA) {
            smbus_do_write(dev);
        }
        dev->mode = SMBUS_IDLE;
        dev->data_len = 0;
        break;
    case I2C_NACK:
        if (dev->mode == SMBUS_READ_DATA) {
            dev->mode = SMBUS_DONE;
        } else if (dev->mode != SMBUS_DONE) {
            dev->mode = SMBUS_CONFUSED;
        }
        break;
    }
    return 0;
}

static uint8_t smbus_recv(I2CSlave *s)
{
    SMBusDevice *dev = SMBUS_DEVICE(s);
    SMBusDeviceClass *sc = SMBUS_DEVICE_GET_CLASS(dev);

    if (dev->mode != SMBUS_READ_DATA) {
        dev->mode = SMBUS_CONFUSED;
        return 0xff;
    }
    return sc->receive_byte ? sc->receive_byte(dev) : 0xff;
}

static int smbus_send(I2CSlave *s, uint8_t data)
{
    SMBusDevice *dev = SMBUS_DEVICE(s);

    if (dev->mode == SMBUS_WRITE_DATA &&
        dev->data_len < (int)sizeof(dev->data_buf)) {
        dev->data_buf[dev->data_len++] = data;
    }
    return 0;
}

static void smbus_device_class_init(ObjectClass *oc, void *data)
{
    I2CSlaveClass *sc = (I2CSlaveClass *)oc;

    sc->event = smbus_event;
    sc->recv = smbus_recv;
    sc->send = smbus_send;
}

static const TypeInfo smbus_device_info = {
    .name = TYPE_SMBUS_DEVICE,
    .parent = TYPE_I2C_SLAVE,
    .abstract = true,
    .instance_size = sizeof(SMBusDevice),
    .class_size = sizeof(SMBusDeviceClass),
    .class_init = smbus_device_class_init,
};

static void smbus_register_types(void)
{
    type_register_static(&smbus_device_info);
}
type_init(smbus_register_types)
