/*
 * The CPU hotplug register block of the PC chipsets' ACPI devices
 * (PIIX4_PM at 0xaf00, ICH9-LPC at 0xcd8), both interfaces of QEMU 7.2
 * (its docs/specs/acpi_cpu_hotplug.rst describes them):
 *
 * Legacy ("acpi-cpu-hotplug", 32 bytes, byte accesses): a bitmap of the
 * present vCPUs by APIC ID, read-only.  Writing 0 to its byte 0 — which
 * firmware never did — is the OSPM's switch to the modern interface, as
 * is clearing the device's cpu-hotplug-legacy property, or plugging a vCPU
 * whose APIC ID the bitmap cannot hold (>= 256).  There is no way back.
 *
 * Modern ("acpi-cpu-hotplug", 12 bytes, 1 to 4 byte accesses), over the
 * possible vCPUs (-smp maxcpus) by index:
 *   0  write: selector (a vCPU's index); read: command data 2
 *   4  flags: read bit 0 enabled, 1 insert event, 2 remove event,
 *      4 firmware remove; write bit 1 clears the insert event, else bit 2
 *      the remove event, else bit 3 ejects, else bit 4 is firmware's
 *      remove (neither of the boot vCPU, nor of an empty slot)
 *   5  write: command (0 next vCPU with an event, 1 _OST event, 2 _OST
 *      status, 3 get the CPU id); values >= 4 are ignored
 *   8  command data: read the selector (command 0) or the APIC ID's low
 *      32 bits (3); write the _OST event (1) or status (2, which sends
 *      ACPI_DEVICE_OST)
 * A selector past the last vCPU reads all zeros and ignores the writes
 * but the selector's.
 *
 * A plug sets the vCPU's bit (legacy) or, for a hotplugged vCPU, its
 * insert event (modern), and raises GPE0 status bit 2 of the owner's PM
 * block, so its SCI.
 */
#ifndef HW_ACPI_CPU_HOTPLUG_H
#define HW_ACPI_CPU_HOTPLUG_H

#include "exec/memory.h"
#include "hw/acpi/pm-block.h"
#include "hw/boards.h"

#define ACPI_CPU_HOTPLUG_LEGACY_LEN 32
#define ACPI_CPU_HOTPLUG_MODERN_LEN 12
#define PIIX4_CPU_HOTPLUG_IO_BASE 0xaf00
#define ICH9_CPU_HOTPLUG_IO_BASE 0xcd8

typedef struct AcpiCpuStatus {
    X86CPU *cpu;                /* NULL: the slot is empty */
    uint64_t arch_id;           /* the APIC ID */
    bool is_inserting, is_removing, fw_remove;
    uint32_t ost_event, ost_status;
} AcpiCpuStatus;

typedef struct AcpiCpuHotplug {
    GMutex lock;
    Object *owner;
    AcpiPMBlock *block;         /* whose GPE0 the events go to */
    MemoryRegion *parent;
    hwaddr base;
    bool legacy;                /* the owner's cpu-hotplug-legacy */
    bool realized;
    /* both "acpi-cpu-hotplug"; the legacy one stays its owner's child */
    MemoryRegion legacy_io, modern_io;
    uint8_t sts[ACPI_CPU_HOTPLUG_LEGACY_LEN];  /* legacy: present APIC IDs */
    /* modern */
    uint32_t selector;
    uint8_t command;
    uint32_t dev_count;
    AcpiCpuStatus *devs;
} AcpiCpuHotplug;

/*
 * The owner's block at base in parent: legacy (with the present vCPUs'
 * bits) unless cpu-hotplug-legacy was cleared before; registers it as the
 * board's, which pc_cpu_plug tells (else "the board has one already")
 */
bool acpi_cpu_hotplug_realize(AcpiCpuHotplug *h, Object *owner,
                              AcpiPMBlock *block, MemoryRegion *parent,
                              hwaddr base, Error **errp);
void acpi_cpu_hotplug_unrealize(AcpiCpuHotplug *h);
/*
 * cpu-hotplug-legacy: false switches to the modern interface (once);
 * true is refused (7.2 aborts on it)
 */
bool acpi_cpu_hotplug_set_legacy(AcpiCpuHotplug *h, bool legacy,
                                 Error **errp);
/* The board's block, or NULL (no ACPI) */
AcpiCpuHotplug *acpi_cpu_hotplug_of_board(void);
/* A vCPU plugged (hotplugged: after the machine was built) */
void acpi_cpu_hotplug_plug(AcpiCpuHotplug *h, X86CPU *cpu, bool hotplugged);

/* The owner's cpu-hotplug-legacy property, for its class (offset of h) */
void acpi_cpu_hotplug_class_add_legacy_prop(ObjectClass *oc, size_t offset);
/* The same on an instance, as PIIX4_PM adds it at realize in 7.2 */
void acpi_cpu_hotplug_add_legacy_prop(Object *obj, AcpiCpuHotplug *h);

#endif
