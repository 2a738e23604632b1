/*
 * 16550A register model (hw/char/serial.c) without ports or chardevs:
 * divisor latch, FIFOs, interrupt identification, loopback, LSR bits.
 */
#include <glib.h>
#include <string.h>

#include "hw/char/serial.h"

typedef struct Harness {
    SerialState s;
    int irq_level, irq_changes;
    GByteArray *out;
    bool backend_full;
} Harness;

static void h_irq(void *opaque, int level)
{
    Harness *h = opaque;

    h->irq_level = level;
    h->irq_changes++;
}

static bool h_tx(void *opaque, uint8_t byte)
{
    Harness *h = opaque;

    if (h->backend_full) {
        return false;
    }
    g_byte_array_append(h->out, &byte, 1);
    return true;
}

static Harness *h_new(void)
{
    Harness *h = g_new0(Harness, 1);

    h->out = g_byte_array_new();
    serial_init(&h->s, h_irq, h_tx, h);
    return h;
}

static void h_free(Harness *h)
{
    g_byte_array_unref(h->out);
    g_free(h);
}

static void test_reset_values(void)
{
    Harness *h = h_new();

    g_assert_cmphex(serial_read(&h->s, UART_IER), ==, 0);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_NO_INT);
    g_assert_cmphex(serial_read(&h->s, UART_LCR), ==, 0);
    g_assert_cmphex(serial_read(&h->s, UART_MCR), ==, UART_MCR_OUT2);
    g_assert_cmphex(serial_read(&h->s, UART_LSR), ==,
                    UART_LSR_THRE | UART_LSR_TEMT);
    g_assert_cmphex(serial_read(&h->s, UART_MSR), ==,
                    UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS);
    g_assert_cmpint(h->irq_level, ==, 0);
    h_free(h);
}

static void test_divisor_latch(void)
{
    Harness *h = h_new();

    serial_write(&h->s, UART_IER, 0x05);
    serial_write(&h->s, UART_LCR, UART_LCR_DLAB | 0x03);
    g_assert_cmphex(serial_read(&h->s, 0), ==, 0x0c); /* 9600 baud */
    g_assert_cmphex(serial_read(&h->s, 1), ==, 0x00);
    serial_write(&h->s, 0, 0x01);
    serial_write(&h->s, 1, 0x02);
    g_assert_cmphex(serial_read(&h->s, 0), ==, 0x01);
    g_assert_cmphex(serial_read(&h->s, 1), ==, 0x02);
    g_assert_cmpuint(h->s.divider, ==, 0x0201);
    /* With DLAB set, offset 0 writes did not transmit */
    g_assert_cmpuint(h->out->len, ==, 0);
    serial_write(&h->s, UART_LCR, 0x03);
    g_assert_cmphex(serial_read(&h->s, UART_IER), ==, 0x05);
    g_assert_cmphex(serial_read(&h->s, UART_LCR), ==, 0x03);
    serial_write(&h->s, 0, 'A');
    g_assert_cmpuint(h->out->len, ==, 1);
    h_free(h);
}

static void test_scratch(void)
{
    Harness *h = h_new();

    serial_write(&h->s, UART_SCR, 0x5a);
    g_assert_cmphex(serial_read(&h->s, UART_SCR), ==, 0x5a);
    h_free(h);
}

static void test_thre_interrupt(void)
{
    Harness *h = h_new();

    /* Enabling THRI while THR is empty raises it at once */
    serial_write(&h->s, UART_IER, UART_IER_THRI);
    g_assert_cmpint(h->irq_level, ==, 1);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_THRI);
    /* Reading IIR acknowledged it */
    g_assert_cmpint(h->irq_level, ==, 0);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_NO_INT);
    /* Each byte sent empties THR again: THRE comes back */
    serial_write(&h->s, UART_RBR, 'x');
    g_assert_cmpint(h->irq_level, ==, 1);
    g_assert_cmpmem(h->out->data, h->out->len, "x", 1);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & 0x60, ==, 0x60);
    /* Disabling the interrupt lowers the line */
    serial_write(&h->s, UART_IER, 0);
    g_assert_cmpint(h->irq_level, ==, 0);
    h_free(h);
}

static void test_tx_backpressure(void)
{
    Harness *h = h_new();

    serial_write(&h->s, UART_IIR, UART_FCR_ENABLE);
    h->backend_full = true;
    serial_write(&h->s, UART_RBR, 'a');
    serial_write(&h->s, UART_RBR, 'b');
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & 0x60, ==, 0);
    g_assert_cmpuint(h->out->len, ==, 0);
    h->backend_full = false;
    serial_tx_kick(&h->s);
    g_assert_cmpmem(h->out->data, h->out->len, "ab", 2);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & 0x60, ==, 0x60);
    h_free(h);
}

static void test_rx_no_fifo(void)
{
    Harness *h = h_new();
    uint8_t b[2] = { 'p', 'q' };

    serial_write(&h->s, UART_IER, UART_IER_RDI | UART_IER_RLSI);
    g_assert_cmpuint(serial_can_receive(&h->s), ==, 1);
    serial_receive(&h->s, b, 1);
    g_assert_cmpuint(serial_can_receive(&h->s), ==, 0);
    g_assert_cmpint(h->irq_level, ==, 1);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_RDI);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & UART_LSR_DR, ==,
                    UART_LSR_DR);
    g_assert_cmphex(serial_read(&h->s, UART_RBR), ==, 'p');
    g_assert_cmpint(h->irq_level, ==, 0);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & UART_LSR_DR, ==, 0);
    /* A second byte before the first is read is an overrun */
    serial_receive(&h->s, b, 2);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_RLSI);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) &
                    (UART_LSR_OE | UART_LSR_DR), ==,
                    UART_LSR_OE | UART_LSR_DR);
    /* Reading LSR cleared OE; the data interrupt remains */
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_RDI);
    g_assert_cmphex(serial_read(&h->s, UART_RBR), ==, 'q');
    h_free(h);
}

static void test_rx_fifo(void)
{
    Harness *h = h_new();
    uint8_t buf[20];
    int i;

    for (i = 0; i < 20; i++) {
        buf[i] = 'a' + i;
    }
    /* FIFO on, trigger level 8 (Linux's choice for a 16550A) */
    serial_write(&h->s, UART_IIR, UART_FCR_ENABLE | 0x80);
    serial_write(&h->s, UART_IER, UART_IER_RDI);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==,
                    UART_IIR_FIFO | UART_IIR_NO_INT);
    g_assert_cmpuint(serial_can_receive(&h->s), ==, UART_FIFO_SIZE);
    /* Below the trigger level: the character timeout interrupt */
    serial_receive(&h->s, buf, 3);
    g_assert_cmpint(h->irq_level, ==, 1);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==,
                    UART_IIR_FIFO | UART_IIR_CTI);
    serial_receive(&h->s, buf + 3, 5);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==,
                    UART_IIR_FIFO | UART_IIR_RDI);
    g_assert_cmpuint(serial_can_receive(&h->s), ==, 8);
    /* Past 16 bytes: overrun, the FIFO keeps the first 16 */
    serial_receive(&h->s, buf + 8, 12);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & UART_LSR_OE, ==,
                    UART_LSR_OE);
    for (i = 0; i < UART_FIFO_SIZE; i++) {
        g_assert_cmphex(serial_read(&h->s, UART_LSR) & UART_LSR_DR, ==,
                        UART_LSR_DR);
        g_assert_cmphex(serial_read(&h->s, UART_RBR), ==, 'a' + i);
    }
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & UART_LSR_DR, ==, 0);
    g_assert_cmpint(h->irq_level, ==, 0);
    /* FCR bit 1 empties the receive FIFO */
    serial_receive(&h->s, buf, 4);
    serial_write(&h->s, UART_IIR, UART_FCR_ENABLE | UART_FCR_CLEAR_RX);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & UART_LSR_DR, ==, 0);
    g_assert_cmpuint(serial_can_receive(&h->s), ==, UART_FIFO_SIZE);
    /* Turning the FIFO off reports IIR without the FIFO bits */
    serial_write(&h->s, UART_IIR, 0);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_NO_INT);
    h_free(h);
}

static void test_tx_fifo(void)
{
    Harness *h = h_new();

    serial_write(&h->s, UART_IIR, UART_FCR_ENABLE);
    serial_write(&h->s, UART_RBR, 'h');
    serial_write(&h->s, UART_RBR, 'i');
    g_assert_cmpmem(h->out->data, h->out->len, "hi", 2);
    h_free(h);
}

static void test_loopback(void)
{
    Harness *h = h_new();
    uint8_t ext = 'E';

    serial_write(&h->s, UART_MCR, UART_MCR_LOOP);
    g_assert_cmpuint(serial_can_receive(&h->s), ==, 0);
    /* Outputs off: CTS, DSR and DCD dropped (with their deltas) */
    g_assert_cmphex(serial_read(&h->s, UART_MSR), ==,
                    UART_MSR_DCTS | UART_MSR_DDSR | UART_MSR_DDCD);
    g_assert_cmphex(serial_read(&h->s, UART_MSR), ==, 0);
    serial_write(&h->s, UART_MCR, UART_MCR_LOOP | UART_MCR_RTS |
                 UART_MCR_OUT2);
    g_assert_cmphex(serial_read(&h->s, UART_MSR) & 0xf0, ==,
                    UART_MSR_CTS | UART_MSR_DCD);
    serial_write(&h->s, UART_MCR, UART_MCR_LOOP | UART_MCR_DTR |
                 UART_MCR_OUT1);
    g_assert_cmphex(serial_read(&h->s, UART_MSR) & 0xf0, ==,
                    UART_MSR_DSR | UART_MSR_RI);
    /* RI falling: trailing edge */
    serial_write(&h->s, UART_MCR, UART_MCR_LOOP);
    g_assert_cmphex(serial_read(&h->s, UART_MSR) & UART_MSR_TERI, ==,
                    UART_MSR_TERI);
    /* Sent bytes come back; the line is not driven, input ignored */
    serial_write(&h->s, UART_RBR, 0x42);
    serial_receive(&h->s, &ext, 1);
    g_assert_cmpuint(h->out->len, ==, 0);
    g_assert_cmphex(serial_read(&h->s, UART_LSR) & UART_LSR_DR, ==,
                    UART_LSR_DR);
    g_assert_cmphex(serial_read(&h->s, UART_RBR), ==, 0x42);
    serial_write(&h->s, UART_MCR, UART_MCR_OUT2);
    g_assert_cmphex(serial_read(&h->s, UART_MSR) & 0xf0, ==,
                    UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS);
    serial_write(&h->s, UART_RBR, 0x43);
    g_assert_cmpmem(h->out->data, h->out->len, "C", 1);
    h_free(h);
}

static void test_modem_status_interrupt(void)
{
    Harness *h = h_new();

    serial_write(&h->s, UART_IER, UART_IER_MSI);
    g_assert_cmpint(h->irq_level, ==, 0);
    serial_write(&h->s, UART_MCR, UART_MCR_LOOP | UART_MCR_RTS);
    g_assert_cmpint(h->irq_level, ==, 1);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_MSI);
    serial_read(&h->s, UART_MSR);
    g_assert_cmpint(h->irq_level, ==, 0);
    h_free(h);
}

static void test_priority(void)
{
    Harness *h = h_new();
    uint8_t b[2] = { 1, 2 };

    serial_write(&h->s, UART_IER, 0x0f);
    serial_receive(&h->s, b, 2); /* data and an overrun */
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_RLSI);
    serial_read(&h->s, UART_LSR);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_RDI);
    serial_read(&h->s, UART_RBR);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_THRI);
    g_assert_cmphex(serial_read(&h->s, UART_IIR), ==, UART_IIR_NO_INT);
    h_free(h);
}

static void test_reset(void)
{
    Harness *h = h_new();
    uint8_t b = 'z';

    serial_write(&h->s, UART_IER, UART_IER_RDI);
    serial_receive(&h->s, &b, 1);
    g_assert_cmpint(h->irq_level, ==, 1);
    serial_reset(&h->s);
    g_assert_cmpint(h->irq_level, ==, 0);
    g_assert_cmphex(serial_read(&h->s, UART_LSR), ==,
                    UART_LSR_THRE | UART_LSR_TEMT);
    h_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/serial/reset-values", test_reset_values);
    g_test_add_func("/serial/divisor-latch", test_divisor_latch);
    g_test_add_func("/serial/scratch", test_scratch);
    g_test_add_func("/serial/thre-interrupt", test_thre_interrupt);
    g_test_add_func("/serial/tx-backpressure", test_tx_backpressure);
    g_test_add_func("/serial/rx-no-fifo", test_rx_no_fifo);
    g_test_add_func("/serial/rx-fifo", test_rx_fifo);
    g_test_add_func("/serial/tx-fifo", test_tx_fifo);
    g_test_add_func("/serial/loopback", test_loopback);
    g_test_add_func("/serial/modem-status-interrupt",
                    test_modem_status_interrupt);
    g_test_add_func("/serial/priority", test_priority);
    g_test_add_func("/serial/reset", test_reset);
    return g_test_run();
}
