/*
 * The KVM accelerator: the VM, its vCPUs and what the host offers.
 */
#ifndef SYSEMU_KVM_H
#define SYSEMU_KVM_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

typedef struct MachineState MachineState;
typedef struct X86CPU X86CPU;

/* /dev/kvm can be opened and speaks the stable API */
bool kvm_available(void);
/* The machine runs under KVM */
bool kvm_enabled(void);

/*
 * Opens /dev/kvm, reads the host's capabilities into ms->host, creates the
 * VM with the irqchip ms->kernel_irqchip asks for, and its RAM.
 */
bool kvm_init(MachineState *ms, Error **errp);
/* Creates the vCPU for cpu and gives it its CPUID table. */
bool kvm_init_vcpu(MachineState *ms, X86CPU *cpu, Error **errp);
/* Every vCPU's thread id (for query-cpus-fast), -1 if none. */
int kvm_vcpu_thread_id(X86CPU *cpu);

#endif
