/*
 * Machine base type: registration of versioned machine types, lookup and
 * help, the hw_compat arrays, vCPU creation for the x86 boards, and
 * query-machines.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "exec/memory.h"
#include "hw/boards.h"
#include "hw/i386/apic.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "sysemu/kvm.h"
#include "sysemu/numa.h"
#include "sysemu/user-objects.h"

MachineState *current_machine;

/*
 * hw_compat arrays: what machine types up to X.Y need to keep the device
 * ABI they had before X.Y+1 changed a default, for every machine family
 * (QEMU 7.2's entries for the devices this tree has; the arrays of
 * devices it lacks come with those devices).  A PC version applies its
 * hw_compat array, then its pc_compat array.
 */
static const GlobalProperty hw_compat_6_2[] = {
    { "PIIX4_PM", "x-not-migrate-acpi-index", "true" },
};

static const GlobalProperty hw_compat_6_0[] = {
    { "i8042", "extended-state", "false" },
};

/* The PM devices' SMI handling before 6.0 */
static const GlobalProperty hw_compat_5_2[] = {
    { "ICH9-LPC", "smm-compat", "on" },
    { "PIIX4_PM", "smm-compat", "on" },
};

static const GlobalProperty hw_compat_5_1[] = {
    { "pvpanic", "events", "1" },
};

/* QEMU 7.2's order: the host bridge's, then vmport's (no EAX answer, no
 * all-ones, no vmx type, the v1 command set before 5.1) */
static const GlobalProperty hw_compat_5_0[] = {
    { "pci-host-bridge", "x-config-reg-migration-enabled", "off" },
    { "vmport", "x-read-set-eax", "off" },
    { "vmport", "x-signal-unsupported-cmd", "off" },
    { "vmport", "x-report-vmx-type", "off" },
    { "vmport", "x-cmds-v2", "off" },
};

/* Root ports: 2.5 GT/s x1 links and no ACS before 4.0 */
/* fw_cfg's ACPI regions were not resized on reset before 5.0 */
static const GlobalProperty hw_compat_4_2[] = {
    { "fw_cfg", "acpi-mr-restore", "false" },
};

static const GlobalProperty hw_compat_3_1[] = {
    { "pcie-root-port", "x-speed", "2_5" },
    { "pcie-root-port", "x-width", "1" },
    { "pcie-root-port-base", "disable-acs", "true" },
};

static const GlobalProperty hw_compat_2_11[] = {
    { "hpet", "hpet-offset-saved", "false" },
};

/* A drive whose diskette gives no type was a 1.44 MB one before 2.6 */
static const GlobalProperty hw_compat_2_5[] = {
    { "isa-fdc", "fallback", "144" },
};

/* 2.9 alone has pci-bridge's SHPC off: 2.8 turns it on again */
static const GlobalProperty hw_compat_2_9[] = {
    { "pci-bridge", "shpc", "off" },
    { "pcie-root-port", "x-migrate-msix", "false" },
};

static const GlobalProperty hw_compat_2_8[] = {
    { "fw_cfg_mem", "x-file-slots", "0x10" },
    { "fw_cfg_io", "x-file-slots", "0x10" },
    { "pci-bridge", "shpc", "on" },
    { "pci-device", "x-pcie-extcap-init", "off" },
};

/* fw_cfg's DMA interface came with 2.5 */
static const GlobalProperty hw_compat_2_4[] = {
    { "fw_cfg_mem", "dma_enabled", "off" },
    { "fw_cfg_io", "dma_enabled", "off" },
};

static const GlobalProperty hw_compat_2_3[] = {
    { "pci-device", "x-pcie-lnksta-dllla", "off" },
};

#define HW_COMPAT(v, arr) { v, arr, G_N_ELEMENTS(arr) }
#define HW_NO_COMPAT(v) { v, NULL, 0 }

static const HWCompat hw_compat_arrays[] = {
    HW_NO_COMPAT("8.0"), HW_NO_COMPAT("7.2"), HW_NO_COMPAT("7.1"),
    HW_NO_COMPAT("7.0"), HW_COMPAT("6.2", hw_compat_6_2), HW_NO_COMPAT("6.1"),
    HW_COMPAT("6.0", hw_compat_6_0), HW_COMPAT("5.2", hw_compat_5_2),
    HW_COMPAT("5.1", hw_compat_5_1), HW_COMPAT("5.0", hw_compat_5_0),
    HW_COMPAT("4.2", hw_compat_4_2), HW_NO_COMPAT("4.1"), HW_NO_COMPAT("4.0"),
    HW_COMPAT("3.1", hw_compat_3_1), HW_NO_COMPAT("3.0"),
    HW_NO_COMPAT("2.12"), HW_COMPAT("2.11", hw_compat_2_11),
    HW_NO_COMPAT("2.10"), HW_COMPAT("2.9", hw_compat_2_9),
    HW_COMPAT("2.8", hw_compat_2_8), HW_NO_COMPAT("2.7"),
    HW_NO_COMPAT("2.6"), HW_COMPAT("2.5", hw_compat_2_5),
    HW_COMPAT("2.4", hw_compat_2_4), HW_COMPAT("2.3", hw_compat_2_3),
    HW_NO_COMPAT("2.2"), HW_NO_COMPAT("2.1"), HW_NO_COMPAT("2.0"),
    HW_NO_COMPAT("1.7"), HW_NO_COMPAT("1.6"), HW_NO_COMPAT("1.5"),
    HW_NO_COMPAT("1.4"),
    { NULL },
};

const HWCompat *hw_compat_find(const char *version)
{
    const HWCompat *c;

    for (c = hw_compat_arrays; c->version; c++) {
        if (!strcmp(c->version, version)) {
            return c;
        }
    }
    return NULL;
}

void compat_props_add(GPtrArray *arr, const GlobalProperty *props,
                      size_t nelem)
{
    size_t i;

    for (i = 0; i < nelem; i++) {
        g_ptr_array_add(arr, (void *)&props[i]);
    }
}

static void machine_class_base_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    /* Each class owns its array: versions append to a copy of the newer's */
    mc->compat_props = g_ptr_array_new();
}

#define MFIELD(name, kind, field, def, desc)                                \
    object_class_property_add_field(oc, name, kind,                        \
                                    offsetof(MachineState, field), def, desc)

static void machine_class_init(ObjectClass *oc, void *data)
{
    MFIELD("kernel-irqchip", PROP_KIND_STRING, kernel_irqchip_str, NULL,
           "In-kernel interrupt controllers: on, off or split");
    MFIELD("usb", PROP_KIND_BOOL, usb, "off",
           "Create a USB controller (not emulated here)");
    MFIELD("dump-guest-core", PROP_KIND_BOOL, dump_guest_core, "on",
           "Include guest RAM in a core dump of the emulator");
    MFIELD("mem-merge", PROP_KIND_BOOL, mem_merge, "on",
           "Let the host merge identical guest pages (KSM)");
    MFIELD("memory-backend", PROP_KIND_STRING, memory_backend, NULL,
           "Id of the memory backend object that holds guest RAM");
    MFIELD("graphics", PROP_KIND_BOOL, graphics, "on",
           "Graphics emulation (there is no display here)");
    MFIELD("suppress-vmdesc", PROP_KIND_BOOL, suppress_vmdesc, "off",
           "Leave the self-description out of migration streams");
    /* -kernel, -initrd and -append are these (QEMU's "string" type) */
    object_property_set_type(
        MFIELD("kernel", PROP_KIND_STRING, kernel_filename, NULL,
               "Kernel image to boot, as -kernel"), "string");
    object_property_set_type(
        MFIELD("initrd", PROP_KIND_STRING, initrd_filename, NULL,
               "Initial ramdisk, as -initrd"), "string");
    object_property_set_type(
        MFIELD("append", PROP_KIND_STRING, kernel_cmdline, NULL,
               "Kernel command line, as -append"), "string");
}

/* What the command line set besides properties */
static void machine_finalize(Object *obj)
{
    MachineState *ms = MACHINE(obj);

    g_free(ms->boot_order);
    g_free(ms->boot_once);
    g_free(ms->possible_cpus);
    numa_state_free(ms->numa_state);
}

static const TypeInfo machine_info = {
    .name = TYPE_MACHINE,
    .parent = TYPE_OBJECT,
    .abstract = true,
    .instance_size = sizeof(MachineState),
    .instance_finalize = machine_finalize,
    .class_size = sizeof(MachineClass),
    .class_base_init = machine_class_base_init,
    .class_init = machine_class_init,
};

static void machine_versioned_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);
    MachineOptionsFunc *options = data;
    const char *tn = object_class_get_name(oc);

    mc->name = g_strndup(tn, strlen(tn) - strlen(TYPE_MACHINE_SUFFIX));
    /* QEMU 7.2 resolves unversioned models to v1 under "none" too */
    mc->default_cpu_version = 1;
    mc->max_cpus = 1;
    if (options) {
        options(mc);
    }
}

void machine_register_type(const char *name, const char *parent,
                           MachineOptionsFunc *options)
{
    TypeInfo *ti = g_new0(TypeInfo, 1);

    ti->name = g_strdup_printf("%s" TYPE_MACHINE_SUFFIX, name);
    ti->parent = parent;
    ti->class_init = machine_versioned_class_init;
    ti->class_data = options;
    type_register_static(ti);
}

/* "none": no devices; libqtest probes with it */
static void machine_none_options(MachineClass *mc)
{
    mc->desc = "empty machine";
    mc->max_cpus = 1;
    mc->default_ram_id = "ram";
}

static void machine_register_types(void)
{
    type_register_static(&machine_info);
    machine_register_type("none", TYPE_MACHINE, machine_none_options);
}
type_init(machine_register_types)

static GPtrArray *newest_types;  /* char*: each family's newest type */

void machine_register_newest(const char *type)
{
    if (!newest_types) {
        newest_types = g_ptr_array_new();
    }
    g_ptr_array_add(newest_types, (gpointer)type);
}

static bool machine_class_is(MachineClass *mc, const char *name)
{
    return !strcmp(mc->name, name) || (mc->alias && !strcmp(mc->alias, name));
}

/* A usable machine class of TYPE name, or NULL */
static MachineClass *machine_class_of_type(const char *type)
{
    ObjectClass *oc = object_class_by_name(type);

    if (!oc || object_class_is_abstract(oc) ||
        !object_class_dynamic_cast(oc, TYPE_MACHINE)) {
        return NULL;
    }
    return MACHINE_CLASS(oc);
}

static bool machine_class_is_default(MachineClass *mc, const char *unused)
{
    return mc->is_default;
}

/*
 * The families' newest types (the ones that may carry an alias or be the
 * default), then every machine class: the first that matches
 */
static MachineClass *machine_find_matching(bool (*match)(MachineClass *,
                                                         const char *),
                                           const char *name)
{
    MachineClass *found = NULL;
    GSList *list, *l;
    guint i;

    for (i = 0; newest_types && i < newest_types->len; i++) {
        found = machine_class_of_type(g_ptr_array_index(newest_types, i));
        if (found && match(found, name)) {
            return found;
        }
    }
    found = NULL;
    list = object_class_get_list(TYPE_MACHINE, false);
    for (l = list; l && !found; l = l->next) {
        if (match(MACHINE_CLASS(l->data), name)) {
            found = l->data;
        }
    }
    g_slist_free(list);
    return found;
}

/* The type of that name first: nothing else needs setting up then */
MachineClass *machine_find_class(const char *name)
{
    char *type = g_strconcat(name, TYPE_MACHINE_SUFFIX, NULL);
    MachineClass *found = machine_class_of_type(type);

    g_free(type);
    if (found && machine_class_is(found, name)) {
        return found;
    }
    return machine_find_matching(machine_class_is, name);
}

MachineClass *machine_get_default_class(void)
{
    return machine_find_matching(machine_class_is_default, NULL);
}

/* Machines with a family first, by family, newest version first */
static gint version_cmp_desc(gconstpointer a, gconstpointer b)
{
    const MachineClass *ma = a, *mb = b;
    char *ka, *kb;
    gint r;

    if (!ma->family != !mb->family) {
        return ma->family ? -1 : 1;
    }
    if (ma->family && strcmp(ma->family, mb->family)) {
        return strcmp(ma->family, mb->family);
    }
    ka = g_utf8_collate_key_for_filename(ma->name, -1);
    kb = g_utf8_collate_key_for_filename(mb->name, -1);
    r = -strcmp(ka, kb);
    g_free(ka);
    g_free(kb);
    return r;
}

GSList *machine_class_list_sorted(void)
{
    return g_slist_sort(object_class_get_list(TYPE_MACHINE, false),
                        version_cmp_desc);
}

void machine_help(void)
{
    GSList *list = machine_class_list_sorted(), *l;

    printf("Supported machines are:\n");
    for (l = list; l; l = l->next) {
        MachineClass *mc = l->data;

        if (mc->alias) {
            printf("%-20s %s (alias of %s)\n", mc->alias, mc->desc, mc->name);
        }
        printf("%-20s %s%s%s\n", mc->name, mc->desc,
               mc->is_default ? " (default)" : "",
               mc->deprecated ? " (deprecated)" : "");
    }
    g_slist_free(list);
}

static gint prop_cmp_name(gconstpointer a, gconstpointer b)
{
    const ObjectProperty *pa = *(ObjectProperty *const *)a;
    const ObjectProperty *pb = *(ObjectProperty *const *)b;

    return strcmp(pa->name, pb->name);
}

/* -machine <type>,help: the type's properties, QEMU's layout */
void machine_class_help(MachineClass *mc)
{
    ObjectClass *oc = OBJECT_CLASS_CAST(mc);
    GPtrArray *props = object_class_property_list(oc);
    guint i;

    g_ptr_array_sort(props, prop_cmp_name);
    printf("%s options:\n", object_class_get_name(oc));
    for (i = 0; i < props->len; i++) {
        ObjectProperty *p = g_ptr_array_index(props, i);
        char *left;

        if (!p->set || p->instance_only || !strcmp(p->name, "type")) {
            continue;
        }
        left = g_strdup_printf("%s=<%s>", p->name, p->type);
        if (p->description) {
            printf("  %-22s - %s\n", left, p->description);
        } else {
            printf("  %s\n", left);
        }
        g_free(left);
    }
    g_ptr_array_free(props, TRUE);
}

/* RAM ----------------------------------------------------------------------- */

/* -numa node,memdev=: the nodes' backends, in node order */
static bool machine_init_numa_ram(MachineState *ms, const char *id,
                                  Error **errp)
{
    NumaState *ns = ms->numa_state;
    MemoryRamPart parts[MAX_NODES];
    HostMemBacking backings[MAX_NODES];
    unsigned n = 0;
    int i;

    for (i = 0; i < ns->num_nodes; i++) {
        Object *b = ns->nodes[i].node_memdev;

        if (!b) {
            continue;
        }
        user_objects_backend_backing(ms, b, &backings[n]);
        parts[n].owner = b;
        parts[n].name = b->name;
        parts[n].size = ns->nodes[i].node_mem;
        parts[n].backing = &backings[n];
        n++;
    }
    return memory_machine_init_ram_parts(id, parts, n, errp);
}

bool machine_init_ram(MachineState *ms, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    const char *id = mc->default_ram_id ? mc->default_ram_id : "ram";
    Object *owner = NULL;

    /* The address spaces exist before anything is mapped into them */
    get_system_memory();
    get_system_io();
    if (!ms->ram_size) {
        return true;
    }
    if (ms->numa_state && ms->numa_state->have_memdev) {
        return machine_init_numa_ram(ms, id, errp);
    }
    if (ms->memory_backend) {
        id = ms->memory_backend;
    } else {
        /* As QEMU: the RAM is a backend object of its own, /objects/ID */
        char *opt = g_strdup_printf("%s,id=%s,size=%" PRIu64,
                                    TYPE_MEMORY_BACKEND_RAM, id,
                                    ms->ram_size);
        bool ok = user_object_add(opt, errp);

        g_free(opt);
        if (!ok) {
            return false;
        }
    }
    owner = object_resolve_path_component(object_get_container("objects"), id);
    if (!memory_machine_init_ram(owner, id, ms->ram_size, errp)) {
        return false;
    }
    if (!mc->init) {
        /* "none": the RAM whole at 0, as QEMU maps it */
        memory_region_add_subregion(get_system_memory(), 0,
                                    memory_ram_region());
    }
    return true;
}

/* -machine and -m ---------------------------------------------------------- */

void machine_take_smp_keys(QemuOpts *machine, QemuOpts *smp)
{
    guint i = 0;

    while (i < machine->opts->len) {
        QemuOpt *opt = g_ptr_array_index(machine->opts, i);

        if (g_str_has_prefix(opt->name, "smp.")) {
            qemu_opts_add(smp, opt->name + 4, opt->value);
            g_ptr_array_remove_index(machine->opts, i);
            g_free(opt->name);
            g_free(opt->value);
            g_free(opt);
        } else {
            i++;
        }
    }
}

bool machine_apply_options(MachineState *ms, QemuOpts *opts, Error **errp)
{
    bool ok = true;
    guint i;

    for (i = 0; ok && i < opts->opts->len; i++) {
        QemuOpt *opt = g_ptr_array_index(opts->opts, i);
        char *name = g_strdelimit(g_strdup(opt->name), "_", '-');
        char *dot = strchr(name, '.');

        if (!strcmp(name, "type") || !strcmp(name, "accel")) {
            /* what vl.c picks the class and the accelerator with */
        } else if (dot) {
            *dot = 0;
            if (object_property_find(OBJECT(ms), name)) {
                error_setg(errp, "Parameters '%s.*' are unexpected", name);
            } else {
                error_setg(errp, "Property '%s.%s' not found",
                           object_get_typename(OBJECT(ms)), name);
            }
            ok = false;
        } else {
            ok = object_property_parse(OBJECT(ms), name, opt->value, errp);
        }
        g_free(name);
    }
    return ok;
}

const QemuOptDesc machine_memory_opts[] = {
    { "size", QEMU_OPT_SIZE },
    { "slots", QEMU_OPT_NUMBER },
    { "maxmem", QEMU_OPT_SIZE },
    { NULL },
};

bool machine_parse_memory(MachineState *ms, QemuOpts *opts, Error **errp)
{
    const char *s = qemu_opt_get(opts, "size");
    const char *v = qemu_opt_get(opts, "maxmem");
    uint64_t size = 0, maxmem = 0, slots = 0;
    bool hex_suffix;

    /* As QEMU 7.2: 128 MiB, but "none" has no RAM unless -m asks */
    ms->ram_size = MACHINE_GET_CLASS(ms)->init ? 128 * 1024 * 1024 : 0;
    if (s && *s) {
        /* As QEMU 7.2 does it: with "M" appended when there is no suffix */
        char *str = g_ascii_isdigit(s[strlen(s) - 1])
                        ? g_strconcat(s, "M", NULL)
                        : g_strdup(s);
        int ret = qemu_strtosz(str, 1, &size, &hex_suffix);

        if (!ret && hex_suffix) {
            warn_report("Using a multiplier suffix on hex numbers is "
                        "deprecated: %s", str);
        }
        g_free(str);
        if (ret) {
            error_setg(errp, "Parameter 'memory.size' expects size");
            return false;
        }
    }
    if (!qemu_opt_get_number(opts, "slots", 0, &slots, errp) ||
        !qemu_opt_get_size(opts, "maxmem", 0, &maxmem, errp)) {
        return false;
    }
    if (size) {
        /* QEMU rounds RAM up to 8 KiB (and so wraps near 2^64) */
        ms->ram_size = (size + 8191) & ~(uint64_t)8191;
    }
    if (slots && !v) {
        error_setg(errp, "slots specified but no max-size");
        return false;
    }
    if (v && maxmem < ms->ram_size) {
        error_setg(errp, "invalid value of maxmem: maximum memory size (0x%"
                   PRIx64 ") must be at least the initial memory size (0x%"
                   PRIx64 ")", maxmem, ms->ram_size);
        return false;
    }
    if (slots > 256) {
        error_setg(errp, "unsupported amount of memory slots: %" PRIu64,
                   slots);
        return false;
    }
    return true;
}

/* -global ------------------------------------------------------------------ */

/*
 * After the build, QEMU 7.2's warnings for -global (qdev's check: "not
 * used", "has invalid class name"); QEMU 7.2's device types this tree
 * lacks (libvirt's -global kvm-pit.*, ICH9-LPC.*) stay silent, as there
 */
void machine_check_globals(MachineState *ms)
{
    qdev_prop_check_globals(qemu72_device_types);
}

/* vCPUs --------------------------------------------------------------------- */

KernelIrqchip machine_class_default_irqchip(MachineClass *mc)
{
    return mc->default_kernel_irqchip_split ? KERNEL_IRQCHIP_SPLIT
                                            : KERNEL_IRQCHIP_ON;
}

void machine_class_init_cpu_env(MachineClass *mc, X86CPUEnv *env,
                                X86Accel accel, const X86HostCaps *host,
                                KernelIrqchip irqchip)
{
    memset(env, 0, sizeof(*env));
    env->accel = accel;
    if (accel != X86_ACCEL_KVM) {
        return;
    }
    env->host = host;
    env->kernel_irqchip = irqchip != KERNEL_IRQCHIP_OFF;
    env->split_irqchip = irqchip == KERNEL_IRQCHIP_SPLIT;
    env->legacy_kvm_svm_default = mc->legacy_kvm_svm_default;
    env->legacy_kvm_x2apic_default = mc->legacy_kvm_x2apic_default;
}

/* Bits that hold ids 0..count-1 */
static unsigned topo_width(unsigned count)
{
    return count > 1 ? 32 - __builtin_clz(count - 1) : 0;
}

uint32_t machine_apic_id_from_topo(const SMPConfiguration *smp,
                                   unsigned socket, unsigned die,
                                   unsigned core, unsigned thread)
{
    unsigned core_shift = topo_width(MAX(smp->threads, 1));
    unsigned die_shift = core_shift + topo_width(MAX(smp->cores, 1));
    unsigned socket_shift = die_shift + topo_width(MAX(smp->dies, 1));

    return (socket << socket_shift) | (die << die_shift) |
           (core << core_shift) | thread;
}

void machine_topo_from_apic_id(const SMPConfiguration *smp, uint32_t apic_id,
                               unsigned *socket, unsigned *die,
                               unsigned *core, unsigned *thread)
{
    unsigned thread_bits = topo_width(MAX(smp->threads, 1));
    unsigned core_bits = topo_width(MAX(smp->cores, 1));
    unsigned die_bits = topo_width(MAX(smp->dies, 1));

    *thread = apic_id & ((1u << thread_bits) - 1);
    *core = (apic_id >> thread_bits) & ((1u << core_bits) - 1);
    *die = (apic_id >> (thread_bits + core_bits)) & ((1u << die_bits) - 1);
    *socket = apic_id >> (thread_bits + core_bits + die_bits);
}

void machine_init_possible_cpus(MachineState *ms)
{
    unsigned threads = MAX(ms->smp.threads, 1);
    unsigned cores = MAX(ms->smp.cores, 1);
    unsigned dies = MAX(ms->smp.dies, 1);
    unsigned i, n = MAX(ms->smp.max_cpus, 1);

    if (ms->possible_cpus) {
        return;
    }
    ms->possible_cpus = g_new0(CPUSlot, n);
    for (i = 0; i < n; i++) {
        CPUSlot *s = &ms->possible_cpus[i];

        s->thread = i % threads;
        s->core = (i / threads) % cores;
        s->die = (i / (threads * cores)) % dies;
        s->socket = i / (threads * cores * dies);
        s->apic_id = machine_apic_id_from_topo(&ms->smp, s->socket, s->die,
                                               s->core, s->thread);
        s->node_id = -1;
    }
}

uint32_t machine_apic_id_limit(MachineState *ms)
{
    machine_init_possible_cpus(ms);
    return ms->possible_cpus[MAX(ms->smp.max_cpus, 1) - 1].apic_id + 1;
}

CPUSlot *machine_find_cpu_slot(MachineState *ms, uint32_t apic_id,
                               unsigned *index)
{
    unsigned i;

    machine_init_possible_cpus(ms);
    for (i = 0; i < MAX(ms->smp.max_cpus, 1); i++) {
        if (ms->possible_cpus[i].apic_id == apic_id) {
            if (index) {
                *index = i;
            }
            return &ms->possible_cpus[i];
        }
    }
    return NULL;
}

const char *machine_cpu_type(MachineState *ms)
{
    return ms->cpu_opts ? ms->cpu_opts->typename
                        : MACHINE_GET_CLASS(ms)->default_cpu_type;
}

bool machine_create_cpus(MachineState *ms, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    const char *typename;
    ObjectClass *oc;
    unsigned i;

    typename = machine_cpu_type(ms);
    oc = object_class_by_name(typename);
    if (!oc) {
        error_setg(errp, "unable to find CPU model '%s'",
                   ms->cpu_opts ? ms->cpu_opts->model : typename);
        return false;
    }
    ms->cpus = g_ptr_array_new();
    machine_init_possible_cpus(ms);
    for (i = 0; i < ms->smp.cpus; i++) {
        CPUSlot *slot = &ms->possible_cpus[i];
        X86CPU *cpu = x86_cpu_new(oc, &ms->cpu_env, mc->compat_props,
                                  ms->global_props, ms->cpu_opts, errp);
        char *name;

        if (!cpu) {
            return false;
        }
        cpu->cpu_index = i;
        cpu->apic_id = slot->apic_id;
        cpu->socket_id = slot->socket;
        cpu->die_id = slot->die;
        cpu->core_id = slot->core;
        cpu->thread_id = slot->thread;
        cpu->node_id = slot->node_id;
        cpu->nr_dies = ms->smp.dies;
        cpu->nr_cores = ms->smp.cores;
        cpu->nr_threads = ms->smp.threads;
        if (!x86_cpu_realize(cpu, &ms->cpu_env, errp)) {
            object_unref(OBJECT(cpu));
            return false;
        }
        DEVICE(cpu)->realized = true;
        qdev_add_unattached(OBJECT(cpu));
        if (!x86_cpu_apic_realize(cpu, errp)) {
            return false;
        }
        /* QEMU's per-vCPU address space, in info mtree */
        name = g_strdup_printf("cpu-memory-%u", i);
        address_space_init(&cpu->as, get_system_memory(), name);
        g_free(name);
        g_ptr_array_add(ms->cpus, cpu);
        slot->cpu = cpu;
        object_unref(OBJECT(cpu));
    }
    return true;
}

/* query-machines ------------------------------------------------------------ */

JsonNode *qmp_query_machines(Error **errp)
{
    GSList *list = machine_class_list_sorted(), *l;
    JsonArray *arr = json_array_new();

    for (l = list; l; l = l->next) {
        MachineClass *mc = l->data;
        JsonObject *o = json_object_new();

        json_object_set_string_member(o, "name", mc->name);
        if (mc->alias) {
            json_object_set_string_member(o, "alias", mc->alias);
        }
        if (mc->is_default) {
            json_object_set_boolean_member(o, "is-default", true);
        }
        json_object_set_int_member(o, "cpu-max", mc->max_cpus);
        json_object_set_boolean_member(o, "hotpluggable-cpus",
                                       mc->hotpluggable_cpus);
        json_object_set_boolean_member(o, "numa-mem-supported",
                                       mc->numa_mem_supported);
        json_object_set_boolean_member(o, "deprecated", mc->deprecated);
        if (mc->default_cpu_type) {
            json_object_set_string_member(o, "default-cpu-type",
                                          mc->default_cpu_type);
        }
        if (mc->default_ram_id) {
            json_object_set_string_member(o, "default-ram-id",
                                          mc->default_ram_id);
        }
        json_array_add_object_element(arr, o);
    }
    g_slist_free(list);
    return json_node_init_array(json_node_alloc(), arr);
}
