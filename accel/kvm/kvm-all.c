/*
 * The KVM accelerator: /dev/kvm, the VM with its in-kernel irqchip and PIT,
 * guest RAM, and vCPUs with the CPUID table expansion computed.
 *
 * Every ioctl is checked; failures become errors for the caller.
 */
#include <errno.h>
#include <inttypes.h>
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
#include "hw/intc/ioapic.h"
#include "hw/irq.h"
#include "sysemu/kvm.h"
#include "sysemu/os-posix.h"
#include "sysemu/reset.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"
#include "target/i386/hyperv.h"

#include "kvm-int.h"

typedef struct KVMState {
    int fd;
    int vm_fd;
    int run_size;
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
    int nmi_pending;     /* atomic: KVM_NMI before the next KVM_RUN */
} KVMVCPU;

#define SIG_IPI SIGUSR1

static KVMState *kvm_state;

bool kvm_enabled(void)
{
    return kvm_state != NULL;
}

bool kvm_has_smm(void)
{
    return kvm_state &&
           ioctl(kvm_state->vm_fd, KVM_CHECK_EXTENSION, KVM_CAP_X86_SMM) > 0;
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
    if (!kvm_irqchip_create(s->vm_fd, ms->kernel_irqchip, errp)) {
        goto fail;
    }
    kvm_disable_guest_exits(s->vm_fd);
    if (!kvm_apply_accel_options(s->vm_fd, errp)) {
        goto fail;
    }
    s->vcpus = g_hash_table_new(NULL, NULL);
    kvm_state = s;
    kvm_memory_init(s->fd, s->vm_fd);
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

void kvm_vm_internal_error_later(void)
{
    g_idle_add(vm_internal_error_bh, NULL);
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

/*
 * The port exit this thread is handling: its vCPU and, once a device asked
 * for them (vmport), its general registers.  Changed registers go back
 * before the vCPU runs on, with the instruction pointer untouched, so KVM
 * still completes the IN (QEMU's cpu_synchronize_state() and the put
 * before the next KVM_RUN, in the same order).
 */
static __thread KVMVCPU *exit_vcpu;
static __thread struct kvm_regs exit_regs;
static __thread bool exit_regs_fetched;

X86CPU *kvm_exit_cpu(void)
{
    return exit_vcpu ? exit_vcpu->cpu : NULL;
}

struct kvm_regs *kvm_exit_regs(void)
{
    if (!exit_vcpu) {
        return NULL;
    }
    if (!exit_regs_fetched) {
        if (ioctl(exit_vcpu->fd, KVM_GET_REGS, &exit_regs) < 0) {
            return NULL;
        }
        exit_regs_fetched = true;
    }
    return &exit_regs;
}

bool kvm_exit_cs_base(uint64_t *base)
{
    struct kvm_sregs sregs;

    if (!exit_vcpu || ioctl(exit_vcpu->fd, KVM_GET_SREGS, &sregs) < 0) {
        return false;
    }
    *base = sregs.cs.base;
    return true;
}

int kvm_exit_tsc_khz(void)
{
    int r;

    if (!exit_vcpu ||
        ioctl(kvm_state->fd, KVM_CHECK_EXTENSION, KVM_CAP_GET_TSC_KHZ) <= 0) {
        return 0;
    }
    r = ioctl(exit_vcpu->fd, KVM_GET_TSC_KHZ, 0);
    return r > 0 ? r : 0;
}

/* Port I/O through the "I/O" address space, one access per repetition */
static void vcpu_handle_io(KVMVCPU *v)
{
    struct kvm_run *run = v->run;
    uint8_t *data = (uint8_t *)run + run->io.data_offset;
    unsigned size = run->io.size;
    uint32_t i;

    exit_vcpu = v;
    exit_regs_fetched = false;
    for (i = 0; i < run->io.count; i++, data += size) {
        address_space_rw(&address_space_io, run->io.port,
                         MEMTXATTRS_UNSPECIFIED, data, size,
                         run->io.direction == KVM_EXIT_IO_OUT);
    }
    exit_vcpu = NULL;
    if (exit_regs_fetched && ioctl(v->fd, KVM_SET_REGS, &exit_regs) < 0) {
        vcpu_fail(v, "KVM_SET_REGS failed: %s", strerror(errno));
    }
    exit_regs_fetched = false;
}

/*
 * MMIO through "memory": device regions, unassigned memory (zeros), ROM
 * without read-only slots, RAM while its slot is being replaced
 */
static void vcpu_handle_mmio(KVMVCPU *v)
{
    struct kvm_run *run = v->run;

    address_space_rw(&address_space_memory, run->mmio.phys_addr,
                     MEMTXATTRS_UNSPECIFIED, run->mmio.data, run->mmio.len,
                     run->mmio.is_write);
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

/*
 * inject-nmi, a watchdog's inject-nmi action: an external NMI, which, as
 * in QEMU 7.2, comes through LINT1, so only while the guest has it
 * unmasked in NMI delivery mode
 */
static void vcpu_inject_external_nmi(KVMVCPU *v)
{
    struct kvm_lapic_state lapic;
    uint32_t lvt;

    if (ioctl(v->fd, KVM_GET_LAPIC, &lapic) < 0) {
        return;
    }
    memcpy(&lvt, &lapic.regs[0x360], sizeof(lvt));
    if (!(lvt & (1u << 16)) && ((lvt >> 8) & 7) == 4) {
        ioctl(v->fd, KVM_NMI, 0);
    }
}

/* kvm_set_pic_intr (kvm-irqchip.c): the boot vCPU leaves KVM_RUN or a halt */
void kvm_vcpu_kick_bsp(void)
{
    KVMVCPU *v;

    if (!kvm_state || !kvm_state->vcpu_list || !kvm_state->vcpu_list->len) {
        return;
    }
    pthread_mutex_lock(&vcpu_lock);
    v = g_ptr_array_index(kvm_state->vcpu_list, 0);
    v->run->immediate_exit = 1;
    if (vcpus_started && !v->parked && !v->failed) {
        pthread_kill(v->thread, SIG_IPI);
    }
    pthread_cond_broadcast(&vcpu_cond);
    pthread_mutex_unlock(&vcpu_lock);
}

static void *vcpu_thread_fn(void *opaque)
{
    KVMVCPU *v = opaque;
    char name[16];

    pthread_mutex_lock(&vcpu_lock);
    v->tid = (int)syscall(SYS_gettid);
    pthread_cond_broadcast(&vcpu_cond);
    pthread_mutex_unlock(&vcpu_lock);
    if (qemu_debug_threads) {
        snprintf(name, sizeof(name), "CPU %d/KVM", v->cpu->cpu_index);
        pthread_setname_np(pthread_self(), name);
    }

    for (;;) {
        struct kvm_run *run = v->run;
        int ret;

        vcpu_wait_for_run(v);
        if (__atomic_exchange_n(&v->nmi_pending, 0, __ATOMIC_ACQ_REL)) {
            vcpu_inject_external_nmi(v);
        }
        if (v->index == 0) {
            kvm_vcpu_inject_extint(v->fd, v->run);
        }
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
            /* Only without KVM's LAPIC: the PIC's INT wakes the BSP */
            pthread_mutex_lock(&vcpu_lock);
            while (vcpus_should_run &&
                   !(v->index == 0 && kvm_pic_intr_pending())) {
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
                kvm_notify_vmexit_stops()) {
                vcpu_fail(v, "KVM: %s",
                          run->notify.flags & KVM_NOTIFY_CONTEXT_INVALID
                              ? "invalid context due to notify vmexit"
                              : "notify vmexit");
            }
            break;
        case KVM_EXIT_IOAPIC_EOI:
            /* split irqchip: a level-triggered IOAPIC vector's EOI */
            ioapic_eoi_broadcast(run->eoi.vector);
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

/*
 * An NMI for every vCPU, as QEMU 7.2's inject-nmi gives (KVM_NMI): each
 * thread injects it before it next enters the guest; a running one is
 * kicked out of KVM_RUN for that
 */
void kvm_inject_nmi_all(void)
{
    guint i;

    pthread_mutex_lock(&vcpu_lock);
    for (i = 0; kvm_state && kvm_state->vcpu_list &&
                i < kvm_state->vcpu_list->len; i++) {
        KVMVCPU *v = g_ptr_array_index(kvm_state->vcpu_list, i);

        __atomic_store_n(&v->nmi_pending, 1, __ATOMIC_RELEASE);
        /* out of (or straight back from) KVM_RUN, as a pause kicks */
        v->run->immediate_exit = 1;
        if (vcpus_started && !v->parked && !v->failed) {
            pthread_kill(v->thread, SIG_IPI);
        }
    }
    pthread_mutex_unlock(&vcpu_lock);
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

bool kvm_hotplug_vcpu(MachineState *ms, X86CPU *cpu, Error **errp)
{
    KVMVCPU *v;
    int ret;

    if (!vcpus_started) {
        return true;
    }
    if (!kvm_init_vcpu(ms, cpu, errp)) {
        return false;
    }
    v = g_hash_table_lookup(kvm_state->vcpus, cpu);
    ret = pthread_create(&v->thread, NULL, vcpu_thread_fn, v);
    if (ret) {
        /* The fd stays: KVM cannot destroy a vCPU; the id is used up */
        error_setg(errp, "kvm: cannot create the thread of vCPU %d: %s",
                   cpu->cpu_index, strerror(ret));
        g_hash_table_remove(kvm_state->vcpus, cpu);
        g_ptr_array_remove(kvm_state->vcpu_list, v);
        return false;
    }
    /* query-cpus-fast shows its thread id at once */
    pthread_mutex_lock(&vcpu_lock);
    while (v->tid <= 0) {
        pthread_cond_wait(&vcpu_cond, &vcpu_lock);
    }
    pthread_mutex_unlock(&vcpu_lock);
    return true;
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
    /* otherwise the board's userspace PICs and IOAPIC take the GSIs */
    if (kvm_irqchip_in_kernel()) {
        pc_set_irq_handler(kvm_set_irq);
    }
    runstate_set_hooks(&kvm_runstate_hooks);
    qemu_set_reset_vcpu_hooks(kvm_pause_all, kvm_resume_all);
}
