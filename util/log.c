/*
 * -d and -D (see include/qemu/log.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "qemu/log.h"

typedef struct LogItem {
    const char *name;
    const char *help;           /* as "-d help" prints it */
    bool gap_before;            /* a blank line before (user-mode items) */
} LogItem;

/* In QEMU 7.2's order; the bit of an item is its index */
static const LogItem log_items[] = {
    { "out_asm", "show generated host assembly code for each compiled TB" },
    { "in_asm", "show target assembly code for each compiled TB" },
    { "op", "show micro ops for each compiled TB" },
    { "op_opt", "show micro ops after optimization" },
    { "op_ind", "show micro ops before indirect lowering" },
    { "int", "show interrupts/exceptions in short format" },
    { "exec", "show trace before each executed TB (lots of logs)" },
    { "cpu", "show CPU registers before entering a TB (lots of logs)" },
    { "fpu", "include FPU registers in the 'cpu' logging" },
    { "mmu", "log MMU-related activities" },
    { "pcall", "x86 only: show protected mode far calls/returns/exceptions" },
    { "cpu_reset", "show CPU state before CPU resets" },
    { "unimp", "log unimplemented functionality" },
    { "guest_errors", "log when the guest OS does something invalid (eg "
      "accessing a\nnon-existent register)" },
    { "page", "dump pages at beginning of user mode emulation" },
    { "nochain", "do not chain compiled TBs so that \"exec\" and \"cpu\" "
      "show\ncomplete traces" },
    { "plugin", "output from TCG plugins" },
    { "strace", "log every user-mode syscall, its input, and its result",
      true },
    { "tid", "open a separate log file per thread; filename must contain "
      "'%d'" },
};

void qemu_log_help(void)
{
    size_t i;

    printf("Log items (comma separated):\n");
    for (i = 0; i < G_N_ELEMENTS(log_items); i++) {
        printf("%s%-15s %s\n", log_items[i].gap_before ? "\n" : "",
               log_items[i].name, log_items[i].help);
    }
    printf("trace:PATTERN   enable trace events\n\n"
           "Use \"-d trace:help\" to get a list of trace events.\n\n");
}

void qemu_log_trace_help(void)
{
    /* This build has no trace events: the list is empty */
}

static uint64_t log_item_bit(const char *name)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(log_items); i++) {
        if (!strcmp(log_items[i].name, name)) {
            return 1ULL << i;
        }
    }
    return 0;
}

bool qemu_log_parse_items(const char *items, uint64_t *mask, bool *help_trace)
{
    char **parts = g_strsplit(items, ",", -1);
    bool ok = *items != 0;
    int i;

    *mask = 0;
    *help_trace = false;
    for (i = 0; parts[i] && ok; i++) {
        const char *p = parts[i];

        if (!strcmp(p, "all")) {
            *mask |= (1ULL << G_N_ELEMENTS(log_items)) - 1;
        } else if (g_str_has_prefix(p, "trace:") && p[6]) {
            /* A pattern (with '*' or '?') may match nothing; a name must */
            if (!strcmp(p + 6, "help")) {
                *help_trace = true;
            } else if (!strpbrk(p + 6, "*?")) {
                warn_report("trace event '%s' does not exist", p + 6);
            }
        } else if (log_item_bit(p)) {
            *mask |= log_item_bit(p);
        } else {
            ok = false;
        }
    }
    g_strfreev(parts);
    return ok;
}

bool qemu_log_open(const char *filename, uint64_t mask, Error **errp)
{
    static FILE *logfile;
    FILE *f;


    if (mask & log_item_bit("tid")) {
        /* One file per thread, opened as threads log: none do here */
        if (!filename || !strstr(filename, "%d")) {
            error_setg(errp, "Filename template with '%%d' required for "
                       "'tid'");
            return false;
        }
        return true;
    }
    if (!filename) {
        return true;
    }
    f = fopen(filename, "w");
    if (!f) {
        error_setg(errp, "Error opening logfile %s: %s", filename,
                   strerror(errno));
        return false;
    }
    /* Nothing is logged under KVM; the file stays open, empty, as QEMU's */
    if (logfile) {
        fclose(logfile);
    }
    logfile = f;
    return true;
}
