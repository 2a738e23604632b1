/*
 * Scatter-gather lists (include/qemu/iov.h).
 */
#include <stdint.h>
#include <string.h>
#include <glib.h>

#include "qemu/iov.h"

void qemu_iovec_init(QEMUIOVector *qiov, int alloc_hint)
{
    memset(qiov, 0, sizeof(*qiov));
    qiov->nalloc = alloc_hint > 0 ? alloc_hint : 1;
    qiov->iov = g_new(struct iovec, qiov->nalloc);
}

void qemu_iovec_init_buf(QEMUIOVector *qiov, void *buf, size_t len)
{
    memset(qiov, 0, sizeof(*qiov));
    qiov->local.iov_base = buf;
    qiov->local.iov_len = len;
    qiov->iov = &qiov->local;
    qiov->niov = 1;
    qiov->size = len;
}

void qemu_iovec_add(QEMUIOVector *qiov, void *base, size_t len)
{
    g_assert(qiov->nalloc > 0);
    if (!len) {
        return;
    }
    if (qiov->niov == qiov->nalloc) {
        qiov->nalloc *= 2;
        qiov->iov = g_renew(struct iovec, qiov->iov, qiov->nalloc);
    }
    qiov->iov[qiov->niov].iov_base = base;
    qiov->iov[qiov->niov].iov_len = len;
    qiov->niov++;
    qiov->size += len;
}

void qemu_iovec_concat(QEMUIOVector *dst, const QEMUIOVector *src,
                       size_t offset, size_t len)
{
    int i;

    g_assert(offset + len <= src->size && offset + len >= offset);
    for (i = 0; i < src->niov && len; i++) {
        size_t l = src->iov[i].iov_len;

        if (offset >= l) {
            offset -= l;
            continue;
        }
        l = MIN(l - offset, len);
        qemu_iovec_add(dst, (char *)src->iov[i].iov_base + offset, l);
        len -= l;
        offset = 0;
    }
}

void qemu_iovec_destroy(QEMUIOVector *qiov)
{
    if (qiov->nalloc) {
        g_free(qiov->iov);
    }
    memset(qiov, 0, sizeof(*qiov));
}

void qemu_iovec_reset(QEMUIOVector *qiov)
{
    g_assert(qiov->nalloc > 0);
    qiov->niov = 0;
    qiov->size = 0;
}

/* Calls fn on each piece of [offset, offset + len) */
static size_t iov_walk(const QEMUIOVector *qiov, size_t offset, size_t len,
                       void (*fn)(void *piece, size_t n, size_t done,
                                  void *opaque),
                       void *opaque)
{
    size_t done = 0;
    int i;

    for (i = 0; i < qiov->niov && done < len; i++) {
        size_t l = qiov->iov[i].iov_len;

        if (offset >= l) {
            offset -= l;
            continue;
        }
        l = MIN(l - offset, len - done);
        fn((char *)qiov->iov[i].iov_base + offset, l, done, opaque);
        done += l;
        offset = 0;
    }
    return done;
}

static void piece_to_buf(void *piece, size_t n, size_t done, void *buf)
{
    memcpy((char *)buf + done, piece, n);
}

static void piece_from_buf(void *piece, size_t n, size_t done, void *buf)
{
    memcpy(piece, (const char *)buf + done, n);
}

static void piece_memset(void *piece, size_t n, size_t done, void *c)
{
    memset(piece, *(int *)c, n);
}

static void piece_is_zero(void *piece, size_t n, size_t done, void *zero)
{
    if (*(bool *)zero && !buffer_is_zero(piece, n)) {
        *(bool *)zero = false;
    }
}

size_t qemu_iovec_to_buf(const QEMUIOVector *qiov, size_t offset, void *buf,
                         size_t len)
{
    return iov_walk(qiov, offset, len, piece_to_buf, buf);
}

size_t qemu_iovec_from_buf(const QEMUIOVector *qiov, size_t offset,
                           const void *buf, size_t len)
{
    return iov_walk(qiov, offset, len, piece_from_buf, (void *)buf);
}

size_t qemu_iovec_memset(const QEMUIOVector *qiov, size_t offset, int c,
                         size_t len)
{
    return iov_walk(qiov, offset, len, piece_memset, &c);
}

bool qemu_iovec_is_zero(const QEMUIOVector *qiov, size_t offset, size_t len)
{
    bool zero = true;

    iov_walk(qiov, offset, len, piece_is_zero, &zero);
    return zero;
}

bool qemu_iovec_is_aligned(const QEMUIOVector *qiov, size_t align)
{
    int i;

    for (i = 0; i < qiov->niov; i++) {
        if ((uintptr_t)qiov->iov[i].iov_base % align ||
            qiov->iov[i].iov_len % align) {
            return false;
        }
    }
    return true;
}

bool buffer_is_zero(const void *buf, size_t len)
{
    const unsigned char *p = buf;
    size_t i;

    /* Word at a time once aligned; the data is usually large and zero */
    for (i = 0; i < len && ((uintptr_t)(p + i) % sizeof(uint64_t)); i++) {
        if (p[i]) {
            return false;
        }
    }
    for (; i + sizeof(uint64_t) <= len; i += sizeof(uint64_t)) {
        if (*(const uint64_t *)(p + i)) {
            return false;
        }
    }
    for (; i < len; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}
