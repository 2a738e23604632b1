/*
 * The firmware image as QEMU 7.2 maps it on the PC: -bios FILE, else the
 * machine's default (SeaBIOS's bios-256k.bin; bios.bin up to
 * pc-i440fx-1.7).  The whole file is ROM ("pc.bios") ending at 4 GiB; its
 * last 128 KiB (or all of a smaller one) also show at 0xE0000-0xFFFFF
 * ("isa-bios"), where the reset vector's far jump lands.  The size must
 * be a non-zero multiple of 64 KiB.
 *
 * Both live in the PCI address space, so the chipset's PAM registers
 * (hw/pci-host/pam.c) decide between isa-bios and the RAM under it, as
 * in 7.2: at reset every PAM segment routes to PCI, so the ROM shows.
 *
 * Only an image named with -bios runs: under KVM the vCPUs then start at
 * its reset vector (hw/i386/x86-boot.c).  The default image is mapped,
 * so the board's memory is 7.2's, but nothing executes it yet: without
 * -bios, -kernel boots through the direct loader, which opens the PAM
 * segments to RAM as firmware that shadowed itself would
 * (pc_chipset_init_as_firmware).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "exec/memory.h"
#include "hw/i386/pc.h"
#include "qemu/datadir.h"

#define ISA_BIOS_MAX (128 * 1024)

static MemoryRegion bios_mr, isa_bios_mr;

/* QEMU 7.2's words, without the program name; start-up path only */
static void G_GNUC_NORETURN bios_error(const char *name)
{
    fprintf(stderr, "qemu: could not load PC BIOS '%s'\n", name);
    exit(1);
}

bool pc_system_firmware_init(MachineState *ms, MemoryRegion *rom_memory,
                             Error **errp)
{
    const char *name = qemu_bios_name;
    g_autofree char *path = NULL;
    struct stat st;
    uint64_t size, isa_size;
    uint8_t *rom;
    int fd = -1;

    if (!name) {
        name = MACHINE_GET_CLASS(ms)->default_firmware;
    }
    if (!name) {
        return true;
    }
    path = qemu_find_file(name);
    if (path) {
        fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
        !st.st_size || st.st_size % 65536 || st.st_size > 0x40000000) {
        bios_error(name);
    }
    size = st.st_size;
    memory_region_transaction_begin();
    if (!memory_region_init_rom(&bios_mr, NULL, "pc.bios", size, errp)) {
        memory_region_transaction_commit();
        close(fd);
        return false;
    }
    /*
     * The file's pages, copied on write, over the ROM's own mapping: only
     * what the guest reads becomes resident (a -kernel boot reads none)
     */
    rom = memory_region_get_ram_ptr(&bios_mr);
    if (mmap(rom, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
             0) == MAP_FAILED) {
        uint64_t done = 0;

        while (done < size) {
            ssize_t n = pread(fd, rom + done, size - done, done);

            if (n <= 0) {
                bios_error(name);
            }
            done += n;
        }
    }
    close(fd);
    memory_region_add_subregion(rom_memory, (uint32_t)-size, &bios_mr);
    isa_size = MIN(size, ISA_BIOS_MAX);
    memory_region_init_alias(&isa_bios_mr, NULL, "isa-bios", &bios_mr,
                             size - isa_size, isa_size);
    memory_region_add_subregion_overlap(rom_memory, 0x100000 - isa_size,
                                        &isa_bios_mr, 1);
    memory_region_transaction_commit();
    return true;
}
