/*
 * -object: user-creatable objects (system/user-objects.c).  Each lives at
 * /objects/ID in the QOM tree.
 */
#ifndef SYSEMU_USER_OBJECTS_H
#define SYSEMU_USER_OBJECTS_H

#include <stdbool.h>

#include "hw/boards.h"
#include "qapi/error.h"
#include "sysemu/hostmem.h"

#define TYPE_MEMORY_BACKEND "memory-backend"
#define TYPE_MEMORY_BACKEND_RAM "memory-backend-ram"
#define TYPE_RNG_BACKEND "rng-backend"
#define TYPE_SECRET "secret"

/*
 * -object TYPE,id=ID,prop=value,... or -object '{"qom-type": TYPE,
 * "id": ID, ...}'.  Types: secret (data= or file=, format=raw|base64),
 * memory-backend-ram (size=, and accepted: share, prealloc, merge, dump,
 * reserve, policy, host-nodes, x-use-canonical-path-for-ramblock-id),
 * iothread (an idle thread; poll-max-ns, poll-grow, poll-shrink,
 * aio-max-batch, thread-pool-min/max stored; query-iothreads lists them).
 */
bool user_object_add(const char *optarg, Error **errp);

/*
 * -machine memory-backend=ID: the backend must exist and its size equal
 * -m (without -m the backend's size becomes the RAM size).
 */
bool user_objects_machine_ram(MachineState *ms, bool mem_given, Error **errp);
/* -object's types: "Parameter 'qom-type' does not accept value" else */
bool user_object_check_type(const char *type, Error **errp);
/* len bytes of entropy from an rng-builtin or rng-random object */
bool user_object_rng_read(Object *rng, void *buf, size_t len, Error **errp);
/* A memory backend's size */
uint64_t user_objects_backend_size(Object *backend);
/* How a memory backend's RAM is mapped (policy, nodes, merge, dump, ...) */
void user_objects_backend_backing(MachineState *ms, Object *backend,
                                  HostMemBacking *out);

#endif
