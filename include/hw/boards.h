/*
 * Machine types: classes with their compat properties, and the machine
 * instance built from the command line.
 */
#ifndef HW_BOARDS_H
#define HW_BOARDS_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/qdev-core.h"
#include "qemu/option.h"
#include "qom/object.h"
#include "target/i386/cpu.h"

#define TYPE_MACHINE "machine"
#define TYPE_MACHINE_SUFFIX "-machine"
#define MACHINE_TYPE_NAME(name) (name TYPE_MACHINE_SUFFIX)

typedef struct MachineState MachineState;

typedef struct MachineClass {
    ObjectClass parent_class;

    const char *name;          /* "pc-q35-7.2" */
    const char *alias;         /* "q35" */
    const char *desc;
    const char *family;        /* "pc-q35", "pc-i440fx", NULL for none */
    bool is_default;
    bool deprecated;
    bool numa_mem_supported;
    bool hotpluggable_cpus;
    int max_cpus;
    const char *default_cpu_type;
    const char *default_ram_id;
    /* The -bios image when none is given ("bios-256k.bin"; NULL: none) */
    const char *default_firmware;

    /* {driver, property, value} entries, newest version's first */
    GPtrArray *compat_props;

    /* Guest-visible class fields the versioned options set */
    int default_cpu_version;        /* CPU_VERSION_LEGACY up to 4.0 */
    bool default_kernel_irqchip_split; /* pc-q35-4.0 */
    bool smp_prefer_sockets;        /* -smp N: sockets up to 6.1 */
    bool legacy_kvm_svm_default;    /* i440fx up to 2.1 */
    bool legacy_kvm_x2apic_default; /* i440fx up to 1.7 */
    bool no_gigabyte_align;         /* i440fx up to 1.7: low RAM to 3.5G */
    bool no_smm_with_kvm;           /* i440fx up to 2.3: smm=off under KVM */
    bool small_acpi_data;           /* i440fx up to 2.0: 64 KiB, not 160 */
    bool no_amd_1tb_hole;           /* up to 7.0: no AMD HT window in e820 */
    bool kvmclock_if_cpu_has_it;    /* up to 5.1: kvmclock device only
                                     * when the vCPU has the feature */

    /* RAM mapped below 4 GiB (the rest goes above); NULL: up to 2 GiB */
    uint64_t (*ram_below_4g)(MachineState *ms);

    /* Board construction (NULL: no devices, as "none") */
    bool (*init)(MachineState *ms, Error **errp);
    /* After -device: what depends on every device (ACPI tables) */
    bool (*done)(MachineState *ms, Error **errp);
} MachineClass;

#define MACHINE_CLASS(oc) ((MachineClass *)(oc))
#define MACHINE_GET_CLASS(obj) MACHINE_CLASS(OBJECT_GET_CLASS(obj))

typedef struct SMPConfiguration {
    unsigned cpus, sockets, dies, cores, threads, max_cpus;
} SMPConfiguration;

/*
 * A possible vCPU (one of -smp maxcpus): its topology ids, its APIC ID as
 * QEMU 7.2 derives it, and the vCPU once one is plugged
 */
typedef struct CPUSlot {
    unsigned socket, die, core, thread;
    uint32_t apic_id;
    int node_id;                /* -1: no NUMA node (yet) */
    X86CPU *cpu;                /* NULL: empty */
} CPUSlot;

typedef enum KernelIrqchip {
    KERNEL_IRQCHIP_ON,
    KERNEL_IRQCHIP_OFF,
    KERNEL_IRQCHIP_SPLIT,
} KernelIrqchip;

struct MachineState {
    Object parent_obj;

    /* Machine properties (-machine key=value) */
    char *kernel_irqchip_str;   /* "on", "off", "split" or NULL */
    bool usb;
    bool dump_guest_core;
    bool mem_merge;
    char *memory_backend;
    int acpi;                   /* OnOffAuto */
    bool graphics;              /* accepted; there is no display */
    bool suppress_vmdesc;       /* accepted; there is no migration */

    /*
     * PC board properties (hw/i386/pc.c).  Modelled: i8042, pit,
     * max-ram-below-4g, x-oem-id, x-oem-table-id.  The others are
     * accepted and kept for QEMU compatibility; docs/machine-types.md.
     */
    int smm, vmport, pic, pit;  /* OnOffAuto */
    bool hpet, sata, i8042, smbus, default_bus_bypass_iommu;
    uint64_t max_ram_below_4g;  /* 0 until set, or resolved at init */
    char *smbios_ep_type;       /* "32" or "64" */
    char *oem_id, *oem_table_id;
    bool hmat;                  /* -machine hmat=on: the guest gets an HMAT */

    /* From the rest of the command line */
    uint64_t ram_size;
    SMPConfiguration smp;
    char *kernel_filename, *initrd_filename, *kernel_cmdline;
    char *boot_order, *boot_once;   /* -boot order=, once= (checked) */
    bool boot_menu;                 /* -boot menu= */
    int64_t boot_splash_time;       /* -boot splash-time=, -1: not given */
    int64_t boot_reboot_timeout;    /* -boot reboot-timeout=, -1 default */
    X86CPUOptions *cpu_opts;
    GPtrArray *global_props;    /* -global, GlobalProperty* */

    /* Built at init */
    KernelIrqchip kernel_irqchip;
    X86CPUEnv cpu_env;
    X86HostCaps *host;
    GPtrArray *cpus;            /* X86CPU*, in creation order */
    CPUSlot *possible_cpus;     /* smp.max_cpus of them, by cpu-index */
    struct NumaState *numa_state;   /* NULL: no -numa (sysemu/numa.h) */
    bool numa_complete;         /* set-numa-node is over */
    uint64_t acpi_rsdp;         /* 0 without ACPI tables */
};

#define MACHINE(obj) ((MachineState *)(obj))

/*
 * The possible vCPUs (ms->possible_cpus from -smp), and the APIC IDs of
 * a topology: each level's ids packed in as few bits as hold them, threads
 * lowest, as QEMU 7.2 (and CPUID leaf 0xB) have them
 */
void machine_init_possible_cpus(MachineState *ms);
uint32_t machine_apic_id_from_topo(const SMPConfiguration *smp,
                                   unsigned socket, unsigned die,
                                   unsigned core, unsigned thread);
void machine_topo_from_apic_id(const SMPConfiguration *smp, uint32_t apic_id,
                               unsigned *socket, unsigned *die,
                               unsigned *core, unsigned *thread);
/* The vCPUs' type: -cpu's, else the machine type's default */
const char *machine_cpu_type(MachineState *ms);
/* One more than the largest possible APIC ID (fw_cfg's MAX_CPUS) */
uint32_t machine_apic_id_limit(MachineState *ms);
/* The slot of a possible APIC ID, and its index; NULL if none */
CPUSlot *machine_find_cpu_slot(MachineState *ms, uint32_t apic_id,
                               unsigned *index);

/* Registers one machine type; class_init data is the MachineClass setup. */
typedef void MachineOptionsFunc(MachineClass *mc);
void machine_register_type(const char *name, const char *parent,
                           MachineOptionsFunc *options);

/*
 * The newest type of a family (its TYPE name): the one that may carry the
 * family's alias and be the default, so looking those up need not set up
 * every machine class
 */
void machine_register_newest(const char *type);

/* "q35" -> pc-q35-8.1's class; NULL if unknown. */
MachineClass *machine_find_class(const char *name);
MachineClass *machine_get_default_class(void);
/* Machine classes in -machine help order. */
GSList *machine_class_list_sorted(void);
void machine_help(void);
/*
 * The -smp keys (keyval, every -smp merged; NULL or empty: none given)
 * into ms->smp, missing values computed as QEMU 7.2 does for the machine
 * type; false with QEMU's text on errors
 */
bool machine_parse_smp(MachineState *ms, MachineClass *mc, QemuOpts *opts,
                       Error **errp);
/* -machine smp.KEY=VALUE: QEMU's other spelling of -smp KEY=VALUE */
void machine_take_smp_keys(QemuOpts *machine, QemuOpts *smp);
/*
 * The -machine keys (keyval, merged) as properties of ms; "type" and
 * "accel" are left to the caller.  QEMU 7.2 spells a key with '-' for '_'
 * ("kernel_irqchip"); a dotted key names a member, which no property here
 * has.  Stops at the first error.
 */
bool machine_apply_options(MachineState *ms, QemuOpts *opts, Error **errp);
/* The keys of -m, checked as each -m is parsed */
extern const QemuOptDesc machine_memory_opts[];
/*
 * The merged -m keys into ms->ram_size: a size without a suffix is in MiB,
 * RAM is rounded up to 8 KiB; slots and maxmem (memory hotplug) are
 * checked as QEMU does and otherwise not used.
 */
bool machine_parse_memory(MachineState *ms, QemuOpts *opts, Error **errp);
/*
 * Warns, as QEMU 7.2 does once the machine is built, for each -global
 * that applied to nothing: "not used" for a non-hotpluggable device type,
 * "has invalid class name" for a driver that is no device type, neither
 * for QEMU 7.2's device types this tree lacks (qdev_prop_check_globals)
 */
void machine_check_globals(MachineState *ms);
/* QEMU 7.2's device type names (hw/core/qemu72-device-types.c) */
extern const char *const qemu72_device_types[];
/* -machine <type>,help: prints the type's properties */
void machine_class_help(MachineClass *mc);

void compat_props_add(GPtrArray *arr, const GlobalProperty *props,
                      size_t nelem);

/* A version's hw_compat array (hw/core/machine.c), for every family */
typedef struct HWCompat {
    const char *version;
    const GlobalProperty *props;
    size_t len;
} HWCompat;
const HWCompat *hw_compat_find(const char *version);

/* The running machine (after vl.c created it), or NULL */
extern MachineState *current_machine;

/*
 * The environment CPU expansion runs in for a machine type: accelerator,
 * host, irqchip mode and the machine's legacy KVM defaults.  Shared by the
 * emulator and by tools that compute CPUID tables offline (cpuid-table).
 */
void machine_class_init_cpu_env(MachineClass *mc, X86CPUEnv *env,
                                X86Accel accel, const X86HostCaps *host,
                                KernelIrqchip irqchip);
/* The irqchip mode a machine type uses when kernel-irqchip is not given */
KernelIrqchip machine_class_default_irqchip(MachineClass *mc);

/*
 * Allocates the machine's RAM block (mc->default_ram_id, or the memory
 * backend's id) and, for "none", maps it at 0; PC boards map it themselves
 */
bool machine_init_ram(MachineState *ms, Error **errp);

/*
 * Creates every vCPU as design §1/§2 say: class from -cpu (or the default
 * type), properties in precedence order, expansion, filtering, CPUID, and
 * adds it to /machine/unattached/device[N].
 */
bool machine_create_cpus(MachineState *ms, Error **errp);

#endif
