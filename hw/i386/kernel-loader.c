/*
 * The -kernel formats on the PC, loaded from the files' bytes (design §6):
 * Linux bzImage through the 64-bit boot protocol, ELF with a Xen PVH
 * entry note, multiboot v1.  Nothing here opens a file or touches KVM, so
 * the fuzz targets (tests/fuzz/fuzz-kernel-loader.c) run it as it is.
 *
 * Order of probing follows QEMU: a file with the Linux "HdrS" setup header
 * is a bzImage; otherwise a multiboot header wins, then an ELF PVH note.
 * Boot data lives below 640 KiB at fixed addresses:
 *   0x1000 multiboot info / PVH start_info, 0x2000 memory map,
 *   0x3000 module list, 0x7000 Linux boot_params, 0x20000 command line.
 * The initrd goes where QEMU puts it (below the ACPI data it keeps at the
 * top of RAM below 4 GiB, and below the kernel's limit); for multiboot at
 * the top of RAM below 4 GiB.
 */
#include <elf.h>
#include <stddef.h>
#include <inttypes.h>
#include <string.h>

#include "exec/memory.h"
#include "hw/i386/x86-boot.h"

#define BOOT_INFO 0x1000
#define BOOT_MMAP 0x2000
#define BOOT_MODS 0x3000
#define BOOT_PARAMS 0x7000
#define BOOT_CMDLINE 0x20000
#define BOOT_CMDLINE_MAX 0x10000
#define KERNEL_LOAD 0x100000

#define MULTIBOOT_MAGIC 0x1BADB002
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MULTIBOOT_AOUT_KLUDGE (1u << 16)
#define PVH_START_MAGIC 0x336ec578
#define XEN_ELFNOTE_PHYS32_ENTRY 18

/*
 * QEMU takes the header fields of every format from the file's first
 * 8 KiB; a shorter file reads as zeros after its end.
 */
#define KERNEL_HEADER_LEN 8192

/* Little-endian fields at any offset: a file promises no alignment */
static uint16_t ld16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static uint32_t ld32(const uint8_t *p)
{
    return ld16(p) | (uint32_t)ld16(p + 2) << 16;
}

static uint64_t ld64(const uint8_t *p)
{
    return ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

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

static void put32(uint64_t addr, uint32_t v)
{
    cpu_physical_memory_write(addr, &v, 4);
}

static void put64(uint64_t addr, uint64_t v)
{
    cpu_physical_memory_write(addr, &v, 8);
}

static uint64_t below_4g_ram(MachineState *ms)
{
    return memory_below_4g();
}

/* Copies into guest RAM, failing if the range is not all RAM. */
static bool guest_copy(uint64_t addr, const void *src, uint64_t len,
                       const char *what, Error **errp)
{
    void *dst = memory_guest_ptr(addr, len);

    if (!len) {
        return true;
    }
    if (!dst) {
        error_setg(errp, "%s does not fit in guest RAM at 0x%" PRIx64
                   " (size 0x%" PRIx64 "): increase -m", what, addr, len);
        return false;
    }
    memcpy(dst, src, len);
    return true;
}

static bool guest_zero(uint64_t addr, uint64_t len, const char *what,
                       Error **errp)
{
    void *dst = memory_guest_ptr(addr, len);

    if (!len) {
        return true;
    }
    if (!dst) {
        error_setg(errp, "%s does not fit in guest RAM at 0x%" PRIx64,
                   what, addr);
        return false;
    }
    memset(dst, 0, len);
    return true;
}

static uint64_t write_cmdline(MachineState *ms)
{
    const char *cmdline = ms->kernel_cmdline ? ms->kernel_cmdline : "";
    size_t len = MIN(strlen(cmdline), BOOT_CMDLINE_MAX - 1);

    cpu_physical_memory_set(BOOT_CMDLINE, 0, len + 1);
    cpu_physical_memory_write(BOOT_CMDLINE, cmdline, len);
    return BOOT_CMDLINE;
}

/*
 * Where QEMU puts the initrd for the Linux and PVH protocols: as high as
 * it goes below initrd_max (the kernel's limit), which QEMU keeps under
 * the firmware's ACPI data at the top of RAM below 4 GiB (160 KiB of it;
 * 64 KiB up to pc-i440fx-2.0).  QEMU 7.2's checks and words.
 */
static bool initrd_addr_linux(MachineState *ms, const X86KernelFiles *f,
                              uint32_t initrd_max, uint64_t *addr,
                              Error **errp)
{
    uint64_t acpi = MACHINE_GET_CLASS(ms)->small_acpi_data ? 0x10000
                                                          : 0x28000;
    uint64_t below = below_4g_ram(ms);

    if (!f->initrd) {
        error_setg(errp, "error reading initrd %s: %s", ms->initrd_filename,
                   f->initrd_error);
        return false;
    }
    if (below <= acpi || initrd_max >= below - acpi) {
        initrd_max = below > acpi ? below - acpi - 1 : 0;
    }
    if (f->initrd_size >= initrd_max) {
        error_setg(errp, "initrd is too large, cannot support.(max: %" PRIu32
                   ", need %" PRIu64 ")", initrd_max,
                   (uint64_t)f->initrd_size);
        return false;
    }
    *addr = (initrd_max - f->initrd_size) & ~4095ULL;
    return true;
}

/* Copies the initrd to addr, unless it would overwrite the kernel */
static bool initrd_write(MachineState *ms, const X86KernelFiles *f,
                         uint64_t addr, uint64_t kernel_start,
                         uint64_t kernel_end, Error **errp)
{
    if (addr < kernel_end && addr + f->initrd_size > kernel_start) {
        error_setg(errp, "initrd '%s' (%zu bytes) does not fit in guest RAM "
                   "beside the kernel: increase -m", ms->initrd_filename,
                   f->initrd_size);
        return false;
    }
    return guest_copy(addr, f->initrd, f->initrd_size, "initrd", errp);
}

/* ELF ------------------------------------------------------------------------ */

/* A PT_LOAD segment with memory; index numbers it among the headers */
typedef struct ElfLoad {
    unsigned index;
    uint64_t offset, paddr, filesz, memsz;
} ElfLoad;

typedef struct ElfInfo {
    bool is64;
    uint64_t entry;
    uint64_t pvh_entry;      /* 0: no PVH note */
    uint64_t low, high;      /* physical extent of the PT_LOAD segments */
    ElfLoad *loads;
    unsigned nloads;
} ElfInfo;

/* off..off+size-1 lies in a file of len bytes, whatever the values */
static bool in_file(uint64_t off, uint64_t size, size_t len)
{
    return off <= len && size <= len - off;
}

/* x rounded up to a multiple of align (not 0); x < 2^32 cannot overflow */
static uint64_t align_up(uint32_t x, uint64_t align)
{
    return x ? (x / align + (x % align != 0)) * align : 0;
}

/*
 * The PVH entry in one PT_NOTE segment of size bytes at n, as QEMU finds
 * it: the first note of type XEN_ELFNOTE_PHYS32_ENTRY whatever its name,
 * name and descriptor padded to the segment's alignment, the entry read
 * as 64 bits in an ELF64 file (32 in an ELF32) whatever the descriptor's
 * size.  Nothing is read outside the segment: bytes beyond it count as
 * zero, and a note that runs past it ends the search.
 */
static void elf_scan_notes(const uint8_t *n, uint64_t size, uint64_t align,
                           bool is64, ElfInfo *info)
{
    uint64_t p = 0;

    /* QEMU divides by a zero alignment; no alignment is what 0 means */
    align = align ? align : 1;
    while (size - p >= 12) {
        uint64_t name_pad = align_up(ld32(n + p), align);
        uint64_t desc_pad = align_up(ld32(n + p + 4), align);
        uint64_t desc;

        if (name_pad > size - p - 12) {
            return;
        }
        desc = p + 12 + name_pad;
        if (ld32(n + p + 8) == XEN_ELFNOTE_PHYS32_ENTRY) {
            uint8_t entry[8] = { 0 };

            memcpy(entry, n + desc, MIN(is64 ? 8 : 4, size - desc));
            info->pvh_entry = ld64(entry);
            return;
        }
        if (desc_pad > size - desc) {
            return;
        }
        p = desc + desc_pad;
    }
}

/*
 * The checks of QEMU's ELF loader, without its overflows; failing one is
 * QEMU's "Error while loading elf kernel".  Program headers are read at
 * the size of the class's struct whatever e_phentsize says, as QEMU
 * does; notes are looked at only for PVH (multiboot ignores them).
 */
static bool elf_parse(const uint8_t *d, size_t len, bool scan_notes,
                      ElfInfo *info)
{
    size_t phsize;
    uint64_t phoff;
    uint32_t total = 0;
    unsigned phnum, i;
    uint16_t machine;

    memset(info, 0, sizeof(*info));
    info->low = UINT64_MAX;
    if (len < EI_NIDENT || memcmp(d, ELFMAG, SELFMAG) ||
        d[EI_DATA] != ELFDATA2LSB ||
        (d[EI_CLASS] != ELFCLASS32 && d[EI_CLASS] != ELFCLASS64)) {
        return false;
    }
    info->is64 = d[EI_CLASS] == ELFCLASS64;
    if (len < (info->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))) {
        return false;
    }
    machine = ld16(d + offsetof(Elf32_Ehdr, e_machine));
    if (machine != EM_386 && machine != EM_X86_64) {
        return false;
    }
    if (info->is64) {
        info->entry = ld64(d + offsetof(Elf64_Ehdr, e_entry));
        phoff = ld64(d + offsetof(Elf64_Ehdr, e_phoff));
        phnum = ld16(d + offsetof(Elf64_Ehdr, e_phnum));
        phsize = sizeof(Elf64_Phdr);
    } else {
        info->entry = ld32(d + offsetof(Elf32_Ehdr, e_entry));
        phoff = ld32(d + offsetof(Elf32_Ehdr, e_phoff));
        phnum = ld16(d + offsetof(Elf32_Ehdr, e_phnum));
        phsize = sizeof(Elf32_Phdr);
    }
    /* phnum < 2^16 and phsize <= 56: the product does not overflow */
    if (!phnum || !in_file(phoff, (uint64_t)phnum * phsize, len)) {
        return false;
    }
    info->loads = g_new(ElfLoad, phnum);
    for (i = 0; i < phnum; i++) {
        const uint8_t *ph = d + phoff + i * phsize;
        uint32_t type = ld32(ph);
        uint64_t off, paddr, filesz, memsz, align;

        if (info->is64) {
            off = ld64(ph + offsetof(Elf64_Phdr, p_offset));
            paddr = ld64(ph + offsetof(Elf64_Phdr, p_paddr));
            filesz = ld64(ph + offsetof(Elf64_Phdr, p_filesz));
            memsz = ld64(ph + offsetof(Elf64_Phdr, p_memsz));
            align = ld64(ph + offsetof(Elf64_Phdr, p_align));
        } else {
            off = ld32(ph + offsetof(Elf32_Phdr, p_offset));
            paddr = ld32(ph + offsetof(Elf32_Phdr, p_paddr));
            filesz = ld32(ph + offsetof(Elf32_Phdr, p_filesz));
            memsz = ld32(ph + offsetof(Elf32_Phdr, p_memsz));
            align = ld32(ph + offsetof(Elf32_Phdr, p_align));
        }
        if (type == PT_NOTE && scan_notes) {
            if (!in_file(off, filesz, len)) {
                return false;
            }
            elf_scan_notes(d + off, filesz, align, info->is64, info);
        }
        if (type != PT_LOAD) {
            continue;
        }
        /* Only the bytes a segment has in the file need to be there */
        if (filesz && !in_file(off, filesz, len)) {
            return false;
        }
        /* An empty segment loads nothing but counts for the extent */
        info->low = MIN(info->low, paddr);
        /* A segment past 2^64 fails to fit in RAM later; keep the max */
        info->high = MAX(info->high, paddr + memsz < paddr ?
                         UINT64_MAX : paddr + memsz);
        if (!memsz) {
            continue;
        }
        /*
         * QEMU sums the segments' sizes in an int and fails when the sum
         * turns negative: on their low 32 bits, as it adds them
         */
        total = (uint32_t)(total + memsz);
        if (filesz > memsz || total > INT32_MAX) {
            return false;
        }
        info->loads[info->nloads++] = (ElfLoad){ i, off, paddr, filesz,
                                                 memsz };
    }
    return true;
}

static void elf_info_free(ElfInfo *info)
{
    g_free(info->loads);
    info->loads = NULL;
}

static int elf_load_cmp(const void *a, const void *b)
{
    const ElfLoad *x = *(const ElfLoad *const *)a;
    const ElfLoad *y = *(const ElfLoad *const *)b;

    if (x->paddr != y->paddr) {
        return x->paddr < y->paddr ? -1 : 1;
    }
    return x->index < y->index ? -1 : x->index > y->index;
}

static uint64_t elf_load_data_end(const ElfLoad *l)
{
    return l->paddr + l->filesz < l->paddr ? UINT64_MAX
                                           : l->paddr + l->filesz;
}

/*
 * Two segments whose file bytes overlap, as QEMU finds them: it makes a
 * ROM blob of each segment's file bytes (bss does not count) and, in
 * address order, compares each blob with the one before.  Returns false
 * if there are none; else *a is the lower of the first such pair.
 */
static bool elf_find_overlap(const ElfInfo *info, const ElfLoad **a,
                             const ElfLoad **b)
{
    const ElfLoad **sorted = g_new(const ElfLoad *, info->nloads + 1);
    unsigned i, n = 0;
    bool found = false;

    for (i = 0; i < info->nloads; i++) {
        if (info->loads[i].filesz) {
            sorted[n++] = &info->loads[i];
        }
    }
    qsort(sorted, n, sizeof(*sorted), elf_load_cmp);
    for (i = 1; i < n && !found; i++) {
        if (elf_load_data_end(sorted[i - 1]) > sorted[i]->paddr) {
            *a = sorted[i - 1];
            *b = sorted[i];
            found = true;
        }
    }
    g_free(sorted);
    return found;
}

/* QEMU 7.2's report of overlapping ROM blobs, naming the two segments */
static void elf_overlap_error(const char *path, const ElfLoad *a,
                              const ElfLoad *b, Error **errp)
{
    const ElfLoad *l[2] = { a, b };
    int i;

    error_setg(errp, "Some ROM regions are overlapping");
    error_append_hint(errp,
        "These ROM regions might have been loaded by direct user request "
        "or by default.\n"
        "They could be BIOS/firmware images, a guest kernel, initrd or some "
        "other file loaded into guest memory.\n"
        "Check whether you intended to load all this guest code, and "
        "whether it has been built to load to the correct addresses.\n"
        "\n"
        "The following two regions overlap (in the memory address space):"
        "\n");
    for (i = 0; i < 2; i++) {
        error_append_hint(errp, "  %s ELF program header segment %u "
                          "(addresses 0x%016" PRIx64 " - 0x%016" PRIx64
                          ")\n", path, l[i]->index, l[i]->paddr,
                          elf_load_data_end(l[i]));
    }
}

/*
 * Loads the segments at their physical addresses: every one's memory is
 * zeroed before any is copied, so that file bytes win over another
 * segment's bss, as they do in QEMU (which writes them in address order).
 */
static bool elf_load_segments(const uint8_t *d, const ElfInfo *info,
                              Error **errp)
{
    unsigned i;

    for (i = 0; i < info->nloads; i++) {
        const ElfLoad *l = &info->loads[i];

        if (!guest_zero(l->paddr, l->memsz, "kernel segment", errp)) {
            return false;
        }
    }
    for (i = 0; i < info->nloads; i++) {
        const ElfLoad *l = &info->loads[i];

        /* A segment without file bytes may have any offset: no d + it */
        if (l->filesz) {
            cpu_physical_memory_write(l->paddr, d + l->offset, l->filesz);
        }
    }
    return true;
}

/* Multiboot (v1) ------------------------------------------------------------- */

/*
 * The header, where QEMU looks for it: at 4-byte steps in the file's
 * first 8 KiB, leaving room for a full header (48 bytes) before its end
 */
static int64_t multiboot_find_header(const uint8_t *header)
{
    size_t off;

    for (off = 0; off < KERNEL_HEADER_LEN - 48; off += 4) {
        uint32_t magic = ld32(header + off);

        if (magic == MULTIBOOT_MAGIC &&
            magic + ld32(header + off + 4) + ld32(header + off + 8) == 0) {
            return off;
        }
    }
    return -1;
}

/*
 * The a.out kludge: the header says which part of the file goes where.
 * QEMU 7.2's checks, in its order and words; fields past the end of a
 * short file read as zeros.
 */
static bool multiboot_load_aout(const X86KernelFiles *f,
                                const uint8_t *header, size_t hdr,
                                uint64_t *kernel_start, uint64_t *kernel_end,
                                uint64_t *entry, Error **errp)
{
    uint32_t header_addr = ld32(header + hdr + 12);
    uint32_t load_addr = ld32(header + hdr + 16);
    uint32_t load_end_addr = ld32(header + hdr + 20);
    uint32_t bss_end_addr = ld32(header + hdr + 24);
    uint64_t text_offset, load_size, kernel_size;

    if (header_addr < load_addr) {
        error_setg(errp, "invalid load_addr address");
        return false;
    }
    if (header_addr - load_addr > hdr) {
        error_setg(errp, "invalid header_addr address");
        return false;
    }
    /* Where load_addr's byte is in the file */
    text_offset = hdr - (header_addr - load_addr);
    if (load_end_addr) {
        if (load_end_addr < load_addr) {
            error_setg(errp, "invalid load_end_addr address");
            return false;
        }
        load_size = load_end_addr - load_addr;
    } else {
        load_size = f->kernel_size - text_offset;
    }
    if (load_size > UINT32_MAX - load_addr) {
        error_setg(errp, "kernel does not fit in address space");
        return false;
    }
    kernel_size = load_size;
    if (bss_end_addr) {
        if (bss_end_addr < load_addr + load_size) {
            error_setg(errp, "invalid bss_end_addr address");
            return false;
        }
        kernel_size = bss_end_addr - load_addr;
    }
    if (!in_file(text_offset, load_size, f->kernel_size)) {
        error_setg(errp, "fread() failed");
        return false;
    }
    if (!guest_copy(load_addr, f->kernel + text_offset, load_size, "kernel",
                    errp) ||
        !guest_zero(load_addr + load_size, kernel_size - load_size,
                    "kernel bss", errp)) {
        return false;
    }
    *kernel_start = load_addr;
    *kernel_end = load_addr + kernel_size;
    *entry = ld32(header + hdr + 28);
    return true;
}

static bool multiboot_load(MachineState *ms, const X86KernelFiles *f,
                           const uint8_t *header, size_t hdr,
                           X86BootState *boot, Error **errp)
{
    const uint8_t *d = f->kernel;
    size_t len = f->kernel_size;
    uint32_t mbi_flags = 0x1 | 0x4 | 0x40;
    uint64_t kernel_start, kernel_end, initrd = 0, initrd_size = 0;
    E820Entry e820[E820_MAX_ENTRIES];
    int i, n;

    if (ld32(header + hdr + 4) & MULTIBOOT_AOUT_KLUDGE) {
        if (!multiboot_load_aout(f, header, hdr, &kernel_start, &kernel_end,
                                 &boot->entry, errp)) {
            return false;
        }
    } else {
        const ElfLoad *a, *b;
        ElfInfo info;
        bool ok = false;

        if (ld16(header + offsetof(Elf32_Ehdr, e_machine)) == EM_X86_64) {
            error_setg(errp, "Cannot load x86-64 image, give a 32bit one.");
            return false;
        }
        if (!elf_parse(d, len, false, &info)) {
            error_setg(errp, "Error while loading elf kernel");
        } else if (info.low == UINT64_MAX ||
                   (elf_find_overlap(&info, &a, &b) &&
                    elf_load_data_end(b) < elf_load_data_end(a))) {
            /*
             * QEMU copies the image out of its ROM blobs first, which
             * fails without one, or when the last blob (by address) ends
             * inside another; other overlaps it finds later, as for PVH
             */
            error_setg(errp, "Error while fetching elf kernel from rom");
        } else if (elf_find_overlap(&info, &a, &b)) {
            elf_overlap_error(ms->kernel_filename, a, b, errp);
        } else {
            ok = elf_load_segments(d, &info, errp);
        }
        boot->entry = info.entry;
        kernel_start = info.low;
        kernel_end = info.high;
        elf_info_free(&info);
        if (!ok) {
            return false;
        }
    }

    if (ms->initrd_filename) {
        /* QEMU's words for a module it cannot read */
        if (!f->initrd) {
            error_setg(errp, "Failed to open file '%s'", ms->initrd_filename);
            return false;
        }
        /* At the top of RAM below 4 GiB */
        initrd_size = f->initrd_size;
        if (initrd_size > below_4g_ram(ms)) {
            error_setg(errp, "initrd '%s' (%zu bytes) does not fit in guest "
                       "RAM: increase -m", ms->initrd_filename,
                       f->initrd_size);
            return false;
        }
        initrd = (below_4g_ram(ms) - initrd_size) & ~0xfffULL;
        if (!initrd_write(ms, f, initrd, kernel_start, kernel_end, errp)) {
            return false;
        }
    }
    cpu_physical_memory_set(BOOT_INFO, 0, 0x1000);
    if (ms->initrd_filename) {
        mbi_flags |= 0x8;
        put32(BOOT_MODS, initrd);
        put32(BOOT_MODS + 4, initrd + initrd_size);
        put32(BOOT_MODS + 8, BOOT_CMDLINE);   /* module string: the cmdline */
        put32(BOOT_MODS + 12, 0);
        put32(BOOT_INFO + 20, 1);
        put32(BOOT_INFO + 24, BOOT_MODS);
    }
    n = pc_e820_table(ms, e820, E820_MAX_ENTRIES);
    for (i = 0; i < n; i++) {
        uint64_t at = BOOT_MMAP + i * 24;
        put32(at, 20);
        put64(at + 4, e820[i].addr);
        put64(at + 12, e820[i].size);
        put32(at + 20, e820[i].type);
    }
    put32(BOOT_INFO + 0, mbi_flags);
    put32(BOOT_INFO + 4, 640);
    put32(BOOT_INFO + 8, (MAX(below_4g_ram(ms), 0x100000) - 0x100000) / 1024);
    put32(BOOT_INFO + 16, write_cmdline(ms));
    put32(BOOT_INFO + 44, n * 24);
    put32(BOOT_INFO + 48, BOOT_MMAP);
    boot->kind = X86_BOOT_MULTIBOOT;
    boot->rax = MULTIBOOT_BOOTLOADER_MAGIC;
    boot->rbx = BOOT_INFO;
    return true;
}

/* PVH ------------------------------------------------------------------------ */

/* The initrd and hvm_start_info for a loaded PVH kernel */
static bool pvh_start(MachineState *ms, const X86KernelFiles *f,
                      const ElfInfo *info, uint64_t initrd, uint64_t rsdp,
                      X86BootState *boot, Error **errp)
{
    E820Entry e820[E820_MAX_ENTRIES];
    uint64_t initrd_size = f->initrd_size;
    int i, n;

    if (ms->initrd_filename &&
        !initrd_write(ms, f, initrd, info->low, info->high, errp)) {
        return false;
    }
    cpu_physical_memory_set(BOOT_INFO, 0, 0x1000);
    n = pc_e820_table(ms, e820, E820_MAX_ENTRIES);
    for (i = 0; i < n; i++) {
        uint64_t at = BOOT_MMAP + i * 24;
        put64(at, e820[i].addr);
        put64(at + 8, e820[i].size);
        put32(at + 16, e820[i].type);
        put32(at + 20, 0);
    }
    if (ms->initrd_filename) {
        put64(BOOT_MODS, initrd);
        put64(BOOT_MODS + 8, initrd_size);
        put64(BOOT_MODS + 16, 0);
        put64(BOOT_MODS + 24, 0);
    }
    /* struct hvm_start_info, version 1 */
    put32(BOOT_INFO + 0, PVH_START_MAGIC);
    put32(BOOT_INFO + 4, 1);
    put32(BOOT_INFO + 8, 0);
    put32(BOOT_INFO + 12, ms->initrd_filename ? 1 : 0);
    put64(BOOT_INFO + 16, ms->initrd_filename ? BOOT_MODS : 0);
    put64(BOOT_INFO + 24, write_cmdline(ms));
    put64(BOOT_INFO + 32, rsdp);
    put64(BOOT_INFO + 40, BOOT_MMAP);
    put32(BOOT_INFO + 48, n);
    boot->kind = X86_BOOT_PVH;
    boot->entry = info->pvh_entry;
    boot->rbx = BOOT_INFO;
    return true;
}

/*
 * header is the file's first KERNEL_HEADER_LEN bytes, zero-padded; the
 * file starts with the ELF magic.
 */
static bool pvh_load(MachineState *ms, const X86KernelFiles *f,
                     const uint8_t *header, uint64_t rsdp,
                     X86BootState *boot, Error **errp)
{
    const ElfLoad *a, *b;
    ElfInfo info;
    uint32_t flags;
    uint64_t initrd = 0;
    bool ok = false;

    flags = ld32(header + (header[EI_CLASS] == ELFCLASS64 ?
                           offsetof(Elf64_Ehdr, e_flags) :
                           offsetof(Elf32_Ehdr, e_flags)));
    /* QEMU's check, on what would be a.out kludge and video mode bits */
    if (flags & 0x00010004) {
        error_setg(errp, "elfboot unsupported flags = %x", flags);
        return false;
    }
    if (!elf_parse(f->kernel, f->kernel_size, true, &info)) {
        error_setg(errp, "Error while loading elf kernel");
    } else if (!info.pvh_entry) {
        error_setg(errp, "Error loading uncompressed kernel without PVH "
                   "ELF Note");
    } else if (ms->initrd_filename &&
               !initrd_addr_linux(ms, f, UINT32_MAX, &initrd, errp)) {
        /* (errp is set) QEMU reads the initrd before it sees overlaps */
    } else if (elf_find_overlap(&info, &a, &b)) {
        elf_overlap_error(ms->kernel_filename, a, b, errp);
    } else {
        ok = elf_load_segments(f->kernel, &info, errp) &&
             pvh_start(ms, f, &info, initrd, rsdp, boot, errp);
    }
    elf_info_free(&info);
    return ok;
}

/* Linux bzImage, 64-bit boot protocol ------------------------------------------ */

#define LINUX_HDRS 0x53726448 /* "HdrS" */
#define XLF_KERNEL_64 0x1
#define XLF_CAN_BE_LOADED_ABOVE_4G 0x2

/*
 * header is the file's first KERNEL_HEADER_LEN bytes, zero-padded, as
 * QEMU reads them; a file without "HdrS" comes here too, as protocol 0.
 */
static bool linux_load(MachineState *ms, const X86KernelFiles *f,
                       const uint8_t *header, uint64_t rsdp,
                       X86BootState *boot, Error **errp)
{
    const uint8_t *d = f->kernel;
    size_t len = f->kernel_size;
    uint8_t bp[4096];
    uint16_t version = 0;
    uint32_t initrd_max = 0x37ffffff;
    uint64_t setup_len, kernel_len, initrd = 0;
    E820Entry e820[E820_MAX_ENTRIES];
    size_t hdr_end;
    int i, n;

    if (ld32(header + 0x202) == LINUX_HDRS) {
        version = ld16(header + 0x206);
    }
    /* QEMU looks at the initrd before the rest of the header */
    if (ms->initrd_filename) {
        if (version < 0x0200) {
            error_setg(errp, "linux kernel too old to load a ram disk");
            return false;
        }
        if (version >= 0x0203) {
            initrd_max = ld32(header + 0x22c);
        }
        if (version >= 0x020c &&
            (ld16(header + 0x236) & XLF_CAN_BE_LOADED_ABOVE_4G)) {
            initrd_max = UINT32_MAX;
        }
        if (!initrd_addr_linux(ms, f, initrd_max, &initrd, errp)) {
            return false;
        }
    }
    /* A file shorter than the setup sectors it claims: any small file */
    setup_len = ((header[0x1f1] ? header[0x1f1] : 4) + 1) * 512;
    if (setup_len > len) {
        error_setg(errp, "invalid kernel header");
        return false;
    }
    if (!version) {
        error_setg(errp, "'%s' is not a bzImage, multiboot or PVH ELF kernel",
                   ms->kernel_filename);
        return false;
    }
    if (version < 0x020c || !(ld16(header + 0x236) & XLF_KERNEL_64)) {
        error_setg(errp, "'%s': Linux boot protocol %x.%02x without a 64-bit "
                   "entry point (needs 2.12 with XLF_KERNEL_64)",
                   ms->kernel_filename, version >> 8, version & 0xff);
        return false;
    }
    /* The jump at 0x200 skips the header: its target is the header's end */
    hdr_end = 0x202 + header[0x201];
    kernel_len = len - setup_len;
    if (!guest_copy(KERNEL_LOAD, d + setup_len, kernel_len, "kernel", errp) ||
        (ms->initrd_filename &&
         !initrd_write(ms, f, initrd, KERNEL_LOAD, KERNEL_LOAD + kernel_len,
                       errp))) {
        return false;
    }

    memset(bp, 0, sizeof(bp));
    memcpy(bp + 0x1f1, header + 0x1f1, hdr_end - 0x1f1);
    bp[0x210] = 0xff;                         /* type_of_loader: other */
    bp[0x211] |= 0x80;                        /* CAN_USE_HEAP */
    st16(bp + 0x224, 0xfe00);                 /* heap_end_ptr */
    st32(bp + 0x214, KERNEL_LOAD);            /* code32_start */
    st32(bp + 0x228, BOOT_CMDLINE);           /* cmd_line_ptr */
    st32(bp + 0x218, initrd);                 /* ramdisk_image */
    st32(bp + 0x21c, ms->initrd_filename ? f->initrd_size : 0);
                                              /* ramdisk_size */
    if (version >= 0x020e) {
        st64(bp + 0x070, rsdp);               /* acpi_rsdp_addr */
    }
    n = pc_e820_table(ms, e820, E820_MAX_ENTRIES);
    bp[0x1e8] = n;
    for (i = 0; i < n; i++) {
        uint8_t *e = bp + 0x2d0 + i * 20;
        st64(e, e820[i].addr);
        st64(e + 8, e820[i].size);
        st32(e + 16, e820[i].type);
    }
    cpu_physical_memory_write(BOOT_PARAMS, bp, sizeof(bp));
    /*
     * Even one longer than the header's cmdline_size, as QEMU: the kernel
     * takes what it can
     */
    write_cmdline(ms);
    boot->kind = X86_BOOT_LINUX64;
    boot->entry = KERNEL_LOAD + 0x200;          /* startup_64 */
    boot->rsi = BOOT_PARAMS;
    boot->long_mode = true;
    return true;
}

bool x86_load_kernel_from_buffer(MachineState *ms, const X86KernelFiles *f,
                                 uint64_t rsdp, X86BootState *boot,
                                 Error **errp)
{
    const uint8_t *d = f->kernel;
    size_t len = f->kernel_size;
    uint8_t header[KERNEL_HEADER_LEN] = { 0 };
    int64_t mb;
    bool ok;

    memset(boot, 0, sizeof(*boot));
    memcpy(header, d, MIN(len, sizeof(header)));
    if (ld32(header + 0x202) == LINUX_HDRS) {
        ok = linux_load(ms, f, header, rsdp, boot, errp);
    } else if ((mb = multiboot_find_header(header)) >= 0) {
        ok = multiboot_load(ms, f, header, mb, boot, errp);
    } else if (!memcmp(header, ELFMAG, SELFMAG)) {
        ok = pvh_load(ms, f, header, rsdp, boot, errp);
    } else {
        ok = linux_load(ms, f, header, rsdp, boot, errp);
    }
    return ok;
}
