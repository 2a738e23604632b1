/*
 * Error reporting: Error ** plus a bool (or NULL) return.
 *
 * A function that can fail takes `Error **errp` as its last argument and
 * returns false (or NULL, or a negative value).  It sets *errp only on
 * failure.  Callers add context with error_prepend() and report an error
 * once, where it is consumed.
 */
#ifndef QAPI_ERROR_H
#define QAPI_ERROR_H

#include <stdbool.h>
#include <stdarg.h>

/* QMP error classes (QEMU's ErrorClass) */
typedef enum ErrorClass {
    ERROR_CLASS_GENERIC_ERROR,
    ERROR_CLASS_COMMAND_NOT_FOUND,
    ERROR_CLASS_DEVICE_NOT_FOUND,
    ERROR_CLASS_KVM_MISSING_CAP,
} ErrorClass;

typedef struct Error Error;

/* Pass as errp to make any error fatal (start-up paths only). */
extern Error *error_fatal;

void error_setg(Error **errp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* fmt, then ": " and strerror(os_errno), as QEMU's error_setg_errno */
void error_setg_errno(Error **errp, int os_errno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void error_set(Error **errp, ErrorClass cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void error_prepend(Error **errp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void error_append_hint(Error **errp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void error_propagate(Error **dst, Error *local);

const char *error_get_pretty(const Error *err);
const char *error_get_hint(const Error *err);
ErrorClass error_get_class(const Error *err);
const char *error_class_name(ErrorClass cls);
void error_free(Error *err);

/* "qemu-system-x86_64: <msg>" on stderr, then the hint if any. */
void error_report_err(Error *err);
void error_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void error_vreport(const char *prefix, const char *fmt, va_list ap);

/* Program name used as the prefix of every report. */
void error_set_progname(const char *name);
/*
 * The option being processed ("-accel kvm,foo"), printed after the program
 * name by every report until cleared with NULL: start-up only.
 */
void error_set_location(const char *loc);
/* The same for a place in a file ("cfg:2", -readconfig), as QEMU prints it */
void error_set_file_location(const char *file_line);
/* Whether error_report_err() prints an error's hints (on by default) */
void error_set_hints(bool on);
/* Prefix reports with a timestamp (-msg timestamp=on). */
void error_set_timestamps(bool on);

#endif
