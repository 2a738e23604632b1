/*
 * Fuzz target: frames a guest sends, into a -netdev user (libslirp behind
 * net/slirp.c and net/net.c) and into the test guests' own parser
 * (tests/guest/net/), which will run inside guests and so also meets
 * whatever a backend or a peer sends.
 *
 * Input: frames, each a 16-bit big-endian length and that many bytes
 * (a last, short one takes what is left).  Every frame goes to the
 * netdev through a NIC client and to a stack configured as 10.0.2.15 with
 * a TCP listener and a connection in progress; what slirp answers is fed
 * to the stack too.  Each input gets a fresh netdev, deleted at the end
 * (LeakSanitizer sees what a netdev leaves behind).
 *
 * No traffic may leave the machine: the netdev is restrict=on (slirp
 * forwards nothing a guest sends to the outside) and, where allowed, the
 * target runs in a network namespace of its own with no interface up.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "net/net.h"
#include "netstack.h"

static struct netstack ns;
static NetClientState *nic;
static GQueue replies;          /* GBytes*: frames slirp sent the NIC */

static ssize_t nic_receive(NetClientState *nc, const uint8_t *buf,
                           size_t size)
{
    if (g_queue_get_length(&replies) < 256) {
        g_queue_push_tail(&replies, g_bytes_new(buf, size));
    }
    return size;
}

static const NetClientInfo nic_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NetClientState),
    .receive = nic_receive,
};

static void stack_tx(void *opaque, const void *frame, size_t len)
{
    /* the stack's answers go nowhere: the input is the only sender */
}

static u32 stack_clock(void *opaque)
{
    static u32 now;

    return now += 7;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    /* Best effort: as root, an empty network namespace of our own */
    if (unshare(CLONE_NEWNET) < 0) {
        fprintf(stderr, "fuzz-net-frames: no network namespace of its own "
                "(%s); the netdev is restrict=on\n", g_strerror(errno));
    }
    g_queue_init(&replies);
    return 0;
}

static void drain_replies(void)
{
    GBytes *b;

    while ((b = g_queue_pop_head(&replies))) {
        gsize len;
        const void *data = g_bytes_get_data(b, &len);

        ns_input(&ns, data, len);
        g_bytes_unref(b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const u8 mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    Error *err = NULL;
    NetClientState *nd;
    size_t off = 0;
    int i;

    if (!net_netdev_option("user,id=fz,restrict=on", &err) ||
        !net_init_clients(&err)) {
        fprintf(stderr, "%s\n", error_get_pretty(err));
        abort();
    }
    nd = qemu_net_find_netdev("fz");
    nic = qemu_new_net_client(&nic_info, nd, "fuzz-nic", "nic");
    ns_init(&ns, mac, stack_tx, stack_clock, NULL);
    /* a DHCP exchange in progress, with a transaction id seeds can use */
    ns_dhcp_start(&ns);
    ns.dhcp.xid = 0x12345678;
    ns_set_ip(&ns, NS_IP(10, 0, 2, 15), 0xffffff00, NS_IP(10, 0, 2, 2));
    ns_tcp_listen(&ns, 80);
    ns_tcp_connect(&ns, NS_IP(10, 0, 2, 2), 8080);

    while (off < size) {
        size_t len = size - off >= 2 ? (size_t)(data[off] << 8 | data[off + 1])
                                     : 0;

        off += size - off >= 2 ? 2 : 1;
        if (len > size - off) {
            len = size - off;
        }
        qemu_send_packet(nic, data + off, len);
        ns_input(&ns, data + off, len);
        drain_replies();
        off += len;
    }
    for (i = 0; i < 4 && g_main_context_iteration(NULL, FALSE); i++) {
    }
    drain_replies();
    ns_poll(&ns);
    qemu_del_net_client(nic);
    qemu_del_net_client(nd);
    return 0;
}
