/*
 * -netdev user (net/slirp.c) in process: real libslirp behind the real
 * -netdev code, with the tiny stack playing the guest's NIC.
 *
 * Network rule: the "guest" reaches only 10.0.2.2 (slirp's host, which is
 * the host's loopback) and guestfwd's chardev; every host socket is on
 * 127.0.0.1 or a Unix socket in a scratch directory.  DNS is never asked.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "chardev/char.h"
#include "net-guest.h"

static const uint8_t guest_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

static bool dhcp_bound(NetGuest *g, void *opaque)
{
    return g->ns.dhcp.state == NS_DHCP_BOUND;
}

static NetGuest *guest_with_lease(const char *optarg, const char *id)
{
    NetGuest *g;

    g_assert(net_test_netdev(optarg));
    g = net_guest_new(id, guest_mac);
    ns_dhcp_start(&g->ns);
    g_assert(net_run_until(g, dhcp_bound, NULL, 10000));
    return g;
}

static void drop_netdev(NetGuest *g, const char *id)
{
    net_guest_free(g);
    qemu_del_net_client(qemu_net_find_netdev(id));
}

static void test_dhcp_default(void)
{
    NetGuest *g = guest_with_lease("user,id=u0", "u0");

    g_assert_cmphex(g->ns.ip, ==, NS_IP(10, 0, 2, 15));
    g_assert_cmphex(g->ns.mask, ==, NS_IP(255, 255, 255, 0));
    g_assert_cmphex(g->ns.router, ==, NS_IP(10, 0, 2, 2));
    g_assert_cmphex(g->ns.dns, ==, NS_IP(10, 0, 2, 3));
    g_assert_cmpuint(g->ns.dhcp.lease, >, 0);
    g_assert_cmpstr(g->netdev->info_str, ==, "net=10.0.2.0,restrict=off");
    drop_netdev(g, "u0");
}

static void test_dhcp_configured(void)
{
    NetGuest *g = guest_with_lease("user,id=u1,net=10.0.5.0/24,"
                                   "dhcpstart=10.0.5.50,host=10.0.5.1,"
                                   "dns=10.0.5.53", "u1");

    g_assert_cmphex(g->ns.ip, ==, NS_IP(10, 0, 5, 50));
    g_assert_cmphex(g->ns.router, ==, NS_IP(10, 0, 5, 1));
    g_assert_cmphex(g->ns.dns, ==, NS_IP(10, 0, 5, 53));
    drop_netdev(g, "u1");
}

/* The guest connects to 10.0.2.2:P, which slirp makes 127.0.0.1:P */
static void test_outbound_tcp(void)
{
    EchoServer *srv = echo_server_start("127.0.0.1");
    NetGuest *g = guest_with_lease("user,id=u2", "u2");
    uint8_t *big = g_malloc(1 << 20), msg[64];
    gint64 t0, t1;
    int c, i;

    c = ns_tcp_connect(&g->ns, NS_IP(10, 0, 2, 2), echo_server_port(srv));
    g_assert_cmpint(c, >=, 0);
    g_assert(net_run_until(g, net_guest_established, GINT_TO_POINTER(c),
                           5000));
    memset(msg, 'x', sizeof(msg));
    t0 = g_get_monotonic_time();
    for (i = 0; i < 100; i++) {
        msg[0] = i;
        g_assert(net_guest_echo(g, c, msg, sizeof(msg), 5000));
    }
    t1 = g_get_monotonic_time();
    printf("# slirp: TCP round trip (64 bytes, guest->host echo) "
           "%.1f us\n", (t1 - t0) / 100.0);
    for (i = 0; i < (1 << 20); i++) {
        big[i] = i * 13;
    }
    t0 = g_get_monotonic_time();
    g_assert(net_guest_echo(g, c, big, 1 << 20, 30000));
    t1 = g_get_monotonic_time();
    printf("# slirp: TCP echo of 1 MiB (each way) in %.1f ms: %.1f MiB/s\n",
           (t1 - t0) / 1000.0, 1e6 / (t1 - t0));
    ns_tcp_close(&g->ns, c);
    net_run_for(g, 200);
    g_assert_cmpuint(echo_server_accepted(srv), ==, 1);
    g_free(big);
    drop_netdev(g, "u2");
    echo_server_stop(srv);
}

/* restrict=on: the guest cannot reach the host; forwarding still works */
static void test_restrict(void)
{
    EchoServer *srv = echo_server_start("127.0.0.1");
    NetGuest *g = guest_with_lease("user,id=u3,restrict=on", "u3");
    int c;

    c = ns_tcp_connect(&g->ns, NS_IP(10, 0, 2, 2), echo_server_port(srv));
    g_assert(!net_run_until(g, net_guest_established, GINT_TO_POINTER(c),
                            1500));
    g_assert_cmpuint(echo_server_accepted(srv), ==, 0);
    drop_netdev(g, "u3");
    echo_server_stop(srv);
}

typedef struct HostClient {
    int port;
    char reply[64];
    GThread *thread;
    bool ok;
    volatile bool finished;
} HostClient;

/* The host side of hostfwd: connect to 127.0.0.1:H, send, read the echo */
static gpointer host_client(gpointer opaque)
{
    HostClient *h = opaque;
    struct sockaddr_in sa = { .sin_family = AF_INET };
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const char *msg = "hello through hostfwd";
    size_t got = 0;

    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons(h->port);
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
        write(fd, msg, strlen(msg)) == (ssize_t)strlen(msg)) {
        while (got < strlen(msg)) {
            ssize_t n = read(fd, h->reply + got, sizeof(h->reply) - 1 - got);

            if (n <= 0) {
                break;
            }
            got += n;
        }
        h->ok = got == strlen(msg) && !memcmp(h->reply, msg, got);
    }
    close(fd);
    h->finished = true;
    return NULL;
}

typedef struct GuestEcho {
    int c;
    uint8_t buf[256];
    size_t len;
    HostClient *client;
} GuestEcho;

/* The guest's listener echoes whatever arrives */
static bool guest_echo_step(NetGuest *g, void *opaque)
{
    GuestEcho *e = opaque;
    int n = ns_tcp_recv(&g->ns, e->c, e->buf, sizeof(e->buf));

    if (n > 0) {
        g_assert_cmpint(ns_tcp_send(&g->ns, e->c, e->buf, n), ==, n);
        e->len += n;
    }
    return e->client->finished;
}

static void test_hostfwd(void)
{
    int port = net_test_free_port();
    char *opt = g_strdup_printf("user,id=u4,hostfwd=tcp:127.0.0.1:%d-:7777",
                                port);
    NetGuest *g = guest_with_lease(opt, "u4");
    HostClient h = { .port = port };
    GuestEcho e;

    e.c = ns_tcp_listen(&g->ns, 7777);
    e.len = 0;
    e.client = &h;
    h.thread = g_thread_new("client", host_client, &h);
    /* the client thread ends once it has its echo */
    g_assert(net_run_until(g, guest_echo_step, &e, 10000));
    g_thread_join(h.thread);
    g_assert(h.ok);
    g_assert_cmpuint(e.len, ==, strlen("hello through hostfwd"));
    g_free(opt);
    drop_netdev(g, "u4");
}

/* guestfwd to a chardev: a Unix socket the test listens on */
static void test_guestfwd_chardev(void)
{
    char *dir = g_dir_make_tmp("netfwd-XXXXXX", NULL);
    char *path = g_build_filename(dir, "fwd.sock", NULL);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), cfd;
    char *chr = g_strdup_printf("socket,id=gfwd,path=%s", path);
    Error *err = NULL;
    NetGuest *g;
    uint8_t buf[64];
    ssize_t n;
    int c;

    g_strlcpy(sa.sun_path, path, sizeof(sa.sun_path));
    g_assert(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    g_assert(listen(lfd, 1) == 0);
    if (!qemu_chardev_add(chr, &err)) {
        g_error("%s", error_get_pretty(err));
    }
    cfd = accept(lfd, NULL, NULL);
    g_assert(cfd >= 0);
    g = guest_with_lease("user,id=u5,guestfwd=tcp:10.0.2.100:4321-"
                         "chardev:gfwd", "u5");
    c = ns_tcp_connect(&g->ns, NS_IP(10, 0, 2, 100), 4321);
    g_assert(net_run_until(g, net_guest_established, GINT_TO_POINTER(c),
                           5000));
    g_assert_cmpint(ns_tcp_send(&g->ns, c, "ping", 4), ==, 4);
    net_run_for(g, 200);
    n = read(cfd, buf, sizeof(buf));
    g_assert_cmpint(n, ==, 4);
    g_assert(!memcmp(buf, "ping", 4));
    g_assert_cmpint(write(cfd, "pong!", 5), ==, 5);
    net_run_for(g, 200);
    n = ns_tcp_recv(&g->ns, c, buf, sizeof(buf));
    g_assert_cmpint(n, ==, 5);
    g_assert(!memcmp(buf, "pong!", 5));
    drop_netdev(g, "u5");
    close(cfd);
    close(lfd);
    unlink(path);
    g_rmdir(dir);
    g_free(chr);
    g_free(path);
    g_free(dir);
}

/* Queueing: a NIC that stops taking frames gets them later, in order */
static void test_queue(void)
{
    NetGuest *g = guest_with_lease("user,id=u6", "u6");
    EchoServer *srv = echo_server_start("127.0.0.1");
    uint8_t msg[2000];
    int c;

    c = ns_tcp_connect(&g->ns, NS_IP(10, 0, 2, 2), echo_server_port(srv));
    g_assert(net_run_until(g, net_guest_established, GINT_TO_POINTER(c),
                           5000));
    memset(msg, 'q', sizeof(msg));
    g_assert_cmpint(ns_tcp_send(&g->ns, c, msg, sizeof(msg)), ==,
                    sizeof(msg));
    g->stalled = true;
    net_run_for(g, 300);
    g_assert_cmpuint(qemu_net_queue_len(g->nic), >, 0);
    g->stalled = false;
    qemu_flush_queued_packets(g->nic);
    g_assert_cmpuint(qemu_net_queue_len(g->nic), ==, 0);
    net_run_for(g, 300);
    g_assert_cmpint(ns_tcp_recv(&g->ns, c, msg, sizeof(msg)), ==,
                    sizeof(msg));
    drop_netdev(g, "u6");
    echo_server_stop(srv);
}

/* An IPv4 fragment of a ping from the guest to 10.0.2.2 */
static size_t ping_fragment(uint8_t *f, const uint8_t *icmp, size_t off,
                            size_t len, bool more)
{
    static const uint8_t slirp_mac[6] = { 0x52, 0x55, 0x0a, 0x00, 0x02, 0x02 };
    uint8_t *ip = f + 14;

    memcpy(f, slirp_mac, 6);
    memcpy(f + 6, guest_mac, 6);
    ns_put16(f + 12, 0x0800);
    memset(ip, 0, 20);
    ip[0] = 0x45;
    ns_put16(ip + 2, 20 + len);
    ns_put16(ip + 4, 0x4242);
    ns_put16(ip + 6, (more ? 0x2000 : 0) | (off / 8));
    ip[8] = 64;
    ip[9] = 1;
    ns_put32(ip + 12, NS_IP(10, 0, 2, 15));
    ns_put32(ip + 16, NS_IP(10, 0, 2, 2));
    ns_put16(ip + 10, ns_csum_fold(ns_csum_add(0, ip, 20)));
    memcpy(ip + 20, icmp + off, len);
    return 34 + len;
}

static bool saw_echo_reply(NetGuest *g, void *opaque)
{
    GList *l;

    for (l = g->rx.head; l; l = l->next) {
        gsize len;
        const uint8_t *f = g_bytes_get_data(l->data, &len);

        if (len >= 34 + 8 && ns_get16(f + 12) == 0x0800 && f[23] == 1 &&
            f[34] == 0 && ns_get16(f + 34 + 4) == 0x77) {
            return true;
        }
    }
    return false;
}

/*
 * Fragments never reach libslirp 4.7.0, which crashes on a lone last
 * fragment (net/ipv4-reass.c): that one is dropped, and a ping sent in
 * two fragments is put together and answered.
 */
static void test_ip_fragments(void)
{
    NetGuest *g = guest_with_lease("user,id=u7", "u7");
    uint8_t icmp[72], f[128];
    int i;

    memset(icmp, 0, sizeof(icmp));
    icmp[0] = 8;
    ns_put16(icmp + 4, 0x77);
    ns_put16(icmp + 6, 1);
    for (i = 8; i < (int)sizeof(icmp); i++) {
        icmp[i] = i;
    }
    ns_put16(icmp + 2, ns_csum_fold(ns_csum_add(0, icmp, sizeof(icmp))));
    /* the crash reproducer's shape: a last fragment with nothing before */
    qemu_send_packet(g->nic, f, ping_fragment(f, icmp, 32, 40, false));
    /* then the whole ping in two pieces, the last one first */
    qemu_send_packet(g->nic, f, ping_fragment(f, icmp, 32, 40, false));
    qemu_send_packet(g->nic, f, ping_fragment(f, icmp, 0, 32, true));
    /* the guest's stack does not read frames while we look at them */
    g->stalled = false;
    {
        gint64 end = g_get_monotonic_time() + 3000000;

        while (!saw_echo_reply(g, NULL) && g_get_monotonic_time() < end) {
            g_main_context_iteration(NULL, FALSE);
            g_usleep(1000);
        }
    }
    g_assert(saw_echo_reply(g, NULL));
    drop_netdev(g, "u7");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/net/slirp/dhcp-default", test_dhcp_default);
    g_test_add_func("/net/slirp/dhcp-configured", test_dhcp_configured);
    g_test_add_func("/net/slirp/outbound-tcp", test_outbound_tcp);
    g_test_add_func("/net/slirp/restrict", test_restrict);
    g_test_add_func("/net/slirp/hostfwd", test_hostfwd);
    g_test_add_func("/net/slirp/guestfwd-chardev", test_guestfwd_chardev);
    g_test_add_func("/net/slirp/queue", test_queue);
    g_test_add_func("/net/slirp/ip-fragments", test_ip_fragments);
    return g_test_run();
}
