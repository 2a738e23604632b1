/*
 * The in-kernel irqchip's and PIT's state, for the devices that show them
 * (hw/i386/kvm-irqchip.c, the PC speaker port, the HPET): what
 * kvm_create_irqchip made (kvm_irqchip_created), PIT channel 2 for port
 * 0x61, re-injection and the HPET's legacy flag of the PIT, MSIs.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include <linux/kvm.h>

#include <glib.h>

#include "kvm-int.h"
#include "sysemu/kvm.h"

static struct {
    int vm_fd;
    KernelIrqchip mode;
    bool pit;           /* the in-kernel PIT exists */
} irqchip = { .vm_fd = -1 };

void kvm_irqchip_created(int vm_fd, KernelIrqchip mode, bool pit)
{
    irqchip.vm_fd = vm_fd;
    irqchip.mode = mode;
    irqchip.pit = pit;
}

/*
 * Channel 2 of the in-kernel PIT, for port 0x61 (KVM_PIT_SPEAKER_DUMMY
 * leaves that port to us).  OUT follows the 8254's modes from the time
 * the count was loaded; KVM keeps that time on CLOCK_MONOTONIC.
 */
#define PIT_FREQ 1193182

static int64_t monotonic_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static bool pit_ch2_state(struct kvm_pit_state2 *st)
{
    return irqchip.pit &&
           ioctl(irqchip.vm_fd, KVM_GET_PIT2, st) == 0;
}

bool kvm_pit_ch2_get(bool *gate, bool *out)
{
    struct kvm_pit_state2 st;
    struct kvm_pit_channel_state *c = &st.channels[2];
    uint64_t count, d;
    int64_t elapsed;

    if (!pit_ch2_state(&st)) {
        return false;
    }
    count = c->count ? c->count : 0x10000;
    elapsed = monotonic_ns() - c->count_load_time;
    d = elapsed > 0 ? (uint64_t)((__int128)elapsed * PIT_FREQ / 1000000000)
                    : 0;
    switch (c->mode) {
    case 0:
        *out = d >= count;
        break;
    case 1:
        *out = d < count;
        break;
    case 2:
        *out = d % count == 0 && d;
        break;
    case 3:
        *out = d % count < (count + 1) / 2;
        break;
    default:            /* 4, 5: a strobe at the terminal count */
        *out = d == count;
        break;
    }
    *gate = c->gate;
    return true;
}

bool kvm_pit_ch2_set_gate(bool gate)
{
    struct kvm_pit_state2 st;
    struct kvm_pit_channel_state *c = &st.channels[2];

    if (!pit_ch2_state(&st)) {
        return false;
    }
    /* A rising gate restarts the count in modes 1, 2, 3 and 5 */
    if (!c->gate && gate && c->mode != 0 && c->mode != 4) {
        c->count_load_time = monotonic_ns();
    }
    c->gate = gate;
    return ioctl(irqchip.vm_fd, KVM_SET_PIT2, &st) == 0;
}

bool kvm_irqchip_in_kernel(void)
{
    return irqchip.vm_fd >= 0 && irqchip.mode == KERNEL_IRQCHIP_ON;
}

bool kvm_lapic_in_kernel(void)
{
    return irqchip.vm_fd >= 0 && irqchip.mode != KERNEL_IRQCHIP_OFF;
}

bool kvm_pit_set_reinject(bool on, Error **errp)
{
    struct kvm_reinject_control control = { .pit_reinject = on };

    if (on || !irqchip.pit ||
        ioctl(irqchip.vm_fd, KVM_CHECK_EXTENSION,
              KVM_CAP_REINJECT_CONTROL) <= 0) {
        return true;    /* re-injection is KVM's default */
    }
    if (ioctl(irqchip.vm_fd, KVM_REINJECT_CONTROL, &control) < 0) {
        error_setg(errp, "Can't disable in-kernel PIT reinjection: %s",
                   strerror(errno));
        return false;
    }
    return true;
}

void kvm_pit_set_hpet_legacy(bool on)
{
    struct kvm_pit_state2 st;

    if (!pit_ch2_state(&st)) {
        return;
    }
    if (on) {
        st.flags |= KVM_PIT_FLAGS_HPET_LEGACY;
    } else {
        st.flags &= ~KVM_PIT_FLAGS_HPET_LEGACY;
    }
    if (ioctl(irqchip.vm_fd, KVM_SET_PIT2, &st) < 0) {
        error_report("KVM_SET_PIT2 failed: %s", strerror(errno));
    }
}

void kvm_send_msi(uint64_t addr, uint32_t data)
{
    struct kvm_msi msi = {
        .address_lo = (uint32_t)addr,
        .address_hi = addr >> 32,
        .data = data,
    };

    /* the LAPICs are KVM's with kernel-irqchip=on and split */
    if (irqchip.vm_fd >= 0 && irqchip.mode != KERNEL_IRQCHIP_OFF &&
        ioctl(irqchip.vm_fd, KVM_SIGNAL_MSI, &msi) < 0) {
        error_report("KVM_SIGNAL_MSI 0x%" PRIx64 "/0x%x failed: %s", addr,
                     data, strerror(errno));
    }
}


bool kvm_irqchip_is_split(void)
{
    return irqchip.vm_fd >= 0 && irqchip.mode == KERNEL_IRQCHIP_SPLIT;
}

/*
 * Split irqchip: GSI 0..n-1 are MSI routes made from the userspace
 * IOAPIC's entries, as 7.2 keeps them.  KVM's LAPICs take the IOAPIC's
 * interrupts as MSIs either way; the routes tell KVM which vectors are
 * level-triggered IOAPIC ones, whose EOI comes back as
 * KVM_EXIT_IOAPIC_EOI.
 */
void kvm_irqchip_set_ioapic_routes(const uint32_t *addr, const uint32_t *data,
                                   int n)
{
    struct kvm_irq_routing *r;

    if (!kvm_irqchip_is_split()) {
        return;
    }
    r = g_malloc0(sizeof(*r) + n * sizeof(r->entries[0]));
    r->nr = n;
    for (int i = 0; i < n; i++) {
        r->entries[i].gsi = i;
        r->entries[i].type = KVM_IRQ_ROUTING_MSI;
        r->entries[i].u.msi.address_lo = addr[i];
        r->entries[i].u.msi.data = data[i];
    }
    if (ioctl(irqchip.vm_fd, KVM_SET_GSI_ROUTING, r) < 0) {
        error_report("KVM_SET_GSI_ROUTING failed: %s", strerror(errno));
    }
    g_free(r);
}
