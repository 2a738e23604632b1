/*
 * The PC's fw_cfg items, as QEMU 7.2 fills them (docs/firmware.md lists
 * each with the rule it follows and what this tree leaves out).
 *
 * Keys: signature, id, uuid, RAM size, nographic, boot menu, NB/MAX CPUs,
 * NUMA (no nodes: zeros), x86's IRQ0 override and HPET block; files:
 * etc/e820 (the RAM layout, not the firmware's view of it), bootorder and
 * bios-geometry (empty: no device has a bootindex or geometry here),
 * etc/boot-fail-wait, etc/boot-menu-wait (splash-time=), etc/system-states
 * (ACPI), etc/msr_feature_control (VMX/SGX CPUs), and on q35 the SMI
 * feature negotiation files of ICH9-LPC (etc/smi/ *).
 */
#include <string.h>

#include <glib.h>

#include "hw/acpi/pm.h"
#include "hw/i386/acpi-build.h"
#include "hw/i386/fw_cfg.h"
#include "hw/i386/pc.h"
#include "hw/i386/x86-boot.h"
#include "sysemu/device.h"
#include "hw/timer/hpet.h"
#include "sysemu/numa.h"
#include "sysemu/reset.h"
#include "sysemu/sysemu.h"

/* QEMU 7.2's AMD HyperTransport window below 1 TiB (reserved in e820) */
#define AMD_HT_START 0xfd00000000ULL
#define AMD_HT_SIZE 0x300000000ULL
/* KVM's TSS and identity map pages, which QEMU reserves under KVM */
#define KVM_IDENTITY_BASE 0xfeffc000ULL

/* IA32_FEATURE_CONTROL bits the firmware sets (etc/msr_feature_control) */
#define FEATURE_CONTROL_LOCKED (1ULL << 0)
#define FEATURE_CONTROL_VMXON_OUTSIDE_SMX (1ULL << 2)
#define FEATURE_CONTROL_SGX_LC (1ULL << 17)
#define FEATURE_CONTROL_SGX (1ULL << 18)

/* ICH9-LPC's SMI features (etc/smi/supported-features) */
#define ICH9_SMI_F_BROADCAST (1ULL << 0)
#define ICH9_SMI_F_CPU_HOTPLUG (1ULL << 1)
#define ICH9_SMI_F_CPU_HOT_UNPLUG (1ULL << 2)

typedef struct QEMU_PACKED FwCfgE820 {
    uint64_t address, length;
    uint32_t type;
} FwCfgE820;

/*
 * etc/e820: RAM as the board maps it, with the reservations QEMU 7.2 adds
 * before it: KVM's identity map under KVM, and for an AMD vCPU with at
 * least 40 physical address bits on machine types from 7.1 the
 * HyperTransport window
 */
static GArray *fw_cfg_e820(MachineState *ms)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    GArray *t = g_array_new(false, true, sizeof(FwCfgE820));
    uint64_t below = memory_below_4g();
    X86CPU *cpu = ms->cpus->len ? g_ptr_array_index(ms->cpus, 0) : NULL;
    FwCfgE820 e;

#define ADD(a, l, ty)                                                         \
    do {                                                                      \
        e = (FwCfgE820){ GUINT64_TO_LE(a), GUINT64_TO_LE(l),                  \
                         GUINT32_TO_LE(ty) };                                 \
        g_array_append_val(t, e);                                             \
    } while (0)
    if (ms->cpu_env.accel == X86_ACCEL_KVM) {
        ADD(KVM_IDENTITY_BASE, 0x4000, E820_RESERVED);
    }
    if (cpu && !mc->no_amd_1tb_hole) {
        uint32_t a, b, c, d, vendor[3];

        x86_cpu_cpuid(cpu, &ms->cpu_env, 0, 0, &a, &vendor[0], &vendor[2],
                      &vendor[1]);
        x86_cpu_cpuid(cpu, &ms->cpu_env, 0x80000008, 0, &a, &b, &c, &d);
        if (!memcmp(vendor, "AuthenticAMD", 12) && (a & 0xff) >= 40) {
            ADD(AMD_HT_START, AMD_HT_SIZE, E820_RESERVED);
        }
    }
    ADD(0, below, E820_RAM);
    if (ms->ram_size > below) {
        ADD(PC_ABOVE_4G_BASE, ms->ram_size - below, E820_RAM);
    }
#undef ADD
    return t;
}

/* What the firmware locks into IA32_FEATURE_CONTROL; 0: no file */
static uint64_t fw_cfg_feature_control(MachineState *ms)
{
    X86CPU *cpu = ms->cpus->len ? g_ptr_array_index(ms->cpus, 0) : NULL;
    uint32_t a, b, c, d;
    uint64_t bits = 0;

    if (!cpu) {
        return 0;
    }
    x86_cpu_cpuid(cpu, &ms->cpu_env, 1, 0, &a, &b, &c, &d);
    if (c & (1u << 5)) {
        bits |= FEATURE_CONTROL_VMXON_OUTSIDE_SMX;
    }
    x86_cpu_cpuid(cpu, &ms->cpu_env, 0, 0, &a, &b, &c, &d);
    if (a >= 7) {
        x86_cpu_cpuid(cpu, &ms->cpu_env, 7, 0, &a, &b, &c, &d);
        if (c & (1u << 30)) {
            bits |= FEATURE_CONTROL_SGX_LC;
        }
        if (b & (1u << 2)) {
            bits |= FEATURE_CONTROL_SGX;
        }
    }
    return bits ? bits | FEATURE_CONTROL_LOCKED : 0;
}

/*
 * ACPI sleep states for the firmware: per S0..S5, bit 7 = available, low
 * bits = the SLP_TYP value (QEMU 7.2's PM devices; S1 and S2 never)
 */
static void fw_cfg_system_states(uint8_t states[6])
{
    const AcpiSleepStates *ss = acpi_pm_sleep_states();

    memset(states, 0, 6);
    states[0] = 0x80;
    states[3] = ss->disable_s3 ? 0 : 0x80 | ACPI_PM_SLP_TYP_S3;
    states[4] = ss->disable_s4 ? 0 : 0x80 | ss->s4_val;
    states[5] = 0x80 | ACPI_PM_SLP_TYP_S5;
}

/*
 * q35's SMI feature negotiation (QEMU 7.2's ICH9-LPC, until that device
 * exists here): the guest writes etc/smi/requested-features, then selects
 * etc/smi/features-ok, which reads 1 and locks the features when they are
 * a valid subset: supported ones only, CPU hot(un)plug only with
 * broadcast, hot-unplug only with hotplug.  Reset unlocks.
 */
typedef struct SmiNegotiation {
    FWCfgState *fw_cfg;
    uint64_t host_features;
} SmiNegotiation;

static SmiNegotiation smi;

static void smi_features_ok_select(void *opaque)
{
    SmiNegotiation *n = opaque;
    size_t len_req, len_ok;
    uint8_t *req = fw_cfg_file_data(n->fw_cfg, "etc/smi/requested-features",
                                    &len_req);
    uint8_t *ok = fw_cfg_file_data(n->fw_cfg, "etc/smi/features-ok", &len_ok);
    uint64_t guest, hotplug;

    if (!req || !ok || len_req != 8 || len_ok != 1 || *ok) {
        return;     /* negotiated already: locked */
    }
    memcpy(&guest, req, 8);
    guest = GUINT64_FROM_LE(guest);
    hotplug = guest & (ICH9_SMI_F_CPU_HOTPLUG | ICH9_SMI_F_CPU_HOT_UNPLUG);
    if ((guest & ~n->host_features) ||
        (hotplug && !(guest & ICH9_SMI_F_BROADCAST)) ||
        hotplug == ICH9_SMI_F_CPU_HOT_UNPLUG) {
        return;
    }
    *ok = 1;
}

static void smi_reset(void *opaque)
{
    SmiNegotiation *n = opaque;
    size_t len;
    uint8_t *p;

    p = fw_cfg_file_data(n->fw_cfg, "etc/smi/requested-features", &len);
    if (p) {
        memset(p, 0, len);
    }
    p = fw_cfg_file_data(n->fw_cfg, "etc/smi/features-ok", &len);
    if (p) {
        memset(p, 0, len);
    }
}

static bool fw_cfg_smi_files(FWCfgState *s, Error **errp)
{
    uint64_t host = GUINT64_TO_LE(ICH9_SMI_F_BROADCAST |
                                  ICH9_SMI_F_CPU_HOTPLUG |
                                  ICH9_SMI_F_CPU_HOT_UNPLUG);
    uint64_t zero = 0;
    uint8_t ok = 0;

    smi.fw_cfg = s;
    smi.host_features = GUINT64_FROM_LE(host);
    if (!fw_cfg_add_file(s, "etc/smi/supported-features", &host, 8, errp) ||
        !fw_cfg_add_file_callback(s, "etc/smi/requested-features", NULL, NULL,
                                  NULL, &zero, 8, false, errp) ||
        !fw_cfg_add_file_callback(s, "etc/smi/features-ok",
                                  smi_features_ok_select, NULL, &smi, &ok, 1,
                                  true, errp)) {
        return false;
    }
    qemu_register_reset(smi_reset, &smi);
    return true;
}


FWCfgState *pc_fw_cfg_create(MachineState *ms, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    bool q35 = mc->family && !strcmp(mc->family, "pc-q35");
    FWCfgState *s;
    uint8_t uuid[16] = { 0 };
    uint8_t hpet[HPET_FW_CFG_SIZE];
    uint32_t apic_id_limit = machine_apic_id_limit(ms);
    uint64_t *numa;
    unsigned i, nodes;
    uint32_t fail_wait;
    uint64_t feature_control;
    GArray *e820;

    s = fw_cfg_init_io_dma(FW_CFG_IO_BASE, FW_CFG_DMA_IO_BASE,
                           &address_space_memory, errp);
    if (!s) {
        return NULL;
    }
    qemu_uuid_get_bytes(uuid);
    fw_cfg_add_bytes(s, FW_CFG_UUID, uuid, 16);
    fw_cfg_add_i16(s, FW_CFG_NOGRAPHIC, qemu_devices_nographic());
    fw_cfg_add_i16(s, FW_CFG_BOOT_MENU, ms->boot_menu);
    fw_cfg_add_i64(s, FW_CFG_RAM_SIZE, ms->ram_size);
    fw_cfg_add_i16(s, FW_CFG_NB_CPUS, ms->smp.cpus);
    /* The APIC ID limit: one more than the last possible vCPU's */
    fw_cfg_add_i16(s, FW_CFG_MAX_CPUS, apic_id_limit);
    /*
     * The node count, each APIC ID's node (0 for none), each node's
     * memory size, little-endian 64-bit words
     */
    nodes = ms->numa_state ? ms->numa_state->num_nodes : 0;
    numa = g_new0(uint64_t, 1 + apic_id_limit + nodes);
    numa[0] = GUINT64_TO_LE(nodes);
    for (i = 0; nodes && i < MAX(ms->smp.max_cpus, 1); i++) {
        CPUSlot *slot = &ms->possible_cpus[i];

        numa[1 + slot->apic_id] = GUINT64_TO_LE(MAX(slot->node_id, 0));
    }
    for (i = 0; i < nodes; i++) {
        numa[1 + apic_id_limit + i] =
            GUINT64_TO_LE(ms->numa_state->nodes[i].node_mem);
    }
    fw_cfg_add_bytes(s, FW_CFG_NUMA, numa, (1 + apic_id_limit + nodes) * 8);
    g_free(numa);
    fw_cfg_add_i32(s, FW_CFG_IRQ0_OVERRIDE, 1);
    /* no HPET yet: the board's fills it in once it has made one */
    hpet_fw_cfg(hpet);
    fw_cfg_add_bytes(s, FW_CFG_HPET, hpet, sizeof(hpet));

    e820 = fw_cfg_e820(ms);
    if (!fw_cfg_add_file(s, "etc/e820", e820->data,
                         e820->len * sizeof(FwCfgE820), errp)) {
        g_array_free(e820, true);
        return NULL;
    }
    g_array_free(e820, true);
    fail_wait = GUINT32_TO_LE((uint32_t)ms->boot_reboot_timeout);
    if (!fw_cfg_add_file(s, "etc/boot-fail-wait", &fail_wait, 4, errp)) {
        return NULL;
    }
    if (ms->boot_splash_time >= 0) {
        uint16_t wait = GUINT16_TO_LE(ms->boot_splash_time);

        if (!fw_cfg_add_file(s, "etc/boot-menu-wait", &wait, 2, errp)) {
            return NULL;
        }
    }
    feature_control = GUINT64_TO_LE(fw_cfg_feature_control(ms));
    if (feature_control &&
        !fw_cfg_add_file(s, "etc/msr_feature_control", &feature_control, 8,
                         errp)) {
        return NULL;
    }
    if (q35 && !fw_cfg_smi_files(s, errp)) {
        return NULL;
    }
    return s;
}

/* After -device: what QEMU 7.2 adds once the devices are there */
bool pc_fw_cfg_machine_done(MachineState *ms, Error **errp)
{
    FWCfgState *s = fw_cfg_find();
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    bool q35 = mc->family && !strcmp(mc->family, "pc-q35");
    uint8_t states[6];

    if (!s) {
        return true;
    }
    /* The PM device's: PIIX4_PM comes with ACPI, ICH9-LPC always */
    if (q35 || acpi_enabled(ms)) {
        fw_cfg_system_states(states);
        if (!fw_cfg_add_file(s, "etc/system-states", states, 6, errp)) {
            return false;
        }
    }
    return fw_cfg_add_file(s, "bootorder", NULL, 0, errp) &&
           fw_cfg_add_file(s, "bios-geometry", NULL, 0, errp);
}
