"""`tools/smith/smith`: generate Vx programs, run them on every tier of vx (and on another
implementation), check the kernel rules against a race oracle, reduce what differs
(spec/smith.md)."""

import argparse
import json
import os
import shlex
import shutil
import signal
import sys
import tempfile
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, wait

from . import ending, gen, notes, races, reduce as red, report as rpt, results, run as R
from .fakegpu import FakeGpu, RealGpu
from .progress import Progress, plural

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


class SetupError(Exception):
    """A tier that was asked for cannot run (no stand-in GPU driver, no vx)."""


def default_vx():
    return os.environ.get("VX", os.path.join(SOURCE, "build", "vx"))


def config_of(a):
    c = rpt.config_of(a.vx, a.impl, a.gpu, a.gpu_every, not a.no_uir)
    c["nvrtc"] = not getattr(a, "no_nvrtc", False)  # in every report: whether the tier ran
    return c


def make_tiers(config, work, objects=None, announce=True):
    if not os.path.exists(config["vx"]):
        raise SetupError("no vx at %s (build it: ninja -C build vx; on a cluster, vx and tools/smith must "
                         "be at the same paths on every worker)" % config["vx"])
    fake = None
    if config["gpu"] == "real":
        fake = RealGpu(config["vx"], work)
    elif config["gpu"]:
        fake = FakeGpu(config["vx"], SOURCE, os.path.dirname(config["vx"]), os.path.join(work, "harness"))
        if not fake.available():
            if config["gpu"] == "require":
                raise SetupError("the GPU tiers cannot run: %s" % fake.why)
            if announce:
                print("smith: no GPU tiers: %s" % fake.why, file=sys.stderr)
            fake = None
        elif objects:
            fake.objects = dict(objects)
    impl = shlex.split(config["impl"]) if config["impl"] else None
    return R.Tiers(config["vx"], impl=impl, fake=fake, uir=config["uir"], nvrtc=config.get("nvrtc", True))


def _scrub(text, work):
    """Paths in the temporary folder as the results folder's names (a finding's text must not
    depend on where it ran)."""
    return text.replace(work.rstrip(os.sep) + os.sep, "") if isinstance(text, str) else text


def one_program(seed, tiers, work, gpu_every=1):
    feats = {}
    text = gen.generate(seed, feats)
    path = os.path.join(work, "program-%d.vx" % seed)
    with open(path, "w") as f:
        f.write(text)
    fake = tiers.fake
    if fake is not None and seed % gpu_every:
        tiers.fake = None
    try:
        ref, bad = R.differ(tiers, path, text)
    finally:
        tiers.fake = fake
    res = {"seed": seed, "features": feats, "status": ref.status,
           "findings": [{"tier": t, "why": _scrub(w, work), "kind": k} for t, w, k in bad]}
    if ref.status == 1:
        res["refused"] = ref.codes()
    if bad:
        res["program"] = text
    os.remove(path)
    return res


def one_mutant(seed, vx, work, races_check=True):
    m = races.any_mutant(seed)
    text = m.text()
    truth = m.truth()
    res = {"seed": seed, "class": m.klass, "note": m.note}
    if truth is None:
        res["verdict"] = "too-big"
        return res
    path = os.path.join(work, "mutant-%d.vx" % seed)
    with open(path, "w") as f:
        f.write(text)
    try:
        r = R.run([vx, "check", path])
        res["codes"] = r.codes()
        if truth == "refuse":
            _judge_refusal(res, m, r, vx, work)
        else:
            _judge_mutant(res, truth, r, vx, path, races_check)
            _judge_notes(res, m, r)
        if rpt.mutant_finding(res):
            res["program"] = text
        for k in ("why",):
            if k in res:
                res[k] = _scrub(res[k], work)
    finally:
        os.remove(path)
    return res


def _judge_refusal(res, m, r, vx, work):
    """A program that must be refused: with its family's code (`m.expect`; any code without one),
    and its control (`m.control()`: the same program where the call has two tensors), where it
    has one, accepted."""
    expect = getattr(m, "expect", None)
    if r.status == 1 and r.codes() and expect in r.codes() + [None]:
        res["verdict"] = "refused"
        control = m.control() if hasattr(m, "control") else None
        if control:
            cpath = os.path.join(work, "mutant-%d.control.vx" % res["seed"])
            with open(cpath, "w") as f:
                f.write(control)
            try:
                c = R.run([vx, "check", cpath])
            finally:
                os.remove(cpath)
            if c.status != 0:
                res["verdict"] = "invalid"
                res["why"] = "its control, which must be accepted, is not (status %s): %s\n\n%s" % (
                    c.status, c.err.strip()[:300], control)
    elif r.status == 1 and r.codes():
        res["verdict"] = "invalid"
        res["why"] = "refused with %s, not %s: %s" % (", ".join(r.codes()), expect, r.err.strip()[:300])
    else:
        res["verdict"] = "wrongly-accepted" if r.status == 0 else "invalid"
        res["why"] = "vx check status %s %s" % (r.status, r.err.strip()[:300])


def _judge_mutant(res, truth, r, vx, path, races_check):
    collides, witness, oob = truth
    res["collides"] = collides
    res["oob"] = oob
    if witness:
        res["witness"] = "%s: passes %s and %s touch element %s" % witness
    if r.status == 0:
        res["verdict"] = "unsound" if collides else "proved"
    elif r.status == 1 and r.codes() == ["E6032"]:
        res["verdict"] = "refused" if collides else "imprecise"
    else:
        res["verdict"] = "invalid"
        res["why"] = r.err.strip()[:400]
    # the oracle against vx's own recorder (never the judge): a collision it finds must stop the
    # run unchecked; a collision-free mutant must run clean
    if races_check and not oob and res["verdict"] != "invalid":
        rr = R.run([vx, "run", "--offload=off", "--check-races", "--unchecked-kernels", path])
        res["check_races"] = "collision" if rr.status == 101 and "data race" in rr.err else (
            "clean" if rr.status == 0 else "status %s" % rr.status)


def _judge_notes(res, m, r):
    """Every collision note of a refusal must be true (spec/kernel-rules.md §4): the passes it
    names get to the accesses and reach the element, by the oracle's model (notes.py)."""
    if r.status != 1:
        return
    for note in notes.collision_notes(r.err):
        ok = notes.note_holds(m, note)
        if ok is None:
            continue
        res["notes_checked"] = res.get("notes_checked", 0) + 1
        if not ok:
            res["verdict"] = "false-note"
            res["why"] = "the note is not true of the program: %s" % note
            return


def reduce_finding(config, finding, tries=400, seconds=300):
    """Shrink a finding's program to one with the same signature: the same tiers differ from the
    reference in the same way (for a program vx refuses or crashes on: the same status and
    codes). Returns the reduced program, its size, the tries, and what its tiers say; or, when
    smith itself fails, the error (the finding stays, unreduced)."""
    work = tempfile.mkdtemp(prefix="smith-reduce-")
    try:
        return _reduce_in(work, config, finding, tries, seconds)
    except Exception:
        return {"error": traceback.format_exc()}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _reduce_in(work, config, finding, tries, seconds):
    tiers = make_tiers(config, work, announce=False)
    want = [tuple(s) for s in finding["signature"]]
    only = set(t for t, _ in want)
    path = os.path.join(work, "program-%d.min.vx" % finding["seed"])

    def keep(cand):
        with open(path, "w") as f:
            f.write(cand)
        if only == {"reference"}:
            ref = tiers.reference(path)
            return ref.status == finding["status"] and (ref.status != 1 or ref.codes() == finding.get("refused"))
        _, bad = R.differ(tiers, path, cand, only=only)
        return sorted((t, k) for t, _, k in bad) == want

    if any(t.startswith("offload") for t in only):
        tries = min(tries, 80)  # each try of a GPU tier builds its kernels (seconds)
    stats = {}
    small = red.reduce(finding["program"], keep, max_tries=tries, seconds=seconds, stats=stats)
    with open(path, "w") as f:
        f.write(small)
    ref, bad = R.differ(tiers, path, small, only=only)
    return {"program": small, "lines": small.count("\n"), "file": os.path.basename(path),
            "tries": stats["tries"], "stopped": stats["stopped"],
            "tiers": [{"tier": t, "why": _scrub(w, work), "kind": k} for t, w, k in bad]}


# One process of `smith --count -j J`: its tiers and folder, set once by the pool's initializer.
_tiers = None
_work = None


def _init(config, work, objects=None):
    global _tiers, _work
    _tiers = make_tiers(config, work, objects, announce=False)
    _work = work


def _run_pool(jobs, calls, on_result, init=None, initargs=(), more=None, tick=None):
    """Run each `(key, fn, args)` of `calls` in `jobs` processes, and give `on_result(key, result)`
    each result as it comes, in smith's own process. At most two calls a process are queued at a
    time, and none once `more()` says no (the --minutes deadline); `tick()` is called at least every
    half second (the progress line). SIGTERM and SIGINT end it as ending.py says."""
    with ending.Noted() as noted:
        ex, stop = ending.pool(jobs, init, initargs)
        pending = {}
        todo = iter(calls)
        try:
            while noted.signum is None:
                if more is not None and not more():
                    todo = iter(())
                    pending = {f: k for f, k in pending.items() if not f.cancel()}
                while len(pending) < 2 * jobs:
                    call = next(todo, None)
                    if call is None:
                        break
                    key, fn, args = call
                    pending[ex.submit(ending.in_pool, fn, *args)] = key
                if not pending:
                    break
                done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for f in done:
                    key = pending.pop(f)
                    try:
                        r = f.result()
                    except ending.Stopped as x:  # a process was ended: so is smith
                        noted.note(x.args[0])
                        break
                    on_result(key, r)
                if tick is not None:
                    tick()
        finally:
            if noted.signum is not None:
                stop.set()
            ex.shutdown(wait=True, cancel_futures=True)
    noted.end()


def guarded(kind, seed, tiers, work, gpu_every=1):
    """One seed's result; an exception of smith itself is a finding of the tier `smith` (with its
    traceback), not the end of the run."""
    try:
        if kind == "mutants":
            return one_mutant(seed, tiers.vx, work)
        return one_program(seed, tiers, work, gpu_every)
    except Exception:
        why = traceback.format_exc()
        if kind == "mutants":
            return {"seed": seed, "verdict": "error", "why": why}
        return {"seed": seed, "status": "error", "features": {}, "program": gen.generate(seed),
                "findings": [{"tier": "smith", "why": why, "kind": "error"}]}


def _pool_seed(kind, seed, gpu_every):
    return guarded(kind, seed, _tiers, _work, gpu_every)


def add_common_options(p):
    """The options that smith and the campaign share."""
    p.add_argument("--vx", default=default_vx(), help="the vx binary (default: build/vx, or $VX)")
    p.add_argument("--impl", help="also run another implementation: a command with {file}, split into words "
                                  "without a shell, e.g. 'their-vx run {file}'")
    p.add_argument("--gpu", choices=["auto", "require", "real"], default=None,
                   help="also the tiers --offload=verify and --offload=gpu, through the stand-in CUDA driver "
                        "(auto: when it can run; require: fail when it cannot; real: this machine's GPU)")
    p.add_argument("--gpu-every", type=int, default=1, metavar="K", help="the GPU tiers on every K-th seed only")
    p.add_argument("--no-uir", action="store_true", help="skip the `vx lower --to=uir --run` tier")
    p.add_argument("--no-nvrtc", action="store_true",
                   help="skip the NVRTC tier (`vx emit-cuda --cubin` for sm_80 and sm_90 of every program)")
    p.add_argument("--results", metavar="DIR",
                   help="the results folder: the report, each finding's program, reduced program and "
                        "the commands that reproduce it (default ./smith-results)")
    p.add_argument("--json", metavar="FILE", help="write the report here (default DIR/report.json)")
    p.add_argument("--findings", metavar="FILE", help="write the findings as Markdown here "
                                                      "(default DIR/findings.md)")
    p.add_argument("--reduce-tries", type=int, default=400, metavar="N",
                   help="at most N runs of the tiers to reduce one finding (default 400)")
    p.add_argument("--reduce-seconds", type=float, default=300, metavar="S",
                   help="and at most S seconds (default 300; the tries bound keeps the result deterministic)")
    p.add_argument("--features", action="store_true", help="print the feature table (before the summary)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress and no line per finding")
    p.add_argument("--progress-every", type=float, default=30, metavar="S",
                   help="when stderr is not a terminal, a progress line at least every S seconds "
                        "(and at every tenth of the run); on a terminal one line kept up to date")


def parser():
    p = argparse.ArgumentParser(prog="smith", description=__doc__,
                                epilog="Print program N: smith --seed N. Run them: smith --seed N --count C. "
                                       "A long or distributed run: tools/smith/campaign.")
    p.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    p.add_argument("--count", type=int, metavar="C",
                   help="run C programs (seeds SEED … SEED+C-1) on every tier; without it, print program SEED")
    p.add_argument("--mutants", action="store_true", help="race mutants through vx check instead of programs")
    p.add_argument("--file", metavar="F.vx",
                   help="run this program on the reference and the tiers (--tiers) and show what differs; "
                        "exit status 1 when a tier differs (a finding's reproduce command)")
    p.add_argument("--tiers", metavar="A,B", help="with --file: only these tiers (e.g. impl,threads=2)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="processes (default: the CPUs)")
    p.add_argument("--reduce", action="store_true",
                   help="shrink one finding of each signature (the lowest seed's) to a small program")
    p.add_argument("--work", metavar="DIR",
                   help="write the programs here, and the results in DIR/results (default: a temporary "
                        "folder, removed at the end)")
    p.add_argument("--minutes", type=float, help="with --count: start no program after this many minutes")
    p.add_argument("--generate-only", action="store_true",
                   help="with --count: only generate the programs (no vx) and give their feature table "
                        "(--features, --json)")
    add_common_options(p)
    return p


def _terminated(signum, _frame):
    """SIGTERM (`timeout`, a CI job cancelled) ends smith as Ctrl-C does: through the `finally`s
    that remove its temporary folders. Without it a run of 100,000 programs that `timeout` ended
    left them all in /tmp."""
    raise SystemExit(128 + signum)


@ending.main_of("smith")
def main(argv=None):
    signal.signal(signal.SIGTERM, _terminated)
    a = parser().parse_args(argv)
    a.vx = os.path.abspath(a.vx)
    if a.impl and a.count is None and not a.file:
        a.count = 100
    try:
        if a.file:
            return check_file(a)
        if a.count is None:
            sys.stdout.write(races.any_mutant(a.seed).text() if a.mutants else gen.generate(a.seed))
            return 0
        if a.generate_only:
            return generate_only(a)
        return run_count(a)
    except SetupError as x:
        sys.exit("smith: %s" % x)


def generate_only(a):
    """The feature table of seeds SEED … SEED+C-1 without running them (tests/smith_kinds_test.py):
    the programs' features, and the seeds whose device code kinds.py could not read."""
    t0 = time.time()
    feats, unread = {}, []
    for s in range(a.seed, a.seed + a.count):
        one = {}
        gen.generate(s, one)
        if one.pop("kind_parse_error", 0):
            unread.append(s)
        for k, v in one.items():
            feats[k] = feats.get(k, 0) + v
    out = {"command": shlex.join(sys.argv), "seconds": round(time.time() - t0, 1), "seed": a.seed,
           "programs": a.count, "features": feats, "kind_parse_errors": unread}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
    if a.features:
        print(rpt.feature_table(feats, a.count))
    if not a.quiet or a.features:
        print("programs: %d generated in %.1f s; device code kinds.py cannot read: %s" % (
            a.count, out["seconds"], ", ".join(map(str, unread)) or "none"))
    return 1 if unread else 0


def check_file(a):
    work = tempfile.mkdtemp(prefix="smith-file-")
    try:
        tiers = make_tiers(config_of(a), work)
        with open(a.file) as f:
            text = f.read()
        only = set(a.tiers.split(",")) if a.tiers else None
        path = os.path.abspath(a.file)
        names = [name for name, _, _ in tiers.others(path, text)]
        unknown = sorted((only or set()) - set(names))
        if unknown:  # a tier that does not run here would pass without running
            print("smith: %s: no tier %s here; the tiers for this program are %s" % (
                a.file, ", ".join(unknown), ", ".join(names)), file=sys.stderr)
            return 2
        ref, bad = R.differ(tiers, path, text, only=only)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for t, why, kind in bad:
        print("smith: %s: %s differs (%s): %s" % (a.file, t, kind, why))
    if not bad:
        print("smith: %s: %s agree with the reference (status %s)" % (
            a.file, ", ".join(sorted(only)) if only else "every tier", ref.status))
    return 1 if bad else 0


def run_count(a):
    t0 = time.time()
    config = config_of(a)
    work = a.work or tempfile.mkdtemp(prefix="smith-")
    os.makedirs(work, exist_ok=True)
    progress = Progress("mutants" if a.mutants else "programs", total=a.count,
                        deadline=t0 + a.minutes * 60 if a.minutes else None, quiet=a.quiet,
                        every_seconds=a.progress_every)
    try:
        found = run_batch(a, config, work, t0, progress)
        rep = rpt.build(config, mutants=found) if a.mutants else rpt.build(config, programs=found)
        if a.reduce:
            reduce_all(a, config, rep, progress)
    finally:
        progress.close()
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    return finish(a, rep, t0, os.path.join(a.work, "results") if a.work else None)


def reduce_all(a, config, rep, progress, submit=None):
    """Reduce one finding per signature, in a pool of --jobs processes, or by `submit(fn, [args,
    …])` (a campaign's pool: its processes or its Dask cluster)."""
    todo = rpt.to_reduce(rep)
    if not todo:
        return
    progress.note("smith: reducing %s" % plural(len(todo), "finding"))
    if submit is None:
        reduced = [None] * len(todo)
        _run_pool(min(a.jobs, len(todo)),
                  ((k, reduce_finding, (config, f, a.reduce_tries, a.reduce_seconds)) for k, f in enumerate(todo)),
                  reduced.__setitem__)
    else:
        reduced = submit(reduce_finding, [(config, f, a.reduce_tries, a.reduce_seconds) for f in todo])
    for f, r in zip(todo, reduced):
        if "error" in r:
            f["reduce_error"] = r["error"]
            progress.note("smith: the reducer failed on seed %d: %s" % (f["seed"], r["error"].splitlines()[-1]))
            continue
        f["reduced"] = r
        progress.note("smith: seed %d reduced to %s in %d tries" % (f["seed"], plural(r["lines"], "line"),
                                                                  r["tries"]))


def finish(a, rep, t0, default_results=None):
    """Write the results, then print the feature table and the summary, last."""
    rep["run"].update({"command": shlex.join(sys.argv), "wall_seconds": round(time.time() - t0, 1)})
    written = []
    if rep["failures"] or a.results:
        folder = a.results or default_results or os.path.join(os.getcwd(), "smith-results")
        written = results.write(rep, folder, a.json, a.findings)
    elif a.json:
        results.write_json(rep, a.json)
    seconds = time.time() - t0
    where = "; %s" % written[-1] if written else ""
    if a.features:
        print(rpt.feature_table(rep["features"], rep["programs"]))
    if not a.quiet or a.features:
        if rep["mutants"] or a.mutants:
            for k in sorted(rep["classes"]):
                print("  %-16s %s" % (k, json.dumps(rep["classes"][k])))
            print("mutants: %d in %.0f s; verdicts %s; precision (collision-free proved) %s; %s%s" % (
                rep["mutants"], seconds, json.dumps(rep["verdicts"]), rep["precision"],
                plural(len(rep["failures"]), "finding"), where))
        else:
            sigs = rpt.signatures(rep)
            print("programs: %d in %.0f s; exit statuses %s; %d with findings%s%s" % (
                rep["programs"], seconds, json.dumps(rep["statuses"]), len(rep["failures"]),
                " (%s)" % plural(len(sigs), "distinct signature") if sigs else "", where))
    return 1 if rep["failures"] else 0


def run_batch(a, config, work, t0, progress):
    seeds = range(a.seed, a.seed + a.count)
    out = []
    objects = None
    tiers = make_tiers(config, work)  # fails here when vx or a required tier is missing
    if a.gpu and not a.mutants:
        # the stand-in GPU's kernels of every program that gets the GPU tiers, built at once
        if tiers.fake is not None:
            paths = []
            for s in seeds:
                if s % a.gpu_every == 0:
                    path = os.path.join(work, "program-%d.vx" % s)
                    with open(path, "w") as f:
                        f.write(gen.generate(s))
                    paths.append(path)
            t = time.time()
            tiers.fake.prebuild(paths, parts=max(1, min(a.jobs, (len(paths) + 7) // 8)))
            progress.note("smith: the stand-in GPU's kernels of %d programs built in %.0f s" % (
                len(paths), time.time() - t))
            objects = tiers.fake.objects
    kind = "mutants" if a.mutants else "programs"

    def got(_seed, r):
        out.append(r)
        found = rpt.mutant_finding(r) if a.mutants else rpt.program_finding(r)
        if found:
            progress.found(rpt.finding_line(found), rpt.finding_key(found))

    _run_pool(a.jobs, ((s, _pool_seed, (kind, s, a.gpu_every)) for s in seeds), got, _init, (config, work, objects),
              more=(lambda: time.time() - t0 <= a.minutes * 60) if a.minutes else None,
              tick=lambda: progress.update(len(out)))
    return out
