#!/usr/bin/env python3
"""An implementer's day against a deliberately wrong implementation (spec/cli.md §6.3, §6.4):
`vx conformance --impl` with tests/wrong_impl/flip_stdout.sh, which changes the first character
of every output, drops stderr, always exits 0 and crashes on conformance/formatting/.

- the text report: exit 1, `N passed, M failed`, a changed output shown under its spec section
  as a unified diff, an accepted refusal reported;
- the whole corpus as JSON on stdout and JUnit in a file (--output rep.xml): one result per
  program with its status, failure kind, spec section, expected and actual output and
  diagnostics; JUnit that a CI reads (testsuites/testsuite/testcase with name, classname and
  time; <failure type="mismatch">, <error type="crash"> counted in `errors`, <system-out>);
- --xfail with the failures listed: exit 0, `K expected failures`, xfail in JSON, <skipped> in
  JUnit; a listed program that passes is an xpass, which fails the run.

usage: conformance_wrong_impl.py VX   (run from the repository root)
"""
import fnmatch
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
IMPL = f"sh '{HERE}/wrong_impl/flip_stdout.sh' {{mode}} {{flags}} {{file}}"
tmp = scratch_dir(prefix="vx_wrong_impl_")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def conformance(*args):
    env = dict(os.environ, VX_REAL=VX)
    return subprocess.run([VX, "conformance", "--impl", IMPL, *args],
                          capture_output=True,
                          text=True, env=env, timeout=900)


# A few programs for the runs that do not need the whole corpus: the book's (outputs to flip),
# errors E00xx (refusals to accept) and the check-only E0206 near miss, which this wrong
# implementation passes (it exits 0 where only acceptance is wanted).
FEW = ["--filter", "*/book/*", "--filter", "*/errors/E00*", "--filter",
       "*/errors/E0206_element_count_at_limit.vx"]

# ---- the text report --------------------------------------------------------------------------
r = conformance(*FEW, "conformance")
last = r.stdout.rstrip("\n").split("\n")[-1]
if r.returncode != 1 or not re.fullmatch(r"[0-9]+ passed, [1-9][0-9]* failed", last):
    fail(f"text: want exit 1 and `N passed, M failed`, got {r.returncode} {last!r} {r.stderr!r}")
if not re.search(r"^FAIL .*expected 1 \(refused\)", r.stdout, re.M):
    fail("text: no accepted refusal was reported")
diff = re.search(r"^FAIL (\S+): stdout .*\n    spec: [^\n]+\n"
                 r"    --- expected\n    \+\+\+ actual\n    @@ [^\n]*\n"
                 r"    -([^\n]*)\n    \+#([^\n]*)\n", r.stdout, re.M)
if not diff:
    fail(f"text: no unified diff of a changed output: {r.stdout[:1500]}")
elif diff.group(3) != diff.group(2)[1:]:  # the wrong implementation put `#` for the first char
    fail(f"text: the diff's lines are not the expected line and the flipped one: {diff.group(0)}")

# ---- JSON and JUnit of the whole corpus -------------------------------------------------------
# VX_WRONG_IMPL_SUBSET=1 (the sanitizer build, tests/sanitize.cmake): a quarter of it, every kind
# of result still among them (outputs, crashes, refusals, .uir).
SUBSET = ["*/book/*", "*/formatting/*", "*/semantics/*", "*/errors/E00*", "*/uir/*"]
subset = os.environ.get("VX_WRONG_IMPL_SUBSET") == "1"
programs = sorted(os.path.join(d, f) for d, _, fs in os.walk("conformance") for f in fs
                  if f.endswith((".vx", ".uir")))
if subset:
    programs = [p for p in programs if any(fnmatch.fnmatch(p, g) for g in SUBSET)]
xml_path = os.path.join(tmp, "rep.xml")
r = conformance("--format", "json", "--output", xml_path,
                *(sum((["--filter", g] for g in SUBSET), []) if subset else []), "conformance")
if r.returncode != 1:
    fail(f"json: want exit 1, got {r.returncode} {r.stderr[-500:]!r}")
rep = json.loads(r.stdout)
results = rep["results"]
if [x["file"] for x in results] != programs:
    fail(f"json: {len(results)} results, not one per program of the {len(programs)}, in order")
if rep["passed"] + rep["failed"] != len(results) or rep["failed"] == 0 or rep["xfailed"] != 0:
    fail(f"json: counts {rep['passed']} + {rep['failed']} for {len(results)} results")
by_file = {x["file"]: x for x in results}
for x in results:
    if not x["spec"]:
        fail(f"json: {x['file']} has no spec section")
    if x["status"] not in ("pass", "fail") or (x["status"] == "pass") != (x["reason"] == ""):
        fail(f"json: {x['file']}: status {x['status']} with reason {x['reason']!r}")
    if not isinstance(x["duration_ms"], int):
        fail(f"json: {x['file']}: duration_ms {x['duration_ms']!r}")
crashes = [x for x in results if x["failure"] == "crash"]
formatting = [p for p in programs if "/formatting/" in p]
if sorted(x["file"] for x in crashes) != formatting or \
        any(x["signal"] != 11 or x["exit_status"] is not None for x in crashes):
    fail(f"json: the crashes are not formatting/'s {len(formatting)} programs with signal 11")
for x in results:
    if x["failure"] == "mismatch" and x.get("expected_stdout") and x["stdout"] != "" and \
            x["stdout"][0] != "#":
        fail(f"json: {x['file']}: stdout {x['stdout'][:40]!r} is not the flipped output")
refused = [x for x in results if x["expected_diagnostics"] and x["failure"] == "mismatch"]
if not refused or any(x["found_diagnostics"] or x["exit_status"] != 0 for x in refused):
    fail("json: the refusals that were accepted do not show their expected diagnostics and none"
         " found")
book = by_file.get("conformance/book/blog_gelu_forward_exact.vx")
if not book or book["failure"] != "mismatch" or not book["stdout"].startswith("#elu(") or \
        book["expected_stdout"] is None or not book["expected_stdout"].startswith("gelu("):
    fail(f"json: gelu's expected and actual stdout: {book}")

tree = ET.parse(xml_path)
root = tree.getroot()
suites = root.findall("testsuite")
if root.tag != "testsuites" or len(suites) != 1:
    fail(f"junit: root {root.tag} with {len(suites)} suites")
else:
    suite = suites[0]
    cases = suite.findall("testcase")
    n_fail = sum(1 for c in cases if c.find("failure") is not None)
    n_err = sum(1 for c in cases if c.find("error") is not None)
    if int(suite.get("tests")) != len(programs) or len(cases) != len(programs) or \
            int(suite.get("failures")) != n_fail or int(suite.get("errors")) != n_err or \
            n_err != len(formatting) or n_fail + n_err != rep["failed"]:
        fail(f"junit: tests={suite.get('tests')} failures={suite.get('failures')} "
             f"errors={suite.get('errors')}, counted {len(cases)} {n_fail} {n_err}")
    for c in cases:
        if not c.get("name") or not c.get("classname") or c.get("time") is None:
            fail(f"junit: a testcase without name, classname or time: {c.attrib}")
            break
        f, e = c.find("failure"), c.find("error")
        if f is not None and f.get("type") not in ("mismatch", "corpus-error"):
            fail(f"junit: {c.get('name')}: failure type {f.get('type')}")
        if e is not None and e.get("type") != "crash":
            fail(f"junit: {c.get('name')}: error type {e.get('type')}")
        if (f is not None or e is not None) and c.find("system-out") is None:
            fail(f"junit: {c.get('name')} failed without its <system-out>")
            break
    # A changed output's failure text has its section, the diff and both outputs (§6.4).
    if not any(f.text.startswith(f.get("message") + "\n\nspec: ") and
               "\n--- expected\n+++ actual\n@@ " in f.text and "\nexpected stdout:\n| " in f.text
               and "\nstdout:\n| #" in f.text for f in suite.iter("failure")):
        fail("junit: no failure of a changed output with its section, diff and outputs")

# ---- --xfail: the known failures excused, an xpass caught ---------------------------------------
r = conformance("--format", "json", *FEW, "conformance")
few = json.loads(r.stdout)["results"]
failed = [x["file"] for x in few if x["status"] == "fail"]
passed = [x["file"] for x in few if x["status"] == "pass"]
if not failed or not passed:
    fail(f"xfail: want failures and passes among the few, got {len(failed)} and {len(passed)}")
xfail = os.path.join(tmp, "known.txt")
with open(xfail, "w") as f:
    f.write("# known failures of the wrong implementation\n\n" + "\n".join(failed) + "\n")
r = conformance(*FEW, "--xfail", xfail, "--format", "junit", "--output", xml_path + ".json",
                "conformance")
if r.returncode != 0:
    fail(f"xfail: want exit 0 with every failure listed, got {r.returncode}")
suite = ET.fromstring(r.stdout).find("testsuite")
skipped = [c for c in suite.findall("testcase") if c.find("skipped") is not None]
if len(skipped) != len(failed) or int(suite.get("failures")) != 0:
    fail(f"xfail: junit has {len(skipped)} skipped of {len(failed)}, {suite.get('failures')} "
         "failures")
with open(xml_path + ".json") as f:
    statuses = {x["file"]: x["status"] for x in json.load(f)["results"]}
if any(statuses[p] != "xfail" for p in failed) or any(statuses[p] != "pass" for p in passed):
    fail("xfail: the JSON written by --output does not say xfail for the listed, pass for the rest")
r = conformance(*FEW, "--xfail", xfail, "conformance")
if not r.stdout.rstrip().endswith(f"{len(passed)} passed, 0 failed, {len(failed)} expected "
                                  "failures"):
    fail(f"xfail: text summary {r.stdout.rstrip().splitlines()[-1]!r}")
with open(xfail, "a") as f:
    f.write(passed[0] + "\n")
r = conformance(*FEW, "--xfail", xfail, "--format", "json", "conformance")
rep = json.loads(r.stdout)
xpass = [x for x in rep["results"] if x["status"] == "xpass"]
if r.returncode != 1 or [x["file"] for x in xpass] != [passed[0]]:
    fail(f"xpass: want exit 1 and {passed[0]} an xpass, got {r.returncode} {xpass}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"conformance_wrong_impl: caught ({len(programs)} programs, {len(crashes)} crashes, "
      f"{len(failed)} known failures excused, an xpass reported)")
