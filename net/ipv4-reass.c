/*
 * IPv4 reassembly in front of libslirp (net/slirp.c).
 *
 * Debian 12's libslirp 4.7.0 crashes on a guest's IPv4 fragment that ends
 * a datagram (MF clear, offset not 0) when it has no reassembly queue for
 * it yet: a single 61-byte frame from any guest takes the emulator down
 * (found by the net-frames fuzz target; the reproducer is in its corpus).
 * So slirp never sees a fragment: they are put together here and slirp
 * gets whole datagrams.  A frame whose IPv4 header says "fragment" is
 * either part of a datagram completed here or dropped, never passed on.
 *
 * Limits: IPV4_REASS_QUEUES datagrams in progress (the oldest is dropped
 * for a new one), 30 s each (QEMU's slirp waits about as long), 65535
 * bytes of IP datagram.  Overlapping fragments overwrite.
 */
#include <string.h>

#include <glib.h>

#include "ipv4-reass.h"

#define ETH_HLEN 14
#define IPV4_REASS_QUEUES 8
#define IPV4_REASS_TTL_MS 30000
#define IPV4_MAX 65535

typedef struct ReassQueue {
    bool used;
    uint32_t src, dst;
    uint16_t id;
    uint8_t proto;
    int64_t created_ms;
    uint8_t head[ETH_HLEN + 60];    /* Ethernet + the first's IP header */
    size_t head_len;                /* 0 until the first fragment came */
    size_t total;                   /* payload length; 0 until the last */
    uint8_t *data;                  /* IPV4_MAX bytes of payload */
    uint8_t have[IPV4_MAX / 8 / 8 + 1];     /* a bit per 8-byte block */
} ReassQueue;

struct Ipv4Reass {
    ReassQueue q[IPV4_REASS_QUEUES];
    uint8_t *out;                   /* the last reassembled frame */
};

static uint16_t get16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static uint16_t ip_csum(const uint8_t *p, size_t len)
{
    uint32_t sum = 0;
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += get16(p + i);
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return ~sum;
}

Ipv4Reass *ipv4_reass_new(void)
{
    return g_new0(Ipv4Reass, 1);
}

static void queue_drop(ReassQueue *q)
{
    g_free(q->data);
    memset(q, 0, sizeof(*q));
}

void ipv4_reass_free(Ipv4Reass *r)
{
    int i;

    if (!r) {
        return;
    }
    for (i = 0; i < IPV4_REASS_QUEUES; i++) {
        queue_drop(&r->q[i]);
    }
    g_free(r->out);
    g_free(r);
}

static ReassQueue *queue_find(Ipv4Reass *r, uint32_t src, uint32_t dst,
                              uint16_t id, uint8_t proto, int64_t now)
{
    ReassQueue *free_q = NULL, *oldest = NULL;
    int i;

    for (i = 0; i < IPV4_REASS_QUEUES; i++) {
        ReassQueue *q = &r->q[i];

        if (q->used && now - q->created_ms > IPV4_REASS_TTL_MS) {
            queue_drop(q);
        }
        if (!q->used) {
            free_q = free_q ? free_q : q;
            continue;
        }
        if (q->src == src && q->dst == dst && q->id == id &&
            q->proto == proto) {
            return q;
        }
        if (!oldest || q->created_ms < oldest->created_ms) {
            oldest = q;
        }
    }
    if (!free_q) {
        queue_drop(oldest);
        free_q = oldest;
    }
    free_q->used = true;
    free_q->src = src;
    free_q->dst = dst;
    free_q->id = id;
    free_q->proto = proto;
    free_q->created_ms = now;
    free_q->data = g_malloc(IPV4_MAX);
    return free_q;
}

static bool queue_complete(ReassQueue *q)
{
    size_t b;

    if (!q->head_len || !q->total) {
        return false;
    }
    for (b = 0; b < (q->total + 7) / 8; b++) {
        if (!(q->have[b / 8] & (1 << (b % 8)))) {
            return false;
        }
    }
    return true;
}

const uint8_t *ipv4_reass_input(Ipv4Reass *r, const uint8_t *frame,
                                size_t len, size_t *out_len, int64_t now_ms)
{
    const uint8_t *ip = frame + ETH_HLEN;
    size_t hlen, tot, plen, off, b;
    uint16_t frag;
    bool more;
    ReassQueue *q;
    uint8_t *out;

    *out_len = len;
    if (len < ETH_HLEN + 20 || get16(frame + 12) != 0x0800) {
        return frame;
    }
    frag = get16(ip + 6);
    if (!(frag & 0x3fff)) {
        return frame;       /* not a fragment */
    }
    /* A fragment: from here on it is consumed, whatever it holds */
    hlen = (size_t)(ip[0] & 0xf) * 4;
    tot = get16(ip + 2);
    if ((ip[0] >> 4) != 4 || hlen < 20 || tot < hlen ||
        tot > len - ETH_HLEN || ip_csum(ip, hlen) != 0) {
        return NULL;
    }
    more = frag & 0x2000;
    off = (size_t)(frag & 0x1fff) * 8;
    plen = tot - hlen;
    if ((more && (plen == 0 || plen % 8)) || off + plen + hlen > IPV4_MAX) {
        return NULL;
    }
    q = queue_find(r, get32(ip + 12), get32(ip + 16), get16(ip + 4), ip[9],
                   now_ms);
    memcpy(q->data + off, ip + hlen, plen);
    for (b = off / 8; b < (off + plen + 7) / 8; b++) {
        q->have[b / 8] |= 1 << (b % 8);
    }
    if (!more) {
        q->total = off + plen;
    }
    if (off == 0) {
        memcpy(q->head, frame, ETH_HLEN + hlen);
        q->head_len = ETH_HLEN + hlen;
    }
    if (!queue_complete(q) || q->head_len - ETH_HLEN + q->total > IPV4_MAX) {
        if (q->total && q->head_len &&
            q->head_len - ETH_HLEN + q->total > IPV4_MAX) {
            queue_drop(q);
        }
        return NULL;
    }
    /* Whole: the first fragment's headers, the length, no fragment bits */
    g_free(r->out);
    out = r->out = g_malloc(q->head_len + q->total);
    memcpy(out, q->head, q->head_len);
    memcpy(out + q->head_len, q->data, q->total);
    hlen = q->head_len - ETH_HLEN;
    out[ETH_HLEN + 2] = (hlen + q->total) >> 8;
    out[ETH_HLEN + 3] = hlen + q->total;
    out[ETH_HLEN + 6] &= 0x40;      /* keep DF only */
    out[ETH_HLEN + 7] = 0;
    out[ETH_HLEN + 10] = out[ETH_HLEN + 11] = 0;
    frag = ip_csum(out + ETH_HLEN, hlen);
    out[ETH_HLEN + 10] = frag >> 8;
    out[ETH_HLEN + 11] = frag;
    *out_len = q->head_len + q->total;
    queue_drop(q);
    return out;
}
