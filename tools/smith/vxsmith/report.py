"""The report of a run: counts, the feature table, every finding (spec/smith.md §7).

One format for `smith --count`, a campaign, a shard of one and the merge of shards: a report is
built from the results of single seeds (`build`), and reports of disjoint seed ranges add up
(`merge`). Everything but the key `run` depends only on the seeds and the configuration (sorted
keys, findings in seed order, no times), so a campaign on one process, on a Dask cluster of any
size, or as batch jobs merged afterwards writes the same report; `canonical` is that part.
"""

import json

from .progress import plural

FORMAT = "vx-smith-report/1"
# a finding's keys that depend on where the results were written, not on the seeds
_PLACE_KEYS = ("reproduce",)


def config_of(vx, impl=None, gpu=None, gpu_every=1, uir=True):
    """What decides a seed's outcome besides the seed: the same in every part of a campaign."""
    return {"vx": vx, "impl": impl, "gpu": gpu, "gpu_every": gpu_every if gpu else None, "uir": uir}


def signature(finding):
    return [list(x) for x in sorted({(t["tier"], t["kind"]) for t in finding["tiers"]})]


def program_finding(r):
    """The finding of one program's result, or None."""
    if not r.get("findings"):
        return None
    f = {"kind": "program", "seed": r["seed"], "status": r.get("status"), "tiers": r["findings"],
         "program": r.get("program", ""), "file": "program-%d.vx" % r["seed"]}
    f["signature"] = signature(f)
    if "refused" in r:
        f["refused"] = r["refused"]
    return f


def mutant_finding(r):
    v = r.get("verdict", "error")
    expected = "collision" if r.get("collides") else "clean"
    if v not in ("unsound", "invalid", "error", "wrongly-accepted", "false-note") and \
            r.get("check_races", expected) == expected:
        return None
    f = {k: r[k] for k in ("seed", "class", "note", "verdict", "codes", "collides", "oob", "witness", "why",
                           "check_races", "program") if k in r}
    f.update({"kind": "mutant", "verdict": v, "file": "mutant-%d.vx" % r["seed"]})
    return f


def seed_ranges(seeds):
    """[[first, end), …] of a set of seeds, coalesced."""
    out = []
    for s in sorted(seeds):
        if out and out[-1][1] == s:
            out[-1][1] = s + 1
        else:
            out.append([s, s + 1])
    return out


def _add(into, counts):
    for k, v in counts.items():
        into[k] = into.get(k, 0) + v


def _finish(rep):
    """Derived fields and the order of findings: the same however the parts were combined."""
    v = rep["verdicts"]
    free = v.get("proved", 0) + v.get("imprecise", 0)
    rep["precision"] = round(v.get("proved", 0) / free, 4) if free else None
    rep["failures"].sort(key=lambda f: (f["kind"] != "program", f["seed"]))
    # one reduction per signature: the program of the lowest seed (the one a single process
    # reduces; a part of a campaign reduces its own lowest, which the merge may drop)
    seen = set()
    for f in rep["failures"]:
        if f["kind"] != "program":
            continue
        sig = json.dumps(f["signature"])
        if sig in seen:
            f.pop("reduced", None)
            f.pop("reduce_error", None)
        seen.add(sig)
    for key in ("features", "statuses", "verdicts", "classes"):
        rep[key] = dict(sorted(rep[key].items()))
    for c in rep["classes"]:
        rep["classes"][c] = dict(sorted(rep["classes"][c].items()))
    return rep


def build(config, programs=(), mutants=(), run=None):
    """The report of the results of single seeds (cli.one_program, cli.one_mutant)."""
    rep = {"format": FORMAT, "config": config,
           "seeds": {"programs": seed_ranges(r["seed"] for r in programs),
                     "mutants": seed_ranges(r["seed"] for r in mutants)},
           "programs": len(programs), "mutants": len(mutants),
           "statuses": {}, "features": {}, "verdicts": {}, "classes": {}, "failures": [],
           "run": run or {}}
    for r in programs:
        _add(rep["features"], r.get("features", {}))
        _add(rep["statuses"], {str(r.get("status")): 1})
        f = program_finding(r)
        if f:
            rep["failures"].append(f)
    for r in mutants:
        v = r.get("verdict", "error")
        _add(rep["verdicts"], {v: 1})
        if r.get("notes_checked"):
            _add(rep["features"], {"collision notes checked": r["notes_checked"]})
        _add(rep["classes"].setdefault(r.get("class", "?"), {}), {v: 1})
        f = mutant_finding(r)
        if f:
            rep["failures"].append(f)
    return _finish(rep)


class MergeError(Exception):
    pass


def merge(reports, run=None):
    """The report of the union of disjoint seed ranges."""
    if not reports:
        raise MergeError("nothing to merge")
    for r in reports:
        if r.get("format") != FORMAT:
            raise MergeError("not a smith report (format %r)" % r.get("format"))
    configs = {json.dumps(r["config"], sort_keys=True) for r in reports}
    if len(configs) > 1:
        raise MergeError("the parts ran different configurations: %s" % "; ".join(sorted(configs)))
    rep = {"format": FORMAT, "config": reports[0]["config"], "seeds": {}, "programs": 0, "mutants": 0,
           "statuses": {}, "features": {}, "verdicts": {}, "classes": {}, "failures": [],
           "run": run if run is not None else {}}
    for kind in ("programs", "mutants"):
        spans = sorted(s for r in reports for s in r["seeds"][kind])
        for a, b in zip(spans, spans[1:]):
            if b[0] < a[1]:
                raise MergeError("%s seeds %d-%d are in two parts" % (kind, b[0], min(a[1], b[1]) - 1))
        rep["seeds"][kind] = seed_ranges(s for a, b in spans for s in range(a, b)) if spans else []
    for r in reports:
        rep["programs"] += r["programs"]
        rep["mutants"] += r["mutants"]
        for key in ("statuses", "features", "verdicts"):
            _add(rep[key], r[key])
        for c, vs in r["classes"].items():
            _add(rep["classes"].setdefault(c, {}), vs)
        rep["failures"] += [dict(f) for f in r["failures"]]
    return _finish(rep)


def canonical(rep):
    """The part of a report that the seeds and the configuration decide."""
    out = {k: v for k, v in rep.items() if k != "run"}
    out["failures"] = [{k: v for k, v in f.items() if k not in _PLACE_KEYS} for f in rep["failures"]]
    return out


def to_reduce(rep):
    """The findings that a reduction should shrink: per signature, the lowest seed's."""
    seen, out = set(), []
    for f in rep["failures"]:
        sig = json.dumps(f.get("signature"))
        if f["kind"] == "program" and f.get("program") and sig not in seen:
            seen.add(sig)
            if "reduced" not in f:
                out.append(f)
    return out


def signatures(rep):
    return {json.dumps(f["signature"]) for f in rep["failures"] if f["kind"] == "program"}


def finding_key(f):
    """What makes two findings the same kind: the signature; for a mutant its verdict."""
    return json.dumps(f["signature"] if f["kind"] == "program" else [f["verdict"], f.get("check_races")])


def finding_line(f):
    """One line for a finding as it is found."""
    if f["kind"] == "program":
        return "smith: program seed %d: %s" % (f["seed"], "; ".join(
            "%s differs (%s): %s" % (t["tier"], t["kind"], (t["why"] or "").split("\n")[0][:160])
            for t in f["tiers"]))
    why = f.get("witness") or f.get("why") or ""
    return "smith: race mutant %d (%s): %s %s" % (f["seed"], f.get("class"), f["verdict"], why.split("\n")[0][:160])


def feature_table(counts, programs):
    lines = ["%-40s %8s %8s" % ("feature", "count", "per prog")]
    for k in sorted(counts):
        lines.append("%-40s %8d %8.2f" % (k, counts[k], counts[k] / max(1, programs)))
    return "\n".join(lines)


def summary(rep, seconds, parts=None):
    """The last line of a campaign: what ran, in how long (wall time; of merged parts, the
    longest part's), what it found."""
    ran = []
    if rep["programs"] or not rep["mutants"]:
        ran.append(plural(rep["programs"], "program"))
    if rep["mutants"]:
        ran.append(plural(rep["mutants"], "mutant"))
    took = _seconds(seconds) + (" (the longest of %d parts)" % parts if parts else "")
    text = "campaign: %s in %s; %s" % (", ".join(ran), took, plural(len(rep["failures"]), "finding"))
    sigs = signatures(rep)
    if sigs:
        text += " (%s)" % plural(len(sigs), "distinct signature")
    if rep["programs"]:
        text += "; exit statuses %s" % json.dumps(rep["statuses"])
    if rep["mutants"]:
        text += "; verdicts %s; precision %s" % (json.dumps(rep["verdicts"]), rep["precision"])
    retried = rep.get("run", {}).get("retried", [])
    if retried:
        text += "; %s after a worker died (%s), no result lost" % (
            plural(len(retried), "shard retried", "shards retried"), ", ".join(x["shard"] for x in retried))
    return text


def _seconds(s):
    return "%.0f s" % s if s >= 10 else "%.1f s" % s
