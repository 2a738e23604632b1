/*
 * Fuzz target: the PC board's devices, driven through the qtest protocol
 * in-process, in the spirit of QEMU's generic-fuzz.
 *
 * The machine is built once, by the emulator's own start-up (qemu_init)
 * with the command line in fuzz_argv[]: q35 under the qtest accelerator,
 * no default devices but a serial port on a null backend, isa-debug-exit
 * and pvpanic.  Each input is a sequence of operations in a compact
 * binary form (below); each becomes one qtest request line, as a test
 * program would send it, processed by system/qtest.c, so that the
 * protocol's parser is fuzzed along with the devices behind it.  Between
 * two requests the main loop's pending work runs, as it would between two
 * reads from the qtest socket.
 *
 * A shutdown (ACPI poweroff, a pvpanic event, isa-debug-exit) ends the
 * input, where the emulator would have exited.  After every input the
 * machine is reset (qemu_system_restart) and the qtest session forgotten,
 * so that no state leaks into the next input.  A guest reset in the middle
 * of an input (port 0x92, 0xcf9, the i8042) is just a reset, as without
 * -no-reboot.
 *
 * Encoding, every multi-byte field little-endian; input that runs out
 * reads as zeros:
 *   OP     1 byte: fuzz_ops[OP % N]
 *   PORT   1 byte p: p < 0x80 is port_dict[p % N], else a 2-byte port
 *   ADDR   1 byte a: a < 0x80 is mem_dict[a % N] plus a 2-byte offset,
 *          else an 8-byte address
 *   VALUE  as wide as the access
 *   LEN    1 byte (block operations: at most 32)
 * tests/fuzz/gen-qtest-seeds.py writes the seed corpus in this form.
 * FUZZ_QTEST_TRACE=1 in the environment shows an input as qtest requests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "sysemu/qtest.h"
#include "sysemu/reset.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"

static char *fuzz_argv[] = {
    "qemu-system-x86_64", "-machine", "q35", "-accel", "qtest",
    "-nodefaults", "-display", "none", "-serial", "null",
    "-device", "isa-debug-exit", "-device", "pvpanic", NULL,
};

/* The board's ports, one entry per port so that each is one byte away */
static const uint16_t port_dict[] = {
    0x20, 0x21, 0xa0, 0xa1,                     /* PICs */
    0x40, 0x41, 0x42, 0x43,                     /* PIT */
    0x60, 0x64,                                 /* i8042 */
    0x61,                                       /* PC speaker, NMI status */
    0x70, 0x71,                                 /* RTC index, data */
    0x80, 0x92, 0xb2, 0xb3,                     /* POST, port 92, APM */
    0x3f8, 0x3f9, 0x3fa, 0x3fb, 0x3fc, 0x3fd, 0x3fe, 0x3ff, /* COM1 */
    0x2f8, 0x2fd,                               /* COM2 (absent) */
    0xcf8, 0xcf9, 0xcfa, 0xcfb,                 /* PCI address, reset */
    0xcfc, 0xcfd, 0xcfe, 0xcff,                 /* PCI data */
    0x600, 0x601, 0x602, 0x603, 0x604, 0x605,   /* ACPI PM1 STS, EN, CNT */
    0x608, 0x609, 0x60a, 0x60b, 0x60f,          /* ACPI PM timer */
    0x501, 0x502, 0x505,                        /* debug-exit, pvpanic */
    0x4d0, 0x4d1, 0x510, 0x511, 0xffff,
    0xf0, 0x606, 0x607, 0x67f,                  /* FPU error, PM block */
};

/* Places in guest-physical memory: RAM, and where MMIO would be */
static const uint64_t mem_dict[] = {
    0x0, 0x7c00, 0x9fc00, 0xa0000, 0xb8000, 0xe0000, 0xf0000, 0x100000,
    0x7ff0000, 0x8000000, 0xb0000000, 0xfec00000, 0xfed00000, 0xfee00000,
    0xffff0000, 0x100000000ULL, 0xfffffffffffff000ULL,
};

typedef enum OpKind {
    OP_OUT,             /* PORT VALUE */
    OP_IN,              /* PORT */
    OP_OUTS,            /* PORT LEN VALUE...: outb to one port, LEN times */
    OP_WRITE,           /* ADDR VALUE */
    OP_READ,            /* ADDR */
    OP_WRITE_BLOCK,     /* ADDR LEN bytes */
    OP_READ_BLOCK,      /* ADDR LEN */
    OP_MEMSET,          /* ADDR LEN VALUE(1) */
    OP_CLOCK_STEP,      /* NS(4): clock_step NS, or to the next deadline */
    OP_IRQ_INTERCEPT,   /* irq_intercept_in ioapic */
    OP_SET_IRQ,         /* NUM(1) LEVEL(1) */
    OP_RAW,             /* LEN bytes: a request line as it is */
} OpKind;

typedef struct FuzzOp {
    OpKind kind;
    const char *name;   /* the qtest command */
    unsigned size;      /* access width */
} FuzzOp;

static const FuzzOp fuzz_ops[] = {
    { OP_OUT, "outb", 1 }, { OP_OUT, "outw", 2 }, { OP_OUT, "outl", 4 },
    { OP_IN, "inb", 1 }, { OP_IN, "inw", 2 }, { OP_IN, "inl", 4 },
    { OP_OUTS, "outb", 1 },
    { OP_WRITE, "writeb", 1 }, { OP_WRITE, "writew", 2 },
    { OP_WRITE, "writel", 4 }, { OP_WRITE, "writeq", 8 },
    { OP_READ, "readb", 1 }, { OP_READ, "readw", 2 },
    { OP_READ, "readl", 4 }, { OP_READ, "readq", 8 },
    { OP_WRITE_BLOCK, "write" }, { OP_WRITE_BLOCK, "b64write" },
    { OP_READ_BLOCK, "read" }, { OP_READ_BLOCK, "b64read" },
    { OP_MEMSET, "memset" },
    { OP_CLOCK_STEP, "clock_step" },
    { OP_IRQ_INTERCEPT, "irq_intercept_in" },
    { OP_SET_IRQ, "set_irq_in" },
    { OP_RAW, NULL },
};

#define BLOCK_MAX 32

typedef struct Input {
    const uint8_t *data;
    size_t size, pos;
} Input;

static uint64_t take(Input *in, unsigned bytes)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < bytes; i++) {
        uint64_t b = in->pos < in->size ? in->data[in->pos++] : 0;

        v |= b << (8 * i);
    }
    return v;
}

static unsigned take_port(Input *in)
{
    unsigned p = take(in, 1);

    return p < 0x80 ? port_dict[p % G_N_ELEMENTS(port_dict)] : take(in, 2);
}

static uint64_t take_addr(Input *in)
{
    unsigned a = take(in, 1);

    if (a < 0x80) {
        return mem_dict[a % G_N_ELEMENTS(mem_dict)] + take(in, 2);
    }
    return take(in, 8);
}

/* FUZZ_QTEST_TRACE=1 prints the requests and replies, in qtest's syntax */
static bool trace;

/* Sends one request; the reply is not checked, only survived */
static void request(GString *line, GString *reply)
{
    g_string_truncate(reply, 0);
    if (trace) {
        fprintf(stderr, "> %s\n", line->str);
    }
    qtest_process_line(line->str, reply);
    if (trace) {
        fprintf(stderr, "< %s", reply->str);
    }
    g_string_truncate(line, 0);
}

/* What the main loop would do before the next request arrives */
static void run_main_loop_pending(void)
{
    int i;

    /* bounded: a source that re-arms itself must not hang the fuzzer */
    for (i = 0; i < 64 && g_main_context_iteration(NULL, FALSE); i++) {
    }
}

static void block_data(Input *in, GString *line, const FuzzOp *op,
                       unsigned len)
{
    uint8_t buf[BLOCK_MAX];
    unsigned i;

    for (i = 0; i < len; i++) {
        buf[i] = take(in, 1);
    }
    if (!strcmp(op->name, "b64write")) {
        char *b64 = g_base64_encode(buf, len);

        g_string_append_printf(line, " %s", b64);
        g_free(b64);
        return;
    }
    g_string_append(line, " 0x");
    for (i = 0; i < len; i++) {
        g_string_append_printf(line, "%02x", buf[i]);
    }
}

/* Decodes one operation into request lines and sends them */
static void run_op(Input *in, GString *line, GString *reply)
{
    const FuzzOp *op = &fuzz_ops[take(in, 1) % G_N_ELEMENTS(fuzz_ops)];
    unsigned port, len, i;
    uint64_t addr;

    switch (op->kind) {
    case OP_OUT:
        port = take_port(in);
        g_string_printf(line, "%s 0x%x 0x%" G_GINT64_MODIFIER "x", op->name,
                        port, take(in, op->size));
        break;
    case OP_IN:
        g_string_printf(line, "%s 0x%x", op->name, take_port(in));
        break;
    case OP_OUTS:
        port = take_port(in);
        len = take(in, 1) % (BLOCK_MAX + 1);
        for (i = 0; i < len && !qemu_shutdown_requested(); i++) {
            g_string_printf(line, "outb 0x%x 0x%x", port,
                            (unsigned)take(in, 1));
            request(line, reply);
            run_main_loop_pending();
        }
        return;
    case OP_WRITE:
        addr = take_addr(in);
        g_string_printf(line, "%s 0x%" G_GINT64_MODIFIER "x 0x%"
                        G_GINT64_MODIFIER "x", op->name, addr,
                        take(in, op->size));
        break;
    case OP_READ:
        g_string_printf(line, "%s 0x%" G_GINT64_MODIFIER "x", op->name,
                        take_addr(in));
        break;
    case OP_WRITE_BLOCK:
        addr = take_addr(in);
        len = take(in, 1) % (BLOCK_MAX + 1);
        g_string_printf(line, "%s 0x%" G_GINT64_MODIFIER "x %u", op->name,
                        addr, len);
        block_data(in, line, op, len);
        break;
    case OP_READ_BLOCK:
        addr = take_addr(in);
        g_string_printf(line, "%s 0x%" G_GINT64_MODIFIER "x %u", op->name,
                        addr, (unsigned)(take(in, 1) % (BLOCK_MAX + 1)));
        break;
    case OP_MEMSET:
        addr = take_addr(in);
        len = take(in, 1) * 16;
        g_string_printf(line, "memset 0x%" G_GINT64_MODIFIER "x %u 0x%x",
                        addr, len, (unsigned)take(in, 1));
        break;
    case OP_CLOCK_STEP:
        addr = take(in, 4);
        g_string_assign(line, "clock_step");
        if (addr) {
            g_string_append_printf(line, " %u", (unsigned)addr);
        }
        break;
    case OP_IRQ_INTERCEPT:
        g_string_assign(line, "irq_intercept_in ioapic");
        break;
    case OP_SET_IRQ:
        len = take(in, 1) % 26;     /* 24 IOAPIC pins and two beyond */
        g_string_printf(line, "set_irq_in ioapic unnamed-gpio-in %u %u", len,
                        (unsigned)take(in, 1) & 1);
        break;
    case OP_RAW:
        len = take(in, 1) % 64;
        for (i = 0; i < len; i++) {
            char c = take(in, 1);

            /* a line ends at '\n' and a C string at NUL */
            g_string_append_c(line, c == '\n' || !c ? ' ' : c);
        }
        break;
    }
    request(line, reply);
    run_main_loop_pending();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    trace = getenv("FUZZ_QTEST_TRACE") != NULL;
    qemu_init(G_N_ELEMENTS(fuzz_argv) - 1, fuzz_argv);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Input in = { data, size, 0 };
    GString *line = g_string_new(NULL), *reply = g_string_new(NULL);

    while (in.pos < in.size && !qemu_shutdown_requested()) {
        run_op(&in, line, reply);
    }
    /* the next input starts from the machine as start-up left it */
    run_main_loop_pending();
    qemu_system_restart();
    qtest_server_reset();
    run_main_loop_pending();
    g_string_free(line, TRUE);
    g_string_free(reply, TRUE);
    return 0;
}
