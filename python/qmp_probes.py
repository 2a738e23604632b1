"""Ill-formed QMP arguments, generated from a query-qmp-schema answer.

Used by scripts/record-qemu72-qmp-errors.py (to record QEMU 7.2's
replies) and tests/functional/test_qmp_args.py (to replay them, and to
probe this tree's own commands): starting from valid arguments (BASE),
each argument and each member of a struct argument in turn gets a value
of every other JSON type, null, an unknown enum value, or is left out when
required; and an unknown argument is added.
"""

import json

# Valid, harmless arguments per command (every required argument present)
BASE = {
    # a node that cannot open: every probe QEMU accepts fails harmlessly
    "blockdev-add": {"driver": "file", "node-name": "probe0",
                     "filename": "/nonexistent/probe"},
    "blockdev-del": {"node-name": "nope"},
    "block_resize": {"node-name": "nope", "size": 0},
    "device-list-properties": {"typename": "x86_64-cpu"},
    # -machine none has no ISA bus: refused before anything is created
    "device_add": {"driver": "isa-debug-exit"},
    "device_del": {"id": "no-such-device"},
    "human-monitor-command": {"command-line": "info version",
                              "cpu-index": 0},
    # a user netdev that forwards nothing and reaches nothing
    "netdev_add": {"id": "probe0", "type": "user", "restrict": True},
    "netdev_del": {"id": "nosuch"},
    "migrate-set-capabilities": {"capabilities": [
        {"capability": "events", "state": False}]},
    "qom-get": {"path": "/machine", "property": "type"},
    "qom-list": {"path": "/machine"},
    "qom-list-properties": {"typename": "x86_64-cpu"},
    "qom-list-types": {"implements": "x86_64-cpu", "abstract": False},
    # a read-only property: refused, nothing changes
    "qom-set": {"path": "/machine", "property": "type", "value": "x"},
    "query-command-line-options": {"option": "machine"},
    "query-cpu-model-expansion": {"type": "static",
                                  "model": {"name": "qemu64", "props": {}}},
    "query-named-block-nodes": {"flat": True},
    "query-blockstats": {"query-nodes": True},
}
# Commands whose probes need a session before negotiation
SKIP = {"qmp_capabilities"}
# A value of each JSON type, to put where another type is expected
SAMPLES = {"string": "x", "int": 5, "number": 1.5, "boolean": True,
           "object": {}, "array": []}


class Schema:
    def __init__(self, entries):
        self.by = {e["name"]: e for e in entries}

    def json_type(self, t):
        e = self.by[t]
        mt = e["meta-type"]
        if mt == "builtin":
            return e["json-type"]
        return {"enum": "string", "array": "array", "object": "object",
                "alternate": "alternate"}[mt]


def probes_for(schema, cmd, base):
    """(label, arguments) pairs, each wrong in exactly one place."""
    out = []
    arg_type = schema.by[schema.by[cmd]["arg-type"]]

    def walk(obj_type, path, container):
        for m in obj_type.get("members", []):
            name, t = m["name"], m["type"]
            here = path + [name]
            label = ".".join(str(p) for p in here)
            jt = schema.json_type(t)
            for sample_type, sample in SAMPLES.items():
                # 'any' members take every type here; the command decides
                if jt == "alternate" or sample_type == jt or \
                        (jt == "number" and sample_type == "int"):
                    continue
                out.append((f"{label}={sample_type}",
                            set_at(base, here, sample)))
            if jt == "int":
                for big in (2**63, 2**64 - 1, -2**63 - 1):
                    out.append((f"{label}={big}", set_at(base, here, big)))
            out.append((f"{label}=null", set_at(base, here, None)))
            if schema.by[t]["meta-type"] == "enum":
                out.append((f"{label}=bad-enum",
                            set_at(base, here, "no-such-value")))
            if "default" not in m:
                out.append((f"{label} missing", set_at(base, here, DROP)))
            sub = schema.by[t]
            if sub["meta-type"] == "object" and get_at(base, here):
                walk(sub, here, get_at(base, here))
                out.append((f"{label}.bogus",
                            set_at(base, here + ["bogus"], 1)))
            if sub["meta-type"] == "array":
                el = schema.by[sub["element-type"]]
                v = get_at(base, here)
                if el["meta-type"] == "object" and v:
                    walk(el, here + [0], v[0])

    walk(arg_type, [], base)
    out.append(("bogus", dict(base, bogus=1)))
    # Several faults at once: which one is reported
    required = [m["name"] for m in arg_type.get("members", [])
                if "default" not in m]
    if required:
        args = {k: v for k, v in base.items() if k != required[-1]}
        args["bogus"] = 1
        out.append((f"bogus and {required[-1]} missing", args))
    if len(required) > 1:
        out.append(("all required missing", {}))
    return out


DROP = object()


def get_at(d, path):
    for p in path:
        if isinstance(d, dict):
            d = d.get(p)
        elif isinstance(d, list) and isinstance(p, int) and p < len(d):
            d = d[p]
        else:
            return None
    return d


def set_at(d, path, value):
    d = json.loads(json.dumps(d))
    cur = d
    for p in path[:-1]:
        cur = cur[p]
    if value is DROP:
        if isinstance(cur, dict):
            cur.pop(path[-1], None)
    else:
        cur[path[-1]] = value
    return d


