#!/bin/sh
# `vx check --explain FILE.uir` prints the lesson's digit tables (spec/uir.md §5.3): compares its
# output for the lesson's cases with tests/uir_explain/NAME.txt, exactly. Run from the project root.
vx="$1"
status=0
for expected in tests/uir_explain/*.txt; do
  name=$(basename "$expected" .txt)
  actual=$("$vx" check --explain "conformance/uir/$name.uir" 2>&1)
  if [ "$actual" != "$(cat "$expected")" ]; then
    echo "uir_explain: $name differs from $expected:"
    printf '%s\n' "$actual" | diff "$expected" - | head -40
    status=1
  fi
done
[ -n "$(ls tests/uir_explain/*.txt 2>/dev/null)" ] || { echo "uir_explain: no cases"; status=1; }
exit $status
