"""Differential runs: one program on every tier, compared with the reference run.

A tier is a name and a way to run the program (argv, environment). The reference is
`vx run --offload=off` with VX_HOST_THREADS=1. Every other tier must give the same exit status and
the same stdout: exactly, except the lines that start with `~TOL `, whose numbers may differ by at
most TOL (sum_unordered, float atomics). vx tiers must also report a runtime error at the same
place (the ` --> FILE:LINE:COL` line of stderr).
"""

import math
import os
import re
import shlex
import subprocess

TIMEOUT = 60


class Result:
    def __init__(self, status, out, err):
        self.status, self.out, self.err = status, out, err

    def where(self):
        m = re.search(r"^ --> (\S+)$", self.err, re.M)
        return m.group(1) if m else None

    def codes(self):
        return sorted(set(re.findall(r"error\[(E\d{4})\]", self.err)))


def run(argv, env=None, timeout=TIMEOUT, stdin=None):
    e = dict(os.environ)
    e.update(env or {})
    try:
        p = subprocess.run(argv, env=e, capture_output=True, timeout=timeout, text=True, errors="replace")
        return Result(p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired as x:
        return Result("timeout", x.stdout or "" if isinstance(x.stdout, str) else "", "timeout after %ss" % timeout)


def _num(tok):
    try:
        return float(tok)
    except ValueError:
        return None


def same_output(a, b):
    """None when a and b agree; otherwise a line saying where they differ."""
    la, lb = a.splitlines(), b.splitlines()
    if len(la) != len(lb):
        return "%d lines against %d" % (len(la), len(lb))
    for k, (x, y) in enumerate(zip(la, lb)):
        if x == y:
            continue
        if x.startswith("~") and y.startswith("~"):
            tx, ty = x.split(), y.split()
            if len(tx) == len(ty) and tx[0] == ty[0] and tx[1] == ty[1]:
                rel = tx[0][1] == "r"
                tol = float(tx[0][2:] if rel else tx[0][1:])
                ok = True
                for u, v in zip(tx[2:], ty[2:]):
                    fu, fv = _num(u), _num(v)
                    if fu is None or fv is None:
                        ok = ok and u == v
                    elif math.isnan(fu) or math.isnan(fv):
                        ok = ok and math.isnan(fu) and math.isnan(fv)
                    elif math.isinf(fu) or math.isinf(fv):
                        ok = ok and fu == fv
                    elif rel:
                        ok = ok and abs(fu - fv) <= tol * max(abs(fu), abs(fv)) + 2.0 ** -148
                    else:
                        ok = ok and abs(fu - fv) <= tol
                if ok:
                    continue
        return "line %d: %r against %r" % (k + 1, x[:200], y[:200])
    return None


class Tiers:
    """The tiers of one vx build (and perhaps another implementation)."""

    def __init__(self, vx, impl=None, fake=None, uir=True, threads=(2, 4), races=True):
        self.vx = vx
        self.impl = impl  # a list of words with {file}
        self.fake = fake  # a FakeGpu, or None
        self.uir = uir
        self.threads = threads
        self.races = races

    def reference(self, path):
        return run([self.vx, "run", "--offload=off", path], {"VX_HOST_THREADS": "1", "VX_CACHE": "0"})

    def others(self, path, program_text):
        """[(tier name, Result, compare errors' place?)]."""
        out = []
        for n in self.threads:
            out.append(("threads=%d" % n, lambda n=n: run([self.vx, "run", "--offload=off", path],
                                                          {"VX_HOST_THREADS": str(n)}), True))
        if self.races:
            out.append(("check-races", lambda: run([self.vx, "run", "--offload=off", "--check-races", path],
                                                   {"VX_HOST_THREADS": "2"}), True))
        if self.fake is not None and self.fake.ready(path):
            for mode in ("verify", "gpu"):
                out.append(("offload=" + mode, lambda mode=mode: self.fake.run(path, mode), True))
        if self.uir and "spawn on" in program_text:
            out.append(("uir", lambda: self.uir_run(path), False))
        if self.impl:
            argv = [w.replace("{file}", path) for w in self.impl]
            out.append(("impl", lambda: run(argv), False))
        return out

    def uir_run(self, path):
        """`vx lower --to=uir --run`: the program runs (output dropped) and each region is lowered
        with its captured values; each lowered region is then checked and run as .uir. The tier's
        stdout is the reference's (lowering prints .uir, not the program's output), so what is
        compared is the exit status, and that every lowered region checks and runs."""
        r = run([self.vx, "lower", "--to=uir", "--run", path])
        return r


def differ(tiers, path, text, only=None):
    """Run every tier; return (reference Result, [(tier, why, kind)]). kind is what the reducer
    keeps: `status:X` (another exit status, or the stand-in GPU's `verify-mismatch`, `fallback`,
    `ubsan`, `harness`), `output` or `where` (a runtime error elsewhere)."""
    ref = tiers.reference(path)
    bad = []
    if ref.status == "timeout":
        return ref, [("reference", "timeout", "timeout")]
    if ref.status not in (0, 101):
        return ref, [("reference", "status %s: %s" % (ref.status, ref.err.strip()[:400]), "status:%s" % ref.status)]
    for name, go, where in tiers.others(path, text):
        if only and name not in only:
            continue
        r = go()
        if r.status != ref.status:
            bad.append((name, "status %s, reference %s: %s" % (r.status, ref.status, r.err.strip()[-600:]),
                        "status:%s" % r.status))
            continue
        if name == "uir":
            continue
        d = same_output(ref.out, r.out)
        if d:
            bad.append((name, d, "output"))
            continue
        if where and ref.status == 101 and r.where() != ref.where():
            bad.append((name, "runtime error at %s, reference at %s" % (r.where(), ref.where()), "where"))
    return ref, bad
