/*
 * QMP command handlers: their prototypes are generated from
 * qapi/schema.json (build/qapi/qapi-commands.h), one per command.
 */
#ifndef MONITOR_QMP_COMMANDS_H
#define MONITOR_QMP_COMMANDS_H

#include "monitor/qmp.h"
#include "qapi-commands.h"

#endif
