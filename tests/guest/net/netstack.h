/*
 * A tiny TCP/IP stack for test guests (tests/guest/README.md, "net/").
 *
 * Freestanding C: no allocation, no libc beyond memcpy/memset/memcmp; all
 * state lives in one struct netstack the caller provides.  The same code
 * is linked into the host-side tests (NETSTACK_HOSTED, playing a guest's
 * NIC against the emulator's network backends) and, later, into guests.
 *
 * Ethernet II, ARP (requests, replies, an 8-entry cache, one frame held
 * while its next hop is resolved), IPv4 (no options sent, fragments
 * dropped), ICMP echo replies, UDP, a DHCP client
 * (DISCOVER/OFFER/REQUEST/ACK: address, mask, router, DNS, lease) and a
 * minimal TCP: active open and passive listen, in-order receive, go-back-N
 * retransmission from the oldest unacknowledged byte on a timeout
 * (enough on a lossless local link), FIN close both ways, RST.
 *
 * The driver gives a transmit function and a millisecond clock, feeds
 * every received frame to ns_input() and calls ns_poll() now and then
 * (timers).  ns_input() takes any bytes: every length and field is
 * checked before use.
 */
#ifndef NETSTACK_H
#define NETSTACK_H

#ifdef NETSTACK_HOSTED
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
#else
#include "../lib.h"
#endif

#define NS_MTU 1500
#define NS_FRAME_MAX 1514
#define NS_ARP_ENTRIES 8
#define NS_TCP_CONNS 4
#define NS_TCP_BUF 8192
#define NS_TCP_MSS 1460
#define NS_UDP_PORTS 4

enum ns_tcp_state {
    NS_TCP_CLOSED, NS_TCP_LISTEN, NS_TCP_SYN_SENT, NS_TCP_SYN_RCVD,
    NS_TCP_ESTABLISHED, NS_TCP_FIN_WAIT_1, NS_TCP_FIN_WAIT_2,
    NS_TCP_CLOSE_WAIT, NS_TCP_CLOSING, NS_TCP_LAST_ACK, NS_TCP_TIME_WAIT,
};

enum ns_dhcp_state {
    NS_DHCP_OFF, NS_DHCP_SELECTING, NS_DHCP_REQUESTING, NS_DHCP_BOUND,
};

struct netstack;

typedef void ns_tx_fn(void *opaque, const void *frame, size_t len);
typedef u32 ns_clock_fn(void *opaque);
/* A datagram for a bound UDP port; src_ip in host order */
typedef void ns_udp_fn(struct netstack *ns, u32 src_ip, u16 src_port,
                       const u8 *data, size_t len);

struct ns_tcp_conn {
    int state;
    u32 remote_ip;
    u16 local_port, remote_port;
    u32 iss, snd_una, snd_nxt, snd_wnd;
    u32 rcv_nxt;
    u16 peer_mss;
    /* data not yet acknowledged: snd_len bytes from snd_head (ring) */
    u8 sndbuf[NS_TCP_BUF];
    u32 snd_head, snd_len;
    bool fin_queued, fin_sent, fin_acked, peer_fin;
    /* data received, not yet read */
    u8 rcvbuf[NS_TCP_BUF];
    u32 rcv_head, rcv_len;
    u32 rto_at, rto_ms, retries;    /* retransmission timer */
    u32 time_wait_until;
    u32 retransmits;
};

struct netstack {
    u8 mac[6];
    u32 ip, mask, router, dns;      /* host byte order; 0: unknown */
    ns_tx_fn *tx;
    ns_clock_fn *clock;
    void *opaque;

    struct { u32 ip; u8 mac[6]; bool valid; } arp[NS_ARP_ENTRIES];
    unsigned arp_next;
    /* the one frame waiting for its next hop's MAC */
    u8 pending[NS_FRAME_MAX];
    size_t pending_len;
    u32 pending_hop, pending_at;

    struct {
        int state;
        u32 xid, offered, server, lease, sent_at;
        unsigned tries;
    } dhcp;

    struct { u16 port; ns_udp_fn *fn; } udp[NS_UDP_PORTS];
    struct ns_tcp_conn tcp[NS_TCP_CONNS];
    u16 next_port;
    u32 seed;

    /* counters the tests read */
    u32 rx_frames, rx_bad, rx_ignored, tx_frames, echo_replies;
    u8 frame[NS_FRAME_MAX];         /* transmit scratch */
};

void ns_init(struct netstack *ns, const u8 mac[6], ns_tx_fn *tx,
             ns_clock_fn *clock, void *opaque);
/* Static configuration (what DHCP would give); addresses in host order */
void ns_set_ip(struct netstack *ns, u32 ip, u32 mask, u32 router);
void ns_input(struct netstack *ns, const void *frame, size_t len);
void ns_poll(struct netstack *ns);

/* DHCP: starts with a DISCOVER; ns->dhcp.state is NS_DHCP_BOUND once an
 * ACK set ip, mask, router and dns */
void ns_dhcp_start(struct netstack *ns);

bool ns_udp_bind(struct netstack *ns, u16 port, ns_udp_fn *fn);
/* false if the next hop is unknown and a frame already waits for ARP */
bool ns_udp_send(struct netstack *ns, u32 dst_ip, u16 src_port,
                 u16 dst_port, const void *data, size_t len);

/* TCP: a connection index, or -1 when none is free */
int ns_tcp_connect(struct netstack *ns, u32 ip, u16 port);
int ns_tcp_listen(struct netstack *ns, u16 port);
int ns_tcp_state(struct netstack *ns, int c);
/* Bytes queued for sending (up to the free buffer), or -1 if closed */
int ns_tcp_send(struct netstack *ns, int c, const void *data, size_t len);
/* Bytes read; 0 with nothing waiting; -1 once the peer closed and
 * everything was read */
int ns_tcp_recv(struct netstack *ns, int c, void *buf, size_t len);
/* Sends FIN after what is queued */
void ns_tcp_close(struct netstack *ns, int c);
/* Frees a closed connection's slot (CLOSED or TIME_WAIT) */
void ns_tcp_release(struct netstack *ns, int c);

/* Internal, shared between netstack.c and tcp.c */
u16 ns_get16(const u8 *p);
u32 ns_get32(const u8 *p);
void ns_put16(u8 *p, u16 v);
void ns_put32(u8 *p, u32 v);
u32 ns_csum_add(u32 sum, const u8 *p, size_t len);
u16 ns_csum_fold(u32 sum);
u32 ns_now(struct netstack *ns);
u32 ns_random(struct netstack *ns);
/* Sends an IPv4 packet whose payload is already at frame + 34 */
bool ns_ip_output(struct netstack *ns, u32 dst, u8 proto, size_t len);
void ns_tcp_input(struct netstack *ns, u32 src, u32 dst, const u8 *seg,
                  size_t len);
void ns_tcp_poll(struct netstack *ns);

#define NS_IP(a, b, c, d) \
    (((u32)(a) << 24) | ((u32)(b) << 16) | ((u32)(c) << 8) | (u32)(d))

#endif
