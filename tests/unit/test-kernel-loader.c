/*
 * What the -kernel loaders (hw/i386/kernel-loader.c) leave in guest RAM
 * and vCPU state, on kernels built here byte by byte.  Error texts and
 * hostile files are tested through the binary (functional/bad-input) and
 * the fuzz corpus; this is what a guest sees after a load that succeeds.
 */
#include <elf.h>
#include <string.h>

#include <glib.h>

#include "exec/memory.h"
#include "hw/i386/x86-boot.h"

#define RAM_SIZE (16 * 1024 * 1024)
#define MB 0x100000

static uint8_t *ram;

static void st16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void st32(uint8_t *p, uint32_t v)
{
    st16(p, v);
    st16(p + 2, v >> 16);
}

static void st64(uint8_t *p, uint64_t v)
{
    st32(p, v);
    st32(p + 4, v >> 32);
}

static uint32_t ld32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * One machine for every test, kept to the end: its class's compat fields
 * are all the loader asks of it
 */
static MachineState *machine(void)
{
    static MachineState *ms;

    if (!ms) {
        MachineClass *mc = machine_find_class("pc-q35-7.2");

        ms = MACHINE(object_new_with_class(OBJECT_CLASS_CAST(mc)));
        ms->ram_size = RAM_SIZE;
        ms->kernel_filename = g_strdup("test-kernel");
    }
    g_free(ms->initrd_filename);
    ms->initrd_filename = NULL;
    return ms;
}

static bool load(MachineState *ms, const uint8_t *kernel, size_t len,
                 const uint8_t *initrd, size_t initrd_len, X86BootState *b)
{
    X86KernelFiles f = { kernel, len, initrd, initrd_len, NULL };
    Error *err = NULL;
    bool ok;

    memset(ram, 0xaa, RAM_SIZE);
    ok = x86_load_kernel_from_buffer(ms, &f, 0, b, &err);
    if (err) {
        g_test_message("%s", error_get_pretty(err));
        error_free(err);
    }
    return ok;
}

/* A bzImage of 4 setup sectors and 16 bytes of kernel */
static size_t make_bzimage(uint8_t *d, uint32_t initrd_addr_max)
{
    size_t len = 5 * 512 + 16;

    memset(d, 0, len);
    d[0x1f1] = 4;
    d[0x201] = 0x6a;
    memcpy(d + 0x202, "HdrS", 4);
    st16(d + 0x206, 0x020f);
    d[0x211] = 1;
    st32(d + 0x22c, initrd_addr_max);
    st16(d + 0x236, 1);
    st32(d + 0x238, 2047);
    return len;
}

/*
 * An initrd the header's limit puts at address 0 is still an initrd: its
 * size was written as 0 there
 */
static void test_bzimage_initrd_at_0(void)
{
    MachineState *ms = machine();
    uint8_t kernel[5 * 512 + 16], initrd[16] = "initrd";
    X86BootState b;
    size_t len = make_bzimage(kernel, 0x100);

    ms->initrd_filename = g_strdup("test-initrd");
    g_assert_true(load(ms, kernel, len, initrd, sizeof(initrd), &b));
    g_assert_cmpint(b.kind, ==, X86_BOOT_LINUX64);
    g_assert_cmphex(ld32(ram + 0x7000 + 0x218), ==, 0);
    g_assert_cmphex(ld32(ram + 0x7000 + 0x21c), ==, sizeof(initrd));
}

static void test_bzimage_initrd_placement(void)
{
    MachineState *ms = machine();
    uint8_t kernel[5 * 512 + 16], initrd[5000] = "initrd";
    X86BootState b;
    size_t len = make_bzimage(kernel, 0x7fffffff);
    uint32_t addr;

    ms->initrd_filename = g_strdup("test-initrd");
    g_assert_true(load(ms, kernel, len, initrd, sizeof(initrd), &b));
    /* QEMU's place: page-aligned, below the 160 KiB it keeps for ACPI */
    addr = ld32(ram + 0x7000 + 0x218);
    g_assert_cmphex(addr, ==, (RAM_SIZE - 0x28000 - 1 - 5000) & ~4095);
    g_assert_cmpmem(ram + addr, 6, "initrd", 6);
    g_assert_cmphex(ld32(ram + 0x7000 + 0x21c), ==, sizeof(initrd));
}

/* With under 1 MiB of RAM, mem_upper is 0 (it wrapped) */
static void test_multiboot_mem_upper(void)
{
    MachineState *ms = machine();
    uint8_t kernel[0x100] = { 0 };
    X86BootState b;

    st32(kernel, 0x1BADB002);
    st32(kernel + 4, 1 << 16);
    st32(kernel + 8, -(0x1BADB002u + (1 << 16)));
    st32(kernel + 12, 0x10000);         /* header_addr */
    st32(kernel + 16, 0x10000);         /* load_addr */
    st32(kernel + 28, 0x10020);         /* entry */
    memory_set_below_4g_limit(512 * 1024);
    g_assert_true(load(ms, kernel, sizeof(kernel), NULL, 0, &b));
    memory_set_below_4g_limit(PC_BELOW_4G_MAX);
    g_assert_cmpint(b.kind, ==, X86_BOOT_MULTIBOOT);
    g_assert_cmphex(b.entry, ==, 0x10020);
    g_assert_cmphex(ld32(ram + 0x1000 + 8), ==, 0);
}

/* An ELF64 PVH kernel: two PT_LOADs and a PT_NOTE */
static size_t make_pvh64(uint8_t *d, uint64_t load2_paddr,
                         uint64_t load2_filesz)
{
    static const uint64_t seg[3][5] = {
        /* type, offset, paddr, filesz, memsz */
        { PT_LOAD, 0x200, MB, 0x10, 0x2000 },
        { PT_LOAD, 0x210, 0, 0, 0x10 },
        { PT_NOTE, 0x180, 0, 20, 20 },
    };
    size_t len = 0x220;
    int i;

    memset(d, 0, len);
    memcpy(d, "\x7f" "ELF\x02\x01\x01", 7);
    st16(d + 16, 2);
    st16(d + 18, EM_X86_64);
    st32(d + 20, 1);
    st64(d + 24, MB);
    st64(d + 32, 64);                   /* e_phoff */
    st16(d + 54, 56);
    st16(d + 56, 3);
    for (i = 0; i < 3; i++) {
        uint8_t *ph = d + 64 + i * 56;

        st32(ph, seg[i][0]);
        st64(ph + 8, seg[i][1]);
        st64(ph + 24, i == 1 ? load2_paddr : seg[i][2]);
        st64(ph + 32, i == 1 ? load2_filesz : seg[i][3]);
        st64(ph + 40, seg[i][4]);
    }
    st32(d + 0x180, 4);
    st32(d + 0x184, 8);
    st32(d + 0x188, 18);
    memcpy(d + 0x18c, "Xen", 4);
    st64(d + 0x190, MB + 4);
    memset(d + 0x200, 0x11, 0x10);
    memset(d + 0x210, 0x22, 0x10);
    return len;
}

static void test_pvh_entry_and_bss(void)
{
    MachineState *ms = machine();
    uint8_t kernel[0x220];
    X86BootState b;
    size_t len = make_pvh64(kernel, MB + 0x1000, 0x10);

    /* The second segment's bytes lie in the first one's bss: they stay */
    g_assert_true(load(ms, kernel, len, NULL, 0, &b));
    g_assert_cmpint(b.kind, ==, X86_BOOT_PVH);
    g_assert_cmphex(b.entry, ==, MB + 4);
    g_assert_cmphex(ram[MB], ==, 0x11);
    g_assert_cmphex(ram[MB + 0x10], ==, 0);
    g_assert_cmphex(ram[MB + 0x1000], ==, 0x22);
    g_assert_cmphex(ram[MB + 0x100f], ==, 0x22);
    g_assert_cmphex(ram[MB + 0x1010], ==, 0);
    g_assert_cmphex(ram[MB + 0x1fff], ==, 0);
}

/* A bss-only segment's offset is never looked at, whatever it is */
static void test_pvh_bss_offset_ignored(void)
{
    MachineState *ms = machine();
    uint8_t kernel[0x220];
    X86BootState b;
    size_t len = make_pvh64(kernel, MB + 0x4000, 0);

    st64(kernel + 64 + 56 + 8, UINT64_MAX - 0xff);
    g_assert_true(load(ms, kernel, len, NULL, 0, &b));
    g_assert_cmphex(ram[MB + 0x4000], ==, 0);
    g_assert_cmphex(ram[MB + 0x400f], ==, 0);
}

int main(int argc, char **argv)
{
    Error *err = NULL;

    g_test_init(&argc, &argv, NULL);
    ram = memory_ram_alloc(RAM_SIZE, &err);
    g_assert_null(err);
    g_test_add_func("/x86/kernel-loader/bzimage/initrd-at-0",
                    test_bzimage_initrd_at_0);
    g_test_add_func("/x86/kernel-loader/bzimage/initrd-placement",
                    test_bzimage_initrd_placement);
    g_test_add_func("/x86/kernel-loader/multiboot/mem-upper-below-1m",
                    test_multiboot_mem_upper);
    g_test_add_func("/x86/kernel-loader/pvh/entry-and-bss",
                    test_pvh_entry_and_bss);
    g_test_add_func("/x86/kernel-loader/pvh/bss-offset-ignored",
                    test_pvh_bss_offset_ignored);
    return g_test_run();
}
