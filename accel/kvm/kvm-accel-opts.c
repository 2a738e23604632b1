/*
 * The VM-wide settings of the KVM accelerator that come from the command
 * line: -accel kvm,KEY=VALUE (kvm-accel's properties) and -overcommit
 * cpu-pm=on (accel/kvm/kvm-int.h).  Every ioctl is checked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/kvm.h>

#include "sysemu/kvm.h"
#include "sysemu/os-posix.h"
#include "sysemu/sysemu.h"

#include "kvm-int.h"

/*
 * kvm-accel's properties (-accel kvm,KEY=VALUE), as QEMU 7.2 checks them
 * when the option is read; kvm_init() applies them.
 */
typedef enum NotifyVmexit {
    NOTIFY_VMEXIT_RUN,              /* QEMU's default */
    NOTIFY_VMEXIT_INTERNAL_ERROR,
    NOTIFY_VMEXIT_DISABLE,
} NotifyVmexit;

static struct {
    int64_t shadow_mem;             /* bytes of shadow MMU pages, -1: KVM's */
    uint32_t dirty_ring_size;       /* entries per vCPU, 0: bitmap */
    NotifyVmexit notify_vmexit;
    uint32_t notify_window;
} kvm_accel_opts = { .shadow_mem = -1 };

bool kvm_accel_check_option(const char *key, const char *value,
                            Error **errp)
{
    static const char *const notify_names[] = {
        "run", "internal-error", "disable", NULL,
    };
    unsigned long long u;
    long long v;
    char *end;
    int i;

    if (!strcmp(key, "kernel-irqchip")) {
        if (strcmp(value, "on") && strcmp(value, "off") &&
            strcmp(value, "split")) {
            error_setg(errp, "Parameter '%s' does not accept value '%s'", key,
                       value);
            return false;
        }
        return true;
    }
    if (!strcmp(key, "notify-vmexit")) {
        for (i = 0; notify_names[i]; i++) {
            if (!strcmp(value, notify_names[i])) {
                kvm_accel_opts.notify_vmexit = i;
                return true;
            }
        }
        error_setg(errp, "Parameter '%s' does not accept value '%s'", key,
                   value);
        return false;
    }
    if (!strcmp(key, "kvm-shadow-mem")) {
        errno = 0;
        v = strtoll(value, &end, 0);
        if (!*value || *end || errno) {
            error_setg(errp, "Parameter '%s' expects int64", key);
            return false;
        }
        kvm_accel_opts.shadow_mem = v;
        return true;
    }
    if (!strcmp(key, "dirty-ring-size") || !strcmp(key, "notify-window")) {
        errno = 0;
        u = strtoull(value, &end, 0);
        if (!*value || *end || errno) {
            error_setg(errp, "Parameter '%s' expects uint64", key);
            return false;
        }
        if (u > UINT32_MAX) {
            error_setg(errp, "Parameter '%s' expects uint32_t", key);
            return false;
        }
        if (key[0] == 'n') {
            kvm_accel_opts.notify_window = u;
            return true;
        }
        if (u & (u - 1)) {
            error_setg(errp, "dirty-ring-size must be a power of two.");
            return false;
        }
        kvm_accel_opts.dirty_ring_size = u;
        return true;
    }
    error_setg(errp, "Property 'kvm-accel.%s' not found", key);
    return false;
}

/*
 * The VM-wide settings of -accel kvm,...: the shadow MMU's size, the
 * dirty ring, bus-lock notify exits (where the host has them; silently
 * not otherwise, as QEMU)
 */
bool kvm_apply_accel_options(int vm_fd, Error **errp)
{
    int ret;

    if (kvm_accel_opts.shadow_mem != -1 &&
        ioctl(vm_fd, KVM_SET_NR_MMU_PAGES,
              (unsigned long)(kvm_accel_opts.shadow_mem / 4096)) < 0) {
        error_setg(errp, "%s", strerror(errno));
        return false;
    }
    if (kvm_accel_opts.dirty_ring_size) {
        uint64_t bytes = (uint64_t)kvm_accel_opts.dirty_ring_size *
                         sizeof(struct kvm_dirty_gfn);

        ret = ioctl(vm_fd, KVM_CHECK_EXTENSION, KVM_CAP_DIRTY_LOG_RING);
        if (ret <= 0) {
            warn_report("KVM dirty ring not available, using bitmap method");
        } else if (bytes > (uint64_t)ret) {
            error_report("KVM dirty ring size %u too big (maximum is %ld).  "
                         "Please use a smaller value.",
                         kvm_accel_opts.dirty_ring_size,
                         (long)(ret / sizeof(struct kvm_dirty_gfn)));
            error_setg(errp, "%s", strerror(EINVAL));
            return false;
        } else {
            struct kvm_enable_cap cap = {
                .cap = KVM_CAP_DIRTY_LOG_RING, .args[0] = bytes,
            };

            if (ioctl(vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
                error_report("Enabling of KVM dirty ring failed: %s. "
                             "Suggested minimum value is 1024.",
                             strerror(errno));
                error_setg(errp, "%s", strerror(errno));
                return false;
            }
        }
    }
    if (kvm_accel_opts.notify_vmexit != NOTIFY_VMEXIT_DISABLE &&
        ioctl(vm_fd, KVM_CHECK_EXTENSION, KVM_CAP_X86_NOTIFY_VMEXIT) > 0) {
        struct kvm_enable_cap cap = {
            .cap = KVM_CAP_X86_NOTIFY_VMEXIT,
            .args[0] = ((uint64_t)kvm_accel_opts.notify_window << 32) |
                       KVM_X86_NOTIFY_VMEXIT_ENABLED |
                       KVM_X86_NOTIFY_VMEXIT_USER,
        };

        if (ioctl(vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
            error_setg(errp, "%s", strerror(errno));
            return false;
        }
    }
    return true;
}

/*
 * -overcommit cpu-pm=on: the guest's HLT, MWAIT, PAUSE and C-state
 * requests stay in the guest (an idle vCPU keeps its host CPU), as far as
 * the host allows.  Before any vCPU exists, as KVM requires.  A refusal
 * is reported and start-up goes on, as in QEMU 7.2.
 */
void kvm_disable_guest_exits(int vm_fd)
{
    struct kvm_enable_cap cap = { .cap = KVM_CAP_X86_DISABLE_EXITS };
    int supported;

    if (!os_overcommit_cpu_pm()) {
        return;
    }
    supported = ioctl(vm_fd, KVM_CHECK_EXTENSION,
                      KVM_CAP_X86_DISABLE_EXITS);
    if (supported < 0) {
        supported = 0;
    }
    cap.args[0] = supported & (KVM_X86_DISABLE_EXITS_MWAIT |
                               KVM_X86_DISABLE_EXITS_HLT |
                               KVM_X86_DISABLE_EXITS_PAUSE |
                               KVM_X86_DISABLE_EXITS_CSTATE);
    if (ioctl(vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
        error_report("kvm: guest stopping CPU not supported: %s",
                     strerror(errno));
    }
}

bool kvm_notify_vmexit_stops(void)
{
    return kvm_accel_opts.notify_vmexit == NOTIFY_VMEXIT_INTERNAL_ERROR;
}
