/*
 * smp guest: starts every AP with INIT/SIPI/SIPI; each vCPU prints
 *   cpu N apic-id X kvm-eax=0x...
 * (N: position of its APIC id in the MADT, X: CPUID 1 EBX[31:24], kvm-eax:
 * its own CPUID 0x40000001 EAX, or of base+1 where the KVM signature is),
 * then the BSP prints SMP-DONE cpus=N, or SMP-TIMEOUT if some never came.
 */
#include "lib.h"

const char guest_name[] = "smp";

static void report(int cpu)
{
    u32 base = kvm_cpuid_base();
    u32 eax = base ? cpuid(base + 1).eax : 0;
    spin_lock(&print_lock);
    printf("cpu %d apic-id %u kvm-eax=0x%08x\n", cpu, cpu_apic_id(), eax);
    spin_unlock(&print_lock);
}

int guest_main(void)
{
    int expected = smp_expected_cpus();
    printf("SMP expected=%d lapic=0x%08x\n", expected, lapic_base());
    report(cpu_index_of_apic(cpu_apic_id()));
    int got = smp_run_aps(report, expected);
    spin_lock(&print_lock);
    if (expected > 0 && got < expected) {
        printf("SMP-TIMEOUT expected=%d got=%d\n", expected, got);
        return 1;
    }
    printf("SMP-DONE cpus=%d\n", got);
    return 0;
}
