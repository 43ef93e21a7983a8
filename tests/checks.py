"""What the Python tests share. Checks: the failures a test collects (every check runs and says
what it got and wanted, and the test fails at the end if any did). run: a command with text
output and more environment. on_terminal: a command run with
one of its outputs a terminal. lint_sources: a check of every line of src/ against patterns.
scratch_dir: a temporary folder removed when the test exits. json_diagnostics: what
--error-format=json wrote, with each diagnostic's primary span. repo_files: the repository's own
files, without .git, build folders and installed packages.
Import it with the test's folder on sys.path."""
import atexit
import json
import os
import pty
import shutil
import subprocess
import sys
import tempfile


class Checks:
    def __init__(self, name):
        self.name = name
        self.failures = []

    def fail(self, msg):
        self.failures.append(msg)
        print("FAIL: " + msg)

    def expect(self, what, got, want):
        if got != want:
            self.fail(f"{what}: got {got!r}, want {want!r}")

    def status(self, r, want, what, stderr_has=None):
        """Whether the process `r` (from run) exited with `want` and, when given, wrote
        `stderr_has` on stderr; a failure that shows its stderr otherwise."""
        if r.returncode != want:
            self.fail(f"{what}: exit status {r.returncode}, expected {want}; stderr: {r.stderr[-800:]}")
            return False
        if stderr_has and stderr_has not in r.stderr:
            self.fail(f"{what}: stderr lacks {stderr_has!r}: {r.stderr[-800:]}")
            return False
        return True

    def finish(self):
        print(f"{self.name}: {len(self.failures)} failures")
        sys.exit(1 if self.failures else 0)


def run(argv, env=None, cwd=None, timeout=300):
    """Runs `argv` (never through a shell) with `env` added to this process's environment;
    returns the finished process with its output as text."""
    full = dict(os.environ)
    full.update(env or {})
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=full, cwd=cwd)


def json_diagnostics(stderr):
    """The diagnostics vx wrote on `stderr` under --error-format=json (spec/cli.md §5), in order:
    (the diagnostic, its primary span or None) for each line that is one."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            out.append((d, next((x for x in d["spans"] if x["is_primary"]), None)))
    return out


def on_terminal(argv, which, env=None, cwd=None, timeout=60):
    """Runs `argv` with its standard `which` ("stdout" or "stderr") a pseudo-terminal and the
    other discarded; returns its exit status and all it wrote to the terminal, as bytes."""
    leader, follower = pty.openpty()
    streams = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, which: follower}
    p = subprocess.Popen(argv, env=env, cwd=cwd, **streams)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the program ended and closed its end
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    return p.wait(timeout=timeout), out


def int_option(name, default):
    """The number after `name` (`--programs`) on this process's command line, else `default`:
    the random tests' sizes and seeds."""
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def scratch_dir(prefix="vx_test_"):
    """A new temporary folder, removed with all it holds when this process exits, however the
    test ends but killed (tests that called mkdtemp left a folder in /tmp each run)."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


# Folders that hold no file of the repository's own: git's, npm's and Python's caches, bundles.
# A folder named build… or holding a CMakeCache.txt is a build tree and is skipped as well.
NOT_SOURCE_DIRS = {".git", "node_modules", "dist", "smith-results", "__pycache__"}


def repo_files(root):
    """(path, file name) of every file under `root` outside NOT_SOURCE_DIRS and build trees, in
    sorted order."""
    for base, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in NOT_SOURCE_DIRS and not d.startswith("build")
                         and not os.path.exists(os.path.join(base, d, "CMakeCache.txt")))
        for name in sorted(names):
            yield os.path.join(base, name), name


def lint_sources(name, root, flags, must_flag, must_pass, allowed=(), folder="src",
                 suffixes=(".cpp", ".hpp", ".def", ".inc")):
    """Runs `flags(line)` (the reasons it finds a line wrong, a list) on every line of the
    files ending in `suffixes` under ROOT/`folder` (the C++ of src/ unless told), but those of
    `allowed` (paths from ROOT); first on `must_flag` and `must_pass`, so that a pattern that
    cannot fail fails the check. Prints each problem and exits: 1 when there is one."""
    failures = ["the check misses `%s`" % line for line in must_flag if not flags(line)]
    failures += ["the check flags `%s`" % line for line in must_pass if flags(line)]
    files = 0
    for base, _, names in sorted(os.walk(os.path.join(root, folder))):
        for file_name in sorted(names):
            if not file_name.endswith(suffixes):
                continue
            files += 1
            path = os.path.join(base, file_name)
            rel = os.path.relpath(path, root)
            if rel in allowed:
                continue
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    for why in flags(line):
                        failures.append("%s:%d: %s\n    %s" % (rel, number, why, line.strip()))
    for f in failures:
        print("FAIL: " + f)
    print("%s: %d files, %d problems" % (name, files, len(failures)))
    sys.exit(1 if failures else 0)
