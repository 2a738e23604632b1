/*
 * 16550A UART register model: the eight registers at offsets 0-7, the
 * divisor latch, 16-byte receive and transmit FIFOs, modem control with
 * loopback, and the interrupt identification priorities.
 *
 * The model has no file descriptors, threads or timers: the caller
 * serialises access (hw/char/serial-isa.c holds a mutex) and supplies two
 * callbacks.  Transmission takes no time: a byte written to THR goes to the
 * tx callback at once unless the callback refuses it (the backend is
 * full); the byte then stays in THR/the FIFO, THRE stays clear, and
 * serial_tx_kick() retries.  A receive FIFO holding fewer bytes than the
 * trigger level reports the character timeout interrupt (IIR 0x0c) at
 * once, where hardware would wait four character times.
 */
#ifndef HW_CHAR_SERIAL_H
#define HW_CHAR_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Register offsets (DLAB = LCR bit 7 selects DLL/DLM at 0 and 1) */
#define UART_RBR 0 /* read: receive buffer; write: THR */
#define UART_IER 1
#define UART_IIR 2 /* read: IIR; write: FCR */
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_MSR 6
#define UART_SCR 7

#define UART_IER_RDI 0x01  /* received data available */
#define UART_IER_THRI 0x02 /* THR empty */
#define UART_IER_RLSI 0x04 /* receiver line status */
#define UART_IER_MSI 0x08  /* modem status */

#define UART_IIR_NO_INT 0x01
#define UART_IIR_MSI 0x00
#define UART_IIR_THRI 0x02
#define UART_IIR_RDI 0x04
#define UART_IIR_RLSI 0x06
#define UART_IIR_CTI 0x0c
#define UART_IIR_FIFO 0xc0

#define UART_FCR_ENABLE 0x01
#define UART_FCR_CLEAR_RX 0x02
#define UART_FCR_CLEAR_TX 0x04

#define UART_LCR_DLAB 0x80

#define UART_MCR_DTR 0x01
#define UART_MCR_RTS 0x02
#define UART_MCR_OUT1 0x04
#define UART_MCR_OUT2 0x08
#define UART_MCR_LOOP 0x10

#define UART_LSR_DR 0x01
#define UART_LSR_OE 0x02
#define UART_LSR_PE 0x04
#define UART_LSR_FE 0x08
#define UART_LSR_BI 0x10
#define UART_LSR_THRE 0x20
#define UART_LSR_TEMT 0x40
#define UART_LSR_FIFOE 0x80

#define UART_MSR_DCTS 0x01
#define UART_MSR_DDSR 0x02
#define UART_MSR_TERI 0x04
#define UART_MSR_DDCD 0x08
#define UART_MSR_CTS 0x10
#define UART_MSR_DSR 0x20
#define UART_MSR_RI 0x40
#define UART_MSR_DCD 0x80

#define UART_FIFO_SIZE 16

/* A byte ring of UART_FIFO_SIZE entries */
typedef struct SerialFifo {
    uint8_t data[UART_FIFO_SIZE];
    unsigned head, count;
} SerialFifo;

/* Interrupt line level changed (called only on a change) */
typedef void SerialIrqFunc(void *opaque, int level);
/* One byte out; false if the backend cannot take it now */
typedef bool SerialTxFunc(void *opaque, uint8_t byte);

typedef struct SerialState {
    uint8_t ier, lcr, mcr, lsr, msr, scr, fcr;
    uint16_t divider;
    uint8_t rbr;            /* receive buffer without FIFO */
    uint8_t thr;            /* transmit holding register without FIFO */
    bool thr_full;          /* thr holds a byte not yet sent */
    bool thr_ipending;      /* THRE interrupt pending (cleared by IIR read) */
    SerialFifo rx, tx;
    int irq_level;

    SerialIrqFunc *irq;
    SerialTxFunc *tx_fn;
    void *opaque;
} SerialState;

/* Sets the callbacks and resets the registers */
void serial_init(SerialState *s, SerialIrqFunc *irq, SerialTxFunc *tx,
                 void *opaque);
/* Power-on values: LSR THRE|TEMT, MSR DCD|DSR|CTS, MCR OUT2, 9600 baud */
void serial_reset(SerialState *s);

uint8_t serial_read(SerialState *s, unsigned offset);
void serial_write(SerialState *s, unsigned offset, uint8_t value);

/* How many received bytes the UART can take now (0 in loopback mode) */
size_t serial_can_receive(const SerialState *s);
/* Bytes from the line; beyond the room there is they are overruns */
void serial_receive(SerialState *s, const uint8_t *buf, size_t len);
/* The backend can take bytes again: send what THR/the FIFO holds */
void serial_tx_kick(SerialState *s);

/*
 * isa-serial (hw/char/serial-isa.c): the model on COM1-COM4's ports and
 * IRQs, wired to a chardev.  QEMU's types: "isa-serial" (index, iobase,
 * irq; -1: from the index) holding a "serial" device (chardev, baudbase,
 * wakeup), whose properties it shows as its own.
 */
#include "qapi/error.h"

#define TYPE_SERIAL "serial"
#define TYPE_ISA_SERIAL "isa-serial"
#define MAX_ISA_SERIAL_PORTS 4

typedef struct ISABus ISABus;

/*
 * -serial SPEC: stdio, mon:stdio, null, vc, file:PATH, unix:PATH[,opts],
 * chardev:ID or none; the Nth -serial is COM(N+1), chardev "serialN".
 * Backends are opened here (start-up), "chardev:ID" is looked up when
 * the ports are created.
 */
bool serial_hds_add(const char *spec, Error **errp);
/* How many -serial options were given (none counts) */
int serial_hds_count(void);
/* -serial (or the default) gave port index a backend (QEMU's serial_hd) */
bool serial_hd_present(int index);
/* Creates the -serial ports on bus; the default one if default_spec */
bool serial_hds_create(ISABus *bus, const char *default_spec, Error **errp);

#endif
