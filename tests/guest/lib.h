/*
 * Shared library of the freestanding test guests (tests/guest/).
 *
 * The guests run in 32-bit protected mode with flat segments and paging
 * off, so physical addresses are used directly as pointers.  Interrupts
 * stay disabled for the whole run.
 */
#ifndef GUEST_LIB_H
#define GUEST_LIB_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef unsigned int size_t;
typedef unsigned int uintptr_t;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)

typedef __builtin_va_list va_list;
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NORETURN __attribute__((noreturn))

#define MAX_CPUS 64
#define AP_TRAMPOLINE_ADDR 0x8000u /* SIPI vector 0x08 */

/* ---- port and MMIO access ---- */
static inline void outb(u16 port, u8 v) { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { __asm__ volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline u8 inb(u16 port) { u8 v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u16 inw(u16 port) { u16 v; __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u32 inl(u16 port) { u32 v; __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

/* A pointer to a fixed physical address the compiler cannot reason about. */
static inline void *phys(u32 addr)
{
    __asm__("" : "+r"(addr));
    return (void *)addr;
}

static inline u32 mmio_read32(u32 addr) { return *(volatile u32 *)addr; }
static inline void mmio_write32(u32 addr, u32 v) { *(volatile u32 *)addr = v; }

static inline void cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }
static inline void io_delay(void) { outb(0x80, 0); }

struct cpuid_regs { u32 eax, ebx, ecx, edx; };
static inline struct cpuid_regs cpuid2(u32 leaf, u32 sub)
{
    struct cpuid_regs r;
    __asm__ volatile("cpuid" : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
                     : "a"(leaf), "c"(sub));
    return r;
}
static inline struct cpuid_regs cpuid(u32 leaf) { return cpuid2(leaf, 0); }

static inline u64 rdmsr(u32 msr)
{
    u32 lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
    return ((u64)hi << 32) | lo;
}
static inline void wrmsr(u32 msr, u64 v)
{
    __asm__ volatile("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

/* boot.S: return 0 on success, 1 if the instruction raised #GP. */
int wrmsr_safe(u32 msr, u32 lo, u32 hi);
int rdmsr_safe(u32 msr, u64 *val);

/* ---- boot information (filled before guest_main runs) ---- */
enum boot_kind { BOOT_UNKNOWN = 0, BOOT_MULTIBOOT = 1, BOOT_PVH = 2 };
struct boot_info {
    enum boot_kind kind;
    char cmdline[1024];
    u32 rsdp;      /* from PVH start_info, 0 if not given */
    u32 ram_top;   /* end of the RAM block starting at 1 MiB, 0 if unknown */
};
extern struct boot_info boot_info;

/* Each guest defines this; its return value becomes the exit code. */
int guest_main(void);
extern const char guest_name[];

/* ---- strings ---- */
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

/* ---- console: COM1 16550 at 0x3f8 (optionally mirrored to port 0xe9) ---- */
void console_init(void);
void putchar(char c);
void puts(const char *s); /* no newline appended */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- spinlock ---- */
typedef struct { volatile u32 v; } spinlock_t;
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
extern spinlock_t print_lock;

/* ---- command line: space separated words, `key=value` or `flag` ---- */
bool cmdline_has(const char *word);           /* `word` or `word=...` present */
const char *cmdline_get(const char *key, char *buf, size_t size); /* NULL if absent */
u32 cmdline_uint(const char *key, u32 dflt);   /* decimal or 0x hex */
bool cmdline_is(const char *key, const char *value);

/* ---- exit ---- */
enum exit_method { EXIT_DEBUG, EXIT_ACPI };
extern enum exit_method default_exit_method; /* a guest may change it */
NORETURN void guest_exit(int code);
NORETURN void halt_forever(void);

/* ---- ACPI ---- */
u32 acpi_find_rsdp(void);
void *acpi_find_table(const char sig[4], int instance);
int acpi_madt_apic_ids(u32 *ids, int max);  /* enabled CPUs, -1 without MADT */
bool acpi_poweroff(void);                     /* returns only on failure */
/* Enters \_Sn_ ('3', '4', '5'): PM1a_CNT SLP_TYP | SLP_EN; false if it
 * is not declared or did not take effect */
bool acpi_sleep(char state);
bool acpi_wait_power_button(void);            /* false without PM1a_EVT */

/* ---- KVM paravirt CPUID ---- */
u32 kvm_cpuid_base(void);  /* 0 if no "KVMKVMKVM" signature */
struct kvm_feature_name { int bit; const char *name; };
extern const struct kvm_feature_name kvm_feature_names[];
extern const int kvm_feature_count;
void print_kvm_features(const char *prefix);

/* ---- CPU numbering, LAPIC and SMP ---- */
u32 lapic_base(void);
u32 cpu_apic_id(void);           /* from CPUID 1 EBX[31:24] */
int cpu_index_of_apic(u32 apic); /* position in the MADT, or the APIC id */
int smp_expected_cpus(void);     /* cmdline cpus=, else MADT, else -1 */
/*
 * Start every AP with INIT/SIPI/SIPI (broadcast, all excluding self).  Each
 * AP runs fn(cpu_index) and then halts; fn returning counts it as done.
 * Returns the number of CPUs (BSP included) that finished, waiting until
 * `expected` have or the timeout elapses (expected < 0: wait the timeout).
 */
int smp_run_aps(void (*fn)(int cpu), int expected);

/* ---- misc ---- */
u32 rand32(u32 *state);
void print_exception_summary(void);
/* NMIs taken so far (the exception handler counts vector 2) */
u32 nmis_seen(void);

/* The IDT: a 32-bit interrupt gate for vec (exceptions come installed) */
void idt_set_gate(int vec, u32 handler);
/* lidt of that IDT (each vCPU: the boot CPU's is loaded at start) */
void idt_load(void);

#endif
