/*
 * The qtest line protocol (system/qtest.c): every command with its exact
 * reply, malformed requests, guest RAM round trips, unmapped memory and
 * the I/O port space.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libqtest.h"

/* A request and the exact reply line it must get */
typedef struct Exchange {
    const char *request;
    const char *reply;
} Exchange;

static void run_exchanges(QTestState *s, const Exchange *x, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char *reply = qtest_raw(s, "%s", x[i].request);

        if (strcmp(reply, x[i].reply)) {
            g_error("'%s': got '%s', expected '%s'", x[i].request, reply,
                    x[i].reply);
        }
        g_free(reply);
    }
}

static void run_table(const char *args, const Exchange *x, size_t n)
{
    QTestState *s = qtest_init(args);

    run_exchanges(s, x, n);
    qtest_quit(s);
    qtest_state_free(s);
}

#define RUN_TABLE(args, table) run_table(args, table, G_N_ELEMENTS(table))

static void test_endianness(void)
{
    static const Exchange x[] = {
        { "endianness", "OK little" },
    };
    RUN_TABLE("", x);
}

static void test_unknown(void)
{
    static const Exchange x[] = {
        { "foo", "FAIL Unknown command 'foo'" },
        { "foo bar baz", "FAIL Unknown command 'foo'" },
        { "OUTB 0x80 1", "FAIL Unknown command 'OUTB'" },
        { "", "FAIL Unknown command ''" },
        { " outb", "FAIL Unknown command ''" },
        { "endianness", "OK little" },
    };
    RUN_TABLE("", x);
}

static void test_bad_args(void)
{
    static const Exchange x[] = {
        { "outb", "ERR too few arguments for 'outb'" },
        { "outb 0x80", "ERR too few arguments for 'outb'" },
        { "outb 0x10000 1", "ERR invalid port '0x10000'" },
        { "inw 65536", "ERR invalid port '65536'" },
        { "inb zz", "ERR invalid number 'zz'" },
        { "readl", "ERR too few arguments for 'readl'" },
        { "readl 0x12g", "ERR invalid number '0x12g'" },
        { "writeq 0x1000", "ERR too few arguments for 'writeq'" },
        { "writeb 0x1000 0x1ffffffffffffffff",
          "ERR invalid number '0x1ffffffffffffffff'" },
        { "read 0x1000", "ERR too few arguments for 'read'" },
        { "read 0x1000 0", "ERR invalid argument size" },
        /* sizes nothing could allocate: g_malloc aborted on them */
        { "read 0 0x3fffffffffffffff", "ERR invalid argument size" },
        { "b64read 0 0x4000001", "ERR invalid argument size" },
        { "write 0 0x4000001 0x00", "ERR invalid argument size" },
        { "b64write 0 0x4000001 AAAA", "ERR invalid argument size" },
        { "write 0x1000 2", "ERR too few arguments for 'write'" },
        { "write 0x1000 2 0x", "ERR invalid argument size" },
        { "write 0x1000 2 12", "ERR invalid argument size" },
        { "write 0x1000 2 0x12zz", "ERR invalid hex data '0x12zz'" },
        { "b64write 0x1000 2 AA", "ERR invalid argument size" },
        { "memset 0x1000 4", "ERR too few arguments for 'memset'" },
        { "clock_step x", "ERR invalid number 'x'" },
        { "clock_set", "ERR too few arguments for 'clock_set'" },
        { "irq_intercept_in", "ERR too few arguments for 'irq_intercept_in'" },
        { "set_irq_in ioapic unnamed-gpio-in 1",
          "ERR too few arguments for 'set_irq_in'" },
        { "set_irq_in ioapic unnamed-gpio-in 24 1",
          "ERR invalid IRQ number '24'" },
        { "set_irq_in ioapic foo 1 1", "ERR unknown IRQ list 'foo'" },
        { "module_load x", "ERR too few arguments for 'module_load'" },
        /* The server is still in step after all that */
        { "endianness", "OK little" },
    };
    RUN_TABLE("", x);
}

static void test_port_io(void)
{
    static const Exchange x[] = {
        /* POST port: writes accepted, reads all-ones */
        { "outb 0x80 0x12", "OK" },
        { "inb 0x80", "OK 0x00ff" },
        { "outw 0x80 0x1234", "OK" },
        { "inw 0x80", "OK 0xffff" },
        { "outl 0x80 0x12345678", "OK" },
        { "inl 0x80", "OK 0xffffffff" },
        /* Unclaimed ports */
        { "inb 0x1234", "OK 0x00ff" },
        { "inw 0xfffe", "OK 0xffff" },
        /* (0x10-0x1f: between the i8257's ports, claimed by nobody) */
        { "inl 0x10", "OK 0xffffffff" },
        { "outl 0xcf8 0x80000000", "OK" },
        { "inb 65535", "OK 0x00ff" },
        { "outb 0x80 -1", "OK" },
    };
    RUN_TABLE("", x);
}

static void test_mem_sized(void)
{
    static const Exchange x[] = {
        { "writeb 0x1000 0x11", "OK" },
        { "readb 0x1000", "OK 0x0000000000000011" },
        { "writew 0x1000 0x2233", "OK" },
        { "readw 0x1000", "OK 0x0000000000002233" },
        { "readb 0x1000", "OK 0x0000000000000033" },
        { "writel 0x1000 0xdeadbeef", "OK" },
        { "readl 0x1000", "OK 0x00000000deadbeef" },
        { "writeq 0x1000 0x0123456789abcdef", "OK" },
        { "readq 0x1000", "OK 0x0123456789abcdef" },
        { "readl 0x1004", "OK 0x0000000001234567" },
        { "read 0x1000 8", "OK 0xefcdab8967452301" },
        /* Values are truncated to the access size; bases as strtoull */
        { "writeb 4096 0x1ff", "OK" },
        { "readb 010000", "OK 0x00000000000000ff" },
        { "writew 0x2000 -1", "OK" },
        { "readq 0x2000", "OK 0x000000000000ffff" },
        /* Fresh RAM is zero */
        { "readq 0x7000000", "OK 0x0000000000000000" },
    };
    RUN_TABLE("", x);
}

static void test_mem_hex(void)
{
    static const Exchange x[] = {
        { "write 0x3000 4 0x01020304", "OK" },
        { "read 0x3000 4", "OK 0x01020304" },
        { "readl 0x3000", "OK 0x0000000004030201" },
        /* Short data is zero-filled, long data cut at SIZE */
        { "write 0x3000 4 0xAB", "OK" },
        { "read 0x3000 4", "OK 0xab000000" },
        { "write 0x3000 2 0x11223344", "OK" },
        { "read 0x3000 4", "OK 0x11220000" },
        /* An odd trailing digit is ignored */
        { "write 0x3000 2 0x123", "OK" },
        { "read 0x3000 2", "OK 0x1200" },
        { "write 0x3000 0 0x00", "OK" },
    };
    RUN_TABLE("", x);
}

static void test_mem_b64(void)
{
    static const Exchange x[] = {
        { "b64write 0x4000 3 AQID", "OK" },
        { "read 0x4000 4", "OK 0x01020300" },
        { "b64read 0x4000 3", "OK AQID" },
        { "b64read 0x4000 4", "OK AQIDAA==" },
        { "b64read 0x4000 0", "OK " },
        /* Size mismatch: the shorter of the two is written */
        { "b64write 0x4000 1 BAUG", "OK" },
        { "read 0x4000 3", "OK 0x040203" },
        { "b64write 0x4000 8 BwgJ", "OK" },
        { "read 0x4000 4", "OK 0x07080900" },
    };
    RUN_TABLE("", x);
}

static void test_memset(void)
{
    static const Exchange x[] = {
        { "memset 0x5000 4 0xab", "OK" },
        { "read 0x4fff 6", "OK 0x00abababab00" },
        { "memset 0x5000 0 0x11", "OK" },
        { "read 0x5000 1", "OK 0xab" },
        { "memset 0x5000 2 0x1cd", "OK" },
        { "read 0x5000 2", "OK 0xcdcd" },
    };
    RUN_TABLE("", x);
}

/*
 * -m 128M: RAM ends at 0x8000000, the rest below 4 GiB is unmapped and
 * reads as zeros; an access wraps around the top of the address space.
 * Every answer is QEMU 7.2's (0xfff00000: below its BIOS ROM).
 */
static void test_unmapped(void)
{
    static const Exchange x[] = {
        { "readq 0x8000000", "OK 0x0000000000000000" },
        { "readb 0xfff00000", "OK 0x0000000000000000" },
        { "readl 0x100000000", "OK 0x0000000000000000" },
        { "readq 0xfffffffffffffff8", "OK 0x0000000000000000" },
        { "writel 0x8000000 0x12345678", "OK" },
        { "readl 0x8000000", "OK 0x0000000000000000" },
        /* An access across the end of RAM: RAM, then zeros */
        { "writel 0x7fffffc 0x04030201", "OK" },
        { "read 0x7fffffe 4", "OK 0x03040000" },
        { "readl 0x7fffffe", "OK 0x0000000000000403" },
        { "b64read 0x7ffffff 2", "OK BAA=" },
        { "memset 0x7ffffff 2 0", "OK" },
        { "read 0x7fffffe 4", "OK 0x03000000" },
        /* Wrapping around the top: the high half lands at address 0 */
        { "writeq 0xfffffffffffffffc 0x1122334455667788", "OK" },
        { "readq 0xfffffffffffffffc", "OK 0x1122334400000000" },
        { "readb 0", "OK 0x0000000000000044" },
    };
    RUN_TABLE("-m 128M", x);
}

/*
 * -m 5G on the default board (pc, i440fx, as QEMU): 3 GiB at 0, 2 GiB at
 * 4..6 GiB; the PCI hole and beyond: unmapped (zeros).  QEMU 7.2 answers
 * the same.
 */
static void test_above_4g(void)
{
    static const Exchange x[] = {
        { "writeq 0xbffffff8 0x1111111111111111", "OK" },
        { "readq 0xbffffff8", "OK 0x1111111111111111" },
        { "readq 0xc0000000", "OK 0x0000000000000000" },
        { "readq 0xfff00000", "OK 0x0000000000000000" },
        { "writeq 0x100000000 0x2222222222222222", "OK" },
        { "readq 0x100000000", "OK 0x2222222222222222" },
        { "writel 0x17ffffffc 0x33333333", "OK" },
        { "readl 0x17ffffffc", "OK 0x0000000033333333" },
        { "readq 0x17ffffffc", "OK 0x0000000033333333" },
        { "readq 0x180000000", "OK 0x0000000000000000" },
        /* RAM at 4 GiB is not an alias of RAM at 0 */
        { "readq 0", "OK 0x0000000000000000" },
        { "memset 0x17fffff00 0x100 0x5a", "OK" },
        { "b64read 0x17ffffffe 2", "OK Wlo=" },
    };
    RUN_TABLE("-m 5G", x);
}

static void test_clock(void)
{
    static const Exchange x[] = {
        /*
         * The next deadline: the PIT's channel 0 (mode 3, count 0x10000)
         * turns its OUT low after 32768 ticks, as QEMU 7.2 answers
         */
        { "clock_step", "OK 27462700" },
        { "clock_step 100", "OK 27462800" },
        { "clock_step 0x10", "OK 27462816" },
        /* QEMU 7.2.0: the clock never goes back, and says where it is */
        { "clock_step 0", "OK 27462816" },
        { "clock_step -5", "OK 27462816" },
        { "clock_set 50", "OK 27462816" },
        { "clock_set 27462816", "OK 27462816" },
        { "clock_set 1000000000", "OK 1000000000" },
        { "clock_step 1", "OK 1000000001" },
    };
    RUN_TABLE("", x);
}

static void test_irq(void)
{
    static const Exchange x[] = {
        { "irq_intercept_in nosuch", "FAIL Unknown device" },
        { "irq_intercept_in /machine", "FAIL No intercepts installed" },
        { "irq_intercept_in ioapic foo",
          "FAIL Interception of named in-GPIOs not yet supported" },
        { "set_irq_in nosuch unnamed-gpio-in 0 1", "FAIL Unknown device" },
        /* Without an intercept nothing is reported */
        { "set_irq_in ioapic unnamed-gpio-in 3 1", "OK" },
        { "irq_intercept_in ioapic", "OK" },
        { "irq_intercept_in ioapic", "OK" },
        /* its full path (i440fx is the default machine) */
        { "irq_intercept_in /machine/i440fx/ioapic", "OK" },
    };
    QTestState *s = qtest_init("");
    char *reply;

    run_exchanges(s, x, G_N_ELEMENTS(x));
    g_assert_false(qtest_get_irq(s, 4));
    qtest_set_irq_in(s, "ioapic", NULL, 4, 1);
    g_assert_true(qtest_get_irq(s, 4));
    qtest_set_irq_in(s, "ioapic", "unnamed-gpio-in", 4, 0);
    g_assert_false(qtest_get_irq(s, 4));
    /* The async line comes before the reply, once per change */
    g_free(qtest_raw(s, "set_irq_in ioapic unnamed-gpio-in 9 1"));
    g_assert_true(qtest_get_irq(s, 9));
    reply = qtest_raw(s, "set_irq_in ioapic unnamed-gpio-in 9 1");
    g_assert_cmpstr(reply, ==, "OK");
    g_free(reply);
    qtest_quit(s);
    qtest_state_free(s);
}

static void test_irq_none_machine(void)
{
    static const Exchange x[] = {
        { "irq_intercept_in ioapic", "FAIL Unknown device" },
        { "irq_intercept_out ioapic", "FAIL Unknown device" },
        { "set_irq_in ioapic unnamed-gpio-in 0 1", "FAIL Unknown device" },
    };
    RUN_TABLE("-machine none", x);
}

static void test_module_load(void)
{
    static const Exchange x[] = {
        { "module_load block curl", "FAIL" },
    };
    RUN_TABLE("", x);
}

/* The libqtest helpers on top of the raw protocol */
static void test_helpers(void)
{
    QTestState *s = qtest_init("-m 256M");
    uint8_t buf[300], back[300];
    unsigned i;

    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = i * 7 + 3;
    }
    qtest_memwrite(s, 0x10000, buf, sizeof(buf));
    qtest_memread(s, 0x10000, back, sizeof(back));
    g_assert_cmpmem(buf, sizeof(buf), back, sizeof(back));
    qtest_bufwrite(s, 0x20001, buf, sizeof(buf));
    qtest_bufread(s, 0x20001, back, sizeof(back));
    g_assert_cmpmem(buf, sizeof(buf), back, sizeof(back));
    qtest_memset(s, 0x20001, 0x42, 10);
    g_assert_cmphex(qtest_readq(s, 0x20001), ==, 0x4242424242424242ULL);
    qtest_writeb(s, 0x30000, 0xa5);
    qtest_writew(s, 0x30002, 0xbeef);
    qtest_writel(s, 0x30004, 0xcafef00d);
    g_assert_cmphex(qtest_readq(s, 0x30000), ==, 0xcafef00dbeef00a5ULL);
    g_assert_cmphex(qtest_readb(s, 0x30000), ==, 0xa5);
    g_assert_cmphex(qtest_readw(s, 0x30002), ==, 0xbeef);
    g_assert_cmphex(qtest_readl(s, 0x30004), ==, 0xcafef00d);
    qtest_writeq(s, 0x30000, 0x0102030405060708ULL);
    g_assert_cmphex(qtest_readl(s, 0x30000), ==, 0x05060708);
    qtest_outb(s, 0x80, 0x55);
    qtest_outw(s, 0x80, 0x55);
    qtest_outl(s, 0x80, 0x55);
    g_assert_cmphex(qtest_inb(s, 0x80), ==, 0xff);
    g_assert_cmphex(qtest_inw(s, 0x80), ==, 0xffff);
    g_assert_cmphex(qtest_inl(s, 0x80), ==, 0xffffffff);
    g_assert_cmpint(qtest_clock_step(s, 10), ==, 10);
    g_assert_cmpint(qtest_clock_set(s, 1000), ==, 1000);
    g_assert_false(qtest_big_endian(s));
    qtest_quit(s);
    qtest_state_free(s);
}

/* -qtest-log: QEMU's format, every request and reply */
static void test_log(void)
{
    char *path = g_strdup_printf("%s/qtest-log-%d.txt", g_get_tmp_dir(),
                                 (int)getpid());
    char *args = g_strdup_printf("-qtest-log %s", path);
    QTestState *s = qtest_init(args);
    GRegex *re_open, *re_req, *re_rsp;
    char *text = NULL;

    qtest_outb(s, 0x80, 0x12);
    g_free(qtest_raw(s, "nosuch 1"));
    qtest_quit(s);
    qtest_state_free(s);
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    unlink(path);

    re_open = g_regex_new("^\\[I \\d+\\.\\d{6}\\] OPENED$", G_REGEX_MULTILINE,
                          0, NULL);
    re_req = g_regex_new("^\\[R \\+\\d+\\.\\d{6}\\] outb 0x80 0x12\\n"
                         "\\[S \\+\\d+\\.\\d{6}\\] OK$", G_REGEX_MULTILINE,
                         0, NULL);
    re_rsp = g_regex_new("^\\[R \\+\\d+\\.\\d{6}\\] nosuch 1\\n"
                         "\\[S \\+\\d+\\.\\d{6}\\] FAIL Unknown command "
                         "'nosuch'$", G_REGEX_MULTILINE, 0, NULL);
    g_assert_true(g_regex_match(re_open, text, 0, NULL));
    g_assert_true(g_regex_match(re_req, text, 0, NULL));
    g_assert_true(g_regex_match(re_rsp, text, 0, NULL));
    g_assert_true(g_str_has_prefix(text, "[I "));
    /* The first request of every libqtest session */
    g_assert_nonnull(strstr(text, "] endianness\n"));
    g_regex_unref(re_open);
    g_regex_unref(re_req);
    g_regex_unref(re_rsp);
    g_free(text);
    g_free(args);
    g_free(path);
}

/*
 * The emulator runs with exactly upstream's launch line: /bin/sh execs it,
 * so its argv is the documented one, word for word.
 */
static void test_launch_line(void)
{
    QTestState *s = qtest_init("-machine none");
    char *file = g_strdup_printf("/proc/%d/cmdline", qtest_pid(s));
    char *raw = NULL, *expected, *p;
    gsize len = 0;
    const char *tmp = g_get_tmp_dir();
    int pid = getpid();

    g_assert_true(g_file_get_contents(file, &raw, &len, NULL));
    for (p = raw; p < raw + len - 1; p++) {
        if (!*p) {
            *p = ' ';
        }
    }
    expected = g_strdup_printf(
        "%s -qtest unix:%s/qtest-%d.sock -qtest-log %s "
        "-chardev socket,path=%s/qtest-%d.qmp,id=char0 "
        "-mon chardev=char0,mode=control -display none -audio none "
        "-machine none -accel qtest",
        g_getenv("QTEST_QEMU_BINARY"), tmp, pid,
        g_getenv("QTEST_LOG") ? "/dev/fd/2" : "/dev/null", tmp, pid);
    g_assert_cmpstr(raw, ==, expected);
    qtest_quit(s);
    qtest_state_free(s);
    g_free(expected);
    g_free(raw);
    g_free(file);
}

/* What upstream's libqtest of other versions adds to the line */
static void test_launch_variants(void)
{
    static const Exchange x[] = {
        { "endianness", "OK little" },
    };
    /* 10.x: -run-with exit-with-parent=on */
    RUN_TABLE("-run-with exit-with-parent=on", x);
    /* The probe instance, with the options libvirt-style callers add */
    RUN_TABLE("-machine none -nodefaults -no-user-config", x);
}

/*
 * With -accel kvm first on the line KVM wins: the clock commands are then
 * unknown (as in QEMU), and qtest sees the RAM the VM has.
 */
static void test_kvm_first(void)
{
    static const Exchange x[] = {
        { "clock_step 10", "FAIL Unknown command 'clock_step'" },
        { "clock_set 10", "FAIL Unknown command 'clock_set'" },
        { "writel 0x1000 0x12345678", "OK" },
        { "readl 0x1000", "OK 0x0000000012345678" },
        { "readl 0x8000000", "OK 0x0000000000000000" },
        { "inb 0x80", "OK 0x00ff" },
    };
    QTestState *s;
    JsonNode *n;

    if (access("/dev/kvm", R_OK | W_OK)) {
        g_test_skip("/dev/kvm not usable");
        return;
    }
    s = qtest_init("-machine none -accel kvm -m 128M");
    n = qtest_qmp_return(s, "{\"execute\": \"query-kvm\"}");
    g_assert_true(json_object_get_boolean_member(json_node_get_object(n),
                                                 "enabled"));
    json_node_unref(n);
    run_exchanges(s, x, G_N_ELEMENTS(x));
    qtest_quit(s);
    qtest_state_free(s);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/qtest/protocol/endianness", test_endianness);
    g_test_add_func("/qtest/protocol/unknown-command", test_unknown);
    g_test_add_func("/qtest/protocol/bad-arguments", test_bad_args);
    g_test_add_func("/qtest/protocol/port-io", test_port_io);
    g_test_add_func("/qtest/protocol/mem/sized", test_mem_sized);
    g_test_add_func("/qtest/protocol/mem/hex", test_mem_hex);
    g_test_add_func("/qtest/protocol/mem/b64", test_mem_b64);
    g_test_add_func("/qtest/protocol/mem/memset", test_memset);
    g_test_add_func("/qtest/protocol/mem/unmapped", test_unmapped);
    g_test_add_func("/qtest/protocol/mem/above-4g", test_above_4g);
    g_test_add_func("/qtest/protocol/clock", test_clock);
    g_test_add_func("/qtest/protocol/irq/intercept", test_irq);
    g_test_add_func("/qtest/protocol/irq/none-machine", test_irq_none_machine);
    g_test_add_func("/qtest/protocol/module-load", test_module_load);
    g_test_add_func("/qtest/protocol/libqtest-helpers", test_helpers);
    g_test_add_func("/qtest/protocol/log", test_log);
    g_test_add_func("/qtest/protocol/kvm-first", test_kvm_first);
    g_test_add_func("/qtest/protocol/launch/line", test_launch_line);
    g_test_add_func("/qtest/protocol/launch/variants", test_launch_variants);
    return g_test_run();
}
