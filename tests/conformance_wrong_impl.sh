#!/bin/sh
# The conformance runner must catch a wrong implementation: `vx conformance --impl` with
# tests/wrong_impl/flip_stdout.sh over the corpus has to exit non-zero and end with
# `N passed, M failed`, M > 0. Run from the repository root.
# usage: tests/conformance_wrong_impl.sh VX [CORPUS-DIR]
set -u
vx=${1:?usage: conformance_wrong_impl.sh VX [CORPUS-DIR]}
corpus=${2:-conformance}
here=$(cd "$(dirname "$0")" && pwd)
VX_REAL=$vx
export VX_REAL

out=$("$vx" conformance --impl "sh '$here/wrong_impl/flip_stdout.sh' {flags} {file}" "$corpus")
status=$?
printf '%s\n' "$out" | head -n 5
echo "..."
last=$(printf '%s\n' "$out" | tail -n 1)
echo "$last"

fail() {
  echo "conformance_wrong_impl: $*" >&2
  exit 1
}
[ "$status" -ne 0 ] || fail "the runner exited 0 for a wrong implementation"
[ "$status" -eq 1 ] || fail "the runner exited $status, expected 1"
printf '%s\n' "$last" | grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed$' ||
  fail "the last line is not \`N passed, M failed\` with M > 0: $last"
printf '%s\n' "$out" | grep -q '^FAIL .*stdout line 1: expected' ||
  fail "no changed stdout was reported"
printf '%s\n' "$out" | grep -q '^FAIL .*expected 1 (refused)' ||
  fail "no accepted refusal was reported"
echo "conformance_wrong_impl: the wrong implementation was caught"
