/*
 * -netdev tap (net/tap.c): what a NIC device and the tests need beyond
 * the net client API.
 */
#ifndef NET_TAP_H
#define NET_TAP_H

#include "net/net.h"
#include "net/vhost-net.h"

/* The tap's fd and interface name ("" when it came as fd=) */
int tap_get_fd(NetClientState *nc);
const char *tap_get_ifname(NetClientState *nc);
/* The vhost-net device of a tap opened with vhost=on, else NULL */
VhostNet *tap_get_vhost_net(NetClientState *nc);
/*
 * Hands the tap's frames to vhost-net (vhost_net_start) and stops reading
 * and writing the fd here; tap_vhost_stop gives them back.
 */
bool tap_vhost_start(NetClientState *nc, Error **errp);
void tap_vhost_stop(NetClientState *nc);

#endif
