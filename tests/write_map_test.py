#!/usr/bin/env python3
"""`vx check --map` and `--map=FILE.svg` (spec/cli.md §3.3): who writes each element.

For each program the expected writer of every element is computed here, in Python, from the
formula the program's store uses (never from vx's output); the test builds the whole text map
that §3.3 specifies and compares it with `vx check --map` (colour off), parses the SVG with
ElementTree and compares every cell, checks the JSON data, colour (`--color=always`, a terminal
with and without NO_COLOR), the usage errors of `--map=FILE`, `--map FILE.svg` and --help, and that docs/write_map.svg is what
`vx check --map=…` makes now of its corpus program. Also `:map` in `vx repl`.

usage: write_map_test.py VX REPO_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import on_terminal  # noqa: E402

VX, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []
SVG_NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def vx(*args, env=None, stdin=None):
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.update(env or {})
    return subprocess.run([VX, *args], capture_output=True, text=True, env=e, input=stdin,
                          timeout=300)


def region(body, tensor, dims, extra=""):
    shape = ", ".join(str(d) for d in dims)
    return ("fn main() {\n" + extra +
            f"    let mut {tensor} = transfer(Tensor<i32, [{shape}]>::fill(0), Memory::HBM);\n"
            "    spawn on(Topology::Device) {\n" + body + "    }\n}\n")


def expected_cells(shape, window, writes):
    """writes: (element index tuple, label, pass key tuple, across flags, pass in words) in
    enumeration order. Returns {index: label, or label + '!' when two passes write it}, the
    number of collided elements, the first collision, and {index: the collision in words}."""
    first, later, collided, first_col, pairs = {}, {}, set(), None, {}

    def concurrent(x, y, across):
        for a, b, c in zip(x, y, across):
            if a != b:
                return c
        return False

    for idx, label, key, across, name in writes:
        if idx in collided:
            continue
        if idx not in first:
            first[idx] = (label, key, name)
            later[idx] = []
            continue
        earlier = [first[idx]] + later[idx]
        hit = next((w for w in earlier if concurrent(w[1], key, across)), None)
        if hit is None:
            later[idx].append((label, key, name))
            continue
        collided.add(idx)
        pairs[idx] = f"{hit[2]} and {name} both write {element_name(idx)}"
        if first_col is None:
            first_col = (hit[2], name, idx)
    cells = {}
    for idx, (label, _, _) in first.items():
        if all(i < w for i, w in zip(idx, window)):
            cells[idx] = label + "!" if idx in collided else label
    return cells, len(collided), first_col, pairs


def element_name(idx):
    return "element " + (str(idx[0]) if len(idx) == 1 else "".join(f"[{i}]" for i in idx))


def grid_text(shape, window, cells, tensor):
    width = max([2] + [len(v) for v in cells.values()])
    lines = []

    def cell(idx):
        return " " + cells.get(idx, "").rjust(width)

    if len(window) == 1:
        rows = (window[0] + 15) // 16
        pw = len(str((rows - 1) * 16))
        for r in range(rows):
            line = "  " + str(r * 16).rjust(pw) + " |"
            for c in range(16):
                if r * 16 + c < window[0]:
                    line += cell((r * 16 + c,))
            lines.append(line.rstrip())
        return lines
    rows, cols = window[-2], window[-1]
    pw = len(str(rows - 1))
    lead = [()]
    for w in window[:-2]:
        lead = [l + (i,) for l in lead for i in range(w)]
    for l in lead:
        if len(window) > 2:
            lines.append("  " + tensor + "".join(f"[{i}]" for i in l) + ":")
        lines.append("  " + " " * (pw + 2) + "".join(" " + str(c).rjust(width)
                                                      for c in range(cols)))
        for r in range(rows):
            line = "  " + str(r).rjust(pw) + " |"
            for c in range(cols):
                line += cell(l + (r, c))
            lines.append(line.rstrip())
    return lines


def check_case(name, source, tensor, place, shape, form, writes, status, notes=(), window=None,
               sample=False, digits=None):
    window = window or ([min(shape[0], 256)] if len(shape) == 1 else
                        [1] * (len(shape) - 3) + ([min(shape[-3], 4)] if len(shape) > 2 else []) +
                        [min(shape[-2], 32 if len(shape) == 2 else 16), min(shape[-1], 16)])
    cells, collided, first, pairs = expected_cells(shape, window, writes)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name + ".vx")
        with open(path, "w") as f:
            f.write(source)
        line = next(i for i, l in enumerate(source.split("\n"), 1) if place + " =" in l)
        col = source.split("\n")[line - 1].index(place) + 1
        head = (f"{path}:{line}:{col}: who writes `{place}` of `{tensor}` "
                f"[{', '.join(str(s) for s in shape)}]")
        want = [head, f"  each element shows `{form}`, the pass that writes it; `{form}!`: another "
                      "pass writes it too"]
        want += grid_text(shape, window, cells, tensor)
        if collided:
            want.append(f"  !! {collided} element{'' if collided == 1 else 's'} written by two "
                        f"passes; the first: {first[0]} and {first[1]} both write "
                        f"{element_name(first[2])}")
        else:
            want.append("  no two passes write the same element")
        want += ["  " + n for n in notes]
        r = vx("check", path, "--map", "--color=never")
        got = r.stdout.split("\n")
        if digits is not None:
            got_map, got_digits = got[:len(want)], got[len(want):]
            if "\n".join(got_digits).strip() != digits.strip():
                fail(f"{name}: the digit table beside the sample:\n" + "\n".join(got_digits))
        else:
            got_map = got[:-1] if got and got[-1] == "" else got
        if got_map != want:
            fail(f"{name}: the text map differs.\nwant:\n" + "\n".join(want) + "\ngot:\n" +
                 r.stdout)
        if r.returncode != status:
            fail(f"{name}: exit status {r.returncode}, want {status}; stderr: {r.stderr}")
        if status == 1 and "E6032" not in r.stderr:
            fail(f"{name}: a refused kernel's E6032 is missing: {r.stderr}")
        # SVG: every rect of a cell against the same expectation.
        svg = os.path.join(d, name + ".svg")
        r = vx("check", path, "--map=" + svg)
        if r.returncode != status or not os.path.exists(svg):
            fail(f"{name}: --map=FILE.svg: status {r.returncode}: {r.stderr}")
            return
        with open(svg) as f:
            svg_text = f.read()
        if not svg_text.startswith("<svg "):
            fail(f"{name}: the SVG starts {svg_text[:40]!r}, not `<svg ` (no XML declaration)")
        root = ET.fromstring(svg_text)
        rects = [e for e in root.iter(SVG_NS + "rect") if "cell" in e.get("class", "").split()]
        seen, fills = {}, {}
        for e in rects:
            idx = tuple(int(v) for v in e.get("data-index").split(","))
            classes = e.get("class").split()
            title = e.find(SVG_NS + "title")
            title = title.text if title is not None else None
            where = element_name(idx)
            if "blank" in classes:
                seen[idx] = None
                want_title = f"{where}: no pass writes it"
            else:
                seen[idx] = e.get("data-pass") + ("!" if "collision" in classes else "")
                block = e.get("data-pass").split(":")[0].split("/")[0]
                fills.setdefault(block, set()).add(e.get("fill"))
                writer = next(w[4] for w in writes if w[0] == idx)
                want_title = pairs.get(idx, f"{where}: written by {writer}")
            if title != want_title:
                fail(f"{name}: the tooltip of {idx} is {title!r}, want {want_title!r}")
        # One colour per block, none shared by two blocks; the legend shows only those.
        if any(len(f) != 1 for f in fills.values()):
            fail(f"{name}: a block drawn in several colours: {fills}")
        used = [next(iter(f)) for f in fills.values()]
        if len(set(used)) != len(used):
            fail(f"{name}: two blocks share a colour: {fills}")
        legend = [e.get("fill") for e in root.iter(SVG_NS + "rect")
                  if e.get("class") == "legend"]
        if len(set(legend)) != len(legend) or not set(legend) <= set(used) or \
                len(legend) != min(len(used), 16):
            fail(f"{name}: the legend's colours {legend}, the cells' {sorted(used)}")
        for e in root.iter(SVG_NS + "text"):
            if e.get("class", "").startswith("note") and \
                    e.get("{http://www.w3.org/XML/1998/namespace}space") != "preserve" and \
                    "  " in (e.text or ""):
                fail(f"{name}: a line of aligned spaces without xml:space: {e.text!r}")
        want_svg = {}
        total = 1
        for w in window:
            total *= w
        for i in range(total):
            idx, k = [], i
            for w in reversed(window):
                idx.insert(0, k % w)
                k //= w
            want_svg[tuple(idx)] = cells.get(tuple(idx))
        if seen != want_svg:
            diff = [k for k in want_svg if seen.get(k, "missing") != want_svg[k]][:5]
            fail(f"{name}: SVG cells differ at {diff}: want "
                 f"{[want_svg[k] for k in diff]}, got {[seen.get(k, 'missing') for k in diff]}")
        titles = [e.text for e in root.iter(SVG_NS + "text") if e.get("class") == "title"]
        if titles != [head]:
            fail(f"{name}: SVG title {titles}, want {[head]}")
        # JSON data: the same cells.
        r = vx("check", path, "--map", "--error-format=json")
        notes_json = [json.loads(l) for l in r.stdout.splitlines()]
        if len(notes_json) != 1 or notes_json[0].get("level") != "note":
            fail(f"{name}: --map under json: {r.stdout[:300]}")
            return
        data = notes_json[0]["data"]
        got_json = {tuple(c["index"]): (c["pass"] + "!" if c["collides"] else c["pass"])
                    for c in data["cells"]}
        if got_json != want_svg or data["collided"] != collided or data["sample"] != sample:
            fail(f"{name}: JSON data differs: collided {data['collided']}, sample {data['sample']}")


def lane_case():
    # A 1-D lane loop: 20 lanes of one block write 20 of 24 elements.
    body = ("        for b in 0..1 across blocks {\n"
            "            for l in 0..20 across lanes {\n"
            "                out[l] = l;\n"
            "            }\n        }\n")
    writes = [((l,), f"0:{l}", (0, l), (True, True), f"block 0 lane {l}") for l in range(20)]
    check_case("lane_1d", region(body, "out", [24]), "out", "out[l]", [24], "b:l", writes, 0)


def tile_case():
    # The lesson's 2-D tile layout at a small size: (4 * (g / 2) + t / 4) * 8 + 4 * (g % 2) + t % 4
    body = ("        for g in 0..4 across blocks {\n"
            "            for t in 0..16 across lanes {\n"
            "                let by = g / 2;\n                let bx = g % 2;\n"
            "                let ty = t / 4;\n                let tx = t % 4;\n"
            "                c[4 * by + ty][4 * bx + tx] = t;\n"
            "            }\n        }\n")
    writes = [((4 * (g // 2) + t // 4, 4 * (g % 2) + t % 4), f"{g}:{t}", (g, t), (True, True),
               f"block {g} lane {t}") for g in range(4) for t in range(16)]
    check_case("tile_2d", region(body, "c", [8, 8]), "c", "c[4 * by + ty][4 * bx + tx]", [8, 8],
               "g:t", writes, 0)


def lesson_cases():
    for coef, status in ((16, 0), (8, 1)):
        body = ("        for b in 0..8 across blocks {\n"
                "            for t in 0..16 across lanes {\n"
                f"                out[b * {coef} + t] = t;\n"
                "            }\n        }\n")
        writes = [((b * coef + t,), f"{b}:{t}", (b, t), (True, True), f"block {b} lane {t}")
                  for b in range(8) for t in range(16)]
        check_case(f"lesson_{coef}", region(body, "out", [128]), "out", f"out[b * {coef} + t]",
                   [128], "b:t", writes, status)
    body = ("        for b in 0..4 across blocks {\n"
            "            for t in 0..8 across lanes {\n"
            "                out[b + 4 * t] = t;\n"
            "            }\n        }\n")
    writes = [((b + 4 * t,), f"{b}:{t}", (b, t), (True, True), f"block {b} lane {t}")
              for b in range(4) for t in range(8)]
    check_case("lesson_b_plus_4t", region(body, "out", [32]), "out", "out[b + 4 * t]", [32],
               "b:t", writes, 0)


def plain_loop_case():
    # A plain loop in a lane loop is a digit (`/k` in the label); here lanes overlap by one.
    body = ("        for b in 0..2 across blocks {\n"
            "            for l in 0..4 across lanes {\n"
            "                for k in 0..3 {\n"
            "                    out[b * 12 + l * 2 + k] = k;\n"
            "                }\n            }\n        }\n")
    writes = [((b * 12 + l * 2 + k,), f"{b}:{l}/{k}", (b, l, k), (True, True, False),
               f"block {b} lane {l} with `k` = {k}")
              for b in range(2) for l in range(4) for k in range(3)]
    check_case("plain_loop", region(body, "out", [24]), "out", "out[b * 12 + l * 2 + k]", [24],
               "b:l/k", writes, 1)


def large_case():
    # The GEMM of the corpus: 512 x 512, a sample of 32 rows and 16 columns, with the digits.
    path = os.path.join(ROOT, "conformance", "kernel_rules", "lesson_gemm_offset.vx")
    with open(path) as f:
        source = f.read()
    writes = []
    for g in range(1024):
        by, bx = g // 32, g % 32
        if by * 16 >= 32 or bx * 16 >= 16:
            continue  # outside the window, and the layout never writes an element twice
        for t in range(256):
            writes.append(((16 * by + t // 16, 16 * bx + t % 16), f"{g}:{t}", (g, t),
                           (True, True), f"block {g} lane {t}"))
    check_case("gemm_sample", source, "c", "c[16 * by + ty][16 * bx + tx]", [512, 512],
               "g:t", writes, 0, notes=["a sample: `c[0..32][0..16]` of [512, 512]"],
               sample=True, digits=explain_table(path))


def explain_table(path):
    """The table of --explain for the block loop, as --map prints it beside a sample."""
    r = vx("check", path, "--explain")
    lines = r.stdout.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("  block loop"))
    table = []
    for l in lines[start + 1:]:
        if not l.startswith("    ") or l.startswith("    ok") or l.startswith("    FAILS"):
            break
        table.append(l)
    offset = next(l for l in lines if l.startswith("  offset: "))[len("  offset: "):]
    return "\n".join([f"  the digits of the offset `{offset}` (vx check --explain):"] + table)


def many_passes_case():
    # 2^21 writes: the first 2^20 are evaluated, blocks 0 to 2047.
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "many.vx")
        with open(path, "w") as f:
            f.write(region("        for b in 0..4096 across blocks {\n"
                           "            for t in 0..512 across lanes {\n"
                           "                out[b * 512 + t] = t;\n"
                           "            }\n        }\n", "out", [2097152]))
        r = vx("check", path, "--map", "--error-format=json")
        data = json.loads(r.stdout.splitlines()[0])["data"]
        if (data["evaluations"], data["total"], data["sample"]) != (1 << 20, 1 << 21, True):
            fail(f"many passes: evaluations {data['evaluations']} of {data['total']}")
        want = "a sample of the passes: the first 1048576 of 2097152 writes, in the order the " \
               "loops count"
        if want not in data["notes"]:
            fail(f"many passes: notes {data['notes']}")
        cells = [c["pass"] for c in data["cells"]]
        if cells != [f"0:{t}" for t in range(256)]:
            fail(f"many passes: the first cells {cells[:4]}")


def unmappable_case():
    path = os.path.join(ROOT, "conformance", "kernel_rules", "data_dependent_write.vx")
    r = vx("check", path, "--map", "--color=never")
    want = (f"{path}:9:17: who writes `out[idx[l]]` of `out` [8]\n"
            "  no map: the offset reads `idx[l]`, a value known only when the program runs: "
            "which pass writes which element cannot be known before it runs\n")
    if r.stdout != want or r.returncode != 1:
        fail(f"data-dependent index: status {r.returncode}, stdout:\n{r.stdout}\nwant:\n{want}")


def colour_cases():
    path = os.path.join(ROOT, "conformance", "kernel_rules", "lesson_coefficient_8.vx")
    r = vx("check", path, "--map", "--color=always")
    if "\x1b[34m  0:0\x1b[0m" not in r.stdout or "\x1b[1;97;41m 0:8!\x1b[0m" not in r.stdout:
        fail("--color=always: no block colour or red collision in\n" + r.stdout[:600])
    plain = vx("check", path, "--map", "--color=never").stdout
    if "\x1b" in plain:
        fail("--color=never: escapes in the map")
    for no_color, want_escapes in (("1", False), (None, True)):
        env = dict(os.environ, TERM="xterm")
        env.pop("NO_COLOR", None)
        if no_color:
            env["NO_COLOR"] = no_color
        _, out = on_terminal([VX, "check", path, "--map"], "stdout", env=env)
        escapes = b"\x1b[" in out
        if escapes != want_escapes:
            fail(f"a terminal with NO_COLOR={no_color}: escapes {escapes}")


def usage_cases():
    path = os.path.join(ROOT, "conformance", "kernel_rules", "lesson_b_plus_4t.vx")
    r = vx("check", path, "--map=out.png")
    if r.returncode != 2 or "ends in .svg" not in r.stderr:
        fail(f"--map=out.png: status {r.returncode}, {r.stderr}")
    r = vx("check", path, "--map=/nonexistent-dir/x.svg")
    if r.returncode != 2 or "cannot write `/nonexistent-dir/x.svg`" not in r.stderr:
        fail(f"unwritable --map: status {r.returncode}, {r.stderr}")
    r = vx("check", path, "--map=/nonexistent-dir/x.svg", "--error-format=json")
    if r.returncode != 2 or json.loads(r.stderr.splitlines()[0]).get("level") != "error":
        fail(f"unwritable --map under json: status {r.returncode}, {r.stderr}")


def map_spellings():
    # `--map FILE.svg` (before or after the program) is `--map=FILE.svg`; `--map f.vx` is the
    # text map of f.vx; --help names the option without CLI11's `{true}`.
    path = os.path.abspath(os.path.join(ROOT, "conformance", "kernel_rules", "lesson_b_plus_4t.vx"))
    with tempfile.TemporaryDirectory() as d:
        for args in (["--map", "a.svg", path], [path, "--map", "a.svg"], ["--map=a.svg", path]):
            svg = os.path.join(d, "a.svg")
            if os.path.exists(svg):
                os.remove(svg)
            r = subprocess.run([VX, "check", *args], cwd=d, capture_output=True, text=True)
            if r.returncode != 0 or r.stdout or not os.path.exists(svg) or \
                    not open(svg).read().startswith("<svg "):
                fail(f"check {' '.join(args)}: status {r.returncode}, stdout {r.stdout[:80]!r}, "
                     f"stderr {r.stderr}")
    r = vx("check", "--map", path, "--color=never")
    if r.returncode != 0 or "who writes `out[b + 4 * t]` of `out` [32]" not in r.stdout:
        fail(f"check --map FILE.vx: status {r.returncode}, {r.stdout[:200]} {r.stderr}")
    r = vx("check", "--help")
    line = next((l for l in r.stdout.splitlines() if "--map" in l), "")
    if "{" in line or "--map FILE.svg" not in r.stdout:
        fail(f"check --help: {r.stdout}")


def docs_picture():
    # docs/write_map.svg is what the command makes now of its program (it cannot go stale).
    program = os.path.join("conformance", "kernel_rules", "lesson_coefficient_8.vx")
    with tempfile.TemporaryDirectory() as d:
        svg = os.path.join(d, "write_map.svg")
        r = subprocess.run([VX, "check", program, "--map=" + svg], cwd=ROOT, capture_output=True,
                           text=True)
        with open(svg) as f:
            made = f.read()
    with open(os.path.join(ROOT, "docs", "write_map.svg")) as f:
        committed = f.read()
    if r.returncode != 1 or made != committed:
        fail("docs/write_map.svg is not what `vx check " + program + " --map=docs/write_map.svg` "
             "makes now (run it from the repository root)")
    readme = open(os.path.join(ROOT, "README.md")).read()
    if "](docs/write_map.svg)" not in readme:
        fail("README.md does not show docs/write_map.svg")


def repl_case():
    source = ("let mut out = transfer(Tensor<i32, [8]>::fill(0), Memory::HBM);\n"
              "spawn on(Topology::Device) { for b in 0..2 across blocks { for t in 0..4 across "
              "lanes { out[b * 4 + t] = t; } } }\n:map\n:map svg\n")
    r = vx("repl", stdin=source)
    if "who writes `out[b * 4 + t]` of `out` [8]" not in r.stdout or \
            "  0 | 0:0 0:1 0:2 0:3 1:0 1:1 1:2 1:3" not in r.stdout:
        fail(f":map in the REPL:\n{r.stdout}\n{r.stderr}")
    start = r.stdout.find("<svg")
    end = r.stdout.find("</svg>")
    if start < 0 or end < 0:
        fail(":map svg printed no SVG")
        return
    root = ET.fromstring(r.stdout[start:end + 6])
    passes = [e.get("data-pass") for e in root.iter(SVG_NS + "rect")
              if e.get("class") == "cell"]
    if passes != [f"{b}:{t}" for b in range(2) for t in range(4)]:
        fail(f":map svg cells {passes}")


lane_case()
tile_case()
lesson_cases()
plain_loop_case()
large_case()
many_passes_case()
unmappable_case()
colour_cases()
usage_cases()
map_spellings()
docs_picture()
repl_case()
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("write_map: all checks passed")
