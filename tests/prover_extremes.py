#!/usr/bin/python3
"""The prover's integer paths at their extremes (issue 34 item 7, issue 35 items 1-2): for every
index type and every extreme constant (MIN, MAX, their neighbours, -1, 0, 1, 2^(bits-1)), in every
position of an index and of a loop's bounds, `vx check`, `check --explain` and `check --map` must
answer with exit status 0 or 1 and no internal error. Under the sanitizer build (UBSan,
-fno-sanitize-recover) an overflow anywhere in the prover, the collision search or their messages
ends the process, so this is the generator of the class "integer overflow in the proof".

Usage: prover_extremes.py VX
"""
import os
import subprocess
import sys
import tempfile

VX = sys.argv[1]
BITS = {"i32": 32, "u32": 32, "i64": 64, "u64": 64}


def extremes(t):
    n = BITS[t]
    if t.startswith("i"):
        lo, hi = -(1 << (n - 1)), (1 << (n - 1)) - 1
        values = [lo, lo + 1, -1, 0, 1, hi - 1, hi]
    else:
        lo, hi = 0, (1 << n) - 1
        values = [0, 1, (1 << (n - 1)) - 1, 1 << (n - 1), hi - 1, hi]
    return values


def lit(v, t):
    """A literal of type t; i64::MIN is written as a negated literal, which Vx folds."""
    return f"({v}{t})" if v < 0 else f"{v}{t}"


def program(t, c):
    """One program: a region per position of the constant c (of type t) in an index."""
    k = lit(c, t)
    b, l = f"(b as {t})", f"(l as {t})"
    indices = [
        f"{b} + {k}", f"{k} + {b}", f"{b} - {k}", f"{k} - {b}", f"{b} * {k}",
        f"{b} * {k} + {l}", f"{l} * {k} + {b} * 8{t}", f"({b} + {k}) * 8{t} + {l}",
    ]
    if c != 0:
        indices += [f"{b} / {k}", f"{b} % {k}", f"({b} * 8{t} + {l}) / {k}"]
    if t.startswith("i"):
        indices += [f"-{b} + {k}", f"{k} - {b} * 8{t} - {l}"]
    out = ["fn main() {"]
    for i, ix in enumerate(indices):
        out += [
            f"    let mut o{i} = transfer(Tensor<i32, [64]>::fill(0), Memory::HBM);",
            "    spawn on(Topology::Device) {",
            "        for b in 0..4 across blocks {",
            f"            for l in 0..8 across lanes {{ o{i}[{ix}] = 1; }}",
            "        }",
            "    }",
        ]
    # The constant as a loop's bounds, of blocks and of lanes.
    n = BITS[t]
    hi = (1 << (n - 1)) - 1 if t.startswith("i") else (1 << n) - 1
    lo = -(1 << (n - 1)) if t.startswith("i") else 0
    for j, (a, z) in enumerate([(c, min(c + 4, hi)), (max(c - 4, lo), c), (lo, c), (c, hi)]):
        out += [
            f"    let mut g{j} = transfer(Tensor<i32, [64]>::fill(0), Memory::HBM);",
            "    spawn on(Topology::Device) {",
            f"        for b in {lit(a, t)}..{lit(z, t)} across blocks {{",
            f"            for l in 0..8 across lanes {{ g{j}[(b - {lit(a, t)}) * 8{t} + (l as {t})] = 1; }}",
            "        }",
            "    }",
        ]
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    failures = []
    count = 0
    with tempfile.TemporaryDirectory(prefix="vx_extremes_") as tmp:
        for t in BITS:
            for c in extremes(t):
                path = os.path.join(tmp, f"{t}_{c}.vx".replace("-", "m"))
                with open(path, "w") as f:
                    f.write(program(t, c))
                for args in (["check"], ["check", "--explain"], ["check", "--map"]):
                    count += 1
                    p = subprocess.run([VX] + args + [path], capture_output=True, text=True,
                                       timeout=300)
                    text = p.stdout + p.stderr
                    if p.returncode not in (0, 1) or "internal error" in text:
                        failures.append(f"{' '.join(args)} {t} {c}: exit {p.returncode}\n"
                                        + text[-2000:])
                    elif p.returncode == 1 and "error[" not in text:
                        failures.append(f"{' '.join(args)} {t} {c}: refused with no diagnostic")
    for f in failures:
        print("FAIL", f)
    print(f"{count - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
