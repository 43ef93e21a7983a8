#!/usr/bin/env bash
# Golden outputs of `vx` on .uir work (spec/uir.md §5.3, §7): each tests/uir_golden/*.txt starts
# with the line `$ vx ARGS…` and holds, after it, exactly what that command prints (stdout and
# stderr). Run from the project root with the vx to test as $1. The first line is split into
# words at blanks (`read -a`: no globbing, no expansion) and vx gets them as arguments.
vx="$1"
status=0
count=0
for golden in tests/uir_golden/*.txt; do
  [ -f "$golden" ] || continue
  count=$((count + 1))
  args=$(head -n 1 "$golden" | sed -n 's/^\$ vx //p')
  if [ -z "$args" ]; then
    echo "uir_golden: $golden does not start with \`\$ vx …\`"
    status=1
    continue
  fi
  read -r -a words <<<"$args"
  actual=$("$vx" "${words[@]}" 2>&1)
  if [ "$actual" != "$(tail -n +2 "$golden")" ]; then
    echo "uir_golden: \`vx $args\` differs from $golden:"
    printf '%s\n' "$actual" | tail -n +1 | diff "$golden" - | head -40
    status=1
  fi
done
[ "$count" -gt 0 ] || { echo "uir_golden: no cases"; status=1; }
exit $status
