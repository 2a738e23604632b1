/*
 * PAM segments (hw/pci-host/pam.c) on a small board of their own: 2 MiB
 * of RAM, a PCI space holding a 32 KiB "pc.rom" at 0xC0000 and a 128 KiB
 * "pc.bios" at 0xE0000, and the 13 segments over it.  Each row sets the
 * seven PAM bytes and states the flat view that must result; the
 * semantics are QEMU 7.2's (tests/functional/test_pam_vs_qemu72.py checks
 * them against 7.2 itself): attribute 0 shows the PCI space, and the RAM
 * below where the PCI space has nothing (0xC8000-0xDFFFF here); 1 RAM
 * read-only; 2 and 3 RAM.
 */
#include <string.h>

#include <glib.h>

#include "exec/memory.h"
#include "flat-text.h"
#include "hw/pci-host/pam.h"
#include "qemu/rcu.h"

typedef struct PAMCase {
    const char *name;
    uint8_t regs[PAM_REGS];
    const char *flat;
} PAMCase;

static const PAMCase cases[] = {
    { "reset", { 0 },
      "0-bffff pc.ram c0000-c7fff pc.rom(ro) c8000-dffff pc.ram@c8000 "
      "e0000-fffff pc.bios(ro) 100000-1fffff pc.ram@100000" },
    { "all-ram", { 0x30, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33 },
      "0-1fffff pc.ram" },
    { "bios-read-only", { 0x10 },
      "0-bffff pc.ram c0000-c7fff pc.rom(ro) c8000-dffff pc.ram@c8000 "
      "e0000-effff pc.bios(ro) f0000-fffff pc.ram@f0000(ro) "
      "100000-1fffff pc.ram@100000" },
    { "bios-write-only", { 0x20 },
      "0-bffff pc.ram c0000-c7fff pc.rom(ro) c8000-dffff pc.ram@c8000 "
      "e0000-effff pc.bios(ro) f0000-1fffff pc.ram@f0000" },
    /* PAM0's low nibble is reserved: it steers nothing */
    { "reserved-nibble", { 0x03 },
      "0-bffff pc.ram c0000-c7fff pc.rom(ro) c8000-dffff pc.ram@c8000 "
      "e0000-fffff pc.bios(ro) 100000-1fffff pc.ram@100000" },
    { "option-rom-segments", { 0, 0x21, 0x03 },
      "0-bffff pc.ram c0000-c3fff pc.ram@c0000(ro) c4000-dffff pc.ram@c4000 "
      "e0000-fffff pc.bios(ro) 100000-1fffff pc.ram@100000" },
    { "bios-extension-segment", { 0, 0, 0, 0, 0, 0x10 },
      "0-bffff pc.ram c0000-c7fff pc.rom(ro) c8000-dffff pc.ram@c8000 "
      "e0000-e3fff pc.bios(ro) e4000-e7fff pc.ram@e4000(ro) "
      "e8000-fffff pc.bios@8000(ro) 100000-1fffff pc.ram@100000" },
};

typedef struct Board {
    MemoryRegion system, ram, ram_below, pci, rom, bios;
    AddressSpace as;
    PAMState pam;
} Board;

static void board_init(Board *b)
{
    Error *err = NULL;

    memset(b, 0, sizeof(*b));
    memory_region_init(&b->system, NULL, "system", UINT64_MAX);
    g_assert_true(memory_region_init_ram(&b->ram, NULL, "pc.ram", 0x200000,
                                         &err));
    memory_region_init_alias(&b->ram_below, NULL, "ram-below-4g", &b->ram,
                             0, 0x200000);
    memory_region_add_subregion(&b->system, 0, &b->ram_below);
    memory_region_init(&b->pci, NULL, "pci", UINT64_MAX);
    memory_region_add_subregion_overlap(&b->system, 0, &b->pci, -1);
    g_assert_true(memory_region_init_rom(&b->rom, NULL, "pc.rom", 0x8000,
                                         &err));
    memory_region_add_subregion_overlap(&b->pci, 0xc0000, &b->rom, 1);
    g_assert_true(memory_region_init_rom(&b->bios, NULL, "pc.bios", 0x20000,
                                         &err));
    memory_region_add_subregion_overlap(&b->pci, 0xe0000, &b->bios, 1);
    pam_init(&b->pam, NULL, &b->system, &b->ram, &b->pci);
    address_space_init(&b->as, &b->system, "test-pam");
}

static void region_free(MemoryRegion *mr)
{
    if (mr->container) {
        memory_region_del_subregion(mr->container, mr);
    }
    object_unref(OBJECT(mr));
}

static void board_free(Board *b)
{
    unsigned i, a;

    address_space_destroy(&b->as);
    rcu_drain();
    for (i = 0; i < PAM_SEGMENTS; i++) {
        for (a = 0; a < 4; a++) {
            region_free(&b->pam.seg[i].alias[a]);
        }
    }
    region_free(&b->rom);
    region_free(&b->bios);
    region_free(&b->pci);
    region_free(&b->ram_below);
    region_free(&b->ram);
    region_free(&b->system);
    g_free(b);
}

static void test_pam_case(gconstpointer data)
{
    const PAMCase *c = data;
    Board *b = g_new(Board, 1);
    char *flat;

    board_init(b);
    pam_update(&b->pam, c->regs);
    flat = flat_text(&b->as);
    g_assert_cmpstr(flat, ==, c->flat);
    g_free(flat);
    /* back to reset: every segment shows the PCI space again */
    pam_update(&b->pam, cases[0].regs);
    flat = flat_text(&b->as);
    g_assert_cmpstr(flat, ==, cases[0].flat);
    g_free(flat);
    board_free(b);
}

/* Bytes through each attribute, as a CPU or qtest sees them (7.2's) */
static void test_pam_access(void)
{
    Board *b = g_new(Board, 1);
    uint8_t regs[PAM_REGS] = { 0 };
    uint8_t v;

    board_init(b);
    memcpy(memory_region_get_ram_ptr(&b->bios) + 0x10000, "\xea", 1);
    /* disabled: the ROM, whose writes are dropped */
    v = 0x11;
    address_space_write(&b->as, 0xf0000, MEMTXATTRS_UNSPECIFIED, &v, 1);
    address_space_read(&b->as, 0xf0000, MEMTXATTRS_UNSPECIFIED, &v, 1);
    g_assert_cmpuint(v, ==, 0xea);
    /* read/write: RAM */
    regs[0] = 0x30;
    pam_update(&b->pam, regs);
    v = 0x22;
    address_space_write(&b->as, 0xf0000, MEMTXATTRS_UNSPECIFIED, &v, 1);
    /* read-only: RAM, and a write lands all the same, as in 7.2 */
    regs[0] = 0x10;
    pam_update(&b->pam, regs);
    address_space_read(&b->as, 0xf0000, MEMTXATTRS_UNSPECIFIED, &v, 1);
    g_assert_cmpuint(v, ==, 0x22);
    v = 0x33;
    address_space_write(&b->as, 0xf0000, MEMTXATTRS_UNSPECIFIED, &v, 1);
    address_space_read(&b->as, 0xf0000, MEMTXATTRS_UNSPECIFIED, &v, 1);
    g_assert_cmpuint(v, ==, 0x33);
    /* disabled again: the ROM byte, RAM kept underneath */
    regs[0] = 0;
    pam_update(&b->pam, regs);
    address_space_read(&b->as, 0xf0000, MEMTXATTRS_UNSPECIFIED, &v, 1);
    g_assert_cmpuint(v, ==, 0xea);
    g_assert_cmpuint(((uint8_t *)memory_region_get_ram_ptr(&b->ram))[0xf0000],
                     ==, 0x33);
    board_free(b);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *path = g_strdup_printf("/pam/flat/%s", cases[i].name);

        g_test_add_data_func(path, &cases[i], test_pam_case);
        g_free(path);
    }
    g_test_add_func("/pam/access", test_pam_access);
    return g_test_run();
}
