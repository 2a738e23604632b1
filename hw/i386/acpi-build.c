/*
 * ACPI tables for direct kernel boot of the PC boards (see
 * include/hw/i386/acpi-build.h for the layout and the contents).
 *
 * Tables are assembled in a host buffer the size of the reserved block,
 * each at its final guest address, and copied into guest RAM in one go.
 * Offsets and field meanings follow the ACPI specification (6.x numbering;
 * the FADT is revision 5.1, the layout every OS since ACPI 5.1 reads).
 */
#include <stdio.h>
#include <string.h>

#include "hw/i386/acpi-build.h"
#include "hw/acpi/hmat.h"
#include "hw/acpi/pm.h"
#include "hw/isa/apm.h"
#include "hw/misc/pvpanic.h"
#include "exec/memory.h"
#include "sysemu/device.h"
#include "sysemu/numa.h"

/* QEMU's values; OEM ID and table ID are the x-oem-id/x-oem-table-id
 * machine properties */
#define ACPI_OEM_REVISION       1
#define ACPI_CREATOR_ID         "BXPC"      /* 4 bytes */
#define ACPI_CREATOR_REVISION   1

#define ACPI_TABLE_HEADER_LEN   36
#define ACPI_RSDP_LEN           36
#define ACPI_FACS_LEN           64
#define ACPI_FADT_LEN           268         /* revision 5 */

#define APIC_DEFAULT_ADDRESS    0xFEE00000u
#define IOAPIC_DEFAULT_ADDRESS  0xFEC00000u
/*
 * The in-kernel I/O APIC's ID register reads 0 after reset and nobody
 * reprograms it, so the MADT says 0.  I/O APIC IDs and local APIC IDs do
 * not share a namespace once interrupts are messages (P4 and later).
 */
#define IOAPIC_ID               0

/* Generic Address Structure: address space IDs and access sizes */
#define GAS_SYSTEM_IO           1
#define GAS_ACCESS_BYTE         1
#define GAS_ACCESS_WORD         2
#define GAS_ACCESS_DWORD        3

/* FADT Flags */
#define FADT_F_WBINVD           (1u << 0)
#define FADT_F_PROC_C1          (1u << 2)
#define FADT_F_PWR_BUTTON       (1u << 4)   /* set: no fixed power button */
#define FADT_F_SLP_BUTTON       (1u << 5)   /* set: no fixed sleep button */
#define FADT_F_FIX_RTC          (1u << 6)   /* set: no RTC_STS in PM1 */
#define FADT_F_TMR_VAL_EXT      (1u << 8)   /* 32-bit PM timer */
#define FADT_F_RESET_REG_SUP    (1u << 10)

/* FADT IA-PC Boot Architecture Flags */
#define FADT_BOOT_LEGACY_DEVICES (1u << 0)
#define FADT_BOOT_8042          (1u << 1)
#define FADT_BOOT_VGA_NOT_PRESENT (1u << 2)

/* The i8042's "pulse reset line" command doubles as the reset register */
#define RESET_REG_PORT          0x64
#define RESET_REG_VALUE         0xFE

/* MADT */
#define MADT_FLAG_PCAT_COMPAT   (1u << 0)
#define MADT_LAPIC              0
#define MADT_IOAPIC             1
#define MADT_INT_SRC_OVERRIDE   2
#define MADT_LAPIC_NMI          4
#define MADT_LOCAL_X2APIC       9
#define MADT_LAPIC_ENABLED      (1u << 0)
/* MPS INTI flags: polarity bits 0-1 (1 = high), trigger bits 2-3 (3 = level) */
#define MPS_INTI_CONFORMS       0x0000
#define MPS_INTI_HIGH_LEVEL     0x000D

/* ------------------------------------------------------------------ */
/* Byte helpers (ACPI is little-endian whatever the host) */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, v);
    put32(p + 4, v >> 32);
}

static void append(GByteArray *t, const void *data, size_t len)
{
    g_byte_array_append(t, data, len);
}

static void append8(GByteArray *t, uint8_t v)
{
    append(t, &v, 1);
}

static void append16(GByteArray *t, uint16_t v)
{
    uint8_t b[2];

    put16(b, v);
    append(t, b, 2);
}

static void append32(GByteArray *t, uint32_t v)
{
    uint8_t b[4];

    put32(b, v);
    append(t, b, 4);
}

/* The byte that makes the sum of p[0..len-1] zero once stored in them */
static uint8_t acpi_checksum(const uint8_t *p, size_t len)
{
    uint8_t sum = 0;
    size_t i;

    for (i = 0; i < len; i++) {
        sum += p[i];
    }
    return -sum;
}

/* Generic Address Structure for a System I/O register */
static void put_gas_io(uint8_t *p, uint8_t bit_width, uint8_t access_size,
                       uint16_t port)
{
    p[0] = GAS_SYSTEM_IO;
    p[1] = bit_width;
    p[2] = 0;                   /* bit offset */
    p[3] = access_size;
    put64(p + 4, port);
}

/* ------------------------------------------------------------------ */
/* Table headers and placement */

typedef struct AcpiBuild {
    uint8_t *buf;               /* the block, guest address ACPI_BUILD_BASE */
    size_t used;
    bool q35;
    bool smm;                   /* SMI_CMD and the ACPI mode commands */
    char oem_id[7];             /* space padded, as QEMU pads them */
    char oem_table_id[9];
} AcpiBuild;

/* A table with its 36-byte header; length and checksum come at the end */
static GByteArray *table_new(AcpiBuild *b, const char *sig, uint8_t revision)
{
    GByteArray *t = g_byte_array_new();
    uint8_t h[ACPI_TABLE_HEADER_LEN] = { 0 };

    memcpy(h, sig, 4);
    h[8] = revision;
    memcpy(h + 10, b->oem_id, 6);
    memcpy(h + 16, b->oem_table_id, 8);
    put32(h + 24, ACPI_OEM_REVISION);
    memcpy(h + 28, ACPI_CREATOR_ID, 4);
    put32(h + 32, ACPI_CREATOR_REVISION);
    append(t, h, sizeof(h));
    return t;
}

static void table_finish(GByteArray *t)
{
    put32(t->data + 4, t->len);
    t->data[9] = 0;
    t->data[9] = acpi_checksum(t->data, t->len);
}

/* Reserves len bytes at the next multiple of align; 0 if the block is full */
static uint64_t build_alloc(AcpiBuild *b, size_t len, size_t align,
                            Error **errp)
{
    size_t off = (b->used + align - 1) & ~(align - 1);

    if (off + len > ACPI_BUILD_SIZE) {
        error_setg(errp, "ACPI tables do not fit in their %llu KiB block",
                   ACPI_BUILD_SIZE / 1024);
        return 0;
    }
    b->used = off + len;
    return ACPI_BUILD_BASE + off;
}

/* Finishes t, stores it at the next free aligned address and frees it */
static uint64_t build_place(AcpiBuild *b, GByteArray *t, Error **errp)
{
    uint64_t addr;

    table_finish(t);
    addr = build_alloc(b, t->len, 16, errp);
    if (addr) {
        memcpy(b->buf + (addr - ACPI_BUILD_BASE), t->data, t->len);
    }
    g_byte_array_free(t, TRUE);
    return addr;
}

/* ------------------------------------------------------------------ */
/* DSDT: hand-assembled AML */

/*
 * Name (\_Sn_, Package (4) { a, b, 0, 0 }) at the root: the SLP_TYP values
 * for PM1a_CNT and PM1b_CNT (there is no PM1b; the OS ignores the second)
 * and two reserved zeros, encoded as QEMU 7.2 encodes them (ZeroOp, OneOp,
 * else BytePrefix).  \_S3_ and \_S4_ unless the PM device's disable_s3 /
 * disable_s4 say otherwise; \_S5_ always.
 */
static void dsdt_append_sleep_state(GByteArray *t, char n, uint8_t slp_typ)
{
    uint8_t v[2] = { 0x0a, slp_typ };
    /* ZeroOp / OneOp take one byte, other values BytePrefix + byte */
    unsigned vlen = slp_typ <= 1 ? 1 : 2;
    const uint8_t *val = slp_typ <= 1 ? &v[1] : v;

    append8(t, 0x08);                           /* NameOp */
    append8(t, '_');
    append8(t, 'S');
    append8(t, n);
    append8(t, '_');
    append8(t, 0x12);                           /* PackageOp */
    append8(t, 1 + 1 + 2 * vlen + 2);           /* PkgLength */
    append8(t, 4);                              /* NumElements */
    append(t, val, vlen);                       /* SLP_TYPa */
    append(t, val, vlen);                       /* SLP_TYPb */
    append8(t, 0x00);                           /* reserved */
    append8(t, 0x00);
}

/*
 * EISA IDs as AML integers: three letters compressed in 5 bits each, then
 * four hex digits, stored big-endian.  "PNP" is 0x41D0.
 */
#define AML_EISAID_PNP(hi, lo)  0x41, 0xd0, (hi), (lo)

/*
 * q35 host bridge: Device (PCI0) { Name (_HID, EisaId ("PNP0A08"))
 * Name (_CID, EisaId ("PNP0A03")) Name (_UID, Zero) } -- a PCI Express
 * root that is also compatible with plain PCI.  No _CRS: the OS falls back
 * to its default windows for a root bridge without one.
 */
static const uint8_t dsdt_pci0_q35[] = {
    0x5b, 0x82,                 /* ExtOpPrefix + DeviceOp */
    0x1f,                       /* PkgLength: 31 bytes incl. this one */
    'P', 'C', 'I', '0',         /* NameSeg */
    0x08, '_', 'H', 'I', 'D',   /* NameOp _HID */
    0x0c, AML_EISAID_PNP(0x0a, 0x08),   /* DWordPrefix, PNP0A08 */
    0x08, '_', 'C', 'I', 'D',   /* NameOp _CID */
    0x0c, AML_EISAID_PNP(0x0a, 0x03),   /* DWordPrefix, PNP0A03 */
    0x08, '_', 'U', 'I', 'D',   /* NameOp _UID */
    0x00,                       /* ZeroOp */
};

/* i440fx host bridge: the same without _CID, _HID PNP0A03 (PCI root) */
static const uint8_t dsdt_pci0_i440fx[] = {
    0x5b, 0x82,                 /* ExtOpPrefix + DeviceOp */
    0x15,                       /* PkgLength: 21 bytes incl. this one */
    'P', 'C', 'I', '0',         /* NameSeg */
    0x08, '_', 'H', 'I', 'D',   /* NameOp _HID */
    0x0c, AML_EISAID_PNP(0x0a, 0x03),   /* DWordPrefix, PNP0A03 */
    0x08, '_', 'U', 'I', 'D',   /* NameOp _UID */
    0x00,                       /* ZeroOp */
};

/*
 * Device (COM1) { Name (_HID, EisaId ("PNP0501")) Name (_UID, One)
 * Name (_CRS, ResourceTemplate () { IO (Decode16, 0x3F8, 0x3F8, 1, 8)
 * IRQNoFlags () { 4 } }) } -- the 16550 the board always has.
 */
static const uint8_t dsdt_com1[] = {
    0x5b, 0x82,                 /* ExtOpPrefix + DeviceOp */
    0x2b,                       /* PkgLength: 43 bytes incl. this one */
    'C', 'O', 'M', '1',         /* NameSeg */
    0x08, '_', 'H', 'I', 'D',   /* NameOp _HID */
    0x0c, AML_EISAID_PNP(0x05, 0x01),   /* DWordPrefix, PNP0501 */
    0x08, '_', 'U', 'I', 'D',   /* NameOp _UID */
    0x01,                       /* OneOp */
    0x08, '_', 'C', 'R', 'S',   /* NameOp _CRS */
    0x11,                       /* BufferOp */
    0x10,                       /* PkgLength: 16 bytes incl. this one */
    0x0a, 0x0d,                 /* BufferSize: BytePrefix, 13 */
    /* Small I/O port descriptor: tag 0x47 (type 8, 7 data bytes) */
    0x47,
    0x01,                       /* 16-bit address decode */
    0xf8, 0x03,                 /* range minimum base 0x03F8 */
    0xf8, 0x03,                 /* range maximum base 0x03F8 */
    0x01,                       /* base alignment */
    0x08,                       /* range length: 8 ports */
    /* Small IRQ descriptor without flags: tag 0x22 (type 4, 2 bytes) */
    0x22,
    0x10, 0x00,                 /* IRQ mask: bit 4 */
    /* End tag: 0x79 (type 0xF, 1 byte), checksum 0 = not checked */
    0x79, 0x00,
};

/*
 * AML PkgLength for a package whose contents (after the PkgLength) take
 * len bytes: 1 byte up to 63 in all, else a lead byte with the count of
 * following bytes in bits 6-7 and the low nibble, then 8 bits per byte.
 */
static void aml_append_pkglength(GByteArray *t, size_t len)
{
    size_t total;

    if (len + 1 < 0x40) {
        append8(t, len + 1);
    } else if (len + 2 < 0x1000) {
        total = len + 2;
        append8(t, 0x40 | (total & 0x0f));
        append8(t, total >> 4);
    } else {
        total = len + 3;        /* the DSDT stays far below 1 MiB */
        append8(t, 0x80 | (total & 0x0f));
        append8(t, (total >> 4) & 0xff);
        append8(t, total >> 12);
    }
}

/*
 * Device (PEVT) { Name (_HID, "QEMU0001"); Name (_CRS, ResourceTemplate ()
 * { IO (Decode16, port, port, 1, 1) }) }: the pvpanic port
 */
static void dsdt_append_pvpanic(GByteArray *sb, uint16_t port)
{
    const uint8_t dev[] = {
        0x5b, 0x82,                 /* ExtOpPrefix + DeviceOp */
        0x27,                       /* PkgLength: 39 bytes incl. this one */
        'P', 'E', 'V', 'T',
        0x08, '_', 'H', 'I', 'D',   /* NameOp _HID */
        0x0d, 'Q', 'E', 'M', 'U', '0', '0', '0', '1', 0x00,  /* String */
        0x08, '_', 'C', 'R', 'S',   /* NameOp _CRS */
        0x11,                       /* BufferOp */
        0x0d,                       /* PkgLength: 13 bytes incl. this one */
        0x0a, 0x0a,                 /* BufferSize: BytePrefix, 10 */
        0x47, 0x01,                 /* I/O port descriptor, 16-bit decode */
        port & 0xff, port >> 8,     /* range minimum base */
        port & 0xff, port >> 8,     /* range maximum base */
        0x01, 0x01,                 /* alignment 1, length 1 */
        0x79, 0x00,                 /* End tag */
    };

    append(sb, dev, sizeof(dev));
}

static GByteArray *build_dsdt(AcpiBuild *b)
{
    /* Revision 2: AML integers are 64 bits */
    GByteArray *t = table_new(b, "DSDT", 2);
    GByteArray *sb = g_byte_array_new();
    static const uint8_t sb_name[] = { '\\', '_', 'S', 'B', '_' };

    const AcpiSleepStates *ss = acpi_pm_sleep_states();

    if (!ss->disable_s3) {
        dsdt_append_sleep_state(t, '3', ACPI_PM_SLP_TYP_S3);
    }
    if (!ss->disable_s4) {
        dsdt_append_sleep_state(t, '4', ss->s4_val);
    }
    dsdt_append_sleep_state(t, '5', ACPI_PM_SLP_TYP_S5);

    /* Scope (\_SB) { PCI0, COM1 } */
    append(sb, sb_name, sizeof(sb_name));
    if (b->q35) {
        append(sb, dsdt_pci0_q35, sizeof(dsdt_pci0_q35));
    } else {
        append(sb, dsdt_pci0_i440fx, sizeof(dsdt_pci0_i440fx));
    }
    append(sb, dsdt_com1, sizeof(dsdt_com1));
    if (pvpanic_port() >= 0) {
        dsdt_append_pvpanic(sb, pvpanic_port());
    }
    append8(t, 0x10);           /* ScopeOp */
    aml_append_pkglength(t, sb->len);
    append(t, sb->data, sb->len);
    g_byte_array_free(sb, TRUE);
    return t;
}

/* ------------------------------------------------------------------ */
/* FACS, FADT, MADT, XSDT, RSDT, RSDP */

static uint64_t build_facs(AcpiBuild *b, Error **errp)
{
    /* Its own 64-byte alignment, and no checksum */
    uint64_t addr = build_alloc(b, ACPI_FACS_LEN, 64, errp);
    uint8_t *p;

    if (addr) {
        p = b->buf + (addr - ACPI_BUILD_BASE);
        memcpy(p, "FACS", 4);
        put32(p + 4, ACPI_FACS_LEN);
        p[32] = 2;              /* version */
    }
    return addr;
}

static GByteArray *build_fadt(AcpiBuild *b, uint64_t facs, uint64_t dsdt)
{
    GByteArray *t = table_new(b, "FACP", 5);
    uint8_t *f;

    g_byte_array_set_size(t, ACPI_FADT_LEN);
    f = t->data;
    memset(f + ACPI_TABLE_HEADER_LEN, 0,
           ACPI_FADT_LEN - ACPI_TABLE_HEADER_LEN);
    put32(f + 36, facs);                /* FIRMWARE_CTRL */
    put32(f + 40, dsdt);                /* DSDT */
    f[45] = 0;                          /* Preferred_PM_Profile: unknown */
    put16(f + 46, ACPI_PM_SCI_GSI);     /* SCI_INT */
    /*
     * SMI_CMD, ACPI_ENABLE, ACPI_DISABLE: with SMM the OS leaves legacy
     * mode through the APM port (the southbridge's commands); without it
     * there is none to leave (0), as in QEMU 7.2
     */
    if (b->smm) {
        put32(f + 48, APM_CNT_IOPORT);
        f[52] = b->q35 ? 0x02 : 0xf1;
        f[53] = b->q35 ? 0x03 : 0xf0;
    }
    put32(f + 56, ACPI_PM_BASE + ACPI_PM1_EVT_OFFSET);  /* PM1a_EVT_BLK */
    put32(f + 64, ACPI_PM_BASE + ACPI_PM1_CNT_OFFSET);  /* PM1a_CNT_BLK */
    put32(f + 76, ACPI_PM_BASE + ACPI_PM_TMR_OFFSET);   /* PM_TMR_BLK */
    f[88] = ACPI_PM1_EVT_LEN;
    f[89] = ACPI_PM1_CNT_LEN;
    f[91] = ACPI_PM_TMR_LEN;
    /* GPE0/GPE1: none */
    put16(f + 96, 101);                 /* P_LVL2_LAT > 100: no C2 */
    put16(f + 98, 1001);                /* P_LVL3_LAT > 1000: no C3 */
    /* No VGA on these boards; the i8042 and ISA devices are there */
    put16(f + 109, FADT_BOOT_LEGACY_DEVICES | FADT_BOOT_8042 |
                   FADT_BOOT_VGA_NOT_PRESENT);
    put32(f + 112, FADT_F_WBINVD | FADT_F_PROC_C1 | FADT_F_SLP_BUTTON |
                   FADT_F_FIX_RTC | FADT_F_TMR_VAL_EXT |
                   FADT_F_RESET_REG_SUP);
    put_gas_io(f + 116, 8, GAS_ACCESS_BYTE, RESET_REG_PORT);  /* RESET_REG */
    f[128] = RESET_REG_VALUE;
    f[131] = 1;                         /* FADT minor version: 5.1 */
    /* X_FIRMWARE_CTRL stays 0: FIRMWARE_CTRL holds the FACS (below 4G) */
    put64(f + 140, dsdt);               /* X_DSDT */
    put_gas_io(f + 148, ACPI_PM1_EVT_LEN * 8, GAS_ACCESS_WORD,
               ACPI_PM_BASE + ACPI_PM1_EVT_OFFSET);       /* X_PM1a_EVT */
    put_gas_io(f + 172, ACPI_PM1_CNT_LEN * 8, GAS_ACCESS_WORD,
               ACPI_PM_BASE + ACPI_PM1_CNT_OFFSET);       /* X_PM1a_CNT */
    put_gas_io(f + 208, ACPI_PM_TMR_LEN * 8, GAS_ACCESS_DWORD,
               ACPI_PM_BASE + ACPI_PM_TMR_OFFSET);        /* X_PM_TMR */
    return t;
}

/* The possible vCPUs (QEMU 7.2 lists them all, the absent ones disabled) */
static unsigned build_cpu_count(MachineState *ms)
{
    return MAX(ms->smp.max_cpus, 1);
}

static void madt_append_iso(GByteArray *t, uint8_t irq, uint32_t gsi,
                            uint16_t flags)
{
    append8(t, MADT_INT_SRC_OVERRIDE);
    append8(t, 10);
    append8(t, 0);              /* bus: ISA */
    append8(t, irq);
    append32(t, gsi);
    append16(t, flags);
}

static GByteArray *build_madt(AcpiBuild *b, MachineState *ms)
{
    GByteArray *t = table_new(b, "APIC", 3);
    unsigned i, n = build_cpu_count(ms);

    append32(t, APIC_DEFAULT_ADDRESS);
    append32(t, MADT_FLAG_PCAT_COMPAT);     /* the 8259s are there too */

    machine_init_possible_cpus(ms);
    for (i = 0; i < n; i++) {
        uint32_t apic_id = ms->possible_cpus[i].apic_id;
        /* Tables built without vCPUs (unit tests): the -smp ones */
        bool present = ms->cpus && ms->cpus->len ? !!ms->possible_cpus[i].cpu
                                                 : i < ms->smp.cpus;
        uint32_t flags = present ? MADT_LAPIC_ENABLED : 0;

        if (apic_id < 0xff && i < 0xff) {
            append8(t, MADT_LAPIC);
            append8(t, 8);
            append8(t, i);                  /* ACPI processor UID */
            append8(t, apic_id);
            append32(t, flags);
        } else {
            /* 0xFF is the broadcast ID: larger IDs need the x2APIC form */
            append8(t, MADT_LOCAL_X2APIC);
            append8(t, 16);
            append16(t, 0);
            append32(t, apic_id);
            append32(t, flags);
            append32(t, i);                 /* ACPI processor UID */
        }
    }

    append8(t, MADT_IOAPIC);
    append8(t, 12);
    append8(t, IOAPIC_ID);
    append8(t, 0);
    append32(t, IOAPIC_DEFAULT_ADDRESS);
    append32(t, 0);                         /* GSI base */

    /* The PIT is wired to IOAPIC pin 2; pin 0 has the 8259's INTR */
    madt_append_iso(t, 0, 2, MPS_INTI_CONFORMS);
    /* The SCI is a level interrupt, driven active-high by pm.c */
    madt_append_iso(t, ACPI_PM_SCI_GSI, ACPI_PM_SCI_GSI, MPS_INTI_HIGH_LEVEL);

    /* LINT1 of every processor is the NMI input, as on any PC */
    append8(t, MADT_LAPIC_NMI);
    append8(t, 6);
    append8(t, 0xff);                       /* all processors */
    append16(t, MPS_INTI_CONFORMS);
    append8(t, 1);                          /* LINT1 */
    return t;
}

/* SRAT and SLIT (-numa) ----------------------------------------------------- */

#define SRAT_PROCESSOR_APIC 0
#define SRAT_MEMORY 1
#define SRAT_PROCESSOR_X2APIC 2
#define SRAT_ENABLED 1
#define KIB 1024ULL
#define MIB (1024 * KIB)

static void srat_append_memory(GByteArray *t, uint64_t base, uint64_t len,
                               uint32_t node, uint32_t flags)
{
    append8(t, SRAT_MEMORY);
    append8(t, 40);
    append32(t, node);                      /* proximity domain */
    append16(t, 0);
    append32(t, base);
    append32(t, base >> 32);
    append32(t, len);
    append32(t, len >> 32);
    append32(t, 0);
    append32(t, flags);
    append32(t, 0);
    append32(t, 0);
}

/*
 * What QEMU 7.2's PC SRAT says: every possible vCPU (enabled, plugged or
 * not) in its node; the nodes' memory one after the other from 0, each
 * range with the 640K-1M hole cut out and what passes the low RAM's end
 * moved above 4 GiB; empty entries up to nodes + 2 memory entries (7.2
 * keeps them for old guests)
 */
static GByteArray *build_srat(AcpiBuild *b, MachineState *ms)
{
    NumaState *ns = ms->numa_state;
    GByteArray *t = table_new(b, "SRAT", 1);
    uint64_t below_4g = memory_below_4g(), next = 0;
    unsigned i, entries = 0;

    append32(t, 1);                         /* reserved, as ACPI 1.0's */
    append32(t, 0);
    append32(t, 0);
    for (i = 0; i < MAX(ms->smp.max_cpus, 1); i++) {
        CPUSlot *slot = &ms->possible_cpus[i];
        uint32_t node = MAX(slot->node_id, 0);

        if (slot->apic_id < 255) {
            append8(t, SRAT_PROCESSOR_APIC);
            append8(t, 16);
            append8(t, node);
            append8(t, slot->apic_id);
            append32(t, SRAT_ENABLED);
            append8(t, 0);                  /* local SAPIC EID */
            append8(t, node >> 8);          /* proximity domain 31:8 */
            append16(t, node >> 24);
            append32(t, 0);                 /* clock domain */
        } else {
            append8(t, SRAT_PROCESSOR_X2APIC);
            append8(t, 24);
            append16(t, 0);
            append32(t, node);
            append32(t, slot->apic_id);
            append32(t, SRAT_ENABLED);
            append32(t, 0);                 /* clock domain */
            append32(t, 0);
        }
    }
    for (i = 0; i < (unsigned)ns->num_nodes; i++) {
        uint64_t base = next, len = ns->nodes[i].node_mem;

        next = base + len;
        if (base <= 640 * KIB && next > 640 * KIB) {
            if (640 * KIB - base) {
                srat_append_memory(t, base, 640 * KIB - base, i,
                                   SRAT_ENABLED);
                entries++;
            }
            if (next <= 1 * MIB) {
                next = 1 * MIB;
                continue;
            }
            base = 1 * MIB;
            len = next - base;
        }
        if (base <= below_4g && next > below_4g) {
            if (below_4g - base) {
                srat_append_memory(t, base, below_4g - base, i,
                                   SRAT_ENABLED);
                entries++;
            }
            len = next - below_4g;
            base = 1ULL << 32;
            next = base + len;
        }
        if (len) {
            srat_append_memory(t, base, len, i, SRAT_ENABLED);
            entries++;
        }
    }
    for (; entries < (unsigned)ns->num_nodes + 2; entries++) {
        srat_append_memory(t, 0, 0, 0, 0);
    }
    return t;
}

static GByteArray *build_slit(AcpiBuild *b, MachineState *ms)
{
    NumaState *ns = ms->numa_state;
    GByteArray *t = table_new(b, "SLIT", 1);
    int i, j;

    append32(t, ns->num_nodes);             /* localities, 64-bit */
    append32(t, 0);
    for (i = 0; i < ns->num_nodes; i++) {
        for (j = 0; j < ns->num_nodes; j++) {
            append8(t, ns->nodes[i].distance[j]);
        }
    }
    return t;
}

static uint64_t build_rsdp(AcpiBuild *b, uint64_t rsdt, uint64_t xsdt)
{
    uint8_t *p = b->buf + (ACPI_BUILD_RSDP_ADDR - ACPI_BUILD_BASE);

    memcpy(p, "RSD PTR ", 8);
    memcpy(p + 9, b->oem_id, 6);
    p[15] = 2;                              /* revision: ACPI 2.0+ */
    put32(p + 16, rsdt);
    put32(p + 20, ACPI_RSDP_LEN);
    put64(p + 24, xsdt);
    p[8] = acpi_checksum(p, 20);            /* the ACPI 1.0 part */
    p[32] = acpi_checksum(p, ACPI_RSDP_LEN);
    return ACPI_BUILD_RSDP_ADDR;
}

/* ------------------------------------------------------------------ */
/* Entry points */

bool acpi_enabled(MachineState *ms)
{
    return ms->acpi != ON_OFF_AUTO_OFF;
}

void acpi_build_e820_reserved(uint64_t *start, uint64_t *len)
{
    *start = ACPI_BUILD_BASE;
    *len = ACPI_BUILD_SIZE;
}

static bool build_all(AcpiBuild *b, MachineState *ms, Error **errp)
{
    uint64_t facs, dsdt, fadt, madt, xsdt, rsdt, extra[3];
    unsigned n_extra = 0, i;
    GByteArray *t;

    /* The RSDP is first, at the base: filled in once the rest is placed */
    if (!build_alloc(b, ACPI_RSDP_LEN, 16, errp) ||
        !(facs = build_facs(b, errp)) ||
        !(dsdt = build_place(b, build_dsdt(b), errp)) ||
        !(fadt = build_place(b, build_fadt(b, facs, dsdt), errp)) ||
        !(madt = build_place(b, build_madt(b, ms), errp))) {
        return false;
    }
    /*
     * After the MADT, as 7.2 lists them: SRAT with -numa, SLIT with dist,
     * HMAT with hmat=on
     */
    if (ms->numa_state && ms->numa_state->num_nodes) {
        if (!(extra[n_extra++] = build_place(b, build_srat(b, ms), errp))) {
            return false;
        }
        if (ms->numa_state->have_numa_distance &&
            !(extra[n_extra++] = build_place(b, build_slit(b, ms), errp))) {
            return false;
        }
        if (ms->hmat) {
            t = table_new(b, "HMAT", HMAT_REVISION);
            hmat_build_body(t, ms->numa_state);
            if (!(extra[n_extra++] = build_place(b, t, errp))) {
                return false;
            }
        }
    }

    t = table_new(b, "XSDT", 1);
    append32(t, fadt);
    append32(t, fadt >> 32);
    append32(t, madt);
    append32(t, madt >> 32);
    for (i = 0; i < n_extra; i++) {
        append32(t, extra[i]);
        append32(t, extra[i] >> 32);
    }
    if (!(xsdt = build_place(b, t, errp))) {
        return false;
    }

    t = table_new(b, "RSDT", 1);
    append32(t, fadt);
    append32(t, madt);
    for (i = 0; i < n_extra; i++) {
        append32(t, extra[i]);
    }
    if (!(rsdt = build_place(b, t, errp))) {
        return false;
    }

    build_rsdp(b, rsdt, xsdt);
    return true;
}

bool acpi_build_tables(MachineState *ms, uint64_t *rsdp_addr, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    AcpiBuild b = { 0 };
    bool ok;

    *rsdp_addr = 0;
    if (!acpi_enabled(ms)) {
        return true;
    }
    if (!memory_guest_ptr(ACPI_BUILD_BASE, ACPI_BUILD_SIZE)) {
        error_setg(errp, "cannot build ACPI tables: guest RAM does not "
                   "cover 0x%llx-0x%llx", ACPI_BUILD_BASE,
                   ACPI_BUILD_BASE + ACPI_BUILD_SIZE - 1);
        return false;
    }

    b.q35 = mc->family && !strcmp(mc->family, "pc-q35");
    b.smm = pc_smm_enabled(ms);
    snprintf(b.oem_id, sizeof(b.oem_id), "%-6s",
             ms->oem_id ? ms->oem_id : "");
    snprintf(b.oem_table_id, sizeof(b.oem_table_id), "%-8s",
             ms->oem_table_id ? ms->oem_table_id : "");
    b.buf = g_malloc0(ACPI_BUILD_SIZE);
    ok = build_all(&b, ms, errp);
    if (ok) {
        cpu_physical_memory_write(ACPI_BUILD_BASE, b.buf, ACPI_BUILD_SIZE);
        *rsdp_addr = ACPI_BUILD_RSDP_ADDR;
    }
    g_free(b.buf);
    return ok;
}
