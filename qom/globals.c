/*
 * Global properties (-global, compat entries): {driver, property, value}
 * applied to every object whose type is driver or a subtype of it.
 */
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
