#!/usr/bin/env python3
"""Turns command descriptions kept as data (specs/*.json, as Redis's src/commands/*.json) into the
C++ that registers them (Redis's utils/generate-command-code.py writes commands.c the same way).

usage: generate_specs.py SPEC.json OUT.inc
       generate_specs.py --self-test   (its output for a made-up family, and what it refuses)

One JSON file describes the commands one family file registers, in registration order:

  {
    "register": "RegisterZsetCommands",         the function the output defines
    "defaults": {"group": "sorted-set",          what a command (or subcommand) that does not say
                 "acl_categories": ["SORTEDSET"]},  otherwise has
    "commands": {
      "zadd": {
        "summary": "...", "complexity": "...", "since": "1.2.0", "arity": -4,
        "function": "ZaddCommand",               the proc (flags_function, get_keys_function: the
                                                 CommandSpec's flags_proc and get_keys)
        "command_flags": ["WRITE", "DENYOOM", "FAST"],
        "acl_categories": [...],                 explicit ones only; [] overrides the default
        "key_specs": [{"notes": "...", "flags": ["RW", "UPDATE"],
                       "begin_search": {"index": {"pos": 1}}
                                     | {"keyword": {"keyword": "STREAMS", "startfrom": 1}}
                                     | {"unknown": null},
                       "find_keys": {"range": {"lastkey": 0, "step": 1, "limit": 0}}
                                  | {"keynum": {"keynumidx": 0, "firstkey": 1, "step": 1}}
                                  | {"unknown": null}}],
        "command_tips": ["nondeterministic_output"],
        "subcommands": {"name": {...the same fields...}}
      }
    }
  }

The output is included by the family file after its procs (which keep their internal linkage):
it defines `void <register>(CommandTable& table)` with one table.Add per command. Only the
Python 3 standard library is used; CMake runs this at build time.
"""
import json
import os
import sys

# CommandFlag (server/command/command.h) by the names Redis's JSON files use; redlab's own flags
# (what Redis decides by comparing procs) by their enumerator names.
COMMAND_FLAGS = [
    ("WRITE", "kCmdWrite"),
    ("READONLY", "kCmdReadonly"),
    ("DENYOOM", "kCmdDenyOom"),
    ("ADMIN", "kCmdAdmin"),
    ("PUBSUB", "kCmdPubsub"),
    ("NOSCRIPT", "kCmdNoscript"),
    ("BLOCKING", "kCmdBlocking"),
    ("LOADING", "kCmdLoading"),
    ("STALE", "kCmdStale"),
    ("SKIP_MONITOR", "kCmdSkipMonitor"),
    ("SKIP_SLOWLOG", "kCmdSkipSlowlog"),
    ("FAST", "kCmdFast"),
    ("NO_AUTH", "kCmdNoAuth"),
    ("MAY_REPLICATE", "kCmdMayReplicate"),
    ("NO_MANDATORY_KEYS", "kCmdNoMandatoryKeys"),
    ("NO_MULTI", "kCmdNoMulti"),
    ("ALLOW_BUSY", "kCmdAllowBusy"),
    ("PROTECTED", "kCmdProtected"),
    ("NO_ASYNC_LOADING", "kCmdNoAsyncLoading"),
    ("TOUCHES_ARBITRARY_KEYS", "kCmdTouchesArbitraryKeys"),
    ("NOT_QUEUED", "kCmdNotQueued"),
    ("ENDS_MULTI", "kCmdEndsMulti"),
    ("RUNS_QUEUE", "kCmdRunsQueue"),
    ("SUBSCRIBED_CONTEXT", "kCmdSubscribedContext"),
    ("RUNS_SCRIPT", "kCmdRunsScript"),
    ("KEEPS_CACHING", "kCmdKeepsCaching"),
    ("ASKING", "kCmdAsking"),
]
# AclCategory: the explicit categories.
ACL_CATEGORIES = [
    ("KEYSPACE", "kAclKeyspace"),
    ("READ", "kAclRead"),
    ("WRITE", "kAclWrite"),
    ("SET", "kAclSet"),
    ("SORTEDSET", "kAclSortedSet"),
    ("LIST", "kAclList"),
    ("HASH", "kAclHash"),
    ("STRING", "kAclString"),
    ("BITMAP", "kAclBitmap"),
    ("HYPERLOGLOG", "kAclHyperLogLog"),
    ("GEO", "kAclGeo"),
    ("STREAM", "kAclStream"),
    ("PUBSUB", "kAclPubsub"),
    ("ADMIN", "kAclAdmin"),
    ("FAST", "kAclFast"),
    ("SLOW", "kAclSlow"),
    ("BLOCKING", "kAclBlocking"),
    ("DANGEROUS", "kAclDangerous"),
    ("CONNECTION", "kAclConnection"),
    ("TRANSACTION", "kAclTransaction"),
    ("SCRIPTING", "kAclScripting"),
]
# KeySpecFlag.
KEY_SPEC_FLAGS = [
    ("RO", "kKeyRO"),
    ("RW", "kKeyRW"),
    ("OW", "kKeyOW"),
    ("RM", "kKeyRM"),
    ("ACCESS", "kKeyAccess"),
    ("UPDATE", "kKeyUpdate"),
    ("INSERT", "kKeyInsert"),
    ("DELETE", "kKeyDelete"),
    ("NOT_KEY", "kKeyNotKey"),
    ("INCOMPLETE", "kKeyIncomplete"),
    ("VARIABLE_FLAGS", "kKeyVariableFlags"),
]

COMMAND_FIELDS = {"summary", "complexity", "group", "since", "arity", "function", "flags_function",
                  "get_keys_function", "command_flags", "acl_categories", "key_specs",
                  "command_tips", "subcommands"}


class SpecError(Exception):
    pass


def cpp_string(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20:
            out.append(f"\\x{ord(ch):02x}\"\"")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def bits(names, table, where):
    known = dict(table)
    order = [json_name for json_name, _ in table]
    for n in names:
        if n not in known:
            raise SpecError(f"{where}: unknown flag {n!r} (known: {', '.join(order)})")
    if len(set(names)) != len(names):
        raise SpecError(f"{where}: a flag is named twice in {names}")
    picked = [known[n] for n in sorted(names, key=order.index)]
    return " | ".join(picked) if picked else "0"


def key_spec(ks, where):
    unknown_keys = set(ks) - {"notes", "flags", "begin_search", "find_keys"}
    if unknown_keys:
        raise SpecError(f"{where}: unknown key-spec fields {sorted(unknown_keys)}")
    fields = [f".flags = {bits(ks.get('flags', []), KEY_SPEC_FLAGS, where)}"]
    begin, find = ks["begin_search"], ks["find_keys"]
    if "unknown" in begin or "unknown" in find:
        if "unknown" not in begin or "unknown" not in find:
            raise SpecError(f"{where}: begin_search and find_keys are unknown together")
        fields.append(".unknown = true")
    else:
        if "index" in begin:
            fields.append(f".begin_index = {int(begin['index']['pos'])}")
        else:
            kw = begin["keyword"]
            fields.append(f".begin_keyword = {cpp_string(kw['keyword'])}")
            fields.append(f".keyword_startfrom = {int(kw['startfrom'])}")
        if "range" in find:
            r = find["range"]
            fields += [f".last_key = {int(r['lastkey'])}", f".key_step = {int(r['step'])}",
                       f".limit = {int(r['limit'])}"]
        else:
            k = find["keynum"]
            fields += [".keynum = true", f".key_step = {int(k['step'])}",
                       f".keynum_index = {int(k['keynumidx'])}",
                       f".first_key = {int(k['firstkey'])}"]
    if ks.get("notes"):
        fields.append(f".notes = {cpp_string(ks['notes'])}")
    return "KeySpec{" + ", ".join(fields) + "}"


def command(name, c, defaults, where, col):
    """The braced initializer of one CommandSpec, its '{' at column `col`."""
    where = f"{where}: {name}"
    unknown = set(c) - COMMAND_FIELDS
    if unknown:
        raise SpecError(f"{where}: unknown fields {sorted(unknown)}")
    if "arity" not in c:
        raise SpecError(f"{where}: no arity")
    pad = " " * (col + 1)
    f = [f".name = {cpp_string(name)}", f".arity = {int(c['arity'])}"]
    if c.get("command_flags"):
        f.append(f".flags = {bits(c['command_flags'], COMMAND_FLAGS, where)}")
    acl = c.get("acl_categories", defaults.get("acl_categories", []))
    if acl:
        f.append(f".acl = {bits(acl, ACL_CATEGORIES, where)}")
    if c.get("key_specs"):
        keys = [key_spec(ks, f"{where} key spec {i}") for i, ks in enumerate(c["key_specs"])]
        f.append(".keys = {" + f",\n{pad}         ".join(keys) + "}")
    for field, member in (("function", "proc"), ("flags_function", "flags_proc"),
                          ("get_keys_function", "get_keys")):
        if c.get(field):
            f.append(f".{member} = {c[field]}")
    group = c.get("group", defaults.get("group", ""))
    for member, value in (("group", group), ("since", c.get("since", "")),
                          ("summary", c.get("summary", "")),
                          ("complexity", c.get("complexity", ""))):
        if value:
            f.append(f".{member} = {cpp_string(value)}")
    if c.get("command_tips"):
        f.append(".tips = {" + ", ".join(cpp_string(t) for t in c["command_tips"]) + "}")
    if c.get("subcommands"):
        sub_col = col + 5
        subs = [" " * sub_col + "CommandSpec" +
                command(sub_name, sub, defaults, where, sub_col + len("CommandSpec"))
                for sub_name, sub in c["subcommands"].items()]
        f.append(".subcommands = {\n" + ",\n".join(subs) + "}")
    return "{" + f",\n{pad}".join(f) + "}"


def generate(spec, source):
    unknown = set(spec) - {"register", "defaults", "commands"}
    if unknown:
        raise SpecError(f"{source}: unknown top-level fields {sorted(unknown)}")
    defaults = spec.get("defaults", {})
    if set(defaults) - {"group", "acl_categories"}:
        raise SpecError(f"{source}: defaults may set group and acl_categories only")
    out = [f"// Generated by server/command/generate_specs.py from {source}: edit that file, not",
           "// this one. Included by the family file after its procs.",
           f"void {spec['register']}(CommandTable& table) {{"]
    for name, c in spec["commands"].items():
        out.append(f"  table.Add({command(name, c, defaults, source, len('  table.Add('))});")
    out.append("}")
    return "\n".join(out) + "\n"


SELF_TEST_SPEC = {
    "register": "RegisterDemoCommands",
    "defaults": {"group": "demo", "acl_categories": ["SORTEDSET"]},
    "commands": {
        "dget": {"summary": "Get \"it\"", "complexity": "O(1)", "since": "1.0.0", "arity": 2,
                 "function": "DgetCommand", "command_flags": ["FAST", "READONLY"],
                 "key_specs": [{"notes": "n", "flags": ["RO", "ACCESS"],
                                "begin_search": {"index": {"pos": 1}},
                                "find_keys": {"range": {"lastkey": -1, "step": 2, "limit": 0}}}],
                 "command_tips": ["nondeterministic_output"]},
        "dmulti": {"arity": -3, "group": "other", "acl_categories": [],
                   "get_keys_function": "DmultiKeys",
                   "key_specs": [{"flags": ["RW"],
                                  "begin_search": {"keyword": {"keyword": "STREAMS",
                                                               "startfrom": -2}},
                                  "find_keys": {"keynum": {"keynumidx": 0, "firstkey": 1,
                                                           "step": 1}}},
                                 {"flags": ["OW"], "begin_search": {"unknown": None},
                                  "find_keys": {"unknown": None}}],
                   "subcommands": {"help": {"arity": 2, "function": "DhelpCommand"}}},
    },
}
SELF_TEST_OUTPUT = """\
// Generated by server/command/generate_specs.py from demo.json: edit that file, not
// this one. Included by the family file after its procs.
void RegisterDemoCommands(CommandTable& table) {
  table.Add({.name = "dget",
             .arity = 2,
             .flags = kCmdReadonly | kCmdFast,
             .acl = kAclSortedSet,
             .keys = {KeySpec{.flags = kKeyRO | kKeyAccess, .begin_index = 1, .last_key = -1, \
.key_step = 2, .limit = 0, .notes = "n"}},
             .proc = DgetCommand,
             .group = "demo",
             .since = "1.0.0",
             .summary = "Get \\"it\\"",
             .complexity = "O(1)",
             .tips = {"nondeterministic_output"}});
  table.Add({.name = "dmulti",
             .arity = -3,
             .keys = {KeySpec{.flags = kKeyRW, .begin_keyword = "STREAMS", \
.keyword_startfrom = -2, .keynum = true, .key_step = 1, .keynum_index = 0, .first_key = 1},
                      KeySpec{.flags = kKeyOW, .unknown = true}},
             .get_keys = DmultiKeys,
             .group = "other",
             .subcommands = {
                 CommandSpec{.name = "help",
                             .arity = 2,
                             .acl = kAclSortedSet,
                             .proc = DhelpCommand,
                             .group = "demo"}}});
}
"""


def self_test():
    """The generator's output for a made-up family, and its refusals of malformed ones."""
    import copy
    failures = []
    checks = 1
    got = generate(SELF_TEST_SPEC, "demo.json")
    if got != SELF_TEST_OUTPUT:
        failures.append("output differs:\n" + got)

    def refused(change, message):
        nonlocal checks
        checks += 1
        spec = copy.deepcopy(SELF_TEST_SPEC)
        change(spec)
        try:
            generate(spec, "demo.json")
            failures.append(f"accepted a spec that should fail with: {message}")
        except SpecError as e:
            if str(e) != message:
                failures.append(f"error {str(e)!r}, expected {message!r}")

    dget = lambda spec: spec["commands"]["dget"]
    refused(lambda s: dget(s).update(command_flags=["FAST", "QUICK"]),
            "demo.json: dget: unknown flag 'QUICK' (known: " +
            ", ".join(n for n, _ in COMMAND_FLAGS) + ")")
    refused(lambda s: dget(s).update(command_flags=["FAST", "FAST"]),
            "demo.json: dget: a flag is named twice in ['FAST', 'FAST']")
    refused(lambda s: dget(s).update(arty=2), "demo.json: dget: unknown fields ['arty']")
    refused(lambda s: dget(s).pop("arity"), "demo.json: dget: no arity")
    refused(lambda s: dget(s)["key_specs"][0].update(begin_search={"unknown": None}),
            "demo.json: dget key spec 0: begin_search and find_keys are unknown together")
    refused(lambda s: s["defaults"].update(since="1.0.0"),
            "demo.json: defaults may set group and acl_categories only")
    for f in failures:
        print("generate_specs.py --self-test:", f, file=sys.stderr)
    print(f"generate_specs.py --self-test: {checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    source, target = argv[1], argv[2]
    with open(source, encoding="utf-8") as f:
        spec = json.load(f)
    try:
        shown = "server/" + source.split("/server/", 1)[1] if "/server/" in source else source
        text = generate(spec, shown)
    except (SpecError, KeyError, TypeError, ValueError) as e:
        print(f"generate_specs.py: {e}", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
