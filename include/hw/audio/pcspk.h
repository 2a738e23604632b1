/*
 * The PC speaker port 0x61 (hw/audio/pcspk.c), QEMU's "isa-pcspk".
 */
#ifndef HW_AUDIO_PCSPK_H
#define HW_AUDIO_PCSPK_H

#define TYPE_PC_SPEAKER "isa-pcspk"

#endif
