#!/usr/bin/python3
"""tools/smith as another implementation's author and a cluster use it (spec/smith.md §5, §7, §8),
against tools/smith/wrong_impl.sh (vx, with the first digit of its output turned into 7), so that
there are findings. Two tests (tests/smith_dist.cmake):

smith_dist_test.py dist VX WORK_DIR: every way of running the same seeds writes the same report
(`run` aside), findings and their reductions included, on the loopback interface:
  baseline   one process (--jobs 1)
  local      a Dask cluster the campaign starts itself (--workers 2), not quiet: progress lines,
             and nothing but the campaign's own lines on stderr, though the cluster's processes
             print on theirs; a cluster that does not start: the end of its log, and exit 1
  shards     --shard 0/2 and --shard 1/2, then `campaign merge` (and a part merged twice refused)
  cluster    a dask-scheduler and two dask-worker processes on 127.0.0.1 (--scheduler)
  ended      that cluster again; the campaign is ended (SIGTERM) once a shard has started: the
             shards on the workers stop too, instead of running on after the campaign let them go
  kill       that cluster again; one worker is killed (SIGKILL) as soon as it has started a
             shard: the shard runs again on the other, the report is the same and says so
  Fails (never skips) without Dask: Debian's python3-distributed (tools/setup installs it).

smith_dist_test.py reduce VX WORK_DIR: `smith --impl … --reduce --results DIR` as an implementer
runs it:
- progress lines on stderr while it runs (one line rewritten in place on a terminal);
- every finding in the results folder, with its program; the one finding of each signature
  reduced to at most 8 lines; the summary last;
- the commands of findings.md, run as written (by sh, from another folder), reproduce the
  mismatch: exit status 1 and the implementation's wrong line;
- no temporary folder left behind;
- the reducer alone (no vx): a use goes before its definition, blocks unwrap.
"""

import contextlib
import glob
import importlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SMITH = os.path.join(ROOT, "tools", "smith")
sys.path[:0] = [SMITH, os.path.dirname(os.path.abspath(__file__))]
from checks import Checks, on_terminal  # noqa: E402
from vxsmith import reduce as red, report as rpt  # noqa: E402

T = Checks("smith_" + sys.argv[1])


def check(cond, what):
    if not cond:
        T.fail(what)
    return cond


# smith_dist

def campaign_argv(name, *args):
    """The campaign of every run here: 20 programs (two shards) and 100 mutants (one shard)."""
    return ["/usr/bin/python3", os.path.join(SMITH, "campaign"), "--vx", VX, "--seed", "0", "--programs", "20",
            "--mutants", "100", "--shard-size", "10", "--impl", IMPL, "--no-uir",
            "--results", os.path.join(WORK, name)] + list(args)


def campaign(name, *args, quiet=True, env=None):
    """Run the campaign into WORK/name; (report, stdout, stderr)."""
    out = os.path.join(WORK, name)
    argv = campaign_argv(name, *args) + (["-q"] if quiet else [])
    t = time.time()
    p = subprocess.run(argv, capture_output=True, text=True, env=env or ENV, timeout=240)
    print("%s: %.1f s, exit %d: %s" % (name, time.time() - t, p.returncode, p.stdout.strip()[-300:]), flush=True)
    check(p.returncode == 1, "%s: exit status %d (1: findings), stderr %s" % (name, p.returncode, p.stderr[-2000:]))
    try:
        with open(os.path.join(out, "report.json")) as f:
            return json.load(f), p.stdout, p.stderr
    except OSError as x:
        check(False, "%s: no report: %s" % (name, x))
        return None, p.stdout, p.stderr


def same(name, rep, base):
    if rep is None or base is None:
        return
    a, b = rpt.canonical(rep), rpt.canonical(base)
    if not check(a == b, "%s: the report differs from one process's" % name):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                print("  %s: %s\n   one process: %s" % (k, json.dumps(a.get(k))[:400], json.dumps(b.get(k))[:400]))


class Cluster:
    """A scheduler and two workers, each worker with a TMPDIR of its own (to see its shards)."""

    def __init__(self):
        self.file = os.path.join(WORK, "scheduler.json")
        self.procs = []
        log = open(os.path.join(WORK, "cluster.log"), "w")
        self.procs.append(subprocess.Popen(["dask-scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                            "--dashboard-address", "127.0.0.1:0",
                                            "--scheduler-file", self.file], stdout=log, stderr=log, env=ENV))
        self.tmp = []
        for k in range(2):
            tmp = os.path.join(WORK, "worker%d-tmp" % k)
            os.makedirs(tmp)
            self.tmp.append(tmp)
            env = dict(ENV, TMPDIR=tmp)
            self.procs.append(subprocess.Popen(
                ["dask-worker", "--scheduler-file", self.file, "--host", "127.0.0.1", "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--death-timeout", "60", "--local-directory", tmp],
                stdout=log, stderr=log, env=env))
        self.workers = self.procs[1:]
        deadline = time.time() + 60
        self.address = None
        while time.time() < deadline and self.address is None:
            time.sleep(0.2)
            if os.path.exists(self.file):
                try:
                    with open(self.file) as f:
                        info = json.load(f)
                    self.address = info["address"]
                except ValueError:
                    pass
        check(self.address and self.address.startswith("tcp://127.0.0.1:"), "scheduler address %r" % self.address)
        self.wait_workers(2)

    def wait_workers(self, n):
        from distributed import Client

        with Client(self.address, timeout="30s") as c:
            c.wait_for_workers(n, timeout=60)

    def close(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def ended_run(cluster):
    """SIGTERM to a campaign on the cluster once a shard has started on a worker: the campaign ends
    (status 143), and the shards running on the workers stop after their seed (ending.watching),
    before the campaign removes their folders, and before it ends: within 1 s of its end, no worker
    runs a task. A shard let go ran on through its 5000 seeds, each failing at once (a finding of
    smith's own) once the campaign had removed its folder: for 10 s and more."""
    from distributed import Client

    argv = campaign_argv("ended", "-q", "--scheduler", cluster.address, "--programs", "10000",
                         "--shard-size", "5000")
    t = time.time()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    started = False
    while p.poll() is None and time.time() - t < 120 and not started:
        started = any(glob.glob(os.path.join(tmp, "smith-campaign-*", "smith-shard-*")) for tmp in cluster.tmp)
        time.sleep(0.05)
    time.sleep(0.5)  # a seed or two into the shard
    p.send_signal(signal.SIGTERM)
    _, stderr = p.communicate(timeout=120)
    ended = time.time()
    idle_after = None
    with Client(cluster.address, timeout="30s") as c:
        while time.time() - ended < 1:
            busy = sum(c.run(lambda dask_worker: len(dask_worker.active_threads)).values())
            print("ended: %.2f s after the end: %d tasks running" % (time.time() - ended, busy), flush=True)
            if busy == 0:
                idle_after = time.time() - ended
                break
            time.sleep(0.1)
    print("ended: %.1f s to start a shard, exit %d; workers idle %s" % (
        ended - t, p.returncode, "%.1f s after the end" % idle_after if idle_after is not None else "never"),
        flush=True)
    check(started, "ended: no shard started on the cluster")
    check(p.returncode == 128 + signal.SIGTERM, "ended: exit status %d, stderr %s" % (p.returncode, stderr[-2000:]))
    check(idle_after is not None, "ended: the workers still run the campaign's shards 1 s after it ended")


def killed_run(cluster):
    """Kill worker 0 once a shard has started there (its folder appears in its TMPDIR)."""
    out = os.path.join(WORK, "kill")
    argv = campaign_argv("kill", "-q", "--scheduler", cluster.address)
    t = time.time()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    victim = cluster.workers[0]
    killed = False
    while p.poll() is None and time.time() - t < 120:
        if glob.glob(os.path.join(cluster.tmp[0], "smith-campaign-*", "smith-shard-*")):
            victim.send_signal(signal.SIGKILL)
            victim.wait()
            killed = True
            break
        time.sleep(0.01)
    stdout, stderr = p.communicate(timeout=240)
    print("kill: %.1f s, exit %d, worker killed: %s: %s" % (time.time() - t, p.returncode, killed, stdout.strip()[-400:]),
          flush=True)
    check(killed, "kill: worker 0 never started a shard")
    check(p.returncode == 1, "kill: exit status %d, stderr %s" % (p.returncode, stderr[-2000:]))
    try:
        with open(os.path.join(out, "report.json")) as f:
            return json.load(f), stdout
    except OSError:
        check(False, "kill: no report")
        return None, stdout


NOISE = "noise on the stderr of a process of the cluster"


def noisy_cluster_env(fail=False):
    """ENV, where every Python process in a session other than this test's (the --workers
    cluster's host, its scheduler and workers) prints NOISE on its stderr as it starts, then,
    if `fail`, exits with status 3."""
    folder = os.path.join(WORK, "failing-site" if fail else "noisy-site")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "sitecustomize.py"), "w") as f:
        f.write("import os, sys\n"
                "if os.getsid(0) != %d:\n"
                "    print(%r, file=sys.stderr, flush=True)\n" % (os.getsid(0), NOISE))
        if fail:
            f.write("    os._exit(3)\n")
    return dict(ENV, PYTHONPATH=os.pathsep.join(filter(None, [folder, ENV.get("PYTHONPATH")])))


@contextlib.contextmanager
def port_taken(port):
    """PORT on 127.0.0.1 listened to for the block's length (if something else has it, it is taken
    already)."""
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
        s.listen()
    except OSError:
        pass
    try:
        yield
    finally:
        s.close()


def main_dist():
    try:
        importlib.import_module("distributed")
    except ImportError:
        T.fail("Dask distributed is missing: install Debian's python3-distributed (tools/setup does)")
        T.finish()
    t0 = time.time()
    base, _, _ = campaign("baseline", "--jobs", "1")
    if base:
        check(base["programs"] == 20 and base["mutants"] == 100, "baseline counts %s %s" % (base["programs"],
                                                                                          base["mutants"]))
        check(len(base["failures"]) > 0 and any(f.get("reduced") for f in base["failures"]),
              "baseline: wrong_impl.sh gives findings, one of them reduced")
    # Dask's default HTTP port taken, as by another cluster on the machine (smith_ending's, in
    # parallel): the cluster the campaign starts must not warn of it on the campaign's stderr
    # and every process of the cluster prints on its stderr, as Dask may when a worker's close
    # outlives its timeout on a loaded machine ("Future exception was never retrieved"): that goes
    # to the cluster's log, not to the campaign's stderr
    with port_taken(8787):
        rep, _, err = campaign("local", "--workers", "2", quiet=False, env=noisy_cluster_env())
    foreign = [ln for ln in err.splitlines() if not re.match(r"(smith|campaign): ", ln)]
    check(not foreign, "--workers 2: stderr lines not the campaign's own: %r" % foreign[:8])
    check(NOISE not in err, "--workers 2: the cluster's own stderr on the campaign's")
    # a cluster that does not start: its log's end on stderr, each line the campaign's
    p = subprocess.run(campaign_argv("no-cluster", "--workers", "2", "-q"), capture_output=True, text=True,
                       env=noisy_cluster_env(fail=True), timeout=120)
    check(p.returncode == 1 and p.stderr.splitlines() == [
        "campaign: the local Dask cluster ended with status 3; its log:", "campaign: | " + NOISE,
        "campaign: the local Dask cluster did not start (status 3)"],
        "a cluster that does not start: exit %d, stderr %r" % (p.returncode, p.stderr[-1500:]))
    check(not glob.glob(os.path.join(WORK, "smith-campaign-*")), "a cluster that does not start: its folder left")
    same("local (--workers 2)", rep, base)
    lines = [ln for ln in err.splitlines() if re.match(r"smith: \d+/120 programs and mutants, \d+ findings?, ", ln)]
    check(len(lines) >= 2 and lines[-1].startswith("smith: 120/120"),
          "progress lines when not quiet: %r" % err[-1500:])
    check("campaign: on a local Dask cluster on 127.0.0.1 (2 workers" in err, "--workers 2 says where it runs")
    parts = [campaign("shard%d" % k, "--shard", "%d/2" % k, "--jobs", "1")[0] for k in range(2)]
    if all(parts):
        check(parts[0]["programs"] + parts[1]["programs"] == 20, "the shards split the programs")
        m = subprocess.run(["/usr/bin/python3", os.path.join(SMITH, "campaign"), "merge",
                            os.path.join(WORK, "shard0", "report.json"), os.path.join(WORK, "shard1", "report.json"),
                            "--results", os.path.join(WORK, "merged")], capture_output=True, text=True, env=ENV)
        check(m.returncode == 1 and "(the longest of 2 parts)" in m.stdout, "merge: %s %s" % (m.stdout, m.stderr))
        with open(os.path.join(WORK, "merged", "report.json")) as f:
            same("--shard 0/2 + 1/2, merged", json.load(f), base)
        bad = subprocess.run(["/usr/bin/python3", os.path.join(SMITH, "campaign"), "merge",
                              os.path.join(WORK, "shard0", "report.json"), os.path.join(WORK, "shard0", "report.json"),
                              "--results", os.path.join(WORK, "merged-twice")], capture_output=True, text=True, env=ENV)
        check(bad.returncode == 2 and "in two parts" in bad.stderr, "merging a part twice is refused: %s" % bad.stderr)
    cluster = Cluster()
    try:
        rep, out, _ = campaign("cluster", "--scheduler", cluster.address)
        same("a scheduler and two workers", rep, base)
        check(rep is not None and "2 workers" in rep["run"]["where"], "two workers: %s" % (rep or {}).get("run"))
        ended_run(cluster)
        rep, out = killed_run(cluster)
        same("a worker killed", rep, base)
        retried = (rep or {}).get("run", {}).get("retried", [])
        check(len(retried) >= 1 and "retried after a worker died" in out,
              "the report says which shard ran again: %r, %r" % (retried, out))
    finally:
        cluster.close()
    # no temporary folder left behind (but by the killed worker)
    for d in (WORK, os.path.join(WORK, "worker1-tmp")):
        left = [x for x in os.listdir(d) if x.startswith("smith-") or d == WORK and x == "dask-worker-space"]
        check(not left, "%s: left behind: %r" % (d, left))
    print("smith_dist: %.0f s" % (time.time() - t0))
    T.finish()


# smith_reduce

def sh_blocks(markdown, after):
    """The lines of the ```sh block that follows the line starting with `after`."""
    m = re.search(r"^%s[^\n]*\n\n```sh\n(.*?)\n```" % re.escape(after), markdown, re.M | re.S)
    return m.group(1).splitlines() if m else []


def reducer_alone():
    # a checker of sorts: a name used must be defined above; the bug is a `print`
    def keep(text):
        defined = set()
        for ln in text.splitlines():
            for use in re.findall(r"\buse\((\w+)\)|print\((\w+)", ln):
                if not any(u in defined for u in use if u):
                    return False
            m = re.match(r"\s*let (\w+)", ln)
            if m:
                defined.add(m.group(1))
        return "print(" in text and text.count("{") == text.count("}")

    prog = ("// a comment\nfn helper() {\n    let q = 1;\n}\nfn main() {\n    let a = 1;\n    let b = use(a);\n"
            "    { // section\n        let x = use(b);\n        if c {\n            print(x);\n        }\n"
            "        let y = use(x);\n        print(y);\n    }\n}\n")
    stats = {}
    small = red.reduce(prog, keep, stats=stats)
    # by hand: the comment and `helper` go; in the section `print(y)` goes, then in the same sweep
    # `let y` (a use before its definition); the section and the `if` unwrap
    check(small == "fn main() {\n    let a = 1;\n    let b = use(a);\n    let x = use(b);\n    print(x);\n}\n",
          "the reducer alone: %r (%r)" % (small, stats))
    check(red.reduce(prog, keep, stats={}) == small, "the reducer is deterministic")
    few = {}
    red.reduce(prog, keep, max_tries=3, stats=few)
    check(few == {"tries": 3, "stopped": "tries"}, "the reducer stops at its bound: %r" % few)


def main_reduce():
    reducer_alone()
    results = os.path.join(WORK, "results")
    env = dict(os.environ, TMPDIR=os.path.join(WORK, "tmp"))
    os.makedirs(env["TMPDIR"])
    argv = ["/usr/bin/python3", os.path.join(SMITH, "smith"), "--vx", VX, "--seed", "0", "--count", "6", "-j", "2",
            "--impl", IMPL, "--no-uir", "--reduce", "--results", results]
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=WORK, timeout=300)
    print(p.stdout.strip())
    check(p.returncode == 1, "smith against wrong_impl.sh: exit %d: %s" % (p.returncode, p.stderr[-2000:]))
    check(re.search(r"^programs: 6 in \d+ s; .*; [1-6] with findings \(1 distinct signature\)", p.stdout, re.M),
          "the summary: %r" % p.stdout)
    check(p.stdout.strip().splitlines()[-1].startswith("programs: 6 in"), "the summary comes last")
    progress = re.findall(r"^smith: \d+/6 programs, \d+ findings?, [\d.]+/s", p.stderr, re.M)
    check(len(progress) >= 2, "progress lines on stderr: %r" % p.stderr[-1500:])
    check(not os.listdir(env["TMPDIR"]), "temporary folders left: %r" % os.listdir(env["TMPDIR"]))
    # on a terminal: one line rewritten in place, and its last state kept
    rc, tty = on_terminal(argv[:-2] + ["--count", "3", "--results", os.path.join(WORK, "tty")], "stderr", env=env,
                          cwd=WORK)
    tty = tty.decode(errors="replace")
    check(rc == 1 and re.search(r"\rsmith: \d/3 programs, \d findings?, [\d.]+/s, [^\r\n]*\x1b\[K", tty)
          and tty.rstrip().endswith("\x1b[K") and "smith: 3/3 programs" in tty,
          "progress on a terminal: %r" % tty[-600:])
    with open(os.path.join(results, "report.json")) as f:
        rep = json.load(f)
    reduced = [f for f in rep["failures"] if f.get("reduced")]
    if check(len(reduced) == 1, "one reduced finding: %r" % [f.get("reduced") for f in rep["failures"]]):
        r = reduced[0]["reduced"]
        print("reduced seed %d to %d lines in %d tries:\n%s" % (reduced[0]["seed"], r["lines"], r["tries"], r["program"]))
        check(r["lines"] <= 8, "reduced to %d lines, more than 8" % r["lines"])
        with open(os.path.join(results, r["file"])) as f:
            check(f.read() == r["program"], "the reduced program's file")
    for f in rep["failures"]:
        check(os.path.exists(os.path.join(results, f["file"])), "the program of seed %d" % f["seed"])
    with open(os.path.join(results, "findings.md")) as f:
        md = f.read()
    first = md.split("\n## ")[1]
    cmds = sh_blocks(first, "Reproduce")
    check(len(cmds) == 2 and all("--impl" in c for c in cmds), "two reproduce commands: %r" % cmds)
    for c in cmds:
        # as written, from another folder
        q = subprocess.run(["sh", "-c", c], capture_output=True, text=True, env=env, cwd="/", timeout=120)
        check(q.returncode == 1 and re.search(r"impl differs \(output\): line 1: '.*' against '.*7", q.stdout + q.stderr),
              "`%s` reproduces: exit %d: %s %s" % (c, q.returncode, q.stdout[-800:], q.stderr[-800:]))
    hand = sh_blocks(first, "By hand")
    if check(len(hand) == 2, "the reference's and the implementation's commands: %r" % hand):
        outs = [subprocess.run(["sh", "-c", c], capture_output=True, text=True, cwd="/").stdout for c in hand]
        check(outs[0] != outs[1] and outs[0].count("\n") == outs[1].count("\n"),
              "by hand, the outputs differ in a line: %r" % outs)
    check(not os.listdir(env["TMPDIR"]), "temporary folders left by the commands: %r" % os.listdir(env["TMPDIR"]))
    T.finish()


if __name__ == "__main__":
    VX = os.path.abspath(sys.argv[2])
    WORK = os.path.abspath(sys.argv[3])
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    IMPL = "sh %s %s {file}" % (os.path.join(SMITH, "wrong_impl.sh"), VX)
    ENV = dict(os.environ, TMPDIR=WORK, PYTHONDONTWRITEBYTECODE="1")
    {"dist": main_dist, "reduce": main_reduce}[sys.argv[1]]()
