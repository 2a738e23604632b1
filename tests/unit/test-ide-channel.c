/*
 * One IDE channel's registers without drives (hw/ide/ide-channel.c), as
 * QEMU 7.2 answers them.  Each row is a script: "wR=V" writes command
 * block register R (0-7), "cV" writes device control, "rR=V" reads R,
 * "aV" reads alternate status, "i=L" expects the interrupt at level L
 * (every raise and lower is recorded: "i=" with several levels checks
 * them in order and forgets them), "s" runs the pending software reset,
 * "d=V" reads a data word.
 * tests/functional/test_storage_fns_vs_qemu72.py checks the same against
 * 7.2 itself.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "hw/ide/ide-bus.h"

typedef struct IDECase {
    const char *name;
    const char *script;
} IDECase;

static const IDECase cases[] = {
    { "reset-reads-zero", "r0=00 r1=00 r2=00 r3=00 r4=00 r5=00 r6=00 r7=00 "
                          "a00" },
    { "writes-stay-hidden", "w2=12 w3=34 w4=56 w5=78 w6=e0 r2=00 r3=00 r4=00 "
                            "r5=00 r6=00" },
    /* a command write lowers the line first; a status read lowers it */
    { "command-to-master-interrupts", "w7=ec i=01 r7=00 i=0" },
    { "command-to-empty-slave-ignored", "w6=b0 w7=ec i=0 w6=a0 w7=ec i=01" },
    { "nien-masks", "c02 w7=ec i=0 c00 w7=ec i=01" },
    { "srst-interrupts-later", "c04 i= c00 i= s i=11" },
    { "srst-masked", "c06 s i=" },
    { "srst-once-per-edge", "c04 c04 s i=11 s i=" },
    /* SMART (key 0x4f/0xc2): aborted until enabled, then data via DRQ */
    { "smart-needs-enable", "w1=d0 w4=4f w5=c2 w7=b0 i=01 d=0000" },
    { "smart-read-data", "w1=d8 w4=4f w5=c2 w7=b0 w1=d0 w7=b0 i=0101 "
                         "d=0001 d=0301 d=6400 d=0064 w7=ec i=0" },
    { "smart-thresholds", "w1=d8 w4=4f w5=c2 w7=b0 w1=d1 w7=b0 "
                          "d=0001 d=0601 d=0000" },
};

static IDEChannel ch;
static GString *irqs;
static bool srst_pending;

static void record_irq(void *opaque, int level)
{
    g_string_append_c(irqs, level ? '1' : '0');
}

static void note_srst(void *opaque)
{
    srst_pending = true;
}

static void test_case(gconstpointer data)
{
    const IDECase *c = data;
    gchar **ops = g_strsplit(c->script, " ", -1);

    ide_channel_init(&ch, record_irq, NULL, note_srst, NULL);
    g_string_truncate(irqs, 0);
    srst_pending = false;
    for (gchar **op = ops; *op; op++) {
        const char *s = *op;

        switch (s[0]) {
        case 'w':
            ide_channel_write(&ch, s[1] - '0', strtoul(s + 3, NULL, 16));
            break;
        case 'c':
            ide_channel_write_devctl(&ch, strtoul(s + 1, NULL, 16));
            break;
        case 'r':
            g_assert_cmphex(ide_channel_read(&ch, s[1] - '0'), ==,
                            strtoul(s + 3, NULL, 16));
            break;
        case 'a':
            g_assert_cmphex(ide_channel_read_alt_status(&ch), ==,
                            strtoul(s + 1, NULL, 16));
            break;
        case 'd':
            g_assert_cmphex(ide_channel_read_data(&ch, 2), ==,
                            strtoul(s + 2, NULL, 16));
            break;
        case 's':
            if (srst_pending) {
                srst_pending = false;
                ide_channel_run_srst(&ch);
            }
            break;
        case 'i':
            /* "i=" alone: nothing happened since the last check */
            g_assert_cmpstr(irqs->str, ==, s + 2);
            g_string_truncate(irqs, 0);
            break;
        }
    }
    g_strfreev(ops);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    irqs = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *name = g_strdup_printf("/ide-channel/%s", cases[i].name);

        g_test_add_data_func(name, &cases[i], test_case);
        g_free(name);
    }
    return g_test_run();
}
