/*
 * The I2C bus ("i2c-bus") and its devices ("i2c-slave", and the SMBus
 * flavour "smbus-device"), as QEMU 7.2 models them for the PC's SMBus
 * controllers (hw/i2c/core.c, hw/i2c/smbus-slave.c).
 *
 * A transfer starts at a 7-bit address: the devices there (every device
 * for the broadcast address 0) become the transfer's; a start on an
 * address nobody has fails.  A second start without an end (SMBus's
 * repeated start, write then read) keeps the same devices.  Bytes sent
 * go to every device of the transfer, a byte received comes from the
 * first (all-ones in a broadcast).
 */
#ifndef HW_I2C_I2C_H
#define HW_I2C_I2C_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/qdev-core.h"

#define TYPE_I2C_BUS "i2c-bus"
#define TYPE_I2C_SLAVE "i2c-slave"
#define TYPE_SMBUS_DEVICE "smbus-device"
#define I2C_BROADCAST 0x00

enum i2c_event {
    I2C_START_RECV,
    I2C_START_SEND,
    I2C_FINISH,
    I2C_NACK,
};

typedef struct I2CSlave {
    DeviceState parent_obj;
    uint8_t address;            /* "address" */
} I2CSlave;

typedef struct I2CSlaveClass {
    DeviceClass parent_class;
    /* 0, or nonzero to refuse the start */
    int (*event)(I2CSlave *s, enum i2c_event event);
    uint8_t (*recv)(I2CSlave *s);
    int (*send)(I2CSlave *s, uint8_t data);
} I2CSlaveClass;

typedef struct I2CBus {
    BusState parent_obj;
    GPtrArray *current;         /* the transfer's devices */
    bool broadcast;
} I2CBus;

#define I2C_BUS(obj) ((I2CBus *)(obj))
#define I2C_SLAVE(obj) ((I2CSlave *)(obj))
#define I2C_SLAVE_GET_CLASS(obj) ((I2CSlaveClass *)OBJECT_GET_CLASS(obj))

I2CBus *i2c_bus_new(DeviceState *parent, const char *name);
/* 0 on success; nonzero: no device answered (the transfer did not start) */
int i2c_start_transfer(I2CBus *bus, uint8_t address, bool is_recv);
void i2c_end_transfer(I2CBus *bus);
int i2c_send(I2CBus *bus, uint8_t data);
uint8_t i2c_recv(I2CBus *bus);
void i2c_nack(I2CBus *bus);

/* SMBus devices: a byte-oriented layer over I2C (smbus-slave.c) */
#define SMBUS_DATA_MAX_LEN 34

typedef struct SMBusDevice {
    I2CSlave i2c;
    int mode;
    int data_len;
    uint8_t data_buf[SMBUS_DATA_MAX_LEN];
} SMBusDevice;

typedef struct SMBusDeviceClass {
    I2CSlaveClass parent_class;
    void (*quick_cmd)(SMBusDevice *dev, uint8_t read);
    uint8_t (*receive_byte)(SMBusDevice *dev);
    /* buf[0] is the command byte; len > 0 */
    int (*write_data)(SMBusDevice *dev, uint8_t *buf, uint8_t len);
} SMBusDeviceClass;

#define SMBUS_DEVICE(obj) ((SMBusDevice *)(obj))
#define SMBUS_DEVICE_GET_CLASS(obj) \
    ((SMBusDeviceClass *)OBJECT_GET_CLASS(obj))

/* SMBus transactions as a host controller issues them; < 0: no answer */
int smbus_quick_command(I2CBus *bus, uint8_t addr, int read);
int smbus_receive_byte(I2CBus *bus, uint8_t addr);
int smbus_send_byte(I2CBus *bus, uint8_t addr, uint8_t data);
int smbus_read_byte(I2CBus *bus, uint8_t addr, uint8_t command);
int smbus_write_byte(I2CBus *bus, uint8_t addr, uint8_t command,
                     uint8_t data);
int smbus_read_word(I2CBus *bus, uint8_t addr, uint8_t command);
int smbus_write_word(I2CBus *bus, uint8_t addr, uint8_t command,
                     uint16_t data);
int smbus_read_block(I2CBus *bus, uint8_t addr, uint8_t command,
                     uint8_t *data, int len, bool recv_len, bool send_cmd);
int smbus_write_block(I2CBus *bus, uint8_t addr, uint8_t command,
                      uint8_t *data, int len, bool send_len);

/* The PC boards' SPD EEPROMs: count devices at 0x50.. reading zeros */
#define TYPE_SMBUS_EEPROM "smbus-eeprom"
bool smbus_eeprom_init(I2CBus *bus, int count, Error **errp);

#endif
