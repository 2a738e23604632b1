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

/* monitor/qmp-cmds-libvirt.c */
JsonNode *qmp_query_qmp_schema(JsonObject *args, Error **errp);
JsonNode *qmp_qom_list_properties(JsonObject *args, Error **errp);
JsonNode *qmp_query_command_line_options(JsonObject *args, Error **errp);
JsonNode *qmp_query_migrate_capabilities(JsonObject *args, Error **errp);
JsonNode *qmp_migrate_set_capabilities(JsonObject *args, Error **errp);
JsonNode *qmp_query_named_block_nodes(JsonObject *args, Error **errp);
JsonNode *qmp_query_block(JsonObject *args, Error **errp);
/* system/device.c */
JsonNode *qmp_device_list_properties(JsonObject *args, Error **errp);
/* chardev/char.c */
JsonNode *qmp_query_chardev(JsonObject *args, Error **errp);
/* monitor/hmp.c: {"command-line": "info status"} -> the HMP output */
JsonNode *qmp_human_monitor_command(JsonObject *args, Error **errp);
/* system/user-objects.c: the iothread objects, in creation order */
JsonNode *qmp_query_iothreads(JsonObject *args, Error **errp);

#endif
