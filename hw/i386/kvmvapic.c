/*
 * kvmvapic: QEMU 7.2's helper for its "kvmvapic.bin" option ROM, which
 * speeds up the TPR accesses of 32-bit Windows XP/2003.  A system-bus
 * device without properties, made by the first APIC with vapic=on
 * (hw/i386/apic.c), with the I/O region "kvmvapic" at 0x7e (2 ports).
 *
 * Reads answer all-ones.  The ROM talks to it by writes, as 7.2 takes
 * them from a vCPU (under qtest there is none: they do nothing):
 *   - 2 bytes: "my state is at this offset in my 512-byte block".  The
 *     block is the one the vCPU runs in (CS base + RIP, RIP after the
 *     OUT).  7.2 reads the ROM's size (512-byte units) from byte 2 of the
 *     block in guest RAM: 0 there, or a block past RAM, and it forgets
 *     the report (nothing happened).  Otherwise it maps that RAM over
 *     the ROM writable ("kvmvapic-rom", priority 1000) and turns the
 *     ROM's "mov $1,%eax; nop; outl %eax,$0x7e" IRQ polls into VMCALLs
 *     (the in-kernel irqchip) or the reverse; both are done here.
 *   - 1 byte: activation (7.2 overwrites the calling OUT with a NOP,
 *     checks the "kvm aPiC" signature through the vCPU's page tables and
 *     patches the guest's TPR instructions): not done here yet.
 *   - 4 bytes: an IRQ poll, nothing with the in-kernel irqchip.
 * The option ROM itself belongs to the firmware (fw_cfg's genroms): this
 * tree does not load it yet, so no guest sends these reports unasked.
 */
#include <string.h>

#include <glib.h>
#include <linux/kvm.h>

#include "hw/i386/apic.h"
#include "hw/sysbus.h"
#include "sysemu/kvm.h"

#define VAPIC_IO_PORT 0x7e
#define ROM_BLOCK_SIZE 512
#define ROM_BLOCK_MASK (~(uint64_t)(ROM_BLOCK_SIZE - 1))
#define VAPIC_PAGE_SIZE 4096ULL
#define VAPIC_ROM_PRIORITY 1000

typedef enum VAPICMode {
    VAPIC_INACTIVE,
    VAPIC_ACTIVE,
    VAPIC_STANDBY,
} VAPICMode;

/* State ------------------------------------------------------------------ */

typedef struct VAPICROMState {
    SysBusDevice parent_obj;
    GMutex lock;
    MemoryRegion io;
    MemoryRegion rom;           /* RAM over the ROM, once reported */
    bool rom_mapped_writable;
    VAPICMode state;
    uint64_t rom_state_paddr;
    size_t rom_size;
} VAPICROMState;

/* Register read/write ---------------------------------------------------- */

/* Maps guest RAM over the ROM so that its variables can change */
static bool vapic_map_rom_writable(VAPICROMState *s)
{
    uint64_t rom_paddr = s->rom_state_paddr & ROM_BLOCK_MASK;
    MemoryRegion *ram = memory_ram_region();
    uint64_t base, size;
    uint8_t *bytes;

    if (s->rom_mapped_writable) {
        memory_region_del_subregion(get_system_memory(), &s->rom);
        object_unparent(OBJECT(&s->rom));
        s->rom_mapped_writable = false;
    }
    /* 7.2 reads the size from the RAM itself, under whatever covers it */
    if (!ram || rom_paddr + 2 >= memory_region_size(ram)) {
        return false;
    }
    bytes = memory_region_get_ram_ptr(ram);
    s->rom_size = (size_t)bytes[rom_paddr + 2] * ROM_BLOCK_SIZE;
    if (!s->rom_size) {
        return false;
    }
    base = rom_paddr & ~(VAPIC_PAGE_SIZE - 1);
    size = (s->rom_size + (rom_paddr - base) + VAPIC_PAGE_SIZE - 1) &
           ~(VAPIC_PAGE_SIZE - 1);
    memory_region_init_alias(&s->rom, OBJECT(s), "kvmvapic-rom", ram, base,
                             size);
    memory_region_add_subregion_overlap(get_system_memory(), base, &s->rom,
                                        VAPIC_ROM_PRIORITY);
    s->rom_mapped_writable = true;
    return true;
}

/*
 * The ROM polls for interrupts with "mov $1,%eax" and a 3-byte tail:
 * "nop; outl %eax,$0x7e" or VMCALL (VMMCALL on AMD).  With KVM's irqchip
 * (kernel-irqchip=on or split) the poll is the hypercall
 */
static void vapic_patch_hypercalls(VAPICROMState *s)
{
    static const uint8_t vmcall[] = { 0xb8, 1, 0, 0, 0, 0x0f, 0x01, 0xc1 };
    static const uint8_t outl[] = { 0xb8, 1, 0, 0, 0, 0x90, 0xe7, 0x7e };
    uint64_t rom_paddr = s->rom_state_paddr & ROM_BLOCK_MASK;
    bool in_kernel = kvm_lapic_in_kernel();
    const uint8_t *pattern = in_kernel ? outl : vmcall;
    const uint8_t *patch = in_kernel ? &vmcall[5] : &outl[5];
    uint8_t alt0 = pattern[7], alt1 = in_kernel ? outl[7] : 0xd9;
    uint8_t *rom = g_malloc(s->rom_size);
    size_t pos;

    cpu_physical_memory_read(rom_paddr, rom, s->rom_size);
    for (pos = 0; pos + sizeof(vmcall) < s->rom_size; pos++) {
        if (!memcmp(rom + pos, pattern, 7) &&
            (rom[pos + 7] == alt0 || rom[pos + 7] == alt1)) {
            cpu_physical_memory_write(rom_paddr + pos + 5, patch, 3);
        }
    }
    g_free(rom);
}

static void vapic_report_rom(VAPICROMState *s, uint16_t offset)
{
    struct kvm_regs *regs = kvm_exit_regs();
    uint64_t cs_base;

    if (s->state == VAPIC_INACTIVE) {
        if (!regs || !kvm_exit_cs_base(&cs_base)) {
            return;
        }
        s->rom_state_paddr = ((cs_base + regs->rip) & ROM_BLOCK_MASK) +
                             offset;
        s->state = VAPIC_STANDBY;
    }
    if (!vapic_map_rom_writable(s)) {
        s->state = VAPIC_INACTIVE;
        s->rom_state_paddr = 0;
        return;
    }
    vapic_patch_hypercalls(s);
}

static uint64_t vapic_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0xffffffff;
}

static void vapic_write(void *opaque, hwaddr addr, uint64_t data,
                        unsigned size)
{
    VAPICROMState *s = opaque;

    if (!kvm_exit_cpu() || size != 2) {
        return;
    }
    g_mutex_lock(&s->lock);
    vapic_report_rom(s, data);
    g_mutex_unlock(&s->lock);
}

static const MemoryRegionOps vapic_ops = {
    .read = vapic_read,
    .write = vapic_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Reset ------------------------------------------------------------------ */

static void vapic_reset(DeviceState *dev)
{
    VAPICROMState *s = (VAPICROMState *)dev;

    g_mutex_lock(&s->lock);
    s->state = VAPIC_INACTIVE;
    s->rom_state_paddr = 0;
    g_mutex_unlock(&s->lock);
}

/* Realize ---------------------------------------------------------------- */

static void vapic_initfn(Object *obj)
{
    g_mutex_init(&((VAPICROMState *)obj)->lock);
}

static bool vapic_realize(DeviceState *dev, Error **errp)
{
    VAPICROMState *s = (VAPICROMState *)dev;

    memory_region_init_io(&s->io, OBJECT(dev), &vapic_ops, s, "kvmvapic", 2);
    sysbus_add_io(SYS_BUS_DEVICE(dev), VAPIC_IO_PORT, &s->io);
    return true;
}

static void vapic_finalize(Object *obj)
{
    g_mutex_clear(&((VAPICROMState *)obj)->lock);
}

/* Registration ------------------------------------------------------------ */

static void vapic_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = vapic_realize;
    dc->reset = vapic_reset;
    dc->user_creatable = false;
}

static const TypeInfo vapic_info = {
    .name = TYPE_VAPIC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(VAPICROMState),
    .instance_init = vapic_initfn,
    .instance_finalize = vapic_finalize,
    .class_init = vapic_class_init,
};

static void vapic_register_types(void)
{
    type_register_static(&vapic_info);
}
type_init(vapic_register_types)
