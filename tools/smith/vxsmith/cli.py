"""`tools/smith/smith`: generate, run differentially, check the race rule, reduce (spec/smith.md)."""

import argparse
import json
import os
import shlex
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

from . import gen, races, reduce as red, run as R
from .fakegpu import FakeGpu, RealGpu

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

_tiers = None
_work = None


def default_vx():
    return os.environ.get("VX", os.path.join(SOURCE, "build", "vx"))


def make_tiers(a, work, objects=None):
    fake = None
    if a.gpu == "real":
        fake = RealGpu(a.vx, work)
    elif a.gpu:
        fake = FakeGpu(a.vx, SOURCE, os.path.dirname(os.path.abspath(a.vx)), os.path.join(work, "harness"))
        if not fake.available():
            if a.gpu == "require":
                sys.exit("smith: the GPU tiers cannot run: %s" % fake.why)
            print("smith: no GPU tiers: %s" % fake.why, file=sys.stderr)
            fake = None
        elif objects:
            fake.objects = dict(objects)
    impl = shlex.split(a.impl) if a.impl else None
    return R.Tiers(a.vx, impl=impl, fake=fake, uir=not a.no_uir)


def _init(a, work, objects=None):
    global _tiers, _work
    _tiers = make_tiers(a, work, objects)
    _work = work


def one_program(seed, gpu_every=1):
    feats = {}
    text = gen.generate(seed, feats)
    path = os.path.join(_work, "s%d.vx" % seed)
    with open(path, "w") as f:
        f.write(text)
    t0 = time.time()
    fake = _tiers.fake
    if fake is not None and seed % gpu_every:
        _tiers.fake = None
    try:
        ref, bad = R.differ(_tiers, path, text)
    finally:
        _tiers.fake = fake
    res = {"seed": seed, "features": feats, "status": ref.status, "seconds": round(time.time() - t0, 2),
           "lines": text.count("\n"), "findings": [{"tier": t, "why": w, "kind": k} for t, w, k in bad]}
    if ref.status == 1:
        res["refused"] = ref.codes()
    if not bad:
        os.remove(path)
    else:
        res["file"] = path
    return res


def one_mutant(seed, vx, races_check=True):
    m = races.any_mutant(seed)
    text = m.text()
    truth = m.truth()
    res = {"seed": seed, "class": m.klass, "note": m.note}
    if truth == "refuse":
        path = os.path.join(_work, "m%d.vx" % seed)
        with open(path, "w") as f:
            f.write(text)
        r = R.run([vx, "check", path])
        res["codes"] = r.codes()
        if r.status == 1 and r.codes():
            res["verdict"] = "refused"
            os.remove(path)
        else:
            res["verdict"] = "wrongly-accepted" if r.status == 0 else "invalid"
            res["why"] = "vx check status %s %s" % (r.status, r.err.strip()[:300])
            res["file"] = path
        return res
    if truth is None:
        res["verdict"] = "too-big"
        return res
    collides, witness, oob = truth
    path = os.path.join(_work, "m%d.vx" % seed)
    with open(path, "w") as f:
        f.write(text)
    r = R.run([vx, "check", path])
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
    # the oracle against vx's own recorder (never the judge): a collision it finds, run unchecked
    # (a collision it finds must stop the run; a collision-free mutant must run clean)
    if races_check and not oob and res["verdict"] != "invalid":
        rr = R.run([vx, "run", "--offload=off", "--check-races", "--unchecked-kernels", path])
        res["check_races"] = "collision" if rr.status == 101 and "data race" in rr.err else (
            "clean" if rr.status == 0 else "status %s" % rr.status)
    expected = "collision" if collides else "clean"
    if res["verdict"] in ("proved", "refused", "imprecise") and res.get("check_races", expected) == expected:
        os.remove(path)
    else:
        res["file"] = path
    return res


def append_finding(path, title, body):
    if not path:
        return
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "a") as f:
        f.write("\n## %s\n\n%s\n" % (title, body))


def reduce_program(a, tiers, res):
    """Shrink a failing generated program to one with the same signature."""
    with open(res["file"]) as f:
        text = f.read()
    want = sorted((x["tier"], x["kind"]) for x in res["findings"])
    tmp = res["file"].replace(".vx", ".red.vx")

    def keep(cand):
        with open(tmp, "w") as f:
            f.write(cand)
        if [t for t, _ in want] == ["reference"]:
            ref = tiers.reference(tmp)
            return ref.status == res["status"] and (res["status"] != 1 or ref.codes() == res.get("refused"))
        ref, bad = R.differ(tiers, tmp, cand, only=set(t for t, _ in want))
        return sorted((t, k) for t, _, k in bad) == want

    tries = a.reduce_tries
    if any(t.startswith("offload") for t, _ in want):
        tries = min(tries, 80)  # each try of a GPU tier builds its kernels (seconds)
    small = red.reduce(text, keep, max_tries=tries)
    out = res["file"].replace(".vx", ".min.vx")
    with open(out, "w") as f:
        f.write(small)
    return out, small


def reduce_mutant(a, res):
    with open(res["file"]) as f:
        text = f.read()
    return res["file"], text  # mutants are one store: already small


def feature_table(counts, programs):
    lines = ["%-40s %8s %8s" % ("feature", "count", "per prog")]
    for k in sorted(counts):
        lines.append("%-40s %8d %8.2f" % (k, counts[k], counts[k] / max(1, programs)))
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(prog="smith", description=__doc__)
    p.add_argument("--seed", type=int, default=0, help="the first seed")
    p.add_argument("--count", type=int, help="run this many programs (seeds SEED, SEED+1, …) on every tier")
    p.add_argument("--mutants", action="store_true", help="run race mutants through vx check instead")
    p.add_argument("--vx", default=default_vx(), help="the vx binary (default build/vx or $VX)")
    p.add_argument("--impl", help="another implementation, e.g. 'their-vx run {file}' (split into words)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    p.add_argument("--gpu", choices=["auto", "require", "real"], default=None,
                   help="also run --offload=verify and --offload=gpu through the stand-in driver "
                        "(real: on this machine's GPU)")
    p.add_argument("--gpu-every", type=int, default=1, help="GPU tiers on every N-th seed only")
    p.add_argument("--no-uir", action="store_true", help="skip the vx lower --to=uir --run tier")
    p.add_argument("--reduce", action="store_true", help="shrink every finding")
    p.add_argument("--reduce-tries", type=int, default=400)
    p.add_argument("--reduce-seen", help="a JSON file of the signatures already reduced (kept up to date)")
    p.add_argument("--findings", help="append findings (reduced programs, commands) to this Markdown file")
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--work", help="keep programs here (default: a temporary directory)")
    p.add_argument("--features", action="store_true", help="print the feature table")
    p.add_argument("--quiet", "-q", action="store_true")
    p.add_argument("--minutes", type=float, help="with --count: stop starting programs after this long")
    a = p.parse_args(argv)
    a.vx = os.path.abspath(a.vx)
    if a.impl and a.count is None:
        a.count = 100
    if a.count is None and not a.mutants:
        sys.stdout.write(gen.generate(a.seed))
        return 0
    if a.count is None:
        sys.stdout.write(races.any_mutant(a.seed).text())
        return 0
    if not os.path.exists(a.vx):
        sys.exit("smith: no vx at %s (build it: ninja -C build vx)" % a.vx)
    work = a.work or tempfile.mkdtemp(prefix="smith-")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    results = run_batch(a, work, t0)
    summary = summarise(a, results, time.time() - t0)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)
    if not a.work and not summary["failures"]:
        shutil.rmtree(work, ignore_errors=True)  # a temporary directory with nothing to look at
    return 1 if summary["failures"] else 0


def run_batch(a, work, t0):
    seeds = range(a.seed, a.seed + a.count)
    out = []
    objects = None
    if a.gpu and not a.mutants:
        # the stand-in GPU's kernels of every program that gets the GPU tiers, built at once
        tiers = make_tiers(a, work)
        if tiers.fake is not None:
            paths = []
            for s in seeds:
                if s % a.gpu_every == 0:
                    path = os.path.join(work, "s%d.vx" % s)
                    with open(path, "w") as f:
                        f.write(gen.generate(s))
                    paths.append(path)
            t = time.time()
            tiers.fake.prebuild(paths, parts=max(1, min(a.jobs, (len(paths) + 7) // 8)))
            if not a.quiet:
                print("smith: the stand-in GPU's kernels of %d programs built in %.0f s" % (len(paths), time.time() - t),
                      file=sys.stderr)
            objects = tiers.fake.objects
    with ProcessPoolExecutor(a.jobs, initializer=_init, initargs=(a, work, objects)) as ex:
        if a.mutants:
            futs = [ex.submit(one_mutant, s, a.vx) for s in seeds]
        else:
            futs = [ex.submit(one_program, s, a.gpu_every) for s in seeds]
        for f in futs:
            if a.minutes and time.time() - t0 > a.minutes * 60:
                for g in futs:
                    g.cancel()
            try:
                r = f.result()
            except Exception as x:  # a cancelled one, or a bug of smith itself
                if f.cancelled():
                    continue
                r = {"seed": -1, "error": repr(x), "findings": [{"tier": "smith", "why": repr(x)}]}
            out.append(r)
            if not a.quiet and (r.get("findings") or r.get("verdict") in ("unsound", "invalid")):
                print("smith: seed %s: %s" % (r["seed"], json.dumps(
                    r.get("findings") or {k: r.get(k) for k in ("verdict", "class", "note", "witness", "why")})),
                    file=sys.stderr)
    return out


def summarise(a, results, seconds):
    s = {"command": " ".join(sys.argv), "seconds": round(seconds, 1), "vx": a.vx}
    failures = []
    if a.mutants:
        verdicts = {}
        per_class = {}
        for r in results:
            v = r.get("verdict", "error")
            verdicts[v] = verdicts.get(v, 0) + 1
            c = per_class.setdefault(r.get("class", "?"), {})
            c[v] = c.get(v, 0) + 1
            expected = "collision" if r.get("collides") else "clean"
            if v in ("unsound", "invalid", "error", "wrongly-accepted") or r.get("check_races", expected) != expected:
                failures.append(r)
        free = verdicts.get("proved", 0) + verdicts.get("imprecise", 0)
        s.update({"mutants": len(results), "verdicts": verdicts, "classes": per_class,
                  "precision": round(verdicts.get("proved", 0) / free, 4) if free else None})
        for r in failures:
            if r.get("file"):
                with open(r["file"]) as f:
                    r["program"] = f.read()
                kind = "soundness: vx check accepts a collision" if r.get("verdict") == "unsound" else (
                    "vx accepts a program that breaks a rule" if r.get("verdict") == "wrongly-accepted" else
                    "mutant refused with another code" if r.get("verdict") == "invalid" else
                    "the oracle (collision: %s) and --check-races (%s) disagree" % (r.get("collides"), r.get("check_races")))
                append_finding(a.findings, "race mutant %d (%s): %s" % (r["seed"], r.get("class"), kind),
                               "%s\n\n`tools/smith/smith --mutants --seed %d > m.vx; vx check m.vx`\n\n```\n%s```" % (
                                   r.get("witness") or r.get("why", ""), r["seed"], r["program"]))
        if not a.quiet:
            print("mutants: %d in %.0f s; verdicts %s; precision (collision-free proved) %s" % (
                len(results), seconds, json.dumps(verdicts), s["precision"]))
            for k in sorted(per_class):
                print("  %-16s %s" % (k, json.dumps(per_class[k])))
    else:
        feats = {}
        statuses = {}
        for r in results:
            for k, v in r.get("features", {}).items():
                feats[k] = feats.get(k, 0) + v
            statuses[str(r.get("status"))] = statuses.get(str(r.get("status")), 0) + 1
            if r.get("findings"):
                failures.append(r)
        red_dir = tempfile.mkdtemp(prefix="smith-red-") if a.reduce and failures else None
        tiers = make_tiers(a, red_dir) if red_dir else None
        reduced = set()
        if a.reduce_seen and os.path.exists(a.reduce_seen):
            with open(a.reduce_seen) as f:
                reduced = set(tuple(tuple(x) for x in sig) for sig in json.load(f))
        for r in failures:
            title = "program seed %s: %s" % (r["seed"], ", ".join(x["tier"] for x in r["findings"]))
            body = "\n".join("- %s: %s" % (x["tier"], x["why"]) for x in r["findings"])
            cmd = "`tools/smith/smith --seed %s > p.vx`, then the tiers above (`tools/smith/smith --seed %s --count 1 -j1`)" % (
                r["seed"], r["seed"])
            prog = ""
            sig = tuple(sorted((x["tier"], x["kind"]) for x in r["findings"]))
            if tiers and r.get("file") and sig not in reduced:
                reduced.add(sig)  # one reduction per signature and batch
                try:
                    path, small = reduce_program(a, tiers, r)
                    r["reduced"] = path
                    prog = "\n\nReduced (%d lines, %s):\n\n```\n%s```" % (small.count("\n"), path, small)
                except Exception as x:
                    prog = "\n\n(reducer failed: %r)" % x
            append_finding(a.findings, title, body + "\n\n" + cmd + prog)
        if red_dir:
            shutil.rmtree(red_dir, ignore_errors=True)
        if a.reduce_seen:
            with open(a.reduce_seen, "w") as f:
                json.dump(sorted(reduced), f)
        s.update({"programs": len(results), "statuses": statuses, "features": feats})
        if not a.quiet or a.features:
            print("programs: %d in %.0f s; exit statuses %s; %d with findings" % (
                len(results), seconds, json.dumps(statuses), len(failures)))
        if a.features:
            print(feature_table(feats, len(results)))
    s["failures"] = failures
    return s
