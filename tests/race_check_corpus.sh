#!/usr/bin/env bash
# `vx run --check-races` (spec/kernel-rules.md §9) over the conformance corpus: every program
# with a NAME.stdout must run under the race recorder with no collision, the same exit status
# (0, or NAME.exitcode) and exactly the expected stdout; and a program the disjointness rule
# refuses, run without the kernel rules (`--unchecked-kernels`), must be stopped by the recorder
# with exit status 101 and a runtime error naming both passes and the element. Run from the
# repository root.
# usage: tests/race_check_corpus.sh VX [CORPUS-DIR]
set -u
vx=${1:?usage: race_check_corpus.sh VX [CORPUS-DIR]}
corpus=${2:-conformance}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/corpus_flags.sh"

failed=0
count=0
fail() {
  echo "FAIL $*" >&2
  failed=$((failed + 1))
}

for f in $(find "$corpus" -name '*.vx' | sort); do
  expected=${f%.vx}.stdout
  [ -f "$expected" ] || continue
  count=$((count + 1))
  if ! read_corpus_flags "$f"; then
    failed=$((failed + 1))
    continue
  fi
  want=0
  [ -f "${f%.vx}.exitcode" ] && want=$(tr -d ' \n' < "${f%.vx}.exitcode")
  env "${env_words[@]}" "$vx" run --check-races "${flag_words[@]}" "$f" > "$tmp/out" 2> "$tmp/err"
  status=$?
  if grep -q 'data race' "$tmp/err"; then
    fail "$f: the recorder reported a collision: $(grep 'data race' "$tmp/err" | head -n 1)"
  elif [ "$status" -ne "$want" ]; then
    fail "$f: exit status $status, expected $want: $(head -n 1 "$tmp/err")"
  elif ! cmp -s "$tmp/out" "$expected"; then
    fail "$f: stdout differs from $expected"
  fi
done
echo "$count accepted programs run with --check-races"
[ "$count" -gt 0 ] || fail "no program with a .stdout in $corpus"

# The oracle: a refused disjointness program, run anyway, must be stopped.
refused=$corpus/kernel_rules/lesson_coefficient_8.vx
"$vx" run --unchecked-kernels --check-races "$refused" > "$tmp/out" 2> "$tmp/err"
status=$?
if [ "$status" -ne 101 ]; then
  fail "$refused: exit status $status, expected 101"
fi
grep -q '^error: runtime error: data race: block 0 lane 8 and block 1 lane 0 both write element 8 of `out`$' "$tmp/err" ||
  fail "$refused: no runtime error naming both passes and the element: $(head -n 1 "$tmp/err")"
grep -q 'lesson_coefficient_8.vx:8:' "$tmp/err" ||
  fail "$refused: the error does not point at the store (line 8)"

# Every program the disjointness rule refuses, run with the checker bypassed: the collision the
# checker names must be real, so the run stops with a data race at the refused access.
for name in book_write_fixed_row data_dependent_write lane_must_fix_index \
            lesson_t_div_4_coefficient_15 product_of_indices call_writes_through_argument; do
  refused=$corpus/kernel_rules/$name.vx
  line=$(grep -n '//~ ERROR E6032' "$refused" | head -n 1 | cut -d: -f1)
  "$vx" run --unchecked-kernels --check-races "$refused" > "$tmp/out" 2> "$tmp/err"
  status=$?
  [ "$status" -eq 101 ] || fail "$refused: exit status $status, expected 101"
  grep -q '^error: runtime error: data race: ' "$tmp/err" ||
    fail "$refused: no data race reported: $(head -n 1 "$tmp/err")"
  [ -n "$line" ] || fail "$refused: no //~ ERROR E6032 marker"
done
# The same-expression case reads a neighbour's slot of a tile that no lane has written yet, so the
# run stops one step earlier, at the uninitialised read of that slot: the neighbour's element.
refused=$corpus/kernel_rules/lesson_neighbour_read.vx
"$vx" run --unchecked-kernels --check-races "$refused" > "$tmp/out" 2> "$tmp/err"
status=$?
[ "$status" -eq 101 ] || fail "$refused: exit status $status, expected 101"

# Every collision note is true (spec/kernel-rules.md §4): each refused program whose refusal names
# two passes that collide, and does not say that it cannot tell whether they get there, must be
# stopped by the recorder when run anyway. (The neighbour read above stops one step earlier, at
# the uninitialised slot.) A note that named a block an `if` keeps from the store was not.
noted=0
for f in $(grep -rl '//~ ERROR E6032' "$corpus" --include='*.vx' | sort); do
  "$vx" check "$f" > "$tmp/out" 2> "$tmp/err"
  grep -E '^ *= note: .*( both write | reads it)' "$tmp/err" | grep -qv 'if both get there' || continue
  noted=$((noted + 1))
  "$vx" run --unchecked-kernels --check-races "$f" > "$tmp/out" 2> "$tmp/err"
  status=$?
  if [ "$status" -ne 101 ]; then
    fail "$f: its refusal names two passes that collide, but run anyway it exits $status"
  elif ! grep -qE '^error: runtime error: (data race|read of uninitialised)' "$tmp/err"; then
    fail "$f: its refusal names two passes that collide, but the recorder says: $(head -n 1 "$tmp/err")"
  fi
done
echo "$noted refused programs with a collision note run with --check-races"
[ "$noted" -ge 20 ] || fail "only $noted refused programs with a collision note in $corpus"

if [ "$failed" -ne 0 ]; then
  echo "race_check_corpus: $failed failed" >&2
  exit 1
fi
echo "race_check_corpus: ok"
