#!/usr/bin/env python3
"""The server's layering, checked: every #include "server/..." of a non-test file under server/
must reach its own layer or one below it, and no source file in the tree may pass 800 lines
unless a comment in its first ten lines starts with "One file:" and says why.

usage: check_layers.py PROJECT_DIR     (exit 1 and one line per problem when any is found)
       check_layers.py --self-test     (proves on a made-up tree that both checks can fail)

The order is the one server/CMakeLists.txt links (and the README's tour draws):

  base -> resp -> data, command -> rdb -> scripting, acl -> engine -> replication -> fault
       -> net -> sentinel -> server (node, topology)
"""
import os
import re
import sys
import tempfile

# Each layer and the layers it may include directly; what those may include is allowed too.
LAYERS = {
    "base": [],
    "resp": ["base"],
    "data": ["base"],
    "command": ["base"],
    "rdb": ["data", "resp"],
    "scripting": ["resp"],
    "acl": ["command", "resp"],
    "engine": ["acl", "rdb", "scripting", "data", "command"],
    "replication": ["engine"],
    "fault": ["replication"],
    "net": ["fault"],
    "sentinel": ["net"],
    "(root)": ["sentinel"],  # server/*.cc: node, topology, config file, log, main
}
MAX_LINES = 800
SOURCE_DIRS = ["server", "client", "tools", "conformance", "bench", "lua"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"server/([^"]+)"', re.M)


def allowed(layer):
    seen, todo = set(), [layer]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(LAYERS[current])
    return seen


def layer_of(rel):  # "server/engine/core/x.cc" -> "engine"; "server/node.cc" -> "(root)"
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 else "(root)"


def is_test(name):
    return name.endswith("_test.cc") or "_test_" in name or name.endswith("_test_support.h")


def check(root):
    problems = []
    closure = {layer: allowed(layer) for layer in LAYERS}
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = [d for d in dirnames if not d.startswith("build")]
            for name in sorted(filenames):
                if not name.endswith((".cc", ".h", ".cpp", ".hpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, errors="replace") as f:
                    text = f.read()
                lines = text.count("\n")
                if lines > MAX_LINES:
                    head = text.split("\n")[:10]
                    if not any(l.lstrip("/ ").startswith("One file:") for l in head):
                        problems.append(f"{rel}: {lines} lines (over {MAX_LINES}): split it along "
                                        "its seam, or say at its top why it must be one file "
                                        "('// One file: ...')")
                if not rel.startswith("server/") or is_test(name):
                    continue
                layer = layer_of(rel)
                if layer not in LAYERS:
                    problems.append(f"{rel}: folder server/{layer}/ is not a known layer "
                                    "(add it to tools/check_layers.py and the README's tour)")
                    continue
                for m in INCLUDE.finditer(text):
                    target = layer_of("server/" + m.group(1))
                    if target not in closure[layer]:
                        line = text.count("\n", 0, m.start()) + 1
                        problems.append(f"{rel}:{line}: {layer} includes server/{m.group(1)} "
                                        f"({target} is above {layer}: define an interface in "
                                        f"{layer} that {target} implements)")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        write("server/base/ok.h", '#include "server/base/other.h"\n')
        write("server/engine/core/ok.cc", '#include "server/data/keyspace.h"\n')
        write("server/engine/core/ok_test.cc", '#include "server/node.h"\n')  # tests may
        write("server/data/bad.cc", '#include "server/engine/core/engine.h"\n')
        write("client/long.cc", "x\n" * (MAX_LINES + 1))
        write("client/long_ok.cc", "// One file: a generated table.\n" + "x\n" * MAX_LINES)
        found = check(root)
        expected = ["server/data/bad.cc:1: data includes server/engine/core/engine.h",
                    "client/long.cc: 801 lines"]
        ok = len(found) == 2 and all(any(f.startswith(e) for f in found) for e in expected)
        print("self-test:", "ok" if ok else "FAILED", *found, sep="\n  ")
        return 0 if ok else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    if not problems:
        print("layers: every server include follows the layer order; no file over "
              f"{MAX_LINES} lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
