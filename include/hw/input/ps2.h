/*
 * The PS/2 keyboard ("ps2-kbd") and mouse ("ps2-mouse") behind the
 * i8042, as QEMU 7.2 has them: system-bus devices (children "ps2kbd"
 * and "ps2mouse" of the i8042) with one output line each, "data waiting",
 * which the i8042 takes on its inputs "ps2-kbd-input-irq" and
 * "ps2-mouse-input-irq".  hw/input/ps2.c holds their state and command
 * protocols; the i8042 writes the bytes the guest sends them and reads
 * their replies.
 *
 * Neither has a lock: only their i8042 calls them, under its lock (and
 * the machine's reset, with the vCPUs stopped).
 */
#ifndef HW_INPUT_PS2_H
#define HW_INPUT_PS2_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/irq.h"
#include "hw/sysbus.h"

#define TYPE_PS2_DEVICE "ps2-device"
#define TYPE_PS2_KBD_DEVICE "ps2-kbd"
#define TYPE_PS2_MOUSE_DEVICE "ps2-mouse"

/* A ring of 256 bytes of which at most 16 wait, as QEMU's */
#define PS2_BUFFER_SIZE 256
#define PS2_QUEUE_SIZE 16

typedef struct PS2Queue {
    uint8_t data[PS2_BUFFER_SIZE];
    /* cwptr: the end of the command replies put before the data (-1) */
    int rptr, wptr, cwptr, count;
} PS2Queue;

typedef struct PS2State {
    SysBusDevice parent_obj;
    PS2Queue queue;
    int32_t write_cmd;          /* a command waiting for its parameter */
    qemu_irq irq;
} PS2State;

typedef struct PS2KbdState {
    PS2State parent_obj;
    int scan_enabled;
    int translate;              /* the i8042's mode bit 6 */
    int scancode_set;           /* 1, 2 or 3 */
    int ledstate;
} PS2KbdState;

typedef struct PS2MouseState {
    PS2State parent_obj;
    uint8_t mouse_status;       /* remote, enabled, 2:1 scaling bits */
    uint8_t mouse_resolution;
    uint8_t mouse_sample_rate;
    uint8_t mouse_wrap;
    uint8_t mouse_type;         /* 0 PS/2, 3 IntelliMouse, 4 Explorer */
    uint8_t mouse_detect_state; /* the sample-rate knock that selects it */
    int mouse_dx, mouse_dy, mouse_dz, mouse_dw;
    uint8_t mouse_buttons;
} PS2MouseState;

#define PS2_DEVICE(obj) ((PS2State *)(obj))
#define PS2_KBD_DEVICE(obj) ((PS2KbdState *)(obj))
#define PS2_MOUSE_DEVICE(obj) ((PS2MouseState *)(obj))

/* The next byte for the controller (the last one again when empty) */
uint8_t ps2_read_data(PS2State *s);
bool ps2_queue_empty(PS2State *s);
/* A byte from the controller itself (0xd2/0xd3 without extended-state) */
void ps2_queue(PS2State *s, int b);
void ps2_write_keyboard(PS2KbdState *s, int val);
void ps2_keyboard_set_translation(PS2KbdState *s, int mode);
void ps2_write_mouse(PS2MouseState *s, int val);

#endif
