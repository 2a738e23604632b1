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

static bool check_choice(QemuOpts *opts, const char *name,
                         const char *const *choices, Error **errp)
{
    const char *v = qemu_opt_get(opts, name);
    int i;

    if (!v) {
        return true;
    }
    for (i = 0; choices[i]; i++) {
        if (!strcmp(v, choices[i])) {
            return true;
        }
    }
    error_setg(errp, "Parameter '%s' does not accept value '%s'", name, v);
    return false;
}

static bool check_unused(QemuOpts *opts, Error **errp)
{
    const QemuOpt *unused = qemu_opts_first_unused(opts);

    if (unused) {
        error_setg(errp, "Invalid parameter '%s'", unused->name);
        return false;
    }
    return true;
}

bool cli_rtc_parse(const char *optarg, Error **errp)
{
    static const char *const clocks[] = { "host", "rt", "vm", NULL };
    static const char *const drift[] = { "none", "slew", NULL };
    QemuOpts *opts = qemu_opts_parse(optarg, NULL, errp);
    const char *base;
    bool ok;

    if (!opts) {
        return false;
    }
    base = qemu_opt_get(opts, "base");
    ok = check_choice(opts, "clock", clocks, errp) &&
         check_choice(opts, "driftfix", drift, errp) &&
         check_unused(opts, errp);
    if (ok && base && strcmp(base, "utc") && strcmp(base, "localtime")) {
        /* a start date: YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD */
        int y, mo, d, h = 0, mi = 0, s = 0;

        if (sscanf(base, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &s) < 3) {
            error_setg(errp, "invalid datetime format");
            error_append_hint(errp, "valid formats: '2006-06-17T16:01:21' or "
                              "'2006-06-17'\n");
            ok = false;
        }
    }
    qemu_opts_free(opts);
    return ok;
}

bool cli_boot_parse(const char *optarg, Error **errp)
{
    static const char *const keys[] = {
        "order", "once", "menu", "splash", "splash-time", "reboot-timeout",
        "strict", NULL,
    };
    QemuOpts *opts = qemu_opts_parse(optarg, "order", errp);
    Error *err = NULL;
    bool ok = true;
    int i;

    if (!opts) {
        return false;
    }
    for (i = 0; keys[i]; i++) {
        qemu_opt_get(opts, keys[i]);
    }
    qemu_opt_get_bool(opts, "menu", false, &err);
    if (!err) {
        qemu_opt_get_bool(opts, "strict", false, &err);
    }
    if (err) {
        error_propagate(errp, err);
        ok = false;
    } else {
        ok = check_unused(opts, errp);
    }
    qemu_opts_free(opts);
    return ok;
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
        opts = qemu_opts_parse(optarg, "driver", errp);
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
