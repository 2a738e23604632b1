/*
 * IPv4 reassembly of a guest's frames before libslirp sees them (see
 * net/ipv4-reass.c for why).
 */
#ifndef NET_IPV4_REASS_H
#define NET_IPV4_REASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Ipv4Reass Ipv4Reass;

Ipv4Reass *ipv4_reass_new(void);
void ipv4_reass_free(Ipv4Reass *r);
/*
 * One Ethernet frame from the guest.  Returns the frame to hand on: frame
 * itself unless it is an IPv4 fragment; for the fragment that completes a
 * datagram, the whole datagram's frame (valid until the next call, length
 * in *out_len); NULL when the fragment was kept or dropped.
 */
const uint8_t *ipv4_reass_input(Ipv4Reass *r, const uint8_t *frame,
                                size_t len, size_t *out_len, int64_t now_ms);

#endif
