/*
 * ACPI HMAT (Heterogeneous Memory Attribute Table, ACPI 6.3 5.2.27),
 * revision 2, as QEMU 7.2 builds it from -numa's HMAT data
 * (sysemu/numa.h):
 *   - one Memory Proximity Domain Attributes structure per node, with
 *     the node's initiator (flag bit 0) when it has one;
 *   - one System Locality Latency and Bandwidth Information structure
 *     per hierarchy and data type that has hmat-lb entries, over every
 *     node with vCPUs (initiators) and every node (targets);
 *   - one Memory Side Cache Information structure per hmat-cache, node
 *     by node, level by level (no SMBIOS handles).
 */
#ifndef HW_ACPI_HMAT_H
#define HW_ACPI_HMAT_H

#include <glib.h>

#include "sysemu/numa.h"

#define HMAT_REVISION 2

/* Appends the HMAT's body (what follows the 36-byte header) to t */
void hmat_build_body(GByteArray *t, const NumaState *ns);

#endif
