#!/usr/bin/env python3
"""The layering check (run by `make test`; alone: `make check-layers`).

Reads every target of this package from `swift package dump-package` (its declared dependencies) and every
`import` in its Swift files, and reports, one sentence per problem:

1. an import of one of this package's modules that the target does not declare as a dependency (it compiles
   today only because another dependency brings it in, and breaks when that one changes);
2. an import its layer must not make. The layers, lowest first:
     engine       SwingCore, SwingMedia, SwingAudio, SwingInference, SwingVision, SwingPose, SwingBiomech and
                  the C modules: import only the engine;
     store        SwingStore: the engine's SwingCore and SwingBiomech (the shapes it stores);
     application  SwingPipeline: the engine and the store;
     adapters     SwingServer: the application and SwingCore; SwingCLI: the application, the server it starts
                  and the engine (it is also the engine's own command line: `detect`, `pose`, `measure` run
                  the engine on files, and the analysis flags build the engine's options), never the store:
                  sessions, jobs, model records and racket sounds go through the application's MediaLibrary;
     executables  swingmaster (SwingCLI only), swingbench (anything but the adapters);
     test support SwingTestSupport: the engine and the store (the records the store's test targets share).
   Test targets may import anything they declare.
   KNOWN lists imports that break rule 2 and are yet to be removed: each is reported as known (not a failure)
   while it is there, and a listed one that is gone is a failure, so the list only shrinks. It is empty.

Imports of other packages' modules (Foundation, NIOCore, GRDB, …) are not checked here.
`--self-test` plants a violation of each rule in a copy of the real graph and exits 1 unless each is caught.

Usage: tools/check_layers.py [--dump FILE.json] [--self-test]
Exit status 0 when nothing is wrong, 1 otherwise. Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ENGINE = {"SwingCore", "SwingMedia", "SwingAudio", "SwingInference", "SwingVision", "SwingPose", "SwingBiomech",
          "CFFmpeg", "CTurboJPEG"}
# What each non-test target may import of this package's modules (beyond its own layer's rule, nothing).
ALLOWED = {
    **{m: ENGINE for m in ENGINE},
    "SwingStore": {"SwingCore", "SwingBiomech"},
    "SwingPipeline": ENGINE | {"SwingStore"},
    "SwingServer": {"SwingPipeline", "SwingCore"},
    "SwingCLI": ENGINE | {"SwingPipeline", "SwingServer"},
    "swingmaster": {"SwingCLI"},
    "swingbench": ENGINE | {"SwingStore", "SwingPipeline", "SwingTestSupport"},
    "SwingTestSupport": ENGINE | {"SwingStore"},
}
# Imports that break the layers today (issue #40 removed the server's and the CLI's store imports).
KNOWN: set[tuple[str, str]] = set()

IMPORT = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def package_dump(path: str | None) -> dict:
    if path:
        with open(path) as f:
            return json.load(f)
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"check_layers: `swift package dump-package` failed: {out.stderr.strip().splitlines()[-1:] or out.returncode}")
    return json.loads(out.stdout)


def targets(dump: dict) -> dict[str, dict]:
    """name -> {"kind", "path", "declared": set of this package's target names it depends on}."""
    names = {t["name"] for t in dump["targets"]}
    result = {}
    for t in dump["targets"]:
        declared = set()
        for d in t.get("dependencies", []):
            for key in ("byName", "target"):
                if key in d and d[key] and d[key][0] in names:
                    declared.add(d[key][0])
        kind = t["type"]
        path = t.get("path") or os.path.join("Tests" if kind == "test" else "Sources", t["name"])
        result[t["name"]] = {"kind": kind, "path": path, "declared": declared}
    return result


def imports(path: str, own: set[str]) -> dict[str, list[str]]:
    """Each of this package's modules imported under `path`, with the files importing it."""
    found: dict[str, list[str]] = {}
    for base, _, files in os.walk(os.path.join(ROOT, path)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            file = os.path.join(base, name)
            with open(file, encoding="utf-8") as f:
                text = f.read()
            for module in IMPORT.findall(text):
                if module in own:
                    found.setdefault(module, []).append(os.path.relpath(file, ROOT))
    return found


def check(graph: dict[str, dict], imported: dict[str, dict[str, list[str]]],
          known: set[tuple[str, str]] = KNOWN) -> tuple[list[str], list[str]]:
    """(problems, notes) for targets `graph` whose imports are `imported`, the breaks `known` tolerated."""
    problems, notes, seen_known = [], [], set()
    for name in sorted(graph):
        t = graph[name]
        for module, files in sorted(imported.get(name, {}).items()):
            if module == name:
                continue
            where = f"{files[0]}" + (f" and {len(files) - 1} more" if len(files) > 1 else "")
            if module not in t["declared"]:
                problems.append(f"{name} imports {module} ({where}) without declaring it as a dependency in Package.swift.")
            if t["kind"] == "test":
                continue
            allowed = ALLOWED.get(name)
            if allowed is None:
                problems.append(f"{name} is in no layer: add it to tools/check_layers.py's ALLOWED.")
                continue
            if module not in allowed:
                if (name, module) in known:
                    seen_known.add((name, module))
                else:
                    problems.append(f"{name} imports {module} ({where}), which its layer must not (tools/check_layers.py).")
    for pair in sorted(known - seen_known):
        problems.append(f"{pair[0]} no longer imports {pair[1]}: remove the pair from tools/check_layers.py's KNOWN.")
    if seen_known:
        notes.append(f"{len(seen_known)} known layer breaks remain (issue #40): "
                     + ", ".join(f"{a} → {b}" for a, b in sorted(seen_known)) + ".")
    return problems, notes


def self_test(graph: dict[str, dict], imported: dict[str, dict[str, list[str]]]) -> int:
    """Plants one violation of each rule in a copy of the real graph; 0 when every one is caught."""
    import copy
    plants = [
        ("an engine module importing the store", "SwingAudio", "SwingStore", True),
        ("the store importing the pipeline", "SwingStore", "SwingPipeline", True),
        ("an undeclared import in a test target", "SwingCoreTests", "SwingMedia", False),
        ("the CLI importing the store", "SwingCLI", "SwingStore", True),
        ("the server importing the engine", "SwingServer", "SwingMedia", True),
    ]
    # A known break that is gone but still listed (one no target makes, planted in the list).
    planted = ("SwingServer", "SwingStore")
    problems, _ = check(copy.deepcopy(graph), imported, KNOWN | {planted})
    stale = any(p.startswith(f"{planted[0]} no longer imports {planted[1]}") for p in problems)
    print(f"self-test: a known break gone but still listed: {'caught' if stale else 'NOT caught'}")
    failed_stale = 0 if stale else 1
    failed = 0
    for what, target, module, declare in plants:
        g, imp = copy.deepcopy(graph), copy.deepcopy(imported)
        if target not in g:
            print(f"self-test: {target} is not a target"); failed += 1; continue
        if declare:
            g[target]["declared"].add(module)
        imp.setdefault(target, {}).setdefault(module, []).append("planted.swift")
        problems, _ = check(g, imp)
        caught = any(p.startswith(f"{target} imports {module}") for p in problems)
        print(f"self-test: {what}: {'caught' if caught else 'NOT caught'}")
        failed += 0 if caught else 1
    return 1 if failed + failed_stale else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dump", help="a saved `swift package dump-package` (default: run it)")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    graph = targets(package_dump(a.dump))
    own = set(graph)
    imported = {name: imports(t["path"], own) for name, t in graph.items()}
    if a.self_test:
        return self_test(graph, imported)
    problems, notes = check(graph, imported)
    for n in notes:
        print(f"check_layers: {n}")
    for p in problems:
        print(f"check_layers: {p}", file=sys.stderr)
    print(f"check_layers: {len(graph)} targets, {sum(len(v) for v in imported.values())} imports of this package's "
          f"modules, {len(problems)} problem(s).")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
