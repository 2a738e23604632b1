/*
 * Fuzz target: the -kernel loaders (hw/i386/kernel-loader.c) on a file's
 * bytes: Linux bzImage, ELF32/ELF64 with the PVH note, multiboot v1.
 *
 * Input: one options byte, a 32-bit little-endian initrd size, then the
 * kernel file.  The options byte:
 *   bits 0-1  -initrd: none; given, of that size (modulo twice guest RAM,
 *             so that both fitting and too large ones come up); given but
 *             unreadable; given, of that size unreduced (up to 4 GiB)
 *   bits 2-3  -append: none, 13 bytes, 4 KiB, 70000 bytes
 *   bits 4-5  format help, for what a mutator rarely gets right by
 *             itself: none; "HdrS" at 0x202; every multiboot magic in the
 *             first 8 KiB gets a matching checksum; the ELF magic at 0
 * Guest RAM is 32 MiB, allocated once; loads write into it freely.
 * With FUZZ_VERBOSE set in the environment each input's outcome is
 * printed (what a seed exercises).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "exec/memory.h"
#include "hw/i386/x86-boot.h"

#define FUZZ_RAM (32 * 1024 * 1024)
#define HDR_LEN 5

static MachineState *ms;
static uint8_t *initrd_bytes;   /* zeros, read only: a mapping of any size */
static char *cmdlines[4];
static bool verbose;

static uint32_t ld32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void st32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Error *err = NULL;

    if (!memory_ram_alloc(FUZZ_RAM, &err)) {
        error_report_err(err);
        abort();
    }
    /* The machine type only matters for its class's compat fields */
    ms = MACHINE(object_new_with_class(
                     OBJECT_CLASS_CAST(machine_find_class("pc-q35-7.2"))));
    ms->ram_size = FUZZ_RAM;
    ms->kernel_filename = g_strdup("fuzz-kernel");
    /*
     * Zeros that are never written: untouched anonymous pages cost no
     * memory, and mmap is not counted by libFuzzer's -malloc_limit_mb
     */
    initrd_bytes = mmap(NULL, (size_t)UINT32_MAX + 1, PROT_READ,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (initrd_bytes == MAP_FAILED) {
        abort();
    }
    verbose = getenv("FUZZ_VERBOSE") != NULL;
    cmdlines[1] = g_strdup("console=ttyS0");
    cmdlines[2] = g_strnfill(4096, 'a');
    cmdlines[3] = g_strnfill(70000, 'b');
    return 0;
}

static void help_format(uint8_t *d, size_t len, unsigned how)
{
    size_t off;

    if (how == 1 && len >= 0x206) {
        memcpy(d + 0x202, "HdrS", 4);
    } else if (how == 2) {
        for (off = 0; off + 12 <= len && off < 8192; off += 4) {
            if (ld32(d + off) == 0x1BADB002) {
                st32(d + off + 8, -(0x1BADB002u + ld32(d + off + 4)));
            }
        }
    } else if (how == 3 && len >= 4) {
        memcpy(d, "\x7f" "ELF", 4);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    X86KernelFiles f = { 0 };
    X86BootState boot;
    Error *err = NULL;
    uint8_t *kernel;
    unsigned opts;
    uint64_t initrd_size;
    bool ok;

    if (size < HDR_LEN) {
        return 0;
    }
    opts = data[0];
    initrd_size = ld32(data + 1);
    /* An exact-size copy, so that ASan sees reads past the file */
    f.kernel_size = size - HDR_LEN;
    kernel = malloc(f.kernel_size ? f.kernel_size : 1);
    memcpy(kernel, data + HDR_LEN, f.kernel_size);
    help_format(kernel, f.kernel_size, (opts >> 4) & 3);
    f.kernel = kernel;

    ms->initrd_filename = (opts & 3) ? "fuzz-initrd" : NULL;
    if ((opts & 3) == 1) {
        f.initrd = initrd_bytes;
        f.initrd_size = initrd_size % (2 * FUZZ_RAM);
    } else if ((opts & 3) == 2) {
        f.initrd_error = "unreadable";
    } else if ((opts & 3) == 3) {
        f.initrd = initrd_bytes;
        f.initrd_size = initrd_size;
    }
    ms->kernel_cmdline = cmdlines[(opts >> 2) & 3];

    ok = x86_load_kernel_from_buffer(ms, &f, 0xf0000, &boot, &err);
    /* Success and an error are exclusive; an error has words */
    if (ok != !err) {
        abort();
    }
    if (ok && boot.kind == X86_BOOT_NONE) {
        abort();
    }
    if (verbose) {
        printf("# %s\n", ok ? "loaded" : error_get_pretty(err));
    }
    if (err) {
        if (!*error_get_pretty(err)) {
            abort();
        }
        error_free(err);
    }
    free(kernel);
    return 0;
}
