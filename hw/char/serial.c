/*
 * 16550A UART register model (see include/hw/char/serial.h).
 *
 * Interrupt priorities as the 16550A data sheet orders them: receiver
 * line status, received data (or character timeout), THR empty, modem
 * status.  THRE is reported once per transition to empty, and again when
 * the guest enables the THRE interrupt while THR is empty; reading IIR
 * while it shows THRE clears it.
 */
#include <string.h>

#include "hw/char/serial.h"

/* State ----------------------------------------------------------------- */

static void fifo_reset(SerialFifo *f)
{
    f->head = 0;
    f->count = 0;
}

static bool fifo_push(SerialFifo *f, uint8_t byte)
{
    if (f->count == UART_FIFO_SIZE) {
        return false;
    }
    f->data[(f->head + f->count) % UART_FIFO_SIZE] = byte;
    f->count++;
    return true;
}

static uint8_t fifo_peek(const SerialFifo *f)
{
    return f->data[f->head];
}

static uint8_t fifo_pop(SerialFifo *f)
{
    uint8_t byte = f->data[f->head];

    f->head = (f->head + 1) % UART_FIFO_SIZE;
    f->count--;
    return byte;
}

static bool fifo_enabled(const SerialState *s)
{
    return s->fcr & UART_FCR_ENABLE;
}

/* Receive FIFO trigger level from FCR bits 7:6 */
static unsigned rx_trigger_level(const SerialState *s)
{
    static const unsigned levels[4] = { 1, 4, 8, 14 };

    return levels[s->fcr >> 6];
}

static uint8_t serial_iir(const SerialState *s)
{
    uint8_t iir = UART_IIR_NO_INT;

    if ((s->ier & UART_IER_RLSI) &&
        (s->lsr & (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI))) {
        iir = UART_IIR_RLSI;
    } else if ((s->ier & UART_IER_RDI) && (s->lsr & UART_LSR_DR)) {
        iir = UART_IIR_RDI;
        if (fifo_enabled(s) && s->rx.count < rx_trigger_level(s)) {
            iir = UART_IIR_CTI;
        }
    } else if ((s->ier & UART_IER_THRI) && s->thr_ipending) {
        iir = UART_IIR_THRI;
    } else if ((s->ier & UART_IER_MSI) && (s->msr & 0x0f)) {
        iir = UART_IIR_MSI;
    }
    if (fifo_enabled(s)) {
        iir |= UART_IIR_FIFO;
    }
    return iir;
}

static void serial_update_irq(SerialState *s)
{
    int level = !(serial_iir(s) & UART_IIR_NO_INT);

    if (level != s->irq_level) {
        s->irq_level = level;
        if (s->irq) {
            s->irq(s->opaque, level);
        }
    }
}

/* A byte leaves the shift register: to the line, or back in (loopback) */
static bool serial_send_byte(SerialState *s, uint8_t byte)
{
    if (s->mcr & UART_MCR_LOOP) {
        if (fifo_enabled(s)) {
            if (!fifo_push(&s->rx, byte)) {
                s->lsr |= UART_LSR_OE;
            }
        } else {
            if (s->lsr & UART_LSR_DR) {
                s->lsr |= UART_LSR_OE;
            }
            s->rbr = byte;
        }
        s->lsr |= UART_LSR_DR;
        return true;
    }
    return s->tx_fn ? s->tx_fn(s->opaque, byte) : true;
}

/* Sends what is pending; THRE/TEMT and the THRE interrupt once empty */
static void serial_xmit(SerialState *s)
{
    bool was_empty = s->lsr & UART_LSR_THRE;

    if (fifo_enabled(s)) {
        while (s->tx.count && serial_send_byte(s, fifo_peek(&s->tx))) {
            fifo_pop(&s->tx);
        }
        if (s->tx.count) {
            return;
        }
    } else if (s->thr_full) {
        if (!serial_send_byte(s, s->thr)) {
            return;
        }
        s->thr_full = false;
    }
    s->lsr |= UART_LSR_THRE | UART_LSR_TEMT;
    if (!was_empty) {
        s->thr_ipending = true;
    }
}

/* Modem status inputs: the MCR outputs in loopback, else DCD|DSR|CTS */
static void serial_update_msr(SerialState *s)
{
    uint8_t in, old = s->msr & 0xf0;

    if (s->mcr & UART_MCR_LOOP) {
        in = ((s->mcr & UART_MCR_RTS) ? UART_MSR_CTS : 0) |
             ((s->mcr & UART_MCR_DTR) ? UART_MSR_DSR : 0) |
             ((s->mcr & UART_MCR_OUT1) ? UART_MSR_RI : 0) |
             ((s->mcr & UART_MCR_OUT2) ? UART_MSR_DCD : 0);
    } else {
        in = UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS;
    }
    s->msr = (s->msr & 0x0f) | in;
    if ((old ^ in) & UART_MSR_CTS) {
        s->msr |= UART_MSR_DCTS;
    }
    if ((old ^ in) & UART_MSR_DSR) {
        s->msr |= UART_MSR_DDSR;
    }
    if ((old & UART_MSR_RI) && !(in & UART_MSR_RI)) {
        s->msr |= UART_MSR_TERI;
    }
    if ((old ^ in) & UART_MSR_DCD) {
        s->msr |= UART_MSR_DDCD;
    }
}

/* Register read/write ---------------------------------------------------- */

static uint8_t serial_read_rbr(SerialState *s)
{
    uint8_t v;

    if (fifo_enabled(s)) {
        v = s->rx.count ? fifo_pop(&s->rx) : s->rbr;
        s->rbr = v;
        if (!s->rx.count) {
            s->lsr &= ~(UART_LSR_DR | UART_LSR_FIFOE);
        }
    } else {
        v = s->rbr;
        s->lsr &= ~UART_LSR_DR;
    }
    return v;
}

uint8_t serial_read(SerialState *s, unsigned offset)
{
    uint8_t v = 0xff;

    switch (offset & 7) {
    case UART_RBR:
        v = (s->lcr & UART_LCR_DLAB) ? s->divider & 0xff : serial_read_rbr(s);
        break;
    case UART_IER:
        v = (s->lcr & UART_LCR_DLAB) ? s->divider >> 8 : s->ier;
        break;
    case UART_IIR:
        v = serial_iir(s);
        if ((v & 0x0f) == UART_IIR_THRI) {
            s->thr_ipending = false;
        }
        break;
    case UART_LCR:
        v = s->lcr;
        break;
    case UART_MCR:
        v = s->mcr;
        break;
    case UART_LSR:
        v = s->lsr;
        s->lsr &= ~(UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI);
        break;
    case UART_MSR:
        v = s->msr;
        s->msr &= 0xf0;
        break;
    case UART_SCR:
        v = s->scr;
        break;
    }
    serial_update_irq(s);
    return v;
}

static void serial_write_thr(SerialState *s, uint8_t value)
{
    if (fifo_enabled(s)) {
        /* A write to a full FIFO is lost, as on the chip */
        fifo_push(&s->tx, value);
    } else {
        s->thr = value;
        s->thr_full = true;
    }
    s->lsr &= ~(UART_LSR_THRE | UART_LSR_TEMT);
    s->thr_ipending = false;
    serial_xmit(s);
}

static void serial_write_fcr(SerialState *s, uint8_t value)
{
    /* Toggling the FIFO enable empties both FIFOs */
    if ((value ^ s->fcr) & UART_FCR_ENABLE) {
        value |= UART_FCR_CLEAR_RX | UART_FCR_CLEAR_TX;
    }
    if (value & UART_FCR_CLEAR_RX) {
        fifo_reset(&s->rx);
        s->lsr &= ~(UART_LSR_DR | UART_LSR_FIFOE);
    }
    if (value & UART_FCR_CLEAR_TX) {
        fifo_reset(&s->tx);
        s->thr_full = false;
        if (!(s->lsr & UART_LSR_THRE)) {
            s->lsr |= UART_LSR_THRE | UART_LSR_TEMT;
            s->thr_ipending = true;
        }
    }
    /* Only the enable and trigger level bits are kept; DMA mode is not */
    s->fcr = value & 0xc1;
}

void serial_write(SerialState *s, unsigned offset, uint8_t value)
{
    switch (offset & 7) {
    case UART_RBR:
        if (s->lcr & UART_LCR_DLAB) {
            s->divider = (s->divider & 0xff00) | value;
        } else {
            serial_write_thr(s, value);
        }
        break;
    case UART_IER:
        if (s->lcr & UART_LCR_DLAB) {
            s->divider = (s->divider & 0x00ff) | (value << 8);
            break;
        }
        /* Enabling THRE while THR is empty raises it straight away */
        if (!(s->ier & UART_IER_THRI) && (value & UART_IER_THRI) &&
            (s->lsr & UART_LSR_THRE)) {
            s->thr_ipending = true;
        }
        s->ier = value & 0x0f;
        break;
    case UART_IIR:
        serial_write_fcr(s, value);
        break;
    case UART_LCR:
        s->lcr = value;
        break;
    case UART_MCR: {
        bool loop_changed = (s->mcr ^ value) & UART_MCR_LOOP;

        s->mcr = value & 0x1f;
        serial_update_msr(s);
        if (loop_changed) {
            /* Bytes held back by a full backend go out (or loop) now */
            serial_xmit(s);
        }
        break;
    }
    case UART_LSR:
    case UART_MSR:
        /* Factory test registers: writes are ignored */
        break;
    case UART_SCR:
        s->scr = value;
        break;
    }
    serial_update_irq(s);
}

size_t serial_can_receive(const SerialState *s)
{
    if (s->mcr & UART_MCR_LOOP) {
        return 0;
    }
    if (fifo_enabled(s)) {
        return UART_FIFO_SIZE - s->rx.count;
    }
    return (s->lsr & UART_LSR_DR) ? 0 : 1;
}

void serial_receive(SerialState *s, const uint8_t *buf, size_t len)
{
    size_t i;

    if ((s->mcr & UART_MCR_LOOP) || !len) {
        return; /* the receiver listens to the transmitter only */
    }
    for (i = 0; i < len; i++) {
        if (fifo_enabled(s)) {
            if (!fifo_push(&s->rx, buf[i])) {
                s->lsr |= UART_LSR_OE;
            }
        } else {
            if (s->lsr & UART_LSR_DR) {
                s->lsr |= UART_LSR_OE;
            }
            s->rbr = buf[i];
            s->lsr |= UART_LSR_DR;
        }
    }
    s->lsr |= UART_LSR_DR;
    serial_update_irq(s);
}

void serial_tx_kick(SerialState *s)
{
    serial_xmit(s);
    serial_update_irq(s);
}

/* Reset ------------------------------------------------------------------ */

void serial_reset(SerialState *s)
{
    s->ier = 0;
    s->lcr = 0;
    s->mcr = UART_MCR_OUT2;
    s->lsr = UART_LSR_THRE | UART_LSR_TEMT;
    s->msr = UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS;
    s->scr = 0;
    s->fcr = 0;
    s->divider = 0x0c; /* 9600 baud from the 1.8432 MHz clock */
    s->rbr = 0;
    s->thr = 0;
    s->thr_full = false;
    s->thr_ipending = false;
    fifo_reset(&s->rx);
    fifo_reset(&s->tx);
    serial_update_irq(s);
}

/* Realize ---------------------------------------------------------------- */

void serial_init(SerialState *s, SerialIrqFunc *irq, SerialTxFunc *tx,
                 void *opaque)
{
    memset(s, 0, sizeof(*s));
    s->irq = irq;
    s->tx_fn = tx;
    s->opaque = opaque;
    serial_reset(s);
}
