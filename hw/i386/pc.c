/*
 * PC machines: the pc_compat arrays, the versioned type machinery that
 * i440fx and q35 share, and the board properties (smm, hpet, ...).
 *
 * The arrays are data: one per version that changed a guest-visible
 * default.  An entry goes into the array of the last version whose guest
 * ABI lacked the new default.  CPU entries are those of QEMU 7.2 (the
 * guest-ABI rule of design §1), plus this tree's own in pc_compat_8_0 and
 * pc_compat_7_2.
 */
#include <inttypes.h>
#include <string.h>

#include "exec/memory.h"
#include "hw/acpi/pm.h"
#include "hw/i386/acpi-build.h"
#include "hw/i386/fw_cfg.h"
#include "hw/i386/kvm-irqchip.h"
#include "hw/i386/pc-irqchip.h"
#include "hw/i386/pc.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "qemu/datadir.h"
#include "qemu/option.h"
#include "sysemu/device.h"
#include "sysemu/kvm.h"
#include "sysemu/reset.h"

#define CPU(model) model "-x86_64-cpu"
#define ALL_CPUS "x86_64-cpu"

/* qemu32, qemu64 and athlon named the QEMU version until 2.5 */
#define PC_CPU_MODEL_IDS(v)                                          \
    { CPU("qemu32"), "model-id", "QEMU Virtual CPU version " v },     \
    { CPU("qemu64"), "model-id", "QEMU Virtual CPU version " v },     \
    { CPU("athlon"), "model-id", "QEMU Virtual CPU version " v },

/*
 * This tree's second step (8.1): PV TLB flush, PV send-IPI, PV sched-yield
 * and Hyper-V's PV TLB flush, for hosts that run more vCPUs than CPUs
 */
static const GlobalProperty pc_compat_8_0[] = {
    { ALL_CPUS, "x-kvm-auto-enable-pv-tlb-flush", "off" },
    { ALL_CPUS, "x-kvm-auto-enable-pv-ipi", "off" },
    { ALL_CPUS, "x-kvm-auto-enable-pv-sched-yield", "off" },
    { ALL_CPUS, "x-hv-auto-enable-tlbflush", "off" },
};

/* This tree's first new defaults (8.0): PV spinlocks and Hyper-V PV IPIs */
static const GlobalProperty pc_compat_7_2[] = {
    { ALL_CPUS, "x-kvm-auto-enable-pv-unhalt", "off" },
    { ALL_CPUS, "x-hv-auto-enable-ipi", "off" },
    /* Not guest ABI: which command lines start on a host without Hyper-V */
    { ALL_CPUS, "x-hv-refuse-unsupported", "off" },
};

static const GlobalProperty pc_compat_6_1[] = {
    { ALL_CPUS, "hv-version-id-build", "0x1bbc" },
    { ALL_CPUS, "hv-version-id-major", "0x0006" },
    { ALL_CPUS, "hv-version-id-minor", "0x0001" },
    { "ICH9-LPC", "x-keep-pci-slot-hpc", "false" },
};

static const GlobalProperty pc_compat_6_0[] = {
    { CPU("qemu64"), "family", "6" },
    { CPU("qemu64"), "model", "6" },
    { CPU("qemu64"), "stepping", "3" },
    { ALL_CPUS, "x-vendor-cpuid-only", "off" },
    /* PCIe ports' native hot-plug again (docs/devices.md, "Bridges") */
    { "ICH9-LPC", "acpi-pci-hotplug-with-bridge-support", "off" },
    { "ICH9-LPC", "x-keep-pci-slot-hpc", "true" },
};

static const GlobalProperty pc_compat_5_2[] = {
    { "ICH9-LPC", "x-smi-cpu-hotunplug", "off" },
};

static const GlobalProperty pc_compat_5_1[] = {
    { "ICH9-LPC", "x-smi-cpu-hotplug", "off" },
    { ALL_CPUS, "kvm-msi-ext-dest-id", "off" },
};

static const GlobalProperty pc_compat_4_2[] = {
    { "mch", "smbase-smram", "off" },
};

static const GlobalProperty pc_compat_3_1[] = {
    { ALL_CPUS, "x-intel-pt-auto-level", "off" },
    { CPU("Opteron_G3"), "rdtscp", "off" },
    { CPU("Opteron_G4"), "rdtscp", "off" },
    { CPU("Opteron_G4"), "npt", "off" },
    { CPU("Opteron_G4"), "nrip-save", "off" },
    { CPU("Opteron_G5"), "rdtscp", "off" },
    { CPU("Opteron_G5"), "npt", "off" },
    { CPU("Opteron_G5"), "nrip-save", "off" },
    { CPU("EPYC"), "npt", "off" },
    { CPU("EPYC"), "nrip-save", "off" },
    { CPU("EPYC-IBPB"), "npt", "off" },
    { CPU("EPYC-IBPB"), "nrip-save", "off" },
    { CPU("Skylake-Client"), "mpx", "on" },
    { CPU("Skylake-Client-IBRS"), "mpx", "on" },
    { CPU("Skylake-Server"), "mpx", "on" },
    { CPU("Skylake-Server-IBRS"), "mpx", "on" },
    { CPU("Cascadelake-Server"), "mpx", "on" },
    { CPU("Icelake-Client"), "mpx", "on" },
    { CPU("Icelake-Server"), "mpx", "on" },
    { CPU("Cascadelake-Server"), "stepping", "5" },
};

static const GlobalProperty pc_compat_3_0[] = {
    { ALL_CPUS, "x-hv-synic-kvm-only", "on" },
    { CPU("Skylake-Server"), "pku", "off" },
    { CPU("Skylake-Server-IBRS"), "pku", "off" },
};

static const GlobalProperty pc_compat_2_12[] = {
    { ALL_CPUS, "legacy-cache", "on" },
    { ALL_CPUS, "topoext", "false" },
    { CPU("EPYC"), "xlevel", "0x8000000a" },
    { CPU("EPYC-IBPB"), "xlevel", "0x8000000a" },
};

static const GlobalProperty pc_compat_2_11[] = {
    { ALL_CPUS, "x-migrate-smi-count", "off" },
    { CPU("Skylake-Server"), "clflushopt", "off" },
};

static const GlobalProperty pc_compat_2_10[] = {
    { ALL_CPUS, "x-hv-max-vps", "0x40" },
    { "i440FX-pcihost", "x-pci-hole64-fix", "off" },
    { "q35-pcihost", "x-pci-hole64-fix", "off" },
};

static const GlobalProperty pc_compat_2_9[] = {
    { "mch", "extended-tseg-mbytes", "0" },
};

static const GlobalProperty pc_compat_2_8[] = {
    { ALL_CPUS, "tcg-cpuid", "off" },
    { "kvmclock", "x-mach-use-reliable-get-clock", "off" },
    { "ICH9-LPC", "x-smi-broadcast", "off" },
    { ALL_CPUS, "vmware-cpuid-freq", "false" },
    { CPU("Haswell"), "stepping", "1" },
};

static const GlobalProperty pc_compat_2_7[] = {
    { "isa-pcspk", "migrate", "off" },
    { ALL_CPUS, "l3-cache", "off" },
    { ALL_CPUS, "full-cpuid-auto-level", "off" },
    { CPU("Opteron_G3"), "family", "15" },
    { CPU("Opteron_G3"), "model", "6" },
    { CPU("Opteron_G3"), "stepping", "1" },
};

static const GlobalProperty pc_compat_2_6[] = {
    { ALL_CPUS, "cpuid-0xb", "off" },
    { ALL_CPUS, "fill-mtrr-mask", "off" },
};

static const GlobalProperty pc_compat_2_4[] = {
    PC_CPU_MODEL_IDS("2.4.0")
    { ALL_CPUS, "check", "off" },
    { CPU("Haswell"), "abm", "off" },
    { CPU("Haswell-noTSX"), "abm", "off" },
    { CPU("Broadwell"), "abm", "off" },
    { CPU("Broadwell-noTSX"), "abm", "off" },
    { CPU("host"), "host-cache-info", "on" },
    { CPU("qemu64"), "sse4a", "on" },
    { CPU("qemu64"), "abm", "on" },
    { CPU("qemu64"), "popcnt", "on" },
    { CPU("qemu32"), "popcnt", "on" },
    { CPU("Opteron_G2"), "rdtscp", "on" },
    { CPU("Opteron_G3"), "rdtscp", "on" },
    { CPU("Opteron_G4"), "rdtscp", "on" },
    { CPU("Opteron_G5"), "rdtscp", "on" },
};

static const GlobalProperty pc_compat_2_3[] = {
    PC_CPU_MODEL_IDS("2.3.0")
    { ALL_CPUS, "kvm-no-smi-migration", "on" },
    { ALL_CPUS, "arat", "off" },
    { CPU("qemu64"), "min-level", "4" },
    { CPU("kvm64"), "min-level", "5" },
    { CPU("pentium3"), "min-level", "2" },
    { CPU("n270"), "min-level", "5" },
    { CPU("Conroe"), "min-level", "4" },
    { CPU("Penryn"), "min-level", "4" },
    { CPU("Nehalem"), "min-level", "4" },
    { CPU("n270"), "min-xlevel", "0x8000000a" },
    { CPU("Penryn"), "min-xlevel", "0x8000000a" },
    { CPU("Conroe"), "min-xlevel", "0x8000000a" },
    { CPU("Nehalem"), "min-xlevel", "0x8000000a" },
    { CPU("Westmere"), "min-xlevel", "0x8000000a" },
    { CPU("SandyBridge"), "min-xlevel", "0x8000000a" },
    { CPU("IvyBridge"), "min-xlevel", "0x8000000a" },
    { CPU("Haswell"), "min-xlevel", "0x8000000a" },
    { CPU("Haswell-noTSX"), "min-xlevel", "0x8000000a" },
    { CPU("Broadwell"), "min-xlevel", "0x8000000a" },
    { CPU("Broadwell-noTSX"), "min-xlevel", "0x8000000a" },
};

static const GlobalProperty pc_compat_2_2[] = {
    PC_CPU_MODEL_IDS("2.2.0")
    { CPU("kvm64"), "vme", "off" },
    { CPU("kvm32"), "vme", "off" },
    { CPU("Conroe"), "vme", "off" },
    { CPU("Penryn"), "vme", "off" },
    { CPU("Nehalem"), "vme", "off" },
    { CPU("Westmere"), "vme", "off" },
    { CPU("SandyBridge"), "vme", "off" },
    { CPU("Haswell"), "vme", "off" },
    { CPU("Broadwell"), "vme", "off" },
    { CPU("Opteron_G1"), "vme", "off" },
    { CPU("Opteron_G2"), "vme", "off" },
    { CPU("Opteron_G3"), "vme", "off" },
    { CPU("Opteron_G4"), "vme", "off" },
    { CPU("Opteron_G5"), "vme", "off" },
    { CPU("Haswell"), "f16c", "off" },
    { CPU("Haswell"), "rdrand", "off" },
    { CPU("Broadwell"), "f16c", "off" },
    { CPU("Broadwell"), "rdrand", "off" },
};

static const GlobalProperty pc_compat_2_1[] = {
    PC_CPU_MODEL_IDS("2.1.0")
    { CPU("coreduo"), "vmx", "on" },
    { CPU("core2duo"), "vmx", "on" },
};

static const GlobalProperty pc_compat_2_0[] = {
    PC_CPU_MODEL_IDS("2.0.0")
    { "PIIX4_PM", "memory-hotplug-support", "off" },
    { "ICH9-LPC", "memory-hotplug-support", "off" },
};

static const GlobalProperty pc_compat_1_7[] = {
    PC_CPU_MODEL_IDS("1.7.0")
    { "PIIX4_PM", "acpi-pci-hotplug-with-bridge-support", "off" },
    { "hpet", "hpet-intcap", "4" },
};

static const GlobalProperty pc_compat_1_6[] = {
    PC_CPU_MODEL_IDS("1.6.0")
    { CPU("qemu64"), "model", "2" },
    { CPU("qemu32"), "model", "3" },
    { "i440FX-pcihost", "short_root_bus", "1" },
    { "q35-pcihost", "short_root_bus", "1" },
};

static const GlobalProperty pc_compat_1_5[] = {
    PC_CPU_MODEL_IDS("1.5.0")
    { CPU("Conroe"), "model", "2" },
    { CPU("Conroe"), "min-level", "2" },
    { CPU("Penryn"), "model", "2" },
    { CPU("Penryn"), "min-level", "2" },
    { CPU("Nehalem"), "model", "2" },
    { CPU("Nehalem"), "min-level", "2" },
    { ALL_CPUS, "pmu", "on" },
    { "i440FX-pcihost", "short_root_bus", "0" },
    { "q35-pcihost", "short_root_bus", "0" },
};

static const GlobalProperty pc_compat_1_4[] = {
    PC_CPU_MODEL_IDS("1.4.0")
    { CPU("486"), "model", "0" },
    { CPU("n270"), "movbe", "off" },
    { CPU("Westmere"), "pclmulqdq", "off" },
};

#define COMPAT(v, arr) { v, arr, G_N_ELEMENTS(arr) }
#define NO_COMPAT(v) { v, NULL, 0 }

const PCCompat pc_compat_arrays[] = {
    COMPAT("8.0", pc_compat_8_0),
    COMPAT("7.2", pc_compat_7_2),
    NO_COMPAT("7.1"),
    NO_COMPAT("7.0"),
    NO_COMPAT("6.2"),
    COMPAT("6.1", pc_compat_6_1),
    COMPAT("6.0", pc_compat_6_0),
    COMPAT("5.2", pc_compat_5_2),
    COMPAT("5.1", pc_compat_5_1),
    NO_COMPAT("5.0"),
    COMPAT("4.2", pc_compat_4_2),
    NO_COMPAT("4.1"),
    NO_COMPAT("4.0"),
    COMPAT("3.1", pc_compat_3_1),
    COMPAT("3.0", pc_compat_3_0),
    COMPAT("2.12", pc_compat_2_12),
    COMPAT("2.11", pc_compat_2_11),
    COMPAT("2.10", pc_compat_2_10),
    COMPAT("2.9", pc_compat_2_9),
    COMPAT("2.8", pc_compat_2_8),
    COMPAT("2.7", pc_compat_2_7),
    COMPAT("2.6", pc_compat_2_6),
    NO_COMPAT("2.5"),
    COMPAT("2.4", pc_compat_2_4),
    COMPAT("2.3", pc_compat_2_3),
    COMPAT("2.2", pc_compat_2_2),
    COMPAT("2.1", pc_compat_2_1),
    COMPAT("2.0", pc_compat_2_0),
    COMPAT("1.7", pc_compat_1_7),
    COMPAT("1.6", pc_compat_1_6),
    COMPAT("1.5", pc_compat_1_5),
    COMPAT("1.4", pc_compat_1_4),
    { NULL },
};

const PCCompat *pc_compat_find(const char *version)
{
    const PCCompat *c;

    for (c = pc_compat_arrays; c->version; c++) {
        if (!strcmp(c->version, version)) {
            return c;
        }
    }
    return NULL;
}

/* Versioned types ----------------------------------------------------------- */

typedef struct PCVersionData {
    const char *family;
    const PCMachineVersion *versions;
    int index;
    MachineOptionsFunc *base_options;
} PCVersionData;

static void pc_version_options(MachineClass *mc, const PCVersionData *d,
                               int index)
{
    const PCMachineVersion *v = &d->versions[index];
    const PCCompat *c;

    if (index == 0) {
        d->base_options(mc);
    } else {
        pc_version_options(mc, d, index - 1);
        /* Only the newest version of a family carries the alias */
        mc->alias = NULL;
        mc->is_default = false;
    }
    if (v->compat) {
        const HWCompat *hw = hw_compat_find(v->compat);

        c = pc_compat_find(v->compat);
        g_assert(c && hw);
        /* QEMU's order: the version's hw_compat, then its pc_compat */
        compat_props_add(mc->compat_props, hw->props, hw->len);
        compat_props_add(mc->compat_props, c->props, c->len);
    }
    if (v->options) {
        v->options(mc);
    }
}

void pc_5_1_options(MachineClass *mc)
{
    mc->kvmclock_if_cpu_has_it = true;
}

/* Board properties ------------------------------------------------------ */

#define GiB (1ULL << 30)

static JsonNode *pc_get_u64(Object *obj, ObjectProperty *prop, Error **errp)
{
    uint64_t v = *(uint64_t *)((char *)obj + prop->offset);

    return json_node_init_int(json_node_alloc(), (gint64)v);
}

static bool pc_set_max_ram_below_4g(Object *obj, ObjectProperty *prop,
                                    JsonNode *value, Error **errp)
{
    GType t = JSON_NODE_HOLDS_VALUE(value) ? json_node_get_value_type(value)
                                           : G_TYPE_INVALID;
    uint64_t v;

    if (t == G_TYPE_STRING) {
        if (qemu_strtosz(json_node_get_string(value), 1, &v, NULL)) {
            error_setg(errp, "Parameter '%s' expects size", prop->name);
            return false;
        }
    } else if (t == G_TYPE_INT64 && json_node_get_int(value) >= 0) {
        v = json_node_get_int(value);
    } else {
        error_setg(errp, "Parameter '%s' expects size", prop->name);
        return false;
    }
    if (v > 4 * GiB) {
        error_setg(errp, "Machine option 'max-ram-below-4g=%" PRIu64
                   "' expects size less than or equal to 4G", v);
        return false;
    }
    if (v < (1u << 20)) {
        warn_report("Only %" PRIu64 " bytes of RAM below the 4GiB boundary,"
                    "BIOS may not work with less than 1MiB", v);
    }
    MACHINE(obj)->max_ram_below_4g = v;
    return true;
}

/* x-oem-id, x-oem-table-id: at most opaque bytes, space-padded in ACPI */
static bool pc_set_oem(Object *obj, ObjectProperty *prop, JsonNode *value,
                       Error **errp)
{
    char **field = (char **)((char *)obj + prop->offset);
    const char *s = object_prop_value_str(prop, value, errp);

    if (!s) {
        return false;
    }
    if (strlen(s) > prop->opaque) {
        error_setg(errp, "User specified %s value is bigger than %u bytes in "
                   "size", prop->name, (unsigned)prop->opaque);
        return false;
    }
    g_free(*field);
    *field = g_strdup(s);
    return true;
}

static bool pc_set_smbios_ep_type(Object *obj, ObjectProperty *prop,
                                  JsonNode *value, Error **errp)
{
    const char *s = object_prop_value_str(prop, value, errp);

    if (!s) {
        return false;
    }
    if (strcmp(s, "32") && strcmp(s, "64")) {
        error_setg(errp, "Parameter '%s' does not accept value '%s'",
                   prop->name, s);
        return false;
    }
    g_free(MACHINE(obj)->smbios_ep_type);
    MACHINE(obj)->smbios_ep_type = g_strdup(s);
    return true;
}

#define PCFIELD(name, kind, field, def, desc)                               \
    object_class_property_add_field(oc, name, kind,                        \
                                    offsetof(MachineState, field), def, desc)

/*
 * inject-nmi: an NMI to every vCPU (KVM_NMI; under qtest nothing runs),
 * as QEMU 7.2's x86 machines do; machine none has no NMI to give
 */
JsonNode *qmp_inject_nmi(Error **errp)
{
    if (!current_machine ||
        !object_dynamic_cast(OBJECT(current_machine), TYPE_PC_MACHINE)) {
        error_setg(errp, "this feature or command is not currently "
                   "supported");
        return NULL;
    }
    if (kvm_enabled()) {
        kvm_inject_nmi_all();
    }
    return qmp_empty_return();
}

static void pc_machine_class_init(ObjectClass *oc, void *data)
{
    ObjectProperty *p;

    /* An x86 machine property in QEMU 7.2: "none" has no acpi */
    PCFIELD("acpi", PROP_KIND_ONOFFAUTO, acpi, "auto",
            "Build ACPI tables and the PM block");
    PCFIELD("smm", PROP_KIND_ONOFFAUTO, smm, "auto",
            "System management mode (not emulated here)");
    PCFIELD("vmport", PROP_KIND_ONOFFAUTO, vmport, "auto",
            "VMware I/O port backdoor (not emulated here)");
    PCFIELD("pic", PROP_KIND_ONOFFAUTO, pic, "auto",
            "i8259 interrupt controllers");
    PCFIELD("pit", PROP_KIND_ONOFFAUTO, pit, "auto",
            "i8254 interval timer (off: none in the kernel irqchip)");
    PCFIELD("hpet", PROP_KIND_BOOL, hpet, "on",
            "Enable/disable high precision event timer emulation");
    PCFIELD("sata", PROP_KIND_BOOL, sata, "on",
            "AHCI SATA controller on q35 (ich9-ahci at 00:1f.2)");
    PCFIELD("i8042", PROP_KIND_BOOL, i8042, "on",
            "i8042 keyboard controller at ports 0x60/0x64");
    PCFIELD("smbus", PROP_KIND_BOOL, smbus, "on",
            "SMBus controller on q35 (ICH9-SMB at 00:1f.3, SPD EEPROMs)");
    /* 7.2's machine_initfn adds it to every machine with NUMA */
    p = PCFIELD("hmat", PROP_KIND_BOOL, hmat, "off",
                "Set on/off to enable/disable ACPI Heterogeneous Memory "
                "Attribute Table (HMAT)");
    p->instance_only = true;
    PCFIELD("default-bus-bypass-iommu", PROP_KIND_BOOL,
            default_bus_bypass_iommu, "off",
            "PCI buses bypass the IOMMU by default");
    p = object_class_property_add(oc, "max-ram-below-4g", "size", pc_get_u64,
                                  pc_set_max_ram_below_4g,
                                  "Upper bound of the RAM mapped below 4G");
    p->offset = offsetof(MachineState, max_ram_below_4g);
    p = object_class_property_add(oc, "smbios-entry-point-type", "str",
                                  object_prop_get_str_at_offset,
                                  pc_set_smbios_ep_type,
                                  "SMBIOS entry point: 32 or 64 (bit)");
    p->offset = offsetof(MachineState, smbios_ep_type);
    p->defval = g_strdup("32");
    p = object_class_property_add(oc, "x-oem-id", "string",
                                  object_prop_get_str_at_offset, pc_set_oem,
                                  "OEM ID of the ACPI tables (up to 6 bytes)");
    p->offset = offsetof(MachineState, oem_id);
    p->opaque = 6;
    p->defval = g_strdup("BOCHS ");
    p = object_class_property_add(oc, "x-oem-table-id", "string",
                                  object_prop_get_str_at_offset, pc_set_oem,
                                  "OEM table ID of the ACPI tables (up to 8 "
                                  "bytes)");
    p->offset = offsetof(MachineState, oem_table_id);
    p->opaque = 8;
    p->defval = g_strdup("BXPC    ");
}

/*
 * RAM below 4 GiB as QEMU 7.2 lays it out (the PCI hole takes the rest):
 * q35 keeps up to 2.75 GiB low whole, else 2 GiB; i440fx keeps up to
 * max-ram-below-4g (3.5 GiB) low whole, else 3 GiB (3.5 GiB up to
 * pc-i440fx-1.7).  max-ram-below-4g lowers either.  Also resolves the
 * property to the value QEMU reports after init.
 */
static uint64_t pc_ram_below_4g(MachineState *ms)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    uint64_t lowmem;

    if (mc->family && !strcmp(mc->family, "pc-q35")) {
        if (!ms->max_ram_below_4g) {
            ms->max_ram_below_4g = 4 * GiB;
        }
        lowmem = ms->ram_size >= 0xb0000000ULL ? 0x80000000ULL
                                               : 0xb0000000ULL;
        if (lowmem > ms->max_ram_below_4g) {
            lowmem = ms->max_ram_below_4g;
        }
    } else {
        if (!ms->max_ram_below_4g) {
            ms->max_ram_below_4g = 0xe0000000ULL;
        }
        lowmem = ms->max_ram_below_4g;
        if (ms->ram_size >= ms->max_ram_below_4g && !mc->no_gigabyte_align &&
            lowmem > 0xc0000000ULL) {
            lowmem = 0xc0000000ULL;
        }
    }
    return MIN(ms->ram_size, lowmem);
}

static void pc_version_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);
    const PCVersionData *d = data;
    const char *tn = object_class_get_name(oc);

    mc->name = g_strndup(tn, strlen(tn) - strlen(TYPE_MACHINE_SUFFIX));
    mc->family = d->family;
    mc->default_ram_id = "pc.ram";
    mc->default_cpu_type = CPU("qemu64");
    mc->hotpluggable_cpus = true;
    mc->default_cpu_version = 1;
    mc->init = pc_machine_init;
    mc->done = pc_machine_done;
    mc->ram_below_4g = pc_ram_below_4g;
    pc_version_options(mc, d, d->index);
}

void pc_register_machine_versions(const char *family,
                                  const PCMachineVersion *versions,
                                  MachineOptionsFunc *base_options)
{
    int i;

    for (i = 0; versions[i].version; i++) {
        PCVersionData *d = g_new0(PCVersionData, 1);
        TypeInfo *ti = g_new0(TypeInfo, 1);

        d->family = family;
        d->versions = versions;
        d->index = i;
        d->base_options = base_options;
        ti->name = g_strdup_printf("%s-%s" TYPE_MACHINE_SUFFIX, family,
                                   versions[i].version);
        ti->parent = TYPE_PC_MACHINE;
        ti->class_init = pc_version_class_init;
        ti->class_data = d;
        type_register_static(ti);
        if (i == 0) {
            machine_register_newest(ti->name);
        }
    }
}

static void pc_register_types(void)
{
    static const TypeInfo pc_machine_info = {
        .name = TYPE_PC_MACHINE,
        .parent = TYPE_MACHINE,
        .abstract = true,
        .class_init = pc_machine_class_init,
    };

    type_register_static(&pc_machine_info);
}
type_init(pc_register_types)

/*
 * Guest RAM as QEMU 7.2's PC maps it (ram-below-4g, ram-above-4g), and
 * the PCI address space under it at priority -1, holding the firmware
 * (pc_sysfw.c) and "pc.rom": 128 KiB of read-only memory at
 * 0xC0000-0xDFFFF, 7.2's option ROM space, which the PAM registers show
 * where they route a segment to PCI (zeros: no option ROM is placed there)
 */
#define PC_ROM_BASE 0xc0000
#define PC_ROM_SIZE 0x20000

static MemoryRegion pci_memory, option_rom;

MemoryRegion *pc_pci_memory(void)
{
    return &pci_memory;
}

static bool pc_memory_init(MachineState *ms, Error **errp)
{
    bool ok;

    memory_region_transaction_begin();
    memory_map_pc_ram();
    memory_region_init(&pci_memory, NULL, "pci", UINT64_MAX);
    memory_region_add_subregion_overlap(get_system_memory(), 0, &pci_memory,
                                        -1);
    ok = memory_region_init_rom(&option_rom, NULL, "pc.rom", PC_ROM_SIZE,
                                errp);
    if (ok) {
        memory_region_add_subregion_overlap(&pci_memory, PC_ROM_BASE,
                                            &option_rom, 1);
    }
    memory_region_transaction_commit();
    return ok;
}

/*
 * Ports every PC has without a device behind them in QEMU 7.2: the POST
 * diagnostic port 0x80 and the FPU error port 0xf0 read all-ones and
 * take writes (QEMU's 0xf0 write lowers FERR, which KVM never raises)
 */
static MemoryRegion ioport80_io, ioportf0_io;

static uint64_t pc_ioport_read(void *opaque, hwaddr addr, unsigned size)
{
    return UINT64_MAX;
}

static void pc_ioport_write(void *opaque, hwaddr addr, uint64_t data,
                            unsigned size)
{
}

static const MemoryRegionOps pc_ioport_ops = {
    .read = pc_ioport_read,
    .write = pc_ioport_write,
    .impl.min_access_size = 1,
    .impl.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static void pc_basic_ports_init(void)
{
    memory_region_init_io(&ioport80_io, NULL, &pc_ioport_ops, NULL,
                          "ioport80", 1);
    memory_region_add_subregion(get_system_io(), 0x80, &ioport80_io);
    memory_region_init_io(&ioportf0_io, NULL, &pc_ioport_ops, NULL,
                          "ioportF0", 1);
    memory_region_add_subregion(get_system_io(), 0xf0, &ioportf0_io);
}

/*
 * -boot order= and once=: a PC boots from floppy (a, b), disk (c), CD-ROM
 * (d) or network (n), as its firmware interface names them
 */
static bool pc_boot_check(MachineState *ms, Error **errp)
{
    const char *const lists[] = { ms->boot_order, ms->boot_once };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(lists); i++) {
        const char *p;

        for (p = lists[i]; p && *p; p++) {
            if (!strchr("abcdn", *p)) {
                error_setg(errp, "Invalid boot device for PC: '%c'", *p);
                return false;
            }
        }
    }
    return true;
}

/*
 * The board: RAM, vCPUs, the boot device check, the devices
 * (hw/i386/pc-devices.c), the power-button hook.  ACPI tables come when
 * -device is done (pc_machine_done).
 */
bool pc_machine_init(MachineState *ms, Error **errp)
{
    /*
     * usb=on (-usb): i440fx gets piix3-usb-uhci (hw/i386/pc-devices.c);
     * QEMU 7.2's q35 gets ICH9's EHCI with its UHCI companions, which this
     * tree does not have
     */
    if (ms->usb && MACHINE_GET_CLASS(ms)->family &&
        !strcmp(MACHINE_GET_CLASS(ms)->family, "pc-q35")) {
        error_setg(errp, "usb=on: USB is not supported by this build yet: "
                   "no EHCI controller is emulated");
        return false;
    }
    if (MACHINE_GET_CLASS(ms)->no_smm_with_kvm &&
        ms->cpu_env.accel == X86_ACCEL_KVM) {
        ms->smm = ON_OFF_AUTO_OFF;      /* whatever -machine smm= said */
    }
    if (!pc_memory_init(ms, errp) ||
        !pc_system_firmware_init(ms, &pci_memory, errp)) {
        return false;
    }
    if (!machine_create_cpus(ms, errp) || !pc_boot_check(ms, errp)) {
        return false;
    }
    pc_cpu_hotplug_init(ms);
    pc_basic_ports_init();
    /* kvmclock before fw_cfg, as 7.2 creates them (info qtree's order) */
    if (!kvm_lapic_in_kernel()) {
        pc_irqchip_create_msi_window();
    }
    if (!kvm_irqchip_create_clock(pc_wants_kvmclock(ms), errp) ||
        !pc_fw_cfg_create(ms, errp) || !pc_devices_create(ms, errp)) {
        return false;
    }
    qemu_machine_hooks_install(acpi_enabled(ms) ? acpi_pm_powerdown : NULL);
    return true;
}

/* After -device: the ACPI tables describe what is there (pvpanic) */
bool pc_machine_done(MachineState *ms, Error **errp)
{
    /*
     * The direct loader's tables, when it boots (-kernel without -bios,
     * under KVM): they sit in the RAM under 0xE0000, so the chipset shows
     * that RAM first, as the loader does at every reset.  Any other start
     * leaves that RAM to firmware, as 7.2 has it before firmware runs.
     */
    if (!pc_fw_cfg_machine_done(ms, errp)) {
        return false;
    }
    pc_devices_machine_ready();
    if (!acpi_enabled(ms) || qemu_bios_name || !ms->kernel_filename ||
        !kvm_enabled()) {
        return true;
    }
    pc_chipset_init_as_firmware();
    return acpi_build_tables(ms, &ms->acpi_rsdp, errp);
}
