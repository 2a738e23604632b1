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
/* The VM's KVM offers System Management Mode (KVM_CAP_X86_SMM) */
bool kvm_has_smm(void);

/*
 * Opens /dev/kvm, reads the host's capabilities into ms->host, creates the
 * VM with the irqchip ms->kernel_irqchip asks for, and its RAM.
 */
bool kvm_init(MachineState *ms, Error **errp);
/*
 * Channel 2 of the in-kernel PIT (port 0x61's gate and OUT bits); false
 * when there is none (qtest, kernel-irqchip=off|split, pit=off)
 */
bool kvm_pit_ch2_get(bool *gate, bool *out);
bool kvm_pit_ch2_set_gate(bool gate);
/*
 * Whether the in-kernel PIT re-injects the ticks a vCPU missed (kvm-pit's
 * lost_tick_policy: delay re-injects, KVM's default; discard does not)
 */
bool kvm_pit_set_reinject(bool on, Error **errp);
/*
 * The in-kernel PIT (KVM_CREATE_PIT2, port 0x61 left to us), made when
 * the kvm-pit device is realized, as in 7.2; once per VM
 */
bool kvm_pit_create(Error **errp);
/* The HPET's legacy mode silences the in-kernel PIT's IRQ 0 (or not) */
void kvm_pit_set_hpet_legacy(bool on);
/* The in-kernel irqchip: every interrupt controller and the PIT in KVM */
bool kvm_irqchip_in_kernel(void);
/* The LAPICs are KVM's: kernel-irqchip=on or split */
bool kvm_lapic_in_kernel(void);
/* kernel-irqchip=split: KVM's LAPICs, the board's PICs, IOAPIC and PIT */
bool kvm_irqchip_is_split(void);
/*
 * Split irqchip: the userspace IOAPIC's n entries as the MSI routes of
 * GSI 0..n-1 (KVM exits on the EOI of their level-triggered vectors)
 */
void kvm_irqchip_set_ioapic_routes(const uint32_t *addr, const uint32_t *data,
                                   int n);
/*
 * The userspace master PIC's INT (kernel-irqchip=off or split): while
 * high, the boot vCPU takes its ExtINT vector (pic_read_irq) by
 * KVM_INTERRUPT as soon as it can accept one.
 */
void kvm_set_pic_intr(int level);
/* An MSI written to the APIC's window (0xfee00000 + addr) */
void kvm_send_msi(uint64_t addr, uint32_t data);
/* An NMI to every vCPU (KVM_NMI), injected before each next enters */
void kvm_inject_nmi_all(void);
/* Validates one -accel kvm,KEY=VALUE option (QEMU's kvm-accel props) */
bool kvm_accel_check_option(const char *key, const char *value,
                            Error **errp);
/*
 * KVM's memory slots follow the machine's memory map from here on, synced
 * now with its current state; until then (kvm_init() to the end of the
 * machine's construction) they are held.  Fails if a slot was refused.
 */
bool kvm_memory_release(Error **errp);
/* Creates the vCPU for cpu and gives it its CPUID table. */
bool kvm_init_vcpu(MachineState *ms, X86CPU *cpu, Error **errp);
/*
 * kvm_init_vcpu() for each of ms->cpus, then one thread per vCPU, parked
 * until the VM first runs.  Fails if a thread or the kick signal's handler
 * cannot be set up.
 */
bool kvm_init_vcpus(MachineState *ms, Error **errp);
/* A vCPU's thread id (for query-cpus-fast); the main thread's before run */
int kvm_vcpu_thread_id(X86CPU *cpu);
/*
 * A vCPU plugged after start-up: its vCPU fd and thread now (parked while
 * the VM is stopped).  Before kvm_init_vcpus() nothing: that makes it.
 */
bool kvm_hotplug_vcpu(MachineState *ms, X86CPU *cpu, Error **errp);

/*
 * Installs the run-state hooks (stop/cont pause and resume the vCPU
 * threads) and the interrupt line handler.
 */
void kvm_start_machine(MachineState *ms);
/* A reset lets vCPUs that stopped on an internal error run again */
void kvm_vcpus_clear_failed(void);

/* Register access for the boot loader and reset, by vCPU index */
struct kvm_regs;
struct kvm_sregs;
int kvm_vcpu_count(void);
bool kvm_vcpu_get_regs(int index, struct kvm_regs *regs,
                       struct kvm_sregs *sregs, Error **errp);
bool kvm_vcpu_set_regs(int index, const struct kvm_regs *regs,
                       const struct kvm_sregs *sregs, Error **errp);
/* BSP runnable; APs wait for INIT/SIPI (in-kernel irqchip) */
bool kvm_vcpu_set_mp_state(int index, bool runnable, Error **errp);

/*
 * For a device model answering a port access on a vCPU's thread (vmport
 * reads and writes the guest's registers): the vCPU (NULL outside such an
 * access: qtest, the main loop), its general registers (read on first
 * use, written back before it runs on; NULL outside an access or if KVM
 * cannot read them), its code segment's base (false where it cannot be
 * read) and its TSC frequency in kHz (0 if unknown)
 */
X86CPU *kvm_exit_cpu(void);
struct kvm_regs *kvm_exit_regs(void);
bool kvm_exit_cs_base(uint64_t *base);
int kvm_exit_tsc_khz(void);

#endif
