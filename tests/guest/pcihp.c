/*
 * pcihp guest: ACPI PCI hotplug from inside, on pc-i440fx (PIIX4_PM's
 * GPE0 at 0xafe0, its acpi-pci-hotplug block at 0xae00):
 *
 *   PCIHP-READY rmv=0x...            (the host now device_adds)
 *   PCIHP-UP gpe=0x02 up=0x... up-again=0x...
 *   PCIHP-DEVICE slot=N id=0x...
 *   PCIHP-WAIT-UNPLUG                (the host now device_dels)
 *   PCIHP-DOWN gpe=0x02 down=0x...
 *   PCIHP-EJECTED id=0x... down=0x... up=0x...
 *   PCIHP-DONE
 *
 * The guest polls GPE0's status (interrupts stay off), acknowledges each
 * event, and ejects the slot itself: that write comes from a vCPU thread,
 * which this tree hands to its main thread, so the guest polls the slot's
 * ID until it reads all-ones; it then waits ~3 s, so that the host sees
 * DEVICE_DELETED before the exit.  tests/functional/test_pcihp_kvm.py plays
 * the host and compares the lines with QEMU 7.2's.
 */
#include "lib.h"

const char guest_name[] = "pcihp";

#define GPE0_STS 0xafe0
#define GPE0_EN 0xafe2
#define PCIHP_UP 0xae00
#define PCIHP_DOWN 0xae04
#define PCIHP_EJ 0xae08
#define PCIHP_RMV 0xae0c
#define PCIHP_SEL 0xae10
#define GPE_PCI 0x02
#define TIMEOUT 20000000u

static u32 cfg_id(unsigned slot)
{
    outl(0xcf8, 0x80000000u | slot << 11);
    return inl(0xcfc);
}

/* Waits for GPE0's PCI hotplug status; false on timeout */
static bool wait_gpe(void)
{
    u32 i;

    for (i = 0; i < TIMEOUT; i++) {
        if (inb(GPE0_STS) & GPE_PCI) {
            return true;
        }
        io_delay();
    }
    return false;
}

int guest_main(void)
{
    u32 up, down, id = 0, i;
    unsigned slot;

    outb(GPE0_EN, GPE_PCI);
    outl(PCIHP_SEL, 0);
    printf("PCIHP-READY rmv=0x%x\n", inl(PCIHP_RMV));
    if (!wait_gpe()) {
        printf("PCIHP-FAIL no plug event\n");
        return 1;
    }
    up = inl(PCIHP_UP);
    printf("PCIHP-UP gpe=0x%02x up=0x%x up-again=0x%x\n", inb(GPE0_STS), up,
           inl(PCIHP_UP));
    outb(GPE0_STS, GPE_PCI);
    if (!up) {
        printf("PCIHP-FAIL no slot\n");
        return 1;
    }
    slot = __builtin_ctz(up);
    printf("PCIHP-DEVICE slot=%u id=0x%x\n", slot, cfg_id(slot));
    printf("PCIHP-WAIT-UNPLUG\n");
    if (!wait_gpe()) {
        printf("PCIHP-FAIL no unplug event\n");
        return 1;
    }
    down = inl(PCIHP_DOWN);
    printf("PCIHP-DOWN gpe=0x%02x down=0x%x\n", inb(GPE0_STS), down);
    outb(GPE0_STS, GPE_PCI);
    outl(PCIHP_EJ, down);
    for (i = 0; i < TIMEOUT; i++) {
        id = cfg_id(slot);
        if (id == 0xffffffffu) {
            break;
        }
        io_delay();
    }
    printf("PCIHP-EJECTED id=0x%x down=0x%x up=0x%x\n", id, inl(PCIHP_DOWN),
           inl(PCIHP_UP));
    printf("PCIHP-DONE\n");
    /* ~3 s before the exit: 7.2 sends DEVICE_DELETED after an RCU period */
    for (i = 0; i < 300000; i++) {
        io_delay();
    }
    return id == 0xffffffffu ? 0 : 1;
}
