/*
 * Network clients and their queues (include/net/net.h).
 *
 * Each client owns the queue of frames its peer sent it that it could not
 * take yet.  A frame sent while the receiver is already inside its own
 * receive() (a backend answering synchronously: slirp's ARP reply to a
 * frame the NIC is sending, for instance) is queued too and delivered as
 * soon as that receive() returns, so no receive() ever runs nested in
 * itself.
 */
#include <string.h>

#include <glib.h>

#include "net/net.h"

typedef struct NetPacket {
    NetClientState *sender;
    NetPacketSent *sent_cb;     /* NULL: may be dropped when full */
    size_t size;
    uint8_t data[];
} NetPacket;

struct NetQueue {
    GQueue packets;             /* NetPacket* */
    bool delivering;
};

/* Every client in creation order; netdevs are those with is_netdev */
static GList *net_clients;

NetClientState *qemu_new_net_client(const NetClientInfo *info,
                                    NetClientState *peer, const char *model,
                                    const char *name)
{
    NetClientState *nc;

    g_assert(info->size >= sizeof(NetClientState));
    g_assert(!peer || !peer->peer);
    nc = g_malloc0(info->size);
    nc->info = info;
    nc->model = g_strdup(model);
    nc->name = g_strdup(name);
    nc->incoming = g_new0(NetQueue, 1);
    g_queue_init(&nc->incoming->packets);
    if (peer) {
        nc->peer = peer;
        peer->peer = nc;
    }
    net_clients = g_list_append(net_clients, nc);
    return nc;
}

static void queue_purge_from(NetQueue *q, NetClientState *sender)
{
    GList *l = q->packets.head;

    while (l) {
        GList *next = l->next;
        NetPacket *p = l->data;

        if (!sender || p->sender == sender) {
            g_queue_delete_link(&q->packets, l);
            if (p->sent_cb && p->sender) {
                p->sent_cb(p->sender, 0);
            }
            g_free(p);
        }
        l = next;
    }
}

void qemu_del_net_client(NetClientState *nc)
{
    NetClientState *peer = nc->peer;

    if (peer) {
        /* Frames nc sent that wait at the peer go with it */
        queue_purge_from(peer->incoming, nc);
        peer->peer = NULL;
        nc->peer = NULL;
    }
    queue_purge_from(nc->incoming, NULL);
    net_clients = g_list_remove(net_clients, nc);
    if (nc->info->cleanup) {
        nc->info->cleanup(nc);
    }
    g_free(nc->incoming);
    g_free(nc->model);
    g_free(nc->name);
    g_free(nc->info_str);
    g_free(nc);
}

NetClientState *qemu_net_find_netdev(const char *id)
{
    GList *l;

    for (l = net_clients; l && id; l = l->next) {
        NetClientState *nc = l->data;

        if (nc->is_netdev && !strcmp(nc->name, id)) {
            return nc;
        }
    }
    return NULL;
}

bool qemu_net_peer_link(NetClientState *nc, NetClientState *peer,
                        Error **errp)
{
    if (nc->peer || peer->peer) {
        error_setg(errp, "netdev '%s' is in use", peer->name);
        return false;
    }
    nc->peer = peer;
    peer->peer = nc;
    return true;
}

bool qemu_can_receive_packet(NetClientState *nc)
{
    if (nc->receive_disabled) {
        return false;
    }
    return !nc->info->can_receive || nc->info->can_receive(nc);
}

size_t qemu_net_queue_len(NetClientState *nc)
{
    return g_queue_get_length(&nc->incoming->packets);
}

/* Hands one frame to the receiver: its receive()'s verdict */
static ssize_t deliver(NetClientState *to, const uint8_t *buf, size_t size)
{
    ssize_t ret;

    to->incoming->delivering = true;
    ret = to->info->receive(to, buf, size);
    to->incoming->delivering = false;
    if (ret == 0) {
        to->receive_disabled = true;
    } else {
        to->rx_frames++;
    }
    return ret;
}

static void queue_append(NetClientState *to, NetClientState *sender,
                         const uint8_t *buf, size_t size,
                         NetPacketSent *sent_cb)
{
    NetPacket *p = g_malloc(sizeof(*p) + size);

    p->sender = sender;
    p->sent_cb = sent_cb;
    p->size = size;
    memcpy(p->data, buf, size);
    g_queue_push_tail(&to->incoming->packets, p);
}

static ssize_t send_common(NetClientState *nc, const uint8_t *buf,
                           size_t size, NetPacketSent *sent_cb)
{
    NetClientState *to = nc->peer;
    ssize_t ret;

    if (!to || nc->link_down || size > NET_BUFSIZE) {
        return size;
    }
    nc->tx_frames++;
    if (to->incoming->delivering || !qemu_can_receive_packet(to) ||
        !g_queue_is_empty(&to->incoming->packets)) {
        if (!sent_cb && qemu_net_queue_len(to) >= NET_QUEUE_MAX) {
            to->rx_dropped++;
            return size;
        }
        queue_append(to, nc, buf, size, sent_cb);
        if (!to->incoming->delivering && qemu_can_receive_packet(to)) {
            qemu_flush_queued_packets(to);
        }
        return 0;
    }
    ret = deliver(to, buf, size);
    if (ret == 0) {
        /* The receiver wants it later: keep it */
        queue_append(to, nc, buf, size, sent_cb);
        return 0;
    }
    /* What arrived for it meanwhile (nested sends) goes now */
    if (!g_queue_is_empty(&to->incoming->packets)) {
        qemu_flush_queued_packets(to);
    }
    return ret;
}

ssize_t qemu_send_packet(NetClientState *nc, const uint8_t *buf, size_t size)
{
    return send_common(nc, buf, size, NULL);
}

ssize_t qemu_send_packet_async(NetClientState *nc, const uint8_t *buf,
                               size_t size, NetPacketSent *sent_cb)
{
    return send_common(nc, buf, size, sent_cb);
}

void qemu_flush_queued_packets(NetClientState *nc)
{
    NetQueue *q = nc->incoming;

    nc->receive_disabled = false;
    if (q->delivering) {
        return;     /* the outer delivery goes on with the queue */
    }
    while (!g_queue_is_empty(&q->packets) && qemu_can_receive_packet(nc)) {
        NetPacket *p = g_queue_pop_head(&q->packets);
        ssize_t ret = deliver(nc, p->data, p->size);

        if (ret == 0) {
            g_queue_push_head(&q->packets, p);
            return;
        }
        if (p->sent_cb && p->sender) {
            p->sent_cb(p->sender, ret);
        }
        g_free(p);
    }
}

void qemu_purge_queued_packets(NetClientState *nc)
{
    queue_purge_from(nc->incoming, NULL);
}

bool qemu_has_vnet_hdr(NetClientState *nc)
{
    return nc && nc->info->has_vnet_hdr && nc->info->has_vnet_hdr(nc);
}

bool qemu_set_vnet_hdr_len(NetClientState *nc, int len, Error **errp)
{
    if (!qemu_has_vnet_hdr(nc) || !nc->info->set_vnet_hdr_len) {
        error_setg(errp, "netdev '%s' has no virtio-net header",
                   nc ? nc->name : "");
        return false;
    }
    return nc->info->set_vnet_hdr_len(nc, len, errp);
}

void qemu_using_vnet_hdr(NetClientState *nc, bool enable)
{
    if (qemu_has_vnet_hdr(nc) && nc->info->using_vnet_hdr) {
        nc->info->using_vnet_hdr(nc, enable);
    }
}

bool qemu_set_offload(NetClientState *nc, bool csum, bool tso4, bool tso6,
                      bool ecn, bool ufo, Error **errp)
{
    if (!qemu_has_vnet_hdr(nc) || !nc->info->set_offload) {
        error_setg(errp, "netdev '%s' cannot offload", nc ? nc->name : "");
        return false;
    }
    return nc->info->set_offload(nc, csum, tso4, tso6, ecn, ufo, errp);
}

NetClientState *net_netdev_first(void)
{
    GList *l;

    for (l = net_clients; l; l = l->next) {
        if (((NetClientState *)l->data)->is_netdev) {
            return l->data;
        }
    }
    return NULL;
}

NetClientState *net_netdev_next(NetClientState *nc)
{
    GList *l = g_list_find(net_clients, nc);

    for (l = l ? l->next : NULL; l; l = l->next) {
        if (((NetClientState *)l->data)->is_netdev) {
            return l->data;
        }
    }
    return NULL;
}

void net_foreach_client(void (*fn)(NetClientState *nc, void *opaque),
                        void *opaque)
{
    GList *l;

    for (l = net_clients; l; l = l->next) {
        fn(l->data, opaque);
    }
}

void net_cleanup(void)
{
    while (net_clients) {
        qemu_del_net_client(net_clients->data);
    }
}
