/*
 * QEMU's config file format (include/qemu/config-file.h), for
 * -readconfig (system/readconfig.c) and blkdebug's config=.  The line
 * grammar follows what QEMU 7.2 accepts: a key line is a word, then
 * optionally '= "value"' (anything else after the word gives an empty
 * value).
 */
#include <string.h>

#include "qemu/config-file.h"

typedef struct ConfigParse {
    ConfigGroup g;
    char name[64], id[64];
    bool open;
} ConfigParse;

static void group_reset(ConfigParse *p)
{
    if (p->g.keys) {
        g_ptr_array_free(p->g.keys, TRUE);
        g_ptr_array_free(p->g.values, TRUE);
    }
    p->g.keys = g_ptr_array_new_with_free_func(g_free);
    p->g.values = g_ptr_array_new_with_free_func(g_free);
}

/* The value of 'key = "value"' after the key, or "" */
static char *key_value(const char *line, const char *key)
{
    const char *q = strstr(line, key) + strlen(key), *e;

    q += strspn(q, " \t");
    if (*q != '=') {
        return g_strdup("");
    }
    q++;
    q += strspn(q, " \t");
    if (*q == '"' && (e = strchr(q + 1, '"'))) {
        return g_strndup(q + 1, e - q - 1);
    }
    return g_strdup("");
}

static bool group_end(ConfigParse *p, int key_line, ConfigGroupFn fn,
                      void *opaque, Error **errp)
{
    if (!p->open) {
        return true;
    }
    p->open = false;
    p->g.name = p->name;
    p->g.id = p->id[0] ? p->id : NULL;
    p->g.line = key_line;
    return fn(&p->g, opaque, errp);
}

bool qemu_config_parse(FILE *f, ConfigGroupFn fn, void *opaque,
                       int *err_line, Error **errp)
{
    ConfigParse p = { 0 };
    char line[1024], key[64], name[64], id[64];
    int n = 0, key_line = 0;
    bool ok = true;

    group_reset(&p);
    *err_line = 0;
    /* 1023 bytes at a time, as QEMU reads it: a longer line is two */
    while (ok && fgets(line, sizeof(line), f)) {
        n++;
        if (line[0] == '\n' || line[0] == '#') {
            continue;
        }
        if (line[0] == '[' &&
            (sscanf(line, "[%63s \"%63[^\"]\"]", name, id) == 2 ||
             (id[0] = 0, sscanf(line, "[%63[^]]]", name) == 1))) {
            /* A group starts: the previous one has ended */
            ok = group_end(&p, key_line, fn, opaque, errp);
            memcpy(p.name, name, sizeof(name));
            memcpy(p.id, id, sizeof(id));
            group_reset(&p);
            p.open = true;
            continue;
        }
        key_line = n;
        if (sscanf(line, " %63s", key) != 1) {
            error_setg(errp, "parse error");
            *err_line = n;
            ok = false;
        } else if (!p.open) {
            error_setg(errp, "no group defined");
            *err_line = n;
            ok = false;
        } else {
            g_ptr_array_add(p.g.keys, g_strdup(key));
            g_ptr_array_add(p.g.values, key_value(line, key));
        }
    }
    ok = ok && group_end(&p, key_line, fn, opaque, errp);
    g_ptr_array_free(p.g.keys, TRUE);
    g_ptr_array_free(p.g.values, TRUE);
    return ok;
}
