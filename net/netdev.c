/*
 * -netdev, -nic, -net and netdev_add/netdev_del: from options to netdevs.
 *
 * Both forms of -netdev end in the same struct (qapi/schema.json's Netdev
 * union) as netdev_add's arguments:
 *   - JSON ('{"type":"user","id":"n0"}'): checked by the QMP argument
 *     visitor, so the texts are netdev_add's, as in QEMU;
 *   - key=value ("user,id=n0,hostfwd=...,hostfwd=..."): each value is
 *     converted by the option's legacy type first (legacy_opts[]), with
 *     the texts of QEMU's options visitor ("Parameter 'ipv4' expects 'on'
 *     or 'off'"); repeating a list option appends, repeating any other
 *     keeps the last value.
 * Command-line netdevs are created once every option is parsed
 * (net_init_clients(), from qemu_init), so that -chardev may come after
 * the -netdev that forwards to it.  A netdev without a peer once the
 * machine is built gets QEMU's warning.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "monitor/qmp.h"
#include "net/net.h"
#include "qapi/qapi-visit.h"
#include "qapi-commands.h"
#include "qemu/option.h"

typedef enum LegacyKind {
    LEGACY_STR, LEGACY_BOOL, LEGACY_INT64, LEGACY_UINT32, LEGACY_SIZE,
    LEGACY_LIST,
} LegacyKind;

/* The option types QEMU's schema gives the members (introspection shows
 * them as "int"), which decide the key=value conversions */
static const struct {
    NetClientDriver type;
    const char *name;
    LegacyKind kind;
} legacy_opts[] = {
    { NET_CLIENT_DRIVER_USER, "restrict", LEGACY_BOOL },
    { NET_CLIENT_DRIVER_USER, "ipv4", LEGACY_BOOL },
    { NET_CLIENT_DRIVER_USER, "ipv6", LEGACY_BOOL },
    { NET_CLIENT_DRIVER_USER, "ipv6-prefixlen", LEGACY_INT64 },
    { NET_CLIENT_DRIVER_USER, "dnssearch", LEGACY_LIST },
    { NET_CLIENT_DRIVER_USER, "hostfwd", LEGACY_LIST },
    { NET_CLIENT_DRIVER_USER, "guestfwd", LEGACY_LIST },
    { NET_CLIENT_DRIVER_TAP, "sndbuf", LEGACY_SIZE },
    { NET_CLIENT_DRIVER_TAP, "vnet_hdr", LEGACY_BOOL },
    { NET_CLIENT_DRIVER_TAP, "vhost", LEGACY_BOOL },
    { NET_CLIENT_DRIVER_TAP, "vhostforce", LEGACY_BOOL },
    { NET_CLIENT_DRIVER_TAP, "queues", LEGACY_UINT32 },
    { NET_CLIENT_DRIVER_TAP, "poll-us", LEGACY_UINT32 },
};

typedef struct PendingNetdev {
    char *optarg;           /* for the error location */
    bool legacy;            /* key=value: QEMU keeps these in QemuOpts */
    Netdev *netdev;
    JsonObject *json;       /* owns the strings netdev points to */
} PendingNetdev;

static GPtrArray *pending;  /* PendingNetdev*, -netdev in order */
static guint no_peer_idle;
static bool cleanup_registered;

static const QapiStructDesc *netdev_desc(void)
{
    const QmpCommand *c;

    for (c = qmp_commands; c->name; c++) {
        if (!strcmp(c->name, "netdev_add")) {
            return c->args;
        }
    }
    g_assert_not_reached();
}

static LegacyKind legacy_kind(const char *type, const char *name)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(legacy_opts); i++) {
        if (!strcmp(NetClientDriver_str[legacy_opts[i].type], type) &&
            !strcmp(legacy_opts[i].name, name)) {
            return legacy_opts[i].kind;
        }
    }
    return LEGACY_STR;
}

/* One key=value converted to the JSON value the schema wants */
static JsonNode *legacy_value(const char *name, const char *value,
                              LegacyKind kind, Error **errp)
{
    JsonNode *n = NULL;
    uint64_t u;
    char *end;
    bool b;

    switch (kind) {
    case LEGACY_STR:
        return json_node_init_string(json_node_alloc(), value);
    case LEGACY_BOOL:
        if (!strcmp(value, "on") || !strcmp(value, "yes") ||
            !strcmp(value, "true") || !strcmp(value, "y")) {
            b = true;
        } else if (!strcmp(value, "off") || !strcmp(value, "no") ||
                   !strcmp(value, "false") || !strcmp(value, "n")) {
            b = false;
        } else {
            error_setg(errp, "Parameter '%s' expects 'on' or 'off'", name);
            return NULL;
        }
        return json_node_init_boolean(json_node_alloc(), b);
    case LEGACY_INT64: {
        long long v;

        errno = 0;
        v = strtoll(value, &end, 0);
        if (!*value || *end || errno) {
            error_setg(errp, "Parameter '%s' expects an int64 value", name);
            return NULL;
        }
        return json_node_init_int(json_node_alloc(), v);
    }
    case LEGACY_UINT32:
        errno = 0;
        u = strtoull(value, &end, 0);
        if (!*value || *end || errno || value[strspn(value, " \t")] == '-') {
            error_setg(errp, "Parameter '%s' expects a uint64 value", name);
            return NULL;
        }
        if (u > UINT32_MAX) {
            error_setg(errp, "Parameter '%s' expects uint32_t", name);
            return NULL;
        }
        return json_node_init_int(json_node_alloc(), u);
    case LEGACY_SIZE:
        if (qemu_strtosz(value, 1, &u, NULL) < 0 || u > INT64_MAX) {
            error_setg(errp, "Parameter '%s' expects a size value", name);
            return NULL;
        }
        return json_node_init_int(json_node_alloc(), u);
    case LEGACY_LIST:
        break;
    }
    return n;
}

/*
 * "TYPE,id=ID,key=value,..." as the JSON object netdev_add would take.
 * The id is checked first, as QEMU does.
 */
static JsonObject *legacy_to_json(const char *optarg, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "type", errp);
    JsonObject *obj;
    const char *type, *id;
    guint i;

    if (!opts) {
        return NULL;
    }
    obj = json_object_new();
    /* QemuOpts keeps the first id; every other key its last value */
    id = NULL;
    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);

        if (!strcmp(o->name, "id") && !id) {
            id = o->value;
        }
    }
    type = qemu_opt_get(opts, "type");
    if (!id) {
        error_setg(errp, "Parameter 'id' is missing");
        goto fail;
    }
    if (!id_wellformed(id)) {
        error_setg(errp, "Parameter 'id' expects an identifier");
        error_append_hint(errp, "Identifiers consist of letters, digits, "
                          "'-', '.', '_', starting with a letter.\n");
        goto fail;
    }
    json_object_set_string_member(obj, "id", id);
    if (type) {
        json_object_set_string_member(obj, "type", type);
    }
    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);
        LegacyKind kind;

        if (!strcmp(o->name, "id") || !strcmp(o->name, "type")) {
            continue;
        }
        kind = legacy_kind(type ? type : "", o->name);
        if (kind == LEGACY_LIST) {
            JsonObject *s = json_object_new();
            JsonArray *a;

            if (!json_object_has_member(obj, o->name)) {
                json_object_set_array_member(obj, o->name, json_array_new());
            }
            a = json_object_get_array_member(obj, o->name);
            json_object_set_string_member(s, "str", o->value);
            json_array_add_object_element(a, s);
        } else {
            JsonNode *n = legacy_value(o->name, o->value, kind, errp);

            if (!n) {
                goto fail;
            }
            json_object_set_member(obj, o->name, n);
        }
    }
    qemu_opts_free(opts);
    return obj;

fail:
    json_object_unref(obj);
    qemu_opts_free(opts);
    return NULL;
}

/*
 * The options visitor names an unknown key=value option "Invalid
 * parameter"; the QMP visitor calls it "unexpected".
 */
static void legacy_fix_error(Error **errp, Error *err)
{
    const char *msg = error_get_pretty(err);
    const char *p = "Parameter '", *s = "' is unexpected";
    size_t n = strlen(msg);

    if (g_str_has_prefix(msg, p) && g_str_has_suffix(msg, s) &&
        n > strlen(p) + strlen(s)) {
        error_setg(errp, "Invalid parameter '%.*s'",
                   (int)(n - strlen(p) - strlen(s)), msg + strlen(p));
        error_free(err);
        return;
    }
    error_propagate(errp, err);
}

/* Parses a -netdev argument (either form) into a Netdev; *json owns it */
static Netdev *netdev_parse(const char *optarg, JsonObject **json,
                            Error **errp)
{
    bool legacy = optarg[0] != '{';
    Netdev *nd = g_new0(Netdev, 1);
    Error *err = NULL;

    *json = legacy ? legacy_to_json(optarg, errp)
                   : qemu_opts_parse_json(optarg, errp);
    if (!*json) {
        g_free(nd);
        return NULL;
    }
    if (!qapi_visit_struct(netdev_desc(), *json, nd, &err)) {
        if (legacy) {
            legacy_fix_error(errp, err);
        } else {
            error_propagate(errp, err);
        }
        qapi_struct_free(netdev_desc(), nd);
        g_free(nd);
        json_object_unref(*json);
        *json = NULL;
        return NULL;
    }
    return nd;
}

static void netdev_free(Netdev *nd, JsonObject *json)
{
    if (nd) {
        qapi_struct_free(netdev_desc(), nd);
        g_free(nd);
    }
    if (json) {
        json_object_unref(json);
    }
}

bool net_client_init(const Netdev *nd, bool is_cli, Error **errp)
{
    if (!id_wellformed(nd->id)) {
        error_setg(errp, "Parameter 'id' expects an identifier");
        error_append_hint(errp, "Identifiers consist of letters, digits, "
                          "'-', '.', '_', starting with a letter.\n");
        return false;
    }
    if (qemu_net_find_netdev(nd->id)) {
        error_setg(errp, "Duplicate ID '%s'", nd->id);
        return false;
    }
    switch (nd->type) {
    case NET_CLIENT_DRIVER_USER:
        return net_init_slirp(nd, nd->id, errp);
    case NET_CLIENT_DRIVER_TAP:
        return net_init_tap(nd, nd->id, is_cli, errp);
    default:
        error_setg(errp, "network backend '%s' is not compiled into this "
                   "binary", NetClientDriver_str[nd->type]);
        return false;
    }
}

/* Options ------------------------------------------------------------------ */

bool net_netdev_option(const char *optarg, Error **errp)
{
    PendingNetdev *p;
    JsonObject *json;
    Netdev *nd = netdev_parse(optarg, &json, errp);

    if (!nd) {
        return false;
    }
    if (!pending) {
        pending = g_ptr_array_new();
    }
    /* QemuOpts catches a key=value duplicate at once; JSON ones are
     * caught when created ("Duplicate ID 'a'") */
    for (guint i = 0; optarg[0] != '{' && i < pending->len; i++) {
        PendingNetdev *o = g_ptr_array_index(pending, i);

        if (o->legacy && !strcmp(o->netdev->id, nd->id)) {
            error_setg(errp, "Duplicate ID '%s' for netdev", nd->id);
            netdev_free(nd, json);
            return false;
        }
    }
    p = g_new0(PendingNetdev, 1);
    p->legacy = optarg[0] != '{';
    p->optarg = g_strdup(optarg);
    p->netdev = nd;
    p->json = json;
    g_ptr_array_add(pending, p);
    return true;
}

/* QEMU's check of a MAC address: six hex pairs separated by ':' or '-' */
static bool mac_parse(const char *s, uint8_t mac[6])
{
    int i;

    for (i = 0; i < 6; i++) {
        char *end;
        long v = strtol(s, &end, 16);

        if (end - s < 1 || end - s > 2 || v < 0) {
            return false;
        }
        mac[i] = v;
        s = end;
        if (i < 5) {
            if (*s != ':' && *s != '-') {
                return false;
            }
            s++;
        }
    }
    return !*s;
}

/*
 * -nic TYPE[,NETDEV-OPTIONS][,mac=MAC][,model=MODEL]: a netdev plus the
 * NIC that uses it.  Everything is checked; then, since this build has no
 * NIC devices yet, anything but "-nic none" is refused: accepting it would
 * silently drop the guest's network card.
 */
bool net_nic_option(const char *optarg, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "type", errp);
    GString *rest;
    const char *type, *mac, *model;
    uint8_t macaddr[6];
    JsonObject *json;
    Netdev *nd;
    guint i;

    if (!opts) {
        return false;
    }
    type = qemu_opt_get(opts, "type");
    mac = qemu_opt_get(opts, "mac");
    model = qemu_opt_get(opts, "model");
    if (type && !strcmp(type, "none")) {
        qemu_opts_free(opts);
        return true;
    }
    if (mac && !mac_parse(mac, macaddr)) {
        error_setg(errp, "invalid syntax for ethernet address");
        qemu_opts_free(opts);
        return false;
    }
    /* The netdev part, under a stand-in id, as QEMU checks it */
    rest = g_string_new(type ? type : "");
    g_string_append(rest, ",id=nic.check");
    for (i = 0; i < opts->opts->len; i++) {
        QemuOpt *o = g_ptr_array_index(opts->opts, i);
        char **parts;

        if (!strcmp(o->name, "type") || !strcmp(o->name, "mac") ||
            !strcmp(o->name, "model") || !strcmp(o->name, "id")) {
            continue;
        }
        parts = g_strsplit(o->value, ",", -1);
        g_string_append_printf(rest, ",%s=", o->name);
        g_string_append(rest, parts[0]);
        for (int j = 1; parts[j]; j++) {
            g_string_append_printf(rest, ",,%s", parts[j]);
        }
        g_strfreev(parts);
    }
    nd = netdev_parse(rest->str, &json, errp);
    g_string_free(rest, TRUE);
    if (nd) {
        netdev_free(nd, json);
        error_setg(errp, "NIC devices are not available in this build yet: "
                   "-nic needs a NIC (model %s); use -netdev for the "
                   "backend", model ? model : "e1000");
    }
    qemu_opts_free(opts);
    return false;
}

/*
 * -net TYPE,...: QEMU's legacy hub of NICs and backends.  Only "-net
 * none" (no default NIC) is accepted; the rest is refused after the type
 * is checked.
 */
bool net_net_option(const char *optarg, Error **errp)
{
    QemuOpts *opts = qemu_opts_parse(optarg, "type", errp);
    const char *type;
    bool ok = false;
    int i;

    if (!opts) {
        return false;
    }
    type = qemu_opt_get(opts, "type");
    for (i = 0; type && NetClientDriver_str[i]; i++) {
        if (!strcmp(NetClientDriver_str[i], type)) {
            break;
        }
    }
    if (!type) {
        error_setg(errp, "Parameter 'type' is missing");
    } else if (!NetClientDriver_str[i]) {
        error_setg(errp, "Parameter 'type' does not accept value '%s'", type);
    } else if (!strcmp(type, "none")) {
        ok = true;
    } else {
        error_setg(errp, "-net %s is not supported by this build (it needs "
                   "QEMU's hubs and NIC devices): use -netdev", type);
    }
    qemu_opts_free(opts);
    return ok;
}

/*
 * Start-up only: reports and exits (the option parser has set the
 * option's location, "-netdev ARG: ", for every message)
 */
static void cli_run(const char *opt, const char *arg,
                    bool (*parse)(const char *, Error **))
{
    Error *err = NULL;

    if (!parse(arg, &err)) {
        error_report_err(err);
        exit(1);
    }
}

void net_netdev_cli(const char *opt, const char *arg)
{
    if (!strcmp(arg, "help")) {
        printf("Available netdev backend types:\nuser\ntap\n");
        exit(0);
    }
    cli_run(opt, arg, net_netdev_option);
}

void net_net_cli(const char *opt, const char *arg)
{
    cli_run(opt, arg, net_net_option);
}

void net_nic_cli(const char *opt, const char *arg)
{
    cli_run(opt, arg, net_nic_option);
}

static gboolean net_check_peers(gpointer opaque)
{
    NetClientState *nc;

    no_peer_idle = 0;
    for (nc = net_netdev_first(); nc; nc = net_netdev_next(nc)) {
        if (!nc->peer) {
            warn_report("netdev %s has no peer", nc->name);
        }
    }
    return G_SOURCE_REMOVE;
}

static void pending_free(PendingNetdev *p)
{
    netdev_free(p->netdev, p->json);
    g_free(p->optarg);
    g_free(p);
}

bool net_init_clients(Error **errp)
{
    bool ok = true;
    guint i;

    /* QEMU 7.2 creates the JSON ones first, then the key=value ones */
    for (int pass = 0; pass < 2; pass++) {
        for (i = 0; pending && i < pending->len; i++) {
            PendingNetdev *p = g_ptr_array_index(pending, i);

            if (p->legacy != (pass == 1)) {
                continue;
            }
            if (ok && !net_client_init(p->netdev, true, errp)) {
                error_prepend(errp, "-netdev %s: ", p->optarg);
                ok = false;
            }
        }
    }
    for (i = 0; pending && i < pending->len; i++) {
        pending_free(g_ptr_array_index(pending, i));
    }
    if (pending) {
        g_ptr_array_free(pending, TRUE);
        pending = NULL;
    }
    if (ok) {
        /*
         * QEMU warns once the devices exist, just before the main loop:
         * a high-priority idle callback runs first thing in the loop.
         */
        if (net_netdev_first() && !no_peer_idle) {
            no_peer_idle = g_idle_add_full(G_PRIORITY_HIGH, net_check_peers,
                                           NULL, NULL);
        }
        if (!cleanup_registered) {
            atexit(net_cleanup);
            cleanup_registered = true;
        }
    }
    return ok;
}

/* HMP ------------------------------------------------------------------------ */

static void info_client(GString *out, NetClientState *nc, const char *indent)
{
    g_string_append_printf(out, "%s%s: index=0,type=%s,%s\r\n", indent,
                           nc->name, nc->is_netdev
                               ? NetClientDriver_str[nc->info->type]
                               : "nic",
                           nc->info_str ? nc->info_str : "");
}

/* Each NIC with its netdev, then the netdevs without a NIC */
void hmp_info_network(GString *out)
{
    NetClientState *nc;

    for (nc = net_netdev_first(); nc; nc = net_netdev_next(nc)) {
        if (nc->peer) {
            info_client(out, nc->peer, "");
            info_client(out, nc, " \\ ");
        }
    }
    for (nc = net_netdev_first(); nc; nc = net_netdev_next(nc)) {
        if (!nc->peer) {
            info_client(out, nc, "");
        }
    }
}

/* QMP ------------------------------------------------------------------------ */

JsonNode *qmp_netdev_add(const Netdev *args, Error **errp)
{
    if (!net_client_init(args, false, errp)) {
        return NULL;
    }
    return qmp_empty_return();
}

JsonNode *qmp_netdev_del(const QmpArgsNetdevDel *args, Error **errp)
{
    NetClientState *nc = qemu_net_find_netdev(args->id);

    if (!nc) {
        error_set(errp, ERROR_CLASS_DEVICE_NOT_FOUND, "Device '%s' not found",
                  args->id);
        return NULL;
    }
    qemu_del_net_client(nc);
    return qmp_empty_return();
}
