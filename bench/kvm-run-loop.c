/*
 * kvm-run-loop: the physical limit for exit cost on this host.  A minimal
 * KVM VM (one vCPU, real mode, 64 KiB of RAM, no irqchip, no devices) runs
 *     1: outb %al, $0x80 ; dec %ecx ; jnz 1b        (pio)
 *     1: movb %al, (%bx) ; dec %ecx ; jnz 1b        (mmio: DS:BX unmapped)
 * and the host answers every exit with nothing but the next KVM_RUN.  The
 * loop is the same three instructions as bench-exits' guest loop.
 *
 * Usage: kvm-run-loop [pio|mmio] [N] [reps]
 * Prints one line per repetition: "<mode> n=N ns_per_exit=X tsc_per_exit=Y"
 * and a final "tsc_khz=K" (host TSC rate measured over the whole run).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#define MEM_SIZE 0x10000

static void die(const char *what)
{
    fprintf(stderr, "kvm-run-loop: %s: %s\n", what, strerror(errno));
    exit(1);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "pio";
    long n = argc > 2 ? atol(argv[2]) : 100000;
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    int mmio = !strncmp(mode, "mmio", 4);
    int real = strstr(mode, "-real") != NULL;
    /* real mode: out / mov %al,(%bx); dec %ecx (0x66 prefix); jnz; hlt */
    static const uint8_t real_pio[] = { 0xe6, 0x80, 0x66, 0x49, 0x75, 0xfa, 0xf4 };
    static const uint8_t real_mmio[] = { 0x88, 0x07, 0x66, 0x49, 0x75, 0xfa, 0xf4 };
    /* 32-bit: out / mov %eax,(%edx); dec %ecx; jnz; hlt */
    static const uint8_t pm_pio[] = { 0xe6, 0x80, 0x49, 0x75, 0xfb, 0xf4 };
    static const uint8_t pm_mmio[] = { 0x89, 0x02, 0x49, 0x75, 0xfb, 0xf4 };

    int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (kvm < 0) {
        die("/dev/kvm");
    }
    int vm = ioctl(kvm, KVM_CREATE_VM, 0);
    if (vm < 0) {
        die("KVM_CREATE_VM");
    }
    uint8_t *mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        die("mmap");
    }
    if (real) {
        memcpy(mem + 0x1000, mmio ? real_mmio : real_pio, sizeof(real_pio));
    } else {
        memcpy(mem + 0x1000, mmio ? pm_mmio : pm_pio, sizeof(pm_pio));
    }
    struct kvm_userspace_memory_region region = {
        .slot = 0, .guest_phys_addr = 0, .memory_size = MEM_SIZE,
        .userspace_addr = (uintptr_t)mem,
    };
    if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0) {
        die("KVM_SET_USER_MEMORY_REGION");
    }
    int vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
    if (vcpu < 0) {
        die("KVM_CREATE_VCPU");
    }
    int run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
    struct kvm_run *run = mmap(NULL, run_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
    if (run == MAP_FAILED) {
        die("mmap kvm_run");
    }
    struct kvm_sregs sregs;
    if (ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0) {
        die("KVM_GET_SREGS");
    }
    if (real) {
        sregs.cs.base = 0;
        sregs.cs.selector = 0;
        sregs.ds.base = 0x20000; /* beyond the 64 KiB of RAM: unmapped */
        sregs.ds.selector = 0x2000;
    } else {
        struct kvm_segment code = {
            .base = 0, .limit = 0xffffffff, .selector = 0x08, .type = 0xb,
            .present = 1, .dpl = 0, .db = 1, .s = 1, .l = 0, .g = 1,
        };
        struct kvm_segment data = code;
        data.selector = 0x10;
        data.type = 0x3;
        sregs.cs = code;
        sregs.ds = sregs.es = sregs.ss = sregs.fs = sregs.gs = data;
        sregs.cr0 |= 1; /* PE, paging off */
    }
    if (ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0) {
        die("KVM_SET_SREGS");
    }
    struct kvm_regs regs = { .rip = 0x1000, .rflags = 2, .rcx = 0xffffffff,
                             .rdx = 0xe0001000, .rsp = 0x8000 };
    if (ioctl(vcpu, KVM_SET_REGS, &regs) < 0) {
        die("KVM_SET_REGS");
    }

    /* warm-up, then timed repetitions */
    double t_first = now_ns();
    uint64_t tsc_first = __rdtsc();
    for (int r = -1; r < reps; r++) {
        long cnt = r < 0 ? 1000 : n;
        double t0 = now_ns();
        uint64_t c0 = __rdtsc();
        for (long i = 0; i < cnt; i++) {
            if (ioctl(vcpu, KVM_RUN, 0) < 0 && errno != EINTR) {
                die("KVM_RUN");
            }
            int want = mmio ? KVM_EXIT_MMIO : KVM_EXIT_IO;
            if (run->exit_reason != want) {
                fprintf(stderr, "kvm-run-loop: unexpected exit reason %u\n", run->exit_reason);
                return 1;
            }
        }
        uint64_t c1 = __rdtsc();
        double t1 = now_ns();
        if (r >= 0) {
            printf("%s n=%ld ns_per_exit=%.1f tsc_per_exit=%.1f\n", mode, cnt,
                   (t1 - t0) / cnt, (double)(c1 - c0) / cnt);
        }
    }
    double t_last = now_ns();
    printf("tsc_khz=%.0f\n", (double)(__rdtsc() - tsc_first) / (t_last - t_first) * 1e6);
    return 0;
}
