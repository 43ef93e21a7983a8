#!/usr/bin/env bash
# Host parallelism keeps the sequential meaning (DESIGN §3.10, spec/semantics.md §7): every
# program of the conformance corpus with an `across blocks` loop (the only thing host threads
# change; the others are not run twice, which halves the test's time), run in the interpreter
# with VX_HOST_THREADS=1 (one pass at a time) and with VX_HOST_THREADS=4 (the blocks of each
# across-blocks loop on TBB tasks), must give byte-identical stdout and stderr and the same exit
# status, refused programs and runtime errors included. Excepted: programs whose output may depend on the order of float atomics or
# of lanes::sum_unordered (spec/builtins.md), listed below; they must still exit the same way.
# VX_CORPUS_EVERY=N runs every Nth of those programs only (the sanitizer build: tests/sanitize.cmake).
# Run from the repository root.
# usage: tests/host_threads_corpus.sh VX [CORPUS-DIR]
set -u
vx=${1:?usage: host_threads_corpus.sh VX [CORPUS-DIR]}
corpus=${2:-conformance}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/corpus_flags.sh"

# Output may differ in its last bits with the order of float read-modify-writes.
order_dependent="builtins/atomics_f32.vx builtins/lanes_sum_unordered.vx"

every=${VX_CORPUS_EVERY:-1}
failed=0
count=0
seen=0
for f in $(find "$corpus" -name '*.vx' | sort); do
  grep -q 'across blocks' "$f" || continue
  seen=$((seen + 1))
  [ $(((seen - 1) % every)) -eq 0 ] || continue
  count=$((count + 1))
  if ! read_corpus_flags "$f"; then
    failed=$((failed + 1))
    continue
  fi
  for n in 1 4; do
    env "${env_words[@]}" VX_HOST_THREADS=$n "$vx" run --offload=off "${flag_words[@]}" "$f" \
      > "$tmp/out$n" 2> "$tmp/err$n"
    echo $? > "$tmp/status$n"
  done
  if ! cmp -s "$tmp/status1" "$tmp/status4"; then
    echo "FAIL $f: exit status $(cat "$tmp/status1") with 1 thread, $(cat "$tmp/status4") with 4" >&2
    failed=$((failed + 1))
    continue
  fi
  case " $order_dependent " in *" ${f#"$corpus"/} "*) continue ;; esac
  for stream in out err; do
    if ! cmp -s "$tmp/${stream}1" "$tmp/${stream}4"; then
      echo "FAIL $f: std$stream differs between 1 and 4 host threads:" >&2
      diff "$tmp/${stream}1" "$tmp/${stream}4" | head -n 6 >&2
      failed=$((failed + 1))
    fi
  done
done
echo "$count programs with across blocks run with 1 and 4 host threads"
[ "$count" -gt 0 ] || { echo "no program in $corpus" >&2; exit 1; }
if [ "$failed" -ne 0 ]; then
  echo "host_threads_corpus: $failed failed" >&2
  exit 1
fi
echo "host_threads_corpus: ok"
