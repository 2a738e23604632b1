/*
 * -rtc, -boot and -audiodev: parsed and checked so that command lines
 * written for QEMU (libvirt's among them) start, but nothing here changes
 * the machine: the RTC follows the host's UTC clock, there is no firmware
 * to take a boot order, and there is no sound device.  Options for other
 * devices this build lacks take "none" only.
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "qemu/option.h"
#include "sysemu/cli-compat.h"

/*
 * The merged -rtc keys, checked as QEMU 7.2 checks them once the command
 * line is read: the base, then clock and driftfix.
 */
bool cli_rtc_check(QemuOpts *opts, Error **errp)
{
    static const char *const clocks[] = { "host", "rt", "vm", NULL };
    static const char *const drift[] = { "none", "slew", NULL };
    const char *base = qemu_opt_get(opts, "base");
    const char *clock = qemu_opt_get(opts, "clock");
    const char *driftfix = qemu_opt_get(opts, "driftfix");

    if (base && strcmp(base, "utc") && strcmp(base, "localtime")) {
        /* a start date: YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD */
        int y, mo, d, h, mi, sec;

        if (sscanf(base, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &sec) !=
                6 &&
            sscanf(base, "%d-%d-%d", &y, &mo, &d) != 3) {
            error_setg(errp, "invalid datetime format");
            error_append_hint(errp, "valid formats: '2006-06-17T16:01:21' or "
                              "'2006-06-17'\n");
            return false;
        }
    }
    if (clock && !g_strv_contains(clocks, clock)) {
        error_setg(errp, "invalid option value '%s'", clock);
        return false;
    }
    if (driftfix && !g_strv_contains(drift, driftfix)) {
        error_setg(errp, "invalid option value '%s'", driftfix);
        return false;
    }
    return true;
}

/*
 * Boot devices are letters 'a' to 'p', each at most once; which of them a
 * board takes is the board's business (pc_boot_check()).
 */
static bool boot_devices_check(const char *devices, Error **errp)
{
    const char *p;

    for (p = devices; *p; p++) {
        if (*p < 'a' || *p > 'p') {
            error_setg(errp, "Invalid boot device '%c'", *p);
            return false;
        }
        if (strchr(p + 1, *p)) {
            error_setg(errp, "Boot device '%c' was given twice", *p);
            return false;
        }
    }
    return true;
}

/*
 * The merged -boot keys, checked as QEMU 7.2 does after picking the
 * machine: member types in the order of its BootConfiguration, unknown
 * keys, the device letters, then the ranges
 */
bool cli_boot_check(QemuOpts *opts, Error **errp)
{
    static const char *const keys[] = {
        "order", "once", "menu", "splash", "splash-time", "reboot-timeout",
        "strict", NULL,
    };
    const char *order = qemu_opt_get(opts, "order");
    const char *once = qemu_opt_get(opts, "once");
    int64_t splash_time = 0, reboot_timeout = -1;
    bool b, present;

    qemu_opt_get(opts, "splash");
    if (!keyval_get_bool(opts, "boot.", "menu", &b, &present, errp) ||
        !keyval_get_int(opts, "boot.", "splash-time", &splash_time, &present,
                        errp) ||
        !keyval_get_int(opts, "boot.", "reboot-timeout", &reboot_timeout,
                        &present, errp) ||
        !keyval_get_bool(opts, "boot.", "strict", &b, &present, errp) ||
        !keyval_check_unexpected(opts, "boot.", keys, errp)) {
        return false;
    }
    if ((order && !boot_devices_check(order, errp)) ||
        (once && !boot_devices_check(once, errp))) {
        return false;
    }
    if (splash_time < 0 || splash_time > 0xffff) {
        error_setg(errp, "splash-time is invalid,it should be a value between "
                   "0 and 65535");
        return false;
    }
    if (reboot_timeout < -1 || reboot_timeout > 0xffff) {
        error_setg(errp, "reboot timeout is invalid,it should be a value "
                   "between -1 and 65535");
        return false;
    }
    return true;
}

bool cli_audiodev_parse(const char *optarg, Error **errp)
{
    static const char *const drivers[] = {
        "none", "alsa", "coreaudio", "dbus", "dsound", "jack", "oss", "pa",
        "pipewire", "sdl", "sndio", "spice", "wav", NULL,
    };
    const char *driver = NULL, *id = NULL;
    JsonObject *json = NULL;
    QemuOpts *opts = NULL;
    bool ok = false;
    int i;

    if (optarg[0] == '{') {
        json = qemu_opts_parse_json(optarg, errp);
        if (!json) {
            goto out;
        }
        driver = qemu_json_opt_get(json, "driver");
        id = qemu_json_opt_get(json, "id");
    } else {
        opts = keyval_parse(optarg, "driver", NULL, errp);
        if (!opts) {
            goto out;
        }
        driver = qemu_opt_get(opts, "driver");
        id = qemu_opt_get(opts, "id");
    }
    if (!driver) {
        error_setg(errp, "Parameter 'driver' is missing");
        goto out;
    }
    if (!id) {
        error_setg(errp, "Parameter 'id' is missing");
        goto out;
    }
    for (i = 0; drivers[i] && strcmp(drivers[i], driver); i++) {
    }
    if (!drivers[i]) {
        error_setg(errp, "Parameter 'driver' does not accept value '%s'",
                   driver);
        goto out;
    }
    if (strcmp(driver, "none")) {
        error_setg(errp, "audio driver '%s' is not supported by this build "
                   "(only 'none')", driver);
        goto out;
    }
    ok = true;
out:
    if (opts) {
        qemu_opts_free(opts);
    }
    if (json) {
        json_object_unref(json);
    }
    return ok;
}

bool cli_none_only(const char *opt, const char *arg, Error **errp)
{
    static const struct {
        const char *opt, *what;
    } missing[] = {
        { "-vga", "display devices are" },
        { "-parallel", "parallel ports are" },
        { "-net", "network devices are" },
        { "-nic", "network devices are" },
        { "-gdb", "the gdbstub is" },
    };
    const char *name = opt + (opt[1] == '-');   /* --vga as -vga */
    size_t i;

    if (!strcmp(arg, "none")) {
        return true;
    }
    for (i = 0; i < G_N_ELEMENTS(missing); i++) {
        if (!strcmp(name, missing[i].opt)) {
            error_setg(errp, "%s not supported by this build (only '%s none' "
                       "is accepted)", missing[i].what, missing[i].opt);
            return false;
        }
    }
    error_setg(errp, "'%s' is not supported by this build", arg);
    return false;
}
