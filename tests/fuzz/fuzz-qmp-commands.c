/*
 * Fuzz target: every QMP command's argument checking and handler, in
 * process (issue 15, docs/qmp.md).
 *
 * The machine is built once by the emulator's own start-up (qemu_init):
 * q35 under the qtest accelerator, paused, with a serial port on a null
 * backend.  An input is:
 *
 *   CMD    1 byte: qmp_commands[CMD % N] (quit is left out: it ends the
 *          process by design; so is netdev_add: its arguments reach the
 *          host's network, creating tap devices and connecting guestfwd
 *          chardevs to any address, and no test may send traffic outside
 *          127.0.0.0/8 -- tests/fuzz/fuzz-net-frames.c covers the
 *          backends)
 *   REST   JSON text of the "arguments" member, as a client would send it
 *          (not an object, or not JSON at all: the request goes without
 *          arguments, or with whatever value the text parses to)
 *
 * and is dispatched exactly as monitor/qmp.c dispatches a client's request
 * after negotiation.  A reply must come back with exactly one of "return"
 * and "error"; a handler that breaks the return-or-error contract
 * (qmp_contract_violations) is a finding; so is anything a sanitizer
 * reports, leaks included.  State a command changes (run state, migration
 * capabilities) is put back between inputs by a machine restart.
 * tests/fuzz/gen-qmp-seeds.py writes the seeds: the probes of
 * python/qmp_probes.py (every argument wrongly typed, null, missing, extra)
 * for every command of this tree's schema.  blockdev-add runs only with
 * file names that cannot exist (see opens_host_files).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "monitor/json-parser.h"
#include "monitor/qmp.h"
#include "sysemu/reset.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"

static char *fuzz_argv[] = {
    "qemu-system-x86_64", "-machine", "q35", "-accel", "qtest",
    "-nodefaults", "-display", "none", "-serial", "null", "-S", NULL,
};

static GPtrArray *commands;  /* const QmpCommand*, quit and netdev_add
                                left out */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const QmpCommand *c;

    qemu_init(G_N_ELEMENTS(fuzz_argv) - 1, fuzz_argv);
    commands = g_ptr_array_new();
    for (c = qmp_commands; c->name; c++) {
        if (strcmp(c->name, "quit") && strcmp(c->name, "netdev_add")) {
            g_ptr_array_add(commands, (gpointer)c);
        }
    }
    return 0;
}

/*
 * blockdev-add opens host files: only names under /nonexistent/ (which
 * fail to open) are fuzzed, so that no input creates a node on a real
 * file that block_resize could then truncate
 */
static bool opens_host_files(JsonNode *n)
{
    JsonObjectIter it;
    const char *name;
    JsonNode *member;
    guint i;

    if (n && JSON_NODE_HOLDS_ARRAY(n)) {
        for (i = 0; i < json_array_get_length(json_node_get_array(n)); i++) {
            if (opens_host_files(json_array_get_element(
                    json_node_get_array(n), i))) {
                return true;
            }
        }
    }
    if (!n || !JSON_NODE_HOLDS_OBJECT(n)) {
        return false;
    }
    json_object_iter_init(&it, json_node_get_object(n));
    while (json_object_iter_next(&it, &name, &member)) {
        if (!strcmp(name, "filename") &&
            !(JSON_NODE_HOLDS_VALUE(member) &&
              json_node_get_value_type(member) == G_TYPE_STRING &&
              g_str_has_prefix(json_node_get_string(member),
                               "/nonexistent/"))) {
            return true;
        }
        if (opens_host_files(member)) {
            return true;
        }
    }
    return false;
}

static void run_main_loop_pending(void)
{
    while (g_main_context_iteration(NULL, FALSE)) {
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QmpCommand *cmd;
    JsonObject *req, *reply;
    JsonNode *args = NULL;
    char *text;

    if (!size) {
        return 0;
    }
    cmd = g_ptr_array_index(commands, data[0] % commands->len);
    text = g_strndup((const char *)data + 1, size - 1);
    if (size > 1) {
        args = qmp_json_parse(text, NULL);
    }
    g_free(text);
    if (!strcmp(cmd->name, "blockdev-add") && opens_host_files(args)) {
        if (args) {
            json_node_unref(args);
        }
        return 0;
    }

    req = json_object_new();
    json_object_set_string_member(req, "execute", cmd->name);
    if (args) {
        json_object_set_member(req, "arguments", args);
    }
    reply = qmp_dispatch(req, true, true);
    if (json_object_has_member(reply, "return") ==
        json_object_has_member(reply, "error")) {
        abort();
    }
    if (qmp_contract_violations) {
        abort();
    }
    json_object_unref(reply);
    json_object_unref(req);

    /* What the command changed does not carry over to the next input */
    run_main_loop_pending();
    qemu_system_restart();
    run_main_loop_pending();
    return 0;
}
