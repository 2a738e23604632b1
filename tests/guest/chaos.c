/*
 * chaos guest: thousands of pseudo-random port reads and writes (1, 2 or 4
 * bytes) and accesses to unmapped physical memory, to show that the
 * emulator survives what a confused guest does.  Ports that would end or
 * reset the machine, or make a device DMA over the guest, are skipped
 * (table below).  Prints counts and a checksum of everything read, then
 * CHAOS-DONE.
 */
#include "lib.h"

const char guest_name[] = "chaos";

struct port_range {
    u16 first, last;
    const char *why;
};

static const struct port_range skip_fixed[] = {
    { 0x0060, 0x0060, "i8042 data (output-port writes reset)" },
    { 0x0064, 0x0064, "i8042 command (0xfe pulses reset)" },
    { 0x0092, 0x0092, "port A fast reset / A20" },
    { 0x00b2, 0x00b3, "APM control: SMI" },
    { 0x00e9, 0x00e9, "debug console" },
    { 0x00f4, 0x00f7, "isa-debug-exit" },
    { 0x03f0, 0x03f7, "floppy controller (DMA)" },
    { 0x03f8, 0x03ff, "COM1, our console" },
    { 0x0402, 0x0402, "firmware debug port" },
    { 0x0505, 0x0505, "pvpanic" },
    { 0x0510, 0x051b, "fw_cfg (its DMA writes guest memory)" },
    { 0x0600, 0x06ff, "ICH9/PIIX4 ACPI PM, TCO watchdog, SMI_EN" },
    { 0x0a00, 0x0a1f, "memory hotplug" },
    { 0x0cd8, 0x0cdf, "ACPI GED" },
    { 0x0cf8, 0x0cff, "PCI config and reset control 0xcf9" },
    { 0x5658, 0x565b, "vmport" },
    { 0x8900, 0x8900, "bochs shutdown" },
    { 0xae00, 0xae1f, "PCI hotplug (eject)" },
    { 0xaf00, 0xafff, "CPU hotplug, GPE0" },
    { 0xb000, 0xb03f, "PIIX4 ACPI PM (SeaBIOS base)" },
};

static struct port_range skip_dyn[8];
static int n_dyn;

static void skip_add(u32 first, u32 len, const char *why)
{
    if (first && first <= 0xffff && n_dyn < (int)ARRAY_SIZE(skip_dyn)) {
        u32 last = first + len - 1;
        skip_dyn[n_dyn].first = (u16)first;
        skip_dyn[n_dyn].last = (u16)(last > 0xffff ? 0xffff : last);
        skip_dyn[n_dyn].why = why;
        n_dyn++;
    }
}

static bool overlaps(const struct port_range *r, u32 first, u32 last)
{
    return first <= r->last && last >= r->first;
}

static bool port_skipped(u32 port, u32 width, u32 port_max)
{
    u32 last = port + width - 1;
    if (last > port_max) {
        return true;
    }
    for (unsigned i = 0; i < ARRAY_SIZE(skip_fixed); i++) {
        if (overlaps(&skip_fixed[i], port, last)) {
            return true;
        }
    }
    for (int i = 0; i < n_dyn; i++) {
        if (overlaps(&skip_dyn[i], port, last)) {
            return true;
        }
    }
    return false;
}

static u32 rd32(const u8 *p) { return p[0] | (p[1] << 8) | (p[2] << 16) | ((u32)p[3] << 24); }

static void skip_from_fadt(void)
{
    const u8 *fadt = acpi_find_table("FACP", 0);
    u32 exit_port = cmdline_uint("exit-port", 0xf4);
    skip_add(exit_port, 4, "isa-debug-exit (exit-port=)");
    if (!fadt) {
        return;
    }
    skip_add(rd32(fadt + 48), 1, "FADT SMI_CMD");
    skip_add(rd32(fadt + 56) & ~0x7fu, 0x80, "FADT PM block (PM1, TCO)");
    skip_add(rd32(fadt + 64), 2, "FADT PM1a_CNT");
    skip_add(rd32(fadt + 68), 2, "FADT PM1b_CNT");
}

struct mem_range {
    u32 start, end; /* [start, end) */
};

int guest_main(void)
{
    u32 seed = cmdline_uint("seed", 1);
    u32 port_ops = cmdline_uint("count", 4000);
    u32 mem_ops = cmdline_uint("mem-count", 2000);
    u32 port_max = cmdline_is("ports", "all") ? 0xffff : 0xbfff;
    u32 state = seed;
    u32 sum = 0, reads = 0, writes = 0, ones = 0, skipped = 0, msum = 0;
    struct mem_range regions[2];
    int nregions = 0;

    skip_from_fadt();
    if (cmdline_has("verbose")) {
        for (unsigned i = 0; i < ARRAY_SIZE(skip_fixed); i++) {
            printf("CHAOS skip 0x%04x-0x%04x %s\n", skip_fixed[i].first, skip_fixed[i].last,
                   skip_fixed[i].why);
        }
        for (int i = 0; i < n_dyn; i++) {
            printf("CHAOS skip 0x%04x-0x%04x %s\n", skip_dyn[i].first, skip_dyn[i].last,
                   skip_dyn[i].why);
        }
    }
    printf("CHAOS seed=0x%x ports=0x0000-0x%04x port-ops=%u mem-ops=%u\n", seed, port_max,
           port_ops, mem_ops);

    for (u32 i = 0; i < port_ops; i++) {
        u32 r = rand32(&state);
        /* half of them in the legacy ISA range where most devices sit */
        u32 port = (r >> 24) & 1 ? r & 0xfff : r & port_max;
        u32 width = 1u << ((r >> 16) % 3);
        bool wr = (r >> 20) & 1;
        port &= ~(width - 1);
        if (port_skipped(port, width, port_max)) {
            skipped++;
            continue;
        }
        if (wr) {
            u32 v = rand32(&state);
            if (width == 1) {
                outb((u16)port, (u8)v);
            } else if (width == 2) {
                outw((u16)port, (u16)v);
            } else {
                outl((u16)port, v);
            }
            writes++;
        } else {
            u32 v = width == 1 ? inb((u16)port) : width == 2 ? inw((u16)port) : inl((u16)port);
            u32 all = width == 4 ? 0xffffffffu : (1u << (8 * width)) - 1;
            ones += v == all;
            sum = sum * 31 + v;
            reads++;
        }
    }
    printf("CHAOS ports reads=%u writes=%u skipped=%u all-ones=%u\n", reads, writes, skipped,
           ones);

    /* above RAM (below q35's MMCONFIG at 0xb0000000), and a PCI-hole
     * stretch well below where firmware places BARs */
    u32 top = boot_info.ram_top ? (boot_info.ram_top + 0xfffff) & ~0xfffffu : 0;
    if (top && top < 0xb0000000u) {
        regions[nregions].start = top;
        regions[nregions].end = top + 0x10000000u < 0xb0000000u ? top + 0x10000000u : 0xb0000000u;
        nregions++;
    }
    regions[nregions].start = 0xe0000000u;
    regions[nregions].end = 0xf0000000u;
    nregions++;
    for (int i = 0; i < nregions; i++) {
        printf("CHAOS mem region 0x%08x-0x%08x\n", regions[i].start, regions[i].end - 1);
    }
    if (cmdline_is("mem", "off")) {
        mem_ops = 0;
    }

    reads = writes = ones = 0;
    for (u32 i = 0; i < mem_ops; i++) {
        u32 r = rand32(&state);
        const struct mem_range *m = &regions[(r >> 8) % nregions];
        u32 width = 1u << ((r >> 16) % 3);
        bool wr = (r >> 20) & 1;
        u32 addr = (m->start + rand32(&state) % (m->end - m->start)) & ~(width - 1);
        if (wr) {
            u32 v = rand32(&state);
            if (width == 1) {
                *(volatile u8 *)addr = (u8)v;
            } else if (width == 2) {
                *(volatile u16 *)addr = (u16)v;
            } else {
                *(volatile u32 *)addr = v;
            }
            writes++;
        } else {
            u32 v = width == 1 ? *(volatile u8 *)addr
                  : width == 2 ? *(volatile u16 *)addr : *(volatile u32 *)addr;
            u32 all = width == 4 ? 0xffffffffu : (1u << (8 * width)) - 1;
            ones += v == all;
            sum = sum * 31 + v;
            msum = msum * 31 + v;
            reads++;
        }
    }
    printf("CHAOS mem reads=%u writes=%u all-ones=%u checksum=0x%08x\n", reads, writes,
           ones, msum);
    printf("CHAOS checksum=0x%08x\n", sum);
    print_exception_summary();
    printf("CHAOS-DONE\n");
    return 0;
}
