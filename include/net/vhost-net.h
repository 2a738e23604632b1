/*
 * vhost-net: the kernel moves a virtio-net device's frames between the
 * guest's virtqueues and a tap fd, without the emulator (docs/network.md).
 *
 * The tap backend does the host side when asked (vhost=on, vhostfd=,
 * vhostforce=on): it opens /dev/vhost-net (or takes the fd), claims it
 * (VHOST_SET_OWNER) and reads what the kernel offers
 * (VHOST_GET_FEATURES).  The rest needs the guest's memory and rings, so
 * the virtio-net device calls it once the driver is ready:
 *
 *   vh = tap_get_vhost_net(peer);            // NULL: no vhost, use tap I/O
 *   vhost_net_set_features(vh, acked, errp);
 *   vhost_net_set_mem_table(vh, regions, n, errp);
 *   for each queue idx (0 = rx, 1 = tx):
 *       vhost_net_set_vring(vh, idx, &ring, errp);  // addresses, eventfds
 *   vhost_net_start(vh, errp);    // tap I/O in userspace stops
 *   ...
 *   vhost_net_stop(vh);           // tap I/O resumes
 *
 * Each call checks its ioctl and reports failure through errp.
 */
#ifndef NET_VHOST_NET_H
#define NET_VHOST_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "qapi/error.h"

typedef struct VhostNet VhostNet;

typedef struct VhostNetMemRegion {
    uint64_t guest_phys_addr;
    uint64_t size;
    uint64_t userspace_addr;    /* where the emulator maps it */
} VhostNetMemRegion;

typedef struct VhostNetVring {
    unsigned num;               /* ring size */
    unsigned last_avail_idx;    /* where the kernel starts */
    uint64_t desc_user_addr;    /* the ring's parts, in the emulator */
    uint64_t avail_user_addr;
    uint64_t used_user_addr;
    int kick_fd;                /* eventfd the guest's notify signals */
    int call_fd;                /* eventfd the kernel signals to interrupt */
} VhostNetVring;

/*
 * Opens and claims a vhost-net device: vhostfd >= 0 is used (and then
 * owned), else /dev/vhost-net is opened.  tap_fd is the backend.
 */
VhostNet *vhost_net_open(int vhostfd, int tap_fd, Error **errp);
void vhost_net_close(VhostNet *vh);
/* The features the kernel offers (VIRTIO_NET_F_*, VIRTIO_F_*) */
uint64_t vhost_net_features(VhostNet *vh);
bool vhost_net_set_features(VhostNet *vh, uint64_t features, Error **errp);
bool vhost_net_set_mem_table(VhostNet *vh, const VhostNetMemRegion *r,
                             unsigned n, Error **errp);
bool vhost_net_set_vring(VhostNet *vh, unsigned idx,
                         const VhostNetVring *ring, Error **errp);
/* Attaches the tap fd to both queues; the kernel then moves frames */
bool vhost_net_start(VhostNet *vh, Error **errp);
void vhost_net_stop(VhostNet *vh);
bool vhost_net_running(VhostNet *vh);

#endif
