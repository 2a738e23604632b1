/*
 * -netdev tap: frames to and from a Linux tap interface.
 *
 * The tap comes from libvirt as an open fd (fd=N, or fds=N for one
 * queue; over QMP also the name getfd gave it), or is created or attached here by name (ifname=, TUNSETIFF,
 * needs CAP_NET_ADMIN).  QEMU runs /etc/qemu-ifup and /etc/qemu-ifdown by
 * default; this build runs no scripts, so anything but script=no and
 * downscript=no (or empty) is refused, as are helper= (the bridge helper)
 * and multiqueue taps.
 *
 * virtio-net headers: with IFF_VNET_HDR (vnet_hdr=on, or by default when
 * the kernel offers it) every frame on the fd carries a struct
 * virtio_net_hdr.  Until the NIC says it uses them (qemu_using_vnet_hdr)
 * the header is stripped on the way in and a zero one (no offloads)
 * added on the way out, so a NIC without them sees plain frames.
 *
 * Reading stops while the peer's queue holds a frame of ours (sent
 * asynchronously) and resumes when it is taken; a write the fd refuses
 * (EAGAIN) is queued and retried when the fd is writable.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <glib.h>
#include <glib-unix.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>

#include "monitor/fds.h"
#include "net/tap.h"

/* Frames read per wake-up before others get the main loop */
#define TAP_READ_BATCH 50

typedef struct TapState {
    NetClientState nc;
    int fd;
    char ifname[IFNAMSIZ];
    int host_vnet_hdr_len;      /* 0: no IFF_VNET_HDR */
    bool using_vnet_hdr;        /* the NIC reads and writes the header */
    guint read_watch, write_watch;
    bool read_paused;           /* a frame of ours waits in the peer */
    VhostNet *vhost;
    uint8_t buf[NET_BUFSIZE];
} TapState;

static void tap_update_watches(TapState *s);

static void tap_send_completed(NetClientState *nc, ssize_t len)
{
    TapState *s = (TapState *)nc;

    s->read_paused = false;
    tap_update_watches(s);
}

static gboolean tap_readable(gint fd, GIOCondition cond, gpointer opaque)
{
    TapState *s = opaque;
    int i;

    for (i = 0; i < TAP_READ_BATCH && !s->read_paused; i++) {
        ssize_t n = read(s->fd, s->buf, sizeof(s->buf));
        uint8_t *frame = s->buf;

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        if (s->host_vnet_hdr_len && !s->using_vnet_hdr) {
            if (n < s->host_vnet_hdr_len) {
                continue;
            }
            frame += s->host_vnet_hdr_len;
            n -= s->host_vnet_hdr_len;
        }
        if (qemu_send_packet_async(&s->nc, frame, n, tap_send_completed) ==
            0) {
            s->read_paused = true;
        }
    }
    if (s->read_paused) {
        s->read_watch = 0;
        return G_SOURCE_REMOVE;
    }
    return G_SOURCE_CONTINUE;
}

static gboolean tap_writable(gint fd, GIOCondition cond, gpointer opaque)
{
    TapState *s = opaque;

    s->write_watch = 0;
    qemu_flush_queued_packets(&s->nc);
    return G_SOURCE_REMOVE;
}

static void tap_update_watches(TapState *s)
{
    bool want_read = !s->read_paused && !vhost_net_running(s->vhost);

    if (want_read && !s->read_watch) {
        s->read_watch = g_unix_fd_add(s->fd, G_IO_IN, tap_readable, s);
    } else if (!want_read && s->read_watch) {
        g_source_remove(s->read_watch);
        s->read_watch = 0;
    }
}

static ssize_t tap_receive(NetClientState *nc, const uint8_t *buf,
                           size_t size)
{
    TapState *s = (TapState *)nc;
    struct virtio_net_hdr_mrg_rxbuf hdr = { 0 };
    struct iovec iov[2];
    int n = 0;
    ssize_t ret;

    if (vhost_net_running(s->vhost)) {
        return size;    /* the kernel owns the fd now */
    }
    if (s->host_vnet_hdr_len && !s->using_vnet_hdr) {
        iov[n].iov_base = &hdr;
        iov[n++].iov_len = s->host_vnet_hdr_len;
    }
    iov[n].iov_base = (void *)buf;
    iov[n++].iov_len = size;
    do {
        ret = writev(s->fd, iov, n);
    } while (ret < 0 && errno == EINTR);
    if (ret < 0 && errno == EAGAIN) {
        if (!s->write_watch) {
            s->write_watch = g_unix_fd_add(s->fd, G_IO_OUT, tap_writable, s);
        }
        return 0;
    }
    return ret < 0 ? ret : (ssize_t)size;
}

static bool tap_has_vnet_hdr(NetClientState *nc)
{
    return ((TapState *)nc)->host_vnet_hdr_len > 0;
}

static bool tap_set_vnet_hdr_len(NetClientState *nc, int len, Error **errp)
{
    TapState *s = (TapState *)nc;

    if (len != sizeof(struct virtio_net_hdr) &&
        len != sizeof(struct virtio_net_hdr_mrg_rxbuf)) {
        error_setg(errp, "tap: bad virtio-net header length %d", len);
        return false;
    }
    if (ioctl(s->fd, TUNSETVNETHDRSZ, &len) < 0) {
        error_setg(errp, "TUNSETVNETHDRSZ ioctl() failed: %s",
                   g_strerror(errno));
        return false;
    }
    s->host_vnet_hdr_len = len;
    return true;
}

static void tap_using_vnet_hdr(NetClientState *nc, bool enable)
{
    ((TapState *)nc)->using_vnet_hdr = enable;
}

static bool tap_set_offload(NetClientState *nc, bool csum, bool tso4,
                            bool tso6, bool ecn, bool ufo, Error **errp)
{
    TapState *s = (TapState *)nc;
    unsigned flags = (csum ? TUN_F_CSUM : 0) |
                     (csum && tso4 ? TUN_F_TSO4 : 0) |
                     (csum && tso6 ? TUN_F_TSO6 : 0) |
                     (csum && ecn ? TUN_F_TSO_ECN : 0) |
                     (csum && ufo ? TUN_F_UFO : 0);

    if (ioctl(s->fd, TUNSETOFFLOAD, flags) < 0) {
        error_setg(errp, "TUNSETOFFLOAD ioctl() failed: %s",
                   g_strerror(errno));
        return false;
    }
    return true;
}

static void tap_cleanup(NetClientState *nc)
{
    TapState *s = (TapState *)nc;

    vhost_net_close(s->vhost);
    if (s->read_watch) {
        g_source_remove(s->read_watch);
    }
    if (s->write_watch) {
        g_source_remove(s->write_watch);
    }
    if (s->fd >= 0) {
        close(s->fd);
    }
}

static const NetClientInfo tap_info = {
    .type = NET_CLIENT_DRIVER_TAP,
    .size = sizeof(TapState),
    .receive = tap_receive,
    .cleanup = tap_cleanup,
    .has_vnet_hdr = tap_has_vnet_hdr,
    .set_vnet_hdr_len = tap_set_vnet_hdr_len,
    .using_vnet_hdr = tap_using_vnet_hdr,
    .set_offload = tap_set_offload,
};

int tap_get_fd(NetClientState *nc)
{
    return nc->info == &tap_info ? ((TapState *)nc)->fd : -1;
}

const char *tap_get_ifname(NetClientState *nc)
{
    return nc->info == &tap_info ? ((TapState *)nc)->ifname : NULL;
}

VhostNet *tap_get_vhost_net(NetClientState *nc)
{
    return nc->info == &tap_info ? ((TapState *)nc)->vhost : NULL;
}

bool tap_vhost_start(NetClientState *nc, Error **errp)
{
    TapState *s = (TapState *)nc;

    if (!tap_get_vhost_net(nc)) {
        error_setg(errp, "netdev '%s' has no vhost-net", nc->name);
        return false;
    }
    if (!vhost_net_start(s->vhost, errp)) {
        return false;
    }
    tap_update_watches(s);
    return true;
}

void tap_vhost_stop(NetClientState *nc)
{
    TapState *s = (TapState *)nc;

    if (tap_get_vhost_net(nc)) {
        vhost_net_stop(s->vhost);
        tap_update_watches(s);
    }
}

/* Opening ---------------------------------------------------------------------- */

/* Creates or attaches the interface named ifname ("" = the kernel's tapN) */
static int tap_open(char *ifname, bool *vnet_hdr, bool vnet_hdr_required,
                    Error **errp)
{
    struct ifreq ifr = { 0 };
    unsigned features = 0;
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

    if (fd < 0) {
        error_setg(errp, "could not open /dev/net/tun: %s", g_strerror(errno));
        return -1;
    }
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    if (ioctl(fd, TUNGETFEATURES, &features) < 0) {
        features = 0;
    }
    if (*vnet_hdr && (features & IFF_VNET_HDR)) {
        ifr.ifr_flags |= IFF_VNET_HDR;
    } else if (vnet_hdr_required) {
        error_setg(errp, "vnet_hdr=1 requested, but no kernel support for "
                   "IFF_VNET_HDR available");
        close(fd);
        return -1;
    }
    *vnet_hdr = ifr.ifr_flags & IFF_VNET_HDR;
    g_strlcpy(ifr.ifr_name, *ifname ? ifname : "tap%d", IFNAMSIZ);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        error_setg(errp, "could not configure /dev/net/tun (%s): %s",
                   ifname, g_strerror(errno));
        close(fd);
        return -1;
    }
    g_strlcpy(ifname, ifr.ifr_name, IFNAMSIZ);
    return fd;
}

/* A script option: "no" or empty means none; the defaults are QEMU's */
static bool tap_check_script(bool has, const char *value, const char *dflt,
                             Error **errp)
{
    const char *script = has ? value : dflt;

    if (!*script || !strcmp(script, "no")) {
        return true;
    }
    error_setg(errp, "network script %s: running network scripts is not "
               "supported by this build (use script=no,downscript=no)",
               script);
    return false;
}

/* The option combinations QEMU 7.2 refuses, with its texts */
static bool tap_check_options(const NetdevTapOptions *t, Error **errp)
{
    if (t->has_fd) {
        if (t->has_ifname || t->has_script || t->has_downscript ||
            t->has_vnet_hdr || t->has_helper || t->has_queues || t->has_fds ||
            t->has_vhostfds) {
            error_setg(errp, "ifname=, script=, downscript=, vnet_hdr=, "
                       "helper=, queues=, fds=, and vhostfds= are invalid "
                       "with fd=");
            return false;
        }
    } else if (t->has_fds) {
        if (t->has_ifname || t->has_script || t->has_downscript ||
            t->has_vnet_hdr || t->has_helper || t->has_queues ||
            t->has_vhostfd) {
            error_setg(errp, "ifname=, script=, downscript=, vnet_hdr=, "
                       "helper=, queues=, and vhostfd= are invalid with fds=");
            return false;
        }
    } else if (t->has_helper) {
        if (t->has_ifname || t->has_script || t->has_downscript ||
            t->has_vnet_hdr || t->has_queues || t->has_vhostfds) {
            error_setg(errp, "ifname=, script=, downscript=, vnet_hdr=, "
                       "queues=, and vhostfds= are invalid with helper=");
            return false;
        }
        error_setg(errp, "helper= is not supported by this build (it runs "
                   "QEMU's bridge helper)");
        return false;
    } else if (t->has_vhostfds) {
        error_setg(errp, "vhostfds= is invalid if fds= wasn't specified");
        return false;
    }
    if (t->has_queues && t->queues != 1) {
        error_setg(errp, "queues=%" G_GINT64_FORMAT ": multiqueue tap is not "
                   "supported by this build (one queue only)", t->queues);
        return false;
    }
    if (t->has_vhostfds && strchr(t->vhostfds, ':')) {
        error_setg(errp, "vhostfds=%s: multiqueue tap is not supported by "
                   "this build (one queue only)", t->vhostfds);
        return false;
    }
    if (t->has_fds && strchr(t->fds, ':')) {
        error_setg(errp, "fds=%s: multiqueue tap is not supported by this "
                   "build (one queue only)", t->fds);
        return false;
    }
    return true;
}

/* An fd handed over (fd=, fds=): usable, and a tap */
static int tap_take_fd(const char *name, const char *spec,
                       bool *vnet_hdr, Error **errp)
{
    struct ifreq ifr = { 0 };
    int fd = monitor_fd_param(spec, errp);

    if (fd < 0) {
        return -1;
    }
    if (!g_unix_set_fd_nonblocking(fd, TRUE, NULL)) {
        error_setg(errp, "%s: Can't use file descriptor %d: %s", name, fd,
                   g_strerror(errno));
        return -1;
    }
    if (ioctl(fd, TUNGETIFF, &ifr) < 0) {
        error_setg(errp, "Unable to query TUNGETIFF on FD %d: %s", fd,
                   g_strerror(errno));
        return -1;
    }
    *vnet_hdr = ifr.ifr_flags & IFF_VNET_HDR;
    return fd;
}

bool net_init_tap(const Netdev *netdev, const char *name, bool is_cli,
                  Error **errp)
{
    const NetdevTapOptions *t = &netdev->u.tap;
    char ifname[IFNAMSIZ] = "";
    bool vnet_hdr = !t->has_vnet_hdr || t->vnet_hdr;
    const char *vhostfd_spec = t->has_vhostfd ? t->vhostfd
                             : t->has_vhostfds ? t->vhostfds : NULL;
    bool want_vhost = (t->has_vhost && t->vhost) || vhostfd_spec ||
                      (t->has_vhostforce && t->vhostforce);
    int sndbuf = t->has_sndbuf && t->sndbuf ? MIN(t->sndbuf, INT_MAX)
                                            : INT_MAX;
    int vhostfd = -1;
    TapState *s;
    int fd;

    if (!tap_check_options(t, errp)) {
        return false;
    }
    if (t->has_fd || t->has_fds) {
        fd = tap_take_fd(name, t->has_fd ? t->fd : t->fds, &vnet_hdr,
                         errp);
    } else {
        if (!tap_check_script(t->has_script, t->script, "/etc/qemu-ifup",
                              errp) ||
            !tap_check_script(t->has_downscript, t->downscript,
                              "/etc/qemu-ifdown", errp)) {
            return false;
        }
        if (t->has_ifname) {
            g_strlcpy(ifname, t->ifname, sizeof(ifname));
        }
        fd = tap_open(ifname, &vnet_hdr, t->has_vnet_hdr && t->vnet_hdr,
                      errp);
        if (fd >= 0) {
            g_unix_set_fd_nonblocking(fd, TRUE, NULL);
        }
    }
    if (fd < 0) {
        return false;
    }
    if (ioctl(fd, TUNSETSNDBUF, &sndbuf) < 0 && t->has_sndbuf) {
        error_setg(errp, "TUNSETSNDBUF ioctl failed: %s", g_strerror(errno));
        close(fd);
        return false;
    }
    if (vhostfd_spec &&
        (vhostfd = monitor_fd_param(vhostfd_spec, errp)) < 0) {
        close(fd);
        return false;
    }
    s = (TapState *)qemu_new_net_client(&tap_info, NULL, "tap", name);
    s->nc.is_netdev = true;
    s->fd = fd;
    g_strlcpy(s->ifname, ifname, sizeof(s->ifname));
    if (vnet_hdr) {
        int len = sizeof(struct virtio_net_hdr);

        s->host_vnet_hdr_len = len;
        /* No offloads until the NIC asks for them */
        ioctl(fd, TUNSETVNETHDRSZ, &len);
        ioctl(fd, TUNSETOFFLOAD, 0);
    }
    s->nc.info_str = t->has_fd || t->has_fds
        ? g_strdup_printf("fd=%d", fd)
        : g_strdup_printf("ifname=%s,script=%s,downscript=%s", ifname,
                          t->has_script ? t->script : "/etc/qemu-ifup",
                          t->has_downscript ? t->downscript
                                            : "/etc/qemu-ifdown");
    if (want_vhost) {
        s->vhost = vhost_net_open(vhostfd, fd, errp);
        if (!s->vhost) {
            qemu_del_net_client(&s->nc);
            return false;
        }
    }
    tap_update_watches(s);
    return true;
}
