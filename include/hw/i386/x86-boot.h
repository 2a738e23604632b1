/*
 * Direct kernel boot (-kernel/-initrd/-append) on the PC: Linux bzImage
 * through the 64-bit boot protocol, ELF kernels with a Xen PVH entry note
 * (Linux vmlinux among them) and multiboot (v1) kernels, plus the e820
 * memory map they are given.
 */
#ifndef HW_I386_X86_BOOT_H
#define HW_I386_X86_BOOT_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/boards.h"

typedef enum E820Type {
    E820_RAM = 1,
    E820_RESERVED = 2,
    E820_ACPI = 3,
} E820Type;

typedef struct E820Entry {
    uint64_t addr;
    uint64_t size;
    uint32_t type;
} E820Entry;

#define E820_MAX_ENTRIES 16

/* The PC's memory map for ms->ram_size; returns the number of entries. */
int pc_e820_table(MachineState *ms, E820Entry *table, int max);

typedef enum X86BootKind {
    X86_BOOT_NONE,
    X86_BOOT_MULTIBOOT,
    X86_BOOT_PVH,
    X86_BOOT_LINUX64,
} X86BootKind;

/* How vCPU 0 enters the loaded kernel */
typedef struct X86BootState {
    X86BootKind kind;
    uint64_t entry;
    uint64_t rsi, rbx, rax;      /* register arguments of the protocol */
    bool long_mode;              /* 64-bit entry with identity page tables */
} X86BootState;

/*
 * Loads ms->kernel_filename (and initrd, cmdline) into guest RAM and fills
 * *boot.  rsdp is the ACPI RSDP address (0: none).  Errors name the file.
 */
bool x86_load_kernel(MachineState *ms, uint64_t rsdp, X86BootState *boot,
                     Error **errp);

/*
 * The -kernel and -initrd files' contents, for the loaders proper.
 * initrd is NULL without -initrd (ms->initrd_filename NULL) or when the
 * file could not be read: initrd_error then says why, and each format
 * words the error as QEMU 7.2 does for it.
 */
typedef struct X86KernelFiles {
    const uint8_t *kernel;
    size_t kernel_size;
    const uint8_t *initrd;
    size_t initrd_size;
    const char *initrd_error;
} X86KernelFiles;

/*
 * Loads a kernel from its bytes: what x86_load_kernel does once it has
 * read the files.  ms->kernel_filename and ms->initrd_filename only name
 * them in errors; ms->kernel_cmdline is passed on.  Opens no file and
 * needs no KVM (the fuzz targets call it on guest RAM alone).
 */
bool x86_load_kernel_from_buffer(MachineState *ms, const X86KernelFiles *f,
                                 uint64_t rsdp, X86BootState *boot,
                                 Error **errp);

/* Puts vCPU 0 at the kernel's entry (and the APs in wait-for-SIPI). */
bool x86_boot_set_vcpus(MachineState *ms, const X86BootState *boot,
                        Error **errp);

/*
 * Boots the machine from -kernel under KVM: loads it, sets vCPU 0 at its
 * entry, reloads on every reset and starts the vCPU threads with the VM.
 * Without -kernel no vCPU runs (this tree has no firmware).
 */
bool x86_boot_machine(MachineState *ms, uint64_t rsdp, Error **errp);

#endif
