/*
 * The firmware search path (include/qemu/datadir.h).  Debian builds QEMU
 * 7.2 with --firmwarepath=/usr/share/qemu:/usr/share/seabios:
 * /usr/lib/ipxe/qemu; -L puts directories before those.
 */
#include <stdio.h>
#include <unistd.h>

#include <glib.h>

#include "qemu/datadir.h"

char *qemu_bios_name;

static const char *const default_dirs[] = {
    "/usr/share/qemu", "/usr/share/seabios", "/usr/lib/ipxe/qemu",
};

static GPtrArray *user_dirs;

void qemu_add_data_dir(const char *dir)
{
    if (!user_dirs) {
        user_dirs = g_ptr_array_new_with_free_func(g_free);
    }
    g_ptr_array_add(user_dirs, g_strdup(dir));
}

void qemu_list_data_dirs(void)
{
    guint i;

    for (i = 0; user_dirs && i < user_dirs->len; i++) {
        printf("%s\n", (char *)g_ptr_array_index(user_dirs, i));
    }
    for (i = 0; i < G_N_ELEMENTS(default_dirs); i++) {
        printf("%s\n", default_dirs[i]);
    }
}

static char *try_dir(const char *dir, const char *name)
{
    char *path = g_build_filename(dir, name, NULL);

    if (access(path, R_OK) == 0) {
        return path;
    }
    g_free(path);
    return NULL;
}

char *qemu_find_file(const char *name)
{
    char *path;
    guint i;

    if (access(name, R_OK) == 0) {
        return g_strdup(name);
    }
    for (i = 0; user_dirs && i < user_dirs->len; i++) {
        path = try_dir(g_ptr_array_index(user_dirs, i), name);
        if (path) {
            return path;
        }
    }
    for (i = 0; i < G_N_ELEMENTS(default_dirs); i++) {
        path = try_dir(default_dirs[i], name);
        if (path) {
            return path;
        }
    }
    return NULL;
}
