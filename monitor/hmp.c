/*
 * The human monitor (HMP), a small subset: -monitor SPEC, -mon mode=readline
 * and QMP's human-monitor-command.
 *
 * Protocol, as QEMU's:
 *  - on connect: "QEMU <version> monitor - type 'help' for more
 *    information", then the prompt "(qemu) ";
 *  - one command per line; its output, lines ending in CRLF, then the
 *    prompt again.  Typed characters are echoed (backspace erases).
 *
 * Every command is a thin layer over the QMP command of the same meaning
 * (qmp_commands[]), formatted as QEMU 7.2 prints it: info status, version,
 * kvm, name, cpus, chardev, iothreads; stop|s, cont|c, system_reset,
 * system_powerdown, quit|q; help|? [cmd].  Anything else is "unknown
 * command: '...'".
 */
#include <string.h>

#include "chardev/char.h"
#include "exec/memory.h"
#include "hw/boards.h"
#include "hw/qdev-core.h"
#include "monitor/hmp.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "net/net.h"
#include "sysemu/device.h"
#include "sysemu/numa.h"

typedef struct HMPCommand {
    const char *names;      /* "cont|c" */
    const char *args;       /* for help; "" when none */
    const char *help;
    void (*fn)(GString *out, const char *arg);
    const char *qmp;        /* without fn: this QMP command, no output */
} HMPCommand;

/* The result of a QMP command of qmp_commands[], or NULL with the error
 * printed to out */
static JsonNode *qmp_call(GString *out, const char *name)
{
    const QmpCommand *c;
    Error *err = NULL;
    JsonNode *n;

    for (c = qmp_commands; c->name && strcmp(c->name, name); c++) {
    }
    g_assert(c->name);
    n = c->fn(NULL, &err);
    if (!n) {
        g_string_append_printf(out, "Error: %s\r\n", error_get_pretty(err));
        error_free(err);
    }
    return n;
}

static void hmp_action(GString *out, const char *qmp_name)
{
    JsonNode *n = qmp_call(out, qmp_name);

    if (n) {
        json_node_unref(n);
    }
}

static void info_status(GString *out, JsonObject *o)
{
    const char *status = json_object_get_string_member(o, "status");

    if (json_object_get_boolean_member(o, "running")) {
        g_string_append(out, "VM status: running\r\n");
    } else if (!strcmp(status, "paused")) {
        g_string_append(out, "VM status: paused\r\n");
    } else {
        g_string_append_printf(out, "VM status: paused (%s)\r\n", status);
    }
}

static void info_version(GString *out, JsonObject *o)
{
    JsonObject *q = json_object_get_object_member(o, "qemu");

    g_string_append_printf(out, "%" G_GINT64_FORMAT ".%" G_GINT64_FORMAT
                           ".%" G_GINT64_FORMAT "%s\r\n",
                           json_object_get_int_member(q, "major"),
                           json_object_get_int_member(q, "minor"),
                           json_object_get_int_member(q, "micro"),
                           json_object_get_string_member(o, "package"));
}

static void info_kvm(GString *out, JsonObject *o)
{
    g_string_append_printf(out, "kvm support: %s\r\n",
                           json_object_get_boolean_member(o, "enabled")
                               ? "enabled" : "disabled");
}

static void info_name(GString *out, JsonObject *o)
{
    if (json_object_has_member(o, "name")) {
        g_string_append_printf(out, "%s\r\n",
                               json_object_get_string_member(o, "name"));
    }
}

static void info_cpus(GString *out, JsonArray *a)
{
    guint i;

    for (i = 0; i < json_array_get_length(a); i++) {
        JsonObject *c = json_array_get_object_element(a, i);

        /* The monitor's current CPU is the first one */
        g_string_append_printf(out, "%c CPU #%" G_GINT64_FORMAT ": "
                               "thread_id=%" G_GINT64_FORMAT "\r\n",
                               i ? ' ' : '*',
                               json_object_get_int_member(c, "cpu-index"),
                               json_object_get_int_member(c, "thread-id"));
    }
}

/* Each possible vCPU, its ids in QEMU 7.2's fixed order */
static void info_hotpluggable_cpus(GString *out, JsonArray *a)
{
    static const char *const ids[] = {
        "node-id", "socket-id", "die-id", "core-id", "thread-id",
    };
    guint i;
    size_t k;

    g_string_append(out, "Hotpluggable CPUs:\r\n");
    for (i = 0; i < json_array_get_length(a); i++) {
        JsonObject *c = json_array_get_object_element(a, i);
        JsonObject *props = json_object_get_object_member(c, "props");

        g_string_append_printf(out, "  type: \"%s\"\r\n",
                               json_object_get_string_member(c, "type"));
        g_string_append_printf(out, "  vcpus_count: \"%" G_GINT64_FORMAT
                               "\"\r\n",
                               json_object_get_int_member(c, "vcpus-count"));
        if (json_object_has_member(c, "qom-path")) {
            g_string_append_printf(
                out, "  qom_path: \"%s\"\r\n",
                json_object_get_string_member(c, "qom-path"));
        }
        g_string_append(out, "  CPUInstance Properties:\r\n");
        for (k = 0; k < G_N_ELEMENTS(ids); k++) {
            if (json_object_has_member(props, ids[k])) {
                g_string_append_printf(
                    out, "    %s: \"%" G_GINT64_FORMAT "\"\r\n", ids[k],
                    json_object_get_int_member(props, ids[k]));
            }
        }
    }
}

static void info_chardev(GString *out, JsonArray *a)
{
    guint i;

    for (i = 0; i < json_array_get_length(a); i++) {
        JsonObject *c = json_array_get_object_element(a, i);

        g_string_append_printf(out, "%s: filename=%s\r\n",
                               json_object_get_string_member(c, "label"),
                               json_object_get_string_member(c, "filename"));
    }
}

static void info_iothreads(GString *out, JsonArray *a)
{
    /* QEMU's labels: thread_id, then the QMP names */
    static const char *const keys[][2] = {
        { "thread_id", "thread-id" }, { "poll-max-ns", "poll-max-ns" },
        { "poll-grow", "poll-grow" }, { "poll-shrink", "poll-shrink" },
        { "aio-max-batch", "aio-max-batch" },
    };
    guint i, k;

    for (i = 0; i < json_array_get_length(a); i++) {
        JsonObject *t = json_array_get_object_element(a, i);

        g_string_append_printf(out, "%s:\r\n",
                               json_object_get_string_member(t, "id"));
        for (k = 0; k < G_N_ELEMENTS(keys); k++) {
            g_string_append_printf(out, "  %s=%" G_GINT64_FORMAT "\r\n",
                                   keys[k][0],
                                   json_object_get_int_member(t, keys[k][1]));
        }
    }
}

/* Appends text (lines ending in \n) with the monitor's CRLF line ends */
static void hmp_puts(GString *out, char *text)
{
    const char *p;

    for (p = text; *p; p++) {
        if (*p == '\n') {
            g_string_append_c(out, '\r');
        }
        g_string_append_c(out, *p);
    }
    g_free(text);
}

static void info_numa(GString *out)
{
    if (current_machine) {
        hmp_puts(out, numa_info_text(current_machine));
    }
}

/* info mtree [-f] [-o] [-D] */
static void info_mtree(GString *out, const char *what, char **args)
{
    bool flat = false, owner = false, disabled = false;
    int i;

    for (i = 0; args[i]; i++) {
        if (args[i][0] != '-') {
            g_string_append_printf(out, "%s: extraneous characters at the end"
                                   " of line\r\nTry \"help info %s\" for more "
                                   "information\r\n", what, what);
            return;
        }
        if (!strcmp(args[i], "-f")) {
            flat = true;
        } else if (!strcmp(args[i], "-o")) {
            owner = true;
        } else if (!strcmp(args[i], "-D")) {
            disabled = true;
        } else {
            g_string_append_printf(out, "%s: unsupported option %s\r\nTry "
                                   "\"help info %s\" for more information\r\n",
                                   what, args[i], what);
            return;
        }
    }
    hmp_puts(out, mtree_info_text(flat, owner, disabled));
}

/* info qtree: the device tree from the main system bus (QEMU's layout) */
static void info_qtree(GString *out, const char *what, char **args)
{
    GString *t;

    if (args[0]) {
        g_string_append_printf(out, "%s: extraneous characters at the end "
                               "of line\r\nTry \"help info %s\" for more "
                               "information\r\n", what, what);
        return;
    }
    t = g_string_new(NULL);
    qdev_print_tree(t);
    hmp_puts(out, g_string_free(t, FALSE));
}

static gint qom_child_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp((*(Object *const *)a)->name, (*(Object *const *)b)->name);
}

/* "/name (type)", children sorted by name, two more spaces per level */
static void print_qom_composition(GString *out, Object *obj, int indent)
{
    GPtrArray *kids = g_ptr_array_new();
    guint i;

    g_string_append_printf(out, "%*s/%s (%s)\r\n", indent, "",
                           obj == object_get_root() ? "" : obj->name,
                           object_get_typename(obj));
    for (i = 0; i < obj->children->len; i++) {
        g_ptr_array_add(kids, g_ptr_array_index(obj->children, i));
    }
    g_ptr_array_sort(kids, qom_child_cmp);
    for (i = 0; i < kids->len; i++) {
        print_qom_composition(out, g_ptr_array_index(kids, i), indent + 2);
    }
    g_ptr_array_free(kids, TRUE);
}

/* info qom-tree [path]: /machine by default */
static void info_qom_tree(GString *out, const char *what, char **args)
{
    const char *path = args[0] ? args[0] : "/machine";
    Object *obj;

    if (args[0] && args[1]) {
        g_string_append_printf(out, "%s: extraneous characters at the end "
                               "of line\r\nTry \"help info %s\" for more "
                               "information\r\n", what, what);
        return;
    }
    obj = qom_resolve_path(path);
    if (!obj) {
        g_string_append_printf(out, "Path '%s' could not be resolved.\r\n",
                               path);
        return;
    }
    print_qom_composition(out, obj, 0);
}

static const struct {
    const char *name, *qmp, *help;
    void (*obj)(GString *out, JsonObject *o);
    void (*arr)(GString *out, JsonArray *a);
    void (*text)(GString *out);     /* no QMP command: QEMU's text */
    /* HMP-only commands with arguments: the words after the name */
    void (*hmp)(GString *out, const char *what, char **args);
} info_cmds[] = {
    { "chardev", "query-chardev", "the character devices", NULL,
      info_chardev },
    { "cpus", "query-cpus-fast", "each vCPU and its thread", NULL,
      info_cpus },
    { "hotpluggable-cpus", "query-hotpluggable-cpus", "the possible vCPUs "
      "and their slots", NULL, info_hotpluggable_cpus },
    { "iothreads", "query-iothreads", "the iothread objects", NULL,
      info_iothreads },
    { "kvm", "query-kvm", "whether KVM runs the guest", info_kvm, NULL },
    { "mtree", NULL, "the memory tree (-f: the flat views; -o: owners; "
      "-D: disabled regions too)", NULL, NULL, NULL, info_mtree },
    { "name", "query-name", "the VM's name (-name)", info_name, NULL },
    { "network", NULL, "the network backends and their peers", NULL, NULL,
      hmp_info_network },
    { "numa", NULL, "the NUMA nodes: their vCPUs and memory", NULL, NULL,
      info_numa },
    { "pci", "query-pci", "the PCI buses and their functions", NULL,
      hmp_info_pci },
    { "qom-tree", NULL, "the QOM composition tree ([path], default "
      "/machine)", NULL, NULL, NULL, info_qom_tree },
    { "qtree", NULL, "the device tree", NULL, NULL, NULL, info_qtree },
    { "status", "query-status", "whether the VM runs", info_status, NULL },
    { "usernet", NULL, "the user-mode networks' connections", NULL, NULL,
      hmp_info_usernet },
    { "version", "query-version", "the emulator's version", info_version,
      NULL },
};

static void hmp_info(GString *out, const char *arg)
{
    char **words = g_strsplit_set(arg, " \t", -1);
    GPtrArray *args = g_ptr_array_new();
    const char *what = NULL, *extra = NULL;
    size_t i;
    int w;

    for (w = 0; words[w]; w++) {
        if (!*words[w]) {
            continue;
        }
        if (!what) {
            what = words[w];
        } else {
            extra = extra ? extra : words[w];
            g_ptr_array_add(args, words[w]);
        }
    }
    g_ptr_array_add(args, NULL);
    if (!what) {
        for (i = 0; i < G_N_ELEMENTS(info_cmds); i++) {
            g_string_append_printf(out, "info %s  -- show %s\r\n",
                                   info_cmds[i].name, info_cmds[i].help);
        }
        goto out;
    }
    for (i = 0; i < G_N_ELEMENTS(info_cmds); i++) {
        JsonNode *n;

        if (strcmp(what, info_cmds[i].name)) {
            continue;
        }
        if (info_cmds[i].hmp) {
            info_cmds[i].hmp(out, what, (char **)args->pdata);
            goto out;
        }
        if (extra) {
            g_string_append_printf(out, "%s: extraneous characters at the end "
                                   "of line\r\nTry \"help info %s\" for more "
                                   "information\r\n", what, what);
            goto out;
        }
        if (info_cmds[i].text) {
            info_cmds[i].text(out);
            goto out;
        }
        n = qmp_call(out, info_cmds[i].qmp);
        if (n && info_cmds[i].obj) {
            info_cmds[i].obj(out, json_node_get_object(n));
        } else if (n) {
            info_cmds[i].arr(out, json_node_get_array(n));
        }
        if (n) {
            json_node_unref(n);
        }
        goto out;
    }
    g_string_append_printf(out, "unknown command: 'info %s'\r\n", what);
out:
    g_ptr_array_free(args, TRUE);
    g_strfreev(words);
}

static void hmp_help(GString *out, const char *arg);

/* device_add driver[,prop=value][,...]: as -device, hot-plugged */
static void hmp_device_add(GString *out, const char *arg)
{
    hmp_puts(out, hmp_device_add_text(arg));
}

/* device_del device: an id or a QOM path, as QMP device_del */
static void hmp_device_del(GString *out, const char *arg)
{
    QmpArgsDeviceDel args = { .id = arg };
    Error *err = NULL;
    JsonNode *n;

    if (!*arg) {
        g_string_append(out, "device_del: string expected\r\nTry \"help "
                        "device_del\" for more information\r\n");
        return;
    }
    n = qmp_device_del(&args, &err);
    if (n) {
        json_node_unref(n);
    } else {
        g_string_append_printf(out, "Error: %s\r\n", error_get_pretty(err));
        error_free(err);
    }
}

static const HMPCommand hmp_cmds[] = {
    { "cont|c", "", "resume the VM", NULL, "cont" },
    { "device_add", "driver[,prop=value][,...]", "add device, like -device "
      "on the command line", hmp_device_add },
    { "device_del", "device", "remove device", hmp_device_del },
    { "help|?", "[cmd]", "list the commands, or show one", hmp_help },
    { "info", "[subcommand]", "show information ('info' lists what)",
      hmp_info },
    { "quit|q", "", "end the emulator", NULL, "quit" },
    { "stop|s", "", "pause the VM", NULL, "stop" },
    { "system_powerdown", "", "press the ACPI power button", NULL,
      "system_powerdown" },
    { "system_reset", "", "reset the machine", NULL, "system_reset" },
};

static const HMPCommand *hmp_find(const char *name)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(hmp_cmds); i++) {
        char **names = g_strsplit(hmp_cmds[i].names, "|", -1);
        bool found = g_strv_contains((const char *const *)names, name);

        g_strfreev(names);
        if (found) {
            return &hmp_cmds[i];
        }
    }
    return NULL;
}

static void help_line(GString *out, const HMPCommand *c)
{
    g_string_append_printf(out, "%s %s -- %s\r\n", c->names, c->args,
                           c->help);
}

static void hmp_help(GString *out, const char *arg)
{
    const HMPCommand *c;
    size_t i;

    if (!*arg) {
        for (i = 0; i < G_N_ELEMENTS(hmp_cmds); i++) {
            help_line(out, &hmp_cmds[i]);
        }
        return;
    }
    if (g_str_has_prefix(arg, "info")) {
        hmp_info(out, "");
        return;
    }
    c = hmp_find(arg);
    if (c) {
        help_line(out, c);
    } else {
        g_string_append_printf(out, "unknown command: '%s'\r\n", arg);
    }
}

char *hmp_execute(const char *cmdline)
{
    GString *out = g_string_new(NULL);
    char *line = g_strstrip(g_strdup(cmdline));
    char *sp = line + strcspn(line, " \t");
    const HMPCommand *c;
    char *arg;

    if (*line) {
        arg = *sp ? g_strstrip(g_strdup(sp + 1)) : g_strdup("");
        *sp = 0;
        c = hmp_find(line);
        if (!c) {
            g_string_append_printf(out, "unknown command: '%s'\r\n", line);
        } else if (!c->fn && *arg) {
            g_string_append_printf(out, "%s: extraneous characters at the "
                                   "end of line\r\n", line);
        } else if (c->fn) {
            c->fn(out, arg);
        } else {
            hmp_action(out, c->qmp);
        }
        g_free(arg);
    }
    g_free(line);
    return g_string_free(out, FALSE);
}

/* Sessions: line editing and the prompt, output through a callback ------ */

struct HMPSession {
    HMPWriteFunc *write;
    void *opaque;
    GString *line;
};

HMPSession *hmp_session_new(HMPWriteFunc *write, void *opaque)
{
    HMPSession *m = g_new0(HMPSession, 1);

    m->write = write;
    m->opaque = opaque;
    m->line = g_string_new(NULL);
    return m;
}

static void hmp_print(HMPSession *m, const char *s)
{
    m->write(m->opaque, s);
}

void hmp_session_banner(HMPSession *m)
{
    GString *banner = g_string_new(NULL);
    JsonNode *v = qmp_call(banner, "query-version");
    JsonObject *q = json_object_get_object_member(json_node_get_object(v),
                                                  "qemu");

    g_string_truncate(m->line, 0);
    g_string_printf(banner, "QEMU %" G_GINT64_FORMAT ".%" G_GINT64_FORMAT
                    ".%" G_GINT64_FORMAT " monitor - type 'help' for more "
                    "information\r\n(qemu) ",
                    json_object_get_int_member(q, "major"),
                    json_object_get_int_member(q, "minor"),
                    json_object_get_int_member(q, "micro"));
    json_node_unref(v);
    hmp_print(m, banner->str);
    g_string_free(banner, TRUE);
}

void hmp_session_input(HMPSession *m, const uint8_t *buf, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        char c = buf[i];

        if (c == '\r' || c == '\n') {
            char *out;

            if (c == '\n' && i > 0 && buf[i - 1] == '\r') {
                continue;
            }
            hmp_print(m, "\r\n");
            out = hmp_execute(m->line->str);
            g_string_truncate(m->line, 0);
            hmp_print(m, out);
            g_free(out);
            hmp_print(m, "(qemu) ");
        } else if (c == 0x7f || c == '\b') {
            if (m->line->len) {
                g_string_truncate(m->line, m->line->len - 1);
                hmp_print(m, "\b \b");
            }
        } else if ((unsigned char)c >= 0x20 && m->line->len < 4096) {
            char echo[2] = { c, 0 };

            g_string_append_c(m->line, c);
            hmp_print(m, echo);
        }
    }
}

/* The monitor on a chardev ---------------------------------------------- */

static void chr_write_str(void *opaque, const char *s)
{
    qemu_chr_write_all(opaque, (const uint8_t *)s, strlen(s));
}

static void hmp_event(void *opaque, ChardevEvent event)
{
    if (event == CHR_EVENT_OPENED) {
        hmp_session_banner(opaque);
    }
}

static void hmp_read(void *opaque, const uint8_t *buf, size_t len)
{
    hmp_session_input(opaque, buf, len);
}

bool monitor_init_hmp(Chardev *chr, Error **errp)
{
    HMPSession *m = hmp_session_new(chr_write_str, chr);
    ChardevHandlers h = {
        .read = hmp_read, .event = hmp_event, .opaque = m,
    };

    if (!qemu_chr_set_handlers(chr, &h, errp)) {
        g_string_free(m->line, TRUE);
        g_free(m);
        return false;
    }
    return true;
}

JsonNode *qmp_human_monitor_command(const QmpArgsHumanMonitorCommand *args,
                                    Error **errp)
{
    MachineState *ms = current_machine;
    char *out;
    JsonNode *n;

    /*
     * cpu-index picks the CPU that CPU-specific commands act on; none of
     * this monitor's commands is, but an index naming no CPU is refused as
     * QEMU 7.2 refuses it
     */
    if (args->has_cpu_index &&
        (!ms || !ms->cpus || args->cpu_index < 0 ||
         args->cpu_index >= ms->cpus->len)) {
        error_setg(errp, "Parameter 'cpu-index' expects a CPU number");
        return NULL;
    }
    out = hmp_execute(args->command_line);
    n = json_node_init_string(json_node_alloc(), out);
    g_free(out);
    return n;
}

bool qemu_monitor_add(const char *spec, Error **errp)
{
    char *opts, *id;
    Chardev *chr;
    bool ok;

    if (!strcmp(spec, "none")) {
        return true;
    }
    opts = qemu_chr_legacy_to_opts(spec);
    if (!opts) {
        error_setg(errp, "'%s' is not a valid char driver", spec);
        return false;
    }
    id = qemu_monitor_compat_id();
    chr = qemu_chr_new_from_str(id, opts, errp);
    ok = chr && monitor_init_hmp(chr, errp);
    g_free(id);
    g_free(opts);
    return ok;
}
