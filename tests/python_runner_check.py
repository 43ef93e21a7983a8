#!/usr/bin/env python3
"""Every Python test runs on ${vx_python}: the interpreter the top-level CMakeLists.txt names once,
Debian's /usr/bin/python3 unless Python_EXECUTABLE says otherwise, which tools/setup gives numpy,
jsonschema, hypothesis and the rest. Before, tests.cmake files named four: /usr/bin/python3, a
python3 found on PATH (here a pyenv one without Debian's packages), CMake's Python3_EXECUTABLE
and Python_EXECUTABLE; and eight tests sat inside `if(Python3_FOUND)`, registered only where some
python3 was found, so a machine without one skipped them unseen.

usage: python_runner_check.py REPO_ROOT
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import lint_sources  # noqa: E402

FORBIDDEN = [
    (re.compile(r"/usr/bin/python|(?<![\w/.-])python3(?![\w.-])|COMMAND\s+python\b"),
     "a Python named here: run it as ${vx_python}"),
    (re.compile(r"\bPython3?_EXECUTABLE\b"), "CMake's Python: run it as ${vx_python}"),
    (re.compile(r"find_package\(Python|\bPython3?_FOUND\b"),
     "a test kept only where a Python is found is skipped unseen: run it as ${vx_python}"),
]

# The patterns themselves, on lines they must and must not flag: a check that cannot fail is none.
MUST_FLAG = ["  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/values_test.py",
             "           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/layers_check.py",
             "    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/repl_test.py piped",
             "          ${Python_EXECUTABLE})", "find_package(Python3 COMPONENTS Interpreter)",
             "if(Python3_FOUND)", "  COMMAND python -m pytest"]
MUST_PASS = ["  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/python_notebook_test.py",
             'set(vx_python_env "PYTHONPATH=${CMAKE_BINARY_DIR}/python"',
             "  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tools/python-install",
             "# Debian's /usr/bin/python3, which tools/setup installs",
             "set_tests_properties(python PROPERTIES DEPENDS cuda_host_test)"]


def flags(line):
    code = line.split("#", 1)[0]
    return [why for pattern, why in FORBIDDEN if pattern.search(code)]


lint_sources("python_runner", sys.argv[1], flags, MUST_FLAG, MUST_PASS, folder="tests",
             suffixes=(".cmake",))
