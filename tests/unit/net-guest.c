/*
 * The stand-in guest of the network backend tests (net-guest.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net-guest.h"

static ssize_t nic_receive(NetClientState *nc, const uint8_t *buf,
                           size_t size)
{
    NetGuest *g = *(NetGuest **)(nc + 1);

    if (g->stalled) {
        return 0;
    }
    g_queue_push_tail(&g->rx, g_bytes_new(buf, size));
    return size;
}

static bool nic_can_receive(NetClientState *nc)
{
    return !(*(NetGuest **)(nc + 1))->stalled;
}

static const NetClientInfo nic_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NetClientState) + sizeof(NetGuest *),
    .receive = nic_receive,
    .can_receive = nic_can_receive,
};

static void stack_tx(void *opaque, const void *frame, size_t len)
{
    NetGuest *g = opaque;

    qemu_send_packet(g->nic, frame, len);
}

static u32 stack_clock(void *opaque)
{
    return (u32)(g_get_monotonic_time() / 1000);
}

NetClientState *net_test_netdev(const char *optarg)
{
    Error *err = NULL;
    char *id;
    const char *p;
    NetClientState *nc;

    if (!net_netdev_option(optarg, &err) || !net_init_clients(&err)) {
        g_test_message("-netdev %s: %s", optarg, error_get_pretty(err));
        error_free(err);
        return NULL;
    }
    p = strstr(optarg, "id=");
    g_assert(p);
    id = g_strndup(p + 3, strcspn(p + 3, ","));
    nc = qemu_net_find_netdev(id);
    g_free(id);
    return nc;
}

NetGuest *net_guest_new(const char *netdev_id, const uint8_t mac[6])
{
    NetGuest *g = g_new0(NetGuest, 1);
    Error *err = NULL;

    g->netdev = qemu_net_find_netdev(netdev_id);
    g_assert(g->netdev);
    g->nic = qemu_new_net_client(&nic_info, NULL, "test-nic", "nic0");
    *(NetGuest **)(g->nic + 1) = g;
    if (!qemu_net_peer_link(g->nic, g->netdev, &err)) {
        g_error("%s", error_get_pretty(err));
    }
    ns_init(&g->ns, mac, stack_tx, stack_clock, g);
    g_queue_init(&g->rx);
    return g;
}

/* The guest's turn: the frames its NIC received, then its timers */
static void guest_run(NetGuest *g)
{
    GBytes *b;

    while ((b = g_queue_pop_head(&g->rx))) {
        gsize len;
        const void *data = g_bytes_get_data(b, &len);

        ns_input(&g->ns, data, len);
        g_bytes_unref(b);
    }
    ns_poll(&g->ns);
}

void net_guest_free(NetGuest *g)
{
    g_queue_clear_full(&g->rx, (GDestroyNotify)g_bytes_unref);
    qemu_del_net_client(g->nic);
    g_free(g);
}

static gboolean tick(gpointer opaque)
{
    return G_SOURCE_CONTINUE;
}

bool net_run_until(NetGuest *g, bool (*cond)(NetGuest *g, void *opaque),
                   void *opaque, unsigned ms)
{
    gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;
    guint t = g_timeout_add(1, tick, NULL);
    bool ok = false;

    while (!(ok = cond && cond(g, opaque)) &&
           g_get_monotonic_time() < end) {
        g_main_context_iteration(NULL, TRUE);
        while (g_main_context_iteration(NULL, FALSE)) {
        }
        guest_run(g);
    }
    g_source_remove(t);
    return ok;
}

void net_run_for(NetGuest *g, unsigned ms)
{
    net_run_until(g, NULL, NULL, ms);
}

bool net_guest_established(NetGuest *g, void *conn_index)
{
    return ns_tcp_state(&g->ns, GPOINTER_TO_INT(conn_index)) ==
           NS_TCP_ESTABLISHED;
}

typedef struct EchoRun {
    int c;
    const uint8_t *data;
    uint8_t *back;
    size_t len, sent, got;
} EchoRun;

static bool echo_step(NetGuest *g, void *opaque)
{
    EchoRun *r = opaque;
    int n;

    if (r->sent < r->len) {
        n = ns_tcp_send(&g->ns, r->c, r->data + r->sent, r->len - r->sent);
        if (n > 0) {
            r->sent += n;
        }
    }
    n = ns_tcp_recv(&g->ns, r->c, r->back + r->got, r->len - r->got);
    if (n > 0) {
        r->got += n;
    }
    return r->got == r->len;
}

bool net_guest_echo(NetGuest *g, int c, const uint8_t *data, size_t len,
                    unsigned timeout_ms)
{
    EchoRun r = { .c = c, .data = data, .back = g_malloc(len), .len = len };
    bool ok = net_run_until(g, echo_step, &r, timeout_ms) &&
              memcmp(r.back, data, len) == 0;

    if (!ok) {
        struct ns_tcp_conn *t = &g->ns.tcp[c];
        g_test_message("echo: sent %zu got %zu of %zu; state %d snd_len %u "
                       "una %u nxt %u wnd %u rcv_len %u retrans %u",
                       r.sent, r.got, len, t->state, t->snd_len,
                       t->snd_una - t->iss, t->snd_nxt - t->iss, t->snd_wnd,
                       t->rcv_len, t->retransmits);
    }

    g_free(r.back);
    return ok;
}

/* The echo server ------------------------------------------------------------ */

struct EchoServer {
    int lfd, port;
    GThread *thread;
    volatile unsigned accepted;
    volatile bool stop;
};

static gpointer echo_thread(gpointer opaque)
{
    EchoServer *s = opaque;

    while (!s->stop) {
        int fd = accept(s->lfd, NULL, NULL);
        char buf[65536];
        ssize_t n;

        if (fd < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        s->accepted++;
        while ((n = read(fd, buf, sizeof(buf))) > 0) {
            ssize_t off = 0;

            while (off < n) {
                ssize_t w = write(fd, buf + off, n - off);

                if (w <= 0) {
                    break;
                }
                off += w;
            }
        }
        close(fd);
    }
    return NULL;
}

EchoServer *echo_server_start(const char *addr)
{
    EchoServer *s = g_new0(EchoServer, 1);
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t sl = sizeof(sa);
    int one = 1;

    g_assert(inet_pton(AF_INET, addr, &sa.sin_addr) == 1);
    s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    g_assert(s->lfd >= 0);
    setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    g_assert(bind(s->lfd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    g_assert(listen(s->lfd, 4) == 0);
    g_assert(getsockname(s->lfd, (struct sockaddr *)&sa, &sl) == 0);
    s->port = ntohs(sa.sin_port);
    s->thread = g_thread_new("echo", echo_thread, s);
    return s;
}

int echo_server_port(EchoServer *s)
{
    return s->port;
}

unsigned echo_server_accepted(EchoServer *s)
{
    return s->accepted;
}

void echo_server_stop(EchoServer *s)
{
    s->stop = true;
    shutdown(s->lfd, SHUT_RDWR);
    g_thread_join(s->thread);
    close(s->lfd);
    g_free(s);
}

int net_test_free_port(void)
{
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t sl = sizeof(sa);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int port;

    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    g_assert(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    g_assert(getsockname(fd, (struct sockaddr *)&sa, &sl) == 0);
    port = ntohs(sa.sin_port);
    close(fd);
    return port;
}
