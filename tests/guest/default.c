/*
 * default guest (README's main command): prints a banner, what it was
 * booted with, and which KVM paravirtual features its own CPUID shows:
 *   PV features: kvmclock=on ... kvm-pv-eoi=on kvm-pv-unhalt=off ...
 * then GUEST-DONE, and powers off through ACPI (exit=debug or exit-port=
 * select isa-debug-exit instead).  With pit-ch2, first times PIT channel 2
 * through port 0x61 as Linux's TSC calibration does:
 *   PIT-CH2 gate=1 out-before=0 out-rose=yes
 * With dump-tables=SIG,SIG: each ACPI table's revision, length and the
 * bytes after its header, in hex:
 *   ACPI-TABLE SRAT rev=1 len=N body=...   (or ACPI-TABLE SLIT absent)
 * With rtc, polls the RTC through a divider reset and a 2 Hz periodic
 * interrupt as a driver without interrupts would:
 *   RTC seconds=58->59 uf=yes c-after-read=0x00 pf=yes pf-without-pie=no
 * With ahci-msi (q35), resets the AHCI HBA at 00:1f.2, points its MSI at
 * this CPU (vector 0x61) with interrupts off, starts FIS receive on the
 * empty port 0 and shows what arrived (QEMU 7.2 sends the empty unit's
 * D2H FIS) and whether the MSI reached the LAPIC's IRR:
 *   AHCI-MSI is=0x1 tfd=0x50 sig=0xffff0101 fis=34405000 irr=yes
 */
#include "lib.h"

const char guest_name[] = "default";

/* Gate on, speaker off; mode 0 with a 0x1000 count (3.4 ms); OUT rises */
static void pit_ch2(void)
{
    u32 polls = 0;
    u8 gate, before;

    outb(0x61, (inb(0x61) & ~0x02) | 0x01);
    gate = inb(0x61) & 1;
    outb(0x43, 0xb0);           /* channel 2, lobyte/hibyte, mode 0 */
    outb(0x42, 0x00);
    outb(0x42, 0x10);
    before = (inb(0x61) >> 5) & 1;
    while (!(inb(0x61) & 0x20) && polls < 10000000) {
        polls++;
    }
    printf("PIT-CH2 gate=%u out-before=%u out-rose=%s\n", gate, before,
           (inb(0x61) & 0x20) ? "yes" : "no");
}

static u32 pci_cfg_read32(u32 devfn, u32 off)
{
    outl(0xcf8, 0x80000000 | devfn << 8 | off);
    return inl(0xcfc);
}

static void pci_cfg_write32(u32 devfn, u32 off, u32 v)
{
    outl(0xcf8, 0x80000000 | devfn << 8 | off);
    outl(0xcfc, v);
}

#define AHCI_DEVFN 0xfa        /* 00:1f.2 */
#define AHCI_ABAR 0xfebf0000u
#define AHCI_FB 0x00300000u
#define AHCI_VECTOR 0x61

static void ahci_msi(void)
{
    u32 lapic = lapic_base(), port0 = AHCI_ABAR + 0x100, irr, flags;

    __asm__ volatile("cli");
    if ((pci_cfg_read32(AHCI_DEVFN, 0) & 0xffff) != 0x8086) {
        printf("AHCI-MSI absent\n");
        return;
    }
    /* the LAPIC accepts interrupts; this CPU takes none (IF=0) */
    mmio_write32(lapic + 0xf0, mmio_read32(lapic + 0xf0) | 0x100);
    pci_cfg_write32(AHCI_DEVFN, 0x24, AHCI_ABAR);
    pci_cfg_write32(AHCI_DEVFN, 0x04, 0x0006);  /* memory, bus master */
    /* MSI at 0x80: address (this CPU), data (fixed, edge), enable */
    pci_cfg_write32(AHCI_DEVFN, 0x84, 0xfee00000u | cpu_apic_id() << 12);
    pci_cfg_write32(AHCI_DEVFN, 0x88, 0);
    pci_cfg_write32(AHCI_DEVFN, 0x8c, AHCI_VECTOR);
    flags = pci_cfg_read32(AHCI_DEVFN, 0x80);
    pci_cfg_write32(AHCI_DEVFN, 0x80, flags | 0x10000);
    mmio_write32(AHCI_ABAR + 4, 1);             /* GHC.HR */
    memset((void *)AHCI_FB, 0xee, 256);
    mmio_write32(port0 + 0x08, AHCI_FB);
    mmio_write32(port0 + 0x0c, 0);
    mmio_write32(port0 + 0x14, 1);              /* DHRS enabled */
    mmio_write32(AHCI_ABAR + 4, 2);             /* GHC.IE */
    mmio_write32(port0 + 0x18, 0x10);           /* FRE */
    for (u32 polls = 0; polls < 1000000; polls++) {
        if (mmio_read32(port0 + 0x10)) {
            break;
        }
    }
    irr = mmio_read32(lapic + 0x200 + (AHCI_VECTOR / 32) * 0x10);
    printf("AHCI-MSI is=0x%x tfd=0x%x sig=0x%x fis=%08x irr=%s\n",
           mmio_read32(port0 + 0x10), mmio_read32(port0 + 0x20),
           mmio_read32(port0 + 0x24),
           __builtin_bswap32(*(volatile u32 *)(AHCI_FB + 0x40)),
           irr & (1u << (AHCI_VECTOR % 32)) ? "yes" : "no");
    mmio_write32(AHCI_ABAR + 4, 1);
}

static u8 cmos_read(u8 reg)
{
    outb(0x70, reg);
    return inb(0x71);
}

static void cmos_write(u8 reg, u8 v)
{
    outb(0x70, reg);
    outb(0x71, v);
}

/* Polls register C until one of the flags shows; false after ~limit */
static bool rtc_wait_flag(u8 flag)
{
    for (u32 polls = 0; polls < 20000000; polls++) {
        if (cmos_read(0x0c) & flag) {
            return true;
        }
    }
    return false;
}

/*
 * 02:04:58 set in divider reset; the first update comes 500 ms after it
 * ends, then a 2 Hz periodic flag with PIE (none without)
 */
static void rtc(void)
{
    u8 before, after, c, seen;
    bool uf, pf, pf_off;

    cmos_write(0x0b, 0x02);             /* BCD, 24-hour, no interrupts */
    cmos_write(0x0a, 0x76);
    cmos_write(0x04, 0x02);
    cmos_write(0x02, 0x04);
    cmos_write(0x00, 0x58);
    cmos_read(0x0c);
    cmos_write(0x0a, 0x26);
    before = cmos_read(0x00);
    uf = rtc_wait_flag(0x10);
    after = cmos_read(0x00);
    c = cmos_read(0x0c);
    cmos_write(0x0a, 0x2f);             /* 2 Hz */
    cmos_write(0x0b, 0x42);             /* PIE; its IRQ 8 stays masked */
    pf = rtc_wait_flag(0x40);
    cmos_write(0x0b, 0x02);
    cmos_read(0x0c);
    /* two updates, so over a second (two periods): no PF without PIE */
    seen = 0;
    for (u32 polls = 0, updates = 0; updates < 2 && polls < 40000000;
         polls++) {
        u8 flags = cmos_read(0x0c);

        seen |= flags;
        updates += !!(flags & 0x10);
    }
    pf_off = seen & 0x40;
    printf("RTC seconds=%x->%x uf=%s c-after-read=0x%02x pf=%s "
           "pf-without-pie=%s\n", before, after, uf ? "yes" : "no", c,
           pf ? "yes" : "no", pf_off ? "yes" : "no");
}

int guest_main(void)
{
    static const char *kinds[] = { "unknown", "multiboot", "pvh" };
    struct cpuid_regs r;
    char vendor[13], brand[49];
    char line[512];
    int n;

    default_exit_method = EXIT_ACPI;
    printf("\nkvm-pv test guest (tests/guest default.elf)\n");
    printf("boot: %s\n", kinds[boot_info.kind]);
    printf("cmdline: %s\n", boot_info.cmdline);

    r = cpuid(0);
    memcpy(vendor, &r.ebx, 4);
    memcpy(vendor + 4, &r.edx, 4);
    memcpy(vendor + 8, &r.ecx, 4);
    vendor[12] = 0;
    brand[0] = 0;
    if (cpuid(0x80000000).eax >= 0x80000004) {
        for (u32 i = 0; i < 3; i++) {
            r = cpuid(0x80000002 + i);
            memcpy(brand + 16 * i, &r, 16);
        }
        brand[48] = 0;
    }
    r = cpuid(1);
    printf("cpu: %s family 0x%x model 0x%x stepping %u \"%s\"\n", vendor,
           ((r.eax >> 8) & 0xf) + ((r.eax >> 20) & 0xff), ((r.eax >> 4) & 0xf) | ((r.eax >> 12) & 0xf0),
           r.eax & 0xf, brand);
    printf("cpus: %d\n", smp_expected_cpus());
    printf("memory: ram-top=0x%08x\n", boot_info.ram_top);
    printf("acpi: rsdp=0x%08x (%s)\n", acpi_find_rsdp(),
           boot_info.rsdp ? "from start_info" : "found by scanning");

    u32 base = kvm_cpuid_base();
    if (!base) {
        printf("hypervisor: no KVM signature\n");
        printf("PV features: none\n");
    } else {
        u32 eax = cpuid(base + 1).eax;
        printf("hypervisor: KVMKVMKVM at 0x%08x, features eax=0x%08x\n", base, eax);
        n = snprintf(line, sizeof(line), "PV features:");
        for (int i = 0; i < kvm_feature_count; i++) {
            n += snprintf(line + n, sizeof(line) - n, " %s=%s", kvm_feature_names[i].name,
                          eax & (1u << kvm_feature_names[i].bit) ? "on" : "off");
        }
        printf("%s\n", line);
    }
    if (cmdline_has("pit-ch2")) {
        pit_ch2();
    }
    if (cmdline_has("rtc")) {
        rtc();
    }
    if (cmdline_has("ahci-msi")) {
        ahci_msi();
    }
    /* sleep=3 or sleep=4: enter that ACPI sleep state once (the DSDT's
     * \_S3_/\_S4_); what follows is the emulator's (suspend, S4 off) */
    if (cmdline_is("sleep", "3") || cmdline_is("sleep", "4")) {
        char st = cmdline_is("sleep", "3") ? '3' : '4';
        acpi_sleep(st);
        printf("SLEEP-S%c-RETURNED\n", st);
    }
    /*
     * wait-nmi: until an NMI comes (QMP inject-nmi), or a few seconds of
     * TSC; wait-nmi=lint1 first unmasks LINT1 as NMI (where QEMU's
     * inject-nmi delivers; masked at reset, so nothing comes then)
     */
    if (cmdline_has("wait-nmi")) {
        u32 lo, hi;
        u64 start, now;

        if (cmdline_is("wait-nmi", "lint1")) {
            /* the APIC software-enabled (SVR), then LVT LINT1: NMI */
            *(volatile u32 *)0xfee000f0u |= 0x100;
            *(volatile u32 *)0xfee00360u = 0x400;
        }
        __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
        start = ((u64)hi << 32) | lo;
        printf("WAIT-NMI READY\n");
        do {
            __asm__ volatile("pause; rdtsc" : "=a"(lo), "=d"(hi));
            now = ((u64)hi << 32) | lo;
        } while (!nmis_seen() && now - start < 8000000000ull);
        print_exception_summary();
        printf("WAIT-NMI %s\n", nmis_seen() ? "GOT" : "TIMEOUT");
    }
    /* dump-tables=SRAT,SLIT: each table's revision, length and body */
    char sigs[64];
    if (cmdline_get("dump-tables", sigs, sizeof(sigs))) {
        for (char *sig = sigs; strlen(sig) >= 4; sig += 5) {
            const u8 *t = acpi_find_table(sig, 0);
            char name[5];
            memcpy(name, sig, 4);
            name[4] = 0;
            if (!t) {
                printf("ACPI-TABLE %s absent\n", name);
                if (!sig[4]) {
                    break;
                }
                continue;
            }
            u32 len = t[4] | (t[5] << 8) | (t[6] << 16) | ((u32)t[7] << 24);
            printf("ACPI-TABLE %s rev=%u len=%u body=", name, t[8], len);
            for (u32 i = 36; i < len && i < 4096; i++) {
                printf("%02x", t[i]);
            }
            printf("\n");
            if (!sig[4]) {
                break;
            }
        }
    }
    printf("GUEST-DONE\n");
    return 0;
}
