#!/usr/bin/env python3
"""Generates the QMP layer's C tables from qapi/schema.json (docs/qmp.md).

    scripts/qapi-gen.py SCHEMA OUTDIR

Writes OUTDIR/qapi-types.h (C structs of command arguments, enums),
OUTDIR/qapi-commands.h (the handlers' prototypes) and
OUTDIR/qapi-commands.c (the argument descriptors the visitor in
qapi/qapi-visit.c walks, the dispatch table qmp_commands[], and the
introspection data query-qmp-schema returns).

Introspection follows QEMU's conventions: builtin types by name, every
other type by a number ("0" is the empty object of commands without
arguments or result), lists as "[T]", optional members with "default":
null, "allow-oob" only when true.
"""

import json
import os
import re
import sys

BUILTINS = {
    # name: (JSON type of introspection, visitor kind, C type)
    "str": ("string", "QAPI_STR", "const char *"),
    "int": ("int", "QAPI_INT", "int64_t"),
    "int32": ("int", "QAPI_INT32", "int32_t"),
    "uint64": ("int", "QAPI_UINT64", "uint64_t"),
    "bool": ("boolean", "QAPI_BOOL", "bool"),
    "number": ("number", "QAPI_NUMBER", "double"),
    "any": ("value", "QAPI_ANY", "JsonNode *"),
    "null": ("null", "QAPI_NULL", "JsonNode *"),
}
C_KEYWORDS = {"default", "int", "char", "if", "else", "for", "while",
              "struct", "union", "enum", "case", "switch", "return",
              "restrict", "inline", "const", "static", "volatile",
              "errno"}   # errno: a macro of <errno.h>


def load(path):
    text = "\n".join(l for l in open(path).read().splitlines()
                     if not l.lstrip().startswith("#"))
    dec = json.JSONDecoder()
    entries, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return entries
        obj, pos = dec.raw_decode(text, pos)
        entries.append(obj)


def c_name(name):
    n = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return "q_" + n if n in C_KEYWORDS else n


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[-_]", name))


def upper(name):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return re.sub(r"[^A-Za-z0-9]", "_", s).upper()


def c_string(s):
    return json.dumps(s)


class Schema:
    def __init__(self, entries):
        self.enums, self.structs, self.commands, self.events = {}, {}, [], []
        self.unions, self.alternates, self.features = {}, {}, {}
        for e in entries:
            if "enum" in e:
                self.enums[e["enum"]] = e["data"]
            elif "struct" in e:
                self.structs[e["struct"]] = e["data"]
                if e.get("features"):
                    self.features[e["struct"]] = e["features"]
            elif "union" in e:
                self.unions[e["union"]] = e
            elif "alternate" in e:
                self.alternates[e["alternate"]] = e["data"]
            elif "command" in e:
                self.commands.append(e)
            elif "event" in e:
                self.events.append(e)
            else:
                raise SystemExit(f"qapi-gen: unknown entry {e}")
        # A command's inline arguments are a struct of its own
        for c in self.commands:
            data = c.get("data")
            if isinstance(data, dict) and data:
                name = "QmpArgs" + camel(c["command"])
                self.structs[name] = data
                c["args"] = name
            elif isinstance(data, str):
                c["args"] = data
            else:
                c["args"] = None
        for e in self.events:
            data = e.get("data")
            if isinstance(data, dict) and data:
                name = "QmpEvent" + camel(e["event"])
                self.structs[name] = data
                e["args"] = name
            else:
                e["args"] = data
        self.check()

    def check(self):
        def known(t):
            if isinstance(t, list):
                return len(t) == 1 and known(t[0])
            return t in BUILTINS or t in self.enums or t in self.structs or \
                t in self.unions or t in self.alternates
        members = list(self.structs.items())
        members += [(n, u["base"]) for n, u in self.unions.items()]
        members += [(n, {"*" + c: t for c, t in u["data"].items()})
                    for n, u in self.unions.items()]
        members += list(self.alternates.items())
        for name, data in members:
            for m, t in data.items():
                if not known(t):
                    raise SystemExit(f"qapi-gen: {name}.{m}: unknown type {t}")
        for name, u in self.unions.items():
            tag = u["base"].get(u["discriminator"])
            if tag not in self.enums or \
                    not set(u["data"]) <= set(self.enums[tag]):
                raise SystemExit(f"qapi-gen: {name}: bad discriminator")
        for name, data in self.alternates.items():
            kinds = [self.alt_branch(t) for t in data.values()]
            if len(set(kinds)) != len(kinds):
                raise SystemExit(f"qapi-gen: {name}: ambiguous alternate")

    def alt_branch(self, t):
        """The JSON kind an alternate's branch of type t takes"""
        if t in self.structs or t in self.unions:
            return "object"
        if t == "str" or t in self.enums:
            return "string"
        if t == "null":
            return "null"
        raise SystemExit(f"qapi-gen: alternate branch {t} not supported")
        for c in self.commands:
            if c.get("returns") and not known(c["returns"]):
                raise SystemExit(f"qapi-gen: {c['command']}: unknown return "
                                 f"type {c['returns']}")

    def arg_structs(self):
        """Structs, unions and alternates reachable from command arguments,
        each after the types it embeds (an alternate holds its object
        branch by pointer, which is what breaks recursive definitions)."""
        order, seen = [], set()

        def visit(t):
            if isinstance(t, list):
                visit(t[0])
                return
            if t in seen or not (t in self.structs or t in self.unions or
                                 t in self.alternates):
                return
            seen.add(t)
            if t in self.alternates:
                order.append(t)
                for bt in self.alternates[t].values():
                    visit(bt)
                return
            if t in self.unions:
                deps = list(self.unions[t]["base"].values()) + \
                    list(self.unions[t]["data"].values())
            else:
                deps = list(self.structs[t].values())
            for mt in deps:
                visit(mt)
            order.append(t)
        for c in self.commands:
            if c["args"] and not c.get("cli-only") and c.get("gen", True):
                visit(c["args"])
        return order

    def members_of(self, t):
        """A struct's members, or a union's base members"""
        return self.unions[t]["base"] if t in self.unions else self.structs[t]


# C: types and descriptors -------------------------------------------------

def member_c_type(schema, t):
    if isinstance(t, list):
        return f"{list_type(schema, t[0])} "
    if t in BUILTINS:
        return BUILTINS[t][2]
    if t in schema.enums:
        return f"{t} "
    return f"{t} "


def list_type(schema, elem):
    return ("QapiList_" + (elem if elem not in BUILTINS else elem))


def gen_types(schema):
    out = ["/* Generated by scripts/qapi-gen.py from qapi/schema.json */",
           "#ifndef QAPI_TYPES_H", "#define QAPI_TYPES_H", "",
           "#include <stdbool.h>", "#include <stdint.h>",
           "#include <json-glib/json-glib.h>", "",
           "/* Which branch of an alternate a value took */",
           "typedef enum QapiAltKind {",
           "    QAPI_ALT_NONE, QAPI_ALT_OBJECT, QAPI_ALT_STRING, QAPI_ALT_NULL,",
           "} QapiAltKind;", ""]
    for name, values in schema.enums.items():
        out.append(f"typedef enum {name} {{")
        for v in values:
            out.append(f"    {upper(name)}_{upper(v)},")
        out.append(f"    {upper(name)}__MAX,")
        out.append(f"}} {name};")
        out.append(f"extern const char *const {name}_str[];")
        out.append("")
    types = schema.arg_structs()
    lists = set()
    for s in types:
        if s in schema.alternates:
            continue
        for t in schema.members_of(s).values():
            if isinstance(t, list):
                lists.add(t[0])
    for s in types:
        out.append(f"typedef struct {s} {s};")
    for elem in sorted(lists):
        ctype = BUILTINS[elem][2] if elem in BUILTINS else elem
        out.append(f"typedef struct {list_type(schema, elem)} {{")
        out.append("    unsigned len;")
        out.append(f"    {ctype}{'' if ctype.endswith('*') else ' '}*items;")
        out.append(f"}} {list_type(schema, elem)};")
    out.append("")
    for s in types:
        out.append(f"struct {s} {{")
        if s in schema.alternates:
            out.append("    QapiAltKind kind;")
            for m, t in schema.alternates[s].items():
                br = schema.alt_branch(t)
                if br == "object":
                    out.append(f"    {t} *{c_name(m)};")
                elif t == "str":
                    out.append(f"    const char *{c_name(m)};")
                elif br == "string":
                    out.append(f"    {t} {c_name(m)};")
            out.append("};")
            out.append("")
            continue
        for m, t in schema.members_of(s).items():
            opt = m.startswith("*")
            mname = c_name(m.lstrip("*"))
            if opt:
                out.append(f"    bool has_{mname};")
            ctype = member_c_type(schema, t)
            sep = "" if ctype.endswith("*") or ctype.endswith(" ") else " "
            out.append(f"    {ctype}{sep}{mname};")
        if s in schema.unions and schema.unions[s]["data"]:
            out.append("    union {")
            for case, vt in schema.unions[s]["data"].items():
                out.append(f"        {vt} {c_name(case)};")
            out.append("    } u;")
        out.append("};")
        out.append("")
    out.append("#endif")
    return "\n".join(out) + "\n"


def handler_name(cmd):
    return "qmp_" + c_name(cmd["command"])


def gen_commands_h(schema):
    out = ["/* Generated by scripts/qapi-gen.py from qapi/schema.json */",
           "#ifndef QAPI_COMMANDS_H", "#define QAPI_COMMANDS_H", "",
           '#include "qapi/error.h"', '#include "qapi-types.h"', "",
           "/*",
           " * One handler per command (qapi/schema.json): the arguments come",
           " * checked and converted; strings and 'any' nodes are borrowed from",
           " * the request for the duration of the call.  Returns the result",
           " * (a new node; an empty object for commands without one) or NULL",
           " * with *errp set, never both.",
           " */"]
    for t in schema.arg_structs():
        if t not in schema.alternates:
            out.append(f"extern const struct QapiStructDesc qapi_desc_{t};")
    out.append("")
    for c in schema.commands:
        if c.get("cli-only"):
            continue
        args = f"const {c['args']} *args, " if c["args"] else ""
        if not c.get("gen", True):
            args = "JsonObject *args, "
        out.append(f"JsonNode *{handler_name(c)}({args}Error **errp);")
    out += ["", "#endif"]
    return "\n".join(out) + "\n"


def kind_of(schema, t):
    if isinstance(t, list):
        return "QAPI_LIST"
    if t in BUILTINS:
        return BUILTINS[t][1]
    if t in schema.enums:
        return "QAPI_ENUM"
    if t in schema.alternates:
        return "QAPI_ALTERNATE"
    return "QAPI_STRUCT"


def gen_alt_desc(schema, a):
    """An alternate's descriptor: at most one branch per JSON kind"""
    obj, o_off, has_str, s_kind, s_off, enum_tab, has_null = \
        "NULL", "0", "false", "QAPI_STR", "0", "NULL", "false"
    for m, t in schema.alternates[a].items():
        br = schema.alt_branch(t)
        if br == "object":
            obj, o_off = f"&qapi_desc_{t}", f"offsetof({a}, {c_name(m)})"
        elif br == "string":
            has_str, s_off = "true", f"offsetof({a}, {c_name(m)})"
            if t in schema.enums:
                s_kind, enum_tab = "QAPI_ENUM", f"{t}_str"
        else:
            has_null = "true"
    return [f"static const QapiAltDesc qapi_alt_{a} = {{ {c_string(a)}, "
            f"offsetof({a}, kind), {obj}, {o_off}, {has_str}, {s_kind}, "
            f"{s_off}, {enum_tab}, {has_null} }};"]


def gen_commands_c(schema, introspection):
    out = ["/* Generated by scripts/qapi-gen.py from qapi/schema.json */",
           "#include <stddef.h>", "",
           '#include "monitor/qmp.h"', '#include "qapi/qapi-visit.h"',
           '#include "qapi-commands.h"', ""]
    for name, values in schema.enums.items():
        vals = ", ".join(c_string(v) for v in values)
        out.append(f"const char *const {name}_str[] = {{ {vals}, NULL }};")
    out.append("")
    types = schema.arg_structs()
    structs = [t for t in types if t not in schema.alternates]
    for s in structs:
        out.append(f"const QapiStructDesc qapi_desc_{s};")
    for a in types:
        if a in schema.alternates:
            out.append(f"static const QapiAltDesc qapi_alt_{a};")
    out.append("")
    for a in types:
        if a in schema.alternates:
            out += gen_alt_desc(schema, a)
    out.append("")

    def elem_desc(t):
        """(kind, enum table, struct desc, element size) of a list's element"""
        if t in BUILTINS:
            return BUILTINS[t][1], "NULL", "NULL", \
                f"sizeof({BUILTINS[t][2]})"
        if t in schema.enums:
            return "QAPI_ENUM", f"{t}_str", "NULL", f"sizeof({t})"
        return "QAPI_STRUCT", "NULL", f"&qapi_desc_{t}", f"sizeof({t})"

    for s in structs:
        out.append(f"static const QapiMemberDesc qapi_members_{s}[] = {{")
        for m, t in schema.members_of(s).items():
            opt = m.startswith("*")
            name = m.lstrip("*")
            cm = c_name(name)
            has = f"offsetof({s}, has_{cm})" if opt else "-1"
            kind = kind_of(schema, t)
            enum_tab, sub, el_kind, el_size, alt = "NULL", "NULL", "0", "0", \
                "NULL"
            if kind == "QAPI_ENUM":
                enum_tab = f"{t}_str"
            elif kind == "QAPI_STRUCT":
                sub = f"&qapi_desc_{t}"
            elif kind == "QAPI_ALTERNATE":
                alt = f"&qapi_alt_{t}"
            elif kind == "QAPI_LIST":
                el_kind, enum_tab, sub, el_size = elem_desc(t[0])
            out.append(f"    {{ {c_string(name)}, {kind}, "
                       f"offsetof({s}, {cm}), {has}, {enum_tab}, {sub}, "
                       f"{el_kind}, {el_size}, {alt} }},")
        out.append("    { NULL },")
        out.append("};")
        if s in schema.unions:
            u = schema.unions[s]
            tag = u["base"][u["discriminator"]]
            out.append(f"static const QapiStructDesc *const "
                       f"qapi_variants_{s}[] = {{")
            for case, vt in u["data"].items():
                out.append(f"    [{upper(tag)}_{upper(case)}] = "
                           f"&qapi_desc_{vt},")
            out.append(f"    [{upper(tag)}__MAX] = NULL,")
            out.append("};")
            voff = f"offsetof({s}, u)" if u["data"] else "0"
            out.append(f"const QapiStructDesc qapi_desc_{s} = {{ "
                       f"{c_string(s)}, sizeof({s}), qapi_members_{s}, "
                       f"{c_string(u['discriminator'])}, "
                       f"offsetof({s}, {c_name(u['discriminator'])}), "
                       f"{voff}, qapi_variants_{s} }};")
        else:
            out.append(f"const QapiStructDesc qapi_desc_{s} = {{ "
                       f"{c_string(s)}, sizeof({s}), qapi_members_{s} }};")
        out.append("")
    for c in schema.commands:
        if c.get("cli-only"):
            continue
        fn = "qmp_marshal_" + c_name(c["command"])
        out.append(f"static JsonNode *{fn}(const void *args, Error **errp)")
        out.append("{")
        if not c.get("gen", True):
            out.append(f"    return {handler_name(c)}((JsonObject *)args, "
                       "errp);")
        elif c["args"]:
            out.append(f"    return {handler_name(c)}(args, errp);")
        else:
            out.append("    (void)args;")
            out.append(f"    return {handler_name(c)}(errp);")
        out.append("}")
        out.append("")
    out.append("const QmpCommand qmp_commands[] = {")
    for c in sorted(schema.commands, key=lambda c: c["command"]):
        if c.get("cli-only"):
            continue
        desc = f"&qapi_desc_{c['args']}" if c["args"] else "NULL"
        flags = []
        if not c.get("gen", True):
            desc = "NULL"
            flags.append("QMP_CMD_NO_GEN")
        if c.get("allow-oob"):
            flags.append("QMP_CMD_OOB")
        if c.get("allow-preconfig"):
            flags.append("QMP_CMD_PRECONFIG")
        out.append(f"    {{ {c_string(c['command'])}, qmp_marshal_"
                   f"{c_name(c['command'])}, {desc}, "
                   f"{' | '.join(flags) or '0'} }},")
    out.append("    { NULL },")
    out.append("};")
    out.append("")
    text = json.dumps(introspection, separators=(",", ":"))
    out.append("/* query-qmp-schema's answer */")
    out.append("const char qmp_schema_json[] =")
    for i in range(0, len(text), 70):
        out.append("    " + c_string(text[i:i + 70]))
    out[-1] += ";"
    return "\n".join(out) + "\n"


# Introspection ------------------------------------------------------------

def introspect(schema):
    names = {}
    entities = []

    def ref(t):
        if isinstance(t, list):
            inner = ref(t[0])
            name = f"[{inner}]"
            if name not in names:
                names[name] = name
                entities.append({"name": name, "meta-type": "array",
                                 "element-type": inner})
            return name
        if t in BUILTINS:
            if t not in names:
                names[t] = t
                entities.append({"name": t, "meta-type": "builtin",
                                 "json-type": BUILTINS[t][0]})
            return t
        if t is None or t == {}:
            t = "__empty"
        if t in names:
            return names[t]
        num = str(sum(1 for n in names.values() if n.isdigit()))
        names[t] = num
        if t == "__empty":
            entities.append({"name": num, "meta-type": "object",
                             "members": []})
        elif t in schema.enums:
            vals = schema.enums[t]
            entities.append({"name": num, "meta-type": "enum",
                             "members": [{"name": v} for v in vals],
                             "values": vals})
        elif t in schema.alternates:
            ent = {"name": num, "meta-type": "alternate", "members": []}
            entities.append(ent)
            for bt in schema.alternates[t].values():
                ent["members"].append({"type": ref(bt)})
        else:
            union = schema.unions.get(t)
            ent = {"name": num, "meta-type": "object", "members": []}
            entities.append(ent)
            data = union["base"] if union else schema.structs[t]
            for m, mt in data.items():
                member = {"name": m.lstrip("*"), "type": ref(mt)}
                if m.startswith("*"):
                    member["default"] = None
                ent["members"].append(member)
            if union:
                # As QEMU: every value of the tag, those without members
                # with the empty object
                ent["tag"] = union["discriminator"]
                tag = union["base"][union["discriminator"]]
                ent["variants"] = [
                    {"case": case, "type": ref(union["data"].get(case))}
                    for case in schema.enums[tag]]
            if schema.features.get(t):
                ent["features"] = schema.features[t]
        return num

    ref(None)  # "0": the empty object
    out = []
    for c in schema.commands:
        e = {"name": c["command"], "meta-type": "command",
             "arg-type": ref(c["args"]), "ret-type": ref(c.get("returns"))}
        if c.get("allow-oob"):
            e["allow-oob"] = True
        if c.get("features"):
            e["features"] = c["features"]
        out.append(e)
    for ev in schema.events:
        out.append({"name": ev["event"], "meta-type": "event",
                    "arg-type": ref(ev["args"])})
    return out + entities


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    schema = Schema(load(sys.argv[1]))
    info = introspect(schema)
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    files = {
        "qapi-types.h": gen_types(schema),
        "qapi-commands.h": gen_commands_h(schema),
        "qapi-commands.c": gen_commands_c(schema, info),
    }
    for name, text in files.items():
        path = os.path.join(out, name)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            with open(path, "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
