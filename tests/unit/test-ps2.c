/*
 * The PS/2 keyboard and mouse alone (hw/input/ps2.c), as QEMU 7.2's
 * answer.  Each row is a script on a device fresh from reset: "kV" sends
 * byte V to the keyboard, "mV" to the mouse, "tV" sets the controller's
 * translation, "rV" reads V from the device that was written last, "i=L"
 * expects the levels its line was set to since the last check ("i="
 * alone: none).  tests/functional/test_ps2_vs_qemu72.py checks the same
 * through the i8042 against 7.2 itself.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "hw/input/ps2.h"

typedef struct PS2Case {
    const char *name;
    const char *script;
} PS2Case;

static const PS2Case cases[] = {
    /* The keyboard: replies raise the line; each read lowers it first */
    { "kbd-reset", "kff i=1 rfa i=01 raa i=0 raa i=" },
    { "kbd-echo", "kee i=1 ree i=0" },
    { "kbd-identify", "kf2 i=1 rfa rab r83 i=01010" },
    { "kbd-identify-translated", "t1 kf2 rfa rab r41" },
    { "kbd-scancode", "kf0 rfa k00 rfa r02 kf0 rfa k03 rfa kf0 rfa k00 rfa "
                      "r03 kf0 rfa k07 rfe" },
    { "kbd-scancode-translated", "t1 kf0 k00 rfa r41 kf0 k01 kf0 k00 rfa "
                                 "r43" },
    { "kbd-leds-rate", "ked rfa k07 rfa kf3 rfa k20 rfa" },
    { "kbd-unknown", "k01 rfe k05 rfe k00 rfa kf7 rfe kfa rfa kfc rfa k11 "
                     "rfa" },
    /* A new command drops the replies not read yet */
    { "kbd-unread", "kff kee ree i=110 ree" },
    { "kbd-empty-reads-last", "kee ree ree ree" },
    /* The mouse: no reply to what it does not know */
    { "mouse-reset", "mff i=1 rfa raa r00 i=01010" },
    { "mouse-status-power-on", "me9 rfa r00 r00 r00" },
    { "mouse-status", "mf6 rfa me8 rfa m03 rfa mf3 rfa m28 rfa mf0 rfa "
                      "mf4 rfa me7 rfa me9 rfa r70 r03 r28" },
    { "mouse-poll", "meb rfa r08 r00 r00" },
    { "mouse-intellimouse", "mf3 mc8 mf3 m64 mf3 m50 mf2 rfa rfa rfa rfa "
                            "rfa rfa rfa r03 meb rfa r08 r00 r00 r00" },
    { "mouse-explorer", "mf3 mc8 mf3 mc8 mf3 m50 mf2 rfa rfa rfa rfa rfa "
                        "rfa rfa r04" },
    /* Wrap mode echoes; reset works there and leaves it on */
    { "mouse-wrap", "mee rfa m12 r12 me9 re9 mff rfa raa r00 mee ree mec "
                    "rfa me9 rfa r00 r02 r64" },
    { "mouse-unknown", "m00 i= me5 i= mf6 i=1 rfa" },
    /* 16 bytes at most; a reply that does not fit is dropped whole */
    { "mouse-full", "me9 me9 me9 me9 me9 rfa r00 r00 r00 rfa r00 r00 r00 "
                    "rfa r00 r00 r00 rfa r00 r00 r00 r00" },
};

static GString *irqs;
static char last;

static void record_irq(void *opaque, int n, int level)
{
    g_string_append_c(irqs, level ? '1' : '0');
}

static void test_case(gconstpointer data)
{
    const PS2Case *c = data;
    gchar **ops = g_strsplit(c->script, " ", -1);
    Object *kbd = object_new(TYPE_PS2_KBD_DEVICE);
    Object *mouse = object_new(TYPE_PS2_MOUSE_DEVICE);
    qemu_irq irq = qemu_allocate_irq(record_irq, NULL, 0);

    qdev_connect_gpio_out(DEVICE(kbd), 0, irq);
    qdev_connect_gpio_out(DEVICE(mouse), 0, irq);
    device_cold_reset(DEVICE(kbd));
    device_cold_reset(DEVICE(mouse));
    g_string_truncate(irqs, 0);
    last = 'k';
    for (gchar **op = ops; *op; op++) {
        const char *s = *op;
        unsigned v = strtoul(s + 1, NULL, 16);

        switch (s[0]) {
        case 'k':
            ps2_write_keyboard(PS2_KBD_DEVICE(kbd), v);
            last = 'k';
            break;
        case 'm':
            ps2_write_mouse(PS2_MOUSE_DEVICE(mouse), v);
            last = 'm';
            break;
        case 't':
            ps2_keyboard_set_translation(PS2_KBD_DEVICE(kbd), v);
            break;
        case 'r':
            g_assert_cmphex(ps2_read_data(PS2_DEVICE(last == 'k' ? kbd
                                                                 : mouse)),
                            ==, v);
            break;
        case 'i':
            g_assert_cmpstr(irqs->str, ==, s + 2);
            g_string_truncate(irqs, 0);
            break;
        default:
            g_assert_not_reached();
        }
    }
    g_strfreev(ops);
    object_unref(kbd);
    object_unref(mouse);
    object_unref(OBJECT(irq));
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    irqs = g_string_new(NULL);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *name = g_strdup_printf("/ps2/%s", cases[i].name);

        g_test_add_data_func(name, &cases[i], test_case);
        g_free(name);
    }
    return g_test_run();
}
