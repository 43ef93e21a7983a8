#!/usr/bin/env python3
"""src/numeric/vx_math_tables.inc is exactly what tools/mathcheck/gen_tables.py prints (mpmath at
2200 bits): a table edited by hand, or a generator changed without rerunning it, fails here with
the first differing line. Needs mpmath (tools/setup installs it); without it this fails.

    tests/math_tables.py ROOT
"""
import difflib
import pathlib
import subprocess
import sys

root = pathlib.Path(sys.argv[1])
want = subprocess.run([sys.executable, str(root / "tools/mathcheck/gen_tables.py")],
                      check=True, capture_output=True, text=True).stdout
have = (root / "src/numeric/vx_math_tables.inc").read_text()
if have != want:
    diff = difflib.unified_diff(have.splitlines(), want.splitlines(), "vx_math_tables.inc",
                                "gen_tables.py", lineterm="", n=1)
    print("\n".join(list(diff)[:40]))
    print("FAIL: rerun tools/mathcheck/gen_tables.py > src/numeric/vx_math_tables.inc")
    sys.exit(1)
print(f"math_tables: vx_math_tables.inc is gen_tables.py's output ({len(have.splitlines())} lines)")
