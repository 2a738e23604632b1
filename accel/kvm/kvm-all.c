/*
 * The KVM accelerator: /dev/kvm, the VM with its in-kernel irqchip and PIT,
 * guest RAM, and vCPUs with the CPUID table expansion computed.
 *
 * Every ioctl is checked; failures become errors for the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "exec/memory.h"
#include "hw/boards.h"
#include "sysemu/kvm.h"

typedef struct KVMState {
    int fd;
    int vm_fd;
    int run_size;
    void *ram;
    uint64_t ram_size;
    GHashTable *vcpus; /* X86CPU* -> KVMVCPU* */
} KVMState;

typedef struct KVMVCPU {
    int fd;
    struct kvm_run *run;
} KVMVCPU;

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
    uint64_t below = MIN(size, PC_BELOW_4G_MAX);

    /* The machine's RAM block (exec/memory.h), shared with qtest */
    s->ram = memory_ram_alloc(size, errp);
    if (!s->ram) {
        return false;
    }
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

static bool kvm_create_irqchip(KVMState *s, KernelIrqchip mode, Error **errp)
{
    struct kvm_pit_config pit = { .flags = KVM_PIT_SPEAKER_DUMMY };

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
    if (ioctl(s->vm_fd, KVM_CREATE_PIT2, &pit) < 0) {
        error_setg(errp, "Create kernel PIT failed: %s", strerror(errno));
        return false;
    }
    return true;
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
    if (!kvm_create_irqchip(s, ms->kernel_irqchip, errp) ||
        !kvm_set_ram(s, ms->ram_size, errp)) {
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

bool kvm_init_vcpu(MachineState *ms, X86CPU *cpu, Error **errp)
{
    KVMState *s = kvm_state;
    KVMVCPU *v = g_new0(KVMVCPU, 1);
    struct kvm_cpuid2 *cpuid;
    GArray *table;
    guint i;
    int ret;

    v->fd = ioctl(s->vm_fd, KVM_CREATE_VCPU, (unsigned long)cpu->apic_id);
    if (v->fd < 0) {
        error_setg(errp, "kvm_init_vcpu: kvm_get_vcpu failed (%u): %s",
                   cpu->apic_id, strerror(errno));
        g_free(v);
        return false;
    }
    v->run = mmap(NULL, s->run_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                  v->fd, 0);
    if (v->run == MAP_FAILED) {
        error_setg(errp, "mmap'ing vcpu state failed: %s", strerror(errno));
        close(v->fd);
        g_free(v);
        return false;
    }

    table = x86_cpu_build_cpuid_table(cpu, &ms->cpu_env);
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
    ret = ioctl(v->fd, KVM_SET_CPUID2, cpuid);
    g_free(cpuid);
    if (ret < 0) {
        error_setg(errp, "kvm_init_vcpu: KVM_SET_CPUID2 failed: %s",
                   strerror(errno));
        munmap(v->run, s->run_size);
        close(v->fd);
        g_free(v);
        return false;
    }
    g_hash_table_insert(s->vcpus, cpu, v);
    return true;
}

int kvm_vcpu_thread_id(X86CPU *cpu)
{
    /* vCPU threads arrive with guest execution; until then the main thread */
    return kvm_state ? (int)getpid() : -1;
}
