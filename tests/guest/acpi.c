/*
 * Just enough ACPI for the test guests: find the RSDP, walk RSDT/XSDT,
 * list the MADT's CPUs, and power off through FADT PM1a/PM1b_CNT with the
 * SLP_TYP values of the DSDT's \_S5 package.
 */
#include "lib.h"

static u8 checksum(const void *p, u32 len)
{
    const u8 *b = p;
    u8 sum = 0;
    while (len--) {
        sum += *b++;
    }
    return sum;
}

static u32 rd32(const u8 *p) { return p[0] | (p[1] << 8) | (p[2] << 16) | ((u32)p[3] << 24); }

static u32 scan_rsdp(u32 start, u32 end)
{
    for (u32 a = start; a + 20 <= end; a += 16) {
        const u8 *p = (const u8 *)a;
        if (!memcmp(p, "RSD PTR ", 8) && checksum(p, 20) == 0) {
            return a;
        }
    }
    return 0;
}

u32 acpi_find_rsdp(void)
{
    static u32 cached;
    static bool done;
    if (done) {
        return cached;
    }
    done = true;
    if (boot_info.rsdp) {
        cached = boot_info.rsdp;
        return cached;
    }
    u32 ebda = (u32)*(volatile u16 *)phys(0x40e) << 4; /* BDA: EBDA segment */
    if (ebda >= 0x80000 && ebda < 0xa0000) {
        cached = scan_rsdp(ebda, ebda + 1024);
    }
    if (!cached) {
        cached = scan_rsdp(0xe0000, 0x100000);
    }
    return cached;
}

static bool table_ok(u32 addr)
{
    if (!addr) {
        return false;
    }
    u32 len = rd32((const u8 *)addr + 4);
    return len >= 36 && len < 0x100000 && checksum((const void *)addr, len) == 0;
}

/* The instance-th table with this signature (DSDT comes from the FADT). */
void *acpi_find_table(const char sig[4], int instance)
{
    u32 rsdp = acpi_find_rsdp();
    if (!rsdp) {
        return NULL;
    }
    const u8 *r = (const u8 *)rsdp;
    u32 root = 0, entry = 4;
    if (r[15] >= 2 && rd32(r + 28) == 0 && rd32(r + 24)) {
        root = rd32(r + 24); /* XSDT below 4 GiB */
        entry = 8;
        if (!table_ok(root)) {
            root = 0;
        }
    }
    if (!root) {
        root = rd32(r + 16);
        entry = 4;
    }
    if (!table_ok(root)) {
        return NULL;
    }
    if (!memcmp(sig, "DSDT", 4)) {
        const u8 *fadt = acpi_find_table("FACP", 0);
        if (!fadt) {
            return NULL;
        }
        u32 len = rd32(fadt + 4), dsdt = 0;
        if (len >= 148 && rd32(fadt + 144) == 0) {
            dsdt = rd32(fadt + 140);
        }
        if (!dsdt) {
            dsdt = rd32(fadt + 40);
        }
        return instance == 0 && table_ok(dsdt) ? (void *)dsdt : NULL;
    }
    u32 len = rd32((const u8 *)root + 4);
    for (u32 off = 36; off + entry <= len; off += entry) {
        const u8 *e = (const u8 *)root + off;
        if (entry == 8 && rd32(e + 4)) {
            continue;
        }
        u32 t = rd32(e);
        if (table_ok(t) && !memcmp((const void *)t, sig, 4) && instance-- == 0) {
            return (void *)t;
        }
    }
    return NULL;
}

int acpi_madt_apic_ids(u32 *ids, int max)
{
    const u8 *madt = acpi_find_table("APIC", 0);
    int n = 0;
    if (!madt) {
        return -1;
    }
    u32 len = rd32(madt + 4);
    for (u32 off = 44; off + 2 <= len;) {
        const u8 *e = madt + off;
        if (e[1] < 2) {
            break;
        }
        if (e[0] == 0 && e[1] >= 8 && (rd32(e + 4) & 1)) {
            if (n < max) {
                ids[n] = e[3];
            }
            n++;
        } else if (e[0] == 9 && e[1] >= 16 && (rd32(e + 8) & 1)) {
            if (n < max) {
                ids[n] = rd32(e + 4);
            }
            n++;
        }
        off += e[1];
    }
    return n;
}

/* Value of an AML integer data object at p, -1 if not one we know. */
static int aml_small_int(const u8 *p)
{
    switch (p[0]) {
    case 0x00: return 0;      /* ZeroOp */
    case 0x01: return 1;      /* OneOp */
    case 0x0a: return p[1];   /* BytePrefix */
    case 0x0b: return p[1];   /* WordPrefix: low byte is enough */
    case 0x0c: return p[1];   /* DWordPrefix */
    default: return -1;
    }
}

static int aml_int_size(const u8 *p)
{
    switch (p[0]) {
    case 0x0a: return 2;
    case 0x0b: return 3;
    case 0x0c: return 5;
    default: return 1;
    }
}

/* SLP_TYPa/b from "_Sn_" Package() {a, b, ...}; false if not found. */
static bool find_sleep_state(char n, int *a, int *b)
{
    const char name[5] = { '_', 'S', n, '_', 0 };
    const u8 *dsdt = acpi_find_table("DSDT", 0);
    if (!dsdt) {
        return false;
    }
    u32 len = rd32(dsdt + 4);
    for (u32 i = 36; i + 8 < len; i++) {
        const u8 *p = dsdt + i;
        if (memcmp(p, name, 4) || p[4] != 0x12) {
            continue;
        }
        p += 5;                       /* PackageOp */
        p += 1 + (p[0] >> 6);         /* PkgLength */
        p += 1;                       /* NumElements */
        *a = aml_small_int(p);
        if (*a < 0) {
            return false;
        }
        p += aml_int_size(p);
        *b = aml_small_int(p);
        if (*b < 0) {
            *b = *a;
        }
        return true;
    }
    return false;
}

bool acpi_sleep(char state)
{
    const u8 *fadt = acpi_find_table("FACP", 0);
    int a = 0, b = 0;
    if (!fadt) {
        printf("ACPI no FADT found (rsdp=0x%x)\n", acpi_find_rsdp());
        return false;
    }
    u32 flen = rd32(fadt + 4);
    u32 pm1a = rd32(fadt + 64), pm1b = rd32(fadt + 68);
    if (!pm1a && flen >= 184 && fadt[172] == 1 && !rd32(fadt + 180)) {
        pm1a = rd32(fadt + 176); /* X_PM1a_CNT_BLK in system I/O space */
    }
    if (!pm1a || pm1a > 0xffff) {
        printf("ACPI FADT has no PM1a_CNT block\n");
        return false;
    }
    if (!find_sleep_state(state, &a, &b)) {
        if (state != '5') {
            printf("ACPI no _S%c_ package in the DSDT\n", state);
            return false;
        }
        printf("ACPI no _S5_ package in the DSDT, trying SLP_TYP 0\n");
    }
    printf("ACPI entering S%c: SLP_TYP=%d\n", state, a);
    u16 v = inw((u16)pm1a) & ~(u16)((7 << 10) | (1 << 13));
    outw((u16)pm1a, v | (u16)((a & 7) << 10) | (1 << 13));
    if (pm1b && pm1b <= 0xffff) {
        v = inw((u16)pm1b) & ~(u16)((7 << 10) | (1 << 13));
        outw((u16)pm1b, v | (u16)((b & 7) << 10) | (1 << 13));
    }
    for (int i = 0; i < 10000; i++) {
        io_delay();
    }
    printf("ACPI S%c through PM1a_CNT=0x%x SLP_TYP=%d did not take effect\n", state, pm1a, a);
    return false;
}

bool acpi_poweroff(void)
{
    return acpi_sleep('5');
}

/*
 * Polls PM1a_STS (FADT PM1a_EVT_BLK) until PWRBTN_STS (bit 8) is set,
 * then clears it.  The guests take no interrupts, so no SCI handler.
 */
bool acpi_wait_power_button(void)
{
    const u8 *fadt = acpi_find_table("FACP", 0);
    u32 evt = fadt ? rd32(fadt + 56) : 0;
    if (!evt || evt > 0xffff) {
        printf("ACPI FADT has no PM1a_EVT block\n");
        return false;
    }
    while (!(inw((u16)evt) & (1 << 8))) {
        for (int i = 0; i < 1000; i++) {
            io_delay();
        }
    }
    outw((u16)evt, 1 << 8);
    return true;
}
