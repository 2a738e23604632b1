/*
 * Global properties (-global, compat entries): {driver, property, value}
 * applied to every object whose type is driver or a subtype of it.
 */
#include "qom/object.h"

bool object_apply_global_props(Object *obj, const GPtrArray *props,
                               Error **errp)
{
    guint i;

    for (i = 0; props && i < props->len; i++) {
        GlobalProperty *p = g_ptr_array_index(props, i);
        Error *err = NULL;

        if (!object_dynamic_cast(obj, p->driver)) {
            continue;
        }
        if (p->optional && !object_property_find(obj, p->property)) {
            continue;
        }
        if (!object_property_parse(obj, p->property, p->value, &err)) {
            error_propagate(errp, err);
            error_prepend(errp, "can't apply global %s.%s=%s: ", p->driver,
                          p->property, p->value);
            return false;
        }
    }
    return true;
}
