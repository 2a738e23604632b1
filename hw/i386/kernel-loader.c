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
 * The initrd goes at the top of RAM below 4 GiB (below the kernel's limit).
 */
#include <elf.h>
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

/* The initrd at the top of RAM below min(4 GiB, limit); 0 if none */
static bool load_initrd(MachineState *ms, const X86KernelFiles *f,
                        uint64_t limit, uint64_t kernel_end, uint64_t *addr,
                        uint64_t *size, Error **errp)
{
    uint64_t top = MIN(below_4g_ram(ms), limit);
    size_t len = f->initrd_size;

    *addr = *size = 0;
    if (!ms->initrd_filename) {
        return true;
    }
    if (!f->initrd) {
        error_setg(errp, "could not load initrd '%s': %s",
                   ms->initrd_filename, f->initrd_error);
        return false;
    }
    if (len > top || ((top - len) & ~0xfffULL) < kernel_end) {
        error_setg(errp, "initrd '%s' (%zu bytes) does not fit in guest RAM "
                   "above the kernel: increase -m", ms->initrd_filename,
                   len);
        return false;
    }
    *addr = (top - len) & ~0xfffULL;
    *size = len;
    cpu_physical_memory_write(*addr, f->initrd, len);
    return true;
}

/* ELF ------------------------------------------------------------------------ */

typedef struct ElfInfo {
    uint64_t entry;
    uint64_t pvh_entry;      /* 0: no PVH note */
    uint64_t low, high;      /* physical extent of the loaded segments */
} ElfInfo;

static bool elf_check(const uint8_t *d, gsize len, bool *is64)
{
    if (len < sizeof(Elf32_Ehdr) || memcmp(d, ELFMAG, SELFMAG) ||
        d[EI_DATA] != ELFDATA2LSB) {
        return false;
    }
    *is64 = d[EI_CLASS] == ELFCLASS64;
    if (*is64 && len < sizeof(Elf64_Ehdr)) {
        return false;
    }
    return d[EI_CLASS] == ELFCLASS32 || d[EI_CLASS] == ELFCLASS64;
}

static void elf_scan_notes(const uint8_t *d, gsize len, uint64_t off,
                           uint64_t size, ElfInfo *info)
{
    uint64_t p = off, end = MIN(off + size, len);

    while (p + 12 <= end) {
        uint32_t namesz, descsz, type;
        uint64_t name, desc;

        memcpy(&namesz, d + p, 4);
        memcpy(&descsz, d + p + 4, 4);
        memcpy(&type, d + p + 8, 4);
        name = p + 12;
        desc = name + ((namesz + 3) & ~3u);
        if (desc + descsz > end) {
            break;
        }
        if (type == XEN_ELFNOTE_PHYS32_ENTRY && namesz == 4 &&
            !memcmp(d + name, "Xen", 4)) {
            uint64_t e = 0;
            memcpy(&e, d + desc, MIN(descsz, 8));
            info->pvh_entry = descsz == 4 ? (uint32_t)e : e;
        }
        p = desc + ((descsz + 3) & ~3u);
    }
}

/* Loads every PT_LOAD segment at its physical address. */
static bool elf_load(const uint8_t *d, gsize len, const char *path,
                     ElfInfo *info, Error **errp)
{
    bool is64;
    uint64_t phoff, i, phnum, phentsize;

    memset(info, 0, sizeof(*info));
    info->low = UINT64_MAX;
    if (!elf_check(d, len, &is64)) {
        error_setg(errp, "'%s' is not an ELF file", path);
        return false;
    }
    if (is64) {
        const Elf64_Ehdr *eh = (const void *)d;
        info->entry = eh->e_entry;
        phoff = eh->e_phoff;
        phnum = eh->e_phnum;
        phentsize = eh->e_phentsize;
    } else {
        const Elf32_Ehdr *eh = (const void *)d;
        info->entry = eh->e_entry;
        phoff = eh->e_phoff;
        phnum = eh->e_phnum;
        phentsize = eh->e_phentsize;
    }
    for (i = 0; i < phnum; i++) {
        uint64_t type, off, paddr, filesz, memsz;
        uint64_t ph = phoff + i * phentsize;

        if (ph + (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) > len) {
            error_setg(errp, "'%s': truncated ELF program headers", path);
            return false;
        }
        if (is64) {
            const Elf64_Phdr *p = (const void *)(d + ph);
            type = p->p_type; off = p->p_offset; paddr = p->p_paddr;
            filesz = p->p_filesz; memsz = p->p_memsz;
        } else {
            const Elf32_Phdr *p = (const void *)(d + ph);
            type = p->p_type; off = p->p_offset; paddr = p->p_paddr;
            filesz = p->p_filesz; memsz = p->p_memsz;
        }
        if (type == PT_NOTE) {
            elf_scan_notes(d, len, off, filesz, info);
            continue;
        }
        if (type != PT_LOAD || !memsz) {
            continue;
        }
        if (off > len || filesz > len - off || filesz > memsz) {
            error_setg(errp, "'%s': ELF segment %" PRIu64 " lies outside the "
                       "file", path, i);
            return false;
        }
        if (!guest_zero(paddr, memsz, "kernel segment", errp) ||
            !guest_copy(paddr, d + off, filesz, "kernel segment", errp)) {
            return false;
        }
        info->low = MIN(info->low, paddr);
        info->high = MAX(info->high, paddr + memsz);
    }
    if (info->low == UINT64_MAX) {
        error_setg(errp, "'%s': no loadable ELF segment", path);
        return false;
    }
    return true;
}

/* Multiboot (v1) ------------------------------------------------------------- */

static int64_t multiboot_find_header(const uint8_t *d, gsize len)
{
    gsize off;

    for (off = 0; off + 12 <= MIN(len, 8192); off += 4) {
        uint32_t magic, flags, sum;

        memcpy(&magic, d + off, 4);
        memcpy(&flags, d + off + 4, 4);
        memcpy(&sum, d + off + 8, 4);
        if (magic == MULTIBOOT_MAGIC && magic + flags + sum == 0) {
            return off;
        }
    }
    return -1;
}

static bool multiboot_load(MachineState *ms, const X86KernelFiles *f,
                           gsize hdr, X86BootState *boot, Error **errp)
{
    const uint8_t *d = f->kernel;
    gsize len = f->kernel_size;
    uint32_t flags, mbi_flags = 0x1 | 0x4 | 0x40;
    uint64_t kernel_end, initrd = 0, initrd_size = 0;
    E820Entry e820[E820_MAX_ENTRIES];
    int i, n;

    memcpy(&flags, d + hdr + 4, 4);
    if (flags & MULTIBOOT_AOUT_KLUDGE) {
        uint32_t h[5]; /* header_addr load_addr load_end bss_end entry */
        uint64_t file_off, load_len;

        if (hdr + 32 > len) {
            error_setg(errp, "'%s': truncated multiboot header",
                       ms->kernel_filename);
            return false;
        }
        memcpy(h, d + hdr + 12, sizeof(h));
        file_off = hdr - (h[0] - h[1]);
        load_len = h[2] ? h[2] - h[1] : len - file_off;
        if (h[0] < h[1] || file_off > len || load_len > len - file_off) {
            error_setg(errp, "'%s': bad multiboot load addresses",
                       ms->kernel_filename);
            return false;
        }
        if (!guest_copy(h[1], d + file_off, load_len, "kernel", errp)) {
            return false;
        }
        kernel_end = h[1] + load_len;
        if (h[3] > kernel_end &&
            !guest_zero(kernel_end, h[3] - kernel_end, "kernel bss", errp)) {
            return false;
        }
        kernel_end = MAX(kernel_end, h[3]);
        boot->entry = h[4];
    } else {
        ElfInfo info;

        if (!elf_load(d, len, ms->kernel_filename, &info, errp)) {
            return false;
        }
        boot->entry = info.entry;
        kernel_end = info.high;
    }

    if (!load_initrd(ms, f, UINT32_MAX, kernel_end, &initrd, &initrd_size,
                     errp)) {
        return false;
    }
    cpu_physical_memory_set(BOOT_INFO, 0, 0x1000);
    if (initrd) {
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
    put32(BOOT_INFO + 8, (below_4g_ram(ms) - 0x100000) / 1024);
    put32(BOOT_INFO + 16, write_cmdline(ms));
    put32(BOOT_INFO + 44, n * 24);
    put32(BOOT_INFO + 48, BOOT_MMAP);
    boot->kind = X86_BOOT_MULTIBOOT;
    boot->rax = MULTIBOOT_BOOTLOADER_MAGIC;
    boot->rbx = BOOT_INFO;
    return true;
}

/* PVH ------------------------------------------------------------------------ */

static bool pvh_load(MachineState *ms, const X86KernelFiles *f,
                     const ElfInfo *info, uint64_t rsdp, X86BootState *boot,
                     Error **errp)
{
    E820Entry e820[E820_MAX_ENTRIES];
    uint64_t initrd, initrd_size;
    int i, n;

    if (!load_initrd(ms, f, UINT32_MAX, info->high, &initrd, &initrd_size,
                     errp)) {
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
    if (initrd) {
        put64(BOOT_MODS, initrd);
        put64(BOOT_MODS + 8, initrd_size);
        put64(BOOT_MODS + 16, 0);
        put64(BOOT_MODS + 24, 0);
    }
    /* struct hvm_start_info, version 1 */
    put32(BOOT_INFO + 0, PVH_START_MAGIC);
    put32(BOOT_INFO + 4, 1);
    put32(BOOT_INFO + 8, 0);
    put32(BOOT_INFO + 12, initrd ? 1 : 0);
    put64(BOOT_INFO + 16, initrd ? BOOT_MODS : 0);
    put64(BOOT_INFO + 24, write_cmdline(ms));
    put64(BOOT_INFO + 32, rsdp);
    put64(BOOT_INFO + 40, BOOT_MMAP);
    put32(BOOT_INFO + 48, n);
    boot->kind = X86_BOOT_PVH;
    boot->entry = info->pvh_entry;
    boot->rbx = BOOT_INFO;
    return true;
}

/* Linux bzImage, 64-bit boot protocol ------------------------------------------ */

#define LINUX_HDRS 0x53726448 /* "HdrS" */
#define XLF_KERNEL_64 0x1

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
    uint32_t initrd_max, cmdline_size;
    uint64_t setup_len, kernel_len, initrd, initrd_size;
    E820Entry e820[E820_MAX_ENTRIES];
    size_t hdr_end;
    int i, n;

    if (ld32(header + 0x202) == LINUX_HDRS) {
        version = ld16(header + 0x206);
    }
    /* Also what a file shorter than the setup sectors it claims gets */
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
    initrd_max = ld32(header + 0x22c);
    cmdline_size = ld32(header + 0x238);
    kernel_len = len - setup_len;
    if (!guest_copy(KERNEL_LOAD, d + setup_len, kernel_len, "kernel", errp) ||
        !load_initrd(ms, f, (uint64_t)initrd_max + 1,
                     KERNEL_LOAD + kernel_len, &initrd, &initrd_size, errp)) {
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
    st32(bp + 0x21c, initrd_size);            /* ramdisk_size */
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
    if (ms->kernel_cmdline && strlen(ms->kernel_cmdline) > cmdline_size) {
        error_setg(errp, "kernel command line too long (%zu bytes, the "
                   "kernel takes %u)", strlen(ms->kernel_cmdline),
                   cmdline_size);
        return false;
    }
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
    bool ok, is64;

    memset(boot, 0, sizeof(*boot));
    memcpy(header, d, MIN(len, sizeof(header)));
    if (ld32(header + 0x202) == LINUX_HDRS) {
        ok = linux_load(ms, f, header, rsdp, boot, errp);
    } else if ((mb = multiboot_find_header(d, len)) >= 0) {
        ok = multiboot_load(ms, f, mb, boot, errp);
    } else if (elf_check(d, len, &is64)) {
        ElfInfo info;
        ok = elf_load(d, len, ms->kernel_filename, &info, errp);
        if (ok && !info.pvh_entry) {
            error_setg(errp, "Error loading uncompressed kernel without PVH "
                       "ELF Note");
            ok = false;
        }
        ok = ok && pvh_load(ms, f, &info, rsdp, boot, errp);
    } else {
        ok = linux_load(ms, f, header, rsdp, boot, errp);
    }
    return ok;
}
