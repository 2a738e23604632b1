/*
 * The tiny stack's lower half (netstack.h): Ethernet, ARP, IPv4, ICMP
 * echo, UDP and the DHCP client.  TCP is in tcp.c.
 *
 * Frame layout on transmit: ns->frame holds Ethernet (14 bytes), IPv4
 * (20 bytes, no options) and the payload at offset 34.
 */
#include "netstack.h"

#define ETH_HLEN 14
#define IP_HLEN 20
#define ETH_P_IP 0x0800
#define ETH_P_ARP 0x0806
#define IP_PROTO_ICMP 1
#define IP_PROTO_TCP 6
#define IP_PROTO_UDP 17
#define DHCP_CLIENT_PORT 68
#define DHCP_SERVER_PORT 67
#define DHCP_MAGIC 0x63825363
#define ARP_RETRY_MS 500
#define DHCP_RETRY_MS 1000

static const u8 broadcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

u16 ns_get16(const u8 *p)
{
    return (u16)(p[0] << 8 | p[1]);
}

u32 ns_get32(const u8 *p)
{
    return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

void ns_put16(u8 *p, u16 v)
{
    p[0] = v >> 8;
    p[1] = v;
}

void ns_put32(u8 *p, u32 v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

/* The Internet checksum: a one's complement sum of 16-bit words */
u32 ns_csum_add(u32 sum, const u8 *p, size_t len)
{
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += ns_get16(p + i);
    }
    if (len & 1) {
        sum += (u32)p[len - 1] << 8;
    }
    return sum;
}

u16 ns_csum_fold(u32 sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (u16)~sum;
}

u32 ns_now(struct netstack *ns)
{
    return ns->clock(ns->opaque);
}

u32 ns_random(struct netstack *ns)
{
    /* xorshift32: enough for ports, ISNs and DHCP transaction ids */
    u32 x = ns->seed ? ns->seed : 0x2545f491;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    ns->seed = x;
    return x;
}

void ns_init(struct netstack *ns, const u8 mac[6], ns_tx_fn *tx,
             ns_clock_fn *clock, void *opaque)
{
    memset(ns, 0, sizeof(*ns));
    memcpy(ns->mac, mac, 6);
    ns->tx = tx;
    ns->clock = clock;
    ns->opaque = opaque;
    ns->seed = ns_now(ns) ^ ((u32)mac[4] << 8 | mac[5]) ^ 0x9e3779b9;
    ns->next_port = 49152 + (ns_random(ns) % 8192);
}

void ns_set_ip(struct netstack *ns, u32 ip, u32 mask, u32 router)
{
    ns->ip = ip;
    ns->mask = mask;
    ns->router = router;
}

/* Ethernet --------------------------------------------------------------------- */

static void eth_header(struct netstack *ns, const u8 *dst_mac, u16 type)
{
    memcpy(ns->frame, dst_mac, 6);
    memcpy(ns->frame + 6, ns->mac, 6);
    ns_put16(ns->frame + 12, type);
}

static void eth_send(struct netstack *ns, const u8 *dst_mac, u16 type,
                     size_t payload_len)
{
    size_t len = ETH_HLEN + payload_len;

    eth_header(ns, dst_mac, type);
    if (len < 60) {
        memset(ns->frame + len, 0, 60 - len);
        len = 60;
    }
    ns->tx_frames++;
    ns->tx(ns->opaque, ns->frame, len);
}

/* ARP ---------------------------------------------------------------------------- */

static const u8 *arp_lookup(struct netstack *ns, u32 ip)
{
    unsigned i;

    for (i = 0; i < NS_ARP_ENTRIES; i++) {
        if (ns->arp[i].valid && ns->arp[i].ip == ip) {
            return ns->arp[i].mac;
        }
    }
    return NULL;
}

static void arp_learn(struct netstack *ns, u32 ip, const u8 *mac)
{
    unsigned i;

    if (!ip) {
        return;
    }
    for (i = 0; i < NS_ARP_ENTRIES; i++) {
        if (ns->arp[i].valid && ns->arp[i].ip == ip) {
            memcpy(ns->arp[i].mac, mac, 6);
            return;
        }
    }
    i = ns->arp_next++ % NS_ARP_ENTRIES;
    ns->arp[i].ip = ip;
    memcpy(ns->arp[i].mac, mac, 6);
    ns->arp[i].valid = true;
}

/* op 1 request, 2 reply */
static void arp_send(struct netstack *ns, u16 op, const u8 *target_mac,
                     u32 target_ip)
{
    u8 *a = ns->frame + ETH_HLEN;

    ns_put16(a, 1);             /* Ethernet */
    ns_put16(a + 2, ETH_P_IP);
    a[4] = 6;
    a[5] = 4;
    ns_put16(a + 6, op);
    memcpy(a + 8, ns->mac, 6);
    ns_put32(a + 14, ns->ip);
    memcpy(a + 18, op == 1 ? (const u8 *)"\0\0\0\0\0\0" : target_mac, 6);
    ns_put32(a + 24, target_ip);
    eth_send(ns, op == 1 ? broadcast_mac : target_mac, ETH_P_ARP, 28);
}

static void send_pending(struct netstack *ns)
{
    const u8 *mac = arp_lookup(ns, ns->pending_hop);

    if (ns->pending_len && mac) {
        memcpy(ns->pending, mac, 6);
        ns->tx_frames++;
        ns->tx(ns->opaque, ns->pending, ns->pending_len);
        ns->pending_len = 0;
    }
}

static void arp_input(struct netstack *ns, const u8 *a, size_t len)
{
    u16 op;
    u32 sender_ip, target_ip;

    if (len < 28 || ns_get16(a) != 1 || ns_get16(a + 2) != ETH_P_IP ||
        a[4] != 6 || a[5] != 4) {
        ns->rx_bad++;
        return;
    }
    op = ns_get16(a + 6);
    sender_ip = ns_get32(a + 14);
    target_ip = ns_get32(a + 24);
    if (!ns->ip || target_ip != ns->ip) {
        ns->rx_ignored++;
        return;
    }
    arp_learn(ns, sender_ip, a + 8);
    if (op == 1) {
        u8 mac[6];

        memcpy(mac, a + 8, 6);
        arp_send(ns, 2, mac, sender_ip);
    }
    send_pending(ns);
}

/* IPv4 ---------------------------------------------------------------------------- */

static u32 next_hop(struct netstack *ns, u32 dst)
{
    if (dst == 0xffffffff || (dst & ns->mask) == (ns->ip & ns->mask) ||
        !ns->router) {
        return dst;
    }
    return ns->router;
}

bool ns_ip_output(struct netstack *ns, u32 dst, u8 proto, size_t len)
{
    u8 *ip = ns->frame + ETH_HLEN;
    static u16 ident;
    u32 hop = next_hop(ns, dst);
    const u8 *mac;

    if (len > NS_MTU - IP_HLEN) {
        return false;
    }
    ip[0] = 0x45;
    ip[1] = 0;
    ns_put16(ip + 2, IP_HLEN + len);
    ns_put16(ip + 4, ident++);
    ns_put16(ip + 6, 0x4000);   /* don't fragment */
    ip[8] = 64;
    ip[9] = proto;
    ns_put16(ip + 10, 0);
    ns_put32(ip + 12, ns->ip);
    ns_put32(ip + 16, dst);
    ns_put16(ip + 10, ns_csum_fold(ns_csum_add(0, ip, IP_HLEN)));
    mac = dst == 0xffffffff ? broadcast_mac : arp_lookup(ns, hop);
    if (mac) {
        eth_send(ns, mac, ETH_P_IP, IP_HLEN + len);
        return true;
    }
    if (ns->pending_len) {
        return false;       /* one frame waits already: the caller retries */
    }
    /* Hold the frame (its destination MAC is filled in later), ask for
     * the next hop */
    eth_header(ns, broadcast_mac, ETH_P_IP);
    memcpy(ns->pending, ns->frame, ETH_HLEN + IP_HLEN + len);
    ns->pending_len = ETH_HLEN + IP_HLEN + len;
    if (ns->pending_len < 60) {
        memset(ns->pending + ns->pending_len, 0, 60 - ns->pending_len);
        ns->pending_len = 60;
    }
    ns->pending_hop = hop;
    ns->pending_at = ns_now(ns);
    arp_send(ns, 1, NULL, hop);
    return true;
}

static void icmp_input(struct netstack *ns, u32 src, const u8 *p, size_t len)
{
    u8 *out = ns->frame + ETH_HLEN + IP_HLEN;

    if (len < 8 || ns_csum_fold(ns_csum_add(0, p, len)) != 0) {
        ns->rx_bad++;
        return;
    }
    if (p[0] != 8 || len > NS_MTU - IP_HLEN) {
        ns->rx_ignored++;
        return;
    }
    /* Echo reply: the request with type 0 */
    memcpy(out, p, len);
    out[0] = 0;
    ns_put16(out + 2, 0);
    ns_put16(out + 2, ns_csum_fold(ns_csum_add(0, out, len)));
    ns->echo_replies++;
    ns_ip_output(ns, src, IP_PROTO_ICMP, len);
}

/* UDP ------------------------------------------------------------------------------ */

static u32 pseudo_sum(u32 src, u32 dst, u8 proto, size_t len)
{
    u8 ph[12];

    ns_put32(ph, src);
    ns_put32(ph + 4, dst);
    ph[8] = 0;
    ph[9] = proto;
    ns_put16(ph + 10, len);
    return ns_csum_add(0, ph, sizeof(ph));
}

bool ns_udp_bind(struct netstack *ns, u16 port, ns_udp_fn *fn)
{
    unsigned i;

    for (i = 0; i < NS_UDP_PORTS; i++) {
        if (!ns->udp[i].port || ns->udp[i].port == port) {
            ns->udp[i].port = port;
            ns->udp[i].fn = fn;
            return true;
        }
    }
    return false;
}

bool ns_udp_send(struct netstack *ns, u32 dst_ip, u16 src_port,
                 u16 dst_port, const void *data, size_t len)
{
    u8 *u = ns->frame + ETH_HLEN + IP_HLEN;
    u16 sum;

    if (len > NS_MTU - IP_HLEN - 8) {
        return false;
    }
    ns_put16(u, src_port);
    ns_put16(u + 2, dst_port);
    ns_put16(u + 4, 8 + len);
    ns_put16(u + 6, 0);
    memcpy(u + 8, data, len);
    sum = ns_csum_fold(ns_csum_add(pseudo_sum(ns->ip, dst_ip, IP_PROTO_UDP,
                                              8 + len), u, 8 + len));
    ns_put16(u + 6, sum ? sum : 0xffff);
    return ns_ip_output(ns, dst_ip, IP_PROTO_UDP, 8 + len);
}

static void udp_input(struct netstack *ns, u32 src, u32 dst, const u8 *u,
                      size_t len)
{
    u16 ulen, dport;
    unsigned i;

    if (len < 8 || (ulen = ns_get16(u + 4)) < 8 || ulen > len) {
        ns->rx_bad++;
        return;
    }
    if (ns_get16(u + 6) &&
        ns_csum_fold(ns_csum_add(pseudo_sum(src, dst, IP_PROTO_UDP, ulen), u,
                                 ulen)) != 0) {
        ns->rx_bad++;
        return;
    }
    dport = ns_get16(u + 2);
    for (i = 0; i < NS_UDP_PORTS; i++) {
        if (ns->udp[i].port && ns->udp[i].port == dport && ns->udp[i].fn) {
            ns->udp[i].fn(ns, src, ns_get16(u), u + 8, ulen - 8);
            return;
        }
    }
    ns->rx_ignored++;
}

static void ip_input(struct netstack *ns, const u8 *ip, size_t len)
{
    size_t hlen, total;
    u32 src, dst;

    if (len < IP_HLEN || (ip[0] >> 4) != 4) {
        ns->rx_bad++;
        return;
    }
    hlen = (size_t)(ip[0] & 0xf) * 4;
    total = ns_get16(ip + 2);
    if (hlen < IP_HLEN || total < hlen || total > len ||
        ns_csum_fold(ns_csum_add(0, ip, hlen)) != 0) {
        ns->rx_bad++;
        return;
    }
    /* No reassembly: a fragment (MF set or an offset) is dropped */
    if (ns_get16(ip + 6) & 0x3fff) {
        ns->rx_ignored++;
        return;
    }
    src = ns_get32(ip + 12);
    dst = ns_get32(ip + 16);
    /* Without an address yet (DHCP) anything addressed to us is taken */
    if (ns->ip && dst != ns->ip && dst != 0xffffffff &&
        !(ns->ip && ns->mask && dst == (ns->ip | ~ns->mask))) {
        ns->rx_ignored++;
        return;
    }
    switch (ip[9]) {
    case IP_PROTO_ICMP:
        if (ns->ip && dst == ns->ip) {
            icmp_input(ns, src, ip + hlen, total - hlen);
        }
        break;
    case IP_PROTO_UDP:
        udp_input(ns, src, dst, ip + hlen, total - hlen);
        break;
    case IP_PROTO_TCP:
        if (ns->ip && dst == ns->ip) {
            ns_tcp_input(ns, src, dst, ip + hlen, total - hlen);
        }
        break;
    default:
        ns->rx_ignored++;
    }
}

void ns_input(struct netstack *ns, const void *frame, size_t len)
{
    const u8 *f = frame;
    u16 type;

    ns->rx_frames++;
    if (len < ETH_HLEN) {
        ns->rx_bad++;
        return;
    }
    if (memcmp(f, ns->mac, 6) && memcmp(f, broadcast_mac, 6)) {
        ns->rx_ignored++;
        return;
    }
    type = ns_get16(f + 12);
    if (type == ETH_P_ARP) {
        arp_input(ns, f + ETH_HLEN, len - ETH_HLEN);
    } else if (type == ETH_P_IP) {
        ip_input(ns, f + ETH_HLEN, len - ETH_HLEN);
    } else {
        ns->rx_ignored++;
    }
}

/* DHCP ------------------------------------------------------------------------------ */

/* type 1 DISCOVER, 3 REQUEST */
static void dhcp_send(struct netstack *ns, u8 type)
{
    u8 m[300];
    size_t n = 240;

    memset(m, 0, sizeof(m));
    m[0] = 1;                   /* BOOTREQUEST */
    m[1] = 1;                   /* Ethernet */
    m[2] = 6;
    ns_put32(m + 4, ns->dhcp.xid);
    ns_put16(m + 10, 0x8000);   /* replies by broadcast: no address yet */
    memcpy(m + 28, ns->mac, 6);
    ns_put32(m + 236, DHCP_MAGIC);
    m[n++] = 53;
    m[n++] = 1;
    m[n++] = type;
    if (type == 3) {
        m[n++] = 50;            /* requested address */
        m[n++] = 4;
        ns_put32(m + n, ns->dhcp.offered);
        n += 4;
        m[n++] = 54;            /* server identifier */
        m[n++] = 4;
        ns_put32(m + n, ns->dhcp.server);
        n += 4;
    }
    m[n++] = 55;                /* parameters: mask, router, DNS */
    m[n++] = 3;
    m[n++] = 1;
    m[n++] = 3;
    m[n++] = 6;
    m[n++] = 255;
    ns->dhcp.sent_at = ns_now(ns);
    ns->dhcp.tries++;
    ns_udp_send(ns, 0xffffffff, DHCP_CLIENT_PORT, DHCP_SERVER_PORT, m,
                n < 300 ? 300 : n);
}

static void dhcp_input(struct netstack *ns, u32 src, u16 src_port,
                       const u8 *m, size_t len)
{
    u32 mask = 0, router = 0, dns = 0, server = 0, lease = 0;
    u8 type = 0;
    size_t i = 240;

    if (len < 240 || m[0] != 2 || ns_get32(m + 4) != ns->dhcp.xid ||
        memcmp(m + 28, ns->mac, 6) || ns_get32(m + 236) != DHCP_MAGIC) {
        ns->rx_ignored++;
        return;
    }
    while (i < len && m[i] != 255) {
        u8 code = m[i], olen;

        if (code == 0) {
            i++;
            continue;
        }
        if (i + 2 > len || i + 2 + (olen = m[i + 1]) > len) {
            ns->rx_bad++;
            return;
        }
        if (code == 53 && olen >= 1) {
            type = m[i + 2];
        } else if (code == 1 && olen >= 4) {
            mask = ns_get32(m + i + 2);
        } else if (code == 3 && olen >= 4) {
            router = ns_get32(m + i + 2);
        } else if (code == 6 && olen >= 4) {
            dns = ns_get32(m + i + 2);
        } else if (code == 54 && olen >= 4) {
            server = ns_get32(m + i + 2);
        } else if (code == 51 && olen >= 4) {
            lease = ns_get32(m + i + 2);
        }
        i += 2 + olen;
    }
    if (type == 2 && ns->dhcp.state == NS_DHCP_SELECTING) {       /* OFFER */
        ns->dhcp.offered = ns_get32(m + 16);
        ns->dhcp.server = server ? server : src;
        ns->dhcp.state = NS_DHCP_REQUESTING;
        ns->dhcp.tries = 0;
        dhcp_send(ns, 3);
    } else if (type == 5 && ns->dhcp.state == NS_DHCP_REQUESTING) { /* ACK */
        ns->ip = ns_get32(m + 16);
        ns->mask = mask ? mask : 0xffffff00;
        ns->router = router;
        ns->dns = dns;
        ns->dhcp.lease = lease;
        ns->dhcp.state = NS_DHCP_BOUND;
        /* the server answered from its own MAC: next hops start there */
    } else if (type == 6 && ns->dhcp.state == NS_DHCP_REQUESTING) { /* NAK */
        ns->dhcp.state = NS_DHCP_SELECTING;
        ns->dhcp.tries = 0;
        dhcp_send(ns, 1);
    } else {
        ns->rx_ignored++;
    }
}

void ns_dhcp_start(struct netstack *ns)
{
    ns->ip = 0;
    ns->dhcp.xid = ns_random(ns);
    ns->dhcp.state = NS_DHCP_SELECTING;
    ns->dhcp.tries = 0;
    ns_udp_bind(ns, DHCP_CLIENT_PORT, dhcp_input);
    dhcp_send(ns, 1);
}

void ns_poll(struct netstack *ns)
{
    u32 now = ns_now(ns);

    if ((ns->dhcp.state == NS_DHCP_SELECTING ||
         ns->dhcp.state == NS_DHCP_REQUESTING) &&
        now - ns->dhcp.sent_at >= DHCP_RETRY_MS) {
        dhcp_send(ns, ns->dhcp.state == NS_DHCP_SELECTING ? 1 : 3);
    }
    if (ns->pending_len && now - ns->pending_at >= ARP_RETRY_MS) {
        ns->pending_at = now;
        arp_send(ns, 1, NULL, ns->pending_hop);
    }
    ns_tcp_poll(ns);
}
