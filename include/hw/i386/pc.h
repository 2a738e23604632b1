/*
 * PC machine types: the pc_compat arrays (hw/i386/pc.c) and the versioned
 * i440fx (pc_piix.c) and q35 (pc_q35.c) types.
 */
#ifndef HW_I386_PC_H
#define HW_I386_PC_H

#include "hw/boards.h"

#define TYPE_PC_MACHINE "generic-pc-machine"

/*
 * A version's compat entries: pc_compat_X_Y holds what machine types up to
 * X.Y need to keep the guest ABI they had before version X.Y+1 changed a
 * default.  Machine X.Y applies its own array and every newer one.
 */
typedef struct PCCompat {
    const char *version;          /* "7.2" */
    const GlobalProperty *props;
    size_t len;
} PCCompat;

/* Every pc_compat array, newest first, terminated by {NULL} */
extern const PCCompat pc_compat_arrays[];
const PCCompat *pc_compat_find(const char *version);

/*
 * A versioned PC machine type.  compat names the pc_compat array the
 * version adds (usually its own version; pc-q35-4.0.1 adds 4.0's and
 * pc-q35-4.0 none), options sets the class fields that changed.
 */
typedef struct PCMachineVersion {
    const char *version;
    const char *compat;
    MachineOptionsFunc *options;
} PCMachineVersion;

/*
 * Registers "<family>-<version>" for each entry, newest first.  Each
 * version's class init runs the next-newer version's first, then adds
 * its compat array and options.
 */
void pc_register_machine_versions(const char *family,
                                  const PCMachineVersion *versions,
                                  MachineOptionsFunc *base_options);

/* What changed after 5.1 on both families (the kvmclock device) */
void pc_5_1_options(MachineClass *mc);

bool pc_machine_init(MachineState *ms, Error **errp);
/* -bios: pc.bios below 4 GiB in rom_memory, isa-bios (hw/i386/pc_sysfw.c) */
bool pc_system_firmware_init(MachineState *ms, MemoryRegion *rom_memory,
                             Error **errp);
bool pc_machine_done(MachineState *ms, Error **errp);
/* The machine takes -device/device_add of vCPUs (hw/i386/pc-cpu-plug.c) */
void pc_cpu_hotplug_init(MachineState *ms);
/* The PCI memory space ("pci", under system RAM): where BARs map */
MemoryRegion *pc_pci_memory(void);

#endif
