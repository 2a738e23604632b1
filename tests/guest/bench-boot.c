/*
 * bench-boot guest (bench/: start-up and footprint benchmarks): prints
 * BOOT-OK as soon as guest_main runs, then leaves through the exit method
 * of the command line (exit=acpi | exit=debug).  With `idle` it prints
 * BOOT-IDLE instead and halts with interrupts off, so the emulator stays up
 * for a footprint reading.
 */
#include "lib.h"

const char guest_name[] = "bench-boot";

int guest_main(void)
{
    if (cmdline_has("idle")) {
        puts("BOOT-IDLE\n");
        halt_forever();
    }
    puts("BOOT-OK\n");
    return 0;
}
