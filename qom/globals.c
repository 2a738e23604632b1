/*
 * Global properties (-global, compat entries): {driver, property, value}
 * applied to every object whose type is driver or a subtype of it.
 */
#include <string.h>

#include "qemu/option.h"
#include "qom/object.h"

static bool apply_one(Object *obj, GlobalProperty *p, Error **errp)
{
    Error *err = NULL;

    if (!object_property_parse(obj, p->property, p->value, &err)) {
        error_propagate(errp, err);
        error_prepend(errp, "can't apply global %s.%s=%s: ", p->driver,
                      p->property, p->value);
        return false;
    }
    return true;
}

static bool applies(Object *obj, const GlobalProperty *p)
{
    if (!object_dynamic_cast(obj, p->driver)) {
        return false;
    }
    return !p->optional || object_property_find(obj, p->property);
}

bool object_apply_global_props(Object *obj, const GPtrArray *props,
                               Error **errp)
{
    guint i;

    for (i = 0; props && i < props->len; i++) {
        GlobalProperty *p = g_ptr_array_index(props, i);

        if (applies(obj, p) && !apply_one(obj, p, errp)) {
            return false;
        }
    }
    return true;
}

bool object_apply_global_props_used(Object *obj, const GPtrArray *props,
                                    Error **errp)
{
    guint i;

    for (i = 0; props && i < props->len; i++) {
        GlobalProperty *p = g_ptr_array_index(props, i);
        Error *err = NULL;

        if (!applies(obj, p)) {
            continue;
        }
        p->used = true;
        if (apply_one(obj, p, errp ? errp : &err)) {
            continue;
        }
        if (errp) {
            return false;
        }
        /* As QEMU for a hotplugged device: warn, apply the rest */
        warn_report("%s", error_get_pretty(err));
        error_free(err);
    }
    return true;
}

/*
 * -global DRIVER.PROPERTY=VALUE (QEMU scans DRIVER and PROPERTY into 63
 * characters each), or driver=,property=,value= in QemuOpts form, which
 * is what anything else is parsed as
 */
GlobalProperty *global_property_parse(const char *str, Error **errp)
{
    static const QemuOptDesc desc[] = {
        { "driver", QEMU_OPT_STRING },
        { "property", QEMU_OPT_STRING },
        { "value", QEMU_OPT_STRING },
        { NULL },
    };
    size_t dlen = strcspn(str, ".="), plen = 0;
    const char *d, *p, *v;
    GlobalProperty *g;
    QemuOpts *opts;

    if (str[dlen] == '.') {
        plen = strcspn(str + dlen + 1, "=");
    }
    if (dlen && dlen <= 63 && plen && plen <= 63 &&
        str[dlen + 1 + plen] == '=') {
        g = g_new0(GlobalProperty, 1);
        g->driver = g_strndup(str, dlen);
        g->property = g_strndup(str + dlen + 1, plen);
        g->value = g_strdup(str + dlen + 2 + plen);
        return g;
    }
    opts = qemu_opts_parse(str, NULL, errp);
    if (!qemu_opts_validate(opts, desc, true, errp)) {
        qemu_opts_free(opts);
        return NULL;
    }
    d = qemu_opt_get(opts, "driver");
    p = qemu_opt_get(opts, "property");
    v = qemu_opt_get(opts, "value");
    g = NULL;
    if (!d || !p || !v) {
        error_setg(errp, "options 'driver', 'property', and 'value' are "
                   "required");
    } else {
        g = g_new0(GlobalProperty, 1);
        g->driver = g_strdup(d);
        g->property = g_strdup(p);
        g->value = g_strdup(v);
    }
    qemu_opts_free(opts);
    return g;
}

void global_property_free(GlobalProperty *g)
{
    g_free((char *)g->driver);
    g_free((char *)g->property);
    g_free((char *)g->value);
    g_free(g);
}
