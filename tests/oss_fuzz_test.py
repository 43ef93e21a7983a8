#!/usr/bin/env python3
"""OSS-Fuzz's and ClusterFuzzLite's build contract on this machine (tests/fuzz/oss-fuzz/,
.clusterfuzzlite/; tests/fuzz/README.md, "OSS-Fuzz and ClusterFuzzLite"):

- the project files are there and agree (language c++, the Ubuntu 24.04 base image, the same
  packages in both Dockerfiles, build.sh reached from .clusterfuzzlite/build.sh);
- the dictionary tests/fuzz/vx.dict has every keyword of the grammar, every operator and
  compound assignment of src/parse/operators.def, every built-in of src/check/builtins.def, every
  scalar type and every math method;
- build.sh run as OSS-Fuzz runs it: $SRC/build.sh, from $SRC/vx, with CC=clang-14,
  CXX=clang++-14, ASan and libFuzzer's coverage in CFLAGS/CXXFLAGS,
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer, and OUT and WORK temporary folders; without a network
  where `unshare -rn` can take it away (it downloads nothing);
- in $OUT, per harness: the harness, NAME_seed_corpus.zip, NAME.dict, NAME.options, and the shared
  libraries it loads from $OUT/lib (not from the system);
- every harness run from $OUT with its dictionary on one seed in 20 of its unpacked corpus, then
  a short deterministic campaign (every seed is the sanitizer build's fuzz tests').

Every harness is built: all of vx compiled once with clang and ASan (about the sanitizer build's
time), each harness linked to it. VX_OSS_FUZZ_HARNESSES="parse check …" builds only those, for a
quicker look while working on build.sh.

usage: oss_fuzz_test.py REPO_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

ROOT = os.path.abspath(sys.argv[1])
SAMPLE = 20  # every SAMPLE-th seed of a harness's zip is run here
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


# ---- the project files ------------------------------------------------------------------------
OSS = ("tests", "fuzz", "oss-fuzz")
CFL = (".clusterfuzzlite",)
for folder in (OSS, CFL):
    yaml = read(*folder, "project.yaml")
    for line in ("language: c++", "base_os_version: ubuntu-24-04"):
        if line not in yaml.splitlines():
            fail(f"{'/'.join(folder)}/project.yaml lacks `{line}`")
    docker = read(*folder, "Dockerfile")
    if not docker.startswith("FROM gcr.io/oss-fuzz-base/base-builder:ubuntu-24-04\n"):
        fail(f"{'/'.join(folder)}/Dockerfile is not FROM base-builder:ubuntu-24-04")


def packages(docker):
    m = re.search(r"apt-get install -y --no-install-recommends((?:[^\n]*\\\n)*[^\n]*)", docker)
    return sorted(m.group(1).replace("\\", " ").split()) if m else []


if not packages(read(*OSS, "Dockerfile")) or \
        packages(read(*OSS, "Dockerfile")) != packages(read(*CFL, "Dockerfile")):
    fail("the two Dockerfiles do not install the same packages")
if 'exec "$SRC/vx/tests/fuzz/oss-fuzz/build.sh"' not in read(*CFL, "build.sh"):
    fail(".clusterfuzzlite/build.sh does not run tests/fuzz/oss-fuzz/build.sh")
if "COPY . $SRC/vx" not in read(*CFL, "Dockerfile"):
    fail(".clusterfuzzlite/Dockerfile does not copy the checkout to $SRC/vx")

# ---- the dictionary covers the grammar --------------------------------------------------------
entries = set()
for line in read("tests", "fuzz", "vx.dict").splitlines():
    m = re.fullmatch(r'\s*(?:\w+=)?"((?:[^"\\]|\\.)*)"\s*', line)
    if m:
        entries.add(re.sub(r"\\(.)", r"\1", m.group(1)))
    elif line.strip() and not line.lstrip().startswith("#"):
        fail(f"vx.dict: a line that is not an entry: {line!r}")
wanted = {}
grammar = read("src", "parse", "grammar_def.hpp")
keywords = re.search(r"symbols<x3::unused_type> const keywords\(\{(.*?)\}\)", grammar, re.S)
for word in re.findall(r'"([^"]+)"', keywords.group(1) if keywords else ""):
    wanted[word] = "a keyword"
for word in re.findall(r'kw\("([^"]+)"\)', grammar):
    wanted[word] = "a word of the grammar"
for spelling, compound in re.findall(r'^VX_BINOP\(\w+, "([^"]+)", \d+, \w+, "([^"]*)", \w+\)',
                                     read("src", "parse", "operators.def"), re.M):
    wanted[spelling] = "an operator"
    if compound:
        wanted[compound] = "a compound assignment"
for name in re.findall(r'^VX_BUILTIN\(\w+, "([^"]+)"', read("src", "check", "builtins.def"),
                       re.M):
    wanted[name] = "a built-in"
for name in re.findall(r'^VX_SCALAR\(\w+, "([^"]+)"', read("src", "check", "scalar_types.def"),
                       re.M):
    wanted[name] = "a scalar type"
for name in re.findall(r'^VX_MATH_\w+\(\w+, "([^"]+)"', read("src", "numeric", "math.def"), re.M):
    wanted[name] = "a math method"
if len(wanted) < 80:
    fail(f"the grammar's tables were not read: {len(wanted)} words")
missing = sorted(w for w in wanted if w not in entries)
if missing:
    fail("vx.dict lacks " + ", ".join(f"`{w}` ({wanted[w]})" for w in missing))

# ---- build.sh under the contract --------------------------------------------------------------
harnesses = os.environ.get("VX_OSS_FUZZ_HARNESSES", "all")
tmp = scratch_dir(prefix="vx_oss_fuzz_")
src, work, out = (os.path.join(tmp, d) for d in ("src", "work", "out"))
for d in (src, work, out):
    os.mkdir(d)
os.symlink(ROOT, os.path.join(src, "vx"))
shutil.copy(os.path.join(ROOT, *OSS, "build.sh"), os.path.join(src, "build.sh"))
flags = ("-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address "
         "-fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link")
env = dict(os.environ, CC="clang-14", CXX="clang++-14", CFLAGS=flags, CXXFLAGS=flags,
           LIB_FUZZING_ENGINE="-fsanitize=fuzzer", SRC=src, WORK=work, OUT=out,
           SANITIZER="address", FUZZING_ENGINE="libfuzzer", ARCHITECTURE="x86_64")
if harnesses != "all":
    env["VX_FUZZ_HARNESSES"] = harnesses
command = ["bash", "-eu", os.path.join(src, "build.sh")]
offline = subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0
if offline:
    command = ["unshare", "-rn"] + command
start = time.monotonic()
r = subprocess.run(command, cwd=os.path.join(src, "vx"), env=env, capture_output=True, text=True)
build_s = time.monotonic() - start
if r.returncode != 0:
    fail(f"build.sh: exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1)
built = harnesses.split() if harnesses != "all" else \
    open(os.path.join(work, "vx-fuzz-build", "fuzz_harnesses.txt")).read().split()

# ---- what $OUT holds, and each harness on its seeds -------------------------------------------
run_s = 0.0
for h in built:
    name = "fuzz_" + h
    exe = os.path.join(out, name)
    if not os.access(exe, os.X_OK):
        fail(f"{name}: not in $OUT")
        continue
    with open(os.path.join(out, name + ".options")) as f:
        options = f.read()
    if f"dict = {name}.dict" not in options or "max_len = 65536" not in options:
        fail(f"{name}.options: {options!r}")
    if read("tests", "fuzz", "vx.dict") != open(os.path.join(out, name + ".dict")).read():
        fail(f"{name}.dict is not tests/fuzz/vx.dict")
    seeds = os.path.join(tmp, "seeds_" + h)
    with zipfile.ZipFile(os.path.join(out, name + "_seed_corpus.zip")) as z:
        z.extractall(seeds)
    count = len(os.listdir(seeds))
    if count < 5:
        fail(f"{name}_seed_corpus.zip: {count} seeds")
    # Its libraries come from $OUT/lib, where the runner image finds them, not from the system.
    ldd = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
    system = [l.split()[0] for l in ldd.splitlines()
              if "=> /" in l and not l.split("=> ")[1].startswith(out + "/lib/") and
              not re.match(r"\s*(libc|libm|libdl|libpthread|librt)\.so", l)]
    if system:
        fail(f"{name}: loads from the system, not $OUT/lib: {system}")
    # It runs from $OUT on seeds of its zip with its dictionary: every SAMPLE-th seed, then a
    # short campaign. Every seed of every harness is the sanitizer build's (fuzz_NAME, tools/fuzz
    # --ci); here, all of them twice took 360 s of CI's critical path.
    sample = os.path.join(tmp, "sample_" + h)
    os.mkdir(sample)
    sampled = sorted(os.listdir(seeds))[::SAMPLE]
    for seed in sampled:
        shutil.copy(os.path.join(seeds, seed), sample)
    clean = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    t = time.monotonic()
    r = subprocess.run([exe, "-seed=1", "-runs=500", "-dict=" + os.path.join(out, name + ".dict"),
                        "-max_len=65536", "-timeout=25", "-rss_limit_mb=3072", sample],
                       capture_output=True, text=True, env=clean, timeout=600)
    run_s += time.monotonic() - t
    read_seeds = re.search(r"seed corpus: files: (\d+) ", r.stderr)
    if r.returncode != 0 or "INITED" not in r.stderr or "Done 500 runs" not in r.stderr:
        fail(f"{name}: exit {r.returncode}\n{r.stderr[-2000:]}")
    elif not read_seeds or int(read_seeds.group(1)) != len(sampled):  # (it adds what it finds there)
        fail(f"{name}: read {read_seeds and read_seeds.group(1)} of its {len(sampled)} sampled seeds")
    print(f"{name}: {count} seeds ({len(sampled)} run), libraries {sorted(os.listdir(os.path.join(out, 'lib')))}")

shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"oss_fuzz: built {' '.join(built)} under the contract in {build_s:.0f} s "
      f"({'no network' if offline else 'network not taken away: unshare -rn is not allowed'}), "
      f"ran on their seeds in {run_s:.0f} s")
