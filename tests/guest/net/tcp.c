/*
 * The tiny stack's TCP (netstack.h): enough to open, echo and close on a
 * lossless local link, robust against any segment.
 *
 * Sequence space: the SYN takes iss; data byte k of the send buffer is
 * snd_una + k once the SYN is acknowledged; the FIN follows the last data
 * byte.  Only in-order data is taken (anything else is answered with an
 * ACK for rcv_nxt); the send side keeps everything until it is
 * acknowledged and, when the retransmission timer fires, goes back to
 * snd_una and sends it all again (go-back-N, doubling the timeout).
 */
#include "netstack.h"

#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_PSH 0x08
#define TCP_ACK 0x10
#define TCP_HLEN 20
#define IP_PROTO_TCP 6
#define PAYLOAD_OFF 34              /* Ethernet + IPv4 in ns->frame */
#define RTO_INITIAL_MS 200
#define RTO_MAX_MS 3000
#define RTO_MAX_RETRIES 12
#define TIME_WAIT_MS 1000

static bool seq_lt(u32 a, u32 b)
{
    return (s32)(a - b) < 0;
}

static bool seq_le(u32 a, u32 b)
{
    return (s32)(a - b) <= 0;
}

static struct ns_tcp_conn *conn(struct netstack *ns, int c)
{
    return c >= 0 && c < NS_TCP_CONNS ? &ns->tcp[c] : NULL;
}

static u16 rcv_window(struct ns_tcp_conn *t)
{
    u32 w = NS_TCP_BUF - t->rcv_len;

    return w > 0xffff ? 0xffff : (u16)w;
}

/* One segment; the payload may come in two pieces (the ring wraps) */
static bool tcp_emit(struct netstack *ns, u32 dst, u16 sport, u16 dport,
                     u32 seq, u32 ack, u8 flags, u16 wnd, const u8 *d1,
                     size_t l1, const u8 *d2, size_t l2)
{
    u8 *t = ns->frame + PAYLOAD_OFF;
    size_t hlen = TCP_HLEN + ((flags & TCP_SYN) ? 4 : 0);
    size_t len = hlen + l1 + l2;
    u8 ph[12];
    u32 sum;

    if (len > NS_MTU - 20) {
        return false;
    }
    ns_put16(t, sport);
    ns_put16(t + 2, dport);
    ns_put32(t + 4, seq);
    ns_put32(t + 8, (flags & TCP_ACK) ? ack : 0);
    t[12] = (u8)(hlen / 4) << 4;
    t[13] = flags;
    ns_put16(t + 14, wnd);
    ns_put16(t + 16, 0);
    ns_put16(t + 18, 0);
    if (flags & TCP_SYN) {
        t[20] = 2;              /* MSS */
        t[21] = 4;
        ns_put16(t + 22, NS_TCP_MSS);
    }
    if (l1) {
        memcpy(t + hlen, d1, l1);
    }
    if (l2) {
        memcpy(t + hlen + l1, d2, l2);
    }
    ns_put32(ph, ns->ip);
    ns_put32(ph + 4, dst);
    ph[8] = 0;
    ph[9] = IP_PROTO_TCP;
    ns_put16(ph + 10, len);
    sum = ns_csum_add(ns_csum_add(0, ph, sizeof(ph)), t, len);
    ns_put16(t + 16, ns_csum_fold(sum));
    return ns_ip_output(ns, dst, IP_PROTO_TCP, len);
}

static bool send_ctl(struct netstack *ns, struct ns_tcp_conn *t, u8 flags,
                     u32 seq)
{
    return tcp_emit(ns, t->remote_ip, t->local_port, t->remote_port, seq,
                    t->rcv_nxt, flags, rcv_window(t), NULL, 0, NULL, 0);
}

static void arm_timer(struct netstack *ns, struct ns_tcp_conn *t)
{
    if (!t->rto_at) {
        t->rto_at = ns_now(ns) + t->rto_ms;
        if (!t->rto_at) {
            t->rto_at = 1;
        }
    }
}

static void set_closed(struct ns_tcp_conn *t)
{
    t->state = NS_TCP_CLOSED;
    t->rto_at = 0;
}

/* Sends what the state, the buffer and the peer's window allow */
static void tcp_output(struct netstack *ns, struct ns_tcp_conn *t, bool probe)
{
    u32 in_flight, data_sent, wnd;

    if (t->state == NS_TCP_SYN_SENT || t->state == NS_TCP_SYN_RCVD) {
        if (t->snd_nxt == t->iss) {
            u8 flags = TCP_SYN | (t->state == NS_TCP_SYN_RCVD ? TCP_ACK : 0);

            send_ctl(ns, t, flags, t->iss);
            t->snd_nxt = t->iss + 1;
            arm_timer(ns, t);
        }
        return;
    }
    if (t->state != NS_TCP_ESTABLISHED && t->state != NS_TCP_CLOSE_WAIT &&
        t->state != NS_TCP_FIN_WAIT_1 && t->state != NS_TCP_LAST_ACK &&
        t->state != NS_TCP_CLOSING) {
        return;
    }
    in_flight = t->snd_nxt - t->snd_una;
    data_sent = in_flight - (t->fin_sent ? 1 : 0);
    wnd = t->snd_wnd ? t->snd_wnd : (probe ? 1 : 0);
    while (data_sent < t->snd_len && in_flight < wnd) {
        u32 n = t->snd_len - data_sent;
        u32 off = (t->snd_head + data_sent) % NS_TCP_BUF;
        u32 l1;

        n = n < t->peer_mss ? n : t->peer_mss;
        n = n < wnd - in_flight ? n : wnd - in_flight;
        l1 = n < NS_TCP_BUF - off ? n : NS_TCP_BUF - off;
        if (!tcp_emit(ns, t->remote_ip, t->local_port, t->remote_port,
                      t->snd_una + data_sent, t->rcv_nxt, TCP_ACK | TCP_PSH,
                      rcv_window(t), t->sndbuf + off, l1, t->sndbuf,
                      n - l1)) {
            break;      /* the next hop is not resolved yet: the timer */
        }
        data_sent += n;
        in_flight += n;
        t->snd_nxt = t->snd_una + in_flight;
        arm_timer(ns, t);
    }
    if (t->fin_queued && !t->fin_sent && data_sent == t->snd_len) {
        send_ctl(ns, t, TCP_FIN | TCP_ACK, t->snd_una + t->snd_len);
        t->fin_sent = true;
        t->snd_nxt = t->snd_una + t->snd_len + 1;
        if (t->state == NS_TCP_ESTABLISHED) {
            t->state = NS_TCP_FIN_WAIT_1;
        } else if (t->state == NS_TCP_CLOSE_WAIT) {
            t->state = NS_TCP_LAST_ACK;
        }
        arm_timer(ns, t);
    }
    if (t->snd_nxt == t->snd_una && data_sent == t->snd_len) {
        t->rto_at = 0;
    }
}

static void tcp_timeout(struct netstack *ns, struct ns_tcp_conn *t)
{
    t->rto_at = 0;
    if (++t->retries > RTO_MAX_RETRIES) {
        if (t->state != NS_TCP_SYN_SENT) {
            send_ctl(ns, t, TCP_RST | TCP_ACK, t->snd_nxt);
        }
        set_closed(t);
        return;
    }
    t->retransmits++;
    t->rto_ms = t->rto_ms * 2 > RTO_MAX_MS ? RTO_MAX_MS : t->rto_ms * 2;
    if (t->state == NS_TCP_SYN_SENT || t->state == NS_TCP_SYN_RCVD) {
        t->snd_nxt = t->iss;
    } else {
        t->snd_nxt = t->snd_una;
        if (!t->fin_acked) {
            t->fin_sent = false;
        }
    }
    tcp_output(ns, t, true);
    arm_timer(ns, t);
}

void ns_tcp_poll(struct netstack *ns)
{
    u32 now = ns_now(ns);
    int i;

    for (i = 0; i < NS_TCP_CONNS; i++) {
        struct ns_tcp_conn *t = &ns->tcp[i];

        if (t->state == NS_TCP_TIME_WAIT &&
            seq_le(t->time_wait_until, now)) {
            set_closed(t);
        } else if (t->rto_at && seq_le(t->rto_at, now)) {
            tcp_timeout(ns, t);
        } else if (t->state != NS_TCP_CLOSED) {
            tcp_output(ns, t, false);
        }
    }
}

/* The peer's MSS from a SYN's options, if it gives one */
static u16 parse_mss(const u8 *opt, size_t len)
{
    size_t i = 0;

    while (i < len) {
        u8 kind = opt[i];

        if (kind == 0) {
            break;
        }
        if (kind == 1) {
            i++;
            continue;
        }
        if (i + 1 >= len || opt[i + 1] < 2 || i + opt[i + 1] > len) {
            break;
        }
        if (kind == 2 && opt[i + 1] == 4) {
            u16 mss = ns_get16(opt + i + 2);

            return mss < 64 ? 64 : mss > NS_TCP_MSS ? NS_TCP_MSS : mss;
        }
        i += opt[i + 1];
    }
    return 536;
}

static void enter_time_wait(struct netstack *ns, struct ns_tcp_conn *t)
{
    t->state = NS_TCP_TIME_WAIT;
    t->rto_at = 0;
    t->time_wait_until = ns_now(ns) + TIME_WAIT_MS;
}

/* An acceptable ACK: frees acknowledged data, moves the closing states */
static void process_ack(struct netstack *ns, struct ns_tcp_conn *t, u32 ack,
                        u16 wnd)
{
    u32 acked = ack - t->snd_una;

    if (t->state == NS_TCP_SYN_RCVD) {
        if (ack != t->iss + 1) {
            return;
        }
        t->state = NS_TCP_ESTABLISHED;
        t->snd_una = t->snd_nxt = t->iss + 1;
        t->rto_at = 0;
        t->retries = 0;
        t->snd_wnd = wnd;
        return;
    }
    if (seq_lt(t->snd_nxt, ack)) {
        return;     /* acknowledges what was never sent */
    }
    if (acked && acked <= t->snd_nxt - t->snd_una) {
        u32 data = acked < t->snd_len ? acked : t->snd_len;

        t->snd_head = (t->snd_head + data) % NS_TCP_BUF;
        t->snd_len -= data;
        t->snd_una = ack;
        if (t->fin_sent && acked > data) {
            t->fin_acked = true;
        }
        t->retries = 0;
        t->rto_ms = RTO_INITIAL_MS;
        t->rto_at = 0;
        if (t->snd_nxt != t->snd_una) {
            arm_timer(ns, t);
        }
    }
    if (seq_le(t->snd_una, ack)) {
        t->snd_wnd = wnd;
    }
    if (t->fin_acked) {
        if (t->state == NS_TCP_FIN_WAIT_1) {
            t->state = NS_TCP_FIN_WAIT_2;
        } else if (t->state == NS_TCP_CLOSING) {
            enter_time_wait(ns, t);
        } else if (t->state == NS_TCP_LAST_ACK) {
            set_closed(t);
        }
    }
}

/* In-order data and FIN; anything else gets an ACK for rcv_nxt */
static void process_data(struct netstack *ns, struct ns_tcp_conn *t, u32 seq,
                         const u8 *data, u32 n, bool fin)
{
    bool open = t->state == NS_TCP_ESTABLISHED ||
                t->state == NS_TCP_FIN_WAIT_1 || t->state == NS_TCP_FIN_WAIT_2;

    if (!n && !fin) {
        return;
    }
    if (open && seq == t->rcv_nxt) {
        u32 room = NS_TCP_BUF - t->rcv_len;
        u32 take = n < room ? n : room;
        u32 i;

        for (i = 0; i < take; i++) {
            t->rcvbuf[(t->rcv_head + t->rcv_len + i) % NS_TCP_BUF] = data[i];
        }
        t->rcv_len += take;
        t->rcv_nxt += take;
        if (fin && take == n) {
            t->rcv_nxt++;
            t->peer_fin = true;
            if (t->state == NS_TCP_ESTABLISHED) {
                t->state = NS_TCP_CLOSE_WAIT;
            } else if (t->state == NS_TCP_FIN_WAIT_1) {
                t->state = NS_TCP_CLOSING;
                if (t->fin_acked) {
                    enter_time_wait(ns, t);
                }
            } else {
                enter_time_wait(ns, t);
            }
        }
    }
    send_ctl(ns, t, TCP_ACK, t->snd_nxt);
}

static void send_reset(struct netstack *ns, u32 src, u16 sport, u16 dport,
                       u32 seq, u32 ack, u8 flags, u32 seglen)
{
    if (flags & TCP_ACK) {
        tcp_emit(ns, src, dport, sport, ack, 0, TCP_RST, 0, NULL, 0, NULL, 0);
    } else {
        tcp_emit(ns, src, dport, sport, 0, seq + seglen, TCP_RST | TCP_ACK,
                 0, NULL, 0, NULL, 0);
    }
}

static struct ns_tcp_conn *find_conn(struct netstack *ns, u32 src,
                                     u16 sport, u16 dport)
{
    struct ns_tcp_conn *listener = NULL;
    int i;

    for (i = 0; i < NS_TCP_CONNS; i++) {
        struct ns_tcp_conn *t = &ns->tcp[i];

        if (t->state == NS_TCP_CLOSED || t->local_port != dport) {
            continue;
        }
        if (t->state == NS_TCP_LISTEN) {
            listener = t;
        } else if (t->remote_ip == src && t->remote_port == sport) {
            return t;
        }
    }
    return listener;
}

void ns_tcp_input(struct netstack *ns, u32 src, u32 dst, const u8 *seg,
                  size_t len)
{
    struct ns_tcp_conn *t;
    u8 ph[12], flags;
    u16 sport, dport, wnd;
    u32 seq, ack, doff, n;

    if (len < TCP_HLEN || (doff = (u32)(seg[12] >> 4) * 4) < TCP_HLEN ||
        doff > len) {
        ns->rx_bad++;
        return;
    }
    ns_put32(ph, src);
    ns_put32(ph + 4, dst);
    ph[8] = 0;
    ph[9] = IP_PROTO_TCP;
    ns_put16(ph + 10, len);
    if (ns_csum_fold(ns_csum_add(ns_csum_add(0, ph, sizeof(ph)), seg, len))) {
        ns->rx_bad++;
        return;
    }
    sport = ns_get16(seg);
    dport = ns_get16(seg + 2);
    seq = ns_get32(seg + 4);
    ack = ns_get32(seg + 8);
    flags = seg[13];
    wnd = ns_get16(seg + 14);
    n = len - doff;
    t = find_conn(ns, src, sport, dport);
    if (!t) {
        if (!(flags & TCP_RST)) {
            send_reset(ns, src, sport, dport, seq, ack, flags,
                       n + ((flags & TCP_SYN) ? 1 : 0) +
                       ((flags & TCP_FIN) ? 1 : 0));
        }
        return;
    }
    if (t->state == NS_TCP_LISTEN) {
        if ((flags & (TCP_SYN | TCP_ACK | TCP_RST)) != TCP_SYN) {
            if (!(flags & TCP_RST)) {
                send_reset(ns, src, sport, dport, seq, ack, flags, n);
            }
            return;
        }
        t->remote_ip = src;
        t->remote_port = sport;
        t->rcv_nxt = seq + 1;
        t->iss = ns_random(ns);
        t->snd_una = t->snd_nxt = t->iss;
        t->snd_wnd = wnd;
        t->peer_mss = parse_mss(seg + TCP_HLEN, doff - TCP_HLEN);
        t->state = NS_TCP_SYN_RCVD;
        tcp_output(ns, t, false);
        return;
    }
    if (flags & TCP_RST) {
        if (t->state == NS_TCP_SYN_SENT ? (flags & TCP_ACK) &&
            ack == t->iss + 1 : seq == t->rcv_nxt) {
            set_closed(t);
        }
        return;
    }
    if (t->state == NS_TCP_SYN_SENT) {
        if ((flags & TCP_ACK) && ack != t->iss + 1) {
            send_reset(ns, src, sport, dport, seq, ack, flags, n);
        } else if ((flags & (TCP_SYN | TCP_ACK)) == (TCP_SYN | TCP_ACK)) {
            t->rcv_nxt = seq + 1;
            t->snd_una = t->snd_nxt = t->iss + 1;
            t->snd_wnd = wnd;
            t->peer_mss = parse_mss(seg + TCP_HLEN, doff - TCP_HLEN);
            t->state = NS_TCP_ESTABLISHED;
            t->rto_at = 0;
            t->retries = 0;
            t->rto_ms = RTO_INITIAL_MS;
            send_ctl(ns, t, TCP_ACK, t->snd_nxt);
            tcp_output(ns, t, false);
        }
        return;
    }
    if (flags & TCP_SYN) {
        /* a retransmitted SYN(-ACK): our ACK was lost */
        send_ctl(ns, t, TCP_ACK, t->snd_nxt);
        return;
    }
    if (flags & TCP_ACK) {
        process_ack(ns, t, ack, wnd);
    }
    if (t->state != NS_TCP_CLOSED && t->state != NS_TCP_SYN_RCVD) {
        process_data(ns, t, seq, seg + doff, n, flags & TCP_FIN);
        tcp_output(ns, t, false);
    }
}

/* The user's side ------------------------------------------------------------------- */

static int free_slot(struct netstack *ns)
{
    int i;

    for (i = 0; i < NS_TCP_CONNS; i++) {
        if (ns->tcp[i].state == NS_TCP_CLOSED) {
            memset(&ns->tcp[i], 0, sizeof(ns->tcp[i]));
            ns->tcp[i].rto_ms = RTO_INITIAL_MS;
            ns->tcp[i].peer_mss = 536;
            return i;
        }
    }
    return -1;
}

int ns_tcp_connect(struct netstack *ns, u32 ip, u16 port)
{
    int c = free_slot(ns);
    struct ns_tcp_conn *t = conn(ns, c);

    if (!t) {
        return -1;
    }
    t->remote_ip = ip;
    t->remote_port = port;
    t->local_port = ns->next_port++;
    if (ns->next_port < 49152) {
        ns->next_port = 49152;
    }
    t->iss = ns_random(ns);
    t->snd_una = t->snd_nxt = t->iss;
    t->state = NS_TCP_SYN_SENT;
    tcp_output(ns, t, false);
    arm_timer(ns, t);
    return c;
}

int ns_tcp_listen(struct netstack *ns, u16 port)
{
    int c = free_slot(ns);
    struct ns_tcp_conn *t = conn(ns, c);

    if (!t) {
        return -1;
    }
    t->local_port = port;
    t->state = NS_TCP_LISTEN;
    return c;
}

int ns_tcp_state(struct netstack *ns, int c)
{
    struct ns_tcp_conn *t = conn(ns, c);

    return t ? t->state : NS_TCP_CLOSED;
}

int ns_tcp_send(struct netstack *ns, int c, const void *data, size_t len)
{
    struct ns_tcp_conn *t = conn(ns, c);
    const u8 *d = data;
    u32 room, n, i;

    if (!t || t->fin_queued ||
        (t->state != NS_TCP_ESTABLISHED && t->state != NS_TCP_CLOSE_WAIT &&
         t->state != NS_TCP_SYN_SENT && t->state != NS_TCP_SYN_RCVD)) {
        return -1;
    }
    room = NS_TCP_BUF - t->snd_len;
    n = len < room ? (u32)len : room;
    for (i = 0; i < n; i++) {
        t->sndbuf[(t->snd_head + t->snd_len + i) % NS_TCP_BUF] = d[i];
    }
    t->snd_len += n;
    tcp_output(ns, t, false);
    return n;
}

int ns_tcp_recv(struct netstack *ns, int c, void *buf, size_t len)
{
    struct ns_tcp_conn *t = conn(ns, c);
    u8 *b = buf;
    u32 n, i;
    bool was_small;

    if (!t) {
        return -1;
    }
    if (!t->rcv_len) {
        return t->peer_fin || t->state == NS_TCP_CLOSED ? -1 : 0;
    }
    was_small = rcv_window(t) < NS_TCP_MSS;
    n = len < t->rcv_len ? (u32)len : t->rcv_len;
    for (i = 0; i < n; i++) {
        b[i] = t->rcvbuf[(t->rcv_head + i) % NS_TCP_BUF];
    }
    t->rcv_head = (t->rcv_head + n) % NS_TCP_BUF;
    t->rcv_len -= n;
    /* The window opened again: tell the peer, or it waits for a probe */
    if (was_small && rcv_window(t) >= NS_TCP_MSS &&
        t->state != NS_TCP_CLOSED && t->state != NS_TCP_TIME_WAIT) {
        send_ctl(ns, t, TCP_ACK, t->snd_nxt);
    }
    return n;
}

void ns_tcp_close(struct netstack *ns, int c)
{
    struct ns_tcp_conn *t = conn(ns, c);

    if (!t) {
        return;
    }
    if (t->state == NS_TCP_LISTEN || t->state == NS_TCP_SYN_SENT) {
        set_closed(t);
        return;
    }
    t->fin_queued = true;
    tcp_output(ns, t, false);
}

void ns_tcp_release(struct netstack *ns, int c)
{
    struct ns_tcp_conn *t = conn(ns, c);

    if (t && (t->state == NS_TCP_TIME_WAIT || t->state == NS_TCP_CLOSED)) {
        set_closed(t);
    }
}
