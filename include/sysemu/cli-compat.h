/*
 * Options of QEMU's that this build checks as QEMU does and hands to the
 * parts they configure (system/cli-compat.c).  Each returns false with
 * *errp set on a bad value.
 */
#ifndef SYSEMU_CLI_COMPAT_H
#define SYSEMU_CLI_COMPAT_H

#include <stdbool.h>

#include "qapi/error.h"
#include "qemu/option.h"

/*
 * -rtc [base=utc|localtime|DATE][,clock=host|rt|vm][,driftfix=none],
 * every -rtc merged; configures the board's RTC (rtc_set_config)
 */
bool cli_rtc_check(QemuOpts *opts, Error **errp);
/*
 * -boot [order=drives][,once=drives][,menu=on|off][,strict=on|off]...,
 * every -boot merged (keyval)
 */
bool cli_boot_check(QemuOpts *opts, Error **errp);
/* The checked -boot keys fw_cfg gives the firmware: menu, splash-time,
 * reboot-timeout (defaults off, -1, -1) */
struct MachineState;
void cli_boot_apply(struct MachineState *ms, QemuOpts *opts);
/* -audiodev driver,id=ID,... or its JSON form; no audio device exists */
bool cli_audiodev_parse(const char *optarg, Error **errp);
/* -audio [driver=]DRIVER,model=CARD: refused, no sound card exists */
bool cli_audio_parse(const char *optarg, Error **errp);
/*
 * -vga, -parallel, -net, -nic, -gdb for devices this build does
 * not have: "none" (what management tools pass) is accepted, anything
 * else is refused saying so.  opt is the option as written ("-vga").
 */
bool cli_none_only(const char *opt, const char *arg, Error **errp);

#endif
