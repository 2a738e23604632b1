/*
 * Shared library of the test guests: boot information, console, formatted
 * output, command line, exceptions, exit paths and the KVM PV feature names.
 */
#include "lib.h"

struct boot_info boot_info;
spinlock_t print_lock;
enum exit_method default_exit_method = EXIT_DEBUG;

static bool mirror_e9;

/* ---------------------------------------------------------------- strings */

void *memcpy(void *d, const void *s, size_t n)
{
    u8 *dp = d;
    const u8 *sp = s;
    while (n--) {
        *dp++ = *sp++;
    }
    return d;
}

void *memset(void *d, int c, size_t n)
{
    u8 *dp = d;
    while (n--) {
        *dp++ = (u8)c;
    }
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const u8 *x = a, *y = b;
    for (; n; n--, x++, y++) {
        if (*x != *y) {
            return *x < *y ? -1 : 1;
        }
    }
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n]) {
        n++;
    }
    return n;
}

/* ---------------------------------------------------------------- console */

#define COM1 0x3f8

void console_init(void)
{
    outb(COM1 + 1, 0x00); /* IER: no interrupts */
    outb(COM1 + 3, 0x80); /* LCR: DLAB */
    outb(COM1 + 0, 0x01); /* DLL: 115200 baud */
    outb(COM1 + 1, 0x00); /* DLM */
    outb(COM1 + 3, 0x03); /* LCR: 8N1 */
    outb(COM1 + 2, 0x07); /* FCR: FIFO on, both cleared */
    outb(COM1 + 4, 0x03); /* MCR: DTR, RTS; OUT2 off */
}

void putchar(char c)
{
    /* Wait for THRE, but not forever: a missing UART reads 0xff anyway. */
    for (int i = 0; i < 100000; i++) {
        if (inb(COM1 + 5) & 0x20) {
            break;
        }
        cpu_relax();
    }
    outb(COM1, (u8)c);
    if (mirror_e9) {
        outb(0xe9, (u8)c);
    }
}

void puts(const char *s)
{
    while (*s) {
        putchar(*s++);
    }
}

/* ------------------------------------------------------------- formatting */

struct outbuf {
    char *buf;
    size_t size, len;
};

static void out_c(struct outbuf *o, char c)
{
    if (o->len + 1 < o->size) {
        o->buf[o->len] = c;
    }
    o->len++;
}

/* 64-by-10 division with two 32-bit divl steps (no libgcc needed). */
static u32 divmod10(u64 *v)
{
    u32 hi = (u32)(*v >> 32), lo = (u32)*v, qhi, qlo, rem;
    qhi = hi / 10;
    rem = hi % 10;
    __asm__("divl %4" : "=a"(qlo), "=d"(rem) : "a"(lo), "d"(rem), "rm"(10u));
    *v = ((u64)qhi << 32) | qlo;
    return rem;
}

static void out_num(struct outbuf *o, u64 v, int base, int width, char pad, bool neg)
{
    char tmp[24];
    int n = 0;
    do {
        u32 d;
        if (base == 16) {
            d = (u32)v & 15;
            v >>= 4;
        } else {
            d = divmod10(&v);
        }
        tmp[n++] = "0123456789abcdef"[d];
    } while (v);
    if (neg) {
        if (pad == '0') {
            out_c(o, '-');
        } else {
            tmp[n++] = '-';
        }
        width--;
    }
    for (int i = n; i < width; i++) {
        out_c(o, pad);
    }
    while (n) {
        out_c(o, tmp[--n]);
    }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct outbuf o = { buf, size, 0 };
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            out_c(&o, *fmt);
            continue;
        }
        fmt++;
        char pad = ' ';
        int width = 0, lng = 0;
        bool left = false;
        if (*fmt == '-') {
            left = true;
            fmt++;
        }
        if (*fmt == '0') {
            pad = '0';
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9') {
            width = width * 10 + (*fmt++ - '0');
        }
        while (*fmt == 'l') {
            lng++;
            fmt++;
        }
        switch (*fmt) {
        case 'd': {
            long long v = lng >= 2 ? va_arg(ap, long long) : va_arg(ap, int);
            out_num(&o, v < 0 ? (u64)-v : (u64)v, 10, width, pad, v < 0);
            break;
        }
        case 'u':
        case 'x': {
            u64 v = lng >= 2 ? va_arg(ap, u64) : va_arg(ap, u32);
            out_num(&o, v, *fmt == 'x' ? 16 : 10, width, pad, false);
            break;
        }
        case 'p':
            out_c(&o, '0');
            out_c(&o, 'x');
            out_num(&o, (uintptr_t)va_arg(ap, void *), 16, 8, '0', false);
            break;
        case 'c':
            out_c(&o, (char)va_arg(ap, int));
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) {
                s = "(null)";
            }
            int n = (int)strlen(s);
            if (!left) {
                for (int i = n; i < width; i++) {
                    out_c(&o, ' ');
                }
            }
            while (*s) {
                out_c(&o, *s++);
            }
            if (left) {
                for (int i = n; i < width; i++) {
                    out_c(&o, ' ');
                }
            }
            break;
        }
        case '%':
            out_c(&o, '%');
            break;
        case 0:
            fmt--;
            break;
        default:
            out_c(&o, '%');
            out_c(&o, *fmt);
            break;
        }
    }
    if (size) {
        buf[o.len < size ? o.len : size - 1] = 0;
    }
    return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int printf(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    puts(buf);
    return n;
}

/* --------------------------------------------------------------- spinlock */

void spin_lock(spinlock_t *l)
{
    while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE)) {
        while (l->v) {
            cpu_relax();
        }
    }
}

void spin_unlock(spinlock_t *l)
{
    __atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- cmdline */

/* Finds `key` as a whole word or as `key=`; returns the value (or "") */
static const char *cmdline_find(const char *key)
{
    const char *p = boot_info.cmdline;
    size_t kl = strlen(key);
    while (*p) {
        while (*p == ' ') {
            p++;
        }
        const char *w = p;
        while (*p && *p != ' ') {
            p++;
        }
        if ((size_t)(p - w) >= kl && !memcmp(w, key, kl)) {
            if (w[kl] == '=') {
                return w + kl + 1;
            }
            if (w + kl == p) {
                return p; /* points at ' ' or NUL: empty value */
            }
        }
    }
    return NULL;
}

bool cmdline_has(const char *word)
{
    return cmdline_find(word) != NULL;
}

const char *cmdline_get(const char *key, char *buf, size_t size)
{
    const char *v = cmdline_find(key);
    size_t n = 0;
    if (!v) {
        return NULL;
    }
    while (v[n] && v[n] != ' ' && n + 1 < size) {
        buf[n] = v[n];
        n++;
    }
    buf[n] = 0;
    return buf;
}

bool cmdline_is(const char *key, const char *value)
{
    char buf[64];
    size_t n = strlen(value);
    return cmdline_get(key, buf, sizeof(buf)) && strlen(buf) == n && !memcmp(buf, value, n);
}

u32 cmdline_uint(const char *key, u32 dflt)
{
    char buf[32];
    const char *s = cmdline_get(key, buf, sizeof(buf));
    u32 v = 0;
    if (!s || !*s) {
        return dflt;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (s += 2; *s; s++) {
            char c = *s;
            if (c >= '0' && c <= '9') {
                v = v * 16 + (u32)(c - '0');
            } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
                v = v * 16 + (u32)((c | 0x20) - 'a' + 10);
            } else {
                return dflt;
            }
        }
        return v;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return dflt;
        }
        v = v * 10 + (u32)(*s - '0');
    }
    return v;
}

/* ------------------------------------------------------------------- exit */

NORETURN void halt_forever(void)
{
    for (;;) {
        __asm__ volatile("cli; hlt");
    }
}

static void debug_exit(int code)
{
    u16 port = (u16)cmdline_uint("exit-port", 0xf4);
    outl(port, (u32)code);
}

NORETURN void guest_exit(int code)
{
    enum exit_method m = default_exit_method;
    if (cmdline_is("exit", "panic")) {
        /* pvpanic: "panicked"; what follows is the emulator's business */
        u16 port = (u16)cmdline_uint("panic-port", 0x505);
        printf("EXIT code=%d via pvpanic port 0x%x\n", code, port);
        outb(port, 1);
        halt_forever();
    }
    if (cmdline_is("exit", "reset")) {
        /* The keyboard controller's reset line: a guest-initiated reset */
        printf("EXIT code=%d via i8042 reset\n", code);
        outb(0x64, 0xfe);
        halt_forever();
    }
    if (cmdline_is("exit", "acpi")) {
        m = EXIT_ACPI;
    } else if (cmdline_is("exit", "debug") || cmdline_has("exit-port")) {
        m = EXIT_DEBUG;
    }
    if (m == EXIT_ACPI) {
        if (code != 0) {
            /* ACPI poweroff cannot carry a failure code. */
            printf("EXIT code=%d via isa-debug-exit port 0x%x (failure)\n", code,
                   cmdline_uint("exit-port", 0xf4));
            debug_exit(code);
            printf("EXIT isa-debug-exit did not stop the machine, halting\n");
            halt_forever();
        }
        if (cmdline_has("wait-powerbtn")) {
            printf("WAIT-POWER-BUTTON\n");
            if (acpi_wait_power_button()) {
                printf("POWER-BUTTON\n");
            }
        }
        printf("EXIT code=%d via acpi\n", code);
        acpi_poweroff();
        printf("EXIT acpi poweroff did not stop the machine\n");
        debug_exit(code);
    } else {
        printf("EXIT code=%d via isa-debug-exit port 0x%x\n", code,
               cmdline_uint("exit-port", 0xf4));
        debug_exit(code);
        printf("EXIT isa-debug-exit did not stop the machine, trying acpi\n");
        acpi_poweroff();
    }
    printf("EXIT no exit path worked, halting\n");
    halt_forever();
}

/* ------------------------------------------------------------- exceptions */

struct exc_frame {
    u32 edi, esi, ebp, esp0, ebx, edx, ecx, eax;
    u32 vector, error, eip, cs, eflags;
};

extern const u32 exc_stubs[32];
extern const u32 __ex_table_start[], __ex_table_end[];

static struct {
    u16 limit_lo, sel;
    u8 zero, type;
    u16 limit_hi;
} __attribute__((packed)) idt[256];

/* Only the exception vectors until a guest installs a gate of its own */
static struct {
    u16 limit;
    u32 base;
} __attribute__((packed)) idt_desc = { 32 * 8 - 1, 0 };

void idt_set_gate(int vec, u32 handler)
{
    idt[vec].limit_lo = (u16)handler;
    idt[vec].sel = 0x08;
    idt[vec].zero = 0;
    idt[vec].type = 0x8e; /* present, DPL 0, 32-bit interrupt gate */
    idt[vec].limit_hi = (u16)(handler >> 16);
    if (vec >= 32) {
        idt_desc.limit = sizeof(idt) - 1;
    }
}

static void idt_init(void)
{
    for (int i = 0; i < 32; i++) {
        idt_set_gate(i, exc_stubs[i]);
    }
    idt_desc.base = (u32)idt;
}

void idt_load(void)
{
    __asm__ volatile("lidt %0" :: "m"(idt_desc));
}

static volatile u32 nmi_count;

void exception_handler(struct exc_frame *f)
{
    if (f->vector == 2) {
        nmi_count++;
        return;
    }
    for (const u32 *e = __ex_table_start; e < __ex_table_end; e += 2) {
        if (e[0] == f->eip) {
            f->eip = e[1];
            return;
        }
    }
    print_lock.v = 0; /* we might have faulted while holding it */
    printf("EXCEPTION vector=%u error=0x%x eip=0x%08x eax=0x%x ecx=0x%x edx=0x%x apic-id=%u\n",
           f->vector, f->error, f->eip, f->eax, f->ecx, f->edx, cpu_apic_id());
    guest_exit(3);
}

u32 nmis_seen(void)
{
    return nmi_count;
}

void print_exception_summary(void)
{
    if (nmi_count) {
        printf("NMI count=%u\n", nmi_count);
    }
}

/* ------------------------------------------------------------------- boot */

#define MB_BOOT_MAGIC 0x2BADB002
#define PVH_MAGIC 0x336ec578

static void copy_cmdline(u32 addr)
{
    const char *s = (const char *)addr;
    size_t n = 0;
    if (!addr) {
        return;
    }
    while (s[n] && n + 1 < sizeof(boot_info.cmdline)) {
        boot_info.cmdline[n] = s[n];
        n++;
    }
    boot_info.cmdline[n] = 0;
}

static void parse_multiboot(u32 magic, u32 info)
{
    const u32 *mbi = (const u32 *)info;
    if (magic != MB_BOOT_MAGIC || !info) {
        boot_info.kind = BOOT_UNKNOWN;
        return;
    }
    if (mbi[0] & 1) {
        boot_info.ram_top = 0x100000 + mbi[2] * 1024; /* mem_upper in KiB */
    }
    if (mbi[0] & 4) {
        copy_cmdline(mbi[4]);
    }
}

static void parse_pvh(u32 info)
{
    const u32 *si = (const u32 *)info;
    if (!info || si[0] != PVH_MAGIC) {
        boot_info.kind = BOOT_UNKNOWN;
        return;
    }
    if (!si[7]) {
        copy_cmdline(si[6]);        /* cmdline_paddr */
    }
    if (!si[9]) {
        boot_info.rsdp = si[8];     /* rsdp_paddr */
    }
    if (si[1] >= 1 && si[10] && !si[11]) {
        /* memmap (version 1): {u64 addr, u64 size, u32 type, u32 pad} */
        const u32 *e = (const u32 *)si[10];
        for (u32 i = 0; i < si[12]; i++, e += 6) {
            if (e[4] == 1 && !e[1] && e[0] <= 0x100000 && !e[3] &&
                e[0] + e[2] > 0x100000) {
                boot_info.ram_top = e[0] + e[2];
            }
        }
    }
}

NORETURN void boot_main(u32 kind, u32 eax, u32 ebx)
{
    boot_info.kind = (enum boot_kind)kind;
    if (kind == BOOT_MULTIBOOT) {
        parse_multiboot(eax, ebx);
    } else {
        parse_pvh(ebx);
    }
    idt_init();
    idt_load();
    mirror_e9 = cmdline_is("e9", "on");
    console_init();
    guest_exit(guest_main());
}

/* --------------------------------------------------------------- KVM bits */

u32 kvm_cpuid_base(void)
{
    for (u32 base = 0x40000000; base < 0x40010000; base += 0x100) {
        struct cpuid_regs r = cpuid(base);
        if (r.ebx == 0x4b4d564b && r.ecx == 0x564b4d56 && r.edx == 0x4d) {
            return base; /* "KVMKVMKVM\0\0\0" */
        }
    }
    return 0;
}

/* Bit numbers of Linux's kvm_para.h, named as QEMU's -cpu properties. */
const struct kvm_feature_name kvm_feature_names[] = {
    { 0, "kvmclock" },
    { 1, "kvm-nopiodelay" },
    { 2, "kvm-mmu" },
    { 3, "kvmclock2" },
    { 4, "kvm-asyncpf" },
    { 5, "kvm-steal-time" },
    { 6, "kvm-pv-eoi" },
    { 7, "kvm-pv-unhalt" },
    { 9, "kvm-pv-tlb-flush" },
    { 10, "kvm-asyncpf-vmexit" },
    { 11, "kvm-pv-ipi" },
    { 12, "kvm-poll-control" },
    { 13, "kvm-pv-sched-yield" },
    { 14, "kvm-asyncpf-int" },
    { 15, "kvm-msi-ext-dest-id" },
    { 16, "kvm-hc-map-gpa-range" },
    { 17, "kvm-migration-control" },
    { 24, "kvmclock-stable-bit" },
};
const int kvm_feature_count = ARRAY_SIZE(kvm_feature_names);

/*
 * Prints
 *   <prefix>KVM-FEATURES base=0x40000000 eax=0x... edx=0x...
 *   <prefix>KVM-PV-FEATURES kvmclock kvm-nopiodelay ...
 * (base=none and zeros without a KVM signature; unnamed bits as bitN).
 */
void print_kvm_features(const char *prefix)
{
    u32 base = kvm_cpuid_base();
    struct cpuid_regs r = { 0, 0, 0, 0 };
    char line[512];
    int n;
    if (base) {
        r = cpuid(base + 1);
        printf("%sKVM-FEATURES base=0x%08x eax=0x%08x edx=0x%08x\n", prefix, base, r.eax, r.edx);
    } else {
        printf("%sKVM-FEATURES base=none eax=0x00000000 edx=0x00000000\n", prefix);
    }
    n = snprintf(line, sizeof(line), "%sKVM-PV-FEATURES", prefix);
    for (int bit = 0; bit < 32; bit++) {
        const char *name = NULL;
        if (!(r.eax & (1u << bit))) {
            continue;
        }
        for (int i = 0; i < kvm_feature_count; i++) {
            if (kvm_feature_names[i].bit == bit) {
                name = kvm_feature_names[i].name;
            }
        }
        if (name) {
            n += snprintf(line + n, sizeof(line) - n, " %s", name);
        } else {
            n += snprintf(line + n, sizeof(line) - n, " bit%d", bit);
        }
    }
    if (r.edx & 1) {
        n += snprintf(line + n, sizeof(line) - n, " kvm-hint-dedicated");
    }
    printf("%s\n", line);
}

/* ------------------------------------------------------------------- misc */

u32 rand32(u32 *state)
{
    u32 x = *state ? *state : 0x2545f491;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}
