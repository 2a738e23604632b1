/*
 * A stand-in guest for the network backend tests: a NIC net client whose
 * receive() feeds the tiny stack (tests/guest/net/), and whose stack
 * transmits through qemu_send_packet(), linked to a real netdev created
 * by the real -netdev code.  Plus host-side helpers: a TCP echo server
 * thread and timed main-loop runs.
 */
#ifndef TEST_NET_GUEST_H
#define TEST_NET_GUEST_H

#include <glib.h>
#include <stdbool.h>

#include "net/net.h"
#include "netstack.h"

typedef struct NetGuest {
    NetClientState *nic;
    NetClientState *netdev;
    struct netstack ns;
    bool stalled;           /* the NIC refuses frames (queueing tests) */
    /*
     * Frames the NIC took, for the stack to read on its next turn: as
     * with a real NIC, nothing the backend sends is answered from inside
     * the backend's own send (libslirp is not re-entrant)
     */
    GQueue rx;
} NetGuest;

/* Creates -netdev optarg through net_netdev_option + net_init_clients */
NetClientState *net_test_netdev(const char *optarg);
NetGuest *net_guest_new(const char *netdev_id, const uint8_t mac[6]);
void net_guest_free(NetGuest *g);
/* Runs the main loop and the stack until cond(opaque) or ms elapse */
bool net_run_until(NetGuest *g, bool (*cond)(NetGuest *g, void *opaque),
                   void *opaque, unsigned ms);
void net_run_for(NetGuest *g, unsigned ms);
/* TCP echo over the stack: sends len bytes on c, waits for them back */
bool net_guest_echo(NetGuest *g, int c, const uint8_t *data, size_t len,
                    unsigned timeout_ms);
bool net_guest_established(NetGuest *g, void *conn_index);

/* A TCP echo server on addr:0 (one connection, until EOF) in a thread */
typedef struct EchoServer EchoServer;
EchoServer *echo_server_start(const char *addr);
int echo_server_port(EchoServer *s);
unsigned echo_server_accepted(EchoServer *s);
void echo_server_stop(EchoServer *s);

/* A free TCP port on 127.0.0.1 (bound once and released) */
int net_test_free_port(void);

#endif
