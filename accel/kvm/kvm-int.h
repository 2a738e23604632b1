/*
 * -accel kvm,KEY=VALUE: kvm-accel's properties, checked as the option is
 * read (kvm_accel_check_option, in sysemu/kvm.h) and applied to the VM by
 * kvm_init() before any memory slot or vCPU exists (kvm-accel-opts.c).
 */
#ifndef ACCEL_KVM_KVM_INT_H
#define ACCEL_KVM_KVM_INT_H

#include <stdbool.h>

#include <linux/kvm.h>

#include "hw/boards.h"
#include "qapi/error.h"

/* The shadow MMU size, the dirty ring, notify VM exits */
bool kvm_apply_accel_options(int vm_fd, Error **errp);
/* notify-vmexit=internal-error: a bus lock storm stops the vCPU */
bool kvm_notify_vmexit_stops(void);
/* -overcommit cpu-pm=on: HLT, MWAIT, PAUSE and C-states stay in the guest */
void kvm_disable_guest_exits(int vm_fd);

/*
 * Memory slots (kvm-memory.c): init registers the listener, slots held
 * until kvm_memory_release() (which reports a slot KVM refused); after it
 * a refusal stops the VM (nobody to return it to)
 */
void kvm_memory_init(int kvm_fd, int vm_fd);
/* vm_stop(internal-error) from the main loop's next turn */
void kvm_vm_internal_error_later(void);

/* What kvm_irqchip_create made, for kvm-irqchip.c */
void kvm_irqchip_created(int vm_fd, KernelIrqchip mode);
/*
 * The irqchip the machine asks for: KVM's (with 7.2's GSI routes; its PIT
 * comes with the kvm-pit device, kvm_pit_create()), split (KVM's LAPICs
 * only) or none
 */
bool kvm_irqchip_create(int vm_fd, KernelIrqchip mode, Error **errp);
/* Before the boot vCPU's KVM_RUN: the userspace PIC's ExtINT, if due */
void kvm_vcpu_inject_extint(int vcpu_fd, struct kvm_run *run);
bool kvm_pic_intr_pending(void);
/* The boot vCPU out of KVM_RUN (or a halt) soon (kvm-all.c) */
void kvm_vcpu_kick_bsp(void);

#endif
