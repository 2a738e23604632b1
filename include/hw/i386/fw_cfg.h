/*
 * The PC's fw_cfg contents (hw/i386/fw_cfg.c): the device at 0x510/0x514
 * with the items and files QEMU 7.2 gives a PC guest.
 */
#ifndef HW_I386_FW_CFG_H
#define HW_I386_FW_CFG_H

#include "hw/boards.h"
#include "hw/nvram/fw_cfg.h"

/* At board creation, after the vCPUs (their CPUID decides some files) */
FWCfgState *pc_fw_cfg_create(MachineState *ms, Error **errp);
/* After -device: etc/system-states, bootorder, bios-geometry */
bool pc_fw_cfg_machine_done(MachineState *ms, Error **errp);

#endif
