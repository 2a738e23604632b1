/*
 * QMP server: QEMU's JSON monitor protocol on a chardev.
 *
 * Protocols are specified where they are implemented; this is QMP's.
 *
 *  - Framing: a byte stream of JSON values (QEMU's dialect: single-quoted
 *    strings allowed).  Values are delimited by balanced brackets, not by
 *    newlines: several may come in one read, one may span many reads.
 *    Every line the server writes, greeting included, ends in CRLF
 *    (libvirt splits on CRLF only).  Output is compact JSON with QEMU's
 *    spacing, non-ASCII as \uXXXX.
 *  - Greeting, when a client connects:
 *      {"QMP": {"version": <query-version>, "capabilities": ["oob"]}}
 *  - Negotiation: until {"execute": "qmp_capabilities"} succeeds, every
 *    other command fails with CommandNotFound "Expecting capabilities
 *    negotiation with 'qmp_capabilities'"; afterwards qmp_capabilities
 *    itself fails with CommandNotFound "Capabilities negotiation is already
 *    complete, command ignored".  Each connection negotiates anew.
 *  - Request: {"execute": NAME, "arguments": {...}, "id": ANY}; "arguments"
 *    and "id" are optional, any other member is an error.
 *  - Reply, exactly one per request, in order:
 *      {"return": VALUE, "id": ID}  or
 *      {"id": ID, "error": {"class": CLASS, "desc": TEXT}}
 *    ("id" only if the request had one, echoed verbatim).  CLASS is
 *    GenericError, CommandNotFound, DeviceNotFound or KVMMissingCap.
 *  - Events, after negotiation, at any time (STOP, RESUME, SHUTDOWN, RESET,
 *    POWERDOWN):
 *      {"timestamp": {"seconds": S, "microseconds": US}, "event": NAME,
 *       "data": {...}}
 *  - Bad input (malformed JSON, a non-object, missing or ill-typed members,
 *    an unknown command) gets a GenericError or CommandNotFound reply and
 *    the connection lives on.  A value deeper than 1024 levels, of more
 *    than 512Ki tokens or 16 MiB is refused with one error
 *    (monitor/json-parser.h).  A client may vanish at any point; the next
 *    one gets a fresh greeting.
 *
 * The commands, their arguments and results are declared in
 * qapi/schema.json; scripts/qapi-gen.py makes the table qmp_commands[] and
 * the descriptors that qapi/qapi-visit.c checks arguments against (with
 * QEMU 7.2's texts) before a handler runs.
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "monitor/hmp.h"
#include <sys/time.h>

#include "chardev/char.h"
#include "monitor/fds.h"
#include "monitor/json-parser.h"
#include "hw/qdev-core.h"
#include "monitor/qmp.h"
#include "monitor/qmp-commands.h"
#include "qapi/qapi-visit.h"
#include "qemu/option.h"
#include "sysemu/sysemu.h"

typedef struct Monitor {
    Chardev *chr;
    bool pretty;            /* -mon pretty=on, -qmp-pretty */
    /* Under the chardev's lock (qemu_chr_lock), which its handlers hold: */
    bool commands_enabled;  /* after qmp_capabilities */
    bool oob_enabled;       /* it enabled "oob": exec-oob is accepted */
    unsigned generation;    /* one per connection: replies go to their own */
    unsigned queued;        /* its in-band requests the main thread has */
    bool counted;           /* a client counted by fdset_monitor_opened() */
    /* I/O thread only: */
    JsonStream *stream;
    /* Main thread only: */
    GHashTable *named_fds;  /* getfd: name -> fd */
} Monitor;

static GPtrArray *monitors;
/* The monitor whose command is running (fds come with its request) */
static Monitor *cur_mon;

int monitor_cur_take_msgfd(void)
{
    return cur_mon ? qemu_chr_take_msgfd(cur_mon->chr) : -1;
}

static void close_fd_value(gpointer fd)
{
    close(GPOINTER_TO_INT(fd));
}

GHashTable *monitor_cur_named_fds(void)
{
    if (cur_mon && !cur_mon->named_fds) {
        cur_mon->named_fds = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                   g_free, close_fd_value);
    }
    return cur_mon ? cur_mon->named_fds : NULL;
}

/* Writes one message; takes ownership of obj. */
static void monitor_send(Monitor *mon, JsonObject *obj)
{
    JsonNode *root = json_node_init_object(json_node_alloc(), obj);
    GString *line = g_string_new(NULL);

    if (mon->pretty) {
        /* Every line ends in CRLF, as the monitor writes them */
        GString *text = g_string_new(NULL);
        char **lines;

        qmp_json_append_pretty(text, root);
        lines = g_strsplit(text->str, "\n", -1);
        g_string_free(text, TRUE);
        g_free(g_string_free(line, TRUE));
        line = g_string_new(NULL);
        for (char **l = lines; *l; l++) {
            g_string_append_printf(line, "%s\r\n", *l);
        }
        g_strfreev(lines);
    } else {
        qmp_json_append(line, root);
        g_string_append(line, "\r\n");
    }
    if (qemu_chr_is_connected(mon->chr)) {
        qemu_chr_write_all(mon->chr, (const uint8_t *)line->str, line->len);
    }
    g_string_free(line, TRUE);
    json_node_unref(root);
    json_object_unref(obj);
}

/* QEMU puts "id" before "error" (and after "return") */
static JsonObject *reply_error(ErrorClass cls, const char *desc, JsonNode *id)
{
    JsonObject *o = json_object_new(), *err = json_object_new();

    if (id) {
        json_object_set_member(o, "id", json_node_copy(id));
    }
    json_object_set_string_member(err, "class", error_class_name(cls));
    json_object_set_string_member(err, "desc", desc);
    json_object_set_object_member(o, "error", err);
    return o;
}

static JsonObject *reply_err(Error *err, JsonNode *id)
{
    JsonObject *o = reply_error(error_get_class(err), error_get_pretty(err),
                                id);

    error_free(err);
    return o;
}

JsonNode *qmp_empty_return(void)
{
    JsonObject *o = json_object_new();
    JsonNode *n = json_node_init_object(json_node_alloc(), o);

    json_object_unref(o);
    return n;
}

static QmpEventObserver *event_observer;

void qmp_event_set_observer(QmpEventObserver *fn)
{
    event_observer = fn;
}

void qmp_event_send(const char *event, JsonNode *data)
{
    struct timeval tv;
    guint i;

    if (event_observer) {
        event_observer(event, data);
    }
    gettimeofday(&tv, NULL);
    for (i = 0; monitors && i < monitors->len; i++) {
        Monitor *mon = g_ptr_array_index(monitors, i);
        JsonObject *o, *ts;

        qemu_chr_lock(mon->chr);
        if (!mon->commands_enabled || !qemu_chr_is_connected(mon->chr)) {
            qemu_chr_unlock(mon->chr);
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
        qemu_chr_unlock(mon->chr);
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

static bool is_string(JsonNode *n)
{
    return JSON_NODE_HOLDS_VALUE(n) &&
           json_node_get_value_type(n) == G_TYPE_STRING;
}

/*
 * Checks the request's envelope as QEMU 7.2 does; returns the command name
 * (*oob: it came as "exec-oob", which only a session that enabled the oob
 * capability may send) or NULL with *errp set.
 */
static const char *qmp_check_request(JsonObject *req, bool allow_oob,
                                     bool *oob, Error **errp)
{
    JsonObjectIter it;
    const char *name;
    JsonNode *member, *exec, *exec_oob;

    json_object_iter_init_ordered(&it, req);
    while (json_object_iter_next_ordered(&it, &name, &member)) {
        if (!strcmp(name, "execute")) {
            if (!is_string(member)) {
                error_setg(errp, "QMP input member 'execute' must be a "
                           "string");
                return NULL;
            }
        } else if (!strcmp(name, "exec-oob") && allow_oob) {
            if (!is_string(member)) {
                error_setg(errp, "QMP input member 'exec-oob' must be a "
                           "string");
                return NULL;
            }
        } else if (!strcmp(name, "arguments")) {
            if (!JSON_NODE_HOLDS_OBJECT(member)) {
                error_setg(errp, "QMP input member 'arguments' must be an "
                           "object");
                return NULL;
            }
        } else if (strcmp(name, "id")) {
            error_setg(errp, "QMP input member '%s' is unexpected", name);
            return NULL;
        }
    }
    exec = json_object_get_member(req, "execute");
    exec_oob = allow_oob ? json_object_get_member(req, "exec-oob") : NULL;
    if (exec && exec_oob) {
        error_setg(errp, "QMP input member 'execute' clashes with "
                   "'exec-oob'");
        return NULL;
    }
    if (!exec && !exec_oob) {
        error_setg(errp, "QMP input lacks member 'execute'");
        return NULL;
    }
    *oob = exec_oob != NULL;
    return json_node_get_string(exec ? exec : exec_oob);
}

unsigned qmp_contract_violations;

/*
 * Runs a command whose arguments have been checked.  The handler contract
 * (a result, or NULL with an error, never both or neither) is checked
 * here, once for every command: a broken handler is a bug of ours, which
 * must cost the client one reply, never the running VM.
 */
static JsonNode *qmp_run(const QmpCommand *cmd, JsonObject *args,
                         Error **errp)
{
    void *cargs = g_malloc0(cmd->args ? cmd->args->size : 1);
    Error *err = NULL;
    JsonNode *ret = NULL;

    if (cmd->flags & QMP_CMD_NO_GEN) {
        JsonObject *raw = args ? json_object_ref(args) : json_object_new();

        ret = cmd->fn(raw, &err);
        json_object_unref(raw);
    } else if (qapi_visit_struct(cmd->args, args, cargs, &err)) {
        ret = cmd->fn(cargs, &err);
    } else {
        goto out;
    }
    if (!ret == !err) {
        qmp_contract_violations++;
        error_report("QMP command '%s' %s", cmd->name,
                     ret ? "returned a result and an error"
                         : "failed without an error");
        if (ret) {
            json_node_unref(ret);
            ret = NULL;
        } else {
            error_setg(&err, "Internal error in command '%s'", cmd->name);
        }
    }
out:
    qapi_struct_free(cmd->args, cargs);
    g_free(cargs);
    error_propagate(errp, err);
    return ret;
}

JsonObject *qmp_dispatch(JsonObject *req, bool commands_enabled,
                         bool allow_oob)
{
    JsonNode *id = json_object_get_member(req, "id");
    JsonNode *args_node, *ret;
    const QmpCommand *cmd;
    JsonObject *args, *reply;
    Error *err = NULL;
    const char *name;
    bool oob = false;

    name = qmp_check_request(req, allow_oob, &oob, &err);
    if (!name) {
        return reply_err(err, id);
    }
    if (!commands_enabled && strcmp(name, "qmp_capabilities")) {
        return reply_error(ERROR_CLASS_COMMAND_NOT_FOUND,
                           "Expecting capabilities negotiation with "
                           "'qmp_capabilities'", id);
    }
    cmd = qmp_find_command(name);
    if (!cmd) {
        char *desc = g_strdup_printf("The command %s has not been found", name);

        reply = reply_error(ERROR_CLASS_COMMAND_NOT_FOUND, desc, id);
        g_free(desc);
        return reply;
    }
    /* As 7.2, before the command's own checks (qmp_capabilities' too) */
    if (oob && !(cmd->flags & QMP_CMD_OOB)) {
        char *desc = g_strdup_printf("The command %s does not support OOB",
                                     name);

        reply = reply_error(ERROR_CLASS_GENERIC_ERROR, desc, id);
        g_free(desc);
        return reply;
    }
    if (!(cmd->flags & QMP_CMD_PRECONFIG) && strcmp(name, "qmp_capabilities") &&
        !qdev_machine_ready()) {
        char *desc = g_strdup_printf("The command '%s' is permitted only "
                                     "after machine initialization has "
                                     "completed", name);

        reply = reply_error(ERROR_CLASS_GENERIC_ERROR, desc, id);
        g_free(desc);
        return reply;
    }
    if (commands_enabled && !strcmp(name, "qmp_capabilities")) {
        return reply_error(ERROR_CLASS_COMMAND_NOT_FOUND,
                           "Capabilities negotiation is already complete, "
                           "command ignored", id);
    }
    args_node = json_object_get_member(req, "arguments");
    args = args_node ? json_object_ref(json_node_get_object(args_node))
                     : json_object_new();
    ret = qmp_run(cmd, args, &err);
    json_object_unref(args);
    if (!ret) {
        return reply_err(err, id);
    }
    reply = json_object_new();
    json_object_set_member(reply, "return", ret);
    if (id) {
        json_object_set_member(reply, "id", json_node_copy(id));
    }
    return reply;
}

/* qmp_capabilities' "enable" lists "oob" (the visitor checked it) */
static bool qmp_request_enables_oob(JsonObject *req)
{
    JsonNode *args = json_object_get_member(req, "arguments");
    JsonArray *en;
    guint i;

    if (!args || !JSON_NODE_HOLDS_OBJECT(args) ||
        !json_object_has_member(json_node_get_object(args), "enable")) {
        return false;
    }
    en = json_object_get_array_member(json_node_get_object(args), "enable");
    for (i = 0; en && i < json_array_get_length(en); i++) {
        if (!g_strcmp0(json_array_get_string_element(en, i), "oob")) {
            return true;
        }
    }
    return false;
}

/*
 * Threads, as QEMU 7.2: every QMP monitor's chardev is served by one
 * monitor I/O thread, which reads, parses, answers out-of-band requests
 * ("exec-oob" once the session enabled "oob") at once, and queues every
 * other request (and every parse error) for the main thread, which runs
 * them one at a time in the order they came.  So an out-of-band command
 * overtakes an in-band one that blocks the main thread.  A session
 * without "oob" has at most one request queued: the monitor stops reading
 * until its reply is out, so its replies and errors stay in order; with
 * "oob" it reads on while fewer than 8 wait.  A connection's queued
 * requests die with it.  Connection events reach the main thread through
 * the same queue, so the fd sets (monitor/fds.c) stay main-thread only.
 */
#define QMP_QUEUE_MAX 8

typedef enum MonWorkKind {
    MON_WORK_REQUEST,
    MON_WORK_OPENED,
    MON_WORK_CLOSED,
} MonWorkKind;

typedef struct MonWork {
    MonWorkKind kind;
    Monitor *mon;
    unsigned generation;
    JsonNode *value;        /* a request (any JSON value) ... */
    Error *err;             /* ... or a parse error */
} MonWork;

/* pthread's, not GMutex (futexes): ThreadSanitizer sees it */
static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static GQueue work_queue;
static bool work_scheduled, work_running;
static GMainContext *io_context;
static GThread *io_thread;
static gint io_quit;

static gboolean monitor_work_cb(gpointer opaque);

/* Caller holds work_lock */
static void work_schedule_locked(void)
{
    GSource *src;

    if (!work_scheduled && !g_queue_is_empty(&work_queue)) {
        work_scheduled = true;
        src = g_idle_source_new();
        /* as urgent as the fd watches that used to run commands */
        g_source_set_priority(src, G_PRIORITY_DEFAULT);
        g_source_set_callback(src, monitor_work_cb, NULL, NULL);
        g_source_attach(src, NULL);
        g_source_unref(src);
    }
}

static void work_post(MonWorkKind kind, Monitor *mon, JsonNode *value,
                      Error *err)
{
    MonWork *w = g_new0(MonWork, 1);

    w->kind = kind;
    w->mon = mon;
    w->generation = mon->generation;
    w->value = value;
    w->err = err;
    pthread_mutex_lock(&work_lock);
    g_queue_push_tail(&work_queue, w);
    work_schedule_locked();
    pthread_mutex_unlock(&work_lock);
}

static JsonObject *monitor_run_request(Monitor *mon, MonWork *w,
                                       bool enabled, bool oob)
{
    JsonObject *reply;

    if (w->err) {
        reply = reply_err(w->err, NULL);
        w->err = NULL;
    } else if (!JSON_NODE_HOLDS_OBJECT(w->value)) {
        reply = reply_error(ERROR_CLASS_GENERIC_ERROR,
                            "QMP input must be a JSON object", NULL);
    } else {
        cur_mon = mon;
        reply = qmp_dispatch(json_node_get_object(w->value), enabled, oob);
        cur_mon = NULL;
    }
    return reply;
}

/* Main thread: one in-band request, its reply to its own connection */
static void monitor_work_request(MonWork *w)
{
    Monitor *mon = w->mon;
    JsonObject *reply = NULL;
    bool current, enabled, oob;

    qemu_chr_lock(mon->chr);
    current = w->generation == mon->generation;
    enabled = mon->commands_enabled;
    oob = mon->oob_enabled;
    qemu_chr_unlock(mon->chr);
    if (current) {
        /* the command runs unlocked: it may block, OOB must not */
        reply = monitor_run_request(mon, w, enabled, oob);
    }

    qemu_chr_lock(mon->chr);
    if (reply && w->generation == mon->generation) {
        if (!mon->commands_enabled &&
            json_object_has_member(reply, "return")) {
            /* only qmp_capabilities can succeed before negotiation */
            mon->commands_enabled = true;
            mon->oob_enabled =
                qmp_request_enables_oob(json_node_get_object(w->value));
        }
        mon->queued--;
        monitor_send(mon, reply);
        reply = NULL;
    }
    qemu_chr_unlock(mon->chr);
    if (reply) {
        json_object_unref(reply);
    }
    qemu_chr_accept_input(mon->chr);
}

static gboolean monitor_work_cb(gpointer opaque)
{
    MonWork *w;

    pthread_mutex_lock(&work_lock);
    if (work_running) {
        /*
         * A command runs a nested main loop (blk_drain): the next request
         * waits for it; the outer call schedules us again.
         */
        work_scheduled = false;
        pthread_mutex_unlock(&work_lock);
        return G_SOURCE_REMOVE;
    }
    w = g_queue_pop_head(&work_queue);
    if (!w) {
        work_scheduled = false;
        pthread_mutex_unlock(&work_lock);
        return G_SOURCE_REMOVE;
    }
    work_running = true;
    pthread_mutex_unlock(&work_lock);

    switch (w->kind) {
    case MON_WORK_REQUEST:
        monitor_work_request(w);
        break;
    case MON_WORK_OPENED:
        fdset_monitor_opened();
        break;
    case MON_WORK_CLOSED:
        /* may close fd sets' fds (monitor/fds.c) */
        fdset_monitor_closed();
        break;
    }
    if (w->value) {
        json_node_unref(w->value);
    }
    if (w->err) {
        error_free(w->err);
    }
    g_free(w);

    pthread_mutex_lock(&work_lock);
    work_running = false;
    if (!work_scheduled) {
        work_schedule_locked();
        pthread_mutex_unlock(&work_lock);
        return G_SOURCE_REMOVE;
    }
    pthread_mutex_unlock(&work_lock);
    /* one request per main-loop iteration keeps the loop responsive */
    return G_SOURCE_CONTINUE;
}

/* exec-oob without execute: QEMU 7.2 runs it in the I/O thread */
static bool request_is_oob(JsonNode *value)
{
    JsonObject *o;

    if (!value || !JSON_NODE_HOLDS_OBJECT(value)) {
        return false;
    }
    o = json_node_get_object(value);
    return json_object_has_member(o, "exec-oob") &&
           !json_object_has_member(o, "execute");
}

/* I/O thread, chardev locked: one complete value (or a parse error) */
static void monitor_handle_value(void *opaque, JsonNode *value, Error *err)
{
    Monitor *mon = opaque;

    if (mon->oob_enabled && request_is_oob(value)) {
        monitor_send(mon, qmp_dispatch(json_node_get_object(value),
                                       mon->commands_enabled, true));
        json_node_unref(value);
        return;
    }
    mon->queued++;
    work_post(MON_WORK_REQUEST, mon, value, err);
}

static void monitor_read(void *opaque, const uint8_t *data, size_t len)
{
    Monitor *mon = opaque;

    json_stream_feed(mon->stream, (const char *)data, len);
}

/* Reading pauses while the main thread has enough of its requests */
static size_t monitor_can_read(void *opaque)
{
    Monitor *mon = opaque;

    return mon->queued >= (mon->oob_enabled ? QMP_QUEUE_MAX : 1) ? 0 : 4096;
}

static void monitor_event(void *opaque, ChardevEvent event)
{
    Monitor *mon = opaque;

    /* Every connection starts from scratch: new greeting, negotiation */
    mon->generation++;
    mon->queued = 0;
    mon->commands_enabled = false;
    mon->oob_enabled = false;
    json_stream_reset(mon->stream);
    if (mon->counted) {
        mon->counted = false;
        work_post(MON_WORK_CLOSED, mon, NULL, NULL);
    }
    if (event == CHR_EVENT_OPENED) {
        mon->counted = true;
        work_post(MON_WORK_OPENED, mon, NULL, NULL);
        JsonObject *greeting = json_object_new(), *qmp = json_object_new();
        JsonArray *caps = json_array_new();
        json_object_set_member(qmp, "version", qmp_query_version(NULL));
        json_array_add_string_element(caps, "oob");
        json_object_set_array_member(qmp, "capabilities", caps);
        json_object_set_object_member(greeting, "QMP", qmp);
        monitor_send(mon, greeting);
    }
}

static gpointer monitor_io_thread_fn(gpointer opaque)
{
    g_main_context_push_thread_default(io_context);
    /* not g_main_loop_run(): a quit before it starts would be lost */
    while (!g_atomic_int_get(&io_quit)) {
        g_main_context_iteration(io_context, TRUE);
    }
    g_main_context_pop_thread_default(io_context);
    return NULL;
}

/* At exit (before the chardevs' last flush, registered earlier) */
static void monitor_io_thread_stop(void)
{
    if (io_thread) {
        g_atomic_int_set(&io_quit, 1);
        g_main_context_wakeup(io_context);
        g_thread_join(io_thread);
        io_thread = NULL;
    }
}

static GMainContext *monitor_io_context(void)
{
    if (!io_context) {
        io_context = g_main_context_new();
        /* named only with -name debug-threads=on, as in QEMU */
        io_thread = g_thread_new(qemu_debug_threads ? "IO mon_iothread"
                                                    : NULL,
                                 monitor_io_thread_fn, NULL);
        atexit(monitor_io_thread_stop);
    }
    return io_context;
}

static bool monitor_init_qmp(Chardev *chr, bool pretty, Error **errp)
{
    Monitor *mon = g_new0(Monitor, 1);
    ChardevHandlers h = {
        .read = monitor_read,
        .event = monitor_event,
        .can_read = monitor_can_read,
        .opaque = mon,
    };

    mon->chr = chr;
    mon->pretty = pretty;
    mon->stream = json_stream_new(monitor_handle_value, mon);
    if (!monitors) {
        monitors = g_ptr_array_new();
    }
    g_ptr_array_add(monitors, mon);
    if (!qemu_chr_set_handlers(chr, &h, errp)) {
        g_ptr_array_remove(monitors, mon);
        json_stream_free(mon->stream);
        g_free(mon);
        return false;
    }
    qemu_chr_set_context(chr, monitor_io_context());
    return true;
}

bool qemu_mon_add(const char *optarg, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "chardev", errp);
    const QemuOpt *unused;
    const char *id, *mode;
    Chardev *chr;
    bool ok = false, pretty;
    Error *err = NULL;

    if (!opts) {
        return false;
    }
    id = qemu_opt_get(opts, "chardev");
    mode = qemu_opt_get(opts, "mode");
    qemu_opt_get(opts, "id");
    pretty = qemu_opt_get_bool(opts, "pretty", false, &err);
    unused = qemu_opts_first_unused(opts);
    if (err) {
        error_propagate(errp, err);
    } else if (unused) {
        error_setg(errp, "Invalid parameter '%s'", unused->name);
    } else if (!id) {
        error_setg(errp, "Parameter 'chardev' is missing");
    } else if (mode && strcmp(mode, "control") && strcmp(mode, "readline")) {
        error_setg(errp, "Parameter 'mode' does not accept value '%s'", mode);
    } else if (!(chr = qemu_chr_find(id))) {
        error_setg(errp, "chardev \"%s\" not found", id);
    } else if (!mode || !strcmp(mode, "readline")) {
        /* QEMU's default mode: the human monitor */
        if (pretty) {
            error_setg(errp, "'pretty' is not compatible with HMP monitors");
        } else {
            ok = monitor_init_hmp(chr, errp);
        }
    } else {
        ok = monitor_init_qmp(chr, pretty, errp);
    }
    qemu_opts_free(opts);
    return ok;
}

/*
 * -qmp SPEC: QEMU's legacy chardev shorthand ("unix:PATH[,server=on]
 * [,wait=off]", "tcp:HOST:PORT,...", "stdio", ...) with a monitor in
 * control mode on it.
 */
char *qemu_monitor_compat_id(void)
{
    static int count;

    return g_strdup_printf("compat_monitor%d", count++);
}

static bool qmp_add(const char *optarg, bool pretty, Error **errp)
{
    char *id = qemu_monitor_compat_id();
    char *opts = NULL;
    Chardev *chr;
    bool ok;

    opts = qemu_chr_legacy_to_opts(optarg);
    if (!opts) {
        error_setg(errp, "parse error: %s", optarg);
        g_free(id);
        return false;
    }
    chr = qemu_chr_new_from_str(id, opts, errp);
    ok = chr && monitor_init_qmp(chr, pretty, errp);
    g_free(opts);
    g_free(id);
    return ok;
}

bool qemu_qmp_add(const char *optarg, Error **errp)
{
    return qmp_add(optarg, false, errp);
}

bool qemu_qmp_pretty_add(const char *optarg, Error **errp)
{
    return qmp_add(optarg, true, errp);
}
