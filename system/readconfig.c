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
#include "qemu/config-file.h"
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
    /* held here, not on the stack: an error in this group ends the process */
    static char *loc;
    Error *err = NULL;

    g_free(loc);
    loc = key_line ? g_strdup_printf("%s:%d", file, key_line) : NULL;
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
    g_clear_pointer(&loc, g_free);
}

typedef struct ReadConfig {
    const char *file;
} ReadConfig;

static bool readconfig_group(const ConfigGroup *g, void *opaque,
                             Error **errp)
{
    ReadConfig *rc = opaque;
    GString *arg = g_string_new(NULL);
    guint i;

    if (g->id) {
        readconfig_append(arg, "id", g->id);
    }
    for (i = 0; i < g->keys->len; i++) {
        readconfig_append(arg, g_ptr_array_index(g->keys, i),
                          g_ptr_array_index(g->values, i));
    }
    readconfig_apply(g->name, arg, rc->file, g->line);
    return true;
}

/*
 * QEMU's config file, read as 7.2 reads it (util/config-file.c); each
 * group is applied when it ends, so an error in a later line comes
 * after the earlier groups' options ran, as in 7.2
 */
void vl_readconfig(const char *arg)
{
    ReadConfig rc = { .file = arg };
    Error *err = NULL;
    int line;
    FILE *f = fopen(arg, "r");

    if (!f) {
        error_setg(&err, "Could not open '%s': %s", arg, strerror(errno));
        fail(err);
    }
    if (!qemu_config_parse(f, readconfig_group, &rc, &line, &err)) {
        char *loc = g_strdup_printf("%s:%d", arg, line);

        error_set_file_location(loc);
        g_free(loc);
        fail(err);
    }
    fclose(f);
    error_set_location(NULL);
}
