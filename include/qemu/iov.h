/*
 * Scatter-gather lists for block I/O: a device hands the block layer the
 * guest buffers of one request as an iovec array; drivers slice it per
 * cluster, copy into it, or zero parts of it.
 */
#ifndef QEMU_IOV_H
#define QEMU_IOV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>

typedef struct QEMUIOVector {
    struct iovec *iov;
    int niov;
    int nalloc;         /* 0: iov is borrowed (init_buf/one element) */
    size_t size;        /* sum of the lengths */
    struct iovec local; /* storage of init_buf */
} QEMUIOVector;

void qemu_iovec_init(QEMUIOVector *qiov, int alloc_hint);
/* One buffer; nothing is allocated, destroy is optional */
void qemu_iovec_init_buf(QEMUIOVector *qiov, void *buf, size_t len);
void qemu_iovec_add(QEMUIOVector *qiov, void *base, size_t len);
/* Appends bytes [offset, offset + len) of src (which must hold them) */
void qemu_iovec_concat(QEMUIOVector *dst, const QEMUIOVector *src,
                       size_t offset, size_t len);
void qemu_iovec_destroy(QEMUIOVector *qiov);
void qemu_iovec_reset(QEMUIOVector *qiov);

/* Copies between qiov[offset..] and a flat buffer; return bytes copied */
size_t qemu_iovec_to_buf(const QEMUIOVector *qiov, size_t offset, void *buf,
                         size_t len);
size_t qemu_iovec_from_buf(const QEMUIOVector *qiov, size_t offset,
                           const void *buf, size_t len);
size_t qemu_iovec_memset(const QEMUIOVector *qiov, size_t offset, int c,
                         size_t len);
/* Whether bytes [offset, offset + len) are all zero */
bool qemu_iovec_is_zero(const QEMUIOVector *qiov, size_t offset, size_t len);
/* Whether every base and length is a multiple of align */
bool qemu_iovec_is_aligned(const QEMUIOVector *qiov, size_t align);

/* Whether len bytes at buf are all zero */
bool buffer_is_zero(const void *buf, size_t len);

#endif
