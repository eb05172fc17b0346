"""Lists the public API of the package from the symbol graphs of `swift package dump-symbol-graph`,
one declaration per line, sorted, so that an API change is a visible diff of api/public-api.txt.

usage: list_public_symbols.py SYMBOLGRAPH_DIR [--check FILE | --write FILE]

Public means the API of the two products, VisionTasks and PoseDetection. Their modules are listed
in full. Of the other modules, only Imaging may say `public`, and only for the types VisionTasks
re-exports with a typealias (ImageOrientation, PixelFormat); any other public symbol in any other
module is an error: internal modules use `package`.
"""
import argparse
import glob
import json
import os
import sys

PRODUCTS = ["VisionTasks", "PoseDetection"]
# The package's other Swift modules: `package`, never `public` (C modules and test support aside).
INTERNAL = ["ModelFile", "Inference", "Imaging", "VisionTasksCLI"]
# Types of internal modules that the products re-export (typealiases in Sources/VisionTasks).
RE_EXPORTED = {"Imaging": {"ImageOrientation", "PixelFormat"}}


def symbols(directory):
    """(module, line) for every public symbol the compiler wrote, synthesized ones left out."""
    found = {os.path.basename(p).split("@")[0].split(".")[0] for p in glob.glob(os.path.join(directory, "*.json"))}
    missing = [module for module in PRODUCTS + INTERNAL if module not in found]
    if missing:
        sys.exit(f"no symbol graph for {', '.join(missing)} in {directory}")
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        name = os.path.basename(path)[: -len(".symbols.json")]
        module = name.split("@")[0]
        graph = json.load(open(path))
        for symbol in graph.get("symbols", []):
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            path_components = ".".join(symbol["pathComponents"])
            extended = f" (extends {name.split('@')[1]})" if "@" in name else ""
            yield module, symbol["pathComponents"], f"{module}{extended}  {path_components}  {' '.join(declaration.split())}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check")
    group.add_argument("--write")
    args = parser.parse_args()

    lines, errors = set(), []
    for module, path, line in symbols(args.directory):
        if module in PRODUCTS or path[0] in RE_EXPORTED.get(module, set()):
            lines.add(line)
        elif module in INTERNAL:
            errors.append(f"{line}   <- public in {module}, which is not a product: use `package`")
    text = "".join(line + "\n" for line in sorted(lines))
    for error in errors:
        print(error, file=sys.stderr)
    if args.write:
        open(args.write, "w").write(text)
        print(f"wrote {len(lines)} public declarations to {args.write}", file=sys.stderr)
    elif args.check:
        expected = open(args.check).read() if os.path.exists(args.check) else ""
        if expected != text:
            old, new = set(expected.splitlines()), set(text.splitlines())
            for line in sorted(old - new):
                print(f"- {line}", file=sys.stderr)
            for line in sorted(new - old):
                print(f"+ {line}", file=sys.stderr)
            print(f"the public API differs from {args.check}: if the change is meant, run "
                  "scripts/api/public-api.sh --update and commit the file", file=sys.stderr)
            return 1
        print(f"public API: {len(lines)} declarations, as in {args.check}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
