/*
 * Network clients, in QEMU's shape (docs/network.md).
 *
 * A NetClientState is one end of a point-to-point link: a backend
 * (-netdev user, tap) or a frontend (a NIC device; for now the host-side
 * tests play it).  The two ends are each other's peer.  A frame sent by
 * one end is handed to the peer's receive(); if the peer cannot take it
 * (can_receive() is false, or receive() returns 0) it waits in the peer's
 * incoming queue until the peer calls qemu_flush_queued_packets().
 *
 * Every callback runs on the main thread, from the GLib main context.
 * Backends never trust what a guest sends: a frame is a byte string of
 * any length, and the backends check it before looking inside.
 */
#ifndef NET_NET_H
#define NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <glib.h>

#include "qapi/error.h"
#include "qapi-types.h"

/* Frames longer than this are dropped on the way in (QEMU's limit) */
#define NET_BUFSIZE (4096 + 65536)
/* Frames waiting for one receiver before new ones are dropped */
#define NET_QUEUE_MAX 10000

typedef struct NetClientState NetClientState;
typedef struct NetQueue NetQueue;

/* Called when a frame that qemu_send_packet_async() queued has gone */
typedef void NetPacketSent(NetClientState *sender, ssize_t ret);

typedef struct NetClientInfo {
    NetClientDriver type;
    size_t size;                /* of the backend's state, which embeds
                                   NetClientState first */
    /*
     * Takes one frame from the peer.  Returns its size when consumed (or
     * deliberately dropped), 0 to ask the sender to queue it and stop
     * until qemu_flush_queued_packets(), negative on an error (dropped).
     */
    ssize_t (*receive)(NetClientState *nc, const uint8_t *buf, size_t size);
    bool (*can_receive)(NetClientState *nc);     /* NULL: always */
    void (*cleanup)(NetClientState *nc);         /* frees what it owns */
    /* virtio-net headers (tap with IFF_VNET_HDR); NULL: never */
    bool (*has_vnet_hdr)(NetClientState *nc);
    bool (*set_vnet_hdr_len)(NetClientState *nc, int len, Error **errp);
    void (*using_vnet_hdr)(NetClientState *nc, bool enable);
    bool (*set_offload)(NetClientState *nc, bool csum, bool tso4, bool tso6,
                        bool ecn, bool ufo, Error **errp);
} NetClientInfo;

struct NetClientState {
    const NetClientInfo *info;
    NetClientState *peer;
    char *model;                /* "user", "tap", or the NIC's type name */
    char *name;                 /* the netdev id, or the NIC's id */
    char *info_str;             /* "info network"'s description */
    NetQueue *incoming;         /* frames from the peer not yet received */
    bool receive_disabled;      /* receive() returned 0: wait for a flush */
    bool is_netdev;             /* created by -netdev / netdev_add */
    bool link_down;
    uint64_t rx_frames, rx_dropped, tx_frames;
};

/*
 * Creates a client of info->type.  peer (may be NULL) must not have a
 * peer yet: the two are linked both ways.
 */
NetClientState *qemu_new_net_client(const NetClientInfo *info,
                                    NetClientState *peer, const char *model,
                                    const char *name);
/* Unlinks from the peer, drops queued frames, calls cleanup, frees. */
void qemu_del_net_client(NetClientState *nc);
/*
 * Links a frontend to the netdev named id (a NIC's netdev= property):
 * QEMU's texts when it does not exist or has a peer already.
 */
NetClientState *qemu_net_find_netdev(const char *id);
bool qemu_net_peer_link(NetClientState *nc, NetClientState *peer,
                        Error **errp);

/*
 * Sends a frame to nc's peer.  Returns size when delivered or dropped
 * (no peer, link down, queue full), 0 when it was queued.
 */
ssize_t qemu_send_packet(NetClientState *nc, const uint8_t *buf, size_t size);
/*
 * The same, but a queued frame is never dropped: sent_cb runs once the
 * peer took it, so that a backend stops reading its fd meanwhile.
 */
ssize_t qemu_send_packet_async(NetClientState *nc, const uint8_t *buf,
                               size_t size, NetPacketSent *sent_cb);
/* The receiver can take frames again: delivers what waits for it. */
void qemu_flush_queued_packets(NetClientState *nc);
/* Drops what waits in nc's queue (e.g. the device was reset). */
void qemu_purge_queued_packets(NetClientState *nc);
bool qemu_can_receive_packet(NetClientState *nc);
size_t qemu_net_queue_len(NetClientState *nc);

/* virtio-net headers towards nc (a backend); false/no-op if unsupported */
bool qemu_has_vnet_hdr(NetClientState *nc);
bool qemu_set_vnet_hdr_len(NetClientState *nc, int len, Error **errp);
void qemu_using_vnet_hdr(NetClientState *nc, bool enable);
bool qemu_set_offload(NetClientState *nc, bool csum, bool tso4, bool tso6,
                      bool ecn, bool ufo, Error **errp);

/* Netdevs ---------------------------------------------------------------- */

/*
 * Creates a netdev from its options (already checked against the
 * schema).  Backends set nc->info_str.  Used by -netdev and netdev_add.
 */
bool net_client_init(const Netdev *netdev, bool is_cli, Error **errp);
/* The netdevs in creation order (for "info network" and the tests) */
NetClientState *net_netdev_first(void);
NetClientState *net_netdev_next(NetClientState *nc);
/* Every client, NICs included, for "info network" */
void net_foreach_client(void (*fn)(NetClientState *nc, void *opaque),
                        void *opaque);
/* Deletes every client (at exit, and between in-process tests) */
void net_cleanup(void);

/*
 * Command line (system/vl.c's table): -netdev is checked at once and
 * created by net_init_clients() once every option is parsed; -nic and
 * -net are checked, and refused unless "none" (no NIC devices yet).
 */
bool net_netdev_option(const char *optarg, Error **errp);
bool net_nic_option(const char *optarg, Error **errp);
bool net_net_option(const char *optarg, Error **errp);
bool net_init_clients(Error **errp);
/*
 * The same as system/vl.c's option handlers: on error, QEMU's one line
 * ("-netdev ARG: message") and exit status 1; "-netdev help" lists the
 * backend types.
 */
void net_netdev_cli(const char *opt, const char *arg);
void net_net_cli(const char *opt, const char *arg);
void net_nic_cli(const char *opt, const char *arg);

/* HMP "info network" and "info usernet", in QEMU 7.2's format */
void hmp_info_network(GString *out);
void hmp_info_usernet(GString *out);

/* Backend constructors (net/slirp.c, net/tap.c) */
bool net_init_slirp(const Netdev *netdev, const char *name, Error **errp);
bool net_init_tap(const Netdev *netdev, const char *name, bool is_cli,
                  Error **errp);

#endif
