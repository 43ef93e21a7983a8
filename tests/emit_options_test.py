#!/usr/bin/env python3
"""`--no-opt` and `--opt-bisect-limit` (spec/offload.md §1.2, spec/cli.md): an unknown name is a
usage error that lists the names; the bisect limit applies exactly the first N decisions and says
each on stderr; limit 0 is every optimisation off, a limit past the last decision none off; the
options stand in each kernel's comment. (What each optimisation changes is stated by
tests/cuda_golden/*.check; that the bits stay the same, by cuda_host_test.)

    tests/emit_options_test.py VX ROOT
"""
import re
import subprocess
import sys

NAMES = ["dense-tiles", "register-tiles", "uniform-lets", "barrier-free-loops", "last-barrier",
         "proven-indices", "unrolled-passes", "warp-reductions"]
PROGRAM = "conformance/memory/register_tiles.vx"
BISECT = re.compile(r"^BISECT: (applying|NOT applying) optimisation \((\d+)\) ([a-z-]+) on "
                    r"vx_region_\d+_L\d+ \((.+)\)$")


def main(vx, root):
    failures = []

    def emit(*args):
        return subprocess.run([vx, "emit-cuda", *args, PROGRAM], cwd=root, capture_output=True,
                              text=True, timeout=120)

    def without_comment(text):
        return "\n".join(l for l in text.splitlines() if not l.startswith("// vx emit-cuda --"))

    def expect(ok, what):
        if not ok:
            failures.append(what)

    # An unknown name: exit 2, nothing on stdout, every name listed; on run and call too.
    for command in (["emit-cuda"], ["run"], ["call"]):
        bad = subprocess.run([vx, *command, "--no-opt=register-tiles,barriers", PROGRAM] +
                             (["main"] if command == ["call"] else []),
                             cwd=root, capture_output=True, text=True, timeout=120)
        expect(bad.returncode == 2, f"{command[0]} --no-opt=…,barriers: exit {bad.returncode}")
        expect(bad.stdout == "", f"{command[0]} --no-opt=…,barriers printed on stdout")
        expect("`barriers` is not an optimisation of the CUDA emitter" in bad.stderr and
               all(n in bad.stderr for n in NAMES),
               f"{command[0]} --no-opt=…,barriers: stderr does not name it and list the names:\n"
               + bad.stderr)
    negative = emit("--opt-bisect-limit=-1")
    expect(negative.returncode == 2, f"--opt-bisect-limit=-1: exit {negative.returncode}")

    default = emit()
    expect(default.returncode == 0 and "BISECT" not in default.stderr,
           "the default emission failed or printed BISECT lines")
    expect("// vx emit-cuda --" not in default.stdout, "the default kernels carry an options comment")
    every_off = emit("--no-opt=all")
    expect(f"// vx emit-cuda --no-opt={','.join(sorted(NAMES, key=NAMES.index))}"
           in every_off.stdout, "--no-opt=all: the kernel's comment does not list every name")
    expect(without_comment(every_off.stdout) != without_comment(default.stdout),
           "--no-opt=all changes nothing in " + PROGRAM)

    # Limit 0: every decision NOT applied, numbered 1, 2, …; the code of --no-opt=all.
    zero = emit("--opt-bisect-limit=0")
    lines = [BISECT.match(l) for l in zero.stderr.splitlines() if l.startswith("BISECT")]
    expect(lines and all(lines), "--opt-bisect-limit=0: a BISECT line of another form:\n" + zero.stderr)
    lines = [m for m in lines if m]
    total = len(lines)
    expect([int(m.group(2)) for m in lines] == list(range(1, total + 1)),
           "--opt-bisect-limit=0: the decisions are not numbered 1, 2, …")
    expect(all(m.group(1) == "NOT applying" for m in lines), "limit 0 applied a decision")
    expect({m.group(3) for m in lines} <= set(NAMES), "a BISECT line names no optimisation")
    expect(without_comment(zero.stdout) == without_comment(every_off.stdout),
           "--opt-bisect-limit=0 differs from --no-opt=all")
    # A limit past the last decision: every one applied, the default code.
    past = emit(f"--opt-bisect-limit={total}")
    expect(all(l.startswith("BISECT: applying") for l in past.stderr.splitlines()
               if l.startswith("BISECT")), f"--opt-bisect-limit={total} skipped a decision")
    expect(without_comment(past.stdout) == without_comment(default.stdout),
           f"--opt-bisect-limit={total} (every decision) differs from the default")
    # A limit between: the first N decisions applied (the same as when all apply: nothing before
    # them differs), every later one not (later decisions may differ: a tile left in shared
    # memory has other index and barrier decisions).
    all_applied = [BISECT.match(l) for l in past.stderr.splitlines() if l.startswith("BISECT")]
    half = total // 2
    mid = emit(f"--opt-bisect-limit={half}")
    got = [BISECT.match(l) for l in mid.stderr.splitlines() if l.startswith("BISECT")]
    expect([(m.group(3), m.group(4)) for m in got[:half]] ==
           [(m.group(3), m.group(4)) for m in all_applied[:half]] and
           [m.group(1) for m in got] == ["applying"] * half + ["NOT applying"] * (len(got) - half),
           f"--opt-bisect-limit={half}: not the first {half} decisions applied")
    expect(f"// vx emit-cuda --opt-bisect-limit={half}" in mid.stdout,
           "the bisect limit is not in the kernel's comment")
    expect(len({without_comment(mid.stdout), without_comment(default.stdout),
                without_comment(every_off.stdout)}) == 3,
           f"--opt-bisect-limit={half} gives the code of all or none")
    # A switched-off optimisation's decisions have no number.
    off = emit("--no-opt=proven-indices", "--opt-bisect-limit=0")
    offs = [BISECT.match(l) for l in off.stderr.splitlines() if l.startswith("BISECT")]
    expect(offs and all(m and m.group(3) != "proven-indices" for m in offs),
           "a switched-off optimisation's decision was numbered")

    for f in failures:
        print("emit_options_test: " + f)
    print(f"emit_options_test: {total} decisions in {PROGRAM}; "
          f"{'FAIL' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
