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
import struct
import subprocess
import tempfile

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


def same_output(a, b, strict_unordered=False):
    """None when a and b agree; otherwise a line saying where they differ. `~TOL` lines: numbers
    within TOL (float atomics); `~rTOL`: within TOL relative (fast_*); `~uTOL`: lanes::sum_unordered,
    within TOL, or exactly when strict_unordered (vx's tiers all reduce in the tree order,
    spec/offload.md)."""
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
                unordered = tx[0][1] == "u"
                tol = float(tx[0][2:] if rel or unordered else tx[0][1:])
                if unordered and strict_unordered:
                    tol = 0.0
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


NVRTC_ARCHS = ("sm_80", "sm_90")


class Tiers:
    """The tiers of one vx build (and perhaps another implementation)."""

    def __init__(self, vx, impl=None, fake=None, uir=True, threads=(2, 4), races=True, nvrtc=True):
        self.vx = vx
        self.nvrtc = nvrtc  # every program's CUDA through NVRTC for NVRTC_ARCHS
        self.impl = impl  # a list of words with {file}
        self.fake = fake  # a FakeGpu, or None
        self.uir = uir
        self.threads = threads
        self.races = races

    def command(self, name, path):
        """(argv, environment) of a tier that runs one command; None for the tiers that smith runs
        in several steps (uir, the stand-in GPU)."""
        if name == "reference":
            return [self.vx, "run", "--offload=off", path], {"VX_HOST_THREADS": "1", "VX_CACHE": "0"}
        if name.startswith("threads="):
            return [self.vx, "run", "--offload=off", path], {"VX_HOST_THREADS": name[len("threads="):]}
        if name == "check-races":
            return [self.vx, "run", "--offload=off", "--check-races", path], {"VX_HOST_THREADS": "2"}
        if name == "impl" and self.impl:
            return [w.replace("{file}", path) for w in self.impl], {}
        return None

    def shell(self, name, path):
        """The tier as a shell command line, quoted; None as for command()."""
        c = self.command(name, path)
        if c is None:
            return None
        argv, env = c
        return " ".join(["%s=%s" % (k, shlex.quote(v)) for k, v in sorted(env.items())] + [shlex.join(argv)])

    def reference(self, path):
        return run(*self.command("reference", path))

    def others(self, path, program_text):
        """[(tier name, Result, compare errors' place?)]."""
        out = []
        for n in self.threads:
            out.append(("threads=%d" % n, True))
        if self.races:
            out.append(("check-races", True))
        out = [(name, lambda name=name: run(*self.command(name, path)), where) for name, where in out]
        if self.fake is not None and self.fake.ready(path):
            for mode in ("verify", "gpu"):
                out.append(("offload=" + mode, lambda mode=mode: self.fake.run(path, mode), True))
        if self.uir and "spawn on" in program_text:
            out.append(("uir", None, False))
        if self.nvrtc and "spawn on" in program_text:
            out.append(("nvrtc", None, False))
        if self.impl:
            out.append(("impl", lambda: run(*self.command("impl", path)), False))
        return out

    def nvrtc_run(self, path):
        """`vx emit-cuda --cubin` for each of NVRTC_ARCHS: NVRTC must compile the CUDA of every
        region vx emits (a region vx does not emit, with its reason, is no finding; CUDA that NVRTC
        refuses is one: the GPU tier of that region would be lost). `nvrtc_mismatch` says what
        failed, or is None."""
        with tempfile.TemporaryDirectory(prefix="smith-cubin-") as scratch:  # not beside `path`
            for arch in NVRTC_ARCHS:
                cubin = os.path.join(scratch, arch + ".cubin")
                r = run([self.vx, "emit-cuda", "--cubin", cubin, "--arch", arch, path])
                r.nvrtc_mismatch = None
                if r.status != 0:
                    r.nvrtc_mismatch = "emit-cuda --arch %s: status %s: %s" % (arch, r.status, r.err.strip()[-800:])
                    return r
        return r

    def uir_run(self, path, ref=None):
        """`vx lower --to=uir --run`: the program runs (output dropped) and each region is lowered
        with the values it captures at its first launch. Its exit status must be the reference's;
        then (when the program ends normally) each lowered region is run as .uir with a `print` of
        every buffer that is a tensor the program prints in full, and those values must be the
        ones the Vx program printed (a tensor written by one launch only: the generator's
        host-loop tensors `acc…` are left out)."""
        r = run([self.vx, "lower", "--to=uir", "--run", path])
        r.uir_mismatch = None
        r.uir_regions = 0
        if ref is None or r.status != 0 or ref.status != 0:
            return r
        printed, sums = {}, {}
        for ln in ref.out.splitlines():
            m = re.match(r"^(\w+): (.*)$", ln)
            if not m:
                continue
            if m.group(2).startswith("checksum"):
                sums[m.group(1)] = m.group(2).split()[1:]
            elif not m.group(2).startswith("sample"):
                printed.setdefault(m.group(1), []).extend(m.group(2).split())
        chunks = re.split(r"(?m)^(?=# \S+: )", r.out)
        for k, chunk in enumerate(chunks):
            if "lowered by vx" not in chunk.split("\n", 1)[0]:
                continue
            types = dict(re.findall(r"(?m)^buffer %(\w+) (\w+)\[", chunk))
            names = [n for n in re.findall(r"(?m)^buffer %(\w+) ", chunk)
                     if (n in printed or n in sums) and not n.startswith("acc")]
            if not names:
                continue
            up = path + ".r%d.uir" % k
            with open(up, "w") as f:
                f.write(chunk.rstrip("\n") + "\n" + "".join("print %%%s\n" % n for n in names))
            u = run([self.vx, "run", up])
            r.uir_regions += 1
            if u.status != 0:
                r.uir_mismatch = "%s: vx run status %s: %s" % (up, u.status, u.err.strip()[-400:])
                return r
            got = u.out.splitlines()
            for n, line in zip(names, got):
                if n in sums:
                    want = checksum(line.split(), types.get(n, "i32"))
                    got_cs = sums[n]
                    if len(want) == 1:
                        same = int(got_cs[0]) == want[0]
                    else:
                        f = float(got_cs[0])
                        same = (f == want[0] or f != f and want[0] != want[0]) and int(got_cs[2]) == want[1]
                    if not same:
                        r.uir_mismatch = "%s: the checksum of `%s` from .uir is %r, the Vx program printed %r" % (
                            up, n, want, sums[n])
                        return r
                    continue
                if not same_tokens(line.split(), printed[n]):
                    r.uir_mismatch = "%s: `%s` is %r, the Vx program printed %r" % (
                        up, n, " ".join(line.split()[:12]), " ".join(printed[n][:12]))
                    return r
            os.remove(up)
        return r


def same_tokens(a, b):
    """Printed values equal as numbers (`2` and `2.0` from `{:?}`), NaN equal to NaN."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        fx, fy = _num(x), _num(y)
        if fx is None or fy is None or not (fx == fy or fx != fx and fy != fy):
            return False
    return True


def checksum(values, t):
    """The generator's checksum (gen.Gen.print_tensor) of the printed values of a tensor."""
    if t.startswith("i") or t.startswith("u"):
        cs = 0
        for lin, v in enumerate(values):
            cs = (cs * 1000003 + int(v) + lin) & ((1 << 64) - 1)
        return [cs - (1 << 64) if cs >= 1 << 63 else cs]
    cs, nan = 0.0, 0
    for lin, v in enumerate(values):
        x = float(v)
        if t == "f32":  # the f32 that the shortest decimal names
            x = struct.unpack("f", struct.pack("f", x))[0]
        if x != x:
            nan += 1
        else:
            cs += x * float(lin % 7 + 1)
    return [cs, nan]


def differ(tiers, path, text, only=None):
    """Run every tier; return (reference Result, [(tier, why, kind)]). kind is what the reducer
    keeps: `status:X` (another exit status, or the stand-in GPU's `verify-mismatch`, `fallback`,
    `ubsan`, `harness`), `output` (as many lines, one of them different), `output-lines` (lines
    missing or added) or `where` (a runtime error elsewhere)."""
    ref = tiers.reference(path)
    bad = []
    if ref.status == "timeout":
        return ref, [("reference", "timeout", "timeout")]
    if ref.status not in (0, 101):
        return ref, [("reference", "status %s: %s" % (ref.status, ref.err.strip()[:400]), "status:%s" % ref.status)]
    for name, go, where in tiers.others(path, text):
        if only and name not in only:
            continue
        if name == "nvrtc":
            r = tiers.nvrtc_run(path)
            if r.nvrtc_mismatch:
                bad.append((name, r.nvrtc_mismatch, "nvrtc"))
            continue
        r = tiers.uir_run(path, ref) if name == "uir" else go()
        if r.status != ref.status:
            e = r.err.strip()
            bad.append((name, "status %s, reference %s: %s" % (r.status, ref.status, e[:600] if isinstance(r.status, str) else e[-600:]),
                        "status:%s" % r.status))
            continue
        if name == "uir":
            if r.uir_mismatch:
                bad.append((name, r.uir_mismatch, "uir-output"))
            continue
        d = same_output(ref.out, r.out, strict_unordered=name != "impl")
        if d:
            # a value printed wrong, or lines missing or added: the reducer keeps which
            same_lines = len(ref.out.splitlines()) == len(r.out.splitlines())
            bad.append((name, d, "output" if same_lines else "output-lines"))
            continue
        if where and ref.status == 101 and r.where() != ref.where():
            bad.append((name, "runtime error at %s, reference at %s" % (r.where(), ref.where()), "where"))
    return ref, bad
