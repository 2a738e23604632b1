/*
 * QMP: the JSON monitor protocol (see monitor/qmp.c for the protocol and
 * the command table).
 */
#ifndef MONITOR_QMP_H
#define MONITOR_QMP_H

#include <json-glib/json-glib.h>

#include "qapi/error.h"

/*
 * A command handler.  args is the "arguments" object (an empty object when
 * absent).  Returns the "return" value (a new node; an empty object for
 * commands without a result) or NULL with *errp set.
 */
typedef JsonNode *QmpCommandFunc(JsonObject *args, Error **errp);

typedef struct QmpCommand {
    const char *name;
    QmpCommandFunc *fn;
    /* Argument names the command accepts, space-separated ("" = none) */
    const char *args;
} QmpCommand;

/* The full command table (monitor/qmp-cmds.c), terminated by {NULL}. */
extern const QmpCommand qmp_commands[];

/* Sends an event to every QMP monitor in command mode; data may be NULL. */
void qmp_event_send(const char *event, JsonNode *data);

/* -mon [chardev=]ID[,mode=readline|control]: HMP (the default) or QMP */
bool qemu_mon_add(const char *optarg, Error **errp);
/* The chardev id of the next -qmp or -monitor: "compat_monitorN" */
char *qemu_monitor_compat_id(void);
/* -qmp unix:PATH,server=on,wait=off | stdio */
bool qemu_qmp_add(const char *optarg, Error **errp);

/* Helpers for handlers */
JsonNode *qmp_empty_return(void);
/* Required / optional argument accessors with QEMU's error texts
 * ("Parameter 'x' is missing", "Invalid parameter type for 'x', expected: string") */
const char *qmp_arg_str(JsonObject *args, const char *name, bool required,
                        Error **errp);
bool qmp_arg_bool(JsonObject *args, const char *name, bool defval, bool *out,
                  Error **errp);
bool qmp_arg_int(JsonObject *args, const char *name, bool required,
                 int64_t defval, int64_t *out, Error **errp);
JsonObject *qmp_arg_object(JsonObject *args, const char *name, bool required,
                           Error **errp);

#endif
