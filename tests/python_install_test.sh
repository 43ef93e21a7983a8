#!/usr/bin/env bash
# tools/python-install (spec/python.md §1) as a user runs it, without root and without network:
# into a virtual environment made with `python3 -m venv --system-site-packages` (the README's
# case: vx beside Debian's NumPy and PyTorch), where `import vx` then works from any folder, pip
# lists it and `pip uninstall vx` removes it; and into a folder of one's own (--target), removed
# again with --uninstall. The build is the test's own (--build), already up to date.
# usage: python_install_test.sh REPO_ROOT BUILD_DIR PYTHON
set -euo pipefail
root=$1
build=$2
python=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$python" -m venv --system-site-packages "$tmp/venv" || fail "python3 -m venv (python3-venv)"
out=$(. "$tmp/venv/bin/activate" && "$root/tools/python-install" --no-setup --build "$build" 2>&1) ||
  fail "tools/python-install in a virtual environment: $out"
echo "$out" | tail -n 1
site=$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
[ -f "$site/vx/__init__.py" ] && [ -f "$site/vx/__init__.pyi" ] && [ -f "$site/vx/py.typed" ] ||
  fail "the package is not complete in $site/vx"
got=$(cd / && "$tmp/venv/bin/python" -c '
import numpy as np, torch, vx
m = vx.compile("pub fn twice(x: &mut Tensor<f32, [?]>) {\n    for i in 0..x.len() { x[i] = x[i] * 2.0; }\n}\n")
a = np.arange(3, dtype=np.float32); t = torch.ones(2)
m.twice(a); m.twice(t)
print(vx.__file__, a.tolist(), t.tolist())') || fail "import vx in the virtual environment"
[ "$got" = "$site/vx/__init__.py [0.0, 2.0, 4.0] [2.0, 2.0]" ] || fail "in the virtual environment: $got"
listed=$("$tmp/venv/bin/python" -m pip list 2>/dev/null) || fail "pip list"
grep -q '^vx ' <<<"$listed" || fail "pip list does not show vx"
"$tmp/venv/bin/python" -m pip uninstall -y vx >/dev/null 2>&1 || fail "pip uninstall vx"
(cd / && "$tmp/venv/bin/python" -c 'import vx' 2>/dev/null) && fail "vx is still there after pip uninstall"

"$root/tools/python-install" --no-setup --build "$build" --python "$python" --target "$tmp/own" \
  >/dev/null || fail "tools/python-install --target"
(cd / && PYTHONPATH="$tmp/own" "$python" -c 'import vx; vx.compile("pub fn f() {}").f()') ||
  fail "import vx from --target"
"$root/tools/python-install" --target "$tmp/own" --uninstall >/dev/null
[ ! -e "$tmp/own/vx" ] || fail "--uninstall left $tmp/own/vx"
echo "python_install: 0 failures"
