/* A flat view as text (tests/unit/flat-text.h) */
#include <glib.h>

#include "flat-text.h"

char *flat_text(AddressSpace *as)
{
    FlatView *fv = address_space_get_flatview(as);
    GString *s = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < fv->nr; i++) {
        const FlatRange *r = &fv->ranges[i];

        g_string_append_printf(s, "%s%" G_GINT64_MODIFIER "x-%"
                               G_GINT64_MODIFIER "x %s", i ? " " : "",
                               r->start,
                               (uint64_t)(r->start + r->size - 1),
                               memory_region_name(r->mr));
        if (r->offset_in_region) {
            g_string_append_printf(s, "@%" G_GINT64_MODIFIER "x",
                                   r->offset_in_region);
        }
        if (r->readonly) {
            g_string_append(s, "(ro)");
        }
    }
    flatview_unref(fv);
    return g_string_free(s, FALSE);
}
