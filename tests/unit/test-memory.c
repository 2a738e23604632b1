/*
 * The memory API alone (exec/memory.h): flat view rendering (overlaps,
 * priorities, aliases, disabled regions, merging), transactions and
 * listeners, and dispatch as QEMU 7.2 does it (access splitting by the
 * valid and impl sizes, unassigned memory and ports, ROM, RAM at 2^64).
 * Expected values that depend on QEMU's rules were read from QEMU 7.2
 * (qtest against Debian's binary), as the comments say.
 */
#include <string.h>

#include <glib.h>

#include "exec/memory.h"
#include "flat-text.h"
#include "qemu/rcu.h"

#define assert_flat(as, expected)                                          \
    do {                                                                   \
        char *t_ = flat_text(as);                                          \
        g_assert_cmpstr(t_, ==, expected);                                 \
        g_free(t_);                                                        \
    } while (0)

/* A device that records its calls */
typedef struct Recorder {
    GString *log;
    uint64_t value;     /* what reads return */
} Recorder;

static uint64_t rec_read(void *opaque, hwaddr addr, unsigned size)
{
    Recorder *r = opaque;

    g_string_append_printf(r->log, "r%u@%u ", size, (unsigned)addr);
    return r->value >> (8 * (addr & 7));
}

static void rec_write(void *opaque, hwaddr addr, uint64_t data, unsigned size)
{
    Recorder *r = opaque;

    g_string_append_printf(r->log, "w%u@%u=%" G_GINT64_MODIFIER "x ", size,
                           (unsigned)addr, data);
}

static const MemoryRegionOps byte_ops = {
    .read = rec_read,
    .write = rec_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
};

static const MemoryRegionOps any_ops = {
    .read = rec_read,
    .write = rec_write,
};

static const MemoryRegionOps word_only_ops = {
    .read = rec_read,
    .write = rec_write,
    .valid.min_access_size = 2,
    .valid.max_access_size = 2,
};

static const MemoryRegionOps dword_impl_ops = {
    .read = rec_read,
    .write = rec_write,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
};

static uint64_t ones_read(void *opaque, hwaddr addr, unsigned size)
{
    return UINT64_MAX;
}

static void ones_write(void *opaque, hwaddr addr, uint64_t v, unsigned size)
{
}

static const MemoryRegionOps ones_ops = {
    .read = ones_read,
    .write = ones_write,
};

/*
 * Drops a region the test made (on its stack: finalized, not freed), out
 * of its container first; leaves before their containers
 */
static void region_free(MemoryRegion *mr)
{
    if (mr->container) {
        memory_region_del_subregion(mr->container, mr);
    }
    object_unref(OBJECT(mr));
}

/* Rendering ------------------------------------------------------------------ */

static void test_render_priority(void)
{
    MemoryRegion root, a, b, c;
    AddressSpace as = { 0 };

    memory_region_init(&root, NULL, "root", 0x1000);
    memory_region_init_io(&a, NULL, &any_ops, NULL, "a", 0x100);
    memory_region_init_io(&b, NULL, &any_ops, NULL, "b", 0x100);
    memory_region_init_io(&c, NULL, &any_ops, NULL, "c", 0x100);
    address_space_init(&as, &root, "test");
    assert_flat(&as, "");

    /* Higher priority wins the overlap */
    memory_region_add_subregion_overlap(&root, 0x100, &a, 0);
    memory_region_add_subregion_overlap(&root, 0x180, &b, 1);
    assert_flat(&as, "100-17f a 180-27f b");
    /* Equal priority: the newest wins */
    memory_region_add_subregion_overlap(&root, 0x140, &c, 1);
    assert_flat(&as, "100-13f a 140-23f c 240-27f b@c0");
    /* Removing it uncovers what was below */
    memory_region_del_subregion(&root, &c);
    assert_flat(&as, "100-17f a 180-27f b");
    /* Moving re-sorts: at the same priority it is now the newest */
    memory_region_del_subregion(&root, &b);
    memory_region_add_subregion_overlap(&root, 0x180, &b, 0);
    assert_flat(&as, "100-17f a 180-27f b");
    memory_region_set_address(&a, 0x1c0);
    assert_flat(&as, "180-1bf b 1c0-2bf a");
    address_space_destroy(&as);
    rcu_drain();
    region_free(&a);
    region_free(&b);
    region_free(&c);
    region_free(&root);
}

static void test_render_terminating_container(void)
{
    MemoryRegion io, dev, idx;
    AddressSpace as = { 0 };
    Recorder r = { g_string_new(NULL), 0 };

    /* QEMU 7.2's I/O layout of the RTC: "io" answers the gaps */
    memory_region_init_io(&io, NULL, &ones_ops, NULL, "io", 0x10000);
    memory_region_init_io(&dev, NULL, &byte_ops, &r, "rtc", 2);
    memory_region_init_io(&idx, NULL, &byte_ops, &r, "rtc-index", 1);
    memory_region_add_subregion(&dev, 0, &idx);
    memory_region_add_subregion(&io, 0x70, &dev);
    address_space_init(&as, &io, "test-io");
    assert_flat(&as, "0-6f io 70-70 rtc-index 71-71 rtc@1 72-ffff io@72");
    address_space_destroy(&as);
    rcu_drain();
    region_free(&idx);
    region_free(&dev);
    region_free(&io);
    g_string_free(r.log, TRUE);
}

static void test_render_alias(void)
{
    MemoryRegion root, ram, lo, hi;
    AddressSpace as = { 0 };
    Error *err = NULL;
    uint8_t b = 0x5a, out = 0;

    memory_region_init(&root, NULL, "system", UINT64_MAX);
    g_assert_true(memory_region_init_ram(&ram, NULL, "pc.ram", 0x300000,
                                         &err));
    memory_region_init_alias(&lo, NULL, "ram-below-4g", &ram, 0, 0x200000);
    memory_region_init_alias(&hi, NULL, "ram-above-4g", &ram, 0x200000,
                             0x100000);
    memory_region_add_subregion(&root, 0, &lo);
    memory_region_add_subregion(&root, 0x100000000ULL, &hi);
    address_space_init(&as, &root, "test-mem");
    assert_flat(&as, "0-1fffff pc.ram 100000000-1000fffff pc.ram@200000");
    /* Adjacent windows onto consecutive bytes render as one range */
    memory_region_set_address(&hi, 0x200000);
    assert_flat(&as, "0-2fffff pc.ram");
    /* A disabled alias and everything under it disappear */
    memory_region_set_enabled(&lo, false);
    assert_flat(&as, "200000-2fffff pc.ram@200000");
    memory_region_set_enabled(&lo, true);
    /* Read-only is inherited down the tree */
    memory_region_set_readonly(&hi, true);
    assert_flat(&as, "0-1fffff pc.ram 200000-2fffff pc.ram@200000(ro)");
    /*
     * ... for the view (KVM maps it read-only), but as in QEMU 7.2 an
     * access that reaches the RAM through it still writes (PAM's
     * read-only segments under qtest, or a write exiting a KVM slot)
     */
    address_space_write(&as, 0x200010, MEMTXATTRS_UNSPECIFIED, &b, 1);
    address_space_read(&as, 0x200010, MEMTXATTRS_UNSPECIFIED, &out, 1);
    g_assert_cmpuint(out, ==, 0x5a);
    address_space_destroy(&as);
    rcu_drain();
    region_free(&lo);
    region_free(&hi);
    region_free(&root);
    region_free(&ram);
}

static void test_flatview_root(void)
{
    MemoryRegion c1, c2, ram;
    AddressSpace as1 = { 0 }, as2 = { 0 };
    void *host = g_malloc0(0x1000);
    FlatView *f1;

    memory_region_init(&c1, NULL, "bus master container", UINT64_MAX);
    memory_region_init(&c2, NULL, "other", UINT64_MAX);
    memory_region_init_ram_ptr(&ram, NULL, "ram", 0x1000, host);
    address_space_init(&as1, &c1, "as1");
    address_space_init(&as2, &c2, "as2");
    /* Nothing enabled inside: no root, no ranges */
    f1 = address_space_get_flatview(&as1);
    g_assert_null(f1->root);
    g_assert_cmpuint(f1->nr, ==, 0);
    flatview_unref(f1);
    /* Two containers whose only child is one region share its view */
    memory_region_add_subregion(&c1, 0, &ram);
    f1 = address_space_get_flatview(&as1);
    g_assert_true(f1->root == &ram);
    flatview_unref(f1);
    memory_region_del_subregion(&c1, &ram);
    address_space_destroy(&as1);
    address_space_destroy(&as2);
    rcu_drain();
    region_free(&ram);
    region_free(&c1);
    region_free(&c2);
    g_free(host);
}

/* Transactions ----------------------------------------------------------------- */

typedef struct CountingListener {
    MemoryListener l;
    unsigned commits;
    unsigned last_nr;
} CountingListener;

static void counting_commit(MemoryListener *l, AddressSpace *as,
                            FlatView *old_fv, FlatView *new_fv)
{
    CountingListener *c = (CountingListener *)l;

    c->commits++;
    c->last_nr = new_fv->nr;
}

static void test_transaction(void)
{
    MemoryRegion root, a, b;
    AddressSpace as = { 0 };
    CountingListener cl = { .l.commit = counting_commit };
    FlatView *before;

    memory_region_init(&root, NULL, "root", 0x1000);
    memory_region_init_io(&a, NULL, &any_ops, NULL, "a", 0x10);
    memory_region_init_io(&b, NULL, &any_ops, NULL, "b", 0x10);
    address_space_init(&as, &root, "test");
    memory_listener_register(&cl.l, &as);
    g_assert_cmpuint(cl.commits, ==, 1);

    before = address_space_to_flatview(&as);
    memory_region_transaction_begin();
    memory_region_add_subregion(&root, 0, &a);
    memory_region_transaction_begin();
    memory_region_add_subregion(&root, 0x20, &b);
    memory_region_transaction_commit();
    /* Nothing is visible until the outermost commit */
    g_assert_true(address_space_to_flatview(&as) == before);
    g_assert_cmpuint(cl.commits, ==, 1);
    memory_region_transaction_commit();
    g_assert_true(address_space_to_flatview(&as) != before);
    g_assert_cmpuint(cl.commits, ==, 2);
    g_assert_cmpuint(cl.last_nr, ==, 2);
    /* A change that changes nothing commits nothing */
    memory_region_set_enabled(&a, true);
    g_assert_cmpuint(cl.commits, ==, 2);
    memory_listener_unregister(&cl.l, &as);
    address_space_destroy(&as);
    rcu_drain();
    region_free(&a);
    region_free(&b);
    region_free(&root);
}

/* Dispatch ---------------------------------------------------------------------- */

typedef struct DispatchCase {
    const char *name;
    const MemoryRegionOps *ops;
    uint64_t region_size;
    hwaddr addr;        /* in the test space; the region is at 0x10 */
    unsigned len;
    bool write;
    uint64_t value;     /* written, or what the device reads as */
    uint64_t expect;    /* read result */
    const char *log;    /* the device's calls */
} DispatchCase;

static const DispatchCase dispatch_cases[] = {
    /* Byte registers see each byte of a wider access */
    { "impl-byte/read4", &byte_ops, 8, 0x10, 4, false, 0x44332211,
      0x44332211, "r1@0 r1@1 r1@2 r1@3 " },
    { "impl-byte/write2", &byte_ops, 8, 0x12, 2, true, 0xbbaa, 0,
      "w1@2=aa w1@3=bb " },
    /* The whole rest goes to the first region, past its end (QEMU 7.2:
     * inl 0x60 reads i8042-data four times) */
    { "impl-byte/past-end", &byte_ops, 1, 0x10, 4, false, 0x44332211,
      0x44332211, "r1@0 r1@1 r1@2 r1@3 " },
    /* Alignment cuts: 4 bytes at offset 1 are 1 + 2 + 1 */
    { "any/unaligned-split", &any_ops, 8, 0x11, 4, false,
      0x8877665544332211ULL, 0x55443322, "r1@1 r2@2 r1@4 " },
    /* valid.max 2 splits a dword; valid.min 2 refuses a byte (reads 0) */
    { "valid-word/dword", &word_only_ops, 8, 0x10, 4, false, 0x44332211,
      0x44332211, "r2@0 r2@2 " },
    { "valid-word/byte-refused", &word_only_ops, 8, 0x10, 1, false, 0x11,
      0, "" },
    { "valid-word/byte-write-dropped", &word_only_ops, 8, 0x10, 1, true,
      0x11, 0, "" },
    /* impl.min 4 widens a byte access; the rest of the value is dropped */
    { "impl-dword/byte", &dword_impl_ops, 8, 0x10, 1, false, 0x44332211,
      0x11, "r4@0 " },
    { "impl-dword/byte-write", &dword_impl_ops, 8, 0x10, 1, true, 0xab, 0,
      "w4@0=ab " },
    { "any/qword", &any_ops, 8, 0x10, 8, false, 0x8877665544332211ULL,
      0x8877665544332211ULL, "r4@0 r4@4 " },
};

static void test_dispatch(const void *data)
{
    const DispatchCase *c = data;
    MemoryRegion root, dev;
    AddressSpace as = { 0 };
    Recorder r = { g_string_new(NULL), c->value };
    uint8_t buf[8] = { 0 };
    uint64_t v = 0;
    unsigned i;

    memory_region_init(&root, NULL, "root", 0x100);
    memory_region_init_io(&dev, NULL, c->ops, &r, "dev", c->region_size);
    memory_region_add_subregion(&root, 0x10, &dev);
    address_space_init(&as, &root, "test");
    if (c->write) {
        for (i = 0; i < c->len; i++) {
            buf[i] = c->value >> (8 * i);
        }
        address_space_write(&as, c->addr, MEMTXATTRS_UNSPECIFIED, buf,
                            c->len);
    } else {
        address_space_read(&as, c->addr, MEMTXATTRS_UNSPECIFIED, buf, c->len);
        for (i = 0; i < c->len; i++) {
            v |= (uint64_t)buf[i] << (8 * i);
        }
        g_assert_cmphex(v, ==, c->expect);
    }
    g_assert_cmpstr(r.log->str, ==, c->log);
    memory_region_del_subregion(&root, &dev);
    address_space_destroy(&as);
    rcu_drain();
    region_free(&dev);
    region_free(&root);
    g_string_free(r.log, TRUE);
}

/*
 * The machine's "io": what QEMU 7.2 answers at the RTC and at the end of
 * the port space (qtest: inw 0x70 = 0x00ff, inw 0x71 = 0xff00, inl 0x70 =
 * 0x00ff00ff with the data register reading 0; inw 0xffff = 0x00ff)
 */
static uint64_t rtc_like_read(void *opaque, hwaddr addr, unsigned size)
{
    return (addr & 1) ? 0x00 : 0xff;
}

static const MemoryRegionOps rtc_like_ops = {
    .read = rtc_like_read,
    .write = ones_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
};

static void test_io_space(void)
{
    static MemoryRegion rtc, idx;

    memory_region_init_io(&rtc, NULL, &rtc_like_ops, NULL, "rtc", 2);
    memory_region_init_io(&idx, NULL, &rtc_like_ops, NULL, "rtc-index", 1);
    memory_region_add_subregion(&rtc, 0, &idx);
    memory_region_add_subregion(get_system_io(), 0x70, &rtc);
    g_assert_cmphex(cpu_inb(0x70), ==, 0xff);
    g_assert_cmphex(cpu_inw(0x70), ==, 0x00ff);
    g_assert_cmphex(cpu_inw(0x71), ==, 0xff00);
    g_assert_cmphex(cpu_inl(0x70), ==, 0x00ff00ff);
    g_assert_cmphex(cpu_inb(0x72), ==, 0xff);
    g_assert_cmphex(cpu_inw(0xffff), ==, 0x00ff);
    g_assert_cmphex(cpu_inl(0xfffe), ==, 0x0000ffff);
    g_assert_cmphex(cpu_inl(0), ==, 0xffffffff);
    memory_region_del_subregion(get_system_io(), &rtc);
    g_assert_cmphex(cpu_inl(0x70), ==, 0xffffffff);
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
    g_assert_true(memory_region_get_ram_ptr(memory_ram_region()) == ram);
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
    /* Loads and stores for device models, little-endian */
    stl_le_phys(&address_space_memory, 0x1000, 0x11223344);
    g_assert_cmphex(lduw_le_phys(&address_space_memory, 0x1002), ==, 0x1122);
    stq_le_phys(&address_space_memory, 0x1008, 0x0102030405060708ULL);
    g_assert_cmphex(ldq_le_phys(&address_space_memory, 0x1008), ==,
                    0x0102030405060708ULL);
    g_assert_cmphex(ldub_phys(&address_space_memory, 0x100f), ==, 1);
}

static void test_rom(void)
{
    MemoryRegion root, rom;
    AddressSpace as = { 0 };
    uint8_t b[4] = { 1, 2, 3, 4 }, out[4];
    Error *err = NULL;

    memory_region_init(&root, NULL, "root", UINT64_MAX);
    g_assert_true(memory_region_init_rom(&rom, NULL, "pc.rom", 0x1000,
                                         &err));
    memcpy(memory_region_get_ram_ptr(&rom), "ROM!", 4);
    memory_region_add_subregion(&root, 0xc0000, &rom);
    address_space_init(&as, &root, "test");
    address_space_write(&as, 0xc0000, MEMTXATTRS_UNSPECIFIED, b, 4);
    address_space_read(&as, 0xc0000, MEMTXATTRS_UNSPECIFIED, out, 4);
    g_assert_cmpmem(out, 4, "ROM!", 4);
    assert_flat(&as, "c0000-c0fff pc.rom(ro)");
    address_space_destroy(&as);
    rcu_drain();
    region_free(&rom);
    region_free(&root);
}

/* info mtree's layout ------------------------------------------------------- */

static void test_mtree_text(void)
{
    GString *out = g_string_new(NULL);

    mtree_info(out, false);
    /* The machine's roots, as QEMU 7.2 prints them */
    g_assert_nonnull(strstr(out->str, "address-space: memory\n"
                            "  0000000000000000-ffffffffffffffff "
                            "(prio 0, i/o): system\n"));
    g_assert_nonnull(strstr(out->str, "    0000000000000000-000000007fffffff"
                            " (prio 0, ram): alias ram-below-4g @pc.ram "
                            "0000000000000000-000000007fffffff\n"));
    g_assert_nonnull(strstr(out->str, "memory-region: pc.ram\n"
                            "  0000000000000000-00000000800fffff "
                            "(prio 0, ram): pc.ram\n"));
    g_string_truncate(out, 0);
    mtree_info(out, true);
    g_assert_nonnull(strstr(out->str, " AS \"memory\", root: system\n"
                            " Root memory region: system\n"
                            "  0000000000000000-000000007fffffff (prio 0, "
                            "ram): pc.ram\n"));
    g_assert_nonnull(strstr(out->str, " AS \"I/O\", root: io\n"
                            " Root memory region: io\n"
                            "  0000000000000000-000000000000ffff (prio 0, "
                            "i/o): io\n"));
    g_string_free(out, TRUE);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memory/render/priority", test_render_priority);
    g_test_add_func("/memory/render/terminating-container",
                    test_render_terminating_container);
    g_test_add_func("/memory/render/alias", test_render_alias);
    g_test_add_func("/memory/render/flatview-root", test_flatview_root);
    g_test_add_func("/memory/transaction", test_transaction);
    for (i = 0; i < G_N_ELEMENTS(dispatch_cases); i++) {
        char *name = g_strdup_printf("/memory/dispatch/%s",
                                     dispatch_cases[i].name);
        g_test_add_data_func(name, &dispatch_cases[i], test_dispatch);
        g_free(name);
    }
    g_test_add_func("/memory/dispatch/io-space", test_io_space);
    g_test_add_func("/memory/ram", test_ram);
    g_test_add_func("/memory/rom", test_rom);
    g_test_add_func("/memory/mtree", test_mtree_text);
    return g_test_run();
}
