/*
 * The PC's two Intel 8237/8257 ISA DMA controllers (hw/dma/i8257.c).
 */
#ifndef HW_DMA_I8257_H
#define HW_DMA_I8257_H

#include "hw/isa/isa.h"

#define TYPE_I8257 "i8257"

/*
 * Both controllers as QEMU 7.2's PIIX3 and ICH9-LPC make them when they
 * realize their ISA bus: the 8-bit one at 0x00 (pages 0x80), the 16-bit
 * one at 0xc0 (pages 0x88), without high page registers.
 */
bool i8257_dma_init(ISABus *bus, Error **errp);
/* Whether a controller serves ISA DMA channel nchan (0-7) */
bool i8257_dma_channel_present(unsigned nchan);
/* A device drops its DREQ: the channel's request bit in the status clears */
void i8257_dma_release_dreq(unsigned nchan);

#endif
