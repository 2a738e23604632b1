/*
 * -netdev tap (net/tap.c) in process, in a network namespace of the
 * test's own (unshare(CLONE_NEWNET) before anything else: it disappears
 * with the process, whatever happens).  The tiny stack plays the guest
 * (192.168.76.2/24, static: there is no DHCP server on a tap); the host
 * end of the tap is 192.168.76.1, where an echo server listens.  No
 * other address is ever used.
 *
 * Needs CAP_SYS_ADMIN/CAP_NET_ADMIN (root): without them the test skips
 * ("1..0 # SKIP", TAP's way), saying it could not create a network
 * namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_tun.h>

#include "net-guest.h"
#include "net/tap.h"

#define HOST_IP "192.168.76.1"

static const uint8_t guest_mac[6] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0x01 };

static bool run_cmd(const char *cmd)
{
    int status = system(cmd);

    if (status != 0) {
        g_test_message("'%s' failed: status %d", cmd, status);
    }
    return status == 0;
}

static bool host_side_up(const char *ifname)
{
    char *up = g_strdup_printf("ip link set dev %s up", ifname);
    char *addr = g_strdup_printf("ip addr add " HOST_IP "/24 dev %s",
                                 ifname);
    bool ok = run_cmd(up) && run_cmd(addr);

    g_free(up);
    g_free(addr);
    return ok;
}

static void host_side_down(const char *ifname)
{
    char *cmd = g_strdup_printf("ip link del %s 2>/dev/null", ifname);

    if (system(cmd)) {
        /* a tap goes away with its last fd anyway */
    }
    g_free(cmd);
}

/* A round trip to the host's echo server through the netdev */
static void echo_through(NetGuest *g, const char *what)
{
    EchoServer *srv = echo_server_start(HOST_IP);
    uint8_t msg[64], *big = g_malloc(1 << 20);
    gint64 t0, t1;
    int c, i;

    ns_set_ip(&g->ns, NS_IP(192, 168, 76, 2), 0xffffff00, 0);
    c = ns_tcp_connect(&g->ns, NS_IP(192, 168, 76, 1), echo_server_port(srv));
    g_assert_cmpint(c, >=, 0);
    g_assert(net_run_until(g, net_guest_established, GINT_TO_POINTER(c),
                           5000));
    memset(msg, 't', sizeof(msg));
    t0 = g_get_monotonic_time();
    for (i = 0; i < 100; i++) {
        msg[0] = i;
        g_assert(net_guest_echo(g, c, msg, sizeof(msg), 5000));
    }
    t1 = g_get_monotonic_time();
    printf("# tap (%s): TCP round trip (64 bytes) %.1f us\n", what,
           (t1 - t0) / 100.0);
    for (i = 0; i < (1 << 20); i++) {
        big[i] = i * 31;
    }
    t0 = g_get_monotonic_time();
    g_assert(net_guest_echo(g, c, big, 1 << 20, 30000));
    t1 = g_get_monotonic_time();
    printf("# tap (%s): TCP echo of 1 MiB (each way) in %.1f ms: "
           "%.1f MiB/s\n", what, (t1 - t0) / 1000.0, 1e6 / (t1 - t0));
    ns_tcp_close(&g->ns, c);
    net_run_for(g, 100);
    g_assert_cmpuint(echo_server_accepted(srv), ==, 1);
    g_free(big);
    echo_server_stop(srv);
}

/* ifname=: the netdev creates the tap itself */
static void test_ifname(void)
{
    NetClientState *nd = net_test_netdev("tap,id=t0,ifname=qkt0,script=no,"
                                         "downscript=no");
    NetGuest *g;

    g_assert(nd);
    g_assert_cmpstr(tap_get_ifname(nd), ==, "qkt0");
    g_assert_cmpstr(nd->info_str, ==, "ifname=qkt0,script=no,downscript=no");
    g_assert(host_side_up("qkt0"));
    g = net_guest_new("t0", guest_mac);
    /* the kernel offers IFF_VNET_HDR: on by default, stripped for the NIC */
    g_assert(qemu_has_vnet_hdr(nd));
    echo_through(g, "ifname=, vnet_hdr");
    net_guest_free(g);
    qemu_del_net_client(nd);
    host_side_down("qkt0");
}

/* fd=: a tap opened by the caller, as libvirt passes it */
static void test_fd(void)
{
    struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI };
    int fd = open("/dev/net/tun", O_RDWR);
    NetClientState *nd;
    NetGuest *g;
    char *opt;

    g_assert(fd >= 0);
    g_strlcpy(ifr.ifr_name, "qkt1", IFNAMSIZ);
    g_assert(ioctl(fd, TUNSETIFF, &ifr) == 0);
    g_assert(host_side_up("qkt1"));
    opt = g_strdup_printf("tap,id=t1,fd=%d,vhost=off", fd);
    nd = net_test_netdev(opt);
    g_assert(nd);
    g_assert(!qemu_has_vnet_hdr(nd));
    g_assert_cmpint(tap_get_fd(nd), ==, fd);
    g = net_guest_new("t1", guest_mac);
    echo_through(g, "fd=");
    net_guest_free(g);
    qemu_del_net_client(nd);    /* closes fd */
    g_assert_cmpint(fcntl(fd, F_GETFD), ==, -1);
    host_side_down("qkt1");
    g_free(opt);
}

/* What this build refuses, and vhost where the host lacks it */
static void test_refusals(void)
{
    Error *err = NULL;
    bool has_vhost = access("/dev/vhost-net", R_OK | W_OK) == 0;
    NetClientState *nd;

    g_assert(!net_netdev_option("tap,id=t2,ifname=qkt2", &err) ||
             !net_init_clients(&err));
    g_assert_cmpstr(error_get_pretty(err), ==,
                    "-netdev tap,id=t2,ifname=qkt2: "
                    "network script /etc/qemu-ifup: running network scripts "
                    "is not supported by this build (use "
                    "script=no,downscript=no)");
    error_free(err);
    err = NULL;
    g_assert(!qemu_net_find_netdev("t2"));

    g_assert(net_netdev_option("tap,id=t3,ifname=qkt3,script=no,"
                               "downscript=no,vhost=on", &err));
    if (has_vhost) {
        g_assert(net_init_clients(&err));
        nd = qemu_net_find_netdev("t3");
        g_assert(tap_get_vhost_net(nd));
        g_assert_cmphex(vhost_net_features(tap_get_vhost_net(nd)), !=, 0);
        qemu_del_net_client(nd);
    } else {
        g_assert(!net_init_clients(&err));
        g_assert_cmpstr(error_get_pretty(err), ==,
                        "-netdev tap,id=t3,ifname=qkt3,script=no,"
                        "downscript=no,vhost=on: tap: open vhost char device "
                        "failed: No such file or directory");
        error_free(err);
        err = NULL;
        g_assert(!qemu_net_find_netdev("t3"));
    }

    /* vhostfd= that is not vhost-net: refused, nothing left behind */
    {
        int devnull = open("/dev/null", O_RDWR);
        char *opt = g_strdup_printf("tap,id=t4,ifname=qkt4,script=no,"
                                    "downscript=no,vhostfd=%d", devnull);

        g_assert(net_netdev_option(opt, &err));
        g_assert(!net_init_clients(&err));
        g_assert(strstr(error_get_pretty(err), "vhost_set_owner failed: "));
        error_free(err);
        err = NULL;
        g_assert(!qemu_net_find_netdev("t4"));
        g_free(opt);

        /* the failed netdev closed the vhostfd it was given */
        g_assert_cmpint(fcntl(devnull, F_GETFD), ==, -1);
        /* the same through fds=/vhostfds= (one queue): not ignored */
        {
            struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI };
            int fd = open("/dev/net/tun", O_RDWR);

            g_strlcpy(ifr.ifr_name, "qkt5", IFNAMSIZ);
            g_assert(ioctl(fd, TUNSETIFF, &ifr) == 0);
            devnull = open("/dev/null", O_RDWR);
            opt = g_strdup_printf("tap,id=t5,fds=%d,vhostfds=%d", fd,
                                  devnull);
            g_assert(net_netdev_option(opt, &err));
            g_assert(!net_init_clients(&err));
            g_assert(strstr(error_get_pretty(err),
                            "vhost_set_owner failed: Inappropriate ioctl"));
            error_free(err);
            err = NULL;
            g_assert(!qemu_net_find_netdev("t5"));
            close(fd);
            g_free(opt);
        }
    }
}

int main(int argc, char **argv)
{
    /* Before any thread exists: the namespace is per thread */
    if (unshare(CLONE_NEWNET) < 0) {
        printf("1..0 # SKIP cannot create a network namespace (needs root "
               "or CAP_SYS_ADMIN/CAP_NET_ADMIN): %s\n", g_strerror(errno));
        return 0;       /* TAP: "1..0 # SKIP" is the skip */
    }
    if (access("/dev/net/tun", R_OK | W_OK)) {
        printf("1..0 # SKIP no tap devices in the network namespace: "
               "/dev/net/tun: %s\n", g_strerror(errno));
        return 0;       /* TAP: "1..0 # SKIP" is the skip */
    }
    /* iproute2 is installed by scripts/install-deps.sh: not a skip */
    if (system("ip link set dev lo up")) {
        printf("Bail out! 'ip link set dev lo up' failed\n");
        return 1;
    }
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/net/tap/ifname", test_ifname);
    g_test_add_func("/net/tap/fd", test_fd);
    g_test_add_func("/net/tap/refusals", test_refusals);
    return g_test_run();
}
