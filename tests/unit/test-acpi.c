/*
 * ACPI tables (hw/i386/acpi-build.c) read back from a fake guest RAM the
 * way a guest reads them, and the PM register block (hw/acpi/pm.c).
 *
 * With QEMU_ACPI_DUMP_DIR set, each table is also written there as
 * <machine>-<cpus>cpu-<SIG>.dat, ready for `iasl -d`.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "exec/memory.h"
#include "hw/acpi/pm.h"
#include "hw/boards.h"
#include "hw/i386/acpi-build.h"
#include "hw/irq.h"
#include "hw/isa/isa.h"
#include "hw/misc/pvpanic.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/southbridge/piix.h"
#include "hw/sysbus.h"
#include "qemu/option.h"
#include "sysemu/runstate.h"

#define TEST_RAM_SIZE (2 * 1024 * 1024)

typedef struct TablesCase {
    const char *name;
    const char *machine;
    unsigned cpus;
    bool q35;
    uint16_t pvpanic;           /* its port, 0: no pvpanic */
    const char *oem_id;         /* x-oem-id, NULL: QEMU's default */
    /*
     * -smp cpus,cores=C,maxcpus=M (0: one core per socket, maxcpus=cpus)
     * and the APIC IDs the MADT must list (NULL: 0, 1, 2, ...)
     */
    unsigned cores, max_cpus;
    const uint32_t *apic_ids;
} TablesCase;

/* cores=3 takes 2 bits: socket 1's cores start at APIC ID 4 */
static const uint32_t apic_ids_3cores[] = { 0, 1, 2, 4, 5, 6 };

static const TablesCase tables_cases[] = {
    { "pc-q35/1cpu",      "pc-q35-8.0",     1,   true },
    { "pc-q35/4cpu",      "pc-q35-8.0",     4,   true },
    { "pc-i440fx/1cpu",   "pc-i440fx-8.0",  1,   false },
    { "pc-i440fx/4cpu",   "pc-i440fx-8.0",  4,   false },
    { "pc-q35/288cpu",    "pc-q35-8.0",     288, true },   /* x2APIC */
    { "pc-i440fx/x-oem-id", "pc-i440fx-8.0", 1,   false, 0, "ABC" },
    /* Every possible vCPU is listed; those not plugged are disabled */
    { "pc-q35/2of6cpu",   "pc-q35-8.0",     2,   true, 0, NULL, 3, 6,
      apic_ids_3cores },
};

/* Last, as a pvpanic cannot be removed: the DSDT then describes it */
static const TablesCase pvpanic_case = {
    "pc-q35/pvpanic", "pc-q35-8.0", 1, true, 0x700, NULL,
};

/* ------------------------------------------------------------------ */
/* Guest memory as a guest sees it */

static uint8_t *ram(void)
{
    Error *err = NULL;
    uint8_t *p = memory_ram_alloc(TEST_RAM_SIZE, &err);

    g_assert_null(err);
    return p;
}

static uint16_t get16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
    return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const uint8_t *p)
{
    return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint8_t sum(const uint8_t *p, size_t len)
{
    uint8_t s = 0;

    while (len--) {
        s += *p++;
    }
    return s;
}

/* The RSDP as the OS finds it: 16-byte steps over 0xE0000-0xFFFFF */
static const uint8_t *scan_rsdp(uint64_t *addr)
{
    uint64_t a;

    for (a = 0xE0000; a < 0x100000; a += 16) {
        const uint8_t *p = ram() + a;

        if (!memcmp(p, "RSD PTR ", 8) && sum(p, 20) == 0) {
            *addr = a;
            return p;
        }
    }
    return NULL;
}

/* A table with its header checked: signature, length in RAM, checksum */
static const uint8_t *table_at(uint64_t addr, const char *sig)
{
    const uint8_t *t;

    g_assert_cmpuint(addr, >=, 0xE0000);
    g_assert_cmpuint(addr + 36, <=, TEST_RAM_SIZE);
    t = ram() + addr;
    g_assert_cmpmem(t, 4, sig, 4);
    g_assert_cmpuint(get32(t + 4), >=, 36);
    g_assert_cmpuint(addr + get32(t + 4), <=, 0xF0000);
    g_assert_cmpuint(sum(t, get32(t + 4)), ==, 0);
    return t;
}

static void dump(const TablesCase *c, const char *sig, const uint8_t *p,
                 size_t len)
{
    const char *dir = g_getenv("QEMU_ACPI_DUMP_DIR");
    char *name, *path;

    if (!dir) {
        return;
    }
    name = g_strdup_printf("%s-%ucpu-%s.dat", c->machine, c->cpus, sig);
    path = g_build_filename(dir, name, NULL);
    g_assert_true(g_file_set_contents(path, (const char *)p, len, NULL));
    g_free(name);
    g_free(path);
}

static MachineState *machine_new(const char *name, unsigned cpus, int acpi)
{
    MachineClass *mc = machine_find_class(name);
    MachineState *ms;

    g_assert_nonnull(mc);
    ms = MACHINE(object_new_with_class(OBJECT_CLASS_CAST(mc)));
    ms->smp.cpus = cpus;
    ms->smp.sockets = cpus;
    ms->smp.dies = ms->smp.cores = ms->smp.threads = 1;
    ms->smp.max_cpus = cpus;
    ms->acpi = acpi;
    return ms;
}

/* ------------------------------------------------------------------ */
/* DSDT: a walk over the AML this builder emits */

static size_t aml_pkglength(const uint8_t *p, size_t *nbytes)
{
    unsigned follow = p[0] >> 6, i;
    size_t len;

    if (!follow) {
        *nbytes = 1;
        return p[0] & 0x3f;
    }
    len = p[0] & 0x0f;
    for (i = 0; i < follow; i++) {
        len |= (size_t)p[1 + i] << (4 + 8 * i);
    }
    *nbytes = 1 + follow;
    return len;
}

/* Length of the data object at p (Integer, Package or Buffer) */
static size_t aml_data_len(const uint8_t *p, const uint8_t *end)
{
    size_t n;

    g_assert_true(p < end);
    switch (p[0]) {
    case 0x00: case 0x01: case 0xff:    /* Zero, One, Ones */
        return 1;
    case 0x0a:                          /* BytePrefix */
        return 2;
    case 0x0b:                          /* WordPrefix */
        return 3;
    case 0x0c:                          /* DWordPrefix */
        return 5;
    case 0x0e:                          /* QWordPrefix */
        return 9;
    case 0x0d:                          /* StringPrefix ... NUL */
        n = strnlen((const char *)p + 1, end - p - 1);
        g_assert_true(p + 1 + n < end);
        return n + 2;
    case 0x11: case 0x12:               /* Buffer, Package */
        return 1 + aml_pkglength(p + 1, &n);
    }
    g_assert_not_reached();
}

/*
 * Walks a TermList of Name, Scope and Device objects, checking that each
 * object ends inside its parent; records the _S5_ package's position.
 */
static void aml_walk(const uint8_t *p, const uint8_t *end,
                     const uint8_t **s5, unsigned *devices)
{
    size_t n, len;

    while (p < end) {
        if (p[0] == 0x08) {                         /* NameOp */
            g_assert_true(p + 5 < end);
            if (!memcmp(p + 1, "_S5_", 4)) {
                *s5 = p + 5;
            }
            p += 5;
            p += aml_data_len(p, end);
        } else if (p[0] == 0x10) {                  /* ScopeOp */
            len = aml_pkglength(p + 1, &n);
            g_assert_true(p + 1 + len <= end);
            g_assert_true(p[1 + n] == '\\');        /* \_SB_ */
            aml_walk(p + 1 + n + 5, p + 1 + len, s5, devices);
            p += 1 + len;
        } else if (p[0] == 0x5b && p[1] == 0x82) {  /* DeviceOp */
            len = aml_pkglength(p + 2, &n);
            g_assert_true(p + 2 + len <= end);
            aml_walk(p + 2 + n + 4, p + 2 + len, s5, devices);
            (*devices)++;
            p += 2 + len;
        } else {
            g_assert_not_reached();
        }
        g_assert_true(p <= end);
    }
}

static const uint8_t qemu72_s3[] = {
    0x08, '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x01, 0x01, 0x00, 0x00,
};
static const uint8_t qemu72_s4[] = {
    0x08, '_', 'S', '4', '_', 0x12, 0x08, 0x04, 0x0a, 0x02, 0x0a, 0x02, 0x00,
    0x00,
};
static const uint8_t qemu72_s5[] = {
    0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};

static void check_dsdt(const TablesCase *c, const uint8_t *dsdt)
{
    uint32_t len = get32(dsdt + 4);
    static const uint8_t pnp0a08[] = { 0x0c, 0x41, 0xd0, 0x0a, 0x08 };
    const uint8_t *s5 = NULL, *end = dsdt + len;
    unsigned devices = 0;
    size_t n, pkglen;

    g_assert_cmpuint(dsdt[8], ==, 2);
    aml_walk(dsdt + 36, end, &s5, &devices);
    g_assert_cmpuint(devices, ==, 2 + !!c->pvpanic); /* PCI0, COM1, PEVT */

    /*
     * The sleep-state packages byte for byte as QEMU 7.2's DSDT has them
     * (read from its etc/acpi/tables over fw_cfg, pc and q35 alike):
     * \_S3_ {1, 1, 0, 0}, \_S4_ {2, 2, 0, 0}, \_S5_ {0, 0, 0, 0}
     */
    g_assert_nonnull(s5);
    g_assert_cmpuint(s5[0], ==, 0x12);
    pkglen = aml_pkglength(s5 + 1, &n);
    g_assert_true(s5 + 1 + pkglen <= end);
    g_assert_nonnull(memmem(dsdt, len, qemu72_s3, sizeof(qemu72_s3)));
    g_assert_nonnull(memmem(dsdt, len, qemu72_s4, sizeof(qemu72_s4)));
    g_assert_nonnull(memmem(dsdt, len, qemu72_s5, sizeof(qemu72_s5)));

    g_assert_cmpint(memmem(dsdt, len, pnp0a08, 5) != NULL, ==, c->q35);
    g_assert_nonnull(memmem(dsdt, len, "COM1", 4));
    if (c->pvpanic) {
        /* _HID "QEMU0001" and an I/O descriptor for the port */
        static const uint8_t hid[] = "\x0dQEMU0001";
        const uint8_t io[] = { 0x47, 0x01, c->pvpanic & 0xff,
                               c->pvpanic >> 8, c->pvpanic & 0xff,
                               c->pvpanic >> 8, 0x01, 0x01 };

        g_assert_nonnull(memmem(dsdt, len, "PEVT", 4));
        g_assert_nonnull(memmem(dsdt, len, hid, sizeof(hid)));
        g_assert_nonnull(memmem(dsdt, len, io, sizeof(io)));
    }
}

/* ------------------------------------------------------------------ */
/* Tables */

static void check_fadt(const TablesCase *c, const uint8_t *fadt)
{
    uint32_t flags = get32(fadt + 112);
    const uint8_t *facs;

    g_assert_cmpuint(fadt[8], ==, 5);
    g_assert_cmpuint(get32(fadt + 4), ==, 268);
    g_assert_cmpuint(get16(fadt + 46), ==, 9);              /* SCI_INT */
    g_assert_cmpuint(get32(fadt + 56), ==, 0x600);          /* PM1a_EVT */
    g_assert_cmpuint(get32(fadt + 64), ==, 0x604);          /* PM1a_CNT */
    g_assert_cmpuint(get32(fadt + 76), ==, 0x608);          /* PM_TMR */
    g_assert_cmpuint(fadt[88], ==, 4);
    g_assert_cmpuint(fadt[89], ==, 2);
    g_assert_cmpuint(fadt[91], ==, 4);
    g_assert_cmpuint(flags & (1u << 20), ==, 0);            /* HW_REDUCED */
    g_assert_cmpuint(flags & (1u << 4), ==, 0);             /* PWR_BUTTON */
    g_assert_cmpuint(flags & (1u << 8), !=, 0);             /* TMR_VAL_EXT */
    /* X_ fields: System I/O GAS with the same ports */
    g_assert_cmpuint(fadt[172], ==, 1);
    g_assert_cmpuint(get64(fadt + 172 + 4), ==, 0x604);
    g_assert_cmpuint(get64(fadt + 148 + 4), ==, 0x600);
    g_assert_cmpuint(get64(fadt + 208 + 4), ==, 0x608);
    g_assert_cmpuint(get64(fadt + 140), ==, get32(fadt + 40));   /* X_DSDT */

    facs = ram() + get32(fadt + 36);
    g_assert_cmpuint(get32(fadt + 36) % 64, ==, 0);
    g_assert_cmpmem(facs, 4, "FACS", 4);
    g_assert_cmpuint(get32(facs + 4), ==, 64);
    dump(c, "FACS", facs, 64);

    check_dsdt(c, table_at(get32(fadt + 40), "DSDT"));
    dump(c, "DSDT", ram() + get32(fadt + 40), get32(ram() + get32(fadt + 40) + 4));
}

static uint32_t want_apic_id(const TablesCase *c, unsigned i)
{
    return c->apic_ids ? c->apic_ids[i] : i;
}

static void check_madt(const TablesCase *c, const uint8_t *madt)
{
    uint32_t len = get32(madt + 4), off;
    unsigned cpus = 0, ioapics = 0, isos = 0;

    g_assert_cmpuint(get32(madt + 36), ==, 0xFEE00000);
    for (off = 44; off < len; off += madt[off + 1]) {
        const uint8_t *e = madt + off;

        g_assert_cmpuint(e[1], >=, 2);
        g_assert_cmpuint(off + e[1], <=, len);
        switch (e[0]) {
        case 0:                                     /* Local APIC */
            g_assert_cmpuint(e[1], ==, 8);
            g_assert_cmpuint(e[2], ==, cpus);       /* processor UID */
            g_assert_cmpuint(e[3], ==, want_apic_id(c, cpus));
            g_assert_cmpuint(get32(e + 4) & 1, ==, cpus < c->cpus);
            cpus++;
            break;
        case 9:                                     /* Local x2APIC */
            g_assert_cmpuint(e[1], ==, 16);
            g_assert_cmpuint(get32(e + 4), ==, want_apic_id(c, cpus));
            g_assert_cmpuint(get32(e + 8) & 1, ==, cpus < c->cpus);
            g_assert_cmpuint(get32(e + 12), ==, cpus);
            g_assert_cmpuint(cpus, >=, 255);
            cpus++;
            break;
        case 1:                                     /* I/O APIC */
            g_assert_cmpuint(get32(e + 4), ==, 0xFEC00000);
            g_assert_cmpuint(get32(e + 8), ==, 0);
            ioapics++;
            break;
        case 2:                                     /* override */
            if (e[3] == 0) {
                g_assert_cmpuint(get32(e + 4), ==, 2);
            } else {
                g_assert_cmpuint(e[3], ==, 9);
                g_assert_cmpuint(get32(e + 4), ==, 9);
                g_assert_cmpuint(get16(e + 8), ==, 0x000d);
            }
            isos++;
            break;
        }
    }
    g_assert_cmpuint(off, ==, len);
    g_assert_cmpuint(cpus, ==, c->max_cpus ? c->max_cpus : c->cpus);
    g_assert_cmpuint(ioapics, ==, 1);
    g_assert_cmpuint(isos, ==, 2);
}

static void test_tables(gconstpointer data)
{
    const TablesCase *c = data;
    MachineState *ms = machine_new(c->machine, c->cpus, ON_OFF_AUTO_AUTO);
    uint64_t rsdp_addr = 0, found = 0, start, len;
    const uint8_t *rsdp, *xsdt, *rsdt, *fadt = NULL, *madt = NULL;
    Error *err = NULL;
    unsigned i, n;
    char oem_id[7];

    if (c->max_cpus) {
        ms->smp.cores = c->cores;
        ms->smp.max_cpus = c->max_cpus;
        ms->smp.sockets = c->max_cpus / c->cores;
    }
    if (c->oem_id) {
        g_assert_true(object_property_parse(OBJECT(ms), "x-oem-id",
                                            c->oem_id, &err));
    }
    snprintf(oem_id, sizeof(oem_id), "%-6s", c->oem_id ? c->oem_id : "BOCHS");
    memset(ram(), 0, TEST_RAM_SIZE);
    g_assert_true(acpi_build_tables(ms, &rsdp_addr, &err));
    g_assert_null(err);

    rsdp = scan_rsdp(&found);
    g_assert_nonnull(rsdp);
    g_assert_cmpuint(found, ==, rsdp_addr);
    g_assert_cmpuint(found % 16, ==, 0);
    g_assert_cmpuint(rsdp[15], ==, 2);
    g_assert_cmpuint(get32(rsdp + 20), ==, 36);
    g_assert_cmpuint(sum(rsdp, 36), ==, 0);
    dump(c, "RSDP", rsdp, 36);

    /* Everything sits in the block e820 reserves */
    acpi_build_e820_reserved(&start, &len);
    g_assert_cmpuint(rsdp_addr, >=, start);
    g_assert_cmpuint(get64(rsdp + 24), <, start + len);

    xsdt = table_at(get64(rsdp + 24), "XSDT");
    n = (get32(xsdt + 4) - 36) / 8;
    g_assert_cmpuint(n, ==, 2);
    for (i = 0; i < n; i++) {
        const uint8_t *t = ram() + get64(xsdt + 36 + 8 * i);

        if (!memcmp(t, "FACP", 4)) {
            fadt = table_at(get64(xsdt + 36 + 8 * i), "FACP");
        } else {
            madt = table_at(get64(xsdt + 36 + 8 * i), "APIC");
        }
    }
    g_assert_nonnull(fadt);
    g_assert_nonnull(madt);
    dump(c, "XSDT", xsdt, get32(xsdt + 4));
    dump(c, "FACP", fadt, get32(fadt + 4));
    dump(c, "APIC", madt, get32(madt + 4));

    /* The RSDT lists the same tables for ACPI 1.0 guests */
    rsdt = table_at(get32(rsdp + 16), "RSDT");
    g_assert_cmpuint(get32(rsdt + 4), ==, 36 + 4 * n);
    for (i = 0; i < n; i++) {
        g_assert_cmpuint(get32(rsdt + 36 + 4 * i), ==,
                         get64(xsdt + 36 + 8 * i));
    }
    dump(c, "RSDT", rsdt, get32(rsdt + 4));

    check_fadt(c, fadt);
    check_madt(c, madt);
    /* QEMU's OEM fields (x-oem-id, x-oem-table-id), space padded */
    g_assert_cmpmem(rsdp + 9, 6, oem_id, 6);
    for (i = 0; i < 4; i++) {
        const uint8_t *t = (const uint8_t *[]){ xsdt, rsdt, fadt, madt }[i];

        g_assert_cmpmem(t + 10, 6, oem_id, 6);
        g_assert_cmpmem(t + 16, 8, "BXPC    ", 8);
        g_assert_cmpmem(t + 28, 4, "BXPC", 4);
    }
    object_unref(OBJECT(ms));
}

/* The board's ISA bus, its IRQs at the GSIs (once for every test) */
static ISABus *isa_bus(void)
{
    ISABus *bus = isa_bus_get_default();

    if (!bus) {
        bus = isa_bus_new(NULL, get_system_memory(), get_system_io(),
                          &error_fatal);
        qemu_irq *gsi = pc_gsi_irqs(ISA_NUM_IRQS);

        isa_bus_irqs(bus, gsi);
        g_free(gsi);
    }
    return bus;
}

static void test_tables_pvpanic(void)
{
    DeviceState *dev = qdev_new(TYPE_PVPANIC_ISA_DEVICE);

    qdev_prop_set_uint16(dev, "ioport", 0x700);
    g_assert_true(qdev_realize_and_unref(dev, BUS(isa_bus()), &error_fatal));
    g_assert_cmpint(pvpanic_port(), ==, 0x700);
    test_tables(&pvpanic_case);
}

static void test_tables_acpi_off(void)
{
    MachineState *ms = machine_new("pc-q35-8.0", 2, ON_OFF_AUTO_OFF);
    uint64_t rsdp_addr = 1, found;
    Error *err = NULL;

    memset(ram(), 0, TEST_RAM_SIZE);
    g_assert_false(acpi_enabled(ms));
    g_assert_true(acpi_build_tables(ms, &rsdp_addr, &err));
    g_assert_null(err);
    g_assert_cmpuint(rsdp_addr, ==, 0);
    g_assert_null(scan_rsdp(&found));
    object_unref(OBJECT(ms));
}

/* ------------------------------------------------------------------ */
/* PM register model */

typedef struct PMProbe {
    int sci;
    int sci_changes;
    int sleeps;
    unsigned slp_typ;
} PMProbe;

static int64_t fake_ns;

static int64_t fake_clock(void)
{
    return fake_ns;
}

static void probe_sci(void *opaque, int level)
{
    PMProbe *p = opaque;

    p->sci = level;
    p->sci_changes++;
}

static void probe_sleep(void *opaque, unsigned slp_typ)
{
    PMProbe *p = opaque;

    p->sleeps++;
    p->slp_typ = slp_typ;
}

static void pm_setup(AcpiPMState *s, PMProbe *p)
{
    memset(s, 0, sizeof(*s));
    memset(p, 0, sizeof(*p));
    s->clock_ns = fake_clock;
    s->set_sci = probe_sci;
    s->sleep = probe_sleep;
    s->opaque = p;
    acpi_pm_state_init(s);
}

static void test_pm_reset_values(void)
{
    AcpiPMState s;
    PMProbe p;

    pm_setup(&s, &p);
    g_assert_cmphex(acpi_pm_state_read(&s, 0, 2), ==, 0);
    g_assert_cmphex(acpi_pm_state_read(&s, 2, 2), ==, 0);
    g_assert_cmphex(acpi_pm_state_read(&s, 4, 2), ==, ACPI_PM1_CNT_SCI_EN);
    /* Bytes no register covers read all-ones */
    g_assert_cmphex(acpi_pm_state_read(&s, 6, 2), ==, 0xffff);
    g_assert_cmphex(acpi_pm_state_read(&s, 0xc, 4), ==, 0xffffffff);
    g_assert_cmphex(acpi_pm_state_read(&s, 0xe, 4), ==, 0xffffffff);
    acpi_pm_state_destroy(&s);
}

static void test_pm_power_button(void)
{
    AcpiPMState s;
    PMProbe p;

    pm_setup(&s, &p);
    /* Pressed before the OS enabled it: status only */
    acpi_pm_state_power_button(&s);
    g_assert_cmphex(acpi_pm_state_read(&s, 0, 2), ==, ACPI_PM1_PWRBTN);
    g_assert_cmpint(p.sci_changes, ==, 0);
    /* Writing 0 (or to PM1_EN alone) does not clear the status */
    acpi_pm_state_write(&s, 0, 2, 0);
    acpi_pm_state_write(&s, 2, 2, 0);
    g_assert_cmphex(acpi_pm_state_read(&s, 0, 2), ==, ACPI_PM1_PWRBTN);
    /* Enabling it raises the SCI at once */
    acpi_pm_state_write(&s, 2, 2, ACPI_PM1_PWRBTN);
    g_assert_cmphex(acpi_pm_state_read(&s, 2, 2), ==, ACPI_PM1_PWRBTN);
    g_assert_cmpint(p.sci, ==, 1);
    /* Write 1 to clear, here with a byte write to the status's high byte */
    acpi_pm_state_write(&s, 1, 1, ACPI_PM1_PWRBTN >> 8);
    g_assert_cmphex(acpi_pm_state_read(&s, 0, 2), ==, 0);
    g_assert_cmpint(p.sci, ==, 0);
    g_assert_cmpint(p.sci_changes, ==, 2);
    /* A 32-bit write clears the status and keeps the enable */
    acpi_pm_state_power_button(&s);
    g_assert_cmpint(p.sci, ==, 1);
    acpi_pm_state_write(&s, 0, 4, ACPI_PM1_PWRBTN << 16 | ACPI_PM1_PWRBTN);
    g_assert_cmpint(p.sci, ==, 0);
    g_assert_cmphex(acpi_pm_state_read(&s, 0, 4), ==, ACPI_PM1_PWRBTN << 16);
    /* Without SCI_EN the line stays low */
    acpi_pm_state_write(&s, 4, 2, 0);
    acpi_pm_state_power_button(&s);
    g_assert_cmpint(p.sci, ==, 0);
    acpi_pm_state_write(&s, 4, 2, ACPI_PM1_CNT_SCI_EN);
    g_assert_cmpint(p.sci, ==, 1);
    /* Reset lowers it */
    acpi_pm_state_reset(&s);
    g_assert_cmpint(p.sci, ==, 0);
    g_assert_cmphex(acpi_pm_state_read(&s, 0, 4), ==, 0);
    acpi_pm_state_destroy(&s);
}

/* GPE0 as ICH9's: 8 status bytes, then 8 enable bytes */
static void test_pm_gpe(void)
{
    AcpiPMState s;
    PMProbe p;

    pm_setup(&s, &p);
    acpi_pm_state_gpe_init(&s, 16);
    /* An event before the OS enabled it: status only */
    acpi_pm_state_gpe_event(&s, ACPI_GPE_CPU_HOTPLUG);
    g_assert_cmphex(acpi_pm_state_gpe_readb(&s, 0), ==, ACPI_GPE_CPU_HOTPLUG);
    g_assert_cmpint(p.sci_changes, ==, 0);
    /* Enabling it raises the SCI, whatever SCI_EN says (QEMU 7.2's) */
    acpi_pm_state_write(&s, 4, 2, 0);
    acpi_pm_state_gpe_writeb(&s, 8, 0xff);
    g_assert_cmphex(acpi_pm_state_gpe_readb(&s, 8), ==, 0xff);
    g_assert_cmpint(p.sci, ==, 1);
    /* Status: write 1 to clear, 0 bits keep */
    acpi_pm_state_gpe_writeb(&s, 0, 0x01);
    g_assert_cmpint(p.sci, ==, 1);
    acpi_pm_state_gpe_writeb(&s, 0, ACPI_GPE_CPU_HOTPLUG);
    g_assert_cmphex(acpi_pm_state_gpe_readb(&s, 0), ==, 0);
    g_assert_cmpint(p.sci, ==, 0);
    /* Only byte 0 counts for the SCI; the other enables are stored */
    acpi_pm_state_gpe_writeb(&s, 8, 0);
    acpi_pm_state_gpe_writeb(&s, 15, 0x5a);
    g_assert_cmphex(acpi_pm_state_gpe_readb(&s, 15), ==, 0x5a);
    acpi_pm_state_gpe_event(&s, ACPI_GPE_PCI_HOTPLUG);
    g_assert_cmpint(p.sci, ==, 0);
    /* Past the block: 0, writes ignored */
    acpi_pm_state_gpe_writeb(&s, 16, 0xff);
    g_assert_cmphex(acpi_pm_state_gpe_readb(&s, 16), ==, 0);
    /* Reset clears both halves */
    acpi_pm_state_gpe_writeb(&s, 8, 0xff);
    g_assert_cmpint(p.sci, ==, 1);
    acpi_pm_state_reset(&s);
    g_assert_cmpint(p.sci, ==, 0);
    g_assert_cmphex(acpi_pm_state_gpe_readb(&s, 0), ==, 0);
    g_assert_cmphex(acpi_pm_state_gpe_readb(&s, 15), ==, 0);
    acpi_pm_state_destroy(&s);
}

static void test_pm_sleep(void)
{
    AcpiPMState s;
    PMProbe p;
    uint32_t s5 = ACPI_PM_SLP_TYP_S5 << ACPI_PM1_CNT_SLP_TYP_SHIFT;

    pm_setup(&s, &p);
    /* The OS writes SLP_TYP first, then SLP_TYP | SLP_EN */
    acpi_pm_state_write(&s, 4, 2, ACPI_PM1_CNT_SCI_EN | s5);
    g_assert_cmpint(p.sleeps, ==, 0);
    g_assert_cmphex(acpi_pm_state_read(&s, 4, 2), ==, ACPI_PM1_CNT_SCI_EN | s5);
    acpi_pm_state_write(&s, 4, 2,
                        ACPI_PM1_CNT_SCI_EN | s5 | ACPI_PM1_CNT_SLP_EN);
    g_assert_cmpint(p.sleeps, ==, 1);
    g_assert_cmpuint(p.slp_typ, ==, ACPI_PM_SLP_TYP_S5);
    /* SLP_EN is write-only */
    g_assert_cmphex(acpi_pm_state_read(&s, 4, 2) & ACPI_PM1_CNT_SLP_EN, ==, 0);
    /* A byte write to the high byte alone is enough */
    acpi_pm_state_write(&s, 5, 1, (3u << 10 | ACPI_PM1_CNT_SLP_EN) >> 8);
    g_assert_cmpint(p.sleeps, ==, 2);
    g_assert_cmpuint(p.slp_typ, ==, 3);
    g_assert_cmphex(acpi_pm_state_read(&s, 4, 1), ==, ACPI_PM1_CNT_SCI_EN);
    acpi_pm_state_destroy(&s);
}

static void test_pm_timer(void)
{
    AcpiPMState s;
    PMProbe p;
    uint32_t a, b;
    int i;

    fake_ns = 5000000000LL;
    pm_setup(&s, &p);
    g_assert_cmpuint(acpi_pm_state_read(&s, 8, 4), ==, 0);
    fake_ns += 1000000000LL;
    g_assert_cmpuint(acpi_pm_state_read(&s, 8, 4), ==, ACPI_PM_TIMER_HZ);
    g_assert_cmpuint(acpi_pm_state_read(&s, 8, 2), ==,
                     ACPI_PM_TIMER_HZ & 0xffff);
    g_assert_cmpuint(acpi_pm_state_read(&s, 10, 2), ==,
                     ACPI_PM_TIMER_HZ >> 16);
    /* Writes do nothing; the counter wraps at 32 bits (after ~20 min) */
    acpi_pm_state_write(&s, 8, 4, 0);
    g_assert_cmpuint(acpi_pm_state_read(&s, 8, 4), ==, ACPI_PM_TIMER_HZ);
    fake_ns += 1200 * 1000000000LL;
    g_assert_cmpuint(acpi_pm_state_read(&s, 8, 4), ==,
                     (uint32_t)(1201ULL * ACPI_PM_TIMER_HZ));
    acpi_pm_state_destroy(&s);

    /* The real clock: never goes back */
    pm_setup(&s, &p);
    s.clock_ns = NULL;
    acpi_pm_state_reset(&s);
    a = acpi_pm_state_timer(&s);
    for (i = 0; i < 1000; i++) {
        b = acpi_pm_state_read(&s, 8, 4);
        g_assert_cmpuint(b, >=, a);
        a = b;
    }
    g_usleep(2000);
    g_assert_cmpuint(acpi_pm_state_timer(&s), >, a);
    acpi_pm_state_destroy(&s);
}

/* ------------------------------------------------------------------ */
/* The board's PM block: ports, GSI 9, shutdown */

static int board_sci = -1;

static void board_irq(int gsi, int level)
{
    if (gsi == ACPI_PM_SCI_GSI) {
        board_sci = level;
    }
}

/* A bare parent for the test's PCI root bus */
#define TYPE_TEST_PCI_HOST "test-acpi-pci-host"

static const TypeInfo test_pci_host_info = {
    .name = TYPE_TEST_PCI_HOST,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(SysBusDevice),
};

static PCIDevice *test_pm_function(PCIBus *bus, int devfn, Error **errp)
{
    PCIDevice *pm = pci_new(devfn, false, TYPE_PIIX4_PM);

    return pci_realize_and_unref(pm, bus, errp) ? pm : NULL;
}

/* PIIX4_PM's block, once firmware has placed it at 0x600 and enabled it */
static void test_pm_board(void)
{
    static MemoryRegion mem_space, io_space;
    DeviceState *host;
    PCIBus *bus;
    PCIDevice *pm;
    Error *err = NULL;

    type_register_static(&test_pci_host_info);
    memory_region_init(&mem_space, NULL, "t-pci", UINT64_MAX);
    memory_region_init(&io_space, NULL, "t-pci-io", 0x10000);
    host = qdev_new(TYPE_TEST_PCI_HOST);
    g_assert_true(sysbus_realize_and_unref(SYS_BUS_DEVICE(host),
                                           &error_fatal));
    bus = pci_root_bus_new(host, "pci.0", &mem_space, &io_space,
                           TYPE_PCI_BUS);
    pc_set_irq_handler(board_irq);
    isa_bus();
    pm = test_pm_function(bus, PCI_DEVFN(1, 3), &err);
    g_assert_nonnull(pm);
    g_assert_null(err);
    qdev_connect_gpio_out(DEVICE(pm), 0, isa_get_irq(NULL, ACPI_PM_SCI_GSI));
    device_cold_reset(DEVICE(pm));
    /* One PM block per machine */
    g_assert_null(test_pm_function(bus, PCI_DEVFN(2, 3), &err));
    g_assert_nonnull(err);
    error_free(err);

    /* Not decoded until PMBASE and PMREGMISC say so */
    g_assert_cmphex(cpu_inw(0x604), ==, 0xffff);
    pci_host_config_write(bus, 0, pm->devfn, PIIX4_PM_PMBASE,
                          ACPI_PM_BASE | 1, 4);
    pci_host_config_write(bus, 0, pm->devfn, PIIX4_PM_PMREGMISC, 1, 1);
    g_assert_cmphex(cpu_inw(0x604), ==, ACPI_PM1_CNT_SCI_EN);
    cpu_outw(0x602, ACPI_PM1_PWRBTN);
    acpi_pm_powerdown();
    g_assert_cmpint(board_sci, ==, 1);
    g_assert_cmphex(cpu_inw(0x600), ==, ACPI_PM1_PWRBTN);
    cpu_outw(0x600, ACPI_PM1_PWRBTN);
    g_assert_cmpint(board_sci, ==, 0);

    /* SLP_TYP values QEMU 7.2 ignores change nothing (3, 5, 6, 7) */
    for (unsigned typ = 3; typ < 8; typ++) {
        if (typ != ACPI_PM_S4_VAL_DEFAULT) {
            cpu_outw(0x604, 1 | typ << 10 | ACPI_PM1_CNT_SLP_EN);
            g_assert_false(qemu_shutdown_requested());
        }
    }
    cpu_outw(0x604, 1 | ACPI_PM_SLP_TYP_S5 << 10);
    g_assert_false(qemu_shutdown_requested());
    cpu_outw(0x604,
                 1 | ACPI_PM_SLP_TYP_S5 << 10 | ACPI_PM1_CNT_SLP_EN);
    g_assert_true(qemu_shutdown_requested());
    pc_set_irq_handler(NULL);
}

int main(int argc, char **argv)
{
    size_t i;

    g_test_init(&argc, &argv, NULL);
    ram();
    isa_bus();
    for (i = 0; i < G_N_ELEMENTS(tables_cases); i++) {
        char *path = g_strdup_printf("/acpi/tables/%s", tables_cases[i].name);
        g_test_add_data_func(path, &tables_cases[i], test_tables);
        g_free(path);
    }
    g_test_add_func("/acpi/tables/acpi-off", test_tables_acpi_off);
    g_test_add_func("/acpi/pm/reset-values", test_pm_reset_values);
    g_test_add_func("/acpi/pm/power-button", test_pm_power_button);
    g_test_add_func("/acpi/pm/gpe", test_pm_gpe);
    g_test_add_func("/acpi/pm/sleep", test_pm_sleep);
    g_test_add_func("/acpi/pm/timer", test_pm_timer);
    /* Last: a shutdown request cannot be taken back */
    g_test_add_func("/acpi/pm/board", test_pm_board);
    /* After every other table test: a pvpanic cannot be removed */
    g_test_add_func("/acpi/pvpanic/tables", test_tables_pvpanic);
    return g_test_run();
}
