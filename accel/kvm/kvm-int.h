/*
 * -accel kvm,KEY=VALUE: kvm-accel's properties, checked as the option is
 * read (kvm_accel_check_option, in sysemu/kvm.h) and applied to the VM by
 * kvm_init() before any memory slot or vCPU exists (kvm-accel-opts.c).
 */
#ifndef ACCEL_KVM_KVM_INT_H
#define ACCEL_KVM_KVM_INT_H

#include <stdbool.h>

#include "hw/boards.h"
#include "qapi/error.h"

/* The shadow MMU size, the dirty ring, notify VM exits */
bool kvm_apply_accel_options(int vm_fd, Error **errp);
/* notify-vmexit=internal-error: a bus lock storm stops the vCPU */
bool kvm_notify_vmexit_stops(void);
/* -overcommit cpu-pm=on: HLT, MWAIT, PAUSE and C-states stay in the guest */
void kvm_disable_guest_exits(int vm_fd);

/* What kvm_create_irqchip made, for kvm-irqchip.c */
void kvm_irqchip_created(int vm_fd, KernelIrqchip mode, bool pit);

#endif
