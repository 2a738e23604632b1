/*
 * The I2C bus and the SMBus transactions a host controller issues on it
 * (include/hw/i2c/i2c.h), with QEMU 7.2's semantics: a failed first
 * start ends nothing (nothing began), a failed repeated start leaves the
 * transfer to the caller to end; a broadcast (address 0) reaches every
 * device and reads all-ones.
 */
#include "hw/i2c/i2c.h"
#include "hw/qdev-properties.h"

/* Transfers ------------------------------------------------------------- */

I2CBus *i2c_bus_new(DeviceState *parent, const char *name)
{
    return I2C_BUS(qbus_new(TYPE_I2C_BUS, parent, name));
}

int i2c_start_transfer(I2CBus *bus, uint8_t address, bool is_recv)
{
    BusState *b = BUS(bus);
    bool first = !bus->current->len;
    guint i;

    if (address == I2C_BROADCAST) {
        bus->broadcast = true;
    }
    if (first) {
        for (i = 0; i < b->children->len; i++) {
            BusChild *kid = g_ptr_array_index(b->children, i);
            I2CSlave *s = I2C_SLAVE(kid->child);

            if (bus->broadcast || s->address == address) {
                g_ptr_array_add(bus->current, s);
                if (!bus->broadcast) {
                    break;
                }
            }
        }
    }
    if (!bus->current->len) {
        return 1;
    }
    for (i = 0; i < bus->current->len; i++) {
        I2CSlave *s = g_ptr_array_index(bus->current, i);
        I2CSlaveClass *sc = I2C_SLAVE_GET_CLASS(s);
        int rv = sc->event ? sc->event(s, is_recv ? I2C_START_RECV
                                                  : I2C_START_SEND)
                           : 0;

        if (rv && !bus->broadcast) {
            if (first) {
                i2c_end_transfer(bus);
            }
            return rv;
        }
    }
    return 0;
}

void i2c_end_transfer(I2CBus *bus)
{
    guint i;

    for (i = 0; i < bus->current->len; i++) {
        I2CSlave *s = g_ptr_array_index(bus->current, i);
        I2CSlaveClass *sc = I2C_SLAVE_GET_CLASS(s);

        if (sc->event) {
            sc->event(s, I2C_FINISH);
        }
    }
    g_ptr_array_set_size(bus->current, 0);
    bus->broadcast = false;
}

int i2c_send(I2CBus *bus, uint8_t data)
{
    int ret = 0;
    guint i;

    for (i = 0; i < bus->current->len; i++) {
        I2CSlave *s = g_ptr_array_index(bus->current, i);
        I2CSlaveClass *sc = I2C_SLAVE_GET_CLASS(s);

        if (!sc->send || sc->send(s, data)) {
            ret = -1;
        }
    }
    return ret ? -1 : 0;
}

uint8_t i2c_recv(I2CBus *bus)
{
    I2CSlave *s;
    I2CSlaveClass *sc;

    if (!bus->current->len || bus->broadcast) {
        return 0xff;
    }
    s = g_ptr_array_index(bus->current, 0);
    sc = I2C_SLAVE_GET_CLASS(s);
    return sc->recv ? sc->recv(s) : 0xff;
}

void i2c_nack(I2CBus *bus)
{
    guint i;

    for (i = 0; i < bus->current->len; i++) {
        I2CSlave *s = g_ptr_array_index(bus->current, i);
        I2CSlaveClass *sc = I2C_SLAVE_GET_CLASS(s);

        if (sc->event) {
            sc->event(s, I2C_NACK);
        }
    }
}

/* SMBus transactions ---------------------------------------------------- */

int smbus_quick_command(I2CBus *bus, uint8_t addr, int read)
{
    if (i2c_start_transfer(bus, addr, read)) {
        return -1;
    }
    i2c_end_transfer(bus);
    return 0;
}

int smbus_receive_byte(I2CBus *bus, uint8_t addr)
{
    uint8_t data;

    if (i2c_start_transfer(bus, addr, true)) {
        return -1;
    }
    data = i2c_recv(bus);
    i2c_nack(bus);
    i2c_end_transfer(bus);
    return data;
}

int smbus_send_byte(I2CBus *bus, uint8_t addr, uint8_t data)
{
    if (i2c_start_transfer(bus, addr, false)) {
        return -1;
    }
    i2c_send(bus, data);
    i2c_end_transfer(bus);
    return 0;
}

/* Sends the command byte, then turns the transfer round to receive */
static int smbus_command_then_recv(I2CBus *bus, uint8_t addr,
                                   uint8_t command)
{
    if (i2c_start_transfer(bus, addr, false)) {
        return -1;
    }
    i2c_send(bus, command);
    if (i2c_start_transfer(bus, addr, true)) {
        i2c_end_transfer(bus);
        return -1;
    }
    return 0;
}

int smbus_read_byte(I2CBus *bus, uint8_t addr, uint8_t command)
{
    uint8_t data;

    if (smbus_command_then_recv(bus, addr, command)) {
        return -1;
    }
    data = i2c_recv(bus);
    i2c_nack(bus);
    i2c_end_transfer(bus);
    return data;
}

int smbus_write_byte(I2CBus *bus, uint8_t addr, uint8_t command,
                     uint8_t data)
{
    if (i2c_start_transfer(bus, addr, false)) {
        return -1;
    }
    i2c_send(bus, command);
    i2c_send(bus, data);
    i2c_end_transfer(bus);
    return 0;
}

int smbus_read_word(I2CBus *bus, uint8_t addr, uint8_t command)
{
    uint16_t data;

    if (smbus_command_then_recv(bus, addr, command)) {
        return -1;
    }
    data = i2c_recv(bus);
    data |= (uint16_t)i2c_recv(bus) << 8;
    i2c_nack(bus);
    i2c_end_transfer(bus);
    return data;
}

int smbus_write_word(I2CBus *bus, uint8_t addr, uint8_t command,
                     uint16_t data)
{
    if (i2c_start_transfer(bus, addr, false)) {
        return -1;
    }
    i2c_send(bus, command);
    i2c_send(bus, data & 0xff);
    i2c_send(bus, data >> 8);
    i2c_end_transfer(bus);
    return 0;
}

int smbus_read_block(I2CBus *bus, uint8_t addr, uint8_t command,
                     uint8_t *data, int len, bool recv_len, bool send_cmd)
{
    int rlen, i;

    if (send_cmd) {
        if (smbus_command_then_recv(bus, addr, command)) {
            return -1;
        }
    } else if (i2c_start_transfer(bus, addr, true)) {
        return -1;
    }
    rlen = recv_len ? i2c_recv(bus) : len;
    if (rlen > len) {
        rlen = 0;
    }
    for (i = 0; i < rlen; i++) {
        data[i] = i2c_recv(bus);
    }
    i2c_nack(bus);
    i2c_end_transfer(bus);
    return rlen;
}

int smbus_write_block(I2CBus *bus, uint8_t addr, uint8_t command,
                      uint8_t *data, int len, bool send_len)
{
    int i;

    len = MIN(len, 32);
    if (i2c_start_transfer(bus, addr, false)) {
        return -1;
    }
    i2c_send(bus, command);
    if (send_len) {
        i2c_send(bus, len);
    }
    for (i = 0; i < len; i++) {
        i2c_send(bus, data[i]);
    }
    i2c_end_transfer(bus);
    return 0;
}

/* Types ----------------------------------------------------------------- */

static void i2c_bus_init(Object *obj)
{
    I2C_BUS(obj)->current = g_ptr_array_new();
}

static void i2c_bus_finalize(Object *obj)
{
    g_ptr_array_free(I2C_BUS(obj)->current, true);
}

static Property i2c_slave_props[] = {
    DEFINE_PROP_UINT8("address", I2CSlave, address, 0),
    DEFINE_PROP_END_OF_LIST(),
};

static void i2c_slave_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->bus_type = TYPE_I2C_BUS;
    device_class_set_props(dc, i2c_slave_props);
}

static const TypeInfo i2c_bus_info = {
    .name = TYPE_I2C_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(I2CBus),
    .instance_init = i2c_bus_init,
    .instance_finalize = i2c_bus_finalize,
};

static const TypeInfo i2c_slave_info = {
    .name = TYPE_I2C_SLAVE,
    .parent = TYPE_DEVICE,
    .abstract = true,
    .instance_size = sizeof(I2CSlave),
    .class_size = sizeof(I2CSlaveClass),
    .class_init = i2c_slave_class_init,
};

static void i2c_register_types(void)
{
    type_register_static(&i2c_bus_info);
    type_register_static(&i2c_slave_info);
}
type_init(i2c_register_types)
