#!/usr/bin/env bash
# Every C++ and CUDA file in git follows the committed .clang-format, as clang-format 14 (the
# version tools/setup installs) formats it. Fails, never skips, when clang-format-14 is missing.
# To fix: clang-format-14 --style=file -i FILE...
# usage: format_check.sh REPO_ROOT
set -euo pipefail
root=$1
cf=$(command -v clang-format-14 || true)
if [ -z "$cf" ]; then
  echo "FAIL: clang-format-14 not found (tools/setup installs it)"
  exit 1
fi
cd "$root"
mapfile -d '' files < <(git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.cuh' '*.cu')
if [ "${#files[@]}" -lt 50 ]; then
  echo "FAIL: only ${#files[@]} files listed by git ls-files in $root"
  exit 1
fi
bad=()
for f in "${files[@]}"; do
  "$cf" --style=file --dry-run -Werror -- "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "FAIL: ${#bad[@]} of ${#files[@]} files do not follow .clang-format:"
  printf '  %s\n' "${bad[@]}"
  echo "fix: clang-format-14 --style=file -i FILE..."
  exit 1
fi
echo "format: ${#files[@]} files follow .clang-format"
