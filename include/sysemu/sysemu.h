#ifndef SYSEMU_SYSEMU_H
#define SYSEMU_SYSEMU_H

#include <stdbool.h>
#include <stdint.h>

/* -name guest=X */
extern char *qemu_name;
/* -uuid */
extern char *qemu_uuid;

#endif
