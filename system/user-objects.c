/*
 * -object: the user-creatable objects libvirt passes.
 *
 * secret holds a key (libvirt's master key: file=, format=raw); the data
 * is read and checked when the object is created and kept in memory.
 * memory-backend-ram describes the guest RAM a machine names with
 * memory-backend=; the machine allocates it (system/memory.c), the
 * backend fixes its size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "qemu/option.h"
#include "qemu/osdep.h"
#include "qom/object.h"
#include "monitor/qmp-commands.h"
#include "sysemu/hostmem.h"
#include "sysemu/sysemu.h"
#include "sysemu/user-objects.h"

typedef struct HostMemoryBackend {
    Object parent_obj;
    uint64_t size;
    bool share, prealloc, merge, dump, reserve;
    int policy;                 /* HostMemPolicyMode */
    uint64_t host_nodes[HOST_MEM_MAX_NODES / 64];
    bool canonical_id;
} HostMemoryBackend;

static const char *const host_mem_policy_names[] = {
    [HOST_MEM_POLICY_DEFAULT] = "default",
    [HOST_MEM_POLICY_PREFERRED] = "preferred",
    [HOST_MEM_POLICY_BIND] = "bind",
    [HOST_MEM_POLICY_INTERLEAVE] = "interleave",
    NULL,
};

/*
 * iothread: a real, idle thread, so that libvirt's <iothreads> start and
 * the thread ids query-iothreads reports can be pinned.  Device I/O here
 * runs in the main loop, so the polling knobs are stored and unused.
 */
typedef struct IOThreadObject {
    Object parent_obj;
    int64_t poll_max_ns, poll_grow, poll_shrink, aio_max_batch;
    int64_t thread_pool_min, thread_pool_max;
    GThread *thread;
    gint tid;               /* 0 until the thread has started */
    bool stop;              /* object-del: the thread ends */
} IOThreadObject;

static GMutex iothread_lock;
static GCond iothread_cond;

static gpointer iothread_run(gpointer opaque)
{
    IOThreadObject *t = opaque;

    g_mutex_lock(&iothread_lock);
    t->tid = (gint)syscall(SYS_gettid);
    g_cond_broadcast(&iothread_cond);
    while (!t->stop) {
        /* Nothing is ever handed to it; it lives until object-del */
        g_cond_wait(&iothread_cond, &iothread_lock);
    }
    g_mutex_unlock(&iothread_lock);
    return NULL;
}

/* object-del of an iothread: its thread ends, and its reference with it */
static void iothread_stop(IOThreadObject *t)
{
    g_mutex_lock(&iothread_lock);
    t->stop = true;
    g_cond_broadcast(&iothread_cond);
    g_mutex_unlock(&iothread_lock);
    g_thread_join(t->thread);
    t->thread = NULL;
    object_unref(OBJECT(t));
}

static bool iothread_complete(IOThreadObject *t, const char *id, Error **errp)
{
    GError *gerr = NULL;

    char *name = qemu_debug_threads ? g_strdup_printf("IO %s", id) : NULL;

    /* Named only with -name debug-threads=on, as in QEMU */
    t->thread = g_thread_try_new(name, iothread_run, t, &gerr);
    g_free(name);
    if (!t->thread) {
        error_setg(errp, "failed to create iothread: %s", gerr->message);
        g_error_free(gerr);
        return false;
    }
    g_mutex_lock(&iothread_lock);
    while (!t->tid) {
        g_cond_wait(&iothread_cond, &iothread_lock);
    }
    g_mutex_unlock(&iothread_lock);
    /* The thread uses the object until it ends (object-del) */
    object_ref(OBJECT(t));
    return true;
}

JsonNode *qmp_query_iothreads(Error **errp)
{
    Object *objs = object_get_container("objects");
    JsonArray *arr = json_array_new();
    guint i;

    for (i = 0; objs->children && i < objs->children->len; i++) {
        Object *o = g_ptr_array_index(objs->children, i);
        IOThreadObject *t = (IOThreadObject *)o;
        JsonObject *e;

        if (!object_dynamic_cast(o, "iothread")) {
            continue;
        }
        e = json_object_new();
        json_object_set_string_member(e, "id", o->name);
        json_object_set_int_member(e, "thread-id", t->tid);
        json_object_set_int_member(e, "poll-max-ns", t->poll_max_ns);
        json_object_set_int_member(e, "poll-grow", t->poll_grow);
        json_object_set_int_member(e, "poll-shrink", t->poll_shrink);
        json_object_set_int_member(e, "aio-max-batch", t->aio_max_batch);
        json_array_add_object_element(arr, e);
    }
    return json_node_init_array(json_node_alloc(), arr);
}

typedef struct SecretObject {
    Object parent_obj;
    char *format, *file, *data, *keyid, *iv;
    GBytes *raw;
} SecretObject;

#define FIELD(oc, st, name, kind, field, def)                               \
    object_class_property_add_field(oc, name, kind, offsetof(st, field),   \
                                    def, NULL)

static JsonNode *backend_get_policy(Object *obj, ObjectProperty *prop,
                                    Error **errp)
{
    HostMemoryBackend *b = (HostMemoryBackend *)obj;

    return json_node_init_string(json_node_alloc(),
                                 host_mem_policy_names[b->policy]);
}

static bool backend_set_policy(Object *obj, ObjectProperty *prop,
                               JsonNode *value, Error **errp)
{
    HostMemoryBackend *b = (HostMemoryBackend *)obj;
    const char *s = object_prop_value_str(prop, value, errp);
    int i;

    if (!s) {
        return false;
    }
    for (i = 0; host_mem_policy_names[i]; i++) {
        if (!strcmp(host_mem_policy_names[i], s)) {
            b->policy = i;
            return true;
        }
    }
    error_setg(errp, "Parameter 'policy' does not accept value '%s'", s);
    return false;
}

/* A list of node numbers, as QEMU's uint16List: [0, 2] */
static JsonNode *backend_get_host_nodes(Object *obj, ObjectProperty *prop,
                                        Error **errp)
{
    HostMemoryBackend *b = (HostMemoryBackend *)obj;
    JsonArray *a = json_array_new();
    unsigned n;

    for (n = 0; n < HOST_MEM_MAX_NODES; n++) {
        if (b->host_nodes[n / 64] & (1ULL << (n % 64))) {
            json_array_add_int_element(a, n);
        }
    }
    return json_node_init_array(json_node_alloc(), a);
}

static bool backend_add_node(HostMemoryBackend *b, int64_t n, Error **errp)
{
    if (n < 0 || n > 65535) {
        error_setg(errp, "Parameter 'host-nodes' expects uint16_t");
        return false;
    }
    if (n >= HOST_MEM_MAX_NODES) {
        error_setg(errp, "Invalid host-nodes value: %" G_GINT64_FORMAT, n);
        return false;
    }
    b->host_nodes[n / 64] |= 1ULL << (n % 64);
    return true;
}

/*
 * From JSON a list of numbers; from key=value a number or a range "0-3",
 * as QEMU's options visitor reads it
 */
static bool backend_set_host_nodes(Object *obj, ObjectProperty *prop,
                                   JsonNode *value, Error **errp)
{
    HostMemoryBackend *b = (HostMemoryBackend *)obj;
    int64_t lo, hi;
    guint i;

    memset(b->host_nodes, 0, sizeof(b->host_nodes));
    if (JSON_NODE_HOLDS_ARRAY(value)) {
        JsonArray *a = json_node_get_array(value);

        for (i = 0; i < json_array_get_length(a); i++) {
            JsonNode *e = json_array_get_element(a, i);

            if (!JSON_NODE_HOLDS_VALUE(e) ||
                json_node_get_value_type(e) != G_TYPE_INT64) {
                error_setg(errp, "Invalid parameter type for "
                           "'host-nodes[%u]', expected: integer", i);
                return false;
            }
            if (!backend_add_node(b, json_node_get_int(e), errp)) {
                return false;
            }
        }
        return true;
    }
    if (JSON_NODE_HOLDS_VALUE(value) &&
        json_node_get_value_type(value) == G_TYPE_INT64) {
        return backend_add_node(b, json_node_get_int(value), errp);
    }
    if (JSON_NODE_HOLDS_VALUE(value) &&
        json_node_get_value_type(value) == G_TYPE_STRING) {
        const char *s = json_node_get_string(value);
        char *end;

        lo = g_ascii_strtoll(s, &end, 10);
        hi = lo;
        if (end != s && *end == '-') {
            const char *h = end + 1;

            hi = g_ascii_strtoll(h, &end, 10);
            if (end == h) {
                end = (char *)h - 1;
            }
        }
        if (end == s || *end || hi < lo) {
            error_setg(errp, "Parameter 'host-nodes' expects uint16_t");
            return false;
        }
        for (; lo <= hi; lo++) {
            if (!backend_add_node(b, lo, errp)) {
                return false;
            }
        }
        return true;
    }
    error_setg(errp, "Invalid parameter type for 'host-nodes', expected: "
               "array");
    return false;
}

static void memory_backend_class_init(ObjectClass *oc, void *data)
{
    FIELD(oc, HostMemoryBackend, "size", PROP_KIND_UINT64, size, "0");
    FIELD(oc, HostMemoryBackend, "share", PROP_KIND_BOOL, share, "off");
    FIELD(oc, HostMemoryBackend, "prealloc", PROP_KIND_BOOL, prealloc, "off");
    FIELD(oc, HostMemoryBackend, "merge", PROP_KIND_BOOL, merge, "on");
    FIELD(oc, HostMemoryBackend, "dump", PROP_KIND_BOOL, dump, "on");
    FIELD(oc, HostMemoryBackend, "reserve", PROP_KIND_BOOL, reserve, "on");
    object_class_property_add(oc, "policy", "HostMemPolicy",
                              backend_get_policy, backend_set_policy, NULL);
    /* Listed as QEMU lists it ("int"); key=value hands over the text */
    object_class_property_add(oc, "host-nodes", "int",
                              backend_get_host_nodes, backend_set_host_nodes,
                              NULL)->kind = PROP_KIND_STRING;
    FIELD(oc, HostMemoryBackend, "x-use-canonical-path-for-ramblock-id",
          PROP_KIND_BOOL, canonical_id, "on");
}

static void secret_class_init(ObjectClass *oc, void *data)
{
    FIELD(oc, SecretObject, "format", PROP_KIND_STRING, format, "raw");
    FIELD(oc, SecretObject, "file", PROP_KIND_STRING, file, NULL);
    FIELD(oc, SecretObject, "data", PROP_KIND_STRING, data, NULL);
    FIELD(oc, SecretObject, "keyid", PROP_KIND_STRING, keyid, NULL);
    FIELD(oc, SecretObject, "iv", PROP_KIND_STRING, iv, NULL);
}

/*
 * rng-builtin and rng-random: the entropy sources virtio-rng reads
 * (user_object_rng_read); rng-random opens its file when it is created,
 * as QEMU 7.2's does
 */
typedef struct RngBackend {
    Object parent_obj;
    bool opened;                /* QEMU's deprecated switch: kept, unused */
    char *filename;
    int fd;
} RngBackend;

static void rng_class_init(ObjectClass *oc, void *data)
{
    FIELD(oc, RngBackend, "opened", PROP_KIND_BOOL, opened, "off");
}

static void rng_random_class_init(ObjectClass *oc, void *data)
{
    FIELD(oc, RngBackend, "filename", PROP_KIND_STRING, filename,
          "/dev/urandom");
}

static void rng_instance_init(Object *obj)
{
    ((RngBackend *)obj)->fd = -1;
}

static void rng_instance_finalize(Object *obj)
{
    RngBackend *r = (RngBackend *)obj;

    if (r->fd >= 0) {
        qemu_close(r->fd);
    }
}

static bool rng_random_complete(RngBackend *r, Error **errp)
{
    /* "Could not open 'FILE': ..." as 7.2; /dev/fdset/N works too */
    r->fd = qemu_open(r->filename, O_RDONLY, errp);
    return r->fd >= 0;
}

bool user_object_rng_read(Object *rng, void *buf, size_t len, Error **errp)
{
    RngBackend *r = (RngBackend *)rng;
    uint8_t *p = buf;

    while (len) {
        ssize_t n = r->fd >= 0 ? read(r->fd, p, len)
                               : getrandom(p, len, 0);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            error_setg(errp, "entropy source %s: %s",
                       r->fd >= 0 ? r->filename : "getrandom",
                       n < 0 ? strerror(errno) : "end of file");
            return false;
        }
        p += n;
        len -= n;
    }
    return true;
}

static void iothread_class_init(ObjectClass *oc, void *data)
{
    FIELD(oc, IOThreadObject, "poll-max-ns", PROP_KIND_INT64, poll_max_ns,
          "32768");
    FIELD(oc, IOThreadObject, "poll-grow", PROP_KIND_INT64, poll_grow, "0");
    FIELD(oc, IOThreadObject, "poll-shrink", PROP_KIND_INT64, poll_shrink,
          "0");
    FIELD(oc, IOThreadObject, "aio-max-batch", PROP_KIND_INT64, aio_max_batch,
          "0");
    FIELD(oc, IOThreadObject, "thread-pool-min", PROP_KIND_INT64,
          thread_pool_min, "0");
    FIELD(oc, IOThreadObject, "thread-pool-max", PROP_KIND_INT64,
          thread_pool_max, "64");
}

static void user_objects_register_types(void)
{
    static const TypeInfo types[] = {
        { .name = TYPE_MEMORY_BACKEND, .parent = TYPE_OBJECT,
          .abstract = true, .instance_size = sizeof(HostMemoryBackend),
          .class_init = memory_backend_class_init },
        { .name = TYPE_MEMORY_BACKEND_RAM, .parent = TYPE_MEMORY_BACKEND,
          .instance_size = sizeof(HostMemoryBackend) },
        { .name = TYPE_SECRET, .parent = TYPE_OBJECT,
          .instance_size = sizeof(SecretObject),
          .class_init = secret_class_init },
        { .name = "iothread", .parent = TYPE_OBJECT,
          .instance_size = sizeof(IOThreadObject),
          .class_init = iothread_class_init },
        { .name = TYPE_RNG_BACKEND, .parent = TYPE_OBJECT, .abstract = true,
          .instance_size = sizeof(RngBackend),
          .instance_init = rng_instance_init,
          .instance_finalize = rng_instance_finalize,
          .class_init = rng_class_init },
        { .name = "rng-builtin", .parent = TYPE_RNG_BACKEND,
          .instance_size = sizeof(RngBackend) },
        { .name = "rng-random", .parent = TYPE_RNG_BACKEND,
          .instance_size = sizeof(RngBackend),
          .class_init = rng_random_class_init },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(types); i++) {
        type_register_static(&types[i]);
    }
}
type_init(user_objects_register_types)

/* Checks once every property is set (QEMU's "complete") */
static bool secret_complete(SecretObject *s, Error **errp)
{
    GError *gerr = NULL;
    gchar *contents = NULL;
    gsize len = 0;

    if (strcmp(s->format, "raw") && strcmp(s->format, "base64")) {
        error_setg(errp, "Parameter 'format' does not accept value '%s'",
                   s->format);
        return false;
    }
    if (s->data && s->file) {
        error_setg(errp, "'data' and 'file' are mutually exclusive");
        return false;
    }
    if (s->file) {
        if (!g_file_get_contents(s->file, &contents, &len, &gerr)) {
            error_setg(errp, "Unable to read %s: %s", s->file, gerr->message);
            g_error_free(gerr);
            return false;
        }
    } else if (s->data) {
        contents = g_strdup(s->data);
        len = strlen(contents);
    } else {
        error_setg(errp, "Either 'file' or 'data' must be provided");
        return false;
    }
    if (!strcmp(s->format, "base64")) {
        guchar *dec;
        gsize dlen;
        char *p;

        for (p = contents; *p; p++) {
            if (!g_ascii_isalnum(*p) && !strchr("+/=\n", *p)) {
                error_setg(errp, "Invalid base64 data");
                g_free(contents);
                return false;
            }
        }
        dec = g_base64_decode(contents, &dlen);
        g_free(contents);
        s->raw = g_bytes_new_take(dec, dlen);
    } else {
        s->raw = g_bytes_new_take(contents, len);
    }
    return true;
}

/* QEMU 7.2's range of the polling and batch parameters */
static bool iothread_check(IOThreadObject *t, Error **errp)
{
    const struct { const char *name; int64_t v; } p[] = {
        { "poll-max-ns", t->poll_max_ns }, { "poll-grow", t->poll_grow },
        { "poll-shrink", t->poll_shrink },
        { "aio-max-batch", t->aio_max_batch },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(p); i++) {
        if (p[i].v < 0) {
            error_setg(errp, "%s value must be in range [0, %" G_GINT64_FORMAT
                       "]", p[i].name, G_MAXINT64);
            return false;
        }
    }
    return true;
}

static bool object_complete(Object *obj, const char *id, Error **errp)
{
    if (object_dynamic_cast(obj, "iothread")) {
        return iothread_check((IOThreadObject *)obj, errp) &&
               iothread_complete((IOThreadObject *)obj, id, errp);
    }
    if (object_dynamic_cast(obj, TYPE_SECRET)) {
        return secret_complete((SecretObject *)obj, errp);
    }
    if (object_dynamic_cast(obj, "rng-random")) {
        return rng_random_complete((RngBackend *)obj, errp);
    }
    if (object_dynamic_cast(obj, TYPE_MEMORY_BACKEND) &&
        !((HostMemoryBackend *)obj)->size) {
        error_setg(errp, "can't create backend with size 0");
        return false;
    }
    /*
     * A negative JSON size arrives as a huge one; QEMU 7.2 takes it and
     * aborts on an assertion when it lays out RAM blocks
     */
    if (object_dynamic_cast(obj, TYPE_MEMORY_BACKEND) &&
        ((HostMemoryBackend *)obj)->size > (uint64_t)G_MAXINT64) {
        error_setg(errp, "can't create backend with size %" G_GUINT64_FORMAT
                   ": more than any host can map",
                   ((HostMemoryBackend *)obj)->size);
        return false;
    }
    return true;
}

/*
 * key=value, with the texts of QEMU's keyval parser: sizes take suffixes,
 * as QEMU's size type does
 */
static bool object_set_from_string(Object *obj, const char *name,
                                   const char *value, Error **errp)
{
    ObjectProperty *prop = object_property_find(obj, name);
    uint64_t size;
    char *end;

    if (!strcmp(name, "size") &&
        object_dynamic_cast(obj, TYPE_MEMORY_BACKEND)) {
        if (qemu_strtosz(value, 1, &size, NULL)) {
            error_setg(errp, "Parameter 'size' expects a size value");
            return false;
        }
        return object_property_set_int(obj, name, size, errp);
    }
    if (prop && prop->kind == PROP_KIND_INT64) {
        long long v;

        errno = 0;
        v = strtoll(value, &end, 0);
        if (!*value || *end || errno) {
            error_setg(errp, "Parameter '%s' expects an int64 value", name);
            return false;
        }
        return object_property_set_int(obj, name, v, errp);
    }
    return object_property_parse(obj, name, value, errp);
}

static bool user_object_create(JsonObject *json, QemuOpts *opts, bool qmp,
                               Error **errp);

/*
 * Both forms become a list of (name, JsonNode or string) pairs; the
 * JSON form may carry numbers and booleans, key=value only strings.
 */
bool user_object_add(const char *optarg, Error **errp)
{
    JsonObject *json = NULL;
    QemuOpts *opts = NULL;
    bool ok = false;

    if (optarg[0] == '{') {
        json = qemu_opts_parse_json(optarg, errp);
        if (json) {
            ok = user_object_create(json, NULL, false, errp);
            json_object_unref(json);
        }
        return ok;
    }
    opts = qemu_opts_parse(optarg, "qom-type", errp);
    if (opts) {
        ok = user_object_create(NULL, opts, false, errp);
        qemu_opts_free(opts);
    }
    return ok;
}

/*
 * One of json or opts.  qmp: QMP object-add, whose duplicate-id text is
 * QEMU's property error rather than the command line's.
 */
static bool user_object_create(JsonObject *json, QemuOpts *opts, bool qmp,
                               Error **errp)
{
    const char *type, *id;
    ObjectClass *oc;
    Object *obj = NULL;
    bool ok = false;
    guint i;

    if (json) {
        /* Members in QEMU's order: qom-type (checked below), then id */
        if (!qemu_json_opt_get_str(json, "qom-type", &type, errp)) {
            goto out;
        }
        id = NULL;
    } else {
        type = qemu_opt_get(opts, "qom-type");
        /* QEMU takes the first id of a key=value option */
        id = qemu_opt_get_first(opts, "id");
    }
    if (!type) {
        error_setg(errp, "Parameter 'qom-type' is missing");
        goto out;
    }
    if (!user_object_check_type(type, errp)) {
        goto out;
    }
    oc = object_class_by_name(type);
    if (json && !qemu_json_opt_get_str(json, "id", &id, errp)) {
        goto out;
    }
    if (!id) {
        error_setg(errp, "Parameter 'id' is missing");
        goto out;
    }
    if (!id_wellformed(id)) {
        error_setg(errp, "Parameter 'id' expects an identifier");
        error_append_hint(errp, "Identifiers consist of letters, digits, "
                          "'-', '.', '_', starting with a letter.\n");
        goto out;
    }
    if (object_resolve_path_component(object_get_container("objects"), id)) {
        if (qmp) {
            error_setg(errp, "attempt to add duplicate property '%s' to "
                       "object (type 'container')", id);
        } else {
            error_setg(errp, "Duplicate ID '%s' for object", id);
        }
        goto out;
    }
    /* A memory backend's size is a required member of its JSON form */
    if (json && object_class_dynamic_cast(oc, TYPE_MEMORY_BACKEND) &&
        !json_object_has_member(json, "size")) {
        error_setg(errp, "Parameter 'size' is missing");
        goto out;
    }
    obj = object_new(type);
    if (json) {
        GList *members = json_object_get_members(json), *l;

        for (l = members; l; l = l->next) {
            const char *name = l->data;
            JsonNode *v = json_object_get_member(json, name);

            if (!strcmp(name, "qom-type") || !strcmp(name, "id")) {
                continue;
            }
            if (!object_property_find(obj, name)) {
                error_setg(errp, "Parameter '%s' is unexpected", name);
                g_list_free(members);
                goto out;
            }
            if (!object_property_set(obj, name, v, errp)) {
                g_list_free(members);
                goto out;
            }
        }
        g_list_free(members);
    } else {
        for (i = 0; i < opts->opts->len; i++) {
            QemuOpt *o = g_ptr_array_index(opts->opts, i);

            /* A repeated key: the last value is the one that counts */
            if (!strcmp(o->name, "qom-type") || !strcmp(o->name, "id") ||
                qemu_opt_get(opts, o->name) != o->value) {
                continue;
            }
            if (!object_property_find(obj, o->name)) {
                error_setg(errp, "Invalid parameter '%s'", o->name);
                goto out;
            }
            if (!object_set_from_string(obj, o->name, o->value, errp)) {
                goto out;
            }
        }
    }
    if (!object_complete(obj, id, errp)) {
        goto out;
    }
    object_property_add_child(object_get_container("objects"), id, obj);
    ok = true;
out:
    if (obj) {
        object_unref(obj);
    }
    return ok;
}

/* QMP ------------------------------------------------------------------------ */

JsonNode *qmp_object_add(JsonObject *args, Error **errp)
{
    if (!user_object_create(args, NULL, true, errp)) {
        return NULL;
    }
    return json_node_init_object(json_node_alloc(), json_object_new());
}

/* The machine's RAM backend cannot go; anything else can, as in QEMU 7.2 */
JsonNode *qmp_object_del(const QmpArgsObjectDel *args, Error **errp)
{
    Object *objs = object_get_container("objects");
    Object *obj = object_resolve_path_component(objs, args->id);

    if (!obj) {
        error_setg(errp, "object '%s' not found", args->id);
        return NULL;
    }
    if (object_dynamic_cast(obj, TYPE_MEMORY_BACKEND) && current_machine &&
        current_machine->memory_backend &&
        !strcmp(current_machine->memory_backend, args->id)) {
        error_setg(errp, "object '%s' is in use, can not be deleted",
                   args->id);
        return NULL;
    }
    if (object_dynamic_cast(obj, "iothread") &&
        ((IOThreadObject *)obj)->thread) {
        iothread_stop((IOThreadObject *)obj);
    }
    object_unparent(obj);
    return json_node_init_object(json_node_alloc(), json_object_new());
}

uint64_t user_objects_backend_size(Object *backend)
{
    return ((HostMemoryBackend *)backend)->size;
}

void user_objects_backend_backing(MachineState *ms, Object *backend,
                                  HostMemBacking *out)
{
    HostMemoryBackend *b = (HostMemoryBackend *)backend;

    /*
     * As QEMU 7.2: a backend's merge and dump default to the machine's;
     * then the machine's own advice is applied on top, so the RAM is
     * mergeable if either asks for it, and out of core dumps if either
     * turns dumping off
     */
    host_mem_backing_init(out, ms->mem_merge, ms->dump_guest_core);
    out->share = b->share;
    out->reserve = b->reserve;
    out->prealloc = b->prealloc;
    if (object_property_is_user_set(backend, "merge")) {
        out->merge = b->merge || ms->mem_merge;
    }
    if (object_property_is_user_set(backend, "dump")) {
        out->dump = b->dump && ms->dump_guest_core;
    }
    out->policy = b->policy;
    memcpy(out->host_nodes, b->host_nodes, sizeof(out->host_nodes));
}

bool user_objects_machine_ram(MachineState *ms, bool mem_given, Error **errp)
{
    HostMemoryBackend *b;
    HostMemBacking backing;
    Object *obj;

    /* QEMU's implicit backend follows -machine mem-merge/dump-guest-core */
    host_mem_backing_init(&backing, ms->mem_merge, ms->dump_guest_core);
    if (!ms->memory_backend) {
        host_mem_set_ram_backing(&backing);
        return true;
    }
    obj = object_resolve_path_component(object_get_container("objects"),
                                        ms->memory_backend);
    if (!obj || !object_dynamic_cast(obj, TYPE_MEMORY_BACKEND)) {
        error_setg(errp, "Memory backend '%s' not found", ms->memory_backend);
        return false;
    }
    b = (HostMemoryBackend *)obj;
    if (!mem_given) {
        ms->ram_size = b->size;
    } else if (b->size != ms->ram_size) {
        error_setg(errp, "Machine memory size does not match the size of the "
                   "memory backend");
        return false;
    }
    user_objects_backend_backing(ms, obj, &backing);
    host_mem_set_ram_backing(&backing);
    return true;
}

bool user_object_check_type(const char *type, Error **errp)
{
    ObjectClass *oc = object_class_by_name(type);

    if (!oc || object_class_is_abstract(oc) ||
        (strcmp(type, TYPE_SECRET) && strcmp(type, "iothread") &&
         !object_class_dynamic_cast(oc, TYPE_MEMORY_BACKEND) &&
         !object_class_dynamic_cast(oc, TYPE_RNG_BACKEND))) {
        error_setg(errp, "Parameter 'qom-type' does not accept value '%s'",
                   type);
        return false;
    }
    return true;
}

/* query-memdev: every memory backend, the machine's RAM's too */
JsonNode *qmp_query_memdev(Error **errp)
{
    Object *objects = object_get_container("objects");
    JsonArray *arr = json_array_new();
    guint i;

    for (i = 0; i < objects->children->len; i++) {
        Object *obj = g_ptr_array_index(objects->children, i);
        HostMemoryBackend *b = (HostMemoryBackend *)obj;
        JsonObject *o;

        if (!object_dynamic_cast(obj, TYPE_MEMORY_BACKEND)) {
            continue;
        }
        o = json_object_new();
        json_object_set_boolean_member(o, "share", b->share);
        json_object_set_boolean_member(o, "reserve", b->reserve);
        json_object_set_boolean_member(o, "prealloc", b->prealloc);
        json_object_set_member(o, "host-nodes",
                               backend_get_host_nodes(obj, NULL, NULL));
        json_object_set_int_member(o, "size", b->size);
        json_object_set_boolean_member(o, "merge", b->merge);
        json_object_set_boolean_member(o, "dump", b->dump);
        json_object_set_string_member(o, "policy",
                                      host_mem_policy_names[b->policy]);
        json_object_set_string_member(o, "id", obj->name);
        json_array_add_object_element(arr, o);
    }
    return json_node_init_array(json_node_alloc(), arr);
}
