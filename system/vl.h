/*
 * The command line as system/vl-options.c collects it for the start-up
 * phases of system/vl.c.
 *
 * Options that QEMU 7.2 merges (-machine, -smp, -m, -boot, -rtc) are kept
 * merged: a later key replaces an earlier one, other keys stay.  Options
 * whose last occurrence wins keep only that one.  Backends and devices are
 * created after the help options are answered, in command-line order, at
 * the phase where QEMU creates them.
 */
#ifndef SYSTEM_VL_H
#define SYSTEM_VL_H

#include <glib.h>

#include "qemu/option.h"

/* An -accel option and the location its errors name */
typedef struct AccelOption {
    QemuOpts *opts;
    char *loc;
} AccelOption;

/* When a deferred option is acted on */
typedef enum DeferredPhase {
    DEFER_FDSET,        /* -add-fd: before anything opens a file */
    DEFER_BACKEND,      /* -chardev: after the machine type is known */
    DEFER_FRONTEND,     /* monitors, -serial: after the accelerator */
    DEFER_DEVICE,       /* -device: after the -cpu model is known */
} DeferredPhase;

typedef struct StartupConfig {
    QemuOpts *machine;          /* -machine, -kernel, -no-hpet, ... merged */
    GPtrArray *accels;          /* AccelOption*, in command-line order */
    const char *cpu_option;     /* the last -cpu */
    QemuOpts *smp;              /* -smp, merged (keyval) */
    QemuOpts *mem;              /* -m, merged */
    QemuOpts *boot;             /* -boot, merged (keyval) */
    QemuOpts *rtc;              /* -rtc, merged */
    QemuOpts *display;          /* the last -display */
    GPtrArray *globals;         /* GlobalProperty* */
    const char *log_items;      /* the last -d */
    const char *log_file;       /* the last -D */
    const char *device_help;    /* the first -device asking for help */
    GPtrArray *deferred;        /* DeferredOption*, in command-line order */
    bool start_paused;
    bool preconfig;             /* --preconfig: QMP before the board */
    GPtrArray *numa;            /* each -numa's argument, in order */
    const char *pidfile;
    GPtrArray *sandboxes;       /* every -sandbox: each adds its filter */
    bool nographic, nodefaults;
    const char *qtest_chrdev, *qtest_log;
} StartupConfig;

extern StartupConfig config;

/*
 * Checks the whole command line for unknown options and missing
 * arguments first, as QEMU does, then handles each option in order.
 * Exits on an error and after a help or version answer.
 */
void vl_parse_command_line(int argc, char **argv);
/* Acts on the options deferred to phase, in order; exits on an error */
void vl_run_deferred(DeferredPhase phase);
/* -readconfig FILE: its groups as options, in file order; exits on errors */
void vl_readconfig(const char *path);
/* Runs option opt with arg, errors located at file_loc ("FILE:LINE") */
void vl_run_option_at(const char *opt, const char *arg, const char *file_loc);
/* Frees what parsing kept (for a clean exit) */
void vl_config_free(void);

#endif
