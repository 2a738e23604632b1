/*
 * QMP command handlers implemented outside monitor/ (see the table in
 * monitor/qmp-cmds.c).
 */
#ifndef MONITOR_QMP_COMMANDS_H
#define MONITOR_QMP_COMMANDS_H

#include "monitor/qmp.h"

JsonNode *qmp_query_kvm(JsonObject *args, Error **errp);
JsonNode *qmp_query_machines(JsonObject *args, Error **errp);
JsonNode *qmp_query_cpu_definitions(JsonObject *args, Error **errp);
JsonNode *qmp_query_cpu_model_expansion(JsonObject *args, Error **errp);
JsonNode *qmp_query_cpus_fast(JsonObject *args, Error **errp);
JsonNode *qmp_x_query_cpuid(JsonObject *args, Error **errp);

#endif
