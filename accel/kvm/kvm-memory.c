/*
 * KVM's memory slots (kvm-int.h): they follow the RAM and ROM ranges of
 * the "memory" address space's flat view, held while the machine is
 * built and synced once at its end (kvm_memory_release).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/kvm.h>

#include <glib.h>

#include "exec/memory.h"
#include "sysemu/kvm.h"
#include "kvm-int.h"

#define ROUND_UP(n, d) (((n) + (d) - 1) & -(d))
#define container_of(ptr, type, member) \
    ((type *)((char *)(ptr) - offsetof(type, member)))

/* A memory slot: guest physical start, size and the host memory */
typedef struct KVMSlot {
    int id;
    uint64_t start, size;
    void *host;
    uint32_t flags;
} KVMSlot;

typedef struct KVMMemory {
    int vm_fd;
    MemoryListener listener;
    GArray *slots;      /* KVMSlot */
    int max_slots;
    bool readonly_mem;  /* KVM_CAP_READONLY_MEM */
    char *slot_error;   /* a slot update failed (reported at release) */
    bool held;          /* the machine is being built: no slot updates */
    bool started;       /* released: errors stop the VM */
} KVMMemory;

static KVMMemory kvm_mem;

/*
 * Memory slots follow the RAM and ROM ranges of the "memory" address
 * space's flat view (page-aligned parts; ROM read-only where the host
 * allows it, else left to MMIO exits, which read it and drop writes).
 * Every commit removes the slots that changed, then adds the new ones.
 */
static bool kvm_slot_equal(const KVMSlot *a, const KVMSlot *b)
{
    return a->start == b->start && a->size == b->size &&
           a->host == b->host && a->flags == b->flags;
}

static bool kvm_slot_ioctl(KVMMemory *s, const KVMSlot *k, bool remove)
{
    struct kvm_userspace_memory_region r = {
        .slot = k->id,
        .flags = k->flags,
        .guest_phys_addr = k->start,
        .memory_size = remove ? 0 : k->size,
        .userspace_addr = (uintptr_t)k->host,
    };

    if (ioctl(s->vm_fd, KVM_SET_USER_MEMORY_REGION, &r) < 0) {
        g_free(s->slot_error);
        s->slot_error = g_strdup_printf("KVM_SET_USER_MEMORY_REGION failed "
                                        "for 0x%" PRIx64 "+0x%" PRIx64 ": %s",
                                        k->start, k->size, strerror(errno));
        return false;
    }
    return true;
}

static int kvm_slot_alloc_id(KVMMemory *s)
{
    int id;
    guint i;

    for (id = 0; id < s->max_slots; id++) {
        bool used = false;

        for (i = 0; i < s->slots->len && !used; i++) {
            used = g_array_index(s->slots, KVMSlot, i).id == id;
        }
        if (!used) {
            return id;
        }
    }
    return -1;
}

static GArray *kvm_wanted_slots(KVMMemory *s, FlatView *fv)
{
    GArray *want = g_array_new(FALSE, TRUE, sizeof(KVMSlot));
    uint64_t page = getpagesize();
    unsigned i;

    for (i = 0; fv && i < fv->nr; i++) {
        const FlatRange *r = &fv->ranges[i];
        uint64_t start = ROUND_UP(r->start, page);
        Int128 end = ((Int128)r->start + r->size) & ~(Int128)(page - 1);
        KVMSlot k = { 0 };

        if (!r->mr->ram || end <= start ||
            (r->readonly && !s->readonly_mem)) {
            continue;
        }
        k.start = start;
        k.size = (uint64_t)(end - start);
        k.host = r->mr->ram_ptr + r->offset_in_region + (start - r->start);
        k.flags = r->readonly ? KVM_MEM_READONLY : 0;
        g_array_append_val(want, k);
    }
    return want;
}

static void kvm_memory_commit(MemoryListener *l, AddressSpace *as,
                              FlatView *old_fv, FlatView *new_fv)
{
    KVMMemory *s = container_of(l, KVMMemory, listener);
    GArray *want;
    guint i, j;

    if (s->held) {
        return;         /* kvm_memory_release() syncs with the last view */
    }
    want = kvm_wanted_slots(s, new_fv);

    /* Slots that are not wanted as they are go first: KVM refuses overlap */
    for (i = 0; i < s->slots->len;) {
        KVMSlot *k = &g_array_index(s->slots, KVMSlot, i);
        bool keep = false;

        for (j = 0; j < want->len && !keep; j++) {
            keep = kvm_slot_equal(k, &g_array_index(want, KVMSlot, j));
        }
        if (keep) {
            i++;
            continue;
        }
        kvm_slot_ioctl(s, k, true);
        g_array_remove_index(s->slots, i);
    }
    for (j = 0; j < want->len; j++) {
        KVMSlot *w = &g_array_index(want, KVMSlot, j);
        bool have = false;

        for (i = 0; i < s->slots->len && !have; i++) {
            have = kvm_slot_equal(&g_array_index(s->slots, KVMSlot, i), w);
        }
        if (have) {
            continue;
        }
        w->id = kvm_slot_alloc_id(s);
        if (w->id < 0) {
            g_free(s->slot_error);
            s->slot_error = g_strdup("KVM: out of memory slots");
            continue;
        }
        if (kvm_slot_ioctl(s, w, false)) {
            g_array_append_val(s->slots, *w);
        }
    }
    g_array_free(want, TRUE);
    if (s->slot_error && s->started) {
        /* At run time there is nobody to return the error to */
        error_report("%s", s->slot_error);
        kvm_vm_internal_error_later();
        g_clear_pointer(&s->slot_error, g_free);
    }
}

/* info mtree -f marks the ranges that are exactly one slot "KVM" */
static bool kvm_has_memory(AddressSpace *as, hwaddr start, hwaddr size)
{
    KVMMemory *s = &kvm_mem;
    guint i;

    if (!s->slots || as != &address_space_memory) {
        return false;
    }
    for (i = 0; i < s->slots->len; i++) {
        KVMSlot *k = &g_array_index(s->slots, KVMSlot, i);

        if (k->start == start && k->size == size) {
            return true;
        }
    }
    return false;
}

void kvm_memory_init(int kvm_fd, int vm_fd)
{
    KVMMemory *s = &kvm_mem;

    s->vm_fd = vm_fd;
    s->max_slots = ioctl(kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_NR_MEMSLOTS);
    if (s->max_slots <= 0) {
        s->max_slots = 32;
    }
    s->readonly_mem = ioctl(vm_fd, KVM_CHECK_EXTENSION,
                            KVM_CAP_READONLY_MEM) > 0;
    s->slots = g_array_new(FALSE, TRUE, sizeof(KVMSlot));
    /*
     * While the machine is built its memory map changes many times (the
     * board, its PAM registers set for the direct loader, reset): KVM sees
     * the final one, once (a slot of guest RAM costs the kernel its
     * reverse map, allocated and cleared at every change)
     */
    s->held = true;
    s->listener.commit = kvm_memory_commit;
    memory_listener_register(&s->listener, &address_space_memory);
    memory_set_accel_has_memory("KVM", kvm_has_memory);
}

bool kvm_memory_release(Error **errp)
{
    KVMMemory *s = &kvm_mem;
    FlatView *fv;

    if (!s->slots || !s->held) {
        return true;
    }
    s->held = false;
    fv = address_space_get_flatview(&address_space_memory);
    kvm_memory_commit(&s->listener, &address_space_memory, NULL, fv);
    flatview_unref(fv);
    /* start-up's last slot update: later ones stop the VM on an error */
    s->started = true;
    if (s->slot_error) {
        error_setg(errp, "%s", s->slot_error);
        return false;
    }
    return true;
}
