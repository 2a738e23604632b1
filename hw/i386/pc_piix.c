/*
 * The i440FX + PIIX PC ("pc"): its versioned machine types.
 */
#include "hw/i386/pc.h"

static void pc_i440fx_options(MachineClass *mc)
{
    mc->desc = "Standard PC (i440FX + PIIX, 1996)";
    mc->alias = "pc";
    mc->is_default = true;
    mc->max_cpus = 255;
    mc->default_firmware = "bios-256k.bin";
}

/* 7.1 reserved the AMD HyperTransport window (etc/e820) */
static void pc_i440fx_7_0_options(MachineClass *mc)
{
    mc->no_amd_1tb_hole = true;
}

static void pc_i440fx_6_1_options(MachineClass *mc)
{
    mc->smp_prefer_sockets = true;
}

static void pc_i440fx_5_0_options(MachineClass *mc)
{
    mc->numa_mem_supported = true;
}

/* Machines up to 4.0 resolve "Haswell" to the unversioned legacy model */
static void pc_i440fx_4_0_options(MachineClass *mc)
{
    mc->default_cpu_version = CPU_VERSION_LEGACY;
}

/* Before 2.4 these machines had no SMM under KVM (qom-get smm: off) */
static void pc_i440fx_2_3_options(MachineClass *mc)
{
    mc->no_smm_with_kvm = true;
}

/* Before 2.2, KVM did not turn svm off for named models */
static void pc_i440fx_2_1_options(MachineClass *mc)
{
    mc->legacy_kvm_svm_default = true;
}

/*
 * Up to 2.0, QEMU kept 64 KiB for ACPI data at the top of low RAM (not
 * 160 KiB): the -initrd limit of Linux and PVH kernels
 */
static void pc_i440fx_2_0_options(MachineClass *mc)
{
    mc->small_acpi_data = true;
}

/* Before 2.0, KVM did not turn x2apic on for named models */
static void pc_i440fx_1_7_options(MachineClass *mc)
{
    mc->legacy_kvm_x2apic_default = true;
    mc->no_gigabyte_align = true;
    mc->default_firmware = "bios.bin";      /* SeaBIOS's 128 KiB build */
    mc->deprecated = true;
}

static const PCMachineVersion pc_i440fx_versions[] = {
    { "8.1", NULL, NULL },
    { "8.0", "8.0", NULL },
    { "7.2", "7.2", NULL },
    { "7.1", "7.1", NULL },
    { "7.0", "7.0", pc_i440fx_7_0_options },
    { "6.2", "6.2", NULL },
    { "6.1", "6.1", pc_i440fx_6_1_options },
    { "6.0", "6.0", NULL },
    { "5.2", "5.2", NULL },
    { "5.1", "5.1", pc_5_1_options },
    { "5.0", "5.0", pc_i440fx_5_0_options },
    { "4.2", "4.2", NULL },
    { "4.1", "4.1", NULL },
    { "4.0", "4.0", pc_i440fx_4_0_options },
    { "3.1", "3.1", NULL },
    { "3.0", "3.0", NULL },
    { "2.12", "2.12", NULL },
    { "2.11", "2.11", NULL },
    { "2.10", "2.10", NULL },
    { "2.9", "2.9", NULL },
    { "2.8", "2.8", NULL },
    { "2.7", "2.7", NULL },
    { "2.6", "2.6", NULL },
    { "2.5", "2.5", NULL },
    { "2.4", "2.4", NULL },
    { "2.3", "2.3", pc_i440fx_2_3_options },
    { "2.2", "2.2", NULL },
    { "2.1", "2.1", pc_i440fx_2_1_options },
    { "2.0", "2.0", pc_i440fx_2_0_options },
    { "1.7", "1.7", pc_i440fx_1_7_options },
    { "1.6", "1.6", NULL },
    { "1.5", "1.5", NULL },
    { "1.4", "1.4", NULL },
    { NULL },
};

static void pc_piix_register_types(void)
{
    pc_register_machine_versions("pc-i440fx", pc_i440fx_versions,
                                 pc_i440fx_options);
}
type_init(pc_piix_register_types)
