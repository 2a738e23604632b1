/*
 * vmport: the VMware I/O backdoor at port 0x5658 (hw/i386/vmport.c).
 * A guest loads EAX with the magic 0x564D5868 and ECX with a command
 * number, then reads (or writes) the port; the command answers in the
 * guest's registers.  Other devices (vmmouse) add commands of their own.
 */
#ifndef HW_I386_VMPORT_H
#define HW_I386_VMPORT_H

#include <stdbool.h>
#include <stdint.h>

#define TYPE_VMPORT "vmport"
#define TYPE_VMMOUSE "vmmouse"

#define VMPORT_MAGIC 0x564D5868u

/* The command numbers QEMU 7.2 knows (ECX bits 0-7) */
typedef enum VMPortCommand {
    VMPORT_CMD_GETVERSION = 10,
    VMPORT_CMD_GETBIOSUUID = 19,
    VMPORT_CMD_GETRAMSIZE = 20,
    VMPORT_CMD_VMMOUSE_DATA = 39,
    VMPORT_CMD_VMMOUSE_STATUS = 40,
    VMPORT_CMD_VMMOUSE_COMMAND = 41,
    VMPORT_CMD_GETHZ = 45,
    VMPORT_CMD_GET_VCPU_INFO = 68,
    VMPORT_ENTRIES
} VMPortCommand;

/* The guest's general registers while a command runs (64-bit values) */
typedef struct VMPortRegs {
    uint64_t rax, rbx, rcx, rdx, rsi, rdi;
} VMPortRegs;

/* A command: changes regs as it answers, returns the port's value */
typedef uint32_t VMPortCommandFunc(void *opaque, VMPortRegs *regs);

/*
 * Adds command to the machine's vmport; false if there is none (a device
 * needing one refuses to realize, as QEMU 7.2's vmmouse does)
 */
bool vmport_register(VMPortCommand command, VMPortCommandFunc *func,
                     void *opaque);

#endif
