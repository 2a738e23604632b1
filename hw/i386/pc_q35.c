/*
 * The Q35 + ICH9 PC ("q35"): its versioned machine types.
 */
#include "hw/i386/pc.h"

static void pc_q35_options(MachineClass *mc)
{
    mc->desc = "Standard PC (Q35 + ICH9, 2009)";
    mc->alias = "q35";
    mc->max_cpus = 288;
    mc->default_firmware = "bios-256k.bin";
}

/* 7.1 reserved the AMD HyperTransport window (etc/e820) */
static void pc_q35_7_0_options(MachineClass *mc)
{
    mc->no_amd_1tb_hole = true;
}

static void pc_q35_6_1_options(MachineClass *mc)
{
    mc->smp_prefer_sockets = true;
}

static void pc_q35_5_0_options(MachineClass *mc)
{
    mc->numa_mem_supported = true;
}

/* 4.0.1 is 4.0 without the split irqchip default; both use legacy CPUs */
static void pc_q35_4_0_1_options(MachineClass *mc)
{
    mc->default_cpu_version = CPU_VERSION_LEGACY;
}

static void pc_q35_4_0_options(MachineClass *mc)
{
    mc->default_kernel_irqchip_split = true;
}

/* Only 4.0 itself has the split irqchip: 3.1 and older are back to "on" */
static void pc_q35_3_1_options(MachineClass *mc)
{
    mc->default_kernel_irqchip_split = false;
}

static void pc_q35_2_7_options(MachineClass *mc)
{
    mc->max_cpus = 255;
}

static const PCMachineVersion pc_q35_versions[] = {
    { "8.1", NULL, NULL },
    { "8.0", "8.0", NULL },
    { "7.2", "7.2", NULL },
    { "7.1", "7.1", NULL },
    { "7.0", "7.0", pc_q35_7_0_options },
    { "6.2", "6.2", NULL },
    { "6.1", "6.1", pc_q35_6_1_options },
    { "6.0", "6.0", NULL },
    { "5.2", "5.2", NULL },
    { "5.1", "5.1", pc_5_1_options },
    { "5.0", "5.0", pc_q35_5_0_options },
    { "4.2", "4.2", NULL },
    { "4.1", "4.1", NULL },
    { "4.0.1", "4.0", pc_q35_4_0_1_options },
    { "4.0", NULL, pc_q35_4_0_options },
    { "3.1", "3.1", pc_q35_3_1_options },
    { "3.0", "3.0", NULL },
    { "2.12", "2.12", NULL },
    { "2.11", "2.11", NULL },
    { "2.10", "2.10", NULL },
    { "2.9", "2.9", NULL },
    { "2.8", "2.8", NULL },
    { "2.7", "2.7", pc_q35_2_7_options },
    { "2.6", "2.6", NULL },
    { "2.5", "2.5", NULL },
    { "2.4", "2.4", NULL },
    { NULL },
};

static void pc_q35_register_types(void)
{
    pc_register_machine_versions("pc-q35", pc_q35_versions, pc_q35_options);
}
type_init(pc_q35_register_types)
