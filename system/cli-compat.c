/*
 * -rtc, -boot and -audiodev: parsed and checked so that command lines
 * written for QEMU (libvirt's among them) start, but nothing here changes
 * the machine: the RTC follows the host's UTC clock, there is no firmware
 * to take a boot order, and there is no sound device.  Options for other
 * devices this build lacks take "none" only.
 */
#include <stdio.h>
#include <string.h>

#include <time.h>

#include <json-glib/json-glib.h>

#include "hw/boards.h"
#include "hw/rtc/mc146818rtc.h"
#include "qemu/option.h"
#include "sysemu/cli-compat.h"

/*
 * The merged -rtc keys, checked as QEMU 7.2 checks them once the command
 * line is read: the base, then clock and driftfix.  What they ask of the
 * board's RTC is handed to it (rtc_set_config()): base=utc shows UTC,
 * base=localtime the host's local time at start-up, base=DATE that date
 * at start-up; clock=host follows the host's wall clock, rt its
 * monotonic clock, vm the VM's running time.
 */
bool cli_rtc_check(QemuOpts *opts, Error **errp)
{
    static const char *const clocks[] = { "host", "rt", "vm", NULL };
    static const char *const drift[] = { "none", "slew", NULL };
    const char *base = qemu_opt_get(opts, "base");
    const char *clock = qemu_opt_get(opts, "clock");
    const char *driftfix = qemu_opt_get(opts, "driftfix");
    int64_t now = g_get_real_time() / G_USEC_PER_SEC, offset = 0;
    RTCClockKind kind = RTC_CLOCK_HOST;

    if (base && !strcmp(base, "localtime")) {
        time_t t = now;
        struct tm tm;

        localtime_r(&t, &tm);
        offset = tm.tm_gmtoff;
    } else if (base && strcmp(base, "utc")) {
        /* a start date: YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD */
        struct tm tm = { 0 };
        int y, mo, d, h = 0, mi = 0, sec = 0;

        if (sscanf(base, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &sec) !=
                6 &&
            sscanf(base, "%d-%d-%d", &y, &mo, &d) != 3) {
            error_setg(errp, "invalid datetime format");
            error_append_hint(errp, "valid formats: '2006-06-17T16:01:21' or "
                              "'2006-06-17'\n");
            return false;
        }
        tm.tm_year = y - 1900;
        tm.tm_mon = mo - 1;
        tm.tm_mday = d;
        tm.tm_hour = h;
        tm.tm_min = mi;
        tm.tm_sec = sec;
        offset = (int64_t)timegm(&tm) - now;
    }
    if (clock && !g_strv_contains(clocks, clock)) {
        error_setg(errp, "invalid option value '%s'", clock);
        return false;
    }
    if (driftfix && !g_strv_contains(drift, driftfix)) {
        error_setg(errp, "invalid option value '%s'", driftfix);
        return false;
    }
    if (driftfix && !strcmp(driftfix, "slew")) {
        /* Lost-tick compensation of the periodic interrupt, which is not
         * emulated: accepting it would change nothing */
        error_setg(errp, "driftfix=slew is not supported by this build: the "
                   "RTC's periodic interrupt is not emulated yet");
        return false;
    }
    if (clock && !strcmp(clock, "rt")) {
        kind = RTC_CLOCK_RT;
    } else if (clock && !strcmp(clock, "vm")) {
        kind = RTC_CLOCK_VM;
    }
    rtc_set_config(kind, offset);
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

void cli_boot_apply(MachineState *ms, QemuOpts *opts)
{
    bool present;

    ms->boot_menu = false;
    ms->boot_splash_time = -1;
    ms->boot_reboot_timeout = -1;
    keyval_get_bool(opts, "boot.", "menu", &ms->boot_menu, &present, NULL);
    keyval_get_int(opts, "boot.", "splash-time", &ms->boot_splash_time,
                   &present, NULL);
    keyval_get_int(opts, "boot.", "reboot-timeout", &ms->boot_reboot_timeout,
                   &present, NULL);
}

static const char *const audio_drivers[] = {
    "none", "alsa", "coreaudio", "dbus", "dsound", "jack", "oss", "pa",
    "pipewire", "sdl", "sndio", "spice", "wav", NULL,
};

/* QEMU 7.2's sound cards for -audio model=, with its descriptions */
static const char *const sound_cards[][2] = {
    { "ac97", "Intel 82801AA AC97 Audio" },
    { "adlib", "Yamaha YM3812 (OPL2)" },
    { "cs4231a", "CS4231A" },
    { "es1370", "ENSONIQ AudioPCI ES1370" },
    { "gus", "Gravis Ultrasound GF1" },
    { "hda", "Intel HD Audio" },
    { "pcspk", "PC speaker" },
    { "sb16", "Creative Sound Blaster 16" },
};

/*
 * The members of an Audiodev with the "none" driver: driver, id, the
 * timer period and the per-direction settings
 */
static bool audiodev_member_known(const char *name)
{
    return !strcmp(name, "driver") || !strcmp(name, "id") ||
           !strcmp(name, "timer-period") || g_str_has_prefix(name, "in.") ||
           g_str_has_prefix(name, "out.");
}

/* The driver of an Audiodev: known to QEMU, and "none" here */
static bool audiodev_check_driver(const char *driver, Error **errp)
{
    if (!driver) {
        error_setg(errp, "Parameter 'driver' is missing");
        return false;
    }
    if (!g_strv_contains(audio_drivers, driver)) {
        error_setg(errp, "Parameter 'driver' does not accept value '%s'",
                   driver);
        return false;
    }
    if (strcmp(driver, "none")) {
        error_setg(errp, "audio driver '%s' is not supported by this build "
                   "(only 'none')", driver);
        return false;
    }
    return true;
}

/* with_model: -audio's own "model" key is not an Audiodev member */
static bool audiodev_check_members(QemuOpts *opts, bool with_model,
                                   Error **errp)
{
    guint i;

    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);

        if (!audiodev_member_known(o->name) &&
            !(with_model && !strcmp(o->name, "model"))) {
            error_setg(errp, "Parameter '%s' is unexpected", o->name);
            return false;
        }
    }
    return true;
}

/*
 * -audiodev: a sound backend for devices to name.  With no sound device
 * in this build nothing uses it, as a QEMU 7.2 audiodev no device names.
 */
bool cli_audiodev_parse(const char *optarg, Error **errp)
{
    const char *driver = NULL, *id = NULL;
    JsonObject *json = NULL;
    QemuOpts *opts = NULL;
    bool ok = false;

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
    ok = audiodev_check_driver(driver, errp) &&
         (!opts || audiodev_check_members(opts, false, errp));
out:
    if (opts) {
        qemu_opts_free(opts);
    }
    if (json) {
        json_object_unref(json);
    }
    return ok;
}

/*
 * -audio [driver=]DRIVER[,model=CARD]: an audiodev plus a sound card,
 * checked as QEMU 7.2 checks them (the Audiodev, then the card's name).
 * This build emulates no sound card, so a valid model is refused saying so
 * instead of starting without the card.  Without a model QEMU 7.2 says
 * "Parameter 'model' is missing"; here, as in QEMU 8.0 and later, it is
 * an audiodev alone: libqtest's launch line passes "-audio none"
 * (design §5), and an audiodev no device uses changes nothing.
 */
bool cli_audio_parse(const char *optarg, Error **errp)
{
    QemuOpts *opts;
    const char *model;
    bool ok = false;
    size_t i;

    if (!strcmp(optarg, "help")) {
        printf("Available audio drivers:\nnone\n");
        exit(0);
    }
    opts = keyval_parse(optarg, "driver", NULL, errp);
    if (!opts) {
        return false;
    }
    model = qemu_opt_get(opts, "model");
    if (!audiodev_check_members(opts, true, errp) ||
        !audiodev_check_driver(qemu_opt_get(opts, "driver"), errp)) {
        goto out;
    }
    if (!model) {
        /* An audiodev alone, as QEMU 8.0 and later take it (libqtest's
         * launch line passes "-audio none", design §5) */
        ok = true;
        goto out;
    }
    for (i = 0; i < G_N_ELEMENTS(sound_cards); i++) {
        if (!strcmp(sound_cards[i][0], model)) {
            break;
        }
    }
    if (i == G_N_ELEMENTS(sound_cards)) {
        GString *list = g_string_new(NULL);

        for (i = 0; i < G_N_ELEMENTS(sound_cards); i++) {
            g_string_append_printf(list, "%-11s %s\n", sound_cards[i][0],
                                   sound_cards[i][1]);
        }
        error_setg(errp, "Unknown sound card name `%s'", model);
        error_append_hint(errp, "Valid sound card names (comma separated):\n"
                          "%s", list->str);
        g_string_free(list, TRUE);
        goto out;
    }
    error_setg(errp, "sound card '%s' is not supported by this build: no "
               "sound device is emulated", model);
out:
    qemu_opts_free(opts);
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
