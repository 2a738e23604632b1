/*
 * The CPU hotplug register block, legacy and modern (include/hw/acpi/
 * cpu-hotplug.h), as QEMU 7.2's PIIX4_PM and ICH9-LPC have it.
 *
 * query-acpi-ospm-status lists the CPU slots' _OST answers (the board's
 * PM device has them; no memory hotplug slots here).
 *
 * Not yet: ejecting a vCPU (this tree cannot take a vCPU away, so
 * device_del of one stays refused, and an eject the OSPM writes changes
 * nothing: the vCPU stays enabled).
 */
#include <string.h>

#include "hw/acpi/cpu-hotplug.h"
#include "monitor/qmp-commands.h"
#include "monitor/qmp.h"
#include "target/i386/cpu.h"

/* State ------------------------------------------------------------------ */

#define CPHP_FLAG_ENABLED 0x01
#define CPHP_FLAG_INSERT 0x02
#define CPHP_FLAG_REMOVE 0x04
#define CPHP_FLAG_EJECT 0x08
#define CPHP_FLAG_FW_REMOVE 0x10

enum {
    CPHP_CMD_NEXT_WITH_EVENT = 0,
    CPHP_CMD_OST_EVENT = 1,
    CPHP_CMD_OST_STATUS = 2,
    CPHP_CMD_GET_CPU_ID = 3,
    CPHP_CMD_MAX
};

#define CPHP_SELECTOR 0
#define CPHP_FLAGS 4
#define CPHP_COMMAND 5
#define CPHP_DATA 8
#define CPHP_DATA2 0

/* The board's block, for pc_cpu_plug */
static AcpiCpuHotplug *board_cpuhp;

/* Register read/write: legacy -------------------------------------------- */

static uint64_t cpuhp_legacy_read(void *opaque, hwaddr addr, unsigned size)
{
    AcpiCpuHotplug *h = opaque;
    uint8_t v;

    g_mutex_lock(&h->lock);
    v = h->sts[addr];
    g_mutex_unlock(&h->lock);
    return v;
}

static void cpuhp_switch_to_modern(AcpiCpuHotplug *h);

static void cpuhp_legacy_write(void *opaque, hwaddr addr, uint64_t data,
                               unsigned size)
{
    AcpiCpuHotplug *h = opaque;

    /* Firmware never wrote the bitmap: 0 at byte 0 is the OSPM's switch */
    if (addr == 0 && data == 0) {
        cpuhp_switch_to_modern(h);
    }
}

static const MemoryRegionOps cpuhp_legacy_ops = {
    .read = cpuhp_legacy_read,
    .write = cpuhp_legacy_write,
    .valid.min_access_size = 1,
    .valid.max_access_size = 1,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Register read/write: modern -------------------------------------------- */

static uint64_t cpuhp_modern_read_locked(AcpiCpuHotplug *h, hwaddr addr)
{
    AcpiCpuStatus *c;

    if (h->selector >= h->dev_count) {
        return 0;
    }
    c = &h->devs[h->selector];
    switch (addr) {
    case CPHP_FLAGS:
        return (c->cpu ? CPHP_FLAG_ENABLED : 0) |
               (c->is_inserting ? CPHP_FLAG_INSERT : 0) |
               (c->is_removing ? CPHP_FLAG_REMOVE : 0) |
               (c->fw_remove ? CPHP_FLAG_FW_REMOVE : 0);
    case CPHP_DATA:
        if (h->command == CPHP_CMD_NEXT_WITH_EVENT) {
            return h->selector;
        }
        return h->command == CPHP_CMD_GET_CPU_ID ? (uint32_t)c->arch_id : 0;
    case CPHP_DATA2:
        return h->command == CPHP_CMD_GET_CPU_ID ? c->arch_id >> 32 : 0;
    default:
        return 0;
    }
}

static uint64_t cpuhp_modern_read(void *opaque, hwaddr addr, unsigned size)
{
    AcpiCpuHotplug *h = opaque;
    uint64_t v;

    g_mutex_lock(&h->lock);
    v = cpuhp_modern_read_locked(h, addr);
    g_mutex_unlock(&h->lock);
    return v;
}

/* The first vCPU from the selector on (wrapping) with an event */
static void cpuhp_select_next_event_locked(AcpiCpuHotplug *h)
{
    uint32_t i = h->selector;

    do {
        AcpiCpuStatus *c = &h->devs[i];

        if (c->is_inserting || c->is_removing || c->fw_remove) {
            h->selector = i;
            return;
        }
        i = i + 1 < h->dev_count ? i + 1 : 0;
    } while (i != h->selector);
}

static void cpuhp_flags_write_locked(AcpiCpuHotplug *h, uint64_t data)
{
    AcpiCpuStatus *c = &h->devs[h->selector];
    bool boot_or_empty = !c->cpu || c->cpu->cpu_index == 0;

    if (data & CPHP_FLAG_INSERT) {
        c->is_inserting = false;
    } else if (data & CPHP_FLAG_REMOVE) {
        c->is_removing = false;
    } else if (data & CPHP_FLAG_EJECT) {
        /* Nothing to eject here (file comment); 7.2 drops fw_remove */
        if (!boot_or_empty) {
            c->fw_remove = false;
        }
    } else if (data & CPHP_FLAG_FW_REMOVE) {
        if (!boot_or_empty) {
            c->fw_remove = true;
        }
    }
}

/* A CPU slot's ACPIOSTInfo, members in 7.2's order */
static JsonObject *cpuhp_ost_info(uint32_t slot, const AcpiCpuStatus *c)
{
    JsonObject *info = json_object_new();
    char *name = g_strdup_printf("%u", slot);
    const char *id = c->cpu ? DEVICE(c->cpu)->id : NULL;

    if (id) {
        json_object_set_string_member(info, "device", id);
    }
    json_object_set_int_member(info, "source", c->ost_event);
    json_object_set_int_member(info, "status", c->ost_status);
    json_object_set_string_member(info, "slot", name);
    json_object_set_string_member(info, "slot-type", "CPU");
    g_free(name);
    return info;
}

/* ACPI_DEVICE_OST, as 7.2 sends it for a CPU slot */
static void cpuhp_send_ost(uint32_t slot, const AcpiCpuStatus *c)
{
    JsonObject *o = json_object_new();
    JsonNode *n = json_node_alloc();

    json_object_set_object_member(o, "info", cpuhp_ost_info(slot, c));
    json_node_init_object(n, o);
    json_object_unref(o);
    qmp_event_send("ACPI_DEVICE_OST", n);
}

static void cpuhp_modern_write(void *opaque, hwaddr addr, uint64_t data,
                               unsigned size)
{
    AcpiCpuHotplug *h = opaque;
    AcpiCpuStatus ost;
    uint32_t ost_slot = 0;
    bool send_ost = false;

    g_mutex_lock(&h->lock);
    if (addr != CPHP_SELECTOR && h->selector >= h->dev_count) {
        g_mutex_unlock(&h->lock);
        return;
    }
    switch (addr) {
    case CPHP_SELECTOR:
        h->selector = data;
        break;
    case CPHP_FLAGS:
        cpuhp_flags_write_locked(h, data);
        break;
    case CPHP_COMMAND:
        if (data < CPHP_CMD_MAX) {
            h->command = data;
            if (h->command == CPHP_CMD_NEXT_WITH_EVENT) {
                cpuhp_select_next_event_locked(h);
            }
        }
        break;
    case CPHP_DATA:
        if (h->command == CPHP_CMD_OST_EVENT) {
            h->devs[h->selector].ost_event = data;
        } else if (h->command == CPHP_CMD_OST_STATUS) {
            h->devs[h->selector].ost_status = data;
            ost = h->devs[h->selector];
            ost_slot = h->selector;
            send_ost = true;
        }
        break;
    default:
        break;
    }
    g_mutex_unlock(&h->lock);
    if (send_ost) {
        cpuhp_send_ost(ost_slot, &ost);
    }
}

static const MemoryRegionOps cpuhp_modern_ops = {
    .read = cpuhp_modern_read,
    .write = cpuhp_modern_write,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

/* Plug and the switch ---------------------------------------------------- */

/* The modern state over the possible vCPUs, those present enabled */
static void cpuhp_modern_state_init_locked(AcpiCpuHotplug *h)
{
    MachineState *ms = current_machine;
    uint32_t i;

    h->dev_count = ms ? MAX(ms->smp.max_cpus, 1) : 0;
    h->devs = g_new0(AcpiCpuStatus, h->dev_count);
    for (i = 0; ms && i < h->dev_count; i++) {
        h->devs[i].cpu = ms->possible_cpus[i].cpu;
        h->devs[i].arch_id = ms->possible_cpus[i].apic_id;
    }
}

static void cpuhp_modern_region_add(AcpiCpuHotplug *h)
{
    memory_region_init_io(&h->modern_io, h->owner, &cpuhp_modern_ops, h,
                          "acpi-cpu-hotplug", ACPI_CPU_HOTPLUG_MODERN_LEN);
    memory_region_add_subregion(h->parent, h->base, &h->modern_io);
}

static void cpuhp_switch_to_modern(AcpiCpuHotplug *h)
{
    g_mutex_lock(&h->lock);
    if (!h->legacy) {
        g_mutex_unlock(&h->lock);
        return;
    }
    if (h->realized) {
        cpuhp_modern_state_init_locked(h);
    }
    h->legacy = false;
    g_mutex_unlock(&h->lock);
    if (!h->realized) {
        return;                 /* realize makes the modern block */
    }
    memory_region_transaction_begin();
    memory_region_del_subregion(h->parent, &h->legacy_io);
    cpuhp_modern_region_add(h);
    memory_region_transaction_commit();
}

/* Sets the legacy bit of an APIC ID; false if the bitmap cannot hold it */
static bool cpuhp_legacy_set_present_locked(AcpiCpuHotplug *h,
                                            uint32_t apic_id)
{
    if (apic_id / 8 >= ACPI_CPU_HOTPLUG_LEGACY_LEN) {
        return false;
    }
    h->sts[apic_id / 8] |= 1u << (apic_id % 8);
    return true;
}

void acpi_cpu_hotplug_plug(AcpiCpuHotplug *h, X86CPU *cpu, bool hotplugged)
{
    uint32_t i;
    bool event = false;

    g_mutex_lock(&h->lock);
    if (h->legacy) {
        if (cpuhp_legacy_set_present_locked(h, cpu->apic_id)) {
            g_mutex_unlock(&h->lock);
            /* 7.2's legacy plug raises the event for -device vCPUs too */
            acpi_pm_block_gpe_event(h->block, ACPI_GPE_CPU_HOTPLUG);
            return;
        }
        /* An APIC ID past the bitmap: modern from now on, this one too */
        g_mutex_unlock(&h->lock);
        cpuhp_switch_to_modern(h);
        g_mutex_lock(&h->lock);
    }
    for (i = 0; i < h->dev_count; i++) {
        if (h->devs[i].arch_id == cpu->apic_id) {
            h->devs[i].cpu = cpu;
            h->devs[i].is_inserting |= hotplugged;
            event = hotplugged;
            break;
        }
    }
    g_mutex_unlock(&h->lock);
    if (event) {
        acpi_pm_block_gpe_event(h->block, ACPI_GPE_CPU_HOTPLUG);
    }
}

bool acpi_cpu_hotplug_set_legacy(AcpiCpuHotplug *h, bool legacy,
                                 Error **errp)
{
    if (legacy) {
        error_setg(errp, "cpu-hotplug-legacy: the switch to the modern CPU "
                   "hotplug interface cannot be undone");
        return false;
    }
    cpuhp_switch_to_modern(h);
    return true;
}

AcpiCpuHotplug *acpi_cpu_hotplug_of_board(void)
{
    return board_cpuhp;
}

/* Realize ---------------------------------------------------------------- */

bool acpi_cpu_hotplug_realize(AcpiCpuHotplug *h, Object *owner,
                              AcpiPMBlock *block, MemoryRegion *parent,
                              hwaddr base, Error **errp)
{
    MachineState *ms = current_machine;
    bool fits = true;
    unsigned i;

    if (board_cpuhp) {
        error_setg(errp, "ACPI CPU hotplug: the board has one already");
        return false;
    }
    g_mutex_init(&h->lock);
    h->owner = owner;
    h->block = block;
    h->parent = parent;
    h->base = base;
    memset(h->sts, 0, sizeof(h->sts));
    /* The vCPUs the board made before the chipset */
    for (i = 0; h->legacy && ms && i < MAX(ms->smp.max_cpus, 1); i++) {
        X86CPU *cpu = ms->possible_cpus[i].cpu;

        fits &= !cpu || cpuhp_legacy_set_present_locked(h, cpu->apic_id);
    }
    h->legacy &= fits;
    if (h->legacy) {
        memory_region_init_io(&h->legacy_io, owner, &cpuhp_legacy_ops, h,
                              "acpi-cpu-hotplug",
                              ACPI_CPU_HOTPLUG_LEGACY_LEN);
        memory_region_add_subregion(parent, base, &h->legacy_io);
    } else {
        cpuhp_modern_state_init_locked(h);
        cpuhp_modern_region_add(h);
    }
    h->realized = true;
    board_cpuhp = h;
    return true;
}

void acpi_cpu_hotplug_unrealize(AcpiCpuHotplug *h)
{
    if (!h->realized) {
        return;
    }
    memory_region_del_subregion(h->parent,
                                h->legacy ? &h->legacy_io : &h->modern_io);
    g_clear_pointer(&h->devs, g_free);
    h->dev_count = 0;
    h->realized = false;
    if (board_cpuhp == h) {
        board_cpuhp = NULL;
    }
    g_mutex_clear(&h->lock);
}

/* QMP -------------------------------------------------------------------- */

/* The CPU slots' _OST answers once the interface is the modern one */
JsonNode *qmp_query_acpi_ospm_status(Error **errp)
{
    AcpiCpuHotplug *h = board_cpuhp;
    JsonArray *arr;
    JsonNode *n;
    uint32_t i;

    if (!h) {
        error_setg(errp, "command is not supported, missing ACPI device");
        return NULL;
    }
    arr = json_array_new();
    g_mutex_lock(&h->lock);
    for (i = 0; !h->legacy && i < h->dev_count; i++) {
        json_array_add_object_element(arr, cpuhp_ost_info(i, &h->devs[i]));
    }
    g_mutex_unlock(&h->lock);
    n = json_node_init_array(json_node_alloc(), arr);
    json_array_unref(arr);
    return n;
}

/* Property --------------------------------------------------------------- */

static JsonNode *cpuhp_legacy_get(Object *obj, ObjectProperty *prop,
                                  Error **errp)
{
    AcpiCpuHotplug *h = (AcpiCpuHotplug *)((char *)obj + prop->offset);

    return json_node_init_boolean(json_node_alloc(), h->legacy);
}

static bool cpuhp_legacy_set(Object *obj, ObjectProperty *prop,
                             JsonNode *value, Error **errp)
{
    AcpiCpuHotplug *h = (AcpiCpuHotplug *)((char *)obj + prop->offset);

    if (!JSON_NODE_HOLDS_VALUE(value) ||
        json_node_get_value_type(value) != G_TYPE_BOOLEAN) {
        error_setg(errp, "Invalid parameter type for 'cpu-hotplug-legacy', "
                   "expected: boolean");
        return false;
    }
    return acpi_cpu_hotplug_set_legacy(h, json_node_get_boolean(value), errp);
}

void acpi_cpu_hotplug_class_add_legacy_prop(ObjectClass *oc, size_t offset)
{
    ObjectProperty *p = object_class_property_add(
        oc, "cpu-hotplug-legacy", "bool", cpuhp_legacy_get, cpuhp_legacy_set,
        NULL);

    p->offset = offset;
}

void acpi_cpu_hotplug_add_legacy_prop(Object *obj, AcpiCpuHotplug *h)
{
    ObjectProperty *p = object_property_add(obj, "cpu-hotplug-legacy", "bool",
                                            cpuhp_legacy_get,
                                            cpuhp_legacy_set);

    p->offset = (char *)h - (char *)obj;
}
