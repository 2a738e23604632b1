/*
 * Error objects and reporting, in QEMU's style.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "qapi/error.h"

struct Error {
    char *msg;
    GString *hint;
    ErrorClass cls;
};

/* A sentinel address: error_fatal is never dereferenced. */
static Error error_fatal_sentinel;
Error *error_fatal = &error_fatal_sentinel;

static const char *progname = "qemu-system-x86_64";
static bool timestamps;
/* The command-line option being processed, as QEMU's loc_push() names it */
static char *location;
static bool location_is_file;
static bool hints_off;            /* -readconfig's errors come without */     /* "FILE:LINE": no space before it */

void error_set_progname(const char *name)
{
    progname = name;
}

void error_set_timestamps(bool on)
{
    timestamps = on;
}

void error_set_location(const char *loc)
{
    if (loc == location) {
        return;
    }
    g_free(location);
    location = g_strdup(loc);
    location_is_file = false;
}

void error_set_file_location(const char *file_line)
{
    error_set_location(file_line);
    location_is_file = file_line != NULL;
}

static void print_prefix(void)
{
    if (timestamps) {
        GDateTime *now = g_date_time_new_now_utc();
        char *s = g_date_time_format(now, "%Y-%m-%dT%H:%M:%S");
        fprintf(stderr, "%s.%06dZ ", s, g_date_time_get_microsecond(now));
        g_free(s);
        g_date_time_unref(now);
    }
    if (location && location_is_file) {
        fprintf(stderr, "%s:%s: ", progname, location);
        return;
    }
    fprintf(stderr, "%s: ", progname);
    if (location) {
        fprintf(stderr, "%s: ", location);
    }
}

void error_vreport(const char *prefix, const char *fmt, va_list ap)
{
    print_prefix();
    if (prefix) {
        fputs(prefix, stderr);
    }
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void error_report(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    error_vreport(NULL, fmt, ap);
    va_end(ap);
}

void warn_report(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    error_vreport("warning: ", fmt, ap);
    va_end(ap);
}

static void error_handle(Error **errp, Error *err)
{
    if (errp == &error_fatal) {
        error_report_err(err);
        exit(1);
    }
    if (!errp) {
        error_free(err);
        return;
    }
    g_assert(*errp == NULL);
    *errp = err;
}

static void error_vset(Error **errp, ErrorClass cls, const char *fmt, va_list ap)
{
    Error *err;

    if (!errp) {
        return;
    }
    err = g_new0(Error, 1);
    err->cls = cls;
    err->msg = g_strdup_vprintf(fmt, ap);
    error_handle(errp, err);
}

void error_setg(Error **errp, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    error_vset(errp, ERROR_CLASS_GENERIC_ERROR, fmt, ap);
    va_end(ap);
}

void error_setg_errno(Error **errp, int os_errno, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    error_setg(errp, "%s: %s", msg, g_strerror(os_errno));
    g_free(msg);
}

void error_set(Error **errp, ErrorClass cls, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    error_vset(errp, cls, fmt, ap);
    va_end(ap);
}

void error_prepend(Error **errp, const char *fmt, ...)
{
    va_list ap;
    char *prefix, *msg;

    if (!errp || errp == &error_fatal || !*errp) {
        return;
    }
    va_start(ap, fmt);
    prefix = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    msg = g_strconcat(prefix, (*errp)->msg, NULL);
    g_free(prefix);
    g_free((*errp)->msg);
    (*errp)->msg = msg;
}

void error_append_hint(Error **errp, const char *fmt, ...)
{
    va_list ap;

    if (!errp || errp == &error_fatal || !*errp) {
        return;
    }
    if (!(*errp)->hint) {
        (*errp)->hint = g_string_new(NULL);
    }
    va_start(ap, fmt);
    g_string_append_vprintf((*errp)->hint, fmt, ap);
    va_end(ap);
}

void error_propagate(Error **dst, Error *local)
{
    if (!local) {
        return;
    }
    error_handle(dst, local);
}

const char *error_get_pretty(const Error *err)
{
    return err->msg;
}

const char *error_get_hint(const Error *err)
{
    return err->hint ? err->hint->str : NULL;
}

ErrorClass error_get_class(const Error *err)
{
    return err->cls;
}

const char *error_class_name(ErrorClass cls)
{
    switch (cls) {
    case ERROR_CLASS_COMMAND_NOT_FOUND:
        return "CommandNotFound";
    case ERROR_CLASS_DEVICE_NOT_FOUND:
        return "DeviceNotFound";
    case ERROR_CLASS_KVM_MISSING_CAP:
        return "KVMMissingCap";
    case ERROR_CLASS_GENERIC_ERROR:
    default:
        return "GenericError";
    }
}

void error_free(Error *err)
{
    if (!err) {
        return;
    }
    g_free(err->msg);
    if (err->hint) {
        g_string_free(err->hint, TRUE);
    }
    g_free(err);
}

void error_set_hints(bool on)
{
    hints_off = !on;
}

void error_report_err(Error *err)
{
    error_report("%s", err->msg);
    if (err->hint && !hints_off) {
        fputs(err->hint->str, stderr);
    }
    error_free(err);
}
