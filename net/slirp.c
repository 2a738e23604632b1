/*
 * -netdev user: user-mode networking on libslirp (Debian's libslirp0).
 *
 * libslirp is a whole TCP/IP host in a library: it answers the guest's
 * ARP, DHCP and DNS, and turns the guest's TCP/UDP flows into the host's
 * own sockets.  This file only configures it (QEMU 7.2's options, checks
 * and texts) and plugs it into GLib: each slirp instance has a GSource
 * that asks libslirp before every poll which fds to watch and how long to
 * sleep (slirp_pollfds_fill), then lets it handle what became ready
 * (slirp_pollfds_poll) and fires its timers.
 *
 * Defaults as QEMU's: network 10.0.2.0/24, host (gateway) .2, DNS .3,
 * DHCP from .15; hostfwd=, guestfwd= to a chardev ("chardev:ID" or a
 * legacy spec such as tcp:127.0.0.1:PORT) or a command (cmd:...).
 * smb= needs QEMU's smbd wrapper and is refused.
 *
 * The library is opened on the first -netdev user (dlopen, as QEMU loads
 * its modules): a VM without user networking never maps it, which keeps
 * its start-up and footprint down.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <slirp/libslirp.h>

#include "chardev/char.h"
#include "ipv4-reass.h"
#include "net/net.h"

/* What this file calls in libslirp, resolved once by slirp_lib_open() */
#define SLIRP_LIB_FUNCS(F) \
    F(new) F(cleanup) F(input) F(pollfds_fill) F(pollfds_poll) \
    F(add_hostfwd) F(add_exec) F(add_guestfwd) F(remove_guestfwd) \
    F(socket_can_recv) F(socket_recv) F(connection_info)

static struct SlirpLib {
#define SLIRP_LIB_FIELD(f) __typeof__(slirp_##f) *f;
    SLIRP_LIB_FUNCS(SLIRP_LIB_FIELD)
#undef SLIRP_LIB_FIELD
} slirp_lib;

static bool slirp_lib_open(Error **errp)
{
    static void *handle;
    const char *missing = NULL;

    if (handle) {
        return true;
    }
    handle = dlopen("libslirp.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        error_setg(errp, "could not load libslirp: %s", dlerror());
        return false;
    }
#define SLIRP_LIB_SYM(f) \
    if (!missing && !(slirp_lib.f = dlsym(handle, "slirp_" #f))) { \
        missing = "slirp_" #f; \
    }
    SLIRP_LIB_FUNCS(SLIRP_LIB_SYM)
#undef SLIRP_LIB_SYM
    if (missing) {
        error_setg(errp, "could not load libslirp: %s is missing", missing);
        dlclose(handle);
        handle = NULL;
        return false;
    }
    return true;
}

typedef struct SlirpTimer {
    SlirpTimerCb cb;
    void *cb_opaque;
    int64_t expire_ms;          /* -1: not armed */
} SlirpTimer;

typedef struct SlirpGuestFwd {
    struct SlirpState *s;
    Chardev *chr;
    struct in_addr addr;
    int port;
} SlirpGuestFwd;

typedef struct SlirpSource {
    GSource source;
    struct SlirpState *s;
} SlirpSource;

typedef struct SlirpState {
    NetClientState nc;
    Slirp *slirp;
    SlirpSource *source;
    GArray *pollfds;            /* GPollFD, registered with the source */
    GPtrArray *timers;          /* SlirpTimer* */
    GPtrArray *guestfwds;       /* SlirpGuestFwd* */
    int64_t poll_deadline_ms;   /* slirp's own TCP timers want a poll then */
    Ipv4Reass *reass;           /* slirp never sees a fragment */
} SlirpState;

static int64_t slirp_now_ms(void)
{
    return g_get_monotonic_time() / 1000;
}

/* libslirp's callbacks ------------------------------------------------------ */

static ssize_t slirp_cb_send(const void *buf, size_t len, void *opaque)
{
    SlirpState *s = opaque;

    qemu_send_packet(&s->nc, buf, len);
    return len;
}

static void slirp_cb_guest_error(const char *msg, void *opaque)
{
    /* A guest's bad frame: not the emulator's error (QEMU logs it only
     * with -d guest_errors) */
}

static int64_t slirp_cb_clock_ns(void *opaque)
{
    return g_get_monotonic_time() * 1000;
}

static void *slirp_cb_timer_new(SlirpTimerCb cb, void *cb_opaque,
                                void *opaque)
{
    SlirpState *s = opaque;
    SlirpTimer *t = g_new0(SlirpTimer, 1);

    t->cb = cb;
    t->cb_opaque = cb_opaque;
    t->expire_ms = -1;
    g_ptr_array_add(s->timers, t);
    return t;
}

static void slirp_cb_timer_free(void *timer, void *opaque)
{
    SlirpState *s = opaque;

    g_ptr_array_remove(s->timers, timer);
    g_free(timer);
}

static void slirp_cb_timer_mod(void *timer, int64_t expire_ms, void *opaque)
{
    ((SlirpTimer *)timer)->expire_ms = expire_ms;
}

static void slirp_cb_fd(int fd, void *opaque)
{
    /* fds are collected before every poll (slirp_pollfds_fill) */
}

static void slirp_cb_notify(void *opaque)
{
    SlirpState *s = opaque;
    guint i;

    /* slirp's sockets can take data again: guestfwd chardevs may read */
    for (i = 0; i < s->guestfwds->len; i++) {
        SlirpGuestFwd *f = g_ptr_array_index(s->guestfwds, i);

        qemu_chr_accept_input(f->chr);
    }
    g_main_context_wakeup(NULL);
}

static const SlirpCb slirp_callbacks = {
    .send_packet = slirp_cb_send,
    .guest_error = slirp_cb_guest_error,
    .clock_get_ns = slirp_cb_clock_ns,
    .timer_new = slirp_cb_timer_new,
    .timer_free = slirp_cb_timer_free,
    .timer_mod = slirp_cb_timer_mod,
    .register_poll_fd = slirp_cb_fd,
    .unregister_poll_fd = slirp_cb_fd,
    .notify = slirp_cb_notify,
};

/* The GSource ------------------------------------------------------------------ */

static int slirp_add_poll(int fd, int events, void *opaque)
{
    SlirpState *s = opaque;
    GPollFD p = { .fd = fd };

    p.events = (events & SLIRP_POLL_IN ? G_IO_IN : 0) |
               (events & SLIRP_POLL_OUT ? G_IO_OUT : 0) |
               (events & SLIRP_POLL_PRI ? G_IO_PRI : 0) |
               (events & SLIRP_POLL_ERR ? G_IO_ERR : 0) |
               (events & SLIRP_POLL_HUP ? G_IO_HUP : 0);
    g_array_append_val(s->pollfds, p);
    return s->pollfds->len - 1;
}

static int slirp_get_revents(int idx, void *opaque)
{
    SlirpState *s = opaque;
    gushort r;

    if (idx < 0 || (guint)idx >= s->pollfds->len) {
        return 0;
    }
    r = g_array_index(s->pollfds, GPollFD, idx).revents;
    return (r & G_IO_IN ? SLIRP_POLL_IN : 0) |
           (r & G_IO_OUT ? SLIRP_POLL_OUT : 0) |
           (r & G_IO_PRI ? SLIRP_POLL_PRI : 0) |
           (r & G_IO_ERR ? SLIRP_POLL_ERR : 0) |
           (r & G_IO_HUP ? SLIRP_POLL_HUP : 0);
}

static void slirp_unregister_polls(SlirpState *s)
{
    guint i;

    for (i = 0; i < s->pollfds->len; i++) {
        g_source_remove_poll(&s->source->source,
                             &g_array_index(s->pollfds, GPollFD, i));
    }
    g_array_set_size(s->pollfds, 0);
}

static gboolean slirp_source_prepare(GSource *source, gint *timeout)
{
    SlirpState *s = ((SlirpSource *)source)->s;
    uint32_t tmo = UINT32_MAX;
    int64_t now = slirp_now_ms();
    guint i;

    slirp_unregister_polls(s);
    slirp_lib.pollfds_fill(s->slirp, &tmo, slirp_add_poll, s);
    /* libslirp runs its TCP timers from slirp_pollfds_poll: the timeout
     * it asks for must end in a dispatch even if no fd is ready */
    s->poll_deadline_ms = tmo == UINT32_MAX ? -1 : now + tmo;
    for (i = 0; i < s->pollfds->len; i++) {
        g_source_add_poll(source, &g_array_index(s->pollfds, GPollFD, i));
    }
    for (i = 0; i < s->timers->len; i++) {
        SlirpTimer *t = g_ptr_array_index(s->timers, i);

        if (t->expire_ms >= 0) {
            int64_t left = MAX(t->expire_ms - now, 0);

            tmo = MIN((int64_t)tmo, left);
        }
    }
    *timeout = tmo == UINT32_MAX ? -1 : (gint)MIN(tmo, (uint32_t)G_MAXINT);
    return *timeout == 0;
}

static gboolean slirp_source_check(GSource *source)
{
    SlirpState *s = ((SlirpSource *)source)->s;
    int64_t now = slirp_now_ms();
    guint i;

    if (s->poll_deadline_ms >= 0 && s->poll_deadline_ms <= now) {
        return TRUE;
    }
    for (i = 0; i < s->pollfds->len; i++) {
        if (g_array_index(s->pollfds, GPollFD, i).revents) {
            return TRUE;
        }
    }
    for (i = 0; i < s->timers->len; i++) {
        SlirpTimer *t = g_ptr_array_index(s->timers, i);

        if (t->expire_ms >= 0 && t->expire_ms <= now) {
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean slirp_source_dispatch(GSource *source, GSourceFunc cb,
                                      gpointer data)
{
    SlirpState *s = ((SlirpSource *)source)->s;
    int64_t now = slirp_now_ms();
    guint i;

    slirp_lib.pollfds_poll(s->slirp, 0, slirp_get_revents, s);
    for (i = 0; i < s->pollfds->len; i++) {
        g_array_index(s->pollfds, GPollFD, i).revents = 0;
    }
    /* A callback may free or re-arm timers: fire from a snapshot, each
     * only if it still exists and is still due */
    {
        GPtrArray *due = g_ptr_array_new();

        for (i = 0; i < s->timers->len; i++) {
            SlirpTimer *t = g_ptr_array_index(s->timers, i);

            if (t->expire_ms >= 0 && t->expire_ms <= now) {
                g_ptr_array_add(due, t);
            }
        }
        for (i = 0; i < due->len; i++) {
            SlirpTimer *t = g_ptr_array_index(due, i);

            if (g_ptr_array_find(s->timers, t, NULL) && t->expire_ms >= 0 &&
                t->expire_ms <= now) {
                t->expire_ms = -1;
                t->cb(t->cb_opaque);
            }
        }
        g_ptr_array_free(due, TRUE);
    }
    return G_SOURCE_CONTINUE;
}

static GSourceFuncs slirp_source_funcs = {
    .prepare = slirp_source_prepare,
    .check = slirp_source_check,
    .dispatch = slirp_source_dispatch,
};

/* The net client ---------------------------------------------------------------- */

static ssize_t slirp_receive(NetClientState *nc, const uint8_t *buf,
                             size_t size)
{
    SlirpState *s = (SlirpState *)nc;

    const uint8_t *frame;
    size_t len;

    if (size == 0 || size > NET_BUFSIZE) {
        return size;
    }
    frame = ipv4_reass_input(s->reass, buf, size, &len, slirp_now_ms());
    if (frame) {
        slirp_lib.input(s->slirp, frame, len);
    }
    return size;
}

static void slirp_cleanup_state(NetClientState *nc)
{
    SlirpState *s = (SlirpState *)nc;
    guint i;

    for (i = 0; i < s->guestfwds->len; i++) {
        SlirpGuestFwd *f = g_ptr_array_index(s->guestfwds, i);

        qemu_chr_clear_handlers(f->chr);
        g_free(f);
    }
    g_ptr_array_free(s->guestfwds, TRUE);
    if (s->source) {
        slirp_unregister_polls(s);
        g_source_destroy(&s->source->source);
        g_source_unref(&s->source->source);
    }
    if (s->slirp) {
        slirp_lib.cleanup(s->slirp);
    }
    /* slirp_cleanup frees its timers through timer_free */
    for (i = 0; i < s->timers->len; i++) {
        g_free(g_ptr_array_index(s->timers, i));
    }
    g_ptr_array_free(s->timers, TRUE);
    g_array_free(s->pollfds, TRUE);
    ipv4_reass_free(s->reass);
}

static const NetClientInfo slirp_info = {
    .type = NET_CLIENT_DRIVER_USER,
    .size = sizeof(SlirpState),
    .receive = slirp_receive,
    .cleanup = slirp_cleanup_state,
};

/* Forwarding rules ---------------------------------------------------------------- */

/* Cuts *p at the first sep: the part before in *out; false if no sep */
static bool take_until(const char **p, char sep, char **out)
{
    const char *e = strchr(*p, sep);

    if (!e) {
        return false;
    }
    *out = g_strndup(*p, e - *p);
    *p = e + 1;
    return true;
}

/* A port as QEMU reads it: strtol base 0, the whole string, in range */
static bool parse_port(const char *s, int min, int *port)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 0);
    if (!*s || *end || errno || v < min || v > 65535) {
        return false;
    }
    *port = v;
    return true;
}

/* hostfwd=[tcp|udp]:[hostaddr]:hostport-[guestaddr]:guestport */
static bool slirp_hostfwd(SlirpState *s, const char *rule, Error **errp)
{
    struct in_addr host = { .s_addr = INADDR_ANY }, guest = { 0 };
    const char *p = rule, *why = NULL;
    char *proto = NULL, *haddr = NULL, *hport = NULL, *gaddr = NULL;
    int host_port = 0, guest_port = 0;
    bool udp = false;

    if (!take_until(&p, ':', &proto)) {
        why = "No : separators";
    } else if (strcmp(proto, "tcp") && strcmp(proto, "udp") && *proto) {
        why = "Bad protocol name";
    } else if ((udp = !strcmp(proto, "udp")), !take_until(&p, ':', &haddr)) {
        why = "Missing : separator";
    } else if (*haddr && !inet_aton(haddr, &host)) {
        why = "Bad host address";
    } else if (!take_until(&p, '-', &hport)) {
        why = "Bad host port separator";
    } else if (!parse_port(hport, 0, &host_port)) {
        why = "Bad host port";
    } else if (!take_until(&p, ':', &gaddr)) {
        why = "Missing guest address";
    } else if (*gaddr && !inet_aton(gaddr, &guest)) {
        why = "Bad guest address";
    } else if (!parse_port(p, 1, &guest_port)) {
        why = "Bad guest port";
    }
    g_free(proto);
    g_free(haddr);
    g_free(hport);
    g_free(gaddr);
    if (why) {
        error_setg(errp, "Invalid host forwarding rule '%s' (%s)", rule, why);
        return false;
    }
    if (slirp_lib.add_hostfwd(s->slirp, udp, host, host_port, guest,
                          guest_port) < 0) {
        error_setg(errp, "Could not set up host forwarding rule '%s'", rule);
        return false;
    }
    return true;
}

static size_t guestfwd_can_read(void *opaque)
{
    SlirpGuestFwd *f = opaque;

    return slirp_lib.socket_can_recv(f->s->slirp, f->addr, f->port);
}

static void guestfwd_read(void *opaque, const uint8_t *buf, size_t len)
{
    SlirpGuestFwd *f = opaque;

    slirp_lib.socket_recv(f->s->slirp, f->addr, f->port, buf, len);
}

static ssize_t guestfwd_write(const void *buf, size_t len, void *opaque)
{
    SlirpGuestFwd *f = opaque;

    return qemu_chr_write_all(f->chr, buf, len) ? (ssize_t)len : -1;
}

/* The chardev of a guestfwd rule: "chardev:ID" or a legacy spec */
static Chardev *guestfwd_chardev(const char *spec, int port, Error **errp)
{
    char *id = g_strdup_printf("guestfwd.tcp.%d", port);
    Chardev *chr = NULL;
    Error *err = NULL;

    if (g_str_has_prefix(spec, "chardev:")) {
        chr = qemu_chr_find(spec + strlen("chardev:"));
    } else {
        char *opts = qemu_chr_legacy_to_opts(spec);

        if (!opts) {
            error_report("'%s' is not a valid char driver", spec);
        } else {
            chr = qemu_chr_new_from_str(id, opts, &err);
            if (!chr) {
                error_report_err(err);
            }
            g_free(opts);
        }
    }
    if (!chr) {
        error_setg(errp, "Could not open guest forwarding device '%s'", id);
    }
    g_free(id);
    return chr;
}

/* guestfwd=[tcp]:[server]:port-cmd:COMMAND | -CHARDEV */
static bool slirp_guestfwd(SlirpState *s, const char *rule, Error **errp)
{
    struct in_addr server = { 0 };
    const char *p = rule;
    char *proto = NULL, *addr = NULL, *port_s = NULL;
    int port = 0;
    bool ok = take_until(&p, ':', &proto) &&
              (!*proto || !strcmp(proto, "tcp")) &&
              take_until(&p, ':', &addr) &&
              (!*addr || inet_aton(addr, &server)) &&
              take_until(&p, '-', &port_s) && parse_port(port_s, 1, &port);

    g_free(proto);
    g_free(addr);
    g_free(port_s);
    if (!ok) {
        error_setg(errp, "Invalid guest forwarding rule '%s'", rule);
        return false;
    }
    if (g_str_has_prefix(p, "cmd:")) {
        ok = slirp_lib.add_exec(s->slirp, p + 4, &server, port) >= 0;
    } else {
        SlirpGuestFwd *f;
        ChardevHandlers h = {
            .read = guestfwd_read, .can_read = guestfwd_can_read,
        };
        Chardev *chr = guestfwd_chardev(p, port, errp);

        if (!chr) {
            return false;
        }
        f = g_new0(SlirpGuestFwd, 1);
        f->s = s;
        f->chr = chr;
        f->port = port;
        h.opaque = f;
        ok = slirp_lib.add_guestfwd(s->slirp, guestfwd_write, f, &server,
                                port) >= 0;
        /* slirp filled in the default address when none was given */
        f->addr = server;
        if (ok && !qemu_chr_set_handlers(chr, &h, errp)) {
            slirp_lib.remove_guestfwd(s->slirp, server, port);
            g_free(f);
            return false;
        }
        if (ok) {
            g_ptr_array_add(s->guestfwds, f);
        } else {
            g_free(f);
        }
    }
    if (!ok) {
        error_setg(errp, "Conflicting/invalid host:port in guest forwarding "
                   "rule '%s'", rule);
    }
    return ok;
}

/* Configuration ------------------------------------------------------------------ */

/* QEMU's classful default mask for "net=ADDR" without a prefix */
static uint32_t classful_mask(uint32_t a)
{
    if (!(a & 0x80000000)) {
        return 0xff000000;
    } else if ((a & 0xfff00000) == 0xac100000) {
        return 0xfff00000;
    } else if ((a & 0xc0000000) == 0x80000000) {
        return 0xffff0000;
    } else if ((a & 0xffff0000) == 0xc0a80000) {
        return 0xffff0000;
    } else if ((a & 0xffff0000) == 0xc6120000) {
        return 0xfffe0000;
    } else if ((a & 0xe0000000) == 0xe0000000) {
        return 0xffffff00;
    }
    return 0xfffffff0;
}

/* net=ADDR[/BITS|/MASK] */
static bool parse_vnetwork(const char *spec, struct in_addr *net,
                           struct in_addr *mask, Error **errp)
{
    const char *slash = strchr(spec, '/');
    char *addr = g_strndup(spec, slash ? (size_t)(slash - spec) : strlen(spec));
    bool ok = inet_aton(addr, net);

    g_free(addr);
    if (!ok) {
        error_setg(errp, "Failed to parse netmask");
        return false;
    }
    if (!slash) {
        mask->s_addr = htonl(classful_mask(ntohl(net->s_addr)));
    } else {
        char *end;
        long bits = strtol(slash + 1, &end, 10);

        if (*end) {
            if (!inet_aton(slash + 1, mask)) {
                error_setg(errp, "Failed to parse netmask (trailing chars)");
                return false;
            }
        } else if (bits < 4 || bits > 32) {
            error_setg(errp, "Invalid netmask provided (must be in range "
                       "4-32)");
            return false;
        } else {
            mask->s_addr = htonl(bits == 32 ? 0xffffffff
                                            : ~(0xffffffffu >> bits));
        }
    }
    net->s_addr &= mask->s_addr;
    return true;
}

static bool in6_same_net(const struct in6_addr *a, const struct in6_addr *b,
                         int bits)
{
    int i;

    for (i = 0; i < 16 && bits > 0; i++, bits -= 8) {
        uint8_t m = bits >= 8 ? 0xff : (uint8_t)(0xff << (8 - bits));

        if ((a->s6_addr[i] & m) != (b->s6_addr[i] & m)) {
            return false;
        }
    }
    return true;
}

/* ipv6-prefix=, ipv6-prefixlen=, ipv6-host=, ipv6-dns= into cfg */
static bool parse_ipv6(const NetdevUserOptions *u, SlirpConfig *cfg,
                       Error **errp)
{
    const char *prefix = u->has_ipv6_prefix ? u->ipv6_prefix : "fec0::";
    int64_t len = u->has_ipv6_prefixlen && u->ipv6_prefixlen ?
                  u->ipv6_prefixlen : 64;

    if (!inet_pton(AF_INET6, prefix, &cfg->vprefix_addr6)) {
        error_setg(errp, "Failed to parse IPv6 prefix");
        return false;
    }
    if (len < 0 || len > 126) {
        error_setg(errp, "Invalid IPv6 prefix provided (IPv6 prefix length "
                   "must be between 0 and 126)");
        return false;
    }
    cfg->vprefix_len = len;
    cfg->vhost6 = cfg->vprefix_addr6;
    cfg->vhost6.s6_addr[15] |= 2;
    if (u->has_ipv6_host) {
        if (!inet_pton(AF_INET6, u->ipv6_host, &cfg->vhost6)) {
            error_setg(errp, "Failed to parse IPv6 host");
            return false;
        }
        if (!in6_same_net(&cfg->vprefix_addr6, &cfg->vhost6, len)) {
            error_setg(errp, "IPv6 Host doesn't belong to network");
            return false;
        }
    }
    cfg->vnameserver6 = cfg->vprefix_addr6;
    cfg->vnameserver6.s6_addr[15] |= 3;
    if (u->has_ipv6_dns) {
        if (!inet_pton(AF_INET6, u->ipv6_dns, &cfg->vnameserver6)) {
            error_setg(errp, "Failed to parse IPv6 DNS");
            return false;
        }
        if (!in6_same_net(&cfg->vprefix_addr6, &cfg->vnameserver6, len)) {
            error_setg(errp, "IPv6 DNS doesn't belong to network");
            return false;
        }
    }
    return true;
}

/* The IPv4 addresses: QEMU's checks in QEMU's order */
static bool parse_ipv4(const NetdevUserOptions *u, const char *vnet,
                       SlirpConfig *cfg, Error **errp)
{
    struct in_addr net = { htonl(0x0a000200) }, mask = { htonl(0xffffff00) };
    struct in_addr host, dns, dhcp;

    if (vnet && !parse_vnetwork(vnet, &net, &mask, errp)) {
        return false;
    }
    /* host .2.2, DNS .2.3, DHCP .2.15 within the network's host part */
    host.s_addr = net.s_addr | (htonl(0x0202) & ~mask.s_addr);
    dns.s_addr = net.s_addr | (htonl(0x0203) & ~mask.s_addr);
    dhcp.s_addr = net.s_addr | (htonl(0x020f) & ~mask.s_addr);
    if (u->has_host && !inet_aton(u->host, &host)) {
        error_setg(errp, "Failed to parse host");
        return false;
    }
    if ((host.s_addr & mask.s_addr) != net.s_addr) {
        error_setg(errp, "Host doesn't belong to network");
        return false;
    }
    if (u->has_dns && !inet_aton(u->dns, &dns)) {
        error_setg(errp, "Failed to parse DNS");
        return false;
    }
    if (cfg->restricted && (dns.s_addr & mask.s_addr) != net.s_addr) {
        error_setg(errp, "DNS doesn't belong to network");
        return false;
    }
    if (dns.s_addr == host.s_addr) {
        error_setg(errp, "DNS must be different from host");
        return false;
    }
    if (u->has_dhcpstart && !inet_aton(u->dhcpstart, &dhcp)) {
        error_setg(errp, "Failed to parse DHCP start address");
        return false;
    }
    if ((dhcp.s_addr & mask.s_addr) != net.s_addr) {
        error_setg(errp, "DHCP doesn't belong to network");
        return false;
    }
    if (dhcp.s_addr == host.s_addr || dhcp.s_addr == dns.s_addr) {
        error_setg(errp, "DHCP must be different from host and DNS");
        return false;
    }
    cfg->vnetwork = net;
    cfg->vnetmask = mask;
    cfg->vhost = host;
    cfg->vnameserver = dns;
    cfg->vdhcp_start = dhcp;
    return true;
}

static bool check_len(const char *what, bool has, const char *v,
                      Error **errp)
{
    if (has && strlen(v) > 255) {
        error_setg(errp, "'%s' parameter cannot exceed 255 bytes", what);
        return false;
    }
    return true;
}

static bool slirp_configure(const NetdevUserOptions *u, const char *vnet,
                            SlirpConfig *cfg, Error **errp)
{
    cfg->version = 4;
    cfg->restricted = u->has_q_restrict && u->q_restrict;
    cfg->in_enabled = u->has_ipv4 ? u->ipv4 : u->has_ipv6 ? !u->ipv6 : true;
    cfg->in6_enabled = u->has_ipv6 ? u->ipv6 : u->has_ipv4 ? !u->ipv4 : true;
    if (!cfg->in_enabled && (vnet || u->has_host || u->has_dns)) {
        error_setg(errp, "IPv4 disabled but netmask/host/dns provided");
        return false;
    }
    if (!cfg->in6_enabled && (u->has_ipv6_prefix || u->has_ipv6_host ||
                              u->has_ipv6_dns)) {
        error_setg(errp, "IPv6 disabled but prefix/host6/dns6 provided");
        return false;
    }
    if (!cfg->in_enabled && !cfg->in6_enabled) {
        error_setg(errp, "IPv4 and IPv6 disabled");
        return false;
    }
    if (!parse_ipv4(u, vnet, cfg, errp) || !parse_ipv6(u, cfg, errp)) {
        return false;
    }
    if (u->has_domainname && !*u->domainname) {
        error_setg(errp, "'domainname' parameter cannot be empty");
        return false;
    }
    if (!check_len("domainname", u->has_domainname, u->domainname, errp) ||
        !check_len("vhostname", u->has_hostname, u->hostname, errp) ||
        !check_len("tftp-server-name", u->has_tftp_server_name,
                   u->tftp_server_name, errp)) {
        return false;
    }
    cfg->vhostname = u->has_hostname ? u->hostname : NULL;
    cfg->vdomainname = u->has_domainname ? u->domainname : NULL;
    cfg->tftp_path = u->has_tftp ? u->tftp : NULL;
    cfg->bootfile = u->has_bootfile ? u->bootfile : NULL;
    cfg->tftp_server_name = u->has_tftp_server_name ? u->tftp_server_name
                                                     : NULL;
    return true;
}

/* smb= runs QEMU's own smbd set-up, which this build does not have */
static bool slirp_check_smb(const NetdevUserOptions *u, Error **errp)
{
    struct in_addr a;

    if (!u->has_smb) {
        return true;
    }
    if (u->has_smbserver && !inet_aton(u->smbserver, &a)) {
        error_setg(errp, "Failed to parse SMB address");
    } else if (access("/usr/sbin/smbd", F_OK)) {
        error_setg(errp, "Could not find '/usr/sbin/smbd', please install it");
    } else {
        error_setg(errp, "smb= is not supported by this build");
    }
    return false;
}

bool net_init_slirp(const Netdev *netdev, const char *name, Error **errp)
{
    const NetdevUserOptions *u = &netdev->u.user;
    SlirpConfig cfg = { 0 };
    const char **search = NULL;
    char *vnet = u->has_net ? g_strdup(u->net)
               : u->has_ip ? g_strdup_printf("%s/24", u->ip) : NULL;
    SlirpState *s;
    unsigned i;
    bool ok;

    ok = slirp_configure(u, vnet, &cfg, errp) && slirp_check_smb(u, errp) &&
         slirp_lib_open(errp);
    if (!ok) {
        g_free(vnet);
        return false;
    }
    if (u->has_dnssearch) {
        search = g_new0(const char *, u->dnssearch.len + 1);
        for (i = 0; i < u->dnssearch.len; i++) {
            search[i] = u->dnssearch.items[i].str;
        }
        cfg.vdnssearch = search;
    }
    s = (SlirpState *)qemu_new_net_client(&slirp_info, NULL, "user", name);
    s->nc.is_netdev = true;
    s->nc.info_str = g_strdup_printf("net=%s,restrict=%s",
                                     inet_ntoa(cfg.vnetwork),
                                     cfg.restricted ? "on" : "off");
    s->pollfds = g_array_new(FALSE, TRUE, sizeof(GPollFD));
    s->timers = g_ptr_array_new();
    s->guestfwds = g_ptr_array_new();
    s->reass = ipv4_reass_new();
    s->slirp = slirp_lib.new(&cfg, &slirp_callbacks, s);
    g_free(search);
    g_free(vnet);
    if (!s->slirp) {
        error_setg(errp, "Failed to initialize slirp");
        qemu_del_net_client(&s->nc);
        return false;
    }
    s->source = (SlirpSource *)g_source_new(&slirp_source_funcs,
                                            sizeof(SlirpSource));
    s->source->s = s;
    g_source_attach(&s->source->source, NULL);
    /*
     * QEMU 7.2 sets the rules up from a list it built by prepending:
     * guestfwd before hostfwd, the last rule of each first.  The order
     * shows in which rule an error names (two rules on one host port).
     */
    for (i = u->has_guestfwd ? u->guestfwd.len : 0; ok && i > 0; i--) {
        ok = slirp_guestfwd(s, u->guestfwd.items[i - 1].str, errp);
    }
    for (i = u->has_hostfwd ? u->hostfwd.len : 0; ok && i > 0; i--) {
        ok = slirp_hostfwd(s, u->hostfwd.items[i - 1].str, errp);
    }
    if (!ok) {
        qemu_del_net_client(&s->nc);
    }
    return ok;
}

/* "Hub -1 (ID):" (no hubs here) and libslirp's connection table */
void hmp_info_usernet(GString *out)
{
    NetClientState *nc;

    for (nc = net_netdev_first(); nc; nc = net_netdev_next(nc)) {
        char *info, **lines;
        int i;

        if (nc->info != &slirp_info) {
            continue;
        }
        g_string_append_printf(out, "Hub -1 (%s):\r\n", nc->name);
        info = slirp_lib.connection_info(((SlirpState *)nc)->slirp);
        lines = g_strsplit(info, "\n", -1);
        for (i = 0; lines[i]; i++) {
            if (*lines[i]) {
                g_string_append_printf(out, "%s\r\n", lines[i]);
            }
        }
        g_strfreev(lines);
        g_free(info);
    }
}
