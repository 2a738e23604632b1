/*
 * The floppy controller's registers and commands with empty drives
 * (hw/block/fdc.c), as QEMU 7.2 answers them.  Each row is a script:
 * "wR=V" writes register R (the port's low three bits), "rR=V" reads R,
 * "i=L" expects the interrupt levels raised and lowered since the last
 * check ("i=" alone: none).  The controller starts from the machine's
 * reset (no interrupt).  tests/functional/test_fdc_vs_qemu72.py checks the
 * same and much more against 7.2 itself.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "hw/block/fdc.h"

typedef struct FDCCase {
    const char *name;
    const char *script;
} FDCCase;

static const FDCCase cases[] = {
    { "power-on", "r1=c0 r2=0c r3=00 r4=80 r7=80 i=" },
    /* leaving reset interrupts; four SENSE INTERRUPT STATUS answer it */
    /* reading the MSR ends a DOR reset without the controller's reset */
    { "msr-read-leaves-reset", "w2=00 r4=80 w2=0c i= r2=0c" },
    { "dor-reset", "w2=00 w2=0c i=1 w5=08 i=0 r4=d0 r5=c0 r5=00 "
                   "w5=08 r5=c1 r5=00 w5=08 r5=c2 r5=00 w5=08 r5=c3 r5=00 "
                   "w5=08 r5=80 r4=80 i=" },
    { "version-partid", "w5=10 r4=d0 r5=90 r4=80 w5=18 r5=41" },
    { "dumpreg", "w5=0e r5=00 r5=00 r5=00 r5=00 r5=00 r5=01 r5=00 r5=00 "
                 "r5=60 r5=00 r4=80" },
    { "specify-configure-dumpreg", "w5=03 w5=af w5=03 w5=13 w5=00 w5=57 "
                                   "w5=05 w5=0e r5=00 r5=00 r5=00 r5=00 "
                                   "r5=0a r5=02 r5=00 r5=00 r5=57 r5=05 "
                                   "r2=04" },
    /* sector 1 is past an empty drive's last one: end of cylinder */
    { "read-empty-drive", "w5=06 w5=00 w5=00 w5=00 w5=01 w5=02 w5=12 w5=1b "
                          "w5=ff i=1 r4=d0 r5=40 r5=80 r5=00 r5=00 r5=00 "
                          "r5=01 r5=02 i=0 r4=80" },
    { "sense-drive-status", "w5=04 w5=05 r5=7d w5=04 w5=00 r5=78" },
    { "recalibrate", "w5=07 w5=01 i=1 w5=08 i=0 r5=21 r5=00" },
    { "lock", "w5=94 r5=10 w5=14 r5=00" },
    { "invalid", "w5=ff r4=d0 r5=80 w5=cd w5=00 w5=00 w5=00 w5=00 w5=00 "
                 "w5=00 w5=00 w5=00 w5=00 w5=00 r5=80" },
    { "fifo-out-of-turn", "r5=00 w5=10 w5=10 r5=90 r4=80" },
    { "in-reset-only-dor", "w2=08 w3=04 w4=01 w5=10 w7=01 r3=00 w2=0c i=1 "
                           "r4=80" },
    { "dsr-software-reset", "w4=80 i=1 r4=80 w5=08 r5=c0 r5=00" },
};

static FDCtrl fdc;
static GString *irqs;

static void record_irq(void *opaque, int n, int level)
{
    g_string_append_c(irqs, level ? '1' : '0');
}

static void test_case(gconstpointer data)
{
    const FDCCase *c = data;
    gchar **ops = g_strsplit(c->script, " ", -1);

    memset(&fdc, 0, sizeof(fdc));
    fdctrl_init(&fdc, qemu_allocate_irq(record_irq, NULL, 0), 2);
    fdctrl_reset(&fdc, false);
    g_string_truncate(irqs, 0);
    for (gchar **op = ops; *op; op++) {
        const char *s = *op;

        switch (s[0]) {
        case 'w':
            fdctrl_write(&fdc, s[1] - '0', strtoul(s + 3, NULL, 16));
            break;
        case 'r':
            g_assert_cmphex(fdctrl_read(&fdc, s[1] - '0'), ==,
                            strtoul(s + 3, NULL, 16));
            break;
        case 'i':
            g_assert_cmpstr(irqs->str, ==, s + 2);
            g_string_truncate(irqs, 0);
            break;
        }
    }
    g_strfreev(ops);
    qemu_free_irq(fdc.irq);
    fdctrl_finalize(&fdc);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    irqs = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *name = g_strdup_printf("/fdc/%s", cases[i].name);

        g_test_add_data_func(name, &cases[i], test_case);
        g_free(name);
    }
    return g_test_run();
}
