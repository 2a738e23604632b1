/*
 * The PC speaker port 0x61 (hw/audio/pcspk.c), QEMU's "isa-pcspk".
 */
#ifndef HW_AUDIO_PCSPK_H
#define HW_AUDIO_PCSPK_H

#include "hw/qdev-core.h"

#define TYPE_PC_SPEAKER "isa-pcspk"

/* The board's PIT (isa-pit or kvm-pit), whose channel 2 it drives */
void pcspk_set_pit(DeviceState *dev, DeviceState *pit);

#endif
