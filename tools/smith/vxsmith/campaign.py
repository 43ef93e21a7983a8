"""`tools/smith/campaign`: generated programs on every tier and race mutants, for a time or a
number of seeds, on this machine (--jobs), on a Dask cluster (--scheduler, --workers) or as one
part of a batch job (--shard I/N, then `campaign merge`); spec/smith.md §8."""

import argparse
import json
import os
import shlex
import sys
import time

from . import cli, dist, ending, report as rpt, results, shards
from .progress import Progress

KINDS = ("programs", "mutants")


def parser():
    p = argparse.ArgumentParser(
        prog="campaign", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  campaign --minutes 30 --jobs 2                     # half an hour on this machine\n"
               "  campaign --programs 1000 --mutants 8000 --workers 8  # a local Dask cluster\n"
               "  campaign --minutes 60 --scheduler tcp://10.0.0.1:8786  # an existing cluster\n"
               "  campaign --programs 1000 --shard 3/8 --json part3.json  # one of 8 batch jobs\n"
               "  campaign merge part*.json --results merged/         # their parts together\n"
               "The report is the same, key `run` aside, however many processes ran the same seeds.")
    p.add_argument("--minutes", type=float, metavar="M",
                   help="run for M minutes (with --programs/--mutants: stop at whichever bound comes first)")
    p.add_argument("--programs", type=int, metavar="N", help="run the programs of seeds SEED … SEED+N-1")
    p.add_argument("--mutants", type=int, metavar="N", help="run the race mutants of seeds SEED … SEED+N-1")
    p.add_argument("--seed", type=int, default=1000000, help="the first seed of both (default 1000000)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                   help="processes on this machine, without a cluster (default: the CPUs)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="start a Dask cluster of N worker processes on 127.0.0.1 for the campaign")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run the shards on this existing Dask cluster (vx and tools/smith at the same "
                        "paths on every worker)")
    p.add_argument("--shard", metavar="I/N",
                   help="run only the shards I, I+N, I+2N, … (a batch job's part: Slurm array task I "
                        "of N); combine the parts' --json with `campaign merge`")
    p.add_argument("--shard-size", type=int, default=10, metavar="K",
                   help="programs per shard (a mutant shard has %d times as many; default 10)" %
                        shards.MUTANTS_PER_PROGRAM)
    p.add_argument("--mutant-share", type=float, default=0.25, metavar="F",
                   help="with --minutes alone: the share of the time for race mutants (default 0.25)")
    p.add_argument("--retries", type=int, default=3, metavar="N",
                   help="run a shard whose worker died at most this many more times (default 3)")
    p.add_argument("--no-reduce", action="store_true", help="do not reduce the findings")
    cli.add_common_options(p)
    p.set_defaults(gpu_every=10)
    return p


def merge_parser():
    p = argparse.ArgumentParser(
        prog="campaign merge",
        description="Merge the reports (--json) of campaigns over disjoint seeds, e.g. the parts of "
                    "`campaign --shard I/N`, into one report and results folder: the report that one "
                    "campaign over all their seeds writes.")
    p.add_argument("parts", nargs="+", metavar="PART.json", help="the parts' reports")
    p.add_argument("--results", metavar="DIR", help="the merged results folder (default ./smith-results)")
    p.add_argument("--json", metavar="FILE", help="write the merged report here (default DIR/report.json)")
    p.add_argument("--findings", metavar="FILE", help="write the findings here (default DIR/findings.md)")
    p.add_argument("--features", action="store_true", help="print the feature table (before the summary)")
    return p


@ending.main_of("campaign")
def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["merge"]:
        return merge_main(argv[1:])
    p = parser()
    a = p.parse_args(argv)
    if a.minutes is None and a.programs is None and a.mutants is None:
        p.error("say how long: --minutes M, or --programs N and/or --mutants N")
    if a.workers and a.scheduler:
        p.error("--workers starts a cluster, --scheduler names one: not both")
    part, parts = 0, 1
    if a.shard:
        try:
            part, parts = (int(x) for x in a.shard.split("/"))
            assert 0 <= part < parts
        except (ValueError, AssertionError):
            p.error("--shard I/N with 0 <= I < N, e.g. --shard 0/4")
    a.vx = os.path.abspath(a.vx)
    if not os.path.exists(a.vx):
        sys.exit("campaign: no vx at %s (build it: ninja -C build vx)" % a.vx)
    config = cli.config_of(a)
    t0 = time.time()
    deadline = t0 + a.minutes * 60 if a.minutes else None
    counted = a.programs is not None or a.mutants is not None
    total = ((a.programs or 0) + (a.mutants or 0) + parts - 1) // parts if counted else None
    progress = Progress("programs and mutants", total=total, deadline=deadline, quiet=a.quiet,
                        every_seconds=a.progress_every)
    with ending.Noted() as noted:  # SIGTERM, Ctrl-C: the shards stop, the pool and folder go (ending.py)
        pool = dist.DaskPool(a.scheduler, a.workers) if a.scheduler or a.workers else dist.LocalPool(a.jobs)
        progress.note("campaign: on %s" % pool.where)
        try:
            plan = Plan(a, part, parts, counted)
            found, retried = drive(plan, pool, config, deadline, progress, noted)
            if noted.signum is None:
                rep = rpt.merge(found) if found else rpt.build(config)
                if not a.no_reduce:
                    cli.reduce_all(a, config, rep, progress, submit=pool.map)
        finally:
            progress.close()
            pool.close(ended=noted.signum is not None)
    noted.end()
    rep["run"] = {"command": shlex.join([sys.argv[0]] + argv), "where": pool.where,
                  "shard": a.shard, "shards": [s for r in found for s in r["run"]["shards"]],
                  "retried": retried}
    return finish(a, rep, t0)


def finish(a, rep, t0, took=None, parts=None):
    """Write the results folder; print the feature table, then the summary, last."""
    rep["run"]["wall_seconds"] = round(time.time() - t0, 1)
    written = results.write(rep, a.results or os.path.join(os.getcwd(), "smith-results"), a.json, a.findings)
    if a.features:
        print(rpt.feature_table(rep["features"], rep["programs"]))
    where = os.path.relpath(written[-1])
    print("%s; %s" % (rpt.summary(rep, time.time() - t0 if took is None else took, parts),
                      written[-1] if where.startswith("..") else where))
    return 1 if rep["failures"] else 0


class Plan:
    """Which shard comes next: in a counted campaign every shard of this part in turn, the two
    kinds interleaved; in a timed one, the kind that has had less than its share of the time."""

    def __init__(self, a, part, parts, counted):
        self.a, self.part, self.parts, self.counted = a, part, parts, counted
        self.end = {"programs": a.seed + (a.programs or 0), "mutants": a.seed + (a.mutants or 0)}
        self.share = {"programs": 1 - a.mutant_share, "mutants": a.mutant_share}
        self.next = {k: 0 for k in KINDS}  # this part's shards of each kind so far
        self.spent = {k: 0.0 for k in KINDS}  # seconds of the shards that finished
        self.finished = {k: 0 for k in KINDS}
        self.running = {k: 0 for k in KINDS}

    def _spec(self, kind):
        spec = shards.shard(kind, self.part + self.parts * self.next[kind], self.a.seed, self.a.shard_size)
        if self.counted:
            spec = shards.clip(spec, self.end[kind])
        return spec if spec["count"] > 0 else None

    def take(self):
        kinds = [k for k in KINDS if (self._spec(k) if self.counted else self.share[k] > 0)]
        if not kinds:
            return None
        if self.counted:
            kind = min(kinds, key=lambda k: (self.next[k] / max(1, self.end[k] - self.a.seed), KINDS.index(k)))
        else:
            def load(k):
                each = self.spent[k] / self.finished[k] if self.finished[k] else 1.0
                return (self.spent[k] + self.running[k] * each) / self.share[k]
            kind = min(kinds, key=lambda k: (load(k), KINDS.index(k)))
        spec = self._spec(kind)
        self.next[kind] += 1
        self.running[kind] += 1
        return spec

    def done(self, spec, seconds):
        self.running[spec["kind"]] -= 1
        self.finished[spec["kind"]] += 1
        self.spent[spec["kind"]] += seconds


def drive(plan, pool, config, deadline, progress, noted):
    """Run the plan's shards, a few more at a time than the pool has slots, until they are done or
    the campaign is ended (`noted`); return their reports and the shards that ran more than once."""
    pending, found, retried = {}, [], []
    items = 0
    while noted.signum is None:
        while len(pending) < 2 * pool.slots and (deadline is None or time.time() < deadline):
            spec = plan.take()
            if spec is None:
                break
            spec["scratch"] = pool.scratch
            pending[pool.submit(spec["name"], shards.run, spec, config, deadline)] = (spec, 0)
        if not pending:
            break
        done, _ = pool.wait(set(pending), 0.5)
        for f in done:
            spec, retries = pending.pop(f)
            if not f.cancelled() and isinstance(f.exception(), ending.Stopped):  # a process was ended: so is the campaign
                noted.note(f.exception().args[0])
                break
            if pool.lost(f) and retries < plan.a.retries:
                retried.append({"shard": spec["name"], "why": "lost with a worker process that died"})
                progress.note("campaign: %s: its worker died; running it again" % spec["name"])
                pending[pool.submit(spec["name"], shards.run, spec, config, deadline)] = (spec, retries + 1)
                continue
            if f.exception() is not None:
                raise SystemExit("campaign: shard %s failed: %s" % (spec["name"], f.exception()))
            part = f.result()
            found.append(part)
            plan.done(spec, part["run"]["shards"][0]["seconds"])
            items += part["programs"] + part["mutants"]
            for x in part["failures"]:
                progress.found(rpt.finding_line(x), rpt.finding_key(x))
        progress.update(items)
    for name, workers in sorted(pool.starts().items()):
        if len(workers) > 1:
            retried.append({"shard": name, "why": "started %d times, on %s: a worker died under it" % (
                len(workers), ", ".join(workers))})
    return found, retried


def merge_main(argv):
    a = merge_parser().parse_args(argv)
    t0 = time.time()
    reports = []
    for path in a.parts:
        try:
            with open(path) as f:
                reports.append(json.load(f))
        except (OSError, ValueError) as x:
            sys.exit("campaign merge: %s: %s" % (path, x))
    run = {"command": shlex.join([sys.argv[0], "merge"] + argv), "merged": [os.path.abspath(x) for x in a.parts],
           "retried": [x for r in reports for x in r.get("run", {}).get("retried", [])],
           "parts_wall_seconds": [r.get("run", {}).get("wall_seconds") for r in reports]}
    try:
        rep = rpt.merge(reports, run)
    except rpt.MergeError as x:
        print("campaign merge: %s" % x, file=sys.stderr)
        return 2
    return finish(a, rep, t0, took=max([s for s in run["parts_wall_seconds"] if s] or [0]), parts=len(reports))
