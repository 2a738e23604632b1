/*
 * The SMBus host controller's register model (hw/i2c/pm_smbus.c) with
 * the PC's eight SPD EEPROMs on its bus.  Each row is a register script:
 * "wR=V" writes V to register R, "rR=V" reads R and expects V (hex).
 * The answers are QEMU 7.2's (tests/functional/test_storage_fns_vs_qemu72.py
 * compares the same transactions with 7.2 itself).
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "hw/i2c/pm_smbus.h"
#include "hw/isa/isa.h"
#include "hw/sysbus.h"
#include "qapi/error.h"

typedef struct SMBusCase {
    const char *name;
    bool aux_blk;               /* PIIX4's: the block buffer on */
    const char *script;
} SMBusCase;

static const SMBusCase cases[] = {
    /* HST_STS bits: 01 busy, 02 intr, 04 dev_err, 10 failed, 80 byte done */
    { "reset-values", false, "r0=00 r2=00 r3=00 r4=00 r5=00 r6=00 r7=00 rd=00" },
    { "aux-blk-at-start", true, "rd=02" },
    { "quick-read-eeprom", false, "w4=a1 w2=41 r0=02" },
    { "quick-write-eeprom", false, "w4=ae w2=41 r0=02" },
    { "quick-absent", false, "w4=21 w2=41 r0=04" },
    { "dev-err-blocks-next", false,
      "w4=21 w2=41 r0=04 w4=a1 w2=41 r0=04 w0=ff w2=41 r0=02" },
    { "byte-data-read-zero", false, "w5=55 w4=a1 w3=10 w2=49 r0=02 r5=00" },
    { "byte-data-write-read", false,
      "w4=a0 w3=10 w5=5a w2=49 r0=02 w0=ff w4=a1 w3=10 w5=0 w2=49 r0=02 "
      "r5=5a" },
    { "eeprom-not-shared", false,
      "w4=a0 w3=10 w5=5a w2=49 w0=ff w4=a3 w3=10 w2=49 r0=02 r5=00" },
    { "word-write-read", false,
      "w4=a0 w3=20 w5=34 w6=12 w2=4d w0=ff w4=a1 w2=4d r0=02 r5=34 r6=12" },
    { "receive-byte-follows-offset", false,
      "w4=a0 w3=7 w5=66 w2=49 w0=ff w4=a0 w3=7 w2=45 w0=ff w4=a1 w2=45 "
      "r0=02 r5=66 w0=ff w2=45 r5=00" },
    { "broadcast-write-reaches-all", false,
      "w4=00 w3=1 w5=77 w2=49 r0=02 w0=ff w4=af w3=1 w2=49 r0=02 r5=77" },
    { "broadcast-read-all-ones", false, "w4=01 w3=1 w2=49 r0=02 r5=ff" },
    { "process-call-fails", false, "w4=a1 w2=51 r0=04" },
    { "reserved-protocol-fails", false, "w4=a1 w2=5d r0=04" },
    { "deferred-start", false,
      "w4=a1 w3=10 w2=48 r0=01 r0=02 r2=08" },
    { "start-reads-zero", false, "w2=ff r2=1f" },
    { "kill", false, "w2=02 r0=10 r2=02" },
    { "block-read-buffer", true,
      "w4=a0 w3=10 w5=3 w2=49 w0=ff w4=a1 w3=10 w2=55 r0=02 r5=03 r7=00 "
      "r7=00 r7=00" },
    { "block-read-too-long", true,
      "w4=a0 w3=10 w5=40 w2=49 w0=ff w4=a1 w3=10 w2=55 r0=02 r5=00" },
    { "block-write-buffer", true,
      "w5=3 w7=1 w7=2 w7=3 w4=a2 w3=40 w2=55 r0=02 w0=ff w4=a3 w3=41 "
      "w2=49 r5=01 w0=ff w3=42 w2=49 r5=02" },
    { "block-write-count-mismatch", true, "w5=3 w7=1 w4=a2 w2=55 r0=04" },
    { "block-read-byte-by-byte", false,
      "w4=a0 w3=10 w5=2 w2=49 w0=ff w4=a0 w3=11 w5=9 w2=49 w0=ff "
      "w4=a0 w3=12 w5=8 w2=49 w0=ff w4=a1 w3=10 w2=55 r0=81 r5=02 r7=09 "
      "w0=80 r0=81 r7=08 w2=75 w0=80 r0=02" },
    { "i2c-block-read", false,
      "w4=a0 w3=40 w5=c3 w2=49 w0=ff w6=40 w4=a1 w2=59 r0=81 r7=c3 w0=80 "
      "r7=00 w2=39 w0=80 r0=02" },
};

static PMSMBus smb;

static unsigned hexval(const char *s)
{
    return strtoul(s, NULL, 16);
}

static void run_script(const char *script)
{
    gchar **ops = g_strsplit(script, " ", -1);

    for (gchar **op = ops; *op; op++) {
        unsigned reg = hexval(*op + 1);
        unsigned val = hexval(strchr(*op, '=') + 1);

        if (**op == 'w') {
            pm_smbus_writeb(&smb, reg, val);
        } else {
            uint8_t got = pm_smbus_readb(&smb, reg);

            if (got != val) {
                g_test_message("%s: read %02x", *op, got);
            }
            g_assert_cmphex(got, ==, val);
        }
    }
    g_strfreev(ops);
}

static void test_case(gconstpointer data)
{
    const SMBusCase *c = data;
    BusState *bus = BUS(smb.smbus);

    /* a fresh controller state and fresh EEPROMs for each row */
    smb.smb_stat = smb.smb_ctl = smb.smb_cmd = smb.smb_addr = 0;
    smb.smb_data0 = smb.smb_data1 = smb.smb_blkdata = 0;
    smb.smb_index = 0;
    memset(smb.smb_data, 0, sizeof(smb.smb_data));
    smb.in_i2c_block_read = smb.start_transaction_on_status_read = false;
    smb.op_done = true;
    smb.smb_auxctl = c->aux_blk ? 2 : 0;
    for (guint i = 0; i < bus->children->len; i++) {
        BusChild *kid = g_ptr_array_index(bus->children, i);
        DeviceClass *dc = DEVICE_GET_CLASS(kid->child);

        dc->reset(kid->child);
    }
    run_script(c->script);
}

int main(int argc, char **argv)
{
    Object *machine = object_new(TYPE_CONTAINER);
    DeviceState *parent;

    g_test_init(&argc, &argv, NULL);
    object_property_add_child(object_get_root(), "machine", machine);
    object_unref(machine);
    object_property_add_child(machine, "unattached",
                              object_new(TYPE_CONTAINER));
    sysbus_get_default();
    parent = qdev_new(TYPE_ISABUS_BRIDGE);
    g_assert_true(sysbus_realize_and_unref(SYS_BUS_DEVICE(parent),
                                           &error_fatal));
    pm_smbus_init(parent, &smb, false);
    g_assert_true(smbus_eeprom_init(smb.smbus, 8, &error_fatal));
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *name = g_strdup_printf("/pm-smbus/%s", cases[i].name);

        g_test_add_data_func(name, &cases[i], test_case);
        g_free(name);
    }
    return g_test_run();
}
