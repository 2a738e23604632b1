/*
 * The KVM accelerator: /dev/kvm, the VM with its in-kernel irqchip and PIT,
 * guest RAM, and vCPUs with the CPUID table expansion computed.
 *
 * Every ioctl is checked; failures become errors for the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "exec/memory.h"
#include "hw/boards.h"
#include "hw/irq.h"
#include "sysemu/kvm.h"
#include "sysemu/os-posix.h"
#include "sysemu/reset.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"
#include "target/i386/hyperv.h"

typedef struct KVMState {
    int fd;
    int vm_fd;
    bool pit;           /* the in-kernel PIT exists */
    int run_size;
    void *ram;
    uint64_t ram_size;
    GHashTable *vcpus; /* X86CPU* -> KVMVCPU* */
    GPtrArray *vcpu_list; /* KVMVCPU*, by index */
    MachineState *ms;
} KVMState;

/*
 * A vCPU and its thread.  The threads start with the machine, parked (so
 * their ids exist while -S holds the VM), and run KVM_RUN while the VM
 * runs; to pause, the main thread clears vcpus_should_run, sets
 * immediate_exit and kicks the thread with SIG_IPI, then waits until every
 * thread parked.
 */
typedef struct KVMVCPU {
    int fd;
    struct kvm_run *run;
    X86CPU *cpu;
    int index;
    pthread_t thread;
    int tid;
    bool parked;         /* waiting in vcpu_wait_for_run() */
    bool failed;         /* stopped for good after an internal error */
} KVMVCPU;

#define SIG_IPI SIGUSR1

static KVMState *kvm_state;

bool kvm_enabled(void)
{
    return kvm_state != NULL;
}

bool kvm_available(void)
{
    int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    bool ok;

    if (fd < 0) {
        return false;
    }
    ok = ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION;
    close(fd);
    return ok;
}

static bool kvm_set_ram(KVMState *s, uint64_t size, Error **errp)
{
    struct kvm_userspace_memory_region r = { 0 };
    uint64_t below;

    /* The machine's RAM block (exec/memory.h), shared with qtest */
    s->ram = memory_ram_alloc(size, errp);
    if (!s->ram) {
        return false;
    }
    below = memory_below_4g();
    s->ram_size = size;
    r.slot = 0;
    r.guest_phys_addr = 0;
    r.memory_size = below;
    r.userspace_addr = (uintptr_t)s->ram;
    if (ioctl(s->vm_fd, KVM_SET_USER_MEMORY_REGION, &r) < 0) {
        error_setg(errp, "KVM_SET_USER_MEMORY_REGION failed: %s",
                   strerror(errno));
        return false;
    }
    if (size > below) {
        r.slot = 1;
        r.guest_phys_addr = 0x100000000ULL;
        r.memory_size = size - below;
        r.userspace_addr = (uintptr_t)s->ram + below;
        if (ioctl(s->vm_fd, KVM_SET_USER_MEMORY_REGION, &r) < 0) {
            error_setg(errp, "KVM_SET_USER_MEMORY_REGION failed: %s",
                       strerror(errno));
            return false;
        }
    }
    return true;
}

static bool kvm_create_irqchip(KVMState *s, KernelIrqchip mode, bool pit,
                               Error **errp)
{
    struct kvm_pit_config pit_config = { .flags = KVM_PIT_SPEAKER_DUMMY };

    if (mode == KERNEL_IRQCHIP_OFF) {
        return true;
    }
    if (mode == KERNEL_IRQCHIP_SPLIT) {
        struct kvm_enable_cap cap = {
            .cap = KVM_CAP_SPLIT_IRQCHIP,
            .args[0] = 24,
        };
        if (ioctl(s->vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
            error_setg(errp, "Could not enable split irqchip mode: %s",
                       strerror(errno));
            return false;
        }
        return true;
    }
    if (ioctl(s->vm_fd, KVM_CREATE_IRQCHIP, 0) < 0) {
        error_setg(errp, "Create kernel irqchip failed: %s", strerror(errno));
        return false;
    }
    if (pit && ioctl(s->vm_fd, KVM_CREATE_PIT2, &pit_config) < 0) {
        error_setg(errp, "Create kernel PIT failed: %s", strerror(errno));
        return false;
    }
    s->pit = pit;
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
    return kvm_state && kvm_state->pit &&
           ioctl(kvm_state->vm_fd, KVM_GET_PIT2, st) == 0;
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
    return ioctl(kvm_state->vm_fd, KVM_SET_PIT2, &st) == 0;
}

/*
 * -accel kvm,KEY=VALUE: the properties of QEMU 7.2's kvm-accel object,
 * checked with its texts; a value list of "uint32"/"int64" means a number
 * of that type.  vl.c uses kernel-irqchip; dirty-page tracking, notify VM
 * exits and the shadow MMU size are accepted and left to KVM's defaults.
 */
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
static bool kvm_apply_accel_options(KVMState *s, Error **errp)
{
    int ret;

    if (kvm_accel_opts.shadow_mem != -1 &&
        ioctl(s->vm_fd, KVM_SET_NR_MMU_PAGES,
              (unsigned long)(kvm_accel_opts.shadow_mem / 4096)) < 0) {
        error_setg(errp, "%s", strerror(errno));
        return false;
    }
    if (kvm_accel_opts.dirty_ring_size) {
        uint64_t bytes = (uint64_t)kvm_accel_opts.dirty_ring_size *
                         sizeof(struct kvm_dirty_gfn);

        ret = ioctl(s->vm_fd, KVM_CHECK_EXTENSION, KVM_CAP_DIRTY_LOG_RING);
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

            if (ioctl(s->vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
                error_report("Enabling of KVM dirty ring failed: %s. "
                             "Suggested minimum value is 1024.",
                             strerror(errno));
                error_setg(errp, "%s", strerror(errno));
                return false;
            }
        }
    }
    if (kvm_accel_opts.notify_vmexit != NOTIFY_VMEXIT_DISABLE &&
        ioctl(s->vm_fd, KVM_CHECK_EXTENSION, KVM_CAP_X86_NOTIFY_VMEXIT) > 0) {
        struct kvm_enable_cap cap = {
            .cap = KVM_CAP_X86_NOTIFY_VMEXIT,
            .args[0] = ((uint64_t)kvm_accel_opts.notify_window << 32) |
                       KVM_X86_NOTIFY_VMEXIT_ENABLED |
                       KVM_X86_NOTIFY_VMEXIT_USER,
        };

        if (ioctl(s->vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
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
static void kvm_disable_guest_exits(KVMState *s)
{
    struct kvm_enable_cap cap = { .cap = KVM_CAP_X86_DISABLE_EXITS };
    int supported;

    if (!os_overcommit_cpu_pm()) {
        return;
    }
    supported = ioctl(s->vm_fd, KVM_CHECK_EXTENSION,
                      KVM_CAP_X86_DISABLE_EXITS);
    if (supported < 0) {
        supported = 0;
    }
    cap.args[0] = supported & (KVM_X86_DISABLE_EXITS_MWAIT |
                               KVM_X86_DISABLE_EXITS_HLT |
                               KVM_X86_DISABLE_EXITS_PAUSE |
                               KVM_X86_DISABLE_EXITS_CSTATE);
    if (ioctl(s->vm_fd, KVM_ENABLE_CAP, &cap) < 0) {
        error_report("kvm: guest stopping CPU not supported: %s",
                     strerror(errno));
    }
}

bool kvm_init(MachineState *ms, Error **errp)
{
    KVMState *s = g_new0(KVMState, 1);
    int ret;

    s->vm_fd = -1;
    s->fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (s->fd < 0) {
        error_setg(errp, "Could not access KVM kernel module: %s",
                   strerror(errno));
        goto fail;
    }
    ret = ioctl(s->fd, KVM_GET_API_VERSION, 0);
    if (ret != KVM_API_VERSION) {
        error_setg(errp, "kvm version not supported");
        goto fail;
    }
    do {
        s->vm_fd = ioctl(s->fd, KVM_CREATE_VM, 0);
    } while (s->vm_fd < 0 && errno == EINTR);
    if (s->vm_fd < 0) {
        error_setg(errp, "ioctl(KVM_CREATE_VM) failed: %s", strerror(errno));
        goto fail;
    }
    s->run_size = ioctl(s->fd, KVM_GET_VCPU_MMAP_SIZE, 0);
    if (s->run_size <= 0) {
        error_setg(errp, "KVM_GET_VCPU_MMAP_SIZE failed");
        goto fail;
    }
    ms->host = kvm_host_caps_read(s->fd, errp);
    if (!ms->host) {
        goto fail;
    }
    if (!kvm_create_irqchip(s, ms->kernel_irqchip,
                            ms->pit != ON_OFF_AUTO_OFF, errp) ||
        !kvm_set_ram(s, ms->ram_size, errp)) {
        goto fail;
    }
    kvm_disable_guest_exits(s);
    if (!kvm_apply_accel_options(s, errp)) {
        goto fail;
    }
    s->vcpus = g_hash_table_new(NULL, NULL);
    kvm_state = s;
    return true;

fail:
    if (s->vm_fd >= 0) {
        close(s->vm_fd);
    }
    if (s->fd >= 0) {
        close(s->fd);
    }
    g_free(s);
    return false;
}

/* The vCPU's CPUID table, as KVM_SET_CPUID2 takes it */
static struct kvm_cpuid2 *kvm_cpuid2_from_table(X86CPU *cpu,
                                                const X86CPUEnv *env)
{
    GArray *table = x86_cpu_build_cpuid_table(cpu, env);
    struct kvm_cpuid2 *cpuid;
    guint i;

    cpuid = g_malloc0(sizeof(*cpuid) +
                      table->len * sizeof(struct kvm_cpuid_entry2));
    cpuid->nent = table->len;
    for (i = 0; i < table->len; i++) {
        X86CPUIDEntry *e = &g_array_index(table, X86CPUIDEntry, i);
        cpuid->entries[i].function = e->function;
        cpuid->entries[i].index = e->index;
        cpuid->entries[i].flags =
            e->significant_index ? KVM_CPUID_FLAG_SIGNIFCANT_INDEX : 0;
        cpuid->entries[i].eax = e->eax;
        cpuid->entries[i].ebx = e->ebx;
        cpuid->entries[i].ecx = e->ecx;
        cpuid->entries[i].edx = e->edx;
    }
    g_array_unref(table);
    return cpuid;
}

bool kvm_init_vcpu(MachineState *ms, X86CPU *cpu, Error **errp)
{
    KVMState *s = kvm_state;
    KVMVCPU *v = g_new0(KVMVCPU, 1);
    struct kvm_cpuid2 *cpuid;
    int ret;

    v->run = MAP_FAILED;
    v->fd = ioctl(s->vm_fd, KVM_CREATE_VCPU, (unsigned long)cpu->apic_id);
    if (v->fd < 0) {
        error_setg(errp, "kvm_init_vcpu: kvm_get_vcpu failed (%u): %s",
                   cpu->apic_id, strerror(errno));
        goto fail;
    }
    v->run = mmap(NULL, s->run_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                  v->fd, 0);
    if (v->run == MAP_FAILED) {
        error_setg(errp, "mmap'ing vcpu state failed: %s", strerror(errno));
        goto fail;
    }

    /* As QEMU: Hyper-V's vCPU capabilities before the CPUID */
    if (!hyperv_kvm_init_vcpu(s->vm_fd, v->fd, cpu, &ms->cpu_env, errp)) {
        goto fail;
    }
    cpuid = kvm_cpuid2_from_table(cpu, &ms->cpu_env);
    ret = ioctl(v->fd, KVM_SET_CPUID2, cpuid);
    g_free(cpuid);
    if (ret < 0) {
        error_setg(errp, "kvm_init_vcpu: KVM_SET_CPUID2 failed: %s",
                   strerror(errno));
        goto fail;
    }
    if (cpu->kvm_pv_enforce_cpuid) {
        /* The host then refuses PV MSRs and hypercalls the CPUID withholds */
        struct kvm_enable_cap cap = {
            .cap = KVM_CAP_ENFORCE_PV_FEATURE_CPUID,
            .args[0] = 1,
        };
        if (ioctl(v->fd, KVM_ENABLE_CAP, &cap) < 0) {
            error_setg(errp, "kvm: Failed to enable PV feature CPUID "
                       "enforcement: %s", strerror(errno));
            goto fail;
        }
    }
    v->cpu = cpu;
    v->index = s->vcpu_list ? s->vcpu_list->len : 0;
    v->tid = -1;
    if (!s->vcpu_list) {
        s->vcpu_list = g_ptr_array_new();
    }
    g_ptr_array_add(s->vcpu_list, v);
    g_hash_table_insert(s->vcpus, cpu, v);
    s->ms = ms;
    return true;

fail:
    if (v->run != MAP_FAILED) {
        munmap(v->run, s->run_size);
    }
    if (v->fd >= 0) {
        close(v->fd);
    }
    g_free(v);
    return false;
}

int kvm_vcpu_thread_id(X86CPU *cpu)
{
    KVMVCPU *v = kvm_state ? g_hash_table_lookup(kvm_state->vcpus, cpu) : NULL;

    /* Without KVM (qtest) there are no vCPU threads: the main thread */
    return v && v->tid > 0 ? v->tid : (int)getpid();
}

/* Registers --------------------------------------------------------------- */

bool kvm_vcpu_get_regs(int index, struct kvm_regs *regs,
                       struct kvm_sregs *sregs, Error **errp)
{
    KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, index);

    if ((regs && ioctl(v->fd, KVM_GET_REGS, regs) < 0) ||
        (sregs && ioctl(v->fd, KVM_GET_SREGS, sregs) < 0)) {
        error_setg(errp, "KVM_GET_REGS/SREGS failed: %s", strerror(errno));
        return false;
    }
    return true;
}

bool kvm_vcpu_set_regs(int index, const struct kvm_regs *regs,
                       const struct kvm_sregs *sregs, Error **errp)
{
    KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, index);

    if ((sregs && ioctl(v->fd, KVM_SET_SREGS, sregs) < 0) ||
        (regs && ioctl(v->fd, KVM_SET_REGS, regs) < 0)) {
        error_setg(errp, "KVM_SET_REGS/SREGS failed: %s", strerror(errno));
        return false;
    }
    return true;
}

bool kvm_vcpu_set_mp_state(int index, bool runnable, Error **errp)
{
    KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, index);
    struct kvm_mp_state mp = {
        .mp_state = runnable ? KVM_MP_STATE_RUNNABLE
                             : KVM_MP_STATE_UNINITIALIZED,
    };

    if (ioctl(v->fd, KVM_SET_MP_STATE, &mp) < 0) {
        error_setg(errp, "KVM_SET_MP_STATE failed: %s", strerror(errno));
        return false;
    }
    return true;
}

int kvm_vcpu_count(void)
{
    return kvm_state && kvm_state->vcpu_list ? kvm_state->vcpu_list->len : 0;
}

static gboolean vm_internal_error_bh(gpointer data)
{
    vm_stop(RUN_STATE_INTERNAL_ERROR);
    return G_SOURCE_REMOVE;
}

/* Interrupt lines through the in-kernel irqchip */
static void kvm_set_irq(int gsi, int level)
{
    struct kvm_irq_level irq = { .irq = gsi, .level = level };

    if (kvm_state->ms->kernel_irqchip == KERNEL_IRQCHIP_OFF) {
        return;
    }
    if (ioctl(kvm_state->vm_fd, KVM_IRQ_LINE, &irq) < 0) {
        /*
         * A lost interrupt would leave the guest waiting for ever: stop
         * the VM where a management client can see why.  From the main
         * loop, not here: the caller may be a device handler on any thread.
         */
        error_report("KVM_IRQ_LINE %d failed: %s", gsi, strerror(errno));
        g_idle_add(vm_internal_error_bh, NULL);
    }
}

/* Running ------------------------------------------------------------------ */

static pthread_mutex_t vcpu_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t vcpu_cond = PTHREAD_COND_INITIALIZER;
static bool vcpus_should_run;
static bool vcpus_started;

static void sig_ipi_handler(int sig)
{
    /* Only interrupts KVM_RUN (EINTR); immediate_exit does the rest */
}

/* Parks the thread until the VM runs; clears immediate_exit under the lock */
static void vcpu_wait_for_run(KVMVCPU *v)
{
    pthread_mutex_lock(&vcpu_lock);
    while (!vcpus_should_run || v->failed) {
        v->parked = true;
        pthread_cond_broadcast(&vcpu_cond);
        pthread_cond_wait(&vcpu_cond, &vcpu_lock);
    }
    v->parked = false;
    v->run->immediate_exit = 0;
    pthread_mutex_unlock(&vcpu_lock);
}


/* The vCPU stops for good; the VM stops with status internal-error. */
static void vcpu_fail(KVMVCPU *v, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    error_report("%s", msg);
    g_free(msg);
    pthread_mutex_lock(&vcpu_lock);
    v->failed = true;
    pthread_mutex_unlock(&vcpu_lock);
    g_main_context_invoke(NULL, vm_internal_error_bh, NULL);
}

static void vcpu_handle_io(KVMVCPU *v)
{
    struct kvm_run *run = v->run;
    uint8_t *data = (uint8_t *)run + run->io.data_offset;
    unsigned size = run->io.size;
    uint32_t i;

    for (i = 0; i < run->io.count; i++, data += size) {
        uint32_t val = 0;

        if (run->io.direction == KVM_EXIT_IO_OUT) {
            memcpy(&val, data, size);
            ioport_write(run->io.port, size, val);
        } else {
            val = ioport_read(run->io.port, size);
            memcpy(data, &val, size);
        }
    }
}

/*
 * No MMIO devices outside the kernel: reads give zeros (QEMU 7.2's
 * unassigned memory, as a guest sees it there), writes vanish
 */
static void vcpu_handle_mmio(KVMVCPU *v)
{
    struct kvm_run *run = v->run;

    if (!run->mmio.is_write) {
        memset(run->mmio.data, 0, sizeof(run->mmio.data));
    }
}

static void vcpu_report_internal_error(KVMVCPU *v)
{
    struct kvm_run *run = v->run;
    struct kvm_regs regs;
    GString *s = g_string_new(NULL);
    uint32_t i;

    g_string_append_printf(s, "KVM internal error. Suberror: %u",
                           run->internal.suberror);
    for (i = 0; i < run->internal.ndata && i < 16; i++) {
        g_string_append_printf(s, "\nextra data[%u]: 0x%016llx", i,
                               (unsigned long long)run->internal.data[i]);
    }
    if (run->internal.suberror == KVM_INTERNAL_ERROR_EMULATION) {
        g_string_append(s, "\nemulation failure");
    }
    if (ioctl(v->fd, KVM_GET_REGS, &regs) == 0) {
        g_string_append_printf(s, "\nRIP=%016llx RSP=%016llx RFLAGS=%08llx",
                               (unsigned long long)regs.rip,
                               (unsigned long long)regs.rsp,
                               (unsigned long long)regs.rflags);
    }
    vcpu_fail(v, "%s", s->str);
    g_string_free(s, TRUE);
}

static void *vcpu_thread_fn(void *opaque)
{
    KVMVCPU *v = opaque;
    char name[16];

    v->tid = (int)syscall(SYS_gettid);
    if (qemu_debug_threads) {
        snprintf(name, sizeof(name), "CPU %d/KVM", v->index);
        pthread_setname_np(pthread_self(), name);
    }

    for (;;) {
        struct kvm_run *run = v->run;
        int ret;

        vcpu_wait_for_run(v);
        ret = ioctl(v->fd, KVM_RUN, 0);
        if (ret < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            vcpu_fail(v, "error: kvm run failed %s", strerror(errno));
            continue;
        }
        switch (run->exit_reason) {
        case KVM_EXIT_IO:
            vcpu_handle_io(v);
            if (qemu_guest_exit_pending()) {
                /* isa-debug-exit: no guest instruction after the write */
                pthread_mutex_lock(&vcpu_lock);
                v->failed = true;
                pthread_cond_broadcast(&vcpu_cond);
                pthread_mutex_unlock(&vcpu_lock);
            }
            break;
        case KVM_EXIT_MMIO:
            vcpu_handle_mmio(v);
            break;
        case KVM_EXIT_HLT:
            /* Only without an in-kernel irqchip: nothing can wake it */
            pthread_mutex_lock(&vcpu_lock);
            while (vcpus_should_run) {
                v->parked = true;
                pthread_cond_broadcast(&vcpu_cond);
                pthread_cond_wait(&vcpu_cond, &vcpu_lock);
            }
            pthread_mutex_unlock(&vcpu_lock);
            break;
        case KVM_EXIT_SHUTDOWN:
            /* A triple fault resets the PC (or ends it with -no-reboot) */
            qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
            pthread_mutex_lock(&vcpu_lock);
            while (vcpus_should_run) {
                pthread_cond_wait(&vcpu_cond, &vcpu_lock);
            }
            pthread_mutex_unlock(&vcpu_lock);
            break;
        case KVM_EXIT_SYSTEM_EVENT:
            if (run->system_event.type == KVM_SYSTEM_EVENT_RESET) {
                qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
            } else {
                qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
            }
            break;
        case KVM_EXIT_INTERNAL_ERROR:
            vcpu_report_internal_error(v);
            break;
        case KVM_EXIT_FAIL_ENTRY:
            vcpu_fail(v, "KVM: entry failed, hardware error 0x%llx",
                      (unsigned long long)
                          run->fail_entry.hardware_entry_failure_reason);
            break;
        case KVM_EXIT_NOTIFY:
            /*
             * The guest held the CPU in a bus lock storm past the window
             * (-accel kvm,notify-vmexit=): run on, or stop in
             * internal-error as asked; a context the CPU lost always stops
             */
            if ((run->notify.flags & KVM_NOTIFY_CONTEXT_INVALID) ||
                kvm_accel_opts.notify_vmexit == NOTIFY_VMEXIT_INTERNAL_ERROR) {
                vcpu_fail(v, "KVM: %s",
                          run->notify.flags & KVM_NOTIFY_CONTEXT_INVALID
                              ? "invalid context due to notify vmexit"
                              : "notify vmexit");
            }
            break;
        case KVM_EXIT_IRQ_WINDOW_OPEN:
        case KVM_EXIT_INTR:
            break;
        default:
            vcpu_fail(v, "KVM: unhandled exit reason %u", run->exit_reason);
            break;
        }
    }
    return NULL;
}

static void kvm_pause_all(void)
{
    guint i;

    pthread_mutex_lock(&vcpu_lock);
    vcpus_should_run = false;
    for (i = 0; kvm_state->vcpu_list && i < kvm_state->vcpu_list->len; i++) {
        KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, i);
        v->run->immediate_exit = 1;
        if (vcpus_started) {
            pthread_kill(v->thread, SIG_IPI);
        }
    }
    pthread_cond_broadcast(&vcpu_cond);
    /* Wait until every thread is out of KVM_RUN */
    for (i = 0; vcpus_started && i < kvm_state->vcpu_list->len; i++) {
        KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, i);
        while (!v->parked && !v->failed) {
            pthread_cond_wait(&vcpu_cond, &vcpu_lock);
        }
    }
    pthread_mutex_unlock(&vcpu_lock);
}

/* SIG_IPI only interrupts KVM_RUN; it must not kill the process */
static bool kvm_install_sig_ipi(Error **errp)
{
    struct sigaction sa = { .sa_handler = sig_ipi_handler };

    if (sigaction(SIG_IPI, &sa, NULL) < 0) {
        error_setg(errp, "kvm: cannot install the vCPU kick signal "
                   "handler: %s", strerror(errno));
        return false;
    }
    return true;
}

/*
 * One thread per vCPU, parked until the VM first runs, as QEMU starts them
 * at start-up (management reads their ids while the VM is paused to pin
 * them).
 */
static bool kvm_create_vcpu_threads(Error **errp)
{
    guint i;

    if (!kvm_state || !kvm_state->vcpu_list || vcpus_started) {
        return true;
    }
    if (!kvm_install_sig_ipi(errp)) {
        return false;
    }
    for (i = 0; i < kvm_state->vcpu_list->len; i++) {
        KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, i);
        int ret = pthread_create(&v->thread, NULL, vcpu_thread_fn, v);

        if (ret) {
            /*
             * The threads already started stay parked: start-up fails
             * and the process exits, so nobody waits for the missing one
             */
            error_setg(errp, "kvm: cannot create the thread of vCPU %u: %s",
                       i, strerror(ret));
            return false;
        }
    }
    vcpus_started = true;
    /* Each thread records its id, then parks until the VM runs */
    pthread_mutex_lock(&vcpu_lock);
    for (i = 0; i < kvm_state->vcpu_list->len; i++) {
        KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, i);
        while (!v->parked && !vcpus_should_run) {
            pthread_cond_wait(&vcpu_cond, &vcpu_lock);
        }
    }
    pthread_mutex_unlock(&vcpu_lock);
    return true;
}

bool kvm_init_vcpus(MachineState *ms, Error **errp)
{
    guint i;

    for (i = 0; ms->cpus && i < ms->cpus->len; i++) {
        if (!kvm_init_vcpu(ms, g_ptr_array_index(ms->cpus, i), errp)) {
            return false;
        }
    }
    return kvm_create_vcpu_threads(errp);
}

/* The threads exist since start-up (kvm_create_vcpu_threads) */
static void kvm_resume_all(void)
{
    pthread_mutex_lock(&vcpu_lock);
    vcpus_should_run = true;
    pthread_cond_broadcast(&vcpu_cond);
    pthread_mutex_unlock(&vcpu_lock);
}

/* After a reset the failed vCPUs may run again */
void kvm_vcpus_clear_failed(void)
{
    guint i;

    pthread_mutex_lock(&vcpu_lock);
    for (i = 0; kvm_state->vcpu_list && i < kvm_state->vcpu_list->len; i++) {
        KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, i);
        v->failed = false;
    }
    pthread_cond_broadcast(&vcpu_cond);
    pthread_mutex_unlock(&vcpu_lock);
}

static const RunstateHooks kvm_runstate_hooks = {
    .pause_all = kvm_pause_all,
    .resume_all = kvm_resume_all,
};

void kvm_start_machine(MachineState *ms)
{
    pc_set_irq_handler(kvm_set_irq);
    runstate_set_hooks(&kvm_runstate_hooks);
    qemu_set_reset_vcpu_hooks(kvm_pause_all, kvm_resume_all);
}
