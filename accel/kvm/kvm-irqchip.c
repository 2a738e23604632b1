/*
 * The irqchip KVM has (kvm_irqchip_create: in-kernel with 7.2's GSI
 * routes, or split) and what the devices need of it: the in-kernel PIT's
 * channel 2 for port 0x61, its re-injection and HPET legacy flag, MSIs;
 * under split the userspace IOAPIC's MSI routes and the userspace PIC's
 * ExtINT injection into the boot vCPU.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include <linux/kvm.h>

#include <glib.h>

#include "hw/intc/i8259.h"
#include "kvm-int.h"
#include "sysemu/kvm.h"

static struct {
    int vm_fd;
    KernelIrqchip mode;
    bool pit;           /* the in-kernel PIT exists */
} irqchip = { .vm_fd = -1 };

void kvm_irqchip_created(int vm_fd, KernelIrqchip mode)
{
    irqchip.vm_fd = vm_fd;
    irqchip.mode = mode;
}

/*
 * The in-kernel irqchip's GSI routes, as 7.2's kvm_pc_setup_irq_routing
 * sets them: GSI 0-15 to the PICs (not 2, the cascade), GSI 0-23 to the
 * IOAPIC's pins with ISA IRQ 0 on pin 2 (KVM's default has it on pin 0,
 * where no PC guest looks for the PIT).
 */
static bool kvm_pc_setup_irq_routing(int vm_fd, Error **errp)
{
    struct kvm_irq_routing *r;
    int n = 0;
    bool ok;

    r = g_malloc0(sizeof(*r) + 40 * sizeof(r->entries[0]));
    for (int i = 0; i < 16; i++) {
        if (i == 2) {
            continue;
        }
        r->entries[n].gsi = i;
        r->entries[n].type = KVM_IRQ_ROUTING_IRQCHIP;
        r->entries[n].u.irqchip.irqchip = i < 8 ? KVM_IRQCHIP_PIC_MASTER
                                                : KVM_IRQCHIP_PIC_SLAVE;
        r->entries[n].u.irqchip.pin = i & 7;
        n++;
    }
    for (int i = 0; i < 24; i++) {
        if (i == 2) {
            continue;
        }
        r->entries[n].gsi = i;
        r->entries[n].type = KVM_IRQ_ROUTING_IRQCHIP;
        r->entries[n].u.irqchip.irqchip = KVM_IRQCHIP_IOAPIC;
        r->entries[n].u.irqchip.pin = i ? i : 2;
        n++;
    }
    r->nr = n;
    ok = ioctl(vm_fd, KVM_SET_GSI_ROUTING, r) == 0;
    if (!ok) {
        error_setg(errp, "KVM_SET_GSI_ROUTING failed: %s", strerror(errno));
    }
    g_free(r);
    return ok;
}

bool kvm_irqchip_create(int vm_fd, KernelIrqchip mode, Error **errp)
{
    if (mode == KERNEL_IRQCHIP_OFF) {
        return true;
    }
    if (mode == KERNEL_IRQCHIP_SPLIT) {
        struct kvm_enable_cap cap = {
            .cap = KVM_CAP_SPLIT_IRQCHIP,
            .args[0] = 24,
        };
        if (ioctl(vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
            error_setg(errp, "Could not enable split irqchip mode: %s",
                       strerror(errno));
            return false;
        }
        kvm_irqchip_created(vm_fd, mode);
        return true;
    }
    if (ioctl(vm_fd, KVM_CREATE_IRQCHIP, 0) < 0) {
        error_setg(errp, "Create kernel irqchip failed: %s", strerror(errno));
        return false;
    }
    if (!kvm_pc_setup_irq_routing(vm_fd, errp)) {
        return false;
    }
    kvm_irqchip_created(vm_fd, mode);
    return true;
}

bool kvm_pit_create(Error **errp)
{
    struct kvm_pit_config pit_config = { .flags = KVM_PIT_SPEAKER_DUMMY };

    if (irqchip.pit) {
        return true;
    }
    if (ioctl(irqchip.vm_fd, KVM_CREATE_PIT2, &pit_config) < 0) {
        /* 7.2's text, its "PIC" included */
        error_setg(errp, "Create kernel PIC irqchip failed: %s",
                   strerror(errno));
        return false;
    }
    irqchip.pit = true;
    return true;
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

    if (kvm_lapic_in_kernel() &&
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

/*
 * The userspace master PIC's INT (kernel-irqchip=off or split) goes to the
 * boot vCPU, as 7.2's pic_irq_request does: while it is high, KVM_INTERRUPT
 * with the PIC's acknowledged vector as soon as KVM says the vCPU can take
 * an external interrupt (IF set and, with KVM's LAPIC, LINT0 in ExtINT
 * mode), else an interrupt-window exit is asked for.
 */
static int pic_intr_level;      /* atomic */

void kvm_set_pic_intr(int level)
{
    __atomic_store_n(&pic_intr_level, level, __ATOMIC_RELEASE);
    if (level) {
        kvm_vcpu_kick_bsp();
    }
}

bool kvm_pic_intr_pending(void)
{
    return __atomic_load_n(&pic_intr_level, __ATOMIC_ACQUIRE);
}

void kvm_vcpu_inject_extint(int vcpu_fd, struct kvm_run *run)
{
    DeviceState *pic = i8259_master();
    struct kvm_interrupt intr;

    if (!pic || kvm_irqchip_in_kernel()) {
        return;
    }
    if (kvm_pic_intr_pending() && run->ready_for_interrupt_injection) {
        intr.irq = pic_read_irq(pic);
        if (ioctl(vcpu_fd, KVM_INTERRUPT, &intr) < 0 && errno != EEXIST) {
            error_report("KVM_INTERRUPT %u failed: %s", intr.irq,
                         strerror(errno));
        }
    }
    run->request_interrupt_window = kvm_pic_intr_pending();
}
