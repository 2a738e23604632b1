/*
 * The PC speaker port 0x61 (hw/audio/pcspk.c).
 */
#ifndef HW_AUDIO_PCSPK_H
#define HW_AUDIO_PCSPK_H

#include <stdbool.h>

#include "qapi/error.h"

/* Claims port 0x61 (every PC board has it) */
bool pcspk_create(Error **errp);

#endif
