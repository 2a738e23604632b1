/*
 * QMP server.
 *
 * Protocol (QEMU's, docs/interop/qmp-spec in upstream's terms):
 *  - On connect the server sends a greeting:
 *      {"QMP": {"version": {...query-version...}, "capabilities": ["oob"]}}
 *  - The client sends JSON objects {"execute": NAME, "arguments": {...},
 *    "id": ANY}; until it sends "qmp_capabilities" every other command
 *    fails with CommandNotFound.
 *  - Each command gets exactly one reply, {"return": VALUE, "id": ID} or
 *    {"error": {"class": CLASS, "desc": TEXT}, "id": ID}.
 *  - Events arrive at any time: {"event": NAME, "data": {...},
 *    "timestamp": {"seconds": S, "microseconds": US}}.
 *  - Every line the server writes ends in CRLF (libvirt splits on it).
 * Commands are dispatched through the table qmp_commands[] in
 * monitor/qmp-cmds.c.  Malformed input gets a GenericError and the
 * connection lives on; input is bounded so a client cannot exhaust memory.
 */
#include <string.h>
#include <sys/time.h>

#include "chardev/char.h"
#include "monitor/qmp.h"
#include "qemu/option.h"

#define QMP_MAX_INPUT (16 * 1024 * 1024)
#define QMP_MAX_NESTING 1024

typedef struct Monitor {
    Chardev *chr;
    bool commands_enabled;  /* after qmp_capabilities */
    GString *buf;           /* bytes of the value being read */
    int depth;
    bool in_string, escape, in_scalar;
    bool discarding;        /* skipping an oversized value */
} Monitor;

static GPtrArray *monitors;

static void monitor_send(Monitor *mon, JsonObject *obj)
{
    JsonNode *root = json_node_init_object(json_node_alloc(), obj);
    char *text = json_to_string(root, FALSE);
    GString *line = g_string_new(text);

    g_string_append(line, "\r\n");
    if (qemu_chr_is_connected(mon->chr)) {
        qemu_chr_write_all(mon->chr, (const uint8_t *)line->str, line->len);
    }
    g_string_free(line, TRUE);
    g_free(text);
    json_node_unref(root);
}

static JsonObject *qmp_error_object(ErrorClass cls, const char *desc)
{
    JsonObject *err = json_object_new(), *o = json_object_new();

    json_object_set_string_member(err, "class", error_class_name(cls));
    json_object_set_string_member(err, "desc", desc);
    json_object_set_object_member(o, "error", err);
    return o;
}

static void monitor_send_error(Monitor *mon, ErrorClass cls, const char *desc,
                               JsonNode *id)
{
    JsonObject *o = qmp_error_object(cls, desc);

    if (id) {
        json_object_set_member(o, "id", json_node_copy(id));
    }
    monitor_send(mon, o);
}

JsonNode *qmp_empty_return(void)
{
    return json_node_init_object(json_node_alloc(), json_object_new());
}

void qmp_event_send(const char *event, JsonNode *data)
{
    struct timeval tv;
    guint i;

    gettimeofday(&tv, NULL);
    for (i = 0; monitors && i < monitors->len; i++) {
        Monitor *mon = g_ptr_array_index(monitors, i);
        JsonObject *o, *ts;

        if (!mon->commands_enabled || !qemu_chr_is_connected(mon->chr)) {
            continue;
        }
        o = json_object_new();
        ts = json_object_new();
        json_object_set_int_member(ts, "seconds", tv.tv_sec);
        json_object_set_int_member(ts, "microseconds", tv.tv_usec);
        json_object_set_object_member(o, "timestamp", ts);
        json_object_set_string_member(o, "event", event);
        if (data) {
            json_object_set_member(o, "data", json_node_copy(data));
        }
        monitor_send(mon, o);
    }
    if (data) {
        json_node_unref(data);
    }
}

static const QmpCommand *qmp_find_command(const char *name)
{
    const QmpCommand *c;

    for (c = qmp_commands; c->name; c++) {
        if (!strcmp(c->name, name)) {
            return c;
        }
    }
    return NULL;
}

/* Rejects arguments the command does not take, as QEMU's QAPI does */
static bool qmp_check_args(const QmpCommand *cmd, JsonObject *args,
                          Error **errp)
{
    char **allowed = g_strsplit(cmd->args ? cmd->args : "", " ", -1);
    GList *members = json_object_get_members(args), *l;
    bool ok = true;

    for (l = members; l && ok; l = l->next) {
        if (!g_strv_contains((const char *const *)allowed, l->data)) {
            error_setg(errp, "Parameter '%s' is unexpected",
                       (const char *)l->data);
            ok = false;
        }
    }
    g_list_free(members);
    g_strfreev(allowed);
    return ok;
}

/* Handles one complete top-level JSON value. */
static void monitor_handle_request(Monitor *mon, const char *text)
{
    JsonParser *parser = json_parser_new();
    GError *gerr = NULL;
    JsonNode *root, *id = NULL, *exec, *args_node;
    JsonObject *req, *args, *reply;
    const QmpCommand *cmd;
    GList *members, *l;
    Error *err = NULL;
    JsonNode *ret;
    const char *name;

    if (!json_parser_load_from_data(parser, text, -1, &gerr)) {
        char *desc = g_strdup_printf("JSON parse error, %s", gerr->message);
        monitor_send_error(mon, ERROR_CLASS_GENERIC_ERROR, desc, NULL);
        g_free(desc);
        g_error_free(gerr);
        goto out;
    }
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        monitor_send_error(mon, ERROR_CLASS_GENERIC_ERROR,
                           "QMP input must be a JSON object", NULL);
        goto out;
    }
    req = json_node_get_object(root);
    id = json_object_get_member(req, "id");
    members = json_object_get_members(req);
    for (l = members; l; l = l->next) {
        const char *m = l->data;
        if (strcmp(m, "execute") && strcmp(m, "arguments") &&
            strcmp(m, "id") && strcmp(m, "exec-oob")) {
            char *desc = g_strdup_printf("QMP input member '%s' is unexpected",
                                         m);
            monitor_send_error(mon, ERROR_CLASS_GENERIC_ERROR, desc, id);
            g_free(desc);
            g_list_free(members);
            goto out;
        }
    }
    g_list_free(members);
    exec = json_object_get_member(req, "execute");
    if (!exec) {
        monitor_send_error(mon, ERROR_CLASS_GENERIC_ERROR,
                           json_object_has_member(req, "exec-oob")
                               ? "Out-of-band commands are not supported"
                               : "QMP input lacks member 'execute'",
                           id);
        goto out;
    }
    if (!JSON_NODE_HOLDS_VALUE(exec) ||
        json_node_get_value_type(exec) != G_TYPE_STRING) {
        monitor_send_error(mon, ERROR_CLASS_GENERIC_ERROR,
                           "QMP input member 'execute' must be a string", id);
        goto out;
    }
    name = json_node_get_string(exec);
    args_node = json_object_get_member(req, "arguments");
    if (args_node && !JSON_NODE_HOLDS_OBJECT(args_node)) {
        monitor_send_error(mon, ERROR_CLASS_GENERIC_ERROR,
                           "QMP input member 'arguments' must be an object",
                           id);
        goto out;
    }
    cmd = qmp_find_command(name);
    if (!mon->commands_enabled && strcmp(name, "qmp_capabilities")) {
        monitor_send_error(mon, ERROR_CLASS_COMMAND_NOT_FOUND,
                           "Expecting capabilities negotiation with "
                           "'qmp_capabilities'", id);
        goto out;
    }
    if (mon->commands_enabled && !strcmp(name, "qmp_capabilities")) {
        monitor_send_error(mon, ERROR_CLASS_COMMAND_NOT_FOUND,
                           "Capabilities negotiation is already complete, "
                           "command ignored", id);
        goto out;
    }
    if (!cmd) {
        char *desc = g_strdup_printf("The command %s has not been found", name);
        monitor_send_error(mon, ERROR_CLASS_COMMAND_NOT_FOUND, desc, id);
        g_free(desc);
        goto out;
    }
    args = args_node ? json_object_ref(json_node_get_object(args_node))
                     : json_object_new();
    if (!qmp_check_args(cmd, args, &err)) {
        json_object_unref(args);
        monitor_send_error(mon, error_get_class(err), error_get_pretty(err),
                           id);
        error_free(err);
        goto out;
    }
    ret = cmd->fn(args, &err);
    json_object_unref(args);
    if (!ret) {
        if (!err) {
            error_setg(&err, "command '%s' failed", name);
        }
        monitor_send_error(mon, error_get_class(err), error_get_pretty(err),
                           id);
        error_free(err);
        goto out;
    }
    if (!strcmp(name, "qmp_capabilities")) {
        mon->commands_enabled = true;
    }
    reply = json_object_new();
    json_object_set_member(reply, "return", ret);
    if (id) {
        json_object_set_member(reply, "id", json_node_copy(id));
    }
    monitor_send(mon, reply);
out:
    g_object_unref(parser);
}

static void monitor_reset_reader(Monitor *mon)
{
    g_string_truncate(mon->buf, 0);
    mon->depth = 0;
    mon->in_string = mon->escape = mon->in_scalar = false;
}

/*
 * Splits the byte stream into top-level JSON values: objects and arrays by
 * bracket depth (outside strings), anything else up to whitespace.
 */
static void monitor_read(void *opaque, const uint8_t *data, size_t len)
{
    Monitor *mon = opaque;
    size_t i;

    for (i = 0; i < len; i++) {
        char c = data[i];
        bool complete = false;

        if (mon->discarding) {
            /* Resynchronise at the next line end */
            if (c == '\n') {
                mon->discarding = false;
            }
            continue;
        }
        if (!mon->buf->len && !mon->in_scalar) {
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                continue;
            }
        }
        if (mon->in_scalar && (c == ' ' || c == '\t' || c == '\r' ||
                               c == '\n')) {
            complete = true;
        } else {
            g_string_append_c(mon->buf, c);
            if (mon->in_string) {
                if (mon->escape) {
                    mon->escape = false;
                } else if (c == '\\') {
                    mon->escape = true;
                } else if (c == '"') {
                    mon->in_string = false;
                }
            } else if (c == '"') {
                mon->in_string = true;
                if (mon->buf->len == 1) {
                    mon->in_scalar = true;
                }
            } else if (c == '{' || c == '[') {
                mon->depth++;
            } else if (c == '}' || c == ']') {
                mon->depth--;
                if (mon->depth <= 0 && !mon->in_scalar) {
                    complete = true;
                }
            } else if (mon->buf->len == 1) {
                mon->in_scalar = true;
            }
        }
        if (mon->depth > QMP_MAX_NESTING || mon->buf->len > QMP_MAX_INPUT) {
            monitor_send_error(mon, ERROR_CLASS_GENERIC_ERROR,
                               mon->depth > QMP_MAX_NESTING
                                   ? "JSON parse error, nesting too deep"
                                   : "JSON parse error, input too big",
                               NULL);
            monitor_reset_reader(mon);
            mon->discarding = true;
            continue;
        }
        if (complete) {
            char *text = g_strdup(mon->buf->str);
            monitor_reset_reader(mon);
            monitor_handle_request(mon, text);
            g_free(text);
        }
    }
}

static void monitor_event(void *opaque, ChardevEvent event)
{
    Monitor *mon = opaque;

    if (event == CHR_EVENT_OPENED) {
        JsonObject *greeting = json_object_new(), *qmp = json_object_new();
        JsonArray *caps = json_array_new();
        const QmpCommand *v = qmp_find_command("query-version");
        JsonNode *version = v->fn(NULL, NULL);

        mon->commands_enabled = false;
        monitor_reset_reader(mon);
        mon->discarding = false;
        json_object_set_member(qmp, "version", version);
        json_array_add_string_element(caps, "oob");
        json_object_set_array_member(qmp, "capabilities", caps);
        json_object_set_object_member(greeting, "QMP", qmp);
        monitor_send(mon, greeting);
    } else {
        mon->commands_enabled = false;
        monitor_reset_reader(mon);
    }
}

static bool monitor_init_qmp(Chardev *chr, Error **errp)
{
    Monitor *mon = g_new0(Monitor, 1);
    ChardevHandlers h = {
        .read = monitor_read,
        .event = monitor_event,
        .opaque = mon,
    };

    mon->chr = chr;
    mon->buf = g_string_new(NULL);
    if (!monitors) {
        monitors = g_ptr_array_new();
    }
    g_ptr_array_add(monitors, mon);
    if (!qemu_chr_set_handlers(chr, &h, errp)) {
        g_ptr_array_remove(monitors, mon);
        g_string_free(mon->buf, TRUE);
        g_free(mon);
        return false;
    }
    return true;
}

bool qemu_mon_add(const char *optarg, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "chardev", errp);
    const char *id, *mode;
    Chardev *chr;
    bool ok = false;

    if (!opts) {
        return false;
    }
    id = qemu_opt_get(opts, "chardev");
    mode = qemu_opt_get(opts, "mode");
    qemu_opt_get(opts, "id");
    qemu_opt_get(opts, "pretty");
    if (!id) {
        error_setg(errp, "Parameter 'chardev' is missing");
    } else if (mode && strcmp(mode, "control")) {
        error_setg(errp, "monitor mode '%s' is not supported by this build "
                   "(only mode=control, QMP)", mode);
    } else if (!(chr = qemu_chr_find(id))) {
        error_setg(errp, "chardev \"%s\" not found", id);
    } else {
        ok = monitor_init_qmp(chr, errp);
    }
    qemu_opts_free(opts);
    return ok;
}

bool qemu_qmp_add(const char *optarg, Error **errp)
{
    static int count;
    char *id = g_strdup_printf("compat_monitor%d", count++);
    char *opts = NULL;
    Chardev *chr;
    bool ok;

    if (g_str_has_prefix(optarg, "unix:")) {
        opts = g_strdup_printf("socket,path=%s", optarg + 5);
    } else if (!strcmp(optarg, "stdio")) {
        opts = g_strdup("stdio");
    } else {
        error_setg(errp, "parse error: %s", optarg);
        g_free(id);
        return false;
    }
    chr = qemu_chr_new_from_str(id, opts, errp);
    ok = chr && monitor_init_qmp(chr, errp);
    g_free(opts);
    g_free(id);
    return ok;
}

/* Argument helpers with QEMU's texts ---------------------------------------- */

const char *qmp_arg_str(JsonObject *args, const char *name, bool required,
                        Error **errp)
{
    JsonNode *n = args ? json_object_get_member(args, name) : NULL;

    if (!n) {
        if (required) {
            error_setg(errp, "Parameter '%s' is missing", name);
        }
        return NULL;
    }
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) {
        error_setg(errp, "Invalid parameter type for '%s', expected: string",
                   name);
        return NULL;
    }
    return json_node_get_string(n);
}

bool qmp_arg_bool(JsonObject *args, const char *name, bool defval, bool *out,
                  Error **errp)
{
    JsonNode *n = args ? json_object_get_member(args, name) : NULL;

    *out = defval;
    if (!n) {
        return true;
    }
    if (!JSON_NODE_HOLDS_VALUE(n) ||
        json_node_get_value_type(n) != G_TYPE_BOOLEAN) {
        error_setg(errp, "Invalid parameter type for '%s', expected: boolean",
                   name);
        return false;
    }
    *out = json_node_get_boolean(n);
    return true;
}

bool qmp_arg_int(JsonObject *args, const char *name, bool required,
                 int64_t defval, int64_t *out, Error **errp)
{
    JsonNode *n = args ? json_object_get_member(args, name) : NULL;

    *out = defval;
    if (!n) {
        if (required) {
            error_setg(errp, "Parameter '%s' is missing", name);
            return false;
        }
        return true;
    }
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64) {
        error_setg(errp, "Invalid parameter type for '%s', expected: integer",
                   name);
        return false;
    }
    *out = json_node_get_int(n);
    return true;
}

JsonObject *qmp_arg_object(JsonObject *args, const char *name, bool required,
                           Error **errp)
{
    JsonNode *n = args ? json_object_get_member(args, name) : NULL;

    if (!n) {
        if (required) {
            error_setg(errp, "Parameter '%s' is missing", name);
        }
        return NULL;
    }
    if (!JSON_NODE_HOLDS_OBJECT(n)) {
        error_setg(errp, "Invalid parameter type for '%s', expected: object",
                   name);
        return NULL;
    }
    return json_node_get_object(n);
}
