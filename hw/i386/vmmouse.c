/*
 * vmmouse: the VMware absolute mouse, three vmport commands (QEMU 7.2's
 * hw/i386/vmmouse.c behaviour), made by the PC board with the vmport when
 * it has an i8042.  The driver's protocol: COMMAND with EBX = READ_ID
 * queues the version word and enables the device; STATUS answers
 * (status << 16) | queued words; DATA with EBX = n (1..6) moves n queued
 * words into EAX, EBX, ECX, EDX, ESI, EDI; DISABLE, or asking for more
 * than is queued, sets status 0xffff.  REQUEST_ABSOLUTE/RELATIVE choose
 * how pointer motion would be reported.  This tree has no pointer input,
 * so the queue holds nothing but version words; every command still
 * behaves as 7.2's does, down to the complaints 7.2 prints on its stdout
 * (too much data asked for, an unknown command).  A command reads and writes back the six
 * registers as 32-bit values (their upper halves become zero).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "hw/i386/vmport.h"
#include "hw/input/i8042.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"

#define VMMOUSE_READ_ID 0x45414552u
#define VMMOUSE_DISABLE 0x000000f5u
#define VMMOUSE_REQUEST_RELATIVE 0x4c455252u
#define VMMOUSE_REQUEST_ABSOLUTE 0x53424152u
#define VMMOUSE_VERSION 0x3442554au
#define VMMOUSE_QUEUE_SIZE 1024

/* State ------------------------------------------------------------------ */

typedef struct VMMouseState {
    ISADevice parent_obj;
    uint32_t queue[VMMOUSE_QUEUE_SIZE];
    uint16_t nb_queue;
    uint16_t status;
    bool absolute;
    Object *i8042;
} VMMouseState;

/* Commands ---------------------------------------------------------------- */

static void vmmouse_read_id(VMMouseState *s)
{
    if (s->nb_queue == VMMOUSE_QUEUE_SIZE) {
        return;
    }
    s->queue[s->nb_queue++] = VMMOUSE_VERSION;
    s->status = 0;
}

/* Motion mode: only while enabled (7.2 ignores it when disabled) */
static void vmmouse_request_mode(VMMouseState *s, bool absolute)
{
    if (s->status == 0) {
        s->absolute = absolute;
    }
}

/* QEMU 7.2 tells its stdout what the driver got wrong, in these words */
static void G_GNUC_PRINTF(1, 2) vmmouse_complain(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("vmmouse: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    va_end(ap);
}

static void vmmouse_data(VMMouseState *s, uint32_t *data, uint32_t n)
{
    uint32_t i;

    if (n == 0 || n > 6 || n > s->nb_queue) {
        vmmouse_complain("driver requested too much data %d", (int)n);
        s->status = 0xffff;
        return;
    }
    for (i = 0; i < n; i++) {
        data[i] = s->queue[i];
    }
    s->nb_queue -= n;
    memmove(s->queue, &s->queue[n], sizeof(s->queue[0]) * s->nb_queue);
}

static uint32_t vmmouse_command(void *opaque, VMPortRegs *r)
{
    VMMouseState *s = opaque;
    uint64_t *regs[6] = { &r->rax, &r->rbx, &r->rcx,
                          &r->rdx, &r->rsi, &r->rdi };
    uint32_t data[6];
    int i;

    for (i = 0; i < 6; i++) {
        data[i] = (uint32_t)*regs[i];
    }
    /* vmport dispatched on CL; the mouse looks at CX */
    switch (data[2] & 0xffff) {
    case VMPORT_CMD_VMMOUSE_STATUS:
        data[0] = (uint32_t)s->status << 16 | s->nb_queue;
        break;
    case VMPORT_CMD_VMMOUSE_COMMAND:
        switch (data[1]) {
        case VMMOUSE_DISABLE:
            s->status = 0xffff;
            break;
        case VMMOUSE_READ_ID:
            vmmouse_read_id(s);
            break;
        case VMMOUSE_REQUEST_RELATIVE:
            vmmouse_request_mode(s, false);
            break;
        case VMMOUSE_REQUEST_ABSOLUTE:
            vmmouse_request_mode(s, true);
            break;
        default:
            vmmouse_complain("unknown command %x", data[1]);
            break;
        }
        break;
    case VMPORT_CMD_VMMOUSE_DATA:
        vmmouse_data(s, data, data[1]);
        break;
    default:
        vmmouse_complain("unknown command %x", data[2] & 0xffff);
        break;
    }
    for (i = 0; i < 6; i++) {
        *regs[i] = data[i];
    }
    return data[0];
}

/* Reset ------------------------------------------------------------------- */

static void vmmouse_reset(DeviceState *dev)
{
    VMMouseState *s = (VMMouseState *)dev;

    s->nb_queue = 0;
    s->status = 0xffff;
}

/* Realize ---------------------------------------------------------------- */

static bool vmmouse_realize(DeviceState *dev, Error **errp)
{
    VMMouseState *s = (VMMouseState *)dev;

    if (!s->i8042) {
        error_setg(errp, "'i8042' link is not set");
        return false;
    }
    if (!vmport_register(VMPORT_CMD_VMMOUSE_STATUS, vmmouse_command, s) ||
        !vmport_register(VMPORT_CMD_VMMOUSE_COMMAND, vmmouse_command, s) ||
        !vmport_register(VMPORT_CMD_VMMOUSE_DATA, vmmouse_command, s)) {
        error_setg(errp, "vmmouse needs a machine with vmport");
        return false;
    }
    vmmouse_reset(dev);
    return true;
}

/* Property table --------------------------------------------------------- */

static JsonNode *vmmouse_get_i8042(Object *obj, ObjectProperty *prop,
                                   Error **errp)
{
    Object *t = ((VMMouseState *)obj)->i8042;
    char *path = t ? object_get_canonical_path(t) : g_strdup("");
    JsonNode *n = json_node_init_string(json_node_alloc(), path);

    g_free(path);
    return n;
}

/* The link to the board's i8042 (QEMU's link<i8042>, set by path) */
static bool vmmouse_set_i8042(Object *obj, ObjectProperty *prop,
                              JsonNode *value, Error **errp)
{
    const char *path = JSON_NODE_HOLDS_VALUE(value) &&
                               json_node_get_value_type(value) == G_TYPE_STRING
                           ? json_node_get_string(value)
                           : NULL;
    Object *t = path && *path ? object_resolve_path(path) : NULL;

    if (path && !*path) {
        ((VMMouseState *)obj)->i8042 = NULL;
        return true;
    }
    if (!t) {
        error_setg(errp, "Device '%s' not found", path ? path : "");
        return false;
    }
    if (!object_dynamic_cast(t, TYPE_I8042)) {
        error_setg(errp, "Invalid parameter type for 'i8042', expected: "
                         "i8042");
        return false;
    }
    ((VMMouseState *)obj)->i8042 = t;
    return true;
}

/* Registration ------------------------------------------------------------ */

static void vmmouse_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = vmmouse_realize;
    dc->reset = vmmouse_reset;
    dc->categories = 1u << DEVICE_CATEGORY_INPUT;
    object_class_property_add(oc, "i8042", "link<" TYPE_I8042 ">",
                              vmmouse_get_i8042, vmmouse_set_i8042, NULL);
    /* qdev's unreadable companion of a link property, as in 7.2 */
    object_class_property_add(oc, "legacy-i8042", "str", NULL, NULL, NULL);
}

static const TypeInfo vmmouse_info = {
    .name = TYPE_VMMOUSE,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(VMMouseState),
    .class_init = vmmouse_class_init,
};

static void vmmouse_register_types(void)
{
    type_register_static(&vmmouse_info);
}
type_init(vmmouse_register_types)
