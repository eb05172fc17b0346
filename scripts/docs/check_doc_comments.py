"""Lists the public symbols of the VisionTasks and PoseDetection products that have no doc comment,
reading the symbol graphs of `swift package dump-symbol-graph`; exits with status 1 when there is any.

usage: check_doc_comments.py SYMBOLGRAPH_DIR   (the graphs may sit in subfolders of it)

Every `*.symbols.json` of the two modules is read, extension graphs (`VisionTasks@Swift...`)
included. Left out: symbols the compiler synthesized (their precise identifier contains
`::SYNTHESIZED::`: inherited protocol members, `==`, `hash(into:)`, ...), and any member of the two
types VisionTasks re-exports from Imaging (`ImageOrientation`, `PixelFormat`) that shows up in a
product's graph: their doc comments live in Sources/Imaging, so they are checked in Imaging's graph
instead, where only those two types count (the rest of Imaging is `package`).
"""
import argparse
import glob
import json
import os
import sys

PRODUCTS = ["VisionTasks", "PoseDetection"]
# Types of internal modules that the products re-export (typealiases in Sources/VisionTasks).
RE_EXPORTED = {"Imaging": {"ImageOrientation", "PixelFormat"}}
PUBLIC = ("public", "open")


def graphs(directory, module):
    """The symbol graph files of `module` in `directory` or its subfolders: its own graph and its
    extension graphs."""
    own = glob.glob(os.path.join(directory, "**", f"{module}.symbols.json"), recursive=True)
    extensions = glob.glob(os.path.join(directory, "**", f"{module}@*.symbols.json"), recursive=True)
    return sorted(own) + sorted(extensions)


def undocumented(path, only_types=None, skip_types=frozenset()):
    """(file, line, name, kind) of each public symbol in `path` that has no doc comment."""
    with open(path) as file:
        graph = json.load(file)
    for symbol in graph.get("symbols", []):
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        if symbol.get("accessLevel") not in PUBLIC:
            continue
        components = symbol["pathComponents"]
        if only_types is not None and components[0] not in only_types:
            continue
        if symbol["kind"]["identifier"] != "swift.typealias" and components[0] in skip_types:
            continue
        comment = symbol.get("docComment", {}).get("lines", [])
        if any(line.get("text", "").strip() for line in comment):
            continue
        location = symbol.get("location", {})
        uri = location.get("uri", "").removeprefix("file://")
        line = location["position"]["line"] + 1 if uri else 0
        yield os.path.relpath(uri) if uri else "?", line, ".".join(components), symbol["kind"]["displayName"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    args = parser.parse_args()

    re_exported = frozenset().union(*RE_EXPORTED.values())
    missing, checked = [], 0
    for module in PRODUCTS:
        paths = graphs(args.directory, module)
        if not paths:
            sys.exit(f"no symbol graph for {module} in {args.directory}")
        for path in paths:
            checked += 1
            missing += [(module, *entry) for entry in undocumented(path, skip_types=re_exported)]
    for module, types in RE_EXPORTED.items():
        for path in graphs(args.directory, module):
            checked += 1
            missing += [(module, *entry) for entry in undocumented(path, only_types=types)]
    for module, file, line, name, kind in sorted(missing, key=lambda entry: (entry[1], entry[2], entry[3])):
        print(f"{file}:{line}: {module}.{name} ({kind}) has no doc comment", file=sys.stderr)
    if missing:
        print(f"{len(missing)} public symbols without a doc comment: add a /// comment to each",
              file=sys.stderr)
        return 1
    print(f"doc comments: every public symbol documented ({checked} symbol graph files)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
