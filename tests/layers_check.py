#!/usr/bin/env python3
"""The layers of src/ hold (issue 18): a file includes only headers of its own layer and of the
layers below it, a header marked internal ("Internal to …" anywhere in the comment it opens with) is
included only from its own folder, and the libraries of CMakeLists.txt (vx_layer) link only downward.
No header includes the whole of nlohmann::json (<nlohmann/json.hpp>, about 2 s of compiling every
file that includes it, and support/diagnostics.hpp is in nearly all of them): a header declares with
<nlohmann/json_fwd.hpp>, and the files that build or read JSON include the whole.

The order, lowest first (README, "Layers"):
  numeric  the math and f16/bf16 routines that the host and emitted kernels share (header-only)
  support  source files, diagnostics, formatting, the error index, the large-stack runner
  parse    the AST and the grammar
  check    the checker: types, moves and borrows, the typed program (tir.hpp), the effects table
  lower    the lowering step: the typed program made the one the back ends read   (beside rules)
  rules    the kernel rules: the rules, the prover, explain, the write map, machine files, the
           loop-nest validator that Vx and .uir share               (beside interp and lower)
  interp   the interpreter and its run-time values                             (beside rules)
  offload  the offload marks, the CUDA emitter, NVRTC, the CUDA driver API, the runner   (beside uir)
  uir      the loop IR: reader, checker, runner, lowering                       (beside offload)
  pipeline the pipeline's steps, vx call's argument checks, main's values
  repl     `vx repl`
  cli      `vx`'s sub-commands and the conformance runner

usage: layers_check.py REPO_ROOT
"""
import os
import re
import sys

ROOT = sys.argv[1]
BELOW = {
    "numeric": set(),
    "support": {"numeric"},
    "parse": {"support"},
    "check": {"parse"},
    "lower": {"check"},
    "rules": {"check"},
    "interp": {"check"},
    "offload": {"interp"},
    "uir": {"interp", "rules"},
    "pipeline": {"offload", "uir", "rules", "lower"},
    "repl": {"pipeline"},
    "cli": {"repl"},
}


def allowed(layer):
    """The layer and every layer below it."""
    out, todo = {layer}, [layer]
    while todo:
        for d in BELOW[todo.pop()]:
            if d not in out:
                out.add(d)
                todo.append(d)
    return out


def opening_comment(text):
    """The comment a header opens with: every line up to the first that is not a `//` comment,
    however long (a line broken inside "Internal to" still counts)."""
    lines = []
    for line in text.splitlines():
        if not line.lstrip().startswith("//"):
            break
        lines.append(line.lstrip()[2:].strip())
    return " ".join(lines)


failures = []
src = os.path.join(ROOT, "src")
folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
if set(folders) != set(BELOW):
    failures.append(f"src/ has the folders {folders}; the layer table has {sorted(BELOW)}")

internal = {}  # "interp/nodes.hpp" -> "interp"
for layer in folders:
    for name in os.listdir(os.path.join(src, layer)):
        if name.endswith((".hpp", ".h")):
            with open(os.path.join(src, layer, name), encoding="utf-8") as f:
                head = opening_comment(f.read())
            if re.search(r"\bInternal\s+to\b", head):
                internal[f"{layer}/{name}"] = layer

include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)
whole_json = re.compile(r'^\s*#\s*include\s+<nlohmann/json\.hpp>', re.M)
files = 0
for layer in folders:
    ok = allowed(layer) if layer in BELOW else set()
    for name in sorted(os.listdir(os.path.join(src, layer))):
        if not name.endswith((".cpp", ".hpp", ".h", ".cuh")):
            continue
        files += 1
        with open(os.path.join(src, layer, name), encoding="utf-8") as f:
            text = f.read()
        if name.endswith((".hpp", ".h", ".cuh")):
            for m in whole_json.finditer(text):
                failures.append(f"src/{layer}/{name}:{text.count(chr(10), 0, m.start()) + 1}: a header "
                                "includes <nlohmann/json.hpp>; declare with <nlohmann/json_fwd.hpp>")
        for m in include.finditer(text):
            target, header = m.group(1), f"{m.group(1)}/{m.group(2)}"
            line = text.count("\n", 0, m.start()) + 1
            where = f"src/{layer}/{name}:{line}"
            if target not in BELOW:
                continue  # a generated file (offload/…inc lives in the build tree) or a library
            if target not in ok:
                failures.append(f"{where}: {layer} includes {header}, from the layer {target} above it")
            if header in internal and internal[header] != layer:
                failures.append(f"{where}: {header} is internal to src/{internal[header]}")

cmake = open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8").read()
layers = dict(re.findall(r"^vx_layer\((\w+)([^)]*)\)", cmake, re.M))
for layer in BELOW:
    if layer == "numeric":
        continue
    if layer not in layers:
        failures.append(f"CMakeLists.txt: no vx_layer({layer} …)")
        continue
    deps = {d[3:] for d in layers[layer].split() if d.startswith("vx_")}
    if deps != BELOW[layer] - {"numeric"}:  # numeric is header-only: no library
        failures.append(f"CMakeLists.txt: vx_layer({layer}) links {sorted(deps)}, the table says "
                        f"{sorted(BELOW[layer] - {'numeric'})}")

for f in failures:
    print("FAIL: " + f)
if files < 60:
    failures.append(f"only {files} files read")
print(f"layers: {files} files, {len(internal)} internal headers, {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
