/*
 * The test guests' TCP/IP stack (tests/guest/net/) against itself: two
 * stacks on a simulated wire (frames queued, optionally lost every Nth),
 * with a simulated clock, so that ARP, ICMP, TCP open/transfer/close and
 * retransmission are checked without the emulator.
 */
#include <glib.h>
#include <string.h>

#include "netstack.h"

typedef struct Wire {
    struct netstack a, b;
    GQueue frames;          /* GByteArray*, with the receiver in data[0] */
    unsigned drop_every, sent;
    u32 now;
} Wire;

typedef struct Frame {
    struct netstack *to;
    size_t len;
    u8 data[NS_FRAME_MAX];
} Frame;

static Wire *wire_of(void *opaque)
{
    return opaque;
}

static void tx_common(Wire *w, struct netstack *to, const void *f, size_t len)
{
    Frame *fr;

    g_assert_cmpuint(len, <=, NS_FRAME_MAX);
    g_assert_cmpuint(len, >=, 60);
    w->sent++;
    if (w->drop_every && w->sent % w->drop_every == 0) {
        return;
    }
    fr = g_new(Frame, 1);
    fr->to = to;
    fr->len = len;
    memcpy(fr->data, f, len);
    g_queue_push_tail(&w->frames, fr);
}

static void tx_a(void *opaque, const void *f, size_t len)
{
    tx_common(wire_of(opaque), &wire_of(opaque)->b, f, len);
}

static void tx_b(void *opaque, const void *f, size_t len)
{
    tx_common(wire_of(opaque), &wire_of(opaque)->a, f, len);
}

static u32 clock_ms(void *opaque)
{
    return wire_of(opaque)->now;
}

/* Delivers what is on the wire, advances the clock, polls both */
static void wire_run(Wire *w, unsigned ms)
{
    unsigned i;

    for (i = 0; i < ms; i++) {
        Frame *fr;

        while ((fr = g_queue_pop_head(&w->frames))) {
            ns_input(fr->to, fr->data, fr->len);
            g_free(fr);
        }
        w->now++;
        ns_poll(&w->a);
        ns_poll(&w->b);
    }
}

static Wire *wire_new(unsigned drop_every)
{
    static const u8 mac_a[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    static const u8 mac_b[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x57 };
    Wire *w = g_new0(Wire, 1);

    w->now = 1000;
    g_queue_init(&w->frames);
    ns_init(&w->a, mac_a, tx_a, clock_ms, w);
    ns_init(&w->b, mac_b, tx_b, clock_ms, w);
    ns_set_ip(&w->a, NS_IP(192, 168, 7, 1), 0xffffff00, 0);
    ns_set_ip(&w->b, NS_IP(192, 168, 7, 2), 0xffffff00, 0);
    w->drop_every = drop_every;
    return w;
}

static void wire_free(Wire *w)
{
    g_queue_clear_full(&w->frames, g_free);
    g_free(w);
}

/* A connects to B's listener, sends size bytes, B echoes, both close */
static void echo_round(Wire *w, size_t size)
{
    u8 *out = g_malloc(size), *back = g_malloc(size), *tmp = g_malloc(4096);
    size_t sent = 0, echoed = 0, got = 0, pend = 0, pend_off = 0;
    int l = ns_tcp_listen(&w->b, 7);
    int c = ns_tcp_connect(&w->a, NS_IP(192, 168, 7, 2), 7);
    unsigned steps = 0;
    size_t i;

    for (i = 0; i < size; i++) {
        out[i] = (u8)(i * 7 + 3);
    }
    g_assert_cmpint(l, >=, 0);
    g_assert_cmpint(c, >=, 0);
    while (got < size && steps++ < 200000) {
        int n;

        if (sent < size && ns_tcp_state(&w->a, c) == NS_TCP_ESTABLISHED) {
            n = ns_tcp_send(&w->a, c, out + sent, size - sent);
            g_assert_cmpint(n, >=, 0);
            sent += n;
        }
        /* B echoes what it read, as much as its send buffer takes */
        if (!pend) {
            n = ns_tcp_recv(&w->b, l, tmp, 4096);
            pend = n > 0 ? n : 0;
            pend_off = 0;
        }
        if (pend) {
            n = ns_tcp_send(&w->b, l, tmp + pend_off, pend);
            g_assert_cmpint(n, >=, 0);
            pend -= n;
            pend_off += n;
            echoed += n;
        }
        n = ns_tcp_recv(&w->a, c, back + got, size - got);
        if (n > 0) {
            got += n;
        }
        wire_run(w, 1);
    }
    g_assert_cmpuint(got, ==, size);
    g_assert_cmpuint(echoed, ==, size);
    g_assert(memcmp(out, back, size) == 0);
    ns_tcp_close(&w->a, c);
    for (steps = 0; steps < 20000; steps++) {
        if (ns_tcp_recv(&w->b, l, tmp, 4096) < 0 &&
            ns_tcp_state(&w->b, l) == NS_TCP_CLOSE_WAIT) {
            ns_tcp_close(&w->b, l);
        }
        wire_run(w, 1);
        if (ns_tcp_state(&w->b, l) == NS_TCP_CLOSED &&
            ns_tcp_state(&w->a, c) == NS_TCP_CLOSED) {
            break;
        }
    }
    g_assert_cmpint(ns_tcp_state(&w->b, l), ==, NS_TCP_CLOSED);
    g_assert_cmpint(ns_tcp_state(&w->a, c), ==, NS_TCP_CLOSED);
    g_free(out);
    g_free(back);
    g_free(tmp);
}

static void test_tcp_echo(void)
{
    Wire *w = wire_new(0);

    echo_round(w, 200000);
    g_assert_cmpuint(w->a.tcp[0].retransmits + w->b.tcp[0].retransmits, ==,
                     0);
    /* a second connection after the first closed */
    echo_round(w, 1000);
    g_assert_cmpuint(w->a.rx_bad + w->b.rx_bad, ==, 0);
    wire_free(w);
}

static void test_tcp_lossy(void)
{
    Wire *w = wire_new(7);

    echo_round(w, 50000);
    wire_free(w);
}

static void test_tcp_refused(void)
{
    Wire *w = wire_new(0);
    int c = ns_tcp_connect(&w->a, NS_IP(192, 168, 7, 2), 9);

    wire_run(w, 50);
    /* B has no listener on 9: RST */
    g_assert_cmpint(ns_tcp_state(&w->a, c), ==, NS_TCP_CLOSED);
    wire_free(w);
}

static void test_icmp_echo(void)
{
    Wire *w = wire_new(0);
    u8 f[74] = { 0 };
    u8 *ip = f + 14, *icmp = f + 34;
    int i;

    /* a ping from A's address to B, written by hand */
    memcpy(f, w->b.mac, 6);
    memcpy(f + 6, w->a.mac, 6);
    ns_put16(f + 12, 0x0800);
    ip[0] = 0x45;
    ns_put16(ip + 2, 60);
    ip[8] = 64;
    ip[9] = 1;
    ns_put32(ip + 12, w->a.ip);
    ns_put32(ip + 16, w->b.ip);
    ns_put16(ip + 10, ns_csum_fold(ns_csum_add(0, ip, 20)));
    icmp[0] = 8;
    ns_put16(icmp + 4, 0x1234);
    for (i = 8; i < 40; i++) {
        icmp[i] = i;
    }
    ns_put16(icmp + 2, ns_csum_fold(ns_csum_add(0, icmp, 40)));
    ns_input(&w->b, f, sizeof(f));
    wire_run(w, 5);
    g_assert_cmpuint(w->b.echo_replies, ==, 1);
    /* the reply needed B to ARP for A; A answered and took the reply */
    g_assert_cmpuint(w->a.rx_bad, ==, 0);
    /* a corrupted checksum is counted and not answered */
    icmp[9] ^= 0xff;
    ns_input(&w->b, f, sizeof(f));
    g_assert_cmpuint(w->b.echo_replies, ==, 1);
    g_assert_cmpuint(w->b.rx_bad, ==, 1);
    wire_free(w);
}

/* Every truncation and random bytes: counted, never a crash */
static void test_garbage(void)
{
    Wire *w = wire_new(0);
    u8 f[NS_FRAME_MAX];
    u32 seed = 1;
    size_t len;
    int round;

    for (round = 0; round < 20000; round++) {
        size_t i;

        len = (round * 37) % sizeof(f);
        for (i = 0; i < len; i++) {
            seed = seed * 1103515245 + 12345;
            f[i] = seed >> 16;
        }
        if (len >= 14) {
            memcpy(f, w->b.mac, 6);
            ns_put16(f + 12, round & 1 ? 0x0800 : 0x0806);
        }
        if (len >= 34 && round & 1) {
            f[14] = 0x45;
            ns_put16(f + 16, len - 14);
            ns_put32(f + 30, w->b.ip);
            f[23] = round % 3 == 0 ? 6 : round % 3 == 1 ? 17 : 1;
            ns_put16(f + 24, 0);
            ns_put16(f + 24, ns_csum_fold(ns_csum_add(0, f + 14, 20)));
        }
        ns_input(&w->b, f, len);
        wire_run(w, 1);
    }
    g_assert_cmpuint(w->b.rx_frames, ==, 20000);
    g_assert_cmpuint(w->b.rx_bad, >, 0);
    wire_free(w);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/net/stack/icmp-echo", test_icmp_echo);
    g_test_add_func("/net/stack/tcp-echo", test_tcp_echo);
    g_test_add_func("/net/stack/tcp-lossy", test_tcp_lossy);
    g_test_add_func("/net/stack/tcp-refused", test_tcp_refused);
    g_test_add_func("/net/stack/garbage", test_garbage);
    return g_test_run();
}
