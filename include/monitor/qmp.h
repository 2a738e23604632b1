/*
 * QMP: the JSON monitor protocol (see monitor/qmp.c for the protocol and
 * the command table).
 */
#ifndef MONITOR_QMP_H
#define MONITOR_QMP_H

#include <json-glib/json-glib.h>

#include "qapi/error.h"

/*
 * The dispatch table, generated from qapi/schema.json (scripts/qapi-gen.py):
 * fn gets the arguments as the command's C struct, checked against args
 * (NULL: the command takes none), and returns the "return" value or NULL
 * with *errp set.
 */
typedef JsonNode *QmpMarshalFunc(const void *args, Error **errp);

#define QMP_CMD_OOB (1u << 0)        /* may run out of band */
#define QMP_CMD_PRECONFIG (1u << 1)  /* allowed before x-exit-preconfig */
/* "gen": false: the handler checks the arguments itself (a JsonObject) */
#define QMP_CMD_NO_GEN (1u << 2)

typedef struct QmpCommand {
    const char *name;
    QmpMarshalFunc *fn;
    const struct QapiStructDesc *args;
    unsigned flags;
} QmpCommand;

/* The full command table, terminated by {NULL}. */
extern const QmpCommand qmp_commands[];
/* query-qmp-schema's answer, as JSON text */
extern const char qmp_schema_json[];

/*
 * Sends an event to every QMP monitor in command mode; data may be NULL
 * (taken: the caller's reference is dropped).
 */
void qmp_event_send(const char *event, JsonNode *data);
/* Sees every event before it is sent (in-process tests); data borrowed */
typedef void QmpEventObserver(const char *event, JsonNode *data);
void qmp_event_set_observer(QmpEventObserver *fn);

/* -mon [chardev=]ID[,mode=readline|control]: HMP (the default) or QMP */
bool qemu_mon_add(const char *optarg, Error **errp);
/* The chardev id of the next -qmp or -monitor: "compat_monitorN" */
char *qemu_monitor_compat_id(void);
/* -qmp unix:PATH,server=on,wait=off | stdio */
bool qemu_qmp_add(const char *optarg, Error **errp);
/* -qmp-pretty SPEC: the same, replies laid out as -mon pretty=on */
bool qemu_qmp_pretty_add(const char *optarg, Error **errp);

/* A QOM path as QEMU resolves it (absolute, or an unambiguous tail) */
typedef struct Object Object;
Object *qom_resolve_path(const char *path);

/* Helpers for handlers */
/*
 * The fd that came (SCM_RIGHTS) with the running command's request, now
 * the caller's, or -1; any others that came with it are closed.
 */
int monitor_cur_take_msgfd(void);
/* The running command's monitor's getfd names (name -> fd), or NULL */
GHashTable *monitor_cur_named_fds(void);
JsonNode *qmp_empty_return(void);
/*
 * Dispatches one request object as a client's: returns the reply object
 * ({"return": ...} or {"error": ...}, with the request's id).  For
 * in-process callers (the QMP fuzz target); commands_enabled as after
 * qmp_capabilities, allow_oob as after it enabled "oob" (exec-oob is
 * then accepted, and refused for each command as none may run out of
 * band, as QEMU 7.2 refuses it for all but its migration-recovery ones).
 */
JsonObject *qmp_dispatch(JsonObject *req, bool commands_enabled,
                         bool allow_oob);
/* Times a handler broke the return-or-error contract (see qmp.c) */
extern unsigned qmp_contract_violations;

#endif
