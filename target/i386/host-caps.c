/*
 * What a host's KVM offers a vCPU, and the text format recorded hosts are
 * kept in (tests/data/hosts/NAME.host).
 *
 * The format is line based; '#' starts a comment line and blank lines are
 * ignored.  Every other line is a keyword and its arguments separated by
 * spaces.  Numbers are decimal unless written with 0x (hex) or 0 (octal).
 *
 *   name <free text>                    where the host came from
 *   host-vendor <12 characters>         CPUID[0] vendor of the host CPU
 *   host-fms <family> <model> <stepping>
 *   host-model-id <rest of the line>    brand string (up to 48 bytes)
 *   tsc-deadline on|off                 KVM_CAP_TSC_DEADLINE_TIMER
 *   hyperv <level>                      KVM_CAP_HYPERV (0 = none)
 *   hyperv-cpuid on|off                 KVM_CAP_HYPERV_CPUID
 *   hyperv-send-ipi on|off              KVM_CAP_HYPERV_SEND_IPI
 *   cpuid <function> <index> <flags> <eax> <ebx> <ecx> <edx>
 *                                       one KVM_GET_SUPPORTED_CPUID entry
 *   hv-cpuid <function> <index> <eax> <ebx> <ecx> <edx>
 *                                       one KVM_GET_SUPPORTED_HV_CPUID entry
 *   msr <index> <value>                 one feature MSR (KVM_GET_MSRS)
 *
 * For "name" and "host-model-id" the value is everything after the single
 * space that follows the keyword, so leading spaces of brand strings
 * survive.  Scalars may appear once; a cpuid, hv-cpuid or msr line may not
 * repeat an earlier (function, index) or MSR index.  host_caps_to_string()
 * writes the scalars first, then the entries in table order, so saving and
 * loading again gives back the same text and the same tables.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "target/i386/host-caps.h"
#include "target/i386/cpu.h"

#define KVM_CPUID_FLAG_SIGNIFCANT_INDEX 1

X86HostCaps *host_caps_new(void)
{
    X86HostCaps *caps = g_new0(X86HostCaps, 1);

    caps->cpuid = g_array_new(FALSE, TRUE, sizeof(X86HostCPUIDEntry));
    caps->hv_cpuid = g_array_new(FALSE, TRUE, sizeof(X86HostCPUIDEntry));
    caps->msrs = g_array_new(FALSE, TRUE, sizeof(X86HostMSR));
    return caps;
}

void host_caps_free(X86HostCaps *caps)
{
    if (!caps) {
        return;
    }
    if (caps->cpuid) {
        g_array_free(caps->cpuid, TRUE);
    }
    if (caps->hv_cpuid) {
        g_array_free(caps->hv_cpuid, TRUE);
    }
    if (caps->msrs) {
        g_array_free(caps->msrs, TRUE);
    }
    g_free(caps->name);
    g_free(caps);
}

/* Lookups ----------------------------------------------------------------- */

/*
 * KVM reports leaves without a significant index with index 0; a query
 * for any subleaf of such a leaf gets that entry, as on hardware.
 */
static X86HostCPUIDEntry *cpuid_array_find(GArray *arr, uint32_t function,
                                           uint32_t index, bool exact)
{
    guint i;

    for (i = 0; arr && i < arr->len; i++) {
        X86HostCPUIDEntry *e = &g_array_index(arr, X86HostCPUIDEntry, i);

        if (e->function != function) {
            continue;
        }
        if (e->index == index ||
            (!exact && !(e->flags & KVM_CPUID_FLAG_SIGNIFCANT_INDEX))) {
            return e;
        }
    }
    return NULL;
}

const X86HostCPUIDEntry *host_caps_find(const X86HostCaps *caps,
                                        uint32_t function, uint32_t index)
{
    return cpuid_array_find(caps->cpuid, function, index, false);
}

uint32_t host_caps_cpuid_reg(const X86HostCaps *caps, uint32_t function,
                             uint32_t index, int reg)
{
    const X86HostCPUIDEntry *e = host_caps_find(caps, function, index);

    if (!e) {
        return 0;
    }
    switch (reg) {
    case R_EAX:
        return e->eax;
    case R_EBX:
        return e->ebx;
    case R_ECX:
        return e->ecx;
    case R_EDX:
        return e->edx;
    default:
        return 0;
    }
}

static X86HostMSR *msr_find(const X86HostCaps *caps, uint32_t index)
{
    guint i;

    for (i = 0; caps->msrs && i < caps->msrs->len; i++) {
        X86HostMSR *m = &g_array_index(caps->msrs, X86HostMSR, i);
        if (m->index == index) {
            return m;
        }
    }
    return NULL;
}

bool host_caps_get_msr(const X86HostCaps *caps, uint32_t index,
                       uint64_t *value)
{
    X86HostMSR *m = msr_find(caps, index);

    if (!m) {
        return false;
    }
    if (value) {
        *value = m->value;
    }
    return true;
}

/* Replaces an entry with the same (function, index), else appends. */
void host_caps_add_cpuid(X86HostCaps *caps, const X86HostCPUIDEntry *e)
{
    X86HostCPUIDEntry *old =
        cpuid_array_find(caps->cpuid, e->function, e->index, true);

    if (old) {
        *old = *e;
    } else {
        g_array_append_val(caps->cpuid, *e);
    }
}

void host_caps_set_msr(X86HostCaps *caps, uint32_t index, uint64_t value)
{
    X86HostMSR *m = msr_find(caps, index);
    X86HostMSR n = { .index = index, .value = value };

    if (m) {
        m->value = value;
    } else {
        g_array_append_val(caps->msrs, n);
    }
}

/* Text format ------------------------------------------------------------- */

typedef struct HostCapsParser {
    const char *file;
    int line;
    X86HostCaps *caps;
    GHashTable *seen; /* scalar keywords already given */
} HostCapsParser;

static void G_GNUC_PRINTF(3, 4)
parse_error(HostCapsParser *p, Error **errp, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    error_setg(errp, "%s:%d: %s", p->file, p->line, msg);
    g_free(msg);
}

static bool parse_u64(HostCapsParser *p, const char *s, uint64_t max,
                      uint64_t *out, Error **errp)
{
    char *end;
    guint64 v;

    errno = 0;
    /* Signs are never meaningful here; strtoull would accept them */
    if (!g_ascii_isdigit(s[0])) {
        parse_error(p, errp, "invalid number '%s'", s);
        return false;
    }
    v = g_ascii_strtoull(s, &end, 0);
    if (*end || errno) {
        parse_error(p, errp, "invalid number '%s'", s);
        return false;
    }
    if (v > max) {
        parse_error(p, errp, "number '%s' out of range", s);
        return false;
    }
    *out = v;
    return true;
}

static bool parse_u32(HostCapsParser *p, const char *s, uint32_t *out,
                      Error **errp)
{
    uint64_t v;

    if (!parse_u64(p, s, UINT32_MAX, &v, errp)) {
        return false;
    }
    *out = v;
    return true;
}

static bool parse_bool(HostCapsParser *p, const char *s, bool *out,
                       Error **errp)
{
    if (!strcmp(s, "on")) {
        *out = true;
    } else if (!strcmp(s, "off")) {
        *out = false;
    } else {
        parse_error(p, errp, "expected 'on' or 'off', got '%s'", s);
        return false;
    }
    return true;
}

static bool parse_cpuid_line(HostCapsParser *p, char **argv, bool hv,
                             Error **errp)
{
    X86HostCPUIDEntry e = { 0 };
    uint32_t *fields[] = { &e.function, &e.index, &e.flags,
                           &e.eax, &e.ebx, &e.ecx, &e.edx };
    GArray *arr = hv ? p->caps->hv_cpuid : p->caps->cpuid;
    int i, a = 0;

    for (i = 0; i < (int)G_N_ELEMENTS(fields); i++) {
        /* hv-cpuid lines carry no flags */
        if (hv && fields[i] == &e.flags) {
            continue;
        }
        if (!parse_u32(p, argv[a++], fields[i], errp)) {
            return false;
        }
    }
    if (cpuid_array_find(arr, e.function, e.index, true)) {
        parse_error(p, errp, "duplicate %s entry 0x%x index 0x%x",
                    hv ? "hv-cpuid" : "cpuid", e.function, e.index);
        return false;
    }
    g_array_append_val(arr, e);
    return true;
}

/* Keyword, number of arguments (-1: rest of line) */
static const struct {
    const char *keyword;
    int nargs;
    bool repeatable;
} host_caps_keywords[] = {
    { "name", -1, false },
    { "host-vendor", 1, false },
    { "host-fms", 3, false },
    { "host-model-id", -1, false },
    { "tsc-deadline", 1, false },
    { "hyperv", 1, false },
    { "hyperv-cpuid", 1, false },
    { "hyperv-send-ipi", 1, false },
    { "cpuid", 7, true },
    { "hv-cpuid", 6, true },
    { "msr", 2, true },
};

static bool parse_line(HostCapsParser *p, const char *line, Error **errp)
{
    X86HostCaps *caps = p->caps;
    const char *kw_end = line;
    const char *rest;
    char *kw;
    char **argv = NULL;
    int nargs, i, k = -1;
    bool ok = false;

    while (*kw_end && *kw_end != ' ' && *kw_end != '\t') {
        kw_end++;
    }
    kw = g_strndup(line, kw_end - line);
    rest = *kw_end ? kw_end + 1 : kw_end;

    for (i = 0; i < (int)G_N_ELEMENTS(host_caps_keywords); i++) {
        if (!strcmp(kw, host_caps_keywords[i].keyword)) {
            k = i;
        }
    }
    if (k < 0) {
        parse_error(p, errp, "unknown keyword '%s'", kw);
        goto out;
    }
    if (!host_caps_keywords[k].repeatable) {
        if (g_hash_table_contains(p->seen, host_caps_keywords[k].keyword)) {
            parse_error(p, errp, "'%s' given twice", kw);
            goto out;
        }
        g_hash_table_add(p->seen, (gpointer)host_caps_keywords[k].keyword);
    }

    if (host_caps_keywords[k].nargs < 0) {
        if (!strcmp(kw, "name")) {
            g_free(caps->name);
            caps->name = g_strdup(rest);
        } else {
            if (strlen(rest) >= sizeof(caps->host_model_id)) {
                parse_error(p, errp, "host-model-id longer than %zu bytes",
                            sizeof(caps->host_model_id) - 1);
                goto out;
            }
            g_strlcpy(caps->host_model_id, rest, sizeof(caps->host_model_id));
        }
        ok = true;
        goto out;
    }

    argv = g_strsplit_set(rest, " \t", -1);
    /* Collapse runs of blanks: drop empty fields */
    for (i = 0, nargs = 0; argv[i]; i++) {
        if (argv[i][0]) {
            argv[nargs++] = argv[i];
        } else {
            g_free(argv[i]);
        }
    }
    argv[nargs] = NULL;
    if (nargs != host_caps_keywords[k].nargs) {
        parse_error(p, errp, "'%s' takes %d argument%s, got %d", kw,
                    host_caps_keywords[k].nargs,
                    host_caps_keywords[k].nargs == 1 ? "" : "s", nargs);
        goto out;
    }

    if (!strcmp(kw, "host-vendor")) {
        if (strlen(argv[0]) != 12) {
            parse_error(p, errp, "host-vendor must be 12 characters");
            goto out;
        }
        g_strlcpy(caps->host_vendor, argv[0], sizeof(caps->host_vendor));
        ok = true;
    } else if (!strcmp(kw, "host-fms")) {
        ok = parse_u32(p, argv[0], &caps->host_family, errp) &&
             parse_u32(p, argv[1], &caps->host_model, errp) &&
             parse_u32(p, argv[2], &caps->host_stepping, errp);
    } else if (!strcmp(kw, "tsc-deadline")) {
        ok = parse_bool(p, argv[0], &caps->tsc_deadline, errp);
    } else if (!strcmp(kw, "hyperv")) {
        uint64_t v;

        ok = parse_u64(p, argv[0], INT32_MAX, &v, errp);
        caps->hyperv = v;
    } else if (!strcmp(kw, "hyperv-cpuid")) {
        ok = parse_bool(p, argv[0], &caps->hyperv_cpuid, errp);
    } else if (!strcmp(kw, "hyperv-send-ipi")) {
        ok = parse_bool(p, argv[0], &caps->hyperv_send_ipi, errp);
    } else if (!strcmp(kw, "cpuid")) {
        ok = parse_cpuid_line(p, argv, false, errp);
    } else if (!strcmp(kw, "hv-cpuid")) {
        ok = parse_cpuid_line(p, argv, true, errp);
    } else if (!strcmp(kw, "msr")) {
        uint32_t index;
        uint64_t value;

        ok = parse_u32(p, argv[0], &index, errp) &&
             parse_u64(p, argv[1], UINT64_MAX, &value, errp);
        if (ok && msr_find(caps, index)) {
            parse_error(p, errp, "duplicate msr 0x%x", index);
            ok = false;
        } else if (ok) {
            host_caps_set_msr(caps, index, value);
        }
    }

out:
    g_strfreev(argv);
    g_free(kw);
    return ok;
}

X86HostCaps *host_caps_parse(const char *text, const char *name,
                             Error **errp)
{
    HostCapsParser p = {
        .file = name ? name : "<string>",
        .caps = host_caps_new(),
        .seen = g_hash_table_new(g_str_hash, g_str_equal),
    };
    char **lines = g_strsplit(text, "\n", -1);
    bool ok = true;
    int i;

    for (i = 0; lines[i] && ok; i++) {
        char *line = lines[i];
        const char *s = line;
        size_t len = strlen(line);

        p.line = i + 1;
        /* Files edited on other systems */
        if (len && line[len - 1] == '\r') {
            line[len - 1] = 0;
        }
        while (*s == ' ' || *s == '\t') {
            s++;
        }
        if (!*s || *s == '#') {
            continue;
        }
        ok = parse_line(&p, s, errp);
    }
    g_strfreev(lines);
    g_hash_table_destroy(p.seen);

    if (!ok) {
        host_caps_free(p.caps);
        return NULL;
    }
    if (!p.caps->name && name) {
        p.caps->name = g_strdup(name);
    }
    return p.caps;
}

X86HostCaps *host_caps_load(const char *path, Error **errp)
{
    GError *gerr = NULL;
    char *text = NULL;
    X86HostCaps *caps;

    if (!g_file_get_contents(path, &text, NULL, &gerr)) {
        error_setg(errp, "Could not read host description '%s': %s", path,
                   gerr->message);
        g_error_free(gerr);
        return NULL;
    }
    caps = host_caps_parse(text, path, errp);
    g_free(text);
    return caps;
}

static void append_cpuid_lines(GString *s, const char *kw, GArray *arr,
                               bool with_flags)
{
    guint i;

    for (i = 0; arr && i < arr->len; i++) {
        const X86HostCPUIDEntry *e =
            &g_array_index(arr, X86HostCPUIDEntry, i);

        g_string_append_printf(s, "%s 0x%08x 0x%x", kw, e->function,
                               e->index);
        if (with_flags) {
            g_string_append_printf(s, " 0x%x", e->flags);
        }
        g_string_append_printf(s, " 0x%08x 0x%08x 0x%08x 0x%08x\n", e->eax,
                               e->ebx, e->ecx, e->edx);
    }
}

char *host_caps_to_string(const X86HostCaps *caps)
{
    GString *s = g_string_new(NULL);
    guint i;

    g_string_append(s, "# KVM host capabilities (format: "
                       "target/i386/host-caps.c)\n");
    if (caps->name) {
        g_string_append_printf(s, "name %s\n", caps->name);
    }
    if (caps->host_vendor[0]) {
        g_string_append_printf(s, "host-vendor %s\n", caps->host_vendor);
    }
    g_string_append_printf(s, "host-fms %u %u %u\n", caps->host_family,
                           caps->host_model, caps->host_stepping);
    if (caps->host_model_id[0]) {
        g_string_append_printf(s, "host-model-id %s\n", caps->host_model_id);
    }
    g_string_append_printf(s, "tsc-deadline %s\n",
                           caps->tsc_deadline ? "on" : "off");
    g_string_append_printf(s, "hyperv %d\n", caps->hyperv);
    g_string_append_printf(s, "hyperv-cpuid %s\n",
                           caps->hyperv_cpuid ? "on" : "off");
    g_string_append_printf(s, "hyperv-send-ipi %s\n",
                           caps->hyperv_send_ipi ? "on" : "off");
    append_cpuid_lines(s, "cpuid", caps->cpuid, true);
    append_cpuid_lines(s, "hv-cpuid", caps->hv_cpuid, false);
    for (i = 0; caps->msrs && i < caps->msrs->len; i++) {
        const X86HostMSR *m = &g_array_index(caps->msrs, X86HostMSR, i);

        g_string_append_printf(s, "msr 0x%x 0x%" PRIx64 "\n", m->index,
                               m->value);
    }
    return g_string_free(s, FALSE);
}

bool host_caps_save(const X86HostCaps *caps, const char *path, Error **errp)
{
    GError *gerr = NULL;
    char *text = host_caps_to_string(caps);
    bool ok = g_file_set_contents(path, text, -1, &gerr);

    if (!ok) {
        error_setg(errp, "Could not write host description '%s': %s", path,
                   gerr->message);
        g_error_free(gerr);
    }
    g_free(text);
    return ok;
}
