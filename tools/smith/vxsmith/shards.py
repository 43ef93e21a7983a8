"""A campaign's unit of work: a shard, one range of seeds of programs or of race mutants
(spec/smith.md §8). Shards are numbered from the campaign's first seed, so their bounds depend
only on the seed and the shard size, never on how many processes or machines run them; a shard
runs anywhere that has vx and tools/smith at the paths of the campaign, and returns the report
of its seeds (vxsmith.report), which the campaign merges.
"""

import os
import shutil
import socket
import tempfile
import time
import traceback

from . import cli, ending, gen, report as rpt

MUTANTS_PER_PROGRAM = 10  # a mutant shard holds ten times a program shard's seeds (each is ~10x cheaper)


def shard(kind, index, first_seed, size):
    """The spec of shard `index` of a kind: a plain dict (it travels to Dask workers)."""
    n = size * (MUTANTS_PER_PROGRAM if kind == "mutants" else 1)
    start = first_seed + index * n
    return {"kind": kind, "index": index, "start": start, "count": n,
            "name": "%s %d-%d" % (kind, start, start + n - 1)}


def clip(spec, end):
    """The spec without its seeds from `end` on (a counted campaign's last shard)."""
    spec = dict(spec, count=max(0, min(spec["count"], end - spec["start"])))
    spec["name"] = "%s %d-%d" % (spec["kind"], spec["start"], spec["start"] + spec["count"] - 1)
    return spec


def scratch_dir(name):
    """This machine's folder for the shards of the campaign `name`: what a killed worker leaves
    there is removed at the campaign's end (remove_scratch, on every worker)."""
    return os.path.join(tempfile.gettempdir(), name)


def remove_scratch(name):
    shutil.rmtree(scratch_dir(name), ignore_errors=True)


def run(spec, config, deadline=None):
    """Run one shard here: its seeds in order, until `deadline` (a time.time()) if any; the report
    of the seeds it ran. Its temporary folder is removed, whatever happens but its process
    being killed (then the campaign removes it)."""
    t0 = time.time()
    parent = scratch_dir(spec["scratch"]) if spec.get("scratch") else None
    if parent:
        os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix="smith-shard-", dir=parent)
    try:
        found = _seeds(spec, config, deadline, work)
    except cli.SetupError:
        raise
    except Exception:  # a bug of smith: where it happened, whatever pool brings it back
        raise ShardError("on %s:\n%s" % (socket.gethostname(), traceback.format_exc())) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    part = rpt.build(config, **{spec["kind"]: found})
    part["run"] = {"shards": [{"shard": spec["name"], "seeds": len(found), "host": socket.gethostname(),
                               "seconds": round(time.time() - t0, 2)}]}
    return part


class ShardError(Exception):
    pass


def _seeds(spec, config, deadline, work):
    tiers = cli.make_tiers(config, work, announce=False)
    seeds = range(spec["start"], spec["start"] + spec["count"])
    gpu_every = config.get("gpu_every") or 1
    if spec["kind"] == "programs" and tiers.fake is not None:
        paths = []
        for s in seeds:
            if s % gpu_every == 0:
                paths.append(os.path.join(work, "program-%d.vx" % s))
                with open(paths[-1], "w") as f:
                    f.write(gen.generate(s))
        tiers.fake.prebuild(paths, parts=1)
    found = []
    for s in seeds:
        if deadline is not None and time.time() > deadline or ending.stopping():
            break
        found.append(cli.guarded(spec["kind"], s, tiers, work, gpu_every))
    return found
