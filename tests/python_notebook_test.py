#!/usr/bin/python3
"""notebooks/002_python_kernels.ipynb: llm.c's kernels called from Python, with the maps drawn.

Executes the notebook headless with nbclient (Debian's python3-nbclient) on ipykernel's python3
kernel, with the package vx of the build (PYTHONPATH, tests/python.cmake), and checks its outputs
cell by cell: no cell fails; the module's repr; the Vx signature; GELU, layernorm and softmax
close to PyTorch's (figures printed by the cells, parsed here); every `vx.check` cell's result
drawn as SVG (a well-formed <svg> document holding a map, each element labelled with its pass),
the refused kernel's with E6032 and the elements two passes write marked; the refusal and runtime error printed with the messages of
spec/python.md.

usage: python_notebook_test.py REPO_ROOT
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

ROOT = sys.argv[1]
NOTEBOOK = os.path.join(ROOT, "notebooks", "002_python_kernels.ipynb")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, scratch_dir  # noqa: E402

checks = Checks("python_notebook")
fail, expect, finish = checks.fail, checks.expect, checks.finish

tmp = scratch_dir(prefix="vx-python-notebook-")
os.environ["JUPYTER_RUNTIME_DIR"] = os.path.join(tmp, "runtime")
os.environ["JUPYTER_CONFIG_DIR"] = os.path.join(tmp, "config")
os.environ["IPYTHONDIR"] = os.path.join(tmp, "ipython")
os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # ipykernel's debugger's note on stderr

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

nb = nbformat.read(NOTEBOOK, as_version=4)
expect("the notebook's kernel", nb.metadata["kernelspec"]["name"], "python3")
try:
    NotebookClient(nb, kernel_name="python3", timeout=600, startup_timeout=120,
                   resources={"metadata": {"path": tmp}}).execute()
except Exception as e:  # a cell that failed, or a kernel that died
    fail(f"executing the notebook: {type(e).__name__}: {e}")
    finish()

cells = {c.get("id"): c for c in nb.cells if c.cell_type == "code"}


def stdout(cell_id):
    return "".join(o.text for o in cells[cell_id].outputs
                   if o.output_type == "stream" and o.name == "stdout")


def result(cell_id, mime):
    results = [o for o in cells[cell_id].outputs if o.output_type == "execute_result"]
    if len(results) != 1 or mime not in results[0].data:
        fail(f"{cell_id}: no {mime} result")
        return ""
    return results[0].data[mime]


def figure(cell_id, name):
    m = re.search(re.escape(name) + r" ([-0-9.e]+)", stdout(cell_id))
    if not m:
        fail(f"{cell_id}: no {name!r} in {stdout(cell_id)!r}")
        return float("nan")
    return float(m.group(1))


for cid, cell in cells.items():
    for o in cell.outputs:
        if o.output_type == "error" or (o.output_type == "stream" and o.name == "stderr"):
            fail(f"{cid}: {o.get('ename', '')} {o.get('evalue', '')}{o.get('text', '')}")

expect("the module", result("kernels", "text/plain"),
       "<vx.Module llmc.vx: gelu_forward, layernorm_forward, softmax_forward>")
expect("the signature", stdout("signature").strip(),
       "pub fn gelu_forward(out: &mut Tensor<f32, [?], Memory::HBM>, "
       "inp: &Tensor<f32, [?], Memory::HBM>, n: i32)")
# gelu(5) = 2.5 (1 + tanh(0.7978846 (5 + 0.044715 * 125))): tanh(8.45…) is 1 - 9e-8, so the
# result is 5 less an ulp of 5 or so.
if not abs(figure("gelu", "gelu(5) =") - 5.0) <= 1e-6:
    fail("gelu(5) is not 5 within 1e-6")
if not figure("gelu", "largest difference from PyTorch:") <= 1e-6:
    fail("GELU differs from PyTorch's by more than 1e-6")
if not figure("layernorm", "largest difference from PyTorch:") <= 1e-5:
    fail("layernorm differs from PyTorch's by more than 1e-5")
if not figure("softmax", "largest difference from PyTorch:") <= 1e-6:
    fail("softmax differs from PyTorch's by more than 1e-6")

for cid in ("gelu_map", "layernorm_map", "softmax_map", "race"):
    svg = result(cid, "image/svg+xml")
    try:
        root = ET.fromstring(svg)
        if not root.tag.endswith("svg"):
            fail(f"{cid}: the picture's root is <{root.tag}>")
    except ET.ParseError as e:
        fail(f"{cid}: the SVG does not parse: {e}")
    if "accepted" not in result(cid, "text/plain") and cid != "race":
        fail(f"{cid}: {result(cid, 'text/plain')[:200]}")
    # A map, not its absence: cells labelled with their passes (block:lane; a collided cell's
    # first writer marked `!`, spec/cli.md §3.3), and for the accepted kernels the note that no
    # two passes write the same element.
    if not re.search(r'class="label[^"]*"[^>]*>\d+:\d+!?</text>', svg) or "no map" in svg:
        fail(f"{cid}: the picture has no map")
    if cid != "race" and "no two passes write the same element" not in svg:
        fail(f"{cid}: the picture does not say that no two passes write the same element")
    if cid == "race" and 'class="label collision"' not in svg:
        fail("race: the picture does not mark the elements two passes write")
race = stdout("race")
if "error[E6032]" not in race:
    fail(f"race: no E6032 in {race!r}")
if "refused" not in result("race", "text/plain"):
    fail("race: the result does not say refused")

errors = stdout("errors").splitlines()
expect("the refusal", errors[0],
       "ArgumentError: `inp` is `&Tensor<f32, [?], Memory::HBM>`, but the array holds `<f8` "
       "elements (write it as float32, `<f4`)")
expect("the runtime error", errors[1],
       "KernelError: runtime error: index out of bounds: the len is 1000 but the index is 1000 "
       "(dimension 0 of `inp`) in block 3 lane 232 (`b` = 3, `l` = 232)")
expect("its pass", errors[2], "block 3 lane 232 {'b': 3, 'l': 232}")
finish()
