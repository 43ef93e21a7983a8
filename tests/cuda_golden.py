#!/usr/bin/env python3
"""Golden files of the CUDA emitter (tests/cuda_golden/README.md).

Each tests/cuda_golden/NAME.cu starts with the line `// $ vx emit-cuda PROGRAM` and holds, after
it, exactly what `vx emit-cuda PROGRAM` prints after the prelude (the kernel error codes of
kernel_errors.def, vx_math.h, vx_half.h, vx_arith.h and vx_prelude.cuh, which the emitter puts
first and which this script checks and strips). PROGRAM is one path relative to the project root, passed to vx as one argument: no shell reads it.

    tests/cuda_golden.py VX            compare; a difference fails with a unified diff
    tests/cuda_golden.py --update VX   rewrite every file from what VX prints now
"""
import difflib
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "cuda_golden"
HEADER = b"// $ vx emit-cuda "
PRELUDE_PARTS = ("src/numeric/vx_math.h", "src/numeric/vx_half.h", "src/numeric/vx_arith.h",
                 "src/offload/vx_prelude.cuh")


def prelude():
    # emit_cuda.cpp's cuda_prelude(): the kernel error codes of kernel_errors.def as one enum
    # line, then the four files, each followed by a newline.
    rows = re.findall(r"^VX_KERNEL_ERROR\((\w+), (\d+)\)",
                      (ROOT / "src/offload/kernel_errors.def").read_text(), re.M)
    errors = "enum {" + "".join(f" vx_kErr{name} = {code}," for name, code in rows) + " };\n"
    # vx_math.h goes in with its generated tables inlined (CMakeLists.txt, vx_embed).
    parts = [(ROOT / p).read_bytes() for p in PRELUDE_PARTS]
    tables = (ROOT / "src/numeric/vx_math_tables.inc").read_bytes()
    parts[0] = parts[0].replace(b'#include "vx_math_tables.inc"', tables)
    return errors.encode() + b"".join(p + b"\n" for p in parts)


def program_of(golden):
    first = golden.read_bytes().split(b"\n", 1)[0]
    if not first.startswith(HEADER):
        return None, f"{golden.name} does not start with `{HEADER.decode()}PROGRAM`"
    program = first[len(HEADER):].decode("utf-8")
    path = pathlib.PurePosixPath(program)
    if path.is_absolute() or ".." in path.parts or path.suffix != ".vx" or program.startswith("-"):
        return None, f"{golden.name}: `{program}` is not a .vx path inside the project"
    if not (ROOT / path).is_file():
        return None, f"{golden.name}: `{program}` does not exist"
    return program, None


def emitted(vx, program, start):
    run = subprocess.run([vx, "emit-cuda", program], cwd=ROOT, capture_output=True, timeout=120)
    # Warnings (spec/errors.md) may come with the CUDA; an error may not.
    errors = [l for l in run.stderr.decode("utf-8", "replace").splitlines() if l.startswith("error")]
    if run.returncode != 0 or errors:
        return None, (f"`vx emit-cuda {program}` exited with {run.returncode}:\n"
                      + run.stderr.decode("utf-8", "replace"))
    if not run.stdout.startswith(start):
        return None, f"`vx emit-cuda {program}` does not start with the prelude ({', '.join(PRELUDE_PARTS)})"
    return run.stdout[len(start):], None


def main(argv):
    update = "--update" in argv
    args = [a for a in argv if a != "--update"]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    vx = str(pathlib.Path(args[0]).resolve())
    start = prelude()
    goldens = sorted(GOLDEN.glob("*.cu"))
    if not goldens:
        print(f"cuda_golden: no cases in {GOLDEN}")
        return 1
    failed = updated = 0
    for golden in goldens:
        program, why = program_of(golden)
        body = None
        if program is not None:
            body, why = emitted(vx, program, start)
        if why:
            print(f"cuda_golden: {why}")
            failed += 1
            continue
        expected = golden.read_bytes()
        actual = HEADER + program.encode("utf-8") + b"\n" + body
        if actual == expected:
            continue
        if update:
            golden.write_bytes(actual)
            print(f"cuda_golden: updated {golden.relative_to(ROOT)}")
            updated += 1
            continue
        failed += 1
        name = str(golden.relative_to(ROOT))
        diff = difflib.unified_diff(
            expected.decode("utf-8", "replace").splitlines(keepends=True),
            actual.decode("utf-8", "replace").splitlines(keepends=True),
            fromfile=name, tofile=f"vx emit-cuda {program}")
        print(f"cuda_golden: `vx emit-cuda {program}` differs from {name} "
              f"(tests/cuda_golden.py --update VX rewrites it; review the diff):")
        sys.stdout.writelines(diff)
        print()
    matched = len(goldens) - failed - updated
    print(f"cuda_golden: {matched} of {len(goldens)} match" + (f", {updated} updated" if updated else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
