/*
 * Direct kernel boot on the PC (design §6): reads the -kernel and -initrd
 * files (the formats are hw/i386/kernel-loader.c), sets vCPU 0 at the
 * kernel's entry and reloads on every reset.  Besides the boot data of
 * kernel-loader.c, the entry state takes 0x0500 (GDT) and 0x9000-0xdfff
 * (identity page tables for a 64-bit entry).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "exec/memory.h"
#include "hw/i386/x86-boot.h"
#include "qemu/datadir.h"
#include "sysemu/device.h"
#include "sysemu/kvm.h"
#include "sysemu/reset.h"

#define BOOT_GDT 0x500
#define BOOT_PML4 0x9000
#define BOOT_PDPT 0xa000
#define BOOT_PD 0xb000          /* four page directories: 4 GiB */

static void put64(uint64_t addr, uint64_t v)
{
    cpu_physical_memory_write(addr, &v, 8);
}

static uint64_t below_4g_ram(MachineState *ms)
{
    return memory_below_4g();
}

int pc_e820_table(MachineState *ms, E820Entry *t, int max)
{
    int n = 0;

#define ADD(a, s, ty)                                                        \
    do {                                                                     \
        if (n < max) {                                                       \
            t[n++] = (E820Entry){ (a), (s), (ty) };                          \
        }                                                                    \
    } while (0)
    ADD(0, 0x9fc00, E820_RAM);
    ADD(0x9fc00, 0x400, E820_RESERVED);
    /* BIOS area: the ACPI tables and RSDP live here */
    ADD(0xe0000, 0x20000, E820_RESERVED);
    if (below_4g_ram(ms) > 0x100000) {
        ADD(0x100000, below_4g_ram(ms) - 0x100000, E820_RAM);
    }
    /* KVM's TSS and identity map pages (as QEMU reserves them) */
    ADD(0xfeffc000, 0x4000, E820_RESERVED);
    if (ms->ram_size > below_4g_ram(ms)) {
        ADD(PC_ABOVE_4G_BASE, ms->ram_size - below_4g_ram(ms), E820_RAM);
    }
#undef ADD
    return n;
}

/* Files ---------------------------------------------------------------------- */

/*
 * The -kernel file, read whole.  Refused in QEMU 7.2's words: what cannot
 * be opened, a directory, and what has no size.  QEMU takes the size from
 * lseek, which gives 0 for /dev/zero and the like, and then reports an
 * errno left from before ("No such file or directory"); a FIFO it reads
 * forever.  Here anything but a regular file is refused that way, and so
 * is a file larger than guest RAM, which no format could load.
 */
static uint8_t *read_kernel_file(MachineState *ms, size_t *len, Error **errp)
{
    const char *path = ms->kernel_filename;
    uint8_t *data = NULL;
    struct stat st;
    size_t got = 0;
    int fd, err = 0;

    /* Opening a FIFO must not wait for a writer */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        error_setg(errp, "could not open kernel file '%s': %s", path,
                   strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) < 0) {
        err = errno;
    } else if (S_ISDIR(st.st_mode)) {
        err = EISDIR;
    } else if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        err = ENOENT;
    } else if ((uint64_t)st.st_size > ms->ram_size) {
        err = EFBIG;
    } else {
        data = g_malloc(st.st_size);
        while (got < (size_t)st.st_size) {
            ssize_t n = read(fd, data + got, st.st_size - got);

            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                /* An error, or the file shrank since fstat */
                err = n < 0 ? errno : EIO;
                break;
            }
            got += n;
        }
    }
    close(fd);
    if (err) {
        error_setg(errp, "could not load kernel '%s': %s", path,
                   strerror(err));
        g_free(data);
        return NULL;
    }
    *len = got;
    return data;
}

/*
 * The -initrd file, mapped as QEMU maps it: a large one costs no memory
 * and what cannot be mapped gets GLib's words, as in QEMU (which each
 * format puts in its own message).  GLib would wait in open() for a
 * FIFO's writer; that gets the words GLib has for what it cannot map.
 */
static GMappedFile *map_initrd(const char *path, char **why)
{
    GError *gerr = NULL;
    GMappedFile *m;
    struct stat st;

    if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
        *why = g_strdup_printf("Failed to map %s' %s': mmap() failed: %s",
                               path, path, strerror(ENODEV));
        return NULL;
    }
    m = g_mapped_file_new(path, FALSE, &gerr);
    if (!m) {
        *why = g_strdup(gerr->message);
        g_error_free(gerr);
    }
    return m;
}

bool x86_load_kernel(MachineState *ms, uint64_t rsdp, X86BootState *boot,
                     Error **errp)
{
    X86KernelFiles f = { 0 };
    GMappedFile *initrd = NULL;
    char *why = NULL;
    uint8_t *kernel;
    bool ok;

    memset(boot, 0, sizeof(*boot));
    if (!ms->kernel_filename) {
        return true;
    }
    kernel = read_kernel_file(ms, &f.kernel_size, errp);
    if (!kernel) {
        return false;
    }
    f.kernel = kernel;
    if (ms->initrd_filename) {
        initrd = map_initrd(ms->initrd_filename, &why);
        if (initrd) {
            /* An empty file maps to NULL: still an initrd, of no bytes */
            f.initrd = (const uint8_t *)g_mapped_file_get_contents(initrd);
            f.initrd = f.initrd ? f.initrd : (const uint8_t *)"";
            f.initrd_size = g_mapped_file_get_length(initrd);
        }
        f.initrd_error = why;
    }
    ok = x86_load_kernel_from_buffer(ms, &f, rsdp, boot, errp);
    if (initrd) {
        g_mapped_file_unref(initrd);
    }
    g_free(why);
    g_free(kernel);
    return ok;
}

/* vCPU entry state -------------------------------------------------------------- */

static void seg(struct kvm_segment *s, uint16_t sel, uint8_t type, bool code64)
{
    memset(s, 0, sizeof(*s));
    s->base = 0;
    s->limit = 0xffffffff;
    s->selector = sel;
    s->type = type;
    s->present = 1;
    s->s = 1;
    s->g = 1;
    s->l = code64;
    s->db = !code64;
}

/* GDT: null, null, code (0x10), data (0x18) as the boot protocols expect */
static void write_boot_gdt(bool long_mode)
{
    uint64_t gdt[4] = {
        0, 0,
        long_mode ? 0x00af9a000000ffffULL : 0x00cf9a000000ffffULL,
        0x00cf92000000ffffULL,
    };

    cpu_physical_memory_write(BOOT_GDT, gdt, sizeof(gdt));
}

/* Identity map of the first 4 GiB with 2 MiB pages */
static void write_boot_page_tables(void)
{
    int i, j;

    cpu_physical_memory_set(BOOT_PML4, 0, 0x5000);
    put64(BOOT_PML4, BOOT_PDPT | 0x3);
    for (i = 0; i < 4; i++) {
        put64(BOOT_PDPT + i * 8, (BOOT_PD + i * 0x1000) | 0x3);
        for (j = 0; j < 512; j++) {
            uint64_t addr = ((uint64_t)i << 30) | ((uint64_t)j << 21);
            put64(BOOT_PD + i * 0x1000 + j * 8, addr | 0x83);
        }
    }
}

bool x86_boot_set_vcpus(MachineState *ms, const X86BootState *boot,
                        Error **errp)
{
    struct kvm_regs regs;
    struct kvm_sregs sregs;
    int i;

    if (boot->kind == X86_BOOT_NONE || !kvm_enabled()) {
        return true;
    }
    for (i = 1; i < kvm_vcpu_count(); i++) {
        if (ms->kernel_irqchip != KERNEL_IRQCHIP_OFF &&
            !kvm_vcpu_set_mp_state(i, false, errp)) {
            return false;
        }
    }
    if (!kvm_vcpu_get_regs(0, &regs, &sregs, errp)) {
        return false;
    }
    write_boot_gdt(boot->long_mode);
    seg(&sregs.cs, 0x10, 0xb, boot->long_mode);
    seg(&sregs.ds, 0x18, 0x3, false);
    sregs.es = sregs.fs = sregs.gs = sregs.ss = sregs.ds;
    sregs.gdt.base = BOOT_GDT;
    sregs.gdt.limit = 4 * 8 - 1;
    sregs.cr0 = 0x11; /* PE, ET */
    sregs.cr4 = 0;
    sregs.efer = 0;
    if (boot->long_mode) {
        write_boot_page_tables();
        sregs.cr3 = BOOT_PML4;
        sregs.cr4 = 0x20;                  /* PAE */
        sregs.cr0 |= 0x80000000;           /* PG */
        sregs.efer = 0x500;                /* LME, LMA */
    }
    memset(&regs, 0, sizeof(regs));
    regs.rflags = 0x2;
    regs.rip = boot->entry;
    regs.rsi = boot->rsi;
    regs.rbx = boot->rbx;
    regs.rax = boot->rax;
    return kvm_vcpu_set_regs(0, &regs, &sregs, errp) &&
           kvm_vcpu_set_mp_state(0, true, errp);
}

/* Machine start and reset ------------------------------------------------------ */

typedef struct X86BootMachine {
    MachineState *ms;
    uint64_t rsdp;
    X86BootState boot;
} X86BootMachine;

static bool x86_boot_load_and_enter(X86BootMachine *bm, Error **errp)
{
    pc_chipset_init_as_firmware();
    return x86_load_kernel(bm->ms, bm->rsdp, &bm->boot, errp) &&
           x86_boot_set_vcpus(bm->ms, &bm->boot, errp);
}

/* A reset reloads the kernel: the guest may have overwritten it */
static void x86_boot_reset(void *opaque)
{
    X86BootMachine *bm = opaque;
    Error *err = NULL;

    if (!x86_boot_load_and_enter(bm, &err)) {
        error_report_err(err);
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_ERROR);
        return;
    }
    kvm_vcpus_clear_failed();
}

bool x86_boot_machine(MachineState *ms, uint64_t rsdp, Error **errp)
{
    X86BootMachine *bm;

    if (!ms->kernel_filename) {
        if (ms->kernel_cmdline || ms->initrd_filename) {
            error_setg(errp, "%s only allowed with -kernel option",
                       ms->kernel_cmdline ? "-append" : "-initrd");
            return false;
        }
        /*
         * -bios: the vCPUs start where KVM creates them, at the reset
         * vector (CS base 0xffff0000, IP 0xfff0); else nothing runs
         */
        if (qemu_bios_name && kvm_enabled()) {
            kvm_start_machine(ms);
        }
        return true;
    }
    if (qemu_bios_name) {
        error_setg(errp, "-kernel with -bios: booting a kernel through "
                   "firmware (fw_cfg's kernel items) is not implemented yet");
        return false;
    }
    if (!kvm_enabled()) {
        return true;
    }
    bm = g_new0(X86BootMachine, 1);
    bm->ms = ms;
    bm->rsdp = rsdp;
    if (!x86_boot_load_and_enter(bm, errp)) {
        g_free(bm);
        return false;
    }
    qemu_register_reset(x86_boot_reset, bm);
    kvm_start_machine(ms);
    return true;
}

