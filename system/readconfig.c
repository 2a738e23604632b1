/*
 * -readconfig FILE: QEMU's config file format, each group handed to the
 * command-line option it stands for (system/vl-options.c runs it with the
 * group's "FILE:LINE" as the location errors name).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "qapi/error.h"
#include "vl.h"

/* Start-up only: the location is the line being read */
static void G_GNUC_NORETURN fail(Error *err)
{
    error_report_err(err);
    exit(1);
}

/* QEMU's option groups and the option each stands for */
static const struct {
    const char *group, *option;
    bool takes_id;              /* [group "ID"] is id=ID */
} readconfig_groups[] = {
    { "accel", "-accel" },          { "action", "-action" },
    { "boot-opts", "-boot" },       { "chardev", "-chardev", true },
    { "device", "-device", true },  { "drive", "-drive", true },
    { "machine", "-machine" },      { "memory", "-m" },
    { "mon", "-mon", true },        { "msg", "-msg" },
    { "name", "-name" },            { "netdev", "-netdev", true },
    { "numa", "-numa" },            { "object", "-object", true },
    { "overcommit", "-overcommit" }, { "rtc", "-rtc" },
    { "sandbox", "-sandbox" },      { "smp-opts", "-smp" },
};

/* A value inside an option argument: commas doubled */
static void readconfig_append(GString *arg, const char *key,
                              const char *value)
{
    const char *p;

    if (arg->len) {
        g_string_append_c(arg, ',');
    }
    g_string_append_printf(arg, "%s=", key);
    for (p = value; *p; p++) {
        g_string_append(arg, *p == ',' ? ",," : (char[]){ *p, 0 });
    }
}

/*
 * A finished group: its option, located at the last key line read so far
 * (none before the first), as QEMU 7.2 reports it
 */
static void readconfig_apply(const char *group, GString *arg,
                             const char *file, int key_line)
{
    char *loc = key_line ? g_strdup_printf("%s:%d", file, key_line) : NULL;
    Error *err = NULL;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(readconfig_groups) &&
                strcmp(readconfig_groups[i].group, group); i++) {
    }
    if (i == G_N_ELEMENTS(readconfig_groups)) {
        error_set_file_location(loc);
        error_setg(&err, "There is no option group '%s'", group);
        fail(err);
    }
    if (!readconfig_groups[i].takes_id) {
        /* A group without ids ignores one given in its header */
        const char *id = strstr(arg->str, "id=");

        if (id == arg->str) {
            size_t len = strcspn(id, ",");

            g_string_erase(arg, 0, len + (id[len] == ','));
        }
    }
    vl_run_option_at(readconfig_groups[i].option, arg->str, loc);
    g_string_free(arg, TRUE);
    g_free(loc);
}

/*
 * QEMU's config file, read as 7.2 reads it: "[group]" or
 * '[group "id"]' lines start a group (the previous one is applied then);
 * other lines are 'key = "value"' (a key without a quoted value gets an
 * empty one); lines that are empty or start with '#' are skipped
 */
void vl_readconfig(const char *arg)
{
    Error *err = NULL;
    gchar *text = NULL;
    gchar **lines;
    GString *cur = NULL;
    char group[64] = "";
    int n, key_line = 0;

    if (!g_file_get_contents(arg, &text, NULL, NULL)) {
        error_setg(&err, "Could not open '%s': %s", arg, strerror(errno));
        fail(err);
    }
    lines = g_strsplit(text, "\n", -1);
    g_free(text);
    for (n = 0; lines[n]; n++) {
        const char *l = lines[n];
        char name[64], id[64], key[64], *value;
        char *loc;

        if (!lines[n + 1] && !*l) {
            break;                      /* after the last newline */
        }
        if (!*l || *l == '#') {
            continue;
        }
        if (*l == '[' &&
            (sscanf(l, "[%63s \"%63[^\"]\"]", name, id) == 2 ||
             (id[0] = 0, sscanf(l, "[%63[^]]]", name) == 1))) {
            if (cur) {
                readconfig_apply(group, cur, arg, key_line);
            }
            cur = g_string_new(NULL);
            if (id[0]) {
                readconfig_append(cur, "id", id);
            }
            strcpy(group, name);
            continue;
        }
        key_line = n + 1;
        loc = g_strdup_printf("%s:%d", arg, key_line);
        error_set_file_location(loc);
        g_free(loc);
        if (sscanf(l, " %63s", key) != 1) {
            error_setg(&err, "parse error");
            fail(err);
        }
        if (!cur) {
            error_setg(&err, "no group defined");
            fail(err);
        }
        value = NULL;
        {
            const char *q = strstr(l, key) + strlen(key), *e;

            q += strspn(q, " \t");
            if (*q == '=') {
                q++;
                q += strspn(q, " \t");
                if (*q == '"' && (e = strchr(q + 1, '"'))) {
                    value = g_strndup(q + 1, e - q - 1);
                }
            }
        }
        readconfig_append(cur, key, value ? value : "");
        g_free(value);
    }
    if (cur) {
        readconfig_apply(group, cur, arg, key_line);
    }
    error_set_location(NULL);
    g_strfreev(lines);
}
