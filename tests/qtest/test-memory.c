/*
 * The guest memory and port I/O layer (exec/memory.h) without a process:
 * the RAM split around the PCI hole and the port registry devices use.
 */
#include <string.h>

#include <glib.h>

#include "exec/memory.h"

typedef struct FakeDevice {
    uint8_t regs[8];
    unsigned reads, writes;
    unsigned last_size;
} FakeDevice;

static uint32_t fake_read(void *opaque, uint16_t offset, unsigned size)
{
    FakeDevice *d = opaque;

    d->reads++;
    d->last_size = size;
    return d->regs[offset] | 0x12345600u;
}

static void fake_write(void *opaque, uint16_t offset, unsigned size,
                       uint32_t value)
{
    FakeDevice *d = opaque;

    d->writes++;
    d->last_size = size;
    d->regs[offset] = value;
}

static void test_ioport_registry(void)
{
    FakeDevice a = { 0 }, b = { 0 };

    g_assert_true(ioport_register(0x3f8, 8, fake_read, fake_write, &a));
    g_assert_true(ioport_register(0x70, 2, fake_read, fake_write, &b));
    /* Overlaps and ranges past 0xffff are refused */
    g_assert_false(ioport_register(0x3fc, 8, fake_read, fake_write, &b));
    g_assert_false(ioport_register(0x3f0, 9, fake_read, fake_write, &b));
    g_assert_false(ioport_register(0x71, 1, fake_read, fake_write, &b));
    g_assert_false(ioport_register(0xfff0, 0x11, fake_read, fake_write, &b));
    g_assert_false(ioport_register(0x100, 0, fake_read, fake_write, &b));
    g_assert_true(ioport_register(0x3f0, 8, NULL, NULL, NULL));

    ioport_write(0x3ff, 1, 0xab);
    g_assert_cmpuint(a.regs[7], ==, 0xab);
    g_assert_cmpuint(a.writes, ==, 1);
    /* Reads are cut to the access size */
    g_assert_cmphex(ioport_read(0x3ff, 1), ==, 0xab);
    g_assert_cmphex(ioport_read(0x3ff, 2), ==, 0x56ab);
    g_assert_cmpuint(a.last_size, ==, 2);
    g_assert_cmphex(ioport_read(0x71, 4), ==, 0x12345600);
    g_assert_cmpuint(b.reads, ==, 1);
    /* A range without callbacks, and unclaimed ports: all-ones */
    g_assert_cmphex(ioport_read(0x3f0, 1), ==, 0xff);
    g_assert_cmphex(ioport_read(0x3f7, 4), ==, 0xffffffff);
    ioport_write(0x3f0, 1, 0);
    g_assert_cmphex(ioport_read(0x72, 1), ==, 0xff);
    g_assert_cmphex(ioport_read(0xffff, 2), ==, 0xffff);
    g_assert_cmphex(ioport_read(0, 4), ==, 0xffffffff);
    ioport_write(0x72, 1, 0);
    g_assert_cmpuint(b.writes, ==, 0);

    ioport_unregister(0x3f8);
    g_assert_cmphex(ioport_read(0x3ff, 1), ==, 0xff);
    g_assert_true(ioport_register(0x3f8, 8, fake_read, fake_write, &b));
    ioport_unregister(0x3f8);
    ioport_unregister(0x3f0);
    ioport_unregister(0x70);
}

static void test_ram(void)
{
    /* 2 GiB + 1 MiB: the last MiB lives at 4 GiB */
    uint64_t size = PC_BELOW_4G_MAX + 0x100000;
    uint8_t *ram = memory_ram_alloc(size, &error_fatal);
    uint8_t buf[16];
    Error *err = NULL;

    g_assert_nonnull(ram);
    g_assert_true(memory_ram_alloc(size, NULL) == ram);
    g_assert_null(memory_ram_alloc(size * 2, &err));
    g_assert_nonnull(err);
    error_free(err);
    g_assert_true(memory_ram_ptr() == ram);
    g_assert_cmpuint(memory_ram_size(), ==, size);

    cpu_physical_memory_write(PC_ABOVE_4G_BASE, "abcd", 4);
    g_assert_cmpmem(ram + PC_BELOW_4G_MAX, 4, "abcd", 4);
    g_assert_true(memory_guest_ptr(PC_ABOVE_4G_BASE, 0x100000) ==
                  ram + PC_BELOW_4G_MAX);
    g_assert_null(memory_guest_ptr(PC_ABOVE_4G_BASE, 0x100001));
    g_assert_null(memory_guest_ptr(PC_BELOW_4G_MAX, 1));

    /* Across the end of low RAM: RAM bytes, then zeros (unassigned) */
    cpu_physical_memory_set(PC_BELOW_4G_MAX - 8, 0x11, 16);
    memset(buf, 0x55, sizeof(buf));
    cpu_physical_memory_read(PC_BELOW_4G_MAX - 8, buf, 16);
    g_assert_cmpmem(buf, 8, "\x11\x11\x11\x11\x11\x11\x11\x11", 8);
    g_assert_cmpmem(buf + 8, 8, "\0\0\0\0\0\0\0\0", 8);
    /* Across the end of high RAM */
    cpu_physical_memory_set(PC_ABOVE_4G_BASE + 0x100000 - 4, 0x22, 8);
    memset(buf, 0x55, sizeof(buf));
    cpu_physical_memory_read(PC_ABOVE_4G_BASE + 0x100000 - 4, buf, 8);
    g_assert_cmpmem(buf, 8, "\x22\x22\x22\x22\0\0\0\0", 8);
    /* Past 2^64 the access wraps around to address 0, as in QEMU */
    memset(ram, 0, 8);
    cpu_physical_memory_set(UINT64_MAX - 3, 0x33, 8);
    g_assert_cmpmem(ram, 8, "\x33\x33\x33\x33\0\0\0\0", 8);
    memset(buf, 0x55, sizeof(buf));
    cpu_physical_memory_read(UINT64_MAX - 3, buf, 8);
    g_assert_cmpmem(buf, 8, "\0\0\0\0\x33\x33\x33\x33", 8);
}

static void test_post_port(void)
{
    g_assert_true(memory_machine_init(memory_ram_size(), NULL));
    ioport_write(0x80, 1, 0x42);
    g_assert_cmphex(ioport_read(0x80, 1), ==, 0xff);
    /* Registered once even when called again */
    g_assert_true(memory_machine_init(memory_ram_size(), NULL));
    g_assert_false(ioport_register(0x80, 1, NULL, NULL, NULL));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memory/ioport/registry", test_ioport_registry);
    g_test_add_func("/memory/ram", test_ram);
    g_test_add_func("/memory/ioport/post", test_post_port);
    return g_test_run();
}
