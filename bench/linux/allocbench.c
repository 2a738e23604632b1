/*
 * allocbench: an ebizzy-like allocator benchmark for the Linux overcommit
 * benchmark (written for this project).  T threads each loop for S
 * seconds: map a chunk of 256 KiB..1 MiB (mmap), fill it, search it for a
 * key, copy it, unmap it.  Every munmap of memory another thread's CPU may
 * have cached in its TLB is a TLB shootdown IPI to the other vCPUs of the
 * process: the case kvm-pv-tlb-flush helps when those vCPUs are preempted.
 *
 * Usage: allocbench [threads=2*CPUs] [seconds=10]
 * Output: "ALLOCBENCH threads=T seconds=S records=N records_per_s=R"
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static long counts[256];

static unsigned long xorshift(unsigned long *s)
{
    unsigned long x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    unsigned long seed = 0x9e3779b97f4a7c15ul * (unsigned long)(id + 1);
    long n = 0;
    char *copy = malloc(1 << 20);
    while (!stop) {
        size_t len = (256u << 10) + (xorshift(&seed) % (768u << 10));
        len &= ~4095ul;
        unsigned *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            perror("mmap");
            exit(1);
        }
        size_t words = len / sizeof(unsigned);
        for (size_t i = 0; i < words; i++) {
            p[i] = (unsigned)xorshift(&seed);
        }
        unsigned key = p[xorshift(&seed) % words];
        for (size_t i = 0; i < words; i++) {
            if (p[i] == key) {
                break;
            }
        }
        memcpy(copy, p, len);
        munmap(p, len);
        n++;
    }
    counts[id] = n;
    free(copy);
    return NULL;
}

int main(int argc, char **argv)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = argc > 1 ? atoi(argv[1]) : (int)(2 * ncpu);
    int seconds = argc > 2 ? atoi(argv[2]) : 10;
    pthread_t tid[256];
    if (threads < 1 || threads > 256) {
        threads = 2;
    }
    for (long i = 0; i < threads; i++) {
        pthread_create(&tid[i], NULL, worker, (void *)i);
    }
    sleep((unsigned)seconds);
    stop = 1;
    long total = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
        total += counts[i];
    }
    printf("ALLOCBENCH threads=%d seconds=%d records=%ld records_per_s=%.1f\n", threads, seconds,
           total, (double)total / seconds);
    return 0;
}
