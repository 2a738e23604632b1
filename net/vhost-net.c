/*
 * The host side of vhost-net (include/net/vhost-net.h): the ioctls of
 * linux/vhost.h, each checked.  Ring and memory set-up come from the
 * virtio-net device once it exists; the tap backend only opens, claims
 * and closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <glib.h>
#include <linux/vhost.h>

#include "net/vhost-net.h"

struct VhostNet {
    int fd;
    int tap_fd;
    uint64_t features;
    bool running;
};

VhostNet *vhost_net_open(int vhostfd, int tap_fd, Error **errp)
{
    VhostNet *vh;
    uint64_t features;
    int fd = vhostfd;

    if (fd < 0) {
        fd = open("/dev/vhost-net", O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            error_setg(errp, "tap: open vhost char device failed: %s",
                       g_strerror(errno));
            return NULL;
        }
    }
    if (ioctl(fd, VHOST_SET_OWNER, NULL) < 0) {
        error_setg(errp, "vhost_set_owner failed: %s", g_strerror(errno));
        close(fd);
        return NULL;
    }
    if (ioctl(fd, VHOST_GET_FEATURES, &features) < 0) {
        error_setg(errp, "vhost_get_features failed: %s", g_strerror(errno));
        close(fd);
        return NULL;
    }
    vh = g_new0(VhostNet, 1);
    vh->fd = fd;
    vh->tap_fd = tap_fd;
    vh->features = features;
    return vh;
}

void vhost_net_close(VhostNet *vh)
{
    if (!vh) {
        return;
    }
    vhost_net_stop(vh);
    close(vh->fd);
    g_free(vh);
}

uint64_t vhost_net_features(VhostNet *vh)
{
    return vh->features;
}

bool vhost_net_set_features(VhostNet *vh, uint64_t features, Error **errp)
{
    if (features & ~vh->features) {
        error_setg(errp, "vhost-net: features 0x%" G_GINT64_MODIFIER "x not "
                   "offered by the kernel", features & ~vh->features);
        return false;
    }
    if (ioctl(vh->fd, VHOST_SET_FEATURES, &features) < 0) {
        error_setg(errp, "vhost_set_features failed: %s", g_strerror(errno));
        return false;
    }
    return true;
}

bool vhost_net_set_mem_table(VhostNet *vh, const VhostNetMemRegion *r,
                             unsigned n, Error **errp)
{
    struct vhost_memory *mem;
    unsigned i;
    int ret;

    mem = g_malloc0(sizeof(*mem) + n * sizeof(mem->regions[0]));
    mem->nregions = n;
    for (i = 0; i < n; i++) {
        mem->regions[i].guest_phys_addr = r[i].guest_phys_addr;
        mem->regions[i].memory_size = r[i].size;
        mem->regions[i].userspace_addr = r[i].userspace_addr;
    }
    ret = ioctl(vh->fd, VHOST_SET_MEM_TABLE, mem);
    g_free(mem);
    if (ret < 0) {
        error_setg(errp, "vhost_set_mem_table failed: %s", g_strerror(errno));
        return false;
    }
    return true;
}

bool vhost_net_set_vring(VhostNet *vh, unsigned idx,
                         const VhostNetVring *ring, Error **errp)
{
    struct vhost_vring_state num = { .index = idx, .num = ring->num };
    struct vhost_vring_state base = {
        .index = idx, .num = ring->last_avail_idx,
    };
    struct vhost_vring_addr addr = {
        .index = idx,
        .desc_user_addr = ring->desc_user_addr,
        .avail_user_addr = ring->avail_user_addr,
        .used_user_addr = ring->used_user_addr,
    };
    struct vhost_vring_file kick = { .index = idx, .fd = ring->kick_fd };
    struct vhost_vring_file call = { .index = idx, .fd = ring->call_fd };
    const char *what = NULL;

    if (idx > 1) {
        error_setg(errp, "vhost-net: no virtqueue %u (0 rx, 1 tx)", idx);
        return false;
    }
    if (ioctl(vh->fd, VHOST_SET_VRING_NUM, &num) < 0) {
        what = "vhost_set_vring_num";
    } else if (ioctl(vh->fd, VHOST_SET_VRING_BASE, &base) < 0) {
        what = "vhost_set_vring_base";
    } else if (ioctl(vh->fd, VHOST_SET_VRING_ADDR, &addr) < 0) {
        what = "vhost_set_vring_addr";
    } else if (ioctl(vh->fd, VHOST_SET_VRING_KICK, &kick) < 0) {
        what = "vhost_set_vring_kick";
    } else if (ioctl(vh->fd, VHOST_SET_VRING_CALL, &call) < 0) {
        what = "vhost_set_vring_call";
    }
    if (what) {
        error_setg(errp, "%s failed: %s", what, g_strerror(errno));
        return false;
    }
    return true;
}

static bool set_backend(VhostNet *vh, int fd, Error **errp)
{
    unsigned idx;

    for (idx = 0; idx < 2; idx++) {
        struct vhost_vring_file f = { .index = idx, .fd = fd };

        if (ioctl(vh->fd, VHOST_NET_SET_BACKEND, &f) < 0) {
            error_setg(errp, "vhost_net_set_backend failed: %s",
                       g_strerror(errno));
            return false;
        }
    }
    return true;
}

bool vhost_net_start(VhostNet *vh, Error **errp)
{
    if (!set_backend(vh, vh->tap_fd, errp)) {
        return false;
    }
    vh->running = true;
    return true;
}

void vhost_net_stop(VhostNet *vh)
{
    if (vh->running) {
        /* fd -1 detaches; a failure leaves nothing to undo */
        set_backend(vh, -1, NULL);
        vh->running = false;
    }
}

bool vhost_net_running(VhostNet *vh)
{
    return vh && vh->running;
}
