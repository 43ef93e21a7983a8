#!/usr/bin/env python3
"""FileCheck checks of the CUDA emitter (tests/cuda_golden/README.md).

Each tests/cuda_golden/NAME.check holds RUN lines and the CHECK lines of LLVM's FileCheck that
state what its program's kernels need (a barrier between phases, an atomic, an intrinsic), not
every line. A RUN line has exactly the form

    // RUN: vx emit-cuda [--no-opt=NAME,…] [--opt-bisect-limit=N] PROGRAM | FileCheck [--check-prefix=P] %s

PROGRAM a .vx path relative to the project root. For each, the script runs vx with those
arguments (an argument vector: no shell reads the line), checks that its output starts with the
prelude (the kernel error codes of kernel_errors.def, vx_math.h, vx_half.h, vx_arith.h and
vx_prelude.cuh) and strips it and the `#line` directives, and gives the rest to FileCheck with
this file's checks of that prefix (CHECK when none is named).

    tests/cuda_golden.py VX FILECHECK [NAME…]   check every file (or those named); FILECHECK is
                                                 LLVM's FileCheck (FileCheck-14, llvm-14-tools)
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHECKS = ROOT / "tests" / "cuda_golden"
PRELUDE_PARTS = ("src/numeric/vx_math.h", "src/numeric/vx_half.h", "src/numeric/vx_arith.h",
                 "src/offload/vx_prelude.cuh")
RUN = re.compile(r"^// RUN: (.*)$", re.M)
# The `#line` directives of spec/offload.md §1.1 (tests/emit_readable_test.py checks them): left out
# of what FileCheck reads, so that their format and placement are no check's concern.
LINE_DIRECTIVE = re.compile(rb"^#(?:line)? +[0-9]+(?: [^\n]*)?\n", re.M)
EMIT_OPTION = re.compile(r"^--(no-opt=[a-z,-]+|opt-bisect-limit=[0-9]+)$")
PREFIX = re.compile(r"^--check-prefix=([A-Z][A-Z0-9_-]*)$")


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


def parse_run(line, name):
    """(vx's arguments after emit-cuda, FileCheck's prefix), or (None, why)."""
    emit, _, check = line.partition("|")
    words, checker = emit.split(), check.split()
    if words[:2] != ["vx", "emit-cuda"] or not words[2:]:
        return None, f"{name}: a RUN line starts `vx emit-cuda`: `{line}`"
    *options, program = words[2:]
    bad = [o for o in options if not EMIT_OPTION.match(o)]
    if bad:
        return None, f"{name}: `{bad[0]}` is not --no-opt=NAME,… or --opt-bisect-limit=N"
    path = pathlib.PurePosixPath(program)
    if path.is_absolute() or ".." in path.parts or path.suffix != ".vx" or program.startswith("-"):
        return None, f"{name}: `{program}` is not a .vx path inside the project"
    if not (ROOT / path).is_file():
        return None, f"{name}: `{program}` does not exist"
    if not checker or checker[0] != "FileCheck" or checker[-1] != "%s" or len(checker) > 3:
        return None, f"{name}: a RUN line ends `| FileCheck [--check-prefix=P] %s`: `{line}`"
    prefix = "CHECK"
    if len(checker) == 3:
        m = PREFIX.match(checker[1])
        if not m:
            return None, f"{name}: `{checker[1]}` is not --check-prefix=P"
        prefix = m.group(1)
    return (options + [program], prefix), None


def run_one(vx, filecheck, check, start):
    """The failures of one check file, as messages."""
    name = str(check.relative_to(ROOT))
    runs = RUN.findall(check.read_text())
    if not runs:
        return [f"{name} has no `// RUN: vx emit-cuda PROGRAM | FileCheck %s` line"]
    failures = []
    for line in runs:
        parsed, why = parse_run(line, name)
        if why:
            failures.append(why)
            continue
        args, prefix = parsed
        emit = subprocess.run([vx, "emit-cuda", *args], cwd=ROOT, capture_output=True, timeout=120)
        stderr = emit.stderr.decode("utf-8", "replace")
        # Warnings (spec/errors.md) may come with the CUDA; an error may not.
        if emit.returncode != 0 or any(l.startswith("error") for l in stderr.splitlines()):
            failures.append(f"{name}: `vx emit-cuda {' '.join(args)}` exited with "
                            f"{emit.returncode}:\n{stderr}")
            continue
        if not emit.stdout.startswith(start):
            failures.append(f"{name}: `vx emit-cuda {' '.join(args)}` does not start with the "
                            f"prelude ({', '.join(PRELUDE_PARTS)})")
            continue
        fc = subprocess.run([filecheck, str(check), f"--check-prefix={prefix}"],
                            input=LINE_DIRECTIVE.sub(b"", emit.stdout[len(start):]), capture_output=True,
                            timeout=120)
        if fc.returncode != 0:
            failures.append(f"{name}: `vx emit-cuda {' '.join(args)}` fails its {prefix} "
                            f"lines:\n" + fc.stderr.decode("utf-8", "replace"))
    return failures


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    vx = str(pathlib.Path(argv[0]).resolve())
    filecheck = argv[1]
    # No FileCheck is a failure, never a skip: the checks would pass unread.
    try:
        subprocess.run([filecheck, "--version"], capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"cuda_golden: cannot run FileCheck `{filecheck}` ({e}); tools/setup installs it "
              "(Debian's llvm-14-tools)")
        return 1
    checks = sorted(CHECKS.glob("*.check"))
    if argv[2:]:
        checks = [c for c in checks if c.stem in argv[2:]]
    if not checks:
        print(f"cuda_golden: no checks in {CHECKS}")
        return 1
    start = prelude()
    failed = 0
    for check in checks:
        failures = run_one(vx, filecheck, check, start)
        for f in failures:
            print(f"cuda_golden: {f}")
        failed += bool(failures)
    print(f"cuda_golden: {len(checks) - failed} of {len(checks)} check files pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
