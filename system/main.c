/*
 * qemu-system-x86_64: start-up (system/vl.c), then the main loop until a
 * shutdown (system/runstate.c).
 */
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"

int main(int argc, char **argv)
{
    qemu_init(argc, argv);
    main_loop_run();
    return qemu_exit_status();
}
